"""Small fast helpers on hands (count vectors) for the hot path of apply."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rummylib.cards import Card, CardMultiset, OpenMultiset

_NEW = object.__new__

T = TypeVar("T")


def add_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` with one more ``card``."""
    counts = list(hand._counts)
    counts[card.index] += 1
    new: OpenMultiset = _NEW(OpenMultiset)  # CardMultiset._trusted, inline: one Python call less per move
    new._counts = tuple(counts)
    new._len = hand._len + 1
    new._hash = None
    new.__class__ = CardMultiset  # type: ignore[assignment]
    return new


def remove_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` less one ``card`` (the caller checked it is there)."""
    counts = list(hand._counts)
    counts[card.index] -= 1
    new: OpenMultiset = _NEW(OpenMultiset)  # as add_card
    new._counts = tuple(counts)
    new._len = hand._len - 1
    new._hash = None
    new.__class__ = CardMultiset  # type: ignore[assignment]
    return new


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
