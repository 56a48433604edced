"""rummylib.rl.openspiel: python_remik and python_straight_rummy pass OpenSpiel's own checks."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the OpenSpiel tests need the extra: pip install 'rummylib[openspiel]'")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rummylib as rl
import rummylib.rl.openspiel as rs


@pytest.mark.parametrize("name", ["python_straight_rummy", "python_remik"])
def test_random_sim_test_with_serialisation(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2, "max_turns": 8})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("python_straight_rummy", 3), ("python_remik", 4)])
def test_random_sim_test_whole_rounds(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "max_turns": 200})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def _chance(state: pyspiel.State, rng: np.random.RandomState) -> None:
    actions, probs = zip(*state.chance_outcomes())
    assert abs(sum(probs) - 1.0) < 1e-9
    state.apply_action(int(rng.choice(actions, p=probs)))


def test_ismcts_plays_a_game_to_the_end() -> None:
    game = pyspiel.load_game("python_straight_rummy", {"players": 2, "max_turns": 6})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(int(bot.step(state)))
            moves += 1
    assert moves > 0 and sum(state.returns()) == pytest.approx(0.0)


def _play_until_decision(game: pyspiel.Game, seed: int, decisions: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
            continue
        if made == decisions:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        made += 1
    return state


def test_the_deal_and_stock_draws_are_chance_nodes() -> None:
    game = pyspiel.load_game("python_remik", {"players": 3})
    state = game.new_initial_state()
    deals = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) <= 53
        _chance(state, np.random.RandomState(deals))
        deals += 1
    assert deals == 3 * 13 + 1  # R-P2: 13 each and the dealer's 14th, no upcard (R-D3)
    state.apply_action(state.legal_actions()[-1])  # the dealer plays first and discards (R-T1)
    assert state.current_player() == 1
    state.apply_action(0)  # DrawStock: the card drawn is chance
    assert state.is_chance_node()


def test_resample_keeps_the_seats_information() -> None:
    game = pyspiel.load_game("python_straight_rummy", {"players": 3})
    state = _play_until_decision(game, 3, 7)
    seat = state.current_player()
    hidden = set()
    for _ in range(5):
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.engine.round.cards() == rl.deck(game.rules)  # R-C3
        hidden.add(sample.engine.round.hands[(seat + 1) % 3])
    assert len(hidden) > 1  # the other hands are dealt again


def test_resample_is_consistent_with_what_the_seat_knows() -> None:
    # R-H1: a resample keeps the seat's view, the taken discards another seat
    # still holds (known_cards) and a turned-over stock's order (R-D6).
    game = pyspiel.load_game("python_straight_rummy", {"players": 2, "max_turns": 60})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    codec = rl.encoding.ActionCodec(game.rules, 2)
    with_known = 0
    for seed in range(6):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
                continue
            seat = state.current_player()
            v = state.seat_view(seat)
            sample = state.resample_from_infostate(seat, sampler)
            assert rl.view(sample.engine, seat) == v
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.legal_actions() == state.legal_actions()
            for other, known in enumerate(v.known_cards):
                assert known <= sample.engine.round.hands[other]
                with_known += other != seat and len(known) > 0
            actions = state.legal_actions()
            take = [a for a in actions if isinstance(codec.decode(a), rl.TakeDiscard)]
            state.apply_action(int(take[0] if take and rng.rand() < 0.5 else rng.choice(actions)))
    assert with_known > 0  # the test met known cards of another seat


def test_tensors_and_strings_never_show_other_hands() -> None:
    # R-H1: another seat's cards never reach a seat's observation.
    game = pyspiel.load_game("python_straight_rummy", {"players": 2})
    state = _play_until_decision(game, 5, 3)
    engine = state.engine
    assert engine is not None
    other = 1 - state.current_player()
    text = state.observation_string(state.current_player())
    assert str(engine.round.hands[other]) not in text
    tensor = np.asarray(state.observation_tensor(state.current_player()))
    assert tensor.shape == (game.observation_tensor_size(),)
    assert np.asarray(state.information_state_tensor(0)).shape == (game.information_state_tensor_size(),)


def test_ruleset_parameters_become_the_games_rules() -> None:
    game = pyspiel.load_game("python_remik", {"players": 4, "jokers": 6, "joker_penalty": 50, "opening_points": 40})
    assert (game.rules.jokers, game.rules.joker_penalty, game.rules.opening_points) == (6, 50, 40)
    assert game.num_distinct_actions() == rl.encoding.ActionCodec(game.rules, 4).size
    assert isinstance(game, rs.RummyGame)
    with pytest.raises(ValueError):
        pyspiel.load_game("python_remik", {"restock_limit": -1})  # an endless game (R-D7 has no cap)


@pytest.mark.parametrize(
    "params",
    [{"max_turns": 0}, {"max_turns": -5}, {"max_turns": 10**6}, {"max_rounds": 10**9}, {"scoring": "x" * 100_000}],
    ids=["no-turns", "negative-turns", "too-many-turns", "rounds-past-int32", "long-enum-value"],
)
def test_parameters_out_of_range_are_refused_with_a_short_message(params: dict[str, object]) -> None:
    # Issue 10: a bounded, typed refusal (not pybind's RuntimeError or a 100 KB message).
    with pytest.raises(ValueError) as info:
        pyspiel.load_game("python_remik", params)
    assert len(str(info.value)) <= 500
