"""JSON documents of game states and player views: round trips, R-H1, forged documents refused."""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine import GameState, PlayerView
from rummylib.records import from_dict, from_json, to_dict, to_json
from rummylib.testing import rulesets

VARIANTS = [
    attrs.evolve(rl.REMIK, restock_limit=2),
    attrs.evolve(rl.STRAIGHT, restock_limit=2),
    attrs.evolve(rl.REMIK, jokers=6, joker_penalty=50, max_rounds=2, restock_limit=1),
    attrs.evolve(rl.STRAIGHT, melds_per_turn=None, must_discard_to_go_out=True, restock_limit=0),
    attrs.evolve(rl.REMIK, upcard=True, restock_limit=1, max_rounds=2),
    attrs.evolve(rl.REMIK, dealer_plays_first=False, discard_taken_card=True, restock_limit=1, max_rounds=2),
    attrs.evolve(rl.STRAIGHT, dealer_extra_card=True, dealer_plays_first=True, restock_limit=1),
]


def _states(rules: rl.Ruleset, players: int, seed: int, steps: int) -> list[GameState]:
    rng = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed)
    out = [state]
    while not state.is_over and len(out) < steps:
        actions = list(rl.legal_actions(state))
        plays = [a for a in actions if not isinstance(a, rl.Discard)]
        state = rl.apply(state, rng.choice(plays if plays and rng.random() < 0.8 else actions))
        out.append(state)
    return out


@pytest.fixture(scope="module")
def mid_game() -> GameState:
    """A remik state in the play phase with melds (and a joker) on the table."""
    for seed in range(50):
        for state in _states(attrs.evolve(rl.REMIK, restock_limit=2), 3, seed, 400):
            r = state.round
            if (
                r.phase is rl.engine.Phase.PLAY
                and len(r.table) >= 2
                and any(tm.meld.joker_count for tm in r.table)
                and all(len(h) >= 6 for h in r.hands)
                and not r.turn.melds_laid  # no opening in progress (R-O4): every meld is an opened seat's
            ):
                return state
    raise AssertionError("no suitable state")  # pragma: no cover


#: Two variants by default (remik, and one with six jokers); the rest in the slow suite (CI).
_DEFAULT_VARIANTS = (0, 2)


@pytest.mark.parametrize(
    "rules",
    [v if i in _DEFAULT_VARIANTS else pytest.param(v, marks=pytest.mark.slow) for i, v in enumerate(VARIANTS)],
    ids=[f"variant{i}" for i in range(len(VARIANTS))],
)
def test_states_and_views_round_trip(rules: rl.Ruleset) -> None:  # R-C3, R-H1
    for seed in range(2):
        for state in _states(rules, 2 + seed, seed, 250):
            doc = to_dict(state)
            assert json.loads(json.dumps(doc)) == doc
            assert from_dict(doc, GameState) == state
            for seat in range(state.num_players):
                shown = rl.view(state, seat)
                assert from_dict(to_dict(shown), PlayerView) == shown


def test_json_text_round_trip(mid_game: GameState) -> None:
    assert from_json(to_json(mid_game), GameState) == mid_game
    assert from_json(to_json(rl.view(mid_game, 2)).encode(), PlayerView) == rl.view(mid_game, 2)


def test_big_seeds_and_text_seeds(mid_game: GameState) -> None:
    for seed in (2**128 - 1, -5, "tournament/7", ""):
        state = attrs.evolve(mid_game, seed=seed)
        assert from_dict(to_dict(state)) == state


def test_a_view_holds_no_hidden_information(mid_game: GameState) -> None:  # R-H1
    shown = to_dict(rl.view(mid_game, 1))
    assert "seed" not in shown and "stock" not in shown and "hands" not in shown
    # Changing only what seat 1 may not know leaves its view's document unchanged.
    r = mid_game.round
    hidden = list(r.hands[0]) + list(r.hands[2]) + list(r.stock)
    random.Random(3).shuffle(hidden)
    size0, size2 = len(r.hands[0]), len(r.hands[2])
    hands = (
        rl.CardMultiset(hidden[:size0]),
        r.hands[1],
        rl.CardMultiset(hidden[size0 : size0 + size2]),
    )
    other = attrs.evolve(
        mid_game, seed="another", round=attrs.evolve(r, hands=hands, stock=tuple(hidden[size0 + size2 :]))
    )
    assert to_dict(rl.view(other, 1)) == shown
    assert to_dict(other) != to_dict(mid_game)


