"""Dual prices of the meld-packing linear programme, by a small revised simplex.

The programme is ``max g.x`` subject to ``A x <= b`` and ``x >= 0``, where a
column of ``A`` is a candidate meld (how many of each card kind and of the
jokers it uses), ``g`` its gain and ``b`` the cards in hand. Its dual prices
``y`` (one per row) bound every packing: if ``y.A_m >= g_m`` for each meld
``m``, no packing of the hand gains more than ``y.b``, and no packing of a
sub-multiset ``s`` more than ``y.s``. The search uses such prices as the
potential of each card (:mod:`rummylib.solver._search`), which on mid-size
multisets with jokers is far tighter than each card's own best value: the
relaxation of this programme is usually within a few points of the optimum.

Only the prices are wanted, and the caller checks them in exact integer
arithmetic and repairs any shortfall, so floating-point error here can cost
strength but never correctness. A pure-Python dense inverse is fine at this
size (one row per card kind present, at most 53).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import pairwise
from operator import mul

from rummylib.solver._simplex import _Eta, _perturbed, _Simplex

__all__ = ["Warm", "remembered", "solve_lp"]

#: How many programmes :func:`solve_lp` keeps within :func:`remembered`.
_SOLVED_MOST = 16


class _Kept(threading.local):
    """The programmes solved and their answers (oldest first) while :func:`remembered` is active, else ``None``.

    One per thread, as :func:`remembered` is entered and left per call.
    """

    def __init__(self) -> None:
        self.solved: dict[tuple[object, ...], tuple[tuple[float, ...], tuple[float, ...], _Simplex | None]] | None = (
            None
        )
        #: The last optimal tableau of each programme's columns (as a set) and capacity (see :func:`_solved`).
        self.bases: dict[tuple[object, ...], _Simplex] | None = None


_KEPT = _Kept()


@contextmanager
def remembered(warm_bases: bool = True) -> Iterator[None]:
    """Within it, :func:`solve_lp` keeps the answers of its last few programmes (none once it ends).

    ``warm_bases``: also keep their optimal bases, from which a programme of the
    same columns and capacity starts (see :func:`_solved`).
    """
    outer, bases = _KEPT.solved, _KEPT.bases
    if outer is None:
        _KEPT.solved, _KEPT.bases = {}, ({} if warm_bases else None)
    try:
        yield
    finally:
        _KEPT.solved, _KEPT.bases = outer, bases


def solve_lp(
    columns: Sequence[tuple[tuple[int, int], ...]],
    gains: Sequence[float],
    capacity: Sequence[int],
    max_iter: int | None = None,
    *,
    canonical: tuple[Sequence[int], Sequence[tuple[float, ...]]] | None = None,
) -> tuple[list[float], list[float]]:
    """Optimal (or, after ``max_iter`` pivots, the last) dual prices and primal values of ``max g.x, A x <= b``.

    The simplex is deterministic, so within :func:`remembered` the answers of
    the last few programmes are kept and an identical programme asked again
    (the same input searched within a larger budget, ``_opening``) gets them
    at once: the same prices, none of the pivots.

    With ``canonical`` (a label per row and a key per column, each distinct),
    the programme is solved with its rows sorted by label, its columns by key
    and each column's terms by row, and the answers are put back in the
    caller's order: the same programme written in another order (the same
    input searched in another order, ``_opening``) is then the same programme
    to the simplex, which returns the same vertex, and within
    :func:`remembered` the kept answer. Rows and columns already in that order
    are taken as they are (each column's terms are then the caller's order).

    Args:
        columns: per column, its non-zero entries as ``(row, coefficient)``
            pairs, coefficients positive.
        gains: per column, its objective coefficient (non-negative).
        capacity: per row, its right-hand side ``b`` (non-negative).
        max_iter: a cap on pivots (default: 20 per row, plus 200).

    Returns:
        One price per row, and one value per column. At an optimum the prices
        are dual feasible and their weighted sum equals the programme's value;
        the caller must not rely on either and checks them itself. The column
        values (of a slightly perturbed ``b``) say which melds the relaxation
        uses, a good order to try them in.
    """
    if canonical is None or _in_order(*canonical):
        prices, used, _ = _solved(columns, gains, capacity, max_iter)
        return list(prices), list(used)
    labels, keys = canonical
    rows = sorted(range(len(capacity)), key=labels.__getitem__)
    row_at = [0] * len(rows)
    for new, row in enumerate(rows):
        row_at[row] = new
    order = sorted(range(len(columns)), key=keys.__getitem__)
    prices, used, _ = _solved(
        [tuple(sorted((row_at[i], a) for i, a in columns[k])) for k in order],
        [gains[k] for k in order],
        [capacity[row] for row in rows],
        max_iter,
    )
    back = [0.0] * len(columns)
    for new, k in enumerate(order):
        back[k] = used[new]
    return [prices[row_at[i]] for i in range(len(rows))], back


def _solved(
    columns: Sequence[tuple[tuple[int, int], ...]],
    gains: Sequence[float],
    capacity: Sequence[int],
    max_iter: int | None,
) -> tuple[tuple[float, ...], tuple[float, ...], _Simplex | None]:
    """:func:`_solve`'s answer, kept within :func:`remembered` (shared: the caller must not change it)."""
    solved = _KEPT.solved
    if solved is None:
        return _solve(columns, gains, capacity, max_iter)
    key = (_Simplex, tuple(columns), tuple(gains), tuple(capacity), max_iter)  # the simplex too (tests swap it)
    known = solved.get(key)
    if known is None:
        # The same columns (in any order) and capacity with other gains: the optimal basis
        # of the last such programme is feasible for this one, and the primal simplex goes
        # on from it (70 cards of seed 196 of ``worst.py``: its points and its dive's
        # programmes, 150 pivots each from the slack basis).
        bases = _KEPT.bases
        shape = (_Simplex, frozenset(columns), tuple(capacity))
        start = None if bases is None else bases.get(shape)
        if (
            start is None and bases is not None and capacity
        ):  # a row more: the last, a bound on the cards laid (_priced.tightened)
            last = len(capacity) - 1
            less = frozenset(tuple(t for t in col if t[0] < last) for col in columns)
            start = bases.get((_Simplex, less, tuple(capacity[:-1])))
        known = _solve(columns, gains, capacity, max_iter, start)
        if len(solved) >= _SOLVED_MOST:
            solved.pop(next(iter(solved)), None)
        solved[key] = known
        if known[2] is not None and bases is not None:
            bases.pop(shape, None)
            if len(bases) >= _SOLVED_MOST:
                bases.pop(next(iter(bases)), None)
            bases[shape] = known[2]
    return known


