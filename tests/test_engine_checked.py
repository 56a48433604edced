"""``apply`` after ``is_legal`` of the same action reuses the state ``is_legal`` built: the same state.

A bot tests an action (``action in legal`` asks :func:`~rummylib.is_legal`
for melds not listed yet) and then plays it; ``apply`` takes the state the
test built instead of building it again. Here every legal action of the
states of seeded games, both presets, is tested and then applied, and the
result is compared with the state built from scratch.
"""

from __future__ import annotations

import pytest

import rummylib as rl
from rummylib.bots import Bot, GreedyBot, LegalActions, RandomBot
from rummylib.engine._apply import transition
from rummylib.engine._known import track
from rummylib.simulation import simulation_rules


@pytest.mark.parametrize("rules", [rl.REMIK, rl.STRAIGHT], ids=lambda r: r.name)
def test_apply_after_is_legal_is_apply_from_scratch(rules: rl.Ruleset) -> None:
    played = simulation_rules(rules)
    for seed in range(3):
        state = rl.new_game(played, 3, seed=seed)
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
        for _ in range(250):
            if state.is_over:
                break
            for action in LegalActions(state):
                assert rl.is_legal(state, action)
                assert rl.apply(state, action) == track(state, action, transition(state, action, None))
            assert not rl.is_legal(state, rl.NextRound()) or state.phase is rl.Phase.ROUND_OVER
            state = rl.apply(state, bots[state.to_act].choose(rl.view(state, state.to_act), LegalActions(state)))


def test_a_wrong_seat_is_refused_after_is_legal() -> None:
    # R-H1's seat check: a state built for one seat is never handed to another claim.
    s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    assert rl.is_legal(s, rl.DrawStock(), seat=s.to_act)
    with pytest.raises(rl.IllegalActionError):
        rl.apply(s, rl.DrawStock(), seat=1 - s.to_act)
    assert rl.apply(s, rl.DrawStock(), seat=s.to_act) == rl.apply(s, rl.DrawStock())
