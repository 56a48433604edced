"""The go-out search's worst cases: its "cannot go out" screen (exact when it refuses), a run's two ends apart."""

from __future__ import annotations

import attrs
import pytest
from _budget import examples
from _oracle_solver import oracle_can_go_out
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_solver_oracle import go_out_cases

import rummylib as rl
from rummylib import Card, CardMultiset, Meld, Ruleset
from rummylib.solver._goout import _plan_for, _search_for
from rummylib.solver._goout_screen import homeless
from rummylib.solver._search import NEG

NATURALS = [rl.Card(rank, suit) for suit in rl.Suit for rank in rl.Rank]
#: The house rules of benchmarks/hostile.py: 4 decks, 16 jokers, 16-card hands.
JOKERS16 = attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, hand_sizes=dict.fromkeys(range(2, 7), 16))


def _search_finds(hand: list[Card], table: list[Meld], rules: Ruleset, opened: bool) -> bool:
    """The search itself, with no screen in front of it."""
    need_open = rules.opening_required and not opened
    return _plan_for(CardMultiset(hand), tuple(table), rules, need_open, None) is not None


@st.composite
def strays_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], bool]:
    """A table of melds and a hand of random cards near them: most such hands cannot go out."""
    rules, hand, table, opened = draw(go_out_cases())
    on_table = CardMultiset(c for m in table for c in m.cards)
    near = {int(t.rank) for m in table for t in m.cards if t.rank is not None}
    pool = [c for c in NATURALS if c.rank is not None and (not near or min(abs(int(c.rank) - r) for r in near) <= 2)]
    extra = draw(st.lists(st.sampled_from(pool or [rl.parse_card("AS")]), max_size=4))
    for card in extra:
        if (CardMultiset([*hand, card]) + on_table).count(card) <= rules.decks:
            hand.append(card)
    return rules, hand[:9], table, opened


@st.composite
def loose_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], bool]:
    """A table from the oracle's cases and a hand of up to seven cards from anywhere (and a joker or not)."""
    rules, _, table, opened = draw(go_out_cases())
    on_table = CardMultiset(c for m in table for c in m.cards)
    hand: list[Card] = []
    for card in draw(st.lists(st.sampled_from(NATURALS), min_size=2, max_size=7)):
        if (CardMultiset([*hand, card]) + on_table).count(card) <= rules.decks:
            hand.append(card)
    if rules.jokers and draw(st.booleans()) and on_table.jokers < rules.jokers:
        hand.append(rl.JOKER)
    return rules, hand, table, opened


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(go_out_cases(), strays_cases(), loose_cases()))
def test_the_screen_refuses_only_hands_that_cannot_go_out(case: tuple[Ruleset, list[Card], list[Meld], bool]) -> None:
    # R-T2, E1, E3: at most one card is left for the discard; the screen's count is a lower bound.
    rules, hand, table, opened = case
    refused = homeless(CardMultiset(hand), table, rules) > 1
    event("refused" if refused else "passed")
    if refused:
        assert not _search_finds(hand, table, rules, opened)
        assert not oracle_can_go_out(hand, table, rules, opened=opened)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(go_out_cases(), strays_cases(), loose_cases()))
def test_plan_go_out_agrees_with_its_unscreened_search(case: tuple[Ruleset, list[Card], list[Meld], bool]) -> None:
    rules, hand, table, opened = case
    assert (rl.plan_go_out(hand, table, rules, opened=opened) is not None) == _search_finds(hand, table, rules, opened)


def _table(runs: int, jokers: bool) -> tuple[list[Meld], list[Card]]:
    """``runs`` runs of three (starts 3, 5, 7, 9 in each suit), and the hand of their middle cards."""
    melds: list[Meld] = []
    middles: list[Card] = []
    for suit, start in [(s, v) for v in (3, 5, 7, 9) for s in "SHDC"][:runs]:
        low, mid, high = (f"{'J' if v == 11 else v}{suit}" for v in (start, start + 1, start + 2))
        melds.append(rl.parse_meld(f"{low} {'JK=' if jokers else ''}{mid} {high}", JOKERS16))
        middles.append(rl.parse_card(mid))
    return melds, middles


