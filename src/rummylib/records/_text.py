"""The text form of a game record: PGN-like headers, then one action a line, with comments.

A record file reads like this::

    # rummylib game record
    [Event "Club night"]
    [Date "2026.12.01"]
    [Players ["Ann", "Bob", "Cy"]]
    [Dealer 0]
    [Seed 42]
    [Rules "remik"]
    [Fingerprint "d945c0b44d3cd9ff"]

    # round 1
    discard KH
    draw ; Bob draws from the stock
    take
    open 9S 10S JS | 8H 8D JK=8C ; a clean run, as R-O2 asks
    ...

Headers come first, one a line: ``[Name value]``, the value a JSON value (a
string in double quotes with JSON's ``\\"`` and ``\\\\`` escapes; an integer;
an array of strings for ``Players``). ``Event``, ``Site``, ``Date``, ``Round``
and ``Result`` and any free tag (``[Annotator "Ewa"]``) are strings. The
record's own fields are ``Players``, ``Dealer`` (default 0), ``Seed`` (an
integer, or a string for a text seed), ``Rules`` (the ruleset's name),
``Fingerprint`` (optional; when present it must match the ruleset, see
:func:`~rummylib.records.ruleset_fingerprint`) and, for a ruleset that is not
exactly the preset of that name, one ``[Rule.<field> <JSON value>]`` header
per field that differs (``[Rule.jokers 6]``; every field when the name is no
preset).

Then the actions in the notation of :func:`~rummylib.records.format_action`,
one a line. Text after ``;`` is a comment on that line's action; a line that
starts with ``;`` continues the comment of the action before it. Blank lines
and lines starting with ``#`` are ignored (the writer adds ``# round N``).
Anything wrong raises :class:`~rummylib.InvalidStateError` whose path is the
line (``line 12``).

The older form, a line of JSON as the header (what rummylib wrote before
headers existed), is still read.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

import attrs

from rummylib.actions import Action, NextRound
from rummylib.errors import InvalidStateError, StateReason
from rummylib.records._doc import MAX_TEXT, as_int, as_list, as_str, fail, parse_json, short
from rummylib.records._headers import STANDARD, RecordHeaders
from rummylib.records._notation import format_action, read_action
from rummylib.records._record import MAX_ACTIONS, GameRecord
from rummylib.records._record import parse_record as parse_legacy_record
from rummylib.records._rulesref import check_fingerprint, ruleset_fingerprint
from rummylib.records._state import MAX_SEED_DIGITS
from rummylib.records._values import ruleset_field_kinds, ruleset_from_json, ruleset_to_json
from rummylib.rules import RULESETS, Ruleset

__all__ = ["format_record", "parse_record"]

_MAGIC: Final = "# rummylib game record"
_TAG: Final = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*(?:\.[a-z_0-9]+)?)[ \t]+(.*)\]")
_INTEGER: Final = re.compile(r"-?[0-9]+")
#: Characters str.splitlines() breaks at that json.dumps(ensure_ascii=False) leaves as they are.
_LINE_BREAKS: Final = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_NAMES: Final = {v: k for k, v in STANDARD.items()}


def _value(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    for char, escaped in _LINE_BREAKS.items():
        text = text.replace(char, escaped)
    return text


def _rule_lines(rules: Ruleset) -> list[str]:
    body = ruleset_to_json(rules)
    base = RULESETS.get(rules.name)
    if base is None:  # no preset of that name: every field
        return [f"[Rule.{k} {_value(v)}]" for k, v in body.items() if k != "name"]
    shown = ruleset_to_json(base)
    return [f"[Rule.{k} {_value(v)}]" for k, v in body.items() if shown[k] != v]


def format_record(record: GameRecord) -> str:
    """The text form: headers, then one action a line with its comment.

    Raises:
        InvalidStateError: ``record`` is not a :class:`GameRecord` (``WRONG_TYPE``).

    >>> import rummylib as rl
    >>> from rummylib.records import RecordHeaders
    >>> rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=7, actions=(rl.DrawStock(),),
    ...                  headers=RecordHeaders(event="Club night"), comments={0: "Ann draws"})
    >>> print(format_record(rec))  # doctest: +ELLIPSIS
    # rummylib game record
    [Event "Club night"]
    [Players ["Ann", "Bob"]]
    [Dealer 0]
    [Seed 7]
    [Rules "straight"]
    [Fingerprint "..."]
    <BLANKLINE>
    # round 1
    draw ; Ann draws
    <BLANKLINE>
    >>> parse_record(format_record(rec)) == rec
    True
    """
    if not isinstance(record, GameRecord):
        fail(StateReason.WRONG_TYPE, "", f"format_record() takes a GameRecord, not {short(record)}")
    h = record.headers
    lines = [_MAGIC]
    lines += [f"[{STANDARD[f]} {_value(getattr(h, f))}]" for f in ("event", "site", "date", "round")
              if getattr(h, f) is not None]  # fmt: skip
    lines.append(f"[Players {_value(list(record.players))}]")
    lines.append(f"[Dealer {record.dealer}]")
    lines.append(f"[Seed {_value(record.seed)}]")
    lines.append(f"[Rules {_value(record.rules.name)}]")
    lines.append(f"[Fingerprint {_value(ruleset_fingerprint(record.rules))}]")
    lines += _rule_lines(record.rules)
    if h.result is not None:
        lines.append(f"[Result {_value(h.result)}]")
    lines += [f"[{name} {_value(value)}]" for name, value in h.tags]
    lines += ["", "# round 1"]
    comments = dict(record.comments)
    round_number = 1
    for i, action in enumerate(record.actions):
        text = format_action(action)
        comment = comments.get(i)
        if comment is not None:
            first, *more = comment.split("\n")
            text += f" ; {first}"
            lines.append(text)
            lines += [f"; {line}".rstrip() for line in more]
        else:
            lines.append(text)
        if isinstance(action, NextRound):
            round_number += 1
            lines.append(f"# round {round_number}")
    return "\n".join(lines) + "\n"


# --- reading --------------------------------------------------------------------------------


@attrs.define
class _Reader:
    """The state of reading one record's text, line by line."""

    tags: dict[str, tuple[int, object]] = attrs.field(factory=dict)
    rules: Ruleset | None = None
    actions: list[Action] = attrs.field(factory=list)
    comments: dict[int, list[str]] = attrs.field(factory=dict)

    def tag(self, number: int, match: re.Match[str]) -> None:
        where = f"line {number}"
        if self.rules is not None:
            fail(StateReason.BAD_SYNTAX, where, f"the header [{match.group(1)} ...] comes after an action")
        name, raw = match.group(1), match.group(2).strip()
        if name in self.tags:
            fail(StateReason.BAD_VALUE, where, f"[{name}] appears twice (first on line {self.tags[name][0]})")
        if len(self.tags) >= 200:
            fail(StateReason.TOO_LARGE, where, "too many headers")
        if _INTEGER.fullmatch(raw):
            if len(raw.removeprefix("-")) > MAX_SEED_DIGITS:
                fail(StateReason.TOO_LARGE, where, f"[{name}] holds an integer of more than {MAX_SEED_DIGITS} digits")
            value: object = int(raw)
        else:
            value = parse_json(raw, where)
        self.tags[name] = (number, value)

    def action(self, number: int, text: str) -> None:
        where = f"line {number}"
        if self.rules is None:
            self.rules = _build_rules(self.tags, number)
        body, sep, comment = text.partition(";")
        if not body.strip():  # a line starting with ';' continues the previous action's comment
            if not self.actions:
                fail(StateReason.BAD_SYNTAX, where, "a comment (';') follows the action it is about")
            self.comments.setdefault(len(self.actions) - 1, []).append(comment.strip())
            return
        if len(self.actions) >= MAX_ACTIONS:
            fail(StateReason.TOO_LARGE, where, f"a record holds at most {MAX_ACTIONS} actions")
        self.actions.append(read_action(body.strip(), self.rules, where))
        if sep:
            self.comments[len(self.actions) - 1] = [comment.strip()]

    def record(self, last_line: int) -> GameRecord:
        if self.rules is None:
            self.rules = _build_rules(self.tags, last_line)
        players = _players(self.tags, last_line)
        _check_seats(self.rules, players, self.tags)
        seed = _seed(self.tags, last_line)
        dealer = _get(self.tags, "Dealer", last_line, required=False)
        dealer_seat = 0 if dealer is None else as_int(dealer[1], dealer[0], 0, len(players) - 1)
        headers = _headers(self.tags)
        comments = {}
        for index, lines in self.comments.items():
            text = "\n".join(lines).strip("\n")
            if text:
                comments[index] = text
        return GameRecord(self.rules, players, seed, dealer_seat, self.actions, headers, comments)


