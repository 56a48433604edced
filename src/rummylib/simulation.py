"""Many games between bots, serially or on any :class:`concurrent.futures.Executor`.

>>> import rummylib as rl
>>> result = rl.simulate(rl.REMIK, 4, 2, seed=1, bots="greedy")
>>> len(result.games), result.summary.completed, round(sum(result.summary.win_rate), 6)
(2, 2, 1.0)
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from itertools import repeat
from operator import is_
from typing import Final, TypeAlias

import attrs

from rummylib.actions import Action
from rummylib.bots import (
    Bot,
    BotFactory,
    GreedyBot,
    LegalActions,
    RandomBot,
    SearchBot,
    SeatActions,
    SimulationError,
    SimulationReason,
    derive_seed,
)
from rummylib.engine import GameState, apply, new_game, view
from rummylib.engine._listed import apply_listed
from rummylib.engine._state import GAME_OVER_PHASE
from rummylib.records._record import MAX_ACTIONS
from rummylib.rules import Ruleset

from ._guards import check_seed_int
from ._sim_results import GameResult, SimulationResult, SimulationSummary

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "SIMULATION_RESTOCK_LIMIT",
    "BotSpec",
    "GameResult",
    "ProgressCallback",
    "SimulationResult",
    "SimulationSummary",
    "play_game",
    "simulate",
    "simulation_rules",
]

#: The restock cap :func:`simulate` sets on a ruleset that has none (R-D7). Past
#: it a round is void, so no round can go on for ever.
SIMULATION_RESTOCK_LIMIT: Final = 2
#: Actions after which a game is stopped and reported as aborted. It is the most a
#: game record holds, so every game simulated with it can be recorded.
DEFAULT_MAX_ACTIONS: Final[int] = MAX_ACTIONS

#: What ``bots=`` accepts, one of ``"random"``, ``"greedy"``, ``"search"``, one factory for every
#: seat, or one factory per seat (a factory takes a seed and returns a bot;
#: the classes :class:`RandomBot` and :class:`GreedyBot` are factories).
BotSpec: TypeAlias = str | BotFactory | Sequence[str | BotFactory]
#: ``progress(done, total)``, called in the calling process as games finish.
ProgressCallback: TypeAlias = Callable[[int, int], None]

_NAMED_BOTS: Final[dict[str, BotFactory]] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


# --- one game -------------------------------------------------------------------------


def _void_rounds(state: GameState) -> int:
    return sum(1 for r in state.results if r.winner is None)


def play_game(
    rules: Ruleset,
    players: int,
    bots: Sequence[Bot],
    *,
    seed: int,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    index: int = 0,
) -> GameResult:
    """Play one whole game between ``bots`` (one per seat) and report how it ended.

    The ruleset is used as given: with no restock cap (R-D7) a round between
    bots that never go out goes on for ever, and the game stops at
    ``max_actions``, reported as aborted. :func:`simulation_rules` adds the
    cap :func:`simulate` uses.

    Raises:
        SimulationError: the bot count does not match ``players``, or
            ``max_actions`` is not a positive int.
        IllegalActionError: a bot returned an action that is not legal.

    >>> import rummylib as rl
    >>> rules = simulation_rules(rl.REMIK)
    >>> r = play_game(rules, 3, [rl.GreedyBot(), rl.GreedyBot(), rl.RandomBot(seed=1)], seed=5)
    >>> r.aborted, len(r.totals), r.rounds >= 1
    (False, 3, True)
    """
    _check_count("max_actions", max_actions, minimum=1)
    if len(bots) != players:
        msg = f"{len(bots)} bots for {players} players: give one bot per seat"
        raise SimulationError(SimulationReason.WRONG_BOT_COUNT, bots, msg)
    state, actions = _play(new_game(rules, players, seed=seed), bots, seed, max_actions)
    table = state.standings
    return GameResult(
        index=index,
        seed=seed,
        totals=table.totals,
        winners=table.winners,
        rounds=table.rounds,
        void_rounds=_void_rounds(state),
        actions=actions,
        aborted=not state.is_over,
    )


def _play(state: GameState, bots: Sequence[Bot], seed: int, max_actions: int) -> tuple[GameState, int]:
    """The one game loop: ``bots`` play from ``state`` until the game ends or ``max_actions``.

    Each bot gets ``SeatActions``, the listing with no path back to the state,
    except the built-in :class:`GreedyBot` (exactly that class, no subclass):
    it is library code that reads only its view, so it gets the engine's lazy
    :class:`LegalActions` and asks for the few actions it considers, instead
    of waiting for every legal action to be listed (the same choices). The
    built-in :class:`RandomBot` (exactly that class) returns an action of the
    listing itself, so its action is applied without checking again what the
    listing answered (``apply_listed``: the same next state as ``apply``).
    Every other bot's action is checked by :func:`~rummylib.apply`.

    Returns the last state and the number of actions played.
    """
    actions = 0
    while state.round.phase is not GAME_OVER_PHASE and actions < max_actions:  # state.is_over, without the property
        seat = state.round.to_act
        bot = bots[seat]
        legal: Sequence[Action] = LegalActions(state)
        if type(bot) is not GreedyBot:  # the bot sees its view, never the state (R-H1)
            legal = SeatActions(legal)
        try:
            action = bot.choose(view(state, seat), legal)
        except SimulationError as error:
            if error.reason is not SimulationReason.NO_LEGAL_ACTION or legal:
                raise
            msg = (f"game seed={seed!r}: after {actions} actions the engine offers seat {seat} "
                   f"no legal action in phase {state.phase.value!r} (an engine dead end)")  # fmt: skip
            raise SimulationError(SimulationReason.NO_LEGAL_ACTION, state, msg) from None
        if type(bot) is RandomBot and _listed(action, legal._items):  # type: ignore[attr-defined]  # it got SeatActions
            state = apply_listed(state, action)  # the very object the listing gave (R-T1..T7 asked already)
        else:
            state = apply(state, action)
        actions += 1
    return state, actions


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """Whether ``action`` is one of the objects ``legal`` holds (by identity: an equal copy is checked)."""
    return any(map(is_, legal, repeat(action)))  # a is action, for each a, in C


# --- many games -----------------------------------------------------------------------


def _check_count(name: str, value: object, *, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        msg = f"{name} must be an int of at least {minimum}, not {value!r}"
        raise SimulationError(SimulationReason.BAD_ARGUMENT, value, msg)
    return value


def _factory(spec: str | BotFactory) -> BotFactory:
    if isinstance(spec, str):
        try:
            return _NAMED_BOTS[spec.strip().lower()]
        except KeyError:
            msg = f"no built-in bot called {spec!r}; choose one of {', '.join(sorted(_NAMED_BOTS))}"
            raise SimulationError(SimulationReason.UNKNOWN_BOT, spec, msg) from None
    if not callable(spec):
        msg = f"a bot must be a name or a factory taking a seed (such as the class GreedyBot), not {spec!r}"
        raise SimulationError(SimulationReason.UNKNOWN_BOT, spec, msg)
    return spec


def _factories(bots: BotSpec, players: int) -> tuple[BotFactory, ...]:
    if isinstance(bots, str) or callable(bots):
        return (_factory(bots),) * players
    specs = tuple(bots)
    if len(specs) != players:
        msg = f"{len(specs)} bots for {players} players: give one bot per seat"
        raise SimulationError(SimulationReason.WRONG_BOT_COUNT, bots, msg)
    return tuple(_factory(s) for s in specs)


@attrs.frozen
class _Job:
    """Everything a worker needs to play games by index (pickled once per chunk)."""

    rules: Ruleset
    players: int
    factories: tuple[BotFactory, ...]
    seed: int
    max_actions: int


def _seated(factories: Sequence[BotFactory], seed: int, index: int) -> tuple[list[Bot], int]:
    """The bots of game ``index`` of a simulation seeded ``seed``, and the game's own seed."""
    bots = [make(derive_seed(seed, "bot", index, seat)) for seat, make in enumerate(factories)]
    return bots, derive_seed(seed, "game", index)


