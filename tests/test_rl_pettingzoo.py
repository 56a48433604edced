"""rummylib.rl: the PettingZoo AEC environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import itertools
import logging
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo tests need the extra: pip install 'rummylib[rl]'")

import numpy as np
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import rummylib as rl
from rummylib.encoding import EncodingError
from rummylib.rl import env, raw_env


@pytest.mark.parametrize(("rules", "players"), [(rl.STRAIGHT, 2), (rl.REMIK, 3)], ids=["straight", "remik"])
def test_pettingzoo_api_test(rules: rl.Ruleset, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # api_test reports problems as warnings
        # ...except these two, which it waives by name for its own classic games (dict observations).
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env(rules=rules, players=players, max_cycles=30), num_cycles=60)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(rules=rl.STRAIGHT, players=2, max_cycles=40), num_cycles=80)


def _random_episode(e: Any, rng: np.random.Generator) -> tuple[int, dict[str, float]]:
    e.reset(seed=int(rng.integers(1000)))
    steps = 0
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    return steps, totals


def test_masked_random_play_ends_rounds_with_rewards() -> None:
    rng = np.random.default_rng(0)
    e = env(rules=rl.STRAIGHT, players=2, episode="round", reward="win")
    for _ in range(3):
        steps, totals = _random_episode(e, rng)
        assert steps > 0
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])  # a winner, or a void round (R-D7)


def test_max_cycles_truncates_after_that_many_turns_per_seat() -> None:
    e = env(rules=rl.REMIK, players=2, max_cycles=3)
    e.reset(seed=5)
    seats = []
    for agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            assert truncation and not termination
            e.step(None)
            continue
        seats.append(agent)
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    turns = sum(1 for a, b in itertools.pairwise(seats) if a != b) + 1
    assert turns == 6


def test_the_turn_based_parallel_wrapper_plays_and_truncates() -> None:
    # PettingZoo's wrapper for turn-based games: each parallel step is the active agent's action.
    par = turn_based_aec_to_parallel(env(rules=rl.STRAIGHT, players=2, max_cycles=4))
    obs, _ = par.reset(seed=3)
    rng = np.random.default_rng(0)
    steps, active = 0, set()
    truncations: dict[str, bool] = {}
    while par.agents:
        actions = {}
        for agent in par.agents:
            legal = np.flatnonzero(obs[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        obs, _, _, truncations, infos = par.step(actions)
        active |= {info["active_agent"] for info in infos.values() if "active_agent" in info}
        steps += 1
    assert all(truncations.values()) and active == {"player_0", "player_1"}
    assert steps >= 8  # four turns per seat, each at least a draw and a discard (R-T4, T7)


def test_illegal_action_ends_the_game_with_the_illegal_reward() -> None:
    e = env(rules=rl.STRAIGHT, players=2)
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0


def test_observation_is_the_encoders_and_mask_the_codecs() -> None:
    e = raw_env(rules=rl.REMIK, players=2)
    e.reset(seed=9)
    seat = e.possible_agents.index(e.agent_selection)
    assert e.game is not None
    obs = e.observe(e.agent_selection)
    assert obs["observation"].tolist() == e.encoder.encode(rl.view(e.game, seat))
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(e.codec.legal_ids(e.game))
    other = e.observe(e.possible_agents[1 - seat])
    assert not other["action_mask"].any()
    # The environment lists and masks through its codec's trusted listing (ActionCodec._id_listing).
    assert e._listing is e.codec._id_listing()


@pytest.mark.parametrize("bad", [-1, 10**9])
def test_an_id_out_of_range_is_an_illegal_action(bad: int) -> None:
    # raw_env's own check, in place of PettingZoo's AssertOutOfBoundsWrapper: the episode ends.
    e = env(rules=rl.STRAIGHT, players=2)
    e.reset(seed=2)
    agent = e.agent_selection
    e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0


def test_the_wrapped_environment_reads_as_the_raw_one() -> None:
    e = env(rules=rl.STRAIGHT, players=2)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=4)
    raw = e.unwrapped
    obs, reward, termination, truncation, info = e.last()
    assert obs is raw.observe(raw.agent_selection)
    assert (reward, termination, truncation, info) == raw.last()[1:]
    assert str(e) == str(raw) == "rummylib_v0"


def test_the_wrapper_keeps_pettingzoos_order_checks(caplog: pytest.LogCaptureFixture) -> None:
    # The direct last()/step() behave as PettingZoo's OrderEnforcingWrapper before reset and after the end.
    e = env(rules=rl.STRAIGHT, players=2)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    e.reset(seed=3)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0]))  # illegal: the episode ends
    for _agent in e.agent_iter():
        e.step(None)
    assert not e.agents
    with caplog.at_level(logging.WARNING):
        e.step(None)  # PettingZoo only warns, through its logger, about a step after the end
    assert "step() called after all agents are terminated" in caplog.text
    e.reset(seed=3)
    assert e.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("mode", ["ansi", "human"])
def test_render_modes(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    e = env(rules=rl.STRAIGHT, players=2, render_mode=mode)
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "straight round 1" in text
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    if mode == "human":
        assert "straight round 1" in capsys.readouterr().out


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        raw_env(rules=rl.REMIK, players=2, reward="points")
    with pytest.raises(ValueError):
        raw_env(rules=rl.REMIK, players=2, render_mode="rgb_array")
    with pytest.raises(ValueError):
        raw_env(rules=rl.REMIK, players=9)


@pytest.mark.parametrize("bad", [1.5, 1.0, "3", None, True, np.float64(2.0), [1]])
def test_an_action_that_is_not_an_integer_id_is_refused_and_changes_nothing(bad: Any) -> None:
    # A float is not id 1 (int(1.5) would play it): a typed error, and the game goes on unchanged.
    e = raw_env(rules=rl.STRAIGHT, players=2)
    e.reset(seed=1)
    before, agent = e.game, e.agent_selection
    with pytest.raises(EncodingError):
        e.step(bad)
    assert e.game == before and e.agent_selection == agent and not any(e.terminations.values())
    assert e.rewards[agent] == 0.0


@pytest.mark.parametrize("bad", [-1, 0, 2.5, "x", True])
def test_a_bad_max_cycles_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env(rules=rl.STRAIGHT, players=2, max_cycles=bad)


def test_a_bad_illegal_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal_reward"):
        raw_env(rules=rl.STRAIGHT, players=2, illegal_reward="x")  # type: ignore[arg-type]
