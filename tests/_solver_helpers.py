"""Set-ups several solver tests share: a random packing programme, and the input of the leftover decomposition."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from rummylib import CardMultiset, Ruleset
from rummylib.solver._opening_objective import opening_rows
from rummylib.solver._search import Cover, pack
from rummylib.solver._settings import SearchSettings
from rummylib.solver._tables import Tables, tables_for

#: Columns (row, coefficient 1-2), gains, a capacity and how much less a part of it has.
Case = tuple[list[list[tuple[int, int]]], list[int], list[int], list[int]]
Columns = list[tuple[tuple[int, int], ...]]


def column_lists(m: int) -> st.SearchStrategy[list[list[tuple[int, int]]]]:
    """1-25 columns of a programme of ``m`` rows, each 1-4 terms (row, coefficient 1-2) on distinct rows."""
    return st.lists(
        st.lists(st.tuples(st.integers(0, m - 1), st.integers(1, 2)), min_size=1, max_size=4, unique_by=lambda p: p[0]),
        min_size=1,
        max_size=25,
    )


#: A packing programme of 1-8 rows and 1-25 columns (see :data:`Case`).
PROGRAMME = st.integers(1, 8).flatmap(
    lambda m: st.tuples(
        column_lists(m),
        st.lists(st.integers(0, 30), min_size=25, max_size=25),
        st.lists(st.integers(0, 3), min_size=m, max_size=m),
        st.lists(st.integers(0, 3), min_size=m, max_size=m),
    )
)


def assert_feasible(
    columns: Columns,
    gains: Sequence[float],
    capacity: Sequence[int],
    prices: Sequence[float],
    used: Sequence[float],
) -> None:
    """Prices >= 0 cover every column (dual feasible) and the column values >= 0 fit in ``capacity`` (primal)."""
    assert all(p > -1e-6 for p in prices)
    for column, gain in zip(columns, gains):
        assert sum(prices[i] * a for i, a in column) >= gain - 1e-6
    assert all(u > -1e-6 for u in used)
    for row, cap in enumerate(capacity):
        assert sum(u * a for u, column in zip(used, columns) for i, a in column if i == row) <= cap + 1e-5


def unpacked(case: Case) -> tuple[Columns, list[int], list[int], list[int]]:
    """A :data:`PROGRAMME`'s columns, their gains (one per column), its capacity and the smaller one (at least 0)."""
    raw, gains, capacity, less = case
    columns = [tuple(c) for c in raw]
    return columns, gains[: len(columns)], capacity, [max(0, b - d) for b, d in zip(capacity, less)]


def decomposed(rules: Ruleset, hand: CardMultiset, settings: SearchSettings) -> tuple[Tables, Cover, int, int, int]:
    """What ``_opening`` gives the leftover decomposition: the rank-major tables, the opening's
    search under ``settings``, the input packed without dead cards, the jokers, and ``m2``."""
    jokers = hand.jokers if rules.jokers else 0
    tables, rows, m2, potential = opening_rows(rules, tables_for(hand.counts, jokers, rules, order="rank"))
    cover = Cover(tables, rows, potential, settings)
    return tables, cover, cover.restrict(pack(hand.counts, tables), jokers), jokers, m2
