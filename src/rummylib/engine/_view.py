"""What one seat may know (R-H1): :class:`PlayerView` and :func:`view`."""

from __future__ import annotations

from operator import attrgetter
from typing import Final

import attrs

from rummylib.cards import Card, CardMultiset
from rummylib.engine._state import (
    _NONE,
    DRAW_PHASE,
    PLAY_PHASE,
    GameState,
    Phase,
    TableMeld,
    TurnState,
    _bad,
    _bools,
    _cards,
    _check_int,
    _hands,
    _ints,
    _names,
    _results,
    _table,
    check_items,
    check_knowledge,
)
from rummylib.errors import ArgumentError, ArgumentReason, InvalidStateError, StateReason
from rummylib.rules import Ruleset
from rummylib.scoring import RoundResult, Standings

from .._guards import is_int_in
from .._trusted import builder

__all__ = ["PlayerView", "view"]


@attrs.frozen
class PlayerView:
    """One seat's knowledge of the game (R-H1). Holds no reference to the state.

    Attributes:
        seat: whose view this is.
        rules: the ruleset.
        players: the seats' names.
        dealer: the current round's dealer.
        round_number: the current round, from 1.
        hand: this seat's own hand.
        hand_sizes: how many cards each seat holds.
        table: the melds on the table, with owners, in order of laying.
        discard: the discard pile, bottom first (every card in it was thrown face up).
        stock_size: how many cards the stock holds (never their order).
        opened: who has opened.
        to_act: whose turn it is.
        phase: the phase.
        turn: this turn's obligations, only when it is this seat's turn (else ``None``).
        restocks: how often the stock was refilled this round.
        totals: running totals.
        results: the finished rounds' results.
        standings: totals, rounds played and winners once over.
        opening_points: what the opening in progress of the seat to act is
            worth so far (R-O4: public, the melds are on the table).
        opening_clean: whether that opening holds a run without jokers.
        has_laid: whether each seat laid anything in an earlier turn of this
            round (R-E2, E4: everyone saw it).
        known_cards: per seat, the cards every player knows that seat holds
            (R-H1: taken from the pile, freed by a swap, or drawn from a stock
            of public order, and not yet laid or thrown); a lower bound of the
            hand, and part of :attr:`hand` for this seat.
        known_stock: the bottom of the stock whose order is public, top first
            (after a straight turnover, the whole stock, R-D6).
        restocked: the cards the stock was last refilled with (R-D4, D6); once
            ``restocks > 0`` every card of the stock is one of them.
    """

    seat: int
    rules: Ruleset
    players: tuple[str, ...] = attrs.field(converter=_names)
    dealer: int
    round_number: int
    hand: CardMultiset
    hand_sizes: tuple[int, ...] = attrs.field(converter=_ints)
    table: tuple[TableMeld, ...] = attrs.field(converter=_table)
    discard: tuple[Card, ...] = attrs.field(converter=_cards)
    stock_size: int
    opened: tuple[bool, ...] = attrs.field(converter=_bools)
    to_act: int
    phase: Phase
    turn: TurnState | None
    restocks: int
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    results: tuple[RoundResult, ...] = attrs.field(converter=_results)
    standings: Standings
    opening_points: int = 0
    opening_clean: bool = False
    has_laid: tuple[bool, ...] = attrs.field(
        converter=_bools, default=attrs.Factory(lambda self: (False,) * len(self.players), takes_self=True)
    )
    known_cards: tuple[CardMultiset, ...] = attrs.field(
        converter=_hands, default=attrs.Factory(lambda self: (_NONE,) * len(self.players), takes_self=True)
    )
    known_stock: tuple[Card, ...] = attrs.field(converter=_cards, default=())
    restocked: CardMultiset = attrs.field(factory=CardMultiset)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, Ruleset):
            raise _bad("rules", self.rules, "a Ruleset")
        n = len(self.players)
        check_items(self.players, str, "players", "a str")
        for field in ("seat", "dealer", "to_act"):
            _check_int(getattr(self, field), field, 0, n - 1)
        _check_int(self.round_number, "round_number", 1)
        _check_int(self.stock_size, "stock_size", 0)
        _check_int(self.restocks, "restocks", 0)
        if not isinstance(self.hand, CardMultiset):
            raise _bad("hand", self.hand, "a CardMultiset")
        check_items(self.table, TableMeld, "table", "a TableMeld")
        check_items(self.discard, Card, "discard", "a Card")
        check_items(self.results, RoundResult, "results", "a RoundResult")
        for field, kind in (("hand_sizes", int), ("totals", int), ("opened", bool), ("has_laid", bool)):
            values = getattr(self, field)
            check_items(values, kind, field, f"a {kind.__name__}")
            if len(values) != n:
                raise InvalidStateError(StateReason.INCONSISTENT, field, f"needs one value per seat ({n})")
        if not isinstance(self.phase, Phase):
            raise _bad("phase", self.phase, "a Phase")
        if self.turn is not None and not isinstance(self.turn, TurnState):
            raise _bad("turn", self.turn, "a TurnState or None")
        if not isinstance(self.standings, Standings):
            raise _bad("standings", self.standings, "a Standings")
        check_knowledge(self.known_cards, self.known_stock, self.restocked, n, "")

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.to_act == self.seat and self.phase in (Phase.DRAW, Phase.PLAY)

    @property
    def top_discard(self) -> Card | None:
        """The top of the discard pile (the only card that can be taken, R-D1)."""
        return self.discard[-1] if self.discard else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    def _repr_svg_(self) -> str:
        """The view as SVG, for notebooks (imports :mod:`rummylib.svg` lazily: the engine never imports upward)."""
        from rummylib.svg import view_svg

        return view_svg(self)


