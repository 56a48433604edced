"""The engine's cheap questions: its cached go-out answers and its opening screen (R-D2, E1, E3, O2).

The go-out screen itself is the solver's, tested in ``test_goout_screen.py``.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from test_goout_screen import Position, positions

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.engine._cache import goes_out
from rummylib.engine._complete import may_open
from rummylib.solver._queries import can_go_out

C = rl.parse_cards


def test_unopened_may_take_the_discard_to_open_and_go_out_by_a_discard_where_melding_out_is_allowed() -> None:
    # R-D2, E3: with the house rule that a hand may also go out by melding, the last card may still be
    # discarded; the engine refused the take when one card fit no meld (a screen counted no discard).
    rules = attrs.evolve(rl.REMIK, name="meld-out", must_discard_to_go_out=False)
    hands = [C("10H JH QH KH AH 4S"), C("KS KD KC QS QC JC")]
    s = rl.start_round_from(
        rules, hands, discard=C("9H"), table=[], opened=[False, False], to_act=0, phase=rl.Phase.DRAW
    )
    assert rl.TakeDiscard() in list(rl.legal_actions(s))
    t = rl.apply(s, rl.TakeDiscard())
    t = rl.apply(t, rl.LayMeld(rl.parse_meld("9H 10H JH QH KH AH", rules)))
    assert rl.apply(t, rl.Discard(rl.parse_card("4S"))).phase in (rl.Phase.ROUND_OVER, rl.Phase.GAME_OVER)


@settings(max_examples=40, deadline=None)
@given(positions((6, 12)), st.randoms(use_true_random=False))
def test_cached_go_out_answer_is_the_solvers_in_any_table_order(pos: Position, rnd: random.Random) -> None:
    # R-E1: the engine keeps go-out answers keyed on the table as a multiset; the order melds were laid
    # in never changes whether a hand can go out.
    hand, table, rules = pos
    want = can_go_out(hand, table, rules, opened=True)
    shuffled = list(table)
    rnd.shuffle(shuffled)
    engine_cache.clear()
    assert goes_out(hand, table, rules, opened=True) is want
    assert goes_out(hand, tuple(shuffled), rules, opened=True) is want  # a hit of the first question


@settings(max_examples=60, deadline=None)
@given(positions((3, 16)))
def test_opening_screen_never_rules_out_an_opening_the_solver_finds(
    pos: Position,
) -> None:
    # R-O2: GreedyBot and the listing skip the opening search when the cheap test says no opening.
    hand, _, rules = pos
    if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
        assert rl.best_opening(hand, rules) is None
