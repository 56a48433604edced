"""The state after an action the legal listing gave: :func:`~rummylib.apply`'s answer, minus checks already made.

A learning environment plays only actions of the listing (each is legal:
the listing is exact, R-T1..T7), so for the commonest steps (a stock draw,
taking the discard, a discard, a new meld, a lay-off or a joker swap that
leaves cards in the hand) it builds the next state with ``apply``'s own
builders and its own knowledge tracking (R-H1), without asking again what
the listing answered (whose turn, which phase, the card held, the meld's
validity, R-O4's, D2's, J4's and R-T7's tests: for a swap, the solver's
question whether the freed joker can still be melded). Every other action
goes through ``apply`` itself. A test checks the answer equals ``apply``'s
for every listed action of many states.
"""

from __future__ import annotations

from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, SwapJoker, TakeDiscard
from rummylib.cards import JOKER
from rummylib.engine._apply import _draw_stock, discarded
from rummylib.engine._check import apply
from rummylib.engine._fits import fits_at, grown_meld, swapped_meld
from rummylib.engine._hand import add_card, remove_card, remove_cards, replace
from rummylib.engine._known import _without, track
from rummylib.engine._oblige import take_discard_round
from rummylib.engine._state import (
    PLAY_PHASE,
    GameState,
    RoundState,
    evolve_round,
    public_drawn_round,
    stock_drawn_round,
    table_meld,
    with_round,
)
from rummylib.engine._turn import drawn_fresh, laid_off_turn, melded_turn, swapped_turn

__all__ = ["apply_listed"]


def apply_listed(state: GameState, action: Action) -> GameState:
    """``apply(state, action)`` for an ``action`` of ``legal_actions(state)`` (trusted: not checked again)."""
    r = state.round
    if type(action) is Discard:
        # R-O4: the boundary closes an opening in progress (a listed discard meets R-O2). R-H1: a
        # thrown card known to be in the hand is no longer (track's rule, built into the one new round).
        seat = r.to_act
        card = action.card
        known = r.known_cards
        if known[seat]._counts[card.index]:
            known = replace(known, seat, remove_card(known[seat], card))  # _without(known[seat], (card,))
        if not r.opened[seat] and r.turn.melds_laid:  # _crossed's own test, without its call
            r = _crossed(r)
        return discarded(state, r, card, known)
    if type(action) is TakeDiscard:
        # R-D2, T7: the listing asked may_take_discard already. R-H1: everyone saw the card taken.
        seat = r.to_act
        known = replace(r.known_cards, seat, add_card(r.known_cards[seat], r.discard[-1]))
        return with_round(state, take_discard_round(state.rules, r, known))
    if type(action) is DrawStock:
        if r.stock and r.known_stock:  # no refill, a stock of public order (R-D6): apply's draw and track's in one
            return _drawn_public(state, r)
        if r.stock:  # no refill, no card of public order: _draw_stock's draw, which track keeps as it is (R-H1)
            seat = r.to_act
            stock = r.stock
            card = stock[0]
            hands = replace(r.hands, seat, add_card(r.hands[seat], card))
            turn = drawn_fresh(card)
            return with_round(state, stock_drawn_round(r, hands, stock[1:], r.discard, r.restocks, PLAY_PHASE, turn))
        after = _draw_stock(state, r, action)
        if not r.known_stock and after.round.restocks == r.restocks:
            return after  # no refill and no card of public order: track would keep it as it is (R-H1, D4, D6)
        return track(state, action, after)
    if type(action) is LayMeld:
        seat = r.to_act
        meld = action.meld
        hand = remove_cards(r.hands[seat], meld.cards)
        if hand is not None and hand._len:  # R-O4, D2, J4, T7: the listing vouched the turn can still end
            known = r.known_cards  # (an empty hand goes out: apply)
            if known[seat]._len:  # R-H1: laid cards known to be in the hand are no longer
                known = replace(known, seat, _without(known[seat], meld.cards))
            turn = melded_turn(r.turn, (meld,), state.rules, opening=not r.opened[seat])
            table = (*r.table, table_meld(meld=meld, owner=seat))
            new = evolve_round(r, hands=replace(r.hands, seat, hand), table=table, turn=turn, known_cards=known)
            return with_round(state, new)
    if type(action) is LayOff:
        return _laid_off(state, r, action)
    if type(action) is SwapJoker:
        return _swapped(state, r, action)
    return apply(state, action)


