"""A sound screen for "this hand cannot be laid out this turn": the cards only a new meld can take (R-D2, J4, T2).

To go out, every natural card of the hand but the one discard (R-T2, E1,
E3) leaves the hand in one of three ways: in a new meld, by a lay-off onto a
table meld, or by a joker swap into a table meld (R-J4). A lay-off onto a
meld laid this same turn leaves a longer new meld of the hand's cards, so it
is the first way. Before opening (R-D2: take the discard to open and go out)
the order is fixed too, but the screen ignores order, which only allows more.

**Cards with somewhere else to go.** A natural card *may* go elsewhere than
in a new meld when a table set has its rank, when a table run of its suit
could reach it (from a run end through positions the hand holds, each gap
costing one of the hand's own jokers: a joker freed by a swap goes into a new
meld, R-J4), or when a table joker stands for it (a swap). Every other
natural card is *bound*: it leaves in a new meld or it is the discard.

**The new melds.** They hold the hand's natural cards and at most ``J``
jokers: the hand's and one per table joker whose card the hand holds (each
swap brings one). So they are disjoint candidate melds of the *pool*, the
hand's natural cards with ``J`` jokers (:func:`~rummylib.solver._queries.candidates_with`:
every meld those cards can form, each joker placement and length). Runs of
more than five positions are left out (R-M3, M4): cut after its third position, such
a run is two runs of three or more positions holding the same cards (a part
with no natural card holds no bound card and is dropped; the parts hold no
jokers side by side that the run did not), so disjoint melds holding the
bound cards exist with the short runs alone whenever they exist at all.

:func:`cannot_cover` answers ``True`` when no set of disjoint candidate melds
of the pool holds every bound card but one; then no plan empties the hand
but for the discard, and the exact go-out search (milliseconds) is not needed.
It is a search over the bound cards only, memoised on the cards left: it
branches on the first bound card still held (the discard, or each candidate
meld holding it), so it is fast where the exact search is slow, and most of
the hands that reach the exact R-D2 question fail it.

**A joker in a gap.** A joker laid off into a table run's gap is in no new
meld. So where that count passes and the hand holds a joker, a plan either
lays none off into a gap (the cards only a gap would let a run reach are
bound, every joker may meld) or lays one off (the cards are as above, one
joker fewer melds): :func:`cannot_cover` answers ``True`` too when both fail.
Either refines the first count (more bound cards, or fewer jokers), so it is
asked first: when it fails both do.
"""

from __future__ import annotations

import itertools
from typing import Final

from rummylib.cards import CardMultiset
from rummylib.engine._cache import register
from rummylib.melds import Meld
from rummylib.rules import Ruleset
from rummylib.solver._goout_screen import table_takes
from rummylib.solver._masks import GUARD, pack_counts, rank_masks

__all__ = ["cannot_cover", "may_meld"]


def cannot_cover(hand: CardMultiset, table: tuple[Meld, ...], rules: Ruleset) -> bool:
    """Whether ``hand`` surely cannot be laid out onto ``table`` this turn but for one discard.

    ``table`` is every meld a lay-off or swap could reach. ``False`` decides
    nothing (see the module docstring).
    """
    counts = hand.counts
    held = counts[52] if rules.jokers else 0
    # Freed jokers go into new melds (R-J4): only the hand's jokers are laid off into a table run's gaps.
    jokers, elsewhere = table_takes(counts, table, rules, held)
    if not _covers(counts, elsewhere, jokers, rules):
        return True  # the loosest count: every joker melds, and every card a table run could reach goes there
    if not held:
        return False
    _, strict = table_takes(counts, table, rules, 0)
    if strict == elsewhere or _covers(counts, strict, jokers, rules):
        return False  # no joker laid off into a gap: the cards one would reach are bound, every joker melds
    return not _covers(counts, elsewhere, jokers - 1, rules)  # a joker laid off: one fewer in new melds


def _covers(counts: tuple[int, ...], elsewhere: int, jokers: int, rules: Ruleset) -> bool:
    bound = [i for i in range(52) if counts[i] and not elsewhere >> i & 1]
    if len(bound) <= 1 and (not bound or counts[bound[0]] <= 1):
        return True  # at most one bound card: it can be the discard
    pool = (*counts[:52], min(rules.jokers, jokers))
    masks = rank_masks(counts)  # the pool's naturals are the hand's: the masks the go-out screen read (kept)
    return _Search(pool, bound, rules, masks).covers(pack_counts(pool), False)


