"""The fast path of best_partition for small hands without jokers (solver/_small.py).

The fast path must return exactly what the general search returns: the same
melds in the same order, the same leftover, the same penalty. The
differential tests run both on the same hands; the general path is forced by
a ``small_max`` of 0 in the search settings.
"""

from __future__ import annotations

import attrs
import pytest
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import (
    REMIK,
    STRAIGHT,
    Card,
    CardMultiset,
    Group,
    InvalidCardsError,
    Partition,
    Rank,
    Ruleset,
    RulesetError,
    Run,
    Suit,
    best_partition,
    hand_penalty,
    parse_cards,
    validate_meld,
)
from rummylib._card import CARDS
from rummylib.solver import _small
from rummylib.solver._partition import search_partition
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._small import small_partition

SMALL_MAX = DEFAULT_SETTINGS.small_max
#: Every input to the general search: the fast path off.
GENERAL = attrs.evolve(DEFAULT_SETTINGS, small_max=0)

ACE_HIGH_STRAIGHT = attrs.evolve(STRAIGHT, name="ace-high-straight", ace_high=True)
NO_JOKER_REMIK = attrs.evolve(REMIK, name="no-joker-remik", jokers=0)
#: Aces cost nothing in hand: many partitions tie, so the tie rule is exercised.
FREE_ACE_STRAIGHT = attrs.evolve(STRAIGHT, name="free-ace-straight", ace_penalty=0)
FREE_ACE_REMIK = attrs.evolve(REMIK, name="free-ace-remik", ace_penalty=0)
#: Three decks: hands with two copies of a card take the fast path, with three the general one.
THREE_DECKS = attrs.evolve(REMIK, name="three-decks", decks=3, jokers=0)
RULESETS = [STRAIGHT, REMIK, ACE_HIGH_STRAIGHT, NO_JOKER_REMIK, FREE_ACE_STRAIGHT, FREE_ACE_REMIK, THREE_DECKS]

SETTINGS = settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def general(hand: list[Card] | CardMultiset, rules: Ruleset) -> Partition:
    """The general search's answer (the fast path off)."""
    return search_partition(hand, rules, GENERAL)


def both(hand: list[Card] | CardMultiset, rules: Ruleset) -> Partition:
    """The fast path's answer, checked to be the general path's (and a valid partition)."""
    ms = CardMultiset(hand)
    fast = small_partition(ms, rules)
    if max(ms.counts) > 2:
        assert fast is None, "three copies of a card take the general path"
        fast = best_partition(hand, rules)
    assert fast is not None, "the fast path should cover this input"
    assert best_partition(hand, rules) == fast
    slow = general(hand, rules)
    assert fast == slow
    assert [type(m) for m in fast.melds] == [type(m) for m in slow.melds]
    for meld in fast.melds:
        validate_meld(meld, rules)
    used = CardMultiset(c for m in fast.melds for c in m.cards)
    assert used + fast.leftover == ms
    assert fast.penalty == hand_penalty(fast.leftover, rules)
    return fast


def cards(text: str) -> list[Card]:
    return list(parse_cards(text)) if text else []


# --- strategies ------------------------------------------------------------------------


@st.composite
def sparse_hands(draw: st.DrawFn, rules: Ruleset, min_size: int = 0, max_size: int = SMALL_MAX) -> list[Card]:
    """Cards dealt from the whole deck without jokers (as in play)."""
    deck = st.integers(0, 52 * rules.decks - 1)
    picked = draw(st.lists(deck, min_size=min_size, max_size=max_size, unique=True))
    return [CARDS[i % 52] for i in picked]


@st.composite
def dense_hands(draw: st.DrawFn, rules: Ruleset, max_size: int = SMALL_MAX) -> list[Card]:
    """Few suits, a window of ranks (wrapping past the king), every copy: many melds and ties."""
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=4, unique=True))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(3, 7))
    ranks = [((low - 1 + k) % 13) + 1 for k in range(width)]
    pool = [Card(Rank(r), s) for s in suits for r in ranks for _ in range(rules.decks)]
    picked = draw(st.lists(st.integers(0, len(pool) - 1), max_size=max_size, unique=True))
    return [pool[i] for i in picked]


