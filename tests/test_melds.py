"""Unit tests for melds: build, validate, value, lay off, swap (RULES.md M, J, V, O3)."""

from __future__ import annotations

import attrs
import pytest

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    Card,
    End,
    Group,
    InvalidMeldError,
    Meld,
    MeldReason,
    Rank,
    Ruleset,
    Run,
    Suit,
    format_meld,
    is_clean_run,
    lay_off,
    make_meld,
    meld_points,
    meld_readings,
    parse_card,
    parse_cards,
    parse_meld,
    swap_joker,
    validate_meld,
)
from rummylib.cards import deck

ADJACENT = attrs.evolve(REMIK, name="adjacent", adjacent_jokers=True)


def meld(text: str, rules: Ruleset = REMIK, jokers: str | None = None) -> Meld:
    return make_meld(parse_cards(text), rules, jokers=None if jokers is None else parse_cards(jokers))


def refused(text: str, rules: Ruleset = REMIK, jokers: str | None = None) -> InvalidMeldError:
    with pytest.raises(InvalidMeldError) as info:
        meld(text, rules, jokers)
    return info.value


# --- values (R-V, V1, O3) ------------------------------------------------------------------


def test_seed_examples_of_meld_value() -> None:
    assert meld_points(meld("9S 10S JS"), REMIK) == 29  # R-V1
    assert meld_points(meld("8S 8H 8D"), REMIK) == 24  # R-V1: three eights


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("AH 2H 3H", 6),  # R-V: the ace before a two is 1
        ("QH KH AH", 31),  # R-V: the ace after a king is 11
        ("AS AH AD", 33),  # R-V: an ace in a set is 11
        ("JC QC KC", 30),
        ("5H 6H JK", 18),  # R-O3: the joker counts as the 7H it stands for
    ],
)
def test_meld_points(text: str, points: int) -> None:
    assert meld_points(meld(text), REMIK) == points


def test_set_of_four_aces_with_two_jokers_is_44() -> None:
    # R-J1, J2: a set of four with two jokers is obvious; every slot is an 11-point ace (R-V).
    group = meld("AS JK AH JK")
    assert isinstance(group, Group)
    assert [str(c) for c in group.represents] == ["AS", "AH", "AD", "AC"]
    assert meld_points(group, REMIK) == 44


def test_both_aces_of_a_double_deck_low_and_high() -> None:
    # R-C1, M3: the two AH of a double deck can sit in A-2-3 and in Q-K-A at once.
    low, high = meld("AH 2H 3H"), meld("QH KH AH")
    assert isinstance(low, Run) and isinstance(high, Run)
    assert (low.start, high.end) == (1, 14)
    assert deck(REMIK).count(parse_card("AH")) == 2
    assert meld_points(low, REMIK) + meld_points(high, REMIK) == 6 + 31


