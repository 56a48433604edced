"""Validate melds given on the command line and print what each one is worth.

Usage:
    python examples/validate_melds.py "9S 10S JS" "8S 8H JK=8C" "QS KS AS"
    python examples/validate_melds.py --rules straight "QS KS AS"

Each meld is one argument: cards separated by spaces, a joker as ``JK``, or
``JK=7H`` to say what it stands for. Exits with status 1 if any meld is invalid.
"""

from __future__ import annotations

import argparse
import sys

import rummylib as rl


def describe(text: str, rules: rl.Ruleset) -> tuple[bool, str]:
    """Return whether ``text`` is a valid meld, and a line saying why."""
    try:
        meld = rl.parse_meld(text, rules)
    except rl.RummyError as error:  # CardParseError or InvalidMeldError
        return False, f"INVALID  {text:<16} {error.reason.name.lower()}: {error}"
    kind = "clean run" if rl.is_clean_run(meld) else type(meld).__name__.lower()
    return True, f"ok       {meld!s:<16} {kind}, {rl.meld_points(meld, rules)} points"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate rummy melds.")
    parser.add_argument("melds", nargs="+", help="a meld such as '5H 6H JK' (quote it)")
    parser.add_argument("--rules", default="remik", help="preset name: remik or straight")
    args = parser.parse_args(argv)
    try:
        rules = rl.get_ruleset(args.rules)
    except rl.RulesetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    all_valid = True
    for text in args.melds:
        valid, line = describe(text, rules)
        all_valid &= valid
        print(line)
    return 0 if all_valid else 1


if __name__ == "__main__":
    sys.exit(main())
