"""What the leftover decomposition proves, kept for the later attempts of one opening call (``_proofs.cap``)."""

from __future__ import annotations

import attrs
from _budget import examples
from _oracle_solver import oracle_opening
from _solver_helpers import decomposed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_oracle import rules_and_hand

from rummylib import Card, CardMultiset, Ruleset
from rummylib.solver._leftover import by_leftover
from rummylib.solver._proofs import cap, proving
from rummylib.solver._search import OverBudget, cards_in
from rummylib.solver._settings import DEFAULT_SETTINGS


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]), st.sampled_from([1, 3, 10**6]))
def test_levels_the_decomposition_settles_never_cap_below_the_optimum(
    case: tuple[Ruleset, list[Card]], keep: int, limit: int
) -> None:
    # R-O2, O3, T3: each level it settles without an answer proves that no opening leaving at
    # least ``keep`` cards reaches it; the cap it leaves for the later attempts (whether it
    # ends or gives up on its leftovers, programmes or reach) is never below the best opening.
    rules, cards = case
    hand = CardMultiset(cards)
    changed = attrs.evolve(DEFAULT_SETTINGS, leftover_sets=limit, leftover_programmes=limit, leftover_reach=limit)
    tables, cover, x, jokers, m2 = decomposed(rules, hand, changed)
    # As _opening._solve_in: the cards no candidate takes are left over anyway.
    kept = max(0, keep - (len(hand) - jokers - cards_in(x, tables.width, tables.field)))
    need = int(rules.opening_clean_run) | kept << 1
    with proving():
        before = list(cap(tables, x, jokers, need) or [])
        try:
            found = by_leftover(cover, tables, x, jokers, kept, rules.opening_points * m2 - 1)
        except OverBudget:
            found = None
        proved = cap(tables, x, jokers, need)
    assert proved is not None
    assert proved[0] <= before[0]
    best = oracle_opening(cards, rules, keep=keep)
    if best is not None:
        assert proved[0] >= best[0]
        if found is not None:
            assert found[0] // m2 == best[0]
