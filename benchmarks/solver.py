"""Benchmark the exact solver against its peers on the same fixed, seeded inputs.

Run ``python benchmarks/solver.py`` (``--quick`` for a short run). For each
workload it prints the median and 99th percentile time per call of
rummylib and of each installed peer, measured in the same run on the same
inputs, the ratio of the medians, and whether both found the same optimum on
every input. Peers that are not installed are reported as skipped:

- HiGHS through ``scipy.optimize.milp`` on the integer programme (one integer
  variable per candidate meld, card-count rows, the clean-run row; Den Hertog
  and Hulshof 2006); scipy is in the ``bench`` extra, never a runtime dependency;
- RLCard's pure-Python gin rummy melding (``get_best_meld_clusters``);
- OpenSpiel's C++ ``GinRummyUtils.min_deadwood``.

Gin rummy's deadwood is exactly ``best_partition`` under the straight rules
(ace low, J-K 10), so those peers run on the 10-card straight workload.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from _build import build

import rummylib as rl
from rummylib import REMIK, STRAIGHT, CardMultiset, Ruleset
from rummylib.solver._search import card_penalties
from rummylib.solver._tables import piece_tables

Peer = Callable[[Any], object]


def deal(rules: Ruleset, size: int, seed: int) -> CardMultiset:
    """``size`` cards off the top of a deck shuffled with ``random.Random(seed)``."""
    cards = list(rl.deck(rules))
    random.Random(seed).shuffle(cards)
    return CardMultiset(cards[:size])


def timed(fn: Callable[[Any], object], inputs: Sequence[Any]) -> tuple[list[float], list[object]]:
    times: list[float] = []
    results: list[object] = []
    for item in inputs:
        start = time.perf_counter()
        out = fn(item)
        times.append(time.perf_counter() - start)
        results.append(out)
    return times, results


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


# --- peers ------------------------------------------------------------------------------


def highs_peer(rules: Ruleset, objective: str) -> Peer | None:
    """The integer programme solved by HiGHS, or None if scipy is missing."""
    try:
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import csr_matrix
    except ImportError:
        return None
    shapes = piece_tables(rules).shapes
    pens = card_penalties(rules)

    def solve(hand: CardMultiset) -> object:
        counts = hand.counts
        jokers = hand.jokers if rules.jokers else 0
        cand = [s for s in shapes if s.jokers <= jokers and all(counts[c] for c in s.naturals)]
        total = sum(pens[c] * n for c, n in enumerate(counts[:52])) + jokers * pens[52]
        if not cand:
            return total if objective == "partition" else None
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        for k, s in enumerate(cand):
            for c in s.naturals:
                rows.append(c)
                cols.append(k)
                vals.append(1.0)
            if s.jokers:
                rows.append(52)
                cols.append(k)
                vals.append(float(s.jokers))
        upper = [float(counts[c]) for c in range(52)] + [float(jokers)]
        lower = [0.0] * 53
        if objective == "opening" and rules.opening_clean_run:
            for k, s in enumerate(cand):
                if s.clean:
                    rows.append(53)
                    cols.append(k)
                    vals.append(1.0)
            upper.append(np.inf)
            lower.append(1.0)
        if objective == "opening" and rules.must_discard_to_go_out:
            # R-T3: the opening leaves a card for the discard (best_opening's default keep).
            for k, s in enumerate(cand):
                rows.append(len(upper))
                cols.append(k)
                vals.append(float(s.size))
            upper.append(float(sum(counts[:52]) + jokers - 1))
            lower.append(0.0)
        a = csr_matrix((vals, (rows, cols)), shape=(len(upper), len(cand)))
        if objective == "partition":
            gain = np.array([sum(pens[c] for c in s.naturals) + s.jokers * pens[52] for s in cand], dtype=float)
        else:
            gain = np.array([float(s.points) for s in cand])
        res = milp(
            -gain,
            constraints=LinearConstraint(a, lower, upper),
            integrality=np.ones(len(cand)),
            bounds=Bounds(0, np.inf),
        )
        if objective == "partition":
            return round(total + res.fun)
        if res.x is None:
            return None
        points = round(-res.fun)
        return points if points >= rules.opening_points else None

    return solve


def rlcard_peer() -> Peer | None:
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None

    def convert(hand: CardMultiset) -> list[Any]:
        out = []
        for c in hand:
            rank = str(c.rank).replace("10", "T")
            out.append(RLCard(str(c.suit), rank))
        return out

    def solve(hand: list[Any]) -> object:
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return utils.get_deadwood_count(hand, [])
        return utils.get_deadwood_count(hand, clusters[0])

    solve.convert = convert  # type: ignore[attr-defined]
    return solve


def openspiel_peer() -> Peer | None:
    try:
        import pyspiel
    except ImportError:
        return None
    gin_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def convert(hand: CardMultiset) -> list[int]:
        # OpenSpiel numbers a card suit * 13 + rank (ace 0), suits in its own order s, c, d, h.
        order = {"S": 0, "C": 1, "D": 2, "H": 3}
        return [order[str(c.suit)] * 13 + int(c.rank or 0) - 1 for c in hand]

    def solve(hand: list[int]) -> object:
        return gin_utils.min_deadwood(hand)

    solve.convert = convert  # type: ignore[attr-defined]
    return solve


# --- workloads --------------------------------------------------------------------------


def opening_points(hand: CardMultiset, rules: Ruleset) -> object:
    o = rl.best_opening(hand, rules)
    return None if o is None else o.points


def partition_penalty(hand: CardMultiset, rules: Ruleset) -> object:
    return rl.best_partition(hand, rules).penalty


def go_out_inputs(count: int) -> list[tuple[CardMultiset, list[rl.Meld]]]:
    """A 14-card remik hand and a table of 10 melds made from the rest of the deck."""
    out = []
    for seed in range(count):
        cards = list(rl.deck(REMIK))
        random.Random(1000 + seed).shuffle(cards)
        hand = CardMultiset(cards[:14])
        table: list[rl.Meld] = []
        rest = CardMultiset(cards[14:60])
        for m in rl.best_partition(rest, REMIK).melds:
            if len(table) < 10:
                table.append(m)
        out.append((hand, table))
    return out


def ms(seconds: float) -> str:
    """Milliseconds, with four significant digits below 1 ms (a 10-card call takes microseconds)."""
    return f"{seconds * 1e3:.3f}" if seconds >= 1e-3 else f"{seconds * 1e3:.4g}"


def row(name: str, n: int, ours: list[float], peer_name: str, peer: list[float] | None, same: str) -> None:
    med = statistics.median(ours)
    cells = [name, str(n), ms(med), ms(p99(ours))]
    if peer is None:
        cells += [peer_name, "skipped", "", "", same]
    else:
        pm = statistics.median(peer)
        cells += [peer_name, ms(pm), ms(p99(peer)), f"{pm / med:.2f}x", same]
    print("| " + " | ".join(cells) + " |", flush=True)


def run_workload(
    name: str, inputs: list[CardMultiset], ours: Callable[[CardMultiset], object], peers: list[tuple[str, Peer | None]]
) -> None:
    plain = [list(h) for h in inputs]  # what users pass: a plain list of cards
    for item in plain[:3]:
        ours(item)  # warm the per-ruleset tables
    our_times, our_results = timed(ours, plain)
    if not peers:
        row(name, len(inputs), our_times, "-", None, "")
    for peer_name, peer in peers:
        if peer is None:
            row(name, len(inputs), our_times, peer_name, None, "n/a")
            continue
        convert = getattr(peer, "convert", None)
        peer_inputs = [convert(h) for h in inputs] if convert else inputs
        for item in peer_inputs[:3]:
            peer(item)
        peer_times, peer_results = timed(peer, peer_inputs)
        agree = sum(1 for a, b in zip(our_results, peer_results) if a == b)
        same = "yes" if agree == len(inputs) else f"NO ({len(inputs) - agree} differ)"
        row(name, len(inputs), our_times, peer_name, peer_times, same)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer inputs per workload")
    args = parser.parse_args(argv)
    small = 100 if args.quick else 1000
    large = 5 if args.quick else 40
    print(f"rummylib {rl.__version__} ({build()}), Python {sys.version.split()[0]}; times in ms per call")
    print()
    print("| workload | inputs | median | p99 | peer | peer median | peer p99 | peer/ours | same optimum |")
    print("|---|---|---|---|---|---|---|---|---|")
    highs_open = highs_peer(REMIK, "opening")
    highs_part_r = highs_peer(REMIK, "partition")
    highs_part_s = highs_peer(STRAIGHT, "partition")

    hands14 = [deal(REMIK, 14, s) for s in range(small)]
    run_workload(
        "best_opening, 14-card remik hands", hands14, lambda h: opening_points(h, REMIK), [("HiGHS milp", highs_open)]
    )
    hands10 = [deal(STRAIGHT, 10, s) for s in range(small)]
    run_workload(
        "best_partition, 10-card straight hands",
        hands10,
        lambda h: partition_penalty(h, STRAIGHT),
        [("RLCard gin", rlcard_peer()), ("OpenSpiel C++", openspiel_peer()), ("HiGHS milp", highs_part_s)],
    )
    for size in (54, 80, 108):
        count = {54: large, 80: max(3, large // 4), 108: 1}[size]
        multisets = [deal(REMIK, size, 7000 + s) for s in range(count)]
        run_workload(
            f"best_partition, {size}-card remik multisets",
            multisets,
            lambda h: partition_penalty(h, REMIK),
            [("HiGHS milp", highs_part_r)],
        )
        run_workload(
            f"best_opening, {size}-card remik multisets",
            multisets,
            lambda h: opening_points(h, REMIK),
            [("HiGHS milp", highs_open)],
        )
    melds3 = [list(rl.parse_cards(text)) for text in ("5H 6H 7H", "8S 8H 8D", "JK 10S JS", "QH KH AH")] * (small // 4)
    meld_times, _ = timed(lambda cards: rl.make_meld(cards, REMIK), melds3)
    row("make_meld, a valid 3-card meld", len(melds3), meld_times, "-", None, "")
    cases = go_out_inputs(max(20, small // 10))

    def go(case: tuple[CardMultiset, list[rl.Meld]]) -> object:
        return rl.plan_go_out(case[0], case[1], REMIK, opened=True)

    go(cases[0])
    go_times, _ = timed(go, cases)
    row("plan_go_out, 14-card hand vs 10 table melds", len(cases), go_times, "-", None, "")

    gc.collect()
    tracemalloc.start()
    rl.best_partition(rl.deck(REMIK), REMIK)
    rl.best_opening(rl.deck(REMIK), REMIK)
    for h in [deal(REMIK, 54, 7000 + s) for s in range(large)]:
        rl.best_partition(h, REMIK)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print()
    print(f"peak traced memory over the 54- and 108-card runs: {peak / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
