"""Result values of the solver, and checks of its inputs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import attrs

from rummylib.cards import CardMultiset, OpenMultiset, as_multiset, check_in_deck
from rummylib.melds import Meld
from rummylib.rules import Ruleset, _check_rules

__all__ = ["Opening", "Partition"]

T = TypeVar("T")


def _meld_tuple(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    return tuple(melds)


@attrs.frozen
class Opening:
    """A legal remik opening (R-O2): the melds to lay, what they are worth, what stays.

    Attributes:
        melds: the opening melds, disjoint, in a canonical order.
        points: their total opening value (R-V, O3).
        leftover: the cards of the input not in any of the melds.
        penalty: the penalty value of ``leftover`` (R-V).
    """

    melds: tuple[Meld, ...] = attrs.field(converter=_meld_tuple)
    points: int
    leftover: CardMultiset
    penalty: int

    @property
    def cards_placed(self) -> int:
        """How many cards the melds hold."""
        return sum(len(m) for m in self.melds)


@attrs.frozen
class Partition:
    """Disjoint melds leaving the least penalty in hand (gin rummy's deadwood).

    Attributes:
        melds: the melds, disjoint, in a canonical order.
        leftover: the cards not in any meld.
        penalty: the penalty value of ``leftover`` (R-V), the least possible.
    """

    melds: tuple[Meld, ...] = attrs.field(converter=_meld_tuple)
    leftover: CardMultiset
    penalty: int


class OpenPartition(Partition):
    """A :class:`Partition` under construction, as :class:`~rummylib.cards.OpenMultiset` (internal).

    ``o = OpenPartition()``, the three fields assigned, then ``o.__class__ =
    Partition``: no converter runs (the solver's melds are a tuple already).
    """

    __slots__ = ()
    __init__ = object.__init__
    __setattr__ = object.__setattr__  # with __delattr__, both object's: CPython's generic setter
    __delattr__ = object.__delattr__
    melds: tuple[Meld, ...]  # Partition's slots, writable here
    leftover: CardMultiset
    penalty: int


def trusted_partition(melds: tuple[Meld, ...], leftover: CardMultiset, penalty: int) -> Partition:
    """A :class:`Partition` from values the solver has built correctly (no conversion; internal)."""
    new: OpenPartition = OpenPartition()
    new.melds = melds
    new.leftover = leftover
    new.penalty = penalty
    new.__class__ = Partition  # type: ignore[assignment]  # the same layout: from now on a Partition
    return new


def counted_partition(melds: tuple[Meld, ...], counts: tuple[int, ...], size: int, penalty: int) -> Partition:
    """``trusted_partition(melds, CardMultiset._trusted(counts, size), penalty)`` in one call (internal).

    The small-hand paths answer in a few microseconds, of which each Python call is a noticeable part.
    """
    left: OpenMultiset = OpenMultiset()
    left._counts = counts
    left._len = size
    left._hash = None
    left.__class__ = CardMultiset  # type: ignore[assignment]  # the same layout: from now on a CardMultiset
    new: OpenPartition = OpenPartition()
    new.melds = melds
    new.leftover = left
    new.penalty = penalty
    new.__class__ = Partition  # type: ignore[assignment]
    return new


#: Return ``rules`` if it is a :class:`Ruleset`, else raise :class:`RulesetError` (the rules layer's one check).
check_rules = _check_rules


def prepare(cards: object, rules: object, what: str = "cards") -> tuple[CardMultiset, Ruleset]:
    """Normalise the input cards and check they fit in the ruleset's deck."""
    checked = check_rules(rules)
    ms = as_multiset(cards, what)
    counts = ms.counts
    if max(counts[:52]) > checked.decks or counts[52] > checked.jokers:
        check_in_deck(ms, checked, what)  # raises, naming the cards
    return ms, checked


#: No value built yet (a value may be anything, None too).
_MISSING: Any = object()


class RulesCache(Generic[T]):
    """A small cache of values built from a ruleset: found by identity, else by equality.

    Identity is the fast path (hashing a Ruleset is slow). An equal ruleset
    that is another object (a state read back from JSON, each environment's
    own copy) finds the value built for the first by one equality test per
    distinct ruleset held, and is then known by identity too; so a value is
    built once per distinct ruleset, however many copies take turns. Holds at
    most ``size`` distinct rulesets and ``4 * size`` identities; each part is
    cleared when full, so it never grows.
    """

    def __init__(self, build: Callable[[Ruleset], T], size: int = 16) -> None:
        self.build = build
        self.size = size
        #: ``id(rules)`` to the ruleset (held, so the id stays its own) and its value.
        self.entries: dict[int, tuple[Ruleset, T]] = {}
        #: One ruleset and value per distinct ruleset (by equality).
        self.distinct: list[tuple[Ruleset, T]] = []

    def __call__(self, rules: Ruleset) -> T:
        hit = self.entries.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        return self._miss(rules)

    def _miss(self, rules: Ruleset) -> T:
        value = next((v for known, v in self.distinct if known == rules), _MISSING)
        if value is _MISSING:
            value = self.build(rules)
            if len(self.distinct) >= self.size:
                self.distinct.clear()
            self.distinct.append((rules, value))
        if len(self.entries) >= 4 * self.size:
            self.entries.clear()
        self.entries[id(rules)] = (rules, value)
        return value
