"""Engine benchmark: whole bot games, apply calls, legal_actions and the memory of a state.

Run ``python benchmarks/engine.py`` (``--quick`` for a short run). It prints
one Markdown table of medians over repeated runs, with the peers measured
in the same run:

* **RLCard** (``pip install rlcard``): its pure-Python gin rummy environment
  played by its ``RandomAgent``, steps per second. A different game (one
  52-card deal, two players) but the same kind of work per step: apply a
  move, list the legal moves. Skipped, and said so, when not installed.
* **copy-everything**: the same random games with ``copy.deepcopy`` of each
  new state, the cost of a naive engine that copies its state on every move
  instead of sharing structure.

Games use :func:`rummylib.simulation.simulation_rules` (a restock cap, R-D7)
and fixed seeds, so every run plays exactly the same moves; each repeat of
the whole games deals games no earlier repeat dealt (``SEED_STRIDE``), after
two warm-up games of other seeds. A replayed game is not a fair measure: the
engine keeps small caches of answers per hand, and a game played a second
time finds its own answers there (about a third faster per step than a
fresh game; before session 20 the random-play rows measured such replays). Times are
CPU seconds of this process (``time.process_time``), so a busy machine
slows the figures down less than wall-clock time would; every measured
thing (the peers included) runs single-threaded in this process.
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib
import itertools
import pickle
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from types import FunctionType, ModuleType
from typing import Any

from _build import build

import rummylib as rl
from rummylib import _card
from rummylib.bots import Bot, GreedyBot, LegalActions, RandomBot, derive_seed
from rummylib.engine import _cache as engine_cache
from rummylib.simulation import play_game, simulation_rules

TABLES = [("remik", rl.REMIK, 4), ("straight", rl.STRAIGHT, 4)]
Row = tuple[str, str, str]
_clock = time.process_time


def _median_time(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = _clock()
        run()
        times.append(_clock() - start)
    return statistics.median(times)


def _bots(kind: str, players: int, game: int) -> list[Bot]:
    if kind == "greedy":
        return [GreedyBot() for _ in range(players)]
    return [RandomBot(derive_seed(0, "bot", game, k)) for k in range(players)]


# --- whole games --------------------------------------------------------------------------


#: Repeat ``k`` of the whole games deals seeds ``k * SEED_STRIDE + g``: every measured game is a fresh one.
SEED_STRIDE = 1000
#: The warm-up games (imports, first-time tables, the caches' steady state) are dealt from here.
WARM_SEED = 1_000_000


def bench_games(
    kind: str,
    rules: rl.Ruleset,
    players: int,
    games: int,
    repeats: int,
    peer: Callable[[], tuple[float, int, int]] | None = None,
) -> tuple[float, float, float, tuple[float, float] | None]:
    """Games/s and actions/s over every repeat's games, the median seconds of one game, and the peer's rates.

    Each repeat plays ``games`` games no other repeat plays, so none finds its
    own answers in the engine's caches; the rates are totals over all of them
    (games differ in length and cost: a median of a few repeats would swing).
    ``peer``: a timed run of the peer (seconds, games, steps), played before
    each repeat so that both see the same machine load; its (games/s, steps/s)
    over those runs come last (None without a peer).
    """
    played = simulation_rules(rules)
    for g in range(2):
        play_game(played, players, _bots(kind, players, WARM_SEED + g), seed=WARM_SEED + g)
    actions = 0
    total = 0.0
    per_game: list[float] = []
    peer_time, peer_games, peer_steps = 0.0, 0, 0
    for k in range(repeats):
        if peer is not None:
            gc.collect()
            secs, g_count, steps = peer()
            peer_time, peer_games, peer_steps = peer_time + secs, peer_games + g_count, peer_steps + steps
        gc.collect()
        for g in range(games):
            seed = k * SEED_STRIDE + g
            start = _clock()
            actions += play_game(played, players, _bots(kind, players, seed), seed=seed).actions
            per_game.append(_clock() - start)
        total += sum(per_game[-games:])
    rates = (peer_games / peer_time, peer_steps / peer_time) if peer is not None else None
    return games * repeats / total, actions / total, statistics.median(per_game), rates


# --- apply and legal_actions on recorded random play --------------------------------------


def random_trajectory(rules: rl.Ruleset, players: int, games: int, cap: int) -> list[tuple[rl.GameState, rl.Action]]:
    """(state, action) pairs of random-bot games, at most ``cap`` per game."""
    played = simulation_rules(rules)
    pairs: list[tuple[rl.GameState, rl.Action]] = []
    for g in range(games):
        state = rl.new_game(played, players, seed=g)
        bots = _bots("random", players, g)
        for _ in range(cap):
            if state.is_over:
                break
            action = bots[state.to_act].choose(rl.view(state, state.to_act), LegalActions(state))
            pairs.append((state, action))
            state = rl.apply(state, action)
    return pairs


def bench_apply(pairs: Sequence[tuple[rl.GameState, rl.Action]], repeats: int) -> tuple[float, float]:
    """apply calls/s, and the same with a deepcopy of each new state (the copy-everything peer)."""

    def plain() -> None:
        for state, action in pairs:
            rl.apply(state, action)

    def copying() -> None:
        for state, action in pairs:
            copy.deepcopy(rl.apply(state, action))

    return len(pairs) / _median_time(plain, repeats), len(pairs) / _median_time(copying, max(1, repeats // 2))


def describe(state: rl.GameState) -> str:
    """A state in a line of notation: phase, seat, hand, top discard, table size and the turn's duties."""
    r = state.round
    seat = r.to_act
    turn = r.turn
    duties = [
        f"{name}={value}"
        for name, value in (
            ("taken", turn.taken),
            ("must_meld", turn.must_meld),
            ("must_go_out", turn.must_go_out),
            ("freed_jokers", turn.freed_jokers),
            ("melds_laid", turn.melds_laid),
            ("opening_points", turn.opening_points),
        )
        if value
    ]
    top = r.discard[-1] if r.discard else "-"
    opened = "opened" if r.opened[seat] else "not opened"
    return (
        f"{state.rules.name} {state.num_players}p {r.phase.value}, seat {seat} {opened}, hand [{r.hands[seat]}], "
        f"top {top}, {len(r.table)} table melds{', ' if duties else ''}{', '.join(duties)}"
    )


