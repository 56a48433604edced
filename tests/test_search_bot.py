"""SearchBot: legal, deterministic for a seed and budget, picklable, named "search" in simulate and the CLI."""

from __future__ import annotations

import io
import pickle

import attrs
import pytest
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.cli import main

ONE_ROUND = {
    "remik": attrs.evolve(rl.REMIK, restock_limit=1, max_rounds=1),
    "straight": attrs.evolve(rl.STRAIGHT, restock_limit=1, max_rounds=1),
}


def _bot(seed: int, *, hold: bool = False, **fields: int) -> rl.SearchBot:
    return rl.SearchBot(seed=seed, settings=rl.SearchBotSettings(hold=hold, **fields))


def _play(rules: rl.Ruleset, bots: list[rl.Bot], seed: int) -> list[rl.Action]:
    state = rl.new_game(rules, len(bots), seed=seed)
    actions: list[rl.Action] = []
    while not state.is_over and len(actions) < 2000:
        action = bots[state.to_act].choose(rl.view(state, state.to_act), rl.LegalActions(state))
        assert rl.is_legal(state, action)
        state = rl.apply(state, action)
        actions.append(action)
    assert state.is_over
    return actions


@pytest.mark.parametrize("name", sorted(ONE_ROUND))
def test_search_bot_plays_legal_rounds_deterministically(name: str) -> None:
    rules = ONE_ROUND[name]
    first = _play(rules, [_bot(1, samples=4, batch=2), rl.GreedyBot()], seed=4)
    again = _play(rules, [_bot(1, samples=4, batch=2), rl.GreedyBot()], seed=4)
    assert first == again


def test_search_bot_with_belief_plays_legal_rounds_deterministically() -> None:
    # The samples agree with the top discard first (belief_steps); still legal and the same for a seed.
    rules = ONE_ROUND["straight"]
    first = _play(rules, [_bot(2, samples=4, batch=2, belief_steps=4), rl.GreedyBot()], seed=6)
    assert first == _play(rules, [_bot(2, samples=4, batch=2, belief_steps=4), rl.GreedyBot()], seed=6)


def test_search_bot_choices_are_legal_on_reachable_views() -> None:
    bot = _bot(3, samples=2, candidates=3)
    for name in ("remik-house", "straight-house"):
        for state in walk(WALK_RULES[name], 3, 5, 30):
            if state.phase in (rl.Phase.DRAW, rl.Phase.PLAY):
                action = bot.choose(rl.view(state, state.to_act), list(rl.legal_actions(state)))
                assert rl.is_legal(state, action)


def test_search_bot_pickles_and_continues_where_it_was() -> None:
    bot = _bot(9, samples=3)
    state = rl.new_game(rl.STRAIGHT, 2, seed=2)
    v, legal = rl.view(state, state.to_act), rl.LegalActions(state)
    bot.choose(v, legal)
    copy = pickle.loads(pickle.dumps(bot))
    assert repr(copy) == repr(bot) and copy.settings == bot.settings
    assert [copy.choose(v, legal) for _ in range(3)] == [bot.choose(v, legal) for _ in range(3)]


def test_search_is_a_named_bot_in_simulate() -> None:
    result = rl.simulate(ONE_ROUND["remik"], 2, 1, seed=5, bots=["search", "greedy"])
    assert result.summary.completed == 1
    assert result == rl.simulate(ONE_ROUND["remik"], 2, 1, seed=5, bots=["search", "greedy"])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"samples": 0},
        {"samples": True},
        {"samples": 1001},
        {"batch": 0},
        {"candidates": "4"},
        {"horizon": 0},
        {"margin": -1.0},
        {"margin": True},
        {"time_limit": 0},
        {"time_limit": True},
        {"belief_steps": -1},
        {"belief_steps": True},
        {"hold": 1},
        {"hold": "yes"},
        {"win_weight": -1.0},
        {"win_weight": True},
        {"win_weight": 1001},
    ],
)
def test_bad_search_settings_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(rl.SimulationError) as info:
        rl.SearchBotSettings(**kwargs)  # type: ignore[arg-type]
    assert info.value.reason is rl.SimulationReason.BAD_ARGUMENT


@pytest.mark.parametrize("kwargs", [{"seed": 1.0}, {"settings": {"samples": 2}}])
def test_bad_search_bot_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(rl.SimulationError) as info:
        rl.SearchBot(**kwargs)  # type: ignore[arg-type]
    assert info.value.reason is rl.SimulationReason.BAD_ARGUMENT


def test_the_budget_is_not_a_loose_keyword() -> None:
    with pytest.raises(TypeError):
        rl.SearchBot(samples=2)  # type: ignore[call-arg]


