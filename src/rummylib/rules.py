"""Rulesets: every difference between the games, as data.

A :class:`Ruleset` is a frozen parameter object validated when it is built.
The presets :data:`REMIK` and :data:`STRAIGHT` are instances; a house variant is
``attrs.evolve(REMIK, jokers=6, joker_penalty=50)``. Code never asks "is this
remik?"; it asks a field.

>>> import attrs
>>> from rummylib import REMIK, get_ruleset
>>> house = attrs.evolve(REMIK, jokers=6, joker_penalty=50)
>>> house.jokers, get_ruleset("straight").ace_high
(6, False)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, cast

import attrs

from rummylib.errors import RulesetError, RulesetReason

__all__ = [
    "REMIK",
    "RULESETS",
    "STRAIGHT",
    "DiscardRule",
    "RestockRule",
    "Ruleset",
    "Scoring",
    "TieRule",
    "get_ruleset",
]


class DiscardRule(enum.Enum):
    """When the top discard may be taken instead of drawing from the stock."""

    #: Any time (Straight Rummy, R-T4).
    FREE = "free"
    #: Remik (R-D2), only into a new meld laid this turn; before opening only
    #: to open and go out on that same turn.
    NEW_MELD = "new_meld"


class RestockRule(enum.Enum):
    """What happens when a player must draw from an empty stock."""

    #: Remik (R-D4). The top discard stays; the rest is shuffled into a new stock.
    RESHUFFLE_KEEP_TOP = "reshuffle_keep_top"
    #: Straight (R-D6). The whole pile is turned over unshuffled, first discard on top.
    TURN_OVER = "turn_over"


class Scoring(enum.Enum):
    """Who scores at the end of a round, and which direction wins."""

    #: Remik (R-S1, S2). The others add their hand penalties; lowest total wins.
    PENALTY = "penalty"
    #: Straight (R-S3, S4). The player who went out collects the others' hands; highest wins.
    WINNER_COLLECTS = "winner_collects"


class TieRule(enum.Enum):
    """What happens when several players share the winning total (R-S2, S4)."""

    SHARE = "share"
    PLAY_ON = "play_on"


#: Most seats any ruleset may allow (a document's seat arrays are bounded by it too).
MAX_PLAYERS: Final = 64
#: Most decks and jokers a ruleset may shuffle together.
MAX_DECKS: Final = 4
MAX_JOKERS: Final = 16
#: Longest ruleset name.
MAX_NAME: Final = 64
#: Largest value of any other integer field (points, penalties, limits).
MAX_FIELD: Final = 10**9


def _check_rules(rules: object) -> Ruleset:
    """``rules`` if it is a :class:`Ruleset`; the one check every module makes of a ``rules`` argument."""
    if not isinstance(rules, Ruleset):
        msg = f"expected a Ruleset, not {type(rules).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "rules", rules, msg)
    return rules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hand_sizes(value: object) -> tuple[tuple[int, int], ...]:
    """Hand sizes by player count, from a mapping or (count, size) pairs; ints only."""
    msg = "must map each player count (an int) to a hand size (an int), e.g. {2: 10, 3: 7}"
    if isinstance(value, Mapping):
        items: list[object] = list(cast(Mapping[object, object], value).items())
    elif isinstance(value, (tuple, list)):
        items = list(value)
    else:
        raise RulesetError(RulesetReason.WRONG_TYPE, "hand_sizes", value, msg)
    if len(items) > MAX_PLAYERS:
        msg = f"gives {len(items)} hand sizes; a ruleset seats at most {MAX_PLAYERS} players"
        raise RulesetError(RulesetReason.BAD_VALUE, "hand_sizes", value, msg)
    pairs: list[tuple[int, int]] = []
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or not all(_is_int(x) for x in item):
            raise RulesetError(RulesetReason.WRONG_TYPE, "hand_sizes", value, msg)
        pairs.append((item[0], item[1]))
    return tuple(sorted(pairs))


_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _int(minimum: int, maximum: int = MAX_FIELD) -> _Validator:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            msg = "must be an int"
            raise RulesetError(RulesetReason.WRONG_TYPE, attribute.name, value, msg)
        if value < minimum:
            msg = f"must be at least {minimum}"
            raise RulesetError(RulesetReason.BAD_VALUE, attribute.name, value, msg)
        if value > maximum:
            msg = f"must be at most {maximum}"
            raise RulesetError(RulesetReason.BAD_VALUE, attribute.name, value, msg)

    return check


def _opt_int(minimum: int, maximum: int = MAX_FIELD) -> _Validator:
    inner = _int(minimum, maximum)

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None:
            inner(instance, attribute, value)

    return check


def _of_type(kind: type) -> _Validator:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            msg = f"must be a {kind.__name__}"
            raise RulesetError(RulesetReason.WRONG_TYPE, attribute.name, value, msg)

    return check


@attrs.frozen
class Ruleset:
    """Every knob of a rummy game. Build variants with :func:`attrs.evolve`.

    Each field names the rule it parameterises (see :ref:`the rules <rules>`).

    Raises:
        RulesetError: a field has the wrong type or an impossible value, or
            fields contradict each other (the error names the field).

    >>> import attrs
    >>> attrs.evolve(REMIK, opening_points=-1)
    Traceback (most recent call last):
    ...
    rummylib.errors.RulesetError: ruleset field 'opening_points'=-1: must be at least 0
    """

    #: Short name, used by :func:`get_ruleset` and in records.
    name: str = attrs.field(validator=_of_type(str))
    # --- cards (C1) -------------------------------------------------------------------
    #: How many 52-card decks are shuffled together (every natural appears this often).
    decks: int = attrs.field(validator=_int(1, MAX_DECKS))
    #: How many jokers the deck holds (R-C1; remik tables play 4 or 6).
    jokers: int = attrs.field(validator=_int(0, MAX_JOKERS))
    # --- melds (M, J) -----------------------------------------------------------------
    #: Whether the ace may sit above the king in a run, Q-K-A (R-M3 yes, M4 no).
    ace_high: bool = attrs.field(validator=_of_type(bool))
    #: Most jokers in a set (a :class:`~rummylib.Group`) of three (1 in remik, R-J2).
    group3_max_jokers: int = attrs.field(default=1, validator=_int(0))
    #: Most jokers in a set of four (2 in remik, R-J2).
    group4_max_jokers: int = attrs.field(default=2, validator=_int(0))
    #: Whether two jokers may sit side by side in a run (no in remik, R-J3).
    adjacent_jokers: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Whether an opened player may swap a joker off the table (R-J4).
    joker_swap: bool = attrs.field(default=True, validator=_of_type(bool))
    # --- opening (O) ------------------------------------------------------------------
    #: Whether players must open before laying melds (R-O1); if not, everyone
    #: counts as opened from the start (straight rummy).
    opening_required: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Points the opening melds must total (51 in remik, R-O2).
    opening_points: int = attrs.field(default=0, validator=_int(0))
    #: Whether the opening needs a run without jokers (R-O2).
    opening_clean_run: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Whether a player may lay off before opening (no in remik, R-O1).
    lay_off_before_opening: bool = attrs.field(default=False, validator=_of_type(bool))
    # --- the turn (T, D) --------------------------------------------------------------
    #: Most new melds a player may lay in one turn, or ``None`` for any number (1 in Straight Rummy, R-T5).
    melds_per_turn: int | None = attrs.field(default=None, validator=_opt_int(1))
    #: When the top discard may be taken (R-D2, T4).
    discard_rule: DiscardRule = attrs.field(default=DiscardRule.FREE, validator=_of_type(DiscardRule))
    #: Whether a card taken from the pile may be discarded on the same turn (no in Straight Rummy, R-T7).
    discard_taken_card: bool = attrs.field(default=False, validator=_of_type(bool))
    #: A house variant of R-D2, under which a player who has not opened may take
    #: the discard when the opening laid this turn includes it, without having to
    #: go out (off in remik, where the taker must go out).
    take_discard_to_open: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Whether the last card must leave by a discard (R-T3/E1 yes; R-E3 no).
    must_discard_to_go_out: bool = attrs.field(default=True, validator=_of_type(bool))
    #: How an empty stock is refilled (R-D4, D6).
    restock_rule: RestockRule = attrs.field(default=RestockRule.RESHUFFLE_KEEP_TOP, validator=_of_type(RestockRule))
    #: Most refills of the stock in one round; past it the round is void (R-D7).
    restock_limit: int | None = attrs.field(default=None, validator=_opt_int(0))
    # --- deal and seats (P) -----------------------------------------------------------
    #: Fewest players the game allows (R-P2, P3).
    min_players: int = attrs.field(default=2, validator=_int(2, MAX_PLAYERS))
    #: Most players the game allows (R-P2, P3).
    max_players: int = attrs.field(default=6, validator=_int(2, MAX_PLAYERS))
    #: Cards dealt to each player, by player count (R-P2, P3).
    hand_sizes: tuple[tuple[int, int], ...] = attrs.field(default=(), converter=_hand_sizes)
    #: Whether the dealer gets one card more and skips the first draw (R-P2, T1).
    dealer_extra_card: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Whether a card is turned up to start the discard pile (R-D3 no, D5 yes).
    upcard: bool = attrs.field(default=False, validator=_of_type(bool))
    #: Whether the dealer plays first (remik) or the player to the dealer's left (R-P3).
    dealer_plays_first: bool = attrs.field(default=False, validator=_of_type(bool))
    # --- values and scoring (V, S, E) -------------------------------------------------
    #: Penalty of an ace left in hand (11 in remik, 1 in Straight Rummy; R-V1).
    ace_penalty: int = attrs.field(default=11, validator=_int(0))
    #: Penalty of a joker left in hand (30 in remik, tables also play 25 or 50; R-V1).
    joker_penalty: int = attrs.field(default=30, validator=_int(0))
    #: Who scores a round and which direction wins (R-S1..S4).
    scoring: Scoring = attrs.field(default=Scoring.PENALTY, validator=_of_type(Scoring))
    #: Multiplier for a one-turn go-out (R-E2 doubles the others' penalty; R-E4 the payout).
    rummy_multiplier: int = attrs.field(default=2, validator=_int(1))
    #: The game's end score. With PENALTY scoring the game ends after a round in which a
    #: total goes *past* it (500 in remik, R-S2); with WINNER_COLLECTS when a total
    #: *reaches* it (100 in Straight Rummy, R-S4). ``None`` means no score limit (then set ``max_rounds``).
    score_limit: int | None = attrs.field(default=None, validator=_opt_int(1))
    #: Game end after this many rounds, if set (R-S4 variant).
    max_rounds: int | None = attrs.field(default=None, validator=_opt_int(1))
    #: What a tie for the win does (R-S2 variant).
    tie_rule: TieRule = attrs.field(default=TieRule.SHARE, validator=_of_type(TieRule))

    def __attrs_post_init__(self) -> None:
        def bad(field: str, detail: str) -> RulesetError:
            return RulesetError(RulesetReason.INCONSISTENT, field, getattr(self, field), detail)

        if not self.name.strip():
            raise RulesetError(RulesetReason.BAD_VALUE, "name", self.name, "must not be blank")
        if len(self.name) > MAX_NAME or not self.name.isprintable():
            msg = f"must be at most {MAX_NAME} printable characters"
            raise RulesetError(RulesetReason.BAD_VALUE, "name", self.name, msg)
        if self.max_players < self.min_players:
            raise bad("max_players", f"is below min_players={self.min_players}")
        if self.group4_max_jokers > 2:
            raise bad("group4_max_jokers", "a set of four needs at least two real cards")
        if self.group3_max_jokers > 2:
            raise bad("group3_max_jokers", "a set of three needs at least one real card")
        sizes = dict(self.hand_sizes)
        if len(sizes) != len(self.hand_sizes):
            raise bad("hand_sizes", "names a player count twice")
        wanted = set(range(self.min_players, self.max_players + 1))  # bounded by MAX_PLAYERS
        if set(sizes) != wanted:
            span = f"{self.min_players} to {self.max_players}"
            raise bad("hand_sizes", f"must give a hand size for each player count from {span}")
        deck_size = 52 * self.decks + self.jokers
        for players, size in sizes.items():
            if size < 1:
                raise bad("hand_sizes", f"hand size {size} for {players} players is below 1")
            needed = players * size + int(self.dealer_extra_card) + int(self.upcard) + 1
            if needed > deck_size:
                msg = f"{players} players x {size} cards leave no stock in a {deck_size}-card deck"
                raise bad("hand_sizes", msg)
        if self.opening_required and not (self.opening_points or self.opening_clean_run):
            raise bad("opening_required", "an opening needs opening_points > 0 or opening_clean_run")
        if not self.opening_required and self.opening_points:
            raise bad("opening_points", "opening conditions need opening_required=True")
        if not self.opening_required and self.opening_clean_run:
            raise bad("opening_clean_run", "opening conditions need opening_required=True")
        if self.take_discard_to_open and not (self.opening_required and self.discard_rule is DiscardRule.NEW_MELD):
            raise bad("take_discard_to_open", "needs opening_required=True and discard_rule=NEW_MELD (R-D2)")
        if self.score_limit is None and self.max_rounds is None:
            raise bad("score_limit", "the game needs an end: set score_limit or max_rounds")

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player at a table of ``players`` (R-P2, P3).

        Raises:
            RulesetError: the ruleset does not allow that many players.

        >>> STRAIGHT.hand_size(2), STRAIGHT.hand_size(4), REMIK.hand_size(4)
        (10, 7, 13)
        """
        for count, size in self.hand_sizes:
            if count == players and not isinstance(players, bool):
                return size
        msg = f"{self.name} is played by {self.min_players} to {self.max_players} players"
        raise RulesetError(RulesetReason.BAD_VALUE, "players", players, msg)

    @property
    def opens_at_start(self) -> bool:
        """Whether players count as opened from the start (no opening rule)."""
        return not self.opening_required


