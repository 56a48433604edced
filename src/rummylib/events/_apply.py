"""Applying an event to a view: the client's side of :func:`~rummylib.events.events`."""

from __future__ import annotations

from typing import Any

import attrs

from rummylib._guards import is_instance, is_int_in
from rummylib.engine import PlayerView, TableMeld
from rummylib.errors import InvalidStateError, StateReason
from rummylib.events._event import COPIED, EXTRA, Event
from rummylib.melds import Group, Run, validate_meld
from rummylib.scoring import standings

__all__ = ["apply_event"]


def _refuse(field: str, detail: str) -> InvalidStateError:
    return InvalidStateError(StateReason.INCONSISTENT, f"event.{field}", detail)


def _new_table(v: PlayerView, e: Event) -> tuple[TableMeld, ...]:
    if not is_int_in(e.table_size, 0, len(v.table) + len(e.table_changes)):
        raise _refuse("table_size", f"{e.table_size!r} melds cannot follow from {len(v.table)} on the table")
    table = list(v.table[: e.table_size])
    for index, tm in e.table_changes:
        if not is_instance(tm, TableMeld) or not is_instance(tm.meld, (Run, Group)):
            raise _refuse("table_changes", f"expected table melds, not {tm!r}")
        validate_meld(tm.meld, v.rules)
        if is_int_in(index, 0, len(table) - 1):
            table[index] = tm
        elif index == len(table):
            table.append(tm)
        else:
            raise _refuse("table_changes", f"meld index {index!r} does not fit a table of {len(table)}")
    if len(table) != e.table_size:
        raise _refuse("table_size", f"the changes make {len(table)} melds, not {e.table_size}")
    return tuple(table)


def _extra(event: Event) -> dict[str, Any]:
    values = dict(event.extra)
    unknown = set(values) - set(EXTRA)
    if unknown or len(values) != len(event.extra):
        raise _refuse("extra", f"the fields {sorted(unknown)} are not fields of a view here (or appear twice)")
    if len(values) != len(EXTRA):
        raise _refuse("extra", f"a seat's event states {', '.join(EXTRA)}")
    return values


def apply_event(v: PlayerView, event: Event, *, check: bool = False) -> PlayerView:
    """The view after ``event``: ``apply_event(view(before, s), events(...).for_seat(s)) == view(after, s)``.

    The event must fit the view (its seat, the table, the pile, the hand);
    ``check=True`` also re-validates the whole new view as
    :func:`~rummylib.records.from_dict` validates a view document (card
    conservation, hand sizes, phase and turn, results against totals), for a
    client that does not trust what reaches it.

    Raises:
        InvalidStateError: ``event`` is not an :class:`Event` for this view's
            seat, or it does not fit the view (a table index, the pile, the
            hand, the seat count; ``INCONSISTENT``).
            With ``check``, the new view is not consistent (the path names its field).
        InvalidMeldError: a table meld of the event is not valid under the view's rules.
    """
    if not isinstance(v, PlayerView):
        raise InvalidStateError(StateReason.WRONG_TYPE, "view", f"expected a PlayerView, not {type(v).__name__}")
    if not isinstance(event, Event):
        raise InvalidStateError(StateReason.WRONG_TYPE, "event", f"expected an Event, not {type(event).__name__}")
    if event.viewer != v.seat:
        raise _refuse("viewer", f"the event is for seat {event.viewer}, the view is seat {v.seat}'s")
    n = len(v.players)
    if len(event.hand_sizes) != n or len(event.opened) != n or len(event.totals) != n:
        raise _refuse("hand_sizes", f"the event does not describe {n} seats")
    if not is_int_in(event.discard_kept, 0, len(v.discard)):
        raise _refuse("discard_kept", f"the pile holds {len(v.discard)} cards, not {event.discard_kept!r}")
    if not event.hand_out <= v.hand:
        raise _refuse("hand_out", "the event takes cards out of the hand that it does not hold")
    hand = v.hand - event.hand_out + event.hand_in
    if len(hand) != event.hand_sizes[v.seat]:
        raise _refuse("hand_in", f"the hand would hold {len(hand)} cards, the event says {event.hand_sizes[v.seat]}")
    results = v.results if event.result is None else (*v.results, event.result)
    new = attrs.evolve(
        v,
        **{name: getattr(event, name) for name in COPIED},
        **_extra(event),
        hand=hand,
        table=_new_table(v, event),
        discard=v.discard[: event.discard_kept] + event.discard_added,
        results=results,
        standings=standings(event.totals, len(results), v.rules),
        turn=event.turn,
    )
    if check:
        from rummylib.records import from_dict, to_dict

        from_dict(to_dict(new, full_rules=True), PlayerView)
    return new
