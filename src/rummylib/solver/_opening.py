"""The best remik opening (R-O2, O3) and whether one exists."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from operator import mul
from typing import cast

import attrs

from rummylib._card import CARDS
from rummylib._guards import is_int, is_int_in
from rummylib.cards import Card, CardMultiset, Rank
from rummylib.errors import InvalidStateError, StateReason, shorten
from rummylib.melds import rank_value
from rummylib.rules import Ruleset
from rummylib.solver._priced import SCALE, Split, first_cover, tightened, wants_lp
from rummylib.solver._results import Opening, prepare
from rummylib.solver._search import (
    Cover,
    Entry,
    OverBudget,
    by_position,
    card_penalties,
    cards_in,
    entries,
    pack,
    shape_gain_penalty,
    wants_trial,
)
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import Shape, Tables, build_melds, leftover, tables_for

__all__ = ["best_opening", "can_open", "search_opening"]


def _scales(rules: Ruleset) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
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


def _rows(rules: Ruleset, tables: Tables) -> tuple[Tables, tuple[tuple[Entry, ...], ...], int, tuple[int, ...]]:
    """Search rows whose gain orders openings: points, then cards placed, then penalty removed."""
    pens, m1, m2, best_points = _scales(rules)

    def gain(shape: Shape) -> int:
        return shape.points * m2 + shape.size * m1 + shape_gain_penalty(shape, pens)

    potential = tuple(v * m2 + m1 + pen for v, pen in zip(best_points, pens))
    return tables, entries(tables, gain, potential), m2, by_position(potential, tables)


def _split(rules: Ruleset) -> Split:
    """The opening for the LP: points priced; cards placed and penalty the exact rest."""
    pens, m1, m2, best_points = _scales(rules)
    return Split(
        lambda shape: shape.points,
        lambda shape: shape.size * m1 + shape_gain_penalty(shape, pens),
        m2,
        best_points,
        tuple(m1 + pen for pen in pens),
    )


def _whole_split(rules: Ruleset) -> Split:
    """The opening for the LP with its whole gain priced: points, cards placed and penalty."""
    pens, m1, m2, best_points = _scales(rules)
    return Split(
        lambda shape: shape.points * m2 + shape.size * m1 + shape_gain_penalty(shape, pens),
        lambda shape: 0,
        1,
        tuple(v * m2 + m1 + pen for v, pen in zip(best_points, pens)),
        (0,) * 53,
    )


def _plain(cover: Cover, x: int, jokers: int, need: int, alpha: int, m2: int) -> tuple[int, list[Shape]] | None:
    value = cover.solve(x, jokers, need, alpha, m2)
    if value <= alpha or value <= 0:
        return None
    return value, cover.path(x, jokers, need, value)


def _search(
    cover: Cover,
    tables: Tables,
    x: int,
    jokers: int,
    need: int,
    alpha: int,
    m2: int,
    priced: list[Cover] | None = None,
) -> tuple[int, list[Shape]] | None:
    """The value and shapes of the best opening above ``alpha``, by the strategy the input's size calls for.

    The search priced by the relaxation, if one is made, is appended to ``priced``:
    its prices bound every part of the input too (see :func:`_keep_one`).
    """
    size = cards_in(x, tables.width, tables.field) + jokers
    settings = cover.settings
    if wants_trial(size, settings):
        # A trial that ends is exact either way: None from it means no opening.
        result = cover.within(settings.trial_budget, lambda c: (_plain(c, x, jokers, need, alpha, m2),))
        if result is not None:
            return result[0]
    if not wants_lp(size, settings):
        return _plain(cover, x, jokers, need, alpha, m2)
    points_cover = tightened(cover, tables, x, jokers, _split(tables.rules), need >> 1)
    if priced is not None:
        priced.append(points_cover)
    return _settle(cover, points_cover, tables, x, jokers, need, alpha, m2, size)


def _settle(
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
) -> tuple[int, list[Shape]] | None:
    """The best opening above ``alpha`` by the search priced by points (``points_cover``), as :func:`_search`.

    ``known``, if given, is an opening already known (plain scale), to prove best or beat.
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
    # Beside a known cover only a shallow dive (each round of a deep one solves a programme).
    found = first_cover(points_cover, tables, x, jokers, need, floor, unit, size, deep=known is None)
    if found is None and known is not None and known_value is not None:
        found = (known_value, known[1])
    if found is None:
        best = _plain(points_cover, x, jokers, need, alpha, unit)
        return None if best is None else (plain(best[0]), best[1])
    # Two steps, each with the bound that suits it. First the points: is there an
    # opening worth a whole point more? (Points are priced alone and floored.)
    more = (found[0] // unit + 1) * unit - 1
    value = points_cover.solve(x, jokers, need, more, unit)
    if value > more:
        return plain(value), points_cover.path(x, jokers, need, value)

    # The points are the best; now the most cards, then the least penalty, among
    # openings worth them. The search priced by points settles most inputs; where
    # it runs out of budget, prices of the whole gain settle the rest (they know
    # what placing one more card costs in points).
    def ties(c: Cover) -> tuple[int, list[Shape]]:
        value = c.solve(x, jokers, need, found[0], unit)
        return found if value <= found[0] else (value, c.path(x, jokers, need, value))

    settled = points_cover.within(cover.settings.tie_budget, ties)
    if settled is not None:
        return plain(settled[0]), settled[1]
    whole = tightened(cover, tables, x, jokers, _whole_split(tables.rules), need >> 1)
    first = SCALE * plain(found[0])
    value = whole.solve(x, jokers, need, first, SCALE * m2)
    if value <= first:
        return first // SCALE, found[1]  # nothing better than the first cover
    return value // SCALE, whole.path(x, jokers, need, value)


def _keep_one(
    cover: Cover, tables: Tables, x: int, jokers: int, need: int, alpha: int, m2: int
) -> tuple[int, list[Shape]] | None:
    """The best opening above ``alpha`` that leaves at least one card (R-T3), as :func:`_search`.

    First the best opening that may lay every card: if it leaves one, it is the
    answer. If it lays every card, an opening that leaves one leaves some card
    ``c``, so the answer is the best of the openings of the input without ``c``
    that lay every card they may, over each distinct ``c`` (natural or joker): at
    most 53 searches, each cut off below the best found so far and skipped when
    even the plain bound of the input without ``c`` cannot beat it. Asking the
    search with a duty to keep a card instead makes it prove that no cover of all
    but one card does better, which on large inputs that lay every card took minutes.
    """
    priced: list[Cover] = []
    best = _search(cover, tables, x, jokers, need, alpha, m2, priced)
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
    while choices:
        bound, position, priced_anew = heapq.heappop(choices)
        if -bound <= floor:
            break  # in bound order: no card left out can beat what is found
        rest, rest_jokers = (x, jokers - 1) if position == 52 else (x - (1 << (w * position)), jokers)
        if priced and not priced_anew:
            # The input's prices may call a card free to leave that is not (the relaxation
            # leaves it at no cost, the covers of the rest cannot): price the rest anew,
            # and search it in the order of the new bound.
            points_cover = tightened(cover, tables, rest, rest_jokers, _split(tables.rules), 0)
            fresh[position] = points_cover
            anew = _bounds_of(points_cover, rest, rest_jokers, SCALE, m2)
            heapq.heappush(choices, (max(bound, -anew), position, True))
            continue
        if priced:
            known = found if found is not None and found[0] > alpha else None
            value = _settle(cover, fresh[position], tables, rest, rest_jokers, need, floor, m2, size - 1, known)
        else:
            value = _search(cover, tables, rest, rest_jokers, need, floor, m2)
        if value is not None and value[0] > floor:
            found = value
            floor = value[0]
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
    pens, m1, m2, _ = _scales(tables.rules)
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


def _has_clean_run(counts: tuple[int, ...], ace_high: bool) -> bool:
    """Whether three cards of one suit follow each other (a clean run exists, R-O2)."""
    for base in (0, 13, 26, 39):
        suit = counts[base : base + 13]
        if not any(suit):
            continue
        mask = 0
        for rank, count in enumerate(suit):
            if count:
                mask |= 2 << rank  # bit 1 = ace low ... bit 13 = king
        if ace_high and mask & 2:
            mask |= 1 << 14  # ace high
        if mask & (mask >> 1) & (mask >> 2):
            return True
    return False


def _solve(hand: CardMultiset, rules: Ruleset, keep: int, settings: SearchSettings) -> Opening | None:
    if len(hand) - keep < 3:
        return None  # no meld fits in what may be laid
    if rules.opening_clean_run and not _has_clean_run(hand.counts, rules.ace_high):
        return None  # most hands: no opening without a clean run, and no search needed
    if len(hand) >= settings.orders_from:
        # Budgeted attempts in each order (exact when they end), the default order first;
        # then the default order without a budget.
        default = "suit" if len(hand) >= settings.suit_major_from else "rank"
        orders = [default, *(order for order in settings.orders if order != default)]
        for budget in settings.order_budgets:
            attempt = attrs.evolve(
                settings,
                memo_limit=budget,
                give_up=True,
                keep_split_budget=min(budget, settings.keep_split_budget),
            )
            for order in orders:
                try:
                    return _solve_in(hand, rules, keep, attempt, order)
                except OverBudget:
                    pass
    return _solve_in(hand, rules, keep, settings, None)


def _solve_in(
    hand: CardMultiset, rules: Ruleset, keep: int, settings: SearchSettings, order: str | None
) -> Opening | None:
    """The best opening by the search in ``order`` (``None``: the default for the input's size)."""
    jokers = hand.jokers if rules.jokers else 0
    tables = tables_for(hand.counts, jokers, rules, settings=settings, order=order)
    cached = tables.extra.get("opening")
    if cached is None:
        cached = tables.extra["opening"] = _rows(rules, tables)
    tables, rows, m2, potential = cast(tuple[Tables, tuple[tuple[Entry, ...], ...], int, tuple[int, ...]], cached)
    cover = Cover(tables, rows, potential, settings)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    # Cards no candidate can take (dropped by restrict) are left over, kept for the discard.
    keep = max(0, keep - (len(hand) - jokers - cards_in(x, tables.width, tables.field)))
    need = int(rules.opening_clean_run) | keep << 1  # the duty of the search (see Cover)
    # Only openings worth the opening points matter: anything less is cut off.
    alpha = rules.opening_points * m2 - 1
    best = None
    settled = False
    if keep == 1 and cards_in(x, tables.width, tables.field) + jokers >= settings.keep_split_from:
        # A budgeted attempt: on some inputs the search that may lay every card is the hard
        # one, and the search carrying the duty to keep a card is the quicker (exact either way).
        attempt = attrs.evolve(settings, memo_limit=settings.keep_split_budget, give_up=True)
        try:
            best = _keep_one(Cover(tables, cover.rows, potential, attempt), tables, x, jokers, need & 1, alpha, m2)
            settled = True
        except OverBudget:
            pass
    if not settled:
        best = _search(cover, tables, x, jokers, need, alpha, m2)
    if best is None:
        return None
    value, shapes = best
    points = value // m2
    left = leftover(hand.counts, shapes)
    penalty = sum(map(mul, card_penalties(rules), left.counts))
    return Opening(build_melds(shapes, rules, mix_clean=False), points, left, penalty)


def check_keep(keep: object, rules: Ruleset) -> int:
    """The number of cards an opening must leave in hand: ``keep``, or the rules' default.

    By default a player keeps one card where the rules end a turn, and so a
    go-out, by a discard (``rules.must_discard_to_go_out``: remik, R-T3, E1),
    and none where a player may go out by melding (straight rummy, E3).

    Raises:
        InvalidStateError: ``keep`` is not ``None`` or an int from 0 to the
            size of the ruleset's deck.
    """
    if keep is None:
        return 1 if rules.must_discard_to_go_out else 0
    most = 52 * rules.decks + rules.jokers
    if not is_int_in(keep, 0, most):
        msg = f"keep must be None or an int from 0 to {most} (the deck), not {shorten(keep)}"
        reason = StateReason.BAD_VALUE if is_int(keep) else StateReason.WRONG_TYPE
        raise InvalidStateError(reason, "keep", msg)
    return cast(int, keep)


def best_opening(hand: Iterable[Card], rules: Ruleset, *, keep: int | None = None) -> Opening | None:
    """The most valuable legal opening in ``hand`` (R-O2, O3), or ``None``.

    An opening is a set of disjoint melds worth at least ``rules.opening_points``
    with a clean run among them when ``rules.opening_clean_run``; jokers count
    as the card they stand for and aces 1 or 11 by place. Among the openings
    worth the most points it places the most cards, then leaves the least
    penalty. Under rules with no opening condition it is the most valuable
    non-empty set of melds. Any multiset up to a whole deck is accepted.

    The opening leaves at least ``keep`` cards of ``hand`` unlaid. By default
    that is what the rules make a player keep, so the answer is one the engine
    accepts: one card for the final discard where the rules end every turn
    with a discard (``rules.must_discard_to_go_out``; remik, R-T3), none where
    a player may go out by melding. ``keep=0`` asks the pure multiset
    question: the best melds in the cards, all of them laid if that is best.

    Args:
        hand: any iterable of cards (a list, a tuple, a :class:`CardMultiset`).
        rules: the ruleset.
        keep: how many cards must stay in hand (``None``: the rules' default).

    Returns:
        The best :class:`Opening`, or ``None`` if the hand cannot open.

    Raises:
        InvalidCardsError: ``hand`` is not made of cards, or holds more
            copies of a card than the ruleset's deck.
        RulesetError: ``rules`` is not a :class:`Ruleset`.
        InvalidStateError: ``keep`` is not ``None`` or an int from 0 to the
            number of cards in the ruleset's deck.

    >>> from rummylib import REMIK, parse_cards, best_opening
    >>> opening = best_opening(parse_cards("9S 10S JS 8H 8D 8C 2C"), REMIK)
    >>> [str(m) for m in opening.melds], opening.points, str(opening.leftover)
    (['9S 10S JS', '8H 8D 8C'], 53, '2C')

    A remik player keeps a card for the discard (R-T3); ``keep=0`` lays all it can:

    >>> hand = parse_cards("9S 10S JS QS KS 8H 8D 8C 5H 6H 7H 2C 3C 4C")
    >>> best_opening(hand, REMIK).points, best_opening(hand, REMIK, keep=0).points
    (91, 100)
    """
    return search_opening(hand, rules, DEFAULT_SETTINGS, keep=keep)


def search_opening(
    hand: Iterable[Card], rules: Ruleset, settings: SearchSettings, *, keep: int | None = None
) -> Opening | None:
    """:func:`best_opening` with the search tuned by ``settings`` (the same answer's value).

    Raises:
        InvalidCardsError: as :func:`best_opening`.
        RulesetError: as :func:`best_opening`.
        InvalidStateError: as :func:`best_opening`.
    """
    ms, checked = prepare(hand, rules, "hand")
    return _solve(ms, checked, check_keep(keep, checked), settings)


def can_open(hand: Iterable[Card], rules: Ruleset, *, keep: int | None = None) -> bool:
    """Whether ``hand`` holds a legal opening (R-O2) that leaves ``keep`` cards.

    ``keep`` is as in :func:`best_opening`: by default the cards the rules
    make a player keep (one in remik, R-T3).

    Raises:
        InvalidCardsError: as :func:`best_opening`.
        RulesetError: as :func:`best_opening`.
        InvalidStateError: as :func:`best_opening`.

    >>> from rummylib import REMIK, parse_cards, can_open
    >>> can_open(parse_cards("9S 10S JS 8H 8D 8C 2C"), REMIK), can_open(parse_cards("9S 10S JS 8H 8D 2C"), REMIK)
    (True, False)
    >>> can_open(parse_cards("9S 10S JS 8H 8D 8C"), REMIK), can_open(parse_cards("9S 10S JS 8H 8D 8C"), REMIK, keep=0)
    (False, True)
    """
    return search_opening(hand, rules, DEFAULT_SETTINGS, keep=keep) is not None
