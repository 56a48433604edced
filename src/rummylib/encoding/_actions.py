"""Fixed integer ids for the engine's single-step actions: :class:`ActionCodec`."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Final

from rummylib._card import CARDS
from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, NextRound, Open, SwapJoker, TakeDiscard
from rummylib.cards import JOKER, Card, Suit
from rummylib.engine import GameState
from rummylib.melds import End, Meld, card_at_position
from rummylib.rules import Ruleset

from .._guards import is_instance, is_int, is_int_in
from ._catalogue import MeldCatalogue
from ._errors import EncodingError, EncodingReason, shorten
from ._listing import IdListing

__all__ = ["ActionCodec"]

_NATURALS: Final = CARDS[:52]
_DRAW, _TAKE, _NEXT = 0, 1, 2
_FIXED: Final = 3
R = EncodingReason


def _check_rules(rules: object) -> Ruleset:
    if not isinstance(rules, Ruleset):
        msg = f"ActionCodec needs a Ruleset, not {shorten(rules)}"
        raise EncodingError(R.WRONG_TYPE, rules, msg)
    return rules


def check_players(rules: Ruleset, players: object) -> int:
    """``players`` as a seat count the rules allow (shared by the encoders)."""
    if not is_int_in(players, rules.min_players, rules.max_players):
        msg = (
            f"players must be an int {rules.min_players}..{rules.max_players} for {rules.name}, not {shorten(players)}"
        )
        raise EncodingError(R.WRONG_TYPE if not is_int(players) else R.WRONG_GAME, players, msg)
    assert isinstance(players, int)
    return players


def _as_index(value: object) -> int | None:
    """``value`` as an int if it is an integer (a numpy integer too), never a bool."""
    if isinstance(value, bool):
        return None  # True is not id 1
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def table_slots(rules: Ruleset) -> int:
    """The most melds a table can ever hold: every meld has 3 cards or more and no card is made (R-C3)."""
    return (52 * rules.decks + rules.jokers) // 3


def _lay_off_shapes(rules: Ruleset) -> tuple[tuple[Card, End | None], ...]:
    """Every (card, end) a lay-off onto one table meld could ever name under ``rules``."""
    top = 14 if rules.ace_high else 13
    shapes: list[tuple[Card, End | None]] = []
    for suit in Suit:  # a run of 3+ starts at most at top-2, so its low end is at most top-3
        shapes += [(card_at_position(p, suit), End.LOW) for p in range(1, top - 2)]
        shapes += [(card_at_position(p, suit), End.HIGH) for p in range(4, top + 1)]
    if rules.jokers:
        shapes += [(JOKER, End.LOW), (JOKER, End.HIGH)]
    shapes += [(card, None) for card in _NATURALS]  # a group of 3 takes its missing suit
    if rules.jokers and rules.group4_max_jokers:
        shapes.append((JOKER, None))
    return tuple(shapes)


class ActionCodec:
    """A fixed bijection between the single-step actions of a ruleset and ``range(size)``.

    The layout, in id order (sizes for the presets are in the docs, "Action ids"):

    ========================  =======================================================
    ids                       action
    ========================  =======================================================
    0, 1, 2                   ``DrawStock()``, ``TakeDiscard()``, ``NextRound()``
    ``discard_base + k``      ``Discard(card)``, ``k`` = :attr:`~rummylib.Card.index`
                              (52 naturals, then the joker if the deck has jokers)
    ``meld_base + m``         ``LayMeld(meld)``: ``m`` indexes every meld the rules
                              allow, joker declarations included (runs by suit,
                              length, start and joker slots; then groups by rank,
                              suits and joker slots)
    ``lay_off_base + ...``    ``LayOff(target, card, end)``: ``target * per_slot``
                              plus the (card, end) shape
    ``swap_base + ...``       ``SwapJoker(target, card)``: ``target * 52 + card.index``
                              (only when the rules have joker swaps)
    ========================  =======================================================

    ``slots`` (the table-slot bound) is ``(cards in the deck) // 3``: no table can
    hold more melds (R-C3), so every action of every valid state has an id.
    :class:`~rummylib.Open` is a composite of ``LayMeld`` steps and has no id.

    Args:
        rules: the ruleset.
        players: the number of seats (checked against the rules).

    Raises:
        EncodingError: ``rules`` is not a ruleset or ``players`` not a seat count it allows.

    >>> import rummylib as rl
    >>> from rummylib.encoding import ActionCodec
    >>> codec = ActionCodec(rl.STRAIGHT, 2)
    >>> codec.size
    2628
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> codec.legal_ids(s)
    [0, 1]
    >>> codec.decode(codec.encode(rl.Discard(rl.parse_card("7H"))))
    Discard(card=Card('7H'))
    """

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules: Final = _check_rules(rules)
        self.players: Final = check_players(self.rules, players)
        self._melds = MeldCatalogue(self.rules)
        self._discard_kinds = 53 if self.rules.jokers else 52
        self._shapes = _lay_off_shapes(self.rules)
        self._shape_index = {shape: i for i, shape in enumerate(self._shapes)}
        self._swaps = self.rules.joker_swap and self.rules.jokers > 0
        #: The table-slot bound; lay-offs and swaps name targets ``0 .. slots - 1``.
        self.slots: Final = table_slots(self.rules)
        #: Lay-off ids per table slot.
        self.per_slot: Final = len(self._shapes)
        self.discard_base: Final = _FIXED
        self.meld_base: Final = self.discard_base + self._discard_kinds
        self.lay_off_base: Final = self.meld_base + self._melds.size
        self.swap_base: Final = self.lay_off_base + self.slots * self.per_slot
        #: How many ids there are; every id in ``range(size)`` decodes to an action.
        self.size: Final = self.swap_base + (self.slots * 52 if self._swaps else 0)
        #: The trusted back of the environments' listing and mask (states they have checked).
        self._listing = IdListing(
            self.rules,
            self.size,
            (self.discard_base, self.meld_base, self.lay_off_base, self.per_slot, self.slots),
            self._shape_index,
            *self._melds._tables(),
            self.encode,
        )

    def __repr__(self) -> str:
        return f"ActionCodec({self.rules.name}, players={self.players}, size={self.size})"

    @property
    def meld_count(self) -> int:
        """How many melds the rules allow (the ``LayMeld`` ids)."""
        return self._melds.size

    # --- encode -------------------------------------------------------------------------

    def encode(self, action: Action) -> int:
        """The id of ``action``.

        Raises:
            EncodingError: ``action`` is not a single-step action (``WRONG_TYPE``,
                ``COMPOSITE`` for an ``Open``), or names a meld, card, end or
                table slot the rules never allow (``NOT_IN_CATALOGUE``).
        """
        if isinstance(action, DrawStock):
            return _DRAW
        if isinstance(action, TakeDiscard):
            return _TAKE
        if isinstance(action, NextRound):
            return _NEXT
        if isinstance(action, Discard):
            return self._encode_discard(action)
        if isinstance(action, LayMeld):
            return self.meld_base + self._meld_id(action.meld, action)
        if isinstance(action, LayOff):
            return self._encode_lay_off(action)
        if isinstance(action, SwapJoker):
            return self._encode_swap(action)
        if isinstance(action, Open):
            msg = "Open is a composite action with no id; encode each LayMeld of its melds"
            raise EncodingError(R.COMPOSITE, action, msg)
        raise EncodingError(R.WRONG_TYPE, action, f"not an action: {shorten(action)}")

    def _outside(self, action: object, what: str) -> EncodingError:
        msg = f"{shorten(action)} has no id under the {self.rules.name} rules: {what}"
        return EncodingError(R.NOT_IN_CATALOGUE, action, msg)

    def _card(self, card: object, action: object) -> Card:
        if not isinstance(card, Card):
            raise self._outside(action, f"{shorten(card)} is not a card")
        if card.is_joker and not self.rules.jokers:
            raise self._outside(action, "the deck has no jokers")
        return card

    def _encode_discard(self, action: Discard) -> int:
        return self.discard_base + self._card(action.card, action).index

    def _meld_id(self, meld: object, action: object) -> int:
        index = self._melds.index(meld) if isinstance(meld, Meld) else None
        if index is None:
            raise self._outside(action, "the rules do not allow that meld")
        return index

    def _slot(self, target: object, action: object) -> int:
        if not is_int_in(target, 0, self.slots - 1):
            raise self._outside(action, f"the target must be a table slot 0..{self.slots - 1}")
        assert isinstance(target, int)
        return target

    def _encode_lay_off(self, action: LayOff) -> int:
        slot = self._slot(action.target, action)
        card = self._card(action.card, action)
        end = action.end
        shape = self._shape_index.get((card, end)) if end is None or is_instance(end, End) else None
        if shape is None:
            raise self._outside(action, f"no meld takes {card} at end {shorten(end)}")
        return self.lay_off_base + slot * self.per_slot + shape

    def _encode_swap(self, action: SwapJoker) -> int:
        if not self._swaps:
            raise self._outside(action, "the rules have no joker swap")
        slot = self._slot(action.target, action)
        card = self._card(action.card, action)
        if card.is_joker:
            raise self._outside(action, "a swap puts a real card in a joker's place")
        return self.swap_base + slot * 52 + card.index

    # --- decode -------------------------------------------------------------------------

    def decode(self, action_id: int) -> Action:
        """The action with id ``action_id``.

        Raises:
            EncodingError: ``action_id`` is not an int in ``range(size)`` (``BAD_ID``).
        """
        i = _as_index(action_id)
        if i is None or not 0 <= i < self.size:
            msg = f"an action id is an int 0..{self.size - 1}, not {shorten(action_id)}"
            raise EncodingError(R.BAD_ID, action_id, msg)
        if i < self.discard_base:
            return (DrawStock(), TakeDiscard(), NextRound())[i]
        if i < self.meld_base:
            return Discard(CARDS[i - self.discard_base])
        if i < self.lay_off_base:
            return LayMeld(self._melds.meld(i - self.meld_base))
        if i < self.swap_base:
            slot, shape = divmod(i - self.lay_off_base, self.per_slot)
            card, end = self._shapes[shape]
            return LayOff(slot, card, end)
        slot, k = divmod(i - self.swap_base, 52)
        return SwapJoker(slot, CARDS[k])

    # --- legal ids ----------------------------------------------------------------------

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of every legal single step of ``state``, in ``legal_actions`` order.

        Raises:
            EncodingError: ``state`` is not a game state of this codec's rules and table size.
        """
        return list(self._legal_by_id(state))

    def _legal_by_id(self, state: GameState) -> dict[int, Action]:
        """``{id: action}`` for every legal single step of ``state``, in ``legal_actions`` order.

        Each action is the one :meth:`decode` of its id gives (the codec is a
        bijection on legal actions), so an environment plays it without decoding.
        """
        self._check_state(state)
        return self._listed_by_id(state)

    def _listed_by_id(self, state: GameState) -> dict[int, Action]:
        """:meth:`_legal_by_id` of a state already known to be of this codec's rules and table size."""
        return self._listing.listed_by_id(state)

    def legal_mask(self, state: GameState) -> bytearray:
        """A ``size``-long mask: 1 at each legal id of ``state``, else 0.

        ``numpy.frombuffer(mask, dtype=numpy.int8)`` views it without a copy.

        Raises:
            EncodingError: as :meth:`legal_ids`.
        """
        return self._mask(self.legal_ids(state))

    def _id_listing(self) -> IdListing:
        """The codec's trusted back (package-private: for :mod:`rummylib.rl`'s environments).

        :meth:`_listed_by_id` and :meth:`_mask` are its ``listed_by_id`` and
        ``mask``; an environment binds those once instead of calling through the
        codec on every step. Only for states the caller has checked (its own).
        """
        return self._listing

    def _mask(self, ids: Iterable[int]) -> bytearray:
        """A ``size``-long mask with a 1 at each of ``ids`` (the environments view it as int8 without a copy)."""
        return self._listing.mask(ids)

    def _check_state(self, state: object) -> None:
        if not isinstance(state, GameState):
            raise EncodingError(R.WRONG_TYPE, state, f"expected a GameState, not {type(state).__name__}")
        if (state.rules is not self.rules and state.rules != self.rules) or len(state.players) != self.players:
            msg = f"the codec is for {self.rules.name} with {self.players} players, the state is not"
            raise EncodingError(R.WRONG_GAME, state, msg)
