"""The search priced by the linear relaxation: bounds and first covers from the LP.

The packing programme (one column per candidate meld that fits, one row per
card kind present and one for the jokers) is solved by
:func:`~rummylib.solver._lp.solve_lp`. Its dual prices become the potential
of each card (:func:`tightened`): a far stronger bound than each card's own
best value once there are a few dozen cards and jokers, since the relaxation
is usually within a point or two of the optimum. Its primal values order the
candidates (the melds it uses are tried first) and guide :func:`dive`, which
fixes the melds the relaxation uses whole and solves again on what is left,
to find a first cover on large inputs where depth-first search alone wanders.

Nothing here may cost exactness: prices are checked against every candidate
in integer arithmetic, and a first cover is only kept if the exact search,
asked for anything better, finds nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil
from typing import NamedTuple, cast

from rummylib.solver._hunt import hunt
from rummylib.solver._lp import Warm, solve_lp
from rummylib.solver._search import NEG, Cover, Entry, cards_in
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._simplex import _Simplex
from rummylib.solver._tables import POS, Shape, Tables, shape_getters

__all__ = ["SCALE", "Part", "Relaxed", "Split", "dive", "first_cover", "fixed", "tightened", "wants_lp"]


def wants_lp(size: int, settings: SearchSettings = DEFAULT_SETTINGS) -> bool:
    """Whether a search of ``size`` cards (jokers included) should get the LP's prices (:func:`tightened`)."""
    return size >= settings.lp_from


def first_cover(
    cover: Cover,
    tables: Tables,
    x: int,
    j: int,
    need: int,
    floor: int,
    unit: int,
    size: int,
    *,
    deep: bool = True,
    dives: bool = True,
) -> tuple[int, list[Shape]] | None:
    """A first cover worth more than ``floor`` for the exact search to prove best, or ``None``.

    Only inputs of ``hunt_from`` cards or more (the cover's settings) get one
    (measured: below it the exact search alone is as fast): the discrepancy
    search along the relaxation's melds (:func:`~rummylib.solver._hunt.hunt`), then :func:`dive`
    (without ``deep``, only its shallow dive: each round solves a programme; without
    ``dives``, none).
    """
    settings = cover.settings
    if size < settings.hunt_from:
        return None
    found = hunt(cover, x, j, need, floor, unit, settings.hunt_budget)
    if found is None and dives:
        found = dive(cover, tables, x, j, need, floor, unit, settings.trial_budget, deep=deep)
    return found