def test_the_screen_counts_places_per_copy() -> None:
    table = [rl.parse_meld("9C 10C JC", JOKERS16), rl.parse_meld("3H 4H 5H", JOKERS16)]
    cards = rl.parse_cards
    assert homeless(CardMultiset(cards("AH")), table, JOKERS16) == 1  # no neighbour, no group (R-M1, M2)
    assert homeless(CardMultiset(cards("QC")), table, JOKERS16) == 0  # onto 9C 10C JC (R-T6)
    assert homeless(CardMultiset(cards("QC QC")), table, JOKERS16) == 1  # the run holds one QC
    assert homeless(CardMultiset(cards("QC QC KC")), table, JOKERS16) == 1  # QC KC onto the run, one QC left
    assert homeless(CardMultiset(cards("KC")), table, JOKERS16) == 1  # QC is not in the hand to fill the gap
    assert homeless(CardMultiset(cards("KC QC")), table, JOKERS16) == 0
    assert homeless(CardMultiset(cards("AH JK")), table, JOKERS16) == 0  # a joker can fill 2H (R-J1)
    swapped = [rl.parse_meld("9C JK=10C JC", JOKERS16)]
    assert homeless(CardMultiset(cards("10C 10C")), swapped, JOKERS16) == 1  # one may replace the joker (R-J4)
    assert homeless(CardMultiset(cards("10C 10C")), swapped, attrs.evolve(JOKERS16, joker_swap=False)) == 2


@pytest.mark.parametrize("opened", [True, False])
@pytest.mark.parametrize("extra", ["8S 10D 9H 9D QC QC AH", "QC QC AH", "AH AD"])
def test_no_plan_hands_on_sixteen_plain_runs_are_answered_by_the_screen(extra: str, opened: bool) -> None:
    # The chain-shaped lay-offs (each middle card fits the run below or above it) made the
    # search try every matching before finding that two cards have no place (issue 10).
    melds, middles = _table(16, jokers=False)
    hand = [*middles, *rl.parse_cards(extra)]
    assert homeless(CardMultiset(hand), melds, JOKERS16) >= 2
    assert rl.plan_go_out(hand, melds, JOKERS16, opened=opened) is None


def test_one_card_fewer_on_sixteen_plain_runs_goes_out() -> None:
    melds, middles = _table(16, jokers=False)
    hand = [*middles, *rl.parse_cards("8S 10D 9H 9D QC AH")]
    assert homeless(CardMultiset(hand), melds, JOKERS16) == 1
    plan = rl.plan_go_out(hand, melds, JOKERS16, opened=True)
    assert plan is not None and plan[-1] == rl.Discard(rl.parse_card("AH"))


@pytest.mark.slow
@pytest.mark.parametrize("opened", [True, False])
def test_the_unscreened_search_agrees_on_sixteen_plain_runs(opened: bool) -> None:
    melds, middles = _table(16, jokers=False)
    hand = [*middles, *rl.parse_cards("8S 10D 9H 9D QC QC AH")]
    assert not _search_finds(hand, melds, JOKERS16, opened)


@pytest.mark.parametrize(
    ("extra", "goes_out"),
    [("2S AS AS", True), ("2S AS AS 7H", False), ("2S AS 7H", True), ("AS AS 7H", False)],
)
def test_a_run_that_could_pass_thirteen_cards_takes_its_two_ends_together(extra: str, goes_out: bool) -> None:
    # R-M1, M3: 3S..KS takes 2S AS below or AS above, not both (14 cards): its ends are one option.
    rules = rl.REMIK
    table = [rl.parse_meld("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", rules)]
    hand = rl.parse_cards(extra)
    plan = rl.plan_go_out(hand, table, rules, opened=True)
    assert (plan is not None) == goes_out == oracle_can_go_out(hand, table, rules, opened=True)


def test_a_short_run_takes_both_ends_apart() -> None:
    # R-T6: 5S 6S 7S takes 3S 4S below and 8S 9S above in one turn.
    table = [rl.parse_meld("5S 6S 7S", rl.REMIK)]
    hand = rl.parse_cards("3S 4S 8S 9S 2H")
    plan = rl.plan_go_out(hand, table, rl.REMIK, opened=True)
    assert plan is not None and plan[-1] == rl.Discard(rl.parse_card("2H"))
    assert oracle_can_go_out(hand, table, rl.REMIK, opened=True)


#: Hands that cannot go out on the 16 plain runs (the last three found by a random hunt, with one
#: card the screen finds homeless); each took 0.4 to 1.8 s before a run's ends were apart.
CHAIN_NO_PLAN = ["8S 10D 9H 9D QC QC AH", "9H JH KD 9C 8H 9C 2S", "9S KC 8C 10D 10S JD 9C 9S", "JS 2D 3D 10D QH JH KC"]


@pytest.mark.parametrize("opened", [True, False])
@pytest.mark.parametrize("extra", CHAIN_NO_PLAN)
def test_a_chain_of_runs_keeps_the_search_small(extra: str, opened: bool) -> None:
    # The search itself (no screen): a run's low end is forgotten once the search is past
    # it, so the memo stays near the hand's size (15,863 states for the first hand when
    # both ends of a run were one mark). A count, not a time.
    melds, middles = _table(16, jokers=False)
    hand = CardMultiset([*middles, *rl.parse_cards(extra)])
    search, _, value = _search_for(hand, tuple(melds), JOKERS16, not opened, None)
    assert value == NEG
    assert len(search.memo) < 1_000
