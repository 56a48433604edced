"""A trusted construction path for the engine's frozen attrs classes.

The public constructors of the state classes (:class:`~rummylib.GameState`,
:class:`~rummylib.engine.RoundState`, ...) convert and check every field, as
hostile input deserves. Inside the engine every field is already a value of
the right type (it comes from a checked state and a validated action), so
re-checking it on every move is pure cost: ``attrs.evolve`` with the checks
takes about ten times as long as setting the slots.

:func:`evolver` and :func:`builder` generate, once per class, a function that
fills the slots of a new instance directly (``object.__new__`` and the slot
descriptors), with no converter, validator or ``__attrs_post_init__``. They are
for engine code that already holds checked values; nothing public reaches
them with outside input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["builder", "evolver"]

T = TypeVar("T")


def _slot_setters(cls: type) -> tuple[tuple[str, ...], dict[str, Any]]:
    names = tuple(a.name for a in attrs.fields(cls))
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_missing": object()}
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__  # the slot's member descriptor
    return names, namespace


def evolver(cls: type[T]) -> Callable[..., T]:
    """``evolve(obj, **changes)``: a copy of ``obj`` with ``changes``, unchecked (the caller vouches).

    Raises:
        TypeError: ``cls`` is not a slotted attrs class.
    """
    names, namespace = _slot_setters(cls)
    params = ", ".join(f"{n}=_missing" for n in names)
    body = "".join(f"    _set{i}(o, obj.{n} if {n} is _missing else {n})\n" for i, n in enumerate(names))
    source = f"def evolve(obj, *, {params}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(source, namespace)  # generated from the class's own field names
    return namespace["evolve"]  # type: ignore[no-any-return]


def builder(cls: type[T]) -> Callable[..., T]:
    """``build(**fields)``: a new instance from every field by name, unchecked (the caller vouches).

    Fields with a default may be left out only if they are given; every field
    must be passed (defaults are not applied).

    Raises:
        TypeError: ``cls`` is not a slotted attrs class.
    """
    names, namespace = _slot_setters(cls)
    params = ", ".join(names)
    body = "".join(f"    _set{i}(o, {n})\n" for i, n in enumerate(names))
    source = f"def build(*, {params}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(source, namespace)  # generated from the class's own field names
    return namespace["build"]  # type: ignore[no-any-return]
