"""Runtime guards for values that arrive from outside.

Public functions are typed, but their callers are not always type-checked
(JSON, a network client, a notebook). These predicates take ``object`` so a
check stays honest under ``mypy --strict`` with ``redundant-expr`` enabled:
they state what is *checked at run time*, not what the signature promises.
"""

from __future__ import annotations

from collections.abc import Iterable

from rummylib.errors import SimulationError, SimulationReason, shorten


def is_int(value: object) -> bool:
    """``value`` is an ``int`` and not a ``bool`` (``True`` is not seat 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


#: Most decimal digits of an ``int`` seed, everywhere a seed is taken (games, bots, simulations).
MAX_SEED_DIGITS = 256
_SEED_LIMIT = 10**MAX_SEED_DIGITS


def is_seed_int(value: object) -> bool:
    """``value`` is an ``int`` (not a ``bool``) of at most :data:`MAX_SEED_DIGITS` decimal digits."""
    return isinstance(value, int) and not isinstance(value, bool) and -_SEED_LIMIT < value < _SEED_LIMIT


def check_seed_int(seed: object, what: str) -> None:
    """Raise :class:`~rummylib.SimulationError` (``BAD_ARGUMENT``) unless ``seed`` passes :func:`is_seed_int`.

    The one check of the int seeds that bots and simulations take; ``what`` names the seed in the message.
    """
    if not is_seed_int(seed):
        msg = f"{what} must be an int of at most {MAX_SEED_DIGITS} digits, not {shorten(seed)}"
        raise SimulationError(SimulationReason.BAD_ARGUMENT, seed, msg)


def is_int_in(value: object, low: int, high: int) -> bool:
    """``value`` is an ``int`` (not a ``bool``) with ``low <= value <= high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def is_collection_of_items(value: object) -> bool:
    """``value`` is an iterable of items, and not text (a ``str`` or ``bytes`` is one value, not cards)."""
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def is_instance(value: object, kind: type | tuple[type, ...]) -> bool:
    """``isinstance`` for a value whose static type already claims ``kind``: the run-time check of a typed argument."""
    return isinstance(value, kind)
