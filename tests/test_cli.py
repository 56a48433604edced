"""The rummylib command: check, solve, simulate, play, rules; errors, help, exit codes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Sequence

import pytest

from rummylib import Action, PlayerView, __version__
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
    assert out.splitlines() == ["5H 6H JK=7H  run of hearts, 18 points", "8S 8H JK=8C  set of eights, 24 points"]


def test_check_invalid_meld_is_one_line_and_status_1() -> None:  # R-J3
    code, out, err = run("check", "9S 10S JS", "4H JK JK 7H")
    assert code == 1
    assert out == "9S 10S JS  clean run of spades, 29 points\n"
    assert err.count("\n") == 1
    assert err.startswith("rummylib: error: invalid meld '4H JK JK 7H': ")
    assert "jokers" in err


def test_check_shows_the_readings_of_an_ambiguous_meld() -> None:  # R-J1
    code, out, err = run("check", "8S 8H JK")
    assert code == 1 and "ambiguous" in err
    assert out.splitlines() == [
        "  reading 1: 8S 8H JK=8D  set of eights, 24 points",
        "  reading 2: 8S 8H JK=8C  set of eights, 24 points",
    ]
    code, out, _ = run("check", "--json", "8S 8H JK")
    report = json.loads(out)
    assert report["reason"] == "ambiguous"
    assert [r["meld"] for r in report["readings"]] == ["8S 8H JK=8D", "8S 8H JK=8C"]


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


# --- solve ------------------------------------------------------------------------------


def test_solve_opening_partition_and_plan() -> None:  # R-O2, R-E1
    code, out, _ = run("solve", "9S 10S JS 8H 8D 8C KS")
    assert code == 0
    lines = out.splitlines()
    assert "best opening: 53 points" in lines
    assert "least deadwood: penalty 10" in lines
    assert lines[-2:] == ["  1. open 9S 10S JS | 8H 8D 8C", "  2. discard KS"]


def test_solve_opening_keeps_a_card_for_the_discard() -> None:  # R-T3
    hand = "9S 10S JS QS KS 8H 8D 8C 5H 6H 7H 2C 3C 4C"
    code, out, _ = run("solve", hand, "--only", "opening")
    assert code == 0 and "best opening: 91 points" in out.splitlines()
    code, out, _ = run("solve", hand, "--only", "opening", "--keep", "0")
    assert code == 0 and "best opening: 100 points" in out.splitlines()


def test_solve_with_table_and_only() -> None:  # R-J5, R-T6
    code, out, _ = run(
        "solve", "JK 9S 4H", "--table", "JS QS KS", "--table", "4S 4D 4C", "--opened", "--only", "go-out"
    )
    assert code == 0
    assert "  #0 JS QS KS" in out
    assert "best opening" not in out and "least deadwood" not in out
    steps = [line.split(". ", 1)[1] for line in out.splitlines() if line.startswith("  ") and ". " in line]
    assert len(steps) == 3  # two cards laid off, the last one discarded (R-E1)
    assert all(step.startswith("layoff #") for step in steps[:2])
    assert steps[2].startswith("discard ")


def test_solve_no_opening_is_status_1_with_only() -> None:  # R-O2
    code, out, _ = run("solve", "2S 3S 4S KD", "--only", "opening")
    assert code == 1
    assert "best opening: none (needs 51 points and a clean run)" in out
    assert run("solve", "2S 3S 4S KD")[0] == 0


def test_solve_straight_skips_the_opening() -> None:  # R-T5: one meld a turn
    code, out, _ = run("solve", "--rules", "straight", "AS 2S 3S 7H 7C 7D KH")
    assert code == 0
    assert "best opening" not in out
    assert "go out this turn: not possible" in out


def test_solve_refuses_cards_beyond_the_deck() -> None:  # R-C1
    code, out, err = run("solve", "--rules", "straight", "AS AS 2S")
    assert code == 1 and out == ""
    assert err.startswith("rummylib: error: ") and err.count("\n") == 1


# --- simulate and play ------------------------------------------------------------------


def test_simulate_results_table() -> None:
    code, out, err = run(
        "simulate", "--rules", "straight", "--games", "3", "--players", "2", "--seed", "7", "--jobs", "1",
        "--bots", "greedy,random",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "3 games of straight, 2 players, seed 7: 3 completed, 0 aborted"
    assert lines[1].split() == ["seat", "bot", "wins", "win", "rate", "mean", "score"]
    assert len(lines) == 9
    notes = " ".join(lines[6:])
    assert "share it" in notes and "fractions" in notes and "higher is better" in notes and "void" in notes
    assert err == ""  # no progress bar off a terminal


def test_simulate_is_the_same_in_parallel() -> None:
    args = (
        "simulate",
        "--rules",
        "straight",
        "--games",
        "4",
        "--players",
        "3",
        "--seed",
        "11",
        "--bots",
        "greedy,random,greedy",
    )
    serial = run(*args, "--jobs", "1")
    parallel = run(*args, "--jobs", "2")
    assert serial[0] == parallel[0] == 0
    assert serial[1] == parallel[1]


def test_simulate_show_prints_score_sheets() -> None:  # R-S3, R-S4
    code, out, _ = run(
        "simulate", "--rules", "straight", "--games", "1", "--players", "2", "--show", "--jobs", "1", "--bots", "greedy,random"
    )  # fmt: skip
    assert code == 0
    assert out.startswith("game 1 of 1 (straight, seed 0):")
    assert "round" in out and "total" in out and "winner" in out
    assert "1 game of straight, 2 players, seed 0:" in out  # the one seed, in header and summary
    for mark in ("*  ", "in one go", "void", "higher is better"):  # the legend (R-S3, S4, E4, D7)
        assert mark in out


def test_simulate_remik_legend_says_lower_is_better() -> None:  # R-S1, R-S2, R-E2
    code, out, _ = run("simulate", "--games", "1", "--players", "2", "--show", "--jobs", "1", "--quiet")
    assert code == 0
    assert "lower is better; the game ends when a total passes 500" in out
    assert "the others' penalties are doubled" in out


def test_simulate_progress_bar_on_a_terminal() -> None:
    code, _, err = run(
        "simulate", "--rules", "straight", "--games", "2", "--players", "2", "--jobs", "1", "--bots", "random,greedy", tty=True
    )  # fmt: skip
    assert code == 0
    assert "[" in err and "2/2" in err


def test_progress_bar_shows_the_time_left() -> None:
    from rummylib._terminal import ProgressBar

    stream = io.StringIO()
    bar = ProgressBar(4, stream, enabled=True)
    bar.advance(1)
    assert "1/4" in stream.getvalue() and "ETA" in stream.getvalue()
    bar.advance(3)
    assert stream.getvalue().rsplit("\r", 1)[-1].count("ETA") == 0  # done: no time left to show


def test_simulate_bad_bots() -> None:
    code, out, err = run("simulate", "--bots", "clever", "--games", "1")
    assert code == 2 and out == ""
    assert "unknown bot 'clever'" in err and err.count("\n") == 1
    code, _, err = run("simulate", "--bots", "greedy,random", "--players", "3", "--games", "1")
    assert code == 2 and "one per seat" in err


def test_simulate_bad_player_count() -> None:  # R-P2
    code, _, err = run("simulate", "--players", "9", "--games", "1")
    assert code == 1
    assert "9" in err and err.count("\n") == 1


def test_play_scripted_to_the_end() -> None:
    code, out, _ = run("play", "--seed", "1", "--players", "3", stdin="auto\n" * 5000)
    assert code == 0
    assert "game over." in out
    assert out.rstrip().splitlines()[-1].startswith("winner")


def test_play_commands_and_refusals() -> None:  # R-T1: draw first
    script = "help\nhint\nlist\nxyz\n99\ndiscard 2C\nquit\n"
    code, out, _ = run("play", "--seed", "3", "--players", "2", "--name", "Ann", stdin=script)
    assert code == 0
    assert "your hand" in out and "commands:" in out and "hint: " in out
    assert "'xyz': unknown action 'xyz'" in out and "not that" not in out
    assert "type 'help' to see how actions are written" in out
    assert "no action numbered 99" in out
    assert "game stopped." in out


def test_play_ends_on_end_of_input() -> None:
    code, out, _ = run("play", "--seed", "3", "--players", "2", "--rules", "straight", stdin="")
    assert code == 0 and "game stopped." in out


def test_play_symbols_on_a_terminal() -> None:
    code, out, _ = run("play", "--seed", "3", "--players", "2", stdin="quit\n", tty=True)
    assert code == 0
    assert any(s in out for s in "♠♥♦♣")


#: What a player must never meet on the screen: Python reprs and class names.
_PYTHON_TEXT = re.compile(r"Card\(|CardMultiset\(|\b(DrawStock|TakeDiscard|LayMeld|LayOff|SwapJoker|NextRound)\b")


def test_play_reads_like_a_game_not_python() -> None:  # R-S1, R-E1
    code, out, _ = run("play", "--seed", "1", "--players", "3", stdin="auto\n" * 5000)
    assert code == 0
    assert not _PYTHON_TEXT.search(out)
    assert not re.search(r"\b1 cards\b", out)
    assert re.search(r"round 1 over: \S+ went out", out)
    assert "hands left:" in out
    assert re.search(r"^  \S+ +\S.* \(\d+ points?\)$", out, re.MULTILINE)  # the other hands at the round's end
    assert "in one go" in out and "lower is better" in out  # the legend, after the first round


def test_play_groups_choices_by_kind() -> None:  # R-T1, R-T3
    code, out, _ = run("play", "--seed", "3", "--players", "2", stdin="1\nquit\n")
    assert code == 0
    assert "  discard, ending your turn:" in out
    assert "  draw:" in out  # the next turn starts with the draw group


def test_play_shows_the_opening_in_progress() -> None:  # R-O2, O4
    code, out, _ = run("play", "--seed", "21", "--players", "2", stdin="1\n1\nquit\n")
    assert code == 0
    screens = out.split("--- round")
    assert "opening so far: 31 points, clean run laid; it needs 51 before a lay-off, swap or discard" in screens[2]
    assert "opening so far: 61 points, clean run laid: enough; you open at your next" in screens[3]


def test_play_refusals_show_cards_as_the_screen_does() -> None:
    code, out, _ = run("play", "--seed", "3", "--players", "2", stdin="discard AD\nquit\n", tty=True)
    assert code == 0
    assert "you do not hold A♦" in out and "AD" not in out.replace("discard AD", "")


def test_play_help_explains_the_end_of_a_lay_off() -> None:
    code, out, _ = run("play", "--seed", "3", "--players", "2", stdin="help\nquit\n")
    assert code == 0
    assert "'high' the end of the" in out and "'low' below its lowest card" in out


def test_play_pause_waits_for_enter() -> None:
    script = "1\n" + "\n" + "quit\n"  # discard, then Enter after the bot's moves, then stop
    code, out, _ = run("play", "--seed", "3", "--players", "2", "--pause", stdin=script)
    assert code == 0
    assert out.count("(press Enter)") == 1
    assert "greedy-1: draw" in out.split("(press Enter)")[0]


def test_plural() -> None:
    from rummylib._terminal import plural

    assert (plural(1, "card"), plural(2, "card"), plural(0, "point")) == ("1 card", "2 cards", "0 points")


class _SpyBot:
    """Plays as a RandomBot; notes what ``legal`` it was handed."""

    seen: list[object] = []  # noqa: RUF012 - one shared log per test run

    def __init__(self, seed: int) -> None:
        from rummylib.bots import RandomBot

        self._bot = RandomBot(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        _SpyBot.seen.append(legal)
        return self._bot.choose(view, legal)


def test_play_bots_and_adviser_see_only_their_seat(monkeypatch: pytest.MonkeyPatch) -> None:  # R-H1
    import rummylib._cli_games as games
    from rummylib.bots import SeatActions

    _SpyBot.seen.clear()
    monkeypatch.setitem(games.BOTS, "greedy", _SpyBot)
    monkeypatch.setattr(games, "GreedyBot", _SpyBot)  # the adviser behind 'hint' and 'auto'
    code, _, _ = run("play", "--seed", "2", "--players", "3", stdin="hint\n" + "auto\n" * 40 + "quit\n")
    assert code == 0
    assert len(_SpyBot.seen) > 40  # the adviser and both bots chose
    for legal in _SpyBot.seen:
        assert type(legal) is SeatActions
        assert not hasattr(legal, "_state") and not hasattr(legal, "__dict__")