def test_settings_are_one_value_passed_explicitly() -> None:
    settings = rl.SearchBotSettings(samples=16, horizon=2)
    bot = rl.SearchBot(seed=4, settings=settings)
    assert bot.settings is settings and rl.SearchBot().settings == rl.SearchBotSettings()
    assert "samples=16" in repr(bot) and pickle.loads(pickle.dumps(settings)) == settings


def test_a_time_limit_still_gives_a_legal_action() -> None:
    state = rl.new_game(rl.REMIK, 2, seed=8)
    bot = rl.SearchBot(settings=rl.SearchBotSettings(samples=50, batch=5, time_limit=0.01))
    action = bot.choose(rl.view(state, state.to_act), rl.LegalActions(state))
    assert rl.is_legal(state, action)


def test_cli_play_against_search_bots() -> None:
    out = io.StringIO()
    code = main(
        ["play", "--seed", "3", "--players", "2", "--rules", "straight", "--bots", "search"],
        stdin=io.StringIO("auto\n" * 6),
        stdout=out,
        stderr=io.StringIO(),
    )
    assert code == 0 and "game stopped." in out.getvalue()


def _greedy_until(rules: rl.Ruleset, seed: int, steps: int) -> rl.GameState:
    """The state after ``steps`` actions of two GreedyBots from game ``seed``."""
    state = rl.new_game(rules, 2, seed=seed)
    bots = [rl.GreedyBot(), rl.GreedyBot()]
    for _ in range(steps):
        state = rl.apply(state, bots[state.to_act].choose(rl.view(state, state.to_act), rl.LegalActions(state)))
    return state


def test_hold_searches_whether_to_open_now_or_wait() -> None:
    # R-E2: an opening laid in the turn that goes out doubles, so holding the opening back can pay.
    state = _greedy_until(ONE_ROUND["remik"], 1, 20)
    v, legal = rl.view(state, state.to_act), rl.LegalActions(state)
    greedy = rl.GreedyBot().choose(v, legal)
    assert isinstance(greedy, rl.LayMeld) and not v.has_laid[v.seat]
    assert _bot(1, samples=8, batch=4).choose(v, legal) == greedy  # hold off: GreedyBot's opening
    held = _bot(1, samples=8, batch=4, hold=True).choose(v, legal)
    assert isinstance(held, rl.Discard) and rl.is_legal(state, held)
    assert held == _bot(1, samples=8, batch=4, hold=True).choose(v, legal)  # the same for a seed


def test_hold_never_searches_a_turn_that_goes_out(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _greedy_until(ONE_ROUND["remik"], 5, 18)  # GreedyBot opens and goes out this turn (R-E2)
    v, legal = rl.view(state, state.to_act), rl.LegalActions(state)

    def no_search(*_args: object) -> rl.Action:
        raise AssertionError("searched")

    monkeypatch.setattr(rl.SearchBot, "_search", no_search)
    assert _bot(1, samples=8, hold=True).choose(v, legal) == rl.GreedyBot().choose(v, legal)


@pytest.mark.parametrize("name", sorted(ONE_ROUND))
def test_hold_plays_legal_rounds_deterministically_and_pickles(name: str) -> None:
    rules = ONE_ROUND[name]
    first = _play(rules, [rl.GreedyBot(), _bot(3, samples=4, batch=2, hold=True)], seed=9)
    bot = pickle.loads(pickle.dumps(_bot(3, samples=4, batch=2, hold=True)))
    assert bot.settings.hold and first == _play(rules, [rl.GreedyBot(), bot], seed=9)


def test_win_weight_adds_points_for_winning_the_round() -> None:
    # R-S1: the round's result is the lead; win_weight adds its points to the winner's side and takes them from the loser's.
    rules = ONE_ROUND["remik"]
    state = rl.new_game(rules, 2, seed=3)
    bots = [rl.GreedyBot(), rl.GreedyBot()]
    middle = None
    while state.phase in (rl.Phase.DRAW, rl.Phase.PLAY):
        if middle is None and state.round.opened[0]:
            middle = state
        state = rl.apply(state, bots[state.to_act].choose(rl.view(state, state.to_act), rl.LegalActions(state)))
    winner = state.results[-1].winner
    assert winner is not None and middle is not None
    plain, weighted = rl.SearchBot(), rl.SearchBot(settings=rl.SearchBotSettings(win_weight=30.0))
    assert weighted._value(state, winner) - plain._value(state, winner) == 30
    assert weighted._value(state, 1 - winner) - plain._value(state, 1 - winner) == -30
    # Mid-round the horizon's race adds win_weight times (2 p - 1), p the chance of going out first.
    gap = weighted._race(middle, 0) - plain._race(middle, 0)
    assert -30 < gap < 30 and gap == pytest.approx(-(weighted._race(middle, 1) - plain._race(middle, 1)))
