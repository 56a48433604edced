"""Reduced-cost fixing (``_priced.fixed``): the search without hopeless candidates finds the same answers."""

from __future__ import annotations

import random

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import REMIK, STRAIGHT, CardMultiset, Ruleset, deck
from rummylib.solver._leftover import Laid, _laid_split
from rummylib.solver._opening_objective import opening_rows, points_split, scales
from rummylib.solver._priced import SCALE, fixed, tightened
from rummylib.solver._search import NEG, Cover, pack
from rummylib.solver._tables import Tables, tables_for

HOUSE = [
    REMIK,
    STRAIGHT,
    attrs.evolve(REMIK, name="six-jokers", jokers=6),
    attrs.evolve(REMIK, name="adjacent", adjacent_jokers=True),
]


def dealt(rules: Ruleset, size: int, seed: int) -> CardMultiset:
    cards = list(deck(rules))
    random.Random(seed).shuffle(cards)
    return CardMultiset(cards[:size])


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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
