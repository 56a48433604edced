"""A deliberately naive meld oracle, written from RULES.md alone.

It shares no logic with :mod:`rummylib.melds`: it tries every ordering of the
cards against every possible table layout (a run of each suit at each start,
a set of each rank with each choice of suits), so that each joker takes the
card its slot stands for, checks the layout against the rules itself, and
returns every valid reading. Only small inputs are feasible (a few cards).

A reading is a plain tuple, comparable with :func:`meld_key` of a real meld:

- a run:   ``("run", suit letter, start position, (card text, ...))`` with the
  cards in table order, positions 1 (ace low) .. 14 (ace high);
- a set:   ``("set", rank number, ((suit letter, card text), ...))`` with the
  slots in suit order S, H, D, C.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rummylib import Card, Group, Meld, Ruleset, Run

Reading = tuple[object, ...]

_SUIT_ORDER = "SHDC"
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _card_text(rank: int, suit: str) -> str:
    """Notation of a natural card, ace at position 14 written as the ace."""
    if rank == 14:
        rank = 1
    return f"{_RANK_TEXT.get(rank, str(rank))}{suit}"


def _text(card: Card) -> str:
    return str(card)


def _jokers_ok(slots: Sequence[str], rules: Ruleset) -> bool:
    jokers = sum(1 for s in slots if s == "JK")
    if jokers == 0:
        return True
    # Jokers exist only if the deck has them, and never more than the deck holds (R-C1, C3).
    return rules.jokers > 0 and jokers <= rules.jokers


def _run_readings(cards: Sequence[str], rules: Ruleset) -> set[Reading]:
    n = len(cards)
    found: set[Reading] = set()
    # R-M1: at least 3 cards; R-M3: at most 13 (never the ace at both ends).
    if not 3 <= n <= 13:
        return found
    for order in set(itertools.permutations(cards)):
        for suit in _SUIT_ORDER:
            for start in range(1, 15):
                end = start + n - 1
                if end > 14:  # past the high ace: K-A-2 turns the corner (R-M3)
                    continue
                if end == 14 and not rules.ace_high:  # R-M4: no ace above the king
                    continue
                stands = [_card_text(p, suit) for p in range(start, end + 1)]
                if not all(c == "JK" or c == s for c, s in zip(order, stands)):
                    continue
                if all(c == "JK" for c in order):  # a meld needs a real card
                    continue
                if not rules.adjacent_jokers and any(
                    a == "JK" and b == "JK" for a, b in itertools.pairwise(order)
                ):  # R-J3
                    continue
                if not _jokers_ok(order, rules):
                    continue
                found.add(("run", suit, start, tuple(order)))
    return found


def _set_readings(cards: Sequence[str], rules: Ruleset) -> set[Reading]:
    n = len(cards)
    found: set[Reading] = set()
    # R-M2: 3 or 4 cards of one rank, all suits different.
    if not 3 <= n <= 4:
        return found
    for order in set(itertools.permutations(cards)):
        for rank in range(1, 14):
            for suits in itertools.combinations(_SUIT_ORDER, n):
                stands = [_card_text(rank, s) for s in suits]
                if not all(c == "JK" or c == s for c, s in zip(order, stands)):
                    continue
                jokers = sum(1 for c in order if c == "JK")
                if jokers == n:
                    continue
                limit = rules.group3_max_jokers if n == 3 else rules.group4_max_jokers
                if jokers > limit:  # R-J2
                    continue
                if not _jokers_ok(order, rules):
                    continue
                found.add(("set", rank, tuple(zip(suits, order))))
    return found


def laid_run_layouts(cards: Sequence[Card]) -> set[Reading]:
    """Every run layout keeping ``cards`` in the given order, whatever the rules say.

    A player who lays cards in run order fixes where each joker sits, so that
    layout alone is judged (R-J3: ``JK JK 5H`` is no run as laid).
    """
    order = tuple(_text(c) for c in cards)
    n = len(order)
    found: set[Reading] = set()
    if not 3 <= n <= 13 or all(c == "JK" for c in order):
        return found
    for suit in _SUIT_ORDER:
        for start in range(1, 16 - n):
            stands = [_card_text(p, suit) for p in range(start, start + n)]
            if all(c == "JK" or c == s for c, s in zip(order, stands)):
                found.add(("run", suit, start, order))
    return found


def expected_readings(cards: Sequence[Card], rules: Ruleset) -> set[Reading]:
    """What make_meld chooses among: every valid reading (make_meld's one rule picks
    the run laid in the given order if it is one, else the only reading, else none)."""
    return oracle_readings(cards, rules)


def oracle_readings(cards: Sequence[Card], rules: Ruleset) -> set[Reading]:
    """Every valid reading of ``cards`` as one meld under ``rules``."""
    texts = [_text(c) for c in cards]
    return _run_readings(texts, rules) | _set_readings(texts, rules)


def meld_key(meld: Meld) -> Reading:
    """The oracle's reading for a real meld, to compare the two."""
    if isinstance(meld, Run):
        return ("run", meld.suit.value, meld.start, tuple(_text(c) for c in meld.cards))
    assert isinstance(meld, Group)
    return (
        "set",
        int(meld.rank),
        tuple((s.value, _text(c)) for s, c in zip(meld.suits, meld.cards)),
    )


def reading_in_order(reading: Reading, cards: Sequence[Card]) -> bool:
    """Whether ``reading`` is a run laid exactly in the order ``cards`` were given."""
    return reading[0] == "run" and reading[3] == tuple(_text(c) for c in cards)


def joker_targets(reading: Reading) -> list[str]:
    """The cards the jokers of a reading stand for, as text (any order)."""
    if reading[0] == "run":
        suit, start, order = reading[1], reading[2], reading[3]
        assert isinstance(suit, str) and isinstance(start, int) and isinstance(order, tuple)
        return [_card_text(start + i, suit) for i, c in enumerate(order) if c == "JK"]
    rank, slots = reading[1], reading[2]
    assert isinstance(rank, int) and isinstance(slots, tuple)
    return [_card_text(rank, s) for s, c in slots if c == "JK"]


__all__ = [
    "Reading",
    "expected_readings",
    "joker_targets",
    "laid_run_layouts",
    "meld_key",
    "oracle_readings",
    "reading_in_order",
]
