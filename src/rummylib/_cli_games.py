"""The game commands of the ``rummylib`` command: ``simulate`` and ``play``."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Final

from rummylib._terminal import Out, ProgressBar, _isatty, plural, render_table
from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    NextRound,
    Open,
    SwapJoker,
    TakeDiscard,
)
from rummylib.bots import GreedyBot, LegalActions, SeatActions, derive_seed
from rummylib.engine import GameState, Phase, PlayerView, apply, check, legal_actions, new_game, view
from rummylib.errors import InvalidStateError, RummyError
from rummylib.records import parse_action
from rummylib.rules import Ruleset, Scoring
from rummylib.scoring import RoundResult, hand_penalty
from rummylib.simulation import _NAMED_BOTS

__all__: list[str] = []

#: The built-in bots by name: simulate's own registry (one home).
BOTS: Final = _NAMED_BOTS


def score_sheet(players: Sequence[str], results: Sequence[RoundResult], totals: Sequence[int]) -> str:
    """Every round's scores and the totals; ``*`` marks who went out (:func:`legend` explains)."""
    rows: list[list[str]] = []
    for number, result in enumerate(results, 1):
        if result.winner is None:
            rows.append([str(number), *("-" for _ in players), "void"])
            continue
        cells = [f"{score}*" if seat == result.winner else str(score) for seat, score in enumerate(result.scores)]
        note = f"{players[result.winner]} out" + (" in one go" if result.rummy else "")
        rows.append([str(number), *cells, note])
    rows.append(["total", *(str(t) for t in totals), ""])
    return render_table(["round", *players, ""], rows)


def legend(rules: Ruleset) -> str:
    """What the marks of a score sheet mean, and which way the scores go, for ``rules``."""
    if rules.scoring is Scoring.PENALTY:
        limit = "" if rules.score_limit is None else f"; the game ends when a total passes {rules.score_limit}"
        direction = f"scores are penalties: lower is better{limit} (R-S1, S2)"
        star = "went out and scores 0"
        once = "opened and went out in one turn: the others' penalties are doubled (R-E2)"
    else:
        limit = "" if rules.score_limit is None else f"; the game ends when a total reaches {rules.score_limit}"
        direction = f"the player out collects the others' hands: higher is better{limit} (R-S3, S4)"
        star = "went out and collects"
        once = "emptied the hand in one turn (going rummy): the round pays double (R-E4)"
    return "\n".join([
        f"  {direction}",
        f"  *            {star}",
        f"  in one go    {once}",
        "  void         nobody went out: no pile could serve a draw, nobody scores (R-D7)",
    ])  # fmt: skip


def _finish(state: GameState) -> str:
    table = state.standings
    names = state.players
    if not state.is_over:
        return "game stopped before its end"
    winners = ", ".join(names[w] for w in table.winners)
    return f"winner{'s' if len(table.winners) > 1 else ''}: {winners}"


# --- simulate -----------------------------------------------------------------------------


def _bot_names(spec: str, players: int) -> list[str]:
    names = [n.strip().lower() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOTS]
    if unknown or not names:
        msg = f"unknown bot {unknown[0] if unknown else spec!r}; choose from {', '.join(sorted(BOTS))}"
        raise argparse.ArgumentTypeError(msg)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        msg = f"--bots names {len(names)} bots for {players} players: give one name, or one per seat"
        raise argparse.ArgumentTypeError(msg)
    return names


def cmd_simulate(args: argparse.Namespace, out: Out) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from rummylib.simulation import DEFAULT_MAX_ACTIONS, _replay_game, simulate

    rules: Ruleset = args.rules
    players: int = args.players
    rules.hand_size(players)  # a clear error for a table the rules do not allow
    try:
        bots = _bot_names(args.bots, players)
    except argparse.ArgumentTypeError as error:
        out.error(str(error))
        return 2
    jobs = min(args.jobs if args.jobs is not None else os.cpu_count() or 1, max(1, args.games))  # no idle workers
    bar = ProgressBar(args.games, out.stderr, enabled=out.tty and not args.quiet, label="games ")

    def progress(done: int, total: int) -> None:
        bar.advance(done - bar.done)

    factories = [BOTS[name] for name in bots]
    try:
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                result = simulate(rules, players, args.games, seed=args.seed, bots=factories,
                                  executor=pool, progress=progress)  # fmt: skip
        else:
            result = simulate(rules, players, args.games, seed=args.seed, bots=factories, progress=progress)
    finally:
        bar.close()
    if args.show:
        for game in result.games:
            names = [f"{name}-{k}" for k, name in enumerate(bots)]
            state = _replay_game(result.rules, names, factories, args.seed, game.index, DEFAULT_MAX_ACTIONS)
            out.print(f"game {game.index + 1} of {args.games} ({rules.name}, seed {args.seed}):")
            out.print(score_sheet(state.players, state.results, state.totals))
            out.print(_finish(state))
            out.print()
        out.print("key:")
        out.print(legend(rules))
        out.print()
    summary = result.summary
    rows = []
    for seat in range(players):
        rate = summary.win_rate[seat]
        wins = rate * summary.completed
        rows.append([seat, bots[seat], f"{wins:g}", f"{100 * rate:.1f}%", f"{summary.mean_score[seat]:.1f}"])
    plural = "" if summary.games == 1 else "s"
    out.print(f"{summary.games} game{plural} of {rules.name}, {players} players, seed {args.seed}: "
              f"{summary.completed} completed, {summary.aborted} aborted")  # fmt: skip
    out.print(render_table(["seat", "bot", "wins", "win rate", "mean score"], rows))
    out.print(f"per game: {summary.mean_rounds:.2f} rounds ({summary.mean_void_rounds:.2f} void), "
              f"{summary.mean_actions:.1f} actions")  # fmt: skip
    better = "lower" if rules.scoring is Scoring.PENALTY else "higher"
    out.print("notes: players tied for the win share it (two tied winners get 0.5 each), so wins can")
    out.print("       be fractions; win rate = wins / completed games; mean score = the mean final")
    out.print(f"       total, {better} is better; a void round ends with nobody out (R-D7).")
    return 0


