"""The ``rummylib`` command (also ``python -m rummylib``).

Subcommands:

* ``check``: validate melds and print their reading and points, or why they are invalid;
* ``solve``: the best opening, the least deadwood and a go-out plan for a hand;
* ``simulate``: many seeded games between bots, with a results table;
* ``play``: a game in the terminal against bots;
* ``rules``: the presets and their settings.

Every subcommand takes ``--rules NAME`` (a preset name, default ``remik``) and
``--help``. Exit status: 0 on success; 1 when the answer is "no" (``check``
finds an invalid meld, an answer asked for with ``solve --only`` does not
exist) or the input is refused; 2 for a usage error; 130 when interrupted.
``solve`` without ``--only`` prints every answer, "none" included, and exits
0. Errors are one line on stderr.

>>> main(["check", "9S 10S JS"])
9S 10S JS  clean run of spades, 29 points
0
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from rummylib._terminal import Out as _Out
from rummylib._terminal import render_table
from rummylib._version import __version__
from rummylib.cards import CardMultiset, check_in_deck, parse_cards
from rummylib.errors import InvalidMeldError, RulesetError, RummyError
from rummylib.melds import Meld, Run, is_clean_run, meld_points, parse_meld
from rummylib.rules import RULESETS, Ruleset, get_ruleset
from rummylib.scoring import hand_penalty

__all__ = ["main"]

PROG = "rummylib"


class _UsageError(Exception):
    """A command line that cannot be run; exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _rules_arg(text: str) -> Ruleset:
    try:
        return get_ruleset(text)
    except RulesetError:
        msg = f"no preset called {text!r}; choose one of {', '.join(sorted(RULESETS))}"
        raise argparse.ArgumentTypeError(msg) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= 200:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 200, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is not negative, got {value}")
    return value


# --- check ------------------------------------------------------------------------------


def _meld_report(meld: Meld, rules: Ruleset) -> dict[str, object]:
    return {
        "valid": True,
        "meld": str(meld),
        "kind": "run" if isinstance(meld, Run) else "group",
        "clean_run": is_clean_run(meld),
        "points": meld_points(meld, rules),
        "jokers": meld.joker_count,
    }


def _cmd_check(args: argparse.Namespace, out: _Out) -> int:
    rules: Ruleset = args.rules
    texts: list[str] = list(args.melds)
    if texts == ["-"]:
        texts = [line.strip() for line in args.stdin if line.strip() and not line.lstrip().startswith("#")]
    reports: list[dict[str, object]] = []
    failed = 0
    for text in texts:
        try:
            meld = parse_meld(text, rules)
            report = _meld_report(meld, rules)
        except RummyError as error:
            failed += 1
            reason = getattr(error, "reason", None)
            report = {"valid": False, "reason": getattr(reason, "value", None), "message": str(error)}
            readings = error.readings if isinstance(error, InvalidMeldError) else ()
            if readings:  # ambiguous: every reading, for the user to choose by declaring the jokers
                report["readings"] = [_meld_report(m, rules) for m in readings]
            if not args.json:
                out.error(f"invalid meld {text!r}: {error}")
                for number, reading in enumerate(readings, 1):
                    out.print(f"  reading {number}: {out.paint.meld(reading)}  {out.paint.describe(reading)}, "
                              f"{meld_points(reading, rules)} points")  # fmt: skip
            reports.append({"input": text, **report})
            continue
        reports.append({"input": text, **report})
        if not args.json:
            points = report["points"]
            out.print(f"{out.paint.meld(meld)}  {out.paint.describe(meld)}, {points} points")
    if args.json:
        out.print(json.dumps(reports if len(reports) != 1 else reports[0], ensure_ascii=False))
    return 1 if failed else 0


# --- solve ------------------------------------------------------------------------------


