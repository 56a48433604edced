"""The solver on hand-written cases: seed examples, regressions, errors."""

from __future__ import annotations

import attrs
import pytest
from _budget import examples
from _oracle_solver import oracle_can_go_out, oracle_opening, oracle_partition_penalty, replay
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    CardMultiset,
    Discard,
    Group,
    InvalidCardsError,
    InvalidMeldError,
    InvalidStateError,
    LayMeld,
    Open,
    Ruleset,
    RulesetError,
    Run,
    best_opening,
    best_partition,
    can_open,
    deck,
    find_melds,
    is_clean_run,
    make_meld,
    meld_points,
    parse_cards,
    parse_meld,
    plan_go_out,
    validate_meld,
)
from rummylib._card import CARDS
from rummylib.cards import Card
from rummylib.melds import Meld
from rummylib.solver import _goout, _search


def cards(text: str) -> CardMultiset:
    return CardMultiset(parse_cards(text))


#: Remik with a low opening threshold, so that one short meld opens (R-O2).
LOW_OPENING = attrs.evolve(REMIK, name="low-opening", opening_points=20)


# --- best_opening -------------------------------------------------------------------------


def test_remik_document_opening_example() -> None:
    # R-V1, R-O2: 9S 10S JS (29) + three eights (24) = 53.
    opening = best_opening(cards("9S 10S JS 8H 8D 8C KD 2C"), REMIK)
    assert opening is not None
    assert opening.points == 53
    assert sorted(str(m) for m in opening.melds) == ["8H 8D 8C", "9S 10S JS"]
    assert opening.leftover == cards("KD 2C")
    assert opening.penalty == 12


def test_opening_needs_51_and_a_clean_run() -> None:
    # R-O2: three sets make 87 points but there is no clean run.
    assert best_opening(cards("KS KH KD QS QH QD 9S 9H 9D"), REMIK) is None
    assert not can_open(cards("KS KH KD QS QH QD 9S 9H 9D"), REMIK)
    # With a clean run: 74 points opens, 39 points does not.
    assert best_opening(cards("2S 3S 4S KH KD KC QH QD QC 5S"), REMIK) is not None
    assert best_opening(cards("2S 3S 4S KH KD KC QH QD 9C"), REMIK) is None


def test_aces_and_jokers_as_set_of_four() -> None:
    # SOLVER-NOTES: A-A-JK-JK is 44 as a set of four aces (all seven cards laid: keep=0).
    opening = best_opening(cards("AS AH JK JK 5C 6C 7C"), REMIK, keep=0)
    assert opening is not None
    assert opening.points == 44 + 18
    groups = [m for m in opening.melds if isinstance(m, Group)]
    assert len(groups) == 1 and len(groups[0]) == 4


def test_joker_valued_by_place() -> None:
    # R-O3: 5H 6H JK is worth 18 as 7H; with QH KH the joker best stands for the ace high.
    opening = best_opening(cards("QH KH JK 9S 10S JS KC KD KS"), REMIK, keep=0)
    assert opening is not None
    assert opening.points == 31 + 29 + 30
    assert any(str(m) == "QH KH JK=AH" for m in opening.melds)


def test_both_aces_high_and_low() -> None:
    # SOLVER-NOTES: one AH low in A-2-3, the other high in Q-K-A.
    opening = best_opening(cards("AH 2H 3H QH KH AH 10S JS QS"), REMIK, keep=0)
    assert opening is not None
    assert opening.points == 6 + 31 + 30
    assert opening.cards_placed == 9


def test_opening_clean_run_not_lost_when_joining() -> None:
    # Pieces of a clean run and a dirty one next to it are not joined into one dirty run.
    opening = best_opening(cards("5S 6S 7S JK 9S 10S KH KD KC"), REMIK)
    assert opening is not None
    assert any(is_clean_run(m) for m in opening.melds)


def test_opening_tie_breaks_by_cards_then_penalty() -> None:
    # Equal points: the opening placing more cards wins (the pure multiset question).
    hand = cards("10S JS QS KS 10H 10D 10C")
    opening = best_opening(hand, REMIK, keep=0)
    assert opening is not None
    assert opening.points == oracle_opening(list(hand), REMIK)[0]  # type: ignore[index]
    assert (opening.points, opening.cards_placed, -opening.penalty) == oracle_opening(list(hand), REMIK)


