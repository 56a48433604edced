"""The JSON form of an event: ``{"schema": 1, "kind": "event", ...}``, read back strictly.

Fields, all required: ``seat``, ``viewer`` (a seat or ``null`` for the public
event), ``action`` (an action body as in an ``"action"`` document), ``card``
(a card or ``null``), ``round_number``, ``dealer``, ``to_act``, ``phase``,
``hand_sizes``, ``stock_size``, ``restocks``, ``opened``, ``totals`` (as in a
view), ``table_size``, ``table_changes`` (``[{"index": i, "meld": <meld>,
"owner": <seat or null>}]``), ``discard_kept``, ``discard_added`` (cards),
``refilled``, ``result`` (a round result as in a state, or ``null``),
``hand_in``, ``hand_out`` (cards), ``turn`` (as in a view, or ``null``) and
``extra`` (an object: the view's other fields, each in the JSON form its type
has: integers, booleans, cards, arrays of them, or ``null``).
Reading checks every field's form and bounds and raises
:class:`~rummylib.InvalidStateError` with the path of the bad field;
:func:`~rummylib.events.apply_event` then checks that the event fits the view.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any, Final

import attrs

from rummylib.actions import Action
from rummylib.cards import Card, CardMultiset
from rummylib.engine import Phase, PlayerView, TableMeld, TurnState
from rummylib.errors import InvalidStateError, StateReason
from rummylib.events._event import EXTRA, Event
from rummylib.melds import Meld
from rummylib.records import SCHEMA_VERSION, from_dict, to_dict
from rummylib.records._doc import Obj, as_bool, as_card, as_int, check_limits, fail, items, join, parse_json, short
from rummylib.scoring import RoundResult

__all__ = ["event_from_dict", "event_from_json", "event_to_dict", "event_to_json"]

#: Most seats, cards or melds one field of an event may hold (a guard before the view's checks).
_MAX_SEATS: Final = 64
_MAX_CARDS: Final = 1024
_MAX_COUNT: Final = 10**12
_ACTION_TYPES: Final = typing.get_args(Action)


def _card(c: Card | None) -> str | None:
    return None if c is None else str(c)


def _body(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("schema", "kind")}


#: Each field of TurnState and its JSON form, read off the class so a new field of these types needs no change.
_TURN_FIELDS: Final = tuple((f.name, str(f.type)) for f in attrs.fields(TurnState))
_TURN_KINDS: Final = frozenset({"Card | None", "bool", "int"})
if not {kind for _, kind in _TURN_FIELDS} <= _TURN_KINDS:  # pragma: no cover - a guard for the next field
    raise TypeError(f"TurnState has a field type the event JSON cannot write: {_TURN_FIELDS}")


def _turn_to_json(t: TurnState) -> dict[str, Any]:
    return {name: _card(getattr(t, name)) if kind == "Card | None" else getattr(t, name) for name, kind in _TURN_FIELDS}


# --- the view's other fields (EXTRA), by their declared type ------------------------------------

_EXTRA_TYPES: Final = {f.name: str(f.type) for f in attrs.fields(PlayerView) if f.name in EXTRA}
_WRITE: Final[dict[str, Callable[[Any], Any]]] = {
    "int": int,
    "bool": bool,
    "Card | None": _card,
    "tuple[bool, ...]": list,
    "tuple[int, ...]": list,
    "tuple[Card, ...]": lambda v: [str(c) for c in v],
    "CardMultiset": lambda v: [str(c) for c in v],
    "tuple[CardMultiset, ...]": lambda v: [[str(c) for c in h] for h in v],
}


def _read_extra(kind: str, value: object, path: str) -> object:
    def cards(v: object, p: str) -> tuple[Card, ...]:
        return tuple(items(v, p, as_card, _MAX_CARDS))

    if kind == "int":
        return as_int(value, path, -_MAX_COUNT, _MAX_COUNT)
    if kind == "bool":
        return as_bool(value, path)
    if kind == "Card | None":
        return _opt_card(value, path)
    if kind == "tuple[bool, ...]":
        return tuple(items(value, path, as_bool, _MAX_SEATS))
    if kind == "tuple[int, ...]":
        return tuple(items(value, path, lambda v, p: as_int(v, p, -_MAX_COUNT, _MAX_COUNT), _MAX_SEATS))
    if kind == "tuple[Card, ...]":
        return cards(value, path)
    if kind == "CardMultiset":
        return CardMultiset(cards(value, path))
    return tuple(CardMultiset(h) for h in items(value, path, cards, _MAX_SEATS))


def extra_types_unsupported() -> dict[str, str]:
    """The view's extra fields whose type has no JSON form here (empty when every one has)."""
    return {name: kind for name, kind in _EXTRA_TYPES.items() if kind not in _WRITE}


