"""Cards, their notation, multisets of cards and decks (R-C1 to C3).

A card is a value: the two ``7H`` of a double deck are the same card twice
(C2), so hands, piles and decks are :class:`CardMultiset` values.

>>> from rummylib import parse_cards, CardMultiset
>>> hand = CardMultiset(parse_cards("7H 10h JK 7♥"))
>>> str(hand)
'7H 7H 10H JK'
>>> hand.count(parse_cards("7H")[0])
2
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Iterator
from typing import Any, Final, Protocol, cast

import attrs

from rummylib.errors import CardParseError, CardsReason, InvalidCardsError, ParseReason, shorten

from ._guards import is_collection_of_items, is_instance, is_int_in

__all__ = [
    "JOKER",
    "Card",
    "CardMultiset",
    "Rank",
    "Suit",
    "deck",
    "format_cards",
    "parse_card",
    "parse_cards",
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


_SUITS: Final = tuple(Suit)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(_SUITS)}
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


@attrs.frozen(order=False)
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
CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in _SUITS for r in Rank) + (JOKER,)


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


# --- notation -------------------------------------------------------------------------

_RANK_TEXT: Final = {
    "A": Rank.ACE, "1": Rank.ACE, "2": Rank.TWO, "3": Rank.THREE, "4": Rank.FOUR,
    "5": Rank.FIVE, "6": Rank.SIX, "7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE,
    "10": Rank.TEN, "T": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING,
}  # fmt: skip
_SUIT_TEXT: Final = {
    "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}  # fmt: skip
_SYMBOLS: Final = "♠♥♦♣♤♡♢♧"
_JOKER_TEXT: Final = frozenset({"JK", "JOKER", "🃏"})


def _parse_token(token: str, position: int | None) -> Card:
    text = token.replace("\ufe0f", "").strip()
    if not text:
        raise CardParseError(ParseReason.EMPTY, token, position)
    upper = text.upper()
    if upper in _JOKER_TEXT:
        return JOKER
    if text[0] in _SYMBOLS and len(text) > 1:  # "♠A", as some rule books write it
        suit_text, rank_text = text[0], upper[1:]
    else:
        suit_text, rank_text = upper[-1], upper[:-1]
    if not rank_text:
        raise CardParseError(ParseReason.BAD_TOKEN, token, position)
    suit = _SUIT_TEXT.get(suit_text)
    rank = _RANK_TEXT.get(rank_text)
    if rank is None:
        raise CardParseError(ParseReason.BAD_RANK, token, position)
    if suit is None:
        raise CardParseError(ParseReason.BAD_SUIT, token, position)
    return CARDS[_natural_index(_SUIT_INDEX[suit], int(rank))]


def parse_card(text: str) -> Card:
    """Parse one card.

    Accepts ``7H``, ``10H``, ``TH``, ``7h``, ``7♥``, ``♥7`` and ``JK`` (the joker);
    :func:`str` gives the canonical form back (``7H``, ``10H``, ``JK``). The
    rank ``1`` is read as the ace, as some score pads write it (``1H`` is
    ``AH``); no other number outside 2 to 10 is a rank.

    Raises:
        CardParseError: the text is not exactly one card.

    >>> parse_card("th"), parse_card("7♥"), parse_card("jk")
    (Card('10H'), Card('7H'), Card('JK'))
    >>> str(parse_card("1H"))
    'AH'
    """
    if not isinstance(text, str):
        raise CardParseError(ParseReason.WRONG_TYPE, text)
    tokens = text.replace(",", " ").split()
    if len(tokens) != 1:
        reason = ParseReason.EMPTY if not tokens else ParseReason.BAD_TOKEN
        raise CardParseError(reason, text)
    return _parse_token(tokens[0], None)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, keeping their order.

    Raises:
        CardParseError: a token is not a card (its position is given), or the
            text holds no card at all.

    >>> parse_cards("9S 10S JS")
    (Card('9S'), Card('10S'), Card('JS'))
    """
    if not isinstance(text, str):
        raise CardParseError(ParseReason.WRONG_TYPE, text)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise CardParseError(ParseReason.EMPTY, text)
    known = _KNOWN_TOKENS
    cards: list[Card] = []
    for i, token in enumerate(tokens):
        card = known.get(token)
        if card is None:
            card = _parse_token(token, i)
            if len(known) < _MAX_KNOWN_TOKENS:
                known[token] = card  # only valid spellings are kept: a finite set
        cards.append(card)
    return tuple(cards)


#: Spellings already parsed (``7H``, ``7h``, ``7♥`` ...), so a long text costs a lookup per token.
_KNOWN_TOKENS: dict[str, Card] = {}
_MAX_KNOWN_TOKENS: Final = 4096


