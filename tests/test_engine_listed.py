"""The environments' trusted step (engine/_listed.py): apply's very state for every listed action."""

from __future__ import annotations

import pytest
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.engine._listed import apply_listed


# The presets with four players by default; two and three players, and the house variants, in the
# slow suite (CI).
@pytest.mark.parametrize(
    ("name", "players"),
    [
        pytest.param(name, players, marks=() if players == 4 and "house" not in name else pytest.mark.slow)
        for name in sorted(WALK_RULES)
        for players in (2, 3, 4)
    ],
)
def test_apply_listed_is_apply_on_every_listed_action(name: str, players: int) -> None:
    # Every single step the listing gives (R-T1..T7: draws, takes under R-D2 and T7, discards closing an
    # opening in progress at the R-O4 boundary, going out, R-E1), on every state of whole seeded games:
    # the trusted path builds the same state as apply, knowledge of hands and stock included (R-H1, D4, D6).
    rules = WALK_RULES[name]
    kinds: set[type] = set()
    states = public = 0
    for seed in (1, 2):
        for state in walk(rules, players, seed, 250):
            for action in rl.legal_actions(state):
                fast = apply_listed(state, action)
                assert fast == rl.apply(state, action)
                assert repr(fast) == repr(rl.apply(state, action))
                kinds.add(type(action))
                public += isinstance(action, rl.DrawStock) and bool(state.round.known_stock)
            states += 1
    assert states > 200
    assert {rl.DrawStock, rl.TakeDiscard, rl.Discard, rl.LayMeld} <= kinds
    if rules.restock_rule is rl.RestockRule.TURN_OVER:  # draws from a stock of public order (R-D6) among them
        assert public > 20  # 30 to 116 in these walks, by player count