def test_longest_runs_are_thirteen_cards() -> None:
    # R-M3: A..K and 2..A.
    low = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    high = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert isinstance(low, Run) and isinstance(high, Run)
    assert (low.start, low.end, high.start, high.end) == (1, 13, 2, 14)
    assert meld_points(low, REMIK) == 1 + 54 + 30
    assert meld_points(high, REMIK) == 54 + 30 + 11
    too_long = refused("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert too_long.reason is MeldReason.TOO_LONG  # R-M3: never the ace at both ends
    assert "13" in str(too_long)


# --- building: orders, readings, jokers (R-M1, M6, J1, J3) -------------------------------


def test_run_order_is_honoured_when_valid() -> None:
    # R-M6, J1: a joker at a declared end of a run is obvious from its position.
    assert format_meld(meld("5H 6H JK")) == "5H 6H JK=7H"
    assert format_meld(meld("JK 5H 6H")) == "JK=4H 5H 6H"
    assert format_meld(meld("5H JK 7H")) == "5H JK=6H 7H"


def test_unordered_cards_take_the_only_reading() -> None:
    run = meld("7H 5H 6H")
    assert isinstance(run, Run)
    assert [str(c) for c in run.cards] == ["5H", "6H", "7H"]
    assert format_meld(meld("JK 5H JK")) == "JK=4H 5H JK=6H"


def test_one_rule_as_laid_else_the_single_reading() -> None:
    # R-J1, J3, M3: the order as laid when it is a valid run; otherwise the single reading.
    # JK JK 5H laid so would put the jokers side by side, but its only reading is JK 5H JK.
    assert format_meld(meld("JK JK 5H")) == "JK=4H 5H JK=6H"
    assert format_meld(meld("5H 6H JK JK")) == "JK=4H 5H 6H JK=7H"
    # KH AH JK laid so would go past the ace; its only reading puts the joker below.
    assert format_meld(meld("KH AH JK")) == "JK=QH KH AH"
    assert format_meld(meld("AH KH JK")) == "JK=QH KH AH"
    # No reading at all: the reason names the rule.
    assert refused("4H JK JK 7H").reason is MeldReason.ADJACENT_JOKERS
    # R-M4: under straight rules Q-K-A is no run, in any order.
    assert refused("QS KS AS", STRAIGHT).reason is MeldReason.ACE_HIGH_FORBIDDEN


def test_ambiguous_meld_carries_its_readings() -> None:
    # R-J1: 8S 8H JK is a valid meld with two readings; they are data, not only message text.
    error = refused("8S 8H JK")
    assert error.reason is MeldReason.AMBIGUOUS
    assert [format_meld(m) for m in error.readings] == ["8S 8H JK=8D", "8S 8H JK=8C"]
    assert error.readings == meld_readings(parse_cards("8S 8H JK"), REMIK)
    assert [format_meld(m) for m in meld_readings(parse_cards("6H 5H JK"), REMIK)] == ["JK=4H 5H 6H", "5H 6H JK=7H"]
    assert meld_readings(parse_cards("5H 7H 8S"), REMIK) == ()
    assert meld_readings(parse_cards("5H 6H"), REMIK) == ()
    # The order as laid picks one reading of several: no error, and the others stay readings.
    assert format_meld(meld("5H 6H JK")) == "5H 6H JK=7H"
    assert len(meld_readings(parse_cards("5H 6H JK"), REMIK)) == 2
    assert refused("9S 10S QS").readings == ()


def test_ambiguous_jokers_need_a_declaration() -> None:
    # R-J1: a set of three with one joker must name the missing suit.
    error = refused("8S 8H JK")
    assert error.reason is MeldReason.AMBIGUOUS
    assert "8S 8H JK=8D" in str(error) and "8S 8H JK=8C" in str(error)
    assert format_meld(meld("8S 8H JK", jokers="8C")) == "8S 8H JK=8C"
    # Unordered run cards with a joker that could go at either end.
    assert refused("6H 5H JK").reason is MeldReason.AMBIGUOUS
    assert format_meld(meld("6H 5H JK", jokers="4H")) == "JK=4H 5H 6H"


def test_group_is_canonicalised_to_suit_order() -> None:
    group = meld("8C JK 8S", jokers="8D")
    assert isinstance(group, Group)
    assert group.suits == (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    assert [str(c) for c in group.cards] == ["8S", "JK", "8C"]


def test_straight_ace_is_low_only() -> None:
    # R-M4: A-2-3 is a run; Q-K-A and K-A-2 are not.
    assert meld_points(meld("AS 2S 3S", STRAIGHT), STRAIGHT) == 6
    assert refused("QS KS AS", STRAIGHT).reason is MeldReason.ACE_HIGH_FORBIDDEN
    assert refused("KS AS 2S", STRAIGHT).reason is MeldReason.WRAPS_CORNER


def test_a_group_of_one_deck_is_automatically_distinct() -> None:
    # R-M2: straight rummy sets are 3 or 4 of a rank.
    group = meld("7S 7H 7D 7C", STRAIGHT)
    assert isinstance(group, Group) and len(group) == 4


# --- every way to be invalid has its own reason ------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules", "jokers", "reason", "words"),
    [
        ("5H 6H", REMIK, None, MeldReason.TOO_SHORT, "fewer than 3"),  # R-M1
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", REMIK, None, MeldReason.TOO_LONG, "13"),
        ("JK JK JK", REMIK, None, MeldReason.NO_NATURAL, "real card"),
        ("5H 6S 7H", REMIK, None, MeldReason.MIXED_SUITS, "5H 6S 7H"),  # R-M1
        ("8S 8H 9H", REMIK, None, MeldReason.MIXED_RANKS, "8S 8H 9H"),  # R-M2
        ("5H 5H 6H", REMIK, None, MeldReason.REPEATED_RANK, "5H twice"),
        ("5H 7H 8H", REMIK, None, MeldReason.GAP, "run 5H 7H 8H has a gap at 6H"),  # R-M1
        ("4H 7H 8H", REMIK, None, MeldReason.GAP, "gap at 5H 6H"),
        ("4H 8H JK", REMIK, None, MeldReason.GAP, "gap at 5H 6H 7H"),
        ("AH 2H AH", REMIK, None, MeldReason.ACE_BOTH_ENDS, "ace at both ends"),  # R-M3
        ("KH AH 2H", REMIK, None, MeldReason.WRAPS_CORNER, "K-A-2"),  # R-M3
        ("KH 2H JK", REMIK, None, MeldReason.WRAPS_CORNER, "K-A-2"),  # R-M3: the joker would be the ace
        ("QS KS AS", STRAIGHT, None, MeldReason.ACE_HIGH_FORBIDDEN, "forbid"),  # R-M4
        ("5S 5H 5D 5C JK", REMIK, None, MeldReason.GROUP_TOO_BIG, "at most 4"),  # R-M2
        ("9H 9H 9S", REMIK, None, MeldReason.REPEATED_SUIT, "set 9H 9H 9S repeats the suit H"),  # R-M2
        ("AS JK JK", REMIK, None, MeldReason.TOO_MANY_JOKERS, "2 jokers"),  # R-J2, J3
        ("5H JK JK 8H", REMIK, None, MeldReason.ADJACENT_JOKERS, "apart"),  # R-J3
        ("5H 6H JK", STRAIGHT, None, MeldReason.JOKERS_NOT_ALLOWED, "straight"),  # R-C1
        ("5H 6H JK", REMIK, "9H", MeldReason.JOKER_MISMATCH, "9H"),  # R-J1
        ("5H 6H JK", REMIK, "7H 8H", MeldReason.JOKER_MISMATCH, "has 1 joker but declares 7H 8H"),
        ("8S 8H JK", REMIK, None, MeldReason.AMBIGUOUS, "ambiguous"),  # R-J1
    ],
)
def test_make_meld_reasons(text: str, rules: Ruleset, jokers: str | None, reason: MeldReason, words: str) -> None:
    error = refused(text, rules, jokers)
    assert error.reason is reason, error
    assert words in str(error)
    assert isinstance(error, ValueError)
    assert error.cards == tuple(parse_cards(text))


def test_more_jokers_than_the_deck_holds() -> None:
    # R-C1, C3: a meld cannot hold jokers the deck does not have.
    two_jokers = attrs.evolve(ADJACENT, jokers=2)
    assert format_meld(meld("5H JK JK", two_jokers)) == "5H JK=6H JK=7H"
    error = refused("5H JK JK JK", two_jokers)
    assert error.reason is MeldReason.TOO_MANY_JOKERS
    assert "only 2" in str(error)


def test_group_with_too_many_jokers_is_refused_by_validate() -> None:
    group = Group(Rank.EIGHT, parse_cards("8S JK JK"), (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))
    with pytest.raises(InvalidMeldError) as info:
        validate_meld(group, REMIK)  # R-J2: a set of three holds at most one joker
    assert info.value.reason is MeldReason.TOO_MANY_JOKERS
    validate_meld(group, attrs.evolve(REMIK, group3_max_jokers=2))


def test_adjacent_jokers_layout_is_refused() -> None:
    # R-J3: the *layout* JK JK 5H is no run.
    run = Run(Suit.HEARTS, 3, parse_cards("JK JK 5H"))
    with pytest.raises(InvalidMeldError) as info:
        validate_meld(run, REMIK)
    assert info.value.reason is MeldReason.ADJACENT_JOKERS
    assert "side by side" in str(info.value)
    validate_meld(run, ADJACENT)
    validate_meld(Run(Suit.HEARTS, 4, parse_cards("JK 5H JK")), REMIK)  # R-J3: legal


def test_layout_errors_from_constructors() -> None:
    with pytest.raises(InvalidMeldError) as info:
        Run(Suit.HEARTS, 5, parse_cards("5H 7H 8H"))
    assert info.value.reason is MeldReason.BAD_LAYOUT and "expected 6H" in str(info.value)
    with pytest.raises(InvalidMeldError) as info:
        Run(Suit.HEARTS, 13, parse_cards("KH AH 2H"))
    assert info.value.reason is MeldReason.WRAPS_CORNER
    with pytest.raises(InvalidMeldError) as info:
        Group(Rank.NINE, parse_cards("9H 9H 9S"), (Suit.HEARTS, Suit.HEARTS, Suit.SPADES))
    assert info.value.reason is MeldReason.REPEATED_SUIT
    with pytest.raises(InvalidMeldError) as info:
        Group(Rank.NINE, parse_cards("9H 9S 9D"), (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS))
    assert info.value.reason is MeldReason.BAD_LAYOUT  # slots are kept in suit order
    with pytest.raises(InvalidMeldError) as info:
        Group(Rank.NINE, parse_cards("9S 9H 9D 9C JK"), tuple(Suit) + (Suit.SPADES,))
    assert info.value.reason is MeldReason.GROUP_TOO_BIG
    with pytest.raises(InvalidMeldError) as info:
        Run(Suit.HEARTS, 1, [JOKER, JOKER, JOKER])
    assert info.value.reason is MeldReason.NO_NATURAL
    with pytest.raises(InvalidMeldError) as info:
        Run(Suit.HEARTS, 1, parse_cards("AH 2H"))
    assert info.value.reason is MeldReason.TOO_SHORT


def test_wrong_type_reason() -> None:
    with pytest.raises(InvalidMeldError) as info:
        validate_meld("5H 6H 7H", REMIK)  # type: ignore[arg-type]
    assert info.value.reason is MeldReason.WRONG_TYPE
    with pytest.raises(InvalidMeldError) as info:
        Run(Suit.HEARTS, 5, ["5H", "6H", "7H"])  # type: ignore[list-item]
    assert info.value.reason is MeldReason.WRONG_TYPE


# --- lay off (R-J5, T6) ------------------------------------------------------------------


def test_lay_off_natural_at_either_end() -> None:
    run = meld("5H 6H 7H")
    assert format_meld(lay_off(run, parse_card("4H"), REMIK)) == "4H 5H 6H 7H"
    assert format_meld(lay_off(run, parse_card("8H"), REMIK)) == "5H 6H 7H 8H"
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, parse_card("8H"), REMIK, end=End.LOW)
    assert info.value.reason is MeldReason.DOES_NOT_FIT and "low end" in str(info.value)
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, parse_card("9H"), REMIK)
    assert info.value.reason is MeldReason.DOES_NOT_FIT
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, parse_card("8S"), REMIK)
    assert info.value.reason is MeldReason.MIXED_SUITS


