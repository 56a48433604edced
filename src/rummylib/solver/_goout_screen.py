"""A cheap sound screen for "this hand cannot go out this turn" (R-D2, T2, E1, E3, J4).

Every card of a plan leaves the hand in a new meld, a lay-off onto a table
meld, a joker swap (R-J4) or the one discard (R-T2, E1, E3): one card at most
may be left for the discard. :func:`cannot_go_out` runs two counting
arguments on bit masks (microseconds) before the exact search (milliseconds).
Each is a necessary condition for a plan, never a guess: ``True`` means no
sequence of new melds, lay-offs and joker swaps empties the hand but for one
card. The plan search (:func:`~rummylib.solver._goout.plan_checked`) asks it
first, and the engine asks it before its R-D2 question.

Both count ``J``, an upper bound on the jokers that can end up in new melds:
the hand's, and one per table joker whose card the hand holds (a swap).

**Jokers a card needs** (:func:`_needs_jokers`). A natural card is *free*
when it may leave the hand without a joker beside it: it sits in three
consecutive held positions of its suit, its rank is held in three suits, a
table set of its rank might take it, a table run of its suit reaches it
(through held positions and at most ``H`` jokers laid off, ``H`` the hand's
own: a joker freed by a swap goes into a new meld, R-J4), or a swap might
put it in place of a table joker. Every other card needs a joker in its new
meld:

* a card with no *partner* (another held card of its suit within two
  positions, or of its rank in another suit) needs two: a run window of
  three around it, or a set of three, holds at most one joker otherwise; and
  a meld with ``j >= 2`` jokers holds at most ``j`` such cards (consecutive
  ones are at least three positions apart, with two jokers between). So at
  most ``J`` of them go, and none when ``J < 2``;
* the natural cards of a meld with ``j`` jokers form at most ``j + 1``
  blocks of consecutive positions, and a block of three or more is free; so
  the meld holds at most ``2 (j + 1) <= 4 j`` cards that are not free, and at
  most ``4 J`` of them go.

A card that no meld can hold even with every joker may only be the discard.

**Places per copy** (:func:`homeless`, for ``J < 2``). For each natural card
it over-estimates how many of its copies the first three ways can take:

* any number, if some new meld could hold it: a run window of three places
  around it (a longer run holds such a window), or a group of its rank, with
  every missing card a joker (R-M1 to M3, J2; joker limits and side-by-side
  jokers are ignored, which only allows more);
* otherwise one copy per table run of its suit it can extend (the places
  between the run's end and the card held in the hand or left to jokers; a
  run holds each place once; jokers: the hand's own, R-J4), one per group of three that lacks its suit,
  and one per table joker standing for it.

Copies beyond that must all be the discard. Jokers are never counted as left over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummylib.cards import CardMultiset
from rummylib.melds import ACE_HIGH, Group, Meld, Run
from rummylib.rules import Ruleset
from rummylib.solver._masks import ranks_with, run_covered, suit_masks

__all__ = ["cannot_go_out", "clear_facts", "homeless", "joker_stands", "table_takes"]

_LOW13 = 0x3FFE  # bits 1..13: the positions ace-low to king


class _Facts(NamedTuple):
    """What the screen reads of a table meld."""

    is_run: bool
    suit: int  # a run's suit index
    start: int  # a run's first position
    stop: int  # one past a run's last position
    rank_bit: int  # bit ``rank`` (1-13) of a group's rank; 0 for a run
    lacks: int  # a bit per suit a group of three lacks (a fourth card it may take); 0 otherwise
    stands: tuple[int, ...]  # the card index each joker stands for


_FACTS: dict[int, tuple[Meld, _Facts]] = {}


def clear_facts() -> None:
    """Forget the facts kept of table melds and the last question passed (benchmarks measure cold questions)."""
    _FACTS.clear()
    _PASSED[:] = [None, None, None]


def _facts(meld: Meld) -> _Facts:
    # Keyed on identity (the meld is held, so its id stays its own): table melds live for many turns.
    found = _FACTS.get(id(meld))
    if found is not None and found[0] is meld:
        return found[1]
    stands = tuple(x.index for c, x in zip(meld.cards, meld.represents) if c.is_joker)
    if isinstance(meld, Run):
        facts = _Facts(True, meld.suit.index, meld.start, meld.start + len(meld.cards), 0, 0, stands)
    elif isinstance(meld, Group):
        lacks = 15 & ~sum(1 << s.index for s in meld.suits) if len(meld.cards) < 4 else 0
        facts = _Facts(False, 0, 0, 0, 2 << (int(meld.rank) - 1), lacks, stands)
    else:
        facts = _Facts(False, 0, 0, 0, 0, 0, stands)
    if len(_FACTS) >= 4096:
        _FACTS.clear()
    _FACTS[id(meld)] = (meld, facts)
    return facts


def joker_stands(meld: Meld) -> tuple[int, ...]:
    """The card index each joker of ``meld`` stands for, in slot order (kept per table meld)."""
    return _facts(meld).stands


def _swaps(counts: tuple[int, ...], table: Sequence[Meld], rules: Ruleset) -> list[int]:
    """The card index of each table joker whose card the hand holds: one joker a swap may bring (R-J4)."""
    if not (rules.joker_swap and rules.jokers):
        return []
    return [x for meld in table for x in _facts(meld).stands if counts[x]]


def cannot_go_out(hand: CardMultiset, table: Sequence[Meld], rules: Ruleset) -> bool:
    """Whether ``hand`` surely cannot be laid out this turn but for one discard (see the module docstring).

    ``table`` is every meld a lay-off or swap could reach; ``False`` decides
    nothing. One card may always be left for the discard: where the rules let
    a player go out by melding (R-E3), a discard still ends the hand too.
    """
    if _PASSED[0] is hand and _PASSED[1] is table and _PASSED[2] is rules:
        return False  # the engine asked, then the plan search asks again for the same values
    counts = hand.counts
    swaps = _swaps(counts, table, rules)
    jokers = (counts[52] if rules.jokers else 0) + len(swaps)
    if _needs_jokers(counts, table, rules, jokers):
        return True
    if jokers < 2 and homeless(hand, table, rules, swaps) > 1:
        return True
    if type(table) is tuple:  # immutable values only: the same objects are the same question
        _PASSED[:] = [hand, table, rules]
    return False


#: The last hand, table and rules the screen passed (held, so ``is`` cannot see a new object at an old id).
_PASSED: list[object] = [None, None, None]


def _extend(m: int, pos: int, step: int, top: int, jokers: int) -> int:
    """The positions (bits 1 to ``top - 1``) a run end takes from ``pos`` on, one ``step`` at a time.

    A held position of ``m`` is taken; a missing one costs a joker, while any are left.
    """
    got = 0
    while 0 < pos < top:
        if m >> pos & 1:
            got |= 1 << pos
        elif jokers:
            jokers -= 1
        else:
            break
        pos += step
    return got


def _table_reach(table: Sequence[Meld], masks: list[int], jokers: int, rules: Ruleset) -> tuple[list[int], int]:
    """Per suit, the positions table runs might take (bits 1-13); and the ranks of table sets (bits 1-13).

    A run takes a card at either end, then the next: a held position, or a
    joker laid off (at most ``jokers`` of them), on and on. A card a table
    joker stands for may go in by a swap (R-J4).
    """
    reach = [0, 0, 0, 0]
    ranks = 0
    top = 15 if rules.ace_high else 14  # one past the last position
    swap = rules.joker_swap
    for meld in table:
        facts = _facts(meld)
        if facts.is_run:
            m = masks[facts.suit]
            got = _extend(m, facts.start - 1, -1, top, jokers) | _extend(m, facts.stop, 1, top, jokers)
            if got & (1 << 14):
                got |= 2  # the high ace is the low ace's card
            reach[facts.suit] |= got
        ranks |= facts.rank_bit
        if swap:
            for x in facts.stands:
                reach[x // 13] |= 2 << x % 13
    return reach, ranks


def table_takes(counts: tuple[int, ...], table: Sequence[Meld], rules: Ruleset, laid_jokers: int) -> tuple[int, int]:
    """The jokers a go-out of ``counts`` may place, and bit ``i`` per natural card index ``i`` it need not meld.

    The jokers are the hand's and one per table joker whose card the hand
    holds (a swap brings it, R-J4); a card need not go into a new meld when
    a table run might take it, a table set has its rank, or a table joker
    stands for it (:func:`_table_reach`). ``laid_jokers``: at most how many
    jokers reach a card through a table run's gaps (a freed joker goes into a
    new meld, R-J4: at most the hand's own).
    """
    jokers = (counts[52] if rules.jokers else 0) + len(_swaps(counts, table, rules))
    reach, ranks = _table_reach(table, suit_masks(counts, rules.ace_high), laid_jokers, rules)
    out = 0
    for s in range(4):
        out |= ((reach[s] | ranks) & _LOW13) >> 1 << (13 * s)  # position p is rank index p - 1
    return jokers, out


def _needs_jokers(counts: tuple[int, ...], table: Sequence[Meld], rules: Ruleset, jokers: int) -> bool:
    """The first argument of the module docstring: more cards need jokers than ``jokers`` can carry."""
    keep = 1
    masks = suit_masks(counts, rules.ace_high)
    # Freed jokers go into new melds (R-J4): only the hand's own are laid off into a table run's gaps.
    reach, group_ranks = _table_reach(table, masks, counts[52] if rules.jokers else 0, rules)
    two = ranks_with(counts, 2) << 1  # bit ``rank + 1``, as the run positions
    three = ranks_with(counts, 3) << 1
    free_ranks = three | group_ranks
    group_with_joker = bool(jokers and rules.group3_max_jokers)
    needy = lonely = stranded = 0
    for s in range(4):
        m = masks[s]
        cand = m & _LOW13 & ~run_covered(m, 0) & ~free_ranks & ~reach[s]
        if not cand:
            continue
        near = m & ((m << 1) | (m >> 1) | (m << 2) | (m >> 2))
        if near & (1 << 14):
            near |= 2  # the high ace is the low ace's card
        covered = run_covered(m, jokers)
        base = s * 13 - 1
        while cand:
            bit = cand & -cand
            cand ^= bit
            c = counts[base + bit.bit_length() - 1]
            needy += c
            if not (near & bit or two & bit):
                lonely += c
            if not (covered & bit or (two & bit and group_with_joker)):
                stranded += c
    if stranded > keep:
        return True
    if lonely > keep and (jokers < 2 or lonely - keep > jokers):
        return True
    return needy - keep > 4 * jokers


def _held(present: list[int], ace_high: bool) -> tuple[list[int], list[int]]:
    """Per suit a bit per run position (1-14) the hand holds; per rank a bit per suit it holds."""
    held = [0, 0, 0, 0]
    by_rank = [0] * 13
    for index in present:
        suit, rank = divmod(index, 13)
        held[suit] |= 1 << (rank + 1)
        by_rank[rank] |= 1 << suit
        if rank == 0 and ace_high:
            held[suit] |= 1 << ACE_HIGH
    return held, by_rank


def _in_new_meld(suit: int, rank: int, held: list[int], by_rank: list[int], jokers: int, top: int) -> bool:
    """Whether some new meld could hold the card (``rank`` 0-12): a group, or a run window of three."""
    if by_rank[rank].bit_count() + jokers >= 3:
        return True
    mask = held[suit]
    for p in (1, ACE_HIGH) if rank == 0 else (rank + 1,):
        for low in (p - 2, p - 1, p):
            if low >= 1 and low + 2 <= top and 3 - (mask >> low & 7).bit_count() <= jokers:
                return True
    return False


def _ends(table: Sequence[Meld]) -> tuple[list[list[tuple[int, int]]], list[int]]:
    """Per suit the table runs' (start, end) positions; per rank a bit per suit a group of three lacks."""
    runs: list[list[tuple[int, int]]] = [[], [], [], []]
    groups = [0] * 13
    for meld in table:
        facts = _facts(meld)
        if facts.is_run:
            runs[facts.suit].append((facts.start, facts.stop - 1))
        elif facts.lacks:
            groups[facts.rank_bit.bit_length() - 2] |= facts.lacks
    return runs, groups


