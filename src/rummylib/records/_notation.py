"""Action notation: a short, human-readable line for every action.

======================================  ==============================================
action                                  notation
======================================  ==============================================
``DrawStock()``                         ``draw``
``TakeDiscard()``                       ``take``
``Open((run, group))``                  ``open 9S 10S JS | 8H 8D JK=8C``
``LayMeld(meld)``                       ``meld 5H 6H JK=7H``
``LayOff(2, card, End.HIGH)``           ``layoff #2 JK high`` (``low``/``high``, or no end)
``SwapJoker(1, card)``                  ``swap #1 7H``
``Discard(card)``                       ``discard KS``
``NextRound()``                         ``next``
======================================  ==============================================

The first word is the action kind's one name, also its ``type`` in JSON.
``str(action)`` is its notation, as ``str(card)`` and ``str(meld)`` are theirs.
In ``layoff #2 JK high`` the last word is the end of the run the card goes
to: ``low`` below its lowest card, ``high`` above its highest (a group has no
end, so the word is left out).

A meld is written slot by slot in table order (a run lowest first, a group in
suit order S H D C), each joker with the card it stands for (``JK=7H``, R-J1).
``#2`` is the index of the meld in the table's order of laying. Formatting is
canonical and :func:`parse_action` reads it back exactly; parsing also accepts
any card spelling :func:`~rummylib.parse_card` does, any letter case, a target
without ``#``, a group in any order, and, when a ruleset is given, jokers left
undeclared where the meld makes them obvious.
"""

from __future__ import annotations

from typing import Final, NoReturn

from rummylib.actions import (
    MAX_OPEN_MELDS,
    Action,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    NextRound,
    Open,
    SwapJoker,
    TakeDiscard,
)
from rummylib.cards import JOKER, Card, parse_card
from rummylib.errors import (
    ActionParseError,
    CardParseError,
    InvalidMeldError,
    InvalidStateError,
    RulesetError,
    StateReason,
)
from rummylib.melds import End, Meld, parse_meld
from rummylib.melds._types import split_slot
from rummylib.records._doc import short
from rummylib.records._values import (
    MAX_TARGET,
    build_meld,
    check_action,
    check_meld,
)
from rummylib.rules import Ruleset

__all__ = ["format_action", "parse_action"]

#: Longest action text accepted.
MAX_ACTION_TEXT: Final = 4096

_PLAIN: Final[dict[str, Action]] = {"draw": DrawStock(), "take": TakeDiscard(), "next": NextRound()}


def format_action(action: Action) -> str:
    """The notation of ``action``: ``draw``, ``discard KS``, ``meld 5H 6H JK=7H``, ...

    ``str(action)`` is the same text; this function also refuses a malformed
    action instead of printing it.

    Raises:
        InvalidStateError: ``action`` is not a well-formed action (reason
            ``WRONG_TYPE`` or ``BAD_VALUE``).

    >>> from rummylib import LayOff, Open, End, REMIK, JOKER, make_meld, parse_cards
    >>> run = make_meld(parse_cards("9S 10S JS"), REMIK)
    >>> group = make_meld(parse_cards("8H 8D JK"), REMIK, jokers=parse_cards("8C"))
    >>> format_action(Open((run, group)))
    'open 9S 10S JS | 8H 8D JK=8C'
    >>> format_action(LayOff(2, JOKER, End.HIGH))
    'layoff #2 JK high'
    """
    return str(check_action(action))


def _fail(reason: StateReason, path: str, detail: str) -> NoReturn:
    raise ActionParseError(reason, path, detail)


def _card(token: str, path: str, position: int) -> Card:
    try:
        return parse_card(token)
    except CardParseError as exc:
        _fail(StateReason.BAD_CARD, path, f"token {position} {short(token)}: {exc}")


def _target(token: str, path: str) -> int:
    digits = token.removeprefix("#")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 4 or int(digits) > MAX_TARGET:
        _fail(StateReason.BAD_SYNTAX, path, f"{short(token)} is not a meld index such as #0 or #3")
    return int(digits)