def test_lay_off_ace_at_either_end_of_a_long_run() -> None:
    # R-M3: an ace fits below a 2 or above a king; on 2..K it must say which.
    run = meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    ace = parse_card("AH")
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, ace, REMIK)
    assert info.value.reason is MeldReason.AMBIGUOUS
    low = lay_off(run, ace, REMIK, end=End.LOW)
    high = lay_off(run, ace, REMIK, end=End.HIGH)
    assert isinstance(low, Run) and isinstance(high, Run)
    assert (low.start, high.end) == (1, 14)
    assert meld_points(low, REMIK) + 10 == meld_points(high, REMIK)
    with pytest.raises(InvalidMeldError) as info:
        lay_off(low, parse_card("AH"), REMIK)  # 13 cards: the ace cannot be at both ends
    assert info.value.reason is MeldReason.TOO_LONG


def test_lay_off_never_turns_the_corner() -> None:
    # R-M3: nothing goes above a high ace or below a low ace.
    for run, card, end in [
        (meld("QH KH AH"), parse_card("2H"), None),
        (meld("QH KH AH"), JOKER, End.HIGH),
        (meld("AH 2H 3H"), parse_card("KH"), None),
        (meld("AH 2H 3H"), JOKER, End.LOW),
    ]:
        with pytest.raises(InvalidMeldError) as info:
            lay_off(run, card, REMIK, end=end)
        assert info.value.reason is MeldReason.WRAPS_CORNER, info.value
        assert str(info.value).startswith(f"cannot lay {card} onto ") and "K-A-2" in str(info.value)


