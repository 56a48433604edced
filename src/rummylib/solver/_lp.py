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
from copy import copy
from operator import mul

__all__ = ["Warm", "remembered", "solve_lp"]

#: A reduced cost must exceed this to enter the basis.
_TOL = 1e-9
#: How many columns partial pricing looks at once it has a candidate.
_WINDOW = 64


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


_KEPT = _Kept()


@contextmanager
def remembered() -> Iterator[None]:
    """Within it, :func:`solve_lp` keeps the answers of its last few programmes (none once it ends)."""
    outer = _KEPT.solved
    if outer is None:
        _KEPT.solved = {}
    try:
        yield
    finally:
        _KEPT.solved = outer


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
    the programme is solved with its rows sorted by label and its columns by
    key, and the answers are put back in the caller's order: the same
    programme written in another order (the same input searched in another
    order, ``_opening``) is then the same programme to the simplex, which
    returns the same vertex, and within :func:`remembered` the kept answer.

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
    if canonical is None:
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
        known = _solve(columns, gains, capacity, max_iter)
        if len(solved) >= _SOLVED_MOST:
            solved.pop(next(iter(solved)), None)
        solved[key] = known
    return known


def _solve(
    columns: Sequence[tuple[tuple[int, int], ...]],
    gains: Sequence[float],
    capacity: Sequence[int],
    max_iter: int | None,
) -> tuple[tuple[float, ...], tuple[float, ...], _Simplex | None]:
    """:func:`solve_lp` without the kept answers (tuples: they are shared), and the final tableau.

    The tableau is returned only where the simplex ended at an optimum (no
    column may enter), the start :class:`Warm` needs; else ``None``.
    """
    m = len(capacity)
    n = len(columns)
    # Work with gains of at most 1, so that the tolerances mean the same at any scale.
    top = max(gains, default=0.0)
    if top <= 0:
        return (0.0,) * m, (0.0,) * n, None
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
        tableau = copy(first)
        tableau.basis, tableau.slacks, tableau.y = first.basis[:], first.slacks[:], first.y[:]
        tableau.binv = [row[:] for row in first.binv]
        b = _perturbed(capacity)
        tableau.xb = [sum(q * v for q, v in zip(row, b)) for row in tableau.binv]
        tableau.spent = 0
        return tableau

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


def _perturbed(capacity: Sequence[int]) -> list[float]:
    """The capacity with the simplex's tiny fixed perturbation (see :class:`_Simplex`)."""
    return [b + 1e-7 * ((i * 7919) % 997 + 1) / 997 for i, b in enumerate(capacity)]


#: How many rows a column may have to take :meth:`_Simplex.alphas`'s one comprehension.
_PAD = 5


def _padded(columns: Sequence[tuple[tuple[int, int], ...]], m: int) -> tuple[list[tuple[int, ...]] | None, int]:
    """Per column, where :meth:`_Simplex.alphas` reads each term, padded to :data:`_PAD`; the largest coefficient.

    A term ``(i, a)`` is read at ``i`` when ``a`` is 1, else at ``m + 1 + (a - 2) * m + i``
    (the row times ``a``); padding reads ``m`` (a zero). ``None`` if a column is longer.
    """
    most = max((a for col in columns for _, a in col), default=1)
    out: list[tuple[int, ...]] = []
    for col in columns:
        if len(col) > _PAD:
            return None, most
        rows = tuple(i if a == 1 else m + 1 + (a - 2) * m + i for i, a in col)
        out.append(rows + (m,) * (_PAD - len(rows)))
    return out, most


