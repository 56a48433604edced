"""A fast path for :func:`~rummylib.best_partition` on small hands without jokers.

Gin rummy's deadwood question (ten cards, one deck, no jokers) is asked
millions of times by bots and simulations, and on such hands the general
search spends most of its time on per-call set-up rather than on searching.
This module answers the same question with plain integers:

- The hand is one bitmask ``a`` over the 52 search positions of
  ``_tables.POS`` (rank-major: the aces, then the twos, ...) and, with two
  decks, a second mask ``b`` of the cards held twice.
- A card that no candidate meld fitting in the hand contains is *dead*: it
  is left over in every answer. Every candidate contains a run of three or a
  group of three that fits, so the live cards come out of a few shifts and
  ands over the whole mask at once; a hand with no live card is answered
  without any search (about two in three random ten-card hands).
- The live cards are searched exactly as :class:`~rummylib.solver._search.Cover`
  does: branch on the lowest card, try the candidates whose lowest card it is
  in the order of the cached per-ruleset tables, then leaving it (every copy)
  over, and keep the *first* best. Both prune (fail-soft) with the penalty
  still in hand as the bound, but a pruned branch never holds a first best,
  so both pick the same melds on every hand, ties included.
- Melds are joined and ordered as ``_tables.build_melds`` does, and taken
  from a cache of meld values (runs and groups without jokers do not depend on
  the ruleset; there are a few hundred of them), so a result costs a few
  dictionary look-ups rather than building and checking new melds.

The result is therefore exactly the general path's, only sooner. Inputs the
path does not cover (jokers in the hand, more than two copies of a card,
rules with jokers side by side, whose candidates differ, more than
``small_max`` cards (:class:`~rummylib.solver._settings.SearchSettings`; up to
20 cards it was faster than the general search on every hand tried), or the
general search's LP zone, from which it orders its candidates by the
relaxation's prices and may return another partition of equal penalty)
return ``None`` and take the general path. A hand passed as a plain list is
read by ``best_partition`` (with ``_small_list``'s tables) without building a
multiset first.

>>> from rummylib import STRAIGHT, parse_cards, CardMultiset
>>> p = small_partition(CardMultiset(parse_cards("2H 3H 4H 5H 9C 9D 9S KS 7D")), STRAIGHT)
>>> [str(m) for m in p.melds], p.penalty
(['2H 3H 4H 5H', '9S 9D 9C'], 17)
"""

from __future__ import annotations

from itertools import compress
from operator import mul
from typing import NamedTuple

from rummylib._card import CARDS
from rummylib._card import SUITS as _SUITS
from rummylib.cards import CardMultiset
from rummylib.melds import Meld, Run
from rummylib.rules import Ruleset
from rummylib.solver._priced import wants_lp
from rummylib.solver._results import Partition, RulesCache, counted_partition, trusted_partition
from rummylib.solver._search import card_penalties
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import POS, Shape, build_meld, card_index_at, piece_tables, sum_at

__all__ = ["small_partition"]


#: Bit of each card index at its search position.
_BIT: tuple[int, ...] = tuple(1 << POS[c] for c in range(52))
#: Bit 0 of every rank's four positions.
_NIBBLES = sum(1 << (4 * r) for r in range(13))
_MORE_THAN_ONE = (1).__lt__


class _Entry(NamedTuple):
    """A candidate meld without jokers, as the fast search and the result need it."""

    mask: int  # bit per natural at its search position
    gain: int  # penalty it takes out of the hand (R-V)
    order: tuple[bool, int, int]  # build_melds' sort key: (not a run, key, lowest card index)
    suit: int  # a run's suit (0-3); -1 for a group
    start: int  # a run's first position (1-14)
    end: int  # a run's last position
    naturals: tuple[int, ...]  # card indices
    meld: Meld | None  # the group itself (runs are joined first, then looked up)


