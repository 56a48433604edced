"""Game records: the ruleset, the seats, the seed and the actions; replay; the text form.

A record holds everything needed to rebuild a game: :func:`replay` deals with
:func:`~rummylib.new_game` and applies the actions one by one; headers and
comments (:mod:`rummylib.records._headers`) file and annotate it. Records are
saved as JSON (``kind: "record"``) or as text (the current text form, with
PGN-like headers, is in :mod:`rummylib.records._text`). The older text form,
still read, is one header line and one action a line::

    # rummylib game record
    {"schema": 1, "kind": "record", "rules": {...}, "players": ["Ann", "Bob"], "seed": {...}, "dealer": 0}
    draw
    discard KS
    ...

In the text form, blank lines and lines starting with ``#`` are ignored
(the writer adds ``# round N`` before each new round).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
from collections.abc import Iterable, Iterator
from typing import Any, Final

import attrs

from rummylib.actions import Action, NextRound
from rummylib.engine import GameState, apply, new_game
from rummylib.engine._deal import check_names
from rummylib.engine._rng import validate_seed
from rummylib.errors import (
    ArgumentError,
    IllegalActionError,
    InvalidStateError,
    RulesetError,
    RulesetReason,
    StateReason,
)
from rummylib.records._doc import MAX_TEXT, SCHEMA_VERSION, Obj, fail, join, parse_json, short
from rummylib.records._headers import (
    RecordHeaders,
    comments_from_json,
    comments_to_json,
    comments_tuple,
    headers_from_json,
    headers_to_json,
)
from rummylib.records._notation import format_action, read_action
from rummylib.records._state import read_players, read_seat, read_seed, seed_to_json
from rummylib.records._values import check_action, ruleset_from_json, ruleset_to_json
from rummylib.rules import MAX_PLAYERS, Ruleset

from .._guards import is_collection_of_items, is_int

__all__ = ["GameRecord", "format_record", "parse_record", "replay"]

#: Most actions one game may hold: a record longer is refused as it is read, and
#: :func:`~rummylib.simulate` stops a game here by default. The longest of 100
#: simulated straight games between two random bots (the slowest players) took
#: 12 162 actions; greedy bots' games take under 1 000. Replaying a record this
#: long keeps every state (about 34 MB).
MAX_ACTIONS: Final = 20_000
_MAGIC: Final = "# rummylib game record"


def _actions(values: Iterable[Action]) -> tuple[Action, ...]:
    if not is_collection_of_items(values):
        fail(StateReason.WRONG_TYPE, "actions", f"actions are a sequence of actions, not {short(values)}")
    actions = tuple(itertools.islice(values, MAX_ACTIONS + 1))
    if len(actions) > MAX_ACTIONS:
        fail(StateReason.TOO_LARGE, "actions", f"a record holds at most {MAX_ACTIONS} actions")
    return actions


def _names(values: int | Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, int) and not isinstance(values, bool):
        if not 0 <= values <= MAX_PLAYERS:
            fail(StateReason.BAD_VALUE, "players", f"{short(values)} seats; a ruleset seats at most {MAX_PLAYERS}")
        return tuple(f"P{i}" for i in range(values))  # as new_game names a count of seats
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        fail(StateReason.WRONG_TYPE, "players", f"players are a count or names, not {short(values)}")
    names = tuple(itertools.islice(values, MAX_PLAYERS + 1))
    if len(names) > MAX_PLAYERS:
        fail(StateReason.BAD_VALUE, "players", f"more than {MAX_PLAYERS} names; a ruleset seats at most {MAX_PLAYERS}")
    return names


@attrs.frozen
class GameRecord:
    """A replayable game: what :func:`~rummylib.new_game` needs, then every action.

    Attributes:
        rules: the ruleset.
        players: the seats' names, seat 0 first (a count ``n`` names them
            ``P0`` .. ``Pn-1``, as :func:`~rummylib.new_game` does).
        seed: the seed of every shuffle (a record, unlike a view, holds it).
        dealer: the first dealer.
        actions: every action in the order played.
        headers: the event, site, date, round, result and free tags
            (:class:`~rummylib.records.RecordHeaders`), as PGN has them.
        comments: ``(index, text)`` pairs, a comment on the action at that
            index (a mapping is accepted; kept sorted, see
            :class:`~rummylib.records.RecordHeaders` for how text is kept).

    >>> import rummylib as rl
    >>> rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=7, actions=(rl.DrawStock(),))
    >>> replay(rec)[-1].phase.value
    'play'
    """

    rules: Ruleset
    players: tuple[str, ...] = attrs.field(converter=_names)
    seed: int | str
    dealer: int = 0
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_actions)
    headers: RecordHeaders = attrs.field(factory=RecordHeaders)
    comments: tuple[tuple[int, str], ...] = attrs.field(default=(), converter=comments_tuple)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, Ruleset):
            fail(StateReason.WRONG_TYPE, "rules", f"expected a Ruleset, not {short(self.rules)}")
        if not all(isinstance(p, str) for p in self.players):
            fail(StateReason.WRONG_TYPE, "players", f"player names are strings, not {short(self.players)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, str)):
            fail(StateReason.WRONG_TYPE, "seed", f"a seed is an int or a str, not {short(self.seed)}")
        if not is_int(self.dealer) or self.dealer < 0:
            fail(StateReason.WRONG_TYPE, "dealer", f"the dealer is a seat number, not {short(self.dealer)}")
        # R-P1..P3: the seats and the seed the game is dealt from, as new_game would refuse them.
        for field, check in (("players", lambda: check_names(self.rules, self.players)),
                             ("seed", lambda: validate_seed(self.seed))):  # fmt: skip
            try:
                check()
            except (ArgumentError, RulesetError) as exc:
                fail(StateReason.BAD_VALUE, field, str(exc))
        if self.dealer >= len(self.players):
            fail(StateReason.BAD_VALUE, "dealer", f"seat {self.dealer} is not one of the {len(self.players)} seats")
        for i, action in enumerate(self.actions):
            check_action(action, join("actions", i))
        if not isinstance(self.headers, RecordHeaders):
            fail(StateReason.WRONG_TYPE, "headers", f"expected RecordHeaders, not {short(self.headers)}")
        if self.comments and self.comments[-1][0] >= len(self.actions):
            index = self.comments[-1][0]
            fail(StateReason.BAD_VALUE, join("comments", index), f"the record has {len(self.actions)} actions")

    def comment(self, index: int) -> str | None:
        """The comment on the action at ``index``, or ``None``."""
        return dict(self.comments).get(index)

    def start(self) -> GameState:
        """The game as dealt, before the first action.

        Raises:
            RulesetError: the ruleset, seats, seed or dealer are not valid.

        >>> import rummylib as rl
        >>> state = GameRecord(rl.REMIK, ("Ann", "Bob"), seed=7).start()
        >>> [len(hand) for hand in state.round.hands]
        [14, 13]
        """
        return new_game(self.rules, self.players, seed=self.seed, dealer=self.dealer)


def replay(record: GameRecord) -> tuple[GameState, ...]:
    """Every state of the game: the deal, then one after each action.

    Raises:
        IllegalActionError: the first action the engine refuses; its
            ``index`` field is the action's position in ``record.actions``
            and its message starts with the game's headers, if any
            (``Club night, round 3, 2026.12.01: ``), then ``action <index> (<notation>)``.
        RulesetError: the record's ruleset, seats, seed or dealer are not valid.

    >>> import rummylib as rl
    >>> rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=7, actions=(rl.DrawStock(), rl.DrawStock()))
    >>> replay(rec)
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: action 1 (draw): 'draw' is not allowed now: drawing is over for this turn
    """
    if not isinstance(record, GameRecord):
        msg = f"replay() takes a GameRecord, not {type(record).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "record", record, msg)
    states = [record.start()]
    with _collector_paused():
        for index, action in enumerate(record.actions):
            try:
                states.append(apply(states[-1], action))
            except IllegalActionError as exc:
                raise _at(record, index, action, exc) from None
    return tuple(states)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while replay builds its states (restored after, also on error).

    Every state replay keeps is alive to the end, so each collection would
    only walk the growing list again: on a record at the cap that walk was
    about a third of replay's time. The states hold no reference cycles, so
    nothing is left for the collector to find. Before it runs again, the
    objects made meanwhile are moved to its oldest generation (``gc.freeze``
    then ``gc.unfreeze``, only when nothing else is frozen), as they would be
    after surviving two collections; otherwise the first collection walks
    them all at once (a tenth of a second at the cap).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():  # never thaw what a caller froze (a server before fork)
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _at(record: GameRecord, index: int, action: Action, exc: IllegalActionError) -> IllegalActionError:
    """``exc`` with the record's headers and the action's index and notation in front of its message."""
    try:
        text = format_action(action)
    except InvalidStateError:
        text = short(action)
    context = record.headers.context()
    detail = f"{context + ': ' if context else ''}action {index} ({text}): {exc}"
    return IllegalActionError(
        exc.reason,
        action,
        detail,
        card=exc.card,
        meld_reason=exc.meld_reason,
        seat=exc.seat,
        limit=exc.limit,
        have=exc.have,
        need=exc.need,
        index=index,
    )


# --- JSON -----------------------------------------------------------------------------------


def _header_to_json(record: GameRecord) -> dict[str, Any]:
    return {
        "rules": ruleset_to_json(record.rules),
        "players": list(record.players),
        "seed": seed_to_json(record.seed),
        "dealer": record.dealer,
    }


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The record's body: header fields, ``actions`` as notation strings, ``headers`` and ``comments`` if any."""
    body = {**_header_to_json(record), "actions": [format_action(a) for a in record.actions]}
    if record.headers:
        body["headers"] = headers_to_json(record.headers)
    if record.comments:
        body["comments"] = comments_to_json(record.comments)
    return body