def _program(
    cover: Cover, tables: Tables, x: int, j: int
) -> tuple[dict[int, int], list[int], list[tuple[tuple[int, int], ...]], list[int], list[Entry]]:
    """The packing programme of the candidates that fit in ``x`` and ``j`` jokers.

    Returns the row of each search position present, the capacities (the
    joker row last), the columns, their gains and the entries they stand for.
    """
    w = cover.w
    field = cover.field
    rowof: dict[int, int] = {}
    capacity: list[int] = []
    p = cover.presence(x)
    absent = ~p
    while p:
        bit = p & -p
        p ^= bit
        shift = bit.bit_length() - 1
        rowof[shift // w] = len(capacity)
        capacity.append((x >> shift) & field)
    joker_row = len(capacity)
    capacity.append(j)
    pos = tables.pos
    columns: list[tuple[tuple[int, int], ...]] = []
    gains: list[int] = []
    used: list[Entry] = []
    for position in rowof:
        for entry in cover.rows[position]:
            if entry.jokers > j or entry.packed & absent:
                continue
            column = tuple((rowof[pos[c]], 1) for c in entry.shape.naturals)
            if entry.jokers:
                column += ((joker_row, entry.jokers),)
            columns.append(column)
            gains.append(entry.gain)
            used.append(entry)
    return rowof, capacity, columns, gains, used


def _canonical(
    tables: Tables, rowof: dict[int, int], entries: list[Entry], keep: bool, use: dict[int, float] | None = None
) -> tuple[list[int], list[tuple[float, ...]]]:
    """The order :func:`~rummylib.solver._lp.solve_lp` solves a programme of :func:`_program` in, whatever the search's.

    Rows by rank-major position (:data:`~rummylib.solver._tables.POS`), then the
    jokers' and the kept cards' (``keep``); columns as the rank-major tables file
    their shapes (by lowest position, then as ``Tables`` sorts them; with ``use``,
    what an earlier relaxation used of each shape, the most used first within a
    lowest position, as :func:`tightened` files them). Searches of
    one input in several orders (``_opening``) then solve one programme, not one
    per order, and get the same prices (measured: 70 cards of seed 175 of
    ``worst.py`` solved 15 programmes, of which 7 repeated in another order).
    Each shape's key is kept in ``tables`` (by ``id``: the tables hold the shapes).
    """
    labels = [0] * (len(rowof) + 1 + keep)
    for position, row in rowof.items():
        labels[row] = POS[tables.card_at[position]]
    labels[len(rowof)] = 52
    if keep:
        labels[-1] = 53
    known = tables.extra.get("canonical")
    if not isinstance(known, dict):
        known = tables.extra["canonical"] = {}
    shape_keys = cast(dict[int, tuple[int, ...]], known)
    keys: list[tuple[float, ...]] = []
    for entry in entries:
        shape = entry.shape
        key = shape_keys.get(id(shape))
        if key is None:
            low = min(POS[c] for c in shape.naturals)
            key = shape_keys[id(shape)] = (low, -shape.size, -shape.points, *shape.naturals, -1, shape.jokers)
        keys.append(key if use is None else (key[0], -use.get(id(shape), 0.0), *key[1:]))
    return labels, keys


class Split(NamedTuple):
    """How an objective splits into the part the LP prices and an exact remainder.

    A shape's gain is ``priced(shape) * fine + rest(shape)``, where the rest of
    any set of cards is below ``fine``: for the opening, points (priced) over
    cards placed and penalty (the rest); for the least deadwood, the penalty
    alone (``fine`` 1, no rest). The search then floors the priced part of each
    bound to a whole number (the priced part of a gain is an integer), which
    fractional LP prices need to be strong.
    """

    priced: Callable[[Shape], int]
    rest: Callable[[Shape], int]
    fine: int
    plain: tuple[int, ...]  # per card index (joker 52): the priced part's own bound
    rest_potential: tuple[int, ...]  # per card index (joker 52): the rest's bound


#: Prices are rounded up to multiples of 1 / SCALE (LP prices are thirds, quarters, ...).
SCALE = 840


def tightened(
    cover: Cover, tables: Tables, x: int, j: int, split: Split, keep: int = 0, kind: type[Cover] = Cover
) -> Cover:
    """A search over the same candidates with the LP's dual prices as potential.

    Gains become ``SCALE * priced * fine + rest``; each card's potential is its
    price rounded up to a multiple of ``1 / SCALE`` (times ``SCALE * fine``) plus
    its bound on the rest. Prices are checked against every candidate in exact
    integer arithmetic; a candidate whose priced part exceeds its cards' prices
    (rounding, or an LP stopped early) raises a price until it is covered. So
    the potential bounds every subtree, as the search needs. A card's plain
    bound is used instead if it bounds the whole input better. The returned
    search, a ``kind`` of :class:`Cover`, floors the priced part of its bounds (see :class:`Split`).
    """
    rowof, capacity, columns, _, entries = _program(cover, tables, x, j)
    priced = [split.priced(entry.shape) for entry in entries]
    joker_row = len(capacity) - 1
    if keep:
        # At most (cards - keep) cards are laid: one more row, every column uses its size.
        # Its price is added to every card's; the search charges it back per card kept.
        capacity = [*capacity, sum(capacity) - keep]
        columns = [(*col, (joker_row + 1, sum(n for _, n in col))) for col in columns]
    order = _canonical(tables, rowof, entries, bool(keep))
    prices, used = solve_lp(columns, [float(v) for v in priced], capacity, canonical=order)
    size_price = max(0.0, prices[joker_row + 1]) if keep else 0.0
    program = (rowof, capacity, entries, priced, joker_row)
    return _potential(cover, tables, j, split, kind, program, prices, used, size_price)


def _potential(
    cover: Cover,
    tables: Tables,
    j: int,
    split: Split,
    kind: type[Cover],
    program: tuple[dict[int, int], list[int], list[Entry], list[int], int],
    prices: list[float],
    used: list[float],
    size_price: float,
) -> Cover:
    """The search of :func:`tightened` from the programme's answer: prices made whole, checked and repaired."""
    entries = program[2]
    potential = _checked(tables, j, split, program, prices, size_price)
    rows = _reordered(cover.rows, [-u for u in used], entries, split, potential, tables)
    relaxed_use = dict(zip([id(entry.shape) for entry in entries], used))
    return kind(tables, rows, potential, cover.settings, fine=split.fine, scale=SCALE, relaxed_use=relaxed_use)


def _checked(
    tables: Tables,
    j: int,
    split: Split,
    program: tuple[dict[int, int], list[int], list[Entry], list[int], int],
    prices: list[float],
    size_price: float,
) -> list[int]:
    """The potential of :func:`_potential`: ``prices`` made whole, checked on every candidate and repaired."""
    rowof, capacity, entries, priced, joker_row = program
    pos = tables.pos
    card_at = tables.card_at
    # Integer prices in units of 1 / SCALE, by search position (joker last).
    units = [0] * 53
    for position, i in rowof.items():
        units[position] = max(0, ceil((prices[i] + size_price) * SCALE - 1e-6))
    units[52] = max(0, ceil((prices[joker_row] + size_price) * SCALE - 1e-6)) if j else 0
    getters = shape_getters(tables, [entry.shape for entry in entries])
    shorts = [value * SCALE - sum(get(units)) for value, get in zip(priced, getters)]
    first = next((k for k, short in enumerate(shorts) if short > 0), len(entries))
    for entry, value, get in zip(entries[first:], priced[first:], getters[first:]):
        short = value * SCALE - sum(get(units))  # those before ``first`` are covered: no price changed yet
        if short > 0:  # repair: raise one price so this candidate is covered
            if entry.jokers:
                units[52] += -(-short // entry.jokers)
            else:
                units[pos[entry.shape.naturals[0]]] += short
    counts = [(position, capacity[i]) for position, i in rowof.items()]
    plain = [SCALE * split.plain[card_at[c]] for c in range(52)] + [SCALE * split.plain[52]]
    if sum(units[c] * n for c, n in counts) + j * units[52] > sum(plain[c] * n for c, n in counts) + j * plain[52]:
        units = plain  # the simplex stopped short: the plain bound is the better one
    fine = split.fine
    potential = [units[c] * fine + split.rest_potential[card_at[c]] for c in range(52)]
    potential.append(units[52] * fine + split.rest_potential[52])
    return potential


class Relaxed:
    """The programme of an input solved once; parts of the input are priced from its optimal basis.

    A part (fewer cards: a leftover taken out) has the same candidates that
    fit it and a capacity no larger, so its programme starts from the whole
    one's basis (:class:`~rummylib.solver._lp.Warm`, a few dual simplex pivots
    instead of hundreds). The search it returns is that of :func:`tightened`
    on the part (``keep`` 0): the prices are checked and repaired the same
    way, so its potential bounds every subtree whatever the simplex returned.
    """

    def __init__(self, cover: Cover, tables: Tables, x: int, j: int, split: Split) -> None:
        self.cover, self.tables, self.split = cover, tables, split
        self.rowof, self.capacity, columns, _, self.entries = _program(cover, tables, x, j)
        self.priced = [split.priced(entry.shape) for entry in self.entries]
        self.warm = Warm(columns, [float(v) for v in self.priced], self.capacity)

    def tightened(self, x: int, j: int, kind: type[Cover] = Cover) -> Cover:
        """:func:`tightened` of the part ``x``, ``j`` of the input (``keep`` 0), from the whole programme's basis."""
        search, _ = self.advance(self.part(x, j), x, j, kind)
        return search

    def part(self, x: int, j: int) -> Part:
        """The programme of the part ``x``, ``j`` of the input, not solved yet (see :meth:`advance`)."""
        capacity = self.capacity_of(x, j)
        return Part(capacity, self.warm.start(capacity))

    def capacity_of(self, x: int, j: int) -> list[int]:
        """The programme's capacity for the part ``x``, ``j`` of the input: each card's count, jokers last."""
        w, field = self.cover.w, self.cover.field
        capacity = [0] * len(self.capacity)
        for position, i in self.rowof.items():
            capacity[i] = (x >> (w * position)) & field
        capacity[-1] = j
        return capacity

    def advance(
        self, part: Part, x: int, j: int, kind: type[Cover] = Cover, enough: float | None = None
    ) -> tuple[Cover, bool]:
        """The search of :meth:`tightened` on ``part`` (of ``x``, ``j``), and whether its programme is solved.

        With ``enough`` (in the priced part's units), the dual simplex may stop
        early, at the first prices that bound the part by ``enough`` or less
        (each step's prices are dual feasible: see :meth:`Warm.resume`): then the
        search returned is a plain :class:`Cover` of those prices, checked and
        repaired as always, for its bound only (its rows are not priced), and
        ``False``; a later call goes on from there.
        """
        cover = self.cover
        answer = None if part.tableau is None else self.warm.resume(part.tableau, part.capacity, enough)
        if answer is None:
            return tightened(cover, self.tables, x, j, self.split, 0, kind), True
        prices, used = answer
        capacity = part.capacity
        rowof = {position: i for position, i in self.rowof.items() if capacity[i]}
        absent = ~cover.presence(x)
        fit = [k for k, entry in enumerate(self.entries) if entry.jokers <= j and not entry.packed & absent]
        program = (rowof, capacity, [self.entries[k] for k in fit], [self.priced[k] for k in fit], len(capacity) - 1)
        if used is None:
            potential = _checked(self.tables, j, self.split, program, prices, 0.0)
            return Cover(self.tables, cover.rows, potential, cover.settings, fine=self.split.fine, scale=SCALE), False
        search = _potential(cover, self.tables, j, self.split, kind, program, prices, [used[k] for k in fit], 0.0)
        return search, True


class Part(NamedTuple):
    """A part's programme (:meth:`Relaxed.part`): its capacity, and its simplex (``None``: solved cold)."""

    capacity: list[int]
    tableau: _Simplex | None


def fixed(cover: Cover, tables: Tables, x: int, j: int, keep: int, target: int) -> Cover:
    """``cover`` without the candidates no answer worth ``target`` or more on ``x`` and ``j`` jokers can use.

    Reduced-cost fixing: the potential bounds the gain of any cover by what
    its cards are worth, less each meld's *slack* (its cards' potential less
    its gain, never negative: see :func:`tightened`) and the potential of the
    cards it leaves (at least ``keep`` of them, each worth at least the least
    potential present). So a cover that gains ``target`` or more uses no meld
    whose slack exceeds the remaining potential less ``target`` and what the
    kept cards are worth at least. Every such cover survives, in the same
    order, so every answer at or above ``target`` is the same; the search
    skips the rest without calling itself on each of them. The returned search
    (same kind, prices and settings as ``cover``) has a memo of its own: a
    bound from it holds only for the candidates it keeps.
    """
    allowance = cover.remaining(x, j) - target - keep * cover.least(x, j)
    rows = tuple(tuple(e for e in row if e.potential - e.gain <= allowance) for row in cover.rows)
    return type(cover)(tables, rows, cover.potential, cover.settings, fine=cover.fine, scale=cover.scale)


def _reordered(
    rows: tuple[tuple[Entry, ...], ...],
    keys: list[float],
    entries: list[Entry],
    split: Split,
    potential: list[int],
    tables: Tables,
) -> tuple[tuple[Entry, ...], ...]:
    """The rows as entries of the split's gains and ``potential``, each sorted by ``keys`` (per entry)."""
    order = {id(entry): key for entry, key in zip(entries, keys)}
    fine = split.fine
    out: list[tuple[Entry, ...]] = []
    for row in rows:
        new = [
            Entry(
                packed,
                jokers,
                SCALE * split.priced(shape) * fine + split.rest(shape),
                clean,
                shape,
                sum(get(potential)),
            )
            for (packed, jokers, _, clean, shape, _), get in zip(row, shape_getters(tables, [e.shape for e in row]))
        ]
        # Try first the candidates the relaxation uses most (stable: ties keep the table's order).
        sort = [order.get(id(entry), 0.0) for entry in row]
        out.append(tuple(e for _, e in sorted(zip(sort, new), key=lambda pair: pair[0])))
    return tuple(out)


def dive(
    cover: Cover, tables: Tables, x: int, j: int, need: int, floor: int, unit: int, budget: int, *, deep: bool = True
) -> tuple[int, list[Shape]] | None:
    """A cover worth more than ``floor`` found by LP diving, or ``None``.

    First a shallow dive (one programme: its whole melds, then the exact search
    on the rest), which on the inputs measured finds the optimum more often than
    deeper dives; if the exact search runs out of budget there, a deep dive of up
    to ``dive_rounds`` programmes (the cover's settings), unless not ``deep``.
    """
    found = _dive(cover, tables, x, j, need, floor, unit, budget, 1)
    if found is None and deep:
        found = _dive(cover, tables, x, j, need, floor, unit, budget, cover.settings.dive_rounds)
    return found


def _dive(
    cover: Cover, tables: Tables, x: int, j: int, need: int, floor: int, unit: int, budget: int, rounds: int
) -> tuple[int, list[Shape]] | None:
    """One dive: up to ``rounds`` programmes, then the exact search on the rest.

    Each round solves the programme of what is left and lays every meld the
    relaxation uses whole (or, if none, the one it uses most); after ``rounds``
    rounds, or once the programme is small, the exact search (within
    ``budget`` memoised states) covers the rest. A heuristic: the cover is a
    starting point that the exact search must still prove best. Its programmes
    are solved with their columns in the order of the pricing relaxation's use
    (:func:`_canonical`), the most used first.
    """
    gained = 0
    chosen: list[Shape] = []
    for _ in range(rounds):
        if not wants_lp(cards_in(x, cover.w, cover.field) + j, cover.settings):
            break
        rowof, capacity, columns, gains, entries = _program(cover, tables, x, j)
        if not columns:
            break
        if need >> 1:  # leave room for the cards to keep (see tightened)
            capacity = [*capacity, sum(capacity) - (need >> 1)]
            columns = [(*col, (len(capacity) - 1, sum(n for _, n in col))) for col in columns]
        order = _canonical(tables, rowof, entries, bool(need >> 1), cover.relaxed_use)
        _, used = solve_lp(columns, [float(g) for g in gains], capacity, canonical=order)
        picks = [(entry, int(u + 1e-6)) for entry, u in zip(entries, used) if u >= 1 - 1e-6]
        if not picks:
            best = max(range(len(used)), key=used.__getitem__)
            if used[best] <= 1e-6:
                break
            picks = [(entries[best], 1)]
        laid = False
        for entry, copies in picks:
            packed, jokers, gain, clean, shape, _ = entry
            for _ in range(copies):
                if jokers > j or packed & ~cover.presence(x):
                    break
                x -= packed
                j -= jokers
                gained += gain
                need = need & ~1 if clean else need
                chosen.append(shape)
                laid = True
        if not laid:
            break

    def finish(c: Cover) -> tuple[int, list[Shape]] | None:
        rest = c.solve(x, j, need, NEG, unit)
        if rest == NEG or gained + rest <= floor:
            return None
        return gained + rest, chosen + c.path(x, j, need, rest)

    return cover.within(budget, finish)
