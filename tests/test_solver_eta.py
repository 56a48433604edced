"""The warm start's inverse as the optimal one times an eta column per pivot (``_simplex._Eta``)."""

from __future__ import annotations

from _budget import examples
from _solver_helpers import PROGRAMME, Case, unpacked
from hypothesis import given, settings

from rummylib.solver._lp import Warm
from rummylib.solver._simplex import _Eta, _perturbed


def _basis_columns(tableau: _Eta, columns: list[tuple[tuple[int, int], ...]], m: int) -> list[list[float]]:
    """The basis matrix's columns, row by row of the tableau: its column, or the slack's unit column."""
    out = []
    for p in range(m):
        k = tableau.basis[p]
        terms = columns[k] if k >= 0 else ((tableau.slacks[p], 1),)
        column = [0.0] * m
        for i, a in terms:
            column[i] = float(a)
        out.append(column)
    return out


def _assert_is_the_inverse(tableau: _Eta, columns: list[tuple[tuple[int, int], ...]], capacity: list[int]) -> None:
    m = len(capacity)
    basis = _basis_columns(tableau, columns, m)
    for p in range(m):
        row = tableau.row(p)
        for q in range(m):  # row p of the inverse times basic column q: 1 on the diagonal, else 0
            assert abs(sum(r * b for r, b in zip(row, basis[q])) - (p == q)) < 1e-7
    for k in range(len(columns)):  # a column in the basis: the basic columns combined give it back
        d = tableau.column_in_basis(k)
        for i in range(m):
            assert abs(sum(d[p] * basis[p][i] for p in range(m)) - dict(columns[k]).get(i, 0)) < 1e-7
    b = _perturbed(capacity)
    for i in range(m):  # the basic values solve B x = b
        assert abs(sum(tableau.xb[p] * basis[p][i] for p in range(m)) - b[i]) < 1e-7


@settings(max_examples=examples(300), deadline=None)
@given(PROGRAMME)
def test_each_dual_pivot_keeps_the_inverse_of_its_basis(
    case: Case,
) -> None:
    # A part of the input priced from the whole programme's optimal basis (the leftover
    # decomposition, R-O2, O3, T3; the deadwood one): after every dual step, and from a
    # tableau started from another part's (as _laying does), the rows and columns the
    # steps read are those of the inverse of the current basis.
    columns, gains, capacity, smaller = unpacked(case)
    warm = Warm(columns, [float(g) for g in gains], capacity)
    tableau = warm.start(smaller)
    if tableau is None:
        return  # no optimal first basis
    assert isinstance(tableau, _Eta)
    _assert_is_the_inverse(tableau, columns, smaller)
    for _ in range(3 * len(capacity)):
        if tableau.dual_pivot():
            break
        _assert_is_the_inverse(tableau, columns, smaller)
    least = [max(0, b - 1) for b in smaller]
    child = warm.start(least, tableau)
    assert isinstance(child, _Eta) and child.etas == tableau.etas
    _assert_is_the_inverse(child, columns, least)
    if not child.dual_pivot():
        _assert_is_the_inverse(child, columns, least)
