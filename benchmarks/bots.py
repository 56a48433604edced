"""Bot strength benchmark: SearchBot against GreedyBot, heads-up, with mirrored deals.

Run ``python benchmarks/bots.py`` (``--deals N`` mirrored deals per game,
``--jobs K`` worker processes, ``--set NAME=VALUE`` for a
:class:`~rummylib.SearchBotSettings` field, ``--quick`` for a short run). An experiment,
not a unit test: each deal is one round (R-D7 restock cap of
:func:`~rummylib.simulation.simulation_rules`) played twice, with the seats
swapped, so the luck of the cards cancels out. It prints one Markdown table
per game:

* rounds played, won by SearchBot, by GreedyBot, void (R-D7);
* the mean round score difference in SearchBot's favour (remik: Greedy's
  penalty less SearchBot's, R-S1; straight: SearchBot's points less Greedy's,
  R-S3) with a 95% confidence interval over the deals (each deal's two
  rounds averaged: the mirrored pairs are the independent samples; normal
  approximation);
* the median, 90th percentile and mean CPU time per decision of each bot
  (``time.process_time``), and their ratio: GreedyBot is the peer measured
  in the same run; and the same for the decisions SearchBot searches
  (its discards, and its draws where both the stock and the pile are legal).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

import rummylib as rl
from rummylib.bots import Bot, GreedyBot, LegalActions, SearchBot, SearchBotSettings, derive_seed
from rummylib.simulation import simulation_rules

GAMES = {"remik": rl.REMIK, "straight": rl.STRAIGHT}


@attrs.frozen
class Round:
    """One round of a mirrored pair: who won, SearchBot's lead, and each bot's decision times."""

    deal: int
    search_seat: int
    winner: int | None
    lead: int
    search_times: tuple[float, ...]
    greedy_times: tuple[float, ...]
    choice_times: tuple[float, ...]  # SearchBot's draws with a choice and its discards (what it searches)


def play_round(game: str, deal: int, search_seat: int, seed: int, settings: SearchBotSettings) -> Round:
    rules = attrs.evolve(simulation_rules(GAMES[game]), max_rounds=1)
    state = rl.new_game(rules, 2, seed=derive_seed(seed, "deal", deal), dealer=0)
    bots: list[Bot] = [GreedyBot(), GreedyBot()]
    bots[search_seat] = SearchBot(seed=derive_seed(seed, "bot", deal), settings=settings)
    times: list[list[float]] = [[], []]
    choices: list[float] = []
    while state.phase in (rl.Phase.DRAW, rl.Phase.PLAY):
        seat = state.to_act
        legal = LegalActions(state)
        start = time.process_time()
        action = bots[seat].choose(rl.view(state, seat), legal)
        spent = time.process_time() - start
        times[seat].append(spent)
        if seat == search_seat and _is_choice(action, legal):
            choices.append(spent)
        state = rl.apply(state, action)
    result = state.results[-1]
    me, other = result.scores[search_seat], result.scores[1 - search_seat]
    lead = other - me if rules.scoring is rl.Scoring.PENALTY else me - other
    search, greedy = tuple(times[search_seat]), tuple(times[1 - search_seat])
    return Round(deal, search_seat, result.winner, lead, search, greedy, tuple(choices))


def _is_choice(action: rl.Action, legal: LegalActions) -> bool:
    """A decision SearchBot searches: a discard, or a draw where both draws are legal."""
    if isinstance(action, rl.Discard):
        return True
    return isinstance(action, (rl.DrawStock, rl.TakeDiscard)) and rl.DrawStock() in legal and rl.TakeDiscard() in legal


def _pair(args: tuple[str, int, int, SearchBotSettings]) -> list[Round]:
    game, deal, seed, settings = args
    return [play_round(game, deal, seat, seed, settings) for seat in (0, 1)]


def _settings(pairs: Sequence[str]) -> SearchBotSettings:
    """``SearchBotSettings`` from ``name=value`` pairs (numbers; ``true``/``false``; ``none`` for no time limit)."""
    fields: dict[str, object] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        words: dict[str, object] = {"none": None, "true": True, "false": False}
        fields[name] = words[text] if text in words else (float(text) if "." in text else int(text))
    return SearchBotSettings(**fields)  # type: ignore[arg-type]


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def table(game: str, rounds: Sequence[Round]) -> str:
    won = sum(1 for r in rounds if r.winner == r.search_seat)
    void = sum(1 for r in rounds if r.winner is None)
    lost = len(rounds) - won - void
    by_deal: dict[int, list[int]] = {}
    for r in rounds:
        by_deal.setdefault(r.deal, []).append(r.lead)
    pairs = [statistics.fmean(v) for v in by_deal.values()]
    mean = statistics.fmean(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.nan
    search = [t for r in rounds for t in r.search_times]
    greedy = [t for r in rounds for t in r.greedy_times]
    choice = [t for r in rounds for t in r.choice_times]
    decided = won + lost
    share = f"{100 * won / decided:.1f}% | {100 * lost / decided:.1f}%" if decided else "- | -"
    n = len(rounds)
    ratio = statistics.fmean(search) / statistics.fmean(greedy)
    rows = [
        "| measure | SearchBot | GreedyBot |",
        "|---|---|---|",
        f"| rounds won (of {n}; {void} void) | {won} ({100 * won / n:.1f}%) | {lost} ({100 * lost / n:.1f}%) |",
        f"| share of decided rounds | {share} |",
        f"| mean round score lead, 95% CI ({len(pairs)} deals) | {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] | |",
        f"| median s per decision | {statistics.median(search):.4f} | {statistics.median(greedy):.4f} |",
        f"| p90 s per decision | {_quantile(search, 0.9):.4f} | {_quantile(greedy, 0.9):.4f} |",
        f"| mean s per decision (ratio) | {statistics.fmean(search):.4f} ({ratio:.0f}x) | {statistics.fmean(greedy):.4f} |",
        f"| max s per decision | {max(search):.3f} | {max(greedy):.3f} |",
        f"| searched decisions (draw with a choice, discard) | {len(choice)} | |",
        f"| median / p90 s per searched decision | {statistics.median(choice):.4f} / {_quantile(choice, 0.9):.4f} | |",
    ]
    return f"### {game}: SearchBot vs GreedyBot, heads-up, mirrored deals\n\n" + "\n".join(rows)


def _dump(path: str, game: str, settings: SearchBotSettings, rounds: Sequence[Round]) -> None:
    """Append each round's deal, seat, winner, lead and searched-decision times as a JSON line."""
    with open(path, "a", encoding="utf-8") as out:
        for r in rounds:
            row = {"game": game, "settings": repr(settings), "deal": r.deal, "seat": r.search_seat,
                   "winner": r.winner, "lead": r.lead, "choices": list(r.choice_times)}  # fmt: skip
            out.write(json.dumps(row) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150, help="mirrored deals per game (two rounds each)")
    parser.add_argument("--games", default="remik,straight", help="comma-separated: remik, straight")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a SearchBotSettings field (repeatable), e.g. --set samples=32")  # fmt: skip
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--quick", action="store_true", help="10 deals per game")
    parser.add_argument("--dump", metavar="FILE", help="append one JSON line per round (for paired comparisons)")
    args = parser.parse_args(argv)
    deals = 10 if args.quick else args.deals
    settings = _settings(args.set)
    first = args.first
    print(f"Python {platform.python_version()} on {platform.machine()}, rummylib {rl.__version__}, "
          f"{deals} mirrored deals per game, {settings}, seed {args.seed}, "
          f"{args.jobs} job(s)\n")  # fmt: skip
    for game in args.games.split(","):
        work = [(game, d, args.seed, settings) for d in range(first, first + deals)]
        start = time.perf_counter()
        rounds: list[Round] = []
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            pairs = pool.map(_pair, work) if args.jobs > 1 else map(_pair, work)
            for pair in pairs:  # each pair is dumped as it comes: a run cut short keeps what it played
                rounds.extend(pair)
                if args.dump:
                    _dump(args.dump, game, settings, pair)
        print(table(game, rounds))
        print(f"\n({time.perf_counter() - start:.0f} s wall)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
