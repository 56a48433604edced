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
is held in three suits, a table set of its rank might take it, a table run
of its suit reaches it (through held positions and at most ``J`` jokers
laid off), or a swap might put it in place of a table joker. Every other card needs a joker in its new meld:

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
from rummylib.engine._cache import register
from rummylib.engine._complete import run_covered, suit_masks
from rummylib.melds import Group, Meld, Run
from rummylib.rules import Ruleset

__all__ = ["cannot_go_out", "swappable_jokers"]

_LOW13 = 0x3FFE  # bits 1..13: the positions ace-low to king


#: What the screens read of a table meld: whether a run, its suit, first and one-past-last positions, the
#: bit of a set's rank, and the card index each joker stands for.
_Facts = tuple[bool, int, int, int, int, tuple[int, ...]]
_FACTS: dict[int, tuple[Meld, _Facts]] = {}
register(_FACTS)


def _facts(meld: Meld) -> _Facts:
    # Keyed on identity (the meld is held, so its id stays its own): table melds live for many turns.
    found = _FACTS.get(id(meld))
    if found is not None and found[0] is meld:
        return found[1]
    stands = tuple(x.index for c, x in zip(meld.cards, meld.represents) if c.is_joker)
    if isinstance(meld, Run):
        facts: _Facts = (True, meld.suit.index, meld.start, meld.start + len(meld.cards), 0, stands)
    else:
        facts = (False, 0, 0, 0, 2 << (int(meld.rank) - 1) if isinstance(meld, Group) else 0, stands)
    if len(_FACTS) >= 4096:
        _FACTS.clear()
    _FACTS[id(meld)] = (meld, facts)
    return facts


def swappable_jokers(counts: tuple[int, ...], table: tuple[Meld, ...], rules: Ruleset) -> int:
    """An upper bound on the jokers swaps could bring into the hand: one per table joker whose card it holds."""
    if not rules.joker_swap:
        return 0
    total = 0
    for meld in table:
        for x in _facts(meld)[5]:
            if counts[x]:
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


def _table_reach(table: tuple[Meld, ...], masks: list[int], jokers: int, rules: Ruleset) -> tuple[list[int], int]:
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
        is_run, s, start, stop, rank_bit, stands = _facts(meld)
        if is_run:
            m = masks[s]
            got = _extend(m, start - 1, -1, top, jokers) | _extend(m, stop, 1, top, jokers)
            if got & (1 << 14):
                got |= 2  # the high ace is the low ace's card
            reach[s] |= got
        ranks |= rank_bit
        if swap:
            for x in stands:
                reach[x // 13] |= 2 << x % 13
    return reach, ranks


def cannot_go_out(hand: CardMultiset, table: tuple[Meld, ...], rules: Ruleset) -> bool:
    """Whether ``hand`` surely cannot be laid out this turn but for one discard (see the module docstring).

    ``table`` is every meld a lay-off or swap could reach; ``False`` decides
    nothing. One card may always be left for the discard: where the rules let
    a player go out by melding (R-E3), a discard still ends the hand too.
    """
    keep = 1
    counts = hand.counts
    jokers = (counts[52] if rules.jokers else 0) + swappable_jokers(counts, table, rules)
    masks = suit_masks(counts, rules.ace_high)
    reach, group_ranks = _table_reach(table, masks, jokers, rules)
    two, three = _rank_masks(counts)
    free_ranks = three | group_ranks
    group_with_joker = bool(jokers and rules.group3_max_jokers)
    needy = lonely = stranded = 0
    for s in range(4):
        m = masks[s]
        natural = run_covered(m, 0)
        cand = m & _LOW13 & ~natural & ~free_ranks & ~reach[s]
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
