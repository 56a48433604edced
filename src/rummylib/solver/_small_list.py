"""The fast path of :mod:`~rummylib.solver._small` straight from a plain list of cards.

A hand passed as a ``list`` (the common call: gin rummy's deadwood, ten
cards, asked millions of times by bots and simulations) is answered without
building a :class:`~rummylib.cards.CardMultiset` first: one loop over the
cards checks each is a :class:`~rummylib.cards.Card`, sums one packed int per
card (:data:`_PENALTY`) and counts it. From the sum, a hand with nothing to
meld (about two in three random ten-card hands) is answered at once; the
rest look up the answer of ``_small`` on their live cards.

Anything else (a card twice, a joker, an item not a card, a ruleset outside
``_small``'s, more cards than the settings give the fast path) returns
``None`` and takes the checked path, so the answer is always the one of the
checked multiset.
"""

from __future__ import annotations

from rummylib.cards import Card
from rummylib.rules import Ruleset
from rummylib.solver._results import Partition, RulesCache, counted_partition
from rummylib.solver._search import card_penalties
from rummylib.solver._settings import SearchSettings
from rummylib.solver._small import _BIT, _NIBBLES, _ROWS, _live, _Rows, _search1

__all__ = ["small_partition_of_list"]

#: A list of cards is read by summing one int per card (:data:`_PACKS`), fields from the low bits up:
#:
#: - bits 0-51: the card's bit at its search position. The sum has exactly one bit per card when the
#:   cards are distinct and no joker (a copy twice carries; a joker adds no bit).
#: - bits 52-103: one per card in its rank's nibble: a rank in three suits makes its nibble 3 or 4.
#: - from bit 104: its penalty (R-V), the last field, so it never carries into another.
#:
#: Distinct cards (the only sums used) keep the first two fields from carrying: a rank has four suits.
_RANKS = 52
_PENALTY = 104
_POSITION_BITS = (1 << 52) - 1
#: One in each rank's nibble, and bit 2 of each: set in (count + 1) when the rank is held in 3 or 4 suits.
_RANK_ONES = _NIBBLES << _RANKS
_RANK_TOPS = _NIBBLES << (_RANKS + 2)
#: The counts of no card, copied per list (a little sooner than building ``[0] * 53``).
_ZEROS = [0] * 53


def _pack(rules: Ruleset) -> tuple[int, ...]:
    """Per card index, what the card adds to a packed list under ``rules`` (the joker: its penalty only)."""
    pens = card_penalties(rules)
    bits = (*_BIT, 0)
    ranks = (*(1 << (4 * (c % 13)) for c in range(52)), 0)  # rank-major, as the search positions
    return tuple(bits[c] | ranks[c] << _RANKS | pens[c] << _PENALTY for c in range(53))


_PACKS: RulesCache[tuple[int, ...]] = RulesCache(_pack)

#: The ruleset and settings the last list was answered under, their rows and packed cards (None if the
#: path does not take the ruleset), and the most cards the path takes. Held, so ``is`` cannot see a new
#: value at an old id.
_Last = tuple[object, object, "_Rows | None", tuple[int, ...], int]
_LAST: list[_Last] = [(None, None, None, (), -1)]


def _remember(rules: object, settings: SearchSettings) -> _Last:
    """Note ``rules`` and ``settings`` as the last a list is answered under (see :data:`_Last`)."""
    if isinstance(rules, Ruleset) and not rules.adjacent_jokers:
        most = min(settings.small_max, settings.lp_from - 1)  # as small_partition: below the LP's zone
        last: _Last = (rules, settings, _ROWS(rules), _PACKS(rules), most)
    else:
        last = (rules, settings, None, (), -1)  # not a ruleset, or jokers side by side: the checked path
    _LAST[0] = last
    return last


def small_partition_of_list(cards: list[object], rules: object, settings: SearchSettings) -> Partition | None:
    """``small_partition`` straight from a plain list of distinct cards without jokers, or None.

    ``None`` for anything else (a card twice, a joker, an item not a
    :class:`~rummylib.cards.Card`, ``rules`` not a :class:`Ruleset`), which
    takes the checked path.
    """
    last_rules, last_settings, table, pack, most = _LAST[0]
    if last_rules is not rules or last_settings is not settings:  # almost always the last call's: no look-up
        last_rules, last_settings, table, pack, most = _remember(rules, settings)
    size = len(cards)
    if table is None or size > most:
        return None
    packed = 0
    counts = _ZEROS.copy()
    card_type = Card
    for card in cards:
        if type(card) is not card_type:
            return None
        i = card.index
        packed += pack[i]
        counts[i] = 1
    a = packed & _POSITION_BITS
    if a.bit_count() != size:
        return None  # a joker (no bit), or a card twice (a carry)
    if (
        a & (a >> 4) & (a >> 8)  # a run of three (ace low), ...
        or (packed + _RANK_ONES) & _RANK_TOPS  # ... a rank in three suits (no carry: the cards are distinct) ...
        or (table.ace_high and (a >> 44) & (a >> 48) & a & 15)  # ... or a Q-K-A run: perhaps something to meld
    ):
        live = _live(a, table.ace_high)
        found = table.pieces.get(live)
        if found is None:
            found = _search1(live, table.rows, table.pos_pens)
        for i in found.used:
            counts[i] = 0
        melds, size, penalty = found.melds, size - len(found.used), (packed >> _PENALTY) - found.gain
    else:
        melds, penalty = (), packed >> _PENALTY
    return counted_partition(melds, tuple(counts), size, penalty)