def _extra_to_json(extra: tuple[tuple[str, object], ...]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for name, value in extra:
        write = _WRITE.get(_EXTRA_TYPES.get(name, ""))
        if write is None:
            fail(StateReason.WRONG_TYPE, join("extra", name), "this view field has no JSON form in events")
        body[name] = write(value)
    return body


def _extra_from_json(value: object, path: str) -> tuple[tuple[str, object], ...]:
    obj = Obj(value, path, "the view's other fields")
    pairs = []
    for name in obj.keys():  # noqa: SIM118 - an Obj is a checked reader, not a dict
        kind = _EXTRA_TYPES.get(name)
        if kind is None or kind not in _WRITE:
            fail(StateReason.UNKNOWN_FIELD, obj.at(name), "not a field of a view here")
        pairs.append((name, _read_extra(kind, obj.get(name), obj.at(name))))
    obj.done()
    return tuple(pairs)


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON-safe document.

    Raises:
        InvalidStateError: ``event`` is not an :class:`~rummylib.events.Event` (``WRONG_TYPE``).
    """
    if not isinstance(event, Event):
        fail(StateReason.WRONG_TYPE, "", f"expected an Event, not {short(event)}")
    e = event
    r = e.result
    return {
        "schema": SCHEMA_VERSION,
        "kind": "event",
        "seat": e.seat,
        "viewer": e.viewer,
        "action": _body(to_dict(e.action)),
        "card": _card(e.card),
        "round_number": e.round_number,
        "dealer": e.dealer,
        "to_act": e.to_act,
        "phase": e.phase.value,
        "hand_sizes": list(e.hand_sizes),
        "stock_size": e.stock_size,
        "restocks": e.restocks,
        "opened": list(e.opened),
        "totals": list(e.totals),
        "table_size": e.table_size,
        "table_changes": [
            {"index": i, "meld": _body(to_dict(tm.meld)), "owner": tm.owner} for i, tm in e.table_changes
        ],
        "discard_kept": e.discard_kept,
        "discard_added": [str(c) for c in e.discard_added],
        "refilled": e.refilled,
        "result": None
        if r is None
        else {"winner": r.winner, "penalties": list(r.penalties), "scores": list(r.scores), "rummy": r.rummy},
        "hand_in": [str(c) for c in e.hand_in],
        "hand_out": [str(c) for c in e.hand_out],
        "turn": None if e.turn is None else _turn_to_json(e.turn),
        "extra": _extra_to_json(e.extra),
    }


def event_to_json(event: Event) -> str:
    """:func:`event_to_dict` as compact JSON text.

    Raises:
        InvalidStateError: ``event`` is not an :class:`~rummylib.events.Event` (as :func:`event_to_dict`).

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> from rummylib.events import events
    >>> e = events(s, rl.DrawStock()).for_seat(0)
    >>> event_from_json(event_to_json(e)) == e
    True
    """
    return json.dumps(event_to_dict(event), ensure_ascii=True, separators=(",", ":"))


# --- reading --------------------------------------------------------------------------------


def _seat(value: object, path: str) -> int:
    return as_int(value, path, 0, _MAX_SEATS - 1)


def _opt_seat(value: object, path: str) -> int | None:
    return None if value is None else _seat(value, path)


def _size(value: object, path: str) -> int:
    return as_int(value, path, 0, _MAX_CARDS)


def _opt_card(value: object, path: str) -> Card | None:
    return None if value is None else as_card(value, path)


def _counts(obj: Obj, key: str) -> tuple[int, ...]:
    return tuple(items(obj.get(key), obj.at(key), lambda v, p: as_int(v, p, -_MAX_COUNT, _MAX_COUNT), _MAX_SEATS))


def _cards(obj: Obj, key: str) -> tuple[Card, ...]:
    return tuple(items(obj.get(key), obj.at(key), as_card, _MAX_CARDS))


def _nested(kind: str, body: object, path: str, expect: type[Any] | None = None) -> Any:
    """Read a nested action or meld body with records' reader, errors moved to ``path``."""
    if type(body) is not dict:
        fail(StateReason.WRONG_TYPE, path, f"expected an object, found {short(body)}")
    if "schema" in body or "kind" in body:
        fail(StateReason.UNKNOWN_FIELD, path, "a nested value has no schema or kind")
    try:
        doc = {"schema": SCHEMA_VERSION, "kind": kind, **body}
        value = from_dict(doc) if expect is None else from_dict(doc, expect)
    except InvalidStateError as exc:
        detail = str(exc).removeprefix(f"{exc.path}: ")
        raise InvalidStateError(exc.reason, join(path, exc.path) if exc.path else path, detail) from None
    return value


def _action(value: object, path: str) -> Action:
    action = _nested("action", value, path)
    if not isinstance(action, _ACTION_TYPES):
        fail(StateReason.WRONG_TYPE, path, "expected an action")
    return action  # type: ignore[no-any-return]


def _table_meld(value: object, path: str) -> tuple[int, TableMeld]:
    obj = Obj(value, path, "a table change")
    index = obj.integer("index", 0, _MAX_CARDS)
    meld = _nested("meld", obj.get("meld"), obj.at("meld"), Meld)
    owner = _opt_seat(obj.get("owner"), obj.at("owner"))
    obj.done()
    return index, TableMeld(meld, owner)


def _result(value: object, path: str) -> RoundResult | None:
    if value is None:
        return None
    obj = Obj(value, path, "a round result")
    winner = _opt_seat(obj.get("winner"), obj.at("winner"))
    penalties, scores, rummy = _counts(obj, "penalties"), _counts(obj, "scores"), obj.flag("rummy")
    obj.done()
    return RoundResult(winner, penalties, scores, rummy)


def _turn(value: object, path: str) -> TurnState | None:
    if value is None:
        return None
    obj = Obj(value, path, "a turn")
    fields: dict[str, Any] = {}
    for name, kind in _TURN_FIELDS:
        if kind == "Card | None":
            fields[name] = _opt_card(obj.get(name), obj.at(name))
        elif kind == "bool":
            fields[name] = obj.flag(name)
        else:
            fields[name] = obj.integer(name, 0, _MAX_CARDS)
    obj.done()
    return TurnState(**fields)


def _phase(value: object, path: str) -> Phase:
    for phase in Phase:
        if phase.value == value:
            return phase
    fail(StateReason.BAD_VALUE, path, f"{short(value)} is not a phase ({', '.join(p.value for p in Phase)})")
    return None  # pragma: no cover


def event_from_dict(data: object) -> Event:
    """Read an event document, checking every field's form and bounds.

    Raises:
        InvalidStateError: the document is not a well-formed event; ``path`` names the field.
    """
    check_limits(data)
    obj = Obj(data, "", "an event")
    if obj.get("schema") != SCHEMA_VERSION or obj.get("kind") != "event":
        fail(StateReason.BAD_SCHEMA, "kind", f"expected schema {SCHEMA_VERSION} and kind 'event'")
    hand_in, hand_out = _cards(obj, "hand_in"), _cards(obj, "hand_out")
    event = Event(
        seat=_seat(obj.get("seat"), obj.at("seat")),
        action=_action(obj.get("action"), obj.at("action")),
        viewer=_opt_seat(obj.get("viewer"), obj.at("viewer")),
        card=_opt_card(obj.get("card"), obj.at("card")),
        round_number=obj.integer("round_number", 1, _MAX_COUNT),
        dealer=_seat(obj.get("dealer"), obj.at("dealer")),
        to_act=_seat(obj.get("to_act"), obj.at("to_act")),
        phase=_phase(obj.get("phase"), obj.at("phase")),
        hand_sizes=tuple(items(obj.get("hand_sizes"), obj.at("hand_sizes"), _size, _MAX_SEATS)),
        stock_size=obj.integer("stock_size", 0, _MAX_CARDS),
        restocks=obj.integer("restocks", 0, _MAX_COUNT),
        opened=tuple(items(obj.get("opened"), obj.at("opened"), as_bool, _MAX_SEATS)),
        totals=_counts(obj, "totals"),
        table_size=obj.integer("table_size", 0, _MAX_CARDS),
        table_changes=tuple(items(obj.get("table_changes"), obj.at("table_changes"), _table_meld, _MAX_CARDS)),
        discard_kept=obj.integer("discard_kept", 0, _MAX_CARDS),
        discard_added=_cards(obj, "discard_added"),
        refilled=obj.flag("refilled"),
        result=_result(obj.get("result"), obj.at("result")),
        hand_in=CardMultiset(hand_in),
        hand_out=CardMultiset(hand_out),
        turn=_turn(obj.get("turn"), obj.at("turn")),
        extra=_extra_from_json(obj.get("extra"), obj.at("extra")),
    )
    obj.done()
    return event


def event_from_json(text: str | bytes) -> Event:
    """Parse JSON text safely (bounded size and depth, strict syntax), then :func:`event_from_dict`.

    Raises:
        InvalidStateError: the text is not JSON or not a well-formed event.
    """
    return event_from_dict(parse_json(text))