#: A hand's size, read from its slot in C (``len`` calls the multiset's ``__len__`` in Python).
_SIZE: Final = attrgetter("_len")

#: A view built from a checked state's own fields (the public constructor checks them all again).
_trusted_view = builder(PlayerView, positional=True)

_STANDINGS: dict[tuple[object, ...], tuple[Ruleset, Standings]] = {}


#: The last totals, results and rules asked of and their standings (held: their ids stay their own).
_LAST_STANDINGS: list[object] = [None, None, None, None]


def _standings(state: GameState) -> Standings:
    # The standings change only when a round ends; every view of a round shares them, and every state of a
    # round holds the same totals and results objects: first the last answer, then the table by value.
    last = _LAST_STANDINGS
    if last[0] is state.totals and last[1] is state.results and last[2] is state.rules:
        return last[3]  # type: ignore[return-value]
    key = (id(state.rules), state.totals, len(state.results))
    found = _STANDINGS.get(key)
    if found is not None and found[0] is state.rules:
        table = found[1]
    else:
        if len(_STANDINGS) >= 64:
            _STANDINGS.clear()
        table = state.standings
        _STANDINGS[key] = (state.rules, table)
    last[:] = [state.totals, state.results, state.rules, table]
    return table


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may know of ``state`` (R-H1): never another hand, the stock order or the seed.

    Raises:
        InvalidStateError: ``state`` is not a :class:`GameState`.
        ArgumentError: ``seat`` is not a seat of the game.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 3, seed=5)
    >>> v = rl.view(s, 1)
    >>> len(v.hand), v.hand_sizes, v.stock_size
    (13, (14, 13, 13), 68)
    """
    if not isinstance(state, GameState):
        msg = f"expected a GameState, not {type(state).__name__}"
        raise InvalidStateError(StateReason.WRONG_TYPE, "", msg)
    n = len(state.players)  # state.num_players, without the property's call
    if not (type(seat) is int and 0 <= seat < n) and not is_int_in(seat, 0, n - 1):  # the plain int first
        msg = f"seat must be 0..{n - 1}"
        raise ArgumentError(ArgumentReason.BAD_VALUE, "seat", seat, msg)
    r = state.round
    phase = r.phase
    playing = phase is PLAY_PHASE
    mine = r.to_act == seat and (playing or phase is DRAW_PHASE)
    return _trusted_view(  # by position, in PlayerView's field order (the names in the comments)
        seat,
        state.rules,  # rules
        state.players,  # players
        state.dealer,  # dealer
        state.round_number,  # round_number
        r.hands[seat],  # hand
        tuple(map(_SIZE, r.hands)),  # hand_sizes (each hand's size slot, read in C)
        r.table,  # table
        r.discard,  # discard
        len(r.stock),  # stock_size
        r.opened,  # opened
        r.to_act,  # to_act
        phase,  # phase
        r.turn if mine else None,  # turn
        r.restocks,  # restocks
        state.totals,  # totals
        state.results,  # results
        _standings(state),  # standings
        r.turn.opening_points if playing else 0,  # opening_points
        r.turn.opening_clean if playing else False,  # opening_clean
        r.has_laid,  # has_laid
        r.known_cards,  # known_cards
        r.known_stock,  # known_stock
        r.restocked,  # restocked
    )
