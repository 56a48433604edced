"""rummylib.rl's fast observation path: exactly the encoder's vector of the seat's view (R-H1)."""

from __future__ import annotations

import attrs
import pytest
from _budget import examples

pytest.importorskip("numpy", reason="the rl tests need the extra: pip install 'rummylib[rl]'")

import numpy as np
from _walks import WALK_RULES, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib import parse_cards
from rummylib.encoding import ObservationEncoder
from rummylib.rl._common import as_vector
from rummylib.rl._observe import StateObserver
from rummylib.testing import game_states

#: The walks' rules, remik with a turnover (R-D6: a public stock order) and joker-heavy remik (wide joker bits).
RULES = {
    **WALK_RULES,
    "remik-turnover": attrs.evolve(
        rl.REMIK, name="turnover-remik", restock_rule=rl.RestockRule.TURN_OVER, restock_limit=2
    ),
    "jokers": attrs.evolve(
        rl.REMIK, name="jokers", jokers=6, adjacent_jokers=True, group3_max_jokers=2, restock_limit=1
    ),
}


def _check(observer: StateObserver, enc: ObservationEncoder, state: rl.GameState) -> None:
    # The reference: a fresh encoder (nothing cached) of the seat's view; ``enc`` (the observer's) has seen other states.
    fresh = ObservationEncoder(enc.rules, enc.players)
    for seat in range(state.num_players):
        slow = fresh.encode(rl.view(state, seat))
        fast = observer(state, seat)
        assert fast.dtype == np.float32 and fast.shape == (enc.size,)
        assert fast.tolist() == slow  # every number, exact (the view's only, R-H1)
        assert np.array_equal(fast, as_vector(slow, np))
        assert enc.encode(rl.view(state, seat)) == slow  # the encoder's caches change nothing


# Four players by default; two and three in the slow suite (CI).
@pytest.mark.parametrize(
    "players", [pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow), 4]
)
@pytest.mark.parametrize("name", sorted(RULES))
def test_fast_observation_is_the_encoders_on_reachable_states(name: str, players: int) -> None:
    # Whole games, several rounds: running totals past 255, refills, turnovers, jokers in long runs.
    rules = RULES[name]
    enc = ObservationEncoder(rules, players)
    observer = StateObserver(enc, np)
    states = 0
    for seed in (1, 2):  # refills in most of these games (R-D4, D6), totals past 255 in remik's longer ones
        for state in walk(rules, players, seed, 300):
            _check(observer, enc, state)
            states += 1
    assert states > 300


def test_fast_observation_writes_wide_joker_bits_and_totals() -> None:
    # A joker at run position 8 or more is a bit past 255 (R-J1), as is a total past 255 (R-S1):
    # both are written into the float vector after the bytes.
    long_run = rl.Run(rl.Suit.HEARTS, 2, parse_cards("2H 3H 4H 5H 6H JK 8H 9H JK JH"))
    state = rl.start_round_from(
        rl.REMIK,
        [parse_cards("2C 3C 4C QS"), parse_cards("5D 6D 7D KS")],
        discard=parse_cards("9C"),
        table=[rl.TableMeld(long_run, 1), rl.Run(rl.Suit.SPADES, 5, parse_cards("5S 6S JK"))],
        opened=[False, True],
        totals=[312, 450],
        to_act=0,
        phase=rl.Phase.DRAW,
    )
    enc = ObservationEncoder(rl.REMIK, 2)
    table = enc.field("table").offset
    assert enc.encode(rl.view(state, 0))[table + 5] == (1 << 5) | (1 << 8)  # the joker bits of the long run
    observer = StateObserver(enc, np)
    for _ in range(2):  # worked out, then from the cache
        _check(observer, enc, state)
    _check(observer, enc, rl.apply(state, rl.DrawStock()))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_states(max_actions=80), st.booleans())
def test_fast_observation_is_the_encoders_under_any_ruleset(state: rl.GameState, fresh: bool) -> None:
    # Any ruleset the strategies draw; a fresh observer, or one whose caches hold other states.
    enc = ObservationEncoder(state.rules, state.num_players)
    observer = _SHARED.setdefault((state.rules, state.num_players), StateObserver(enc, np))
    _check(StateObserver(enc, np) if fresh else observer, enc, state)


_SHARED: dict[tuple[rl.Ruleset, int], StateObserver] = {}


@pytest.mark.parametrize("players", [2, 3])
def test_fast_observation_shifts_a_public_stock_order_on_a_draw(players: int) -> None:
    # R-D6: after a turnover the stock's order is public; a draw off it takes its top card, and the
    # observer moves the last codes up one place instead of coding the stock again. Observed as an
    # environment does (the seat to act, states in order), every vector is still the encoder's.
    rules = RULES["straight"]  # straight turns its pile over (R-D6)
    enc = ObservationEncoder(rules, players)
    observer = StateObserver(enc, np)
    fresh = ObservationEncoder(rules, players)
    shifted = 0
    for seed in (1, 2, 3):
        last: rl.GameState | None = None
        for state in walk(rules, players, seed, 400):
            seat = state.to_act
            assert observer(state, seat).tolist() == fresh.encode(rl.view(state, seat))
            if last is not None and last.round.known_stock:
                r, before = state.round, last.round
                shifted += r.restocked is before.restocked and r.known_stock == before.known_stock[1:]
            last = state
    assert shifted > 50  # the shifted path ran, not only the full one


_WALKED: dict[tuple[str, int], list[rl.GameState]] = {}


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["remik", "remik-turnover"]),
    st.sampled_from([3, 4]),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3)), min_size=1, max_size=60),
)
def test_fast_observation_is_the_encoders_in_any_order(name: str, players: int, picks: list[tuple[int, int]]) -> None:
    # One observer asked about a walk's states in any order, from any seat: each seat's last known
    # cards and table (the entries kept per seat), the pile and the refill entries are checked for
    # identity, so a state seen again later, or another seat's, is never answered from a stale entry.
    key = (name, players)
    if key not in _WALKED:
        _WALKED[key] = list(walk(RULES[name], players, 3, 200))
    states = _WALKED[key]
    enc = ObservationEncoder(RULES[name], players)
    observer = StateObserver(enc, np)
    fresh = ObservationEncoder(RULES[name], players)
    for i, seat in picks:
        state = states[i % len(states)]
        seat %= players
        assert observer(state, seat).tolist() == fresh.encode(rl.view(state, seat))
