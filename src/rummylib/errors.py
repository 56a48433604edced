"""The exceptions rummylib raises.

Every error derives from :class:`RummyError`; every concrete error also derives
from :class:`ValueError`, carries a machine-readable ``reason`` (an enum member a
program can switch on) and the fields that explain it, and has a one-sentence
message naming the offending value.

The kinds follow python-chess's split:

- syntax: text that is not notation (:class:`CardParseError` for cards,
  :class:`ActionParseError` for actions);
- illegal: an action the state does not allow (:class:`IllegalActionError`);
- arguments: a bad argument to a function (:class:`ArgumentError`, or
  :class:`RulesetError` when the argument is a ruleset or a count the ruleset
  forbids);
- values: an impossible meld, collection of cards or document
  (:class:`InvalidMeldError`, :class:`InvalidCardsError`, :class:`InvalidStateError`);
- simulations: impossible bots or simulation settings (:class:`SimulationError`).

:class:`ActionParseError` derives from :class:`InvalidStateError`, so code that
caught the latter for bad action text still catches it.
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Any, Final

from rummylib._reasons import (
    ArgumentReason,
    CardsReason,
    IllegalActionReason,
    MeldReason,
    OpeningReason,
    ParseReason,
    RulesetReason,
    SimulationReason,
    StateReason,
)

if TYPE_CHECKING:  # for annotations only: cards and melds build on this module
    from rummylib.cards import Card
    from rummylib.melds import Meld

__all__ = [
    "ActionParseError",
    "ArgumentError",
    "ArgumentReason",
    "CardParseError",
    "CardsReason",
    "IllegalActionError",
    "IllegalActionReason",
    "InvalidCardsError",
    "InvalidMeldError",
    "InvalidOpeningError",
    "InvalidStateError",
    "MeldReason",
    "OpeningReason",
    "ParseReason",
    "RulesetError",
    "RulesetMismatchError",
    "RulesetReason",
    "RummyError",
    "SimulationError",
    "SimulationReason",
    "StateReason",
]

#: Longest message any rummylib error carries (longer ones are cut, ending in "...").
MAX_MESSAGE: Final = 500
#: Longest rendering of one value inside a message.
MAX_VALUE_TEXT: Final = 120
#: Integers with more bits than this are named by their size, not their digits.
_MAX_INT_BITS_SHOWN: Final = 256

_REPR = reprlib.Repr()
_REPR.maxstring = MAX_VALUE_TEXT
_REPR.maxother = MAX_VALUE_TEXT
_REPR.maxlong = 80
for _name in ("maxlist", "maxtuple", "maxset", "maxfrozenset", "maxdeque", "maxarray", "maxdict"):
    setattr(_REPR, _name, 8)
_REPR.maxlevel = 3


def shorten(value: object, limit: int = MAX_VALUE_TEXT) -> str:
    """A bounded ``repr`` of ``value`` for an error message.

    Work stays bounded however large the value: a long string or sequence
    is cut before it is rendered, a huge integer is named by its size.

    >>> shorten("x" * 1000)[:12], len(shorten("x" * 1000)) <= MAX_VALUE_TEXT
    ("'xxxxxxxxxxx", True)
    >>> shorten(10**5000)
    'an int of 16610 bits'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _MAX_INT_BITS_SHOWN:
        return f"an int of {value.bit_length()} bits"
    try:
        text = _REPR.repr(value)
    except Exception:  # a hostile __repr__, or an int past the digit limit inside a container
        text = f"a {type(value).__name__} value"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bounded(message: str) -> str:
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


