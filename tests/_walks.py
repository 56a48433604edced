"""Reachable states for tests: seeded play mixing GreedyBot with uniformly random legal actions."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import attrs

import rummylib as rl
from rummylib._card import CARDS
from rummylib.bots import derive_seed

#: Presets and house variants, each with a restock cap so every round ends (R-D7).
WALK_RULES: dict[str, rl.Ruleset] = {
    "remik": attrs.evolve(rl.REMIK, restock_limit=2),
    "straight": attrs.evolve(rl.STRAIGHT, restock_limit=2),
    "remik-house": attrs.evolve(
        rl.REMIK, name="house-remik", jokers=6, joker_penalty=50, opening_points=30, restock_limit=1
    ),
    "straight-house": attrs.evolve(
        rl.STRAIGHT, name="house-straight", must_discard_to_go_out=True, melds_per_turn=None, restock_limit=3
    ),
}
_CAP = 60


def walk(rules: rl.Ruleset, players: int, seed: int, steps: int, greedy_share: int = 2) -> Iterator[rl.GameState]:
    """Up to ``steps`` states of one seeded game (the first is the deal); ``greedy_share`` in 4 moves are greedy."""
    state = rl.new_game(rules, players, seed=seed)
    chooser = rl.RandomBot(seed=seed)
    greedy = rl.GreedyBot()
    yield state
    for step in range(steps - 1):
        if state.is_over:
            return
        legal = list(itertools.islice(rl.legal_actions(state), _CAP))
        if derive_seed(seed, "mix", step) % 4 < greedy_share:
            action = greedy.choose(rl.view(state, state.to_act), rl.LegalActions(state))
        else:
            action = chooser.choose(rl.view(state, state.to_act), legal)
        state = rl.apply(state, action)
        yield state


def table_melds_of(states: Iterable[rl.GameState]) -> list[rl.Meld]:
    """Every table meld of ``states``, each object once, in the order first seen (the list holds them alive)."""
    melds: dict[int, rl.Meld] = {}
    for state in states:
        for tm in state.round.table:
            melds.setdefault(id(tm.meld), tm.meld)  # a meld held here keeps its id its own
    return list(melds.values())


def fit_tests(slot: int, meld: rl.Meld, rules: rl.Ruleset) -> list[tuple[int, rl.Card, rl.End | None]]:
    """Each lay-off (slot, card, end) onto ``meld`` that ``run_fit`` or ``group_fit`` accepts (R-T6, J5).

    Low end first, each natural card in index order, then the joker.
    """
    from rummylib.engine._fits import group_fit, run_fit

    out: list[tuple[int, rl.Card, rl.End | None]] = []
    for end in (rl.End.LOW, rl.End.HIGH) if isinstance(meld, rl.Run) else (None,):
        for card in (*(c for c in rl.deck(rl.REMIK).distinct() if not c.is_joker), rl.JOKER):
            if isinstance(meld, rl.Run):
                assert end is not None
                fits = run_fit(meld, card, end, rules)
            else:
                assert isinstance(meld, rl.Group)
                fits = group_fit(meld, card, rules)
            if fits:
                out.append((slot, card, end))
    return out


def single_step_universe(state: rl.GameState) -> set[rl.Action]:
    """A brute-force superset of the single-step actions of ``state``, for cross-checks of the listing."""
    r = state.round
    hand = r.hands[r.to_act]
    out: set[rl.Action] = {rl.DrawStock(), rl.TakeDiscard(), rl.NextRound()}
    for c in CARDS:
        out.add(rl.Discard(c))
        for t in range(len(r.table)):
            out.add(rl.SwapJoker(t, c))
            for e in (None, rl.End.LOW, rl.End.HIGH):
                out.add(rl.LayOff(t, c, e))
    out.update(rl.LayMeld(m) for m in rl.find_melds(hand, state.rules))
    return out
