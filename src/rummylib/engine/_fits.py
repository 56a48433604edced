"""Which cards of a hand fit which table melds, and the meld a lay-off grows (R-T6, J5).

The legal-move generator asks these for every lay-off candidate, so they work
on card indices and build the grown meld on the trusted path: a candidate
they vouch for fits, so :func:`~rummylib.lay_off` would only check it again.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from typing import Final, cast

from rummylib._card import CARDS
from rummylib._card import SUITS as _SUIT_ORDER
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


def lay_off_candidates(
    counts: tuple[int, ...], table: tuple[TableMeld, ...], rules: Ruleset
) -> Iterator[tuple[int, Card, End | None]]:
    """Every (table slot, card, end) where a card of the hand ``counts`` fits a table meld (R-T6, J5)."""
    fits, cards = _table_fits(table, rules)
    return compress(fits, map(counts.__getitem__, cards))  # the fits of the cards held, in order


#: The last table asked about, its ruleset, every card that fits it and those cards' indices (held, so their
#: ids stay theirs): a table lives for several turns, and every listing of a lay-off phase asks.
_FITS: list[
    tuple[tuple[TableMeld, ...], Ruleset, tuple[tuple[tuple[int, Card, End | None], ...], tuple[int, ...]]]
] = []
register(_FITS)


def _table_fits(
    table: tuple[TableMeld, ...], rules: Ruleset
) -> tuple[tuple[tuple[int, Card, End | None], ...], tuple[int, ...]]:
    """Every (table slot, card, end) where some card fits a table meld, whatever the hand, and each one's card index."""
    last = _FITS[0] if _FITS else None
    if last is not None and last[0] is table and last[1] is rules:
        return last[2]
    found: list[tuple[int, Card, End | None]] = []
    for i, tm in enumerate(table):
        for card, end in _meld_fits(tm.meld, rules):  # a table differs from the last in a meld or two
            found.append((i, card, end))
    fits = (tuple(found), tuple(card.index for _, card, _ in found))
    _FITS[:] = [(table, rules, fits)]
    return fits


#: The last table asked about and its melds with jokers (held, so its id stays its own): see table_jokers.
_JOKERS: list[tuple[tuple[TableMeld, ...], tuple[tuple[int, TableMeld, tuple[int, ...]], ...]]] = []
register(_JOKERS)


def table_jokers(table: tuple[TableMeld, ...]) -> tuple[tuple[int, TableMeld, tuple[int, ...]], ...]:
    """(slot, table meld, the card index each of its jokers stands for) of each meld with a joker (R-J4).

    Kept for the last table: a table lives for several turns, and every listing of the play phase asks.
    """
    last = _JOKERS[0] if _JOKERS else None
    if last is not None and last[0] is table:
        return last[1]
    found = tuple((i, tm, stands) for i, tm in enumerate(table) if (stands := joker_stands(tm.meld)))
    _JOKERS[:] = [(table, found)]
    return found


#: Per table meld (by identity, held so its id stays its own): its ruleset and every (card, end) that fits it.
_MELD_FITS: dict[int, tuple[Meld, Ruleset, tuple[tuple[Card, End | None], ...]]] = {}
register(_MELD_FITS)


def _meld_fits(meld: Meld, rules: Ruleset) -> tuple[tuple[Card, End | None], ...]:
    """Every (card, end) that fits ``meld`` (low end first, the joker after the card), kept per meld."""
    hit = _MELD_FITS.get(id(meld))
    if hit is not None and hit[0] is meld and hit[1] is rules:
        return hit[2]
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
    fits = _MELD_FITS[id(meld)] = (meld, rules, tuple(found))
    return fits[2]


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
