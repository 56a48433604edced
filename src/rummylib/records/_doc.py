"""Reading untrusted JSON documents: size limits, typed field access, paths.

Everything here raises :class:`~rummylib.InvalidStateError` with a
:class:`~rummylib.StateReason` and the path of the offending value
(``round.hands[2][5]``); nothing else escapes.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat
from typing import Any, Final, NoReturn, TypeVar, cast

from rummylib.cards import CARDS, JOKER, Card
from rummylib.errors import InvalidStateError, StateReason

__all__: list[str] = []

#: Deepest nesting of arrays and objects accepted in a document.
MAX_DEPTH: Final = 32
#: Most values (objects, arrays, strings, numbers, ...) in one document.
MAX_NODES: Final = 1_000_000
#: Most objects and arrays in one document (JSON text: most ``{`` and ``[``
#: characters, strings included, counted before parsing). A state with the
#: most rounds a document may hold needs about 30 000.
MAX_CONTAINERS: Final = 50_000
#: Longest string accepted anywhere in a document.
MAX_STRING: Final = 4096
#: Longest JSON or record text accepted, in characters.
MAX_TEXT: Final = 16 * 1024 * 1024
#: Largest integer magnitude accepted (JSON numbers beyond 64 bits are refused).
MAX_INT_BITS: Final = 64

#: The current schema version of every document.
SCHEMA_VERSION: Final = 1
#: The versions this release reads.
READABLE_SCHEMAS: Final = frozenset({1})

_T = TypeVar("_T")

#: Canonical card notation -> card (``7H``, ``10H``, ``JK``).
CARD_BY_TEXT: Final[dict[str, Card]] = {str(c): c for c in CARDS}


def fail(reason: StateReason, path: str, detail: str) -> NoReturn:
    """Raise :class:`InvalidStateError`."""
    raise InvalidStateError(reason, path, detail)


def join(path: str, key: str | int) -> str:
    """The path of ``key`` inside ``path``: ``a.b``, ``a[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def short(value: object) -> str:
    """A bounded ``repr`` of a JSON value for messages."""
    if isinstance(value, (dict, list)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__} (not JSON)"


def check_limits(data: object, path: str = "") -> None:
    """Refuse anything but bounded, plain JSON values, before any other reading.

    Walks iteratively (no recursion, so no :class:`RecursionError`), stops at
    the first value past a limit, and so also ends on cyclic structures.
    Arrays of plain scalars are checked in bulk, and a value's path is built
    only to name it in an error, so the walk costs little per value.
    """
    # Each entry: (value, parent entry or None, key in the parent, depth).
    stack: list[_Entry] = [(data, None, path, 1)]
    nodes = containers = 0
    while stack:
        entry = stack.pop()
        value, _, _, depth = entry
        nodes += 1
        kind = type(value)
        if kind is dict or kind is list:
            containers += 1
            if containers > MAX_CONTAINERS:
                detail = f"the document holds more than {MAX_CONTAINERS} objects and arrays"
                fail(StateReason.TOO_LARGE, _path(entry), detail)
            if depth > MAX_DEPTH:
                fail(StateReason.TOO_DEEP, _path(entry), f"the document nests deeper than {MAX_DEPTH} levels")
            if nodes + len(stack) + len(cast(list[object], value)) > MAX_NODES:
                fail(StateReason.TOO_LARGE, _path(entry), f"the document holds more than {MAX_NODES} values")
            if kind is dict:
                nodes += _walk_object(cast(dict[object, object], value), entry, stack)
            else:
                room = (MAX_NODES - nodes - len(stack), MAX_CONTAINERS - containers)
                bulk, nested = _walk_array(cast(list[object], value), entry, stack, room)
                nodes += bulk
                containers += nested
        else:
            _check_scalar(entry)


_Entry = tuple[object, Any, "str | int", int]


def _walk_object(obj: dict[object, object], entry: _Entry, stack: list[_Entry]) -> int:
    """Check the keys of ``obj``, its scalar values in bulk (their count is returned); push the containers."""
    if not set(map(type, obj)) <= {str} or max(map(len, cast(dict[str, object], obj)), default=0) > MAX_STRING:
        for key in obj:
            if type(key) is not str:
                fail(StateReason.WRONG_TYPE, _path(entry), f"object keys must be strings, found {short(key)}")
            if len(key) > MAX_STRING:
                fail(StateReason.TOO_LARGE, _path(entry), f"an object key is longer than {MAX_STRING} characters")
    return _push_items(list(cast(dict[str, object], obj)), list(obj.values()), entry, stack)


def _walk_array(values: list[object], entry: _Entry, stack: list[_Entry], room: tuple[int, int]) -> tuple[int, int]:
    """Check an array: how many values and containers it held that were checked in bulk (in C).

    An array of scalars, or of arrays of scalars (a stock of one-card arrays),
    within ``room`` (the values and containers the document may still hold),
    is checked whole; otherwise its scalars are, and its containers are pushed.
    """
    kinds = set(map(type, values))
    if kinds <= _BULK_TYPES and _plain_scalars(values, kinds):
        return len(values), 0
    if kinds == {list} and entry[3] < MAX_DEPTH and len(values) <= room[1]:
        flat = list(itertools.chain.from_iterable(cast(list[list[object]], values)))
        if len(values) + len(flat) <= room[0] and _plain_scalars(flat):
            return len(values) + len(flat), len(values)
    return _push_items(range(len(values)), values, entry, stack), 0


def _push_items(keys: Sequence[str | int], values: list[object], entry: _Entry, stack: list[_Entry]) -> int:
    """Check the scalars of ``values`` in bulk (their count is returned) and push the containers.

    Where a scalar is past a limit, every item is pushed, for the walk to name it.
    """
    depth = entry[3] + 1
    nested = list(map(_CONTAINERS.__contains__, map(type, values)))
    scalars = list(itertools.compress(values, map(operator.not_, nested)))
    if _plain_scalars(scalars):
        stack.extend((v, entry, k, depth) for k, v in itertools.compress(zip(keys, values), nested))
        return len(scalars)
    stack.extend((v, entry, k, depth) for k, v in zip(keys, values))
    return 0


def _path(entry: _Entry) -> str:
    """The path of a value in the walk: its keys from the root, joined."""
    keys: list[str | int] = []
    node: _Entry | None = entry
    while node is not None and node[1] is not None:
        keys.append(node[2])
        node = node[1]
    where = str(node[2]) if node is not None else ""
    for key in reversed(keys):
        where = join(where, key)
    return where


def _check_scalar(entry: _Entry) -> None:
    value = entry[0]
    if type(value) not in _JSON_TYPES:
        fail(StateReason.WRONG_TYPE, _path(entry), f"expected a JSON value, found {_json_type(value)}")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            fail(StateReason.TOO_LARGE, _path(entry), f"a string is longer than {MAX_STRING} characters")
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int):
        if value.bit_length() > MAX_INT_BITS:
            fail(StateReason.TOO_LARGE, _path(entry), f"an integer needs more than {MAX_INT_BITS} bits")
    elif isinstance(value, float) and not math.isfinite(value):
        fail(StateReason.BAD_VALUE, _path(entry), "NaN and infinities are not JSON")


