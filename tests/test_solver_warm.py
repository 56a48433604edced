"""The warm-started programmes: the dual simplex from a solved basis (``_lp.Warm``, ``_priced.Relaxed``)."""

from __future__ import annotations

from unittest import mock

import pytest
from _budget import examples
from _deals import dealt
from _solver_helpers import PROGRAMME, Case, assert_feasible, unpacked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import REMIK, STRAIGHT, Ruleset, best_opening
from rummylib.solver._leftover import Constrained, Laid, _laid_split
from rummylib.solver._lp import Warm, remembered, solve_lp
from rummylib.solver._opening_objective import opening_rows, scales
from rummylib.solver._opening_objective import points_split as opening_split
from rummylib.solver._priced import SCALE, Relaxed, tightened
from rummylib.solver._search import NEG, Cover, pack
from rummylib.solver._simplex import _Simplex
from rummylib.solver._tables import tables_for


@settings(max_examples=examples(300), deadline=None)
@given(PROGRAMME)
def test_warm_start_reaches_the_cold_optimum(
    case: Case,
) -> None:
    # The programme with less capacity, solved by the dual simplex from the first one's
    # optimal basis, has the optimum of a cold solve: its prices cover every column (dual
    # feasible), its column values fit (primal feasible), both sides equal the cold value.
    columns, gains, capacity, smaller = unpacked(case)
    warm = Warm(columns, [float(g) for g in gains], capacity)
    answer = warm.solve(smaller)
    if answer is None:
        return  # the caller then solves cold (never seen on these programmes)
    prices, used = answer
    assert_feasible(columns, gains, smaller, prices, used)
    cold_prices, _ = solve_lp(columns, [float(g) for g in gains], smaller)
    cold = sum(p * b for p, b in zip(cold_prices, smaller))
    assert abs(sum(p * b for p, b in zip(prices, smaller)) - cold) < 1e-5
    assert abs(sum(u * g for u, g in zip(used, gains)) - cold) < 1e-5


@settings(max_examples=examples(200), deadline=None)
@given(PROGRAMME)
def test_warm_start_from_a_kept_programme_is_the_cold_start(
    case: Case,
) -> None:
    # Within remembered(), a Warm starts from the optimal tableau solve_lp kept for the same
    # programme instead of solving it again: bit for bit the answers of a Warm solved cold, and
    # the kept tableau is left as it was (a second Warm from it answers the same). The prices
    # bound the opening search (R-O2, O3), so its answers cannot change either.
    columns, gains, capacity, smaller = unpacked(case)
    floats = [float(g) for g in gains]
    cold = Warm(columns, floats, capacity).solve(smaller)
    with remembered():
        solve_lp(columns, floats, capacity)
        first = Warm(columns, floats, capacity).solve(smaller)
        again = Warm(columns, floats, capacity).solve(smaller)
    assert repr(first) == repr(cold) and repr(again) == repr(cold)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([REMIK, STRAIGHT]),
    st.integers(8, 40),
    st.integers(0, 10**6),
    st.lists(st.integers(0, 60), max_size=4),
    st.booleans(),
)
def test_part_priced_from_the_whole_basis_gives_the_same_answers(
    rules: Ruleset, size: int, seed: int, out: list[int], opening: bool
) -> None:
    # R-O2, O3, T3 (the leftover decomposition's programmes): a part of the input (some
    # cards taken out) priced from the whole programme's basis gets prices that cover
    # every candidate that fits it, and the search that lays every card of the part (by
    # the lowest card and by the most constrained one) gives the value it gives priced
    # by the part's own programme solved cold; so does the search that may leave cards
    # (keep_one prices each input less one card so).
    hand = dealt(rules, size, seed)
    jokers = hand.jokers if rules.jokers else 0
    tables = tables_for(hand.counts, jokers, rules)
    tables, rows, _m2, potential = opening_rows(rules, tables)
    cover = Cover(tables, rows, potential)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    split = opening_split(rules) if opening else _laid_split(scales(rules)[3])
    relaxed = Relaxed(cover, tables, x, jokers, split)
    part, j = x, jokers
    w, field = tables.width, tables.field
    for k in out:  # take out a few cards (positions present, or a joker)
        present = [p for p in range(52) if (part >> (w * p)) & field] + ([52] * j)
        if present:
            p = present[k % len(present)]
            part, j = (part, j - 1) if p == 52 else (part - (1 << (w * p)), j)
    for kind in (Cover, Laid, Constrained):
        warm = relaxed.tightened(part, j, kind)
        cold = tightened(cover, tables, part, j, split, 0, kind)
        for row in warm.rows:
            for packed, used_jokers, gain, _, shape, spot in row:
                if used_jokers <= j and not packed & ~cover.presence(part):
                    assert gain == SCALE * split.priced(shape) * split.fine + split.rest(shape)
                    assert spot == sum(warm.potential[tables.pos[c]] for c in shape.naturals) + (
                        used_jokers * warm.potential[52]
                    )
                    assert spot >= gain
        for need in (0, 1):
            unit = SCALE * split.fine
            assert warm.solve(part, j, need, NEG, unit, windows=False) == cold.solve(
                part, j, need, NEG, unit, windows=False
            )


