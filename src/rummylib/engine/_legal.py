"""Every legal action of a state, lazily (complete and exact).

Candidates are generated from a superset that provably holds every action
``apply`` can accept (all melds the solver finds in the hand, every card
that could extend each end of each table meld, every joker's card, every
distinct card to discard); each candidate is then passed through the same
transition ``apply`` uses, so the listing is exact by construction.
"""

from __future__ import annotations

from collections.abc import Iterator

from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, NextRound, Open, SwapJoker, TakeDiscard
from rummylib.cards import JOKER, Card, Suit, natural
from rummylib.engine._apply import transition
from rummylib.engine._oblige import openings
from rummylib.engine._state import GameState, Phase, RoundState
from rummylib.errors import IllegalActionError, InvalidStateError, StateReason
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, card_at_position
from rummylib.solver import find_melds

__all__ = ["legal_actions"]


def _ok(state: GameState, action: Action) -> bool:
    try:
        transition(state, action)
    except IllegalActionError:
        return False
    return True


def _lay_off_candidates(r: RoundState) -> Iterator[Action]:
    hand = r.hands[r.to_act]
    has_joker = hand.jokers > 0
    for i, tm in enumerate(r.table):
        meld = tm.meld
        if isinstance(meld, Run):
            for end, pos in ((End.LOW, meld.start - 1), (End.HIGH, meld.end + 1)):
                if not 1 <= pos <= ACE_HIGH:
                    continue
                card = card_at_position(pos, meld.suit)
                if hand.count(card):
                    yield LayOff(i, card, end)
                if has_joker:
                    yield LayOff(i, JOKER, end)
        elif isinstance(meld, Group) and len(meld.cards) < 4:
            for suit in Suit:
                if suit not in meld.suits:
                    card = natural(int(meld.rank), suit)
                    if hand.count(card):
                        yield LayOff(i, card, None)
            if has_joker:
                yield LayOff(i, JOKER, None)


def _swap_candidates(r: RoundState) -> Iterator[Action]:
    hand = r.hands[r.to_act]
    for i, tm in enumerate(r.table):
        seen: set[Card] = set()
        for slot, stands in zip(tm.meld.cards, tm.meld.represents):
            if slot.is_joker and stands not in seen and hand.count(stands):
                seen.add(stands)
                yield SwapJoker(i, stands)


def _meld_candidates(state: GameState, r: RoundState) -> Iterator[Action]:
    seat = r.to_act
    rules = state.rules
    hand = r.hands[seat]
    if r.opened[seat]:
        for meld in dict.fromkeys(find_melds(hand, rules)):
            yield LayMeld(meld)
    elif rules.opening_required:
        melds: list[Meld] = list(dict.fromkeys(find_melds(hand, rules)))
        for opening in openings(melds, hand, rules):
            yield Open(opening)


def _play_candidates(state: GameState, r: RoundState) -> Iterator[Action]:
    for card in r.hands[r.to_act].distinct():
        yield Discard(card)
    yield from _lay_off_candidates(r)
    if state.rules.joker_swap:
        yield from _swap_candidates(r)
    yield from _meld_candidates(state, r)


def legal_actions(state: GameState) -> Iterator[Action]:
    """Every action :func:`~rummylib.apply` accepts in ``state``, each once, lazily.

    Complete and exact: joker declarations are part of the melds, so each
    reading of a joker is its own action. Listing every opening of a hand is
    exponential in the worst case; take what you need from the iterator.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> list(rl.legal_actions(s))
    [DrawStock(), TakeDiscard()]

    Raises:
        InvalidStateError: ``state`` is not a :class:`GameState` (raised at the call).
    """
    if not isinstance(state, GameState):
        msg = f"legal_actions() takes a GameState, not {type(state).__name__}"
        raise InvalidStateError(StateReason.WRONG_TYPE, "", msg)
    return _legal(state)


def _legal(state: GameState) -> Iterator[Action]:
    r = state.round
    if r.phase is Phase.GAME_OVER:
        return
    if r.phase is Phase.ROUND_OVER:
        yield NextRound()
        return
    if r.phase is Phase.DRAW:
        yield DrawStock()
        if r.discard and _ok(state, TakeDiscard()):
            yield TakeDiscard()
        return
    for action in _play_candidates(state, r):
        if _ok(state, action):
            yield action
