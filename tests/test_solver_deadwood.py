"""The least deadwood by what a partition leaves in hand (``solver/_deadwood``)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import attrs
import pytest
from _budget import examples
from _deals import dealt
from _oracle_solver import oracle_partition_penalty
from _over_budget import recording
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, CardMultiset, Ruleset
from rummylib.solver import _deadwood, _partition
from rummylib.solver._partition import search_partition
from rummylib.solver._settings import DEFAULT_SETTINGS


def decomposed(**changes: Any) -> Any:
    """Every partition through the decomposition: the priced search gives way at once, no limit on it."""
    return attrs.evolve(
        DEFAULT_SETTINGS,
        small_max=0,
        lp_from=0,
        deadwood_from=0,
        deadwood_budget=1,
        deadwood_sets=10**6,
        deadwood_search_budget=10**6,
        deadwood_leftovers=10**6,
        deadwood_searches=10**6,
        **changes,
    )


#: Without a first cover (no limit below), and after one (only leftovers worth less than it).
BOTH = (decomposed(hunt_from=10**6), decomposed(hunt_from=0))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from(BOTH))
def test_partition_by_deadwood_matches_oracle(case: tuple[Ruleset, list[Card]], changed: Any) -> None:
    # R-V: the least penalty is the oracle's, and the leftover is what the melds leave.
    rules, hand = case
    p = search_partition(hand, rules, changed)
    assert p.penalty == oracle_partition_penalty(hand, rules)
    assert p.leftover == CardMultiset(hand) - CardMultiset(c for m in p.melds for c in m.cards)


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
@pytest.mark.parametrize("changed", BOTH)
def test_partition_by_deadwood_matches_the_search(rules: Ruleset, changed: Any) -> None:
    # R-V on inputs the oracle is too slow for: the decomposition settles inputs (checked by
    # counting them: an answer, or the first cover proved) with the penalty the priced search leaves.
    answered = [0]
    by_deadwood = _deadwood.by_deadwood

    def counting(*args: Any) -> Any:
        found = by_deadwood(*args)
        answered[0] += 1  # not past its budget
        return found

    with mock.patch.object(_partition, "by_deadwood", counting):
        for seed in range(12):
            hand = dealt(rules, 18 + 2 * seed, seed)
            budgets = attrs.evolve(
                changed, deadwood_sets=60, deadwood_searches=60, deadwood_search_budget=20_000, deadwood_leftovers=2_000
            )
            got = search_partition(hand, rules, budgets)
            want = search_partition(hand, rules, attrs.evolve(changed, deadwood_from=10**6))
            assert got.penalty == want.penalty
    # After a first cover the short search mostly proves it at once: the decomposition is rarer there.
    assert answered[0] > 0 or changed is BOTH[1]


def test_decomposition_gives_way_past_its_budget() -> None:
    # Past deadwood_searches the priced search answers as before.
    hand = dealt(REMIK, 40, 3)
    tight = attrs.evolve(decomposed(), deadwood_searches=0, deadwood_leftovers=2_000)
    refused: list[str] = []
    with mock.patch.object(_partition, "by_deadwood", recording(_deadwood.by_deadwood, refused)):
        got = search_partition(hand, REMIK, tight)
    assert refused == ["deadwood searches"]  # it gave way, and for that reason
    assert got.penalty == search_partition(hand, REMIK, DEFAULT_SETTINGS).penalty


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 52), max_size=9), st.integers(0, 12), st.integers(0, 30), st.integers(0, 8))
def test_leftovers_counts_the_leftovers_between_two_penalties(
    picked: list[int], least: int, span: int, most: int
) -> None:
    # R-V: the leftovers the decomposition would try below a first cover (those worth least to
    # least + span - 1), counted up to deadwood_sets + 1, are the sub-multisets a brute force counts.
    from itertools import product

    from rummylib._card import CARDS
    from rummylib.solver._search import by_position, card_penalties, pack
    from rummylib.solver._tables import tables_for

    cards = [CARDS[c] for c in picked if picked.count(c) <= 2]
    ms = CardMultiset(cards)
    tables = tables_for(ms.counts, ms.jokers, REMIK)
    pens = by_position(card_penalties(REMIK), tables)
    x = pack(ms.counts, tables)
    limited = attrs.evolve(DEFAULT_SETTINGS, deadwood_sets=most)
    kinds = [(tables.pos[c], n) for c, n in enumerate(ms.counts[:52]) if n] + ([(52, ms.jokers)] if ms.jokers else [])
    count = 0
    for taken in product(*(range(n + 1) for _, n in kinds)):
        if least <= sum(k * pens[c] for (c, _), k in zip(kinds, taken)) < least + span:
            count += 1
    assert _deadwood.leftovers(x, ms.jokers, tables, pens, least, least + span, limited) == min(count, most + 1)
