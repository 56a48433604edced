"""Many games between bots, serially or on any :class:`concurrent.futures.Executor`.

>>> import rummylib as rl
>>> result = rl.simulate(rl.REMIK, 4, 2, seed=1, bots="greedy")
>>> len(result.games), result.summary.completed, round(sum(result.summary.win_rate), 6)
(2, 2, 1.0)
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from typing import Final, TypeAlias

import attrs

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
from rummylib.engine._rng import MAX_SEED_DIGITS
from rummylib.errors import shorten
from rummylib.records._record import MAX_ACTIONS
from rummylib.rules import Ruleset

from ._guards import is_int

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


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _game_tuple(values: Iterable[GameResult]) -> tuple[GameResult, ...]:
    return tuple(values)


@attrs.frozen
class GameResult:
    """How one game between bots ended.

    Attributes:
        index: the game's number in its simulation (0 for :func:`play_game`).
        seed: the seed the game was dealt from.
        totals: each seat's final running total.
        winners: the seats sharing the win (empty if the game was aborted).
        rounds: rounds played, void rounds included.
        void_rounds: rounds nobody went out of (R-D7).
        actions: actions applied, ``NextRound`` included.
        aborted: whether the game hit the action limit before it ended.
    """

    index: int
    seed: int
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    winners: tuple[int, ...] = attrs.field(converter=_ints)
    rounds: int
    void_rounds: int
    actions: int
    aborted: bool


@attrs.frozen
class SimulationSummary:
    """Statistics over the games of a simulation that ran to the end.

    Aborted games are counted but left out of every mean and rate. A shared
    win counts ``1/k`` to each of the ``k`` winners, so win rates sum to 1.

    Attributes:
        games: games played.
        completed: games that ended by the rules.
        aborted: games stopped at the action limit.
        win_rate: per seat, its share of the completed games' wins.
        mean_score: per seat, its mean final total.
        mean_rounds: mean rounds per game.
        mean_void_rounds: mean void rounds per game.
        mean_actions: mean actions per game (the game length).
    """

    games: int
    completed: int
    aborted: int
    win_rate: tuple[float, ...]
    mean_score: tuple[float, ...]
    mean_rounds: float
    mean_void_rounds: float
    mean_actions: float


@attrs.frozen
class SimulationResult:
    """Every game of a simulation, in order, and their summary.

    Attributes:
        rules: the ruleset the games were played with (restock cap included).
        players: seats per game.
        seed: the simulation seed.
        games: one :class:`GameResult` per game, by index.
    """

    rules: Ruleset
    players: int
    seed: int
    games: tuple[GameResult, ...] = attrs.field(converter=_game_tuple)

    @property
    def summary(self) -> SimulationSummary:
        """Win rates, mean scores and game lengths (see :class:`SimulationSummary`)."""
        n = self.players
        done = [g for g in self.games if not g.aborted]
        wins = [0.0] * n
        scores = [0.0] * n
        for g in done:
            for w in g.winners:
                wins[w] += 1 / len(g.winners)
            for seat, total in enumerate(g.totals):
                scores[seat] += total
        count = len(done)

        def mean(values: Iterable[float]) -> float:
            return math.fsum(values) / count if count else math.nan

        return SimulationSummary(
            games=len(self.games),
            completed=count,
            aborted=len(self.games) - count,
            win_rate=tuple(w / count if count else math.nan for w in wins),
            mean_score=tuple(s / count if count else math.nan for s in scores),
            mean_rounds=mean(g.rounds for g in done),
            mean_void_rounds=mean(g.void_rounds for g in done),
            mean_actions=mean(g.actions for g in done),
        )


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

    Returns the last state and the number of actions played.
    """
    actions = 0
    while not state.is_over and actions < max_actions:
        seat = state.to_act
        legal = SeatActions(LegalActions(state))  # the bot sees its view, never the state (R-H1)
        try:
            action = bots[seat].choose(view(state, seat), legal)
        except SimulationError as error:
            if error.reason is not SimulationReason.NO_LEGAL_ACTION or legal:
                raise
            msg = (f"game seed={seed!r}: after {actions} actions the engine offers seat {seat} "
                   f"no legal action in phase {state.phase.value!r} (an engine dead end)")  # fmt: skip
            raise SimulationError(SimulationReason.NO_LEGAL_ACTION, state, msg) from None
        state = apply(state, action)
        actions += 1
    return state, actions


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
    played = simulation_rules(rules)
    _check_count("players", players, minimum=1)
    played.hand_size(players)  # RulesetError if the table size is not allowed
    _check_count("games", games, minimum=0)
    _check_count("max_actions", max_actions, minimum=1)
    if not (is_int(seed) and abs(seed) < 10**MAX_SEED_DIGITS):  # as new_game's seed
        msg = f"seed must be an int of at most {MAX_SEED_DIGITS} digits, not {shorten(seed)}"
        raise SimulationError(SimulationReason.BAD_ARGUMENT, seed, msg)
    job = _Job(played, players, _factories(bots, players), seed, max_actions)
    if executor is None:
        return SimulationResult(played, players, seed, _play_here(job, games, progress))
    return SimulationResult(played, players, seed, _play_on(executor, job, games, chunk_size, bots, progress))


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
