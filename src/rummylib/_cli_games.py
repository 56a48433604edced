"""The game commands of the ``rummylib`` command: ``simulate`` and ``play``."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummylib._terminal import Out, ProgressBar, _isatty, render_table
from rummylib.actions import Action, DrawStock, NextRound
from rummylib.bots import GreedyBot, LegalActions, RandomBot, SearchBot, derive_seed
from rummylib.engine import GameState, Phase, apply, check, legal_actions, new_game, view
from rummylib.errors import RummyError
from rummylib.records import parse_action
from rummylib.rules import Ruleset
from rummylib.scoring import RoundResult

if TYPE_CHECKING:
    from rummylib.bots import BotFactory

__all__: list[str] = []

BOTS: dict[str, BotFactory] = {"greedy": GreedyBot, "random": RandomBot, "search": SearchBot}


def score_sheet(players: Sequence[str], results: Sequence[RoundResult], totals: Sequence[int]) -> str:
    """Every round's scores and the totals; ``*`` marks who went out, ``x2`` a one-turn go-out."""
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


def _replay(rules: Ruleset, players: int, bots: Sequence[str], seed: int, index: int, game_seed: int,
            max_actions: int) -> GameState:  # fmt: skip
    """Play game ``index`` of a simulation again, exactly as :func:`~rummylib.simulate` did."""
    seated = [BOTS[name](derive_seed(seed, "bot", index, k)) for k, name in enumerate(bots)]
    state = new_game(rules, [f"{name}-{k}" for k, name in enumerate(bots)], seed=game_seed)
    for _ in range(max_actions):
        if state.is_over:
            break
        seat = state.to_act
        state = apply(state, seated[seat].choose(view(state, seat), LegalActions(state)))
    return state


def cmd_simulate(args: argparse.Namespace, out: Out) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from rummylib.simulation import DEFAULT_MAX_ACTIONS, simulate

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
            state = _replay(result.rules, players, bots, args.seed, game.index, game.seed, DEFAULT_MAX_ACTIONS)
            out.print(f"game {game.index + 1} ({rules.name}, seed {game.seed}):")
            out.print(score_sheet(state.players, state.results, state.totals))
            out.print(_finish(state))
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
    return 0


# --- play ---------------------------------------------------------------------------------

_HELP = """commands:
  <number>        play the action with that number in the list
  <action>        play an action written out: draw, take, discard 7H, meld 5H 6H 7H,
                  open 9S 10S JS | 8H 8D 8C, layoff #0 7H high, swap #1 6H
  list            list every legal action
  hint            ask the greedy bot what it would do
  auto            let the greedy bot play this action for you
  quit            stop the game"""

_SHOWN = 25


def _render_view(state: GameState, seat: int, out: Out) -> None:
    v = view(state, seat)
    paint = out.paint
    names = v.players
    out.print(f"--- round {v.round_number}, your turn ({v.phase.value}) ---")
    out.print("scores: " + ", ".join(f"{n} {t}" for n, t in zip(names, v.totals)))
    others = ", ".join(f"{names[s]} {v.hand_sizes[s]} cards" for s in range(len(names)) if s != seat)
    top = paint.card(v.top_discard) if v.top_discard is not None else "-"
    out.print(f"stock {v.stock_size}, discard top {top}; {others}")
    if v.table:
        out.print("table:")
        for i, laid in enumerate(v.table):
            owner = "" if laid.owner is None else f"  ({names[laid.owner]})"
            out.print(f"  #{i} {paint.meld(laid.meld)}{owner}")
    opened = "" if not v.rules.opening_required else (" (opened)" if v.opened[seat] else " (not opened)")
    out.print(f"your hand{opened}: {paint.cards(v.hand)}")


def _read(args: argparse.Namespace, out: Out) -> str | None:
    out.stdout.write("> ")
    out.stdout.flush()
    line: str = args.stdin.readline()
    if not line:
        out.print()
        return None
    if not _isatty(args.stdin):  # scripted: echo the answer so the transcript reads well
        out.print(line.strip())
    return line.strip()


def _human_action(state: GameState, seat: int, args: argparse.Namespace, out: Out) -> Action | None:
    """Ask for an action until a legal one comes; ``None`` to stop the game."""
    adviser = GreedyBot(0)
    _render_view(state, seat, out)
    legal = list(legal_actions(state))
    for i, action in enumerate(legal[:_SHOWN], 1):
        out.print(f"  {i:>2}. {out.paint.action(action)}")
    if len(legal) > _SHOWN:
        out.print(f"  ... and {len(legal) - _SHOWN} more ('list' shows them all)")
    while True:
        line = _read(args, out)
        if line is None or line.lower() in {"q", "quit", "exit"}:
            return None
        word = line.lower()
        if not line:
            continue
        if word in {"h", "help", "?"}:
            out.print(_HELP)
        elif word == "list":
            for i, action in enumerate(legal, 1):
                out.print(f"  {i:>2}. {out.paint.action(action)}")
        elif word in {"hint", "auto"}:
            choice = adviser.choose(view(state, seat), LegalActions(state))
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
                out.print(f"not that: {error}")
                continue
            return action


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
    while not state.is_over:
        if state.phase is Phase.ROUND_OVER:
            result = state.results[-1]
            out.print(f"round {len(state.results)} over: "
                      + ("void, nobody went out" if result.winner is None else f"{names[result.winner]} went out"))  # fmt: skip
            out.print(score_sheet(names, state.results, state.totals))
            state = apply(state, NextRound())
            continue
        seat = state.to_act
        if seat == human:
            action = _human_action(state, seat, args, out)
            if action is None:
                out.print("game stopped.")
                out.print(score_sheet(names, state.results, state.totals))
                return 0
        else:
            action = bots[seat].choose(view(state, seat), LegalActions(state))
        out.print(f"{names[seat]}: {out.paint.action(action)}")
        before = state.round.hands[seat]
        state = apply(state, action)
        if seat == human and isinstance(action, DrawStock) and state.round.hands[seat] > before:
            out.print(f"you drew {out.paint.cards(state.round.hands[seat] - before)}")
    out.print("game over.")
    out.print(score_sheet(names, state.results, state.totals))
    out.print(_finish(state))
    return 0