def _in_order(labels: Sequence[int], keys: Sequence[tuple[float, ...]]) -> bool:
    """Whether the rows and the columns are in their canonical order already (the common call: no copy)."""
    return all(a < b for a, b in pairwise(labels)) and all(a < b for a, b in pairwise(keys))


def _solve(
    columns: Sequence[tuple[tuple[int, int], ...]],
    gains: Sequence[float],
    capacity: Sequence[int],
    max_iter: int | None,
    start: _Simplex | None = None,
) -> tuple[tuple[float, ...], tuple[float, ...], _Simplex | None]:
    """:func:`solve_lp` without the kept answers (tuples: they are shared), and the final tableau.

    The tableau is returned only where the simplex ended at an optimum (no
    column may enter), the start :class:`Warm` needs; else ``None``. ``start``:
    the optimal tableau of a programme of the same columns (in any order) and
    capacity, whose basis (feasible here too) the primal simplex starts from.
    """
    m = len(capacity)
    n = len(columns)
    # Work with gains of at most 1, so that the tolerances mean the same at any scale.
    top = max(gains, default=0.0)
    if top <= 0:
        return (0.0,) * m, (0.0,) * n, None
    tableau = _Simplex(columns, [g / top for g in gains], capacity)
    if start is not None and not tableau.adopt(start):
        tableau = _Simplex(columns, [g / top for g in gains], capacity)
    optimal = tableau.primal_pass(20 * m + 200 if max_iter is None else max_iter)
    return tuple(v * top for v in tableau.y), tuple(tableau.values()), tableau if optimal else None


