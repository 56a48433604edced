"""Hunt the exact solver's worst cases on large random multisets.

Run ``python benchmarks/worst.py`` (``--quick`` for seeds 0-9 only). For every
size (30, 40, ..., 100, 108 cards) and seed (0-29) it deals a shuffled remik
deck with ``solver.deal`` and times ``best_opening`` and ``best_partition``
(CPU time, ``time.process_time``) in one worker process. An input that runs
past ``--timeout`` seconds is reported as ``>T``: the parent kills the worker
and starts a new one, so one hard input cannot stall the hunt. With
``--check`` every answer is compared with HiGHS (``scipy.optimize.milp``, the
model of ``solver.highs_peer``) and a differing optimum is reported.

It prints the slowest inputs, per function and size the median, the worst
time and how many inputs took over 0.5 s, and the worst case overall.
``--only SIZE:SEED`` re-runs chosen inputs.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import select
import signal
import statistics
import subprocess
import sys
import time

SIZES = (30, 40, 50, 60, 70, 80, 90, 100, 108)
LIMIT = 0.5  # the seconds issues 10 and 12 allow any input


def worker(timeout: float, check: bool, changes: list[str]) -> None:
    """Read ``kind size seed`` lines, answer ``kind size seed cpu_seconds value [highs]`` lines."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import attrs
    from solver import deal, highs_peer

    import rummylib as rl
    from rummylib.solver._opening import search_opening
    from rummylib.solver._partition import search_partition
    from rummylib.solver._settings import DEFAULT_SETTINGS

    check = "--check" in sys.argv
    settings = DEFAULT_SETTINGS
    for item in changes:  # an experiment: name=value changes one search setting (a, b, ...: a tuple)
        name, value = item.split("=")
        parts = value.split(",")
        setting = tuple(int(v) if v.lstrip("-").isdigit() else v for v in parts) if "," in value else int(value)
        settings = attrs.evolve(settings, **{name: setting})
    timeout = float(sys.argv[sys.argv.index("--timeout") + 1])
    peers = {kind: highs_peer(rl.REMIK, kind) for kind in ("opening", "partition")} if check else {}
    rl.best_opening(deal(rl.REMIK, 14, 0), rl.REMIK)  # build the per-ruleset tables
    for line in sys.stdin:
        kind, size, seed = line.split()
        hand = deal(rl.REMIK, int(size), int(seed))
        start = time.process_time()
        # The kernel ends this process (SIGXCPU) once the input has used its CPU seconds.
        used = resource.getrusage(resource.RUSAGE_SELF)
        cap = math.ceil(used.ru_utime + used.ru_stime + timeout)
        resource.setrlimit(resource.RLIMIT_CPU, (cap, resource.RLIM_INFINITY))
        if kind == "opening":
            opening = search_opening(hand, rl.REMIK, settings)
            value: object = None if opening is None else opening.points
        else:
            value = search_partition(hand, rl.REMIK, settings).penalty
        spent = time.process_time() - start
        peer = peers.get(kind)
        extra = "" if peer is None else f" {peer(hand)}"
        print(f"{kind} {size} {seed} {spent:.4f} {value}{extra}", flush=True)


class Pool:
    """One worker process, restarted when an input runs past the timeout."""

    def __init__(self, check: bool, timeout: float, settings: list[str]) -> None:
        self.args = [sys.executable, os.path.abspath(__file__), "--worker", "--timeout", str(timeout)]
        self.args += ["--check"] if check else []
        self.args += ["--set", *settings] if settings else []
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, task: str, timeout: float) -> str | None:
        if self.proc is None:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(task + "\n")
        proc.stdin.flush()
        # The worker's CPU limit ends a long input; the wall clock here is only a backstop
        # (generous: the machine may be shared, and HiGHS adds its own time under --check).
        ready, _, _ = select.select([proc.stdout], [], [], timeout * 10 + 30)
        if ready:
            line = proc.stdout.readline()
            if line:
                return line
        proc.kill()
        code = proc.wait()
        self.proc = None
        if code not in (-signal.SIGXCPU, -signal.SIGKILL):
            raise SystemExit(f"the worker failed on {task!r} (exit code {code})")
        return None

    def close(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.close()
            self.proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="seeds 0-9 only")
    parser.add_argument("--seeds", type=int, default=30, help="how many seeds (default 30: seeds 0 .. 29)")
    parser.add_argument("--first-seed", type=int, default=0, help="start the seeds here (default 0)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="comma-separated sizes")
    parser.add_argument("--kinds", default="opening,partition", help="opening, partition or both")
    parser.add_argument("--timeout", type=float, default=5.0, help="CPU seconds per input before >T")
    parser.add_argument("--check", action="store_true", help="compare every optimum with HiGHS")
    parser.add_argument("--only", nargs="*", help="SIZE:SEED inputs to run instead of the grid")
    parser.add_argument("--set", nargs="*", help="NAME=VALUE: change a SearchSettings field (an experiment)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.timeout, args.check, args.set or [])
        return 0
    seeds = range(args.first_seed, args.first_seed + (10 if args.quick else args.seeds))
    grid = [(int(s), seed) for s in args.sizes.split(",") for seed in seeds]
    if args.only:
        grid = [(int(a), int(b)) for a, b in (item.split(":") for item in args.only)]
    kinds = args.kinds.split(",")
    pool = Pool(args.check, args.timeout, args.set or [])
    times: dict[tuple[str, int], list[float]] = {}
    slow: list[tuple[float, str]] = []
    wrong = 0
    for size, seed in grid:
        for kind in kinds:
            line = pool.ask(f"{kind} {size} {seed}", args.timeout)
            if line is None:
                spent, shown = float("inf"), f">{args.timeout:g}"
                print(f"{kind:9} {size:3}:{seed:<3} {shown:>8}", flush=True)
            else:
                fields = line.split()
                spent, shown = float(fields[3]), f"{float(fields[3]):.3f}"
                note = ""
                if len(fields) > 5 and fields[4] != fields[5]:
                    wrong += 1
                    note = f"  DIFFERS: ours {fields[4]}, HiGHS {fields[5]}"
                if spent > LIMIT or note:
                    print(f"{kind:9} {size:3}:{seed:<3} {shown:>8} s  value {fields[4]}{note}", flush=True)
            times.setdefault((kind, size), []).append(spent)
            slow.append((spent, f"{kind} {size}:{seed} {shown} s"))
    pool.close()
    print()
    print(f"| function | size | inputs | median s | worst s | over {LIMIT} s |")
    print("|---|---|---|---|---|---|")
    for (kind, size), spent in times.items():
        finite = [t for t in spent if t != float("inf")]
        worst = max(spent)
        shown = f">{args.timeout:g}" if worst == float("inf") else f"{worst:.3f}"
        median = statistics.median(spent) if finite else float("inf")
        over = sum(1 for t in spent if t > LIMIT)
        print(f"| best_{kind} | {size} | {len(spent)} | {median:.3f} | {shown} | {over} |")
    print()
    print("slowest:", "; ".join(text for _, text in sorted(slow, reverse=True)[:10]))
    if args.check:
        print(f"optima differing from HiGHS: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    started = time.time()
    code = main()
    if "--worker" not in sys.argv:
        print(f"wall time {time.time() - started:.0f} s")
    raise SystemExit(code)
