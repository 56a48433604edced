"""Events: the values (:class:`Event`, :class:`StepEvents`) and reading them off a step (:func:`events`)."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Final

import attrs

from rummylib._guards import is_int_in
from rummylib.actions import Action, DrawStock, NextRound, TakeDiscard
from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState, Phase, PlayerView, TableMeld, TurnState, apply, view
from rummylib.errors import InvalidStateError, StateReason
from rummylib.records import format_action
from rummylib.scoring import RoundResult

__all__ = ["COPIED", "EXTRA", "REBUILT", "Event", "StepEvents", "events"]


def _cards(values: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(values)


def _changes(values: Sequence[tuple[int, TableMeld]]) -> tuple[tuple[int, TableMeld], ...]:
    return tuple(values)


def _ints(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(values)


def _bools(values: Sequence[bool]) -> tuple[bool, ...]:
    return tuple(values)


def _extra(values: Sequence[tuple[str, object]]) -> tuple[tuple[str, object], ...]:
    return tuple(values)


_ACTION_TYPES: Final = typing.get_args(Action)

#: The public fields of a view an event states as they are after the step (copied by :func:`apply_event`).
#: A new public field of PlayerView: add an Event field of that name, list it here, and write it in _json.
COPIED: Final = (
    "round_number",
    "dealer",
    "to_act",
    "phase",
    "hand_sizes",
    "stock_size",
    "restocks",
    "opened",
    "totals",
)
#: The view's fields apply_event rebuilds otherwise (changes of table, pile, hand; results; the seat's own turn).
REBUILT: Final = ("seat", "rules", "players", "hand", "table", "discard", "turn", "results", "standings")
#: Any other field of PlayerView, carried generically in :attr:`Event.extra` (its JSON form follows its type).
EXTRA: Final = tuple(f.name for f in attrs.fields(PlayerView) if f.name not in COPIED and f.name not in REBUILT)


@attrs.frozen
class Event:
    """One step of the game as one seat (or everybody) learns it.

    Attributes:
        seat: the seat that acted (for :class:`~rummylib.NextRound`, the seat that acted last).
        action: the action (a stock draw is :class:`~rummylib.DrawStock`, which names no card).
        viewer: the seat this event is for, or ``None`` for the public event.
        card: the card that came into the actor's hand: the taken discard
            (public), or the card drawn from the stock (only in the drawer's own event).
        round_number, dealer, to_act, phase, hand_sizes, stock_size, restocks, opened, totals:
            the view's public fields after the step.
        table_size: how many melds the table holds after the step.
        table_changes: ``(index, meld)`` for each table meld that is new or changed.
        discard_kept: how many cards from the bottom of the pile stay as they were.
        discard_added: the cards put on top of them, bottom first.
        refilled: whether the stock was refilled from the pile before this draw (R-D4, D6).
        result: the result of the round that ended with this step, or ``None``.
        hand_in: cards that came into the viewer's hand (empty in the public event).
        hand_out: cards that left the viewer's hand.
        turn: the viewer's turn after the step (as its view shows it; ``None`` when not its turn).
        extra: ``(name, value)`` of the view's other fields after the step
            (:data:`EXTRA`): in the public event those that every seat sees
            alike, in a seat's event all of them as that seat sees them.
    """

    seat: int
    action: Action
    viewer: int | None
    card: Card | None
    round_number: int
    dealer: int
    to_act: int
    phase: Phase
    hand_sizes: tuple[int, ...] = attrs.field(converter=_ints)
    stock_size: int
    restocks: int
    opened: tuple[bool, ...] = attrs.field(converter=_bools)
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    table_size: int
    table_changes: tuple[tuple[int, TableMeld], ...] = attrs.field(converter=_changes)
    discard_kept: int
    discard_added: tuple[Card, ...] = attrs.field(converter=_cards)
    refilled: bool = False
    result: RoundResult | None = None
    hand_in: CardMultiset = attrs.field(factory=CardMultiset)
    hand_out: CardMultiset = attrs.field(factory=CardMultiset)
    turn: TurnState | None = None
    extra: tuple[tuple[str, object], ...] = attrs.field(default=(), converter=_extra)

    def text(self, players: Sequence[str] | None = None) -> str:
        """The event in notation: ``Bob: draw``, ``Bob: draw 7H`` (his own), ``Ann: take 7H``, ...

        ``players`` names the seats (default ``seat 0``, ``seat 1``, ...).
        """
        return _describe(self, players)

    def __str__(self) -> str:
        return self.text()


def _name(players: Sequence[str] | None, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    if players is not None and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}"


def _describe(e: Event, players: Sequence[str] | None) -> str:
    if isinstance(e.action, NextRound):
        return f"round {e.round_number}: {_name(players, e.dealer)} deals"
    words = format_action(e.action)
    if isinstance(e.action, (DrawStock, TakeDiscard)) and e.card is not None:
        words += f" {e.card}"
    text = f"{_name(players, e.seat)}: {words}"
    if e.refilled:
        text += " (the pile became the new stock)"
    if e.result is not None:
        who = _name(players, e.result.winner)
        text += f"; round {e.round_number} over, {who} went out" if e.result.winner is not None else "; void round"
        if e.phase is Phase.GAME_OVER:
            text += "; game over"
    return text


@attrs.frozen
class StepEvents:
    """The events of one step: the public one and, per seat, what that seat learns.

    Attributes:
        public: what every seat (and any spectator) learns.
    """

    public: Event
    _before: GameState = attrs.field(repr=False, eq=False, alias="before")
    _after: GameState = attrs.field(repr=False, eq=False, alias="after")

    def for_seat(self, seat: int) -> Event:
        """What ``seat`` learns: the public event, its own drawn card, its own hand's change and turn.

        Raises:
            InvalidStateError: ``seat`` is not a seat of the game (``BAD_VALUE``).
        """
        n = self._before.num_players
        if not is_int_in(seat, 0, n - 1):
            raise InvalidStateError(StateReason.BAD_VALUE, "seat", f"seat must be 0..{n - 1}, not {seat!r}")
        old, new = view(self._before, seat), view(self._after, seat)
        card = self.public.card
        if isinstance(self.public.action, DrawStock) and seat == self.public.seat:
            gained = new.hand - old.hand if old.hand <= new.hand else CardMultiset()
            card = next(iter(gained), None)
        hand_in, hand_out = _hand_change(old.hand, new.hand)
        extra = tuple((name, getattr(new, name)) for name in EXTRA)
        return attrs.evolve(
            self.public, viewer=seat, card=card, hand_in=hand_in, hand_out=hand_out, turn=new.turn, extra=extra
        )


def _hand_change(old: CardMultiset, new: CardMultiset) -> tuple[CardMultiset, CardMultiset]:
    counts_in = [max(0, b - a) for a, b in zip(old.counts, new.counts)]
    counts_out = [max(0, a - b) for a, b in zip(old.counts, new.counts)]
    return CardMultiset.from_counts(counts_in), CardMultiset.from_counts(counts_out)


def _common_prefix(a: Sequence[object], b: Sequence[object]) -> int:
    k = 0
    for x, y in zip(a, b):
        if x != y:
            break
        k += 1
    return k


def _public_extra(after: GameState) -> tuple[tuple[str, object], ...]:
    """The :data:`EXTRA` fields every seat's view shows alike (the others go only into each seat's event)."""
    if not EXTRA:
        return ()
    views = [view(after, s) for s in range(after.num_players)]
    values = [(name, getattr(views[0], name)) for name in EXTRA]
    return tuple((name, value) for name, value in values if all(getattr(v, name) == value for v in views[1:]))


def _check_step(before: object, action: object, after: object) -> tuple[GameState, GameState]:
    if not isinstance(before, GameState):
        raise InvalidStateError(StateReason.WRONG_TYPE, "before", f"expected a GameState, not {type(before).__name__}")
    if type(action) not in _ACTION_TYPES:
        raise InvalidStateError(StateReason.WRONG_TYPE, "action", f"expected an action, not {type(action).__name__}")
    if after is None:
        after = apply(before, action)  # type: ignore[arg-type]  # an action, checked above
    if not isinstance(after, GameState):
        raise InvalidStateError(StateReason.WRONG_TYPE, "after", f"expected a GameState, not {type(after).__name__}")
    if (after.rules, after.players, after.seed) != (before.rules, before.players, before.seed):
        raise InvalidStateError(StateReason.INCONSISTENT, "after", "before and after are not states of one game")
    return before, after


def events(before: GameState, action: Action, after: GameState | None = None) -> StepEvents:
    """The events of the step ``after = apply(before, action)`` (``after`` is computed when not given).

    ``after`` must be the state :func:`~rummylib.apply` returned for that
    action; the events are read off the two states, so they state what
    happened exactly as the engine did it.

    Raises:
        IllegalActionError: ``after`` is not given and ``action`` is not legal.
        InvalidStateError: ``before`` or ``after`` is not a state, ``action`` is not an action,
            or the states are of different games.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, ["Ann", "Bob", "Cy"], seed=42)
    >>> str(events(s, rl.Discard(rl.parse_card("KH"))).public)
    'seat 0: discard KH'
    """
    before, after = _check_step(before, action, after)
    old, new = before.round, after.round
    new_round = after.round_number != before.round_number
    table_keep = 0 if new_round else len(old.table)
    changes = tuple((i, tm) for i, tm in enumerate(new.table) if i >= table_keep or old.table[i] != tm)
    kept = 0 if new_round else _common_prefix(old.discard, new.discard)
    card = old.discard[-1] if isinstance(action, TakeDiscard) and old.discard else None
    ended = len(after.results) > len(before.results)
    public = Event(
        seat=before.round.to_act,
        action=action,
        viewer=None,
        card=card,
        round_number=after.round_number,
        dealer=after.dealer,
        to_act=new.to_act,
        phase=new.phase,
        hand_sizes=tuple(len(h) for h in new.hands),
        stock_size=len(new.stock),
        restocks=new.restocks,
        opened=new.opened,
        totals=after.totals,
        table_size=len(new.table),
        table_changes=changes,
        discard_kept=kept,
        discard_added=new.discard[kept:],
        refilled=isinstance(action, DrawStock) and not new_round and new.restocks > old.restocks,
        result=after.results[-1] if ended else None,
        extra=_public_extra(after),
    )
    return StepEvents(public, before=before, after=after)
