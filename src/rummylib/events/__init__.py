"""Per-seat events: what each seat learns from one step of the game, and how a client applies it.

A server that applies an action tells every seat what happened, without
leaking (RULES.md H1). :func:`events` ``(before, action, after)`` returns a
:class:`StepEvents`: its :attr:`~StepEvents.public` event is what everybody
learns ("Bob drew from the stock", "Ann took 7H", "Cy laid 9S 10S JS"), and
:meth:`~StepEvents.for_seat` adds what one seat alone learns: the card it drew
itself, or its new hand when a round is dealt. Nothing of another seat's
hidden cards is ever in a seat's event.

An :class:`Event` carries the action and its public consequences as data
(the view's public fields after the step: the table's changed melds, the
pile's new top, the hand sizes, the stock size, whose turn, the phase, the
totals, the round's result when it ended) and, for its seat, the change of
its own hand and its turn. A client keeps its :class:`~rummylib.PlayerView`
and calls :func:`apply_event`; it arrives exactly at its next view::

    apply_event(view(before, s), events(before, a, after).for_seat(s)) == view(after, s)

No rule is re-implemented on the client: the event states the result.

>>> import rummylib as rl
>>> before = rl.new_game(rl.STRAIGHT, ["Ann", "Bob"], seed=3)
>>> after = rl.apply(before, rl.DrawStock())
>>> step = events(before, rl.DrawStock(), after)
>>> step.public.text(before.players), step.for_seat(1).text(before.players)
('Bob: draw', 'Bob: draw 10H')
>>> apply_event(rl.view(before, 0), step.for_seat(0)) == rl.view(after, 0)
True
"""

from __future__ import annotations

from rummylib.events._apply import apply_event
from rummylib.events._event import Event, StepEvents, events
from rummylib.events._json import event_from_dict, event_from_json, event_to_dict, event_to_json

__all__ = [
    "Event",
    "StepEvents",
    "apply_event",
    "event_from_dict",
    "event_from_json",
    "event_to_dict",
    "event_to_json",
    "events",
]
