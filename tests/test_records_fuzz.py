"""Fuzzing the untrusted-input boundary: only typed errors come out, valid inputs round-trip.

Arbitrary text and JSON, and valid documents with one field mutated, go
through ``parse_card``, ``parse_action``, ``from_json``/``from_dict`` and
record loading. Anything accepted must be a value that writes back to the
same document and that the engine can work with.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
from functools import lru_cache
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine import GameState
from rummylib.records import (
    GameRecord,
    format_action,
    format_record,
    from_dict,
    from_json,
    parse_action,
    parse_record,
    replay,
    to_dict,
)

#: Set RUMMYLIB_FUZZ_EXAMPLES to fuzz longer (the suite keeps it short).
FUZZ = settings(
    max_examples=int(os.environ.get("RUMMYLIB_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["7H", "JK", "JK=7H", "10S", "draw", "run", "group", "play", "draw_stock", "int", "str"]),
)


def _containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    # A named function: Hypothesis inspects the source of a lambda to check it recurses.
    return st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)


JSON = st.recursive(JSON_LEAVES, _containers, max_leaves=30)
CARD_TEXTS = sorted(str(c) for c in rl.deck(rl.REMIK).distinct())
KINDS = ["ruleset", "meld", "action", "cards", "state", "view", "record"]
TOKENS = st.sampled_from(
    ["draw", "take", "next", "open", "meld", "layoff", "swap", "discard", "|", "#1", "#0", "low", "high",
     "7H", "8H", "9H", "JK", "JK=10H", "JK=6H", "8S", "8D", "AH", "KH", "QH", "=", "#", "10", "th", "♥7"]
)  # fmt: skip


@lru_cache(maxsize=1)
def _sample() -> tuple[GameState, GameRecord]:
    rng = random.Random(11)
    rules = attrs.evolve(rl.REMIK, restock_limit=1)
    state = rl.new_game(rules, 3, seed=11)
    actions: list[rl.actions.Action] = []
    while len(actions) < 260 and not state.is_over:
        options = list(itertools.islice(rl.legal_actions(state), 200))
        plays = [a for a in options if not isinstance(a, rl.Discard)]
        action = rng.choice(plays if plays and rng.random() < 0.8 else options)
        state = rl.apply(state, action)
        actions.append(action)
    return state, GameRecord(rules, ("P0", "P1", "P2"), 11, 0, actions)


def _documents() -> list[dict[str, Any]]:
    state, record = _sample()
    run = rl.make_meld(rl.parse_cards("JK 5H JK 7H"), rl.REMIK)
    return [
        to_dict(state),
        to_dict(rl.view(state, 0)),
        to_dict(rl.view(state, state.to_act)),
        to_dict(attrs.evolve(record, actions=record.actions[:40])),
        to_dict(rl.STRAIGHT),
        to_dict(rl.Open((run,))),
        to_dict(rl.LayOff(0, rl.JOKER, rl.End.LOW)),
    ]


def _paths(doc: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix] if prefix else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += _paths(value, (*prefix, i))
    return found


def _check_accepted(value: object) -> None:
    """A document that loaded is a real value: it writes back and the engine can use it."""
    again = to_dict(value)  # type: ignore[arg-type]
    assert from_dict(again) == value
    if isinstance(value, GameState):
        assert value.round.cards() == rl.deck(value.rules)  # R-C3
        for seat in range(value.num_players):
            rl.view(value, seat)
        for action in itertools.islice(rl.legal_actions(value), 30):
            rl.apply(value, action)


def _load(doc: object) -> None:
    try:
        value = from_dict(doc)
    except rl.InvalidStateError:
        return
    _check_accepted(value)


@FUZZ
@given(st.text(max_size=12))
def test_parse_card_fuzz(text: str) -> None:
    try:
        card = rl.parse_card(text)
    except rl.CardParseError:
        return
    assert rl.parse_card(str(card)) == card


@FUZZ
@given(st.one_of(st.text(max_size=60), st.lists(TOKENS, max_size=8).map(" ".join)))
def test_parse_action_fuzz(text: str) -> None:
    for rules in (None, rl.REMIK, rl.STRAIGHT):
        try:
            action = parse_action(text, rules)
        except rl.InvalidStateError:
            continue
        assert parse_action(format_action(action)) == action
        assert from_dict(to_dict(action)) == action


@FUZZ
@given(st.one_of(st.text(max_size=80), st.binary(max_size=80), JSON.map(json.dumps)))
def test_from_json_fuzz(text: str | bytes) -> None:
    try:
        value = from_json(text)
    except rl.InvalidStateError:
        return
    _check_accepted(value)


@FUZZ
@given(JSON, st.sampled_from(KINDS))
def test_from_dict_fuzz(body: object, kind: str) -> None:
    _load(body)
    if isinstance(body, dict):
        _load({**body, "schema": 1, "kind": kind})


@FUZZ
@given(st.data())
def test_one_field_mutated(data: st.DataObject) -> None:
    doc = copy.deepcopy(data.draw(st.sampled_from(_documents())))
    path = data.draw(st.sampled_from(_paths(doc)))
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    choice = data.draw(st.integers(0, 6))
    if choice == 0 and isinstance(target, dict):
        del target[path[-1]]
    elif choice <= 2 and isinstance(old, int) and not isinstance(old, bool):
        target[path[-1]] = old + data.draw(st.sampled_from([-1, 1, 2, -100, 10**6]))
    elif choice <= 2 and isinstance(old, bool):
        target[path[-1]] = not old
    elif choice <= 3 and isinstance(old, str) and old in CARD_TEXTS:
        target[path[-1]] = data.draw(st.sampled_from(CARD_TEXTS))
    elif choice == 4 and isinstance(old, list) and old:
        del old[data.draw(st.integers(0, len(old) - 1))]
    elif choice == 5 and isinstance(old, list) and old:
        old.insert(data.draw(st.integers(0, len(old))), copy.deepcopy(data.draw(st.sampled_from(old))))
    else:
        target[path[-1]] = data.draw(JSON)
    _load(doc)


@FUZZ
@given(st.data())
def test_record_text_fuzz(data: st.DataObject) -> None:
    _, record = _sample()
    lines = format_record(attrs.evolve(record, actions=record.actions[:30])).splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = data.draw(st.one_of(st.text(max_size=40), st.lists(TOKENS, max_size=6).map(" ".join)))
    try:
        loaded = parse_record("\n".join(lines))
    except rl.InvalidStateError:
        return
    assert parse_record(format_record(loaded)) == loaded
    try:
        replay(loaded)
    except rl.IllegalActionError as exc:
        assert exc.index is not None
        assert 0 <= exc.index < len(loaded.actions)


def test_replay_names_the_first_illegal_action() -> None:
    _, record = _sample()
    actions = list(record.actions[:50])
    bad = next(i for i, a in enumerate(actions) if isinstance(a, rl.Discard) and i > 10)
    actions.insert(bad, rl.NextRound())
    try:
        replay(attrs.evolve(record, actions=actions))
    except rl.IllegalActionError as exc:
        assert exc.index == bad
        assert str(exc).startswith(f"action {bad} (next): ")
    else:  # pragma: no cover
        raise AssertionError("replay accepted an illegal action")