class Warm:
    """A programme solved once, whose optimal basis starts programmes that differ from it only by less capacity.

    With the same columns and gains and a capacity ``b' <= b`` row by row (a
    part of the input: rows of cards it lacks at 0), the optimal basis of the
    first stays dual feasible, and the dual simplex restores primal
    feasibility in a few pivots where a cold start takes hundreds. The prices
    are checked by the caller as those of :func:`solve_lp` are.
    """

    def __init__(
        self, columns: Sequence[tuple[tuple[int, int], ...]], gains: Sequence[float], capacity: Sequence[int]
    ) -> None:
        self.m = len(capacity)
        self.top = max(gains, default=0.0)
        # The cold simplex's optimal tableau (started only from an optimum); within
        # remembered(), that of the same programme solved by solve_lp, shared and never changed.
        self.tableau = _solved(columns, gains, capacity, None)[2]
        #: The columns of its inverse, shared by the tableaux of :meth:`start` (made at the first).
        self.base_t: list[list[float]] | None = None

    def solve(self, capacity: Sequence[int]) -> tuple[list[float], list[float]] | None:
        """Prices and column values of the programme with ``capacity``; ``None`` if the dual simplex stalls."""
        tableau = self.start(capacity)
        if tableau is None:
            return None
        answer = self.resume(tableau, capacity, None)
        if answer is None:
            return None
        prices, used = answer
        assert used is not None  # without a bound to reach it runs to the optimum
        return prices, used

    def start(self, capacity: Sequence[int], first: _Simplex | None = None) -> _Simplex | None:
        """The first programme's optimal tableau with ``capacity``'s basic values, for :meth:`resume`; ``None`` if none.

        ``first``: a tableau of this programme at another capacity (from :meth:`start`),
        whose basis is dual feasible too (every step of :meth:`resume` keeps it so).
        """
        if first is None:
            first = self.tableau
        if first is None:
            return None
        b = _perturbed(capacity)
        if isinstance(first, _Eta):
            return _Eta(first, first.base, first.base_t, first.etas, b)
        if self.base_t is None:  # ``first`` is the optimal tableau: its inverse is the base of every start
            self.base_t = [list(column) for column in zip(*first.binv)]
        return _Eta(first, first.binv, self.base_t, [], b)

    def resume(
        self, tableau: _Simplex, capacity: Sequence[int], enough: float | None
    ) -> tuple[list[float], list[float] | None] | None:
        """Dual simplex steps on ``tableau`` (from :meth:`start`): its prices, and its column values at the optimum.

        Every step keeps the prices dual feasible, so each bounds the programme
        with ``capacity`` by their weighted sum, which falls step by step to the
        optimum. With ``enough``, the steps stop once that sum (in the gains'
        units) is at most ``enough``: those prices, and ``None`` for the column
        values. Resumed, the steps go on where they stopped, the same steps an
        uninterrupted run takes, so the optimum is the same to the bit.
        ``None`` if the dual simplex stalls.
        """
        most = 20 * self.m + 200
        top = self.top
        step = 0
        while tableau.spent < most:
            if enough is not None and sum(map(mul, tableau.y, capacity)) * top <= enough:
                return [v * top for v in tableau.y], None
            tableau.spent += 1
            step = tableau.dual_pivot()
            if step:
                break
        if step != 1:
            return None
        tableau.primal_pass(most)  # for prices the rounding left short
        return [v * top for v in tableau.y], tableau.values()
