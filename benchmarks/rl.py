"""Learning-environment benchmark: PettingZoo steps/s against RLCard's gin rummy, and encoding costs.

Run ``python benchmarks/rl.py`` (``--quick`` for a short run; needs ``pip install -e '.[rl]' rlcard``).
It prints one Markdown table of medians over repeated runs, peers measured in the same run:

* **rummylib PettingZoo** (``rummylib.rl.env``, the wrapped AEC environment):
  every step reads ``last()`` (observation vector and action mask) and plays a
  uniformly random action of the mask, remik with 4 players and straight with 2
  (with a restock cap, R-D7, as simulations use).
* **RLCard gin rummy** (``rlcard.make("gin-rummy")``): every step takes a uniformly
  random action of ``state["legal_actions"]`` and calls ``env.step``, which builds
  its next observation (5x52) and legal actions, the same work per step.
* **encoding**: one :class:`~rummylib.encoding.ObservationEncoder` vector of an
  already built view (as numpy), the same vector by the environments' fast path
  (``rummylib.rl._observe.StateObserver``, straight from the state, with no view:
  states in the order of play, as an environment meets them), and one
  mask from an already listed set of legal actions (:class:`~rummylib.encoding.ActionCodec`
  ids), in microseconds, over the states of random games; ``legal_actions`` (the
  engine's listing, which the mask needs) is shown for scale.

Seeds are fixed, so every run plays the same moves; each repeat of an
environment deals games no earlier repeat dealt (``SEED_STRIDE``), after a
warm-up run of other seeds. A replayed game is not a fair measure: the engine
keeps small caches of answers per hand, and a game played a second time finds
its own answers there (about a quarter faster per step; before session 20 the
environment rows measured such replays). Times are CPU seconds of this process
(``time.process_time``), everything single-threaded in this process.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
from _build import build

import rummylib as rl
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.simulation import simulation_rules

_clock = time.process_time
TABLES = [("remik", rl.REMIK, 4), ("straight", rl.STRAIGHT, 2)]


def _median(run: Callable[[], float], repeats: int) -> float:
    out = []
    for _ in range(repeats):
        gc.collect()
        out.append(run())
    return statistics.median(out)


def _interleaved(runs: dict[str, Callable[[], float]], repeats: int) -> dict[str, float]:
    """Median of each run over ``repeats`` rounds that take turns (a, b, c, a, b, c, ...), after a warm-up round."""
    for run in runs.values():
        run()
    out: dict[str, list[float]] = {key: [] for key in runs}
    for _ in range(repeats):
        for key, run in runs.items():
            gc.collect()
            out[key].append(run())
    return {key: statistics.median(values) for key, values in out.items()}


#: Per-step CPU times (µs) of the last measured run of each environment, for the median and p99 columns.
STEP_TIMES: dict[str, list[float]] = {}


#: Call ``k`` of :func:`pettingzoo_steps` deals its games from seed ``k * SEED_STRIDE`` on: every game is fresh.
SEED_STRIDE = 1000
_CALLS = itertools.count(1)  # call 0's seeds: the warm-up's


def pettingzoo_steps(rules: rl.Ruleset, players: int, steps: int, *, bool_view: bool = False) -> float:
    """Steps per second of masked uniformly random play in ``rummylib.rl.env``.

    One step is ``last()`` (observation vector and mask), the legal ids read
    from the mask, and ``step(id)``; the per-step times of the run are kept in
    :data:`STEP_TIMES`. ``bool_view``: read the ids with
    ``np.flatnonzero(mask.view(bool))`` (zero-copy, exact for a 0/1 mask)
    instead of ``np.flatnonzero(mask)``: numpy's ``nonzero`` on an int8 array
    is about 25 times slower than on a bool one, which on remik's 27,579-id
    mask costs more than the environment's whole step.
    """
    from rummylib.rl import env

    e = env(rules=simulation_rules(rules), players=players)
    rng = np.random.default_rng(0)
    done, game = 0, next(_CALLS) * SEED_STRIDE
    times: list[float] = []
    start = _clock()
    while done < steps:
        e.reset(seed=game)
        game += 1
        for _agent in e.agent_iter():
            t0 = _clock()
            obs, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask.view(np.bool_) if bool_view else mask)
            e.step(int(legal[rng.integers(len(legal))]))
            times.append((_clock() - t0) * 1e6)
            done += 1
            if done >= steps:
                break
    rate = done / (_clock() - start)
    STEP_TIMES[f"{rules.name} {players}p{' bool' if bool_view else ''}"] = times
    return rate


def rlcard_steps(steps: int) -> float | None:
    """Steps per second of RLCard's gin rummy environment played the same way, or None if absent."""
    try:
        import rlcard
    except ImportError:
        return None
    e = rlcard.make("gin-rummy", config={"seed": 0})
    rng = np.random.default_rng(0)
    done = 0
    times: list[float] = []
    start = _clock()
    while done < steps:
        state, _ = e.reset()
        while not e.is_over() and done < steps:
            t0 = _clock()
            legal = list(state["legal_actions"])
            state, _ = e.step(legal[rng.integers(len(legal))])
            times.append((_clock() - t0) * 1e6)
            done += 1
    rate = done / (_clock() - start)
    STEP_TIMES["rlcard"] = times
    return rate


