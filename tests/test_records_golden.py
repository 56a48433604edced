"""Golden games: recorded games replayed to their known final totals (like perft in chess).

The corpus in ``tests/golden/`` was made by ``tests/golden/generate.py`` with
seeded random play. Each game is replayed through the engine; the totals,
rounds and winners must come out exactly as stored. What each game exercises
is found by replaying it here, never read from the manifest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rummylib as rl
from rummylib.engine import GameState, PlayerView
from rummylib.records import GameRecord, from_dict, from_json, load_record, parse_record, replay, to_dict

GOLDEN = Path(__file__).resolve().parent / "golden"
MANIFEST: list[dict[str, Any]] = json.loads((GOLDEN / "golden.json").read_text(encoding="utf-8"))
_REPLAYS: dict[str, tuple[GameRecord, tuple[GameState, ...]]] = {}


def _replayed(file: str) -> tuple[GameRecord, tuple[GameState, ...]]:
    if file not in _REPLAYS:
        record = load_record(GOLDEN / "games" / file)
        _REPLAYS[file] = (record, replay(record))
    return _REPLAYS[file]


def _features(record: GameRecord, states: tuple[GameState, ...]) -> set[str]:
    found: set[str] = set()
    for before, action, after in zip(states, record.actions, states[1:]):
        if isinstance(action, rl.SwapJoker):
            found.add("joker_swap")  # R-J4
        if isinstance(action, rl.TakeDiscard):
            found.add("take_discard")  # R-D2, T4
        if after.round.restocks > before.round.restocks and before.round_number == after.round_number:
            found.add("reshuffle" if record.rules.restock_rule is rl.RestockRule.RESHUFFLE_KEEP_TOP else "turn_over")
    for result in states[-1].results:
        found.add("void_round" if result.winner is None else "went_out")  # R-D7
        if result.rummy:
            found.add("one_turn_go_out")  # R-E2, E4
    return found


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_golden_game_replays_to_its_totals(entry: dict[str, Any]) -> None:  # R-S1..S4
    record, states = _replayed(entry["file"])
    final = states[-1]
    assert final.is_over
    assert len(record.actions) == entry["actions"]
    assert list(final.totals) == entry["totals"]
    assert len(final.results) == entry["rounds"]
    assert list(final.standings.winners) == entry["winners"]
    assert sorted(_features(record, states)) == entry["features"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_golden_states_round_trip(entry: dict[str, Any]) -> None:  # R-C3, R-H1
    _, states = _replayed(entry["file"])
    for state in states[:: max(1, len(states) // 40)] + (states[-1],):
        assert from_dict(to_dict(state), GameState) == state
        seat = state.round_number % state.num_players
        shown = rl.view(state, seat)
        assert from_dict(to_dict(shown), PlayerView) == shown


def test_corpus_covers_every_feature() -> None:
    found: set[str] = set()
    rulesets = set()
    for entry in MANIFEST:
        record, states = _replayed(entry["file"])
        found |= _features(record, states)
        rulesets.add(record.rules)
    wanted = {"joker_swap", "take_discard", "reshuffle", "turn_over", "void_round", "went_out", "one_turn_go_out"}
    assert wanted <= found, wanted - found
    assert {r.restock_rule for r in rulesets} == set(rl.RestockRule)  # both rulesets
    assert len(rulesets) >= 6  # several variants
    assert {e["file"].rsplit(".", 1)[1] for e in MANIFEST} == {"txt", "json"}


def test_text_and_json_forms_agree() -> None:
    for entry in MANIFEST[:4]:
        record, _ = _replayed(entry["file"])
        assert parse_record(rl.records.format_record(record)) == record
        assert from_json(rl.records.to_json(record), GameRecord) == record


# --- stored documents of schema 1 must keep loading ---------------------------------------


def _stored(name: str) -> object:
    return from_json((GOLDEN / "documents" / f"{name}.json").read_text(encoding="utf-8"))


def test_stored_documents_keep_loading() -> None:
    record, states = _replayed("remik-2p-seed0.txt")
    state = states[164]
    assert _stored("ruleset-remik") == rl.REMIK
    assert _stored("ruleset-straight") == rl.STRAIGHT
    opening = next(a for a in record.actions if isinstance(a, rl.Open))
    assert _stored("action-open") == opening
    assert _stored("meld") == opening.melds[0]
    assert _stored("action-lay-off") == rl.LayOff(2, rl.JOKER, rl.End.HIGH)
    assert _stored("cards") == state.round.hands[0]
    assert _stored("state") == state
    assert _stored("view") == rl.view(state, 1)
    stored = _stored("record")
    assert isinstance(stored, GameRecord)
    assert stored.actions == record.actions[:164]
    assert replay(stored)[-1] == state


def test_record_text_tolerates_bom_crlf_and_comments() -> None:
    record, _ = _replayed("straight-2p-seed0.txt")
    lines = rl.records.format_record(record).splitlines()
    text = "\ufeff" + "\r\n".join([lines[0], "", "# a comment", *lines[1:]]) + "\r\n"
    assert parse_record(text) == record


def test_a_tampered_record_fails_at_its_first_illegal_action() -> None:
    record, _ = _replayed("remik-2p-seed0.txt")
    index = next(i for i, a in enumerate(record.actions) if isinstance(a, rl.Open))
    forged = GameRecord(
        record.rules, record.players, record.seed, record.dealer, record.actions[:index] + (rl.TakeDiscard(),)
    )
    with pytest.raises(rl.IllegalActionError) as info:
        replay(forged)
    assert info.value.index == index
    assert info.value.reason is rl.IllegalActionReason.WRONG_PHASE
