"""The screens in front of the best-opening search (solver/_opening_screen.py).

A screen only ever answers "no opening" (R-O2, O3); it must never do so where
the search finds one. The differential tests run ``best_opening`` against the
search with the points screen off (``opening_screen=False``) on the same
hands, and check that the screen does fire on some of them.
"""

from __future__ import annotations

import random

import attrs
import pytest
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import JOKER, REMIK, STRAIGHT, Card, CardMultiset, InvalidCardsError, Ruleset, best_opening, deck
from rummylib._card import CARDS
from rummylib.solver._opening import search_opening
from rummylib.solver._opening_screen import clean_run_in, held_positions, list_hand, live_points
from rummylib.solver._settings import DEFAULT_SETTINGS

#: The search on every hand that passes the clean-run test: the points screen off.
UNSCREENED = attrs.evolve(DEFAULT_SETTINGS, opening_screen=False)

ACE_LOW_REMIK = attrs.evolve(REMIK, name="ace-low-remik", ace_high=False)
#: No clean run needed: only the points screen stands in front of the search.
POINTS_ONLY = attrs.evolve(REMIK, name="points-only", opening_clean_run=False, opening_points=30)
#: A threshold met exactly by some hands (three kings and a 2-3-4 are worth 39).
LOW_BAR = attrs.evolve(REMIK, name="low-bar", opening_points=39)
#: Only a clean run needed (no points): the points screen never fires.
RUN_ONLY = attrs.evolve(REMIK, name="run-only", opening_points=0)
STRAIGHT_OPENING = attrs.evolve(
    STRAIGHT, name="straight-opening", opening_required=True, opening_points=25, opening_clean_run=False
)
RULESETS = [REMIK, ACE_LOW_REMIK, POINTS_ONLY, LOW_BAR, RUN_ONLY, STRAIGHT_OPENING]


def screened(hand: CardMultiset, rules: Ruleset) -> bool:
    """Whether the points screen answers ``None`` for ``hand`` without a search."""
    counts = hand.counts
    return not counts[52] and live_points(held_positions(counts), counts, rules.ace_high) < rules.opening_points


def agree(hand: CardMultiset, rules: Ruleset, keep: int | None) -> None:
    # R-O2, O3: the screened answer is the search's, to the melds and their order.
    fast = best_opening(hand, rules, keep=keep)
    slow = search_opening(hand, rules, UNSCREENED, keep=keep)
    assert fast == slow
    assert best_opening(list(hand), rules, keep=keep) == fast  # the list path (list_hand)
    if fast is not None and slow is not None:
        assert [type(m) for m in fast.melds] == [type(m) for m in slow.melds]
    if screened(hand, rules):
        assert slow is None, "the screen answered None where the search finds an opening"


def deal(rules: Ruleset, size: int, seed: int) -> CardMultiset:
    cards = list(deck(rules))
    random.Random(seed).shuffle(cards)
    return CardMultiset(cards[:size])


def test_screen_agrees_with_the_search_on_dealt_hands() -> None:
    # R-O2, O3 on hands as dealt (13 or 14 cards, jokers included), and larger multisets.
    fired = 0
    for rules in RULESETS:
        for seed in range(120):
            for size in (7, 14, 21):
                hand = deal(rules, size, seed)
                fired += screened(hand, rules)
                agree(hand, rules, None)
                agree(hand, rules, 0)
    assert fired > 300, "the screen should answer many of these hands"


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(RULESETS),
    st.lists(st.integers(0, 51), max_size=16),
    st.integers(0, 1),
    st.sampled_from([None, 0, 1]),
)
def test_screen_agrees_with_the_search(rules: Ruleset, indices: list[int], jokers: int, keep: int | None) -> None:
    # R-O2, O3: two copies of a card at most (two decks), a joker sometimes (never screened).
    counts = [0] * 53
    for i in indices:
        counts[i] = min(counts[i] + 1, rules.decks)
    counts[52] = min(jokers, rules.jokers)
    agree(CardMultiset.from_counts(counts), rules, keep)


def test_screen_bound_is_tight_on_one_meld() -> None:
    # R-V, O3: 10S JS QS KS AS is 51 as laid; no other card of the hand can join a meld.
    hand = CardMultiset(CARDS[i] for i in (9, 10, 11, 12, 0, 14, 30, 46))
    a = held_positions(hand.counts)
    assert clean_run_in(a, ace_high=True)
    assert live_points(a, hand.counts, ace_high=True) == 51
    opening = best_opening(hand, REMIK)
    assert opening is not None
    assert opening.points == 51
    assert best_opening(hand, attrs.evolve(REMIK, opening_points=52)) is None


@settings(max_examples=examples(600), deadline=None)
@given(st.sampled_from(RULESETS), st.lists(st.integers(0, 52), max_size=70))
def test_list_hand_reads_a_list_as_the_checked_path(rules: Ruleset, indices: list[int]) -> None:
    # R-C1, C2: the list path's multiset and bits are the checked path's; anything over
    # the deck (three copies, jokers beyond the rules'), more jokers than decks (a rare hand,
    # counted against the decks in the loop) or too long a list is left to the checked path.
    cards: list[object] = [CARDS[i] for i in indices]
    listed = list_hand(cards, rules)
    ms = CardMultiset(CARDS[i] for i in indices)
    over = max(ms.counts[:52]) > rules.decks or ms.counts[52] > rules.jokers
    if over or ms.counts[52] > rules.decks or len(cards) > 64:  # more jokers than decks: checked path too
        assert listed is None
        return
    assert listed is not None
    assert listed[0] == ms
    assert len(listed[0]) == len(ms)
    assert listed[1] == held_positions(ms.counts)


def test_list_path_refuses_what_the_checked_path_refuses() -> None:
    # R-C1: the same errors from a list as from a tuple of the same items.
    bad: list[list[object]] = [[CARDS[0], "AS"], [CARDS[0]] * 3, [JOKER] * 5, [Card(None, None), 7]]
    for items in bad:
        with pytest.raises(InvalidCardsError) as from_tuple:
            best_opening(tuple(items), REMIK)  # type: ignore[arg-type]
        with pytest.raises(InvalidCardsError) as from_list:
            best_opening(items, REMIK)  # type: ignore[arg-type]
        assert str(from_list.value) == str(from_tuple.value)
        assert from_list.value.reason == from_tuple.value.reason