def _read_header(obj: Obj) -> tuple[Ruleset, tuple[str, ...], int | str, int]:
    rules = ruleset_from_json(obj.get("rules"), obj.at("rules"))
    players = read_players(obj, rules)
    seed = read_seed(obj)
    dealer = read_seat(obj.get("dealer"), obj.at("dealer"), len(players))
    return rules, players, seed, dealer


def record_from_json(data: object, path: str) -> GameRecord:
    """Read a record body; each action is checked for form (legality is :func:`replay`'s)."""
    obj = Obj(data, path, "a game record")
    rules, players, seed, dealer = _read_header(obj)
    raw = obj.array("actions")
    if len(raw) > MAX_ACTIONS:
        fail(StateReason.TOO_LARGE, obj.at("actions"), f"a record holds at most {MAX_ACTIONS} actions")
    actions = tuple(read_action(a, rules, join(obj.at("actions"), i)) for i, a in enumerate(raw))
    headers = headers_from_json(obj.get("headers"), obj.at("headers")) if obj.has("headers") else RecordHeaders()
    comments = comments_from_json(obj.get("comments"), obj.at("comments"), len(actions)) if obj.has("comments") else ()
    obj.done()
    return GameRecord(rules, players, seed, dealer, actions, headers, comments)


# --- text -----------------------------------------------------------------------------------


