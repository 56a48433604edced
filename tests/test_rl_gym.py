"""rummylib.rl.gym_env: one learner against bots, passing Gymnasium's env checker."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium", reason="the Gymnasium tests need the extra: pip install 'rummylib[rl]'")
pytest.importorskip("pettingzoo", reason="the Gymnasium tests need the extra: pip install 'rummylib[rl]'")

import numpy as np
from gymnasium.utils.env_checker import check_env

import rummylib as rl
from rummylib.encoding import EncodingError
from rummylib.rl import gym_env


@pytest.mark.parametrize(("rules", "players", "opponents"), [(rl.STRAIGHT, 2, "random"), (rl.REMIK, 3, "greedy")])
def test_gymnasium_check_env(rules: rl.Ruleset, players: int, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym_env(rules=rules, players=players, opponents=opponents), skip_render_check=True)


def test_masked_random_learner_plays_rounds_to_the_end() -> None:
    e = gym_env(rules=rl.STRAIGHT, players=2, opponents="greedy", episode="round")
    rng = np.random.default_rng(1)
    for seed in range(3):
        obs, info = e.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            assert e.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = e.step(action)
            total += reward
            assert not truncated
        assert total in (-1.0, 0.0, 1.0)


def test_the_learner_acts_only_on_its_turn_and_bots_are_configurable() -> None:
    e = gym_env(rules=rl.REMIK, players=3, opponents=[rl.GreedyBot(), "random"], seat=1)
    e.reset(seed=4)
    assert e.game is not None and e.game.to_act == 1
    with pytest.raises(ValueError):
        gym_env(rules=rl.REMIK, players=3, opponents=["random"])
    with pytest.raises(ValueError, match="'greedy', 'random', 'search'"):
        gym_env(rules=rl.REMIK, players=2, opponents="smart")


def test_opponents_are_named_as_simulate_names_bots() -> None:
    # One bot registry: every name simulate takes is an opponent, as the same bot.
    e = gym_env(rules=rl.STRAIGHT, players=2, opponents="search")
    e.reset(seed=1)
    assert [type(b) for b in e._opponents.values()] == [rl.SearchBot]


def test_illegal_action_ends_the_episode() -> None:
    e = gym_env(rules=rl.STRAIGHT, players=2)
    _, info = e.reset(seed=0)
    _, reward, done, _, info = e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert done and reward == -1.0 and not info["action_mask"].any()


def test_ansi_render_shows_only_the_learners_hand() -> None:
    e = gym_env(rules=rl.STRAIGHT, players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert e.game is not None and text is not None
    assert str(e.game.round.hands[0]) in text  # R-H1: the learner's own hand...
    assert str(e.game.round.hands[1]) not in text and "10 cards" in text  # ...and only the size of the other


@pytest.mark.parametrize("bad", [1.5, 1.0, "3", None, True, np.float64(2.0)])
def test_an_action_that_is_not_an_integer_id_is_refused_and_changes_nothing(bad: object) -> None:
    e = gym_env(rules=rl.STRAIGHT, players=2)
    e.reset(seed=0)
    before = e.game
    with pytest.raises(EncodingError):
        e.step(bad)
    assert e.game == before
    _, _, done, _, _ = e.step(int(np.flatnonzero(e._info()["action_mask"])[0]))  # the episode goes on
    assert not done


@pytest.mark.parametrize("opponents", [5, [5], ["random", None], [rl.GreedyBot]])
def test_opponents_that_are_not_bots_are_refused(opponents: object) -> None:
    with pytest.raises(ValueError, match="opponent"):
        gym_env(rules=rl.REMIK, players=2 if opponents == 5 or len(opponents) == 1 else 3, opponents=opponents)  # type: ignore[arg-type]


def test_a_bad_illegal_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal_reward"):
        gym_env(rules=rl.STRAIGHT, players=2, illegal_reward="x")


def test_observation_is_the_encoders_vector_of_the_learners_view() -> None:
    # R-H1: the fast path's vector is the encoder's of the learner's view, step after step.
    e = gym_env(rules=rl.REMIK, players=3, opponents="greedy", seat=2)
    obs, info = e.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):
        assert e.game is not None
        assert obs.dtype == np.float32 and obs.tolist() == e.encoder.encode(rl.view(e.game, 2))
        obs, _, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            break