# --- play ---------------------------------------------------------------------------------

_HELP = """commands:
  <number>        play the action with that number in the list
  <action>        play an action written out, as the list shows them:
                    draw, take, discard 7H, meld 5H 6H 7H, open 9S 10S JS | 8H 8D 8C,
                    layoff #0 7H high, swap #1 6H
                  In 'layoff #0 7H high', #0 is the table meld and 'high' the end of the
                  run the card goes to ('low' below its lowest card, 'high' above its
                  highest; a set has no ends, so the word is left out).
  list            list every legal action
  hint            ask the greedy bot what it would do
  auto            let the greedy bot play this action for you
  quit            stop the game"""

#: The kinds of action in the order the screen groups them, with each group's heading.
_GROUPS: tuple[tuple[type, str], ...] = (
    (DrawStock, "draw"),
    (TakeDiscard, "take the top discard"),
    (Open, "open: lay your opening melds, all at once"),
    (LayMeld, "lay a new meld"),
    (LayOff, "lay off onto table meld #n (low/high: the end of the run)"),
    (SwapJoker, "swap a joker off table meld #n"),
    (Discard, "discard, ending your turn"),
    (NextRound, "next round"),
)
_ORDER = {kind: i for i, (kind, _) in enumerate(_GROUPS)}
#: Choices shown per group before '... and N more'.
_SHOWN = 8
_PHASE_WORDS = {Phase.DRAW: "draw a card", Phase.PLAY: "lay melds, lay off, swap jokers, then discard"}


def _numbered(state: GameState) -> list[Action]:
    """The legal actions in screen order: grouped by kind, in the engine's order within a kind."""
    return sorted(legal_actions(state), key=lambda a: _ORDER.get(type(a), len(_ORDER)))


def _show_choices(legal: Sequence[Action], out: Out, *, everything: bool = False) -> None:
    """The numbered choices, one group per kind of action; discards compactly on a few lines."""
    for kind, heading in _GROUPS:
        numbered = [(i, a) for i, a in enumerate(legal, 1) if type(a) is kind]
        if not numbered:
            continue
        out.print(f"  {heading}:")
        if kind is Discard:
            cells = [f"{i:>2}. {out.paint.card(a.card):<3}" for i, a in numbered if isinstance(a, Discard)]
            for row in range(0, len(cells), 7):
                out.print(("    " + "   ".join(cells[row : row + 7])).rstrip())
            continue
        shown = numbered if everything else numbered[:_SHOWN]
        for i, action in shown:
            out.print(f"    {i:>2}. {out.paint.action(action)}")
        if len(numbered) > len(shown):
            out.print(f"        ... and {len(numbered) - len(shown)} more ('list' shows them all)")


def _render_view(state: GameState, seat: int, out: Out) -> None:
    v = view(state, seat)
    paint = out.paint
    names = v.players
    out.print(f"--- round {v.round_number}, your turn: {_PHASE_WORDS.get(v.phase, v.phase.value)} ---")
    out.print("scores: " + ", ".join(f"{n} {t}" for n, t in zip(names, v.totals)))
    others = ", ".join(f"{names[s]} {plural(v.hand_sizes[s], 'card')}" for s in range(len(names)) if s != seat)
    top = paint.card(v.top_discard) if v.top_discard is not None else "-"
    out.print(f"stock {plural(v.stock_size, 'card')}, discard top {top}; {others}")
    if v.table:
        out.print("table:")
        for i, laid in enumerate(v.table):
            owner = "" if laid.owner is None else f"  ({names[laid.owner]})"
            out.print(f"  #{i} {paint.meld(laid.meld)}{owner}")
    opened = "" if not v.rules.opening_required else (" (opened)" if v.opened[seat] else " (not opened)")
    out.print(f"your hand{opened}: {paint.cards(v.hand)}")
    if v.rules.opening_required and not v.opened[seat]:
        out.print(_opening_line(v))


