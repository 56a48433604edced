"""A player's view as a fixed-length vector of integers: :class:`ObservationEncoder`."""

from __future__ import annotations

from typing import Final, NamedTuple

from rummylib._card import NUM_CARD_KINDS
from rummylib.cards import Card
from rummylib.engine import Phase, PlayerView, TableMeld, TurnState
from rummylib.melds import Meld
from rummylib.rules import RestockRule, Ruleset, Scoring

from ._actions import _check_rules, check_players, table_slots
from ._errors import EncodingError, EncodingReason, shorten
from ._numbers import MeldNumbers, pile_change, pile_counts, table_numbers, turn_numbers

__all__ = ["Field", "ObservationEncoder"]

_PHASES: Final = (Phase.DRAW, Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER)
#: The one-hot ``phase`` numbers of each phase.
_PHASE_CODES: Final = {p: tuple(int(p is q) for q in _PHASES) for p in Phase}
#: Counters without a natural bound (restocks, rounds) are clipped here.
COUNTER_CAP: Final = 1000
#: Tables (and piles) whose numbers are kept before the cache starts afresh.
_SECTIONS_CACHED: Final = 64


class Field(NamedTuple):
    """One named field of the observation: ``vector[offset : offset + length]``, each value in ``0..high``."""

    name: str
    offset: int
    length: int
    high: int


def _round_score_bound(rules: Ruleset, players: int) -> int:
    # The most one round can add to a total: a full hand of the dearest card, doubled (R-S1, S3, E2, E4).
    card = max(rules.joker_penalty if rules.jokers else 0, rules.ace_penalty, 10)
    hand = rules.hand_size(players) + 1
    hands = players - 1 if rules.scoring is Scoring.WINNER_COLLECTS else 1
    return rules.rummy_multiplier * hands * hand * card


def _card_code(card: Card | None) -> int:
    return 0 if card is None else card.index + 1