def _cmd_solve(args: argparse.Namespace, out: _Out) -> int:
    from rummylib.solver import best_opening, best_partition, plan_go_out

    rules: Ruleset = args.rules
    hand = CardMultiset(parse_cards(args.hand))
    check_in_deck(hand, rules)
    table = tuple(parse_meld(text, rules) for text in args.table)
    wanted = set(args.only or ("opening", "partition", "go-out"))
    paint = out.paint
    found_all = True
    out.print(f"hand ({len(hand)} cards, penalty {hand_penalty(hand, rules)}): {paint.cards(hand)}")
    if table:
        out.print("table:")
        for number, meld in enumerate(table):
            out.print(f"  #{number} {paint.meld(meld)}")
    if "opening" in wanted and rules.opening_required and not args.opened:
        opening = best_opening(hand, rules, keep=args.keep)
        if opening is None:
            found_all = False
            out.print(f"best opening: none (needs {rules.opening_points} points"
                      f"{' and a clean run' if rules.opening_clean_run else ''})")  # fmt: skip
        else:
            out.print(f"best opening: {opening.points} points")
            for meld in opening.melds:
                out.print(f"  {paint.meld(meld)}  ({paint.describe(meld)}, {meld_points(meld, rules)})")
            out.print(f"  left in hand: {paint.cards(opening.leftover)} (penalty {opening.penalty})")
    if "partition" in wanted:
        part = best_partition(hand, rules)
        out.print(f"least deadwood: penalty {part.penalty}")
        for meld in part.melds:
            out.print(f"  {paint.meld(meld)}  ({paint.describe(meld)})")
        out.print(f"  left in hand: {paint.cards(part.leftover)}")
    if "go-out" in wanted:
        opened = args.opened or not rules.opening_required
        plan = plan_go_out(hand, table, rules, opened=opened)
        if plan is None:
            found_all = False
            out.print("go out this turn: not possible")
        else:
            out.print("go out this turn:")
            for number, action in enumerate(plan, 1):
                out.print(f"  {number}. {paint.action(action)}")
    return 0 if found_all or not args.only else 1


# --- rules ------------------------------------------------------------------------------


def _cmd_rules(args: argparse.Namespace, out: _Out) -> int:
    import attrs

    chosen: Ruleset | None = args.name
    if chosen is None:
        rows = [(r.name, f"{r.decks} x 52 + {r.jokers} jokers", r.opening_points or "-", r.score_limit or "-")
                for r in RULESETS.values()]  # fmt: skip
        out.print(render_table(["preset", "deck", "opening", "game to"], rows))
        return 0
    rows2 = []
    for field in attrs.fields(Ruleset):
        value = getattr(chosen, field.name)
        shown = getattr(value, "value", value)
        if field.name == "hand_sizes":
            shown = ", ".join(f"{n} players: {size}" for n, size in value)
        rows2.append((field.name, shown))
    out.print(render_table(["field", "value"], rows2))
    return 0


