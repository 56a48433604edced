"""A fast path for :func:`~rummylib.best_partition` on small hands with jokers.

A remik hand of 14 cards holds a joker about half the time, and a bot asks
for its least deadwood every turn. The general search (:class:`Cover
<rummylib.solver._search.Cover>`) spends most of such a call on set-up: the
search object, the rows cut to the hand, the packed count vector. This
module runs the same search on plain integers, as ``_small`` does for hands
without jokers:

- The hand is a bitmask ``a`` over the 52 search positions of
  ``_tables.POS`` (rank-major), a mask ``b`` of the cards held twice, and a
  joker count ``j``.
- The search branches on the lowest card as ``Cover.best`` does: each
  candidate of the cached per-ruleset row whose lowest card it is, in the
  row's order, when its naturals are held and it needs no more jokers than
  are left; then leaving every copy of the card over. It keeps the *first*
  best and prunes (fail-soft) with the penalty still in hand as the bound.
- Jokers are never branched on: those no candidate took stay in hand.

Every exact fail-soft search of this form picks, at each state of its
answer, the first candidate reaching the state's best (leaving the card only
when strictly better), so this path and the general one return the same
shapes, which are then built, ordered and joined by the general path's own
code. Cards no candidate can take are not dropped first (``Cover.restrict``
drops them): each is one step that leaves it over, and changes no choice.

Inputs outside it (no joker, more than ``small_max`` cards, the relaxation's
or the trial's zone, two copies more than the deck allows, jokers side by
side, or the suit-major order of ``suit_major_from``) return ``None``.
"""

from __future__ import annotations

from itertools import compress
from operator import mul
from typing import Final, NamedTuple

from rummylib.cards import CardMultiset
from rummylib.rules import Ruleset
from rummylib.solver._optimise import wants_trial
from rummylib.solver._priced import wants_lp
from rummylib.solver._results import Partition, RulesCache
from rummylib.solver._search import card_penalties, shape_gain_penalty
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import POS, Shape, build_melds, leftover, piece_tables, sum_at

__all__ = ["small_joker_partition"]

#: Bit of each card index at its search position.
_BIT: tuple[int, ...] = tuple(1 << POS[c] for c in range(52))
_MORE_THAN_ONE = (1).__lt__


class _Entry(NamedTuple):
    """A candidate meld as the search reads it (by position in the hot loop)."""

    mask: int  # bit per natural at its search position
    jokers: int
    gain: int  # the penalty it takes out of the hand (R-V): naturals and jokers
    shape: Shape


#: Cut rows kept per ruleset; past it the cache starts over (it is only a speed-up).
_CUTS_LIMIT: Final = 20_000


class _Rows(NamedTuple):
    """Per ruleset: the candidates per lowest search position, and the penalties."""

    rows: tuple[tuple[_Entry, ...], ...]
    pens: tuple[int, ...]  # by card index, joker last
    pos_pens: tuple[int, ...]  # by search position
    masks: tuple[int, ...]  # per position: every bit a candidate of its row uses
    most: tuple[int, ...]  # per position: the most jokers a candidate of its row holds
    #: (position, the hand's bits among its row's, jokers up to ``most``) -> the row's candidates that fit, their bits.
    cuts: dict[tuple[int, int, int], tuple[tuple[_Entry, ...], int]]


#: Per state (``a | b << 64 | j << 128``): best gain, whether it is exact, the first choice reaching it.
_Memo = dict[int, tuple[int, bool, _Entry | None]]
_Table = tuple[tuple[_Entry, ...], ...]


def _build(rules: Ruleset) -> _Rows:
    pens = card_penalties(rules)
    tables = piece_tables(rules)  # rank-major, the order tables_for gives a small hand
    rows = tuple(
        tuple(_Entry(sum(_BIT[c] for c in s.naturals), s.jokers, shape_gain_penalty(s, pens), s) for s in row)
        for row in tables.by_low
    )
    pos_pens = tuple(pens[c] for c in tables.card_at)
    masks = tuple(_union(row) for row in rows)
    most = tuple(max((e.jokers for e in row), default=0) for row in rows)
    return _Rows(rows, pens, pos_pens, masks, most, {})


def _union(row: tuple[_Entry, ...]) -> int:
    used = 0
    for entry in row:
        used |= entry.mask
    return used