#: The search's answer on some single copies: the melds, the card indices they take, the penalty they take
#: out of the hand (a plain tuple: the list path unpacks it in one specialised instruction).
_Answer = tuple[tuple[Meld, ...], tuple[int, ...], int]


class _Rows(NamedTuple):
    """Per ruleset: candidate entries per lowest search position, and the penalties."""

    rows: tuple[tuple[_Entry, ...], ...]
    pens: tuple[int, ...]  # by card index, joker last
    pos_pens: tuple[int, ...]  # by search position
    ace_high: bool
    #: The answer of :func:`_best1` on the cards of each candidate (by mask): in about one random ten-card
    #: hand in three the live cards are exactly one candidate's, so no search is left to run.
    pieces: dict[int, _Answer]


def _entry(shape: Shape, pens: tuple[int, ...]) -> _Entry:
    mask = 0
    for c in shape.naturals:
        mask |= _BIT[c]
    gain = sum(pens[c] for c in shape.naturals)
    order = (not shape.is_run, shape.key, shape.low)
    if shape.is_run:
        suit, start = divmod(shape.key, 16)
        return _Entry(mask, gain, order, suit, start, start + len(shape.layout) - 1, shape.naturals, None)
    return _Entry(mask, gain, order, -1, 0, 0, shape.naturals, build_meld(shape))


def _build(rules: Ruleset) -> _Rows:
    pens = card_penalties(rules)
    tables = piece_tables(rules)  # rank-major: its rows are indexed by POS, as ours
    rows = tuple(tuple(_entry(s, pens) for s in row if not s.jokers) for row in tables.by_low)
    pos_pens = tuple(pens[c] for c in tables.card_at)  # the card at each search position
    masks = {entry.mask for row in rows for entry in row}
    pieces = {m: _search1(m, rows, pos_pens) for m in sorted(masks)}
    return _Rows(rows, pens, pos_pens, rules.ace_high, pieces)


_ROWS: RulesCache[_Rows] = RulesCache(_build)

#: Runs without jokers by (suit, start, end): values independent of the ruleset,
#: at most a few hundred, so this cache is bounded by construction.
_RUNS: dict[tuple[int, int, int], Run] = {}


def _run(suit: int, start: int, end: int) -> Run:
    key = (suit, start, end)
    run = _RUNS.get(key)
    if run is None:
        cards = tuple(CARDS[card_index_at(p, suit)] for p in range(start, end + 1))
        run = _RUNS[key] = Run(_SUITS[suit], start, cards)
    return run


#: Per position pair, and per nibble's two halves: the masks of a population count per rank (4 bits, 4 suits).
_PAIRS = sum(1 << i for i in range(0, 52, 2))
_HALVES = sum(3 << i for i in range(0, 52, 4))


def _live(a: int, ace_high: bool) -> int:
    """The cards of ``a`` (positions) in some run of three or group of three within ``a``."""
    r3 = a & (a >> 4) & (a >> 8)  # bit at the lowest card of each run of three
    live = r3 | (r3 << 4) | (r3 << 8)
    if ace_high:
        top = (a >> 44) & (a >> 48) & a & 15  # suits holding Q, K and A
        live |= top | (top << 44) | (top << 48)
    pairs = a - ((a >> 1) & _PAIRS)  # per rank, two 2-bit counts of suits held ...
    held = (pairs & _HALVES) + ((pairs >> 2) & _HALVES)  # ... and the count (0-4) in its nibble
    three = ((held + _NIBBLES) >> 2) & _NIBBLES  # bit 0 of each rank held in 3+ suits (count + 1 >= 4)
    return live | (a & (three * 15))


#: Per state (its masks as one int): best gain, whether it is exact, the first choice reaching it.
_Memo = dict[int, tuple[int, bool, _Entry | None]]
_Table = tuple[tuple[_Entry, ...], ...]