def test_straight_opening_is_best_meld_set() -> None:
    opening = best_opening(cards("2H 3H 4H 9C"), STRAIGHT)
    assert opening is not None and opening.points == 9
    assert best_opening(cards("2H 3H 5H"), STRAIGHT) is None


# --- best_partition -----------------------------------------------------------------------


def test_straight_seed_penalties() -> None:
    # R-V1: nothing melds, the penalty is the hand value.
    assert best_partition(cards("KH 4S"), STRAIGHT).penalty == 14
    assert best_partition(cards("AD 3D 8C"), STRAIGHT).penalty == 12
    assert best_partition(cards("JS QS 2H"), STRAIGHT).penalty == 22
    assert best_partition(parse_cards("JK AH 7C"), REMIK).penalty == 48


def test_groups_are_not_greedy() -> None:
    # SOLVER-NOTES: (2,2,1,1) across suits: two groups of three beat one of four.
    hand = cards("9S 9S 9H 9H 9D 9C")
    p = best_partition(hand, REMIK)
    assert p.penalty == 0 and len(p.melds) == 2


def test_long_run_comes_back_joined() -> None:
    p = best_partition(cards("2H 3H 4H 5H 6H 7H 8H 9H"), STRAIGHT)
    assert p.penalty == 0
    assert [str(m) for m in p.melds] == ["2H 3H 4H 5H 6H 7H 8H 9H"]


def test_partition_of_whole_deck() -> None:
    for rules in (REMIK, STRAIGHT):
        p = best_partition(deck(rules), rules)
        assert p.penalty == 0 and not p.leftover
        for m in p.melds:
            validate_meld(m, rules)


def test_partition_cards_add_up() -> None:
    hand = cards("AS 2S 3S JK JK 7D 7H KC KC 4H 9D")
    p = best_partition(hand, REMIK)
    assert CardMultiset(c for m in p.melds for c in m.cards) + p.leftover == hand
    assert p.penalty == oracle_partition_penalty(list(hand), REMIK)


# --- find_melds ---------------------------------------------------------------------------


def test_find_melds_lists_each_reading_once() -> None:
    melds = list(find_melds(cards("5H 6H 7H JK"), REMIK))
    texts = [str(m) for m in melds]
    assert len(texts) == len(set(texts))
    assert "5H 6H 7H" in texts and "5H 6H 7H JK=8H" in texts and "JK=4H 5H 6H 7H" in texts
    assert "5H JK=6H 7H" in texts
    for m in melds:
        validate_meld(m, REMIK)


def test_find_melds_group_declarations() -> None:
    texts = {str(m) for m in find_melds(cards("8S 8H JK"), REMIK)}
    assert texts == {"8S 8H JK=8D", "8S 8H JK=8C"}


def test_find_melds_never_repeats_a_suit_in_a_set() -> None:
    # SOLVER-NOTES: two 9H never share a set.
    assert list(find_melds(cards("9H 9H 9S"), REMIK)) == []


# --- plan_go_out --------------------------------------------------------------------------


def test_lay_offs_interact() -> None:
    # SOLVER-NOTES: joker as 10S below the jack takes the 9S too.
    table = [make_meld(parse_cards("JS QS KS"), REMIK)]
    hand = parse_cards("JK 9S 2D")
    plan = plan_go_out(hand, table, REMIK, opened=True)
    assert plan is not None
    replay(hand, table, REMIK, True, plan)


def test_go_out_needs_opening_first() -> None:
    hand = parse_cards("9S 10S JS 8H 8D 8C 2C")
    plan = plan_go_out(hand, [], REMIK, opened=False)
    assert plan is not None and isinstance(plan[0], Open)
    replay(hand, [], REMIK, False, plan)
    # Only 29 + 6: no opening, no go-out; after opening it is fine.
    small = parse_cards("9S 10S JS 2H 2D 2C 5C")
    assert plan_go_out(small, [], REMIK, opened=False) is None
    plan = plan_go_out(small, [], REMIK, opened=True)
    assert plan is not None
    replay(small, [], REMIK, True, plan)


