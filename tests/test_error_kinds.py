"""Each error kind is its own class with typed fields (python-chess's split)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rummylib as rl
from rummylib.bots import SimulationError as BotsSimulationError
from rummylib.errors import (
    ActionParseError,
    ArgumentError,
    ArgumentReason,
    IllegalActionReason,
    InvalidStateError,
    SimulationError,
    SimulationReason,
    StateReason,
)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", StateReason.BAD_SYNTAX),
        ("fly", StateReason.BAD_SYNTAX),
        ("discard 7X", StateReason.BAD_CARD),
        ("meld 7H JK", StateReason.BAD_MELD),
        ("meld 7H 8H=9H 9H", StateReason.BAD_SYNTAX),
        ("x" * 100_000, StateReason.TOO_LARGE),
    ],
)
def test_action_text_syntax_is_an_action_parse_error(text: str, reason: StateReason) -> None:
    with pytest.raises(ActionParseError) as info:
        rl.parse_action(text)
    assert info.value.reason is reason
    assert isinstance(info.value, InvalidStateError)  # still caught as before


def test_a_meld_of_bad_layout_in_action_text_is_a_parse_error() -> None:
    with pytest.raises(ActionParseError) as info:
        rl.parse_action("meld 7H 8H")  # a meld has at least 3 slots (R-M1)
    assert info.value.reason is StateReason.BAD_MELD


def test_a_document_error_is_not_a_parse_error() -> None:
    with pytest.raises(InvalidStateError) as info:
        rl.from_json('{"schema": 1}')
    assert not isinstance(info.value, ActionParseError)


def test_bad_arguments_to_pure_functions_are_argument_errors() -> None:
    state = rl.new_game(rl.REMIK, 2, seed=1)
    cases: list[tuple[Callable[[], object], str, ArgumentReason]] = [
        (lambda: rl.view(state, 2), "seat", ArgumentReason.BAD_VALUE),
        (lambda: rl.score_round([(), ()], 5, rl.REMIK), "winner", ArgumentReason.BAD_VALUE),  # R-S1
        (lambda: rl.is_game_over([1, 2], -1, rl.REMIK), "rounds_played", ArgumentReason.BAD_VALUE),
        (lambda: rl.plan_go_out([], [], rl.REMIK, opened=1), "opened", ArgumentReason.WRONG_TYPE),  # type: ignore[arg-type]
        (lambda: rl.new_game(rl.REMIK, ["a", 3]), "players", ArgumentReason.WRONG_TYPE),  # type: ignore[list-item]
        (lambda: rl.new_game(rl.REMIK, 2, dealer=7), "dealer", ArgumentReason.BAD_VALUE),
    ]
    for call, argument, reason in cases:
        with pytest.raises(ArgumentError) as info:
            call()
        assert (info.value.argument, info.value.reason) == (argument, reason)
        assert isinstance(info.value, ValueError)


def test_a_player_count_the_ruleset_forbids_stays_a_ruleset_error() -> None:
    with pytest.raises(rl.RulesetError):
        rl.new_game(rl.REMIK, 9)  # R-P2


def test_illegal_action_fields_are_typed() -> None:
    state = rl.new_game(rl.REMIK, 2, seed=1)
    with pytest.raises(rl.IllegalActionError) as info:
        rl.apply(state, rl.DrawStock())  # the dealer's seat starts in the play phase (R-T1)
    error = info.value
    assert isinstance(error.reason, IllegalActionReason)
    assert (error.have, error.need, error.index, error.card, error.meld_reason) == (None,) * 5
    assert error.fields == {}


def test_simulation_error_lives_in_errors() -> None:
    assert rl.SimulationError is SimulationError is BotsSimulationError
    with pytest.raises(SimulationError) as info:
        rl.simulate(rl.REMIK, 2, -1, seed=1)
    assert info.value.reason is SimulationReason.BAD_ARGUMENT
