"""The game engine: an immutable state machine for every ruleset.

Design notes:

- ``apply(state, action)`` validates and builds the next :class:`GameState` in
  one pass; ``check`` and ``is_legal`` are the same pass without keeping the
  result. Unchanged parts (hands, stock, pile, table tuples) are shared.
- Actions carry no seat: they are by ``state.to_act`` (pass ``seat=`` to
  ``apply``/``check`` to have a claimed seat verified).
- A turn is a sequence of single steps. Before opening, each
  :class:`~rummylib.LayMeld` lays one meld of the opening (R-O4), accepted only
  while the opening can still be completed this turn with the turn's duties;
  R-O2 is checked at the first lay-off, swap or discard (the boundary), and
  the opening in progress is in ``TurnState.opening_points``/``opening_clean``.
  :class:`~rummylib.Open` is a composite: the same melds laid one after another,
  and it must meet R-O2 by itself.
- ``legal_actions`` returns a :class:`LegalActions`: lazy, sized, indexable and
  grouped by kind, generated directly from the position (no ``apply`` per
  candidate). It lists exactly the single-step actions ``apply`` accepts (never
  an ``Open``). A run lay-off names its end (``End.LOW``/``End.HIGH``), a set
  lay-off ``None``.
- A lay-off onto a meld laid this same turn counts as use in a new meld for a
  freed joker (R-J4) and for the taken discard (R-D2).
- The engine never leaves a player without a legal action: a meld, lay-off,
  swap or take that would make the turn's obligations (R-D2 taken discard,
  R-J4 freed jokers, R-T3 keeping a card, R-T7 taken card) impossible is
  refused with ``CANNOT_FINISH_TURN`` / ``CANNOT_USE_DISCARD``; only then is
  the solver consulted.
- Stock: ``stock[0]`` is drawn next; pile: ``discard[-1]`` is the top. Refills
  happen at the draw that needs them; the reshuffle uses the seed's
  ``("restock", round, refill)`` stream, the deal its ``("deal", round)`` stream.
- An unopened remik player who takes the discard must include it in an
  opening meld ("open with it", R-D2), and go out unless the ruleset's
  ``take_discard_to_open`` house variant is on.

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
from rummylib.engine._legal import LegalActions, legal_actions
from rummylib.engine._sample import MAX_SAMPLES, sample_state, sample_states
from rummylib.engine._state import GameState, Phase, RoundState, TableMeld, TurnState
from rummylib.engine._view import PlayerView, view

__all__ = [
    "MAX_SAMPLES",
    "GameState",
    "LegalActions",
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
    "sample_state",
    "sample_states",
    "start_round_from",
    "view",
]