#: Polish rummy (remik), as :ref:`the rules <rules>` describe it.
REMIK: Final = Ruleset(
    name="remik",
    decks=2,
    jokers=4,
    ace_high=True,
    group3_max_jokers=1,
    group4_max_jokers=2,
    adjacent_jokers=False,
    joker_swap=True,
    opening_required=True,
    opening_points=51,
    opening_clean_run=True,
    lay_off_before_opening=False,
    melds_per_turn=None,
    discard_rule=DiscardRule.NEW_MELD,
    discard_taken_card=False,
    take_discard_to_open=False,
    must_discard_to_go_out=True,
    restock_rule=RestockRule.RESHUFFLE_KEEP_TOP,
    restock_limit=None,
    min_players=2,
    max_players=6,
    hand_sizes=dict.fromkeys(range(2, 7), 13),
    dealer_extra_card=True,
    upcard=False,
    dealer_plays_first=True,
    ace_penalty=11,
    joker_penalty=30,
    scoring=Scoring.PENALTY,
    rummy_multiplier=2,
    score_limit=500,
    max_rounds=None,
    tie_rule=TieRule.SHARE,
)

#: Straight Rummy, as :ref:`the rules <rules>` describe it.
STRAIGHT: Final = Ruleset(
    name="straight",
    decks=1,
    jokers=0,
    ace_high=False,
    joker_swap=False,
    opening_required=False,
    opening_points=0,
    opening_clean_run=False,
    lay_off_before_opening=True,
    melds_per_turn=1,
    discard_rule=DiscardRule.FREE,
    discard_taken_card=False,
    must_discard_to_go_out=False,
    restock_rule=RestockRule.TURN_OVER,
    restock_limit=None,
    min_players=2,
    max_players=6,
    hand_sizes={2: 10, 3: 7, 4: 7, 5: 6, 6: 6},
    dealer_extra_card=False,
    upcard=True,
    dealer_plays_first=False,
    ace_penalty=1,
    joker_penalty=0,
    scoring=Scoring.WINNER_COLLECTS,
    rummy_multiplier=2,
    score_limit=100,
    max_rounds=None,
    tie_rule=TieRule.SHARE,
)

#: The presets by name.
RULESETS: Final[Mapping[str, Ruleset]] = MappingProxyType({r.name: r for r in (REMIK, STRAIGHT)})


def get_ruleset(name: str) -> Ruleset:
    """Return the preset called ``name`` (case-insensitive).

    Raises:
        RulesetError: no preset has that name.

    >>> get_ruleset("Remik") is REMIK
    True
    """
    if not isinstance(name, str):
        msg = "a ruleset name must be a string"
        raise RulesetError(RulesetReason.WRONG_TYPE, "name", name, msg)
    try:
        return RULESETS[name.strip().lower()]
    except KeyError:
        msg = f"no such preset; choose one of {', '.join(sorted(RULESETS))}"
        raise RulesetError(RulesetReason.UNKNOWN_NAME, "name", name, msg) from None
