"""Views (R-H1): a seat sees its own hand and public facts, never other hands, the stock order or the seed."""

from __future__ import annotations

import gc
import pickle

import attrs
import pytest

import rummylib as rl

SEED = 2**100 + 12345


def _reachable(root: object) -> list[object]:
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def _states(rules: rl.Ruleset) -> list[rl.GameState]:
    s = rl.new_game(attrs.evolve(rules, restock_limit=1), 4, seed=SEED)
    out = [s]
    for _ in range(12):
        s = rl.apply(s, next(iter(rl.legal_actions(s))))
        out.append(s)
    return out


@pytest.mark.parametrize("rules", [rl.REMIK, rl.STRAIGHT])
def test_view_reaches_nothing_private(rules: rl.Ruleset) -> None:
    # R-H1: not as attributes, not through a back-reference, not in repr or pickle.
    for s in _states(rules):
        for seat in range(s.num_players):
            v = rl.view(s, seat)
            reach = _reachable(v)
            ids = {id(o) for o in reach}
            assert not any(isinstance(o, (rl.GameState, rl.RoundState)) for o in reach)
            for other in range(s.num_players):
                if other != seat and len(s.round.hands[other]):
                    assert id(s.round.hands[other]) not in ids
            if s.round.stock:
                assert id(s.round.stock) not in ids
                assert not any(isinstance(o, tuple) and o == s.round.stock for o in reach)
            assert id(s.seed) not in ids
            text = repr(v) + str(pickle.loads(pickle.dumps(v)))
            assert str(SEED) not in text and "seed" not in text
            assert v.hand == s.round.hands[seat]
            if v.turn is not None:
                assert seat == s.to_act


def test_view_contents() -> None:
    s = rl.new_game(rl.REMIK, 3, seed=SEED, dealer=1)
    v = rl.view(s, 2)
    assert v.seat == 2 and v.dealer == 1 and v.to_act == 1 and v.phase is rl.Phase.PLAY
    assert v.hand_sizes == (13, 14, 13) and v.stock_size == 108 - 40
    assert v.turn is None and not v.is_my_turn and v.top_discard is None
    assert v.totals == (0, 0, 0) and v.results == () and not v.is_over
    me = rl.view(s, 1)
    assert me.is_my_turn and me.turn is not None


def test_view_rejects_bad_seats() -> None:
    s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    for bad in (2, -1, True, "0"):
        with pytest.raises(rl.ArgumentError):
            rl.view(s, bad)  # type: ignore[arg-type]


def test_view_seat_fast_path_is_the_checked_path() -> None:
    # R-H1: the plain-int seat test in front of is_int_in accepts and refuses exactly what it does.
    import enum

    class Seat(enum.IntEnum):
        ONE = 1

    s = rl.new_game(rl.REMIK, 3, seed=SEED)
    assert rl.view(s, Seat.ONE) == rl.view(s, 1)
    for bad in (3, -3, False, 1.0, None):
        with pytest.raises(rl.ArgumentError):
            rl.view(s, bad)  # type: ignore[arg-type]


def test_game_state_repr_hides_the_seed() -> None:
    s = rl.new_game(rl.STRAIGHT, 2, seed=SEED)
    assert str(SEED) not in repr(s)
