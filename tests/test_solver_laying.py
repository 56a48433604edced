"""Covers that lay every card of parts of one input, each state bounded by its relaxation (``solver/_laying``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest
from _budget import examples
from _deals import dealt
from _oracle_solver import selections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, CardMultiset, Ruleset, best_partition
from rummylib._card import CARDS
from rummylib.solver._laying import CARDS as CARDS_LAID
from rummylib.solver._laying import Laying
from rummylib.solver._leftover import laid_whole
from rummylib.solver._partition import _split
from rummylib.solver._search import Cover, card_penalties, entries, pack
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._tables import Shape, Tables, packed_without, tables_for


def laying(hand: Iterable[Card], rules: Ruleset, *, penalty: bool) -> tuple[Laying, Tables, int, int]:
    """A :class:`Laying` of ``hand`` (by cards laid, or by the penalty removed), its tables, naturals and jokers."""
    ms = CardMultiset(hand)
    jokers = ms.jokers if rules.jokers else 0
    tables = tables_for(ms.counts, jokers, rules)
    nothing = (0,) * 53
    cover = Cover(tables, entries(tables, lambda shape: 0, nothing), nothing, DEFAULT_SETTINGS)
    x = cover.restrict(pack(ms.counts, tables), jokers)
    split = _split(card_penalties(rules)) if penalty else CARDS_LAID
    return Laying(tables, cover.rows, x, jokers, DEFAULT_SETTINGS, split), tables, x, jokers


def laid(shapes: list[Shape]) -> Counter[Card]:
    out = Counter(CARDS[c] for shape in shapes for c in shape.naturals)
    out[CARDS[52]] += sum(shape.jokers for shape in shapes)
    return +out


def part(tables: Tables, x: int, jokers: int, drop: tuple[int, ...]) -> tuple[int, int, Counter[Card]]:
    """The part of naturals ``x`` and ``jokers`` without the cards at positions ``drop`` (52 a joker), as cards too."""
    rest, rest_jokers = packed_without(x, jokers, drop, tables.width)
    w, field = tables.width, tables.field
    cards = Counter({CARDS[c]: (rest >> (w * tables.pos[c])) & field for c in range(52)})
    cards[CARDS[52]] = rest_jokers
    return rest, rest_jokers, +cards


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(9), st.booleans(), st.integers(0, 3))
def test_laying_every_card_of_a_part_matches_oracle(case: tuple[Ruleset, list[Card]], penalty: bool, cut: int) -> None:
    # R-V: a part of the input (some cards taken out) is laid whole exactly when the
    # oracle lays every card of it, and the shapes lay exactly its cards.
    rules, hand = case
    lay, tables, x, jokers = laying(hand, rules, penalty=penalty)
    held = [p for p in range(52) if (x >> (tables.width * p)) & tables.field] + ([52] if jokers else [])
    drop = tuple(held[: cut % (len(held) + 1)])
    rest, rest_jokers, cards = part(tables, x, jokers, drop)
    shapes = lay.lay(rest, rest_jokers, 10**6)
    exists = any(not left for _, left in selections(list(cards.elements()), rules))
    assert (shapes is not None) == exists
    if shapes is not None:
        assert laid(shapes) == cards


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
@pytest.mark.parametrize("penalty", [False, True])
def test_laying_matches_the_search_without_relaxations(rules: Ruleset, penalty: bool) -> None:
    # R-V on inputs the oracle is too slow for: the same answer as laid_whole (exact, no cut by
    # a state's own relaxation) on parts of the input: what its best partition lays (laid whole),
    # that less a card, and the whole input.
    answers = set()
    for seed in range(6):
        hand = dealt(rules, 24 + 4 * seed, seed)
        lay, tables, x, jokers = laying(hand, rules, penalty=penalty)
        left = best_partition(hand, rules).leftover
        melded = CardMultiset(hand) - left
        ms = CardMultiset(melded)
        inner = pack(ms.counts, tables), ms.jokers if rules.jokers else 0
        held = [p for p in range(52) if (inner[0] >> (tables.width * p)) & tables.field]
        asked = [(*inner, ()), *((*inner, (p,)) for p in held[:: max(1, len(held) // 4)]), (x, jokers, ())]
        for whole, whole_jokers, drop in asked:
            rest, rest_jokers, cards = part(tables, whole, whole_jokers, drop)
            shapes = lay.lay(rest, rest_jokers, 10**6)
            want = laid_whole(tables, rest, rest_jokers, DEFAULT_SETTINGS, exact=True)
            assert (shapes is None) == (want is None)
            if shapes is not None:
                assert laid(shapes) == cards
            answers.add(shapes is None)
    assert answers == {True, False}


def test_no_partition_lays_all_sixty_cards_proved_at_once() -> None:
    # R-V: 60 cards of seed 124 of benchmarks/worst.py (HiGHS: penalty 2). The relaxation of
    # all 60 lays them all, but not that of any state below: 18 states prove no cover lays
    # every card, where the least-deadwood search took two proofs of 2.6 s each.
    hand = dealt(REMIK, 60, 124)  # solver.deal of the benchmarks
    lay, _tables, x, jokers = laying(hand, REMIK, penalty=True)
    assert lay.lay(x, jokers, 100) is None
    assert best_partition(hand, REMIK).penalty == 2


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.booleans())
def test_kept_prices_cut_only_parts_that_cannot_be_laid_whole(case: tuple[Ruleset, list[Card]], penalty: bool) -> None:
    # R-V: the prices kept from one part's cut (Laying.cut) bound every other part of the input:
    # a part they cut is one the oracle cannot lay whole, and the search using them still
    # answers each part as the oracle does.
    rules, hand = case
    lay, tables, x, jokers = laying(hand, rules, penalty=penalty)
    held = [p for p in range(52) if (x >> (tables.width * p)) & tables.field] + ([52] if jokers else [])
    parts = [part(tables, x, jokers, drop) for drop in [(), *((p,) for p in held[:6])]]
    whole = [any(not left for _, left in selections(list(cards.elements()), rules)) for *_, cards in parts]
    for (rest, rest_jokers, _cards), exists in zip(parts, whole):
        assert (lay.lay(rest, rest_jokers, 10**6) is not None) == exists
    for (rest, rest_jokers, _cards), exists in zip(parts, whole):
        assert not (lay.cut(rest, rest_jokers) and exists)


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
def test_kept_prices_cut_leftovers_the_exact_search_cannot_lay(rules: Ruleset) -> None:
    # R-V on inputs the oracle is too slow for: each input less each of its cards, or two
    # of them, is laid whole by Laying (its kept prices cutting most) exactly when laid_whole
    # (no relaxation) lays it; the kept prices do cut.
    cut = 0
    for seed in range(3):
        hand = dealt(rules, 22 + 3 * seed, seed)
        lay, tables, x, jokers = laying(hand, rules, penalty=True)
        held = [p for p in range(52) if (x >> (tables.width * p)) & tables.field] + ([52] if jokers else [])
        for drop in [*((p,) for p in held), *((p, q) for p, q in zip(held, held[3:]))]:
            rest, rest_jokers, _cards = part(tables, x, jokers, drop)
            want = laid_whole(tables, rest, rest_jokers, DEFAULT_SETTINGS, exact=True)
            if lay.cut(rest, rest_jokers):
                cut += 1
                assert want is None
            else:
                assert (lay.lay(rest, rest_jokers, 10**6) is None) == (want is None)
    assert cut > 0
