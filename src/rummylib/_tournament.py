"""Long bot tournaments: results streamed as they finish, failures reported (:func:`simulate_iter`).

:func:`~rummylib.simulate` gathers every game before it returns; a
100,000-game evaluation should not. :func:`simulate_iter` yields each game's
:class:`~rummylib.simulation.GameResult` as its chunk finishes, keeps only a
bounded number of chunks in flight (so memory does not grow with
``games``), and turns a chunk that raised (a bot's error, a worker that
died) into one :class:`GameFailure` per game it could not play: a failed
chunk is first retried game by game, so one bad game does not take its
neighbours with it. Any :class:`concurrent.futures.Executor` works,
``dask.distributed.Client.get_executor()`` included.
"""

from __future__ import annotations

import pickle
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import Final

import attrs

from rummylib.bots import SimulationError, SimulationReason
from rummylib.rules import Ruleset
from rummylib.simulation import (
    DEFAULT_MAX_ACTIONS,
    BotSpec,
    GameResult,
    _check_count,
    _factories,
    _Job,
    _play_chunk,
    simulation_rules,
)

from ._guards import check_seed_int

__all__ = ["GameFailure", "simulate_iter"]

#: Longest error text a failure keeps.
_ERROR_TEXT: Final = 500


@attrs.frozen
class GameFailure:
    """A game a simulation could not play: its bot or its worker failed.

    Attributes:
        index: the game's number in its simulation.
        seed: the seed it was to be dealt from (replay it with :func:`~rummylib.play_game`).
        error: the exception's type and message (shortened).
    """

    index: int
    seed: int
    error: str


GameFailure.__module__ = "rummylib"  # documented and imported as rummylib.GameFailure


def _failure(job: _Job, index: int, error: BaseException) -> GameFailure:
    from rummylib.bots import derive_seed

    text = f"{type(error).__name__}: {error}"
    if len(text) > _ERROR_TEXT:
        text = text[: _ERROR_TEXT - 3] + "..."
    return GameFailure(index, derive_seed(job.seed, "game", index), text)


def _serial(job: _Job, games: int) -> Iterator[GameResult | GameFailure]:
    for i in range(games):
        try:
            yield _play_chunk(job, range(i, i + 1))[0]
        except Exception as error:  # a bot's bug: report the game, go on
            yield _failure(job, i, error)


def _job(rules: Ruleset, players: int, seed: int, bots: BotSpec, max_actions: int) -> _Job:
    played = simulation_rules(rules)
    count = _check_count("players", players, minimum=1)
    played.hand_size(count)
    limit = _check_count("max_actions", max_actions, minimum=1)
    check_seed_int(seed, "seed")  # as new_game's seed
    return _Job(played, count, _factories(bots, count), seed, limit)


def simulate_iter(
    rules: Ruleset,
    players: int,
    games: int,
    *,
    seed: int,
    bots: BotSpec = "greedy",
    executor: Executor | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    chunk_size: int = 16,
    max_pending: int = 64,
) -> Iterator[GameResult | GameFailure]:
    """Play games like :func:`~rummylib.simulate`, yielding each result as it finishes.

    Game ``i`` is seeded exactly as in :func:`~rummylib.simulate`, so the
    results (sorted by ``index``) are the serial ones on any executor. They
    arrive in the order chunks finish (serially: in index order). A game
    whose chunk raised even when retried alone is yielded as a
    :class:`GameFailure`; the other games go on.

    Args:
        rules: the ruleset (a restock cap is added as :func:`~rummylib.simulate` does).
        players: seats per game.
        games: how many games.
        seed: the simulation seed.
        bots: as :func:`~rummylib.simulate`.
        executor: any :class:`~concurrent.futures.Executor`, such as
            ``dask.distributed.Client(...).get_executor()``; ``None`` plays here.
        max_actions: the per-game action limit.
        chunk_size: games per task.
        max_pending: most tasks in flight at once (bounds memory).

    Raises:
        SimulationError: a count is not a positive int, a bot is unknown or
            miscounted, or the bots do not pickle for an executor that needs them to.
        RulesetError: the ruleset does not allow ``players`` seats.

    >>> import attrs, rummylib as rl
    >>> quick = attrs.evolve(rl.STRAIGHT, max_rounds=1)
    >>> sorted(g.index for g in rl.simulate_iter(quick, 2, 3, seed=1))
    [0, 1, 2]
    """
    job = _job(rules, players, seed, bots, max_actions)
    count = _check_count("games", games, minimum=0)
    size = _check_count("chunk_size", chunk_size, minimum=1)
    pending_limit = _check_count("max_pending", max_pending, minimum=1)
    if executor is not None and not isinstance(executor, ThreadPoolExecutor):
        try:
            pickle.dumps(job)
        except Exception as error:
            msg = f"to run on {type(executor).__name__}, the ruleset and bot factories must pickle: {error}"
            raise SimulationError(SimulationReason.BAD_ARGUMENT, bots, msg) from None
    if executor is None:
        return _serial(job, count)
    return _stream(executor, job, count, size, pending_limit)


def _stream(executor: Executor, job: _Job, games: int, size: int, limit: int) -> Iterator[GameResult | GameFailure]:
    todo: deque[range] = deque(range(s, min(s + size, games)) for s in range(0, games, size))
    running: dict[Future[list[GameResult]], range] = {}
    try:
        while todo or running:
            while todo and len(running) < limit:
                work = todo.popleft()
                try:
                    running[executor.submit(_play_chunk, job, work)] = work
                except RuntimeError as error:  # the executor takes no more work (a dead worker broke it, or shut down)
                    todo.appendleft(work)
                    yield from _unplayed(job, todo, error)
                    break
            if not running:
                continue
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                work = running.pop(future)
                try:
                    results = future.result()
                except Exception as error:  # the chunk's bot or worker failed
                    if len(work) > 1:  # retry alone, so one bad game does not fail its chunk-mates
                        todo.extendleft(range(i, i + 1) for i in reversed(work))
                    else:
                        yield _failure(job, work.start, error)
                    continue
                yield from results
    finally:
        for future in running:
            future.cancel()


def _unplayed(job: _Job, todo: deque[range], error: BaseException) -> Iterator[GameFailure]:
    """Every game still to play, as a failure: the executor cannot run them (none is lost)."""
    while todo:
        for i in todo.popleft():
            yield _failure(job, i, error)
