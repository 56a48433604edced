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

from rummylib.cards import Card, CardMultiset, OpenMultiset
from rummylib.rules import Ruleset
from rummylib.solver._results import OpenPartition, Partition, RulesCache
from rummylib.solver._search import card_penalties
from rummylib.solver._settings import SearchSettings
from rummylib.solver._small import _BIT, _NIBBLES, _ROWS, _Answer, _Rows, _search1

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
#: Shifts those bits 2 down to bit 0 of each rank's nibble of search positions.
_GROUPS = _RANKS + 2
#: The counts of no card, copied per list (a little sooner than building ``[0] * 53``).
_ZEROS = [0] * 53


def _pack(rules: Ruleset) -> tuple[int, ...]:
    """Per card index, what the card adds to a packed list under ``rules`` (the joker: its penalty only)."""
    pens = card_penalties(rules)
    bits = (*_BIT, 0)
    ranks = (*(1 << (4 * (c % 13)) for c in range(52)), 0)  # rank-major, as the search positions
    return tuple(bits[c] | ranks[c] << _RANKS | pens[c] << _PENALTY for c in range(53))


_PACKS: RulesCache[tuple[int, ...]] = RulesCache(_pack)

#: The ruleset and settings the last list was answered under; their rows, the rows' answers per live mask
#: (:data:`~rummylib.solver._small._Rows`), packed cards and whether aces are high; and the most cards the
#: path takes (-1 if it does not take the ruleset). Held, so ``is`` cannot see a new value at an old id.
_Last = tuple[object, object, _Rows, dict[int, _Answer], tuple[int, ...], int, bool]
#: The rows of a ruleset the path does not take (never read: it takes no card).
_NO_ROWS = _Rows((), (), (), False, {})
_LAST: list[_Last] = [(None, None, _NO_ROWS, {}, (), -1, False)]


def _remember(rules: object, settings: SearchSettings) -> _Last:
    """Note ``rules`` and ``settings`` as the last a list is answered under (see :data:`_Last`)."""
    if isinstance(rules, Ruleset) and not rules.adjacent_jokers:
        most = min(settings.small_max, settings.lp_from - 1)  # as small_partition: below the LP's zone
        table = _ROWS(rules)
        last: _Last = (rules, settings, table, table.pieces, _PACKS(rules), most, rules.ace_high)
    else:
        last = (rules, settings, _NO_ROWS, {}, (), -1, False)  # not a ruleset, or jokers side by side
    _LAST[0] = last
    return last


def small_partition_of_list(cards: list[object], rules: object, settings: SearchSettings) -> Partition | None:
    """``small_partition`` straight from a plain list of distinct cards without jokers, or None.

    ``None`` for anything else (a card twice, a joker, an item not a
    :class:`~rummylib.cards.Card`, ``rules`` not a :class:`Ruleset`), which
    takes the checked path.
    """
    last_rules, last_settings, table, pieces, pack, most, ace_high = _LAST[0]
    if last_rules is not rules or last_settings is not settings:  # almost always the last call's: no look-up
        last_rules, last_settings, table, pieces, pack, most, ace_high = _remember(rules, settings)
    size = len(cards)
    if size > most:
        return None  # more cards than the path takes, or a ruleset it does not take (-1)
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
    # The live cards, as _small._live, from the packed fields: a bit at the lowest card of each run of three
    # (ace low), bit 2 of each rank's nibble held in three suits (no carry: the cards are distinct), the
    # suits holding Q, K and A.
    runs = a & (a >> 4) & (a >> 8)
    groups = (packed + _RANK_ONES) & _RANK_TOPS
    tops = ace_high and (a >> 44) & (a >> 48) & a & 15
    if runs or groups or tops:  # something perhaps to meld
        live = runs | runs << 4 | runs << 8 | a & (groups >> _GROUPS) * 15
        if tops:
            live |= tops | tops << 44 | tops << 48
        found = pieces.get(live)
        melds, used, gain = _search1(live, table.rows, table.pos_pens) if found is None else found
        for i in used:
            counts[i] = 0
        size -= len(used)
        penalty = (packed >> _PENALTY) - gain
    else:
        melds, penalty = (), packed >> _PENALTY
    left: OpenMultiset = OpenMultiset()  # as counted_partition, one call less
    left._counts = tuple(counts)
    left._len = size
    left._hash = None
    left.__class__ = CardMultiset  # type: ignore[assignment]
    new: OpenPartition = OpenPartition()
    new.melds = melds
    new.leftover = left
    new.penalty = penalty
    new.__class__ = Partition  # type: ignore[assignment]
    return new
