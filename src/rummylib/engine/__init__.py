"""The game engine: an immutable state machine for every ruleset (DESIGN.md "Engine").

>>> import attrs
>>> import rummylib as rl
>>> rules = attrs.evolve(rl.STRAIGHT, restock_limit=1)
>>> s = rl.new_game(rules, 2, seed=2026)
>>> while s.phase is not rl.Phase.ROUND_OVER:
...     s = rl.apply(s, rl.DrawStock() if s.phase is rl.Phase.DRAW else rl.Discard(max(s.round.hands[s.to_act])))
>>> s.round_number, s.results[0].is_void
(1, True)
"""

from __future__ import annotations

from rummylib.engine._check import apply, check, is_legal
from rummylib.engine._deal import choose_first_dealer, new_game, start_round_from
from rummylib.engine._legal import legal_actions
from rummylib.engine._state import GameState, Phase, RoundState, TableMeld, TurnState
from rummylib.engine._view import PlayerView, view

__all__ = [
    "GameState",
    "Phase",
    "PlayerView",
    "RoundState",
    "TableMeld",
    "TurnState",
    "apply",
    "check",
    "choose_first_dealer",
    "is_legal",
    "legal_actions",
    "new_game",
    "start_round_from",
    "view",
]
