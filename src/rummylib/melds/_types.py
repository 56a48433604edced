"""Meld values: runs and groups, their layout and rule checks, values and notation."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable
from typing import Final

import attrs

from rummylib._card import as_cards, natural
from rummylib.cards import Card, Rank, Suit, format_cards
from rummylib.errors import (
    InvalidCardsError,
    InvalidMeldError,
    MeldReason,
    shorten,
)
from rummylib.rules import Ruleset, _check_rules

from .._guards import is_collection_of_items, is_int_in
from .._trusted import builder

__all__ = [
    "ACE_HIGH",
    "JOKER_DECLARATION",
    "End",
    "Group",
    "Meld",
    "Run",
    "card_at_position",
    "checked_points",
    "format_meld",
    "is_clean_run",
    "meld_points",
    "position_value",
    "rank_value",
    "slot_token",
    "split_slot",
    "validate_meld",
]

#: Position of the ace above the king (Q-K-A); the low ace is position 1.
ACE_HIGH: Final = 14


class End(enum.Enum):
    """The end of a run a card is laid off at."""

    LOW = "low"
    HIGH = "high"


def position_value(position: int) -> int:
    """Opening value of a run slot (R-V): ace low 1, 2-10 face, J-K 10, ace high 11.

    >>> position_value(1), position_value(7), position_value(12), position_value(ACE_HIGH)
    (1, 7, 10, 11)
    """
    if position == ACE_HIGH:
        return 11
    return min(position, 10)


def rank_value(rank: Rank) -> int:
    """Opening value of a card of ``rank`` in a group (R-V: an ace is 11).

    >>> rank_value(Rank.ACE), rank_value(Rank.EIGHT), rank_value(Rank.KING)
    (11, 8, 10)
    """
    return 11 if rank is Rank.ACE else min(int(rank), 10)


def card_at_position(position: int, suit: Suit) -> Card:
    """The natural card in run position ``position`` (1-14) of ``suit``.

    >>> card_at_position(1, Suit.HEARTS), card_at_position(ACE_HIGH, Suit.HEARTS)
    (Card('AH'), Card('AH'))
    """
    return natural(1 if position == ACE_HIGH else position, suit)


#: Per suit, the card of each run position (index 0 unused, 1-14): ``represents`` slices it (hot path).
_AT_POSITION: Final = {suit: (None, *(card_at_position(p, suit) for p in range(1, ACE_HIGH + 1))) for suit in Suit}
#: Per rank, the natural card of each suit (a group's ``represents``).
_OF_RANK: Final = {rank: {suit: natural(int(rank), suit) for suit in Suit} for rank in Rank}


def _card_tuple(cards: Iterable[Card]) -> tuple[Card, ...]:
    try:
        return as_cards(cards, "a meld's cards")
    except InvalidCardsError as exc:
        raise InvalidMeldError(MeldReason.WRONG_TYPE, cards, str(exc)) from None


def _suit_tuple(suits: Iterable[Suit]) -> tuple[Suit, ...]:
    if not is_collection_of_items(suits):
        msg = f"a group's suits must be an iterable of Suit, not {suits!r}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, suits, msg)
    values = tuple(suits)
    for suit in values:
        if not isinstance(suit, Suit):
            msg = f"a group's suits must hold only Suit values, found {suit!r}"
            raise InvalidMeldError(MeldReason.WRONG_TYPE, values, msg)
    return values


def _jokers(count: int) -> str:
    return "1 joker" if count == 1 else f"{count} jokers"


def _bad(reason: MeldReason, cards: object, detail: str) -> InvalidMeldError:
    return InvalidMeldError(reason, cards, detail)


class Meld:
    """A run or a group on the table. See :class:`Run` and :class:`Group`."""

    __slots__ = ()
    cards: tuple[Card, ...]

    @property
    def represents(self) -> tuple[Card, ...]:
        """The card each slot stands for, in the order of :attr:`cards`."""
        raise NotImplementedError

    @property
    def joker_count(self) -> int:
        """How many jokers the meld holds."""
        n = 0
        for c in self.cards:  # a loop: no generator or Card.__eq__ on the hot path
            if c.rank is None:
                n += 1
        return n

    @property
    def points(self) -> tuple[int, ...]:
        """The opening value of each slot (R-V, O3)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return format_meld(self)

    def _repr_svg_(self) -> str:
        """The meld as SVG, for notebooks (imports :mod:`rummylib.svg` lazily: melds never import upward)."""
        from rummylib.svg import to_svg

        return to_svg(self)


