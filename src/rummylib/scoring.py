"""Penalties, round scores and game results (R-V1, S1 to S4, E2, E4).

>>> from rummylib import REMIK, STRAIGHT, hand_penalty, parse_cards
>>> hand_penalty(parse_cards("JK AH 7C"), REMIK)
48
>>> hand_penalty(parse_cards("JS QS 2H"), STRAIGHT)
22
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from rummylib._card import CARDS, as_cards
from rummylib.cards import Card
from rummylib.errors import (
    ArgumentError,
    ArgumentReason,
    CardsReason,
    InvalidCardsError,
)
from rummylib.rules import Ruleset, Scoring, TieRule, _check_rules

from ._guards import is_collection_of_items, is_instance

__all__ = [
    "RoundResult",
    "Standings",
    "card_penalty",
    "hand_penalty",
    "is_game_over",
    "score_round",
    "standings",
]


def _bad(reason: ArgumentReason, argument: str, value: object, detail: str) -> ArgumentError:
    return ArgumentError(reason, argument, value, f"{argument}: {detail}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(values: object, path: str) -> tuple[int, ...]:
    """``values`` as a tuple of ints, or :class:`ArgumentError` naming ``path``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        msg = f"expected a sequence of ints, not {values!r}"
        raise _bad(ArgumentReason.WRONG_TYPE, path, values, msg)
    items = tuple(values)
    for i, value in enumerate(items):
        if not _is_int(value):
            raise _bad(ArgumentReason.WRONG_TYPE, f"{path}[{i}]", value, f"expected an int, not {value!r}")
    return items


def _count(value: object, path: str) -> int:
    if not _is_int(value):
        raise _bad(ArgumentReason.WRONG_TYPE, path, value, f"expected an int, not {value!r}")
    assert isinstance(value, int)
    if value < 0:
        raise _bad(ArgumentReason.BAD_VALUE, path, value, f"must not be negative, got {value}")
    return value


def _penalties(values: Iterable[int]) -> tuple[int, ...]:
    return _ints(values, "penalties")


def _scores(values: Iterable[int]) -> tuple[int, ...]:
    return _ints(values, "scores")


def _totals(values: Iterable[int]) -> tuple[int, ...]:
    return _ints(values, "totals")


def _winners(values: Iterable[int]) -> tuple[int, ...]:
    return _ints(values, "winners")


def card_penalty(card: Card, rules: Ruleset) -> int:
    """What ``card`` costs left in hand at the end of a round (R-V1).

    Raises:
        InvalidCardsError: ``card`` is not a :class:`~rummylib.Card`.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK, STRAIGHT, parse_card
    >>> card_penalty(parse_card("AH"), REMIK), card_penalty(parse_card("AH"), STRAIGHT)
    (11, 1)
    """
    rules = _check_rules(rules)
    if not isinstance(card, Card):
        msg = f"card_penalty() takes a Card, not {card!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, card, msg)
    return _rank_penalty(None if card.rank is None else int(card.rank), rules)


def _rank_penalty(rank: int | None, rules: Ruleset) -> int:
    """The one rule of penalty values (R-V1): the joker's and the ace's by the rules, else face value, J-K 10."""
    if rank is None:
        return rules.joker_penalty
    return rules.ace_penalty if rank == 1 else min(rank, 10)


def _penalty_table(rules: Ruleset) -> tuple[int, ...]:
    """:func:`card_penalty` of each card index (``Card.index``: naturals 0-51, the joker 52)."""
    return tuple(_rank_penalty(None if card.rank is None else int(card.rank), rules) for card in CARDS)


def hand_penalty(cards: Iterable[Card], rules: Ruleset) -> int:
    """The sum of :func:`card_penalty` over a hand (R-V, S1, S3).

    Raises:
        InvalidCardsError: ``cards`` is not an iterable of :class:`~rummylib.Card`.

    >>> from rummylib import REMIK, STRAIGHT, parse_cards
    >>> hand_penalty(parse_cards("JK AH 7C"), REMIK), hand_penalty(parse_cards("AD 3D 8C"), STRAIGHT)
    (48, 12)
    """
    rules = _check_rules(rules)
    return sum(card_penalty(c, rules) for c in as_cards(cards, "hand"))


@attrs.frozen
class RoundResult:
    """How a round ended and what each seat scored in it.

    Attributes:
        winner: the seat that went out, or ``None`` for a void round (R-D7).
        penalties: each seat's hand value at the end (0 for the winner).
        scores: what each seat adds to its running total this round (R-S1, S3),
            after the one-turn go-out multiplier (R-E2, E4).
        rummy: whether the winner went out in one turn (R-E2, E4).
    """

    winner: int | None
    penalties: tuple[int, ...] = attrs.field(converter=_penalties)
    scores: tuple[int, ...] = attrs.field(converter=_scores)
    rummy: bool = False

    def __attrs_post_init__(self) -> None:
        n = len(self.penalties)
        if len(self.scores) != n:
            msg = f"{len(self.scores)} scores for {n} seats"
            raise _bad(ArgumentReason.INCONSISTENT, "scores", self.scores, msg)
        if self.winner is not None and not (_is_int(self.winner) and 0 <= self.winner < n):
            msg = f"winner {self.winner!r} is not a seat of a {n}-player table"
            raise _bad(ArgumentReason.BAD_VALUE, "winner", self.winner, msg)
        if not isinstance(self.rummy, bool):
            raise _bad(ArgumentReason.WRONG_TYPE, "rummy", self.rummy, f"expected a bool, not {self.rummy!r}")

    @property
    def is_void(self) -> bool:
        """Whether nobody went out (R-D7)."""
        return self.winner is None