def _play_one(job: _Job, index: int) -> GameResult:
    bots, game_seed = _seated(job.factories, job.seed, index)
    return play_game(job.rules, job.players, bots, seed=game_seed, max_actions=job.max_actions, index=index)


def _replay_game(
    rules: Ruleset, names: Sequence[str], factories: Sequence[BotFactory], seed: int, index: int, max_actions: int
) -> GameState:
    """The last state of game ``index`` of a simulation, played again exactly as :func:`simulate` did.

    ``rules`` are the simulation's (``SimulationResult.rules``); ``names`` name the seats.
    """
    bots, game_seed = _seated(factories, seed, index)
    return _play(new_game(rules, list(names), seed=game_seed), bots, game_seed, max_actions)[0]


def _play_chunk(job: _Job, indices: range) -> list[GameResult]:
    return [_play_one(job, i) for i in indices]


def simulation_rules(rules: Ruleset) -> Ruleset:
    """``rules`` with a restock cap, as :func:`simulate` plays them (R-D7).

    Raises:
        SimulationError: ``rules`` is not a :class:`~rummylib.Ruleset`
            (reason ``BAD_ARGUMENT``).

    >>> import rummylib as rl
    >>> simulation_rules(rl.REMIK).restock_limit == SIMULATION_RESTOCK_LIMIT
    True
    """
    if not isinstance(rules, Ruleset):
        msg = f"expected a Ruleset, not {type(rules).__name__}"
        raise SimulationError(SimulationReason.BAD_ARGUMENT, rules, msg)
    if rules.restock_limit is None:
        return attrs.evolve(rules, restock_limit=SIMULATION_RESTOCK_LIMIT)
    return rules


