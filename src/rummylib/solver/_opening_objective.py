"""The best opening as an objective of the search pipeline (R-O2, O3): its gain, its split, its proof.

A gain is ``points * m2 + cards * m1 + penalty`` (see :func:`scales`): openings
are ordered by points, then cards placed, then penalty removed. The search
priced by the relaxation proves an answer in two steps (:func:`settle`).
"""

from __future__ import annotations

from typing import cast

import attrs

from rummylib._card import CARDS
from rummylib.cards import Rank
from rummylib.melds import rank_value
from rummylib.rules import Ruleset
from rummylib.solver._optimise import Found, optimise
from rummylib.solver._priced import SCALE, Split, first_cover, fixed, tightened
from rummylib.solver._proofs import first_of, kept, proved, ran_out
from rummylib.solver._search import (
    Cover,
    Entry,
    by_position,
    card_penalties,
    cards_in,
    entries,
    shape_gain_penalty,
)
from rummylib.solver._tables import Shape, Tables

__all__ = ["Best", "opening_rows", "points_split", "scales", "search", "settle"]


def scales(rules: Ruleset) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """Penalties, the two multipliers of the opening's gain, and each card's best points.

    A gain is ``points * m2 + cards * m1 + penalty``: ``m1`` exceeds any penalty
    total and ``m2`` any ``cards * m1 + penalty``, so gains order openings by
    points, then cards placed, then penalty removed.
    """
    pens = card_penalties(rules)
    m1 = sum(pens[:52]) * rules.decks + pens[52] * rules.jokers + 1
    m2 = m1 * (52 * rules.decks + rules.jokers + 1)
    # What one card can add at most: its best place value (jokers 11, aces high).
    best_points = (*(rank_value(cast(Rank, CARDS[i].rank)) for i in range(52)), 11)
    return pens, m1, m2, best_points


def opening_rows(rules: Ruleset, tables: Tables) -> tuple[Tables, tuple[tuple[Entry, ...], ...], int, tuple[int, ...]]:
    """Search rows whose gain orders openings: points, then cards placed, then penalty removed."""
    pens, m1, m2, best_points = scales(rules)

    def gain(shape: Shape) -> int:
        return shape.points * m2 + shape.size * m1 + shape_gain_penalty(shape, pens)

    potential = tuple(v * m2 + m1 + pen for v, pen in zip(best_points, pens))
    return tables, entries(tables, gain, potential), m2, by_position(potential, tables)


def points_split(rules: Ruleset) -> Split:
    """The opening for the LP: points priced; cards placed and penalty the exact rest."""
    pens, m1, m2, best_points = scales(rules)
    return Split(
        lambda shape: shape.points,
        lambda shape: shape.size * m1 + shape_gain_penalty(shape, pens),
        m2,
        best_points,
        tuple(m1 + pen for pen in pens),
    )


def _whole_split(rules: Ruleset) -> Split:
    """The opening for the LP with its whole gain priced: points, cards placed and penalty."""
    pens, m1, m2, best_points = scales(rules)
    return Split(
        lambda shape: shape.points * m2 + shape.size * m1 + shape_gain_penalty(shape, pens),
        lambda shape: 0,
        1,
        tuple(v * m2 + m1 + pen for v, pen in zip(best_points, pens)),
        (0,) * 53,
    )


def _plain(
    cover: Cover, x: int, jokers: int, need: int, alpha: int, m2: int, bound: list[int] | None = None
) -> tuple[int, list[Shape]] | None:
    windows = cards_in(x, cover.w, cover.field) + jokers >= cover.settings.window_from
    value = cover.solve(x, jokers, need, alpha, m2, windows=windows, cap=bound)
    if value <= alpha or value <= 0:
        return None
    return value, cover.path(x, jokers, need, value)


@attrs.frozen
class Best:
    """The best opening as an :class:`~rummylib.solver._optimise.Objective` (gains: ``points * m2 + rest``)."""

    rules: Ruleset
    m2: int

    def split(self) -> Split:
        return points_split(self.rules)

    def plain(self, cover: Cover, x: int, j: int, need: int, alpha: int) -> Found | None:
        return _plain(cover, x, j, need, alpha, self.m2)

    def prove(
        self, cover: Cover, priced: Cover, tables: Tables, x: int, j: int, need: int, alpha: int, size: int
    ) -> Found | None:
        return settle(cover, priced, tables, x, j, need, alpha, self.m2, size)


def search(
    cover: Cover,
    tables: Tables,
    x: int,
    jokers: int,
    need: int,
    alpha: int,
    m2: int,
    priced: list[Cover] | None = None,
) -> Found | None:
    """The value and shapes of the best opening above ``alpha`` (:func:`~rummylib.solver._optimise.optimise`).

    The search priced by the relaxation, if one is made, is appended to
    ``priced``: its prices bound every part of the input too (see :func:`keep_one`).
    """
    return optimise(Best(tables.rules, m2), cover, tables, x, jokers, need, alpha, priced)


