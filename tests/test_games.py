"""Whole games between bots: they end, conserve cards at every step, and score consistently.

Each game is played move by move with every invariant checked after each
action: card conservation (R-C3), totals changing only when a round ends,
each round's result matching the hands left (R-S1, S3, E2, E4, D7), and the
final standings following from the round results (R-S2, S4).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs
import pytest

import rummylib as rl
from rummylib.bots import Bot, GreedyBot, LegalActions, RandomBot, derive_seed
from rummylib.scoring import is_game_over, score_round, standings
from rummylib.simulation import simulate, simulation_rules

#: Name, ruleset (with the simulation restock cap, R-D7), players.
TABLES: list[tuple[str, rl.Ruleset, int]] = [
    ("remik", simulation_rules(rl.REMIK), 4),
    ("straight", simulation_rules(rl.STRAIGHT), 4),
    ("straight-2p", simulation_rules(rl.STRAIGHT), 2),
    ("remik-6-jokers", simulation_rules(attrs.evolve(rl.REMIK, jokers=6, joker_penalty=50)), 3),
    ("straight-any-melds", simulation_rules(attrs.evolve(rl.STRAIGHT, melds_per_turn=None)), 3),
]
IDS = [t[0] for t in TABLES]

#: Random bots rarely go out: their games are kept short with a low score
#: limit (still whole games, ended by the rules); greedy games are full length.
RANDOM_GAMES = 4
RANDOM_LIMITS = {"remik": 60, "straight": 15, "straight-2p": 15, "remik-6-jokers": 60, "straight-any-melds": 15}
GREEDY_GAMES = 4
MAX_ACTIONS = 20_000


@attrs.frozen
class Stats:
    rounds: int
    void_rounds: int
    actions: int


def _check_round_result(before: rl.GameState, after: rl.GameState) -> None:
    """The round that just ended scored exactly what its hands say."""
    result = after.results[-1]
    hands = after.round.hands
    rules = after.rules
    assert result == score_round(hands, result.winner, rules, rummy=result.rummy)
    if result.winner is not None:
        assert len(hands[result.winner]) == 0  # R-E1, E3: the winner's hand is empty
        assert result.rummy == (not before.round.has_laid[result.winner])  # R-E2, E4
    else:
        # R-D7: a void round scores nothing.
        assert result.scores == (0,) * after.num_players


def play_checked(rules: rl.Ruleset, bots: Sequence[Bot], seed: int) -> tuple[rl.GameState, Stats]:
    """Play a whole game, checking every invariant after every action."""
    full_deck = rl.deck(rules)
    state = rl.new_game(rules, len(bots), seed=seed)
    actions = 0
    while not state.is_over:
        assert actions < MAX_ACTIONS, "game did not terminate"
        assert state.round.cards() == full_deck  # R-C3
        seat = state.to_act
        action = bots[seat].choose(rl.view(state, seat), LegalActions(state))
        frozen = pickle.dumps(state) if actions % 97 == 0 else None
        after = rl.apply(state, action)
        if frozen is not None:
            assert pickle.loads(frozen) == state  # apply never changes its input
        if len(after.results) == len(state.results):
            assert after.totals == state.totals  # totals change only at round end
        else:
            assert len(after.results) == len(state.results) + 1
            assert isinstance(action, (rl.Discard, rl.LayMeld, rl.LayOff, rl.Open, rl.DrawStock, rl.TakeDiscard))
            _check_round_result(state, after)
            assert after.totals == tuple(t + s for t, s in zip(state.totals, after.results[-1].scores))
        state = after
        actions += 1
    assert state.round.cards() == full_deck
    _check_standings(state)
    voids = sum(1 for r in state.results if r.winner is None)
    return state, Stats(len(state.results), voids, actions)


def _check_standings(state: rl.GameState) -> None:
    """R-S2, S4: the totals are the sums of the rounds; the game ended at the first round it could."""
    rules = state.rules
    n = state.num_players
    totals = [0] * n
    for k, result in enumerate(state.results, start=1):
        assert not is_game_over(totals, k - 1, rules) or k == 1
        totals = [t + s for t, s in zip(totals, result.scores)]
        assert is_game_over(totals, k, rules) == (k == len(state.results))
    assert tuple(totals) == state.totals
    table = state.standings
    assert table == standings(totals, len(state.results), rules)
    assert table.is_over and table.rounds == len(state.results)
    best = min(totals) if rules.scoring is rl.Scoring.PENALTY else max(totals)
    assert table.winners == tuple(i for i, t in enumerate(totals) if t == best)


def _random_bots(players: int, seed: int) -> list[Bot]:
    return [RandomBot(derive_seed(seed, "bot", k)) for k in range(players)]


@pytest.mark.parametrize(("name", "rules", "players"), TABLES, ids=IDS)
def test_random_bot_games_end_and_keep_every_invariant(name: str, rules: rl.Ruleset, players: int) -> None:
    short = attrs.evolve(rules, score_limit=RANDOM_LIMITS[name])
    for seed in range(RANDOM_GAMES):
        _state, stats = play_checked(short, _random_bots(players, seed), seed)
        assert stats.rounds >= 1


@pytest.mark.parametrize(("name", "rules", "players"), TABLES, ids=IDS)
def test_greedy_games_end_and_keep_every_invariant(name: str, rules: rl.Ruleset, players: int) -> None:
    rounds = voids = 0
    for seed in range(GREEDY_GAMES):
        _state, stats = play_checked(rules, [GreedyBot() for _ in range(players)], 1000 + seed)
        rounds += stats.rounds
        voids += stats.void_rounds
    assert voids < rounds  # greedy bots do go out


def test_mixed_table_greedy_beats_random_in_remik() -> None:
    # Not a rule, a sanity check of the bots: greedy should win most games.
    result = simulate(rl.REMIK, 2, 4, seed=7, bots=["greedy", "random"])
    assert result.summary.completed == 4
    assert result.summary.win_rate[0] >= 0.75


SLOW_CHECKED_GAMES = 10
SLOW_SIMULATED_GAMES = 300  # per ruleset; CI's time budget (greedy games got slower with the staged opening)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rules", "players"), TABLES, ids=IDS)
def test_many_seeded_games_terminate_and_conserve_cards(name: str, rules: rl.Ruleset, players: int) -> None:
    for seed in range(SLOW_CHECKED_GAMES):
        play_checked(rules, [GreedyBot() for _ in range(players)], 5000 + seed)
    short = attrs.evolve(rules, score_limit=RANDOM_LIMITS[name])
    for seed in range(SLOW_CHECKED_GAMES):
        play_checked(short, _random_bots(players, 5000 + seed), 5000 + seed)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rules", "players"), TABLES[:2], ids=IDS[:2])
def test_many_simulated_games_complete_on_a_process_pool(name: str, rules: rl.Ruleset, players: int) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        result = simulate(rules, players, SLOW_SIMULATED_GAMES, seed=77, bots="greedy", executor=pool)
    summary = result.summary
    assert summary.completed == SLOW_SIMULATED_GAMES  # R-D7 cap: every game ends by the rules
    for game in result.games:
        table = standings(game.totals, game.rounds, result.rules)
        assert table.is_over and table.winners == game.winners
    assert abs(sum(summary.win_rate) - 1) < 1e-9
