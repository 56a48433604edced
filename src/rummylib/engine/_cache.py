"""Small bounded caches of the solver answers the engine asks about one hand again and again.

Within a turn the same hand is asked about by the draw listing (taking the
discard), the play listing and ``apply``'s own checks: each answer is kept
for a few hands, keyed on the hand's counts and the ruleset's identity.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rummylib.cards import CardMultiset
from rummylib.melds import Meld
from rummylib.rules import Ruleset
from rummylib.solver import can_open, find_melds

__all__ = ["clear", "hand_melds", "hand_opens"]

T = TypeVar("T")
_SIZE = 256


class _Cache(dict[tuple[int, tuple[int, ...]], tuple[Ruleset, object]]):
    def __init__(self) -> None:
        super().__init__()
        _ALL.append(self)  # so clear() forgets the caches of other engine modules too

    def answer(self, hand: CardMultiset, rules: Ruleset, compute: Callable[[], T]) -> T:
        key = (id(rules), hand.counts)
        found = self.get(key)
        if found is not None and found[0] is rules:
            return found[1]  # type: ignore[return-value]
        if len(self) >= _SIZE:
            self.clear()
        value = compute()
        self[key] = (rules, value)
        return value


_ALL: list[_Cache] = []
_MELDS = _Cache()
_OPENS = _Cache()


def hand_melds(hand: CardMultiset, rules: Ruleset) -> tuple[Meld, ...]:
    """Every distinct meld of ``hand`` (``find_melds``, duplicates dropped), cached."""
    return _MELDS.answer(hand, rules, lambda: tuple(dict.fromkeys(find_melds(hand, rules))))


def hand_opens(hand: CardMultiset, rules: Ruleset) -> bool:
    """``can_open(hand, rules)``, cached."""
    return _OPENS.answer(hand, rules, lambda: can_open(hand, rules))


def clear() -> None:
    """Forget every cached answer (benchmarks measure a cold listing)."""
    for cache in _ALL:
        cache.clear()