def _run_check(run: Run) -> None:
    if not isinstance(run.suit, Suit):
        raise _bad(MeldReason.BAD_LAYOUT, run.cards, f"a run's suit must be a Suit, not {run.suit!r}")
    if not is_int_in(run.start, 1, ACE_HIGH):
        raise _bad(MeldReason.BAD_LAYOUT, run.cards, f"a run's start must be 1-14, not {run.start!r}")
    n = len(run.cards)
    if n < 3:
        raise _bad(MeldReason.TOO_SHORT, run.cards, f"run {format_cards(run.cards)} has fewer than 3 cards")
    if n > 13:
        raise _bad(MeldReason.TOO_LONG, run.cards, "a run holds at most 13 cards (the ace cannot be at both ends)")
    if run.start + n - 1 > ACE_HIGH:
        raise _bad(MeldReason.WRAPS_CORNER, run.cards, f"run {format_cards(run.cards)} goes past the ace")
    for offset, card in enumerate(run.cards):
        if not card.is_joker and card != card_at_position(run.start + offset, run.suit):
            want = card_at_position(run.start + offset, run.suit)
            msg = f"run slot {offset} holds {card}, expected {want} or a joker"
            raise _bad(MeldReason.BAD_LAYOUT, run.cards, msg)
    if all(c.is_joker for c in run.cards):
        raise _bad(MeldReason.NO_NATURAL, run.cards, "a meld needs at least one real card")


@attrs.frozen
class Run(Meld):
    """A run: one suit, consecutive positions ``start .. start+len-1`` (R-M1, M3, M6).

    Positions are 1 (ace low) to 13 (king) and 14 (ace high).

    >>> from rummylib import parse_cards
    >>> r = Run(Suit.HEARTS, 5, parse_cards("5H 6H JK"))
    >>> [str(c) for c in r.represents]
    ['5H', '6H', '7H']
    """

    suit: Suit
    start: int
    cards: tuple[Card, ...] = attrs.field(converter=_card_tuple)

    def __attrs_post_init__(self) -> None:
        _run_check(self)

    @property
    def end(self) -> int:
        """Position of the highest slot."""
        return self.start + len(self.cards) - 1

    @property
    def positions(self) -> range:
        """The positions the run covers, low to high."""
        return range(self.start, self.start + len(self.cards))

    @property
    def represents(self) -> tuple[Card, ...]:
        row = _AT_POSITION.get(self.suit)
        start = self.start
        if row is not None and type(start) is int and start >= 1 and start + len(self.cards) <= ACE_HIGH + 1:
            return row[start : start + len(self.cards)]  # type: ignore[return-value]
        return tuple(card_at_position(p, self.suit) for p in self.positions)  # a meld built around its checks

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(position_value(p) for p in self.positions)

    @property
    def is_clean(self) -> bool:
        """Whether the run holds no joker (R-O2)."""
        return not any(c.is_joker for c in self.cards)

    def __str__(self) -> str:
        return format_meld(self)


def _group_check(group: Group) -> None:
    if not isinstance(group.rank, Rank):
        raise _bad(MeldReason.BAD_LAYOUT, group.cards, f"a group's rank must be a Rank, not {group.rank!r}")
    n = len(group.cards)
    if n < 3:
        raise _bad(MeldReason.TOO_SHORT, group.cards, f"group {format_cards(group.cards)} has fewer than 3 cards")
    if n > 4:
        raise _bad(MeldReason.GROUP_TOO_BIG, group.cards, f"group {format_cards(group.cards)} has more than 4 cards")
    if len(group.suits) != n or not all(isinstance(s, Suit) for s in group.suits):
        raise _bad(MeldReason.BAD_LAYOUT, group.cards, "a group needs one suit per card")
    if len(set(group.suits)) != n:
        raise _bad(MeldReason.REPEATED_SUIT, group.cards, f"group {format_cards(group.cards)} repeats a suit")
    if [s.index for s in group.suits] != sorted(s.index for s in group.suits):
        raise _bad(MeldReason.BAD_LAYOUT, group.cards, "a group's slots are kept in suit order S, H, D, C")
    for card, suit in zip(group.cards, group.suits):
        if not card.is_joker and card != natural(int(group.rank), suit):
            msg = f"group slot for {suit.value} holds {card}, expected {natural(int(group.rank), suit)} or a joker"
            raise _bad(MeldReason.BAD_LAYOUT, group.cards, msg)
    if all(c.is_joker for c in group.cards):
        raise _bad(MeldReason.NO_NATURAL, group.cards, "a meld needs at least one real card")