class RummyError(Exception):
    """Root of every error rummylib raises on purpose.

    Its message is at most :data:`MAX_MESSAGE` characters (longer ones are cut)
    and always encodes as UTF-8 (lone surrogates are escaped).
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (_bounded(args[0]),)
        super().__init__(*args)


class _FieldError(RummyError, ValueError):
    """Base of the concrete errors: a ``reason``, the fields a class declares, a bounded message.

    A subclass declares its fields as annotations and its constructor's
    signature, and passes them to :meth:`_store`; :meth:`_message` may put
    a field in front of the detail (a document path, a ruleset field).
    """

    def _store(self, detail: str, **fields: object) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        RummyError.__init__(self, self._message(detail))

    def _message(self, detail: str) -> str:
        return detail


_PARSE_EXPLAINED: Final = {
    ParseReason.EMPTY: "no cards given",
    ParseReason.BAD_RANK: "unknown rank",
    ParseReason.BAD_SUIT: "unknown suit",
    ParseReason.BAD_TOKEN: "not a card",
    ParseReason.WRONG_TYPE: "expected a string",
}


class CardParseError(_FieldError):
    """A card token cannot be parsed.

    Attributes:
        reason: why the token was refused.
        token: the offending token (or the whole text when it is empty).
        position: zero-based index of the token in the text, or ``None``.
    """

    reason: ParseReason
    token: object
    position: int | None

    def __init__(self, reason: ParseReason, token: object, position: int | None = None) -> None:
        self._store(_PARSE_EXPLAINED[reason], reason=reason, token=token, position=position)

    def _message(self, detail: str) -> str:
        where = "" if self.position is None else f" at position {self.position}"
        return f"cannot parse card {shorten(self.token)}{where}: {detail}"


class InvalidCardsError(_FieldError):
    """A collection of cards is not acceptable where it was given.

    Attributes:
        reason: why it was refused.
        value: the offending value (an object that is not a card, the cards
            missing, or the cards beyond the deck).
    """

    reason: CardsReason
    value: object

    def __init__(self, reason: CardsReason, value: object, detail: str) -> None:
        self._store(detail, reason=reason, value=value)


class RulesetError(_FieldError):
    """A ruleset is impossible, or no preset has the given name.

    Attributes:
        reason: why it was refused.
        field: the name of the offending field (or ``"name"`` for a lookup).
        value: the offending value.
    """

    reason: RulesetReason
    field: str
    value: object

    def __init__(self, reason: RulesetReason, field: str, value: object, detail: str) -> None:
        self._store(detail, reason=reason, field=field, value=value)

    def _message(self, detail: str) -> str:
        return f"ruleset field {self.field!r}={shorten(self.value)}: {detail}"


class InvalidMeldError(_FieldError):
    """Cards do not form a valid meld under the ruleset.

    Attributes:
        reason: which rule is broken.
        cards: the cards concerned, as given.
        readings: with reason ``AMBIGUOUS``, every valid meld the cards can
            form (each joker declaration, see :func:`~rummylib.meld_readings`);
            empty otherwise.
    """

    reason: MeldReason
    cards: Any
    readings: tuple[Meld, ...]

    def __init__(self, reason: MeldReason, cards: Any, detail: str, readings: tuple[Meld, ...] = ()) -> None:
        self._store(detail, reason=reason, cards=cards, readings=readings)


class InvalidOpeningError(_FieldError):
    """Valid melds that are not a legal opening (R-O2, O3).

    Attributes:
        reason: an :class:`OpeningReason`.
        have: the points the melds are worth.
        need: the points the rules need.
    """

    reason: OpeningReason
    have: int
    need: int

    def __init__(self, reason: OpeningReason, have: int, need: int, detail: str) -> None:
        self._store(detail, reason=reason, have=have, need=need)


class IllegalActionError(_FieldError):
    """An action is not legal in the given state.

    The optional fields are ``None`` unless the reason sets them.

    Attributes:
        reason: why it is illegal.
        action: the action refused.
        card: the card concerned (``CARD_NOT_IN_HAND``, ``CANNOT_USE_DISCARD``,
            ``CANNOT_DISCARD_TAKEN_CARD``).
        meld_reason: why the meld or the change to it is invalid
            (``INVALID_MELD``, ``DOES_NOT_FIT``, ``NO_SUCH_JOKER``).
        seat: the seat named out of turn, as given (``NOT_YOUR_TURN``).
        limit: the most new melds a turn allows (``MELD_LIMIT``).
        have: the points the opening is worth (``OPENING_TOO_LOW``).
        need: the points an opening needs (``OPENING_TOO_LOW``).
        index: the action's position in a replayed record (set by ``replay``).
    """

    reason: IllegalActionReason
    action: object
    card: Card | None
    meld_reason: MeldReason | None
    seat: object
    limit: int | None
    have: int | None
    need: int | None
    index: int | None

    def __init__(
        self,
        reason: IllegalActionReason,
        action: object,
        detail: str,
        *,
        card: Card | None = None,
        meld_reason: MeldReason | None = None,
        seat: object = None,
        limit: int | None = None,
        have: int | None = None,
        need: int | None = None,
        index: int | None = None,
    ) -> None:
        self._store(
            detail,
            reason=reason,
            action=action,
            card=card,
            meld_reason=meld_reason,
            seat=seat,
            limit=limit,
            have=have,
            need=need,
            index=index,
        )

    @property
    def fields(self) -> dict[str, object]:
        """The optional fields that are set (not ``None``), by name."""
        named = {
            "card": self.card,
            "meld_reason": self.meld_reason,
            "seat": self.seat,
            "limit": self.limit,
            "have": self.have,
            "need": self.need,
            "index": self.index,
        }
        return {key: value for key, value in named.items() if value is not None}


class InvalidStateError(_FieldError):
    """A state or document is forged, corrupt or inconsistent.

    Attributes:
        reason: what is wrong.
        path: where in the document, such as ``"round.hands[2][5]"``.
    """

    reason: StateReason
    path: str

    def __init__(self, reason: StateReason, path: str, detail: str) -> None:
        self._store(detail, reason=reason, path=path)

    def _message(self, detail: str) -> str:
        return f"{self.path}: {detail}" if self.path else detail


class ActionParseError(InvalidStateError):
    """Action text does not follow the notation (``"meld 7H 8H 9H"``, ``"discard KS"``).

    The syntax error of action text, beside :class:`CardParseError` for cards.
    It derives from :class:`InvalidStateError` (so ``except InvalidStateError``
    still catches it) and reads its ``reason`` from :class:`StateReason`:
    ``BAD_SYNTAX``, ``BAD_CARD``, ``BAD_MELD``, ``TOO_LARGE`` or ``WRONG_TYPE``.

    Attributes:
        reason: what is wrong.
        path: where in a document the text stood (``""`` for bare text).
    """


class RulesetMismatchError(InvalidStateError):
    """A document refers to a ruleset this program does not know, or by a fingerprint that does not match.

    Attributes:
        reason: :attr:`StateReason.UNKNOWN_RULESET` or :attr:`StateReason.RULESET_MISMATCH`.
        path: where in the document (or ``line N`` of a record's text).
        name: the ruleset's name as the document gives it.
        fingerprint: the fingerprint the document states (``None`` when it gives none).
        expected: the fingerprint of the ruleset known or built under that name (``None`` if none is).
    """

    name: str
    fingerprint: str | None
    expected: str | None

    def __init__(
        self, reason: StateReason, path: str, detail: str, *, name: str, fingerprint: str | None, expected: str | None
    ) -> None:
        self._store(detail, reason=reason, path=path, name=name, fingerprint=fingerprint, expected=expected)


class ArgumentError(_FieldError):
    """A function was given an impossible argument (a seat, a name, a phase, a score, ...).

    Documents and states have :class:`InvalidStateError`, rulesets
    :class:`RulesetError`; this is the error of the other arguments to
    rummylib's functions.

    Attributes:
        reason: what is wrong.
        argument: the name of the offending argument, such as ``"seat"``.
        value: the offending value.
    """

    reason: ArgumentReason
    argument: str
    value: object

    def __init__(self, reason: ArgumentReason, argument: str, value: object, detail: str) -> None:
        self._store(detail, reason=reason, argument=argument, value=value)


class SimulationError(_FieldError):
    """A bot or a simulation was given impossible arguments.

    Attributes:
        reason: what is wrong.
        value: the offending value.
    """

    reason: SimulationReason
    value: object

    def __init__(self, reason: SimulationReason, value: object, detail: str) -> None:
        self._store(detail, reason=reason, value=value)
