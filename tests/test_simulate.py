"""simulate(): seeding, executors, progress, termination guards, summaries, pickling."""

from __future__ import annotations

import functools
import math
import pickle
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import attrs
import pytest

import rummylib as rl
from rummylib.bots import Bot, BotFactory, GreedyBot, LegalActions, RandomBot, SimulationError, SimulationReason
from rummylib.simulation import (
    DEFAULT_MAX_ACTIONS,
    SIMULATION_RESTOCK_LIMIT,
    GameResult,
    SimulationResult,
    play_game,
    simulate,
    simulation_rules,
)

QUICK_STRAIGHT = attrs.evolve(rl.STRAIGHT, score_limit=30, max_rounds=2)
QUICK_REMIK = attrs.evolve(rl.REMIK, score_limit=100, max_rounds=1)


def _mixed(seed: int) -> Bot:
    """A picklable factory of its own (module level): greedy on even seeds."""
    return GreedyBot() if seed % 2 == 0 else RandomBot(seed)


# --- the restock cap and the action limit (every simulation terminates) ---------------


def test_simulation_rules_cap_restocks_only_when_uncapped() -> None:
    # R-D7: simulations set a cap; past it the round is void.
    assert simulation_rules(rl.REMIK) == attrs.evolve(rl.REMIK, restock_limit=SIMULATION_RESTOCK_LIMIT)
    capped = attrs.evolve(rl.STRAIGHT, restock_limit=5)
    assert simulation_rules(capped) is capped
    result = simulate(QUICK_STRAIGHT, 2, 1, seed=0)
    assert result.rules.restock_limit == SIMULATION_RESTOCK_LIMIT
    assert simulate(capped, 2, 0, seed=0).rules is capped


def test_a_game_past_the_action_limit_is_reported_aborted() -> None:
    result = simulate(rl.REMIK, 3, 3, seed=1, bots="random", max_actions=7)
    assert [g.aborted for g in result.games] == [True] * 3
    assert all(g.actions == 7 and g.winners == () for g in result.games)
    summary = result.summary
    assert (summary.games, summary.completed, summary.aborted) == (3, 0, 3)
    assert all(math.isnan(x) for x in (*summary.win_rate, *summary.mean_score, summary.mean_rounds))


def test_play_game_reports_a_finished_game() -> None:
    bots: list[Bot] = [GreedyBot(), GreedyBot()]
    r = play_game(QUICK_STRAIGHT, 2, bots, seed=12)
    assert not r.aborted and r.rounds >= 1 and r.actions > 0
    assert r.rounds == 2 or max(r.totals) >= 30  # R-S4
    assert r.winners == tuple(i for i, t in enumerate(r.totals) if t == max(r.totals))


# --- determinism: serial == parallel, any chunking ------------------------------------


def test_same_seed_same_result_and_different_seed_different_games() -> None:
    a = simulate(QUICK_STRAIGHT, 3, 6, seed=5, bots="random", max_actions=300)
    assert a == simulate(QUICK_STRAIGHT, 3, 6, seed=5, bots="random", max_actions=300)
    b = simulate(QUICK_STRAIGHT, 3, 6, seed=6, bots="random", max_actions=300)
    assert [g.seed for g in a.games] != [g.seed for g in b.games]
    assert [g.index for g in a.games] == list(range(6))


def test_games_do_not_depend_on_the_number_of_games() -> None:
    small = simulate(QUICK_STRAIGHT, 2, 3, seed=2, bots="random", max_actions=300)
    large = simulate(QUICK_STRAIGHT, 2, 5, seed=2, bots="random", max_actions=300)
    assert large.games[:3] == small.games


@pytest.mark.parametrize("chunk_size", [None, 1, 4])
def test_thread_pool_gives_the_serial_result(chunk_size: int | None) -> None:
    serial = simulate(QUICK_STRAIGHT, 2, 6, seed=3, bots=["greedy", RandomBot])
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = simulate(
            QUICK_STRAIGHT, 2, 6, seed=3, bots=["greedy", RandomBot], executor=pool, chunk_size=chunk_size
        )
    assert threaded == serial


