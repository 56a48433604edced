"""Rulesets: presets, validation, lookup (RULES.md: every knob is a field)."""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

from rummylib import (
    REMIK,
    RULESETS,
    STRAIGHT,
    DiscardRule,
    RestockRule,
    Ruleset,
    RulesetError,
    RulesetReason,
    Scoring,
    TieRule,
    get_ruleset,
)

FIELDS = [f.name for f in attrs.fields(Ruleset)]


def test_presets_follow_the_rules() -> None:
    # Remik (R-C1, M3, J2, J3, O2, D2, D4, P2, V, S2).
    assert (REMIK.decks, REMIK.jokers, REMIK.ace_high) == (2, 4, True)
    assert (REMIK.group3_max_jokers, REMIK.group4_max_jokers, REMIK.adjacent_jokers) == (1, 2, False)
    assert (REMIK.opening_required, REMIK.opening_points, REMIK.opening_clean_run) == (True, 51, True)
    assert REMIK.discard_rule is DiscardRule.NEW_MELD and REMIK.restock_rule is RestockRule.RESHUFFLE_KEEP_TOP
    assert REMIK.hand_size(2) == REMIK.hand_size(6) == 13 and REMIK.dealer_extra_card and not REMIK.upcard
    assert (REMIK.ace_penalty, REMIK.joker_penalty, REMIK.score_limit) == (11, 30, 500)
    assert REMIK.scoring is Scoring.PENALTY and REMIK.tie_rule is TieRule.SHARE
    assert not REMIK.opens_at_start
    # Straight (R-C1, M4, T5, T7, D5, D6, P3, V, S3, S4).
    assert (STRAIGHT.decks, STRAIGHT.jokers, STRAIGHT.ace_high) == (1, 0, False)
    assert STRAIGHT.melds_per_turn == 1 and STRAIGHT.discard_rule is DiscardRule.FREE
    assert STRAIGHT.restock_rule is RestockRule.TURN_OVER and STRAIGHT.upcard
    assert [STRAIGHT.hand_size(n) for n in range(2, 7)] == [10, 7, 7, 6, 6]
    assert (STRAIGHT.ace_penalty, STRAIGHT.score_limit) == (1, 100)
    assert STRAIGHT.scoring is Scoring.WINNER_COLLECTS and STRAIGHT.opens_at_start
    assert not STRAIGHT.must_discard_to_go_out  # R-E3


def test_get_ruleset_and_registry() -> None:
    assert get_ruleset("remik") is REMIK and get_ruleset(" Straight ") is STRAIGHT
    assert dict(RULESETS) == {"remik": REMIK, "straight": STRAIGHT}
    with pytest.raises(TypeError):
        RULESETS["x"] = REMIK  # type: ignore[index]
    with pytest.raises(RulesetError) as info:
        get_ruleset("gin")
    assert info.value.reason is RulesetReason.UNKNOWN_NAME and info.value.field == "name"
    assert "'gin'" in str(info.value) and "remik, straight" in str(info.value)
    with pytest.raises(RulesetError) as info:
        get_ruleset(None)  # type: ignore[arg-type]
    assert info.value.reason is RulesetReason.WRONG_TYPE


def test_house_variant_by_evolve() -> None:
    house = attrs.evolve(REMIK, jokers=6, joker_penalty=50)
    assert (house.jokers, house.joker_penalty, house.opening_points) == (6, 50, 51)
    assert house != REMIK and hash(house) == hash(attrs.evolve(REMIK, jokers=6, joker_penalty=50))
    assert pickle.loads(pickle.dumps(house)) == house
    assert attrs.evolve(REMIK, score_limit=300).score_limit == 300
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        REMIK.jokers = 6  # type: ignore[misc]


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_refuses_a_wrong_type(field: str) -> None:
    changes: dict[str, Any] = {field: object()}
    with pytest.raises(RulesetError) as info:
        attrs.evolve(REMIK, **changes)
    assert info.value.field == field
    assert info.value.reason is RulesetReason.WRONG_TYPE
    assert repr(field) in str(info.value)
    assert isinstance(info.value, ValueError)


