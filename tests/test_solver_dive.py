"""The opening's search without the deep LP dive (``SearchSettings.opening_deep_dive``)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import attrs
import pytest
from _budget import examples
from _deals import dealt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_leftover import assert_same_as_default, assert_same_as_oracle
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, Ruleset
from rummylib.solver import _priced
from rummylib.solver._opening import search_opening
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings


def tuned(**changes: Any) -> SearchSettings:
    """The default search settings with ``changes``."""
    return attrs.evolve(DEFAULT_SETTINGS, **changes)


#: The relaxation and the first-cover hunt on every size, the hunt and each dive's finish cut short,
#: so that small inputs reach the dives (the deep one where the settings ask for it).
DIVING = tuned(lp_from=0, hunt_from=0, hunt_budget=1, trial_budget=2, orders_from=10**6)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]), st.booleans())
def test_the_opening_with_or_without_the_deep_dive_matches_oracle(
    case: tuple[Ruleset, list[Card]], keep: int, deep: bool
) -> None:
    # R-O2, O3, T3: the deep dive only proposes a first cover for the exact search to
    # prove or beat; without it the search proves the same best opening.
    rules, hand = case
    assert_same_as_oracle(hand, rules, attrs.evolve(DIVING, opening_deep_dive=deep), keep)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([REMIK, STRAIGHT]),
    st.integers(12, 24),
    st.integers(0, 10**6),
    st.sampled_from([0, 1]),
)
def test_the_opening_without_the_deep_dive_matches_the_one_with_it(
    rules: Ruleset, size: int, seed: int, keep: int
) -> None:
    # R-O2, O3, T3: on inputs the oracle is too slow for, against the search with it.
    hand = dealt(rules, size, seed)
    assert_same_as_default(hand, rules, attrs.evolve(DIVING, opening_deep_dive=True), keep)
    assert_same_as_default(hand, rules, attrs.evolve(DIVING, opening_deep_dive=False), keep)


@pytest.mark.parametrize("deep", [False, True])
def test_the_deep_dive_is_tried_only_where_the_settings_ask(deep: bool) -> None:
    # 70 cards of seed 54 (worst.py's): the hunt and the shallow dive find no first cover for
    # the search priced by points; the deep dive (dive_rounds programmes) only when asked.
    hand = dealt(REMIK, 70, 54)
    changed = tuned(opening_deep_dive=deep)
    with mock.patch.object(_priced, "_dive", wraps=_priced._dive) as spy:
        got = search_opening(hand, REMIK, changed)
    rounds = [call.args[-1] for call in spy.call_args_list]
    assert 1 in rounds
    assert (DEFAULT_SETTINGS.dive_rounds in rounds) == deep
    assert got is not None and got.points == 492  # R-O3: HiGHS's optimum
