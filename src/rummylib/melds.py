"""Melds: runs and groups, built, validated, valued, extended (RULES.md M, J, V, O3).

A :class:`Run` knows its suit and its slots low to high; a :class:`Group` (a
remik "set") knows its rank and the suit each card stands for. ``.cards`` are
the physical cards in table order (jokers as :data:`~rummylib.JOKER`),
``.represents`` the card each one stands for, in the same order.

>>> from rummylib import REMIK, make_meld, meld_points, parse_cards
>>> run = make_meld(parse_cards("5H 6H JK"), REMIK)
>>> str(run), meld_points(run, REMIK)
('5H 6H JK=7H', 18)
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from rummylib.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    as_cards,
    format_cards,
    natural,
    parse_card,
)
from rummylib.errors import (
    CardParseError,
    InvalidCardsError,
    InvalidMeldError,
    MeldReason,
    ParseReason,
    RulesetError,
    RulesetReason,
)
from rummylib.rules import Ruleset

__all__ = [
    "End",
    "Group",
    "Meld",
    "Run",
    "format_meld",
    "is_clean_run",
    "lay_off",
    "make_meld",
    "meld_points",
    "parse_meld",
    "swap_joker",
    "validate_meld",
]

#: Position of the ace above the king (Q-K-A); the low ace is position 1.
ACE_HIGH: Final = 14
_SUITS: Final = tuple(Suit)


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
    return position if position <= 10 else 10


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


def _card_tuple(cards: Iterable[Card]) -> tuple[Card, ...]:
    try:
        return as_cards(cards, "a meld's cards")
    except InvalidCardsError as exc:
        raise InvalidMeldError(MeldReason.WRONG_TYPE, cards, str(exc)) from None


def _suit_tuple(suits: Iterable[Suit]) -> tuple[Suit, ...]:
    if isinstance(suits, (str, bytes)) or not isinstance(suits, Iterable):
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
        return sum(1 for c in self.cards if c.is_joker)

    @property
    def points(self) -> tuple[int, ...]:
        """The opening value of each slot (R-V, O3)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return format_meld(self)


