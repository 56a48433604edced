"""Actions a player takes, as plain frozen values (the rules R-T, D, O, J4 and E).

They live below the solver and the engine so both can speak of them: the
solver's go-out plans are lists of actions, the engine applies them. Table
melds are named by their index in the table's order of laying.

>>> from rummylib import Discard, parse_card
>>> Discard(parse_card("KS"))
Discard(card=Card('KS'))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Final, TypeAlias

import attrs

from rummylib.cards import Card
from rummylib.errors import InvalidMeldError, MeldReason, shorten
from rummylib.melds import End, Group, Meld, Run, format_meld

from ._guards import is_collection_of_items

__all__ = [
    "Action",
    "Discard",
    "DrawStock",
    "LayMeld",
    "LayOff",
    "NextRound",
    "Open",
    "SwapJoker",
    "TakeDiscard",
]


def _meld_key(meld: Meld) -> tuple[int, ...]:
    # Runs before groups; then suit/rank, start, slot cards, slot suits.
    if isinstance(meld, Run):
        head: tuple[int, ...] = (0, meld.suit.index, meld.start)
    elif isinstance(meld, Group):
        head = (1, int(meld.rank), 0, *(s.index for s in meld.suits))
    else:
        return (2,)
    return (*head, len(meld.cards), *(c.index for c in meld.cards))


#: Most melds one opening may hold (a 224-card deck makes at most 74 melds).
MAX_OPEN_MELDS: Final = 80


def _meld_tuple(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    # An opening is a set of melds: kept in one canonical order, so two
    # Open values with the same melds are equal.
    if not is_collection_of_items(melds):
        msg = f"Open takes a sequence of melds, not {shorten(melds)}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, melds, msg)
    items = tuple(itertools.islice(melds, MAX_OPEN_MELDS + 1))
    if len(items) > MAX_OPEN_MELDS:
        msg = f"an opening holds at most {MAX_OPEN_MELDS} melds"
        raise InvalidMeldError(MeldReason.TOO_LONG, melds, msg)
    try:
        return tuple(sorted(items, key=_meld_key))
    except (AttributeError, TypeError):
        return items  # not melds: the engine refuses them with a typed error


@attrs.frozen
class DrawStock:
    """Draw the top card of the stock (R-T1, T4; refills it first if empty, R-D4, D6)."""


@attrs.frozen
class TakeDiscard:
    """Take the single top card of the discard pile (R-D1, D2)."""


@attrs.frozen
class Open:
    """Lay the opening melds, all at once (R-O2, O4): a composite of single steps.

    ``apply`` takes it as the same melds laid one after another with
    :class:`LayMeld`, and it must bring the opening to R-O2 by itself (with
    what the turn laid before it); the opening is then checked again at the
    first lay-off, swap or discard, like any opening. ``legal_actions`` lists
    the single steps, never an ``Open``; notation, JSON and records keep it.

    The melds are kept in a canonical order (runs by suit and start, then
    groups by rank), so an opening is a set: ``Open((a, b)) == Open((b, a))``.
    They go on the table in that order.

    Raises:
        InvalidMeldError: ``melds`` is not a sequence (reason ``WRONG_TYPE``) or
            holds more than :data:`MAX_OPEN_MELDS` melds.
    """

    melds: tuple[Meld, ...] = attrs.field(converter=_meld_tuple)


@attrs.frozen
class LayMeld:
    """Lay one new meld from the hand (R-T2, T5); before opening, one meld of the opening (R-O4)."""

    meld: Meld


@attrs.frozen
class LayOff:
    """Lay ``card`` off onto table meld ``target`` (R-J5, T6).

    ``end`` is the end of a run the card goes to, and must be ``None`` for a
    group. A joker stands for the card at that end (or the set's missing suit).
    """

    target: int
    card: Card
    end: End | None = None


@attrs.frozen
class SwapJoker:
    """Put ``card`` in place of the joker standing for it in meld ``target`` (R-J4)."""

    target: int
    card: Card


@attrs.frozen
class Discard:
    """Discard ``card``, ending the turn (R-T3, T7)."""

    card: Card


@attrs.frozen
class NextRound:
    """Deal the next round after one has ended (R-P4)."""


#: Any action.
Action: TypeAlias = DrawStock | TakeDiscard | Open | LayMeld | LayOff | SwapJoker | Discard | NextRound


def _notation(action: Action) -> str:
    """``str(action)``: the action notation (:func:`rummylib.records.format_action`).

    A malformed action (a field of the wrong type) falls back to its repr.
    """
    try:
        if isinstance(action, Discard):
            return f"discard {action.card}"
        if isinstance(action, SwapJoker):
            return f"swap #{action.target} {action.card}"
        if isinstance(action, LayOff):
            end = "" if action.end is None else f" {action.end.value}"
            return f"layoff #{action.target} {action.card}{end}"
        if isinstance(action, LayMeld):
            return f"meld {format_meld(action.meld)}"
        if isinstance(action, Open):
            return "open " + " | ".join(format_meld(m) for m in action.melds)
    except (AttributeError, TypeError, ValueError):
        return repr(action)
    return _PLAIN.get(type(action), repr(action))


_PLAIN: dict[type, str] = {DrawStock: "draw", TakeDiscard: "take", NextRound: "next"}

# Every action prints as its notation, as cards and melds do: str(Discard(KS)) == "discard KS".
for _kind in (DrawStock, TakeDiscard, Open, LayMeld, LayOff, SwapJoker, Discard, NextRound):
    _kind.__str__ = _notation  # type: ignore[assignment,method-assign]
del _kind