def _cut(table: _Rows, a: int, j: int) -> tuple[list[tuple[_Entry, ...]], int]:
    """Per position of ``a``: its row's candidates that fit in ``a`` and ``j`` jokers; and every bit they use.

    As ``Cover.restrict`` cuts its rows (``_row_fits`` keeps the same cuts): a
    card of ``a`` outside those bits is in no candidate that fits, now or later.
    """
    rows: list[tuple[_Entry, ...]] = [()] * 52
    alive = 0
    cuts, masks, most, full = table.cuts, table.masks, table.most, table.rows
    q = a
    while q:
        low = q & -q
        q ^= low
        i = low.bit_length() - 1
        key = (i, a & masks[i], min(j, most[i]))
        cut = cuts.get(key)
        if cut is None:
            if len(cuts) >= _CUTS_LIMIT:
                cuts.clear()
            row = tuple(e for e in full[i] if e.jokers <= j and e.mask & a == e.mask)
            cut = cuts[key] = (row, _union(row))
        rows[i] = cut[0]
        alive |= cut[1]
    return rows, alive


_ROWS: RulesCache[_Rows] = RulesCache(_build)


def _best(a: int, b: int, j: int, rem: int, alpha: int, rows: _Table, pens: tuple[int, ...], memo: _Memo) -> int:
    """Best gain from single copies ``a``, doubles ``b`` (within ``a``) and ``j`` jokers, worth ``rem``.

    Fail-soft against ``alpha``, as ``Cover.best``: a value above ``alpha`` is
    exact, one at or below it only an upper bound.
    """
    if rem <= alpha:
        return rem
    key = a | b << 64 | j << 128
    hit = memo.get(key)
    if hit is not None and (hit[1] or hit[0] <= alpha):
        return hit[0]
    if not a:
        memo[key] = (0, True, None)  # the jokers left stay in hand
        return 0
    low = a & -a
    i = low.bit_length() - 1
    best = -1
    choice: _Entry | None = None
    for entry in rows[i]:
        m, k, gain = entry[0], entry[1], entry[2]
        if k > j or m & a != m:
            continue
        floor = (alpha if alpha > best else best) - gain  # noqa: FURB136 - no call in the hot loop
        sub = rem - gain
        if sub > floor:
            sub = _best((a ^ m) | (b & m), b & ~m, j - k, sub, floor, rows, pens, memo)
        if sub + gain > best:
            best = sub + gain
            choice = entry
    lost = pens[i] * 2 if b & low else pens[i]
    floor = alpha if alpha > best else best  # noqa: FURB136 - no call in the hot loop
    value = _best(a ^ low, b & ~low, j, rem - lost, floor, rows, pens, memo)
    if value > best:
        best = value
        choice = None
    memo[key] = (best, best > alpha, choice)
    return best


def _path(a: int, b: int, j: int, memo: _Memo) -> list[Shape]:
    """The shapes :func:`_best` chose along its best line from ``a``, ``b`` and ``j``."""
    chosen: list[Shape] = []
    while a:
        entry = memo[a | b << 64 | j << 128][2]
        if entry is None:
            low = a & -a
            a ^= low
            b &= ~low
        else:
            m = entry[0]
            chosen.append(entry[3])
            a = (a ^ m) | (b & m)
            b &= ~m
            j -= entry[1]
    return chosen


def small_joker_partition(
    ms: CardMultiset, rules: Ruleset, settings: SearchSettings = DEFAULT_SETTINGS
) -> Partition | None:
    """The least-penalty partition of a small hand with jokers, or None if not covered.

    ``ms`` and ``rules`` are already checked (``_results.prepare``). The answer
    is exactly the general search's.

    >>> from rummylib import REMIK, parse_cards, CardMultiset
    >>> p = small_joker_partition(CardMultiset(parse_cards("5H 6H JK 9C 9D KS")), REMIK)
    >>> [str(m) for m in p.melds], str(p.leftover), p.penalty
    (['JK=9S 9D 9C'], 'KS 5H 6H', 21)
    """
    counts = ms.counts
    size = len(ms)
    jokers = counts[52]
    if (
        not jokers
        or not rules.jokers
        or size > settings.small_max
        or wants_lp(size, settings)
        or wants_trial(size, settings)
        or size >= settings.suit_major_from
        or rules.adjacent_jokers
        or max(counts[:52]) > 2
    ):
        return None
    table = _ROWS(rules)
    a = sum(compress(_BIT, counts))
    rows, alive = _cut(table, a, jokers)
    a &= alive  # cards no candidate can take: left over in every answer
    b = sum(compress(_BIT, map(_MORE_THAN_ONE, counts[:52]))) & alive
    pos_pens = table.pos_pens
    rem = sum_at(a, pos_pens) + sum_at(b, pos_pens) + jokers * table.pens[52]
    memo: _Memo = {}
    _best(a, b, jokers, rem, -1, tuple(rows), pos_pens, memo)
    pens = table.pens
    shapes = _path(a, b, jokers, memo)
    left = leftover(counts, shapes)
    return Partition(build_melds(shapes, rules), left, sum(map(mul, pens, left.counts)))
