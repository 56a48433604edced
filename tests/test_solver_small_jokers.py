"""The fast path of best_partition for small hands with jokers (solver/_small_jokers.py).

The fast path must return exactly what the general search returns: the same
melds in the same order, the same leftover, the same penalty; ties included.
The differential tests run both on the same hands; the general path is
forced by a ``small_max`` of 0 in the search settings.
"""

from __future__ import annotations

import random

import attrs
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    Card,
    CardMultiset,
    Partition,
    Rank,
    Ruleset,
    Suit,
    best_partition,
    hand_penalty,
    parse_cards,
    validate_meld,
)
from rummylib._card import CARDS
from rummylib.solver._partition import search_partition
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._small_jokers import small_joker_partition

SMALL_MAX = DEFAULT_SETTINGS.small_max
#: Every input to the general search: the fast paths off.
GENERAL = attrs.evolve(DEFAULT_SETTINGS, small_max=0)

SIX_JOKERS = attrs.evolve(REMIK, name="six-jokers", jokers=6)
#: Aces and jokers that cost little in hand: many partitions tie, so the tie rule is exercised.
FREE_ACE_REMIK = attrs.evolve(REMIK, name="free-ace-remik", ace_penalty=0)
CHEAP_JOKER_REMIK = attrs.evolve(REMIK, name="cheap-joker-remik", joker_penalty=1)
LOW_ACE_REMIK = attrs.evolve(REMIK, name="low-ace-remik", ace_high=False)
RULESETS = [REMIK, SIX_JOKERS, FREE_ACE_REMIK, CHEAP_JOKER_REMIK, LOW_ACE_REMIK]


def both(hand: list[Card], rules: Ruleset) -> Partition:
    """The fast path's answer, checked to be the general path's (and a valid partition)."""
    ms = CardMultiset(hand)
    fast = small_joker_partition(ms, rules)
    assert fast is not None, "the fast path should cover this input"
    assert best_partition(hand, rules) == fast
    slow = search_partition(hand, rules, GENERAL)
    assert fast == slow
    assert [type(m) for m in fast.melds] == [type(m) for m in slow.melds]
    for meld in fast.melds:
        validate_meld(meld, rules)
    used = CardMultiset(c for m in fast.melds for c in m.cards)
    assert used + fast.leftover == ms
    assert fast.penalty == hand_penalty(fast.leftover, rules)
    return fast


@st.composite
def joker_hands(draw: st.DrawFn, rules: Ruleset) -> list[Card]:
    """Naturals dealt from the decks (sparse, or a dense window of few suits) and one joker or more."""
    jokers = draw(st.integers(1, min(3, rules.jokers)))
    if draw(st.booleans()):
        picked = draw(st.lists(st.integers(0, 52 * rules.decks - 1), max_size=SMALL_MAX - jokers, unique=True))
        naturals = [CARDS[i % 52] for i in picked]
    else:
        suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=4, unique=True))
        low = draw(st.integers(1, 13))
        ranks = [((low - 1 + k) % 13) + 1 for k in range(draw(st.integers(3, 7)))]
        pool = [Card(Rank(r), s) for s in suits for r in ranks for _ in range(rules.decks)]
        picked = draw(st.lists(st.integers(0, len(pool) - 1), max_size=SMALL_MAX - jokers, unique=True))
        naturals = [pool[i] for i in picked]
    return [*naturals, *[JOKER] * jokers]


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS).flatmap(lambda r: st.tuples(st.just(r), joker_hands(r))))
def test_fast_path_equals_general_path(case: tuple[Ruleset, list[Card]]) -> None:
    # R-V, J1-J3: least penalty with jokers; same melds, order and leftover whichever path ran.
    rules, hand = case
    both(hand, rules)


def test_remik_deals_equal_general_path() -> None:
    # R-P2, C1: 13 and 14 cards dealt from the remik deck, with the jokers they hold (seeded, fixed).
    rng = random.Random(2026)
    deck = [*CARDS[:52], *CARDS[:52], *[JOKER] * REMIK.jokers]
    covered = 0
    for _ in range(examples(600)):
        hand = rng.sample(deck, rng.choice([13, 14]))
        if JOKER in hand:
            both(hand, REMIK)
            covered += 1
    assert covered > examples(600) // 4


def test_ties_pick_the_general_paths_melds() -> None:
    # R-J1: 7H JK 9H JK can be one run, or a joker can go elsewhere at equal penalty: the first best wins.
    for text in ("7S 7S 7H 9H 9H AD 5D 5D 10D KC KC JK JK", "5S 8S JS KS 10H 2D QD JC JK", "JK JK 9C"):
        for rules in RULESETS:
            both(list(parse_cards(text)), rules)


def test_inputs_outside_the_fast_path() -> None:
    hand = CardMultiset(parse_cards("5H 6H JK 9C"))
    assert small_joker_partition(CardMultiset(parse_cards("5H 6H 7H 9C")), REMIK) is None  # no joker: _small's
    assert small_joker_partition(hand, REMIK, GENERAL) is None
    assert small_joker_partition(hand, REMIK, attrs.evolve(DEFAULT_SETTINGS, lp_from=3)) is None  # the LP zone
    adjacent = attrs.evolve(REMIK, name="adjacent-jokers", adjacent_jokers=True)
    assert small_joker_partition(hand, adjacent) is None
    big = CardMultiset([*parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S 8S"), JOKER])
    assert small_joker_partition(big, REMIK) is None  # more than small_max cards
