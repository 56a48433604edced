"""Every script in examples/ runs and prints what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        input=stdin, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


def test_every_example_is_tested() -> None:
    tested = {"validate_melds.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} <= tested | set(_LATER)


_LATER = ("best_opening.py", "bot_game.py", "terminal_game.py")


def test_validate_melds() -> None:  # R-V1, R-M4
    done = run_example("validate_melds.py", "9S 10S JS", "8S 8H JK=8C")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "ok       9S 10S JS        clean run, 29 points",
        "ok       8S 8H JK=8C      group, 24 points",
    ]
    done = run_example("validate_melds.py", "--rules", "straight", "QS KS AS")
    assert done.returncode == 1
    assert "ace_high_forbidden" in done.stdout


@pytest.mark.parametrize("bad", ["--rules=gin"])
def test_validate_melds_bad_rules(bad: str) -> None:
    done = run_example("validate_melds.py", bad, "AS 2S 3S")
    assert done.returncode == 2
    assert "gin" in done.stderr
