"""Records: JSON documents, action notation, game records and replay.

Everything a game server or an analyst needs to store, send and share games
safely: :func:`to_dict`/:func:`from_dict` (and :func:`to_json`/:func:`from_json`)
write and strictly re-validate versioned JSON documents (the schema is
described field by field below);
:func:`format_action`/:func:`parse_action` are a short text notation for
actions; a :class:`GameRecord` (ruleset, seats, seed, actions, PGN-like
:class:`RecordHeaders` and comments) replays with :func:`replay` and saves
as JSON or as text a person can read and edit (:func:`format_record`,
:func:`parse_record`, :func:`save_record`); :func:`ruleset_fingerprint`
names a ruleset in views and record files without repeating its rules.

>>> from rummylib import REMIK, Ruleset
>>> from rummylib.records import from_json, parse_action, format_action, to_json
>>> from_json(to_json(REMIK), Ruleset) == REMIK
True
>>> format_action(parse_action("MELD 8h 8s jk=8d"))
'meld 8S 8H JK=8D'
"""

from __future__ import annotations

from rummylib.errors import StateReason
from rummylib.records import _json, _schema
from rummylib.records._doc import MAX_DEPTH, MAX_NODES, MAX_STRING, MAX_TEXT, SCHEMA_VERSION
from rummylib.records._files import load_record, save_record
from rummylib.records._headers import RecordHeaders
from rummylib.records._json import Document, from_dict, from_json, to_dict, to_json
from rummylib.records._notation import format_action, parse_action
from rummylib.records._record import GameRecord, replay
from rummylib.records._rulesref import ruleset_fingerprint
from rummylib.records._text import format_record, parse_record

# The schema, field by field, is documented once, in _schema; show it with the package.
__doc__ = f"{__doc__}\n{_json.__doc__.splitlines()[0]}\n\n{_schema.__doc__}"

__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_STRING",
    "MAX_TEXT",
    "SCHEMA_VERSION",
    "Document",
    "GameRecord",
    "RecordHeaders",
    "StateReason",
    "format_action",
    "format_record",
    "from_dict",
    "from_json",
    "load_record",
    "parse_action",
    "parse_record",
    "replay",
    "ruleset_fingerprint",
    "save_record",
    "to_dict",
    "to_json",
]