@st.composite
def rules_and_hand(draw: st.DrawFn) -> tuple[Ruleset, list[Card]]:
    rules = draw(st.sampled_from(RULESETS))
    return rules, draw(st.one_of(sparse_hands(rules), dense_hands(rules)))


# --- differential: the fast path is the general path, only sooner ------------------------


@SETTINGS
@given(rules_and_hand())
def test_fast_path_equals_general_path(case: tuple[Ruleset, list[Card]]) -> None:
    # R-V: least penalty; same melds, order and leftover whichever path ran.
    rules, hand = case
    both(hand, rules)


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS).flatmap(lambda r: st.tuples(st.just(r), dense_hands(r))))
def test_fast_path_equals_general_path_on_dense_hands(case: tuple[Ruleset, list[Card]]) -> None:
    # Dense hands hold many equally good partitions: both paths must pick the same one.
    rules, hand = case
    both(hand, rules)


@settings(max_examples=examples(600), deadline=None)
@given(sparse_hands(STRAIGHT, min_size=10, max_size=10))
def test_gin_deadwood_equals_general_path(hand: list[Card]) -> None:
    # Gin rummy's deadwood: ten cards, one deck, ace low, J-Q-K 10 (R-V, R-M4).
    both(hand, STRAIGHT)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_remik_hands_without_jokers_equal_general_path(data: st.DataObject) -> None:
    # Remik rules (two decks, ace high, jokers in the deck) on hands that hold no joker (R-C1, M3).
    size = data.draw(st.sampled_from([7, 13, 14]))
    hand = data.draw(sparse_hands(REMIK, min_size=size, max_size=size))
    both(hand, REMIK)


# --- hand-written regression cases -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "penalty"),
    [("KH 4S", 14), ("AD 3D 8C", 12), ("JS QS 2H", 22), ("", 0)],
)
def test_straight_seed_values(text: str, penalty: int) -> None:
    # R-V1: the seed examples; no meld, so the fast path answers without a search.
    p = both(cards(text), STRAIGHT)
    assert p.melds == ()
    assert p.penalty == penalty


def test_remik_ace_penalty_and_high_ace() -> None:
    # R-V: a remik ace costs 11 in hand; R-M3: Q-K-A is a run, K-A-2 is not.
    p = both(cards("QH KH AH 2H 7C"), REMIK)
    assert [str(m) for m in p.melds] == ["QH KH AH"]
    assert p.penalty == 9
    assert both(cards("KH AH 2H"), REMIK).penalty == 10 + 11 + 2


def test_straight_has_no_high_ace() -> None:
    # R-M4: Q-K-A is no run in straight rummy; the ace costs 1 (R-V).
    p = both(cards("QS KS AS"), STRAIGHT)
    assert p.melds == ()
    assert p.penalty == 21
    assert [str(m) for m in both(cards("QS KS AS"), ACE_HIGH_STRAIGHT).melds] == ["QS KS AS"]


def test_both_aces_at_once() -> None:
    # R-M3 with two decks: one AH low in A-2-3, the other high in Q-K-A.
    p = both(cards("AH 2H 3H QH KH AH"), REMIK)
    assert [str(m) for m in p.melds] == ["AH 2H 3H", "QH KH AH"]
    assert p.penalty == 0


def test_groups_never_repeat_a_suit() -> None:
    # R-M2: the two 9H can never share a set.
    p = both(cards("9H 9H 9S"), REMIK)
    assert p.melds == ()
    assert p.penalty == 27
    p = both(cards("9H 9H 9S 9D"), REMIK)
    assert len(p.melds) == 1
    assert isinstance(p.melds[0], Group)
    assert len(set(p.melds[0].suits)) == 3
    assert str(p.leftover) == "9H"


def test_groups_are_not_greedy() -> None:
    # R-M2: counts (2, 2, 1, 1) across suits: two groups of three beat one of four.
    p = both(cards("7S 7S 7H 7H 7D 7C"), REMIK)
    assert [len(m) for m in p.melds] == [3, 3]
    assert p.penalty == 0


