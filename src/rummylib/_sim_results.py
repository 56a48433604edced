"""The results of simulated games (re-exported by :mod:`rummylib.simulation`, where they are documented)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import attrs

from rummylib.rules import Ruleset

__all__ = ["GameResult", "SimulationResult", "SimulationSummary"]


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _game_tuple(values: Iterable[GameResult]) -> tuple[GameResult, ...]:
    return tuple(values)


@attrs.frozen
class GameResult:
    """How one game between bots ended.

    Attributes:
        index: the game's number in its simulation (0 for :func:`play_game`).
        seed: the seed the game was dealt from.
        totals: each seat's final running total.
        winners: the seats sharing the win (empty if the game was aborted).
        rounds: rounds played, void rounds included.
        void_rounds: rounds nobody went out of (R-D7).
        actions: actions applied, ``NextRound`` included.
        aborted: whether the game hit the action limit before it ended.
    """

    index: int
    seed: int
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    winners: tuple[int, ...] = attrs.field(converter=_ints)
    rounds: int
    void_rounds: int
    actions: int
    aborted: bool


@attrs.frozen
class SimulationSummary:
    """Statistics over the games of a simulation that ran to the end.

    Aborted games are counted but left out of every mean and rate. A shared
    win counts ``1/k`` to each of the ``k`` winners, so win rates sum to 1.

    Attributes:
        games: games played.
        completed: games that ended by the rules.
        aborted: games stopped at the action limit.
        win_rate: per seat, its share of the completed games' wins.
        mean_score: per seat, its mean final total.
        mean_rounds: mean rounds per game.
        mean_void_rounds: mean void rounds per game.
        mean_actions: mean actions per game (the game length).
    """

    games: int
    completed: int
    aborted: int
    win_rate: tuple[float, ...]
    mean_score: tuple[float, ...]
    mean_rounds: float
    mean_void_rounds: float
    mean_actions: float


@attrs.frozen
class SimulationResult:
    """Every game of a simulation, in order, and their summary.

    Attributes:
        rules: the ruleset the games were played with (restock cap included).
        players: seats per game.
        seed: the simulation seed.
        games: one :class:`GameResult` per game, by index.
    """

    rules: Ruleset
    players: int
    seed: int
    games: tuple[GameResult, ...] = attrs.field(converter=_game_tuple)

    @property
    def summary(self) -> SimulationSummary:
        """Win rates, mean scores and game lengths (see :class:`SimulationSummary`)."""
        n = self.players
        done = [g for g in self.games if not g.aborted]
        wins = [0.0] * n
        scores = [0.0] * n
        for g in done:
            for w in g.winners:
                wins[w] += 1 / len(g.winners)
            for seat, total in enumerate(g.totals):
                scores[seat] += total
        count = len(done)

        def mean(values: Iterable[float]) -> float:
            return math.fsum(values) / count if count else math.nan

        return SimulationSummary(
            games=len(self.games),
            completed=count,
            aborted=len(self.games) - count,
            win_rate=tuple(w / count if count else math.nan for w in wins),
            mean_score=tuple(s / count if count else math.nan for s in scores),
            mean_rounds=mean(g.rounds for g in done),
            mean_void_rounds=mean(g.void_rounds for g in done),
            mean_actions=mean(g.actions for g in done),
        )


for _cls in (GameResult, SimulationSummary, SimulationResult):
    _cls.__module__ = "rummylib.simulation"  # documented, imported and pickled as rummylib.simulation.X
