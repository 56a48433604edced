"""Cheap exact screens in front of the best-opening search (R-O2, O3), on one bit mask of the hand.

Most hands cannot open, and two tests on the bit mask ``a`` of the cards held
(rank-major search positions, as ``_small``: bit ``4 * rank index + suit``)
say so without building any search:

- :func:`clean_run_in`: three cards of one suit in a row (a clean run, R-O2);
- :func:`live_points`: the most points the melds of a hand without jokers could
  be worth (R-V, O3): every card some run or group of three within the hand holds
  (``_small._live``; a longer run or a group of four holds only such cards),
  each at its best value (an ace 11, a picture 10). An opening is worth at most
  that, so below the opening points there is none.

Both only answer "no opening"; every other hand goes on to the exact search.
A hand passed as a plain list is read by :func:`list_hand` in one loop that
counts the cards, checks them and sets their bits at once.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from rummylib.cards import Card, CardMultiset, Rank
from rummylib.melds import rank_value
from rummylib.rules import Ruleset
from rummylib.solver._small import _BIT, _live
from rummylib.solver._tables import POS

__all__ = ["clean_run_in", "held_positions", "list_hand", "live_points"]

#: The card index at each search position (the inverse of ``POS``).
_CARD_AT: Final = tuple(sorted(range(52), key=POS.__getitem__))
#: The best opening value of the card at each search position (R-V, O3: an ace 11, a picture 10).
_BEST_AT: Final = tuple(rank_value(Rank(c % 13 + 1)) for c in _CARD_AT)
#: ``_BIT`` with the joker's (none: jokers have no search position).
_BIT53: Final = (*_BIT, 0)
#: The longest list :func:`list_hand` reads (longer ones take the checked path).
_LIST_MAX: Final = 64


def held_positions(counts: tuple[int, ...]) -> int:
    """A bit at the search position of each natural card ``counts`` holds (any number of copies)."""
    return sum(compress(_BIT, counts))


def clean_run_in(a: int, ace_high: bool) -> bool:
    """Whether three cards of one suit of ``a`` follow each other (a clean run exists, R-O2)."""
    return bool(a & (a >> 4) & (a >> 8) or (ace_high and (a >> 44) & (a >> 48) & a & 15))


def live_points(a: int, counts: tuple[int, ...], ace_high: bool) -> int:
    """The most opening points melds without jokers can take from ``counts`` (held at ``a``).

    Every copy of each card in some run or group of three within ``a``, at its best value.
    """
    live = _live(a, ace_high)
    total = 0
    while live:
        low = live & -live
        p = low.bit_length() - 1
        total += counts[_CARD_AT[p]] * _BEST_AT[p]
        live ^= low
    return total


def list_hand(cards: list[object], rules: Ruleset) -> tuple[CardMultiset, int] | None:
    """The multiset of a plain list of cards and its :func:`held_positions`, or None.

    ``None`` for anything the checked path (``_results.prepare``) must look at:
    an item not a :class:`~rummylib.cards.Card`, more copies of a card than the
    decks hold or more jokers than the rules have, more than ``_LIST_MAX`` cards.
    """
    size = len(cards)
    if size > _LIST_MAX:
        return None
    decks = rules.decks
    counts = [0] * 53
    a = 0
    card_type = Card
    for card in cards:
        if type(card) is not card_type:
            return None
        i = card.index
        n = counts[i] + 1
        if n > decks:
            return None  # too many copies (or jokers beyond the decks' count: the checked path)
        counts[i] = n
        a |= _BIT53[i]
    if counts[52] > rules.jokers:
        return None
    return CardMultiset._trusted(tuple(counts), size), a
