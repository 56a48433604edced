"""Per-ruleset tables and memos are shared by equal rulesets that are different objects.

A game server reads each request's state from JSON, so every loaded state
carries a new :class:`~rummylib.Ruleset` object equal to the last one; each
learning environment, and each ``simulation_rules(REMIK)`` call, holds its
own copy too. The solver's tables depend only on the ruleset's values, so
they are built once per distinct ruleset, not once per object; and a round
robin over more equal copies than the cache holds (a vector of
environments) must not rebuild them on every call.
"""

from __future__ import annotations

import attrs

import rummylib as rl
from rummylib.engine import _complete
from rummylib.simulation import simulation_rules
from rummylib.solver import _tables
from rummylib.solver._results import RulesCache


def _counting(size: int = 4) -> tuple[RulesCache[str], list[str]]:
    built: list[str] = []

    def build(rules: rl.Ruleset) -> str:
        built.append(rules.name)
        return f"tables of {rules.name}"

    return RulesCache(build, size=size), built


def test_equal_rulesets_share_one_build() -> None:
    cache, built = _counting()
    a, b = simulation_rules(rl.REMIK), simulation_rules(rl.REMIK)
    assert a is not b and a == b
    assert cache(a) == cache(b) == "tables of remik"
    assert built == ["remik"]  # one build for the two objects


def test_unequal_rulesets_each_get_their_own() -> None:
    cache, built = _counting()
    other = attrs.evolve(rl.REMIK, jokers=6)
    assert cache(rl.REMIK) == "tables of remik"
    assert cache(other) == "tables of remik"  # the same name, another ruleset: built for it
    assert len(built) == 2
    assert cache(attrs.evolve(rl.REMIK, jokers=6)) == "tables of remik"
    assert len(built) == 2  # the equal copy of ``other`` found its build


def test_a_round_robin_of_more_copies_than_the_cache_holds_builds_once() -> None:
    cache, built = _counting(size=4)
    copies = [simulation_rules(rl.REMIK) for _ in range(20)]
    for _ in range(3):
        for rules in copies:
            cache(rules)
    assert built == ["remik"]


def test_the_cache_stays_bounded() -> None:
    cache, built = _counting(size=4)
    for jokers in range(10):
        cache(attrs.evolve(rl.REMIK, jokers=jokers))
    assert len(built) == 10
    assert len(cache.distinct) <= 4
    assert len(cache.entries) <= 4 * 4


def test_a_state_read_back_from_json_uses_the_same_tables() -> None:
    state = rl.new_game(attrs.evolve(rl.REMIK, jokers=6), 2, seed=3)
    loaded = rl.from_json(rl.to_json(state), rl.GameState)
    assert loaded.rules is not state.rules and loaded.rules == state.rules
    assert _tables._WHOLE(loaded.rules) is _tables._WHOLE(state.rules)


def test_the_engines_completion_memo_is_shared_by_equal_rulesets() -> None:
    # The listing's opening-completion answers (R-O2, O4) depend only on the ruleset's values.
    a, b = simulation_rules(rl.REMIK), simulation_rules(rl.REMIK)
    memo = _complete._shared_memo(a)
    assert _complete._shared_memo(b) is memo
    assert _complete._shared_memo(attrs.evolve(rl.REMIK, jokers=6)) is not memo
