"""A single-agent Gymnasium environment: one learner seat against built-in bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from rummylib.actions import Action, NextRound
from rummylib.bots import Bot, SeatActions
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.engine import GameState, Phase, apply, legal_actions, new_game, view
from rummylib.engine._listed import apply_listed
from rummylib.rules import REMIK, Ruleset
from rummylib.simulation import _NAMED_BOTS

from .._guards import is_int_in
from ..encoding._errors import shorten
from ._common import (
    EPISODES,
    RENDER_MODES,
    REWARDS,
    action_id,
    check_choice,
    check_reward,
    engine_seed,
    episode_over,
    render_text,
    round_rewards,
)
from ._observe import StateObserver

__all__ = ["RummyGymEnv", "gym_env"]

#: The built-in opponents by name: simulate's own registry (one home).
_BOTS: Mapping[str, Callable[[int], Bot]] = _NAMED_BOTS


def gym_env(
    rules: Ruleset = REMIK,
    players: int = 2,
    opponents: str | Sequence[str | Bot] = "random",
    **kwargs: Any,
) -> RummyGymEnv:
    """A Gymnasium environment where the learner plays seat ``seat`` (default 0) against bots.

    Args:
        rules: the ruleset.
        players: the number of seats.
        opponents: a bot name ``simulate`` takes (``"random"``, ``"greedy"``,
            ``"search"``) for every other seat, or one entry per other seat (a
            name or a :class:`~rummylib.Bot`).
        **kwargs: ``seat``, ``reward``, ``episode``, ``render_mode`` (see :class:`RummyGymEnv`).

    >>> from rummylib import STRAIGHT
    >>> e = gym_env(rules=STRAIGHT, players=2, opponents="random")
    >>> obs, info = e.reset(seed=3)
    >>> obs.shape == e.observation_space.shape, int(info["action_mask"].sum()) > 0
    (True, True)
    """
    return RummyGymEnv(rules, players, opponents, **kwargs)


class RummyGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat learns; the other seats are bots that move between the learner's steps.

    Observations are :class:`~rummylib.encoding.ObservationEncoder` vectors
    (float32); actions are :class:`~rummylib.encoding.ActionCodec` ids; the
    legal mask is ``info["action_mask"]`` (int8). An action outside the mask
    ends the episode with reward ``illegal_reward`` (as PettingZoo's classic
    games do). Rewards otherwise as in :class:`~rummylib.rl.raw_env`.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        opponents: str | Sequence[str | Bot],
        *,
        seat: int = 0,
        reward: str = "win",
        episode: str = "game",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.codec = ActionCodec(rules, players)
        self.encoder = ObservationEncoder(rules, players)
        self._observer = StateObserver(self.encoder, np)
        self.rules = rules
        self.players = players
        if not is_int_in(seat, 0, players - 1):
            msg = f"seat must be 0..{players - 1}, not {seat!r}"
            raise ValueError(msg)
        self.seat = seat
        self._specs = self._opponent_specs(opponents)
        self._reward = check_choice("reward", reward, REWARDS)
        self._episode = check_choice("episode", episode, EPISODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        high = np.maximum(np.asarray(self.encoder.high, dtype=np.float32), 1)  # a field fixed at 0 still spans 0..1
        self.observation_space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.game: GameState | None = None

    def _opponent_specs(self, opponents: str | Sequence[str | Bot]) -> list[str | Bot]:
        others = self.players - 1
        names = ", ".join(repr(n) for n in sorted(_BOTS))
        if not isinstance(opponents, (str, Sequence)):
            msg = f"opponents is a bot name ({names}) or one opponent per other seat, not {shorten(opponents)}"
            raise ValueError(msg)
        specs: list[str | Bot] = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            msg = f"give one opponent per other seat ({others}), not {len(specs)}"
            raise ValueError(msg)
        for spec in specs:
            if (spec not in _BOTS) if isinstance(spec, str) else (isinstance(spec, type) or not isinstance(spec, Bot)):
                msg = f"an opponent is one of {names} or a Bot instance, not {shorten(spec)}"
                raise ValueError(msg)
        return specs

    def _bots(self, rng: np.random.Generator) -> dict[int, Bot]:
        seats = [s for s in range(self.players) if s != self.seat]
        bots: dict[int, Bot] = {}
        for s, spec in zip(seats, self._specs):
            bots[s] = _BOTS[spec](int(rng.integers(0, 2**63 - 1))) if isinstance(spec, str) else spec
        return bots

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (the same one for the same ``seed``); bots move until the learner acts."""
        super().reset(seed=seed)
        self.game = new_game(self.rules, self.players, seed=engine_seed(self.np_random))
        self._opponents = self._bots(self.np_random)
        self._pending = 0.0
        self._done = False
        self.game = self._advance(self.game)
        return self._observe(), self._info()

    def _advance(self, state: GameState) -> GameState:
        """Let the bots move (and deal new rounds) until the learner acts or the episode ends."""
        while not episode_over(state, self._episode):
            if state.phase is Phase.ROUND_OVER:
                state = apply(state, NextRound())
            elif state.to_act == self.seat:
                break
            else:
                bot = self._opponents[state.to_act]
                legal = SeatActions(legal_actions(state))  # the bot sees its view, never the state (R-H1)
                state = self._after(apply(state, bot.choose(view(state, state.to_act), legal)))
        return state

    def _after(self, state: GameState) -> GameState:
        if state.phase is Phase.ROUND_OVER or state.is_over:
            last = episode_over(state, self._episode)
            self._pending += round_rewards(state, self._reward, last_round=last)[self.seat]
        return state

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's action id, then the bots' moves: ``(obs, reward, terminated, truncated, info)``.

        An integer id outside the mask ends the episode with ``illegal_reward``.

        Raises:
            EncodingError: ``action`` is not an integer (a float, a bool, ``None``); nothing changes.
        """
        assert self.game is not None, "call reset() first"
        chosen = action_id(action, self.codec.size)
        if self._done or chosen not in self._legal:
            self._done = True
            return self._observe(), self.illegal_reward, True, False, self._info()
        state = self._after(apply_listed(self.game, self._legal[chosen]))  # the listed action (decode(chosen))
        self.game = self._advance(state)
        reward, self._pending = self._pending, 0.0
        done = self._done = episode_over(self.game, self._episode)
        if self.render_mode == "human":
            print(self.render())
        return self._observe(), reward, done, False, self._info()

    def _observe(self) -> np.ndarray:
        assert self.game is not None
        vector: np.ndarray = self._observer(self.game, self.seat)  # encoder.encode(view(...)) as float32 (R-H1)
        return vector

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        over = self._done or episode_over(self.game, self._episode)
        self._legal: dict[int, Action] = {} if over else self.codec._legal_by_id(self.game)
        packed = self.codec._mask(self._legal)  # a 1 per legal id, viewed as int8 without a copy
        return {"action_mask": np.frombuffer(packed, dtype=np.int8)}

    def render(self) -> str | None:
        """The table as text with only the learner's hand shown (``None`` without a render mode)."""
        if self.render_mode is None or self.game is None:
            return None
        return render_text(self.game, self.seat)