@attrs.frozen
class Group(Meld):
    """A set (the class is ``Group``, not to shadow Python's ``set``): one rank, distinct suits, 3 or 4 cards (R-M2, J2).

    Slots are kept in suit order S, H, D, C; ``suits[i]`` is the suit
    ``cards[i]`` stands for.

    >>> from rummylib import parse_cards
    >>> g = Group(Rank.EIGHT, parse_cards("8S 8H JK"), (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))
    >>> str(g)
    '8S 8H JK=8D'
    """

    rank: Rank
    cards: tuple[Card, ...] = attrs.field(converter=_card_tuple)
    suits: tuple[Suit, ...] = attrs.field(converter=_suit_tuple)

    def __attrs_post_init__(self) -> None:
        _group_check(self)

    @property
    def represents(self) -> tuple[Card, ...]:
        row = _OF_RANK.get(self.rank)
        if row is not None:
            try:
                return tuple(map(row.__getitem__, self.suits))
            except (KeyError, TypeError):
                pass  # a meld built around its checks: the checked path raises the typed error
        return tuple(natural(int(self.rank), s) for s in self.suits)

    @property
    def points(self) -> tuple[int, ...]:
        return (rank_value(self.rank),) * len(self.cards)

    def __str__(self) -> str:
        return format_meld(self)


#: ``_new_run(suit, start, cards)``: a run whose layout the caller has built correctly (no checks; internal,
#: for hot paths: the slots filled by plain assignments, see :func:`~rummylib._trusted.builder`).
_new_run: Final[Callable[[Suit, int, tuple[Card, ...]], Run]] = builder(Run, positional=True)
#: ``_new_group(rank, cards, suits)``: a group whose layout the caller has built correctly (likewise).
_new_group: Final[Callable[[Rank, tuple[Card, ...], tuple[Suit, ...]], Group]] = builder(Group, positional=True)


def _check_meld(meld: object) -> Meld:
    if not isinstance(meld, (Run, Group)):
        msg = f"expected a Run or a Group, not {shorten(meld)}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, meld, msg)
    # The layout is checked again: a meld unpickled or built around its
    # validators (object.__setattr__) must not pass as valid.
    cards = getattr(meld, "cards", None)
    if type(cards) is not tuple or not all(type(c) is Card for c in cards):
        msg = f"a meld's cards must be a tuple of Card, not {shorten(cards)}"
        raise InvalidMeldError(MeldReason.BAD_LAYOUT, cards, msg)
    if isinstance(meld, Run):
        _run_check(meld)
    else:
        if type(meld.suits) is not tuple:
            msg = f"a group's suits must be a tuple of Suit, not {shorten(meld.suits)}"
            raise InvalidMeldError(MeldReason.BAD_LAYOUT, cards, msg)
        _group_check(meld)
    return meld


def _joker_rule_error(meld: Meld, rules: Ruleset) -> InvalidMeldError | None:
    """The ruleset-dependent problem with a structurally sound meld, if any."""
    cards = meld.cards
    jokers = meld.joker_count
    if jokers and rules.jokers == 0:
        return _bad(MeldReason.JOKERS_NOT_ALLOWED, cards, f"the {rules.name} rules have no jokers")
    if jokers > rules.jokers:
        msg = f"meld {format_meld(meld)} holds {_jokers(jokers)}; the {rules.name} deck has only {rules.jokers}"
        return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)
    if isinstance(meld, Run):
        if meld.end == ACE_HIGH and not rules.ace_high:
            msg = f"run {format_meld(meld)} puts the ace above the king, which the {rules.name} rules forbid"
            return _bad(MeldReason.ACE_HIGH_FORBIDDEN, cards, msg)
        if not rules.adjacent_jokers:
            for a, b in itertools.pairwise(cards):
                if a.is_joker and b.is_joker:
                    return _bad(
                        MeldReason.ADJACENT_JOKERS, cards, f"run {format_meld(meld)} has two jokers side by side"
                    )
    else:
        limit = rules.group3_max_jokers if len(cards) == 3 else rules.group4_max_jokers
        if jokers > limit:
            msg = f"set {format_meld(meld)} holds {_jokers(jokers)}; at most {limit} in a set of {len(cards)}"
            return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)
    return None