def format_cards(cards: Iterable[Card]) -> str:
    """Format cards in order, separated by single spaces (the inverse of :func:`parse_cards`).

    Raises:
        InvalidCardsError: ``cards`` is not an iterable of :class:`Card`.

    >>> format_cards(parse_cards("th 7♥ jk"))
    '10H 7H JK'
    """
    return " ".join(str(c) for c in as_cards(cards))


def as_cards(cards: object, what: str = "cards") -> tuple[Card, ...]:
    """Normalise any iterable of :class:`Card` to a tuple, or raise a typed error.

    Raises:
        InvalidCardsError: ``cards`` is text, a single card, not iterable, or
            holds something that is not a :class:`Card` (reason ``WRONG_TYPE``).

    >>> as_cards(CardMultiset(parse_cards("JK 7H")))
    (Card('7H'), Card('JK'))
    >>> as_cards("7H")
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidCardsError: cards must be an iterable of Card, not text '7H' (use parse_cards)
    """
    if isinstance(cards, CardMultiset):
        return tuple(cards)
    if isinstance(cards, Card):
        msg = f"{what} must be an iterable of Card, not a single card {shorten(cards)}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg)
    if isinstance(cards, (str, bytes)):
        msg = f"{what} must be an iterable of Card, not text {shorten(cards)} (use parse_cards)"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg)
    try:
        items = tuple(cast(Iterable[object], cards))
    except TypeError:
        msg = f"{what} must be an iterable of Card, not {type(cards).__name__}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, cards, msg) from None
    result: list[Card] = []
    for item in items:
        if not isinstance(item, Card):
            msg = f"{what} must hold only Card values, found {shorten(item)}"
            raise InvalidCardsError(CardsReason.WRONG_TYPE, item, msg)
        result.append(item)
    return tuple(result)


# --- multisets ------------------------------------------------------------------------


class CardMultiset:
    """An immutable, hashable multiset of cards (R-C2).

    Iteration yields every copy, in the canonical card order. ``+`` adds,
    ``-`` removes (all of the right-hand side must be present), ``<=`` is the
    sub-multiset test.

    >>> a = CardMultiset(parse_cards("7H 7H JK"))
    >>> b = CardMultiset(parse_cards("7H"))
    >>> b <= a, str(a - b), len(a + b)
    (True, '7H JK', 4)
    """

    __slots__ = ("_counts", "_hash", "_len")
    _counts: tuple[int, ...]
    _len: int
    _hash: int | None

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        counts = [0] * NUM_CARD_KINDS
        for card in as_cards(cards):
            counts[card.index] += 1
        self._set(tuple(counts))

    def _set(self, counts: tuple[int, ...], size: int | None = None) -> None:
        object.__setattr__(self, "_counts", counts)
        object.__setattr__(self, "_len", sum(counts) if size is None else size)
        object.__setattr__(self, "_hash", None)  # computed when first asked (most multisets are never hashed)

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> CardMultiset:
        """Build from 53 counts indexed by :attr:`Card.index` (joker last).

        Raises:
            InvalidCardsError: not 53 integers from 0 to :data:`MAX_COPIES`.

        >>> CardMultiset.from_counts((2,) + (0,) * 51 + (1,))
        CardMultiset('AS AS JK')
        """
        if not is_collection_of_items(counts):
            msg = f"counts must be {NUM_CARD_KINDS} integers 0..{MAX_COPIES}, not {shorten(counts)}"
            raise InvalidCardsError(CardsReason.BAD_COUNT, counts, msg)
        values = tuple(itertools.islice(counts, NUM_CARD_KINDS + 1))
        if len(values) != NUM_CARD_KINDS or any(not is_int_in(v, 0, MAX_COPIES) for v in values):
            msg = f"counts must be {NUM_CARD_KINDS} integers 0..{MAX_COPIES}, got {shorten(values)}"
            raise InvalidCardsError(CardsReason.BAD_COUNT, values, msg)
        return cls._trusted(values)

    @classmethod
    def _trusted(cls, counts: tuple[int, ...], size: int | None = None) -> CardMultiset:
        """Build from counts (totalling ``size``, if given) the caller has computed correctly (no checks; internal)."""
        new = cls.__new__(cls)
        new._set(counts, size)
        return new

    @property
    def counts(self) -> tuple[int, ...]:
        """The 53 counts, indexed by :attr:`Card.index`."""
        return self._counts

    @property
    def jokers(self) -> int:
        """How many jokers the multiset holds."""
        return self._counts[JOKER_INDEX]

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the multiset holds.

        Raises:
            InvalidCardsError: ``card`` is not a :class:`Card` (reason ``WRONG_TYPE``).

        >>> CardMultiset(parse_cards("7H 7H JK")).count(parse_card("7H"))
        2
        """
        if not isinstance(card, Card):
            msg = f"count() takes a Card, not {card!r}"
            raise InvalidCardsError(CardsReason.WRONG_TYPE, card, msg)
        return self._counts[card.index]

    def distinct(self) -> tuple[Card, ...]:
        """The distinct cards, in canonical order.

        >>> CardMultiset(parse_cards("JK 7H 7H AS")).distinct()
        (Card('AS'), Card('7H'), Card('JK'))
        """
        return tuple(CARDS[i] for i, n in enumerate(self._counts) if n)

    def __setattr__(self, name: str, value: object) -> None:
        msg = "CardMultiset is immutable"
        raise AttributeError(msg)

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def __iter__(self) -> Iterator[Card]:
        for i, n in enumerate(self._counts):
            for _ in range(n):
                yield CARDS[i]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self._counts[card.index] > 0

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self._counts))
        return cast(int, self._hash)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return self._counts == other._counts

    def __le__(self, other: object) -> bool:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return all(a <= b for a, b in zip(self._counts, other._counts))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return self <= other and self._counts != other._counts

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return other <= self

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return other < self

    def __add__(self, other: object) -> CardMultiset:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        return CardMultiset._trusted(tuple(a + b for a, b in zip(self._counts, other._counts)))

    def __sub__(self, other: object) -> CardMultiset:
        if not isinstance(other, CardMultiset):
            return NotImplemented
        counts = tuple(a - b for a, b in zip(self._counts, other._counts))
        if any(n < 0 for n in counts):
            missing = CardMultiset.from_counts(max(0, -n) for n in counts)
            msg = f"cannot remove {missing} from {self}: not enough copies"
            raise InvalidCardsError(CardsReason.NOT_ENOUGH, missing, msg)
        return CardMultiset._trusted(counts)

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"CardMultiset({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The cards as SVG, for notebooks (imports :mod:`rummylib.svg` lazily: cards never import upward)."""
        from rummylib.svg import to_svg

        return to_svg(self)

    def __reduce__(self) -> tuple[object, ...]:
        return (CardMultiset.from_counts, (self._counts,))


