"""rummylib: an exact rules engine for rummy.

Polish rummy (remik) and Straight Rummy exactly by the book, any house
variant built from the ruleset's knobs, meld validation and an exact solver.

>>> import rummylib as rl
>>> m = rl.make_meld(rl.parse_cards("9S 10S JS"), rl.REMIK)
>>> rl.meld_points(m, rl.REMIK)
29
"""

from rummylib._version import __version__
from rummylib.actions import (
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
from rummylib.cards import JOKER, Card, CardMultiset, Rank, Suit, deck, parse_card, parse_cards
from rummylib.errors import (
    CardParseError,
    CardsReason,
    IllegalActionError,
    InvalidCardsError,
    InvalidMeldError,
    InvalidStateError,
    MeldReason,
    ParseReason,
    RulesetError,
    RulesetReason,
    RummyError,
)
from rummylib.melds import (
    End,
    Group,
    Meld,
    Run,
    format_meld,
    is_clean_run,
    lay_off,
    make_meld,
    meld_points,
    parse_meld,
    swap_joker,
    validate_meld,
)
from rummylib.rules import (
    REMIK,
    RULESETS,
    STRAIGHT,
    DiscardRule,
    RestockRule,
    Ruleset,
    Scoring,
    TieRule,
    get_ruleset,
)
from rummylib.scoring import (
    RoundResult,
    Standings,
    card_penalty,
    hand_penalty,
    is_game_over,
    score_round,
    standings,
)

# --- solver (issue 3) ---

# --- engine (issue 4) ---

# --- records (issue 5) ---
from rummylib.records import (
    StateReason,
    format_action,
    from_dict,
    from_json,
    parse_action,
    to_dict,
    to_json,
)

__all__ = [
    "JOKER",
    "REMIK",
    "RULESETS",
    "STRAIGHT",
    "Action",
    "Card",
    "CardMultiset",
    "CardParseError",
    "CardsReason",
    "Discard",
    "DiscardRule",
    "DrawStock",
    "End",
    "Group",
    "IllegalActionError",
    "InvalidCardsError",
    "InvalidMeldError",
    "InvalidStateError",
    "LayMeld",
    "LayOff",
    "Meld",
    "MeldReason",
    "NextRound",
    "Open",
    "ParseReason",
    "Rank",
    "RestockRule",
    "RoundResult",
    "Run",
    "RulesetError",
    "RulesetReason",
    "Ruleset",
    "RummyError",
    "Scoring",
    "Standings",
    "StateReason",
    "Suit",
    "SwapJoker",
    "TakeDiscard",
    "TieRule",
    "__version__",
    "card_penalty",
    "deck",
    "format_action",
    "format_meld",
    "from_dict",
    "from_json",
    "get_ruleset",
    "hand_penalty",
    "is_clean_run",
    "is_game_over",
    "lay_off",
    "make_meld",
    "meld_points",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_meld",
    "score_round",
    "standings",
    "swap_joker",
    "to_dict",
    "to_json",
    "validate_meld",
]
