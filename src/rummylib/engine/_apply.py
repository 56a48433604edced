"""The transition function: validate an action and build the next state.

Each handler checks only what its action needs, so ``apply`` stays cheap; the
solver is consulted only while a D2 or J4 obligation is open (and for taking
the discard under R-D2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn

from rummylib.actions import Discard, DrawStock, LayMeld, LayOff, NextRound, Open, SwapJoker, TakeDiscard
from rummylib.cards import Card, CardMultiset
from rummylib.engine._deal import deal_round
from rummylib.engine._fits import fits_at, grown_meld
from rummylib.engine._hand import add_card, remove_card, remove_cards, replace
from rummylib.engine._oblige import can_finish_turn, may_take_discard, needs_finish_check, take_discard_round
from rummylib.engine._rng import shuffled
from rummylib.engine._state import (
    DRAW_PHASE,
    FRESH_TURN,
    GAME_OVER_PHASE,
    PLAY_PHASE,
    ROUND_OVER_PHASE,
    GameState,
    Phase,
    RoundState,
    TurnState,
    discarded_round,
    evolve_game,
    evolve_round,
    stock_drawn_round,
    table_meld,
    with_round,
)
from rummylib.engine._turn import drawn_fresh, laid_off_turn, melded_turn, swapped_turn
from rummylib.errors import (
    IllegalActionError,
    IllegalActionReason,
    InvalidMeldError,
    InvalidOpeningError,
    InvalidStateError,
    OpeningReason,
    StateReason,
    shorten,
)
from rummylib.melds import End, Group, Meld, Run, is_clean_run, lay_off, swap_joker, validate_meld
from rummylib.melds._types import checked_points
from rummylib.rules import RestockRule
from rummylib.scoring import is_game_over, score_round
from rummylib.solver import check_opening

from .._guards import is_collection_of_items, is_int_in

__all__ = ["discarded", "opening_melds", "transition"]

R = IllegalActionReason


def _fail(reason: IllegalActionReason, action: object, detail: str, **fields: Any) -> NoReturn:
    raise IllegalActionError(reason, action, detail, **fields)


#: R-D4's refill rule, read as a global (an enum member is looked up through its metaclass).
_KEEP_TOP: Final = RestockRule.RESHUFFLE_KEEP_TOP

#: Why an action of another phase is refused now, by the current phase.
_NOT_NOW = {
    Phase.DRAW: "draw first ('draw' or 'take')",
    Phase.PLAY: "drawing is over for this turn",
    Phase.ROUND_OVER: "the round is over ('next' deals the next one)",
    Phase.GAME_OVER: "the game is over",
}


def _phase(r: RoundState, action: object, want: Phase) -> None:
    if r.phase is not want:
        live = want is Phase.ROUND_OVER and r.phase in (Phase.DRAW, Phase.PLAY)
        why = "the round is still being played" if live else _NOT_NOW[r.phase]
        text = str(action)
        text = text if len(text) <= 60 else text[:57] + "..."  # a long opening, shortened
        _fail(R.WRONG_PHASE, action, f"'{text}' is not allowed now: {why}")


# --- ending a round -----------------------------------------------------------------------


def _end_round(state: GameState, r: RoundState, winner: int | None, rummy: bool) -> GameState:
    result = score_round(r.hands, winner, state.rules, rummy=rummy)
    totals = tuple(t + s for t, s in zip(state.totals, result.scores))
    results = (*state.results, result)
    over = is_game_over(totals, len(results), state.rules)
    done = evolve_round(r, phase=Phase.GAME_OVER if over else Phase.ROUND_OVER)
    return evolve_game(state, totals=totals, results=results, round=done)


def _go_out(state: GameState, r: RoundState, seat: int) -> GameState:
    # R-E2, E4: a one-turn go-out, nothing laid in an earlier turn of the round.
    return _end_round(state, r, seat, rummy=not r.has_laid[seat])


# --- draw phase -----------------------------------------------------------------------------


def _next_round(state: GameState, r: RoundState, action: NextRound) -> GameState:
    _phase(r, action, Phase.ROUND_OVER)
    n = state.num_players
    dealer = (state.dealer + 1) % n  # R-P4
    number = state.round_number + 1
    fresh = deal_round(state.rules, n, dealer, state.seed, number)
    return evolve_game(state, dealer=dealer, round_number=number, round=fresh)


def _draw_stock(state: GameState, r: RoundState, action: DrawStock) -> GameState:
    _phase(r, action, DRAW_PHASE)
    rules = state.rules
    stock, pile, restocks = r.stock, r.discard, r.restocks
    if not stock:
        limit = rules.restock_limit
        if limit is not None and restocks >= limit:
            return _end_round(state, r, None, rummy=False)  # R-D7: past the cap
        if rules.restock_rule is _KEEP_TOP:
            if len(pile) <= 1:
                return _end_round(state, r, None, rummy=False)  # R-D7
            # R-D4: the top discard stays; the rest is shuffled (a stream per round and refill).
            stock = shuffled(pile[:-1], state.seed, "restock", state.round_number, restocks)
            pile = pile[-1:]
        else:
            if not pile:
                return _end_round(state, r, None, rummy=False)  # R-D7
            stock, pile = pile, ()  # R-D6: turned over unshuffled, first discard on top
        restocks += 1
    seat = r.to_act
    card = stock[0]
    hands = replace(r.hands, seat, add_card(r.hands[seat], card))
    # evolve_round(r, hands=, stock=, discard=, restocks=, phase=, turn=evolve_turn(FRESH_TURN, drawn=card)), by position
    return with_round(state, stock_drawn_round(r, hands, stock[1:], pile, restocks, PLAY_PHASE, drawn_fresh(card)))


def _take_discard(state: GameState, r: RoundState, action: TakeDiscard) -> GameState:
    _phase(r, action, DRAW_PHASE)
    if not r.discard:
        _fail(R.EMPTY_DISCARD_PILE, action, "the discard pile is empty")
    rules = state.rules
    new = take_discard_round(rules, r)
    turn = new.turn
    card = r.discard[-1]
    if not may_take_discard(rules, r, new):
        if turn.must_go_out:
            detail = f"taking {card} before opening must let you open with it and go out this turn (R-D2)"
        elif not r.opened[r.to_act] and rules.opening_required:
            detail = f"taking {card} before opening must let you open with it this turn (R-D2)"
        elif turn.must_meld is not None:
            detail = f"taking {card} needs a new meld with it this turn, keeping a card to discard (R-D2)"
        else:
            detail = f"after taking {card} the turn could not end legally (R-T7)"
        _fail(R.CANNOT_USE_DISCARD, action, detail, card=card)
    return with_round(state, new)


# --- play phase -----------------------------------------------------------------------------


def _meld_of(meld: object, action: object, state: GameState) -> Meld:
    if not isinstance(meld, (Run, Group)):
        _fail(R.INVALID_MELD, action, f"{meld!r} is not a Run or a Group")
    try:
        validate_meld(meld, state.rules)
    except InvalidMeldError as exc:
        _fail(R.INVALID_MELD, action, f"meld {meld} is not valid: {exc}", meld_reason=exc.reason)
    return meld


def _after_play(state: GameState, r: RoundState, action: object, hand: CardMultiset, **changes: Any) -> GameState:
    """Finish a meld, lay-off or swap: go out on an empty hand (R-E3), else keep the turn finishable."""
    rules = state.rules
    seat = r.to_act
    turn: TurnState = changes.get("turn", r.turn)
    if not hand and rules.must_discard_to_go_out:
        _fail(R.MUST_KEEP_CARD, action, "you must keep a card for the final discard (R-T3, E1)")
    new = evolve_round(r, hands=replace(r.hands, seat, hand), **changes)
    if not hand:
        new = _close_opening(state, new, action)  # going out ends the opening too (R-O4, E3)
        if turn.must_meld is not None:
            _fail(R.TAKEN_CARD_NOT_MELDED, action, f"the taken {turn.must_meld} is not in a new meld (R-D2)")
        if turn.freed_jokers:
            _fail(R.FREED_JOKER_NOT_MELDED, action, "a freed joker is not in a new meld (R-J4)")
        return _go_out(state, new, seat)  # R-E3, E5
    if needs_finish_check(new) and not can_finish_turn(rules, new):
        _fail(R.CANNOT_FINISH_TURN, action, "after this the turn could not end legally (R-D2, J4, T7)")
    return with_round(state, new)


def _check_meld_limit(state: GameState, r: RoundState, action: object, count: int) -> None:
    limit = state.rules.melds_per_turn
    if limit is not None and r.turn.melds_laid + count > limit:
        _fail(R.MELD_LIMIT, action, f"at most {limit} new meld(s) per turn (R-T5)", limit=limit)


def opening_melds(r: RoundState) -> tuple[Meld, ...]:
    """The melds of the opening in progress: every new meld of the turn (R-O4)."""
    n = r.turn.melds_laid
    return tuple(tm.meld for tm in r.table[len(r.table) - n :]) if n else ()


def _close_opening(state: GameState, r: RoundState, action: object) -> RoundState:
    """The boundary of R-O4: at the first lay-off, swap or discard the opening laid so far is checked (R-O2)."""
    seat = r.to_act
    if r.opened[seat] or not r.turn.melds_laid:
        return r
    turn = r.turn
    if turn.must_meld is not None:
        _fail(R.OPENING_WITHOUT_DISCARD, action, f"you took {turn.must_meld}: open with it (R-D2)")
    try:
        check_opening(opening_melds(r), state.rules)
    except InvalidOpeningError as exc:
        if exc.reason is OpeningReason.TOO_LOW:
            detail = f"the opening is worth {exc.have}, below {exc.need} (R-O2, O4)"
            _fail(R.OPENING_TOO_LOW, action, detail, have=exc.have, need=exc.need)
        _fail(R.NO_CLEAN_RUN, action, "the opening needs a run without jokers (R-O2, O4)")
    return evolve_round(r, opened=replace(r.opened, seat, True))


def _opening_closed(r: RoundState) -> bool:
    """Whether this turn already passed the R-O4 boundary without an opening (a lay-off before opening)."""
    return r.turn.laid and not r.turn.melds_laid


def _lay_new(state: GameState, r: RoundState, action: object, melds: tuple[Meld, ...]) -> GameState:
    """Lay new ``melds`` from the hand (one :class:`LayMeld`, or the melds of an :class:`Open` in turn)."""
    seat = r.to_act
    hand = remove_cards(r.hands[seat], (c for m in melds for c in m.cards))
    if hand is None:
        what = f"the cards of {melds[0]}" if len(melds) == 1 else "the cards of these melds"
        _fail(R.CARD_NOT_IN_HAND, action, f"you do not hold {what}")
    _check_meld_limit(state, r, action, len(melds))
    table = r.table + tuple(table_meld(meld=m, owner=seat) for m in melds)
    turn = melded_turn(r.turn, melds, state.rules, opening=not r.opened[seat])
    return _after_play(state, r, action, hand, table=table, turn=turn)


def _open(state: GameState, r: RoundState, action: Open) -> GameState:
    _phase(r, action, PLAY_PHASE)
    rules = state.rules
    seat = r.to_act
    if not rules.opening_required:
        _fail(R.CANNOT_OPEN, action, f"the {rules.name} rules have no opening; lay each meld with 'meld'")
    if r.opened[seat]:
        _fail(R.CANNOT_OPEN, action, "you have opened already; lay each further meld with 'meld' (R-O5)")
    if _opening_closed(r):
        _fail(R.CANNOT_OPEN, action, "the opening is laid before any lay-off this turn (R-O4)")
    if not is_collection_of_items(action.melds) or not action.melds:
        _fail(R.INVALID_MELD, action, "an opening needs at least one meld")
    melds = tuple(_meld_of(m, action, state) for m in action.melds)
    if remove_cards(r.hands[seat], (c for m in melds for c in m.cards)) is None:
        _fail(R.CARD_NOT_IN_HAND, action, "the opening melds use cards you do not hold")
    _check_meld_limit(state, r, action, len(melds))
    # The composite is the same melds laid one after another (R-O4); it must
    # bring the whole opening, so R-O2 is checked on what is down after it.
    have = r.turn.opening_points + sum(map(checked_points, melds))  # each validated by _meld_of
    need = rules.opening_points
    if have < need:
        _fail(R.OPENING_TOO_LOW, action, f"the opening is worth {have}, below {need} (R-O2)", have=have, need=need)
    clean = r.turn.opening_clean or any(is_clean_run(m) for m in melds)
    if rules.opening_clean_run and not clean:
        _fail(R.NO_CLEAN_RUN, action, "the opening needs a run without jokers (R-O2)")
    turn = r.turn
    if turn.must_meld is not None and not any(turn.must_meld in m.cards for m in melds):
        # R-D2: the taken card goes into the opening; only a further opening meld could still take it.
        probe = _lay_new_or_none(state, r, action, melds)
        if probe is None:
            _fail(R.OPENING_WITHOUT_DISCARD, action, f"you took {turn.must_meld}: open with it (R-D2)")
        return probe
    return _lay_new(state, r, action, melds)


def _lay_new_or_none(state: GameState, r: RoundState, action: object, melds: tuple[Meld, ...]) -> GameState | None:
    try:
        return _lay_new(state, r, action, melds)
    except IllegalActionError as exc:
        if exc.reason is R.CANNOT_FINISH_TURN:
            return None
        raise


def _lay_meld(state: GameState, r: RoundState, action: LayMeld) -> GameState:
    _phase(r, action, PLAY_PHASE)
    seat = r.to_act
    if not r.opened[seat] and _opening_closed(r):
        _fail(R.MUST_OPEN_FIRST, action, "the opening is laid before any lay-off this turn (R-O4)")
    meld = _meld_of(action.meld, action, state)
    return _lay_new(state, r, action, (meld,))


def _target(r: RoundState, action: LayOff | SwapJoker) -> Meld:
    t = action.target
    if not is_int_in(t, 0, len(r.table) - 1):
        _fail(R.NO_SUCH_MELD, action, f"no table meld has index {t!r} (the table holds {len(r.table)})")
    return r.table[t].meld


def _card_in_hand(r: RoundState, action: object, card: object) -> Card:
    if not isinstance(card, Card) or not r.hands[r.to_act].count(card):
        _fail(R.CARD_NOT_IN_HAND, action, f"you do not hold {card}", card=card)
    return card


def _lay_off(state: GameState, r: RoundState, action: LayOff) -> GameState:
    _phase(r, action, PLAY_PHASE)
    r = _close_opening(state, r, action)
    rules = state.rules
    seat = r.to_act
    if not (r.opened[seat] or rules.lay_off_before_opening):
        _fail(R.MUST_OPEN_FIRST, action, "you may lay off only after opening (R-O1)")
    meld = _target(r, action)
    card = _card_in_hand(r, action, action.card)
    end = action.end
    if isinstance(meld, Run) and not isinstance(end, End):
        _fail(R.BAD_END, action, f"say which end of {meld} the card goes to (End.LOW or End.HIGH)")
    if isinstance(meld, Group) and end is not None:
        _fail(R.BAD_END, action, f"{meld} is a set: a lay-off onto it takes end=None")
    # The listing's own test of a fit (R-T6, J5): where it holds, lay_off would build this very meld.
    if fits_at(meld, card, end, rules):
        new_meld = grown_meld(meld, card, end)
    else:
        try:
            new_meld = lay_off(meld, card, rules, end=end)
        except InvalidMeldError as exc:
            _fail(R.DOES_NOT_FIT, action, f"{card} does not fit {meld}: {exc}", meld_reason=exc.reason)
    turn = laid_off_turn(r, action.target, card)
    owner = r.table[action.target].owner
    table = replace(r.table, action.target, table_meld(meld=new_meld, owner=owner))
    return _after_play(state, r, action, remove_card(r.hands[seat], card), table=table, turn=turn)


def _swap(state: GameState, r: RoundState, action: SwapJoker) -> GameState:
    _phase(r, action, PLAY_PHASE)
    r = _close_opening(state, r, action)
    rules = state.rules
    seat = r.to_act
    if not rules.joker_swap:
        _fail(R.SWAP_NOT_ALLOWED, action, f"the {rules.name} rules have no joker swap")
    if not r.opened[seat]:
        _fail(R.MUST_OPEN_FIRST, action, "only a player who has opened may swap a joker (R-J4)")
    meld = _target(r, action)
    card = _card_in_hand(r, action, action.card)
    try:
        new_meld, joker = swap_joker(meld, card, rules)
    except InvalidMeldError as exc:
        _fail(R.NO_SUCH_JOKER, action, f"cannot swap {card} into {meld}: {exc}", meld_reason=exc.reason)
    hand = add_card(remove_card(r.hands[seat], card), joker)
    turn = swapped_turn(r.turn, card)
    owner = r.table[action.target].owner
    table = replace(r.table, action.target, table_meld(meld=new_meld, owner=owner))
    return _after_play(state, r, action, hand, table=table, turn=turn)


def _discard(state: GameState, r: RoundState, action: Discard) -> GameState:
    _phase(r, action, PLAY_PHASE)
    r = _close_opening(state, r, action)
    rules = state.rules
    seat = r.to_act
    card = _card_in_hand(r, action, action.card)
    turn = r.turn
    if turn.taken is not None and card == turn.taken and not rules.discard_taken_card:
        _fail(R.CANNOT_DISCARD_TAKEN_CARD, action, f"{card} was taken from the pile this turn (R-T7)", card=card)
    if turn.must_meld is not None:
        _fail(R.TAKEN_CARD_NOT_MELDED, action, f"the taken {turn.must_meld} must go into a new meld first (R-D2)")
    if turn.freed_jokers:
        _fail(R.FREED_JOKER_NOT_MELDED, action, "the freed joker must go into a new meld first (R-J4)")
    if turn.must_go_out and len(r.hands[seat]) > 1:
        _fail(R.MUST_GO_OUT, action, "you took the discard before opening: go out this turn (R-D2)")
    return discarded(state, r, card)


def discarded(state: GameState, r: RoundState, card: Card, known: tuple[CardMultiset, ...] | None = None) -> GameState:
    """The state after the player to act discards ``card`` (a legal discard; ``r`` past the R-O4 boundary).

    ``known``: the public knowledge of hands after it (R-H1), if the caller tracks it (else ``r``'s).
    """
    seat = r.to_act
    hand = remove_card(r.hands[seat], card)
    hands = replace(r.hands, seat, hand)
    pile = r.discard + (card,)  # one copy in C
    if known is None:
        known = r.known_cards
    if not hand._len:  # the size slot (no __bool__ call)
        return _go_out(state, evolve_round(r, hands=hands, discard=pile, known_cards=known), seat)  # R-E1, E3
    has_laid = replace(r.has_laid, seat, True) if r.turn.laid and not r.has_laid[seat] else r.has_laid
    # evolve_round(r, hands=, discard=, has_laid=, to_act=, phase=, turn=, known_cards=), by position
    new = discarded_round(r, hands, pile, has_laid, (seat + 1) % len(r.hands), DRAW_PHASE, FRESH_TURN, known)
    return with_round(state, new)


_Handler = Callable[[GameState, RoundState, Any], GameState]
_HANDLERS: dict[type, _Handler] = {
    DrawStock: _draw_stock,
    TakeDiscard: _take_discard,
    Open: _open,
    LayMeld: _lay_meld,
    LayOff: _lay_off,
    SwapJoker: _swap,
    Discard: _discard,
    NextRound: _next_round,
}


def transition(state: GameState, action: object, seat: int | None = None) -> GameState:
    """The state after ``action``; raises :class:`IllegalActionError` if it is not legal."""
    if not isinstance(state, GameState):
        msg = f"expected a GameState, not {type(state).__name__}"
        raise InvalidStateError(StateReason.WRONG_TYPE, "", msg)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        _fail(R.WRONG_TYPE, action, f"{action!r} is not an action")
    r = state.round
    if r.phase is GAME_OVER_PHASE:
        _fail(R.GAME_OVER, action, "the game is over")
    if seat is not None and not is_int_in(seat, 0, state.num_players - 1):
        _fail(R.NOT_YOUR_TURN, action, f"seat {shorten(seat)} is not a seat of this game", seat=seat)
    if seat is not None and r.phase is not ROUND_OVER_PHASE and seat != r.to_act:
        _fail(R.NOT_YOUR_TURN, action, f"it is seat {r.to_act}'s turn, not seat {seat!r}'s", seat=seat)
    return handler(state, r, action)
