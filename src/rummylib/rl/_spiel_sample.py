"""Determinisation for OpenSpiel's ``resample_from_infostate`` (a minimal, private sampler).

The cards ``seat`` cannot see (the other hands and a stock of unknown order)
are pooled and dealt again at random, keeping every hand's size and the
stock's size; everything the seat sees (its hand, the table, the pile, a
turned-over stock, the turn so far) stays. Cards publicly known to be in a
hand (a discard taken and not yet played) are not tracked here.
"""

from __future__ import annotations

import random

import attrs

from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState


def resample(state: GameState, seat: int, rng: random.Random, *, stock_known: bool) -> GameState:
    """``state`` with the cards hidden from ``seat`` dealt again by ``rng``."""
    r = state.round
    others = [i for i in range(state.num_players) if i != seat]
    pool: list[Card] = []
    for i in others:
        pool += list(r.hands[i])
    if not stock_known:
        pool += list(r.stock)
    rng.shuffle(pool)
    hands = list(r.hands)
    at = 0
    for i in others:
        size = len(r.hands[i])
        hands[i] = CardMultiset(pool[at : at + size])
        at += size
    stock = tuple(pool[at:]) if not stock_known else r.stock
    return attrs.evolve(state, round=attrs.evolve(r, hands=tuple(hands), stock=stock))
