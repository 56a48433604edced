"""A trusted construction path for the engine's frozen attrs classes.

The public constructors of the state classes (:class:`~rummylib.GameState`,
:class:`~rummylib.engine.RoundState`, ...) convert and check every field, as
hostile input deserves. Inside the engine every field is already a value of
the right type (it comes from a checked state and a validated action), so
re-checking it on every move is pure cost: ``attrs.evolve`` with the checks
takes about ten times as long as setting the slots.

:func:`evolver`, :func:`replacer` and :func:`builder` generate, once per class, a function that
fills the slots of a new instance directly (plain assignments to an "open
twin" of the class, which then becomes the class itself: see
:func:`_open_twin`), with no converter, validator or ``__attrs_post_init__``. They are
for engine code that already holds checked values; nothing public reaches
them with outside input.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MemberDescriptorType
from typing import Any, TypeVar

import attrs

__all__ = ["builder", "evolver", "replacer"]

T = TypeVar("T")


def _open_twin(cls: type) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The field names of ``cls`` and a namespace holding its open twin (``_open``) and the class itself.

    The twin is a subclass that adds no slot and has ``object``'s own
    ``__setattr__`` and ``__delattr__``: a generated function fills a new
    twin by plain assignments (one specialised instruction each, where a call
    of a slot's ``__set__`` from Python is a generic call, several times the
    cost), then sets ``__class__`` to ``cls``. The layouts are the same, so
    CPython allows the switch, and the value is from then on exactly a ``cls``
    (frozen again: attrs' ``__setattr__``).
    """
    names = tuple(a.name for a in attrs.fields(cls))
    for name in names:
        if not isinstance(getattr(cls, name, None), MemberDescriptorType):
            msg = f"{cls.__name__}.{name} is not a slot: the trusted path needs a slotted attrs class"
            raise TypeError(msg)
    twin = type(
        f"_Open{cls.__name__}",
        (cls,),
        {
            "__slots__": (),
            "__init__": object.__init__,
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
        },
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_open": twin, "_cls": cls, "_missing": object()}
    return names, namespace


def evolver(cls: type[T]) -> Callable[..., T]:
    """``evolve(obj, **changes)``: a copy of ``obj`` with ``changes``, unchecked (the caller vouches).

    Raises:
        TypeError: ``cls`` is not a slotted attrs class.
    """
    names, namespace = _open_twin(cls)
    params = ", ".join(f"{n}=_missing" for n in names)
    body = "".join(f"    o.{n} = obj.{n} if {n} is _missing else {n}\n" for n in names)
    source = f"def evolve(obj, *, {params}):\n    o = _new(_open)\n{body}    o.__class__ = _cls\n    return o\n"
    exec(source, namespace)  # generated from the class's own field names
    return namespace["evolve"]  # type: ignore[no-any-return]


def replacer(cls: type[T], *changed: str) -> Callable[..., T]:
    """``replace(obj, v1, v2, ...)``: a copy of ``obj`` with the ``changed`` fields, in that order, set by position.

    The same value as ``evolver(cls)(obj, name1=v1, name2=v2, ...)``, unchecked
    (the caller vouches), for the engine's commonest moves: the generic
    evolver tests every field for a change and matches each keyword against
    its parameters one by one, which costs about as much again as copying.

    Raises:
        TypeError: ``cls`` is not a slotted attrs class, or ``changed`` is
            empty, repeats a name or names no field of it.
    """
    names, namespace = _open_twin(cls)
    if not changed or len(set(changed)) != len(changed) or not set(changed) <= set(names):
        msg = f"replacer({cls.__name__}, ...) needs distinct field names of it, not {changed!r}"
        raise TypeError(msg)
    body = "".join(f"    o.{n} = {n}\n" if n in changed else f"    o.{n} = obj.{n}\n" for n in names)
    source = (
        f"def replace(obj, {', '.join(changed)}, /):\n    o = _new(_open)\n{body}    o.__class__ = _cls\n    return o\n"
    )
    exec(source, namespace)  # generated from the class's own field names
    return namespace["replace"]  # type: ignore[no-any-return]


def builder(cls: type[T], *, positional: bool = False) -> Callable[..., T]:
    """``build(**fields)``: a new instance from every field by name, unchecked (the caller vouches).

    Fields with a default may be left out only if they are given; every field
    must be passed (defaults are not applied). ``positional``: the fields are
    passed by position instead, in the class's field order (``build(a, b, ...)``):
    CPython matches each keyword of a call against the parameters one by one,
    which for a class of two dozen fields costs more than building the value.

    Raises:
        TypeError: ``cls`` is not a slotted attrs class.
    """
    names, namespace = _open_twin(cls)
    params = ", ".join(names) + ", /" if positional else "*, " + ", ".join(names)
    body = "".join(f"    o.{n} = {n}\n" for n in names)
    source = f"def build({params}):\n    o = _new(_open)\n{body}    o.__class__ = _cls\n    return o\n"
    exec(source, namespace)  # generated from the class's own field names
    return namespace["build"]  # type: ignore[no-any-return]
