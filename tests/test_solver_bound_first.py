"""The leftover decomposition's programmes stopped at a good enough bound (``Warm.resume``, ``leftover_bound_first``)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import attrs
import pytest
from _budget import examples
from _deals import dealt
from _solver_helpers import PROGRAMME
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_leftover import FIRST, assert_same_as_oracle
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, Ruleset
from rummylib.solver._lp import Warm, solve_lp
from rummylib.solver._opening import _solve_in
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._simplex import _Simplex

#: The same settings, every leftover programme solved in full (the exact path).
IN_FULL = attrs.evolve(DEFAULT_SETTINGS, leftover_bound_first=False)


@settings(max_examples=examples(300), deadline=None)
@given(PROGRAMME, st.floats(0.0, 1.0))
def test_stopped_prices_bound_the_programme_and_resuming_reaches_the_same_optimum(
    case: tuple[list[list[tuple[int, int]]], list[int], list[int], list[int]], fraction: float
) -> None:
    # A warm start stopped at the first prices whose weighted sum is at most ``enough``:
    # those prices are dual feasible (they cover every column and are not negative), so
    # they bound the programme, and by at most ``enough``; resumed, the dual simplex goes
    # on to the optimum of an uninterrupted run, bit for bit (the prices that bound the
    # leftovers of the opening decomposition, R-O2, O3, T3).
    raw, gains, capacity, less = case
    columns = [tuple(c) for c in raw]
    floats = [float(g) for g in gains[: len(columns)]]
    smaller = [max(0, b - d) for b, d in zip(capacity, less)]
    warm = Warm(columns, floats, capacity)
    whole = warm.solve(capacity)
    optimum = warm.solve(smaller)
    tableau = warm.start(smaller)
    if whole is None or optimum is None or tableau is None:
        return  # no optimal first basis, or a stall: the caller solves cold
    low = sum(p * b for p, b in zip(optimum[0], smaller))
    high = sum(p * b for p, b in zip(whole[0], smaller))  # the whole programme's prices: the start
    enough = low + fraction * (high - low)
    stopped = warm.resume(tableau, smaller, enough)
    assert stopped is not None
    prices, used = stopped
    if used is None:
        assert sum(p * b for p, b in zip(prices, smaller)) <= enough + 1e-9
        assert all(p > -1e-6 for p in prices)
        for column, gain in zip(columns, floats):
            assert sum(prices[i] * a for i, a in column) >= gain - 1e-6
        stopped = warm.resume(tableau, smaller, None)
    assert stopped is not None and repr(stopped) == repr(optimum)
    cold = sum(p * b for p, b in zip(solve_lp(columns, floats, smaller)[0], smaller))
    assert abs(sum(p * b for p, b in zip(stopped[0], smaller)) - cold) < 1e-5


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]), st.booleans())
def test_opening_by_leftover_with_stopped_programmes_matches_oracle(
    case: tuple[Ruleset, list[Card]], keep: int, bound_first: bool
) -> None:
    # R-O2, O3, T3: the decomposition, its programmes stopped at a bound below the points
    # asked (or solved in full), gives the oracle's opening (points, cards, penalty).
    rules, hand = case
    assert_same_as_oracle(hand, rules, attrs.evolve(FIRST, leftover_bound_first=bound_first), keep)


@pytest.mark.parametrize(
    ("rules", "size", "seed", "ratio"),
    [
        (REMIK, 80, 56, 10),
        (REMIK, 70, 12, 5),
        (REMIK, 72, 14, 2),
        (REMIK, 60, 68, 1),
        (REMIK, 90, 22, 1),
        (STRAIGHT, 52, 3, 1),
    ],
)
def test_stopped_programmes_give_the_openings_of_programmes_solved_in_full(
    rules: Ruleset, size: int, seed: int, ratio: int
) -> None:
    # R-O2, O3, T3: on inputs the decomposition settles (80 cards of seed 56: 638 dual pivots
    # solved in full, most of them after the bound had fallen below the points asked), its
    # programmes stopped early give an opening worth the same (points, cards, penalty) in
    # fewer dual simplex steps (measured: 22 instead of 647, 42 instead of 298 on 70 cards of
    # seed 12, 36 instead of 86 on 72 of seed 14). Counts, never times.
    hand = dealt(rules, size, seed)
    got = []
    for changed in (DEFAULT_SETTINGS, IN_FULL):
        pivots = [0]
        real = _Simplex.dual_pivot

        def counted(tableau: _Simplex, spent: list[int] = pivots, real: Any = real) -> int:
            spent[0] += 1
            return int(real(tableau))

        with mock.patch.object(_Simplex, "dual_pivot", counted):
            opening = _solve_in(hand, rules, 1, changed, "rank", by_left=(changed.leftover_budget, {}))
        got.append((None if opening is None else (opening.points, opening.cards_placed, opening.penalty), pivots[0]))
    (stopped, few), (full, many) = got
    assert stopped == full
    assert few * ratio <= many
