"""Lean views: a view names a preset ruleset by name and fingerprint; readers resolve it."""

from __future__ import annotations

import hashlib
import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.records import from_dict, from_json, ruleset_fingerprint, to_dict, to_json
from rummylib.testing import game_states

HOUSE = attrs.evolve(rl.REMIK, jokers=6, joker_penalty=50)


def test_fingerprint_is_blake2b_of_the_canonical_ruleset_json() -> None:
    body = {k: v for k, v in to_dict(rl.REMIK).items() if k not in ("schema", "kind")}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert ruleset_fingerprint(rl.REMIK) == hashlib.blake2b(canonical, digest_size=8).hexdigest()
    assert len({ruleset_fingerprint(r) for r in (rl.REMIK, rl.STRAIGHT, HOUSE)}) == 3
    assert ruleset_fingerprint(attrs.evolve(rl.STRAIGHT)) == ruleset_fingerprint(rl.STRAIGHT)


def test_fingerprint_refuses_non_rulesets() -> None:
    with pytest.raises(rl.InvalidStateError):
        ruleset_fingerprint("remik")  # type: ignore[arg-type]


def test_a_preset_view_refers_to_its_ruleset() -> None:
    v = rl.view(rl.new_game(rl.REMIK, ["Ann", "Bob", "Cy"], seed=42), 1)
    doc = to_dict(v)
    assert doc["rules"] == {"name": "remik", "fingerprint": ruleset_fingerprint(rl.REMIK)}
    assert to_dict(v, full_rules=True)["rules"] == {
        k: x for k, x in to_dict(rl.REMIK).items() if k not in ("schema", "kind")
    }
    assert len(to_json(v)) < len(to_json(v, full_rules=True)) - 600
    assert from_dict(doc, rl.PlayerView) == v == from_json(to_json(v, full_rules=True), rl.PlayerView)


@settings(max_examples=15, deadline=None)
@given(game_states(max_actions=50), st.data())
def test_views_round_trip_in_both_forms(state: rl.GameState, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.num_players - 1))
    v = rl.view(state, seat)
    for full in (False, True):
        assert from_json(to_json(v, full_rules=full), rl.PlayerView) == v


def test_a_house_variant_is_written_in_full() -> None:
    v = rl.view(rl.new_game(HOUSE, 3, seed=1), 0)
    doc = to_dict(v)
    assert doc["rules"]["jokers"] == 6
    assert from_dict(doc, rl.PlayerView) == v


def _forged(rules: dict[str, str]) -> dict[str, object]:
    doc = to_dict(rl.view(rl.new_game(rl.REMIK, 2, seed=3), 0))
    return {**doc, "rules": rules}


def test_a_wrong_fingerprint_is_refused() -> None:
    fake = "0123456789abcdef"
    with pytest.raises(rl.RulesetMismatchError) as caught:
        from_dict(_forged({"name": "remik", "fingerprint": fake}), rl.PlayerView)
    err = caught.value
    assert err.reason is rl.StateReason.RULESET_MISMATCH and err.path == "rules"
    assert (err.name, err.fingerprint, err.expected) == ("remik", fake, ruleset_fingerprint(rl.REMIK))
    assert isinstance(err, ValueError)


def test_an_unknown_ruleset_is_refused_unless_given() -> None:
    house_ref = {"name": "house", "fingerprint": ruleset_fingerprint(attrs.evolve(HOUSE, name="house"))}
    with pytest.raises(rl.RulesetMismatchError) as caught:
        from_dict(_forged(house_ref), rl.PlayerView)
    assert caught.value.reason is rl.StateReason.UNKNOWN_RULESET and caught.value.expected is None
    # A server and its clients that share the house ruleset pass it in: the reference then resolves
    # (the view then fails later checks only if its cards do not fit that ruleset's deck).
    house = attrs.evolve(rl.REMIK, name="house")
    ref = {"name": "house", "fingerprint": ruleset_fingerprint(house)}
    got = from_dict(_forged(ref), rl.PlayerView, rulesets=[house])
    assert got.rules == house


@pytest.mark.parametrize("fingerprint", ["", "XYZ", "0123456789ABCDEF", "0" * 17])
def test_a_malformed_fingerprint_is_refused(fingerprint: str) -> None:
    with pytest.raises(rl.InvalidStateError) as caught:
        from_dict(_forged({"name": "remik", "fingerprint": fingerprint}), rl.PlayerView)
    assert caught.value.reason is rl.StateReason.BAD_VALUE


def test_known_rulesets_must_be_rulesets() -> None:
    with pytest.raises(rl.InvalidStateError):
        from_dict(to_dict(rl.view(rl.new_game(rl.REMIK, 2, seed=3), 0)), rulesets=["remik"])  # type: ignore[list-item]