# --- the parser -------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", type=_rules_arg, default=RULESETS["remik"], metavar="NAME",
        help=f"the preset to play by: {', '.join(sorted(RULESETS))} (default: remik)",
    )  # fmt: skip
    parser.add_argument(
        "--suits", choices=("auto", "symbols", "letters"), default="auto",
        help="draw suits as symbols (♠♥♦♣) or letters; auto uses symbols on a UTF-8 terminal",
    )  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``rummylib`` command."""
    parser = _Parser(
        prog=PROG,
        description="Rummy rules engine: validate melds, solve hands, run bot games, play in the terminal.",
        epilog="Run 'rummylib COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser(
        "check", help="validate melds: print each one's reading and points, or why it is invalid",
        description="Validate melds. Each MELD is one argument, cards separated by spaces, a joker "
        "as JK or JK=<card> to say what it stands for (e.g. '8S 8H JK=8C'). Give '-' to read one "
        "meld per line from standard input. Exit status 1 if any meld is invalid.",
    )  # fmt: skip
    check.add_argument("melds", nargs="+", metavar="MELD", help="a meld, such as '5H 6H JK' (quote it)")
    check.add_argument("--json", action="store_true", help="print the results as JSON")
    _common(check)
    check.set_defaults(run=_cmd_check)

    solve = sub.add_parser(
        "solve", help="best opening, least deadwood and a go-out plan for a hand",
        description="Solve a hand exactly: the best opening (remik), the melds that leave the least "
        "penalty in hand, and the actions that empty the hand this turn (with --table melds to lay "
        "off on). HAND is one argument, e.g. '9S 10S JS 8H 8D 8C KS'. With --only, exit status 1 "
        "if an asked-for answer does not exist.",
    )  # fmt: skip
    solve.add_argument("hand", metavar="HAND", help="the cards in hand (quote them)")
    solve.add_argument("--table", action="append", default=[], metavar="MELD",
                       help="a meld on the table, e.g. 'JS QS KS' (repeat for several)")  # fmt: skip
    solve.add_argument("--opened", action="store_true", help="the player has already opened (remik)")
    solve.add_argument("--keep", type=_count, default=None, metavar="N",
                       help="cards the opening must leave in hand (default: what the rules keep, "
                       "one for the discard in remik; 0 lays every card it can)")  # fmt: skip
    solve.add_argument("--only", action="append", choices=("opening", "partition", "go-out"),
                       help="show only this answer (repeatable)")  # fmt: skip
    _common(solve)
    solve.set_defaults(run=_cmd_solve)

    simulate = sub.add_parser(
        "simulate", help="play many seeded games between bots and print a results table",
        description="Play GAMES whole games between the built-in bots, in parallel, and print each "
        "seat's wins and mean score. The same --seed gives the same games, however many --jobs. "
        "A progress bar is drawn on a terminal.",
    )  # fmt: skip
    simulate.add_argument("--games", type=_positive, default=100, help="how many games (default: 100)")
    simulate.add_argument("--players", type=_positive, default=4, help="seats per game (default: 4)")
    simulate.add_argument("--seed", type=_seed, default=0, help="the simulation seed (default: 0)")
    simulate.add_argument("--bots", default="greedy", metavar="NAMES",
                          help="greedy, random or search, or one name per seat separated by commas (default: greedy)")  # fmt: skip
    simulate.add_argument("--jobs", type=_positive, default=None,
                          help="worker processes (default: one per CPU, at most one per game)")  # fmt: skip
    simulate.add_argument("--show", action="store_true", help="print every game's score sheet")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    _common(simulate)
    simulate.set_defaults(run=_run_games("cmd_simulate"))

    play = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Play a game against bots in the terminal. Each turn lists the legal actions; "
        "answer with a number or an action such as 'discard 7H' ('help' lists the commands). "
        "Reads from standard input, so it can be scripted.",
    )  # fmt: skip
    play.add_argument("--players", type=_positive, default=3, help="seats, you included (default: 3)")
    play.add_argument("--seed", type=_seed, default=None, help="deal from this seed (default: a random one)")
    play.add_argument("--bot", "--bots", dest="bot", choices=("greedy", "random", "search"), default="greedy",
                      help="the bots' strategy")  # fmt: skip
    play.add_argument("--name", default="you", help="your name at the table (default: you)")
    play.add_argument("--pause", action="store_true",
                      help="wait for Enter after the bots' moves and at the end of each round")  # fmt: skip
    _common(play)
    play.set_defaults(run=_run_games("cmd_play"))

    rules = sub.add_parser("rules", help="list the presets, or show every setting of one",
                           description="List the presets, or show every field of one.")  # fmt: skip
    rules.add_argument("name", nargs="?", type=_rules_arg, metavar="NAME", help="a preset name")
    rules.set_defaults(run=_cmd_rules, suits="auto")

    return parser


def _run_games(name: str) -> Callable[[argparse.Namespace, _Out], int]:
    """Run a command of :mod:`rummylib._cli_games`, imported only when used (it needs the engine)."""

    def run(args: argparse.Namespace, out: _Out) -> int:
        games = importlib.import_module("rummylib._cli_games")
        command: Callable[[argparse.Namespace, _Out], int] = getattr(games, name)
        return command(args, out)

    return run


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []  # pragma: no cover


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:  # fmt: skip
    """Run the ``rummylib`` command and return its exit status.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        stdin: where ``play`` and ``check -`` read (default: ``sys.stdin``).
        stdout: where results go (default: ``sys.stdout``).
        stderr: where errors and progress go (default: ``sys.stderr``).

    Returns:
        The exit status, as the module documents (0 success, 1 a "no" or a
        refused input, 2 a usage error, 130 interrupted). Errors are
        reported on ``stderr``, never raised.

    >>> main(["check", "--rules", "straight", "QS KS AS"])
    1
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(stdout):  # --help and --version print there
            args = parser.parse_args(argv)
    except _UsageError as error:
        print(f"{PROG}: error: {error}", file=stderr)
        return 2
    except SystemExit as done:  # --help and --version
        return int(done.code or 0) if isinstance(done.code, int) else 0
    if getattr(args, "run", None) is None:
        commands = ", ".join(sorted(_command_names(parser)))
        print(f"{PROG}: error: choose a command: {commands} (see '{PROG} --help')", file=stderr)
        return 2
    args.stdin = stdin
    out = _Out(stdout, stderr, args.suits)
    try:
        status: int = args.run(args, out)
    except RummyError as error:
        out.error(str(error))
        return 1
    except KeyboardInterrupt:
        out.error("interrupted")
        return 130
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return status
