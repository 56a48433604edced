"""A cold programme started from the optimal basis of one solved before (``_lp._solved``, ``_Simplex.adopt``).

Within ``remembered()``, a programme of the same columns (in any order) and
capacity as one solved before, with other gains, starts the primal simplex
from that one's optimal basis; one with a row more (the last: a bound on the
cards laid, ``_priced.tightened``) and the same gains starts from it too, the
row's slack basic, dual steps restoring the row first. Either way its optimum
is the cold solve's.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager
from unittest import mock

from _budget import examples
from _solver_helpers import assert_feasible, column_lists
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib.solver import _lp
from rummylib.solver._lp import remembered, solve_lp
from rummylib.solver._simplex import _Simplex

Columns = list[tuple[tuple[int, int], ...]]

PROGRAMMES = st.integers(1, 8).flatmap(
    lambda m: st.tuples(
        column_lists(m).map(lambda columns: [tuple(sorted(terms)) for terms in columns]),
        st.lists(st.integers(0, 30), min_size=25, max_size=25),
        st.lists(st.integers(0, 30), min_size=25, max_size=25),
        st.lists(st.integers(0, 3), min_size=m, max_size=m),
        st.integers(0, 2**32 - 1),
    )
)


def _assert_optimal(
    columns: Columns, gains: list[float], capacity: list[int], answer: tuple[list[float], list[float]]
) -> None:
    """``answer``'s prices cover every column and its column values fit, both worth the cold optimum."""
    prices, used = answer
    assert_feasible(columns, gains, capacity, prices, used)
    cold_prices, _ = solve_lp(columns, gains, capacity)  # outside remembered(): from the slack basis
    cold = sum(p * b for p, b in zip(cold_prices, capacity))
    assert abs(sum(p * b for p, b in zip(prices, capacity)) - cold) < 1e-5
    assert abs(sum(u * g for u, g in zip(used, gains)) - cold) < 1e-4  # the perturbed capacity, times the gains


def _spied() -> tuple[list[bool], AbstractContextManager[object]]:
    """A list of what each :meth:`_Simplex.adopt` answered, and the patch that fills it."""
    seen: list[bool] = []
    adopt = _Simplex.adopt

    def spy(self: _Simplex, other: _Simplex) -> bool:
        seen.append(adopt(self, other))
        return seen[-1]

    return seen, mock.patch.object(_Simplex, "adopt", spy)


@settings(max_examples=examples(300), deadline=None)
@given(PROGRAMMES)
def test_other_gains_start_from_the_kept_basis(case: tuple[Columns, list[int], list[int], list[int], int]) -> None:
    # The second programme (its columns shuffled, other gains) starts from the first's
    # optimal basis, and reaches the optimum of a cold solve.
    columns, first, second, capacity, seed = case
    first_gains = [float(g) for g in first[: len(columns)]]
    gains = [float(g + 31) for g in second[: len(columns)]]  # never the first's (another programme)
    order = list(range(len(columns)))
    random.Random(seed).shuffle(order)
    shuffled = [columns[k] for k in order]
    shuffled_gains = [gains[k] for k in order]
    seen, patch = _spied()
    with remembered(), patch:
        solve_lp(columns, first_gains, capacity)
        answer = solve_lp(shuffled, shuffled_gains, capacity)
    if max(first_gains) > 0:
        assert seen == [True]  # a feasible basis, always a start
    _assert_optimal(shuffled, shuffled_gains, capacity, answer)


@settings(max_examples=examples(300), deadline=None)
@given(PROGRAMMES, st.integers(0, 3))
def test_a_row_more_starts_from_the_kept_basis(
    case: tuple[Columns, list[int], list[int], list[int], int], keep: int
) -> None:
    # The same programme with a last row bounding the cards laid (every column's size in it,
    # at most all the cards less ``keep``): started from the first's optimal basis, its
    # optimum is the cold solve's.
    columns, gains_in, _, capacity, _ = case
    gains = [float(g) for g in gains_in[: len(columns)]]
    m = len(capacity)
    bounded = [(*column, (m, sum(a for _, a in column))) for column in columns]
    more = [*capacity, max(0, sum(capacity) - keep)]
    seen, patch = _spied()
    with remembered(), patch:
        solve_lp(columns, gains, capacity)
        answer = solve_lp(bounded, gains, more)
    assert len(seen) == (1 if max(gains) > 0 else 0)
    _assert_optimal(bounded, gains, more, answer)


def test_nothing_is_kept_outside_remembered() -> None:
    # The kept bases live as long as remembered(): a later call starts cold.
    columns: Columns = [((0, 1),), ((0, 1), (1, 1))]
    with remembered():
        solve_lp(columns, [1.0, 2.0], [1, 1])
        assert _lp._KEPT.bases
    assert not _lp._KEPT.bases


def test_a_call_without_warm_bases_keeps_none() -> None:
    # remembered(False): the answers are kept, the bases are not, so every programme starts cold.
    columns: Columns = [((0, 1),), ((0, 1), (1, 1))]
    seen, patch = _spied()
    with remembered(False), patch:
        solve_lp(columns, [1.0, 2.0], [1, 1])
        solve_lp(list(reversed(columns)), [2.0, 1.0], [1, 1])
        assert _lp._KEPT.bases is None
    assert seen == []


def test_each_question_follows_its_warm_bases_setting() -> None:
    # best_opening starts from kept bases (opening_warm_bases), best_partition does not
    # (partition_warm_bases: the other optimal prices sent its search elsewhere, 70 cards
    # of seed 140 from 0.09 s to 1.44 s); turned around, each does the other's.
    import attrs
    from _deals import dealt

    from rummylib import REMIK
    from rummylib.solver._opening import search_opening
    from rummylib.solver._partition import search_partition
    from rummylib.solver._settings import DEFAULT_SETTINGS

    hand = dealt(REMIK, 70, 196)  # worst.py's 70:196
    flipped = attrs.evolve(DEFAULT_SETTINGS, opening_warm_bases=False, partition_warm_bases=True)
    counts: dict[str, tuple[int, int, int | None, int]] = {}
    for name, chosen in (("default", DEFAULT_SETTINGS), ("flipped", flipped)):
        seen_open, patch = _spied()
        with patch:
            opening = search_opening(hand, REMIK, chosen)
        seen_part, patch = _spied()
        with patch:
            partition = search_partition(hand, REMIK, chosen)
        counts[name] = (len(seen_open), len(seen_part), None if opening is None else opening.points, partition.penalty)
    assert counts["default"][0] > 0 and counts["default"][1] == 0
    assert counts["flipped"][0] == 0 and counts["flipped"][1] > 0
    assert counts["default"][2:] == counts["flipped"][2:]  # the same optima either way
