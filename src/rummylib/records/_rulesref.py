"""Rulesets by reference: a stable fingerprint, and resolving ``{name, fingerprint}`` to a ruleset.

A fingerprint is the first 8 bytes of BLAKE2b over the ruleset's canonical
JSON (its document body with sorted keys and no spaces), as 16 hex digits.
It depends on every field and on nothing else (not on the Python version,
the platform or the order fields are declared in), so two programs agree on
it exactly when they agree on every rule. Views and record files name a
preset by ``name`` and fingerprint instead of repeating all of its fields.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any, Final

from rummylib.engine import PlayerView
from rummylib.errors import RulesetMismatchError, StateReason
from rummylib.records._doc import Obj, fail, join, short
from rummylib.records._values import ruleset_from_json, ruleset_to_json
from rummylib.records._view_doc import view_from_json, view_to_json
from rummylib.rules import RULESETS, Ruleset

__all__ = ["ruleset_fingerprint"]

#: A fingerprint: 16 lowercase hex digits.
FINGERPRINT: Final = re.compile(r"[0-9a-f]{16}")


def ruleset_fingerprint(rules: Ruleset) -> str:
    """The ruleset's fingerprint: 16 hex digits of BLAKE2b over its canonical JSON.

    Raises:
        InvalidStateError: ``rules`` is not a :class:`~rummylib.Ruleset` (``WRONG_TYPE``).

    >>> import attrs, rummylib as rl
    >>> ruleset_fingerprint(rl.REMIK) == ruleset_fingerprint(attrs.evolve(rl.REMIK))
    True
    >>> ruleset_fingerprint(rl.REMIK) == ruleset_fingerprint(attrs.evolve(rl.REMIK, jokers=6))
    False
    """
    if not isinstance(rules, Ruleset):
        fail(StateReason.WRONG_TYPE, "", f"expected a Ruleset, not {short(rules)}")
    text = json.dumps(ruleset_to_json(rules), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.blake2b(text.encode("ascii"), digest_size=8).hexdigest()


def is_preset(rules: Ruleset) -> bool:
    """Whether ``rules`` is exactly the preset of its name."""
    return RULESETS.get(rules.name) == rules


def ruleset_ref(rules: Ruleset) -> dict[str, Any]:
    """``{"name": ..., "fingerprint": ...}``."""
    return {"name": rules.name, "fingerprint": ruleset_fingerprint(rules)}


def known_rulesets(extra: Iterable[Ruleset] = ()) -> dict[tuple[str, str], Ruleset]:
    """The presets and ``extra``, by ``(name, fingerprint)``."""
    known = {(r.name, ruleset_fingerprint(r)): r for r in RULESETS.values()}
    for rules in extra:
        if not isinstance(rules, Ruleset):
            fail(StateReason.WRONG_TYPE, "rulesets", f"known rulesets are Ruleset values, not {short(rules)}")
        known[(rules.name, ruleset_fingerprint(rules))] = rules
    return known


def resolve(name: str, fingerprint: str | None, path: str, known: dict[tuple[str, str], Ruleset]) -> Ruleset:
    """The known ruleset of that name and fingerprint, or :class:`~rummylib.RulesetMismatchError`."""
    if fingerprint is not None and not FINGERPRINT.fullmatch(fingerprint):
        fail(StateReason.BAD_VALUE, path, f"{short(fingerprint)} is not a fingerprint (16 hex digits)")
    names = {fp: r for (n, fp), r in known.items() if n == name}
    if fingerprint is not None and fingerprint in names:
        return names[fingerprint]
    expected = next(iter(names), None)
    if expected is None:
        detail = f"no ruleset named {short(name)} is known here; send the full ruleset or pass it in rulesets="
        raise RulesetMismatchError(
            StateReason.UNKNOWN_RULESET, path, detail, name=name, fingerprint=fingerprint, expected=None
        )
    detail = f"the {name} ruleset here has fingerprint {expected}, the document states {fingerprint}"
    raise RulesetMismatchError(
        StateReason.RULESET_MISMATCH, path, detail, name=name, fingerprint=fingerprint, expected=expected
    )


def check_fingerprint(rules: Ruleset, fingerprint: str, path: str) -> None:
    """Refuse a stated fingerprint that is not ``rules``'s own."""
    if not FINGERPRINT.fullmatch(fingerprint):
        fail(StateReason.BAD_VALUE, path, f"{short(fingerprint)} is not a fingerprint (16 hex digits)")
    own = ruleset_fingerprint(rules)
    if own != fingerprint:
        detail = f"the ruleset given has fingerprint {own}, the document states {fingerprint}"
        raise RulesetMismatchError(
            StateReason.RULESET_MISMATCH, path, detail, name=rules.name, fingerprint=fingerprint, expected=own
        )


def ruleset_or_ref_to_json(rules: Ruleset, *, full: bool) -> dict[str, Any]:
    """A reference for a preset (unless ``full``), else every field."""
    return ruleset_ref(rules) if is_preset(rules) and not full else ruleset_to_json(rules)


def ruleset_or_ref_from_json(data: object, path: str, known: dict[tuple[str, str], Ruleset]) -> Ruleset:
    """Read either form: a ``{name, fingerprint}`` reference (resolved in ``known``) or a full ruleset."""
    if isinstance(data, dict) and set(data) == {"name", "fingerprint"}:
        obj = Obj(data, path, "a ruleset reference")
        name, fingerprint = obj.text("name"), obj.text("fingerprint")
        obj.done()
        return resolve(name, fingerprint, path, known)
    return ruleset_from_json(data, path)


# --- views ----------------------------------------------------------------------------------


def lean_view_to_json(v: PlayerView, *, full_rules: bool = False) -> dict[str, Any]:
    """A view body whose ``rules`` is a reference when the ruleset is a preset (unless ``full_rules``)."""
    body = view_to_json(v)
    body["rules"] = ruleset_or_ref_to_json(v.rules, full=full_rules)
    return body


def lean_view_from_json(data: object, path: str, known: dict[tuple[str, str], Ruleset]) -> PlayerView:
    """Read a view body with either form of ``rules``."""
    if isinstance(data, dict) and "rules" in data:
        rules = ruleset_or_ref_from_json(data["rules"], join(path, "rules"), known)
        data = {**data, "rules": ruleset_to_json(rules)}
    return view_from_json(data, path)