class _Search:
    """Can disjoint candidate melds of the pool hold every bound card but one? (memoised on the cards left).

    The cards left are one integer, a byte per card index (:func:`~rummylib.solver._masks.pack_counts`; a
    count is at most 16, so bit 7 of each byte is free): a meld fits when subtracting its packed cards from
    the counts with every bit 7 set leaves every bit 7 set, and the first bound card still held is the
    lowest byte the bound cards' mask keeps (they are in index order).
    """

    __slots__ = ("_bound", "_masks", "_memo", "_pool", "_rules", "_with")

    def __init__(self, pool: tuple[int, ...], bound: list[int], rules: Ruleset, masks: list[int]) -> None:
        self._pool = pool
        self._masks = masks  # rank_masks of the pool's naturals, read once
        self._bound = sum(0xFF << (i << 3) for i in bound)  # each bound card's byte
        self._rules = rules
        self._memo: dict[tuple[int, bool], bool] = {}
        self._with: dict[int, tuple[int, ...]] = {}

    def _melds_with(self, index: int) -> tuple[int, ...]:
        found = self._with.get(index)
        if found is None:
            found = self._with[index] = _option_entry(self._pool, self._rules, index, self._masks)[1]
        return found

    def covers(self, counts: int, discarded: bool) -> bool:
        """Whether the bound cards left in ``counts`` (packed) go into disjoint melds (one may be the discard, if not yet)."""
        held = counts & self._bound
        if not held:
            return True
        key = (counts, discarded)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        self._memo[key] = False  # no cycles: every step takes a card
        first = ((held & -held).bit_length() - 1) >> 3  # the first bound card still held
        found = False
        guarded = counts | GUARD  # each byte's bit 7 set: a byte that borrows loses it
        for packed in self._melds_with(first):
            if (guarded - packed) & GUARD == GUARD and self.covers(counts - packed, discarded):
                found = True
                break
        if not found and not discarded:
            found = self.covers(counts - (1 << (first << 3)), True)
        self._memo[key] = found
        return found


#: A suit's 13 bytes of packed cards, and the joker's byte (card index 52), as shifts.
_SUIT_SHIFT: Final = 8 * 13
_JOKER_SHIFT: Final = 8 * 52


def _option_entry(
    pool: tuple[int, ...], rules: Ruleset, index: int, masks: list[int] | None = None
) -> tuple[Ruleset, tuple[int, ...]]:
    """The cards of each candidate meld of ``pool`` that holds card ``index``, once each, packed.

    Melds that take the same cards are one choice for the search, wherever
    their jokers stand. They depend only on the card, which positions of its
    suit and which suits of its rank the pool holds, and the jokers, so they
    are kept per those (hands that share a suit share them). The pairs of
    :func:`~rummylib.solver._queries.candidates_with`, each set of naturals
    once with its fewest jokers (:func:`_fewest_runs`, :func:`_fewest_groups`;
    a test checks), built on bit masks without building the melds, each packed as
    :func:`~rummylib.solver._masks.packed_cards` packs them (what :class:`_Search`
    reads). The entry: the ruleset and those packed cards.

    The runs are kept apart, per rank and positions held whatever the suit
    (the options of a suit are those of the first suit, shifted by its bytes),
    and so are the groups, per card and suits held: a new entry mostly
    combines the two. ``masks``: :func:`~rummylib.solver._masks.rank_masks` of ``pool``, if known.
    """
    suit, rank = divmod(index, 13)
    jokers = pool[52]
    if masks is None:
        masks = rank_masks(pool)
    row = _reach(masks[suit], rank, jokers, rules.ace_high)
    column = (
        (masks[0] >> rank & 1) | (masks[1] >> rank & 1) << 1 | (masks[2] >> rank & 1) << 2 | (masks[3] >> rank & 1) << 3
    )
    key = (index, row, column, jokers, id(rules))
    hit = _OPTIONS.get(key)
    if hit is not None and hit[0] is rules:
        return hit
    shift = _SUIT_SHIFT * suit
    best = {naturals << shift: used for naturals, used in _suit_runs(rank, row, jokers, rules)}
    for naturals, used in _rank_groups(suit, rank, column, jokers, rules):
        kept = best.get(naturals)
        if kept is None or used < kept:  # a run and a group share only one natural card and two jokers
            best[naturals] = used
    if len(_OPTIONS) >= 4096:
        _OPTIONS.clear()
    entry = _OPTIONS[key] = (rules, tuple([naturals + (used << _JOKER_SHIFT) for naturals, used in best.items()]))
    return entry


#: An option: its natural cards packed, and its jokers.
_Option = tuple[int, int]


def _suit_runs(rank: int, row: int, jokers: int, rules: Ruleset) -> tuple[_Option, ...]:
    """The options of :func:`_fewest_runs` of the first suit (``row``: its positions within reach), kept."""
    key = (rank, row, jokers, rules.ace_high, rules.adjacent_jokers)  # all _fewest_runs reads of the rules
    found = _RUNS.get(key)
    if found is None:
        if len(_RUNS) >= 1 << 14:
            _RUNS.clear()
        found = _RUNS[key] = _fewest_runs(rank, row, jokers, rules.ace_high, not rules.adjacent_jokers)
    return found


