"""JSON documents: :func:`to_dict`, :func:`from_dict`, :func:`to_json`, :func:`from_json`.

The schema of every kind of document is documented in ``records/_schema.py``,
shown with the package (``help(rummylib.records)``).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeAlias, TypeVar, overload

from rummylib.actions import Discard, DrawStock, LayMeld, LayOff, NextRound, Open, SwapJoker, TakeDiscard
from rummylib.cards import CardMultiset
from rummylib.engine import GameState, PlayerView
from rummylib.errors import StateReason
from rummylib.melds import Group, Meld, Run
from rummylib.records._doc import (
    READABLE_SCHEMAS,
    SCHEMA_VERSION,
    Obj,
    check_limits,
    fail,
    parse_json,
    short,
)
from rummylib.records._record import GameRecord, record_from_json, record_to_json
from rummylib.records._rulesref import known_rulesets, lean_view_from_json, lean_view_to_json
from rummylib.records._state import state_from_json, state_to_json
from rummylib.records._values import (
    ACTION_TYPES,
    action_from_json,
    action_to_json,
    meld_from_json,
    meld_to_json,
    multiset_from_json,
    multiset_to_json,
    ruleset_from_json,
    ruleset_to_json,
)
from rummylib.records._view_doc import view_from_json, view_to_json
from rummylib.rules import Ruleset

__all__ = ["Document", "from_dict", "from_json", "to_dict", "to_json"]

#: Anything :func:`to_dict` writes and :func:`from_dict` reads.
Document: TypeAlias = (
    Ruleset
    | Meld
    | CardMultiset
    | GameState
    | PlayerView
    | GameRecord
    | DrawStock
    | TakeDiscard
    | Open
    | LayMeld
    | LayOff
    | SwapJoker
    | Discard
    | NextRound
)

_T = TypeVar("_T")
_Writer = Callable[[Any], dict[str, Any]]
_Reader = Callable[[object, str], Any]

#: kind -> (the types it holds, writer of the body, reader of the body).
_KINDS: Final[dict[str, tuple[tuple[type, ...], _Writer, _Reader]]] = {
    "ruleset": ((Ruleset,), ruleset_to_json, ruleset_from_json),
    "meld": ((Run, Group), meld_to_json, meld_from_json),
    "action": (tuple(ACTION_TYPES), action_to_json, action_from_json),
    "cards": ((CardMultiset,), multiset_to_json, multiset_from_json),
    "state": ((GameState,), state_to_json, state_from_json),
    "view": ((PlayerView,), view_to_json, view_from_json),
    "record": ((GameRecord,), record_to_json, record_from_json),
}


def to_dict(value: Document, *, full_rules: bool = False) -> dict[str, Any]:
    """A JSON-safe document for ``value``, with its ``schema`` and ``kind``.

    A view names a preset ruleset by reference, ``{"name": ..., "fingerprint":
    ...}`` (see :func:`ruleset_fingerprint`); ``full_rules=True`` writes every
    field instead. A ruleset that is no preset is always written in full.

    Raises:
        InvalidStateError: ``value`` is not something records can write
            (reason ``WRONG_TYPE``).

    >>> from rummylib import Discard, parse_card
    >>> to_dict(Discard(parse_card("KS")))
    {'schema': 1, 'kind': 'action', 'type': 'discard', 'card': 'KS'}
    """
    if type(value) is PlayerView:
        return {"schema": SCHEMA_VERSION, "kind": "view", **lean_view_to_json(value, full_rules=full_rules)}
    for kind, (held, write, _) in _KINDS.items():
        if type(value) in held:
            return {"schema": SCHEMA_VERSION, "kind": kind, **write(value)}
    fail(StateReason.WRONG_TYPE, "", f"cannot write {short(value)} as a document")
    return None


@overload
def from_dict(data: object, *, rulesets: Iterable[Ruleset] = ()) -> Document: ...
@overload
def from_dict(data: object, expect: type[_T], *, rulesets: Iterable[Ruleset] = ()) -> _T: ...
@overload
def from_dict(data: object, expect: types.UnionType, *, rulesets: Iterable[Ruleset] = ()) -> Any: ...
def from_dict(
    data: object, expect: type[Any] | types.UnionType | None = None, *, rulesets: Iterable[Ruleset] = ()
) -> Any:
    """Read a document written by :func:`to_dict`, re-validating all of it.

    Args:
        data: the document, as :func:`json.loads` returns it. It is not
            trusted: anything wrong raises, and nothing is built from it
            unless all of it is valid.
        expect: the type the document must hold (``Ruleset``, ``Meld``,
            ``Open``, ...), or a union of types such as :data:`~rummylib.Action`;
            ``None`` takes any kind.
        rulesets: rulesets besides the presets that a view's ruleset
            reference may name (a house variant the server and its clients share).

    Raises:
        RulesetMismatchError: a view names its ruleset by a reference that
            matches no known ruleset (``UNKNOWN_RULESET``) or by a fingerprint
            other than the known ruleset's (``RULESET_MISMATCH``).
        InvalidStateError: the document is malformed, forged, too large or
            not of the expected type; ``reason`` says what, ``path`` where.

    >>> from rummylib import Ruleset
    >>> from_dict({"schema": 1, "kind": "meld", "type": "run", "slots": ["5H", "6H", "JK=7H"]})
    Run(suit=<Suit.HEARTS: 'H'>, start=5, cards=(Card('5H'), Card('6H'), Card('JK')))
    >>> from_dict({"schema": 1, "kind": "meld", "type": "run", "slots": ["5H", "6H", "JK=8H"]})
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidStateError: slots: 5H 6H JK=8H: the jokers do not match their positions; ...
    """
    check_limits(data)
    return _read_document(data, expect, rulesets)


def _read_document(data: object, expect: type[Any] | types.UnionType | None, rulesets: Iterable[Ruleset] = ()) -> Any:
    """:func:`from_dict` on data whose limits are checked."""
    wanted = _expected(expect)
    header = Obj(data, "", "a document")
    schema = header.get("schema")
    if type(schema) is not int or schema not in READABLE_SCHEMAS:
        versions = ", ".join(map(str, sorted(READABLE_SCHEMAS)))
        fail(
            StateReason.BAD_SCHEMA,
            "schema",
            f"schema version {short(schema)} is not one this release reads ({versions})",
        )
    kind = header.text("kind")
    entry = _KINDS.get(kind)
    if entry is None:
        fail(StateReason.BAD_SCHEMA, "kind", f"{short(kind)} is not a document kind ({', '.join(_KINDS)})")
    held, _, read = entry
    if wanted is not None and not any(issubclass(t, wanted) for t in held):
        name = _type_name(expect)
        article = "an" if name[:1] in "AEIOU" else "a"
        fail(StateReason.BAD_SCHEMA, "kind", f"expected {article} {name} document, found kind {kind!r}")
    body = {k: v for k, v in data.items() if k not in ("schema", "kind")}  # type: ignore[attr-defined]
    value = lean_view_from_json(body, "", known_rulesets(rulesets)) if kind == "view" else read(body, "")
    if wanted is not None and not isinstance(value, wanted):
        fail(StateReason.BAD_SCHEMA, "type", f"expected {_type_name(expect)}, found {_type_name(type(value))}")
    return value


def _expected(expect: object) -> tuple[type, ...] | None:
    """``expect`` as the tuple of classes a document may hold (a union gives its members)."""
    if expect is None:
        return None
    members = typing.get_args(expect) if isinstance(expect, types.UnionType) else (expect,)
    if not members or not all(isinstance(m, type) for m in members):
        fail(StateReason.WRONG_TYPE, "", f"expect must be a type such as Ruleset or Action, not {short(expect)}")
    return tuple(members)


def _type_name(kind: object) -> str:
    """A type as users name it: ``Ruleset``, ``Action``, ``Run or Group``."""
    if isinstance(kind, types.UnionType):
        members = set(typing.get_args(kind))
        if members == set(ACTION_TYPES):
            return "Action"
        return " or ".join(getattr(m, "__name__", "?") for m in typing.get_args(kind))
    return getattr(kind, "__name__", "?")


def to_json(value: Document, *, indent: int | None = None, full_rules: bool = False) -> str:
    """:func:`to_dict` as JSON text (keys in schema order, ASCII-safe).

    Raises:
        InvalidStateError: ``value`` is not something records can write (as
            :func:`to_dict`).

    >>> from rummylib import DrawStock
    >>> to_json(DrawStock())
    '{"schema": 1, "kind": "action", "type": "draw"}'
    """
    return json.dumps(to_dict(value, full_rules=full_rules), indent=indent, ensure_ascii=True, allow_nan=False)


@overload
def from_json(text: str | bytes, *, rulesets: Iterable[Ruleset] = ()) -> Document: ...
@overload
def from_json(text: str | bytes, expect: type[_T], *, rulesets: Iterable[Ruleset] = ()) -> _T: ...
@overload
def from_json(text: str | bytes, expect: types.UnionType, *, rulesets: Iterable[Ruleset] = ()) -> Any: ...
def from_json(
    text: str | bytes, expect: type[Any] | types.UnionType | None = None, *, rulesets: Iterable[Ruleset] = ()
) -> Any:
    """Parse JSON text safely (size and depth bounded, strict syntax), then :func:`from_dict`.

    Raises:
        InvalidStateError: the text is not JSON (``BAD_SYNTAX``), too large
            or too deep, or the document is invalid.

    >>> from rummylib import REMIK, Action, DrawStock, Ruleset
    >>> from_json(to_json(REMIK), Ruleset) == REMIK
    True
    >>> from_json(to_json(DrawStock()), Action)
    DrawStock()
    """
    return _read_document(parse_json(text), expect, rulesets)  # parse_json checked the limits
