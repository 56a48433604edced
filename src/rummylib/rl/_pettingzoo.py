"""A PettingZoo AEC environment in the style of PettingZoo's classic games."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from rummylib.actions import Action, NextRound
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.engine import GameState, Phase, apply, new_game
from rummylib.engine._listed import apply_listed
from rummylib.rules import REMIK, Ruleset

from ._common import (
    EPISODES,
    RENDER_MODES,
    REWARDS,
    action_id,
    check_choice,
    check_max_cycles,
    check_reward,
    engine_seed,
    episode_over,
    render_text,
    round_rewards,
)
from ._observe import StateObserver

__all__ = ["env", "raw_env"]

#: The mask's dtype, made once (numpy converts a type to a dtype on every call).
_INT8 = np.dtype(np.int8)
_ROUND_OVER = Phase.ROUND_OVER
_GAME_OVER = Phase.GAME_OVER


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's call-order checks (its ``OrderEnforcingWrapper``).

    Takes the arguments of :class:`raw_env`. PettingZoo's classic games also wrap
    theirs in ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper``;
    :class:`raw_env` does both jobs itself (an id outside the mask, in range or
    not, ends the episode with ``illegal_reward``; an action that is not an
    integer id raises :class:`~rummylib.encoding.EncodingError`), so neither
    is stacked on it: each wrapper level forwards every attribute read through
    a failed lookup, which cost more than the rest of the environment's own step.
    """
    return _OrderEnforcing(raw_env(**kwargs))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with a direct ``last()`` and ``step()`` once reset.

    ``AECEnv.last`` on the wrapper reads five attributes of the inner
    environment, each through the wrapper's ``__getattr__`` (a failed lookup
    first); after ``reset`` none of them is refused, so ``last`` asks the inner
    environment directly and returns the same tuple. ``step`` likewise reads
    the inner agents directly, then does what the wrapper's does. Before
    ``reset`` (and ``step`` with no agent left) both are the wrapper's own
    (the same errors and warnings).
    """

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._has_reset:
            return self.env.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    # ``agent_iter`` reads these two of the wrapper on every step: once reset, straight from the inner
    # environment; before, through the wrapper's own ``__getattr__`` (the same AttributeError).
    @property
    def agents(self) -> list[str]:
        """The inner environment's ``agents``."""
        if self._has_reset:
            return self.env.agents  # type: ignore[no-any-return]
        return self.__getattr__("agents")  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        """The inner environment's ``agent_selection``."""
        if self._has_reset:
            return self.env.agent_selection  # type: ignore[no-any-return]
        return self.__getattr__("agent_selection")  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """The wrapper's ``agent_iter``, whose steps read the inner environment directly once reset."""
        if not self._has_reset:
            return super().agent_iter(max_iter)  # the wrapper's own error
        return _Iterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the inner environment's agents directly (made after reset)."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """Remik or Straight Rummy as a PettingZoo AEC environment.

    Agents ``player_0 .. player_{n-1}`` are the seats. Observations are
    ``{"observation": float32[ObservationEncoder.size], "action_mask": int8[ActionCodec.size]}``;
    actions are :class:`~rummylib.encoding.ActionCodec` ids (``Discrete(size)``).
    The mask is all zeros for an agent not to act. ``NextRound`` between
    rounds is applied by the environment, not offered to an agent.

    Args:
        rules: the ruleset (default remik).
        players: the number of seats.
        reward: ``"win"`` (+1 each winner, -1 the others, at the end of the
            episode) or ``"score"`` (each round's scores / 100, negated under
            penalty scoring, paid as each round ends).
        episode: ``"game"`` (until the game is over) or ``"round"`` (one round).
        max_cycles: truncate everyone after this many turns per seat (``None``: never).
        illegal_reward: the reward of an agent that plays an action outside its
            mask; the episode then ends (as PettingZoo's TerminateIllegalWrapper does).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text)
            or ``"human"`` (prints it after each step).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "rummylib_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Ruleset = REMIK,
        players: int = 2,
        *,
        reward: str = "win",
        episode: str = "game",
        max_cycles: int | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, rules, players, reward, episode, max_cycles, illegal_reward, render_mode)
        super().__init__()
        self.codec = ActionCodec(rules, players)
        self.encoder = ObservationEncoder(rules, players)
        self._observe = StateObserver(self.encoder, np)
        self.rules = rules
        self._reward = check_choice("reward", reward, REWARDS)
        self._episode = check_choice("episode", episode, EPISODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.max_cycles = check_max_cycles(max_cycles)
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        high = np.maximum(np.asarray(self.encoder.high, dtype=np.float32), 1)  # a field fixed at 0 still spans 0..1
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self.game: GameState | None = None
        self._cache: dict[str, dict[str, np.ndarray]] = {}
        #: The legal ids of the agent to act, each with its action (``codec.decode`` of the id).
        self._legal: dict[int, Action] = {}
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        #: The codec's trusted listing (its _listed_by_id and _mask): the env's own states need no check.
        self._listing = self.codec._id_listing()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(ActionCodec.size)`` (the same object on every call)."""
        return self.action_spaces[agent]

    # --- the game -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the same one for the same ``seed``; without one, the next of the stream."""
        if seed is not None or not hasattr(self, "_np_random"):
            self._np_random = np.random.default_rng(seed)
        n = len(self.possible_agents)
        self.game = new_game(self.rules, n, seed=engine_seed(self._np_random))
        self._turns = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moved()

    def _moved(self) -> None:
        # The next agent's ids and no observation yet (after a reset and every step but the last).
        assert self.game is not None
        self._cache = {}
        self._legal = self._listing.listed_by_id(self.game)
        self.agent_selection = self.possible_agents[self.game.round.to_act]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the agent to act's observation (kept until the next step), reward and flags."""
        agent = self.agent_selection
        assert agent is not None
        observation = self.observe(agent) if observe else None  # observe() keeps it until the next step
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` for ``agent`` (the mask is all zeros off its turn)."""
        cached = self._cache.get(agent)
        if cached is not None:
            return cached
        assert self.game is not None
        seat = self._seats[agent]
        vector = self._observe(self.game, seat)  # encoder.encode(view(game, seat)) as float32 (R-H1)
        # A fresh zeroed buffer with a 1 per legal id, viewed as int8 without a copy: cheaper than
        # numpy's zeros and a fancy-indexed write for the few ids of a step. ``_legal`` is empty once
        # the episode is over or truncated (``_finish``), so the mask is all zeros then.
        packed = self._listing.mask(self._legal if seat == self.game.round.to_act else ())
        # ndarray's own constructor over the buffer: the array np.frombuffer gives, without its argument parsing
        # (its length the shape: a 29th instance attribute of raw_env measured 1k instructions a step more).
        mask = np.ndarray(len(packed), _INT8, packed)
        out: dict[str, np.ndarray] = {"observation": vector, "action_mask": mask}
        self._cache[agent] = out
        return out

    def step(self, action: Any) -> None:
        """Play ``action`` (an id of the mask) for the agent to act.

        An integer id outside the mask ends the episode with ``illegal_reward``.

        Raises:
            EncodingError: ``action`` is not an integer (a float, a bool, ``None``
                for an agent still playing); nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        chosen = action if type(action) is int else action_id(action, self.codec.size)  # a plain int is its id
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if chosen not in self._legal:
            self.rewards[agent] = self.illegal_reward
            self._finish(truncated=False)
            self._accumulate_rewards()
        elif self._play(chosen):
            self._accumulate_rewards()
        # else: every reward is 0.0 and adding 0.0 changes no running sum (none is -0.0: each starts
        # at 0.0 and only sums are added to it), so _accumulate_rewards would change nothing
        if self.render_mode == "human":
            print(self.render())

    def _play(self, action_id: int) -> bool:
        """Play a listed id; whether a round ended (its rewards paid)."""
        assert self.game is not None
        before = self.game
        state = apply_listed(before, self._legal[action_id])  # the listed action, as decode(action_id)
        cycles = self.max_cycles
        if cycles is not None and (
            state.round.to_act != before.round.to_act or state.round_number != before.round_number
        ):  # the turns are counted for max_cycles alone
            self._turns += 1
        over = paid = False
        phase = state.round.phase  # state.phase and is_over, read once
        if phase is _ROUND_OVER or phase is _GAME_OVER:
            paid = True
            over = episode_over(state, self._episode)
            for i, r in enumerate(round_rewards(state, self._reward, last_round=over)):
                self.rewards[self.possible_agents[i]] = r
            if not over:
                state = apply(state, NextRound())  # a fresh deal: the episode goes on
        self.game = state
        if over:
            self._finish(truncated=False)
        elif cycles is not None and self._turns >= cycles * len(self.possible_agents):
            self._finish(truncated=True)
        else:
            self._moved()
        return paid

    def _finish(self, *, truncated: bool) -> None:
        self._cache = {}
        self._legal = {}
        for a in self.agents:
            self.terminations[a] = not truncated
            self.truncations[a] = truncated

    def render(self) -> str | None:
        """The table as text with every hand (``None`` without a render mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        assert self.game is not None
        return render_text(self.game)

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])