def score_round(
    hands: Sequence[Iterable[Card]], winner: int | None, rules: Ruleset, *, rummy: bool = False
) -> RoundResult:
    """Score a finished round from the hands left (R-S1, S3, E2, E4, D7).

    Raises:
        InvalidCardsError: ``hands`` is not a sequence of hands of cards.
        ArgumentError: ``winner`` is not a seat of the table, or ``rummy``
            is not a bool.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK, STRAIGHT, parse_cards
    >>> score_round([(), parse_cards("JK AH 7C")], 0, REMIK).scores
    (0, 48)
    >>> hands = [(), parse_cards("KH 4S"), parse_cards("AD 3D 8C"), parse_cards("JS QS 2H")]
    >>> score_round(hands, 0, STRAIGHT).scores
    (48, 0, 0, 0)
    """
    rules = _check_rules(rules)
    if is_instance(hands, Card) or not is_collection_of_items(hands):
        msg = f"hands must be a sequence of hands (one per seat), not {hands!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, hands, msg)
    penalties = [hand_penalty(h, rules) for h in hands]
    n = len(penalties)
    if not isinstance(rummy, bool):
        raise _bad(ArgumentReason.WRONG_TYPE, "rummy", rummy, f"expected a bool, not {rummy!r}")
    if winner is None:
        return RoundResult(None, penalties, (0,) * n, False)
    if not _is_int(winner) or not 0 <= winner < n:
        msg = f"winner {winner!r} is not a seat of a {n}-player table"
        raise _bad(ArgumentReason.BAD_VALUE, "winner", winner, msg)
    penalties[winner] = 0
    return RoundResult(winner, penalties, round_scores(penalties, winner, rules, rummy=rummy), rummy)


def round_scores(penalties: Sequence[int], winner: int | None, rules: Ruleset, *, rummy: bool) -> tuple[int, ...]:
    """What each seat adds to its total, from the penalties left (R-S1, S3, E2, E4, D7).

    The one rule :func:`score_round` and the record reader both apply; the
    arguments are trusted (``winner`` a seat whose penalty is 0, or ``None``).
    """
    if winner is None:
        return (0,) * len(penalties)
    factor = rules.rummy_multiplier if rummy else 1
    if rules.scoring is Scoring.PENALTY:
        return tuple(p * factor for p in penalties)
    return tuple(sum(penalties) * factor if i == winner else 0 for i in range(len(penalties)))


def is_game_over(totals: Sequence[int], rounds_played: int, rules: Ruleset) -> bool:
    """Whether the game ends after a round with these running totals (R-S2, S4).

    With ``TieRule.PLAY_ON`` a game that would end with a shared win goes on.

    Raises:
        ArgumentError: ``totals`` is not a sequence of ints, or
            ``rounds_played`` is not a non-negative int.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK, STRAIGHT
    >>> is_game_over([500, 20], 9, REMIK), is_game_over([501, 20], 9, REMIK)
    (False, True)
    >>> is_game_over([100, 20], 9, STRAIGHT)
    True
    """
    rules = _check_rules(rules)
    totals = _ints(totals, "totals")
    rounds_played = _count(rounds_played, "rounds_played")
    over = False
    if rules.score_limit is not None:
        if rules.scoring is Scoring.PENALTY:
            over = any(t > rules.score_limit for t in totals)
        else:
            over = any(t >= rules.score_limit for t in totals)
    if rules.max_rounds is not None and rounds_played >= rules.max_rounds:
        over = True
    if over and rules.tie_rule is TieRule.PLAY_ON and len(_leaders(totals, rules)) > 1:
        return False
    return over


def _leaders(totals: Sequence[int], rules: Ruleset) -> tuple[int, ...]:
    if not totals:
        return ()
    best = min(totals) if rules.scoring is Scoring.PENALTY else max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


@attrs.frozen
class Standings:
    """Running totals and, once the game is over, its winners (R-S2, S4).

    Attributes:
        totals: each seat's running total.
        rounds: how many rounds were played (void rounds included).
        is_over: whether the game has ended.
        winners: the seats sharing the best total (empty while the game goes on).
    """

    totals: tuple[int, ...] = attrs.field(converter=_totals)
    rounds: int
    is_over: bool
    winners: tuple[int, ...] = attrs.field(converter=_winners)

    def __attrs_post_init__(self) -> None:
        _count(self.rounds, "rounds")
        if not isinstance(self.is_over, bool):
            raise _bad(ArgumentReason.WRONG_TYPE, "is_over", self.is_over, f"expected a bool, not {self.is_over!r}")
        if any(not 0 <= w < len(self.totals) for w in self.winners):
            msg = f"winners {self.winners} are not all seats of a {len(self.totals)}-player table"
            raise _bad(ArgumentReason.BAD_VALUE, "winners", self.winners, msg)


def standings(totals: Sequence[int], rounds_played: int, rules: Ruleset) -> Standings:
    """The standings for these running totals.

    Raises:
        ArgumentError: ``totals`` or ``rounds_played`` is malformed (as
            in :func:`is_game_over`).
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK
    >>> standings([510, 40, 40], 12, REMIK).winners
    (1, 2)
    """
    over = is_game_over(totals, rounds_played, rules)
    totals = _ints(totals, "totals")
    winners = _leaders(totals, _check_rules(rules)) if over else ()
    return Standings(totals, rounds_played, over, winners)
