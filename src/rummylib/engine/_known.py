"""Public knowledge of hands and stock (R-H1), kept up to date after every move.

Everyone at the table sees a card taken from the discard pile (R-D1), a
joker freed by a swap (R-J4) and, after a straight turnover, the order of
the new stock (R-D6): so each of those cards is known to be in its taker's
hand until it is laid or thrown. Likewise everyone saw which cards left the
pile for the stock on a refill (R-D4, D6).

:func:`track` derives the new knowledge from the state before a move, the
move, and the state after it, so the transition function itself stays
unaware of it. Known cards are a lower bound on a hand: with two decks a
seat that holds a known ``7H`` and lays a ``7H`` may or may not still hold
one, so laying a card removes one known copy of it, if any.
"""

from __future__ import annotations

from rummylib.actions import Discard, DrawStock, LayMeld, LayOff, Open, SwapJoker, TakeDiscard
from rummylib.cards import JOKER, Card, CardMultiset
from rummylib.engine._hand import add_card, replace
from rummylib.engine._state import GameState, RoundState, evolve_round, with_round
from rummylib.rules import RestockRule

__all__ = ["track"]


def _without(known: CardMultiset, cards: tuple[Card, ...]) -> CardMultiset:
    """``known`` less one copy of each of ``cards`` that it holds (a lower bound stays one).

    ``known`` itself when it holds none of them (most discards are of unknown cards).
    """
    held = known.counts
    if not any(held[card.index] for card in cards):
        return known
    counts = list(held)
    removed = 0
    for card in cards:
        if counts[card.index]:
            counts[card.index] -= 1
            removed += 1
    return CardMultiset._trusted(tuple(counts), len(known) - removed)


def _placed(action: object) -> tuple[Card, ...]:
    """The cards ``action`` moves from the hand to the table or the pile."""
    if isinstance(action, Open):
        return tuple(c for m in action.melds for c in m.cards)
    if isinstance(action, LayMeld):
        return action.meld.cards
    if isinstance(action, (LayOff, SwapJoker, Discard)):
        return (action.card,)
    return ()


def _drawn(before: GameState, after: RoundState, seat: int) -> RoundState:
    """Knowledge after a stock draw: a refill is public; a card of public order is known."""
    r = before.round
    known_stock, restocked = r.known_stock, r.restocked
    if after.restocks > r.restocks:  # the stock was refilled at this draw (R-D4, D6)
        if before.rules.restock_rule is RestockRule.RESHUFFLE_KEEP_TOP:
            known_stock, restocked = (), CardMultiset(r.discard[:-1])
        else:  # turned over unshuffled: the order is public
            known_stock, restocked = r.discard, CardMultiset(r.discard)
    elif not r.stock or not known_stock:  # the round ended void (R-D7); or an unknown card was drawn
        return after
    known = after.known_cards
    if known_stock and len(known_stock) == len(after.stock) + 1:
        known = replace(known, seat, add_card(known[seat], known_stock[0]))
        known_stock = known_stock[1:]
    return evolve_round(after, known_cards=known, known_stock=known_stock, restocked=restocked)


def track(before: GameState, action: object, after: GameState) -> GameState:
    """``after`` with the public knowledge of hands and stock brought up to date.

    Args:
        before: the state the move was made in.
        action: the move, already validated by the transition.
        after: the state the transition built.

    Returns:
        ``after``, or a copy with new ``known_cards``, ``known_stock`` and ``restocked``.
    """
    r, new = before.round, after.round
    if after.round_number != before.round_number or new.hands is r.hands:
        return after  # a new deal knows nothing yet; or no card moved (a void end, R-D7)
    seat = r.to_act
    if isinstance(action, DrawStock):
        done = _drawn(before, new, seat)
        return after if done is new else with_round(after, done)
    known = r.known_cards
    if isinstance(action, TakeDiscard):
        known = replace(known, seat, add_card(known[seat], r.discard[-1]))
    else:
        placed = _placed(action)
        if placed and known[seat]:
            less = _without(known[seat], placed)
            if less is not known[seat]:
                known = replace(known, seat, less)
        if isinstance(action, SwapJoker):
            known = replace(known, seat, add_card(known[seat], JOKER))
    if known is new.known_cards:
        return after
    return with_round(after, evolve_round(new, known_cards=known))
