"""Which cards of a hand fit which table melds, and the meld a lay-off grows (R-T6, J5).

The legal-move generator asks these for every lay-off candidate, so they work
on card indices and build the grown meld on the trusted path: a candidate
they vouch for fits, so :func:`~rummylib.lay_off` would only check it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress
from operator import itemgetter
from typing import Final, cast

from rummylib._card import CARDS
from rummylib._card import SUITS as _SUIT_ORDER
from rummylib.actions import LayOff
from rummylib.cards import JOKER, Card
from rummylib.engine._cache import register
from rummylib.engine._state import TableMeld
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, card_at_position
from rummylib.melds._types import _new_group, _new_run
from rummylib.rules import Ruleset
from rummylib.solver._goout_screen import joker_stands

#: The run ends, read as globals on the hot path (an enum member is looked up through its metaclass).
_LOW: Final = End.LOW
_HIGH: Final = End.HIGH

__all__ = [
    "fits_at",
    "group_fit",
    "grown_meld",
    "holds_any",
    "lay_off_candidates",
    "run_fit",
    "swapped_meld",
    "table_jokers",
    "table_melds",
]


def run_fit(meld: Run, card: Card, end: End, rules: Ruleset) -> bool:
    """Whether ``card`` extends run ``meld`` at ``end`` (R-M1, M3, J3; never past an ace, R-M4)."""
    if len(meld.cards) >= 13:
        return False
    pos = meld.start - 1 if end is _LOW else meld.end + 1
    if not 1 <= pos <= (ACE_HIGH if rules.ace_high else ACE_HIGH - 1):
        return False
    if card.is_joker:
        edge = meld.cards[0] if end is _LOW else meld.cards[-1]
        return meld.joker_count < rules.jokers and (rules.adjacent_jokers or not edge.is_joker)
    return card == card_at_position(pos, meld.suit)


def group_fit(meld: Group, card: Card, rules: Ruleset) -> bool:
    """Whether ``card`` joins set ``meld`` (a missing suit of its rank, or a joker within the limits, R-M2, J2)."""
    if len(meld.cards) >= 4:
        return False
    jokers = meld.joker_count + int(card.is_joker)
    if jokers > rules.group4_max_jokers or jokers > rules.jokers:
        return False
    return card.is_joker or (card.rank is meld.rank and card.suit not in meld.suits)


def fits_at(meld: Meld, card: Card, end: End | None, rules: Ruleset) -> bool:
    """Whether ``card`` fits ``meld`` at ``end`` (a run's end, ``None`` for a set): ``lay_off`` would take it.

    Where this holds, :func:`grown_meld` builds ``lay_off``'s meld; an end of the wrong kind fits nothing.
    """
    if isinstance(meld, Run):
        return isinstance(end, End) and run_fit(meld, card, end, rules)
    return isinstance(meld, Group) and group_fit(meld, card, rules)


def lay_off_candidates(counts: tuple[int, ...], table: tuple[TableMeld, ...], rules: Ruleset) -> Iterator[LayOff]:
    """Every lay-off (table slot, card, end) where a card of the hand ``counts`` fits a table meld (R-T6, J5)."""
    lays, held = _table_fits(table, rules)
    return compress(lays, held(counts))  # the fits of the cards held, in order (the padding is never reached)


#: What ``_table_fits`` keeps of a table: its lay-offs and the getter of the hand's count of each one's card.
_Fits = tuple[tuple[LayOff, ...], Callable[[tuple[int, ...]], tuple[int, ...]]]

#: The last table asked about, its ruleset, and its fits (held, so their ids stay theirs): a table lives for
#: several turns, and every listing of a lay-off phase asks.
_FITS: list[tuple[tuple[TableMeld, ...], Ruleset, _Fits]] = []
register(_FITS)


def _table_fits(table: tuple[TableMeld, ...], rules: Ruleset) -> _Fits:
    """Every lay-off where some card fits a table meld, whatever the hand, and a getter of their cards' counts.

    The getter reads a hand's count of each lay-off's card in one call (``itemgetter``), two padding
    indices after them so that it always answers a tuple (``compress`` stops at the last lay-off).
    """
    last = _FITS[0] if _FITS else None
    if last is not None and last[0] is table and last[1] is rules:
        return last[2]
    lays: list[LayOff] = []
    cards: list[int] = []
    for i, tm in enumerate(table):  # a table differs from the last in a meld or two: the others are kept
        hit = _MELD_FITS.get(id(tm.meld))
        if hit is None or hit[0] is not tm.meld or hit[1] is not rules or hit[2] != i:
            hit = _meld_fits(i, tm.meld, rules)
        lays += hit[3]
        cards += hit[4]
    fits: _Fits = (tuple(lays), itemgetter(*cards, 0, 0))
    _FITS[:] = [(table, rules, fits)]
    return fits


#: The last two tables asked about and their melds with jokers, the latest first (held, so their ids stay
#: theirs): see table_jokers.
_JOKERS: list[tuple[tuple[TableMeld, ...], tuple[tuple[int, TableMeld, tuple[int, ...]], ...]]] = []
register(_JOKERS)


def table_jokers(table: tuple[TableMeld, ...]) -> tuple[tuple[int, TableMeld, tuple[int, ...]], ...]:
    """(slot, table meld, the card index each of its jokers stands for) of each meld with a joker (R-J4).

    Kept for the last two tables: a table lives for several turns, and every listing of the play phase
    asks; the check of a listed swap asks of the table after it (``swap_counts``), which must not push
    the listing's own table out.
    """
    if _JOKERS:
        last = _JOKERS[0]
        if last[0] is table:
            return last[1]
        if len(_JOKERS) > 1 and _JOKERS[1][0] is table:
            _JOKERS.reverse()  # the older one is asked again: it is the latest now
            return _JOKERS[0][1]
    found = tuple((i, tm, stands) for i, tm in enumerate(table) if (stands := joker_stands(tm.meld)))
    _JOKERS[:] = [(table, found), *_JOKERS[:1]]
    return found


#: Per table meld (by identity, held so its id stays its own): its ruleset, its slot, the lay-off of each
#: (card, end) that fits it there and each one's card index. A meld keeps its slot for the rest of the round.
_MELD_FITS: dict[int, tuple[Meld, Ruleset, int, tuple[LayOff, ...], tuple[int, ...]]] = {}
register(_MELD_FITS)


def _meld_fits(slot: int, meld: Meld, rules: Ruleset) -> tuple[Meld, Ruleset, int, tuple[LayOff, ...], tuple[int, ...]]:
    """Every (card, end) that fits ``meld`` (low end first, the joker after the card) as a lay-off onto ``slot``.

    The fit tests of :func:`run_fit` and :func:`group_fit` (R-J2, J3, J5, M2), asked once per table meld
    and slot: the answer is kept with the ``LayOff`` values built from it.
    """
    found: list[tuple[Card, End | None]] = []
    if isinstance(meld, Run):
        base = meld.suit.index * 13
        for end, pos in ((_LOW, meld.start - 1), (_HIGH, meld.start + len(meld.cards))):
            if not 1 <= pos <= ACE_HIGH:
                continue
            card = CARDS[base + (0 if pos == ACE_HIGH else pos - 1)]  # the card at ``pos`` (card_at_position)
            if run_fit(meld, card, end, rules):
                found.append((card, end))
            if run_fit(meld, JOKER, end, rules):
                found.append((JOKER, end))
    elif isinstance(meld, Group):
        r = int(meld.rank) - 1
        for s in range(4):
            if group_fit(meld, CARDS[s * 13 + r], rules):
                found.append((CARDS[s * 13 + r], None))
        if group_fit(meld, JOKER, rules):
            found.append((JOKER, None))
    if len(_MELD_FITS) >= 4096:
        _MELD_FITS.clear()
    lays = tuple([LayOff(slot, card, end) for card, end in found])
    fits = _MELD_FITS[id(meld)] = (meld, rules, slot, lays, tuple([card.index for card, _ in found]))
    return fits


#: The last table asked for its melds, and them (held, so its id stays its own): see table_melds.
_MELDS: list[tuple[tuple[TableMeld, ...], tuple[Meld, ...]]] = []
register(_MELDS)


def table_melds(table: tuple[TableMeld, ...]) -> tuple[Meld, ...]:
    """The meld of each table meld, in order (kept for the last table: each question of a listing asks)."""
    last = _MELDS[0] if _MELDS else None
    if last is not None and last[0] is table:
        return last[1]
    found = tuple([tm.meld for tm in table])
    _MELDS[:] = [(table, found)]
    return found


def holds_any(counts: tuple[int, ...], indices: tuple[int, ...]) -> bool:
    """Whether ``counts`` holds a card of some index of ``indices`` (a joker of :func:`table_jokers` to swap)."""
    for x in indices:  # noqa: SIM110 - a loop: no generator on the hot path (every play listing asks)
        if counts[x]:
            return True
    return False


def grown_meld(meld: Meld, card: Card, end: End | None) -> Meld:
    """``lay_off(meld, card, rules, end=end)`` for a lay-off the candidates vouch for (it fits), unchecked."""
    if isinstance(meld, Run):
        if end is _LOW:
            return _new_run(meld.suit, meld.start - 1, (card, *meld.cards))
        return _new_run(meld.suit, meld.start, (*meld.cards, card))
    group = cast(Group, meld)
    suit = card.suit if card.suit is not None else next(s for s in _SUIT_ORDER if s not in group.suits)
    slots = sorted([*zip(group.suits, group.cards), (suit, card)], key=lambda sc: sc[0].index)
    return _new_group(group.rank, tuple(c for _, c in slots), tuple(x for x, _ in slots))


def swapped_meld(meld: Meld, card: Card) -> Meld:
    """``swap_joker(meld, card, rules)[0]`` for a table meld with a joker standing for ``card``, unchecked (R-J4).

    The first joker slot standing for ``card`` takes it, as :func:`~rummylib.swap_joker` does; the meld's
    layout (a run's suit and start, a group's rank and suits) stays.
    """
    cards = meld.cards
    for i, stands in enumerate(meld.represents):
        if stands == card and cards[i].is_joker:
            new = (*cards[:i], card, *cards[i + 1 :])
            if isinstance(meld, Run):
                return _new_run(meld.suit, meld.start, new)
            group = cast(Group, meld)
            return _new_group(group.rank, new, group.suits)
    msg = f"no joker of {meld} stands for {card}"
    raise ValueError(msg)
