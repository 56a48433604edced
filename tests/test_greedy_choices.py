"""GreedyBot's choices are pinned: seeded games hash to the digests of the bot before its speed work.

The digests were computed on main at 8b479de (before the greedy game's speed
work), from the ``repr`` of every action of the seeded games below. The fast
paths (the lazy listing :func:`~rummylib.play_game` hands a ``GreedyBot``, the
bot's cached solver answers) must leave every choice exactly as it was.
"""

from __future__ import annotations

import hashlib

import attrs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib._card import CARDS
from rummylib._greedy_bot import _costliest_first
from rummylib.bots import GreedyBot, LegalActions, SeatActions
from rummylib.scoring import card_penalty
from rummylib.simulation import simulation_rules

_HOUSE = attrs.evolve(rl.REMIK, take_discard_to_open=True)

#: (name, rules, players, games) -> (actions, sha256 of the actions' reprs), computed at 8b479de.
_DIGESTS = {
    ("remik", 4, 10): (7903, "f395a8d373f816377964f38eec76d19d7d75a8d44f2415381c525c1c493eb38a"),
    ("straight", 4, 10): (11867, "300cb40ef2da6532a7a6b9446b2892057e754c79f511ca7cfcf0ab74673e8f97"),
    ("remik", 4, 30): (22693, "eed18478cda8985777cba2d136de5b86cd07dd4669c9a30fd5c85a25df3b2831"),
    ("straight", 4, 30): (37127, "92dce54b82518247bc13d0f220b7a7fce9644d50d82421cfcffeeb2fc4cc1d10"),
    ("remik", 2, 30): (47839, "ef0353cfda33c02f930514d90054a8813baa7a7a4d3ad668d4e00623fdf1c685"),
    ("straight", 2, 30): (61478, "7f4ede3962862d2483b1b4f53fc0960ec0c35e22cdbfae45eac27fad593ac2bb"),
    ("remik-house", 3, 30): (41331, "a79afc2e76d269389a8aee4cfbf2b1df404a9d0f8feb3ba30911ef45897e5f4d"),
}
_RULES = {"remik": rl.REMIK, "straight": rl.STRAIGHT, "remik-house": _HOUSE}


def _game(rules: rl.Ruleset, players: int, seed: int) -> list[str]:
    """One seeded greedy game, every choice made twice: from ``SeatActions`` and from the lazy listing.

    The two bot sets see the same states, so their memos stay alike; the lazy
    listing (what ``play_game`` hands a ``GreedyBot``) must give the same
    choice as the full tuple every other bot gets.
    """
    state = rl.new_game(rules, players, seed=seed)
    listed = [GreedyBot() for _ in range(players)]
    lazy = [GreedyBot() for _ in range(players)]
    played: list[str] = []
    while not state.is_over and len(played) < 5000:
        seat = state.to_act
        seen = rl.view(state, seat)
        action = listed[seat].choose(seen, SeatActions(LegalActions(state)))
        assert lazy[seat].choose(seen, LegalActions(state)) == action, (seed, len(played), action)
        played.append(repr(action))
        state = rl.apply(state, action)
    return played


def _check(name: str, players: int, games: int) -> None:
    digest = hashlib.sha256()
    count = 0
    for seed in range(games):
        played = _game(simulation_rules(_RULES[name]), players, seed)
        count += len(played)
        digest.update("\n".join(played).encode())
        digest.update(b"\n--\n")
    assert (count, digest.hexdigest()) == _DIGESTS[name, players, games]


@pytest.mark.parametrize("name", ["remik", "straight"])
def test_greedy_games_choose_as_before(name: str) -> None:
    _check(name, 4, 10)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players"), [("remik", 4), ("straight", 4), ("remik", 2), ("straight", 2), ("remik-house", 3)]
)
def test_more_greedy_games_choose_as_before(name: str, players: int) -> None:
    _check(name, players, 30)


_ORDER_RULES = [rl.REMIK, rl.STRAIGHT, attrs.evolve(rl.REMIK, name="free-ace", ace_penalty=0, joker_penalty=0)]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(_ORDER_RULES), st.lists(st.integers(0, 52), max_size=30))
def test_costliest_first_is_the_sort_by_card_penalty(rules: rl.Ruleset, indices: list[int]) -> None:
    # R-V1: the deadwood the bot throws first: the costliest, ties the higher card.
    cards = rl.CardMultiset(CARDS[i] for i in indices)
    slow = sorted(cards.distinct(), key=lambda c: (card_penalty(c, rules), c.index), reverse=True)
    assert _costliest_first(cards, rules) == slow