def test_process_pool_gives_the_serial_result() -> None:
    # Everything crosses a process boundary: rules, factories, results.
    bots: list[str | BotFactory] = [_mixed, "random", functools.partial(RandomBot)]
    rules = attrs.evolve(QUICK_REMIK, jokers=6, joker_penalty=50)
    serial = simulate(rules, 3, 4, seed=11, bots=bots)
    with ProcessPoolExecutor(max_workers=2) as pool:
        parallel = simulate(rules, 3, 4, seed=11, bots=bots, executor=pool, chunk_size=1)
    assert parallel == serial
    assert pickle.loads(pickle.dumps(parallel)) == parallel


# --- progress ---------------------------------------------------------------------------


def test_progress_is_reported_after_every_game_serially() -> None:
    seen: list[tuple[int, int]] = []
    simulate(QUICK_STRAIGHT, 2, 4, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_progress_is_reported_per_chunk_on_an_executor() -> None:
    seen: list[tuple[int, int]] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        simulate(
            QUICK_STRAIGHT,
            2,
            5,
            seed=1,
            executor=pool,
            chunk_size=2,
            progress=lambda done, total: seen.append((done, total)),
        )
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (5, 5) and {t for _, t in seen} == {5} and len(seen) == 3


def test_no_games_is_an_empty_result() -> None:
    result = simulate(rl.REMIK, 2, 0, seed=0)
    assert result.games == () and result.summary.games == 0


# --- summary statistics -----------------------------------------------------------------


def test_summary_matches_the_games() -> None:
    result = simulate(QUICK_STRAIGHT, 3, 8, seed=21, bots=["greedy", "random", "random"])
    s = result.summary
    done = [g for g in result.games if not g.aborted]
    assert s.completed == len(done) > 0
    assert math.isclose(sum(s.win_rate), 1.0)
    for seat in range(3):
        wins = sum(1 / len(g.winners) for g in done if seat in g.winners)
        assert math.isclose(s.win_rate[seat], wins / len(done))
        assert math.isclose(s.mean_score[seat], sum(g.totals[seat] for g in done) / len(done))
    assert math.isclose(s.mean_rounds, sum(g.rounds for g in done) / len(done))
    assert math.isclose(s.mean_actions, sum(g.actions for g in done) / len(done))
    assert math.isclose(s.mean_void_rounds, sum(g.void_rounds for g in done) / len(done))


def test_shared_wins_are_split() -> None:
    game = GameResult(
        index=0, seed=1, totals=(10, 10), winners=(0, 1), rounds=3, void_rounds=0, actions=90, aborted=False
    )
    result = SimulationResult(rl.REMIK, 2, 1, [game])
    assert result.summary.win_rate == (0.5, 0.5)


# --- bad arguments ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"games": -1}, SimulationReason.BAD_ARGUMENT),
        ({"games": 1.5}, SimulationReason.BAD_ARGUMENT),
        ({"seed": "x"}, SimulationReason.BAD_ARGUMENT),
        ({"seed": True}, SimulationReason.BAD_ARGUMENT),
        ({"seed": 10**5000}, SimulationReason.BAD_ARGUMENT),  # as new_game: at most 256 digits
        ({"max_actions": 0}, SimulationReason.BAD_ARGUMENT),
        ({"chunk_size": 0, "executor": "pool"}, SimulationReason.BAD_ARGUMENT),
        ({"bots": "clever"}, SimulationReason.UNKNOWN_BOT),
        ({"bots": [3, 4]}, SimulationReason.UNKNOWN_BOT),
        ({"bots": ["greedy"]}, SimulationReason.WRONG_BOT_COUNT),
        ({"rules": "remik"}, SimulationReason.BAD_ARGUMENT),
        ({"players": "two"}, SimulationReason.BAD_ARGUMENT),
    ],
)
def test_bad_arguments_raise_a_typed_error(kwargs: dict[str, object], reason: SimulationReason) -> None:
    args: dict[str, object] = {"rules": rl.STRAIGHT, "players": 2, "games": 1, "seed": 0, **kwargs}
    with ThreadPoolExecutor(max_workers=1) as pool:
        if args.get("executor") == "pool":
            args["executor"] = pool
        with pytest.raises(SimulationError) as info:
            simulate(**args)  # type: ignore[arg-type]
    assert info.value.reason is reason
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, rl.RummyError)


