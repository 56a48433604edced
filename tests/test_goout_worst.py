"""The go-out search's worst cases: hands its screen answers, a run's two ends apart (the screen: test_goout_screen.py)."""

from __future__ import annotations

import pytest
from _oracle_solver import oracle_can_go_out
from test_goout_screen import JOKERS16, search_finds

import rummylib as rl
from rummylib import Card, CardMultiset, Meld
from rummylib.engine import _cache
from rummylib.solver import _layoffs
from rummylib.solver._goout import _search_for
from rummylib.solver._goout_screen import homeless
from rummylib.solver._search import NEG
from rummylib.solver._tables import tables_for


def _table(runs: int, jokers: bool) -> tuple[list[Meld], list[Card]]:
    """``runs`` runs of three (starts 3, 5, 7, 9 in each suit), and the hand of their middle cards."""
    melds: list[Meld] = []
    middles: list[Card] = []
    for suit, start in [(s, v) for v in (3, 5, 7, 9) for s in "SHDC"][:runs]:
        low, mid, high = (f"{'J' if v == 11 else v}{suit}" for v in (start, start + 1, start + 2))
        melds.append(rl.parse_meld(f"{low} {'JK=' if jokers else ''}{mid} {high}", JOKERS16))
        middles.append(rl.parse_card(mid))
    return melds, middles


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
    assert not search_finds(hand, melds, JOKERS16, opened)


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


def test_swapped_table_melds_are_kept_per_meld_and_forgotten_by_clear() -> None:
    # R-J4: lay_options reads a table meld with its jokers swapped out; the swapped meld is kept per meld.
    _cache.clear()
    run = rl.parse_meld("JK=5H 6H JK=7H 8H", rl.REMIK)
    hand = CardMultiset(rl.parse_cards("5H 7H JK 4H 9H 2C"))
    tables = tables_for(hand.counts, hand.jokers, rl.REMIK, whole_runs=False)
    options, slots = _layoffs.lay_options([run], hand, rl.REMIK, tables)
    assert len(slots) == 2 and _layoffs.SWAPPED
    for (meld_id, ks), (meld, rules, swapped) in _layoffs.SWAPPED.items():
        expected = meld
        for k in ks:
            expected = rl.swap_joker(expected, meld.represents[k], rules)[0]
        assert meld_id == id(run) and meld is run and rules is rl.REMIK and swapped == expected
    assert _layoffs.lay_options([run], hand, rl.REMIK, tables) == (options, slots)  # from the kept melds
    _cache.clear()
    assert not _layoffs.SWAPPED
