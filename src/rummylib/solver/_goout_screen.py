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


def _held(counts: Sequence[int], ace_high: bool) -> list[int]:
    """Per suit, a bit per run position (1-14) the hand holds a natural of."""
    held = [0, 0, 0, 0]
    for index in range(52):
        if counts[index]:
            suit, rank = divmod(index, 13)
            held[suit] |= 1 << (rank + 1)
            if rank == 0 and ace_high:
                held[suit] |= 1 << ACE_HIGH
    return held


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


def _homes(suit: int, rank: int, held: int, table: Sequence[Meld], jokers: int, top: int) -> int:
    """How many table melds could take one copy of the card by a lay-off (R-T6, J5)."""
    places = (1, ACE_HIGH) if rank == 0 else (rank + 1,)
    homes = 0
    for meld in table:
        if isinstance(meld, Run):
            if meld.suit.index != suit:
                continue
            for p in places:
                if p > top:
                    continue
                if p < meld.start:
                    gap = range(p + 1, meld.start)
                elif p > meld.end:
                    gap = range(meld.end + 1, p)
                else:
                    continue
                if sum(1 for q in gap if not held >> q & 1) <= jokers:
                    homes += 1
                    break
        elif isinstance(meld, Group) and int(meld.rank) == rank + 1 and len(meld.cards) < 4:
            homes += all(s.index != suit for s in meld.suits)
    return homes


def homeless(hand: CardMultiset, table: Sequence[Meld], rules: Ruleset) -> int:
    """At least how many of the hand's natural cards no new meld, lay-off or swap can take.

    A plan can leave at most one card, the discard; so a result above one
    proves that no plan exists (the module docstring gives the reasoning).
    """
    counts = hand.counts
    slots = slots_of(table, hand, rules)
    jokers = (hand.jokers + len(slots)) if rules.jokers else 0
    top = ACE_HIGH if rules.ace_high else 13
    held = _held(counts, rules.ace_high)
    by_rank = [0] * 13
    for index in range(52):
        if counts[index]:
            by_rank[index % 13] |= 1 << (index // 13)
    swaps = [0] * 52
    for _, _, card in slots:
        swaps[card] += 1
    left = 0
    for index in range(52):
        n = counts[index]
        if not n:
            continue
        suit, rank = divmod(index, 13)
        if _in_new_meld(suit, rank, held, by_rank, jokers, top):
            continue
        room = swaps[index]
        if n > room:
            room += _homes(suit, rank, held[suit], table, jokers, top)
        left += max(0, n - room)
    return left
