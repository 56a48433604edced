"""The revised simplex of :mod:`~rummylib.solver._lp`: a dense inverse, partial pricing, both passes.

A pure-Python dense inverse is fine at this size (one row per card kind
present, at most 53, and one per extra constraint). The loops are the plain
dense update's arithmetic, operation for operation (see
``tests/test_solver_lp_arith.py``), only cheaper.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

__all__ = ["_Eta", "_Simplex", "_perturbed"]

#: A reduced cost must exceed this to enter the basis.
_TOL = 1e-9
#: How many columns partial pricing looks at once it has a candidate.
_WINDOW = 64


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

    def adopt(self, other: _Simplex) -> bool:
        """Start from ``other``'s optimal basis; ``False`` (this tableau then unusable) if it is no start here.

        ``other`` is a programme of the same columns (in any order) and capacity,
        or of this one's without its last row (each column's term in it dropped;
        a row more, its slack basic). Its inverse and basic values hold here (the
        same basis matrix and capacity); a last row they break is restored by
        dual steps when the basis is dual feasible for this programme's gains (the
        same gains: a bound on the cards laid added), else it is no start.
        """
        m, old = len(self.y), len(other.basis)
        at: dict[tuple[tuple[int, int], ...], int] = {}
        for k, column in enumerate(self.columns):  # equal columns are the same column to a basis
            at.setdefault(column if m == old else tuple(t for t in column if t[0] < old), k)
        self.basis = [at[other.columns[k]] if k >= 0 else -1 for k in other.basis] + [-1] * (m - old)
        self.slacks = other.slacks + list(range(old, m))
        self.binv = [[*row, *[0.0] * (m - old)] for row in other.binv]
        self.xb = [*other.xb, *self.xb[old:]]
        for e in range(old, m):  # the new row: its slack less the basic columns' use of it
            use = [dict(self.columns[k]).get(e, 0) if k >= 0 else 0 for k in self.basis[:old]]
            row = [0.0] * m
            for r, a in enumerate(use):
                if a:
                    row = [v - a * q for v, q in zip(row, self.binv[r])]
                    self.xb[e] -= a * self.xb[r]
            row[e] = 1.0
            self.binv.append(row)
        gains, y = self.gains, [0.0] * m
        for r, k in enumerate(self.basis):
            if k >= 0 and gains[k]:
                y = [v + gains[k] * q for v, q in zip(y, self.binv[r])]
        self.y = y
        if min(self.xb) >= -_TOL:
            return True
        if self.entering()[0] >= 0:
            return False  # not dual feasible either
        for _ in range(20 * m + 200):
            step = self.dual_pivot()
            if step:
                return step == 1
        return False

    def entering(self) -> tuple[int, float]:
        """The column (``n + i`` for slack ``i``) to enter and its reduced cost; ``-1`` at an optimum.

        Partial pricing: the best reduced cost among a window of columns after
        the last one that entered; a full pass proves optimality.
        """
        if self.padded is not None:
            return self._entering_padded(self.padded)
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

    def _entering_padded(self, padded: list[tuple[int, ...]]) -> tuple[int, float]:
        """:meth:`entering`'s scan, a window of columns at a time (the reduced costs of :meth:`_entering_dual`).

        The same columns in the same order, the same floats: the first window's
        first best above the tolerance, else the first column above it after.
        """
        gains, t = self.gains, self._times(self.y)
        n = len(gains)
        best, enter, k, seen = _TOL, -1, self.start, 0
        while seen < n:
            size = min(_WINDOW, n - seen)
            wrap = k + size - n  # columns read from the start again
            g = gains[k : k + size] if wrap <= 0 else [*gains[k:], *gains[:wrap]]
            rows = padded[k : k + size] if wrap <= 0 else [*padded[k:], *padded[:wrap]]
            costs = [v - t[a] - t[b] - t[d] - t[e] - t[f] for v, (a, b, d, e, f) in zip(g, rows)]
            top = max(costs)
            if top > best:
                i = costs.index(top) if not seen else next(i for i, r in enumerate(costs) if r > best)
                best, enter = costs[i], (k + i) % n
                if seen:  # past the first window: the scan stops at the first column above
                    size = i + 1
            seen += size
            k = (k + size) % n
            if enter >= 0:
                break
        self.start = k
        if seen >= n:  # a full pass: a slack may enter if its price went negative
            for i, price in enumerate(self.y):
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
        xb = self.xb
        d = self.column_in_basis(enter)
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
        binv = self.binv
        xb = self.xb = [v - theta * f if f else v for v, f in zip(self.xb, d)]
        xb[p] = theta
        self.basis[p] = enter if enter < n else -1
        self.slacks[p] = enter - n if enter >= n else -1
        inv = 1.0 / d[p]
        prow = [v * inv for v in binv[p]]
        binv[p] = prow
        if 2 * (len(prow) - prow.count(0.0)) > len(prow):  # dense: a zero of it leaves the entry as it is
            for row, f in enumerate(d):
                if f and row != p:
                    binv[row] = [v - f * q for v, q in zip(binv[row], prow)]
        else:
            nonzero = [(c, q) for c, q in enumerate(prow) if q]
            for row, f in enumerate(d):
                if f and row != p:
                    r = binv[row]
                    for c, q in nonzero:
                        r[c] -= f * q
        self.y = [v + reduced * q for v, q in zip(self.y, prow)]

    def row(self, p: int) -> list[float]:
        """Row ``p`` of the basis inverse (not to be changed)."""
        return self.binv[p]

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
        rho = self.row(p)
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


class _Eta(_Simplex):
    """A warm start's tableau (``_lp.Warm``): the optimal basis's inverse, shared, times an eta column per pivot since.

    The inverse ``base`` (its columns ``base_t``) is never changed, and every part
    started from it shares it; each pivot adds its row and the entering column in
    the basis. A part takes a few dual pivots, each then a few passes over a row
    instead of the dense update of the whole inverse, and its start no copy of
    it. The floats differ from the dense update's in the last bits: the prices are
    checked and repaired by the caller (``_priced``) as ever.
    """

    def __init__(
        self,
        first: _Simplex,
        base: list[list[float]],
        base_t: list[list[float]],
        etas: list[tuple[int, list[float]]],
        b: list[float],
    ) -> None:
        self.columns, self.unit_rows, self.padded, self.most = first.columns, first.unit_rows, first.padded, first.most
        self.gains, self.start, self.spent = first.gains, first.start, 0
        self.basis, self.slacks, self.y = first.basis[:], first.slacks[:], first.y[:]
        self.base, self.base_t, self.etas = base, base_t, etas[:]
        self.xb = self._ftran([sum(map(mul, r, b)) for r in base])  # the basic values of capacity ``b``

    def _ftran(self, v: list[float]) -> list[float]:
        """``v`` (in the first basis) times each eta since: in the current basis."""
        for q, d in self.etas:
            t = v[q] / d[q]
            if t:
                v = [vi - di * t for vi, di in zip(v, d)]
            v[q] = t
        return v

    def row(self, p: int) -> list[float]:
        """Row ``p`` of the inverse: the unit row through the etas (last first), then times ``base``."""
        u = {p: 1.0}
        for q, d in reversed(self.etas):
            s = 0.0
            for i, v in u.items():
                if i != q:
                    s += v * d[i]
            new = (u.get(q, 0.0) - s) / d[q]
            if new:
                u[q] = new
            else:
                u.pop(q, None)
        base = self.base
        out = [0.0] * len(base)
        for j, v in u.items():
            out = [r + v * x for r, x in zip(out, base[j])]
        return out

    def column_in_basis(self, enter: int) -> list[float]:
        """Column ``enter`` (``n + i`` for slack ``i``) in the current basis."""
        n = len(self.columns)
        column = self.columns[enter] if enter < n else ((enter - n, 1),)
        base_t = self.base_t
        v = [0.0] * len(base_t)
        for i, a in column:
            v = [y + x * a for y, x in zip(v, base_t[i])]
        return self._ftran(v)

    def exchange(self, enter: int, p: int, d: list[float], theta: float, reduced: float) -> None:
        """Column ``enter`` (whose values in the basis are ``d``) replaces the basic one of row ``p``: one eta more."""
        n = len(self.columns)
        xb = self.xb = [v - theta * f if f else v for v, f in zip(self.xb, d)]
        xb[p] = theta
        self.basis[p] = enter if enter < n else -1
        self.slacks[p] = enter - n if enter >= n else -1
        inv = 1.0 / d[p]
        prow = [v * inv for v in self.row(p)]
        self.etas.append((p, d))
        self.y = [v + reduced * q for v, q in zip(self.y, prow)]