def simulate(
    rules: Ruleset,
    players: int,
    games: int,
    *,
    seed: int,
    bots: BotSpec = "greedy",
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    chunk_size: int | None = None,
) -> SimulationResult:
    """Play ``games`` whole games between bots and gather the results.

    Game ``i`` is dealt from ``derive_seed(seed, "game", i)`` and its seat
    ``k`` gets the bot ``factory(derive_seed(seed, "bot", i, k))``, so the
    result is the same serially and on any executor, however it is chunked.

    Every simulated game terminates: a ruleset without a restock cap is
    played as ``attrs.evolve(rules, restock_limit=SIMULATION_RESTOCK_LIMIT)``
    (a round that would restock more often is void, R-D7), and a game still
    going after ``max_actions`` actions is stopped and reported as aborted
    (bots that never go out would otherwise deal void rounds for ever).

    Args:
        rules: the ruleset.
        players: seats per game.
        games: how many games.
        seed: the simulation seed.
        bots: ``"greedy"`` (default), ``"random"``, ``"search"``, a factory ``seed -> Bot``
            for every seat, or a sequence of those, one per seat.
        executor: runs chunks of games in parallel: a
            :class:`~concurrent.futures.ProcessPoolExecutor`, or a cluster's
            executor such as ``dask.distributed.Client.get_executor()``. Then
            the ruleset and bot factories must pickle. ``None`` plays in this
            process.
        progress: called as ``progress(done, total)`` after each game (serial)
            or each finished chunk (executor), in the calling process.
        max_actions: the per-game action limit.
        chunk_size: games per executor task; by default about 32 tasks in all.

    Returns:
        The games in index order, with a :attr:`SimulationResult.summary`.

    Raises:
        SimulationError: a count is not a positive int, a bot name is
            unknown, the number of bots does not match ``players``, or the
            bots do not pickle for an executor that needs them to.
        RulesetError: the ruleset does not allow ``players`` seats.

    >>> import rummylib as rl
    >>> a = rl.simulate(rl.STRAIGHT, 3, 2, seed=9, bots=["greedy", "greedy", "random"])
    >>> a == rl.simulate(rl.STRAIGHT, 3, 2, seed=9, bots=["greedy", "greedy", "random"])
    True
    """
    job = _checked_job(rules, players, games, seed, bots, max_actions)
    if executor is None:
        return SimulationResult(job.rules, players, seed, _play_here(job, games, progress))
    return SimulationResult(job.rules, players, seed, _play_on(executor, job, games, chunk_size, bots, progress))


def _checked_job(rules: Ruleset, players: int, games: int, seed: int, bots: BotSpec, max_actions: int) -> _Job:
    """:func:`simulate`'s arguments checked, as the job its workers play (the games' rules capped, R-D7)."""
    played = simulation_rules(rules)
    _check_count("players", players, minimum=1)
    played.hand_size(players)  # RulesetError if the table size is not allowed
    _check_count("games", games, minimum=0)
    _check_count("max_actions", max_actions, minimum=1)
    check_seed_int(seed, "seed")  # as new_game's seed
    return _Job(played, players, _factories(bots, players), seed, max_actions)


def _play_here(job: _Job, games: int, progress: ProgressCallback | None) -> list[GameResult]:
    """The games of ``job`` played in this process, in index order."""
    results = []
    for i in range(games):
        results.append(_play_one(job, i))
        if progress is not None:
            progress(i + 1, games)
    return results


def _play_on(
    executor: Executor,
    job: _Job,
    games: int,
    chunk_size: int | None,
    bots: BotSpec,
    progress: ProgressCallback | None,
) -> list[GameResult]:
    """The games of ``job`` played on ``executor`` in chunks (see :func:`simulate`), in index order.

    Raises:
        SimulationError: ``chunk_size`` is not a positive int, or the job does
            not pickle for an executor that needs it to (``bots`` names it).
    """
    size = _check_count("chunk_size", chunk_size, minimum=1) if chunk_size is not None else max(1, -(-games // 32))
    if not isinstance(executor, ThreadPoolExecutor):
        try:
            pickle.dumps(job)
        except Exception as error:
            msg = f"to run on {type(executor).__name__}, the ruleset and bot factories must pickle: {error}"
            raise SimulationError(SimulationReason.BAD_ARGUMENT, bots, msg) from None
    futures: list[Future[list[GameResult]]] = [
        executor.submit(_play_chunk, job, range(start, min(start + size, games))) for start in range(0, games, size)
    ]
    gathered: list[GameResult] = []
    try:
        for future in as_completed(futures):
            gathered.extend(future.result())
            if progress is not None:
                progress(len(gathered), games)
    finally:
        for future in futures:
            future.cancel()
    gathered.sort(key=lambda g: g.index)
    return gathered