def _best1(a: int, rem: int, alpha: int, rows: _Table, pens: tuple[int, ...], memo: _Memo) -> int:
    """Best gain from the single copies ``a`` (penalty ``rem``), fail-soft against ``alpha``.

    As ``Cover.best``: a value above ``alpha`` is exact, one at or below it only
    an upper bound; ``memo`` keeps per state the value, whether it is exact, and
    the first choice reaching it.
    """
    if rem <= alpha:
        return rem
    hit = memo.get(a)
    if hit is not None and (hit[1] or hit[0] <= alpha):
        return hit[0]
    low = a & -a
    i = low.bit_length() - 1
    best = -1
    choice: _Entry | None = None
    for entry in rows[i]:
        m = entry[0]
        if m & a == m:
            gain = entry[1]
            value = _best1(a ^ m, rem - gain, (max(alpha, best)) - gain, rows, pens, memo) + gain
            if value > best:
                best = value
                choice = entry
    value = _best1(a ^ low, rem - pens[i], max(alpha, best), rows, pens, memo)
    if value > best:
        best = value
        choice = None
    memo[a] = (best, best > alpha, choice)
    return best


def _best2(a: int, b: int, rem: int, alpha: int, rows: _Table, pens: tuple[int, ...], memo: _Memo, memo1: _Memo) -> int:
    """As :func:`_best1`, with ``b`` (within ``a``) the cards held twice; ``memo1`` once ``b`` is empty."""
    if not b:
        return _best1(a, rem, alpha, rows, pens, memo1)
    if rem <= alpha:
        return rem
    key = a | b << 64
    hit = memo.get(key)
    if hit is not None and (hit[1] or hit[0] <= alpha):
        return hit[0]
    low = a & -a
    i = low.bit_length() - 1
    best = -1
    choice: _Entry | None = None
    for entry in rows[i]:
        m = entry[0]
        if m & a == m:
            gain = entry[1]
            floor = (max(alpha, best)) - gain
            value = _best2((a ^ m) | (b & m), b & ~m, rem - gain, floor, rows, pens, memo, memo1) + gain
            if value > best:
                best = value
                choice = entry
    lost = pens[i] * 2 if b & low else pens[i]
    value = _best2(a ^ low, b & ~low, rem - lost, max(alpha, best), rows, pens, memo, memo1)
    if value > best:
        best = value
        choice = None
    memo[key] = (best, best > alpha, choice)
    return best


def _path1(a: int, memo: _Memo, chosen: list[_Entry]) -> list[_Entry]:
    """Append the choices :func:`_best1` stored along the best line from ``a``."""
    while a:
        entry = memo[a][2]
        if entry is None:
            a &= a - 1
        else:
            chosen.append(entry)
            a ^= entry[0]
    return chosen


def _path2(a: int, b: int, memo: _Memo, memo1: _Memo) -> list[_Entry]:
    """The choices :func:`_best2` stored along the best line from ``a`` and ``b``."""
    chosen: list[_Entry] = []
    while b:
        entry = memo[a | b << 64][2]
        if entry is None:
            low = a & -a
            a ^= low
            b &= ~low
        else:
            m = entry[0]
            chosen.append(entry)
            a = (a ^ m) | (b & m)
            b &= ~m
    return _path1(a, memo1, chosen)


def _melds(chosen: list[_Entry]) -> list[Meld]:
    """The melds of the chosen entries, ordered and joined as ``build_melds`` does."""
    if len(chosen) > 1:
        chosen = sorted(chosen, key=_order)  # stable: ties keep the order of the search
    out: list[Meld | list[int]] = []
    runs: list[list[int]] = []  # [suit, start, end] per joined run, in first-seen order
    for entry in chosen:
        if entry.meld is not None:
            out.append(entry.meld)
            continue
        suit, start, end = entry.suit, entry.start, entry.end
        for run in runs:
            # A run that continues this one, if the two stay within 13 cards.
            if run[0] == suit and run[2] + 1 == start and end - run[1] < 13:
                run[2] = end
                break
        else:
            run = [suit, start, end]
            runs.append(run)
            out.append(run)
    return [m if isinstance(m, Meld) else _run(m[0], m[1], m[2]) for m in out]


