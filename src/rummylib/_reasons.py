"""The reasons rummylib's errors carry, one enum per error kind (re-exported by :mod:`rummylib.errors`)."""

from __future__ import annotations

import enum

__all__ = [
    "ArgumentReason",
    "CardsReason",
    "IllegalActionReason",
    "MeldReason",
    "OpeningReason",
    "ParseReason",
    "RulesetReason",
    "SimulationReason",
    "StateReason",
]


class ParseReason(enum.Enum):
    """Why a piece of text is not a card."""

    EMPTY = "empty"
    BAD_RANK = "bad_rank"
    BAD_SUIT = "bad_suit"
    BAD_TOKEN = "bad_token"
    WRONG_TYPE = "wrong_type"


class CardsReason(enum.Enum):
    """Why a collection of cards is refused."""

    WRONG_TYPE = "wrong_type"
    NOT_ENOUGH = "not_enough"
    NOT_IN_DECK = "not_in_deck"
    BAD_COUNT = "bad_count"


class RulesetReason(enum.Enum):
    """Why a ruleset is refused."""

    BAD_VALUE = "bad_value"
    INCONSISTENT = "inconsistent"
    UNKNOWN_NAME = "unknown_name"
    WRONG_TYPE = "wrong_type"


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


class SimulationReason(enum.Enum):
    """Why a bot or a simulation refused its arguments."""

    BAD_ARGUMENT = "bad_argument"
    UNKNOWN_BOT = "unknown_bot"
    WRONG_BOT_COUNT = "wrong_bot_count"
    NO_LEGAL_ACTION = "no_legal_action"


for _reason in (
    ParseReason,
    CardsReason,
    RulesetReason,
    MeldReason,
    OpeningReason,
    StateReason,
    IllegalActionReason,
    ArgumentReason,
    SimulationReason,
):
    _reason.__module__ = "rummylib.errors"  # documented and imported as rummylib.errors.X