def _percentiles(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], times[int(0.99 * (len(times) - 1))]


def bench_legal(
    pairs: Sequence[tuple[rl.GameState, rl.Action]], sample: int
) -> dict[str, tuple[float, float, float, float, float, float, str]]:
    """Per phase: median, p90 and p99 µs of ``list(legal_actions)`` cold, the mean count, warm median and p99, slowest.

    Cold: the engine's per-hand caches are emptied before each listing (the
    solver's per-ruleset tables stay built, as in any long-running process).
    Warm: the same states listed in game order without emptying them (as a
    game loop meets them: the draw phase's questions about a hand come back in
    its play phase). The last item describes the slowest state (cold).
    """
    step = max(1, len(pairs) // sample)
    by_phase: dict[str, list[tuple[float, int, rl.GameState]]] = {}
    for state, _ in pairs[::step]:
        engine_cache.clear()
        start = _clock()
        n = len(list(rl.legal_actions(state)))
        elapsed = _clock() - start
        by_phase.setdefault(state.phase.value, []).append((elapsed * 1e6, n, state))
    warm: dict[str, list[float]] = {}
    engine_cache.clear()
    for state, _ in pairs:
        start = _clock()
        list(rl.legal_actions(state))
        warm.setdefault(state.phase.value, []).append((_clock() - start) * 1e6)
    out = {}
    for phase, rows in sorted(by_phase.items()):
        med, p90, p99 = _percentiles([t for t, _, _ in rows])
        warm_med, _, warm_p99 = _percentiles(warm[phase])
        slowest = max(rows, key=lambda row: row[0])
        out[phase] = (
            med,
            p90,
            p99,
            statistics.fmean(n for _, n, _ in rows),
            warm_med,
            warm_p99,
            f"{slowest[0]:,.0f} µs: {describe(slowest[2])}",
        )
    return out


def bench_most_legal(games: int) -> tuple[int, str, float, str]:
    """The most legal actions in any state of ``games`` seeded games per preset and bot kind (4 players).

    Also the slowest listing seen (seconds) and where: the worst case a server meets
    (each candidate is listed a second time, from cold caches, and the lesser time counts).
    """
    most, where, slowest, slow_where = 0, "", 0.0, ""
    for name, rules, players in TABLES:
        played = simulation_rules(rules)
        for kind in ("greedy", "random"):
            for g in range(games):
                state = rl.new_game(played, players, seed=g)
                bots = _bots(kind, players, g)
                while not state.is_over:
                    start = _clock()
                    legal = LegalActions(state)
                    n = len(legal)
                    elapsed = _clock() - start
                    if n > most:
                        most, where = n, f"{name} {kind} game {g}, {state.phase.value}"
                    if elapsed > slowest:
                        # A pause of the machine (another process, a collection) is not the state's cost:
                        # listed once more, from cold caches, the lesser time counts.
                        gc.collect()
                        engine_cache.clear()
                        again = _clock()
                        len(LegalActions(state))
                        elapsed = min(elapsed, _clock() - again)
                    if elapsed > slowest:
                        slowest, slow_where = elapsed, f"{kind} game {g}, {n} actions: {describe(state)}"
                    state = rl.apply(state, bots[state.to_act].choose(rl.view(state, state.to_act), legal))
    return most, where, slowest, slow_where


# --- memory ---------------------------------------------------------------------------------


def _shared_roots() -> set[int]:
    """Objects every game shares (card table, rulesets, enums): not counted as a state's own."""
    roots: list[object] = [_card.CARDS, rl.REMIK, rl.STRAIGHT, *rl.Phase, *rl.Suit, *rl.Rank, *rl.End]
    return {id(o) for o in _graph(roots, set())}


def _graph(roots: Iterable[object], skip: set[int]) -> list[object]:
    """Every object reachable from ``roots`` (not types, modules, functions, or ``skip``)."""
    seen: set[int] = set(skip)
    out: list[object] = []
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, ModuleType, FunctionType)):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def _size(objs: Iterable[object]) -> int:
    return sum(sys.getsizeof(o) for o in objs)


