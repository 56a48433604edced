"""The card value: suits, ranks, :class:`Card`, the joker and the card-index layout (R-C1, C2).

Private: :mod:`rummylib.cards` is the public home of these names; the other
layers import the helpers (``CARDS``, ``natural``, ``card_at``, ``as_cards``,
the index layout) from here.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable
from typing import Any, Final, cast

import attrs

from rummylib.errors import CardsReason, InvalidCardsError, shorten

from ._guards import is_instance, is_int_in

__all__ = [
    "CARDS",
    "JOKER",
    "JOKER_INDEX",
    "MAX_CARDS",
    "MAX_COPIES",
    "NUM_CARD_KINDS",
    "SUITS",
    "Card",
    "Rank",
    "Suit",
    "as_cards",
    "card_at",
    "natural",
    "too_many_cards",
]


class Suit(enum.Enum):
    """The four suits. Suits never rank against each other (R-P5)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:
        """Position 0-3 in the canonical order S, H, D, C."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit as a symbol, one of ``♠ ♥ ♦ ♣``."""
        return _SUIT_SYMBOL[self]

    def __str__(self) -> str:
        return self.value


#: The suits in card-index order (the index of a natural is ``suit position * 13 + rank - 1``).
SUITS: Final = tuple(Suit)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
_SUIT_SYMBOL: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(enum.IntEnum):
    """The thirteen ranks, ace low in the enum order (its value is 1)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The rank as written in card notation, one of ``A 2 ... 10 J Q K``."""
        return _RANK_SYMBOL[self]

    def __str__(self) -> str:
        return _RANK_SYMBOL[self]


_RANK_SYMBOL: Final = {r: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(int(r), str(int(r))) for r in Rank}
#: Number of distinct cards: 52 naturals and the joker.
NUM_CARD_KINDS: Final = 53
#: Most copies of one card :meth:`CardMultiset.from_counts` accepts (the largest deck holds 16 jokers).
MAX_COPIES: Final = 255
#: Most cards any collection of cards may hold (:data:`MAX_COPIES` of every card): a longer one is refused
#: after reading one card more, so an endless iterator costs nothing.
MAX_CARDS: Final = NUM_CARD_KINDS * MAX_COPIES
JOKER_INDEX: Final = 52


def _natural_index(suit_index: int, rank: int) -> int:
    """The one card-index layout: suit by suit (S H D C), ace to king, then the joker at 52."""
    return suit_index * 13 + rank - 1


def _card_index(card: Card) -> int:
    if card.rank is None or card.suit is None:
        return JOKER_INDEX
    return _natural_index(_SUIT_INDEX[card.suit], int(card.rank))


def _check_card_fields(instance: Card, attribute: attrs.Attribute[Any], value: object) -> None:
    expected = Rank if attribute.name == "rank" else Suit
    if value is not None and not isinstance(value, expected):
        msg = f"Card.{attribute.name} must be a {expected.__name__} or None, not {value!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, value, msg)


@attrs.frozen(order=False, hash=False)
class Card:
    """One playing card, or the joker (``rank`` and ``suit`` both ``None``).

    Cards are ordered canonically: spades, hearts, diamonds, clubs, each ace
    to king, then the joker.

    >>> Card(Rank.SEVEN, Suit.HEARTS)
    Card('7H')
    >>> str(JOKER), JOKER.is_joker
    ('JK', True)
    """

    rank: Rank | None = attrs.field(validator=_check_card_fields)
    suit: Suit | None = attrs.field(validator=_check_card_fields)
    index: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            msg = f"a card needs both a rank and a suit (or neither, for the joker), got {self.rank!r}, {self.suit!r}"
            raise InvalidCardsError(CardsReason.WRONG_TYPE, (self.rank, self.suit), msg)
        object.__setattr__(self, "index", _card_index(self))

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker."""
        return self.rank is None

    def __hash__(self) -> int:
        # The index is a function of (rank, suit), which equality compares: equal cards hash alike. An int
        # hashes in C, where the generated hash went through both enums' Python-level __hash__ (hot: melds
        # and hands are dict keys of the solver's and the engine's caches).
        return self.index

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return f"{_RANK_SYMBOL[self.rank]}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card as SVG, for notebooks (imports :mod:`rummylib.svg` lazily: cards never import upward)."""
        from rummylib.svg import to_svg

        return to_svg(self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


#: The joker. All jokers are alike (R-C2).
JOKER: Final = Card(None, None)
#: Every distinct card, indexed by :attr:`Card.index` (naturals 0-51, joker 52).
CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in SUITS for r in Rank) + (JOKER,)