def test_remik_keeps_a_card_for_the_discard() -> None:
    # R-E1: a hand that is exactly melds cannot go out (nothing to discard).
    assert plan_go_out(parse_cards("9S 10S JS"), [], REMIK, opened=True) is None
    plan = plan_go_out(parse_cards("9S 10S JS 4D"), [], REMIK, opened=True)
    assert plan == [LayMeld(make_meld(parse_cards("9S 10S JS"), REMIK)), Discard(parse_cards("4D")[0])]


def test_straight_one_meld_per_turn() -> None:
    # R-T5, E3: two melds cannot both be laid; one long meld and a lay-off can.
    assert plan_go_out(parse_cards("2H 3H 4H 9C 9D 9S"), [], STRAIGHT, opened=True) is None
    hand = parse_cards("2H 3H 4H 5H 6H 7H 8H")
    plan = plan_go_out(hand, [], STRAIGHT, opened=True)
    assert plan is not None and len(plan) == 1
    replay(hand, [], STRAIGHT, True, plan)
    table = [make_meld(parse_cards("9C 9D 9H"), STRAIGHT)]
    hand = parse_cards("2H 3H 4H 9S KD")
    plan = plan_go_out(hand, table, STRAIGHT, opened=True)
    assert plan is not None and isinstance(plan[-1], Discard)
    replay(hand, table, STRAIGHT, True, plan)


def test_joker_swap_needs_new_meld() -> None:
    # R-J4: swap 6H for the joker; the joker must go into a new meld.
    table = [parse_meld("5H JK=6H 7H", REMIK)]
    hand = parse_cards("6H 9C 10C 2S")
    plan = plan_go_out(hand, table, REMIK, opened=True)
    assert plan is not None
    replay(hand, table, REMIK, True, plan)
    assert oracle_can_go_out(hand, table, REMIK, opened=True)
    # Without a meld for it the freed joker would stay in hand: no plan.
    hand = parse_cards("6H 9C 2S")
    assert plan_go_out(hand, table, REMIK, opened=True) is None
    assert not oracle_can_go_out(hand, table, REMIK, opened=True)


def test_swap_on_opening_turn_does_not_count() -> None:
    # R-J4, O4: the joker's new meld is laid after the Open and not counted.
    table = [parse_meld("5H JK=6H 7H", REMIK)]
    hand = parse_cards("6H QS KS AS KH KD KC 9C 10C 3D")
    plan = plan_go_out(hand, table, REMIK, opened=False)
    assert plan is not None and isinstance(plan[0], Open)
    replay(hand, table, REMIK, False, plan)


def test_clean_opening_run_takes_jokers_after_the_open() -> None:
    # R-O4, O6: open with the clean run 6S 7S 8S, then lay a joker off at each end;
    # laid at once, JK 6S 7S 8S JK would not be clean. (Found by the oracle.)
    house = attrs.evolve(REMIK, melds_per_turn=2, opening_points=20)
    hand = parse_cards("JK 6S JK 6S 7S 8S")
    plan = plan_go_out(hand, [], house, opened=False)
    assert plan is not None
    replay(hand, [], house, False, plan)
    assert oracle_can_go_out(hand, [], house, opened=False)


def test_go_out_on_a_whole_deck() -> None:
    # Any multiset up to a whole deck: 108 cards, everything melds but the discard.
    hand = deck(REMIK) - cards("2C")
    plan = plan_go_out(hand, [], REMIK, opened=False)
    assert plan is not None and isinstance(plan[0], Open)
    replay(list(hand), [], REMIK, False, plan)


# --- errors -------------------------------------------------------------------------------


