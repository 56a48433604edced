"""Reduced-cost fixing (``_priced.fixed``): the search without hopeless candidates finds the same answers."""

from __future__ import annotations

from typing import Any
from unittest import mock

import attrs
from _budget import examples
from _deals import dealt
from _oracle_solver import oracle_partition_penalty
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, CardMultiset, Ruleset
from rummylib.solver._leftover import Laid, _laid_split
from rummylib.solver._opening_objective import opening_rows, points_split, scales
from rummylib.solver._partition import _rows as partition_rows
from rummylib.solver._partition import _split as partition_split
from rummylib.solver._partition import search_partition
from rummylib.solver._priced import SCALE, first_cover, fixed, tightened
from rummylib.solver._search import NEG, Cover, OverBudget, card_penalties, pack, shape_gain_penalty
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._tables import Shape, Tables, tables_for

HOUSE = [
    REMIK,
    STRAIGHT,
    attrs.evolve(REMIK, name="six-jokers", jokers=6),
    attrs.evolve(REMIK, name="adjacent", adjacent_jokers=True),
]


def _restricted(rules: Ruleset, hand: CardMultiset) -> tuple[Tables, Cover, int, int, int]:
    """The opening's plain search restricted to ``hand``: tables, search, naturals, jokers, ``m2``."""
    jokers = hand.jokers if rules.jokers else 0
    tables, rows, m2, potential = opening_rows(rules, tables_for(hand.counts, jokers, rules))
    cover = Cover(tables, rows, potential)
    return tables, cover, cover.restrict(pack(hand.counts, tables), jokers), jokers, m2


def _fresh(cover: Cover, tables: Tables) -> Cover:
    """``cover`` with an empty memo."""
    return type(cover)(tables, cover.rows, cover.potential, cover.settings, fine=cover.fine, scale=cover.scale)


def _same_above_target(tables: Tables, priced: Cover, x: int, j: int, need: int, unit: int, targets: list[int]) -> None:
    """For each target: the fixed search finds the unfixed optimum and its cover when it reaches it, else nothing."""
    whole = _fresh(priced, tables)
    best = whole.solve(x, j, need, NEG, unit)
    shapes = whole.path(x, j, need, best) if best != NEG else None
    for target in targets:
        search = fixed(priced, tables, x, j, need >> 1, target)
        assert all(set(row) <= set(full) for row, full in zip(search.rows, priced.rows))
        value = search.solve(x, j, need, target - 1, unit)
        if best != NEG and best >= target:
            assert value == best
            assert search.path(x, j, need, value) == shapes
        else:
            assert value < target


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HOUSE), st.integers(14, 40), st.integers(0, 10**6), st.sampled_from([0, 1, 2]))
def test_fixed_opening_search_finds_every_answer_at_its_target(rules: Ruleset, size: int, seed: int, keep: int) -> None:
    # R-O2, O3, T3: the best opening (points, then cards placed, then penalty) that keeps
    # ``keep`` cards is the same, with the same melds, once the candidates that no
    # opening reaching the target can use are dropped; below the target nothing is found.
    hand = dealt(rules, size, seed)
    tables, cover, x, jokers, m2 = _restricted(rules, hand)
    priced = tightened(cover, tables, x, jokers, points_split(rules), keep)
    need = int(rules.opening_clean_run) | keep << 1
    unit = SCALE * m2
    best = _fresh(priced, tables).solve(x, jokers, need, NEG, unit)
    top = max(best, 0) // unit * unit
    # The targets settle uses (whole points), a finer one, one above the optimum, and none at all.
    targets = [top - k * unit for k in range(4)] + [best, best + 1, 1]
    _same_above_target(tables, priced, x, jokers, need, unit, [t for t in targets if t > 0])


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HOUSE), st.integers(14, 50), st.integers(0, 10**6))
def test_fixed_laid_search_finds_every_cover_at_its_target(rules: Ruleset, size: int, seed: int) -> None:
    # R-O2, O3: the covers that lay every card (``_leftover``) worth a target of points,
    # with or without fixing, on the cards a best opening lays (so that one exists).
    hand = dealt(rules, size, seed)
    tables, cover, x, jokers, m2 = _restricted(rules, hand)
    priced = tightened(cover, tables, x, jokers, points_split(rules))
    need = int(rules.opening_clean_run)
    value = priced.solve(x, jokers, need, NEG, SCALE * m2)
    if value == NEG:
        return  # no opening: nothing to lay whole
    shapes = priced.path(x, jokers, need, value)
    x = sum(1 << tables.width * tables.pos[c] for shape in shapes for c in shape.naturals)
    jokers = sum(shape.jokers for shape in shapes)
    best_points = scales(rules)[3]
    laid = tightened(cover, tables, x, jokers, _laid_split(best_points), 0, Laid)
    assert isinstance(fixed(laid, tables, x, jokers, 0, 1), Laid)
    best = _fresh(laid, tables).solve(x, jokers, need, NEG, SCALE)
    assert best != NEG
    top = max(best, 0) // SCALE * SCALE
    targets = [top - k * SCALE for k in range(4)] + [best, best + 1]
    _same_above_target(tables, laid, x, jokers, need, SCALE, [t for t in targets if t > 0])


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HOUSE), st.integers(14, 40), st.integers(0, 10**6))
def test_fixed_partition_search_finds_every_answer_at_its_target(rules: Ruleset, size: int, seed: int) -> None:
    # R-V: the partition leaving the least penalty is the same, with the same melds, once the
    # candidates no partition removing the target's penalty can use are dropped (the proof of
    # _partition._Deadwood after a first cover); below the target nothing is found.
    hand = dealt(rules, size, seed)
    jokers = hand.jokers if rules.jokers else 0
    tables, rows, potential, pens = partition_rows(rules, tables_for(hand.counts, jokers, rules))
    cover = Cover(tables, rows, potential)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    priced = tightened(cover, tables, x, jokers, partition_split(pens))
    best = _fresh(priced, tables).solve(x, jokers, 0, NEG, SCALE)
    top = best // SCALE * SCALE
    targets = [top - k * SCALE for k in range(4)] + [best, best + 1, top + SCALE]
    _same_above_target(tables, priced, x, jokers, 0, SCALE, [t for t in targets if t > 0])