def test_bots_that_do_not_pickle_are_refused_before_any_game_runs() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(SimulationError) as info:
        simulate(rl.STRAIGHT, 2, 2, seed=0, bots=lambda seed: GreedyBot(), executor=pool)
    assert info.value.reason is SimulationReason.BAD_ARGUMENT and "pickle" in str(info.value)
    with ThreadPoolExecutor(max_workers=1) as threads:  # threads need no pickling
        result = simulate(QUICK_STRAIGHT, 2, 1, seed=0, bots=lambda seed: GreedyBot(), executor=threads)
    assert result.summary.games == 1


def test_bot_instances_are_refused_with_a_hint() -> None:
    with pytest.raises(SimulationError, match="factory"):
        simulate(rl.STRAIGHT, 2, 1, seed=0, bots=[GreedyBot(), GreedyBot()])  # type: ignore[list-item]


def test_a_table_size_the_rules_forbid_is_a_ruleset_error() -> None:
    with pytest.raises(rl.RulesetError):
        simulate(rl.REMIK, 7, 1, seed=0)


def test_play_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(SimulationError) as info:
        play_game(rl.STRAIGHT, 3, [GreedyBot()], seed=0)
    assert info.value.reason is SimulationReason.WRONG_BOT_COUNT
    with pytest.raises(SimulationError):
        play_game(rl.STRAIGHT, 1, [GreedyBot()], seed=0, max_actions=0)


def test_an_illegal_choice_is_an_illegal_action_error() -> None:
    class Cheat:
        def choose(self, view: rl.PlayerView, legal: Sequence[rl.Action]) -> rl.Action:
            return rl.NextRound()

    with pytest.raises(rl.IllegalActionError):
        play_game(rl.STRAIGHT, 2, [Cheat(), Cheat()], seed=0)


# --- everything simulate ships must pickle ----------------------------------------------


@pytest.mark.parametrize(
    "rules", [simulation_rules(rl.REMIK), simulation_rules(rl.STRAIGHT)], ids=["remik", "straight"]
)
def test_states_views_actions_and_bots_pickle(rules: rl.Ruleset) -> None:
    state = rl.new_game(rules, 3, seed=99)
    bots: list[Bot] = [RandomBot(1), GreedyBot(), RandomBot(2)]
    for _ in range(120):
        if state.is_over:
            break
        assert pickle.loads(pickle.dumps(state)) == state
        seat = state.to_act
        v = rl.view(state, seat)
        assert pickle.loads(pickle.dumps(v)) == v
        legal = list(rl.legal_actions(state))
        assert pickle.loads(pickle.dumps(legal)) == legal
        action = bots[seat].choose(v, LegalActions(state))
        state = rl.apply(state, action)
    assert pickle.loads(pickle.dumps(bots))[0].seed == 1


def test_default_action_limit_is_generous() -> None:
    assert DEFAULT_MAX_ACTIONS >= 10_000


# --- the built-in RandomBot's actions skip the second check (apply_listed) -------------


class _CheckedRandom(RandomBot):
    """RandomBot's choices, but a subclass: its actions go through the checked ``apply``."""


@pytest.mark.parametrize(
    ("rules", "players"),
    [(simulation_rules(rl.REMIK), 4), (simulation_rules(rl.STRAIGHT), 2), (attrs.evolve(QUICK_REMIK, jokers=6), 3)],
    ids=["remik", "straight", "remik-6-jokers"],
)
def test_random_bots_trusted_step_plays_the_checked_game(rules: rl.Ruleset, players: int) -> None:
    # R-T1..T7: an action the listing gave is legal, so apply_listed's state is apply's, to the last field
    # (hands, table, knowledge R-H1, scores); a RandomBot subclass is not trusted and takes the checked path.
    from rummylib.simulation import _play

    for seed in range(3):
        start = rl.new_game(rules, players, seed=seed)
        fast = _play(start, [RandomBot(seed * 10 + k) for k in range(players)], seed, 400)
        checked = _play(start, [_CheckedRandom(seed * 10 + k) for k in range(players)], seed, 400)
        assert fast == checked
        assert fast[1] > 0


def test_only_the_very_listed_object_is_trusted() -> None:
    from rummylib.simulation import _listed

    legal = rl.bots.SeatActions(rl.legal_actions(rl.new_game(rl.STRAIGHT, 2, seed=1)))
    assert _listed(legal[0], legal)
    assert not _listed(rl.DrawStock(), legal)  # equal, but another object: checked by apply
