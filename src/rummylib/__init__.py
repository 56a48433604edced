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
from rummylib.engine import (
    GameState,
    Phase,
    PlayerView,
    RoundState,
    TableMeld,
    TurnState,
    apply,
    check,
    choose_first_dealer,
    is_legal,
    legal_actions,
    new_game,
    start_round_from,
    view,
)
from rummylib.errors import IllegalActionReason

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
    "GameState",
    "IllegalActionReason",
    "JOKER",
    "Phase",
    "PlayerView",
    "REMIK",
    "RULESETS",
    "RoundState",
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
    "TableMeld",
    "TakeDiscard",
    "TieRule",
    "TurnState",
    "__version__",
    "apply",
    "card_penalty",
    "check",
    "choose_first_dealer",
    "deck",
    "format_action",
    "format_meld",
    "from_dict",
    "from_json",
    "get_ruleset",
    "hand_penalty",
    "is_clean_run",
    "is_game_over",
    "is_legal",
    "lay_off",
    "legal_actions",
    "make_meld",
    "meld_points",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_meld",
    "score_round",
    "standings",
    "start_round_from",
    "swap_joker",
    "to_dict",
    "to_json",
    "validate_meld",
    "view",
]
