"""Changing a meld on the table: lay-offs and joker swaps (R-J4, J5, T6)."""

from __future__ import annotations

import attrs

from rummylib._card import SUITS, natural
from rummylib.cards import JOKER, Card
from rummylib.errors import (
    InvalidMeldError,
    MeldReason,
)
from rummylib.melds._types import (
    ACE_HIGH,
    End,
    Group,
    Meld,
    Run,
    _bad,
    _check_meld,
    _joker_rule_error,
    card_at_position,
    format_meld,
    validate_meld,
)
from rummylib.rules import Ruleset, _check_rules

from .._guards import is_instance


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
    missing = [s for s in SUITS if s not in meld.suits]
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

    >>> from rummylib import JOKER, REMIK, End, lay_off, make_meld, parse_cards
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
    if joker_as is not None and (not is_instance(joker_as, Card) or joker_as.is_joker or not card.is_joker):
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

    >>> from rummylib import REMIK, make_meld, parse_cards, swap_joker
    >>> run = make_meld(parse_cards("5H JK 7H"), REMIK)
    >>> new, joker = swap_joker(run, parse_cards("6H")[0], REMIK)
    >>> str(new), str(joker)
    ('5H 6H 7H', 'JK')
    """
    meld = _check_meld(meld)
    rules = _check_rules(rules)
    if not is_instance(card, Card) or card.is_joker:
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