#: The most memoised states the plain search, the reference of the larger hands, may use.
PLAIN_STATES = 60_000

#: Every partition through the priced search, its first cover and its proof, on every size.
PROVING = attrs.evolve(DEFAULT_SETTINGS, small_max=0, lp_from=0, hunt_from=0)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8))
def test_partition_proved_after_a_first_cover_matches_oracle(case: tuple[Ruleset, list[Card]]) -> None:
    # R-V: the proof searches only for partitions better than the first cover (fixed); the
    # least penalty is still the oracle's, and the leftover is what the melds leave.
    rules, hand = case
    p = search_partition(hand, rules, PROVING)
    assert p.penalty == oracle_partition_penalty(hand, rules)
    assert p.leftover == CardMultiset(hand) - CardMultiset(c for m in p.melds for c in m.cards)


@settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(st.sampled_from(HOUSE), st.integers(20, 60), st.integers(0, 10**6))
def test_partition_proved_after_a_first_cover_equals_the_plain_search(rules: Ruleset, size: int, seed: int) -> None:
    # R-V: beyond the oracle, the same least penalty as the plain search (no prices, no fixing).
    # The plain search is exponential on some inputs of this size, so it gets a bounded memo and
    # gives up (OverBudget) on those: such an example is rejected rather than run for minutes.
    hand = dealt(rules, size, seed)
    plain = attrs.evolve(
        DEFAULT_SETTINGS,
        small_max=0,
        lp_from=10**9,
        hunt_from=10**9,
        trial_from=10**9,
        memo_limit=PLAIN_STATES,
        give_up=True,
    )
    try:
        expected = search_partition(hand, rules, plain).penalty
    except OverBudget:
        reject()
    assert search_partition(hand, rules, PROVING).penalty == expected


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HOUSE), st.integers(14, 50), st.integers(0, 10**6))
def test_partition_proof_beats_a_poor_first_cover(rules: Ruleset, size: int, seed: int) -> None:
    # R-V: given a first cover short of the optimum (the best partition less its least meld),
    # the proof, asked only for partitions better than it (fixed), finds the least penalty.
    hand = dealt(rules, size, seed)
    best = search_partition(hand, rules, PROVING)
    if not best.melds:
        return
    pens = card_penalties(rules)
    real = first_cover

    def poor(cover: Cover, tables: Tables, *args: Any, **kwargs: Any) -> tuple[int, list[Shape]] | None:
        found = real(cover, tables, *args, **kwargs)
        if found is None:
            return None
        gains = [(shape_gain_penalty(shape, pens), k) for k, shape in enumerate(found[1])]
        least, k = min(gains)
        return found[0] - SCALE * least, found[1][:k] + found[1][k + 1 :]

    with mock.patch("rummylib.solver._partition.first_cover", poor):
        assert search_partition(hand, rules, PROVING).penalty == best.penalty
