"""The simplex's cheaper loops do the plain dense update's arithmetic, bit for bit.

``_lp._Simplex`` prices columns of unit coefficients without the product,
computes the entering column by list comprehensions and updates the rows of
the inverse only where the pivot row is non-zero. Each is the same floating
point operation as the plain loops (a zero product added to or subtracted
from an entry leaves it as it is, and the inverse holds no ``-0.0``), so the
prices and column values, and hence every search that uses them, are those
of the plain loops below, kept here as the reference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from unittest import mock

from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import REMIK, CardMultiset, best_opening, best_partition, deck
from rummylib.solver import _lp, _priced, _simplex
from rummylib.solver._lp import solve_lp


class _PlainSimplex(_simplex._Simplex):
    """The simplex with the plain dense loops (the reference)."""

    def entering(self) -> tuple[int, float]:
        columns, gains, y = self.columns, self.gains, self.y
        n = len(columns)
        best = _simplex._TOL
        enter = -1
        k = self.start
        seen = 0
        while seen < n:
            r = gains[k]
            for i, a in columns[k]:
                r -= y[i] * a
            if r > best:
                best = r
                enter = k
            seen += 1
            k += 1
            if k == n:
                k = 0
            if enter >= 0 and seen >= _simplex._WINDOW:
                break
        self.start = k
        if seen >= n:
            for i, price in enumerate(y):
                if -price > best:
                    best = -price
                    enter = n + i
        return enter, best

    def pivot(self, enter: int, reduced: float) -> bool:
        n = len(self.columns)
        binv, xb = self.binv, self.xb
        m = len(xb)
        column = self.columns[enter] if enter < n else ((enter - n, 1),)
        d = [0.0] * m
        for i, a in column:
            for row in range(m):
                v = binv[row][i]
                if v:
                    d[row] += v * a
        p = -1
        theta = 0.0
        for row in range(m):
            if d[row] > 1e-9:
                t = xb[row] / d[row]
                if p < 0 or t < theta:
                    theta = t
                    p = row
        if p < 0:
            return False
        for row in range(m):
            if d[row] and row != p:
                xb[row] -= theta * d[row]
        xb[p] = theta
        self.basis[p] = enter if enter < n else -1
        inv = 1.0 / d[p]
        prow = [v * inv for v in binv[p]]
        binv[p] = prow
        for row in range(m):
            f = d[row]
            if f and row != p:
                binv[row] = [v - f * q for v, q in zip(binv[row], prow)]
        self.y = [v + reduced * q for v, q in zip(self.y, prow)]
        return True


def _bits(values: Sequence[float]) -> list[str]:
    return [v.hex() for v in values]


def _plain_lp(
    columns: Sequence[tuple[tuple[int, int], ...]], gains: Sequence[float], capacity: Sequence[int]
) -> tuple[list[float], list[float]]:
    with mock.patch.object(_lp, "_Simplex", _PlainSimplex):
        return solve_lp(columns, gains, capacity)


def _same_as_plain(
    columns: Sequence[tuple[tuple[int, int], ...]], gains: Sequence[float], capacity: Sequence[int]
) -> tuple[list[float], list[float]]:
    prices, used = solve_lp(columns, gains, capacity)
    plain_prices, plain_used = _plain_lp(columns, gains, capacity)
    assert _bits(prices) == _bits(plain_prices)
    assert _bits(used) == _bits(plain_used)
    return prices, used


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(1, 200))
def test_random_programmes_give_the_plain_loops_bits(seed: int, m: int, n: int) -> None:
    # Packing programmes as the solver builds them: 1-4 rows of coefficient 1, sometimes a joker
    # row of coefficient 1-2 and a size row (R-T3's kept card); small integer capacities.
    rng = random.Random(seed)
    columns = []
    for _ in range(n):
        rows = rng.sample(range(m), min(m, rng.randint(1, 4)))
        column = [(i, 2 if i == m - 1 and rng.random() < 0.3 else 1) for i in sorted(rows)]
        columns.append(tuple(column))
    gains = [float(rng.randint(0, 60)) for _ in range(n)]
    capacity = [rng.randint(0, 3) for _ in range(m)]
    _same_as_plain(columns, gains, capacity)


def test_the_solvers_programmes_give_the_plain_loops_bits() -> None:
    # Every programme the search solves on large remik multisets (dense, degenerate inverses).
    seen = []

    def checked(
        columns: Sequence[tuple[tuple[int, int], ...]],
        gains: Sequence[float],
        capacity: Sequence[int],
        max_iter: int | None = None,
        canonical: object = None,  # the programme as the caller wrote it is as real a test
    ) -> tuple[list[float], list[float]]:
        seen.append(len(capacity))
        return _same_as_plain(columns, gains, capacity)

    cards = list(deck(REMIK))
    with mock.patch.object(_priced, "solve_lp", checked):
        for seed, size in ((7000, 54), (7001, 80), (7009, 80), (3, 40)):
            random.Random(seed).shuffle(cards)
            hand = CardMultiset(cards[:size])
            best_opening(hand, REMIK)
            best_partition(hand, REMIK)
    assert len(seen) >= 4


def test_a_programme_asked_again_gets_the_same_answer() -> None:
    # The kept answers of solve_lp: bit for bit those of a fresh solve, and lists of the caller's own.
    hand = CardMultiset(random.Random(5).sample(list(deck(REMIK)), 60))
    calls: list[tuple[list[float], list[float]]] = []

    def kept(
        columns: Sequence[tuple[tuple[int, int], ...]],
        gains: Sequence[float],
        capacity: Sequence[int],
        canonical: tuple[Sequence[int], Sequence[tuple[float, ...]]] | None = None,
    ) -> tuple[list[float], list[float]]:
        first = solve_lp(columns, gains, capacity, canonical=canonical)
        again = solve_lp(columns, gains, capacity, canonical=canonical)
        with mock.patch.object(_lp._KEPT, "solved", {}), mock.patch.object(_lp._KEPT, "bases", {}):
            fresh = solve_lp(columns, gains, capacity, canonical=canonical)  # nothing kept: no warm start either
        assert first is not again and first[0] is not again[0] and first[1] is not again[1]
        for answer in (again, fresh):
            assert _bits(answer[0]) == _bits(first[0]) and _bits(answer[1]) == _bits(first[1])
        calls.append(first)
        return first

    with mock.patch.object(_priced, "solve_lp", kept):
        opening = best_opening(hand, REMIK)
    assert _lp._KEPT.solved is None  # nothing is kept once the search is over
    again = best_opening(hand, REMIK)  # every programme solved anew: the same answer
    assert calls and opening is not None and again is not None
    assert (opening.points, opening.cards_placed, opening.penalty) == (again.points, again.cards_placed, again.penalty)


def test_a_programme_in_another_order_is_the_same_programme() -> None:
    # The canonical order of solve_lp: the programme of one input, its rows and columns
    # shuffled (the input searched in another order), gets the same prices and column
    # values, each in the caller's order, and within remembered() without a second solve.
    hand = CardMultiset(random.Random(5).sample(list(deck(REMIK)), 60))
    Canonical = tuple[Sequence[int], Sequence[tuple[float, ...]]]
    programmes: list[
        tuple[Sequence[tuple[tuple[int, int], ...]], Sequence[float], Sequence[int], Canonical | None]
    ] = []

    def record(
        columns: Sequence[tuple[tuple[int, int], ...]],
        gains: Sequence[float],
        capacity: Sequence[int],
        canonical: Canonical | None = None,
    ) -> tuple[list[float], list[float]]:
        programmes.append((columns, gains, capacity, canonical))
        return solve_lp(columns, gains, capacity, canonical=canonical)

    with mock.patch.object(_priced, "solve_lp", record):
        best_opening(hand, REMIK)
    columns, gains, capacity, canonical = programmes[0]
    assert canonical is not None
    labels, keys = canonical
    m, n = len(capacity), len(columns)
    rows, cols = list(range(m)), list(range(n))
    random.Random(1).shuffle(rows)
    random.Random(2).shuffle(cols)
    row_at = {old: new for new, old in enumerate(rows)}
    shuffled = [tuple((row_at[i], a) for i, a in reversed(columns[k])) for k in cols]
    first = solve_lp(columns, gains, capacity, canonical=canonical)
    with _lp.remembered():
        solve_lp(columns, gains, capacity, canonical=canonical)
        with mock.patch.object(_lp, "_solve", side_effect=AssertionError("solved again")):
            prices, used = solve_lp(
                shuffled,
                [gains[k] for k in cols],
                [capacity[r] for r in rows],
                canonical=([labels[r] for r in rows], [keys[k] for k in cols]),
            )
    assert _bits(prices) == _bits([first[0][r] for r in rows])
    assert _bits(used) == _bits([first[1][k] for k in cols])
