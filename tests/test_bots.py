"""The built-in bots: RandomBot's stream, GreedyBot's choices, LegalActions, pickling."""

from __future__ import annotations

import copy
import itertools
import pickle
from collections.abc import Callable, Sequence
from typing import cast

import attrs
import pytest
from _budget import examples
from _setup import with_openers_melds
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.bots import (
    Bot,
    GreedyBot,
    LegalActions,
    RandomBot,
    SearchBot,
    SeatActions,
    SimulationError,
    SimulationReason,
    _SplitMix64,
    derive_seed,
)
from rummylib.simulation import simulation_rules

C = rl.parse_cards
REMIK_SIM = simulation_rules(rl.REMIK)
STRAIGHT_SIM = simulation_rules(rl.STRAIGHT)


def _picks(bot: Bot, menu: Sequence[object], n: int) -> list[object]:
    """``n`` choices from a menu of plain values (RandomBot never looks at the view)."""
    view, legal = cast(rl.PlayerView, None), cast(Sequence[rl.Action], menu)
    return [bot.choose(view, legal) for _ in range(n)]


def _play(state: rl.GameState, bots: list[Bot], steps: int) -> list[rl.GameState]:
    """The states of ``steps`` moves (or until the game ends), the first included."""
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        state = rl.apply(state, bots[seat].choose(rl.view(state, seat), LegalActions(state)))
        states.append(state)
    return states


# --- the random stream ----------------------------------------------------------------


def test_splitmix64_matches_the_reference_vector() -> None:
    rng = _SplitMix64(0)
    rng.state = 0
    # SplitMix64 from state 0: the published first outputs.
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_random_bot_choices_are_pinned() -> None:
    # Version-stable: these choices must never change, or seeded simulations stop replaying.
    bot = RandomBot(seed=0)
    assert _picks(bot, range(10), 10) == [8, 9, 7, 2, 1, 9, 2, 6, 7, 9]
    bot = RandomBot(seed=2026)
    assert _picks(bot, range(1000), 5) == [820, 452, 360, 817, 921]


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=1, max_value=10**6))
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = _SplitMix64(seed)
    assert all(0 <= rng.below(n) < n for _ in range(5))


def test_below_is_roughly_uniform() -> None:
    rng = _SplitMix64(42)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_derive_seed_is_pinned_and_separates_labels() -> None:
    assert derive_seed(2026, "game", 0) == derive_seed(2026, "game", 0)
    seeds = {derive_seed(s, "game", i) for s in range(5) for i in range(20)}
    seeds |= {derive_seed(s, "bot", i, k) for s in range(5) for i in range(20) for k in range(4)}
    assert len(seeds) == 5 * 20 + 5 * 20 * 4
    assert derive_seed(1, "game", 0) == 0x5037C5EC1C60AA5003B8FE46482BD073


@pytest.mark.parametrize("seed", ["1", 1.0, True, None])
def test_random_bot_refuses_a_seed_that_is_not_an_int(seed: object) -> None:
    with pytest.raises(SimulationError) as info:
        RandomBot(seed=seed)  # type: ignore[arg-type]
    assert info.value.reason is SimulationReason.BAD_ARGUMENT


@pytest.mark.parametrize(
    "seed",
    ["1", 1.0, True, None, 10**5000, -(10**256), "x" * 10**6],
    ids=["str", "float", "bool", "none", "huge", "257-digits", "long-str"],
)
@pytest.mark.parametrize("make", [RandomBot, GreedyBot, SearchBot, derive_seed])
def test_bot_seeds_are_bounded_ints(make: Callable[[int], object], seed: object) -> None:
    # A hostile seed (a huge int, whose decimal form Python refuses, or a long string) is a typed
    # error with a short message, for every bot and for derive_seed alike (issue 10).
    with pytest.raises(SimulationError) as info:
        make(seed)  # type: ignore[arg-type]
    assert info.value.reason is SimulationReason.BAD_ARGUMENT
    assert len(str(info.value)) <= 500


