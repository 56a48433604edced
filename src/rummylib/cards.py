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

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, Protocol, cast

# The card value and its index helpers live in rummylib._card; the public names are
# re-exported here (in __all__), the private helpers are imported from there.
from rummylib._card import (
    _SUIT_INDEX,
    CARDS,
    JOKER,
    JOKER_INDEX,
    MAX_CARDS,
    MAX_COPIES,
    NUM_CARD_KINDS,
    Card,
    Rank,
    Suit,
    _natural_index,
    as_cards,
    too_many_cards,
)
from rummylib._card import SUITS as SUITS  # noqa: PLC0414
from rummylib.errors import CardParseError, CardsReason, InvalidCardsError, ParseReason, shorten

from ._guards import is_collection_of_items, is_int_in

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
        counted = as_multiset(cards)
        self._set(counted._counts, counted._len)

    def _set(self, counts: tuple[int, ...], size: int | None = None) -> None:
        # The slots' own setters (C), past the refusing __setattr__: the solver builds a multiset per answer.
        _SET_COUNTS(self, counts)
        _SET_LEN(self, sum(counts) if size is None else size)
        _SET_HASH(self, None)  # computed when first asked (most multisets are never hashed)

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
        new: OpenMultiset = _NEW(OpenMultiset)  # plain assignments, then the class (see OpenMultiset)
        new._counts = counts
        new._len = sum(counts) if size is None else size
        new._hash = None
        new.__class__ = cls  # type: ignore[assignment]
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
        counts = tuple(a + b for a, b in zip(self._counts, other._counts))
        size = self._len + other._len
        _check_copies(counts, size, "the sum")
        return CardMultiset._trusted(counts, size)

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


_NEW = object.__new__
_SET_COUNTS = CardMultiset.__dict__["_counts"].__set__
_SET_LEN = CardMultiset.__dict__["_len"].__set__
_SET_HASH = CardMultiset.__dict__["_hash"].__set__


class OpenMultiset(CardMultiset):
    """A :class:`CardMultiset` under construction: its slots set by plain assignment (internal).

    The hottest solver answers build their result with ``o = OpenMultiset()``,
    ``o._counts = ...``, ``o._len = ...``, ``o._hash = None``, then
    ``o.__class__ = CardMultiset``: a subclass that adds no slot has the same
    layout, so CPython lets the instance change class, and it is from then on
    exactly a ``CardMultiset`` (the frozen ``__setattr__`` again). A plain
    assignment is one specialised instruction, where each call of a slot's
    ``__set__`` from Python is a generic call (several times the cost).
    """

    __slots__ = ()
    __init__ = object.__init__  # no cards to read: the builder sets every slot
    __setattr__ = object.__setattr__  # type: ignore[assignment]  # with object's __delattr__: CPython's generic setter


def as_multiset(cards: object, what: str = "cards") -> CardMultiset:
    """Normalise any iterable of cards to a :class:`CardMultiset` (a multiset is returned as is).

    >>> as_multiset(parse_cards("7H JK 7H"))
    CardMultiset('7H 7H JK')
    """
    if isinstance(cards, CardMultiset):
        return cards
    counts = [0] * NUM_CARD_KINDS
    if isinstance(cards, (list, tuple)):  # the common case: checked and counted in one pass
        size = len(cards)
        if size > MAX_CARDS:
            raise too_many_cards(what)
        for item in cards:
            if not isinstance(item, Card):
                as_cards(cards, what)  # raises, naming the item
            counts[item.index] += 1
    else:
        items = as_cards(cards, what)
        size = len(items)
        for card in items:
            counts[card.index] += 1
    _check_copies(counts, size, what)
    return CardMultiset._trusted(tuple(counts), size)


def _check_copies(counts: Sequence[int], size: int, what: str) -> None:
    """Refuse ``size`` cards counted as ``counts`` if one card has more than :data:`MAX_COPIES` copies."""
    if size > MAX_COPIES and max(counts) > MAX_COPIES:  # fewer cards cannot hold that many copies of one
        raise too_many_cards(what)


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
