"""The partition of a hand that leaves the least penalty (deadwood)."""

from __future__ import annotations

from collections.abc import Iterable
from operator import mul
from typing import cast

import attrs

from rummylib.cards import Card
from rummylib.rules import Ruleset
from rummylib.solver._deadwood import by_deadwood, leftovers
from rummylib.solver._laying import Laying
from rummylib.solver._leftover import laid_whole
from rummylib.solver._lp import remembered
from rummylib.solver._optimise import Found, optimise
from rummylib.solver._priced import SCALE, Split, first_cover, fixed
from rummylib.solver._results import Partition, counted_partition, prepare
from rummylib.solver._row_fits import RowFits, restrict
from rummylib.solver._search import (
    NEG,
    Cover,
    Entry,
    OverBudget,
    by_position,
    card_penalties,
    cards_in,
    entries,
    pack,
    shape_gain_penalty,
)
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._small import _live, _search1, small_partition
from rummylib.solver._small_jokers import small_joker_partition
from rummylib.solver._small_list import LAST, PENALTY, POSITION_BITS, RANK_ONES, RANK_TOPS, ZEROS, remember
from rummylib.solver._tables import Shape, Tables, build_melds, leftover, packed_counts, tables_for

__all__ = ["best_partition", "search_partition"]


_Rows = tuple[Tables, tuple[tuple[Entry, ...], ...], tuple[int, ...], tuple[int, ...]]


def _rows(rules: Ruleset, tables: Tables) -> _Rows:
    pens = card_penalties(rules)

    def gain(shape: Shape) -> int:
        return shape_gain_penalty(shape, pens)

    return tables, entries(tables, gain, pens), by_position(pens, tables), pens


def _split(pens: tuple[int, ...]) -> Split:
    """The least deadwood for the LP: the penalty a shape removes, all of it priced."""
    return Split(lambda shape: shape_gain_penalty(shape, pens), lambda shape: 0, 1, pens, (0,) * 53)


