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
    assert {rl.DrawStock, rl.TakeDiscard, rl.Discard, rl.LayMeld, rl.LayOff} <= kinds
    if rules.joker_swap:  # R-J4: swaps among them (their own path, without apply's finish check)
        assert rl.SwapJoker in kinds
    if rules.restock_rule is rl.RestockRule.TURN_OVER:  # draws from a stock of public order (R-D6) among them
        assert public > 20  # 30 to 116 in these walks, by player count


def test_a_stock_draw_shares_one_turn_per_card_forgotten_by_the_engine_cache_clear() -> None:
    # R-T1: the turn after drawing a card from the stock is the fresh turn with that card drawn; every
    # draw of the very card shares one (a turn is immutable), an equal card of another identity gets its
    # own, and engine._cache.clear() forgets them.
    from rummylib.engine import _cache, _turn
    from rummylib.engine._state import FRESH_TURN, evolve_turn

    card = rl.parse_card("7H")
    twin = rl.Card(card.rank, card.suit)
    assert twin == card and twin is not card
    first = _turn.drawn_fresh(card)
    assert first == evolve_turn(FRESH_TURN, drawn=card) and first.drawn is card
    assert _turn.drawn_fresh(card) is first
    other = _turn.drawn_fresh(twin)
    assert other == first and other.drawn is twin
    assert _turn.drawn_fresh(twin) is other
    assert _turn._DRAWN
    _cache.clear()
    assert not _turn._DRAWN
    assert _turn.drawn_fresh(twin) is not other and _turn.drawn_fresh(twin).drawn is twin