def _crossed(r: RoundState) -> RoundState:
    """``_close_opening(state, r, action)`` for a listed discard, lay-off or swap (R-O4's boundary).

    An opening in progress is checked there (R-O2); the listing lists none of these three unless the
    opening laid so far meets it (its own test of the turn's opening points and clean run, R-O2, D2), so
    the seat has opened, as ``_close_opening`` answers, without validating the laid melds again.
    """
    seat = r.to_act
    if r.opened[seat] or not r.turn.melds_laid:  # _close_opening's own test
        return r
    return evolve_round(r, opened=replace(r.opened, seat, True))


def _laid_off(state: GameState, r: RoundState, action: LayOff) -> GameState:
    """A listed lay-off: apply's own meld, turn and knowledge, without asking again whether the turn can end.

    R-T6, J5: where apply's fit test holds it builds ``grown_meld``'s meld (else, and for a lay-off that
    empties the hand and goes out, R-E3: apply itself). R-D2, J4, T7: the listing asked what apply's
    ``_after_play`` asks. R-O4: the boundary closes an opening in progress. R-H1: a laid card known to be
    in the hand is no longer.
    """
    seat = r.to_act
    card, target, end = action.card, action.target, action.end
    hand = remove_card(r.hands[seat], card)
    tm = r.table[target]
    meld, rules = tm.meld, state.rules
    if not fits_at(meld, card, end, rules) or not hand._len:
        return apply(state, action)
    r = _crossed(r)
    known = r.known_cards
    if known[seat]._counts[card.index]:
        known = replace(known, seat, remove_card(known[seat], card))  # _without(known[seat], (card,))
    table = replace(r.table, target, table_meld(meld=grown_meld(meld, card, end), owner=tm.owner))
    turn = laid_off_turn(r, target, card)
    new = evolve_round(r, hands=replace(r.hands, seat, hand), table=table, turn=turn, known_cards=known)
    return with_round(state, new)


def _swapped(state: GameState, r: RoundState, action: SwapJoker) -> GameState:
    """A listed joker swap (R-J4): apply's own meld, turn and knowledge, without asking again whether the turn can end.

    The hand keeps its size (the card out, the joker in), so a swap never goes out. R-J4, T7: the listing
    asked what apply's ``_after_play`` asks (the freed joker can still go into a new meld). R-O4: the
    boundary closes an opening in progress. R-H1: the card put in is no longer known to be in the hand,
    the freed joker is.
    """
    r = _crossed(r)
    seat = r.to_act
    card, target = action.card, action.target
    tm = r.table[target]
    new_meld = swapped_meld(tm.meld, card)  # swap_joker's meld, unchecked (the listing's own builder)
    hand = add_card(remove_card(r.hands[seat], card), JOKER)  # the freed joker
    turn = swapped_turn(r.turn, card)
    table = replace(r.table, target, table_meld(meld=new_meld, owner=tm.owner))
    mine = r.known_cards[seat]
    if mine._counts[card.index]:
        mine = remove_card(mine, card)  # _without(mine, (card,))
    known = replace(r.known_cards, seat, add_card(mine, JOKER))
    new = evolve_round(r, hands=replace(r.hands, seat, hand), table=table, turn=turn, known_cards=known)
    return with_round(state, new)


def _drawn_public(state: GameState, r: RoundState) -> GameState:
    """A stock draw (the stock not empty) with the stock's order public: ``track(state, action, _draw_stock(...))``.

    R-H1, D6: a card drawn from the top of the public order is known to be in the hand from then on.
    """
    seat = r.to_act
    stock, public, known = r.stock, r.known_stock, r.known_cards
    card = stock[0]
    if len(public) == len(stock):  # the whole stock's order is public: its top is the card drawn
        known = replace(known, seat, add_card(known[seat], public[0]))
        public = public[1:]
    hands = replace(r.hands, seat, add_card(r.hands[seat], card))
    # evolve_round(r, hands=, stock=, phase=, turn=, known_cards=, known_stock=), by position
    new = public_drawn_round(r, hands, stock[1:], PLAY_PHASE, drawn_fresh(card), known, public)
    return with_round(state, new)
