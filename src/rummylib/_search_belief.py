"""What the last discard says about its thrower's hand: samples that agree with it (used by SearchBot).

A uniform determinisation (:func:`~rummylib.sample_states`) deals the
thrower of the top discard any hand at all; most such hands hold deadwood
costlier than the card it threw, or a meld the card sits in, so a player who
discards its costliest deadwood (as :class:`~rummylib.GreedyBot` does, and
as SearchBot's own rollouts assume every player does) would not have thrown
it. :func:`agree` repairs a sample towards hands that would have: it swaps a
disagreeing hidden card of the thrower's hand with a random hidden card of
the stock, a few times at most. Both cards are hidden from the viewer, so the
sample's view is unchanged (R-H1); publicly known cards (``known_cards``)
never move.

The thrower's hand when it threw is its hand now plus the card, since the
discard ends a turn (R-T3, T7). Only that one discard is read: a hand from
before it (earlier discards, the draws) is not known.
"""

from __future__ import annotations

from collections.abc import Callable

from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState, PlayerView
from rummylib.engine._state import evolve_game, evolve_round
from rummylib.rules import Ruleset
from rummylib.scoring import card_penalty
from rummylib.solver import Partition

__all__ = ["agree", "thrower"]

#: ``below(n)``: a uniform draw from ``range(n)`` (the bot's own seeded stream).
Below = Callable[[int], int]


def thrower(view: PlayerView) -> int | None:
    """The seat that threw the top discard at the end of the last turn, if the view shows it did.

    That is the seat before the one to act (R-P1), unless the pile's top is
    older: the card it threw was taken this turn, or the pile holds only the
    card turned up at the deal (R-D5: ambiguous with one card and no refill,
    so left out), or the stock was refilled this round (its hidden part is
    then drawn from the refill only, R-D4, and is left alone).
    """
    if not view.discard or view.restocks:
        return None
    if view.turn is not None and view.turn.taken is not None:
        return None
    if view.rules.upcard and len(view.discard) == 1:
        return None
    seat = (view.to_act - 1) % len(view.players)
    return None if seat == view.seat else seat


def _disagreeing(hand: CardMultiset, top: Card, rules: Ruleset, partition: Callable[..., Partition]) -> list[Card]:
    """The cards of ``hand`` that make ``top`` not its costliest deadwood (with ``top`` back in it)."""
    part = partition(hand + CardMultiset((top,)), rules)
    if top in part.leftover:
        key = (card_penalty(top, rules), top.index)
        return [c for c in part.leftover.distinct() if (card_penalty(c, rules), c.index) > key]
    return [c for m in part.melds if top in m.cards for c in m.cards if c != top and c in hand]


def agree(
    state: GameState, seat: int, top: Card, steps: int, below: Below, partition: Callable[..., Partition]
) -> GameState:
    """``state`` with ``seat``'s hidden cards swapped with hidden stock cards until ``top`` is its costliest deadwood.

    At most ``steps`` swaps; each takes a disagreeing card (:func:`_disagreeing`)
    that is not publicly known and puts it where a random hidden stock card
    was. Returns ``state`` itself when nothing needs or can be swapped.
    """
    r = state.round
    hidden = len(r.stock) - len(r.known_stock)
    if hidden <= 0 or steps <= 0:
        return state
    rules = state.rules
    hand = r.hands[seat]
    free = hand - r.known_cards[seat]
    stock = list(r.stock)
    changed = False
    for _ in range(steps):
        bad = [c for c in _disagreeing(hand, top, rules, partition) if c in free]
        if not bad:
            break
        out = bad[below(len(bad))]
        i = below(hidden)
        coming = CardMultiset((stock[i],))
        going = CardMultiset((out,))
        stock[i] = out
        hand = hand - going + coming
        free = free - going + coming
        changed = True
    if not changed:
        return state
    hands = tuple(hand if k == seat else h for k, h in enumerate(r.hands))
    return evolve_game(state, round=evolve_round(r, hands=hands, stock=tuple(stock)))