def test_cards_outside_the_deck_are_refused() -> None:
    with pytest.raises(InvalidCardsError):
        best_partition(parse_cards("JK AH"), STRAIGHT)
    with pytest.raises(InvalidCardsError):
        best_opening(parse_cards("AH AH AH"), REMIK)
    with pytest.raises(InvalidCardsError):
        list(find_melds("AH 2H 3H", REMIK))  # type: ignore[arg-type]
    with pytest.raises(InvalidCardsError):
        can_open([1, 2, 3], REMIK)  # type: ignore[list-item]
    with pytest.raises(RulesetError):
        best_partition(parse_cards("AH"), "remik")  # type: ignore[arg-type]
    with pytest.raises(InvalidMeldError):
        plan_go_out(parse_cards("AH"), ["AH 2H 3H"], REMIK, opened=True)  # type: ignore[list-item]
    with pytest.raises(InvalidCardsError):
        plan_go_out(parse_cards("AH"), [make_meld(parse_cards("AH 2H 3H"), STRAIGHT)], STRAIGHT, opened=True)


def test_inputs_are_not_mutated() -> None:
    hand = list(parse_cards("9S 10S JS 8H 8D 8C 2C"))
    table = [make_meld(parse_cards("JS QS KS"), REMIK)]
    before = (list(hand), list(table))
    best_opening(hand, REMIK)
    best_partition(hand, REMIK)
    plan_go_out(hand, table, REMIK, opened=False)
    assert (hand, table) == before


def test_house_variant_jokers_side_by_side() -> None:
    house = attrs.evolve(REMIK, adjacent_jokers=True)
    # JK JK 5H JK is a run only when jokers may sit side by side.
    assert best_partition(parse_cards("JK JK JK 5H"), REMIK).penalty == 30
    p = best_partition(parse_cards("JK JK JK 5H"), house)
    assert p.penalty == 0
    assert meld_points(p.melds[0], house) >= 18
    assert isinstance(p.melds[0], (Run, Group))
    assert JOKER in p.melds[0].cards


def test_opening_fragment_lay_off_targets_the_open_order() -> None:
    # R-O4, O6: a clean opening run that takes a joker after the Open. The Open lays its
    # melds in canonical order, so the lay-off must name the clean run by that order
    # (found by Hypothesis: the plan once laid the joker onto JK 9S JK instead).
    hand = cards("JK 8S JK JK 9S 10S JK 9S")
    plan = plan_go_out(hand, [], REMIK, opened=False)
    assert plan is not None
    replay(list(hand), [], REMIK, False, plan)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from([REMIK, STRAIGHT]), st.lists(st.integers(0, 51), max_size=16, unique=True))
def test_clean_run_precheck_agrees_with_find_melds(rules: Ruleset, indices: list[int]) -> None:
    # R-O2: the cheap test that lets most hands skip the opening search says "a clean run
    # exists" exactly when find_melds finds one (aces high only where the rules allow, M3).
    from rummylib.solver._opening_screen import clean_run_in, held_positions

    hand = CardMultiset(CARDS[i] for i in indices)
    expected = any(is_clean_run(m) for m in find_melds(hand, rules))
    assert clean_run_in(held_positions(hand.counts), rules.ace_high) == expected


def test_opening_run_takes_two_jokers_on_one_end_where_jokers_may_touch() -> None:
    # R-O4, O6 with a house rule (jokers side by side): QS KS AS opens clean, then takes
    # two jokers below it (JK=10S JK=JS), and the second ace is the discard (found by
    # Hypothesis: only one joker per end was tried).
    rules = attrs.evolve(REMIK, name="house", jokers=6, adjacent_jokers=True, opening_points=20)
    hand = cards("QS KS AS AS JK JK")
    plan = plan_go_out(hand, [], rules, opened=False)
    assert plan is not None
    replay(list(hand), [], rules, False, plan)
    assert oracle_can_go_out(list(hand), [], rules, opened=False)


# --- what an opening keeps (R-T3, E1, E3) -------------------------------------------------------


def test_opening_keeps_a_card_for_the_discard() -> None:
    # R-T3: the 100-point opening lays all 14 cards, which the engine refuses (the last card
    # leaves only by the discard); the best opening a player may lay is 91.
    hand = cards("9S 10S JS QS KS 8H 8D 8C 5H 6H 7H 2C 3C 4C")
    opening = best_opening(hand, REMIK)
    assert opening is not None and opening.points == 91 and len(opening.leftover) == 1
    pure = best_opening(hand, REMIK, keep=0)
    assert pure is not None and pure.points == 100 and not pure.leftover
    assert best_opening(hand, REMIK, keep=1) == opening
    assert can_open(hand, REMIK) and can_open(hand, REMIK, keep=0)


