"""OpenSpiel game parameters <-> a :class:`~rummylib.Ruleset` (every scalar field is a parameter)."""

from __future__ import annotations

import enum
from typing import Any, Final

import attrs

from rummylib.encoding._errors import shorten
from rummylib.rules import REMIK, STRAIGHT, Ruleset

#: Optional int fields: ``-1`` stands for ``None`` (OpenSpiel parameters have no null).
_OPTIONAL: Final = frozenset({"restock_limit", "melds_per_turn", "score_limit", "max_rounds"})
#: Fields OpenSpiel cannot carry as one scalar (the preset's value is used).
_SKIPPED: Final = frozenset({"hand_sizes", "name"})
#: An OpenSpiel game must be finite: one round and two refills of the stock unless told otherwise.
SPIEL_DEFAULTS: Final = {"max_rounds": 1, "restock_limit": 2}
#: The most turns in a game; then it ends where it stands (OpenSpiel needs a bounded game length).
DEFAULT_MAX_TURNS: Final = 200
#: The largest ``max_turns`` accepted.
MAX_TURNS: Final = 100_000
#: OpenSpiel counts a game's length in a C++ ``int``.
MAX_GAME_LENGTH: Final = 2**31 - 1


def _fields() -> list[attrs.Attribute[Any]]:
    return [f for f in attrs.fields(Ruleset) if f.name not in _SKIPPED]


def parameter_specification(preset: Ruleset) -> dict[str, Any]:
    """The game parameters and their defaults: ``players``, ``max_turns`` and each ruleset field."""
    spec: dict[str, Any] = {"players": 2, "max_turns": DEFAULT_MAX_TURNS}
    for f in _fields():
        value = SPIEL_DEFAULTS.get(f.name, getattr(preset, f.name))
        if value is None:
            value = -1
        elif isinstance(value, enum.Enum):
            value = value.value
        spec[f.name] = value
    return spec


def ruleset_from(preset: Ruleset, params: dict[str, Any]) -> Ruleset:
    """The ruleset the parameters describe (validated by :class:`~rummylib.Ruleset`)."""
    changes: dict[str, Any] = {}
    for f in _fields():
        if f.name not in params:
            continue
        value = params[f.name]
        if f.name in _OPTIONAL and value == -1:
            value = None
        elif isinstance(getattr(preset, f.name), enum.Enum):
            value = _member(type(getattr(preset, f.name)), f.name, value)
        changes[f.name] = value
    rules = attrs.evolve(preset, **changes)
    if rules.restock_limit is None or rules.max_rounds is None:
        msg = "an OpenSpiel game must be finite: set restock_limit >= 0 and max_rounds >= 1"
        raise ValueError(msg)
    return rules


def _member(kind: type[enum.Enum], name: str, value: object) -> enum.Enum:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in kind)
        msg = f"{name} must be one of {allowed}, not {shorten(value)}"
        raise ValueError(msg) from None


def max_turns_of(value: object) -> int:
    """The ``max_turns`` parameter: an int ``1..MAX_TURNS``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_TURNS:
        msg = f"max_turns must be an int 1..{MAX_TURNS}, not {shorten(value)}"
        raise ValueError(msg)
    return value


PRESETS: Final = {"python_remik": REMIK, "python_straight_rummy": STRAIGHT}
