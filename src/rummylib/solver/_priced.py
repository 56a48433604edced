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

from collections.abc import Sequence
from math import ceil

from rummylib.solver._lp import solve_lp
from rummylib.solver._search import NEG, Cover, Entry, cards_in, trial
from rummylib.solver._tables import Shape, Tables

__all__ = ["DIVE_ROUNDS", "LP_FROM", "dive", "tightened", "wants_lp"]

#: Inputs of this many cards or more (after dead cards are dropped) get the
#: prices of the linear relaxation as their potential (measured, benchmarks/solver.py).
LP_FROM = 24
#: Most programmes one dive solves before the exact search takes the rest.
DIVE_ROUNDS = 12


def wants_lp(x: int, j: int, tables: Tables) -> bool:
    """Whether a search of ``x`` and ``j`` jokers should first get the LP's prices (:func:`tightened`)."""
    return cards_in(x, tables.width, tables.field) + j >= LP_FROM


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
            if entry[1] > j or entry[0] & absent:
                continue
            column = tuple((rowof[pos[c]], 1) for c in entry[4].naturals)
            if entry[1]:
                column += ((joker_row, entry[1]),)
            columns.append(column)
            gains.append(entry[2])
            used.append(entry)
    return rowof, capacity, columns, gains, used


def tightened(cover: Cover, tables: Tables, x: int, j: int, scale: int) -> Cover:
    """A search over the same candidates whose potential is the LP's dual prices.

    The gains are multiplied by ``scale`` so that fractional prices keep most of
    their strength as integers. Every price is rounded up and then checked
    against every candidate in exact arithmetic; a candidate worth more than its
    cards' prices (rounding, or an LP stopped early) raises a price until it is
    covered. So the potential bounds every subtree, as the search needs. The
    plain potential is kept instead if it bounds the whole input better.
    """
    rowof, capacity, columns, gains, _ = _program(cover, tables, x, j)
    prices, used = solve_lp(columns, [g * scale for g in gains], capacity)
    joker_row = len(capacity) - 1
    potential = [0] * 53
    for position, i in rowof.items():
        potential[position] = max(0, ceil(prices[i] - 1e-6))
    potential[52] = max(0, ceil(prices[joker_row] - 1e-6)) if j else 0
    pos = tables.pos
    rows: list[tuple[Entry, ...]] = []
    k = 0
    for row in cover.rows:
        new: list[tuple[float, Entry]] = []
        for packed, jokers, gain, clean, shape, _ in row:
            naturals = [pos[c] for c in shape.naturals]
            spot = sum(potential[c] for c in naturals) + jokers * potential[52]
            short = gain * scale - spot
            if short > 0:  # repair: raise one price so this candidate is covered
                if jokers:
                    potential[52] += -(-short // jokers)
                else:
                    potential[naturals[0]] += short
            # The rows hold exactly the program's columns, in the same order.
            new.append((-used[k], (packed, jokers, gain * scale, clean, shape, 0)))
            k += 1
        # Try first the candidates the relaxation uses most (stable: ties keep the table's order).
        new.sort(key=lambda pair: pair[0])
        rows.append(tuple(entry for _, entry in new))
    plain = [scale * v for v in cover.potential]
    counts = [(position, capacity[i]) for position, i in rowof.items()]
    if (
        sum(potential[c] * n for c, n in counts) + j * potential[52]
        > sum(plain[c] * n for c, n in counts) + j * plain[52]
    ):
        potential = plain  # the simplex stopped short: the plain potential is the better bound
    # Spots from the final prices (a repair may have raised one after its use above).
    final = tuple(
        tuple(
            (
                packed,
                jokers,
                gain,
                clean,
                shape,
                sum(potential[pos[c]] for c in shape.naturals) + jokers * potential[52],
            )
            for packed, jokers, gain, clean, shape, _ in row
        )
        for row in rows
    )
    return Cover(tables, final, potential)


def dive(
    cover: Cover, tables: Tables, x: int, j: int, need_clean: bool, floor: int, unit: int, budget: int
) -> tuple[int, list[Shape]] | None:
    """A cover worth more than ``floor`` found by LP diving, or ``None``.

    Each round solves the programme of what is left, lays every meld the
    relaxation uses whole (or, if none, the one it uses most) and repeats;
    after :data:`DIVE_ROUNDS` rounds, or once the programme is small, the
    exact search (within ``budget`` memoised states) covers the rest. A
    heuristic: the cover is a starting point that the exact search must
    still prove best.
    """
    gained = 0
    chosen: list[Shape] = []
    for _ in range(DIVE_ROUNDS):
        if cards_in(x, cover.w, cover.field) + j < LP_FROM:
            break
        _, capacity, columns, gains, entries = _program(cover, tables, x, j)
        if not columns:
            break
        _, used = solve_lp(columns, [float(g) for g in gains], capacity)
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
                need_clean = need_clean and not clean
                chosen.append(shape)
                laid = True
        if not laid:
            break

    def finish(c: Cover) -> tuple[int, list[Shape]] | None:
        rest = c.solve(x, j, need_clean, NEG, unit)
        if rest == NEG or gained + rest <= floor:
            return None
        return gained + rest, chosen + c.path(x, j, need_clean, rest)

    return trial(cover, budget, finish)
