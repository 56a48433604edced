"""Find the best remik opening in a hand, and what to do with the rest.

Usage:
    python examples/best_opening.py "9S 10S JS 8H 8D 8C KS QH 2C 2D JK 5H 6H 7H"
    python examples/best_opening.py --seed 7      # a random 14-card hand from a shuffled deck

Prints the highest-scoring legal opening (51 points or more with a clean run,
RULES.md O2) that a player may lay, keeping one card for the discard (R-T3),
or says there is none, then the melds that leave the least penalty in hand.
"""

from __future__ import annotations

import argparse
import random
import sys

import rummylib as rl


def random_hand(seed: int, size: int = 14) -> rl.CardMultiset:
    """``size`` cards from a shuffled remik deck (for the demo only: not the engine's shuffle)."""
    cards = list(rl.deck(rl.REMIK))
    random.Random(seed).shuffle(cards)
    return rl.CardMultiset(cards[:size])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Find the best remik opening in a hand.")
    parser.add_argument("hand", nargs="?", help="the cards, e.g. '9S 10S JS 8H 8D 8C KS' (quote them)")
    parser.add_argument("--seed", type=int, default=1, help="deal a random hand with this seed")
    args = parser.parse_args(argv)
    rules = rl.REMIK
    try:
        hand = rl.CardMultiset(rl.parse_cards(args.hand)) if args.hand else random_hand(args.seed)
    except rl.RummyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"hand: {hand}  (penalty {rl.hand_penalty(hand, rules)})")

    opening = rl.best_opening(hand, rules)
    if opening is None:
        print(f"no opening: the melds in this hand do not reach {rules.opening_points} with a clean run")
    else:
        print(f"best opening: {opening.points} points")
        for meld in opening.melds:
            clean = "  (clean run)" if rl.is_clean_run(meld) else ""
            print(f"  {meld!s:<24} {rl.meld_points(meld, rules):>3}{clean}")
        print(f"  keep: {opening.leftover}")  # never empty: the last card leaves by the discard (R-T3)

    partition = rl.best_partition(hand, rules)
    print(f"least deadwood: {partition.penalty} penalty points left in hand")
    for meld in partition.melds:
        print(f"  {meld}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
