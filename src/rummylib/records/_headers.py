"""The headers of a game record, in the spirit of PGN, and comments on its actions.

:class:`RecordHeaders` holds what files a game among others: the event, the
site, the date, the round of the event, the result, and free tags (any other
name, such as ``Annotator`` or ``TimeControl``). The players, the ruleset's
name and fingerprint, the seed and the dealer are the record's own fields and
are written as headers of the text form too (see :mod:`rummylib.records._text`).

Comments are text on one action each, by the action's index. A comment is
kept line by line with the spaces around each line removed (so it reads the
same after a round trip through the text form).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from rummylib.errors import InvalidStateError, StateReason
from rummylib.records._doc import MAX_STRING, Obj, as_int, as_str, fail, join, short

from .._guards import is_collection_of_items, is_instance

__all__ = ["RecordHeaders"]

#: A free tag's name: a letter, then letters, digits or underscores (PGN's tag names).
TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
#: Header names with a fixed meaning (free tags may not use them).
RESERVED: Final = frozenset(
    {"Event", "Site", "Date", "Round", "Result", "Players", "Rules", "Fingerprint", "Seed", "Dealer", "Rule"}
)
#: Most free tags one record may carry.
MAX_TAGS: Final = 64
#: Most comments one record may hold (one per action at most).
MAX_COMMENTS: Final = 1_000_000
#: Longest comment, in characters.
MAX_COMMENT: Final = MAX_STRING
#: The standard headers: attribute name -> the header's name in the text form.
STANDARD: Final = {"event": "Event", "site": "Site", "date": "Date", "round": "Round", "result": "Result"}


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        fail(StateReason.WRONG_TYPE, field, f"expected a string, not {short(value)}")
    if len(value) > MAX_STRING:
        fail(StateReason.TOO_LARGE, field, f"longer than {MAX_STRING} characters")
    return value


def _opt_text(value: object, field: str) -> str | None:
    return None if value is None else _text(value, field)


def _tags(values: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    if isinstance(values, Mapping):
        pairs = list(values.items())
    elif not is_collection_of_items(values):
        fail(StateReason.WRONG_TYPE, "tags", f"tags are a mapping of names to strings, not {short(values)}")
    else:
        pairs = []
        for pair in values:
            if not is_instance(pair, tuple) or len(pair) != 2:
                fail(StateReason.WRONG_TYPE, "tags", f"each tag is a (name, value) pair, not {short(pair)}")
            pairs.append(pair)
            if len(pairs) > MAX_TAGS:
                break
    if len(pairs) > MAX_TAGS:
        fail(StateReason.TOO_LARGE, "tags", f"a record carries at most {MAX_TAGS} free tags")
    seen: set[str] = set()
    for name, value in pairs:
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
            fail(StateReason.BAD_VALUE, "tags", f"{short(name)} is not a tag name (a letter, then letters, digits, _)")
        if name in RESERVED or name in seen:
            why = "has a fixed meaning" if name in RESERVED else "appears twice"
            fail(StateReason.BAD_VALUE, join("tags", name), f"the tag name {name} {why}")
        seen.add(name)
        _text(value, join("tags", name))
    return tuple(sorted(pairs))


@attrs.frozen
class RecordHeaders:
    """What files and shares a game, as PGN's tag pairs do (every field optional).

    Attributes:
        event: the event (a club night, a tournament).
        site: where it was played.
        date: when, by PGN's convention ``YYYY.MM.DD`` with ``??`` for an unknown part.
        round: the round of the event (a string: ``"3"``, ``"4.1"``).
        result: the result as people write it (``"Ann 0, Bob 87, Cy 112"``).
        tags: free tags, ``(name, value)`` pairs kept sorted by name (a
            mapping is accepted); names are a letter then letters, digits
            or ``_``, other than the standard ones.

    >>> h = RecordHeaders(event="Club night", tags={"Annotator": "Ewa"})
    >>> h.tag("Annotator"), h.tag("Opening")
    ('Ewa', None)
    """

    event: str | None = attrs.field(default=None, validator=lambda _i, a, v: _opt_text(v, a.name))
    site: str | None = attrs.field(default=None, validator=lambda _i, a, v: _opt_text(v, a.name))
    date: str | None = attrs.field(default=None, validator=lambda _i, a, v: _opt_text(v, a.name))
    round: str | None = attrs.field(default=None, validator=lambda _i, a, v: _opt_text(v, a.name))
    result: str | None = attrs.field(default=None, validator=lambda _i, a, v: _opt_text(v, a.name))
    tags: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_tags)

    def tag(self, name: str) -> str | None:
        """The value of the free tag ``name``, or ``None``."""
        return dict(self.tags).get(name)

    def __bool__(self) -> bool:
        return any(getattr(self, f) is not None for f in STANDARD) or bool(self.tags)

    def context(self) -> str:
        """A short line naming the game (``Club night, round 3, 2026.12.01``), or ``""``."""
        parts = [self.event, None if self.round is None else f"round {self.round}", self.date, self.site]
        return ", ".join(p for p in parts if p)


# --- comments -------------------------------------------------------------------------------


def canonical_comment(text: object, path: str) -> str:
    """The comment as kept: each line stripped, no blank lines around it; refused if empty."""
    if not isinstance(text, str):
        fail(StateReason.WRONG_TYPE, path, f"a comment is a string, not {short(text)}")
    if len(text) > MAX_COMMENT:
        fail(StateReason.TOO_LARGE, path, f"a comment is longer than {MAX_COMMENT} characters")
    lines = [line.strip() for line in text.splitlines()]
    comment = "\n".join(lines).strip("\n")
    if not comment:
        fail(StateReason.BAD_VALUE, path, "a comment holds some text")
    return comment


def comments_tuple(values: Mapping[int, str] | Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """Comments as sorted ``(index, text)`` pairs (a mapping is accepted); one comment per action."""
    if isinstance(values, Mapping):
        pairs = list(values.items())
    elif not is_collection_of_items(values):
        fail(StateReason.WRONG_TYPE, "comments", f"comments map action indices to text, not {short(values)}")
    else:
        pairs = list(itertools.islice(values, MAX_COMMENTS + 1))
    if len(pairs) > MAX_COMMENTS:
        fail(StateReason.TOO_LARGE, "comments", f"a record holds at most {MAX_COMMENTS} comments")
    result: dict[int, str] = {}
    for pair in pairs:
        if not is_instance(pair, tuple) or len(pair) != 2:
            fail(StateReason.WRONG_TYPE, "comments", f"each comment is an (index, text) pair, not {short(pair)}")
        index, text = pair
        as_int(index, "comments", 0)
        if index in result:
            fail(StateReason.BAD_VALUE, join("comments", index), "one comment per action")
        result[index] = canonical_comment(text, join("comments", index))
    return tuple(sorted(result.items()))


# --- JSON -----------------------------------------------------------------------------------


def headers_to_json(h: RecordHeaders) -> dict[str, Any]:
    """The headers that are set, and ``tags`` as an object."""
    body: dict[str, Any] = {f: getattr(h, f) for f in STANDARD if getattr(h, f) is not None}
    if h.tags:
        body["tags"] = dict(h.tags)
    return body


def headers_from_json(data: object, path: str) -> RecordHeaders:
    """Read ``headers``: each standard field optional, ``tags`` an object of strings."""
    obj = Obj(data, path, "record headers")
    values = {f: as_str(obj.get(f), obj.at(f)) for f in STANDARD if obj.has(f)}
    tags: dict[str, str] = {}
    if obj.has("tags"):
        raw = obj.child("tags", "tags")
        for name in raw.keys():  # noqa: SIM118 - an Obj is a checked reader, not a dict
            tags[name] = raw.text(name)
        raw.done()
    obj.done()
    try:
        return RecordHeaders(**values, tags=tags)
    except InvalidStateError as exc:  # give it the document's path
        raise InvalidStateError(exc.reason, join(path, exc.path), str(exc).split(": ", 1)[-1]) from None


def comments_to_json(comments: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    """``[{"action": <index>, "text": ...}, ...]``."""
    return [{"action": i, "text": t} for i, t in comments]


def comments_from_json(data: object, path: str, actions: int) -> tuple[tuple[int, str], ...]:
    """Read ``comments``; each names an action of the record."""
    pairs: list[tuple[int, str]] = []
    for i, item in enumerate(_array(data, path, actions)):
        where = join(path, i)
        obj = Obj(item, where, "a comment")
        index = obj.integer("action", 0, max(0, actions - 1))
        pairs.append((index, canonical_comment(obj.text("text"), obj.at("text"))))
        obj.done()
    if len({i for i, _ in pairs}) != len(pairs):
        fail(StateReason.BAD_VALUE, path, "one comment per action")
    return tuple(sorted(pairs))


def _array(data: object, path: str, most: int) -> list[object]:
    if type(data) is not list:
        fail(StateReason.WRONG_TYPE, path, f"expected an array, found {short(data)}")
    if len(data) > most:
        fail(StateReason.TOO_LARGE, path, f"more comments than actions ({most})")
    return data