def _homes(places: tuple[int, ...], held: int, runs: list[tuple[int, int]], jokers: int) -> int:
    """How many table runs could take one copy of the card at one of ``places`` by a lay-off (R-T6, J5)."""
    homes = 0
    for start, end in runs:
        for p in places:
            if p < start:
                low, high = p + 1, start - 1
            elif p > end:
                low, high = end + 1, p - 1
            else:
                continue
            gap = (1 << (high + 1)) - (1 << low) if high >= low else 0
            if (high - low + 1 if gap else 0) - (held & gap).bit_count() <= jokers:
                homes += 1
                break
    return homes


def homeless(hand: CardMultiset, table: Sequence[Meld], rules: Ruleset, swaps: list[int] | None = None) -> int:
    """At least how many of the hand's natural cards no new meld, lay-off or swap can take.

    A plan can leave at most one card, the discard; so a result above one
    proves that no plan exists (the second argument of the module docstring).
    ``swaps``: :func:`_swaps` of the hand and table, if known.
    """
    counts = hand.counts
    if swaps is None:
        swaps = _swaps(counts, table, rules)
    jokers = (counts[52] + len(swaps)) if rules.jokers else 0
    if jokers >= 2:
        return 0  # every card fits a window of three with two jokers
    top = ACE_HIGH if rules.ace_high else 13
    present = [index for index in range(52) if counts[index]]
    held, by_rank = _held(present, rules.ace_high)
    left = 0
    ends: tuple[list[list[tuple[int, int]]], list[int]] | None = None
    for index in present:
        n = counts[index]
        suit, rank = divmod(index, 13)
        if _in_new_meld(suit, rank, held, by_rank, jokers, top):
            continue
        room = swaps.count(index)
        if n > room:
            if ends is None:
                ends = _ends(table)
            runs, groups = ends
            places = ((1, ACE_HIGH) if top == ACE_HIGH else (1,)) if rank == 0 else (rank + 1,)
            room += _homes(places, held[suit], runs[suit], counts[52]) + (groups[rank] >> suit & 1)  # R-J4 as above
        left += max(0, n - room)
    return left