class ObservationEncoder:
    """Encode a :class:`~rummylib.PlayerView` as ``size`` integers (R-H1: the view only).

    Seats appear relative to the viewer: position 0 is the viewer, position
    ``k`` the seat ``k`` places to its left (R-P1). The fields, in order
    (:attr:`fields` gives each one's offset, length and bound):

    - ``phase``: one-hot of draw, play, round over, game over; then whether it is the viewer's turn.
    - ``hand``: the viewer's hand, 53 counts by :attr:`~rummylib.Card.index` (joker last).
    - ``table``: ``slots`` table melds in laying order, 7 numbers each: kind
      (0 none, 1 run, 2 group), owner (0 unknown, else 1 + relative seat),
      suit (1-4, S H D C) of a run or rank (1-13) of a group, a run's start
      position (1-14), length, joker slots (bit ``i``: slot ``i`` of a run, or
      suit ``i`` of a group, is a joker), a group's suits (bit per suit).
    - ``table_cards``: 53 counts of the cards on the table; ``table_jokers_for``:
      52 counts of the cards the table's jokers stand for (the swaps, R-J4).
    - ``pile``: 53 counts of the discard pile; ``pile_top``: one-hot of its top
      card (53); ``pile_size``; ``stock_size``; ``restocks`` (clipped).
    - ``seats``: for each relative seat: hand size, opened (0/1), running total (clipped).
    - ``turn``: the viewer's turn so far (zeros on other turns): drawn card,
      card taken from the pile (R-T7), card still to meld (R-D2), each as
      1 + index or 0; must go out (R-D2); freed jokers (R-J4); melds laid; laid anything.
    - ``opening``: the opening in progress of the seat to act (R-O4, public):
      points of the melds laid so far, whether one is a clean run, points needed.
    - ``round``: round number (clipped), the dealer's relative seat.
    - ``known``: for each other relative seat (1 to ``players - 1``), 53
      counts of the cards it is publicly known to hold
      (:attr:`~rummylib.PlayerView.known_cards`: a taken discard not yet
      laid, a freed joker, a card drawn from a turned-over stock; R-H1).
    - ``restocked``: 53 counts of the cards the stock was last refilled with
      (:attr:`~rummylib.PlayerView.restocked`, R-D4, D6: everyone saw them
      leave the pile); all zero before the first refill of the round.
    - ``known_stock``: only where the rules turn the pile over (R-D6; length
      0 under a reshuffle, R-D4): the stock's cards of public order, top
      first (:attr:`~rummylib.PlayerView.known_stock`), each as 1 + index,
      then zeros; one position per card of the deck, so it never clips.

    Equal views give equal vectors, and the vector is built from the view
    alone, so no hidden card can leak into it.

    Args:
        rules: the ruleset.
        players: the number of seats.

    Raises:
        EncodingError: ``rules`` is not a ruleset, or ``players`` not a seat count it allows.

    >>> import rummylib as rl
    >>> from rummylib.encoding import ObservationEncoder
    >>> enc = ObservationEncoder(rl.STRAIGHT, 2)
    >>> enc.size
    567
    >>> v = enc.encode(rl.view(rl.new_game(rl.STRAIGHT, 2, seed=1), 1))
    >>> sum(v[enc.field("hand").offset :][:53])
    10
    """

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules: Final = _check_rules(rules)
        self.players: Final = check_players(self.rules, players)
        #: The table-slot bound (the same as :attr:`ActionCodec.slots`).
        self.slots: Final = table_slots(self.rules)
        deck = 52 * self.rules.decks + self.rules.jokers
        d, j = self.rules.decks, self.rules.jokers
        limit = self.rules.score_limit or 0
        rounds = self.rules.max_rounds or 0
        self._total_cap = max(limit, 1) + _round_score_bound(self.rules, self.players) * max(rounds, 1)
        counts = 52 * [d] + [j]
        n = self.players
        layout: list[tuple[str, list[int]]] = [
            ("phase", [1] * 5),
            ("hand", counts),
            ("table", [2, n, 13, 14, 13, (1 << 13) - 1, 15] * self.slots),
            ("table_cards", counts),
            ("table_jokers_for", [j] * 52),
            ("pile", counts),
            ("pile_top", [1] * NUM_CARD_KINDS),
            ("pile_size", [deck]),
            ("stock_size", [deck]),
            ("restocks", [COUNTER_CAP]),
            ("seats", [deck, 1, self._total_cap] * n),
            ("turn", [NUM_CARD_KINDS] * 3 + [1, j, self.slots, 1]),
            ("opening", [11 * deck, 1, self.rules.opening_points]),
            ("round", [COUNTER_CAP, n - 1]),
            ("known", counts * (n - 1)),
            ("restocked", counts),
            ("known_stock", [NUM_CARD_KINDS] * (deck if self.rules.restock_rule is RestockRule.TURN_OVER else 0)),
        ]
        fields: list[Field] = []
        high: list[int] = []
        for name, bounds in layout:
            fields.append(Field(name, len(high), len(bounds), max(bounds, default=0)))
            high += bounds
        #: The fields in order.
        self.fields: Final = tuple(fields)
        #: The largest value each position can hold (the smallest is always 0).
        self.high: Final = tuple(high)
        #: The length of every vector :meth:`encode` returns.
        self.size: Final = len(high)
        self._memo: dict[int, tuple[Meld, MeldNumbers]] = {}
        self._tables: dict[tuple[int, int], tuple[tuple[TableMeld, ...], tuple[int, ...]]] = {}
        self._piles: dict[int, tuple[tuple[Card, ...], tuple[int, ...]]] = {}
        #: The last pile worked out and its numbers: the next pile is most often it with one card more or less.
        self._last_pile: tuple[tuple[Card, ...], tuple[int, ...]] = ((), self._pile_counts(()))
        self._opening_cap = self.high[self.field("opening").offset]

    def __repr__(self) -> str:
        return f"ObservationEncoder({self.rules.name}, players={self.players}, size={self.size})"

    def field(self, name: str) -> Field:
        """The field called ``name``.

        Raises:
            EncodingError: no field has that name.
        """
        for f in self.fields:
            if f.name == name:
                return f
        raise EncodingError(EncodingReason.WRONG_TYPE, name, f"no observation field is called {shorten(name)}")

    def encode(self, view: PlayerView) -> list[int]:
        """``view`` as :attr:`size` integers, each in ``0 .. high[i]`` (see the class docs).

        The bounds hold for every view a game can show (:func:`~rummylib.view`,
        or a view document read by :func:`~rummylib.from_dict`, which checks
        it). ``PlayerView``'s constructor checks only types and lengths, so a
        view built by hand with more cards than the deck can exceed them.

        Raises:
            EncodingError: ``view`` is not a view of this encoder's rules and table size.
        """
        self._check(view)
        out: list[int] = []
        self._phase(view, out)
        out += view.hand.counts
        self._table(view, out)
        self._pile(view, out)
        self._seats(view, out)
        self._turn(view, out)
        self._opening(view, out)
        out += [min(view.round_number, COUNTER_CAP), (view.dealer - view.seat) % self.players]
        for k in range(1, self.players):  # R-H1: what each other seat is publicly known to hold
            out += view.known_cards[(view.seat + k) % self.players].counts
        self._stock(view, out)
        return out

    def _check(self, view: object) -> None:
        if not isinstance(view, PlayerView):
            raise EncodingError(EncodingReason.WRONG_TYPE, view, f"expected a PlayerView, not {type(view).__name__}")
        if (view.rules is not self.rules and view.rules != self.rules) or len(view.players) != self.players:
            msg = f"the encoder is for {self.rules.name} with {self.players} players, the view is not"
            raise EncodingError(EncodingReason.WRONG_GAME, view, msg)

    def _phase(self, view: PlayerView, out: list[int]) -> None:
        out += _PHASE_CODES[view.phase]
        out.append(int(view.is_my_turn))

    def _table(self, view: PlayerView, out: list[int]) -> None:
        out += self._table_numbers(view.table, view.seat)

    def _table_numbers(self, table: tuple[TableMeld, ...], seat: int) -> tuple[int, ...]:
        """The ``table``, ``table_cards`` and ``table_jokers_for`` fields of ``table`` seen from ``seat``.

        The table changes only when something is laid, and states share it
        until then: its numbers are worked out once per table and seat (the
        cache holds the table itself, so its id cannot be reused meanwhile).
        """
        key = (id(table), seat)
        hit = self._tables.get(key)
        if hit is not None and hit[0] is table:
            return hit[1]
        numbers = table_numbers(table, seat, self.players, self.slots, self._memo)
        if len(self._tables) >= _SECTIONS_CACHED:
            self._tables.clear()
        self._tables[key] = (table, numbers)
        return numbers

    def _pile(self, view: PlayerView, out: list[int]) -> None:
        out += self._pile_numbers(view.discard)
        out += [len(view.discard), view.stock_size, min(view.restocks, COUNTER_CAP)]

    def _pile_numbers(self, discard: tuple[Card, ...]) -> tuple[int, ...]:
        """The ``pile`` and ``pile_top`` fields: once per pile (it changes only on a take or a discard).

        A pile one discard longer or one take shorter than the last pile worked
        out is counted from that pile's numbers (one card changed, R-D1, D2)
        instead of from every card.
        """
        hit = self._piles.get(id(discard))
        if hit is not None and hit[0] is discard:
            return hit[1]
        last, known = self._last_pile
        change = pile_change(last, discard)
        if change is None:
            numbers = self._pile_counts(discard)
        else:
            pile = list(known[:NUM_CARD_KINDS])
            pile[change[0]] += change[1]
            top = [0] * NUM_CARD_KINDS
            if discard:
                top[discard[-1].index] = 1
            numbers = (*pile, *top)
        if len(self._piles) >= _SECTIONS_CACHED:
            self._piles.clear()
        self._piles[id(discard)] = self._last_pile = (discard, numbers)
        return numbers

    @staticmethod
    def _pile_counts(discard: tuple[Card, ...]) -> tuple[int, ...]:
        """The ``pile`` and ``pile_top`` fields of ``discard``, counted from scratch."""
        return pile_counts(discard)

    def _seats(self, view: PlayerView, out: list[int]) -> None:
        n = self.players
        for k in range(n):
            s = (view.seat + k) % n
            out += [view.hand_sizes[s], int(view.opened[s]), min(max(view.totals[s], 0), self._total_cap)]

    def _turn(self, view: PlayerView, out: list[int]) -> None:
        out += self._turn_numbers(view.turn)

    def _turn_numbers(self, t: TurnState | None) -> tuple[int, ...]:
        """The ``turn`` field of the viewer's turn ``t`` (``None``: not the viewer's turn, all zeros)."""
        return turn_numbers(t, self.slots)

    def _stock(self, view: PlayerView, out: list[int]) -> None:
        # R-D4, D6: the last refill's cards are public, and after a turnover so is the stock's order.
        out += view.restocked.counts
        length = self.fields[-1].length
        if length:
            known = [c.index + 1 for c in view.known_stock[:length]]  # a reachable view never has more
            out += known
            out += [0] * (length - len(known))

    def _opening(self, view: PlayerView, out: list[int]) -> None:
        # The opening in progress of the seat to act is public: its melds are on the table (R-O4).
        out += [min(view.opening_points, self._opening_cap), int(view.opening_clean), self.rules.opening_points]
