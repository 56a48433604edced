"""Whole seeded games with a simple random policy: they end, conserve cards and add up (R-C3, S1-S4)."""

from __future__ import annotations

import random
import sys

import attrs
import pytest

import rummylib as rl

VARIANTS = [
    attrs.evolve(rl.REMIK, restock_limit=1, score_limit=150),
    attrs.evolve(rl.STRAIGHT, restock_limit=1),
    attrs.evolve(rl.REMIK, name="house", jokers=6, joker_penalty=50, restock_limit=1, score_limit=150),
]


def _play(rules: rl.Ruleset, players: int, seed: int) -> tuple[rl.GameState, int]:
    rnd = random.Random(seed)
    s = rl.new_game(rules, players, seed=seed)
    deck = rl.deck(rules)
    steps = 0
    while not s.is_over:
        actions = list(rl.legal_actions(s)) if s.phase is not rl.Phase.PLAY else _some(s)
        bold = [a for a in actions if not isinstance(a, (rl.Discard, rl.DrawStock))]
        action = rnd.choice(bold if bold and rnd.random() < 0.8 else actions)
        s = rl.apply(s, action)
        steps += 1
        assert s.round.cards() == deck  # R-C3
        assert steps < 20_000
    return s, steps


def _some(s: rl.GameState) -> list[rl.Action]:
    out: list[rl.Action] = []
    for a in rl.legal_actions(s):
        out.append(a)
        if len(out) >= 200:
            break
    return out


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_games_end_and_add_up(rules: rl.Ruleset) -> None:
    for seed in range(2):
        s, _ = _play(rules, 2 + seed, seed)
        st = s.standings
        assert st.is_over and st.winners
        assert st.rounds == len(s.results)
        assert s.totals == tuple(sum(r.scores[i] for r in s.results) for i in range(s.num_players))
        for r in s.results:
            if r.winner is not None:
                assert r.penalties[r.winner] == 0


def test_successive_states_share_structure() -> None:
    s = rl.new_game(rl.REMIK, 4, seed=3)
    t = rl.apply(s, rl.Discard(min(s.round.hands[s.to_act])))
    assert t.rules is s.rules and t.players is s.players and t.totals is s.totals
    assert t.round.stock is s.round.stock and t.round.table is s.round.table
    assert all(t.round.hands[i] is s.round.hands[i] for i in (1, 2, 3))
    u = rl.apply(t, rl.DrawStock())
    assert u.round.discard is t.round.discard and u.round.hands[0] is t.round.hands[0]
    assert sys.getsizeof(u.round.stock) < 1000