def _order(entry: _Entry) -> tuple[bool, int, int]:
    return entry.order


def small_partition(ms: CardMultiset, rules: Ruleset, settings: SearchSettings = DEFAULT_SETTINGS) -> Partition | None:
    """The least-penalty partition of a small hand without jokers, or None if not covered.

    ``ms`` and ``rules`` are already checked (``_results.prepare``). The answer
    is exactly :func:`~rummylib.best_partition`'s general search's.

    >>> from rummylib import STRAIGHT, parse_cards, CardMultiset
    >>> p = small_partition(CardMultiset(parse_cards("AS 2S 3S 4S 5S 6S 7S KH")), STRAIGHT)
    >>> [str(m) for m in p.melds], str(p.leftover), p.penalty
    (['AS 2S 3S 4S 5S 6S 7S'], 'KH', 10)
    >>> small_partition(CardMultiset(parse_cards("AS 2S JK")), STRAIGHT) is None
    True
    """
    counts = ms.counts
    size = len(ms)
    if size > settings.small_max or wants_lp(size, settings) or counts[52] or rules.adjacent_jokers:
        return None
    table = _ROWS(rules)
    a = sum(compress(_BIT, counts))
    single = a.bit_count() == size  # no card held twice
    if single:
        return _single(a, sum(compress(table.pens, counts)), list(counts), table, size)
    if max(counts) > 2:
        return None
    total = sum(map(mul, table.pens, counts))
    live = _live(a, table.ace_high)
    if not live:
        return trusted_partition((), ms, total)
    a &= live
    pos_pens = table.pos_pens
    rows = table.rows
    memo1: _Memo = {0: (0, True, None)}
    b = sum(compress(_BIT, map(_MORE_THAN_ONE, counts))) & live
    rem = sum_at(a, pos_pens) + sum_at(b, pos_pens)
    memo2: _Memo = {}
    gain = _best2(a, b, rem, -1, rows, pos_pens, memo2, memo1)
    chosen = _path2(a, b, memo2, memo1)
    return _result(chosen, counts, ms, total - gain)


def _result(chosen: list[_Entry], counts: tuple[int, ...], ms: CardMultiset | None, penalty: int) -> Partition:
    """The partition of the chosen entries of the input ``counts`` (``ms``, if built already)."""
    if not chosen:
        return trusted_partition((), CardMultiset._trusted(counts) if ms is None else ms, penalty)
    left = list(counts)
    for entry in chosen:
        for c in entry.naturals:
            left[c] -= 1
    return trusted_partition(tuple(_melds(chosen)), CardMultiset._trusted(tuple(left)), penalty)


def _search1(b: int, rows: _Table, pos_pens: tuple[int, ...]) -> _Answer:
    """The search's answer on the live single copies ``b`` (a bit per search position)."""
    memo1: _Memo = {0: (0, True, None)}
    gain = _best1(b, sum_at(b, pos_pens), -1, rows, pos_pens, memo1)
    chosen = _path1(b, memo1, [])
    used = tuple(c for entry in chosen for c in entry.naturals)
    return tuple(_melds(chosen)), used, gain


def _single(a: int, total: int, counts: list[int], table: _Rows, size: int) -> Partition:
    """The least-penalty partition of ``size`` single copies: ``a`` (a bit per search position),
    ``counts`` (by card index, a list this may change), of penalty ``total``."""
    live = _live(a, table.ace_high)
    if not live:
        return counted_partition((), tuple(counts), size, total)
    found = table.pieces.get(live)
    melds, used, gain = _search1(live, table.rows, table.pos_pens) if found is None else found
    for c in used:
        counts[c] = 0
    return counted_partition(melds, tuple(counts), size - len(used), total - gain)