class _Simplex:
    """The revised simplex's state: basis, its dense inverse, basic values and prices."""

    def __init__(
        self, columns: Sequence[tuple[tuple[int, int], ...]], gains: Sequence[float], capacity: Sequence[int]
    ) -> None:
        m = len(capacity)
        self.columns = columns
        # Per column, its rows when every coefficient is 1 (y[i] * 1 is y[i]: the pricing skips the product).
        self.unit_rows = [tuple(i for i, _ in col) if all(a == 1 for _, a in col) else None for col in columns]
        #: Per column, where :meth:`alphas` reads its terms; the largest coefficient (see _padded).
        self.padded, self.most = _padded(columns, m)
        self.gains = gains
        # A tiny fixed perturbation of b breaks the ties that make packing
        # programmes degenerate (and the simplex stall); it keeps runs deterministic.
        self.xb = _perturbed(capacity)
        self.basis = [-1] * m  # column in the basis at each row, -1 for a slack
        self.slacks = list(range(m))  # the slack in the basis at each row, -1 for a column
        self.binv = [[1.0 if r == c else 0.0 for c in range(m)] for r in range(m)]
        self.y = [0.0] * m
        self.start = 0
        #: Dual simplex steps taken since :meth:`Warm.start` (:meth:`Warm.resume` stops at its cap).
        self.spent = 0

    def entering(self) -> tuple[int, float]:
        """The column (``n + i`` for slack ``i``) to enter and its reduced cost; ``-1`` at an optimum.

        Partial pricing: the best reduced cost among a window of columns after
        the last one that entered; a full pass proves optimality.
        """
        columns, gains, y, unit_rows = self.columns, self.gains, self.y, self.unit_rows
        n = len(columns)
        best = _TOL
        enter = -1
        k = self.start
        seen = 0
        while seen < n:
            r = gains[k]
            rows = unit_rows[k]
            if rows is None:
                for i, a in columns[k]:
                    r -= y[i] * a
            else:
                for i in rows:
                    r -= y[i]
            if r > best:
                best = r
                enter = k
            seen += 1
            k += 1
            if k == n:
                k = 0
            if enter >= 0 and seen >= _WINDOW:
                break
        self.start = k
        if seen >= n:  # a full pass: a slack may enter if its price went negative
            for i, price in enumerate(y):
                if -price > best:
                    best = -price
                    enter = n + i
        return enter, best

    def primal_pass(self, most: int) -> bool:
        """Primal simplex steps, at most ``most``: ``True`` if it ends at an optimum (no column may enter)."""
        for _ in range(most):
            enter, reduced = self.entering()
            if enter < 0:
                return True
            if not self.pivot(enter, reduced):
                return False
        return False

    def values(self) -> list[float]:
        """The column values of the current basis (0 for the columns out of it)."""
        primal = [0.0] * len(self.columns)
        for row, k in enumerate(self.basis):
            if k >= 0:
                primal[k] = self.xb[row]
        return primal

    def pivot(self, enter: int, reduced: float) -> bool:
        """Bring column ``enter`` into the basis (ratio test, inverse and price update); ``False`` if unbounded.

        The arithmetic is the plain dense update's, operation for operation
        (zeros of the inverse are all ``+0.0``, so adding or subtracting a zero
        product changes nothing): only the loops are cheaper. A row of the
        inverse is updated only where the pivot row has a non-zero.
        """
        n = len(self.columns)
        binv, xb = self.binv, self.xb
        column = self.columns[enter] if enter < n else ((enter - n, 1),)
        d: list[float] = []
        for k, (i, a) in enumerate(column):  # the entering column in the current basis: binv times it
            d = [r[i] * a for r in binv] if k == 0 else [x + r[i] * a for x, r in zip(d, binv)]
        p = -1
        theta = 0.0
        for row, f in enumerate(d):
            if f > 1e-9:
                t = xb[row] / f
                if p < 0 or t < theta:
                    theta = t
                    p = row
        if p < 0:  # unbounded: cannot happen with positive columns and finite b
            return False
        self.exchange(enter, p, d, theta, reduced)
        return True

    def exchange(self, enter: int, p: int, d: list[float], theta: float, reduced: float) -> None:
        """Column ``enter`` (whose values in the basis are ``d``) replaces the basic one of row ``p``."""
        n = len(self.columns)
        binv, xb = self.binv, self.xb
        for row, f in enumerate(d):
            if f and row != p:
                xb[row] -= theta * f
        xb[p] = theta
        self.basis[p] = enter if enter < n else -1
        self.slacks[p] = enter - n if enter >= n else -1
        inv = 1.0 / d[p]
        prow = [v * inv for v in binv[p]]
        binv[p] = prow
        nonzero = [(c, q) for c, q in enumerate(prow) if q]
        dense = 2 * len(nonzero) > len(prow)
        for row, f in enumerate(d):
            if f and row != p:
                if dense:  # a zero of the pivot row leaves the entry as it is
                    binv[row] = [v - f * q for v, q in zip(binv[row], prow)]
                else:
                    r = binv[row]
                    for c, q in nonzero:
                        r[c] -= f * q
        self.y = [v + reduced * q for v, q in zip(self.y, prow)]

    def column_in_basis(self, enter: int) -> list[float]:
        """Column ``enter`` (``n + i`` for slack ``i``) in the current basis: the inverse times it."""
        n = len(self.columns)
        column = self.columns[enter] if enter < n else ((enter - n, 1),)
        d: list[float] = []
        for k, (i, a) in enumerate(column):
            d = [r[i] * a for r in self.binv] if k == 0 else [x + r[i] * a for x, r in zip(d, self.binv)]
        return d

    def _times(self, row: list[float]) -> list[float]:
        """``row``, a zero, then ``row`` times each coefficient from 2 up: where :attr:`padded` reads."""
        out = [*row, 0.0]
        for a in range(2, self.most + 1):
            out += [q * a for q in row]
        return out

    def _entering_dual(self, rho: list[float]) -> tuple[int, float, float]:
        """The dual ratio test over the columns: the first least ratio, with its reduced cost (``-1``: none).

        The pivot row ``rho`` times each column, and each reduced cost, are the
        columns' loops ``0.0 + rho[i] * a + ...`` and ``gains[k] - y[i] * a - ...`` in
        their order, up to the sign of a zero sum: the products are the same floats
        (read from :meth:`_times`), and the padding adds ``+0.0`` (exact but for
        ``-0.0``) or takes it away (exact). One comprehension over all the columns.
        """
        columns, gains, padded = self.columns, self.gains, self.padded
        basic = set(self.basis)
        enter, ratio, reduced = -1, 0.0, 0.0
        if padded is None:
            for k, col in enumerate(columns):
                alpha = 0.0
                for i, a in col:
                    alpha += rho[i] * a
                if alpha < -1e-9 and k not in basic:
                    cost = gains[k]
                    for i, a in col:
                        cost -= self.y[i] * a
                    r = (-cost if cost < 0.0 else 0.0) / -alpha
                    if enter < 0 or r < ratio:
                        enter, ratio, reduced = k, r, cost
            return enter, ratio, reduced
        t = self._times(rho)
        alphas = [t[a] + t[b] + t[c] + t[d] + t[e] for a, b, c, d, e in padded]
        y = self._times(self.y)
        for k in [k for k, alpha in enumerate(alphas) if alpha < -1e-9]:
            if k in basic:  # the ratio test reads the reduced cost of these only
                continue
            a, b, c, d, e = padded[k]
            cost = gains[k] - y[a] - y[b] - y[c] - y[d] - y[e]
            r = (-cost if cost < 0.0 else 0.0) / -alphas[k]
            if enter < 0 or r < ratio:
                enter, ratio, reduced = k, r, cost
        return enter, ratio, reduced

    def dual_pivot(self) -> int:
        """One step of the dual simplex: 1 done, 0 stepped, -1 stuck (no column can enter)."""
        xb = self.xb
        p = min(range(len(xb)), key=xb.__getitem__)
        if xb[p] >= -_TOL:
            return 1  # primal feasible: optimal
        rho = self.binv[p]
        y = self.y
        enter, ratio, reduced = self._entering_dual(rho)
        n = len(self.columns)
        in_basis = set(self.slacks)
        for i, q in enumerate(rho):  # slacks: column e_i, cost -y_i
            if q < -1e-9 and i not in in_basis:
                r = max(0.0, y[i]) / -q
                if enter < 0 or r < ratio:
                    enter, ratio, reduced = n + i, r, -y[i]
        if enter < 0:
            return -1
        d = self.column_in_basis(enter)
        self.exchange(enter, p, d, xb[p] / d[p], reduced)
        return 0
