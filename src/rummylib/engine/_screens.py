"""Cheap sound screens: a hand that surely cannot go out this turn (R-D2, E1, T3).

Before the engine asks the solver's exact go-out search (milliseconds), it
rules out most hopeless hands with bit masks per suit (microseconds). Every
test here is a necessary condition for going out, never a guess: ``True``
from :func:`cannot_go_out` means no sequence of new melds, lay-offs and joker
swaps empties the hand but for the cards the rules keep (the discard).

The counting argument. Let ``J`` bound the jokers that can end up in new
melds (the hand's, and one per table joker whose card the hand holds, for a
swap). A natural card is *free* when it may leave the hand without a joker
beside it: it sits in three consecutive held positions of its suit, its rank
is held in three suits, or a table meld of its suit (a run) or rank (a set)
might take it. Every other card needs a joker in its new meld:

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

A card that no meld can hold even with every joker may only be the discard;
and one card at most leaves the hand that way (R-E1, E3).
"""

from __future__ import annotations

from rummylib.cards import CardMultiset
from rummylib.engine._complete import run_covered, suit_masks
from rummylib.melds import Group, Meld, Run
from rummylib.rules import Ruleset

__all__ = ["cannot_go_out", "swappable_jokers"]

_LOW13 = 0x3FFE  # bits 1..13: the positions ace-low to king


def swappable_jokers(counts: tuple[int, ...], table: tuple[Meld, ...], rules: Ruleset) -> int:
    """An upper bound on the jokers swaps could bring into the hand: one per table joker whose card it holds."""
    if not rules.joker_swap:
        return 0
    total = 0
    for m in table:
        if m.joker_count:
            for c, x in zip(m.cards, m.represents):
                if c.is_joker and counts[x.index]:
                    total += 1
    return total


def _rank_masks(counts: tuple[int, ...]) -> tuple[int, int]:
    """Bit ``rank + 1`` per rank held in at least two suits, and in at least three."""
    two = three = 0
    for rank in range(13):
        held = (counts[rank] > 0) + (counts[13 + rank] > 0) + (counts[26 + rank] > 0) + (counts[39 + rank] > 0)
        if held >= 2:
            two |= 2 << rank
            if held >= 3:
                three |= 2 << rank
    return two, three


def cannot_go_out(hand: CardMultiset, table: tuple[Meld, ...], rules: Ruleset) -> bool:
    """Whether ``hand`` surely cannot be laid out this turn but for one discard (see the module docstring).

    ``table`` is every meld a lay-off or swap could reach; ``False`` decides
    nothing. One card may always be left for the discard: where the rules let
    a player go out by melding (R-E3), a discard still ends the hand too.
    """
    keep = 1
    counts = hand.counts
    jokers = (counts[52] if rules.jokers else 0) + swappable_jokers(counts, table, rules)
    run_suits = 0
    group_ranks = 0
    for meld in table:
        if isinstance(meld, Run):
            run_suits |= 1 << meld.suit.index
        elif isinstance(meld, Group):
            group_ranks |= 2 << (int(meld.rank) - 1)
    two, three = _rank_masks(counts)
    free_ranks = three | group_ranks
    group_with_joker = bool(jokers and rules.group3_max_jokers)
    masks = suit_masks(counts, rules.ace_high)
    needy = lonely = stranded = 0
    for s in range(4):
        if run_suits >> s & 1:
            continue  # a table run of the suit might take any of its cards
        m = masks[s]
        natural = run_covered(m, 0)
        cand = m & _LOW13 & ~natural & ~free_ranks
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
