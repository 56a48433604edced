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

import enum
import reprlib
from typing import TYPE_CHECKING, Any, Final

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


class ParseReason(enum.Enum):
    """Why a piece of text is not a card."""

    EMPTY = "empty"
    BAD_RANK = "bad_rank"
    BAD_SUIT = "bad_suit"
    BAD_TOKEN = "bad_token"
    WRONG_TYPE = "wrong_type"


class CardParseError(RummyError, ValueError):
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
        self.reason = reason
        self.token = token
        self.position = position
        where = "" if position is None else f" at position {position}"
        explain = {
            ParseReason.EMPTY: "no cards given",
            ParseReason.BAD_RANK: "unknown rank",
            ParseReason.BAD_SUIT: "unknown suit",
            ParseReason.BAD_TOKEN: "not a card",
            ParseReason.WRONG_TYPE: "expected a string",
        }[reason]
        msg = f"cannot parse card {shorten(token)}{where}: {explain}"
        super().__init__(msg)


class CardsReason(enum.Enum):
    """Why a collection of cards is refused."""

    WRONG_TYPE = "wrong_type"
    NOT_ENOUGH = "not_enough"
    NOT_IN_DECK = "not_in_deck"
    BAD_COUNT = "bad_count"


class InvalidCardsError(RummyError, ValueError):
    """A collection of cards is not acceptable where it was given.

    Attributes:
        reason: why it was refused.
        value: the offending value (an object that is not a card, the cards
            missing, or the cards beyond the deck).
    """

    reason: CardsReason
    value: object

    def __init__(self, reason: CardsReason, value: object, detail: str) -> None:
        self.reason = reason
        self.value = value
        super().__init__(detail)


class RulesetReason(enum.Enum):
    """Why a ruleset is refused."""

    BAD_VALUE = "bad_value"
    INCONSISTENT = "inconsistent"
    UNKNOWN_NAME = "unknown_name"
    WRONG_TYPE = "wrong_type"


class RulesetError(RummyError, ValueError):
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
        self.reason = reason
        self.field = field
        self.value = value
        msg = f"ruleset field {field!r}={shorten(value)}: {detail}"
        super().__init__(msg)


class MeldReason(enum.Enum):
    """Every way a meld (or a change to one) can be invalid."""

    WRONG_TYPE = "wrong_type"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    NO_NATURAL = "no_natural"
    MIXED_SUITS = "mixed_suits"
    MIXED_RANKS = "mixed_ranks"
    REPEATED_RANK = "repeated_rank"
    GAP = "gap"
    ACE_BOTH_ENDS = "ace_both_ends"
    WRAPS_CORNER = "wraps_corner"
    ACE_HIGH_FORBIDDEN = "ace_high_forbidden"
    GROUP_TOO_BIG = "group_too_big"
    REPEATED_SUIT = "repeated_suit"
    TOO_MANY_JOKERS = "too_many_jokers"
    ADJACENT_JOKERS = "adjacent_jokers"
    JOKERS_NOT_ALLOWED = "jokers_not_allowed"
    JOKER_MISMATCH = "joker_mismatch"
    AMBIGUOUS = "ambiguous"
    DOES_NOT_FIT = "does_not_fit"
    NO_SUCH_JOKER = "no_such_joker"
    SWAP_NOT_ALLOWED = "swap_not_allowed"
    BAD_LAYOUT = "bad_layout"


class InvalidMeldError(RummyError, ValueError):
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
        self.reason = reason
        self.cards = cards
        self.readings = readings
        super().__init__(detail)


class OpeningReason(enum.Enum):
    """Why melds laid as an opening do not make one (R-O2, O3)."""

    #: No melds at all.
    EMPTY = "empty"
    #: The melds total less than the rules need (fields ``have`` and ``need``).
    TOO_LOW = "too_low"
    #: No meld is a run without jokers (R-O2).
    NO_CLEAN_RUN = "no_clean_run"
    #: The rules have no opening (``Ruleset.opening_required`` is false).
    NO_OPENING_RULE = "no_opening_rule"


class InvalidOpeningError(RummyError, ValueError):
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
        self.reason = reason
        self.have = have
        self.need = need
        super().__init__(detail)


class IllegalActionError(RummyError, ValueError):
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
        self.reason = reason
        self.action = action
        self.card = card
        self.meld_reason = meld_reason
        self.seat = seat
        self.limit = limit
        self.have = have
        self.need = need
        self.index = index
        super().__init__(detail)

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


class InvalidStateError(RummyError, ValueError):
    """A state or document is forged, corrupt or inconsistent.

    Attributes:
        reason: what is wrong.
        path: where in the document, such as ``"round.hands[2][5]"``.
    """

    reason: StateReason
    path: str

    def __init__(self, reason: StateReason, path: str, detail: str) -> None:
        self.reason = reason
        self.path = path
        msg = f"{path}: {detail}" if path else detail
        super().__init__(msg)


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