def _rank_groups(suit: int, rank: int, column: int, jokers: int, rules: Ruleset) -> tuple[_Option, ...]:
    """The options of :func:`_fewest_groups`, kept per card, suits held, jokers and ruleset."""
    key = (suit, rank, column, jokers, rules.group3_max_jokers, rules.group4_max_jokers)  # all it reads of the rules
    found = _GROUPS.get(key)
    if found is None:
        if len(_GROUPS) >= 1 << 14:
            _GROUPS.clear()
        found = _GROUPS[key] = _fewest_groups(suit, rank, column, jokers, rules)
    return found


def _reach(row: int, rank: int, jokers: int, ace_high: bool) -> int:
    """:func:`_within_reach`, kept."""
    key = (row, rank, jokers, ace_high)
    found = _REACH.get(key)
    if found is None:
        if len(_REACH) >= 1 << 15:
            _REACH.clear()
        found = _REACH[key] = _within_reach(row, rank, jokers, ace_high)
    return found


_RUNS: dict[tuple[int, int, int, bool, bool], tuple[_Option, ...]] = {}
_GROUPS: dict[tuple[int, ...], tuple[_Option, ...]] = {}
_REACH: dict[tuple[int, int, int, bool], int] = {}
register(_RUNS)  # engine._cache.clear() forgets these too: a cold listing starts without them
register(_GROUPS)
register(_REACH)


def _within_reach(row: int, rank: int, jokers: int, ace_high: bool) -> int:
    """``row`` (bit ``r`` per rank index held) less the ranks no run through ``rank`` can reach with ``jokers``.

    A run holding the card covers, on each side, held positions and at most
    ``jokers`` missing ones, and :data:`_LONGEST` positions in all; a position
    past the first missing one it cannot pay for, or too far, is in no such run, so its card changes none of the runs
    (:func:`_fewest_runs`) and is left out of the key: hands that differ there
    share the options.
    """
    top = 14 if ace_high else 13
    held = row << 1
    if ace_high and row & 1:
        held |= 1 << 14
    reach = 0
    for p in (1, 14) if rank == 0 and ace_high else (rank + 1,):
        reach |= 1 << p
        for step in (-1, 1):
            q, missing = p + step, 0
            while 1 <= q <= top and abs(q - p) <= _LONGEST - 1:
                if not held >> q & 1:
                    if missing == jokers:
                        break
                    missing += 1
                reach |= 1 << q
                q += step
    kept = held & reach
    return (kept >> 1) & 0x1FFF | (kept >> 14 & 1)


#: The most positions of a run the screen lists: a longer run is two shorter ones (see the module docstring).
_LONGEST: Final = 5


#: Per run position (1 = ace low .. 13 = king, 14 = ace high): its card's byte in the first suit, packed.
_POSITION_BYTE: Final = (0, *(1 << (8 * (q - 1)) for q in range(1, 14)), 1)


def _fewest_runs(rank: int, row: int, jokers: int, ace_high: bool, apart: bool) -> tuple[_Option, ...]:
    """The runs of the first suit holding the card of ``rank``: each set of natural cards once, fewest jokers.

    A run is a window of 3 to :data:`_LONGEST` positions (1 = ace low .. 13 =
    king, 14 = the high ace) around the card: each position not held is a
    joker, any other but the card's may be one, within ``jokers`` and, where
    ``apart``, with no two jokers side by side (R-M1..M4, J1, J3). Jokers are no
    bound card, so of the runs with the same natural cards only the fewest
    jokers matter: a set of naturals spanning three positions or more is
    best laid from its lowest to its highest (a longer window only adds
    jokers at its ends, and no window holds its inner jokers apart if that one
    does not); one spanning fewer is a window of three with jokers at its
    ends. So each set is the card and any held positions near it that span
    at most :data:`_LONGEST` positions.
    """
    top = 14 if ace_high else 13
    held = row << 1
    if ace_high and row & 1:
        held |= 1 << 14
    byte = _POSITION_BYTE
    best: dict[int, int] = {}
    for p in (1, 14) if rank == 0 and ace_high else (rank + 1,):
        # Every set: the card and held positions near it, spanning at most _LONGEST positions.
        near = held & ~(1 << p) & ((1 << (min(top, p + _LONGEST - 1) + 1)) - (1 << max(1, p - _LONGEST + 1)))
        sets = [(1 << p, byte[p])]
        while near:
            bit = near & -near
            near ^= bit
            card = byte[bit.bit_length() - 1]
            for naturals, cards in sets[:]:
                grown = naturals | bit
                if grown.bit_length() - (grown & -grown).bit_length() < _LONGEST:
                    sets.append((grown, cards | card))
        for naturals, cards in sets:
            lo = (naturals & -naturals).bit_length() - 1
            hi = naturals.bit_length() - 1
            if hi - lo >= 2:
                missing = ((1 << (hi + 1)) - (1 << lo)) & ~naturals
                used = missing.bit_count()
                if used > jokers or (apart and missing & (missing >> 1)):
                    continue
            else:  # no position between: a window of three with jokers at its ends
                used = 3 - naturals.bit_count()
                if used > jokers or not _widens(lo, hi, naturals, top, apart):
                    continue
            kept = best.get(cards)
            if kept is None or used < kept:
                best[cards] = used
    return tuple(best.items())


