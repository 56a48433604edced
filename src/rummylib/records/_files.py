"""Record files: :func:`save_record` and :func:`load_record` (JSON or the text form).

This module sits above both :mod:`rummylib.records._record` and
:mod:`rummylib.records._json`, so neither imports the other.
"""

from __future__ import annotations

import json
import os

from rummylib.errors import StateReason
from rummylib.records._doc import MAX_TEXT, SCHEMA_VERSION, fail, short
from rummylib.records._json import from_json
from rummylib.records._record import GameRecord, record_to_json
from rummylib.records._text import format_record, parse_record

__all__ = ["load_record", "save_record"]


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to a file: JSON if the name ends in ``.json``, else the text form.

    Raises:
        InvalidStateError: ``record`` is not a :class:`GameRecord`, ``path`` is
            not a file name (a str or path-like without NUL characters), or the
            record cannot be written (as :func:`format_record`).
        OSError: the file cannot be written.

    >>> import pathlib, tempfile, rummylib as rl
    >>> rec = GameRecord(rl.REMIK, ("Ann", "Bob"), seed=7)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("game.json", "game.txt"):
    ...         save_record(rec, pathlib.Path(tmp, name))
    ...         assert load_record(pathlib.Path(tmp, name)) == rec
    """
    _check_path(path)
    if not isinstance(record, GameRecord):
        fail(StateReason.WRONG_TYPE, "", f"save_record() takes a GameRecord, not {short(record)}")
    if _is_json(path):
        document = {"schema": SCHEMA_VERSION, "kind": "record", **record_to_json(record)}
        text = json.dumps(document, indent=1, ensure_ascii=True) + "\n"
    else:
        text = format_record(record)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a file written by :func:`save_record` (JSON if the name ends in ``.json``).

    Raises:
        InvalidStateError: ``path`` is not a file name (a str or path-like
            without NUL characters), or the file is not a valid record (or too large).
        OSError: the file cannot be read.

    >>> import pathlib, tempfile, rummylib as rl
    >>> rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=3, actions=(rl.DrawStock(),))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "game.json"
    ...     save_record(rec, path)
    ...     load_record(path) == rec
    True
    """
    _check_path(path)
    with open(path, "rb") as f:
        raw = f.read(MAX_TEXT + 1)
    if len(raw) > MAX_TEXT:
        fail(StateReason.TOO_LARGE, "", f"the file is larger than {MAX_TEXT} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        fail(StateReason.BAD_SYNTAX, "", "the file is not valid UTF-8")
    if _is_json(path):
        return from_json(text, GameRecord)
    return parse_record(text)


def _check_path(path: object) -> None:
    """A str or path-like naming a file (no NUL character, which no file name holds)."""
    if not isinstance(path, (str, os.PathLike)):
        fail(StateReason.WRONG_TYPE, "", f"a record path is a str or a path, not {short(path)}")
    name = os.fspath(path)
    if not isinstance(name, str) or "\x00" in name:
        fail(StateReason.WRONG_TYPE, "", f"a record path is a file name without NUL characters, not {short(name)}")


def _is_json(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).lower().endswith(".json")