def test_lay_off_ace_high_forbidden_in_straight() -> None:
    run = meld("JS QS KS", STRAIGHT)
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, parse_card("AS"), STRAIGHT)  # R-M4
    assert info.value.reason is MeldReason.ACE_HIGH_FORBIDDEN
    assert format_meld(lay_off(run, parse_card("10S"), STRAIGHT)) == "10S JS QS KS"


def test_lay_off_joker_needs_an_end_unless_only_one_is_free() -> None:
    # R-J5: a joker laid off declares the card it stands for (here: by its end).
    run = meld("5H 6H 7H")
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, JOKER, REMIK)
    assert info.value.reason is MeldReason.AMBIGUOUS
    assert format_meld(lay_off(run, JOKER, REMIK, end=End.LOW)) == "JK=4H 5H 6H 7H"
    assert format_meld(lay_off(run, JOKER, REMIK, end=End.HIGH)) == "5H 6H 7H JK=8H"
    assert format_meld(lay_off(run, JOKER, REMIK, joker_as=parse_card("8H"))) == "5H 6H 7H JK=8H"
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, JOKER, REMIK, joker_as=parse_card("9H"))
    assert info.value.reason is MeldReason.JOKER_MISMATCH
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, JOKER, REMIK, end=End.LOW, joker_as=parse_card("8H"))
    assert info.value.reason is MeldReason.JOKER_MISMATCH
    # A run from the low ace has one free end only.
    assert format_meld(lay_off(meld("AH 2H 3H"), JOKER, REMIK)) == "AH 2H 3H JK=4H"
    assert format_meld(lay_off(meld("QH KH AH"), JOKER, REMIK)) == "JK=JH QH KH AH"