def test_long_runs_come_back_joined() -> None:
    # R-M1: pieces of 3 to 5 cards come back as one run, as the general path joins them.
    p = both(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), STRAIGHT)
    assert p.melds == (Run(Suit.SPADES, 1, tuple(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))),)
    p = both(cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"), REMIK)
    assert len(p.melds) == 1
    assert p.melds[0].cards[-1] == cards("AD")[0]
    # R-M3: 14 hearts with both aces: never one run with an ace at both ends, but two
    # runs that meet in the middle take every card (they are not joined: 14 > 13).
    p = both(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), REMIK)
    assert sorted(len(m) for m in p.melds) == [5, 9]
    assert p.penalty == 0


def test_twin_runs_and_runs_beside_groups() -> None:
    # R-C2: two copies of a run make two runs; a group and a run can share no card.
    p = both(cards("5H 6H 7H 5H 6H 7H"), REMIK)
    assert [str(m) for m in p.melds] == ["5H 6H 7H", "5H 6H 7H"]
    p = both(cards("5H 6H 7H 8H 8S 8D 8C"), STRAIGHT)
    assert p.penalty == 0
    assert [type(m) for m in p.melds] == [Run, Group]


def test_melds_are_shared_values() -> None:
    # Melds are immutable values: the fast path hands out cached ones, equal to fresh ones.
    a = both(cards("2C 3C 4C 9D"), STRAIGHT)
    b = both(cards("2C 3C 4C KD"), STRAIGHT)
    assert a.melds == b.melds == (Run(Suit.CLUBS, 2, tuple(cards("2C 3C 4C"))),)
    assert len(_small._RUNS) <= 4 * sum(15 - n for n in range(3, 14))


# --- which inputs take the fast path -----------------------------------------------------


def test_inputs_outside_the_fast_path() -> None:
    # Jokers in the hand, jokers side by side allowed (R-J3 relaxed), a third copy, too many cards.
    assert small_partition(CardMultiset(cards("JK 5H 6H")), REMIK) is None
    house = attrs.evolve(NO_JOKER_REMIK, name="adjacent", adjacent_jokers=True)
    assert small_partition(CardMultiset(cards("5H 6H 7H")), house) is None
    three = attrs.evolve(STRAIGHT, name="three-decks", decks=3)
    assert small_partition(CardMultiset(cards("5H 5H 5H 6H 7H")), three) is None
    assert small_partition(CardMultiset(cards("5H 5H 6H 7H")), three) is not None
    big = CardMultiset(CARDS[: SMALL_MAX + 1])
    assert small_partition(big, STRAIGHT) is None
    assert small_partition(CardMultiset(CARDS[:SMALL_MAX]), STRAIGHT) is not None
    assert best_partition(big, STRAIGHT) == general(big, STRAIGHT)


def test_threshold_stays_below_the_lp() -> None:
    # From lp_from cards the general search orders candidates by LP prices and may pick
    # another partition of equal penalty; the fast path must not reach that zone.
    assert DEFAULT_SETTINGS.lp_from > SMALL_MAX
    hand = CardMultiset(cards("5H 6H 7H 9C"))
    assert small_partition(hand, STRAIGHT) is not None
    assert small_partition(hand, STRAIGHT, attrs.evolve(DEFAULT_SETTINGS, lp_from=4)) is None


def test_bad_input_still_raises_typed_errors() -> None:
    with pytest.raises(InvalidCardsError):
        best_partition(["AS", 3], STRAIGHT)  # type: ignore[list-item]
    with pytest.raises(InvalidCardsError):
        best_partition(cards("AS AS 2S 3S"), STRAIGHT)  # two AS in one deck
    with pytest.raises(InvalidCardsError):
        best_partition(cards("JK 2S 3S"), STRAIGHT)  # no jokers in straight rummy
    with pytest.raises(RulesetError):
        best_partition(cards("AS 2S 3S"), "straight")  # type: ignore[arg-type]


def test_inputs_are_not_mutated() -> None:
    hand = cards("2C 3C 4C 9D 9S 9H")
    before = list(hand)
    both(hand, STRAIGHT)
    assert hand == before