def as_multiset(cards: object, what: str = "cards") -> CardMultiset:
    """Normalise any iterable of cards to a :class:`CardMultiset` (a multiset is returned as is).

    >>> as_multiset(parse_cards("7H JK 7H"))
    CardMultiset('7H 7H JK')
    """
    if isinstance(cards, CardMultiset):
        return cards
    counts = [0] * NUM_CARD_KINDS
    if isinstance(cards, (list, tuple)):  # the common case: checked and counted in one pass
        for item in cards:
            if not isinstance(item, Card):
                as_cards(cards, what)  # raises, naming the item
            counts[item.index] += 1
    else:
        for card in as_cards(cards, what):
            counts[card.index] += 1
    return CardMultiset._trusted(tuple(counts))


class DeckSpec(Protocol):
    """What a deck is made from: a :class:`~rummylib.Ruleset` satisfies it."""

    @property
    def name(self) -> str: ...
    @property
    def decks(self) -> int: ...
    @property
    def jokers(self) -> int: ...


def deck(rules: DeckSpec) -> CardMultiset:
    """The full deck of a ruleset (R-C1).

    Raises:
        InvalidCardsError: ``rules`` has no integer ``decks`` and ``jokers``
            (reason ``WRONG_TYPE``).

    >>> from rummylib import REMIK, STRAIGHT
    >>> len(deck(REMIK)), len(deck(STRAIGHT))
    (108, 52)
    """
    if not isinstance(getattr(rules, "decks", None), int) or not isinstance(getattr(rules, "jokers", None), int):
        msg = f"deck() takes a Ruleset, not {rules!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, rules, msg)
    return CardMultiset.from_counts((rules.decks,) * 52 + (rules.jokers,))


def check_in_deck(cards: CardMultiset, rules: DeckSpec, what: str = "cards") -> None:
    """Raise :class:`InvalidCardsError` unless ``cards`` fits inside the ruleset's deck.

    >>> from rummylib import STRAIGHT
    >>> check_in_deck(CardMultiset(parse_cards("7H 7H")), STRAIGHT)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidCardsError: cards 7H 7H hold more copies of 7H than the straight deck has
    """
    full = deck(rules)
    cards = as_multiset(cards, what)
    excess = [CARDS[i] for i, n in enumerate(cards.counts) if n > full.counts[i]]
    if excess:
        msg = f"{what} {cards} hold more copies of {format_cards(excess)} than the {rules.name} deck has"
        raise InvalidCardsError(CardsReason.NOT_IN_DECK, tuple(excess), msg)
