"""The ``rummylib`` command (also ``python -m rummylib``).

Subcommands:

* ``check``: validate melds and print their reading and points, or why they are invalid;
* ``solve``: the best opening, the least deadwood and a go-out plan for a hand;
* ``simulate``: many seeded games between bots, with a results table;
* ``play``: a game in the terminal against bots;
* ``rules``: the presets and their settings.

Every subcommand takes ``--rules NAME`` (a preset name, default ``remik``) and
``--help``. Exit status: 0 on success, 1 when the answer is "no" (an invalid
meld, no opening) or the input is refused, 2 for a usage error. Errors are
one line on stderr.

>>> main(["check", "9S 10S JS"])
9S 10S JS  clean run of spades, 29 points
0
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from rummylib._terminal import Painter, render_table, supports_symbols
from rummylib._version import __version__
from rummylib.errors import RulesetError, RummyError
from rummylib.melds import Meld, Run, is_clean_run, meld_points, parse_meld
from rummylib.rules import RULESETS, Ruleset, get_ruleset

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


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is not negative, got {value}")
    return value


class _Out:
    """Where a command writes, and how it draws cards there."""

    def __init__(self, stdout: TextIO, stderr: TextIO, suits: str) -> None:
        self.stdout = stdout
        self.stderr = stderr
        symbols = supports_symbols(stdout) if suits == "auto" else suits == "symbols"
        self.paint = Painter(symbols=symbols)
        self.tty = _isatty(stderr)

    def print(self, *parts: object) -> None:
        print(*parts, file=self.stdout)

    def error(self, message: str) -> None:
        print(f"{PROG}: error: {message}", file=self.stderr)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


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
            if not args.json:
                out.error(f"invalid meld {text!r}: {error}")
            reports.append({"input": text, **report})
            continue
        reports.append({"input": text, **report})
        if not args.json:
            points = report["points"]
            out.print(f"{out.paint.meld(meld)}  {out.paint.describe(meld)}, {points} points")
    if args.json:
        out.print(json.dumps(reports if len(reports) != 1 else reports[0], ensure_ascii=False))
    return 1 if failed else 0


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

    rules = sub.add_parser("rules", help="list the presets, or show every setting of one",
                           description="List the presets, or show every field of one.")  # fmt: skip
    rules.add_argument("name", nargs="?", type=_rules_arg, metavar="NAME", help="a preset name")
    rules.set_defaults(run=_cmd_rules, suits="auto")

    for extra in _EXTRA_COMMANDS:
        extra(sub)
    return parser


#: Registration hooks of further subcommands (solve, simulate, play).
_EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction[_Parser]], None]] = []


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