@pytest.mark.parametrize("actions", ["x", 5, None, [1], [rl.DrawStock(), "Discard(AH)"]])
def test_seat_actions_hold_only_actions(actions: object) -> None:
    with pytest.raises(SimulationError) as info:
        SeatActions(actions)  # type: ignore[arg-type]
    assert info.value.reason is SimulationReason.BAD_ARGUMENT


def test_bot_seeds_of_256_digits_are_accepted() -> None:
    big = 10**256 - 1
    assert RandomBot(big).seed == GreedyBot(big).seed == big
    assert derive_seed(-big, "game", 0) != derive_seed(big, "game", 0)


def test_bots_refuse_an_empty_choice() -> None:
    s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    for bot in (RandomBot(1), GreedyBot()):
        with pytest.raises(SimulationError) as info:
            bot.choose(rl.view(s, 1), [])
        assert info.value.reason is SimulationReason.NO_LEGAL_ACTION


def test_bots_satisfy_the_protocol() -> None:
    assert isinstance(RandomBot(1), Bot)
    assert isinstance(GreedyBot(), Bot)
    assert repr(RandomBot(5)) == "RandomBot(seed=5)"


# --- pickling (simulate ships bots to worker processes) --------------------------------


def test_random_bot_pickles_mid_stream() -> None:
    bot = RandomBot(seed=9)
    items = list(range(1000))
    _picks(bot, items, 7)
    clone = pickle.loads(pickle.dumps(bot))
    twin = copy.deepcopy(bot)
    ahead = _picks(bot, items, 20)
    assert _picks(clone, items, 20) == ahead
    assert _picks(twin, items, 20) == ahead


def test_greedy_bot_pickles_without_its_memo() -> None:
    s = rl.new_game(STRAIGHT_SIM, 2, seed=3)
    bot = GreedyBot()
    states = _play(s, [bot, bot], 12)
    clone = pickle.loads(pickle.dumps(bot))
    assert clone._memo == {}
    for state in states[:-1]:
        seat = state.to_act
        v = rl.view(state, seat)
        assert clone.choose(v, LegalActions(state)) == GreedyBot().choose(v, LegalActions(state))


# --- LegalActions -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [REMIK_SIM, STRAIGHT_SIM], ids=["remik", "straight"])
def test_legal_actions_sequence_agrees_with_the_engine(rules: rl.Ruleset) -> None:
    bots: list[Bot] = [RandomBot(k) for k in range(3)]
    for state in _play(rl.new_game(rules, 3, seed=4), bots, 60)[::6]:
        listed = list(rl.legal_actions(state))
        lazy = LegalActions(state)
        assert all(a in lazy for a in listed)  # via is_legal, before listing
        assert rl.Discard(rl.JOKER) in lazy or rl.Discard(rl.JOKER) not in listed
        assert cast(rl.Action, "not an action") not in lazy
        assert len(lazy) == len(listed)
        assert list(lazy) == listed and lazy[0] == listed[0] and list(lazy[:2]) == listed[:2]
        assert all(a in lazy for a in listed)  # via the cached list
        assert "LegalActions(" in repr(lazy)


# --- RandomBot ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [REMIK_SIM, STRAIGHT_SIM], ids=["remik", "straight"])
def test_random_bot_is_reproducible_and_legal(rules: rl.Ruleset) -> None:
    def run(seed: int) -> list[rl.GameState]:
        return _play(rl.new_game(rules, 2, seed=8), [RandomBot(seed), RandomBot(seed + 1)], 150)

    first = run(1)
    assert run(1) == first
    assert run(5) != first
    for before, after in itertools.pairwise(first):
        assert after != before


def test_random_bot_chooses_every_action_of_a_small_menu() -> None:
    bot = RandomBot(seed=3)
    menu = [rl.DrawStock(), rl.TakeDiscard()]
    picks = set(_picks(bot, menu, 50))
    assert picks == set(menu)


# --- GreedyBot ------------------------------------------------------------------------


def _choose(state: rl.GameState, bot: Bot | None = None) -> rl.Action:
    seat = state.to_act
    return (bot or GreedyBot()).choose(rl.view(state, seat), LegalActions(state))


