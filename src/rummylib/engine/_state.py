"""The game state: immutable values all the way down.

A :class:`GameState` holds the ruleset, the seats, the running totals, the
finished rounds' results and the current :class:`RoundState`. Successive
states share every unchanged part (tuples of cards and melds are reused).
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable
from typing import Any, Final, cast

import attrs

from rummylib.cards import Card, CardMultiset
from rummylib.errors import InvalidStateError, StateReason, shorten
from rummylib.melds import Group, Meld, Run
from rummylib.rules import Ruleset
from rummylib.scoring import RoundResult, Standings, standings

from .._guards import is_collection_of_items, is_int
from .._trusted import builder, evolver, replacer

__all__ = [
    "DRAW_PHASE",
    "GAME_OVER_PHASE",
    "PLAY_PHASE",
    "ROUND_OVER_PHASE",
    "GameState",
    "Phase",
    "RoundState",
    "TableMeld",
    "TurnState",
    "discarded_round",
    "drawn_turn",
    "evolve_game",
    "evolve_round",
    "evolve_turn",
    "public_drawn_round",
    "stock_drawn_round",
    "table_meld",
    "with_round",
]


class Phase(enum.Enum):
    """What the player to act (or the table) does next."""

    #: The player to act must draw, with :class:`~rummylib.DrawStock` or :class:`~rummylib.TakeDiscard`.
    DRAW = "draw"
    #: The player has drawn and now lays melds, lays off, swaps, then discards (or goes out).
    PLAY = "play"
    #: The round has ended; :class:`~rummylib.NextRound` deals the next one.
    ROUND_OVER = "round_over"
    #: The game has ended (R-S2, S4); no action is legal.
    GAME_OVER = "game_over"


# The phases as module constants, for the engine's hot paths: ``Phase.DRAW`` looks the member up through
# the enum's metaclass on every read (several times the cost of reading a global), and every step asks.
DRAW_PHASE: Final = Phase.DRAW
PLAY_PHASE: Final = Phase.PLAY
ROUND_OVER_PHASE: Final = Phase.ROUND_OVER
GAME_OVER_PHASE: Final = Phase.GAME_OVER


#: Most items any field of a state holds (a 224-card deck, 64 seats, 100 000 rounds).
_MOST_ITEMS: Final = 1_000_000


def _bad(field: str, value: object, want: str) -> InvalidStateError:
    return InvalidStateError(StateReason.WRONG_TYPE, field, f"expected {want}, not {shorten(value)}")


def _tuple(values: object, field: str = "") -> tuple[Any, ...]:
    if isinstance(values, tuple):
        return values
    if not is_collection_of_items(values):
        raise _bad(field, values, "a sequence")
    items = tuple(itertools.islice(cast(Iterable[object], values), _MOST_ITEMS + 1))
    if len(items) > _MOST_ITEMS:
        raise InvalidStateError(StateReason.TOO_LARGE, field, f"holds more than {_MOST_ITEMS} values")
    return items


def _bools(values: Iterable[bool]) -> tuple[bool, ...]:
    return _tuple(values)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return _tuple(values)


def _cards(values: Iterable[Card]) -> tuple[Card, ...]:
    return _tuple(values)


def _hands(values: Iterable[CardMultiset]) -> tuple[CardMultiset, ...]:
    return _tuple(values)


def _table(values: Iterable[TableMeld]) -> tuple[TableMeld, ...]:
    return _tuple(values)


def _results(values: Iterable[RoundResult]) -> tuple[RoundResult, ...]:
    return _tuple(values)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return _tuple(values)


def check_items(values: tuple[object, ...], kind: type, field: str, want: str) -> None:
    """Every item of ``values`` is a ``kind`` (exactly, for ``bool`` and ``int``), else a typed error."""
    if set(map(type, values)) <= {kind}:  # the fast path, in C: run on every new state
        return
    for i, item in enumerate(values):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise _bad(f"{field}[{i}]", item, want)


def _check_int(value: object, field: str, low: int, high: int | None = None) -> None:
    if not is_int(value) or cast(int, value) < low or (high is not None and cast(int, value) > high):
        span = f"{low}..{'' if high is None else high}"
        raise _bad(field, value, f"an int {span}")


#: No card known (shared by every seat of a fresh round).
_NONE: CardMultiset = CardMultiset()


def check_knowledge(
    known: tuple[CardMultiset, ...], known_stock: tuple[Card, ...], restocked: CardMultiset, n: int, prefix: str
) -> None:
    """The public-knowledge fields (R-H1) have the right types and one entry per seat."""
    check_items(known, CardMultiset, f"{prefix}known_cards", "a CardMultiset")
    if len(known) != n:
        raise InvalidStateError(StateReason.INCONSISTENT, f"{prefix}known_cards", f"needs one multiset per seat ({n})")
    check_items(known_stock, Card, f"{prefix}known_stock", "a Card")
    if not isinstance(restocked, CardMultiset):
        raise _bad(f"{prefix}restocked", restocked, "a CardMultiset")


@attrs.frozen
class TableMeld:
    """A meld on the table and the seat that laid it (``None`` in a puzzle set-up)."""

    meld: Meld
    owner: int | None = None

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.meld, (Run, Group)):
            raise _bad("meld", self.meld, "a Run or a Group")
        if self.owner is not None:
            _check_int(self.owner, "owner", 0)


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
        melds_laid: new melds laid this turn, the opening's included (R-T5);
            they are the last ``melds_laid`` melds of the table.
        laid: whether anything (meld, lay-off, swap) went on the table this turn.
        opening_points: what the melds laid so far in an opening in progress
            are worth (R-O2, O4): a player who has not opened lays the opening
            meld by meld; it is checked at their first lay-off, swap or discard.
        opening_clean: whether a run without jokers is among them (R-O2).
    """

    drawn: Card | None = None
    taken: Card | None = None
    must_meld: Card | None = None
    must_go_out: bool = False
    freed_jokers: int = 0
    melds_laid: int = 0
    laid: bool = False
    opening_points: int = 0
    opening_clean: bool = False

    def __attrs_post_init__(self) -> None:
        for field in ("drawn", "taken", "must_meld"):
            value = getattr(self, field)
            if value is not None and not isinstance(value, Card):
                raise _bad(field, value, "a Card or None")
        for field in ("must_go_out", "laid", "opening_clean"):
            if not isinstance(getattr(self, field), bool):
                raise _bad(field, getattr(self, field), "a bool")
        _check_int(self.freed_jokers, "freed_jokers", 0)
        _check_int(self.melds_laid, "melds_laid", 0)
        _check_int(self.opening_points, "opening_points", 0)

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

    def __attrs_post_init__(self) -> None:
        n = len(self.hands)
        check_items(self.hands, CardMultiset, "round.hands", "a CardMultiset")
        check_items(self.stock, Card, "round.stock", "a Card")
        check_items(self.discard, Card, "round.discard", "a Card")
        check_items(self.table, TableMeld, "round.table", "a TableMeld")
        for field in ("opened", "has_laid"):
            flags = getattr(self, field)
            check_items(flags, bool, f"round.{field}", "a bool")
            if len(flags) != n:
                raise InvalidStateError(StateReason.INCONSISTENT, f"round.{field}", f"needs one flag per hand ({n})")
        _check_int(self.to_act, "round.to_act", 0, n - 1)
        if not isinstance(self.phase, Phase):
            raise _bad("round.phase", self.phase, "a Phase")
        if not isinstance(self.turn, TurnState):
            raise _bad("round.turn", self.turn, "a TurnState")
        _check_int(self.restocks, "round.restocks", 0)
        for i, tm in enumerate(self.table):
            if tm.owner is not None and tm.owner >= n:
                raise InvalidStateError(StateReason.INCONSISTENT, f"round.table[{i}].owner", "not a seat")
        check_knowledge(self.known_cards, self.known_stock, self.restocked, n, "round.")

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

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, Ruleset):
            raise _bad("rules", self.rules, "a Ruleset")
        if not isinstance(self.round, RoundState):
            raise _bad("round", self.round, "a RoundState")
        check_items(self.players, str, "players", "a str")
        n = len(self.players)
        if len(self.round.hands) != n:
            raise InvalidStateError(StateReason.INCONSISTENT, "round.hands", f"needs one hand per seat ({n})")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, str)):
            raise _bad("seed", self.seed, "an int or a str")
        _check_int(self.dealer, "dealer", 0, n - 1)
        _check_int(self.round_number, "round_number", 1)
        check_items(self.totals, int, "totals", "an int")
        if len(self.totals) != n:
            raise InvalidStateError(StateReason.INCONSISTENT, "totals", f"needs one total per seat ({n})")
        check_items(self.results, RoundResult, "results", "a RoundResult")

    @property
    def num_players(self) -> int:
        """How many seats the table has."""
        return len(self.players)

    @property
    def to_act(self) -> int:
        """The seat whose turn it is (after a round ends, the seat that acted last)."""
        return self.round.to_act

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self.round.phase

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R-S2, S4)."""
        return self.round.phase is GAME_OVER_PHASE

    @property
    def standings(self) -> Standings:
        """Totals, rounds played and, once over, the winners (R-S2, S4)."""
        return standings(self.totals, len(self.results), self.rules)

    @property
    def last_result(self) -> RoundResult | None:
        """The result of the latest finished round, if any."""
        return self.results[-1] if self.results else None


# --- the engine's trusted construction path ---------------------------------------------------
# The public constructors above check every field (hostile input). The engine
# builds its next state from a checked state and a validated action, so it
# copies with these instead: the same values, without the checks (``_trusted``).

#: ``evolve_game(state, **changes)``: a copy of a checked :class:`GameState`, unchecked.
evolve_game = evolver(GameState)
#: ``evolve_round(r, **changes)``: a copy of a checked :class:`RoundState`, unchecked.
evolve_round = evolver(RoundState)
#: ``evolve_turn(turn, **changes)``: a copy of a checked :class:`TurnState`, unchecked.
evolve_turn = evolver(TurnState)
#: The commonest moves' copies, by position (the same values as the evolvers with these fields by keyword).
#: ``with_round(state, r)``: ``evolve_game(state, round=r)``.
with_round = replacer(GameState, "round")
#: ``drawn_turn(FRESH_TURN, card)``: ``evolve_turn(FRESH_TURN, drawn=card)``, the turn after a stock draw.
drawn_turn = replacer(TurnState, "drawn")
#: A stock draw's round (``_draw_stock``): ``evolve_round`` of these six fields.
stock_drawn_round = replacer(RoundState, "hands", "stock", "discard", "restocks", "phase", "turn")
#: A draw from a stock of public order (R-D6): ``evolve_round`` of these six fields.
public_drawn_round = replacer(RoundState, "hands", "stock", "phase", "turn", "known_cards", "known_stock")
#: A discard that passes the turn (``discarded``): ``evolve_round`` of these seven fields.
discarded_round = replacer(RoundState, "hands", "discard", "has_laid", "to_act", "phase", "turn", "known_cards")
#: ``table_meld(meld=..., owner=...)``: a :class:`TableMeld` of a validated meld, unchecked.
table_meld = builder(TableMeld)