def _widens(lo: int, hi: int, naturals: int, top: int, apart: bool) -> bool:
    """Whether some window of three positions within 1..``top`` holds ``lo``..``hi``, jokers apart where ``apart``."""
    for a in range(hi - 2, lo + 1):
        if a >= 1 and a + 2 <= top:
            missing = ((1 << (a + 3)) - (1 << a)) & ~naturals
            if not (apart and missing & (missing >> 1)):
                return True
    return False


def _fewest_groups(suit: int, rank: int, column: int, jokers: int, rules: Ruleset) -> tuple[_Option, ...]:
    """The groups of ``rank`` holding the card of ``suit`` (R-M5, J2): each set of suits held once, fewest jokers.

    ``column``: a bit per suit of the rank held. A set of ``k`` suits is a
    group of three with ``3 - k`` jokers or of four with ``4 - k``, within
    the rules' joker limits and ``jokers``.
    """
    others = [s for s in range(4) if s != suit and column >> s & 1]
    out: list[_Option] = []
    for n in range(len(others) + 1):
        k = n + 1
        if k >= 3:
            used = 0
        elif 3 - k <= min(rules.group3_max_jokers, jokers):
            used = 3 - k
        elif 4 - k <= min(rules.group4_max_jokers, jokers, 3):
            used = 4 - k
        else:
            continue
        for chosen in itertools.combinations(others, n):
            packed = 1 << (8 * (suit * 13 + rank))
            for s in chosen:
                packed |= 1 << (8 * (s * 13 + rank))
            out.append((packed, used))
    return tuple(out)


_OPTIONS: dict[tuple[object, ...], tuple[Ruleset, tuple[int, ...]]] = {}
register(_OPTIONS)


def _window_pairs(index: int, ace_high: bool) -> tuple[tuple[int, int], ...]:
    """The other two card indices of each run window of three positions holding natural ``index`` (R-M1, M4)."""
    suit, rank = divmod(index, 13)
    top = 14 if ace_high else 13
    out = []
    for pos in (1, 14) if rank == 0 and ace_high else (rank + 1,):
        for low in (pos - 2, pos - 1, pos):
            if low >= 1 and low + 2 <= top:
                a, b = (suit * 13 + (q - 1) % 13 for q in range(low, low + 3) if q != pos)
                out.append((a, b))
    return tuple(out)


#: Per ``ace_high`` (0, 1) and natural card index: :func:`_window_pairs`; per index, its rank's other suits.
_PAIRS: Final = tuple(tuple(_window_pairs(i, high) for i in range(52)) for high in (False, True))
_OTHER_SUITS: Final = tuple(tuple(s * 13 + i % 13 for s in range(4) if s != i // 13) for i in range(52))


def may_meld(index: int, nat: tuple[int, ...], jokers: int, rules: Ruleset) -> bool:
    """A cheap necessary condition: could natural ``index`` sit in some meld with ``nat`` and ``jokers``?

    ``nat``: the natural cards' 52 counts, or a hand's 53 (the joker count is not read: ``jokers`` is; nor
    is the card's own count, so it may be asked of a hand before the card is taken, R-D2).

    Two jokers complete any card; else a group needs two more suits of its rank (one, with a joker where
    a set of three may hold one), and a run a window of three positions around the card holding two more
    cards or jokers: a few lookups of the counts, no masks.
    """
    if jokers >= 2:
        return True
    a, b, c = _OTHER_SUITS[index]
    others = (nat[a] > 0) + (nat[b] > 0) + (nat[c] > 0)
    if others >= 2 or (others and jokers and rules.group3_max_jokers):
        return True
    if jokers:
        for i, j in _PAIRS[rules.ace_high][index]:  # noqa: SIM110 - a loop: no generator on the hot path
            if nat[i] or nat[j]:
                return True
        return False
    for i, j in _PAIRS[rules.ace_high][index]:  # noqa: SIM110 - as above
        if nat[i] and nat[j]:
            return True
    return False
