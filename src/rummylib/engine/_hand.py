"""Small fast helpers on hands (count vectors) for the hot path of apply.

Each new multiset is built as :class:`~rummylib.cards.OpenMultiset` documents
(a plain ``OpenMultiset()``, its three slots, then its class), without the
classmethod call of ``CardMultiset._trusted``; each copy of a tuple goes
through one list (``[*items]``), where star-unpacking two slices builds four
objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rummylib.cards import Card, CardMultiset, OpenMultiset

T = TypeVar("T")


def add_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` with one more ``card``."""
    counts = [*hand._counts]  # the slots themselves: no property or __len__ call on the hot path
    counts[card.index] += 1
    new: CardMultiset = OpenMultiset()
    new._counts = tuple(counts)
    new._len = hand._len + 1
    new._hash = None
    new.__class__ = CardMultiset
    return new


def remove_card(hand: CardMultiset, card: Card) -> CardMultiset:
    """``hand`` less one ``card`` (the caller checked it is there)."""
    counts = [*hand._counts]
    counts[card.index] -= 1
    new: CardMultiset = OpenMultiset()
    new._counts = tuple(counts)
    new._len = hand._len - 1
    new._hash = None
    new.__class__ = CardMultiset
    return new


def remove_cards(hand: CardMultiset, cards: Iterable[Card]) -> CardMultiset | None:
    """``hand`` less ``cards``, or ``None`` if it does not hold them all."""
    counts = [*hand._counts]
    size = hand._len
    for card in cards:
        counts[card.index] -= 1
        if counts[card.index] < 0:
            return None
        size -= 1
    new: CardMultiset = OpenMultiset()
    new._counts = tuple(counts)
    new._len = size
    new._hash = None
    new.__class__ = CardMultiset
    return new


def replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    out = [*items]
    out[index] = value
    return tuple(out)
