"""Candidate meld shapes, precomputed once per ruleset.

A *shape* is a meld up to the choice of physical copies: the set of natural
cards it uses (each at most once), how many jokers, its opening value and
whether it is a clean run. For optimisation only runs of 3 to 5 cards are
needed: a longer run without adjacent jokers splits into such pieces with
the same value, cleanliness and card use (SOLVER-NOTES.md). Variants that
allow adjacent jokers cannot rely on that split and get every run length.

Shapes that use the same cards and jokers keep only the reading worth the
most opening points (``5H 6H JK`` as 7H rather than 4H, R-O3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import NamedTuple, cast

import attrs

from rummylib._card import CARDS, _natural_index
from rummylib._card import SUITS as _SUITS
from rummylib.cards import JOKER, CardMultiset, Rank
from rummylib.melds import ACE_HIGH, Group, Meld, Run, position_value, rank_value
from rummylib.rules import Ruleset
from rummylib.solver._results import RulesCache
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings

JOKER_INDEX = 52
#: Longest run that still needs to be a candidate when runs may be split.
PIECE_MAX = 5
#: Search position of each natural card index: rank-major (the aces, then the twos, ...),
#: so the cards one choice touches lie within a few ranks of the card branched on, and
#: the memo sees few distinct states (the shape of a dynamic programme over ranks).
POS: tuple[int, ...] = tuple((c % 13) * 4 + c // 13 for c in range(52))
#: Suit-major positions (the card index itself): on (nearly) whole decks, where every
#: card can be placed, the first descent in this order fills whole suits at once.
SUIT_POS: tuple[int, ...] = tuple(range(52))
#: Rank-major positions from the top (the kings first, the aces last): some inputs whose
#: search gets lost among the low cards are settled at once from the other end.
REVERSED_POS: tuple[int, ...] = tuple(51 - POS[c] for c in range(52))
#: The search orders by name (see :func:`tables_for`).
ORDERS: dict[str, tuple[int, ...]] = {"rank": POS, "suit": SUIT_POS, "reversed": REVERSED_POS}


class Shape(NamedTuple):
    """A candidate meld: which naturals, how many jokers, what it is worth."""

    naturals: tuple[int, ...]  # card indices, ascending, distinct
    mask: int  # bit per natural card index
    jokers: int
    points: int  # opening value (R-V, O3): jokers by place, aces by place
    clean: bool  # a run with no joker (R-O2)
    is_run: bool
    key: int  # run: suit*16 + start; group: rank
    layout: tuple[int, ...]  # run: card index per position (52 = joker); group: suit index per slot
    joker_slots: tuple[bool, ...]  # per slot of layout: is it a joker

    @property
    def size(self) -> int:
        """Cards in the meld."""
        return len(self.naturals) + self.jokers

    @property
    def low(self) -> int:
        """Lowest natural card index."""
        return self.naturals[0]


def card_index_at(position: int, suit: int) -> int:
    """Card index of run position ``position`` (1-14) in suit ``suit`` (0-3)."""
    return _natural_index(suit, 1 if position == ACE_HIGH else position)


#: Melds already built, by shape (melds are immutable values, so answers share them); bounded.
_BUILT: dict[Shape, Meld] = {}
_BUILT_MAX = 8192


def build_meld(shape: Shape) -> Meld:
    """The :class:`~rummylib.melds.Meld` a shape stands for (built once, then shared)."""
    meld = _BUILT.get(shape)
    if meld is None:
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        meld = _BUILT[shape] = _new_meld(shape)
    return meld


def _new_meld(shape: Shape) -> Meld:
    if shape.is_run:
        suit, start = divmod(shape.key, 16)
        cards = tuple(JOKER if j else CARDS[c] for c, j in zip(shape.layout, shape.joker_slots))
        return Run(_SUITS[suit], start, cards)
    rank = Rank(shape.key)
    suits = tuple(_SUITS[s] for s in shape.layout)
    cards = tuple(JOKER if j else CARDS[_natural_index(s, shape.key)] for s, j in zip(shape.layout, shape.joker_slots))
    return Group(rank, cards, suits)


def run_shapes(rules: Ruleset, max_len: int, suit: int, *, max_jokers: int | None = None) -> Iterator[Shape]:
    """Every run reading of ``suit`` with 3 to ``max_len`` cards (each joker pattern)."""
    top = ACE_HIGH if rules.ace_high else 13
    jokers_allowed = rules.jokers if max_jokers is None else min(rules.jokers, max_jokers)
    for length in range(3, min(max_len, 13) + 1):
        for start in range(1, top - length + 2):
            positions = range(start, start + length)
            for pattern in range(1 << length):
                if pattern == (1 << length) - 1:
                    continue  # a meld needs a natural
                jokers = pattern.bit_count()
                if jokers > jokers_allowed:
                    continue
                if not rules.adjacent_jokers and pattern & (pattern >> 1):
                    continue
                layout = tuple(card_index_at(p, suit) for p in positions)
                slots = tuple(bool(pattern >> k & 1) for k in range(length))
                naturals = tuple(sorted(c for c, j in zip(layout, slots) if not j))
                mask = 0
                for c in naturals:
                    mask |= 1 << c
                points = sum(position_value(p) for p in positions)
                yield Shape(naturals, mask, jokers, points, jokers == 0, True, suit * 16 + start, layout, slots)


def group_shapes(rules: Ruleset, rank: int) -> Iterator[Shape]:
    """Every group of ``rank`` (3 or 4 cards, distinct suits, R-J2 joker limits)."""
    value = rank_value(Rank(rank))
    for size in (3, 4):
        limit = min(rules.group3_max_jokers if size == 3 else rules.group4_max_jokers, rules.jokers)
        for suit_set in range(1, 16):
            naturals_suits = [s for s in range(4) if suit_set >> s & 1]
            jokers = size - len(naturals_suits)
            if jokers < 0 or jokers > limit:
                continue
            missing = [s for s in range(4) if not suit_set >> s & 1][:jokers]
            layout = tuple(sorted(naturals_suits + missing))
            slots = tuple(s in missing for s in layout)
            naturals = tuple(_natural_index(s, rank) for s in naturals_suits)
            mask = 0
            for c in naturals:
                mask |= 1 << c
            yield Shape(naturals, mask, jokers, value * size, False, False, rank, layout, slots)


def _dedupe(shapes: Iterator[Shape]) -> list[Shape]:
    best: dict[tuple[int, int], Shape] = {}
    for shape in shapes:
        key = (shape.mask, shape.jokers)
        old = best.get(key)
        if old is None or shape.points > old.points:
            best[key] = shape
    return sorted(best.values(), key=lambda s: (-s.size, -s.points, s.naturals, s.jokers))


class Tables:
    """Candidate shapes filed by lowest search position, with the packing they use."""

    def __init__(self, rules: Ruleset, shapes: Iterable[Shape], pos: tuple[int, ...] = POS) -> None:
        self.rules = rules
        self.pos = pos
        self.card_at: tuple[int, ...] = tuple(sorted(range(52), key=lambda c: pos[c]))
        self.shapes: tuple[Shape, ...] = tuple(_dedupe(iter(shapes)))
        by_low: list[list[Shape]] = [[] for _ in range(52)]
        for shape in self.shapes:
            by_low[min(pos[c] for c in shape.naturals)].append(shape)
        self.by_low: tuple[tuple[Shape, ...], ...] = tuple(tuple(b) for b in by_low)
        # Field width of a packed count vector: counts up to rules.decks.
        self.width = max(1, rules.decks.bit_length())
        self.field = (1 << self.width) - 1
        self.ones = sum(1 << (self.width * i) for i in range(52))
        #: Per-objective search rows, filled lazily by the solvers (bounded: a few keys).
        self.extra: dict[str, object] = {}
        self.packed: tuple[tuple[tuple[int, Shape], ...], ...] = tuple(
            tuple((sum(1 << (self.width * pos[c]) for c in s.naturals), s) for s in row) for row in self.by_low
        )


def _rule_shapes(rules: Ruleset, max_len: int) -> Iterator[Shape]:
    for suit in range(4):
        yield from run_shapes(rules, max_len, suit)
    for rank in range(1, 14):
        yield from group_shapes(rules, rank)


def _hand_run_shapes(counts: Sequence[int], jokers: int, rules: Ruleset, max_len: int) -> Iterator[Shape]:
    """Run shapes whose naturals are all in ``counts``, with at most ``jokers`` jokers."""
    top = ACE_HIGH if rules.ace_high else 13
    for suit in range(4):
        for start in range(1, top - 1):
            stack: list[tuple[int, tuple[int, ...], tuple[bool, ...], int]] = [(start, (), (), 0)]
            while stack:
                pos, layout, slots, used = stack.pop()
                n = len(layout)
                if n >= 3 and not all(slots):
                    naturals = tuple(sorted(c for c, j in zip(layout, slots) if not j))
                    mask = 0
                    for c in naturals:
                        mask |= 1 << c
                    points = sum(position_value(p) for p in range(start, start + n))
                    yield Shape(naturals, mask, used, points, used == 0, True, suit * 16 + start, layout, slots)
                if n >= max_len or n >= 13 or pos > top:
                    continue
                index = card_index_at(pos, suit)
                if used < jokers and (rules.adjacent_jokers or not (slots and slots[-1])):
                    stack.append((pos + 1, (*layout, index), (*slots, True), used + 1))
                if counts[index]:
                    stack.append((pos + 1, (*layout, index), (*slots, False), used))


def hand_tables(counts: Sequence[int], jokers: int, rules: Ruleset, max_len: int, pos: tuple[int, ...] = POS) -> Tables:
    """Shapes built for one multiset (not cached): every run length the rules need, searched in ``pos`` order."""
    jokers = min(jokers, rules.jokers)
    shapes: list[Shape] = list(_hand_run_shapes(counts, jokers, rules, max_len))
    for rank in range(1, 14):
        for shape in group_shapes(rules, rank):
            if shape.jokers <= jokers and all(counts[c] for c in shape.naturals):
                shapes.append(shape)
    return Tables(rules, shapes, pos)


def _pieces_in(pos: tuple[int, ...]) -> RulesCache[Tables]:
    def build(rules: Ruleset) -> Tables:
        return Tables(rules, _rule_shapes(rules, PIECE_MAX), pos)

    return RulesCache(build)


_PIECES: dict[str, RulesCache[Tables]] = {name: _pieces_in(pos) for name, pos in ORDERS.items()}
_WHOLE: RulesCache[Tables] = RulesCache(lambda r: Tables(r, _rule_shapes(r, 13)), size=8)


def piece_tables(rules: Ruleset, *, order: str = "rank") -> Tables:
    """Shapes for optimisation questions: runs of 3 to 5 cards, and groups (cached per ruleset and order)."""
    return _PIECES[order](rules)


def full_tables(rules: Ruleset) -> Tables:
    """Shapes with every run length (straight rummy's one meld per turn); rules without jokers."""
    return _WHOLE(rules)


_WHOLE_NO_JOKERS: RulesCache[Tables] = RulesCache(
    lambda r: Tables(attrs.evolve(r, jokers=0), _rule_shapes(attrs.evolve(r, jokers=0), 13)), size=8
)


def tables_for(
    counts: Sequence[int],
    jokers: int,
    rules: Ruleset,
    *,
    whole_runs: bool = False,
    settings: SearchSettings = DEFAULT_SETTINGS,
    order: str | None = None,
) -> Tables:
    """The shapes a search on this multiset needs, searched in ``order`` (a key of :data:`ORDERS`).

    The cached per-ruleset tables where they suffice; otherwise (jokers side by
    side, where long runs do not split; or whole runs with jokers) shapes built
    from the multiset itself. Without ``order``, large inputs of the cached
    tables are searched suit-major and others rank-major
    (``suit_major_from``); whole-run tables are always rank-major.
    """
    if not whole_runs and not rules.adjacent_jokers:
        if order is None:
            order = "suit" if sum(counts) >= settings.suit_major_from else "rank"
        return piece_tables(rules, order=order)
    if whole_runs and (rules.jokers == 0 or jokers == 0) and not rules.adjacent_jokers:
        return _WHOLE_NO_JOKERS(rules) if rules.jokers else full_tables(rules)
    return hand_tables(counts, jokers, rules, 13, POS if order is None or whole_runs else ORDERS[order])


def leftover(counts: Sequence[int], shapes: Iterable[Shape]) -> CardMultiset:
    """The cards of ``counts`` that none of ``shapes`` uses (the shapes come from those cards)."""
    left = list(counts)
    for shape in shapes:
        for c in shape.naturals:
            left[c] -= 1
        left[52] -= shape.jokers
    return CardMultiset._trusted(tuple(left))


def build_melds(shapes: list[Shape], rules: Ruleset, *, mix_clean: bool = True) -> list[Meld]:
    """Build melds from shapes, joining runs that continue each other into one run.

    Pieces of a long run come back as that run (``mix_clean=False`` joins only
    runs that are both clean or both dirty, so no clean run is lost, R-O2).
    """
    runs: list[list[int]] = []  # [suit, start, end, clean] per joined run, with layout
    layouts: list[tuple[list[int], list[bool]]] = []
    others: list[tuple[int, Meld]] = []
    order: list[tuple[int, int]] = []  # (kind, index) in first-seen order
    for shape in sorted(shapes, key=lambda s: (not s.is_run, s.key, s.low)):
        if not shape.is_run:
            others.append((len(order), build_meld(shape)))
            order.append((1, len(others) - 1))
            continue
        suit, start = divmod(shape.key, 16)
        end = start + len(shape.layout) - 1
        for i, (rsuit, rstart, rend, rclean) in enumerate(runs):
            if rsuit != suit or rend + 1 != start or rend - rstart + 1 + len(shape.layout) > 13:
                continue
            if not mix_clean and bool(rclean) != shape.clean:
                continue
            lay, slots = layouts[i]
            if not rules.adjacent_jokers and slots[-1] and shape.joker_slots[0]:
                continue
            runs[i] = [rsuit, rstart, end, int(bool(rclean) and shape.clean)]
            lay.extend(shape.layout)
            slots.extend(shape.joker_slots)
            break
        else:
            runs.append([suit, start, end, int(shape.clean)])
            layouts.append((list(shape.layout), list(shape.joker_slots)))
            order.append((0, len(runs) - 1))
    melds: list[Meld] = []
    for kind, index in order:
        if kind == 1:
            melds.append(others[index][1])
        else:
            suit, start = runs[index][0], runs[index][1]
            lay, slots = layouts[index]
            melds.append(_joined_run(suit, start, tuple(lay), tuple(slots)))
    return melds


#: Runs joined from pieces, by suit, start and layout (values, so answers share them); bounded as ``_BUILT``.
_JOINED: dict[tuple[int, int, tuple[int, ...], tuple[bool, ...]], Run] = {}


def _joined_run(suit: int, start: int, layout: tuple[int, ...], joker_slots: tuple[bool, ...]) -> Run:
    """The run of ``layout`` (card index per position; ``joker_slots`` marks jokers) from ``start``, built once."""
    key = (suit, start, layout, joker_slots)
    run = _JOINED.get(key)
    if run is None:
        if len(_JOINED) >= _BUILT_MAX:
            _JOINED.clear()
        cards = tuple(JOKER if j else CARDS[c] for c, j in zip(layout, joker_slots))
        run = _JOINED[key] = Run(_SUITS[suit], start, cards)
    return run


def sum_at(a: int, values: tuple[int, ...]) -> int:
    """The sum of ``values`` at the positions of the bits of ``a``."""
    total = 0
    while a:
        low = a & -a
        total += values[low.bit_length() - 1]
        a ^= low
    return total


def packed_counts(x: int, width: int, field: int) -> list[tuple[int, int]]:
    """The positions a packed count vector ``x`` holds (``width`` bits a position), each with its count, in order."""
    out: list[tuple[int, int]] = []
    position = 0
    while x:
        count = x & field
        if count:
            out.append((position, count))
        x >>= width
        position += 1
    return out


def packed_without(x: int, jokers: int, positions: tuple[int, ...], width: int) -> tuple[int, int]:
    """Packed naturals ``x`` (``width`` bits a position) and ``jokers``, less the cards at ``positions`` (52: a joker)."""
    for c in positions:
        if c == 52:
            jokers -= 1
        else:
            x -= 1 << (width * c)
    return x, jokers


def shape_getters(tables: Tables, shapes: Iterable[Shape]) -> list[Callable[[Sequence[int]], tuple[int, ...]]]:
    """Per shape, what reads its cards' values off a list by ``tables``' search position (52 once per joker).

    ``sum(get(values))`` is the shape's total. Each getter is kept in ``tables`` (by
    ``id``: the tables hold the shapes); a shape has three cards or more, so it gives a tuple.
    """
    known = tables.extra.get("getters")
    if not isinstance(known, dict):
        known = tables.extra["getters"] = {}
    kept = cast(dict[int, Callable[[Sequence[int]], tuple[int, ...]]], known)
    pos = tables.pos
    out = []
    for shape in shapes:
        get = kept.get(id(shape))
        if get is None:
            get = kept[id(shape)] = itemgetter(*[pos[c] for c in shape.naturals], *[JOKER_INDEX] * shape.jokers)
        out.append(get)
    return out
