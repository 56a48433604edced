"""The list path of :func:`~rummylib.best_partition`: the fast path of :mod:`~rummylib.solver._small` on a plain list.

A hand passed as a ``list`` (the common call: gin rummy's deadwood, ten
cards, asked millions of times by bots and simulations) is answered without
building a :class:`~rummylib.cards.CardMultiset` first: one loop over the
cards checks each is a :class:`~rummylib.cards.Card`, sums one packed int per
card (:data:`PENALTY`) and counts it. From the sum, a hand with nothing to
meld (about two in three random ten-card hands) is answered at once; the
rest look up the answer of ``_small`` on their live cards.

The loop itself is the body of ``best_partition`` (``_partition``): a call
is a noticeable part of an answer of a few microseconds. This module holds
what it reads: the packed cards per ruleset and the last ruleset's tables
(:func:`remember`).

Anything else (a card twice, a joker, an item not a card, a ruleset outside
``_small``'s, more cards than the default settings give the fast path)
takes the checked path, so the answer is always the one of the checked
multiset.
"""

from __future__ import annotations

from rummylib.rules import Ruleset
from rummylib.solver._results import RulesCache
from rummylib.solver._search import card_penalties
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._small import _BIT, _NIBBLES, _ROWS, _Answer, _Rows

__all__ = ["LAST", "PENALTY", "POSITION_BITS", "RANK_ONES", "RANK_TOPS", "ZEROS", "Last", "remember"]

#: A list of cards is read by summing one int per card (:data:`_PACKS`), fields from the low bits up:
#:
#: - bits 0-51: the card's bit at its search position. The sum has exactly one bit per card when the
#:   cards are distinct and no joker (a copy twice carries; a joker adds no bit).
#: - bits 52-103: one per card in its rank's nibble: a rank in three suits makes its nibble 3 or 4.
#: - from bit 104: its penalty (R-V), the last field, so it never carries into another.
#:
#: Distinct cards (the only sums used) keep the first two fields from carrying: a rank has four suits.
_RANKS = 52
PENALTY = 104
POSITION_BITS = (1 << 52) - 1
#: One in each rank's nibble, and bit 2 of each: set in (count + 1) when the rank is held in 3 or 4 suits.
RANK_ONES = _NIBBLES << _RANKS
RANK_TOPS = _NIBBLES << (_RANKS + 2)
#: The counts of no card, copied per list (``[*ZEROS]``: a little sooner than ``[0] * 53``).
ZEROS = [0] * 53


def _pack(rules: Ruleset) -> tuple[int, ...]:
    """Per card index, what the card adds to a packed list under ``rules`` (the joker: its penalty only)."""
    pens = card_penalties(rules)
    bits = (*_BIT, 0)
    ranks = (*(1 << (4 * (c % 13)) for c in range(52)), 0)  # rank-major, as the search positions
    return tuple(bits[c] | ranks[c] << _RANKS | pens[c] << PENALTY for c in range(53))


_PACKS: RulesCache[tuple[int, ...]] = RulesCache(_pack)

#: The ruleset the last list was answered under; its rows, the rows' answers per live mask
#: (:data:`~rummylib.solver._small._Rows`), packed cards, the most cards the path takes under the default
#: settings (-1 if it does not take the ruleset) and whether aces are high. Held, so ``is`` cannot see a
#: new ruleset at an old id.
Last = tuple[object, _Rows, dict[int, _Answer], tuple[int, ...], int, bool]
#: The rows of a ruleset the path does not take (never read: it takes no card).
_NO_ROWS = _Rows((), (), (), False, {})
LAST: list[Last] = [(None, _NO_ROWS, {}, (), -1, False)]


def remember(rules: object) -> Last:
    """Note ``rules`` as the last a list is answered under (see :data:`Last`)."""
    if isinstance(rules, Ruleset) and not rules.adjacent_jokers:
        most = min(DEFAULT_SETTINGS.small_max, DEFAULT_SETTINGS.lp_from - 1)  # as small_partition: below the LP
        table = _ROWS(rules)
        last: Last = (rules, table, table.pieces, _PACKS(rules), most, rules.ace_high)
    else:
        last = (rules, _NO_ROWS, {}, (), -1, False)  # not a ruleset, or jokers side by side
    LAST[0] = last
    return last