class StateReason(enum.Enum):
    """Why a document (a state, view, record or action text) is refused.

    Carried by :class:`InvalidStateError` as its ``reason``.
    """

    #: A value has the wrong JSON type (a string where a number belongs, ...).
    WRONG_TYPE = "wrong_type"
    #: A required field is absent.
    MISSING_FIELD = "missing_field"
    #: A field the schema does not define.
    UNKNOWN_FIELD = "unknown_field"
    #: A value of the right type that is out of range or not allowed.
    BAD_VALUE = "bad_value"
    #: The ``schema`` version is not one this release reads, or the ``kind`` is wrong.
    BAD_SCHEMA = "bad_schema"
    #: The document nests deeper than the limit.
    TOO_DEEP = "too_deep"
    #: The document (or a string or number in it) is larger than the limit.
    TOO_LARGE = "too_large"
    #: Text that does not follow the notation (JSON syntax, action notation).
    BAD_SYNTAX = "bad_syntax"
    #: A card token that is not a card in canonical notation.
    BAD_CARD = "bad_card"
    #: A meld that is not valid (layout, joker declarations, ruleset).
    BAD_MELD = "bad_meld"
    #: A ruleset that is not valid.
    BAD_RULESET = "bad_ruleset"
    #: Cards created or destroyed (the deck is not exactly hands + stock + pile + table, R-C3).
    CARDS_NOT_CONSERVED = "cards_not_conserved"
    #: Fields that contradict each other (hand sizes, phase, turn, seats, totals).
    INCONSISTENT = "inconsistent"
    #: A ruleset named by reference (name and fingerprint) that is not known here.
    UNKNOWN_RULESET = "unknown_ruleset"
    #: A ruleset whose fingerprint is not the one the document states.
    RULESET_MISMATCH = "ruleset_mismatch"


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
        super().__init__(reason, path, detail)
        self.name = name
        self.fingerprint = fingerprint
        self.expected = expected


class IllegalActionReason(enum.Enum):
    """Why the engine refuses an action (carried by :class:`IllegalActionError`)."""

    #: Not an action value at all.
    WRONG_TYPE = "wrong_type"
    #: The game is over; no action is legal.
    GAME_OVER = "game_over"
    #: The seat named is not the one to act.
    NOT_YOUR_TURN = "not_your_turn"
    #: The action does not belong to this phase (draw, play, round over).
    WRONG_PHASE = "wrong_phase"
    #: A card (or the cards of a meld) is not in the player's hand.
    CARD_NOT_IN_HAND = "card_not_in_hand"
    #: No table meld has that index.
    NO_SUCH_MELD = "no_such_meld"
    #: The meld is not valid under the ruleset.
    INVALID_MELD = "invalid_meld"
    #: The card does not extend the target meld there (R-J5, T6).
    DOES_NOT_FIT = "does_not_fit"
    #: A run lay-off must say which end (and a set lay-off must not).
    BAD_END = "bad_end"
    #: No joker in the target meld stands for that card (R-J4).
    NO_SUCH_JOKER = "no_such_joker"
    #: The rules have no joker swap (``Ruleset.joker_swap`` is false; J4 is a remik rule).
    SWAP_NOT_ALLOWED = "swap_not_allowed"
    #: The discard pile is empty (R-D1).
    EMPTY_DISCARD_PILE = "empty_discard_pile"
    #: The taken discard could not be used as the rules demand (R-D2).
    CANNOT_USE_DISCARD = "cannot_use_discard"
    #: The player must open before laying melds or laying off (R-O1).
    MUST_OPEN_FIRST = "must_open_first"
    #: The player has opened already, or the rules have no opening.
    CANNOT_OPEN = "cannot_open"
    #: The opening melds total less than the rules need (R-O2; fields have/need).
    OPENING_TOO_LOW = "opening_too_low"
    #: The opening holds no run without jokers (R-O2).
    NO_CLEAN_RUN = "no_clean_run"
    #: The opening of a player who took the discard must contain that card (R-D2).
    OPENING_WITHOUT_DISCARD = "opening_without_discard"
    #: The rules allow no more new melds this turn (R-T5).
    MELD_LIMIT = "meld_limit"
    #: The player must keep a card for the final discard (R-T3, E1).
    MUST_KEEP_CARD = "must_keep_card"
    #: The card taken from the pile may not be discarded this turn (R-T7).
    CANNOT_DISCARD_TAKEN_CARD = "cannot_discard_taken_card"
    #: The taken discard has not gone into a new meld this turn (R-D2).
    TAKEN_CARD_NOT_MELDED = "taken_card_not_melded"
    #: A freed joker has not gone into a new meld this turn (R-J4).
    FREED_JOKER_NOT_MELDED = "freed_joker_not_melded"
    #: A player who took the discard before opening must go out this turn (R-D2).
    MUST_GO_OUT = "must_go_out"
    #: After this action the turn could no longer end legally (an obligation
    #: of R-D2/J4/T7 could not be met).
    CANNOT_FINISH_TURN = "cannot_finish_turn"


class ArgumentReason(enum.Enum):
    """Why a function refused an argument (carried by :class:`ArgumentError`)."""

    #: The argument has the wrong type (a string where a seat number belongs, ...).
    WRONG_TYPE = "wrong_type"
    #: A value of the right type that is out of range or not allowed.
    BAD_VALUE = "bad_value"
    #: Arguments that contradict each other (one value per seat, a winner who is not a seat, ...).
    INCONSISTENT = "inconsistent"


class ArgumentError(RummyError, ValueError):
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
        self.reason = reason
        self.argument = argument
        self.value = value
        super().__init__(detail)


class SimulationReason(enum.Enum):
    """Why a bot or a simulation refused its arguments."""

    BAD_ARGUMENT = "bad_argument"
    UNKNOWN_BOT = "unknown_bot"
    WRONG_BOT_COUNT = "wrong_bot_count"
    NO_LEGAL_ACTION = "no_legal_action"


class SimulationError(RummyError, ValueError):
    """A bot or a simulation was given impossible arguments.

    Attributes:
        reason: what is wrong.
        value: the offending value.
    """

    reason: SimulationReason
    value: object

    def __init__(self, reason: SimulationReason, value: object, detail: str) -> None:
        self.reason = reason
        self.value = value
        super().__init__(detail)