def _meld(text: str, rules: Ruleset | None, path: str) -> Meld:
    tokens = text.split()
    slots: list[tuple[Card, Card]] = []
    undeclared = False
    for i, token in enumerate(tokens):
        head, tail = split_slot(token)
        card = _card(head, path, i)
        if tail is not None:
            if card is not JOKER:
                _fail(StateReason.BAD_SYNTAX, path, f"{short(token)}: only a joker declares a card (JK=7H)")
            stands = _card(tail, path, i)
            if stands is JOKER:
                _fail(StateReason.BAD_MELD, path, f"{short(token)}: a joker stands for a real card")
            slots.append((JOKER, stands))
        else:
            undeclared = undeclared or card is JOKER
            slots.append((card, card))
    if undeclared:
        if rules is None:
            _fail(StateReason.BAD_MELD, path, f"{short(text)}: declare each joker (JK=7H) or give the ruleset")
        try:
            return parse_meld(text, rules)
        except (CardParseError, InvalidMeldError, RulesetError) as exc:
            _fail(StateReason.BAD_MELD, path, f"{short(text)}: {exc}")
    if len(slots) > 1 and len({s.rank for _, s in slots}) == 1:  # a group: any order will do
        slots.sort(key=lambda slot: slot[1])
    try:
        meld = build_meld(slots, None, path)
        if rules is not None:
            check_meld(meld, rules, path)
    except InvalidStateError as exc:  # the meld's layout or rules: a syntax error of this text
        _fail(exc.reason, path, str(exc).removeprefix(f"{path}: ") if path else str(exc))
    return meld


def read_action(text: object, rules: Ruleset | None, path: str) -> Action:
    """:func:`parse_action` with the path to report errors at."""
    if not isinstance(text, str):
        _fail(StateReason.WRONG_TYPE, path, f"action notation must be a string, not {short(text)}")
    if len(text) > MAX_ACTION_TEXT:
        _fail(StateReason.TOO_LARGE, path, f"action text is longer than {MAX_ACTION_TEXT} characters")
    if rules is not None and not isinstance(rules, Ruleset):
        _fail(StateReason.WRONG_TYPE, path, f"rules must be a Ruleset, not {short(rules)}")
    head = text.split(maxsplit=1)
    if not head:
        _fail(StateReason.BAD_SYNTAX, path, "empty action text")
    word, rest = head[0].lower(), (head[1] if len(head) > 1 else "")
    args = rest.split()
    if word in _PLAIN:
        if args:
            _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: {word!r} takes nothing after it")
        return _PLAIN[word]
    if word == "discard":
        if len(args) != 1:
            _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: write 'discard' and one card, as in 'discard KS'")
        return Discard(_card(args[0], path, 1))
    if word in ("layoff", "swap"):
        wanted = (2, 3) if word == "layoff" else (2,)
        if len(args) not in wanted:
            example = "layoff #2 7H high" if word == "layoff" else "swap #1 7H"
            _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: write it as in {example!r}")
        target = _target(args[0], path)
        card = _card(args[1], path, 2)
        if word == "swap":
            if card is JOKER:
                _fail(StateReason.BAD_CARD, path, f"{short(text)}: a swap puts a real card in the joker's place")
            return SwapJoker(target, card)
        end: End | None = None
        if len(args) == 3:
            side = args[2].lower()
            if side not in ("low", "high"):
                _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: the end is 'low' or 'high', not {args[2]!r}")
            end = End(side)
        return LayOff(target, card, end)
    if word == "meld":
        if not args:
            _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: write the meld's cards after 'meld'")
        return LayMeld(_meld(rest, rules, path))
    if word == "open":
        parts = rest.split("|")
        if len(parts) > MAX_OPEN_MELDS or not all(p.strip() for p in parts):
            _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: write 1 to {MAX_OPEN_MELDS} melds separated by '|'")
        return Open(_meld(part, rules, path) for part in parts)
    known = "draw, take, open, meld, layoff, swap, discard, next"
    _fail(StateReason.BAD_SYNTAX, path, f"{short(text)}: unknown action {word!r} (expected one of {known})")
    return None


def parse_action(text: str, rules: Ruleset | None = None) -> Action:
    """Read the notation of :func:`format_action` back into an action.

    Every joker in a meld must declare the card it stands for (``JK=7H``),
    unless ``rules`` is given and the meld makes it obvious (R-J1). With
    ``rules``, melds are also checked against them (R-J2, J3, M4); without,
    only their layout is.

    Raises:
        ActionParseError: the text is not an action (reason ``BAD_SYNTAX``,
            ``BAD_CARD``, ``BAD_MELD``, ``TOO_LARGE`` or ``WRONG_TYPE``); it
            derives from :class:`~rummylib.InvalidStateError`.

    >>> parse_action("layoff #2 JK high")
    LayOff(target=2, card=Card('JK'), end=<End.HIGH: 'high'>)
    >>> from rummylib import REMIK
    >>> print(parse_action("meld 5h 6h jk", REMIK).meld)
    5H 6H JK=7H
    >>> parse_action("discard 7X")
    Traceback (most recent call last):
    ...
    rummylib.errors.ActionParseError: token 1 '7X': cannot parse card '7X': unknown suit
    """
    return read_action(text, rules, "")