def format_record(record: GameRecord) -> str:
    """The older text form: a comment, the header (one line of JSON), then one action a line.

    Kept so files written before headers existed still load (headers and
    comments are not part of it); :func:`rummylib.records.format_record` writes the current form.

    Raises:
        InvalidStateError: the record holds something that is not an action
            (reason ``WRONG_TYPE`` or ``BAD_VALUE``).

    >>> import rummylib as rl
    >>> rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=7, actions=(rl.DrawStock(),))
    >>> print(format_record(rec).splitlines()[2])
    draw
    >>> parse_record(format_record(rec)) == rec
    True
    """
    header = {"schema": SCHEMA_VERSION, "kind": "record", **_header_to_json(record)}
    lines = [_MAGIC, json.dumps(header, ensure_ascii=True)]
    round_number = 1
    for action in record.actions:
        lines.append(format_action(action))
        if isinstance(action, NextRound):
            round_number += 1
            lines.append(f"# round {round_number}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read the older text form of :func:`format_record` (:func:`rummylib.records.parse_record` calls it).

    Raises:
        InvalidStateError: the header or a line is not valid; the path names
            the line (``line 12``).

    >>> parse_record("draw")
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidStateError: line 1: not valid JSON: Expecting value: line 1 column 1 (char 0)
    """
    if not isinstance(text, str):
        fail(StateReason.WRONG_TYPE, "", f"a record's text must be a string, not {short(text)}")
    if len(text) > MAX_TEXT:
        fail(StateReason.TOO_LARGE, "", f"the text is longer than {MAX_TEXT} characters")
    rules: Ruleset | None = None
    header: tuple[Ruleset, tuple[str, ...], int | str, int] | None = None
    actions: list[Action] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"line {number}"
        if header is None:
            data = parse_json(stripped, where)
            obj = Obj(data, where, "a record header")
            schema = obj.get("schema")
            if type(schema) is not int or schema != SCHEMA_VERSION or obj.get("kind") != "record":
                fail(StateReason.BAD_SCHEMA, where, "the header is a JSON object with schema 1 and kind 'record'")
            header = _read_header(obj)
            obj.done()
            rules = header[0]
            continue
        if len(actions) >= MAX_ACTIONS:
            fail(StateReason.TOO_LARGE, where, f"a record holds at most {MAX_ACTIONS} actions")
        actions.append(read_action(stripped, rules, where))
    if header is None:
        fail(StateReason.MISSING_FIELD, "", "the record has no header line")
    return GameRecord(*header, actions=actions)
