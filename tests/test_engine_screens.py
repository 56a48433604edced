"""The engine's cheap questions: its cached go-out answers and its opening screen (R-D2, E1, E3, O2).

The go-out screen itself is the solver's, tested in ``test_goout_screen.py``.
"""

from __future__ import annotations

import random

import attrs
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_goout_screen import Position, positions

import rummylib as rl
from rummylib._card import CARDS
from rummylib.engine import _cache as engine_cache
from rummylib.engine._cache import goes_out
from rummylib.engine._complete import may_open
from rummylib.engine._cover import may_meld as _may_meld
from rummylib.engine._screen import counted_screen
from rummylib.solver._masks import run_covered, suit_masks
from rummylib.solver._queries import can_go_out

C = rl.parse_cards


def test_unopened_may_take_the_discard_to_open_and_go_out_by_a_discard_where_melding_out_is_allowed() -> None:
    # R-D2, E3: with the house rule that a hand may also go out by melding, the last card may still be
    # discarded; the engine refused the take when one card fit no meld (a screen counted no discard).
    rules = attrs.evolve(rl.REMIK, name="meld-out", must_discard_to_go_out=False)
    hands = [C("10H JH QH KH AH 4S"), C("KS KD KC QS QC JC")]
    s = rl.start_round_from(
        rules, hands, discard=C("9H"), table=[], opened=[False, False], to_act=0, phase=rl.Phase.DRAW
    )
    assert rl.TakeDiscard() in list(rl.legal_actions(s))
    t = rl.apply(s, rl.TakeDiscard())
    t = rl.apply(t, rl.LayMeld(rl.parse_meld("9H 10H JH QH KH AH", rules)))
    assert rl.apply(t, rl.Discard(rl.parse_card("4S"))).phase in (rl.Phase.ROUND_OVER, rl.Phase.GAME_OVER)


@settings(max_examples=examples(40), deadline=None)
@given(positions((6, 12)), st.randoms(use_true_random=False))
def test_cached_go_out_answer_is_the_solvers_in_any_table_order(pos: Position, rnd: random.Random) -> None:
    # R-E1: the engine keeps go-out answers keyed on the table as a multiset; the order melds were laid
    # in never changes whether a hand can go out.
    hand, table, rules = pos
    want = can_go_out(hand, table, rules, opened=True)
    shuffled = list(table)
    rnd.shuffle(shuffled)
    engine_cache.clear()
    assert goes_out(hand, table, rules, opened=True) is want
    assert goes_out(hand, tuple(shuffled), rules, opened=True) is want  # a hit of the first question


@settings(max_examples=examples(60), deadline=None)
@given(positions((3, 16)))
def test_opening_screen_never_rules_out_an_opening_the_solver_finds(
    pos: Position,
) -> None:
    # R-O2: GreedyBot and the listing skip the opening search when the cheap test says no opening.
    hand, _, rules = pos
    if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
        assert rl.best_opening(hand, rules) is None


# --- the bit-mask screens against their plain loops -----------------------------------------------

_SCREEN_RULES = [
    rl.REMIK,
    rl.STRAIGHT,
    attrs.evolve(rl.REMIK, ace_high=False),
    attrs.evolve(rl.REMIK, group3_max_jokers=0),
]


def _counts(draw: st.DrawFn, most: int) -> tuple[int, ...]:
    cells = draw(st.lists(st.integers(0, 52), max_size=most))
    counts = [0] * 53
    for i in cells:
        counts[i] = min(counts[i] + 1, 3)
    return tuple(counts)


@st.composite
def _count_vectors(draw: st.DrawFn) -> tuple[tuple[int, ...], rl.Ruleset]:
    return _counts(draw, 20), draw(st.sampled_from(_SCREEN_RULES))


def _may_open_by_loop(counts: tuple[int, ...], rules: rl.Ruleset, need: int, clean: bool) -> bool:
    # The plain statement of the opening screen: a card counts when a window of three around it holds it
    # with the jokers, or its rank is held in three suits (two, with a joker).
    jokers = counts[52] if rules.jokers else 0
    masks = suit_masks(counts, rules.ace_high)
    if clean and not any(m & (m >> 1) & (m >> 2) for m in masks):
        return False
    if need <= 0:
        return True
    bound = 11 * jokers
    held = [sum(counts[s * 13 + r] > 0 for s in range(4)) for r in range(13)]
    for suit, m in enumerate(masks):
        covered = run_covered(m, jokers)
        for rank in range(13):
            c = counts[suit * 13 + rank]
            if c and (covered & (2 << rank) or held[rank] >= 3 or (held[rank] >= 2 and jokers)):
                bound += c * (11 if rank == 0 else min(rank + 1, 10))
    return bound >= need


@settings(max_examples=examples(400), deadline=None)
@given(_count_vectors(), st.integers(-5, 120), st.booleans())
def test_opening_screen_is_its_plain_loop(vector: tuple[tuple[int, ...], rl.Ruleset], need: int, clean: bool) -> None:
    # R-O2, O3: the counting screen reads the hand through bit masks and a table of points per mask; the
    # answer is the loop's over every card. may_open asks it first (and refuses no more than it, where no
    # clean run is needed or the hand holds two jokers).
    counts, rules = vector
    assert counted_screen(counts, rules, need, clean) is _may_open_by_loop(counts, rules, need, clean)
    if may_open(counts, rules, need, clean):
        assert _may_open_by_loop(counts, rules, need, clean)
    elif not clean or need <= 0 or (rules.jokers and counts[52] >= 2):
        assert not _may_open_by_loop(counts, rules, need, clean)


