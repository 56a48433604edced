"""Small fast helpers on hands (count vectors) for the hot path of apply."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rummylib.cards import Card, CardMultiset

T = TypeVar("T")


def add_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` with one more ``card``."""
    counts = list(hand._counts)  # the slots themselves: no property or __len__ call on the hot path
    counts[card.index] += 1
    return CardMultiset._trusted(tuple(counts), hand._len + 1)


def remove_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` less one ``card`` (the caller checked it is there)."""
    counts = list(hand._counts)
    counts[card.index] -= 1
    return CardMultiset._trusted(tuple(counts), hand._len - 1)


def remove_cards(hand: CardMultiset, cards: Iterable[Card]) -> CardMultiset | None:
    """``hand`` less ``cards``, or ``None`` if it does not hold them all."""
    counts = list(hand.counts)
    for card in cards:
        counts[card.index] -= 1
        if counts[card.index] < 0:
            return None
    return CardMultiset._trusted(tuple(counts))


def replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])