def test_lay_off_joker_next_to_a_joker() -> None:
    run = meld("5H 6H JK")
    with pytest.raises(InvalidMeldError) as info:
        lay_off(run, JOKER, REMIK, end=End.HIGH)  # R-J3
    assert info.value.reason is MeldReason.ADJACENT_JOKERS
    assert format_meld(lay_off(run, JOKER, REMIK)) == "JK=4H 5H 6H JK=7H"  # only the low end is free
    assert format_meld(lay_off(run, JOKER, ADJACENT, end=End.HIGH)) == "5H 6H JK=7H JK=8H"


def test_lay_off_onto_groups() -> None:
    group = meld("8S 8H 8D")
    four = lay_off(group, parse_card("8C"), REMIK)  # R-M2: a set of 3 to 4
    assert isinstance(four, Group) and four.suits == tuple(Suit)
    with pytest.raises(InvalidMeldError) as info:
        lay_off(four, parse_card("8C"), REMIK)  # a set of four takes no more
    assert info.value.reason is MeldReason.GROUP_TOO_BIG
    with pytest.raises(InvalidMeldError) as info:
        lay_off(group, parse_card("8S"), REMIK)
    assert info.value.reason is MeldReason.REPEATED_SUIT
    with pytest.raises(InvalidMeldError) as info:
        lay_off(group, parse_card("9C"), REMIK)
    assert info.value.reason is MeldReason.MIXED_RANKS
    with pytest.raises(InvalidMeldError) as info:
        lay_off(group, parse_card("8C"), REMIK, end=End.HIGH)
    assert info.value.reason is MeldReason.BAD_LAYOUT
    # R-J5 with J2: a joker as the 4th card stands for the missing suit.
    with_joker = lay_off(group, JOKER, REMIK)
    assert format_meld(with_joker) == "8S 8H 8D JK=8C"
    assert format_meld(lay_off(group, JOKER, REMIK, joker_as=parse_card("8C"))) == "8S 8H 8D JK=8C"
    with pytest.raises(InvalidMeldError) as info:
        lay_off(group, JOKER, REMIK, joker_as=parse_card("8S"))
    assert info.value.reason is MeldReason.JOKER_MISMATCH
    # R-J2: a set of four holds at most two jokers; a set of three with one gets a second.
    assert format_meld(lay_off(meld("8S 8H JK", jokers="8D"), JOKER, REMIK)) == "8S 8H JK=8D JK=8C"
    two = attrs.evolve(REMIK, group4_max_jokers=1)
    with pytest.raises(InvalidMeldError) as info:
        lay_off(meld("8S 8H JK", two, jokers="8D"), JOKER, two)
    assert info.value.reason is MeldReason.TOO_MANY_JOKERS


def test_lay_off_joker_in_straight() -> None:
    with pytest.raises(InvalidMeldError) as info:
        lay_off(meld("5H 6H 7H", STRAIGHT), JOKER, STRAIGHT)
    assert info.value.reason is MeldReason.JOKERS_NOT_ALLOWED


