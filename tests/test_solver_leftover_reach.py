"""The leftover decomposition gives up once too many leftovers may reach a level (``leftover_reach``)."""

from __future__ import annotations

from unittest import mock

import attrs
import pytest
from _deals import dealt
from _solver_helpers import decomposed

from rummylib import REMIK, STRAIGHT, Ruleset
from rummylib.solver._leftover import _Decomposition, _Leftover, by_leftover
from rummylib.solver._optimise import Found
from rummylib.solver._search import OverBudget
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings

#: The default limits, a smaller memo, and no limit on the reach.
FREE = attrs.evolve(DEFAULT_SETTINGS, leftover_budget=20_000, leftover_reach=10**6)


def _run(rules: Ruleset, size: int, seed: int, keep: int, settings: SearchSettings) -> tuple[Found | str | None, int]:
    """The decomposition's answer (why it gave up, if it did) and the most leftovers a level asked."""
    tables, cover, x, jokers, m2 = decomposed(rules, dealt(rules, size, seed), settings)
    most = [0]
    level = _Decomposition.level

    def counted(self: _Decomposition, t: int) -> list[_Leftover]:
        found = level(self, t)
        most[0] = max(most[0], sum(not known.exact for known in found))
        return found

    with mock.patch.object(_Decomposition, "level", counted):
        try:
            answer: Found | str | None = by_leftover(cover, tables, x, jokers, keep, rules.opening_points * m2 - 1)
        except OverBudget as e:
            answer = f"over {e}"
    return answer, most[0]


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
@pytest.mark.parametrize("limit", [0, 2, 6])
def test_it_gives_up_exactly_where_a_level_asks_more_leftovers_than_allowed(rules: Ruleset, limit: int) -> None:
    # R-O2, O3, T3: with leftover_reach at ``limit``, the decomposition answers as it does
    # without the limit (or gives up on its other limits as it does) where no level it tries
    # asks more leftovers than ``limit``, and gives up on the reach where one does (the
    # caller then searches: exact either way).
    gave_up = answered = 0
    for size, seed in [(size, seed) for size in (16, 24, 32) for seed in range(8)]:
        for keep in (0, 1):
            free, most = _run(rules, size, seed, keep, FREE)
            assert free != "over reach"
            limited, _ = _run(rules, size, seed, keep, attrs.evolve(FREE, leftover_reach=limit))
            if most > limit:
                assert limited == "over reach"
                gave_up += 1
            else:
                assert limited == free
                answered += 1
    assert gave_up and answered  # both cases met