def _may_meld_by_loop(index: int, nat: tuple[int, ...], jokers: int, rules: rl.Ruleset) -> bool:
    if jokers >= 2:
        return True
    suit, rank0 = divmod(index, 13)
    others = sum(1 for s in range(4) if s != suit and nat[s * 13 + rank0])
    if others >= 2 or (others and jokers and rules.group3_max_jokers):
        return True
    top = 14 if rules.ace_high else 13

    def present(pos: int) -> int:
        return 1 if 1 <= pos <= top and nat[suit * 13 + (pos - 1) % 13] else 0

    for pos in (rank0 + 1, 14) if rank0 == 0 and rules.ace_high else (rank0 + 1,):
        for start in (pos - 2, pos - 1, pos):
            if (
                start >= 1
                and start + 2 <= top
                and sum(present(p) for p in range(start, start + 3) if p != pos) + jokers >= 2
            ):
                return True
    return False


@settings(max_examples=examples(400), deadline=None)
@given(_count_vectors(), st.integers(0, 51), st.integers(0, 3))
def test_meld_partner_screen_is_its_plain_loop(
    vector: tuple[tuple[int, ...], rl.Ruleset], index: int, jokers: int
) -> None:
    # R-D2: the screen for "could the taken card sit in any new meld" reads the counts; the answer is the loop's.
    counts, rules = vector
    nat = counts[:52]
    assert _may_meld(index, nat, jokers, rules) is _may_meld_by_loop(index, nat, jokers, rules)


# --- the second look through the clean run's windows (R-O2) -----------------------------------------

_CLEAN_RUN_RULES = [
    rl.REMIK,
    attrs.evolve(rl.REMIK, ace_high=False),
    attrs.evolve(rl.REMIK, group3_max_jokers=0),
    attrs.evolve(rl.REMIK, adjacent_jokers=True, group4_max_jokers=1),
]


@st.composite
def _near_openings(draw: st.DrawFn) -> tuple[tuple[int, ...], rl.Ruleset]:
    # Hands built from runs and sets in the making, so that many just reach or just miss an opening.
    rules = attrs.evolve(
        draw(st.sampled_from(_CLEAN_RUN_RULES)), opening_points=draw(st.sampled_from([30, 41, 51, 64]))
    )
    cells: list[int] = []
    top = 14 if rules.ace_high else 13
    for _ in range(draw(st.integers(1, 3))):  # runs, mostly of three or more in a row
        suit, start = draw(st.integers(0, 3)), draw(st.integers(1, top - 2))
        for p in range(start, min(start + draw(st.integers(2, 6)), top + 1)):
            cells.append(suit * 13 + (p - 1) % 13)
    for _ in range(draw(st.integers(0, 3))):  # sets: a rank in two to four suits
        rank = draw(st.integers(0, 12))
        cells += [s * 13 + rank for s in draw(st.lists(st.integers(0, 3), min_size=2, max_size=4, unique=True))]
    cells += draw(st.lists(st.integers(0, 51), max_size=6))
    counts = [0] * 53
    for i in cells:
        counts[i] = min(counts[i] + 1, 2)
    counts[52] = draw(st.sampled_from([0, 0, 1, 1, 2]))
    return tuple(counts), rules


@settings(max_examples=examples(600), deadline=None)
@given(_near_openings())
def test_opening_screen_never_refuses_an_opening_of_the_solver(vector: tuple[tuple[int, ...], rl.Ruleset]) -> None:
    # R-O2, O3: the look through each window of the clean run is sound: an opening the solver finds (keeping
    # no card, so more openings count) is never refused, whatever the points, jokers and set rules.
    counts, rules = vector
    hand = [card for card, k in zip(CARDS, counts) for _ in range(k)]
    if not may_open(counts, rules, rules.opening_points, rules.opening_clean_run):
        assert not rl.can_open(hand, rules, keep=0)


def test_opening_screen_refuses_a_card_a_clean_run_and_a_set_both_want() -> None:
    # R-O2: 4H 5H 6H is the only clean run; the sixes are a set only with 6H, the eights bring 24: the
    # counting screen counts 6H twice over (57 points), the clean run's window leaves 15 + 24 = 39.
    hand = C("8S 4H 5H 6H 8H 10H 6D 8D KD 6C 6C 7C 9C JC")
    counts = rl.CardMultiset(hand).counts
    assert counted_screen(counts, rl.REMIK, 51, True)
    assert not may_open(counts, rl.REMIK, 51, True)
    assert not rl.can_open(hand, rl.REMIK, keep=0)


def test_opening_screen_counts_one_meld_for_the_one_joker() -> None:
    # R-O2, J1: 8D 9D 10D (27) is the only clean run; the rest must bring 24, but each meld of it needs the
    # joker (2D 4D, 3C 5C, the fours, the threes), so one of them brings 11 + 8 at most.
    hand = [*C("AS 4S JS 3H 2D 4D 4D 8D 9D 10D 3C 5C QC"), rl.cards.JOKER]
    counts = rl.CardMultiset(hand).counts
    assert counted_screen(counts, rl.REMIK, 51, True)
    assert not may_open(counts, rl.REMIK, 51, True)
    assert not rl.can_open(hand, rl.REMIK, keep=0)