_JSON_TYPES: Final = frozenset({dict, list, str, int, float, bool, type(None)})
_BULK_TYPES: Final = frozenset({str, int, float, bool, type(None)})
_CONTAINERS: Final = frozenset({list, dict})
_INT_LIMIT: Final = 1 << MAX_INT_BITS


def _plain_scalars(values: list[object], kinds: set[type] | None = None) -> bool:
    """Whether ``values`` holds only strings, numbers, booleans and nulls within the limits (in C).

    ``False`` sends the values to the item-by-item walk, which finds and names
    the offending value.
    """
    if kinds is None:
        kinds = set(map(type, values))
    if not kinds <= _BULK_TYPES:
        return False
    types = list(map(type, values)) if len(kinds) > 1 else []

    def of(kind: type) -> list[Any]:
        return values if len(kinds) == 1 else list(itertools.compress(values, map(operator.is_, types, repeat(kind))))

    if str in kinds and max(map(len, of(str))) > MAX_STRING:
        return False
    if int in kinds:
        ints = of(int)
        if not (min(ints) > -_INT_LIMIT and max(ints) < _INT_LIMIT):
            return False
    return float not in kinds or all(map(math.isfinite, of(float)))


def _refuse_constant(name: str) -> NoReturn:
    fail(StateReason.BAD_SYNTAX, "", f"{name} is not JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)  # in C; only a document with a repeated key is walked key by key
    if len(result) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                fail(StateReason.BAD_SYNTAX, "", f"the key {short(key)} appears twice in one object")
            seen.add(key)
    return result


def parse_json(text: object, path: str = "") -> object:
    """Parse JSON text safely: bounded size and depth, strict syntax, typed errors."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            fail(StateReason.BAD_SYNTAX, path, "the JSON text is not valid UTF-8")
    if not isinstance(text, str):
        fail(StateReason.WRONG_TYPE, path, f"expected JSON text, found {_json_type(text)}")
    if len(text) > MAX_TEXT:
        fail(StateReason.TOO_LARGE, path, f"the text is longer than {MAX_TEXT} characters")
    if text.count("{") + text.count("[") > MAX_CONTAINERS:  # bounds the parser's work and memory
        fail(StateReason.TOO_LARGE, path, f"the text opens more than {MAX_CONTAINERS} objects and arrays")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
    except InvalidStateError as exc:
        raise InvalidStateError(exc.reason, path, str(exc)) from None
    except RecursionError:  # the C scanner guards its recursion; the depth limit comes after
        fail(StateReason.TOO_DEEP, path, f"the document nests deeper than {MAX_DEPTH} levels")
    except ValueError as exc:  # JSONDecodeError, the int digits limit
        fail(StateReason.BAD_SYNTAX, path, f"not valid JSON: {exc}")
    check_limits(data, path)
    return data


class Obj:
    """A JSON object being read: typed getters, and unknown keys refused at :meth:`done`."""

    __slots__ = ("_data", "_seen", "path")

    def __init__(self, data: object, path: str, what: str) -> None:
        if type(data) is not dict:
            fail(StateReason.WRONG_TYPE, path, f"{what} must be a JSON object, found {_json_type(data)}")
        self._data: dict[str, object] = data
        self._seen: set[str] = set()
        self.path = path

    def has(self, key: str) -> bool:
        """Whether ``key`` is present."""
        return key in self._data

    def keys(self) -> tuple[str, ...]:
        """The keys present, in document order."""
        return tuple(self._data)

    def at(self, key: str) -> str:
        """The path of ``key``."""
        return join(self.path, key)

    def get(self, key: str) -> object:
        """The raw value of a required field."""
        self._seen.add(key)
        if key not in self._data:
            fail(StateReason.MISSING_FIELD, self.at(key), "required field is missing")
        return self._data[key]

    def text(self, key: str) -> str:
        """A string field."""
        return as_str(self.get(key), self.at(key))

    def integer(self, key: str, low: int | None = None, high: int | None = None) -> int:
        """An integer field within ``low..high``."""
        return as_int(self.get(key), self.at(key), low, high)

    def opt_integer(self, key: str, low: int | None = None, high: int | None = None) -> int | None:
        """An integer field or ``null``."""
        value = self.get(key)
        return None if value is None else as_int(value, self.at(key), low, high)

    def flag(self, key: str) -> bool:
        """A boolean field."""
        value = self.get(key)
        if type(value) is not bool:
            fail(StateReason.WRONG_TYPE, self.at(key), f"expected true or false, found {short(value)}")
        return value

    def array(self, key: str) -> list[object]:
        """An array field."""
        return as_list(self.get(key), self.at(key))

    def child(self, key: str, what: str) -> Obj:
        """A nested object field."""
        return Obj(self.get(key), self.at(key), what)

    def done(self) -> None:
        """Refuse any key that was not read."""
        for key in self._data:
            if key not in self._seen:
                fail(StateReason.UNKNOWN_FIELD, self.at(key), "this field is not part of the schema")


def as_str(value: object, path: str) -> str:
    """``value`` as a string, or a typed error."""
    if type(value) is not str:
        fail(StateReason.WRONG_TYPE, path, f"expected a string, found {short(value)}")
    return value


def as_int(value: object, path: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an integer in ``low..high``, or a typed error."""
    if type(value) is not int:
        fail(StateReason.WRONG_TYPE, path, f"expected an integer, found {short(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        fail(StateReason.BAD_VALUE, path, f"{value} is out of range {bounds}")
    return value


def as_bool(value: object, path: str) -> bool:
    """``value`` as a boolean, or a typed error."""
    if type(value) is not bool:
        fail(StateReason.WRONG_TYPE, path, f"expected true or false, found {short(value)}")
    return value


def as_list(value: object, path: str) -> list[object]:
    """``value`` as a list, or a typed error."""
    if type(value) is not list:
        fail(StateReason.WRONG_TYPE, path, f"expected an array, found {short(value)}")
    return value


def items(value: object, path: str, read: Callable[[object, str], _T], most: int | None = None) -> Iterator[_T]:
    """Read each element of an array with ``read(element, path)``; refuse more than ``most``."""
    array = as_list(value, path)
    if most is not None and len(array) > most:
        fail(StateReason.TOO_LARGE, path, f"holds {len(array)} values; at most {most} fit here")
    for i, item in enumerate(array):
        yield read(item, join(path, i))


def as_card(value: object, path: str) -> Card:
    """A card in canonical notation (``7H``, ``10H``, ``JK``)."""
    text = as_str(value, path)
    card = CARD_BY_TEXT.get(text)
    if card is None:
        fail(StateReason.BAD_CARD, path, f"{short(text)} is not a card in canonical notation (7H, 10H, JK)")
    return card


def as_natural(value: object, path: str) -> Card:
    """A card that is not the joker."""
    card = as_card(value, path)
    if card is JOKER:
        fail(StateReason.BAD_CARD, path, "expected a real card, not the joker")
    return card


def as_cards(value: object, path: str) -> tuple[Card, ...]:
    """An array of cards in canonical notation."""
    return tuple(items(value, path, as_card))


def card_list(cards: Iterable[Card]) -> list[str]:
    """Cards as a JSON array of card strings."""
    return [str(c) for c in cards]
