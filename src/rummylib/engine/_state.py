"""The game state: immutable values all the way down (DESIGN.md "Engine").

A :class:`GameState` holds the ruleset, the seats, the running totals, the
finished rounds' results and the current :class:`RoundState`. Successive
states share every unchanged part (tuples of cards and melds are reused).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

from rummylib.cards import Card, CardMultiset
from rummylib.melds import Meld
from rummylib.rules import Ruleset
from rummylib.scoring import RoundResult, Standings, standings

__all__ = ["GameState", "Phase", "RoundState", "TableMeld", "TurnState"]


class Phase(enum.Enum):
    """What the player to act (or the table) does next."""

    #: The player to act must draw: :class:`~rummylib.DrawStock` or :class:`~rummylib.TakeDiscard`.
    DRAW = "draw"
    #: The player has drawn: melds, lay-offs, swaps, then a discard (or going out).
    PLAY = "play"
    #: The round has ended; :class:`~rummylib.NextRound` deals the next one.
    ROUND_OVER = "round_over"
    #: The game has ended (R-S2, S4); no action is legal.
    GAME_OVER = "game_over"


def _tuple(values: Iterable[object]) -> tuple[object, ...]:
    return tuple(values)


def _bools(values: Iterable[bool]) -> tuple[bool, ...]:
    return tuple(values)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _cards(values: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(values)


def _hands(values: Iterable[CardMultiset]) -> tuple[CardMultiset, ...]:
    return tuple(values)


def _table(values: Iterable[TableMeld]) -> tuple[TableMeld, ...]:
    return tuple(values)


def _results(values: Iterable[RoundResult]) -> tuple[RoundResult, ...]:
    return tuple(values)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


#: No card known (shared by every seat of a fresh round).
_NONE: CardMultiset = CardMultiset()


@attrs.frozen
class TableMeld:
    """A meld on the table and the seat that laid it (``None`` in a puzzle set-up)."""

    meld: Meld
    owner: int | None = None


@attrs.frozen
class TurnState:
    """The current turn's obligations and what it has done so far.

    Attributes:
        drawn: the card drawn or taken this turn (``None`` before the draw, or
            on the remik dealer's first turn, R-T1).
        taken: the card taken from the discard pile, while it is still in the
            hand and may not be discarded (R-T7).
        must_meld: the taken discard while it has not yet gone into a new meld
            laid this turn (R-D2).
        must_go_out: the player took the discard before opening, so must open
            with it and go out this turn (R-D2).
        freed_jokers: jokers freed by swaps this turn not yet in a new meld (R-J4).
        melds_laid: new melds laid this turn, the opening's included (R-T5).
        laid: whether anything (meld, lay-off, swap) went on the table this turn.
    """

    drawn: Card | None = None
    taken: Card | None = None
    must_meld: Card | None = None
    must_go_out: bool = False
    freed_jokers: int = 0
    melds_laid: int = 0
    laid: bool = False

    @property
    def has_obligation(self) -> bool:
        """Whether a D2 or J4 obligation is still open."""
        return self.must_meld is not None or self.must_go_out or self.freed_jokers > 0


#: The turn before anything happened (shared by every fresh turn).
FRESH_TURN = TurnState()


@attrs.frozen
class RoundState:
    """One round in play (or just ended).

    Attributes:
        hands: each seat's hand.
        stock: the stock, top card first (``stock[0]`` is drawn next).
        discard: the discard pile, bottom first (``discard[-1]`` is the top, R-D1).
        table: the melds on the table, in the order they were laid (the
            ``target`` of :class:`~rummylib.LayOff` and :class:`~rummylib.SwapJoker`).
        opened: whether each seat has opened (always true without an opening rule).
        has_laid: whether each seat laid anything in an earlier turn of this round (R-E2, E4).
        to_act: the seat whose turn it is.
        phase: what happens next.
        turn: this turn's obligations.
        restocks: how often the stock was refilled this round (R-D4, D6, D7).
        known_cards: per seat, the cards every player knows that seat holds
            (R-H1): taken from the discard pile, freed by a joker swap, or
            drawn from a stock of public order, and not yet laid or thrown.
        known_stock: the bottom of the stock whose order is public, top first
            (after a straight turnover the whole stock, R-D6; else empty).
        restocked: the cards the stock was last refilled with (R-D4, D6):
            every card of the stock is one of them once ``restocks > 0``.
    """

    hands: tuple[CardMultiset, ...] = attrs.field(converter=_hands)
    stock: tuple[Card, ...] = attrs.field(converter=_cards)
    discard: tuple[Card, ...] = attrs.field(converter=_cards)
    table: tuple[TableMeld, ...] = attrs.field(converter=_table)
    opened: tuple[bool, ...] = attrs.field(converter=_bools)
    has_laid: tuple[bool, ...] = attrs.field(converter=_bools)
    to_act: int
    phase: Phase
    turn: TurnState = FRESH_TURN
    restocks: int = 0
    known_cards: tuple[CardMultiset, ...] = attrs.field(
        converter=_hands, default=attrs.Factory(lambda self: (_NONE,) * len(self.hands), takes_self=True)
    )
    known_stock: tuple[Card, ...] = attrs.field(converter=_cards, default=())
    restocked: CardMultiset = attrs.field(factory=CardMultiset)

    @property
    def top_discard(self) -> Card | None:
        """The top of the discard pile, or ``None`` when it is empty."""
        return self.discard[-1] if self.discard else None

    def cards(self) -> CardMultiset:
        """Every card of the round: hands + stock + pile + table (R-C3).

        >>> import rummylib as rl
        >>> rl.new_game(rl.REMIK, 3, seed=1).round.cards() == rl.deck(rl.REMIK)
        True
        """
        total = CardMultiset(self.stock) + CardMultiset(self.discard)
        for hand in self.hands:
            total = total + hand
        for tm in self.table:
            total = total + CardMultiset(tm.meld.cards)
        return total


@attrs.frozen
class GameState:
    """A whole game at one moment. Never mutated: :func:`~rummylib.apply` returns a new one.

    Attributes:
        rules: the ruleset.
        players: the seats' names, seat 0 first (R-P1).
        seed: the seed of every shuffle in the game (never shown in a view, R-H1).
        dealer: the dealer of the current round.
        round_number: the current round, counting from 1.
        totals: each seat's running total (R-S1..S4).
        round: the current round.
        results: the finished rounds' results, oldest first.
    """

    rules: Ruleset
    players: tuple[str, ...] = attrs.field(converter=_names)
    seed: int | str = attrs.field(repr=False)
    dealer: int
    round_number: int
    totals: tuple[int, ...] = attrs.field(converter=_ints)
    round: RoundState
    results: tuple[RoundResult, ...] = attrs.field(converter=_results, default=())

    @property
    def num_players(self) -> int:
        """How many seats the table has."""
        return len(self.players)

    @property
    def to_act(self) -> int:
        """The seat whose turn it is (after a round ends: the seat that acted last)."""
        return self.round.to_act

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self.round.phase

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R-S2, S4)."""
        return self.round.phase is Phase.GAME_OVER

    @property
    def standings(self) -> Standings:
        """Totals, rounds played and, once over, the winners (R-S2, S4)."""
        return standings(self.totals, len(self.results), self.rules)

    @property
    def last_result(self) -> RoundResult | None:
        """The result of the latest finished round, if any."""
        return self.results[-1] if self.results else None