def _reference_entering_dual(tableau: _Simplex, rho: list[float]) -> tuple[int, float, float]:
    """The dual ratio test as one loop per column (the code before the padded comprehension)."""
    basic = set(tableau.basis)
    enter, ratio, reduced = -1, 0.0, 0.0
    for k, column in enumerate(tableau.columns):
        alpha = 0.0
        for i, a in column:
            alpha += rho[i] * a
        if alpha < -1e-9 and k not in basic:
            cost = tableau.gains[k]
            for i, a in column:
                cost -= tableau.y[i] * a
            r = (-cost if cost < 0.0 else 0.0) / -alpha
            if enter < 0 or r < ratio:
                enter, ratio, reduced = k, r, cost
    return enter, ratio, reduced


@settings(max_examples=examples(200), deadline=None)
@given(PROGRAMME, st.integers(1, 3))
def test_dual_ratio_test_is_the_loop_of_each_column(case: Case, most: int) -> None:
    # The padded comprehension of the dual ratio test (_Simplex._entering_dual) picks the
    # same column with the same ratio and reduced cost, float for float, as the loop of each
    # column, at every dual pivot of a warm start: the same prices, so the same answers.
    columns, gains, capacity, smaller = unpacked(case)
    columns = [tuple((i, min(a, most) if a > 1 else a) for i, a in c) for c in columns]
    warm = Warm(columns, [float(g) for g in gains], capacity)
    seen = [0]
    real = _Simplex._entering_dual

    def both(tableau: _Simplex, rho: list[float]) -> tuple[int, float, float]:
        got = real(tableau, rho)
        assert got == _reference_entering_dual(tableau, rho)
        seen[0] += 1
        return got

    with mock.patch.object(_Simplex, "_entering_dual", both):
        warm.solve(smaller)


@pytest.mark.parametrize(("size", "seed"), [(60, 68), (80, 56), (70, 54), (90, 22)])
def test_dual_ratio_test_is_the_loop_of_each_column_on_large_inputs(size: int, seed: int) -> None:
    # The same on the programmes the leftover decomposition warm-starts (remik, four jokers:
    # coefficients of 2 and 3 on the joker row), and its opening is unchanged (R-O2, O3, T3).
    hand = dealt(REMIK, size, seed)
    real = _Simplex._entering_dual
    seen = [0]

    def both(tableau: _Simplex, rho: list[float]) -> tuple[int, float, float]:
        got = real(tableau, rho)
        assert got == _reference_entering_dual(tableau, rho)
        seen[0] += 1
        return got

    plain = best_opening(hand, REMIK)
    with mock.patch.object(_Simplex, "_entering_dual", both):
        checked = best_opening(hand, REMIK)
    assert checked == plain
    assert seen[0] > 0