# --- forged and corrupt states ------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: object) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        target: Any = doc
        keys = path.replace("]", "").replace("[", ".").split(".")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return mutate


def _swap_first_hand_card_with(card: str) -> Mutation:
    return _set("round.hands[2][5]", card)


def _dup(doc: dict[str, Any]) -> None:
    doc["round"]["stock"].append(doc["round"]["stock"][0])


def _drop(doc: dict[str, Any]) -> None:
    doc["round"]["stock"].pop()


def _move_to_hand(doc: dict[str, Any]) -> None:
    doc["round"]["hands"][1].append(doc["round"]["stock"].pop())


def _delete(path: str) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        head, _, last = path.rpartition(".")
        target: Any = doc
        for key in head.split(".") if head else []:
            target = target[key]
        del target[last]

    return mutate


CASES: list[tuple[str, Mutation, rl.StateReason, str]] = [
    ("bad card", _set("round.hands[2][5]", "ZZ"), rl.StateReason.BAD_CARD, "round.hands[2][5]"),
    ("non-canonical card", _set("round.hands[2][5]", "th"), rl.StateReason.BAD_CARD, "round.hands[2][5]"),
    ("card type", _set("round.hands[2][5]", 7), rl.StateReason.WRONG_TYPE, "round.hands[2][5]"),
    ("duplicated card", _dup, rl.StateReason.CARDS_NOT_CONSERVED, "round.stock["),
    ("dropped card", _drop, rl.StateReason.CARDS_NOT_CONSERVED, "round"),
    ("card moved to a hand", _move_to_hand, rl.StateReason.INCONSISTENT, "round.hands[1]"),
    ("to_act out of range", _set("round.to_act", 3), rl.StateReason.BAD_VALUE, "round.to_act"),
    ("dealer negative", _set("dealer", -1), rl.StateReason.BAD_VALUE, "dealer"),
    ("phase unknown", _set("round.phase", "dance"), rl.StateReason.BAD_VALUE, "round.phase"),
    ("phase draw mid-turn", _set("round.phase", "draw"), rl.StateReason.INCONSISTENT, "round.turn"),
    ("game over too early", _set("round.phase", "game_over"), rl.StateReason.INCONSISTENT, "round_number"),
    ("round number", _set("round_number", 4), rl.StateReason.INCONSISTENT, "round_number"),
    ("negative total", _set("totals[0]", -10), rl.StateReason.BAD_VALUE, "totals[0]"),
    ("game over by total", _set("totals[0]", 900), rl.StateReason.INCONSISTENT, "round.phase"),
    ("too few totals", _set("totals", [0, 0]), rl.StateReason.INCONSISTENT, "totals"),
    ("bad ruleset", _set("rules.decks", 0), rl.StateReason.BAD_RULESET, "rules.decks"),
    ("unknown field", _set("round.secret", 1), rl.StateReason.UNKNOWN_FIELD, "round.secret"),
    ("missing field", _delete("round.restocks"), rl.StateReason.MISSING_FIELD, "round.restocks"),
    ("too many players", _set("players", ["a"] * 7), rl.StateReason.INCONSISTENT, "players"),
    ("not opened", _set("round.opened", [False, False, False]), rl.StateReason.INCONSISTENT, "round.table[0].owner"),
    ("owner", _set("round.table[0].owner", 9), rl.StateReason.BAD_VALUE, "round.table[0].owner"),
    ("bad meld", _set("round.table[0].meld.type", "blob"), rl.StateReason.BAD_VALUE, "round.table[0].meld.type"),
    ("seed", _set("seed", 5), rl.StateReason.WRONG_TYPE, "seed"),
    ("seed digits", _set("seed.value", "12a"), rl.StateReason.BAD_VALUE, "seed.value"),
    ("freed joker", _set("round.turn.freed_jokers", 3), rl.StateReason.INCONSISTENT, "round.turn.freed_jokers"),
    ("taken", _set("round.turn.taken", "AS"), rl.StateReason.INCONSISTENT, "round.turn.taken"),
    ("restocks", _set("round.restocks", 3), rl.StateReason.INCONSISTENT, "round.restocks"),
    ("has laid", _set("round.has_laid", "yes"), rl.StateReason.WRONG_TYPE, "round.has_laid"),
    ("schema", _set("schema", 0), rl.StateReason.BAD_SCHEMA, "schema"),
]