def _run_check(run: Run) -> None:
    if not isinstance(run.suit, Suit):
        raise _bad(MeldReason.BAD_LAYOUT, run.cards, f"a run's suit must be a Suit, not {run.suit!r}")
    if not isinstance(run.start, int) or isinstance(run.start, bool) or not 1 <= run.start <= ACE_HIGH:
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
        return tuple(card_at_position(p, self.suit) for p in self.positions)

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
    """A group (a remik "set"): one rank, distinct suits, 3 or 4 cards (R-M2, J2).

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
        return tuple(natural(int(self.rank), s) for s in self.suits)

    @property
    def points(self) -> tuple[int, ...]:
        return (rank_value(self.rank),) * len(self.cards)

    def __str__(self) -> str:
        return format_meld(self)


def _check_rules(rules: object) -> Ruleset:
    if not isinstance(rules, Ruleset):
        msg = f"expected a Ruleset, not {type(rules).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "rules", rules, msg)
    return rules


def _check_meld(meld: object) -> Meld:
    if not isinstance(meld, (Run, Group)):
        msg = f"expected a Run or a Group, not {meld!r}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, meld, msg)
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
                    return _bad(MeldReason.ADJACENT_JOKERS, cards, f"run {format_meld(meld)} has two jokers side by side")
    else:
        limit = rules.group3_max_jokers if len(cards) == 3 else rules.group4_max_jokers
        if jokers > limit:
            msg = f"group {format_meld(meld)} holds {_jokers(jokers)}; at most {limit} in a group of {len(cards)}"
            return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)
    return None


def validate_meld(meld: Meld, rules: Ruleset) -> None:
    """Raise :class:`InvalidMeldError` unless ``meld`` is legal under ``rules``.

    Construction already checks the layout; this adds what depends on the
    ruleset: jokers allowed and their limits (R-J2, J3), the high ace (R-M4).

    >>> from rummylib import STRAIGHT, parse_cards
    >>> validate_meld(Run(Suit.SPADES, 12, parse_cards("QS KS AS")), STRAIGHT)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: run QS KS AS puts the ace above the king, which the straight rules forbid
    """
    error = _joker_rule_error(_check_meld(meld), _check_rules(rules))
    if error is not None:
        raise error


# --- building from cards ----------------------------------------------------------------


def _run_readings(naturals: Sequence[Card], n: int, suit: Suit, rules: Ruleset) -> list[Run]:
    top = ACE_HIGH if rules.ace_high else 13
    if n > 13:
        return []
    choices = [(1, ACE_HIGH) if c.rank is Rank.ACE else (int(c.rank or 0),) for c in naturals]
    found: dict[Run, None] = {}
    for start in range(1, top - n + 2):
        window = range(start, start + n)
        for positions in itertools.product(*choices):
            if len(set(positions)) != len(positions) or not all(p in window for p in positions):
                continue
            taken = set(positions)
            cards = tuple(card_at_position(p, suit) if p in taken else JOKER for p in window)
            run = Run(suit, start, cards)
            if _joker_rule_error(run, rules) is None:
                found[run] = None
    return list(found)


def _group_readings(naturals: Sequence[Card], n: int, rank: Rank, rules: Ruleset) -> list[Group]:
    used = [c.suit for c in naturals if c.suit is not None]
    if n > 4 or len(set(used)) != len(used):
        return []
    missing = [s for s in _SUITS if s not in used]
    found: list[Group] = []
    for extra in itertools.combinations(missing, n - len(naturals)):
        suits = sorted((*used, *extra), key=lambda s: s.index)
        cards = tuple(JOKER if s in extra else natural(int(rank), s) for s in suits)
        group = Group(rank, cards, suits)
        if _joker_rule_error(group, rules) is None:
            found.append(group)
    return found


def _joker_targets(meld: Meld) -> list[Card]:
    return sorted(r for c, r in zip(meld.cards, meld.represents) if c.is_joker)


def _diagnose_group(cards: tuple[Card, ...], naturals: Sequence[Card], rules: Ruleset) -> InvalidMeldError:
    n = len(cards)
    text = format_cards(cards)
    if n > 4:
        return _bad(MeldReason.GROUP_TOO_BIG, cards, f"set {text} has {n} cards; a set holds at most 4")
    seen: set[Suit | None] = set()
    for c in naturals:
        if c.suit in seen:
            return _bad(MeldReason.REPEATED_SUIT, cards, f"set {text} repeats the suit {c.suit}")
        seen.add(c.suit)
    limit = rules.group3_max_jokers if n == 3 else rules.group4_max_jokers
    msg = f"set {text} holds {_jokers(n - len(naturals))}; at most {limit} in a set of {n}"
    return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)


def _cyclic_span(ranks: Sequence[int]) -> int:
    """How many positions the ranks cover if a run could turn the corner K-A-2."""
    values = sorted(set(ranks))
    gaps = [(values[(i + 1) % len(values)] - values[i]) % 13 for i in range(len(values))]
    return 13 - max(gaps) + 1 if len(values) > 1 else 1


def _missing(positions: Sequence[int]) -> list[int]:
    return [p for p in range(min(positions), max(positions) + 1) if p not in positions]


def _diagnose_run(cards: tuple[Card, ...], naturals: Sequence[Card], suit: Suit, rules: Ruleset) -> InvalidMeldError:
    n = len(cards)
    text = format_cards(cards)
    jokers = n - len(naturals)
    if n > 13:
        return _bad(MeldReason.TOO_LONG, cards, f"run {text} is longer than 13 cards (the ace cannot be at both ends)")
    ranks = [int(c.rank or 0) for c in naturals]
    dupes = {r for r in ranks if ranks.count(r) > 1}
    if dupes:
        if dupes == {1} and ranks.count(1) == 2 and rules.ace_high:
            return _bad(MeldReason.ACE_BOTH_ENDS, cards, f"run {text} would need the ace at both ends")
        dup = natural(min(dupes), suit)
        return _bad(MeldReason.REPEATED_RANK, cards, f"run {text} holds {dup} twice")
    gap_low = _missing(ranks)
    gap_high = _missing([ACE_HIGH if r == 1 else r for r in ranks]) if 1 in ranks else None
    fits_low = len(gap_low) <= jokers
    fits_high = gap_high is not None and len(gap_high) <= jokers
    if not fits_low and not fits_high:
        linear = min(len(gap_low), len(gap_high) if gap_high is not None else len(gap_low))
        corner = _cyclic_span(ranks) - len(ranks)
        # The corner is the problem if the cards would fit around it, or (with an ace among
        # them, or a king and a two) if going round it leaves the smallest gap, as in KH AH 3H.
        if corner <= jokers or (corner < linear and (1 in ranks or {2, 13} <= set(ranks))):
            return _bad(MeldReason.WRAPS_CORNER, cards, f"run {text} would turn the corner K-A-2")
        best = gap_low
        if gap_high is not None and rules.ace_high and len(gap_high) < len(gap_low):
            best = gap_high
        missing = format_cards(card_at_position(p, suit) for p in best)
        return _bad(MeldReason.GAP, cards, f"run {text} has a gap at {missing}")
    if not fits_low and not rules.ace_high:
        msg = f"run {text} needs the ace above the king, which the {rules.name} rules forbid"
        return _bad(MeldReason.ACE_HIGH_FORBIDDEN, cards, msg)
    return _bad(MeldReason.ADJACENT_JOKERS, cards, f"run {text} cannot keep its jokers apart")


def _diagnose(cards: tuple[Card, ...], naturals: Sequence[Card], rules: Ruleset) -> InvalidMeldError:
    """Why cards of one rank or one suit form no meld (make_meld found no reading)."""
    n = len(cards)
    text = format_cards(cards)
    jokers = n - len(naturals)
    if jokers > rules.jokers:
        msg = f"meld {text} holds {_jokers(jokers)}; the {rules.name} deck has only {rules.jokers}"
        return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    suit = naturals[0].suit or Suit.SPADES
    if len(suits) > 1:
        return _diagnose_group(cards, naturals, rules)
    if len(ranks) > 1:
        return _diagnose_run(cards, naturals, suit, rules)
    # One real card, perhaps repeated, and jokers: either a set or a run might be meant.
    if len(naturals) > 1:
        return _diagnose_group(cards, naturals, rules) if n <= 4 else _diagnose_run(cards, naturals, suit, rules)
    if n > 4:
        return _diagnose_run(cards, naturals, suit, rules)
    limit = rules.group3_max_jokers if n == 3 else rules.group4_max_jokers
    msg = (
        f"meld {text} holds {_jokers(jokers)} and one real card: a set of {n} takes at most {limit} "
        "and a run cannot keep them apart"
    )
    return _bad(MeldReason.TOO_MANY_JOKERS, cards, msg)


def _laid_runs(given: tuple[Card, ...], suit: Suit) -> list[Run]:
    """Every run layout that keeps the cards in the given order (rules aside)."""
    if len(given) > 13:
        return []
    laid: list[Run] = []
    for start in range(1, ACE_HIGH - len(given) + 2):
        try:
            laid.append(Run(suit, start, given))
        except InvalidMeldError:
            continue
    return laid


def make_meld(cards: Iterable[Card], rules: Ruleset, *, jokers: Iterable[Card] | None = None) -> Meld:
    """Build a meld from cards as a player lays them (R-M, J1-J3).

    A run given lowest first is taken as laid: ``5H 6H JK`` makes the joker
    7H, and ``JK JK 5H`` is refused (R-J3: as laid, its jokers stand side by
    side as 3H and 4H), as is ``QS KS AS`` under rules without a high ace.
    Cards given in an order that is no run layout (``7H 5H 6H``, a set in any
    order) are read by their content: if exactly one reading exists, it is
    taken. Where several exist (a set of three with a joker; jokers whose
    place the order does not fix), ``jokers`` states what the jokers stand
    for (in any order). A group comes back with
    its slots in suit order S, H, D, C. A meld needs at least one real card,
    and never holds more jokers than the ruleset's deck.

    Args:
        cards: the cards as laid, any iterable of :class:`Card`.
        rules: the ruleset whose meld rules apply.
        jokers: the cards the jokers stand for, where the cards leave it open.

    Returns:
        The :class:`Run` or :class:`Group`.

    Raises:
        InvalidMeldError: the cards form no meld, or several and ``jokers``
            does not choose (reason ``AMBIGUOUS``); the reason names the rule.
        InvalidCardsError: ``cards`` is not an iterable of :class:`Card`.

    >>> from rummylib import REMIK, parse_cards
    >>> str(make_meld(parse_cards("8S 8H JK"), REMIK, jokers=parse_cards("8D")))
    '8S 8H JK=8D'
    >>> str(make_meld(parse_cards("JK 5H JK"), REMIK))
    'JK=4H 5H JK=6H'
    >>> make_meld(parse_cards("JK JK 5H"), REMIK).cards
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: JK JK 5H as laid is no valid run: run JK=3H JK=4H 5H has two jokers side by side
    >>> make_meld(parse_cards("5H 7H 8S"), REMIK)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: cards 5H 7H 8S mix suits and ranks: neither a run nor a set
    """
    rules = _check_rules(rules)
    given = as_cards(cards)
    text = format_cards(given)
    n = len(given)
    if n < 3:
        raise _bad(MeldReason.TOO_SHORT, given, f"meld {text or '(no cards)'} has fewer than 3 cards")
    naturals = [c for c in given if not c.is_joker]
    joker_count = n - len(naturals)
    if joker_count and rules.jokers == 0:
        raise _bad(MeldReason.JOKERS_NOT_ALLOWED, given, f"meld {text} holds a joker; the {rules.name} rules have none")
    if not naturals:
        raise _bad(MeldReason.NO_NATURAL, given, f"meld {text} holds only jokers; a meld needs a real card")
    declared: list[Card] | None = None
    if jokers is not None:
        declared = list(as_cards(jokers, "jokers"))
        if len(declared) != joker_count or any(c.is_joker for c in declared):
            msg = f"meld {text} has {_jokers(joker_count)} but declares {format_cards(declared) or 'none'}"
            raise _bad(MeldReason.JOKER_MISMATCH, given, msg)
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    if len(ranks) > 1 and len(suits) > 1:
        if len(ranks) == len(naturals):
            raise _bad(MeldReason.MIXED_SUITS, given, f"cards {text} mix suits and ranks: neither a run nor a set")
        raise _bad(MeldReason.MIXED_RANKS, given, f"cards {text} mix ranks and suits: neither a set nor a run")
    readings: list[Meld] = []
    if len(ranks) == 1:
        readings += _group_readings(naturals, n, naturals[0].rank or Rank.ACE, rules)
    if len(suits) == 1:
        readings += _run_readings(naturals, n, naturals[0].suit or Suit.SPADES, rules)
    if not readings:
        raise _diagnose(given, naturals, rules)
    if len(suits) == 1 and not any(isinstance(m, Group) for m in readings):
        # The order the player laid fixes the layout: judge that layout (R-J3, M4).
        laid = _laid_runs(given, naturals[0].suit or Suit.SPADES)
        errors = [_joker_rule_error(run, rules) for run in laid]
        first = errors[0] if laid else None
        if first is not None and all(errors):
            raise _bad(first.reason, given, f"{text} as laid is no valid run: {first}")
    if declared is not None:
        want = sorted(declared)
        matching = [m for m in readings if _joker_targets(m) == want]
        if not matching:
            options = "; ".join(format_meld(m) for m in readings)
            msg = f"jokers in {text} cannot stand for {format_cards(declared)}; possible: {options}"
            raise _bad(MeldReason.JOKER_MISMATCH, given, msg)
        readings = matching
    if len(readings) == 1:
        return readings[0]
    in_order = [m for m in readings if isinstance(m, Run) and m.cards == given]
    if len(in_order) == 1:
        return in_order[0]
    options = "; ".join(format_meld(m) for m in readings)
    msg = f"meld {text} is ambiguous ({options}); say what the jokers stand for"
    raise _bad(MeldReason.AMBIGUOUS, given, msg)


# --- value, lay-off, swap ---------------------------------------------------------------


def meld_points(meld: Meld, rules: Ruleset) -> int:
    """The opening value of a meld (R-V, O3): jokers count as what they stand for.

    >>> from rummylib import REMIK, parse_cards
    >>> meld_points(make_meld(parse_cards("9S 10S JS"), REMIK), REMIK)
    29
    >>> meld_points(make_meld(parse_cards("QH KH AH"), REMIK), REMIK)
    31
    """
    validate_meld(meld, rules)
    return sum(meld.points)


def is_clean_run(meld: Meld) -> bool:
    """Whether ``meld`` is a run without jokers (R-O2, O6).

    >>> from rummylib import REMIK, parse_cards
    >>> is_clean_run(make_meld(parse_cards("9S 10S JS"), REMIK))
    True
    """
    return isinstance(meld, Run) and meld.is_clean


def _run_lay_off(meld: Run, card: Card, rules: Ruleset, end: End | None, joker_as: Card | None) -> Run:
    text = f"{card} onto {format_meld(meld)}"
    if len(meld.cards) >= 13:
        raise _bad(MeldReason.TOO_LONG, meld.cards, f"cannot lay {text}: a run holds at most 13 cards")
    if not card.is_joker and card.suit is not meld.suit:
        raise _bad(MeldReason.MIXED_SUITS, meld.cards, f"cannot lay {text}: wrong suit")
    options: list[Run] = []
    problems: list[InvalidMeldError] = []
    for side in (End.LOW, End.HIGH):
        if end is not None and side is not end:
            continue
        pos = meld.start - 1 if side is End.LOW else meld.end + 1
        if not 1 <= pos <= ACE_HIGH:
            # Below a low ace comes a king, above a high ace a two: K-A-2 turns the corner (R-M3).
            beyond = natural(13 if side is End.LOW else 2, meld.suit)
            if card.is_joker or card == beyond:
                msg = f"cannot lay {text}: the run would turn the corner K-A-2"
                problems.append(_bad(MeldReason.WRAPS_CORNER, meld.cards, msg))
            continue
        stands = card_at_position(pos, meld.suit)
        if not card.is_joker and card != stands:
            continue
        if joker_as is not None and joker_as != stands:
            continue
        cards = (card, *meld.cards) if side is End.LOW else (*meld.cards, card)
        new = Run(meld.suit, pos if side is End.LOW else meld.start, cards)
        error = _joker_rule_error(new, rules)
        if error is None:
            options.append(new)
        else:
            problems.append(error)
    if len(options) == 1:
        return options[0]
    if options:
        msg = f"cannot lay {text}: it fits at both ends; say which end"
        raise _bad(MeldReason.AMBIGUOUS, meld.cards, msg)
    if problems:
        first = problems[0]
        detail = str(first)
        if not detail.startswith("cannot lay"):
            detail = f"cannot lay {text}: {detail}"
        raise _bad(first.reason, meld.cards, detail)
    if joker_as is not None and card.is_joker:
        msg = f"cannot lay {text}: a joker at a free end cannot stand for {joker_as}"
        raise _bad(MeldReason.JOKER_MISMATCH, meld.cards, msg)
    where = "" if end is None else f" at the {end.value} end"
    raise _bad(MeldReason.DOES_NOT_FIT, meld.cards, f"cannot lay {text}{where}: it does not extend the run")


def _group_lay_off(meld: Group, card: Card, rules: Ruleset, end: End | None, joker_as: Card | None) -> Group:
    text = f"{card} onto {format_meld(meld)}"
    if end is not None:
        raise _bad(MeldReason.BAD_LAYOUT, meld.cards, f"cannot lay {text} at an end: a set has no ends")
    if len(meld.cards) >= 4:
        raise _bad(MeldReason.GROUP_TOO_BIG, meld.cards, f"cannot lay {text}: a set holds at most 4 cards")
    missing = [s for s in _SUITS if s not in meld.suits]
    if card.is_joker:
        stands = natural(int(meld.rank), missing[0])
        if joker_as is not None and joker_as != stands:
            msg = f"cannot lay {text}: the joker can only stand for {stands}, not {joker_as}"
            raise _bad(MeldReason.JOKER_MISMATCH, meld.cards, msg)
        suit = missing[0]
    else:
        if card.rank is not meld.rank:
            raise _bad(MeldReason.MIXED_RANKS, meld.cards, f"cannot lay {text}: wrong rank")
        if card.suit in meld.suits:
            raise _bad(MeldReason.REPEATED_SUIT, meld.cards, f"cannot lay {text}: the set has that suit already")
        if joker_as is not None:
            raise _bad(MeldReason.JOKER_MISMATCH, meld.cards, f"cannot lay {text}: only a joker takes joker_as")
        suit = card.suit or missing[0]
    slots = sorted([*zip(meld.suits, meld.cards), (suit, card)], key=lambda sc: sc[0].index)
    new = Group(meld.rank, (c for _, c in slots), (s for s, _ in slots))
    error = _joker_rule_error(new, rules)
    if error is not None:
        raise _bad(error.reason, meld.cards, f"cannot lay {text}: {error}")
    return new


def lay_off(
    meld: Meld,
    card: Card,
    rules: Ruleset,
    *,
    end: End | None = None,
    joker_as: Card | None = None,
) -> Meld:
    """Extend a run at an end, or a set of three to four (R-J5, T6).

    ``end`` chooses the end of a run where the card fits both (an ace onto
    2..K, or a joker); ``joker_as`` may instead name the card a joker stands for.

    Raises:
        InvalidMeldError: the card does not fit (the reason says why), or it
            fits in two places and neither ``end`` nor ``joker_as`` chooses.

    >>> from rummylib import REMIK, JOKER, parse_cards
    >>> run = make_meld(parse_cards("JS QS KS"), REMIK)
    >>> str(lay_off(run, JOKER, REMIK, end=End.LOW))
    'JK=10S JS QS KS'
    """
    meld = _check_meld(meld)
    rules = _check_rules(rules)
    if not isinstance(card, Card):
        raise _bad(MeldReason.WRONG_TYPE, meld.cards, f"lay_off() takes a Card, not {card!r}")
    if end is not None and not isinstance(end, End):
        raise _bad(MeldReason.WRONG_TYPE, meld.cards, f"end must be End.LOW or End.HIGH, not {end!r}")
    if joker_as is not None and (not isinstance(joker_as, Card) or joker_as.is_joker or not card.is_joker):
        raise _bad(MeldReason.JOKER_MISMATCH, meld.cards, f"joker_as={joker_as!r} needs a joker and a real card")
    validate_meld(meld, rules)
    if card.is_joker and rules.jokers == 0:
        raise _bad(MeldReason.JOKERS_NOT_ALLOWED, meld.cards, f"the {rules.name} rules have no jokers")
    if isinstance(meld, Run):
        return _run_lay_off(meld, card, rules, end, joker_as)
    return _group_lay_off(meld, card, rules, end, joker_as)  # type: ignore[arg-type]


def swap_joker(meld: Meld, card: Card, rules: Ruleset) -> tuple[Meld, Card]:
    """Put ``card`` in place of the joker that stands for it (R-J4).

    Only the exact card the joker stands for may replace it (either copy).
    Returns the new meld and the freed joker. The rule that the joker must go
    into a new meld on the same turn is the engine's to enforce.

    Raises:
        InvalidMeldError: no joker in the meld stands for ``card``, or the
            rules have no joker swap.

    >>> from rummylib import REMIK, parse_cards
    >>> run = make_meld(parse_cards("5H JK 7H"), REMIK)
    >>> new, joker = swap_joker(run, parse_cards("6H")[0], REMIK)
    >>> str(new), str(joker)
    ('5H 6H 7H', 'JK')
    """
    meld = _check_meld(meld)
    rules = _check_rules(rules)
    if not isinstance(card, Card) or card.is_joker:
        raise _bad(MeldReason.WRONG_TYPE, meld.cards, f"swap_joker() takes a real card, not {card!r}")
    if not rules.joker_swap:
        raise _bad(MeldReason.SWAP_NOT_ALLOWED, meld.cards, f"the {rules.name} rules have no joker swap")
    validate_meld(meld, rules)
    for i, (slot, stands) in enumerate(zip(meld.cards, meld.represents)):
        if slot.is_joker and stands == card:
            cards = (*meld.cards[:i], card, *meld.cards[i + 1 :])
            new: Meld = attrs.evolve(meld, cards=cards)  # type: ignore[misc]
            return new, JOKER
    msg = f"no joker in {format_meld(meld)} stands for {card}"
    raise _bad(MeldReason.NO_SUCH_JOKER, meld.cards, msg)


# --- notation ---------------------------------------------------------------------------


def format_meld(meld: Meld) -> str:
    """A meld as text: its cards in table order, each joker as ``JK=<card>``.

    >>> from rummylib import REMIK, parse_cards
    >>> format_meld(make_meld(parse_cards("JK 5H JK 7H"), REMIK))
    'JK=4H 5H JK=6H 7H'
    """
    meld = _check_meld(meld)
    return " ".join(
        f"JK={r}" if c.is_joker else str(c) for c, r in zip(meld.cards, meld.represents)
    )


def parse_meld(text: str, rules: Ruleset) -> Meld:
    """Parse the notation of :func:`format_meld` (``JK`` alone is allowed where obvious).

    Raises:
        CardParseError: a token is not a card.
        InvalidMeldError: the cards form no meld (or an ambiguous one).

    >>> from rummylib import REMIK
    >>> str(parse_meld("8S 8H JK=8C", REMIK))
    '8S 8H JK=8C'
    """
    if not isinstance(text, str):
        raise CardParseError(ParseReason.WRONG_TYPE, text)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise CardParseError(ParseReason.EMPTY, text)
    cards: list[Card] = []
    declared: list[Card] = []
    for i, token in enumerate(tokens):
        head, sep, tail = token.partition("=")
        if sep:
            try:
                card = parse_card(head) if head else None
            except CardParseError as exc:
                raise CardParseError(exc.reason, token, i) from None
            if card is None or not card.is_joker or not tail:
                raise CardParseError(ParseReason.BAD_TOKEN, token, i)
            try:
                declared.append(parse_card(tail))
            except CardParseError as exc:
                raise CardParseError(exc.reason, token, i) from None
            cards.append(JOKER)
        else:
            try:
                cards.append(parse_card(head))
            except CardParseError as exc:
                raise CardParseError(exc.reason, token, i) from None
    jokers = sum(1 for c in cards if c.is_joker)
    if declared and len(declared) != jokers:
        msg = f"meld {text!r}: declare every joker or none"
        raise _bad(MeldReason.JOKER_MISMATCH, tuple(cards), msg)
    return make_meld(cards, rules, jokers=declared or None)