def card_at(index: int) -> Card:
    """Return the card whose :attr:`Card.index` is ``index`` (0-52).

    Raises:
        InvalidCardsError: ``index`` is not an int from 0 to 52.

    >>> card_at(0), card_at(52)
    (Card('AS'), Card('JK'))
    """
    if not is_int_in(index, 0, NUM_CARD_KINDS - 1):
        msg = f"a card index is an int from 0 to {NUM_CARD_KINDS - 1}, not {shorten(index)}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, index, msg)
    return CARDS[index]


def natural(rank: int, suit: Suit) -> Card:
    """Return the natural card of ``rank`` (1-13) and ``suit``.

    Raises:
        InvalidCardsError: ``rank`` is not 1-13 or ``suit`` is not a :class:`Suit`.

    >>> natural(10, Suit.HEARTS)
    Card('10H')
    """
    if not is_int_in(rank, 1, 13) or not is_instance(suit, Suit):
        msg = f"a natural card needs a rank 1-13 and a Suit, not {rank!r}, {suit!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, (rank, suit), msg)
    return CARDS[_natural_index(_SUIT_INDEX[suit], rank)]


def too_many_cards(what: str) -> InvalidCardsError:
    """The error for a collection of more than :data:`MAX_CARDS` cards, or :data:`MAX_COPIES` of one card."""
    msg = f"{what} may hold at most {MAX_COPIES} copies of a card ({MAX_CARDS} cards in all)"
    return InvalidCardsError(CardsReason.BAD_COUNT, what, msg)


def as_cards(cards: object, what: str = "cards") -> tuple[Card, ...]:
    """Normalise any iterable of :class:`Card` to a tuple, or raise a typed error.

    Raises:
        InvalidCardsError: ``cards`` is text, a single card, not iterable, or
            holds something that is not a :class:`Card` (reason ``WRONG_TYPE``).

    >>> as_cards(iter([JOKER, natural(7, Suit.HEARTS)]))
    (Card('JK'), Card('7H'))
    >>> as_cards("7H")
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidCardsError: cards must be an iterable of Card, not text '7H' (use parse_cards)
    """
    if isinstance(cards, Card):
        msg = f"{what} must be an iterable of Card, not a single card {shorten(cards)}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg)
    if isinstance(cards, (str, bytes)):
        msg = f"{what} must be an iterable of Card, not text {shorten(cards)} (use parse_cards)"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg)
    try:
        items = tuple(itertools.islice(cast(Iterable[object], cards), MAX_CARDS + 1))
    except TypeError:
        msg = f"{what} must be an iterable of Card, not {type(cards).__name__}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg) from None
    if len(items) > MAX_CARDS:
        raise too_many_cards(what)
    result: list[Card] = []
    for item in items:
        if not isinstance(item, Card):
            msg = f"{what} must hold only Card values, found {shorten(item)}"
            raise InvalidCardsError(CardsReason.WRONG_TYPE, item, msg)
        result.append(item)
    return tuple(result)


# Documented, pickled and shown as rummylib.cards.X, their public home.
for _kind in (Suit, Rank, Card):
    _kind.__module__ = "rummylib.cards"
del _kind
