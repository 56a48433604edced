"""Play one full game between the built-in bots and print the score sheet.

Usage:
    python examples/bot_game.py                      # remik, 3 greedy bots
    python examples/bot_game.py --rules straight --players 4 --seed 7

The loop below is all it takes to drive the engine: ask whose turn it is,
give that seat's bot its view and the legal actions, apply its choice.
"""

from __future__ import annotations

import argparse
import sys

import attrs

import rummylib as rl
from rummylib.bots import Bot, GreedyBot, LegalActions, RandomBot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A full game between rummylib's bots.")
    parser.add_argument("--rules", default="remik", help="preset name: remik or straight")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        # A cap on stock refills makes every round end (RULES.md D7): bots never stall a game.
        rules = attrs.evolve(rl.get_ruleset(args.rules), restock_limit=2)
        # Alternate greedy and random bots; each bot gets its own seed.
        bots: list[Bot] = [GreedyBot(seat) if seat % 2 == 0 else RandomBot(seat) for seat in range(args.players)]
        names = [f"{type(bot).__name__.removesuffix('Bot').lower()}-{seat}" for seat, bot in enumerate(bots)]
        state = rl.new_game(rules, names, seed=args.seed)
    except rl.RummyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    while not state.is_over:
        if state.phase is rl.Phase.ROUND_OVER:
            state = rl.apply(state, rl.NextRound())
            continue
        seat = state.to_act
        action = bots[seat].choose(rl.view(state, seat), LegalActions(state))
        state = rl.apply(state, action)

    print(f"{rules.name}, {len(names)} players, seed {args.seed}")
    print("round  " + "  ".join(f"{n:>9}" for n in names))
    for number, result in enumerate(state.results, 1):
        if result.winner is None:
            print(f"{number:>5}  " + "  ".join(f"{'-':>9}" for _ in names) + "  (void)")
            continue
        cells = [f"{s}{'*' if seat == result.winner else ' '}" for seat, s in enumerate(result.scores)]
        note = "  (one go: double)" if result.rummy else ""
        print(f"{number:>5}  " + "  ".join(f"{c:>9}" for c in cells) + note)
    print("total  " + "  ".join(f"{t:>8} " for t in state.totals))
    winners = ", ".join(names[w] for w in state.standings.winners)
    print(f"winner: {winners}   (* went out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