def _opening_line(v: PlayerView) -> str:
    """What opening needs, and how far the opening laid this turn has come (R-O2, O4)."""
    rules = v.rules
    clean = " with a clean run (no joker)" if rules.opening_clean_run else ""
    if not (v.turn is not None and v.turn.melds_laid):
        return f"  to open, lay melds worth {rules.opening_points} or more in one turn{clean} (R-O2)"
    has_clean = ", clean run laid" if v.opening_clean else (", no clean run yet" if clean else "")
    so_far = f"  opening so far: {v.opening_points} points{has_clean}"
    if v.opening_points >= rules.opening_points and (v.opening_clean or not rules.opening_clean_run):
        return f"{so_far}: enough; you open at your next lay-off, swap or discard (R-O4)"
    missing = " and a clean run" if rules.opening_clean_run and not v.opening_clean else ""
    return f"{so_far}; it needs {rules.opening_points}{missing} before a lay-off, swap or discard (R-O2, O4)"


def _read(args: argparse.Namespace, out: Out, prompt: str = "> ") -> str | None:
    out.stdout.write(prompt)
    out.stdout.flush()
    line: str = args.stdin.readline()
    if not line:
        out.print()
        return None
    if not _isatty(args.stdin):  # scripted: echo the answer so the transcript reads well
        out.print(line.strip())
    return line.strip()


def _pause(args: argparse.Namespace, out: Out) -> None:
    """With ``--pause``, wait for Enter (the end of input goes on without waiting)."""
    if getattr(args, "pause", False):
        _read(args, out, "(press Enter) ")


def _human_action(state: GameState, seat: int, args: argparse.Namespace, out: Out) -> Action | None:
    """Ask for an action until a legal one comes; ``None`` to stop the game."""
    adviser = GreedyBot(0)
    _render_view(state, seat, out)
    legal = _numbered(state)
    _show_choices(legal, out)
    while True:
        line = _read(args, out)
        if line is None or line.lower() in {"q", "quit", "exit"}:
            return None
        word = line.lower()
        if not line:
            continue
        if word in {"h", "help", "?"}:
            out.print(out.paint.text(_HELP))
        elif word == "list":
            _show_choices(legal, out, everything=True)
        elif word in {"hint", "auto"}:
            choice = adviser.choose(view(state, seat), SeatActions(LegalActions(state)))
            if word == "auto":
                return choice
            out.print(f"hint: {out.paint.action(choice)}")
        elif line.isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            out.print(f"no action numbered {number}; choose 1 to {len(legal)}")
        else:
            try:
                action = parse_action(line, state.rules)
                check(state, action)
            except RummyError as error:
                out.print(out.paint.text(str(error)))
                if isinstance(error, InvalidStateError):  # not an action at all: say where to look
                    out.print("type 'help' to see how actions are written, or a number from the list")
                continue
            return action


def _round_end(state: GameState, out: Out) -> None:
    """How the round ended, every hand left (now shown to all), and the score sheet."""
    names = state.players
    result = state.results[-1]
    ended = "void, nobody went out" if result.winner is None else f"{names[result.winner]} went out"
    if result.rummy:
        ended += " in one go"
    out.print(f"round {len(state.results)} over: {ended}")
    out.print("hands left:")
    width = max(len(n) for n in names)
    for seat, hand in enumerate(state.round.hands):
        if seat != result.winner:
            points = plural(hand_penalty(hand, state.rules), "point")
            out.print(f"  {names[seat]:<{width}}  {out.paint.cards(hand)} ({points})")
    out.print(score_sheet(names, state.results, state.totals))


def cmd_play(args: argparse.Namespace, out: Out) -> int:
    rules: Ruleset = args.rules
    players: int = args.players
    rules.hand_size(players)
    bot_name: str = args.bot
    names = [args.name, *(f"{bot_name}-{k}" for k in range(1, players))]
    seed = args.seed if args.seed is not None else None
    state = new_game(rules, names, seed=seed)
    bots = [BOTS[bot_name](derive_seed(args.seed or 0, "bot", k)) for k in range(players)]
    human = 0
    out.print(f"{rules.name} with {players} players; you are {names[human]}. Type 'help' for commands.")
    bots_moved = False
    while not state.is_over:
        if state.phase is Phase.ROUND_OVER:
            _round_end(state, out)
            if len(state.results) == 1:
                out.print("key:")
                out.print(legend(rules))
            _pause(args, out)
            bots_moved = False
            state = apply(state, NextRound())
            continue
        seat = state.to_act
        if seat == human:
            if bots_moved:
                _pause(args, out)
                bots_moved = False
            action = _human_action(state, seat, args, out)
            if action is None:
                out.print("game stopped.")
                out.print(score_sheet(names, state.results, state.totals))
                return 0
        else:
            action = bots[seat].choose(view(state, seat), SeatActions(LegalActions(state)))
            bots_moved = True
        out.print(f"{names[seat]}: {out.paint.action(action)}")
        before = state.round.hands[seat]
        state = apply(state, action)
        if seat == human and isinstance(action, DrawStock) and state.round.hands[seat] > before:
            out.print(f"you drew {out.paint.cards(state.round.hands[seat] - before)}")
    if state.results:
        _round_end(state, out)
    out.print("game over.")
    out.print(_finish(state))
    return 0
