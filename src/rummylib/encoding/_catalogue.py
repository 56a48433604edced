"""The fixed catalogue of melds a ruleset allows, ranked without listing it.

Every meld value the rules accept (RULES.md M1-M4, J1-J3) gets one index:
runs first (by suit, then length, then start, then joker pattern), then
groups (by rank, then shape: the suits it covers and which slots are
jokers). A joker's declaration is part of the value (a run's joker stands for
its position, a group's for its slot's suit), so each reading is its own
index. Ranking is arithmetic over small tables (joker patterns per length),
so neither direction ever builds the whole list.
"""

from __future__ import annotations

import itertools
from typing import Final, NamedTuple

from rummylib._card import SUITS as _SUITS
from rummylib._card import natural
from rummylib.cards import JOKER, Card, Rank, Suit
from rummylib.melds import ACE_HIGH, Group, Meld, Run, card_at_position
from rummylib.rules import Ruleset

_RANKS: Final = tuple(Rank)
#: The longest run (A..K or 2..A, R-M3).
MAX_RUN: Final = 13


def _patterns(length: int, rules: Ruleset) -> tuple[int, ...]:
    """Joker slot patterns (bit i: slot i is a joker) a run of ``length`` may have, ascending."""
    out = []
    most = min(rules.jokers, length - 1)  # a meld needs a real card
    for mask in range(1 << length):
        if mask.bit_count() > most:
            continue
        if not rules.adjacent_jokers and mask & (mask >> 1):
            continue  # R-J3
        out.append(mask)
    return tuple(out)


class _GroupShape(NamedTuple):
    suits: tuple[Suit, ...]
    jokers: tuple[bool, ...]


_ShapeKey = tuple[tuple[Suit, ...], tuple[bool, ...]]


def _group_shapes(rules: Ruleset) -> tuple[_GroupShape, ...]:
    shapes = []
    for size, limit in ((3, rules.group3_max_jokers), (4, rules.group4_max_jokers)):
        most = min(limit, rules.jokers, size - 1)
        for suits in itertools.combinations(_SUITS, size):
            for mask in range(1 << size):
                if mask.bit_count() <= most:
                    shapes.append(_GroupShape(suits, tuple(bool(mask >> i & 1) for i in range(size))))
    return tuple(shapes)


class MeldCatalogue:
    """Every meld ``rules`` allows, each with a fixed index in ``range(size)``.

    Attributes:
        size: how many melds the catalogue holds.
        run_count: how many of them are runs (indices ``0 .. run_count - 1``).
    """

    def __init__(self, rules: Ruleset) -> None:
        self._top = ACE_HIGH if rules.ace_high else 13
        self._patterns: dict[int, tuple[int, ...]] = {}
        self._pattern_index: dict[int, dict[int, int]] = {}
        self._length_base: dict[int, int] = {}
        per_suit = 0
        for length in range(3, MAX_RUN + 1):
            starts = self._top - length + 1
            if starts < 1:
                continue
            pats = _patterns(length, rules)
            self._patterns[length] = pats
            self._pattern_index[length] = {m: i for i, m in enumerate(pats)}
            self._length_base[length] = per_suit
            per_suit += starts * len(pats)
        self._per_suit = per_suit
        self.run_count: int = 4 * per_suit
        self._shapes = _group_shapes(rules)
        self._shape_index = {shape: i for i, shape in enumerate(self._shapes)}
        self.size: int = self.run_count + len(_RANKS) * len(self._shapes)

    def _tables(
        self,
    ) -> tuple[tuple[int, int, dict[int, int], dict[int, dict[int, int]]], tuple[int, dict[_ShapeKey, int]]]:
        """The ranking's tables, for the environments' listing (``encoding._listing``): the runs' (top, ids per
        suit, first id per length, pattern index per length) and the groups' (run count, index per shape)."""
        runs = (self._top, self._per_suit, self._length_base, self._pattern_index)
        return runs, (self.run_count, {(s.suits, s.jokers): i for s, i in self._shape_index.items()})

    def index(self, meld: Meld) -> int | None:
        """The index of ``meld``, or ``None`` when the rules do not allow it."""
        if isinstance(meld, Run):
            return self._run_index(meld)
        if isinstance(meld, Group):
            return self._group_index(meld)
        return None

    def _run_index(self, run: Run) -> int | None:
        length = len(run.cards)
        pats = self._pattern_index.get(length)
        if pats is None or run.end > self._top:
            return None
        mask = 0
        for i, card in enumerate(run.cards):
            if card.is_joker:
                mask |= 1 << i
        offset = pats.get(mask)
        if offset is None:
            return None
        base = run.suit.index * self._per_suit + self._length_base[length]
        return base + (run.start - 1) * len(pats) + offset

    def _group_index(self, group: Group) -> int | None:
        shape = _GroupShape(group.suits, tuple(c.is_joker for c in group.cards))
        offset = self._shape_index.get(shape)
        if offset is None:
            return None
        return self.run_count + (int(group.rank) - 1) * len(self._shapes) + offset

    def meld(self, index: int) -> Meld:
        """The meld at ``index`` (``0 <= index < size``, checked by the caller)."""
        if index < self.run_count:
            return self._run(index)
        rank_no, offset = divmod(index - self.run_count, len(self._shapes))
        shape = self._shapes[offset]
        rank = _RANKS[rank_no]
        cards = tuple(JOKER if j else natural(int(rank), s) for s, j in zip(shape.suits, shape.jokers))
        return Group(rank, cards, shape.suits)

    def _run(self, index: int) -> Run:
        suit_no, rest = divmod(index, self._per_suit)
        length = max(n for n, base in self._length_base.items() if base <= rest)
        pats = self._patterns[length]
        start_no, offset = divmod(rest - self._length_base[length], len(pats))
        suit, start, mask = _SUITS[suit_no], start_no + 1, pats[offset]
        cards: list[Card] = []
        for i in range(length):
            cards.append(JOKER if mask >> i & 1 else card_at_position(start + i, suit))
        return Run(suit, start, tuple(cards))