def _get(
    tags: dict[str, tuple[int, object]], name: str, line: int, *, required: bool = True
) -> tuple[str, object] | None:
    entry = tags.get(name)
    if entry is None:
        if required:
            fail(StateReason.MISSING_FIELD, f"line {line}", f"the record has no [{name} ...] header before this line")
        return None
    return f"line {entry[0]}", entry[1]


def _players(tags: dict[str, tuple[int, object]], line: int) -> tuple[str, ...]:
    where, value = _get(tags, "Players", line) or ("", None)
    names = as_list(value, where)
    if len(names) > 64:
        fail(StateReason.TOO_LARGE, where, "at most 64 players")
    return tuple(as_str(n, f"{where}: player {i}") for i, n in enumerate(names))


def _check_seats(rules: Ruleset, players: tuple[str, ...], tags: dict[str, tuple[int, object]]) -> None:
    if not rules.min_players <= len(players) <= rules.max_players:
        detail = f"{len(players)} players; the {rules.name} rules seat {rules.min_players} to {rules.max_players}"
        fail(StateReason.INCONSISTENT, f"line {tags['Players'][0]}", detail)


def _seed(tags: dict[str, tuple[int, object]], line: int) -> int | str:
    where, value = _get(tags, "Seed", line) or ("", None)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        fail(StateReason.WRONG_TYPE, where, f"[Seed] is an integer or a string, not {short(value)}")
    return value