def validate_meld(meld: Meld, rules: Ruleset) -> None:
    """Raise :class:`InvalidMeldError` unless ``meld`` is legal under ``rules``.

    Construction already checks the layout; this adds what depends on the
    ruleset: jokers allowed and their limits (R-J2, J3), the high ace (R-M4).

    Raises:
        InvalidMeldError: the meld breaks a rule of ``rules``, or is not a
            meld; ``reason`` says which.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import STRAIGHT, parse_cards
    >>> validate_meld(Run(Suit.SPADES, 12, parse_cards("QS KS AS")), STRAIGHT)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: run QS KS AS puts the ace above the king, which the straight rules forbid
    """
    error = _joker_rule_error(_check_meld(meld), _check_rules(rules))
    if error is not None:
        raise error


def meld_points(meld: Meld, rules: Ruleset) -> int:
    """The value of a meld's cards: jokers count as what they stand for (R-V1, O3).

    In remik this is what the meld adds to the opening's 51 (R-O2; an ace
    counts 1 before a two, 11 after a king or in a set). Straight Rummy has no
    opening and scores only the cards left in hand (R-S3), so under
    ``STRAIGHT`` the number is just the sum of the meld's card values (an ace
    low, J Q K 10): it is not part of any score.

    Raises:
        InvalidMeldError: ``meld`` is not a meld, or is not legal under
            ``rules`` (see :func:`validate_meld`).
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK, make_meld, parse_cards
    >>> meld_points(make_meld(parse_cards("9S 10S JS"), REMIK), REMIK)
    29
    >>> meld_points(make_meld(parse_cards("QH KH AH"), REMIK), REMIK)
    31
    """
    validate_meld(meld, rules)
    return checked_points(meld)


def checked_points(meld: Meld) -> int:
    """:func:`meld_points` of a meld the caller has validated already (no second check; internal)."""
    return sum(meld.points)


def is_clean_run(meld: Meld) -> bool:
    """Whether ``meld`` is a run without jokers (R-O2, O6).

    >>> from rummylib import REMIK, make_meld, parse_cards
    >>> is_clean_run(make_meld(parse_cards("9S 10S JS"), REMIK))
    True
    """
    return isinstance(meld, Run) and meld.is_clean


def format_meld(meld: Meld) -> str:
    """A meld as text: its cards in table order, each joker as ``JK=<card>``.

    Raises:
        InvalidMeldError: ``meld`` is not a :class:`Run` or a :class:`Group`
            (reason ``WRONG_TYPE``).

    >>> from rummylib import REMIK, make_meld, parse_cards
    >>> format_meld(make_meld(parse_cards("JK 5H JK 7H"), REMIK))
    'JK=4H 5H JK=6H 7H'
    """
    meld = _check_meld(meld)
    return " ".join(map(slot_token, meld.cards, meld.represents))


#: What a joker's slot token starts with before the card it stands for (``JK=7H``, R-J1).
JOKER_DECLARATION: Final = "JK="


def slot_token(card: Card, represents: Card, spell: Callable[[Card], str] = str) -> str:
    """One slot of a meld in the notation: the card, or ``JK=<card>`` for a joker (the one writer).

    ``spell`` writes a card (``str``: ``7H``; a terminal may use suit symbols).

    >>> from rummylib import parse_card
    >>> slot_token(parse_card("JK"), parse_card("7H")), slot_token(parse_card("5H"), parse_card("5H"))
    ('JK=7H', '5H')
    """
    return JOKER_DECLARATION + spell(represents) if card.is_joker else spell(card)


def split_slot(token: str) -> tuple[str, str | None]:
    """A slot token's card text and the card text it declares (``None`` if none; the one reader).

    >>> split_slot("JK=7H"), split_slot("5H")
    (('JK', '7H'), ('5H', None))
    """
    head, sep, tail = token.partition("=")
    return (head, tail) if sep else (head, None)
