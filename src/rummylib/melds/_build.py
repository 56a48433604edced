"""Building melds from cards as laid: every reading, the rule each refusal breaks."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from rummylib.cards import (
    _SUITS,
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
    _joker_rule_error,
    _jokers,
    card_at_position,
    format_meld,
)
from rummylib.rules import Ruleset, _check_rules


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