def test_list_path_follows_each_calls_ruleset_and_settings() -> None:
    # R-V: the list path remembers the last ruleset and settings it answered under; calls that switch
    # between rulesets it takes, rulesets it does not (jokers side by side) and settings that turn it
    # off or narrow it must each get the general search's answer.
    house = attrs.evolve(NO_JOKER_REMIK, name="adjacent", adjacent_jokers=True)
    narrow = attrs.evolve(DEFAULT_SETTINGS, lp_from=4)
    hands = [cards("2C 3C 4C 9D 9S 9H KS"), cards("5H 6H 7H 9C"), cards("AS 2S 3S QH KH AH 7D")]
    for _ in range(2):
        for rules in (STRAIGHT, house, REMIK, ACE_HIGH_STRAIGHT, THREE_DECKS, STRAIGHT):
            for hand in hands:
                want = general(hand, rules)
                assert best_partition(hand, rules) == want
                for tuned in (DEFAULT_SETTINGS, GENERAL, narrow):  # a list is answered as its multiset
                    assert search_partition(hand, rules, tuned) == search_partition(CardMultiset(hand), rules, tuned)
    with pytest.raises(RulesetError):
        best_partition(cards("AS 2S 3S"), None)  # type: ignore[arg-type]
    assert best_partition(hands[0], STRAIGHT) == general(hands[0], STRAIGHT)  # after a refused ruleset


def test_counted_partition_builds_what_trusted_partition_builds() -> None:
    # solver/_results.counted_partition sets CardMultiset's slots itself (one call less on the
    # small-hand paths): every slot must come out as CardMultiset._trusted sets it, so a slot
    # added to CardMultiset without a line there fails here.
    from rummylib.solver._results import counted_partition, trusted_partition

    melds = best_partition(parse_cards("2H 3H 4H 9C 9D 9S KS"), STRAIGHT).melds
    for counts in (tuple([0] * 53), tuple(1 if i in (12, 51) else 0 for i in range(53))):
        size = sum(counts)
        fast = counted_partition(melds, counts, size, 20)
        slow = trusted_partition(melds, CardMultiset._trusted(counts, size), 20)
        assert fast == slow
        slots = [s for k in type(slow.leftover).__mro__ for s in getattr(k, "__slots__", ())]
        assert slots
        for slot in slots:
            assert getattr(fast.leftover, slot) == getattr(slow.leftover, slot), slot
        assert hash(fast.leftover) == hash(slow.leftover)


def _slots(value: object) -> dict[str, object]:
    """Every slot of ``value`` by name, over its class's MRO."""
    names = [s for k in type(value).__mro__ for s in getattr(k, "__slots__", ()) if s != "__weakref__"]
    assert names
    return {name: getattr(value, name) for name in names}


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from([STRAIGHT, REMIK, ACE_HIGH_STRAIGHT]).flatmap(lambda r: st.tuples(st.just(r), sparse_hands(r))))
def test_list_path_builds_whole_values(case: tuple[Ruleset, list[Card]]) -> None:
    # best_partition answers a plain list in its own body and builds the result through the open twins
    # (solver/_results.OpenPartition, cards.OpenMultiset): it must come out exactly a Partition holding
    # exactly a CardMultiset, every slot as the checked path (a CardMultiset input) sets it, and frozen.
    rules, hand = case
    fast = best_partition(hand, rules)
    slow = best_partition(CardMultiset(hand), rules)
    assert type(fast) is Partition
    assert type(fast.leftover) is CardMultiset
    assert fast == slow
    assert _slots(fast) == _slots(slow)
    assert _slots(fast.leftover) == _slots(slow.leftover)
    assert len(fast.leftover) == len(slow.leftover) == sum(fast.leftover.counts)
    assert hash(fast.leftover) == hash(slow.leftover)
    assert search_partition(hand, rules, DEFAULT_SETTINGS) == fast
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.penalty = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        fast.leftover._len = 0


def test_open_twins_add_no_slot() -> None:
    # A twin may become its base (``__class__``) only with the same layout: no slot of its own.
    from rummylib.cards import OpenMultiset
    from rummylib.solver._results import OpenPartition

    assert OpenMultiset.__slots__ == () and OpenMultiset.__bases__ == (CardMultiset,)
    assert OpenPartition.__slots__ == () and OpenPartition.__bases__ == (Partition,)