@attrs.frozen
class _Deadwood:
    """The least deadwood as an :class:`~rummylib.solver._optimise.Objective`: the penalty removed, all priced."""

    pens: tuple[int, ...]

    def split(self) -> Split:
        return _split(self.pens)

    def plain(self, cover: Cover, x: int, j: int, need: int, alpha: int) -> Found | None:
        windows = cards_in(x, cover.w, cover.field) + j >= cover.settings.window_from
        value = cover.solve(x, j, need, alpha, 1, windows=windows)
        return value, cover.path(x, j, need, value)

    def prove(
        self, cover: Cover, priced: Cover, tables: Tables, x: int, j: int, need: int, alpha: int, size: int
    ) -> Found | None:
        found = first_cover(priced, tables, x, j, need, alpha, SCALE, size)
        if found is None and size >= max(cover.settings.hunt_from, cover.settings.leftover_from):
            # No first cover was found: perhaps one that lays every card, which leaves no penalty.
            shapes = laid_whole(tables, x, j, cover.settings)
            if shapes is not None:
                return SCALE * sum(shape_gain_penalty(shape, self.pens) for shape in shapes), shapes
        floor = alpha if found is None else found[0]
        if found is not None:
            # Only partitions better than the first cover matter, by a whole point of penalty (gains
            # are SCALE per point): drop the candidates none of them uses (reduced-cost fixing, see fixed).
            priced = fixed(priced, tables, x, j, 0, (floor // SCALE + 1) * SCALE)
        value = None
        settings = cover.settings
        if size >= settings.deadwood_from:  # a short search first, then the decomposition
            least = max(0, self.total(x, j, tables) - priced.remaining(x, j) // SCALE)  # the relaxation's bound
            # Few leftovers between that bound and the first cover's: the decomposition first.
            below = None if found is None else self.total(x, j, tables) - found[0] // SCALE
            pens = by_position(self.pens, tables)
            if below is None or leftovers(x, j, tables, pens, least, below, settings) > settings.deadwood_sets:
                value = priced.within(settings.deadwood_budget, lambda c: c.solve(x, j, need, floor, SCALE))
            if value is None:
                decomposed = self.decomposed(cover, tables, x, j, found, least)
                if decomposed is not None:
                    return decomposed if decomposed[0] > alpha else None
        if value is None:
            value = priced.solve(x, j, need, floor, SCALE)  # the memo of the short search kept
        if found is not None and value <= floor:
            return found  # the exact search found nothing better than the first cover
        return value, priced.path(x, j, need, value)

    def decomposed(self, cover: Cover, tables: Tables, x: int, j: int, found: Found | None, least: int) -> Found | None:
        """The best partition by :func:`by_deadwood` (``found`` if none leaves less), or ``None`` past its budget.

        No partition leaves less than ``least``. The relaxation of laying the cards
        is the packing one (a cover laying a part removes all its penalty), whose
        programme the priced search has solved (kept by ``remembered``).
        """
        pens = by_position(self.pens, tables)
        gain = self.gain
        below = None if found is None else self.total(x, j, tables) - sum(map(gain, found[1]))
        try:
            laying = Laying(tables, cover.rows, x, j, cover.settings, self.split())
            answer = by_deadwood(laying, x, j, pens, below, cover.settings, least)
        except OverBudget:
            return None
        return found if answer is None else (SCALE * sum(map(gain, answer[1])), answer[1])

    def gain(self, shape: Shape) -> int:
        return shape_gain_penalty(shape, self.pens)

    def total(self, x: int, j: int, tables: Tables) -> int:
        """The penalty of naturals ``x`` and ``j`` jokers."""
        held = packed_counts(x, tables.width, tables.field)
        return j * self.pens[52] + sum(count * self.pens[tables.card_at[p]] for p, count in held)


def best_partition(hand: Iterable[Card], rules: Ruleset) -> Partition:
    """Disjoint melds that leave the least penalty in hand (R-V; gin rummy's deadwood).

    Any multiset up to a whole deck is accepted. Runs that continue each
    other come back joined into one run.

    Args:
        hand: any iterable of cards (a list, a tuple, a :class:`CardMultiset`).
        rules: the ruleset; its penalty values (R-V) are minimised.

    Returns:
        A :class:`Partition` with the melds, the leftover cards and their penalty.

    Raises:
        InvalidCardsError: ``hand`` is not made of cards, or holds more
            copies of a card than the ruleset's deck.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import STRAIGHT, parse_cards, best_partition
    >>> p = best_partition(parse_cards("2H 3H 4H 5H 9C 9D 9S KS 7D"), STRAIGHT)
    >>> [str(m) for m in p.melds], str(p.leftover), p.penalty
    (['2H 3H 4H 5H', '9S 9D 9C'], 'KS 7D', 17)
    """
    # The common call, a hand as a plain list, is answered here (_small_list's path; a call less). Anything
    # it does not take goes to the checked path: the answer is the checked multiset's, errors included.
    if type(hand) is not list:
        return _search(hand, rules, DEFAULT_SETTINGS)
    last_rules, table, pieces, packs, most, ace_high = LAST[0]
    if last_rules is not rules:  # almost always the last call's: no look-up
        last_rules, table, pieces, packs, most, ace_high = remember(rules)
    size = len(hand)
    if size > most:
        return _search(hand, rules, DEFAULT_SETTINGS)  # more cards than the path takes, or not its ruleset (-1)
    packed = 0
    counts = [*ZEROS]  # not ZEROS.copy(): CPython 3.11 loads a method of an imported name as an attribute
    card_type = Card
    for card in hand:
        if type(card) is not card_type:
            return _search(hand, rules, DEFAULT_SETTINGS)
        i = card.index
        packed += packs[i]
        counts[i] = 1
    a = packed & POSITION_BITS
    if a.bit_count() != size:
        return _search(hand, rules, DEFAULT_SETTINGS)  # a joker (no bit), or a card twice (a carry)
    if (
        a & (a >> 4) & (a >> 8)  # a run of three (ace low), ...
        or (packed + RANK_ONES) & RANK_TOPS  # ... a rank in three suits (no carry: the cards are distinct) ...
        or (ace_high and (a >> 44) & (a >> 48) & a & 15)  # ... or a Q-K-A run: perhaps something to meld
    ):
        live = _live(a, ace_high)
        found = pieces.get(live)
        melds, used, gain = _search1(live, table.rows, table.pos_pens) if found is None else found
        for i in used:
            counts[i] = 0
        size -= len(used)
        penalty = (packed >> PENALTY) - gain
    else:
        melds, penalty = (), packed >> PENALTY
    return counted_partition(melds, tuple(counts), size, penalty)


def search_partition(hand: Iterable[Card], rules: Ruleset, settings: SearchSettings) -> Partition:
    """:func:`best_partition` with the search tuned by ``settings`` (the same penalty).

    Raises:
        InvalidCardsError: as :func:`best_partition`.
        RulesetError: as :func:`best_partition`.
    """
    if settings is DEFAULT_SETTINGS:
        return best_partition(hand, rules)  # its list path too
    return _search(hand, rules, settings)


def _search(hand: Iterable[Card], rules: Ruleset, settings: SearchSettings) -> Partition:
    """:func:`search_partition` past the list path: the checked multiset, small or general."""
    ms, checked = prepare(hand, rules, "hand")
    small = small_partition(ms, checked, settings)  # small hands without jokers: same answer, sooner
    if small is None:
        small = small_joker_partition(ms, checked, settings)  # and with jokers
    if small is not None:
        return small
    jokers = ms.jokers if checked.jokers else 0
    tables = tables_for(ms.counts, jokers, checked, settings=settings)
    cached = tables.extra.get("partition")
    if cached is None:
        cached = tables.extra["partition"] = _rows(checked, tables)
    tables, rows, potential, pens = cast(_Rows, cached)
    cover = Cover(tables, rows, potential, settings)
    x = _restricted(cover, tables, pack(ms.counts, tables), jokers)
    with remembered(
        settings.partition_warm_bases
    ):  # the decomposition's relaxation is the priced search's (see _Deadwood.decomposed)
        found = optimise(_Deadwood(pens), cover, tables, x, jokers, 0, NEG)
    assert found is not None  # every input has a partition (all left over at worst)
    shapes = found[1]
    left = leftover(ms.counts, shapes)
    return Partition(build_melds(shapes, checked), left, sum(map(mul, pens, left.counts)))


def _restricted(cover: Cover, tables: Tables, x: int, jokers: int) -> int:
    """``cover.restrict(x, jokers)``, read from the kept cuts of tables asked a second time (the cached ones)."""
    fits = tables.extra.get("partition fits")
    if isinstance(fits, RowFits):
        return restrict(cover, fits, x, jokers)
    # Tables built for one multiset are asked once: keep cuts only for tables seen before.
    tables.extra["partition fits"] = RowFits(cover.rows) if fits else True
    return cover.restrict(x, jokers)
