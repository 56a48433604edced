"""Tournaments at scale: simulate_iter streams results, reports failed games, runs on dask."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import attrs
import pytest

import rummylib as rl
from rummylib.bots import Bot, GreedyBot, derive_seed

QUICK = attrs.evolve(rl.STRAIGHT, max_rounds=1)
SEED = 21


class _Fails:
    """A picklable bot factory that raises when building the first seat of one game."""

    def __init__(self, game: int) -> None:
        self.bad_seed = derive_seed(SEED, "bot", game, 0)

    def __call__(self, seed: int) -> Bot:
        if seed == self.bad_seed:
            raise RuntimeError("this bot is broken")
        return GreedyBot()


def _serial(games: int) -> list[rl.simulation.GameResult]:
    return list(rl.simulate(QUICK, 2, games, seed=SEED).games)


def test_serial_stream_is_the_simulation_in_order() -> None:
    assert list(rl.simulate_iter(QUICK, 2, 7, seed=SEED)) == _serial(7)


def test_a_failed_game_is_reported_and_the_rest_are_played() -> None:
    serial = _serial(8)
    for executor in (None, ThreadPoolExecutor(max_workers=2)):
        out = list(rl.simulate_iter(QUICK, 2, 8, seed=SEED, bots=_Fails(5), executor=executor, chunk_size=3))
        failures = [g for g in out if isinstance(g, rl.GameFailure)]
        assert [(f.index, f.seed) for f in failures] == [(5, derive_seed(SEED, "game", 5))]
        assert "RuntimeError: this bot is broken" in failures[0].error
        results = sorted((g for g in out if isinstance(g, rl.simulation.GameResult)), key=lambda g: g.index)
        assert results == [g for g in serial if g.index != 5]
        if executor is not None:
            executor.shutdown()


class _Dies:
    """A picklable bot factory whose worker process dies (as on an out-of-memory kill) in one game."""

    def __init__(self, game: int) -> None:
        self.bad_seed = derive_seed(SEED, "bot", game, 0)

    def __call__(self, seed: int) -> Bot:
        if seed == self.bad_seed:
            os._exit(3)
        return GreedyBot()


def test_a_dead_worker_process_loses_no_game() -> None:
    # A worker that dies breaks a process pool for good: every game it has not
    # played comes back as a GameFailure with its seed, none is lost and nothing raises.
    serial = {g.index: g for g in _serial(8)}
    with ProcessPoolExecutor(max_workers=1) as pool:
        out = list(rl.simulate_iter(QUICK, 2, 8, seed=SEED, bots=_Dies(5), executor=pool, chunk_size=2))
    assert sorted(g.index for g in out) == list(range(8))
    failures = [g for g in out if isinstance(g, rl.GameFailure)]
    assert 5 in {f.index for f in failures}
    assert all(f.seed == derive_seed(SEED, "game", f.index) and "BrokenProcessPool" in f.error for f in failures)
    assert all(g == serial[g.index] for g in out if not isinstance(g, rl.GameFailure))


class _Counting(Executor):
    """Runs tasks on a thread pool and records the most tasks in flight (submitted, not done) at once.

    A task counts as in flight until its future is done, as the caller sees it: a future wakes its
    waiters before it runs its done-callbacks, so a count kept by a callback could still hold a task
    the caller has already seen finish (and then a new task, submitted at once, would count three).
    """

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=4)
        self.futures: list[Future[Any]] = []
        self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = self.pool.submit(fn, *args, **kwargs)
        self.futures = [f for f in self.futures if not f.done()]
        self.futures.append(future)
        self.most = max(self.most, len(self.futures))
        return future


def test_only_a_bounded_number_of_chunks_is_in_flight() -> None:
    counting = _Counting()
    got = list(rl.simulate_iter(QUICK, 2, 12, seed=SEED, executor=counting, chunk_size=1, max_pending=2))
    counting.pool.shutdown()
    assert counting.most <= 2
    assert sorted(got, key=lambda g: g.index) == _serial(12)


@pytest.mark.parametrize(
    "kwargs", [{"chunk_size": 0}, {"max_pending": 0}, {"games": -1}, {"seed": "x"}, {"seed": 10**5000}]
)
def test_bad_stream_arguments_are_refused(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"games": 2, "seed": 1, **kwargs}
    with pytest.raises(rl.SimulationError):
        rl.simulate_iter(QUICK, 2, **args)


def test_a_tournament_on_a_dask_cluster_gives_the_serial_results() -> None:
    distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install 'rummylib[dask]'")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert rl.simulate(QUICK, 2, 6, seed=SEED, executor=executor, chunk_size=2) == rl.simulate(
            QUICK, 2, 6, seed=SEED
        )
        streamed = rl.simulate_iter(QUICK, 2, 6, seed=SEED, executor=executor, chunk_size=2, bots=_Fails(1))
        out = sorted(streamed, key=lambda g: g.index)
    assert isinstance(out[1], rl.GameFailure)
    assert [g for g in out if not isinstance(g, rl.GameFailure)] == [g for g in _serial(6) if g.index != 1]
