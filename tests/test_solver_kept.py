"""Answers the solver keeps give what computing them again gives.

The kept row cuts (``_row_fits``) restrict a search exactly as ``Cover.restrict`` does.

``best_partition`` reads its candidate rows from cuts kept per card (R-V's
least deadwood searches the same rows); here every cut is compared with the
search's own restriction, with one cache shared by all examples so that
answers kept for earlier hands are read back for later ones.
"""

from __future__ import annotations

import attrs
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import REMIK, STRAIGHT, CardMultiset, Ruleset, best_partition
from rummylib._card import CARDS
from rummylib.cards import JOKER
from rummylib.solver import _tables
from rummylib.solver._partition import _rows, search_partition
from rummylib.solver._row_fits import RowFits, restrict
from rummylib.solver._search import Cover, Entry, pack
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._tables import Tables, piece_tables, tables_for

#: Remik's sets with more jokers allowed: rows whose candidates hold more jokers.
WILD = attrs.evolve(REMIK, name="wild", jokers=6, group3_max_jokers=2, group4_max_jokers=2)
RULESETS = [REMIK, STRAIGHT, WILD]
GENERAL = attrs.evolve(DEFAULT_SETTINGS, small_max=0)
_KEPT: dict[int, tuple[Tables, tuple[tuple[Entry, ...], ...], tuple[int, ...], RowFits]] = {}


@st.composite
def dealt(draw: st.DrawFn) -> tuple[Ruleset, CardMultiset]:
    """A ruleset and cards dealt from its deck (jokers included), from none to 40."""
    rules = draw(st.sampled_from(RULESETS))
    size = 52 * rules.decks + rules.jokers
    picked = draw(st.lists(st.integers(0, size - 1), max_size=40, unique=True))
    return rules, CardMultiset(CARDS[i % 52] if i < 52 * rules.decks else JOKER for i in picked)


def _kept(rules: Ruleset, hand: CardMultiset) -> tuple[Tables, tuple[tuple[Entry, ...], ...], tuple[int, ...], RowFits]:
    """The partition's rows of the hand's tables, and one cache of cuts per table for every example."""
    tables = tables_for(hand.counts, hand.jokers, rules)
    kept = _KEPT.get(id(tables))
    if kept is None or kept[0] is not tables:
        _, rows, potential, _ = _rows(rules, tables)
        kept = _KEPT[id(tables)] = (tables, rows, potential, RowFits(rows))
    return kept


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dealt())
def test_kept_cuts_restrict_as_the_search_does(case: tuple[Ruleset, CardMultiset]) -> None:
    rules, hand = case
    tables, rows, potential, fits = _kept(rules, hand)
    x = pack(hand.counts, tables)
    plain = Cover(tables, rows, potential)
    kept = Cover(tables, rows, potential)
    assert restrict(kept, fits, x, hand.jokers) == plain.restrict(x, hand.jokers)
    assert kept.rows == plain.rows


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dealt())
def test_partition_with_kept_cuts_is_the_general_search(case: tuple[Ruleset, CardMultiset]) -> None:
    # R-V: the least deadwood, the same melds and leftover however the rows were cut.
    rules, hand = case
    first = best_partition(hand, rules)
    assert best_partition(hand, rules) == first  # the second call reads the kept cuts
    assert search_partition(hand, rules, GENERAL) == first


def test_kept_melds_are_the_melds_built_anew() -> None:
    # Every candidate shape of the cached tables (remik with jokers, straight): the kept meld is the meld built anew.
    for rules in RULESETS:
        for row in piece_tables(rules).by_low:
            for shape in row:
                meld = _tables.build_meld(shape)
                assert meld == _tables._new_meld(shape)
                assert _tables.build_meld(shape) is meld
