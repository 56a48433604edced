"""The best opening that keeps a card (R-T3) on large inputs: each card left out in turn."""

from __future__ import annotations

import heapq
from typing import cast

from rummylib.solver._opening_objective import points_split, scales, search, settle
from rummylib.solver._priced import SCALE, Relaxed
from rummylib.solver._search import (
    Cover,
    OverBudget,
    cards_in,
    shape_gain_penalty,
)
from rummylib.solver._tables import Shape, Tables

__all__ = ["keep_one"]


def keep_one(
    cover: Cover, tables: Tables, x: int, jokers: int, need: int, alpha: int, m2: int, programmes: int | None = None
) -> tuple[int, list[Shape]] | None:
    """The best opening above ``alpha`` that leaves at least one card (R-T3), as :func:`search`.

    First the best opening that may lay every card: if it leaves one, it is the
    answer. If it lays every card, an opening that leaves one leaves some card
    ``c``, so the answer is the best of the openings of the input without ``c``
    that lay every card they may, over each distinct ``c`` (natural or joker): at
    most 53 searches, each cut off below the best found so far and skipped when
    even the plain bound of the input without ``c`` cannot beat it. Asking the
    search with a duty to keep a card instead makes it prove that no cover of all
    but one card does better, which on large inputs that lay every card took minutes.

    With ``programmes``, it prices at most that many inputs less one card and
    raises :class:`OverBudget` past them (a budgeted attempt, ``_opening``).
    """
    priced: list[Cover] = []
    best = search(cover, tables, x, jokers, need, alpha, m2, priced)
    if best is None:
        return None
    size = cards_in(x, tables.width, tables.field) + jokers
    if sum(shape.size for shape in best[1]) < size:
        return best  # it leaves a card already
    w = tables.width
    # Bounds on the gain without one card: the plain one, and the relaxation's (its
    # prices bound every part of the input; its priced part floored to whole points).
    bounds = [_bounds_without(cover, x, jokers, 1, m2)]
    if priced:
        bounds.append(_bounds_without(priced[0], x, jokers, SCALE, m2))
    # (bound without the card, position: 52 for a joker); the most promising first.
    choices = [(-min(b[k] for b in bounds), k, False) for k in bounds[0]]
    heapq.heapify(choices)
    # The best cover of all the cards less one card, where that still is one, is a first answer.
    found = max(_hints(best[1], tables, need).values(), key=lambda hint: hint[0], default=None)
    floor = alpha if found is None or found[0] <= alpha else found[0]
    fresh: dict[int, Cover] = {}
    relaxed: Relaxed | None = None
    dive = True
    while choices:
        bound, position, priced_anew = heapq.heappop(choices)
        if -bound <= floor:
            break  # in bound order: no card left out can beat what is found
        rest, rest_jokers = (x, jokers - 1) if position == 52 else (x - (1 << (w * position)), jokers)
        if priced and not priced_anew:
            # The input's prices may call a card free to leave that is not (the relaxation
            # leaves it at no cost, the covers of the rest cannot): price the rest anew,
            # and search it in the order of the new bound.
            # From the programme of all the cards' basis (one card less: a few dual pivots).
            if programmes is not None:
                if programmes <= 0:
                    raise OverBudget("programmes")
                programmes -= 1
            if relaxed is None:
                relaxed = Relaxed(cover, tables, x, jokers, points_split(tables.rules))
            points_cover = relaxed.tightened(rest, rest_jokers)
            fresh[position] = points_cover
            anew = _bounds_of(points_cover, rest, rest_jokers, SCALE, m2)
            heapq.heappush(choices, (max(bound, -anew), position, True))
            continue
        if priced:
            known = found if found is not None and found[0] > alpha else None
            value = settle(
                cover, fresh[position], tables, rest, rest_jokers, need, floor, m2, size - 1, known, dive=dive
            )
        else:
            value = search(cover, tables, rest, rest_jokers, need, floor, m2)
        if value is not None and value[0] > floor:
            found = value
            floor = value[0]
        else:
            dive = False  # a card left out in vain: the next ones seldom beat it either
    return found if found is not None and found[0] > alpha else None


def _bounds_of(cover: Cover, x: int, jokers: int, scale: int, m2: int) -> int:
    """A bound on the plain gain of ``x`` and ``jokers``: ``cover``'s, read as in :func:`_bounds_without`."""
    bound = cover.remaining(x, jokers)
    unit = scale * m2
    return bound // unit * m2 + min(bound % unit, m2 - 1)


def _bounds_without(cover: Cover, x: int, jokers: int, scale: int, m2: int) -> dict[int, int]:
    """Per search position present (joker 52): a bound on the plain gain of the input without one copy.

    ``cover``'s gains are ``scale * points * m2 + rest``; its bound's points are
    floored to whole points, then read on the plain scale (``points * m2 + rest``).
    """
    total = cover.remaining(x, jokers)
    unit = scale * m2
    out: dict[int, int] = {}
    keys = [52] if jokers else []
    p = cover.presence(x)
    while p:
        bit = p & -p
        p ^= bit
        keys.append((bit.bit_length() - 1) // cover.w)
    for key in keys:
        bound = total - cover.potential[key]
        out[key] = bound // unit * m2 + min(bound % unit, m2 - 1)
    return out


def _hints(shapes: list[Shape], tables: Tables, need: int) -> dict[int, tuple[int, list[Shape]]]:
    """Per search position (joker 52): ``shapes`` less one copy of that card, where that is still a cover.

    A card comes out of a meld that stays a candidate without it (a group of four,
    an end of a run of four or five, a joker); the values are plain gains.
    """
    pens, m1, m2, _ = scales(tables.rules)
    lookup = tables.extra.get("by_mask")
    if lookup is None:
        lookup = tables.extra["by_mask"] = {(shape.mask, shape.jokers): shape for shape in tables.shapes}
    by_mask = cast(dict[tuple[int, int], Shape], lookup)
    gains = [shape.points * m2 + shape.size * m1 + shape_gain_penalty(shape, pens) for shape in shapes]
    total = sum(gains)
    hints: dict[int, tuple[int, list[Shape]]] = {}
    for i, shape in enumerate(shapes):
        if shape.size < 4:
            continue
        out = [(c, shape.mask & ~(1 << c), shape.jokers) for c in shape.naturals]
        if shape.jokers:
            out.append((52, shape.mask, shape.jokers - 1))
        for card, mask, jokers in out:
            position = 52 if card == 52 else tables.pos[card]
            smaller = by_mask.get((mask, jokers))
            if smaller is None:
                continue
            rest = [*shapes[:i], smaller, *shapes[i + 1 :]]
            if need & 1 and not any(s.clean for s in rest):
                continue  # R-O2: the clean run is gone
            gain = smaller.points * m2 + smaller.size * m1 + shape_gain_penalty(smaller, pens)
            value = total - gains[i] + gain
            if position not in hints or value > hints[position][0]:
                hints[position] = (value, rest)
    return hints
