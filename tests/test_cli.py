"""The rummylib command: check, solve, simulate, play, rules; errors, help, exit codes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from rummylib import __version__
from rummylib.cli import main


class _Tty(io.StringIO):
    """A fake UTF-8 terminal."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def run(*argv: str, stdin: str = "", tty: bool = False) -> tuple[int, str, str]:
    out: io.StringIO = _Tty() if tty else io.StringIO()
    err: io.StringIO = _Tty() if tty else io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# --- check ------------------------------------------------------------------------------


def test_check_valid_meld() -> None:  # R-V1
    code, out, err = run("check", "9S 10S JS")
    assert (code, out, err) == (0, "9S 10S JS  clean run of spades, 29 points\n", "")


def test_check_reads_jokers_and_groups() -> None:  # R-J1, R-M2
    code, out, _ = run("check", "5H 6H JK", "8S 8H JK=8C")
    assert code == 0
    assert out.splitlines() == ["5H 6H JK=7H  run of hearts, 18 points", "8S 8H JK=8C  group of eights, 24 points"]


def test_check_invalid_meld_is_one_line_and_status_1() -> None:  # R-J3
    code, out, err = run("check", "9S 10S JS", "4H JK JK 7H")
    assert code == 1
    assert out == "9S 10S JS  clean run of spades, 29 points\n"
    assert err.count("\n") == 1
    assert err.startswith("rummylib: error: invalid meld '4H JK JK 7H': ")
    assert "jokers" in err


def test_check_follows_the_rules_option() -> None:  # R-M3, R-M4
    assert run("check", "QS KS AS")[0] == 0
    code, _, err = run("check", "--rules", "straight", "QS KS AS")
    assert code == 1
    assert "ace above the king" in err


def test_check_json() -> None:
    code, out, _ = run("check", "--json", "AS AD JK", "XX")
    assert code == 1
    reports = json.loads(out)
    assert reports[0]["valid"] is False and reports[0]["reason"] == "ambiguous"
    assert reports[1] == {"input": "XX", "valid": False, "reason": "bad_rank",
                          "message": "cannot parse card 'XX' at position 0: unknown rank"}  # fmt: skip
    code, out, _ = run("check", "--json", "QH KH AH")
    assert code == 0
    assert json.loads(out) == {"input": "QH KH AH", "valid": True, "meld": "QH KH AH", "kind": "run",
                               "clean_run": True, "points": 31, "jokers": 0}  # fmt: skip


def test_check_reads_stdin() -> None:
    code, out, _ = run("check", "-", stdin="# melds\n7D 8D 9D\n\nKC KD KS\n")
    assert code == 0
    assert len(out.splitlines()) == 2


def test_symbols_on_a_utf8_terminal() -> None:
    code, out, _ = run("check", "5H 6H JK", tty=True)
    assert code == 0
    assert out.startswith("5♥ 6♥ JK=7♥")
    assert run("check", "--suits", "letters", "5H 6H JK", tty=True)[1].startswith("5H 6H JK=7H")
    assert run("check", "--suits", "symbols", "5H 6H JK")[1].startswith("5♥ 6♥ JK=7♥")


# --- usage, help, errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "--rules", "gin", "AS 2S 3S"], "no preset called 'gin'"),
        (["check"], "the following arguments are required: MELD"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "choose a command"),
    ],
)
def test_usage_errors_are_one_line_and_status_2(argv: list[str], needle: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err
    assert err.startswith("rummylib: error: ")


def test_help_everywhere() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "check" in out
    parser_commands = re.findall(r"^    (\w+)  ", out, flags=re.MULTILINE)
    assert "check" in parser_commands
    for command in parser_commands:
        code, out, _ = run(command, "--help")
        assert code == 0, command
        assert out.startswith(f"usage: rummylib {command}"), command


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"rummylib {__version__}"


def test_rules_lists_presets() -> None:
    code, out, _ = run("rules")
    assert code == 0 and "remik" in out and "straight" in out
    code, out, _ = run("rules", "straight")
    assert code == 0 and "ace_penalty" in out


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummylib", "check", "AH 2H 3H"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "AH 2H 3H  clean run of hearts, 6 points"