def _step_stats(key: str) -> str:
    times = sorted(STEP_TIMES.get(key, []))
    if not times:
        return "-"
    return f"{statistics.median(times):.0f} / {times[int(0.99 * (len(times) - 1))]:.0f}"


def _states(rules: rl.Ruleset, players: int, count: int) -> list[rl.GameState]:
    played = simulation_rules(rules)
    pick = random.Random(0)
    out: list[rl.GameState] = []
    seed = 0
    while len(out) < count:
        state = rl.new_game(played, players, seed=seed)
        seed += 1
        while not state.is_over and len(out) < count:
            if state.phase is not rl.Phase.ROUND_OVER:
                out.append(state)
            legal = [a for a in rl.legal_actions(state) if not isinstance(a, rl.Open)]
            state = rl.apply(state, legal[pick.randrange(len(legal))])
    return out


def encoding_costs(rules: rl.Ruleset, players: int, count: int, repeats: int) -> tuple[float, float, float, float]:
    """Microseconds per state: observation vector, the environments' fast path, mask from listed actions, legal_actions."""
    from rummylib.rl._observe import StateObserver

    played = simulation_rules(rules)
    states = _states(rules, players, count)
    views = [rl.view(s, s.to_act) for s in states]
    listed = [[a for a in rl.legal_actions(s) if not isinstance(a, rl.Open)] for s in states]
    enc, codec = ObservationEncoder(played, players), ActionCodec(played, players)

    def obs() -> float:
        start = _clock()
        for v in views:
            np.fromiter(enc.encode(v), dtype=np.float32, count=enc.size)
        return (_clock() - start) / len(views) * 1e6

    def fast() -> float:
        observer = StateObserver(ObservationEncoder(played, players), np)  # fresh caches each repeat
        start = _clock()
        for s in states:
            observer(s, s.to_act)
        return (_clock() - start) / len(states) * 1e6

    def mask() -> float:
        start = _clock()
        for actions in listed:
            m = np.zeros(codec.size, dtype=np.int8)
            m[[codec.encode(a) for a in actions]] = 1
        return (_clock() - start) / len(listed) * 1e6

    def legal() -> float:
        start = _clock()
        for s in states:
            list(rl.legal_actions(s))
        return (_clock() - start) / len(states) * 1e6

    return _median(obs, repeats), _median(fast, repeats), _median(mask, repeats), _median(legal, repeats)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps and repeats")
    args = parser.parse_args(argv)
    steps, repeats, count = (600, 3, 100) if args.quick else (10000, 5, 400)
    print(
        f"rummylib ({build()}), CPython {platform.python_version()} on {platform.machine()}, {steps} steps x {repeats} repeats\n"
    )
    print(
        "| environment | steps/s (median) | µs per step, median / p99 | RLCard gin rummy steps/s | RLCard µs, median / p99 | ours/peer (target >= 2x) |"
    )
    print("|---|---|---|---|---|---|")
    for name, rules, players in TABLES:
        # Peer and ours take turns, repeat by repeat, after one warm-up run of each, so that
        # both see the same machine load and neither pays the first run's imports and caches.
        runs: dict[str, Callable[[], float]] = {"peer": lambda: rlcard_steps(steps) or 0.0}
        for bool_view in (False, True):
            runs[str(bool_view)] = functools.partial(pettingzoo_steps, rules, players, steps, bool_view=bool_view)
        rates = _interleaved(runs, repeats)
        peer = rates["peer"]
        for bool_view in (False, True):
            ours = rates[str(bool_view)]
            ratio = f"{ours / peer:.2f}x" if peer else "peer skipped (pip install rlcard)"
            mine = _step_stats(f"{simulation_rules(rules).name} {players}p{' bool' if bool_view else ''}")
            how = "ids by np.flatnonzero(mask.view(bool))" if bool_view else "ids by np.flatnonzero(mask)"
            print(
                f"| rummylib PettingZoo, {name} {players}p, {how} | {ours:.0f} | {mine} | {peer:.0f} "
                f"| {_step_stats('rlcard')} | {ratio} |"
            )
    print(
        "\n| encoding | observation, encode of a view (us) | observation, environments' path (us) "
        "| mask from listed actions (us) | legal_actions (us) |"
    )
    print("|---|---|---|---|---|")
    for name, rules, players in TABLES:
        o, f, m, legal = encoding_costs(rules, players, count, repeats)
        print(f"| {name} {players}p | {o:.1f} | {f:.1f} | {m:.1f} | {legal:.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