def test_opening_keep_follows_the_discard_rule() -> None:
    # R-E3: where a player goes out by melding (must_discard_to_go_out false) nothing is kept.
    hand = cards("2H 3H 4H 9C 9D 9S")
    assert STRAIGHT.must_discard_to_go_out is False
    assert best_opening(hand, STRAIGHT) == best_opening(hand, STRAIGHT, keep=0)
    house = attrs.evolve(STRAIGHT, name="house-discard", must_discard_to_go_out=True)
    opening = best_opening(hand, house)
    assert opening is not None and opening.points == 27 and str(opening.leftover) == "2H 3H 4H"


def test_opening_keep_leaves_room_or_none() -> None:
    # Keeping more cards than a meld leaves room for: no opening (R-O2 needs melds).
    hand = cards("9S 10S JS 8H 8D 8C")
    assert best_opening(hand, REMIK, keep=0) is not None
    assert best_opening(hand, REMIK) is None and not can_open(hand, REMIK)
    assert best_opening(cards("9S 10S JS"), LOW_OPENING, keep=1) is None
    assert best_opening(cards("9S 10S JS QS"), LOW_OPENING, keep=1) is not None


@pytest.mark.parametrize("keep", [-1, True, 1.0, "1", 10**100, 109])
def test_opening_keep_is_validated(keep: object) -> None:
    hand = cards("9S 10S JS 8H 8D 8C 2C")
    for call in (best_opening, can_open):
        with pytest.raises(InvalidStateError) as info:
            call(hand, REMIK, keep=keep)  # type: ignore[arg-type]
        assert info.value.path == "keep" and len(str(info.value)) < 200
    assert best_opening(hand, REMIK, keep=108) is None


# --- many swappable jokers (swaps are a set, not every subset) ----------------------------------

FOUR_DECKS = attrs.evolve(REMIK, name="four-decks", decks=4, jokers=16)


def _joker_table(n: int) -> tuple[list[Card], list[Meld]]:
    """``n`` (at most 16) runs on the table, each with a joker whose card the hand holds (R-J4)."""
    table: list[Meld] = []
    hand: list[Card] = []
    for s, start in [(s, start) for start in (3, 5, 7, 9) for s in "SHDC"][:n]:
        low, mid, high = (f"{'J' if v == 11 else v}{s}" for v in (start, start + 1, start + 2))
        table.append(parse_meld(f"{low} JK={mid} {high}", FOUR_DECKS))
        hand.append(parse_cards(mid)[0])
    return hand, table


@pytest.mark.parametrize("jokers", [9, 16])
def test_many_swappable_jokers_stay_polynomial(jokers: int) -> None:
    # R-J4: 16 swappable jokers and two cards no meld takes tried every subset of swaps
    # (40 s); the search now decides per card how many copies to swap. AC AC: no run or
    # set holds an ace of clubs with jokers only (R-J2, J3, M3), and one is the discard.
    hand, table = _joker_table(jokers)
    stuck = [*hand, *parse_cards("AC AC")]
    search, _, value = _goout._search_for(CardMultiset(stuck), table, FOUR_DECKS, False, None)
    assert value == _search.NEG and plan_go_out(stuck, table, FOUR_DECKS, opened=True) is None
    assert len(search.memo) < 20_000  # polynomial: was one search per subset of swaps
    fine = [*hand, *parse_cards("KS 7D")]
    plan = plan_go_out(fine, table, FOUR_DECKS, opened=True)
    assert plan is not None
    replay(fine, table, FOUR_DECKS, True, plan)
    # Before opening, swaps come after the Open (R-J4, O4); its melds count alone.
    plan = plan_go_out(fine, table, FOUR_DECKS, opened=False)
    assert (plan is not None) == (jokers == 16)  # 6D 7D 8D 10S 10H 10D ... open with 16
    if plan is not None:
        assert isinstance(plan[0], Open)
        replay(fine, table, FOUR_DECKS, False, plan)
