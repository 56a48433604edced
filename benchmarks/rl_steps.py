"""A fixed run of PettingZoo steps for instruction counts: the loop of ``rl.py``, and its parts without the environment.

``rl.py`` times the environment on a shared host, where the same run moves by
up to 60%; this script plays the same steps so that ``valgrind --tool=callgrind``
can count them instead. Count a run and a set-up-only run (``--steps 0``:
the imports, the environment and one reset) and divide the difference by the
steps; compare two commits with the same command. ``--warm-up N`` plays N
steps of other games first, in both runs, so that neither counts what only
the first steps pay (lazy imports, first-time tables)::

    export PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1
    valgrind --tool=callgrind --callgrind-out-file=run.out python benchmarks/rl_steps.py remik --steps 3000
    valgrind --tool=callgrind --callgrind-out-file=base.out python benchmarks/rl_steps.py remik --steps 0

``OPENBLAS_NUM_THREADS=1``: numpy's OpenBLAS otherwise starts a thread per
core whose idle spinning callgrind counts too (4M to 22M instructions from run
to run, more than a 1% change of 3,000 remik steps); with it, two runs of the
same code agree within 0.1M. A step is ``rl.py``'s: ``last()`` (observation and
mask), the legal ids read by ``np.flatnonzero(mask.view(bool))``, and ``step``
with a uniformly random one (``--part env``). The other parts play the same
moves without the environment, each adding one piece of its step: ``engine``
(the listing of ``{id: action}`` and ``apply_listed``), ``observation`` (+ the
observation vector), ``mask`` (+ the mask array), ``pick`` (+ the ids read
from the mask, as the loop does). It prints the steps, games and a checksum
of the ids played (the same on two commits that play the same moves).
"""

from __future__ import annotations

import argparse
import functools
from typing import Any

import numpy as np

import rummylib as rl
from rummylib.actions import NextRound
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.engine import Phase, apply, new_game
from rummylib.engine._listed import apply_listed
from rummylib.rl._common import engine_seed
from rummylib.rl._observe import StateObserver
from rummylib.simulation import simulation_rules

TABLES = {"remik": (rl.REMIK, 4), "straight": (rl.STRAIGHT, 2)}
PARTS = ("env", "engine", "observation", "mask", "pick")
#: The warm-up's games are dealt from these seeds on (the measured ones from 0).
WARM_SEED = 1_000_000


def _mix(checksum: int, action_id: int) -> int:
    return (checksum * 31 + action_id) % 1_000_000_007


def env_steps(rules: rl.Ruleset, players: int, steps: int, first: int = 0) -> tuple[int, int, int]:
    """``rl.py``'s PettingZoo loop (bool-view ids): steps, games and the checksum of the ids played.

    The games are dealt by ``reset(seed=first)``, ``reset(seed=first + 1)``, ...
    """
    from rummylib.rl import env

    e = env(rules=rules, players=players)
    e.reset(seed=12345)  # in the set-up too
    rng = np.random.default_rng(0)
    done = game = checksum = 0
    while done < steps:
        e.reset(seed=first + game)
        game += 1
        for _agent in e.agent_iter():
            obs, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            pick = int(legal[rng.integers(len(legal))])
            checksum = _mix(checksum, pick)
            e.step(pick)
            done += 1
            if done >= steps:
                break
    return done, game, checksum


def part_steps(rules: rl.Ruleset, players: int, steps: int, part: str, first: int = 0) -> tuple[int, int, int]:
    """The same moves without the environment, with the pieces of its step up to ``part``."""
    level = PARTS.index(part)
    codec, observer = ActionCodec(rules, players), StateObserver(ObservationEncoder(rules, players), np)
    shape, int8 = (codec.size,), np.dtype(np.int8)
    rng = np.random.default_rng(0)
    done = game = checksum = 0
    while done < steps:
        state = new_game(rules, players, seed=engine_seed(np.random.default_rng(first + game)))  # reset(seed=...)
        game += 1
        while True:
            legal = codec._listed_by_id(state)
            mask: Any = None
            if level >= 2:
                observer(state, state.round.to_act)
            if level >= 3:
                mask = np.ndarray(shape, int8, codec._mask(legal))
            ids = np.flatnonzero(mask.view(np.bool_)) if level >= 4 else sorted(legal)
            pick = int(ids[rng.integers(len(ids))])
            checksum = _mix(checksum, pick)
            state = apply_listed(state, legal[pick])
            done += 1
            if state.is_over or done >= steps:
                break
            if state.phase is Phase.ROUND_OVER:
                state = apply(state, NextRound())
    return done, game, checksum


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", choices=sorted(TABLES), help="remik with 4 players or straight with 2")
    parser.add_argument("--steps", type=int, default=3000, help="steps to play (0: the set-up only)")
    parser.add_argument("--part", choices=PARTS, default="env", help="the environment, or a part of its step")
    parser.add_argument("--warm-up", type=int, default=0, help="steps of other games played first, in the set-up too")
    args = parser.parse_args(argv)
    base, players = TABLES[args.table]
    rules = simulation_rules(base)  # as rl.py: with a restock cap (R-D7)
    play = env_steps if args.part == "env" else functools.partial(part_steps, part=args.part)
    play(rules, players, args.warm_up, first=WARM_SEED)  # lazy imports and first-time tables, out of the count
    done, games, checksum = play(rules, players, args.steps)
    print(f"{args.table} {args.part}: {done} steps, {games} games, checksum {checksum}")


if __name__ == "__main__":
    main()