def settle(
    cover: Cover,
    points_cover: Cover,
    tables: Tables,
    x: int,
    jokers: int,
    need: int,
    alpha: int,
    m2: int,
    size: int,
    known: tuple[int, list[Shape]] | None = None,
    *,
    dive: bool = True,
) -> tuple[int, list[Shape]] | None:
    """The best opening above ``alpha`` by the search priced by points (``points_cover``), as :func:`search`.

    ``known``, if given, is an opening already known (plain scale), to prove best or beat.
    Without ``dive``, the first cover is looked for by the discrepancy search alone.
    """
    # Gains are now SCALE * points * m2 + (cards placed, penalty): rescale the cut-off,
    # and results back to the plain scale (points * m2 + the rest) with ``plain``.
    unit = SCALE * m2
    alpha = (alpha + 1) // m2 * unit - 1

    def plain(value: int) -> int:
        return value // unit * m2 + value % unit

    # An opening is never empty: a first cover must be worth more than nothing (and the known one).
    known_value = None if known is None else known[0] // m2 * unit + known[0] % m2
    floor = max(alpha, 0) if known_value is None else max(alpha, known_value)
    deep = known is None and cover.settings.opening_deep_dive  # a deep dive only if asked, beside no known cover
    # The same in every round of budgeted attempts: found once (_proofs).
    asked = (floor, deep, dive, tuple(points_cover.potential), len(points_cover.memo))
    found = first_of(
        tables,
        x,
        jokers,
        need,
        asked,
        lambda: first_cover(points_cover, tables, x, jokers, need, floor, unit, size, deep=deep, dives=dive),
    )
    if found is None and known is not None and known_value is not None:
        found = (known_value, known[1])
    with proved(tables, x, jokers, need) as bound:  # the points no opening reaches, kept by earlier attempts
        if found is None:
            fresh = points_cover
            points_cover = kept(
                tables, x, jokers, need, ("points", tuple(fresh.potential)), lambda: fresh, cover.settings
            )
            best = _plain(points_cover, x, jokers, need, alpha, unit, bound)
            return None if best is None else (plain(best[0]), best[1])
        # Only openings worth the first cover's points or more matter: drop every candidate
        # none of them can use (reduced-cost fixing, exact: see fixed).
        target, priced = found[0] // unit * unit, points_cover
        fixing = ("fixed", tuple(priced.potential), target)  # kept from round to round (_proofs)
        points_cover = kept(
            tables, x, jokers, need, fixing, lambda: fixed(priced, tables, x, jokers, need >> 1, target), cover.settings
        )
        # Two steps, each with the bound that suits it. First the points: is there an
        # opening worth a whole point more? (Points are priced alone and floored.)
        more = (found[0] // unit + 1) * unit - 1
        value = points_cover.solve(x, jokers, need, more, unit, cap=bound)
    if value > more:
        return plain(value), points_cover.path(x, jokers, need, value)
    return _ties(cover, points_cover, tables, x, jokers, need, m2, found)


def _ties(
    cover: Cover, points_cover: Cover, tables: Tables, x: int, jokers: int, need: int, m2: int, found: Found
) -> Found:
    """The most cards, then the least penalty, among openings worth ``found``'s points (the most), as :func:`settle`.

    The search priced by points (``points_cover``, fixed at ``found``'s points)
    settles most inputs; where it runs out of budget, prices of the whole gain
    settle the rest (they know what placing one more card costs in points).
    """
    unit = SCALE * m2

    def plain(value: int) -> int:
        return value // unit * m2 + value % unit

    def ties(c: Cover) -> tuple[int, list[Shape]]:
        # No opening is worth a whole point more: the points are capped at the first cover's.
        value = c.capped_solve(x, jokers, need, found[0], unit)
        return found if value <= found[0] else (value, c.path(x, jokers, need, value))

    # The budget counts the states this step adds to the memo the points step filled;
    # one that ran out (in any order) is not tried again (_proofs).
    settled = None
    if not ran_out(tables, x, jokers, need, found[0]):
        settled = points_cover.within(len(points_cover.memo) + cover.settings.tie_budget, ties)
    if settled is not None:
        return plain(settled[0]), settled[1]
    ran_out(tables, x, jokers, need, found[0], now=True)
    first = SCALE * plain(found[0])

    def make() -> Cover:
        whole = tightened(cover, tables, x, jokers, _whole_split(tables.rules), need >> 1)
        return fixed(whole, tables, x, jokers, need >> 1, first + 1)

    whole = kept(tables, x, jokers, need, ("whole", first), make, cover.settings)
    value = whole.solve(x, jokers, need, first, SCALE * m2)
    if value <= first:
        return first // SCALE, found[1]  # nothing better than the first cover
    return value // SCALE, whole.path(x, jokers, need, value)
