"""Each shape's getter reads its cards' values, jokers included (``_tables.shape_getters``)."""

from __future__ import annotations

import random

import pytest
from _deals import dealt

from rummylib import REMIK, STRAIGHT, Ruleset
from rummylib.solver._tables import shape_getters, tables_for


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
@pytest.mark.parametrize("order", ["rank", "suit", "reversed"])
def test_a_shapes_getter_sums_its_cards_by_search_position(rules: Ruleset, order: str) -> None:
    # What _priced checks each candidate's price against: its naturals at their search
    # positions, and the joker's value (position 52) once per joker.
    hand = dealt(rules, 60, 3)
    jokers = hand.jokers if rules.jokers else 0
    tables = tables_for(hand.counts, jokers, rules, order=order)
    shapes = list(tables.shapes)
    assert any(shape.jokers for shape in shapes) == bool(jokers)
    values = [random.Random(7).randint(0, 10**6) for _ in range(53)]
    getters = shape_getters(tables, shapes)
    for shape, get in zip(shapes, getters):
        want = sum(values[tables.pos[c]] for c in shape.naturals) + shape.jokers * values[52]
        assert sum(get(values)) == want
    assert all(a is b for a, b in zip(shape_getters(tables, shapes), getters))  # kept in the tables