def test_lay_off_does_not_change_the_meld() -> None:
    run = meld("5H 6H 7H")
    assert isinstance(run, Run)
    before = (run.suit, run.start, run.cards)
    lay_off(run, parse_card("8H"), REMIK)
    assert (run.suit, run.start, run.cards) == before


# --- joker swap (R-J4) ---------------------------------------------------------------------


def test_swap_joker_takes_only_the_exact_card() -> None:
    run = meld("5H JK 7H")
    with pytest.raises(InvalidMeldError) as info:
        swap_joker(run, parse_card("6S"), REMIK)
    assert info.value.reason is MeldReason.NO_SUCH_JOKER and "6S" in str(info.value)
    with pytest.raises(InvalidMeldError) as info:
        swap_joker(run, parse_card("5H"), REMIK)
    assert info.value.reason is MeldReason.NO_SUCH_JOKER
    new, freed = swap_joker(run, parse_card("6H"), REMIK)
    assert freed == JOKER and format_meld(new) == "5H 6H 7H" and is_clean_run(new)
    assert format_meld(run) == "5H JK=6H 7H"


def test_swap_joker_either_copy_of_a_double_deck() -> None:
    # R-C2, J4: the two 8D of a double deck are the same card.
    group = meld("8S 8H JK", jokers="8D")
    first = parse_card("8D")
    second = Card(Rank.EIGHT, Suit.DIAMONDS)
    assert first == second
    for copy in (first, second):
        new, freed = swap_joker(group, copy, REMIK)
        assert format_meld(new) == "8S 8H 8D" and freed is JOKER


def test_swap_joker_in_a_set_of_four_with_two_jokers() -> None:
    group = meld("AS AH JK JK")
    new, _ = swap_joker(group, parse_card("AC"), REMIK)
    assert format_meld(new) == "AS AH JK=AD AC"
    assert meld_points(new, REMIK) == 44


def test_swap_joker_not_in_straight() -> None:
    with pytest.raises(InvalidMeldError) as info:
        swap_joker(meld("5H 6H 7H", STRAIGHT), parse_card("6H"), STRAIGHT)
    assert info.value.reason is MeldReason.SWAP_NOT_ALLOWED
    with pytest.raises(InvalidMeldError) as info:
        swap_joker(meld("5H JK 7H"), JOKER, REMIK)
    assert info.value.reason is MeldReason.WRONG_TYPE


# --- clean runs and notation -------------------------------------------------------------


def test_is_clean_run() -> None:
    # R-O2, O6: a clean run has no joker; a set is never a clean run.
    assert is_clean_run(meld("9S 10S JS"))
    assert not is_clean_run(meld("9S JK JS"))
    assert not is_clean_run(meld("9S 9H 9D"))
    assert not is_clean_run(lay_off(meld("9S 10S JS"), JOKER, REMIK, end=End.HIGH))


@pytest.mark.parametrize(
    "text",
    ["5H 6H JK=7H", "JK=4H 5H JK=6H 7H", "8S 8H JK=8C", "AS AH JK=AD JK=AC", "QH KH AH", "JK=JH QH KH AH"],
)
def test_meld_notation_round_trip(text: str) -> None:
    m = parse_meld(text, REMIK)
    assert format_meld(m) == text == str(m)
    assert parse_meld(format_meld(m), REMIK) == m


def test_parse_meld_leaves_obvious_jokers_undeclared() -> None:
    assert format_meld(parse_meld("5h, 6h, jk", REMIK)) == "5H 6H JK=7H"
    with pytest.raises(InvalidMeldError) as info:
        parse_meld("8S 8H JK", REMIK)
    assert info.value.reason is MeldReason.AMBIGUOUS
    with pytest.raises(InvalidMeldError) as info:
        parse_meld("JK=4H 5H JK", REMIK)  # declare every joker or none
    assert info.value.reason is MeldReason.JOKER_MISMATCH


def test_meld_values_are_hashable_and_equal_by_value() -> None:
    assert meld("5H 6H 7H") == meld("7H 6H 5H")
    assert len({meld("5H 6H 7H"), meld("5H 6H 7H"), meld("8S 8H 8D")}) == 2
    assert meld("8S 8H JK", jokers="8D") != meld("8S 8H JK", jokers="8C")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        meld("5H 6H 7H").cards = ()  # type: ignore[misc]