def test_greedy_opens_as_soon_as_it_can() -> None:
    # R-O2: 9S 10S JS (29, clean run) + three eights (24) = 53.
    hand = C("9S 10S JS 8H 8D 8C 2C 5D KH")
    s = rl.start_round_from(rl.REMIK, [hand, C("3C 4C 6H")], phase=rl.Phase.PLAY, to_act=0)
    best = rl.best_opening(hand, rl.REMIK)
    assert best is not None
    laid = []
    while not s.round.opened[0]:  # R-O4: the opening goes down meld by meld, then the discard
        action = _choose(s)
        if isinstance(action, rl.LayMeld):
            laid.append(action.meld)
        s = rl.apply(s, action)
    assert sorted(map(str, laid)) == sorted(map(str, best.melds))


def test_greedy_does_not_open_below_51_and_discards_its_costliest_deadwood() -> None:
    # R-O2: 2S 3S 4S (9) + three fives (15) is far below 51.
    hand = C("2S 3S 4S 5H 5D 5C 9D KH")
    s = rl.start_round_from(rl.REMIK, [hand, C("3C 4C 6H")], phase=rl.Phase.PLAY, to_act=0)
    assert _choose(s) == rl.Discard(C("KH")[0])


def test_greedy_lays_melds_then_lays_off_then_discards_once_opened() -> None:
    # R-T2, O5: after opening any meld may be laid, and deadwood laid off.
    table = [rl.TableMeld(rl.make_meld(C("9C 10C JC"), rl.REMIK), 0)]  # seat 0 opened with it (R-O1)
    hand = C("4D 5D 6D QC 2H KS")
    s = rl.start_round_from(
        rl.REMIK, [hand, C("3C 4C 6H")], table=table, opened=[True, False], phase=rl.Phase.PLAY, to_act=0
    )
    bot = GreedyBot()
    first = _choose(s, bot)
    assert first == rl.LayMeld(rl.make_meld(C("4D 5D 6D"), rl.REMIK))
    s = rl.apply(s, first)
    second = _choose(s, bot)
    assert second == rl.LayOff(0, C("QC")[0], rl.End.HIGH)
    s = rl.apply(s, second)
    assert _choose(s, bot) == rl.Discard(C("KS")[0])


def test_greedy_goes_out_when_a_plan_exists() -> None:
    # R-E1: everything placed, the last card discarded.
    table = [rl.TableMeld(rl.make_meld(C("JS QS KS"), rl.REMIK), 0)]  # seat 0 opened with it (R-O1)
    hand = C("JK 9S 2D")
    s = rl.start_round_from(
        rl.REMIK, [hand, C("3C 4C 6H")], table=table, opened=[True, False], phase=rl.Phase.PLAY, to_act=0
    )
    plan = rl.plan_go_out(hand, [table[0].meld], rl.REMIK, opened=True)
    assert plan is not None
    bot = GreedyBot()
    for step in plan:
        assert _choose(s, bot) == step
        s = rl.apply(s, step)
    assert s.phase is not rl.Phase.PLAY
    assert s.last_result is not None and s.last_result.winner == 0


def test_greedy_straight_goes_out_from_a_full_hand() -> None:
    # R-E3 / E4: one meld and lay-offs empty the hand; going rummy.
    hand = C("2H 3H 4H 5H 6H 7H 8H")
    s = rl.start_round_from(rl.STRAIGHT, [hand, C("KS KD 9C 4C")], stock=C("9S"), to_act=0)
    s = rl.apply(s, _choose(s))  # draws the 9S
    while s.phase is rl.Phase.PLAY:
        s = rl.apply(s, _choose(s))
    assert s.last_result is not None and s.last_result.winner == 0