_INT_FIELDS = [f.name for f in attrs.fields(Ruleset) if str(f.type) in ("int", "int | None")]


@pytest.mark.parametrize("field", _INT_FIELDS)
def test_int_fields_refuse_bools_floats_and_negatives(field: str) -> None:
    assert len(_INT_FIELDS) >= 14
    for bad in (True, 1.0, "3", -1):
        changes: dict[str, Any] = {field: bad}
        with pytest.raises(RulesetError) as info:
            attrs.evolve(REMIK, **changes)
        assert info.value.field == field, bad


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "  "}, "name"),
        ({"decks": 0}, "decks"),
        ({"decks": 5}, "decks"),
        ({"jokers": 17}, "jokers"),
        ({"min_players": 1}, "min_players"),
        ({"max_players": 1}, "max_players"),
        ({"min_players": 4, "max_players": 3}, "max_players"),
        ({"group3_max_jokers": 3}, "group3_max_jokers"),
        ({"group4_max_jokers": 3}, "group4_max_jokers"),
        ({"hand_sizes": {2: 13}}, "hand_sizes"),  # a count missing
        ({"hand_sizes": dict.fromkeys(range(2, 7), 0)}, "hand_sizes"),
        ({"hand_sizes": dict.fromkeys(range(2, 7), 20)}, "hand_sizes"),  # no stock left
        ({"hand_sizes": ((2, 13), (2, 12), (3, 13), (4, 13), (5, 13), (6, 13))}, "hand_sizes"),
        ({"hand_sizes": {2: 13.5}}, "hand_sizes"),
        ({"hand_sizes": {"2": 13}}, "hand_sizes"),
        ({"hand_sizes": 13}, "hand_sizes"),
        ({"hand_sizes": "13"}, "hand_sizes"),
        ({"hand_sizes": [(2, 13, 1)]}, "hand_sizes"),
        ({"opening_points": 0, "opening_clean_run": False}, "opening_required"),
        ({"opening_required": False}, "opening_points"),
        ({"opening_required": False, "opening_points": 0}, "opening_clean_run"),
        ({"score_limit": None}, "score_limit"),
        ({"score_limit": 0}, "score_limit"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"melds_per_turn": 0}, "melds_per_turn"),
        ({"rummy_multiplier": 0}, "rummy_multiplier"),
        ({"restock_limit": -1}, "restock_limit"),
        ({"discard_rule": "free"}, "discard_rule"),
    ],
)
def test_impossible_rulesets_name_the_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesetError) as info:
        attrs.evolve(REMIK, **changes)
    assert info.value.field == field, info.value
    assert repr(field) in str(info.value)


def test_possible_variants() -> None:
    assert attrs.evolve(REMIK, score_limit=None, max_rounds=10).max_rounds == 10  # R-S4 variant
    assert attrs.evolve(STRAIGHT, melds_per_turn=None).melds_per_turn is None  # R-T5 variant
    assert attrs.evolve(STRAIGHT, must_discard_to_go_out=True).must_discard_to_go_out  # R-E3 variant
    assert attrs.evolve(REMIK, tie_rule=TieRule.PLAY_ON).tie_rule is TieRule.PLAY_ON  # R-S2 variant
    assert attrs.evolve(REMIK, restock_limit=0).restock_limit == 0  # R-D7
    sized = attrs.evolve(REMIK, hand_sizes=[(n, 13) for n in range(2, 7)])
    assert sized == REMIK  # pairs and mappings are the same hand sizes


def test_hand_size_for_an_unsupported_table() -> None:
    for players in (1, 7, "2", True):
        with pytest.raises(RulesetError) as info:
            REMIK.hand_size(players)  # type: ignore[arg-type]
        assert info.value.field == "players"
