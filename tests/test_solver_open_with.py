"""``plan_go_out(..., open_with=card)``: go out having opened with a given card (R-D2, O2-O6, J4, T3, T5, E1)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest
from _budget import examples
from _oracle_solver import oracle_can_go_out, replay
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from test_solver_oracle import (
    HOUSE_REMIK,
    LOW_REMIK,
    ONE_MELD_REMIK,
    _lays_off,
    go_out_cases,
    hands,
)

import rummylib as rl
from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    Card,
    CardMultiset,
    Meld,
    Open,
    Ruleset,
    find_melds,
    is_clean_run,
    plan_go_out,
)

C = rl.parse_cards


def M(text: str, rules: Ruleset = REMIK) -> Meld:
    return rl.parse_meld(text, rules)


def opens_with(plan: list[rl.Action], card: Card) -> bool:
    first = plan[0]
    return isinstance(first, Open) and any(card in m.cards for m in first.melds)


def check(
    hand: Sequence[Card], table: list[Meld], rules: Ruleset, card: Card, *, events: bool = False
) -> list[rl.Action] | None:
    """The plan with ``open_with``, checked against the oracle and replayed (R-D2)."""
    plan = plan_go_out(hand, table, rules, opened=False, open_with=card)
    if plan is not None:
        replay(hand, table, rules, False, plan)
        assert opens_with(plan, card), plan
    assert (plan is not None) == oracle_can_go_out(hand, table, rules, opened=False, open_with=card)
    if not events:
        return plan
    if plan is not None:
        event("opens with the card")
    elif plan_go_out(hand, table, rules, opened=False) is not None:
        event("goes out, but not opening with the card")
    return plan


# --- Hypothesis: against the naive oracle ------------------------------------------------------------


@st.composite
def open_with_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], Card]:
    """A go-out case of a ruleset with an opening, and a card of its hand."""
    rules, hand, table, _ = draw(go_out_cases())
    assume(rules.opening_required and hand)
    return rules, hand, table, draw(st.sampled_from(sorted(set(hand))))


#: Low opening thresholds, so that small hands open (R-O2); jokers side by side; two melds a turn.
OPENING_RULES = [
    LOW_REMIK,
    ONE_MELD_REMIK,
    attrs.evolve(LOW_REMIK, name="tiny-remik", opening_points=12),
    attrs.evolve(HOUSE_REMIK, name="low-house-remik", opening_points=20),
]


@st.composite
def opening_hands(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], Card]:
    """A table, and a hand built from a clean run, another meld, swap and lay-off cards and a stray.

    Most of these hands go out; the card is drawn from the hand, so often it can only be
    laid off, discarded or melded after the Open.
    """
    rules = draw(st.sampled_from(OPENING_RULES))
    left = CardMultiset(draw(hands(rules, 18, 10)))
    table: list[Meld] = []
    for _ in range(draw(st.integers(0, 2))):
        options = [m for m in find_melds(left, rules) if len(m) <= 4]
        if not options:
            break
        table.append(draw(st.sampled_from(options)))
        left = left - CardMultiset(table[-1].cards)
    hand: list[Card] = []
    clean = [m for m in find_melds(left, rules) if is_clean_run(m) and len(m) <= 4]
    if clean:
        hand.extend(draw(st.sampled_from(clean)).cards)
        left = left - CardMultiset(hand)
    options = [m for m in find_melds(left, rules) if len(m) <= 4]
    if draw(st.booleans()) and options:
        meld = draw(st.sampled_from(options))
        hand.extend(meld.cards)
        left = left - CardMultiset(meld.cards)
    stands = [s for m in table for c, s in zip(m.cards, m.represents) if c.is_joker and s in left]
    if draw(st.booleans()) and stands:  # a card that swaps a table joker out (R-J4)
        card = draw(st.sampled_from(stands))
        hand.append(card)
        left = left - CardMultiset([card])
    for _ in range(draw(st.integers(0, 2))):  # cards that lay off onto the table (R-J5, T6)
        layable = [c for c in left.distinct() if any(_lays_off(m, c, rules) for m in table)]
        if layable:
            hand.append(draw(st.sampled_from(layable)))
            left = left - CardMultiset(hand[-1:])
    if left and draw(st.integers(0, 3)):  # a stray, the usual discard
        hand.append(draw(st.sampled_from(list(left))))
    hand = hand[:9]
    assume(hand)
    return rules, hand, table, draw(st.sampled_from(sorted(set(hand))))


@settings(
    max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(open_with_cases())
def test_open_with_matches_oracle(case: tuple[Ruleset, list[Card], list[Meld], Card]) -> None:
    # R-D2, O2-O4, J4, T3, T5, E1: a plan exists exactly when some legal turn opens with the card and goes out.
    rules, hand, table, card = case
    check(hand, table, rules, card, events=True)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opening_hands())
def test_open_with_matches_oracle_on_hands_that_open(case: tuple[Ruleset, list[Card], list[Meld], Card]) -> None:
    # R-D2, O2: as above, on hands that mostly can open; the card is often not in every go-out.
    rules, hand, table, card = case
    plan = check(hand, table, rules, card, events=True)
    if plan is not None:
        assert plan_go_out(hand, table, rules, opened=False) is not None  # a restriction of plan_go_out


# --- hand-written cases ------------------------------------------------------------------------------------


def test_only_go_out_opens_without_the_card() -> None:
    # R-D2: 2C can only be the discard, 5D only a lay-off onto the table: neither can be in the Open.
    table = [M("6D 7D 8D")]
    hand = C("JH QH KH AH 9S 9D 9C 5D 2C")
    assert plan_go_out(hand, table, REMIK, opened=False) is not None
    assert check(hand, table, REMIK, rl.parse_card("2C")) is None
    assert check(hand, table, REMIK, rl.parse_card("9S")) is not None
    hand = C("JH QH KH AH 9S 9D 9C 4D 5D 2C")
    assert check(hand, table, REMIK, rl.parse_card("5D")) is None  # 4D 5D lay off; no 3-card meld with 5D


def test_card_in_a_meld_after_the_open_does_not_count() -> None:
    # R-D2, J4, O4: 4C melds only with the joker freed by swapping 6H, and swaps come after the Open.
    table = [M("5H JK=6H 7H")]
    hand = C("JH QH KH AH 9S 9D 9C 6H 4C 6C 2D")
    assert plan_go_out(hand, table, REMIK, opened=False) is not None
    assert check(hand, table, REMIK, rl.parse_card("4C")) is None
    assert check(hand, table, REMIK, rl.parse_card("9D")) is not None


def test_a_fragment_core_holds_the_card_but_not_its_lay_off() -> None:
    # R-O2, O4, O6: 6S 7S 8S is the only clean run; it opens, then takes JK and 4S at its low end.
    # 4S and the joker are laid off after the Open, so they cannot be the card it opens with.
    hand = C("6S 7S 8S JK 4S KH KD KC QH QD QC 2C")
    assert check(hand, [], REMIK, rl.parse_card("7S")) is not None
    assert check(hand, [], REMIK, rl.parse_card("4S")) is None
    assert check(hand, [], REMIK, JOKER) is None
    # With 5S as well, 4S 5S 6S 7S 8S is the clean run itself: the Open holds 4S.
    hand = C("6S 7S 8S 5S 4S KH KD KC QH QD QC 2C")
    assert check(hand, [], REMIK, rl.parse_card("4S")) is not None


def test_card_goes_into_the_open_through_a_joker() -> None:
    # R-D2, J1, O3: 9D opens only as 9D JK=10D JD (a joker), the clean run is the hearts.
    hand = C("JH QH KH AH 9D JD JK 5C")
    plan = check(hand, [], REMIK, rl.parse_card("9D"))
    assert plan is not None
    first = plan[0]
    assert isinstance(first, Open)
    assert any(rl.parse_card("9D") in m.cards and JOKER in m.cards for m in first.melds)
    # Without the joker there is no meld for 9D at all.
    assert check(C("JH QH KH AH 9D JD 5C 6C 7C"), [], REMIK, rl.parse_card("9D")) is None


def test_joker_as_the_card() -> None:
    # R-D2 with a joker taken: the Open must hold a joker of the hand.
    hand = C("JH QH KH AH 9D JD JK 5C")
    assert check(hand, [], REMIK, JOKER) is not None
    # One meld per turn (R-T5): the Open is one clean run (R-O2), so the joker can only be
    # laid off onto it afterwards (R-O6, J5): a go-out, but not one that opens with the joker.
    one = attrs.evolve(REMIK, name="one-meld", melds_per_turn=1)
    hand = C("10H JH QH KH AH JK 2C")
    assert plan_go_out(hand, [], one, opened=False) is not None
    assert check(hand, [], one, JOKER) is None
    assert check(hand, [], one, rl.parse_card("QH")) is not None
    # Nor when it can be laid off onto a table meld (R-J5) instead.
    table = [M("5S 6S 7S")]
    assert plan_go_out(hand, table, one, opened=False) is not None
    assert check(hand, table, one, JOKER) is None


def test_two_copies_of_the_card() -> None:
    # R-C2, D2: two decks; one copy of 7H in the Open is enough, the other is laid off.
    table = [M("8H 9H 10H")]
    seven = rl.parse_card("7H")
    hand = C("5H 6H 7H 7H AS AD AC 2C")  # 18 + 33 = 51 with one 7H; the other goes onto 8H 9H 10H
    plan = check(hand, table, REMIK, seven)
    assert plan is not None
    assert [a for a in plan if isinstance(a, rl.LayOff)] == [rl.LayOff(0, seven, rl.End.LOW)]
    # A single copy that can only be laid off leaves nothing for the Open.
    hand = C("JH QH KH AH 9S 9D 9C 7H 2C")
    assert plan_go_out(hand, table, REMIK, opened=False) is not None
    assert check(hand, table, REMIK, seven) is None
    # Two copies: one in the group of the Open, the other laid off.
    hand = C("JH QH KH AH 7S 7D 7C 7H 7H 2C")
    plan = check(hand, table, REMIK, seven)
    assert plan is not None and rl.LayOff(0, seven, rl.End.LOW) in plan
    # Two copies that can both only be laid off or discarded: refused.
    hand = C("JH QH KH AH 9S 9D 9C 7H 7H")
    assert plan_go_out(hand, table, REMIK, opened=False) is not None
    assert check(hand, table, REMIK, seven) is None


# --- bad input ------------------------------------------------------------------------------------------


def test_bad_open_with() -> None:
    hand = C("JH QH KH AH 9S 9D 9C 2C")
    with pytest.raises(rl.InvalidCardsError, match="'9S'"):
        plan_go_out(hand, [], REMIK, opened=False, open_with="9S")  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidCardsError, match="3C") as err:
        plan_go_out(hand, [], REMIK, opened=False, open_with=rl.parse_card("3C"))
    assert err.value.reason is rl.CardsReason.NOT_ENOUGH
    # No Open in the plan: an opened player (R-O1), or rules without an opening.
    with pytest.raises(rl.ArgumentError, match="open_with") as state:
        plan_go_out(hand, [], REMIK, opened=True, open_with=rl.parse_card("9S"))
    assert state.value.reason is rl.ArgumentReason.BAD_VALUE
    with pytest.raises(rl.ArgumentError, match="9S"):
        plan_go_out(C("9S 9D 9C 2C"), [], STRAIGHT, opened=False, open_with=rl.parse_card("9S"))