def test_greedy_takes_a_useful_discard_and_leaves_a_useless_one() -> None:
    # R-T4: the discard may be taken freely in straight rummy; greedy takes it to meld.
    useful = rl.start_round_from(rl.STRAIGHT, [C("7H 8H 2C KD"), C("KS QS")], discard=C("9H"), to_act=0)
    assert _choose(useful) == rl.TakeDiscard()
    useless = rl.start_round_from(rl.STRAIGHT, [C("7H 8H 2C KD"), C("KS QS")], discard=C("4S"), to_act=0)
    assert _choose(useless) == rl.DrawStock()


def test_greedy_remik_takes_the_discard_only_to_meld_it() -> None:
    # R-D2: opened, the discard may be taken into a new meld laid this turn.
    hand = C("7H 8H 2C KD QS")
    opened = [True, False]
    table = with_openers_melds(rl.REMIK, [hand, C("3C 4C 6D")], [], opened, C("4S 9H"))  # R-O1
    useful = rl.start_round_from(
        rl.REMIK, [hand, C("3C 4C 6D")], discard=C("4S 9H"), table=table, opened=opened, to_act=0, phase=rl.Phase.DRAW
    )
    bot = GreedyBot()
    assert _choose(useful, bot) == rl.TakeDiscard()
    s = rl.apply(useful, rl.TakeDiscard())
    meld = _choose(s, bot)
    assert isinstance(meld, rl.LayMeld) and C("9H")[0] in meld.meld.cards
    useless = rl.start_round_from(
        rl.REMIK, [hand, C("3C 4C 6D")], discard=C("9H 4S"), table=table, opened=opened, to_act=0, phase=rl.Phase.DRAW
    )
    assert _choose(useless) == rl.DrawStock()


def test_greedy_remik_takes_the_discard_before_opening_only_to_go_out() -> None:
    # R-D2: before opening, only to open (O2) and go out on the same turn.
    hand = C("9S 10S JS 8H 8D 8C QD QH QC 2S 3S 4S 6C")
    s = rl.start_round_from(rl.REMIK, [hand, C("3C 4C 6D")], discard=C("5S"), to_act=0, phase=rl.Phase.DRAW)
    assert _choose(s) == rl.TakeDiscard()
    s = rl.apply(s, rl.TakeDiscard())
    bot = GreedyBot()
    while s.phase is rl.Phase.PLAY:
        s = rl.apply(s, _choose(s, bot))
    assert s.last_result is not None and s.last_result.winner == 0 and s.last_result.rummy  # R-E2
    far = rl.start_round_from(
        rl.REMIK, [C("2S 5H 9C KD"), C("3C 4C 6D")], discard=C("5S"), to_act=0, phase=rl.Phase.DRAW
    )
    assert _choose(far) == rl.DrawStock()


@pytest.mark.parametrize(
    "rules",
    [
        REMIK_SIM,
        STRAIGHT_SIM,
        attrs.evolve(REMIK_SIM, jokers=6, joker_penalty=50),
        attrs.evolve(STRAIGHT_SIM, melds_per_turn=None),
    ],
    ids=["remik", "straight", "remik-6-jokers", "straight-any-melds"],
)
def test_greedy_always_chooses_a_legal_action(rules: rl.Ruleset) -> None:
    # Both bots at one table; every greedy choice must pass the engine's check.
    for seed in range(2):
        start = rl.new_game(rules, 3, seed=seed)
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
        for state in _play(start, bots, 250):
            if state.is_over:
                break
            action = _choose(state)
            rl.check(state, action)


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=60))
def test_random_bot_reads_seat_actions_as_any_sequence(seed: int, steps: int) -> None:
    # RandomBot's direct read of a SeatActions' tuple picks what the sequence protocol picks (the same draws).
    state = rl.new_game(REMIK_SIM, 3, seed=seed % 1000)
    for k in range(steps):
        if state.is_over:
            return
        menu = SeatActions(rl.LegalActions(state))
        state = rl.apply(state, RandomBot(seed + k).choose(rl.view(state, state.to_act), menu))
    legal = rl.LegalActions(state)
    v = rl.view(state, state.to_act)
    picks = {RandomBot(seed).choose(v, menu) for menu in (SeatActions(legal), tuple(legal), list(legal), legal)}
    assert len(picks) == 1
