"""Building melds from cards as laid: every reading, the rule each refusal breaks."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from rummylib._card import CARDS, SUITS, as_cards, natural
from rummylib.cards import JOKER, Card, Rank, Suit, format_cards, parse_card
from rummylib.errors import (
    CardParseError,
    InvalidMeldError,
    MeldReason,
    ParseReason,
)
from rummylib.melds._types import (
    ACE_HIGH,
    Group,
    Meld,
    Run,
    _bad,
    _jokers,
    _new_group,
    _new_run,
    card_at_position,
    format_meld,
)
from rummylib.rules import Ruleset, _check_rules


def _run_readings(naturals: Sequence[Card], n: int, suit: Suit, rules: Ruleset) -> list[Run]:
    """Every run of ``n`` cards holding ``naturals`` (all of ``suit``) and jokers, lowest start first.

    Computed from the positions alone: for each place of an ace (low, or high
    where the rules allow), every start whose window holds all the naturals,
    jokers in the other slots, kept apart unless the rules allow otherwise.
    """
    if n > 13 or n - len(naturals) > rules.jokers:
        return []
    ranks = [c.index % 13 + 1 for c in naturals]
    taken = set(ranks)
    if len(taken) != len(ranks):
        return []  # a run holds each card once (two aces would need both ends, past 13 cards)
    top = ACE_HIGH if rules.ace_high else 13
    base = naturals[0].index - ranks[0] + 1  # index of the suit's ace
    apart = not rules.adjacent_jokers
    found: list[Run] = []
    for high_ace in (False, True) if 1 in taken and rules.ace_high else (False,):
        places = {ACE_HIGH if r == 1 else r for r in ranks} if high_ace else taken
        low, high = min(places), max(places)
        for start in range(max(1, high - n + 1), min(low, top - n + 1) + 1):
            cards: list[Card] = []
            last_joker = False
            for p in range(start, start + n):
                if p in places:
                    cards.append(CARDS[base if p == ACE_HIGH else base + p - 1])
                    last_joker = False
                elif last_joker and apart:
                    break
                else:
                    cards.append(JOKER)
                    last_joker = True
            else:
                found.append(_new_run(suit, start, tuple(cards)))
    return found


def _group_readings(naturals: Sequence[Card], n: int, rank: Rank, rules: Ruleset) -> list[Group]:
    """Every group of ``n`` cards holding ``naturals`` (all of ``rank``), one per joker declaration."""
    used = {c.index // 13 for c in naturals}
    jokers = n - len(naturals)
    limit = rules.group3_max_jokers if n == 3 else rules.group4_max_jokers
    if n > 4 or len(used) != len(naturals) or jokers > min(limit, rules.jokers):
        return []
    low = int(rank) - 1
    missing = [s for s in range(4) if s not in used]
    found: list[Group] = []
    for extra in itertools.combinations(missing, jokers):
        slots = sorted((*used, *extra))
        cards = tuple(JOKER if s in extra else CARDS[s * 13 + low] for s in slots)
        found.append(_new_group(rank, cards, tuple(SUITS[s] for s in slots)))
    return found


def _readings(naturals: Sequence[Card], n: int, rules: Ruleset) -> list[Meld]:
    """Every meld of ``n`` cards: ``naturals`` and jokers (runs by start, then groups)."""
    if not naturals:
        return []
    first = naturals[0]
    suit, rank = first.suit, first.rank
    one_suit = one_rank = True
    for c in naturals:
        one_suit = one_suit and c.suit is suit
        one_rank = one_rank and c.rank is rank
    readings: list[Meld] = []
    if one_suit and suit is not None:
        readings += _run_readings(naturals, n, suit, rules)
    if one_rank and rank is not None:
        readings += _group_readings(naturals, n, rank, rules)
    return readings


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


def meld_readings(cards: Iterable[Card], rules: Ruleset) -> tuple[Meld, ...]:
    """Every valid meld made of exactly ``cards``, one per joker declaration (R-M, J1-J3).

    The cards are taken as a multiset: a run in any order of its cards, a
    group in any order. Each way the jokers can stand for cards is its own
    reading: ``8S 8H JK`` has two (the joker as 8D or as 8C), ``5H 6H JK``
    two (as 4H or 7H). Runs come first, lowest start first, then groups by
    the suits the jokers take. An empty tuple means the cards form no meld;
    :func:`make_meld` says why.

    Raises:
        InvalidCardsError: ``cards`` is not an iterable of :class:`Card`.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import REMIK, parse_cards
    >>> [str(m) for m in meld_readings(parse_cards("8S 8H JK"), REMIK)]
    ['8S 8H JK=8D', '8S 8H JK=8C']
    >>> [str(m) for m in meld_readings(parse_cards("7H 5H JK"), REMIK)]
    ['5H JK=6H 7H']
    """
    rules = _check_rules(rules)
    given = as_cards(cards)
    if len(given) < 3:
        return ()
    naturals = [c for c in given if not c.is_joker]
    return tuple(_readings(naturals, len(given), rules))


def _choose(given: tuple[Card, ...], readings: list[Meld], declared: list[Card] | None) -> Meld:
    """The one rule of :func:`make_meld`: as laid, else the only reading, else ambiguous."""
    if declared is not None:
        want = sorted(declared)
        matching = [m for m in readings if _joker_targets(m) == want]
        if not matching:
            text = format_cards(given)
            options = "; ".join(format_meld(m) for m in readings)
            msg = f"jokers in {text} cannot stand for {format_cards(declared)}; possible: {options}"
            raise _bad(MeldReason.JOKER_MISMATCH, given, msg)
        readings = matching
    for meld in readings:
        if isinstance(meld, Run) and meld.cards == given:
            return meld  # the order as laid, lowest first, is a valid reading
    if len(readings) == 1:
        return readings[0]
    text = format_cards(given)
    options = "; ".join(format_meld(m) for m in readings)
    msg = f"meld {text} is ambiguous ({options}); say what the jokers stand for"
    raise InvalidMeldError(MeldReason.AMBIGUOUS, given, msg, tuple(readings))


def make_meld(cards: Iterable[Card], rules: Ruleset, *, jokers: Iterable[Card] | None = None) -> Meld:
    """Build a meld from cards as a player lays them (R-M, J1-J3).

    One rule decides which meld the cards make, among their readings
    (:func:`meld_readings`, narrowed to the declared ``jokers`` if given):

    1. the order as laid, when it is a valid reading: a run is laid lowest
       first, so ``5H 6H JK`` makes the joker 7H and ``JK 5H 6H`` makes it 4H
       (a group may be laid in any order);
    2. otherwise the single reading of the cards: ``7H 5H 6H``, ``JK JK 5H``
       (as ``JK=4H 5H JK=6H``: laid as given its jokers would touch, R-J3),
       ``KH AH JK`` (as ``JK=QH KH AH``);
    3. otherwise, with several readings (a set of three with a joker; jokers
       whose place the order does not fix), :class:`InvalidMeldError` with
       reason ``AMBIGUOUS`` and every reading in its ``readings``; ``jokers``
       states what the jokers stand for (in any order) and so chooses one.

    A group comes back with its slots in suit order S, H, D, C. A meld needs
    at least one real card, and never holds more jokers than the ruleset's deck.

    Args:
        cards: the cards as laid, any iterable of :class:`Card`.
        rules: the ruleset whose meld rules apply.
        jokers: the cards the jokers stand for, where the cards leave it open.

    Returns:
        The :class:`Run` or :class:`Group`.

    Raises:
        InvalidMeldError: the cards form no meld (the reason names the rule),
            or several and ``jokers`` does not choose (reason ``AMBIGUOUS``,
            the melds in ``readings``).
        InvalidCardsError: ``cards`` is not an iterable of :class:`Card`.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import REMIK, parse_cards
    >>> str(make_meld(parse_cards("8S 8H JK"), REMIK, jokers=parse_cards("8D")))
    '8S 8H JK=8D'
    >>> str(make_meld(parse_cards("JK 5H JK"), REMIK)), str(make_meld(parse_cards("KH AH JK"), REMIK))
    ('JK=4H 5H JK=6H', 'JK=QH KH AH')
    >>> try:
    ...     make_meld(parse_cards("8S 8H JK"), REMIK)
    ... except InvalidMeldError as error:
    ...     print(error.reason, [str(m) for m in error.readings])
    MeldReason.AMBIGUOUS ['8S 8H JK=8D', '8S 8H JK=8C']
    >>> make_meld(parse_cards("5H 7H 8S"), REMIK)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: cards 5H 7H 8S mix suits and ranks: neither a run nor a set
    """
    rules = _check_rules(rules)
    given = as_cards(cards)
    naturals = _naturals_laid(given, rules)
    declared = None if jokers is None else _declared(given, len(given) - len(naturals), jokers)
    readings = _readings(naturals, len(given), rules)
    if not readings:
        raise _refusal(given, naturals, rules)
    return _choose(given, readings, declared)


def _naturals_laid(given: tuple[Card, ...], rules: Ruleset) -> list[Card]:
    """The real cards of a meld as laid, once its size and jokers pass the rules (R-M1, J1)."""
    if len(given) < 3:
        text = format_cards(given)
        raise _bad(MeldReason.TOO_SHORT, given, f"meld {text or '(no cards)'} has fewer than 3 cards")
    naturals = [c for c in given if not c.is_joker]
    if len(naturals) < len(given) and rules.jokers == 0:
        msg = f"meld {format_cards(given)} holds a joker; the {rules.name} rules have none"
        raise _bad(MeldReason.JOKERS_NOT_ALLOWED, given, msg)
    if not naturals:
        raise _bad(
            MeldReason.NO_NATURAL, given, f"meld {format_cards(given)} holds only jokers; a meld needs a real card"
        )
    return naturals


def _declared(given: tuple[Card, ...], joker_count: int, jokers: Iterable[Card]) -> list[Card]:
    """The cards the jokers are declared to stand for: one real card per joker (R-J2)."""
    declared = list(as_cards(jokers, "jokers"))
    if len(declared) != joker_count or any(c.is_joker for c in declared):
        shown = format_cards(declared) or "none"
        msg = f"meld {format_cards(given)} has {_jokers(joker_count)} but declares {shown}"
        raise _bad(MeldReason.JOKER_MISMATCH, given, msg)
    return declared


def _refusal(given: tuple[Card, ...], naturals: Sequence[Card], rules: Ruleset) -> InvalidMeldError:
    """Why cards with no reading form no meld."""
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    if len(ranks) > 1 and len(suits) > 1:
        text = format_cards(given)
        if len(ranks) == len(naturals):
            return _bad(MeldReason.MIXED_SUITS, given, f"cards {text} mix suits and ranks: neither a run nor a set")
        return _bad(MeldReason.MIXED_RANKS, given, f"cards {text} mix ranks and suits: neither a set nor a run")
    return _diagnose(given, naturals, rules)


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
