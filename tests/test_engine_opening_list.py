"""The listing of opening melds against the exact completion search (R-O2, O4, D2, T3).

Each meld of an unopened player's hand is listed when the opening can still
be completed after it; the listing asks :meth:`OpeningSearch.after_meld`,
whose shortcuts (the hand's size and card bound carried, a refusal without a
search when no clean run is left whole, the answer read off a meld of the
same cards asked before by its points) must answer as the exact search,
``can_complete`` of the cards left, on a search of its own.
"""

from __future__ import annotations

import pytest
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.engine._complete import OpeningSearch, minus
from rummylib.engine._oblige import opening_needs, opening_search
from rummylib.engine._screen import counted_screen
from rummylib.engine._state import Phase
from rummylib.solver import can_open
from rummylib.solver._queries import can_go_out

_SEEDS = range(8)
#: Fewer walks for the exact cross-check of every meld (each asks the search afresh): still >500 questions.
_AFTER_MELD_SEEDS = range(5)


def _asked(state: rl.GameState) -> bool:
    # The states whose listing walks the opening melds: an unopened player in the play phase, no lay-off yet.
    r = state.round
    if r.phase is not Phase.PLAY or r.opened[r.to_act] or not state.rules.opening_required:
        return False
    return not (r.turn.laid and not r.turn.melds_laid)


# remik by default; the house variant in the slow suite (CI).
@pytest.mark.parametrize("name", ["remik", pytest.param("remik-house", marks=pytest.mark.slow)])
def test_after_meld_is_the_exact_search_of_the_cards_left(name: str) -> None:
    # R-O4: laying a meld keeps the opening completable exactly when the search of the cards left says so;
    # R-O2: the quick refusal (no clean run left whole) never refuses what the search accepts.
    rules = WALK_RULES[name]
    asked = refused = 0
    for seed in _AFTER_MELD_SEEDS:
        for state in walk(rules, 4, seed, 400, greedy_share=1):
            if not _asked(state):
                continue
            r = state.round
            hand = r.hands[r.to_act]
            need, clean, card, allowance = opening_needs(rules, r)
            less = None if allowance is None else allowance - 1
            fast = opening_search(rules, r)
            for j, info in enumerate(fast.melds):
                if len(hand) - info.size < max(fast.keep, 1):
                    continue
                engine_cache.clear()
                exact = opening_search(rules, r)
                left = card if card is None or all(i != card for i, _ in info.pairs) else None
                chosen = (j,) if r.turn.must_go_out else ()
                want = exact.can_complete(
                    minus(hand.counts, info), need - info.points, clean and not info.clean, left, less, chosen
                )
                got = fast.after_meld(j, need, clean, card, less)
                assert got is want, (seed, str(hand), str(info.meld))
                asked += 1
                refused += not got
    assert asked > 500 and refused > 100  # the walks reach the question often, both ways


@pytest.mark.parametrize("name", ["remik", "remik-house"])
def test_an_opening_holding_the_discard_is_needed_to_take_it_before_opening(name: str) -> None:
    # R-D2, O2: before opening, the discard may be taken only to open with it and go out the same turn;
    # the draw screen asks for an opening holding the card before the exact go-out search, so wherever
    # the search finds a plan, the screen finds such an opening (and an opening at all).
    rules = WALK_RULES[name]
    asked = refused = 0
    for seed in _SEEDS:
        for state in walk(rules, 4, seed, 400, greedy_share=1):
            r = state.round
            if r.phase is not Phase.DRAW or r.opened[r.to_act] or not r.discard:
                continue
            card = r.discard[-1]
            hand = r.hands[r.to_act] + rl.CardMultiset([card])
            if not counted_screen(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
                continue  # the counting screen only: the hands may_open refuses too are asked all the same
            table = tuple(tm.meld for tm in r.table)
            screen = OpeningSearch(hand, (), rules, go_out=False, taken=None).opens_with(card)
            if card.is_joker:  # any opening at all: the solver's question
                assert screen is can_open(hand, rules)
            if not screen:
                refused += 1
                assert not can_go_out(hand, table, rules, opened=False, open_with=card), (seed, str(hand), str(card))
            asked += 1
    assert asked > 150 and refused > 20
