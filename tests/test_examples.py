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
    tested = {"validate_melds.py", "best_opening.py", "bot_game.py", "terminal_game.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


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


def test_best_opening() -> None:  # R-O2, R-O3: the joker counts as QS
    done = run_example("best_opening.py", "9S 10S JS 8H 8D 8C KS QH 2C 2D JK 5H 6H 7H")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "best opening: 91 points"
    assert "9S 10S JS JK=QS KS" in lines[2]
    assert lines[5] == "  keep: QH 2D 2C"
    assert lines[6] == "least deadwood: 14 penalty points left in hand"


def test_best_opening_none_and_random_hand() -> None:
    done = run_example("best_opening.py", "2S 3S 4S KD")
    assert done.returncode == 0
    assert "no opening" in done.stdout
    done = run_example("best_opening.py", "--seed", "3")
    assert done.returncode == 0 and done.stdout.startswith("hand: ")


@pytest.mark.parametrize("rules", ["remik", "straight"])
def test_bot_game_prints_a_score_sheet(rules: str) -> None:  # R-S1..S4
    done = run_example("bot_game.py", "--rules", rules, "--players", "3", "--seed", "7")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{rules}, 3 players, seed 7"
    assert lines[1].split() == ["round", "greedy-0", "random-1", "greedy-2"]
    assert lines[-2].startswith("total")
    assert lines[-1].startswith("winner: ")
    totals = [int(t) for t in lines[-2].split()[1:]]
    rounds = [line.split() for line in lines[2:-2]]
    assert len(rounds) >= 1
    for seat, total in enumerate(totals):  # the sheet adds up
        assert total == sum(int(r[1 + seat].rstrip("*")) for r in rounds if r[1] != "-")


def test_bot_game_bad_players() -> None:  # R-P2
    done = run_example("bot_game.py", "--players", "9")
    assert done.returncode == 2 and "2 to 6 players" in done.stderr


def test_terminal_game_scripted_to_the_end() -> None:
    done = run_example("terminal_game.py", "--rules", "straight", "--seed", "5", stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "your hand:" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("game over after ")


def test_terminal_game_quits() -> None:
    done = run_example("terminal_game.py", "--seed", "5", stdin="x\n2\nq\n")
    assert done.returncode == 0
    assert "type a number from 1 to" in done.stdout
    assert done.stdout.rstrip().endswith("bye")


def test_best_opening_keeps_a_card_for_the_discard() -> None:  # R-T3
    done = run_example("best_opening.py", "9S 10S JS QS KS 8H 8D 8C 5H 6H 7H 2C 3C 4C")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "best opening: 91 points"
    assert lines[6] == "  keep: 9S"
