"""Small bounded caches of the solver answers the engine asks about one hand again and again.

Within a turn the same hand is asked about by the draw listing (taking the
discard), the play listing and ``apply``'s own checks: each answer is kept
for a few hands, keyed on the hand's counts and the ruleset's identity.

The go-out question (milliseconds when the screens pass it) is kept too,
keyed on the table's melds as a multiset: whether a hand can go out does not
depend on the order the melds were laid in. The draw listing asks it for
taking the discard and ``apply`` asks it again; each meld listed while an
opening goes out asks it for the melds left, and so does the next listing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from rummylib.cards import Card, CardMultiset
from rummylib.melds import Meld
from rummylib.rules import Ruleset
from rummylib.solver import can_open
from rummylib.solver._layoffs import SWAPPED
from rummylib.solver._queries import can_go_out, clear_candidates, hand_candidates

__all__ = ["clear", "goes_out", "hand_melds", "hand_opens", "register"]

T = TypeVar("T")


class _Clearable(Protocol):
    def clear(self) -> None: ...


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
#: Other modules' caches (anything with ``clear()``), forgotten by :func:`clear` too.
_OTHERS: list[_Clearable] = []


def register(cache: _Clearable) -> None:
    """Have :func:`clear` forget ``cache`` too (a module's own small cache)."""
    _OTHERS.append(cache)


_MELDS = _Cache()
_OPENS = _Cache()


def hand_melds(hand: CardMultiset, rules: Ruleset) -> tuple[Meld, ...]:
    """Every distinct meld of ``hand`` (``find_melds``' melds, in its order), cached."""
    return _MELDS.answer(hand, rules, lambda: tuple(c.meld for c in hand_candidates(hand.counts, rules)))


def hand_opens(hand: CardMultiset, rules: Ruleset) -> bool:
    """``can_open(hand, rules)``, cached."""
    return _OPENS.answer(hand, rules, lambda: can_open(hand, rules))


_GO_OUT: dict[tuple[object, ...], tuple[Ruleset, tuple[Meld, ...], bool]] = {}


def _table_key(table: tuple[Meld, ...]) -> tuple[Meld, ...]:
    # A canonical order of the multiset (ties of hash keep their order: at worst a miss, never a wrong hit).
    return tuple(sorted(table, key=hash))


def goes_out(
    hand: CardMultiset,
    table: tuple[Meld, ...],
    rules: Ruleset,
    *,
    opened: bool,
    open_with: Card | None = None,
    opens: bool = False,
) -> bool:
    """The solver's ``can_go_out`` on the engine's checked values, cached (keyed on the table as a multiset).

    ``opens`` only lets the solver skip a test it implies, so it is no part of the key.
    """
    melds = _table_key(table)
    key = (id(rules), hand.counts, melds, opened, open_with)
    found = _GO_OUT.get(key)
    if found is not None and found[0] is rules:
        return found[2]
    if len(_GO_OUT) >= _SIZE:
        _GO_OUT.clear()
    answer = can_go_out(hand, table, rules, opened=opened, open_with=open_with, opens=opens)
    _GO_OUT[key] = (rules, melds, answer)  # the melds are held, so the key's hashes stay theirs
    return answer


register(SWAPPED)  # the go-out search's table melds with jokers swapped out


def clear() -> None:
    """Forget every cached answer (benchmarks measure a cold listing)."""
    for cache in _ALL:
        cache.clear()
    for other in _OTHERS:
        other.clear()
    _GO_OUT.clear()
    clear_candidates()
