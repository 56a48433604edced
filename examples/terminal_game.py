"""A tiny terminal game of rummy against bots.

Usage:
    python examples/terminal_game.py                    # remik against two greedy bots
    python examples/terminal_game.py --rules straight --seed 5

On your turn you see your hand, the table and the numbered legal actions;
type a number (or just Enter for the first one), or q to quit. Moves are read
from standard input, so the game can be scripted:

    yes 1 | python examples/terminal_game.py --rules straight

(``rummylib play`` is the full-featured version of this script.)
"""

from __future__ import annotations

import argparse
import sys

import attrs

import rummylib as rl
from rummylib.bots import GreedyBot, LegalActions
from rummylib.records import format_action


def show(v: rl.PlayerView) -> None:
    """Print what the human seat may see (RULES.md H1): never another hand."""
    print(
        f"\n-- round {v.round_number} -- scores {list(v.totals)} -- stock {v.stock_size}"
        f" -- discard top {v.top_discard or '-'} -- cards held {list(v.hand_sizes)}"
    )
    for i, laid in enumerate(v.table):
        print(f"   table #{i}: {laid.meld}")
    print(f"   your hand: {v.hand}")


def ask(legal: list[rl.Action]) -> rl.Action | None:
    for number, action in enumerate(legal, 1):
        print(f"   {number:>3}. {format_action(action)}")
    while True:
        print("your move> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line or line.strip().lower() == "q":
            return None
        text = line.strip() or "1"
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        print(f"type a number from 1 to {len(legal)}, or q")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play rummy against bots in the terminal.")
    parser.add_argument("--rules", default="remik", help="preset name: remik or straight")
    parser.add_argument("--players", type=int, default=3, help="seats, you included")
    parser.add_argument("--seed", type=int, default=None, help="deal from this seed")
    args = parser.parse_args(argv)
    try:
        rules = attrs.evolve(rl.get_ruleset(args.rules), restock_limit=3)
        names = ["you", *(f"bot-{k}" for k in range(1, args.players))]
        state = rl.new_game(rules, names, seed=args.seed)
    except rl.RummyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    bots = {seat: GreedyBot(seat) for seat in range(1, args.players)}

    while not state.is_over:
        if state.phase is rl.Phase.ROUND_OVER:
            result = state.results[-1]
            who = "nobody" if result.winner is None else names[result.winner]
            print(f"\n== round over: {who} went out; scores this round {list(result.scores)}")
            state = rl.apply(state, rl.NextRound())
            continue
        seat = state.to_act
        if seat == 0:
            show(rl.view(state, 0))
            action = ask(list(rl.legal_actions(state)))
            if action is None:
                print("bye")
                return 0
        else:
            action = bots[seat].choose(rl.view(state, seat), LegalActions(state))
        print(f"{names[seat]}: {format_action(action)}")
        state = rl.apply(state, action)

    winners = ", ".join(names[w] for w in state.standings.winners)
    print(f"\ngame over after {len(state.results)} rounds; totals {list(state.totals)}; winner: {winners}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