def _headers(tags: dict[str, tuple[int, object]]) -> RecordHeaders:
    standard: dict[str, str] = {}
    free: dict[str, str] = {}
    for name, (number, value) in tags.items():
        if name in ("Players", "Dealer", "Seed", "Rules", "Fingerprint") or name.startswith("Rule."):
            continue
        text = as_str(value, f"line {number}")
        if name in _NAMES:
            standard[_NAMES[name]] = text
        else:
            free[name] = text
    try:
        return RecordHeaders(**standard, tags=free)
    except InvalidStateError as exc:
        name = STANDARD.get(exc.path, exc.path.removeprefix("tags."))
        number = tags[name][0] if name in tags else min(n for n, _ in tags.values())
        raise InvalidStateError(exc.reason, f"line {number}", str(exc)) from None


def _build_rules(tags: dict[str, tuple[int, object]], line: int) -> Ruleset:
    """The ruleset the headers describe: the named preset with its ``Rule.*`` changes, checked."""
    where, name = _get(tags, "Rules", line) or ("", None)
    name = as_str(name, where)
    base = RULESETS.get(name)
    body: dict[str, Any] = ruleset_to_json(base) if base is not None else {}
    body["name"] = name
    kinds = ruleset_field_kinds()
    lines = {"name": where}
    for tag, (number, value) in tags.items():
        if tag.startswith("Rule."):
            field = tag.removeprefix("Rule.")
            if field not in kinds or field == "name":
                fail(StateReason.UNKNOWN_FIELD, f"line {number}", f"[{tag}]: no ruleset field is called {field!r}")
            body[field] = value
            lines[field] = f"line {number}"
    try:
        rules = ruleset_from_json(body, "rules")
    except InvalidStateError as exc:
        field = exc.path.removeprefix("rules.").split(".")[0].split("[")[0]
        at = lines.get(field, where)
        detail = str(exc).removeprefix(f"{exc.path}: ")
        if exc.reason is StateReason.MISSING_FIELD:
            detail = f"[Rules {name!r}] is no preset, so [Rule.{field} ...] is required"
        raise InvalidStateError(exc.reason, at, f"[Rule.{field}]: {detail}") from None
    stated = _get(tags, "Fingerprint", line, required=False)
    if stated is not None:
        check_fingerprint(rules, as_str(stated[1], stated[0]), stated[0])
    return rules


def parse_record(text: str) -> GameRecord:
    """Read the text form of :func:`format_record` (or the older one-line JSON header form).

    Raises:
        RulesetMismatchError: the ``[Fingerprint]`` is not the ruleset's
            (the rules were edited, or the file is for another ruleset).
        InvalidStateError: a header or a line is not valid; the path names
            the line (``line 12``).

    >>> parse_record("[Players [\\"Ann\\", \\"Bob\\"]]\\n[Seed 1]\\n[Rules \\"remik\\"]\\ndraw\\ndiscrad KS\\n")
    Traceback (most recent call last):
    ...
    rummylib.errors.ActionParseError: line 5: 'discrad KS': unknown action 'discrad' ...
    """
    if not isinstance(text, str):
        fail(StateReason.WRONG_TYPE, "", f"a record's text must be a string, not {short(text)}")
    if len(text) > MAX_TEXT:
        fail(StateReason.TOO_LARGE, "", f"the text is longer than {MAX_TEXT} characters")
    lines = text.removeprefix("\ufeff").splitlines()
    first = next((line.strip() for line in lines if line.strip() and not line.strip().startswith("#")), "")
    if first.startswith("{"):
        return parse_legacy_record(text)
    reader = _Reader()
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            match = _TAG.fullmatch(stripped)
            if match is None:
                detail = f'{short(stripped)} is not a header: write [Name value], as in [Event "Club night"]'
                fail(StateReason.BAD_SYNTAX, f"line {number}", detail)
            reader.tag(number, match)
        else:
            reader.action(number, stripped)
    return reader.record(len(lines) + 1)