@pytest.mark.parametrize(("name", "mutate", "reason", "path"), CASES, ids=[c[0] for c in CASES])
def test_forged_states_are_refused(
    mid_game: GameState, name: str, mutate: Mutation, reason: rl.StateReason, path: str
) -> None:
    doc = to_dict(mid_game)
    mutate(doc)
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert info.value.reason is reason, str(info.value)
    assert info.value.path == path or (path.endswith("[") and info.value.path.startswith(path)), str(info.value)


def test_one_card_too_many_names_its_place(mid_game: GameState) -> None:  # R-C3
    doc = to_dict(mid_game)
    hand = doc["round"]["hands"][2]
    card = hand[0]
    # put a third copy of a card (the deck has two) into seat 2's hand, in place of another card
    copies = sum(h.count(card) for h in doc["round"]["hands"]) + doc["round"]["stock"].count(card)
    copies += doc["round"]["discard"].count(card)
    donor = next(c for c in doc["round"]["stock"] if c != card)
    doc["round"]["stock"].remove(donor)
    doc["round"]["stock"].extend([card] * (3 - copies))
    doc["round"]["hands"][2] = hand
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert info.value.reason is rl.StateReason.CARDS_NOT_CONSERVED
    assert info.value.path.startswith("round.")


def test_forged_views_are_refused(mid_game: GameState) -> None:
    good = to_dict(rl.view(mid_game, 1))
    cases: list[tuple[Mutation, str]] = [
        (_set("hand_sizes[1]", 1), "hand_sizes[1]"),
        (_set("stock_size", 0), ""),
        (_set("turn", None if good["turn"] else to_dict(mid_game)["round"]["turn"]), "turn"),
        (_set("standings.winners", [0]), "standings"),
        (_set("seed", 1), "seed"),
    ]
    for mutate, path in cases:
        doc = copy.deepcopy(good)
        mutate(doc)
        with pytest.raises(rl.InvalidStateError) as info:
            from_dict(doc)
        assert info.value.path == path, str(info.value)


def test_finished_rounds_are_checked() -> None:  # R-S1, S3, D7
    state = next(s for s in _states(attrs.evolve(rl.STRAIGHT, restock_limit=1), 2, 1, 2000) if s.results)
    doc = to_dict(state)
    assert from_dict(doc) == state
    doc["results"][0]["scores"] = [s + 1 for s in doc["results"][0]["scores"]]
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert info.value.path == "results[0].scores"


def test_oversized_arrays_are_refused_before_reading(mid_game: GameState) -> None:
    doc = to_dict(mid_game)
    doc["round"]["stock"] = doc["round"]["stock"] * 4
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert (info.value.reason, info.value.path) == (rl.StateReason.TOO_LARGE, "round.stock")
    doc = to_dict(mid_game)
    doc["round"]["table"] = doc["round"]["table"] * 40
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert (info.value.reason, info.value.path) == (rl.StateReason.TOO_LARGE, "round.table")


@settings(max_examples=int(os.environ.get("RUMMYLIB_FUZZ_EXAMPLES", "25")), deadline=None)
@given(rulesets(), st.integers(0, 2**32), st.integers(0, 4))
def test_any_variant_round_trips(rules: rl.Ruleset, seed: int, extra_players: int) -> None:  # R-C3
    rules = attrs.evolve(rules, restock_limit=1)
    players = min(rules.min_players + extra_players, rules.max_players)
    rng = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed, dealer=seed % players)
    for _ in range(80):
        assert from_dict(to_dict(state)) == state
        shown = rl.view(state, rng.randrange(players))
        assert from_dict(to_dict(shown)) == shown
        if state.is_over:
            break
        options = list(itertools.islice(rl.legal_actions(state), 100))
        plays = [a for a in options if not isinstance(a, rl.Discard)]
        state = rl.apply(state, rng.choice(plays if plays and rng.random() < 0.7 else options))