def bench_memory(rules: rl.Ruleset, players: int) -> dict[str, float]:
    """Bytes of one state, what a move adds, and tracemalloc bytes per live game and per kept state."""
    shared = _shared_roots()
    pairs = random_trajectory(rules, players, 1, 400)
    mid = pairs[len(pairs) // 2][0]
    own = _size(_graph([mid], shared))
    added = []
    for (a, _), (b, _) in itertools.pairwise(pairs):
        ids = {id(o) for o in _graph([a], shared)}
        added.append(_size(_graph([b], shared | ids)))
    pickled = len(pickle.dumps(mid))

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    games = [rl.new_game(simulation_rules(rules), players, seed=i) for i in range(2000)]
    per_game = (tracemalloc.get_traced_memory()[0] - before) / len(games)
    del games
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    history = [s for s, _ in random_trajectory(rules, players, 1, 400)]
    per_state = (tracemalloc.get_traced_memory()[0] - before) / len(history)
    tracemalloc.stop()
    return {
        "own": own,
        "added": statistics.median(added),
        "pickled": pickled,
        "per_game": per_game,
        "per_state": per_state,
    }


# --- the RLCard peer --------------------------------------------------------------------------


def rlcard_run(games: int) -> Callable[[], tuple[float, int, int]] | None:
    """One timed run of RLCard gin rummy, RandomAgent on both seats: (seconds, games, steps), or None if not installed."""
    try:
        rlcard: Any = importlib.import_module("rlcard")
        agents: Any = importlib.import_module("rlcard.agents")
        numpy: Any = importlib.import_module("numpy")
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    agent = agents.RandomAgent(num_actions=env.num_actions)

    def run() -> tuple[float, int, int]:
        steps = 0
        env.seed(1)
        numpy.random.seed(1)  # RandomAgent draws from the global numpy stream
        start = _clock()
        for _ in range(games):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(agent.step(state))
                steps += 1
        return _clock() - start, games, steps

    run()  # warm-up: imports and first-time set-up
    return run


# --- the table ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    parser.add_argument("--repeats", type=int, default=None, help="repeats per measurement (default 3, quick 2)")
    parser.add_argument(
        "--scan-games",
        type=int,
        default=None,
        help="seeded games per preset and bot kind scanned for the most legal actions",
    )
    args = parser.parse_args(argv)
    repeats = args.repeats or (2 if args.quick else 3)
    if args.scan_games is None:
        args.scan_games = 20 if args.quick else 1000
    greedy_games = 4 if args.quick else 10
    random_games = 1 if args.quick else 4

    rows: list[Row] = []
    print(
        f"rummylib {rl.__version__} ({build()}), Python {platform.python_version()}, {platform.machine()}", flush=True
    )
    peers: dict[str, tuple[float, float] | None] = {}
    for name, rules, players in TABLES:
        for kind, games in (("greedy", greedy_games), ("random", random_games)):
            # The peer takes turns with our random games, repeat by repeat, so both see the same load.
            peer_run = rlcard_run(15 if args.quick else 40) if kind == "random" else None
            gps, aps, median_game, peer_rates = bench_games(kind, rules, players, games, repeats, peer_run)
            if kind == "random":
                peers[name] = peer_rates
            rows.append(
                (f"{name} {players}p, {kind} bots: games/s", f"{gps:.2f}", f"{games} fresh games x {repeats} repeats")
            )
            rows.append((f"{name} {players}p, {kind} bots: actions/s", f"{aps:,.0f}", ""))
            rows.append(
                (
                    f"{name} {players}p, {kind} bots: s per game (median)",
                    f"{median_game:.3f}",
                    "target <= 0.1 s" if (name, kind) == ("remik", "greedy") else "",
                )
            )
            print(rows[-3:], flush=True)
    peer = peers[TABLES[0][0]]
    apply_rates: dict[str, float] = {}
    listing: dict[tuple[str, str], tuple[float, float, float]] = {}
    for name, rules, players in TABLES:
        pairs = random_trajectory(rules, players, 2, 3000)
        rate, copying = bench_apply(pairs, repeats)
        apply_rates[name] = rate
        rows.append(
            (
                f"{name} {players}p: apply calls/s (random play)",
                f"{rate:,.0f}",
                f"{len(pairs)} recorded moves; target >= 20,000",
            )
        )
        rows.append(
            (
                f"{name} {players}p: apply + deepcopy/s (copy-everything peer)",
                f"{copying:,.0f}",
                f"ratio {rate / copying:.1f}x",
            )
        )
        for phase, (med, p90, p99, count, warm_med, warm_p99, slow) in bench_legal(pairs, 300).items():
            target = "; target <= 60 µs median, <= 2 ms p99" if (name, phase) == ("remik", "play") else ""
            rows.append(
                (
                    f"{name} {players}p: list(legal_actions) in {phase}, µs",
                    f"{med:,.0f}",
                    (
                        f"cold: p90 {p90:,.0f} µs, p99 {p99:,.0f} µs, {count:.1f} actions; "
                        f"warm: median {warm_med:,.0f} µs, p99 {warm_p99:,.0f} µs{target}"
                    ),
                )
            )
            rows.append((f"{name} {players}p: slowest cold listing in {phase}", "", slow))
            listing[(name, phase)] = (med, p99, warm_med)
        mem = bench_memory(rules, players)
        rows.append(
            (f"{name} {players}p: one mid-game state, own bytes", f"{mem['own']:,.0f}", f"pickled {mem['pickled']:,} B")
        )
        rows.append(
            (
                f"{name} {players}p: bytes a move adds (median)",
                f"{mem['added']:,.0f}",
                "the rest is shared with the previous state",
            )
        )
        rows.append(
            (f"{name} {players}p: tracemalloc bytes per fresh game", f"{mem['per_game']:,.0f}", "2,000 live games")
        )
        rows.append(
            (
                f"{name} {players}p: tracemalloc bytes per kept state",
                f"{mem['per_state']:,.0f}",
                "a game's whole history kept",
            )
        )
        print(rows[-8:], flush=True)
    if peer is None:
        rows.append(("RLCard gin rummy (peer)", "n/a", "pip install rlcard to measure"))
    else:
        for name in apply_rates:  # noqa: PLC0206 - the rows, not the rates, are read
            gps, sps = peers[name] or peer
            rows.append(
                (f"RLCard gin-rummy 2p, RandomAgent: games/s (peer, beside {name})", f"{gps:.1f}", "one deal per game")
            )
            rows.append((f"RLCard gin-rummy 2p, RandomAgent: steps/s (peer, beside {name})", f"{sps:,.0f}", ""))
            rand_aps = next(r[1] for r in rows if r[0].startswith(f"{name} 4p, random bots: actions/s"))
            mine = float(rand_aps.replace(",", ""))
            rows.append(
                (
                    f"ratio {name} random actions/s : RLCard steps/s",
                    f"{mine / sps:.2f}x",
                    "whole step: view, legal list, choice, apply; target >= 3x",
                )
            )
            rows.append((f"ratio {name} apply calls/s : RLCard steps/s", f"{apply_rates[name] / sps:.2f}x", ""))
    if args.scan_games:
        most, where, slowest, slow_where = bench_most_legal(args.scan_games)
        rows.append(
            (
                f"most legal actions in any state, {args.scan_games} games x greedy/random x both presets",
                f"{most:,}",
                f"{where}; target <= 500",
            )
        )
        rows.append(("slowest legal listing seen in those games, ms", f"{slowest * 1e3:,.1f}", slow_where))
    width = max(len(r[0]) for r in rows)
    print()
    print(f"| {'measure':<{width}} | median | note |")
    print(f"|{'-' * (width + 2)}|-------:|------|")
    for label, value, note in rows:
        print(f"| {label:<{width}} | {value} | {note} |")
    print()
    print("Issue 11's table (this run):")
    print()
    print("| measure | now | target |")
    print("|---|---|---|")
    measured = {label: v for label, v, _ in rows}
    if peer is not None:
        ratios = " / ".join(measured[f"ratio {n} random actions/s : RLCard steps/s"] for n, _, _ in TABLES)
        print(f"| random-play step rate vs RLCard gin steps/s, remik 4p / straight 4p | {ratios} | >= 3x both |")
    med, p99, warm_med = listing[("remik", "play")]
    print(
        f"| list(legal_actions), remik 4p play phase | {med:,.0f} µs median, p99 {p99:,.0f} µs cold "
        f"(warm {warm_med:,.0f} µs) | <= 60 µs median, <= 2 ms p99 |"
    )
    if args.scan_games:
        print(f"| most legal actions in any state of {args.scan_games} games | {most:,} | <= 500 |")
    print(f"| greedy 4-player remik game | {measured['remik 4p, greedy bots: s per game (median)']} s | <= 0.1 s |")


if __name__ == "__main__":
    main()
