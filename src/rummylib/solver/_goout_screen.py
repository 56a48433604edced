"""A cheap exact screen for "this hand cannot go out": cards with too few places to go.

Every card of a plan leaves the hand in a new meld, a lay-off onto a table
meld, a joker swap (R-J4) or the one discard (R-T2, E1, E3). The screen
over-estimates, for each natural card of the hand, how many of its copies the
first three can take:

* any number, if some new meld could hold it: a run window of three places
  around it (a longer run holds such a window), or a group of its rank, with
  every missing card a joker the hand has or a swap could free (R-M1 to M3,
  J2; joker limits and side-by-side jokers are ignored, which only allows
  more);
* otherwise one copy per table run of its suit it can extend (the places
  between the run's end and the card held in the hand or left to jokers; a
  run holds each place once), one per group of its rank of three that lacks
  its suit, and one per table joker standing for it.

Copies beyond that must all be the discard. So when more than one copy is
left over, no plan exists: the screen only says so when it is true, and says
nothing otherwise (the search decides). Jokers are never counted as left over.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummylib.cards import CardMultiset
from rummylib.melds import ACE_HIGH, Group, Meld, Run
from rummylib.rules import Ruleset
from rummylib.solver._layoffs import slots_of

__all__ = ["homeless"]


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
        if isinstance(meld, Run):
            runs[meld.suit.index].append((meld.start, meld.end))
        elif isinstance(meld, Group) and len(meld.cards) < 4:
            groups[int(meld.rank) - 1] |= 15 & ~sum(1 << s.index for s in meld.suits)
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


def homeless(hand: CardMultiset, table: Sequence[Meld], rules: Ruleset) -> int:
    """At least how many of the hand's natural cards no new meld, lay-off or swap can take.

    A plan can leave at most one card, the discard; so a result above one
    proves that no plan exists (the module docstring gives the reasoning).
    """
    if rules.jokers and hand.jokers >= 2:
        return 0  # every card fits a window of three with two jokers
    counts = hand.counts
    slots = slots_of(table, hand, rules)
    jokers = (hand.jokers + len(slots)) if rules.jokers else 0
    if jokers >= 2:
        return 0
    top = ACE_HIGH if rules.ace_high else 13
    present = [index for index in range(52) if counts[index]]
    held, by_rank = _held(present, rules.ace_high)
    swaps = [0] * 52
    for _, _, card in slots:
        swaps[card] += 1
    left = 0
    ends: tuple[list[list[tuple[int, int]]], list[int]] | None = None
    for index in present:
        n = counts[index]
        suit, rank = divmod(index, 13)
        if _in_new_meld(suit, rank, held, by_rank, jokers, top):
            continue
        room = swaps[index]
        if n > room:
            if ends is None:
                ends = _ends(table)
            runs, groups = ends
            places = ((1, ACE_HIGH) if top == ACE_HIGH else (1,)) if rank == 0 else (rank + 1,)
            room += _homes(places, held[suit], runs[suit], jokers) + (groups[rank] >> suit & 1)
        left += max(0, n - room)
    return left
