"""Penalties, round scores and the end of the game (RULES.md V, S1-S4, E2, E4, D7)."""

from __future__ import annotations

import attrs
import pytest

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    InvalidCardsError,
    RoundResult,
    Ruleset,
    RulesetError,
    Standings,
    TieRule,
    card_penalty,
    hand_penalty,
    is_game_over,
    parse_card,
    parse_cards,
    score_round,
    standings,
)
from rummylib.errors import ArgumentError, ArgumentReason

HOUSE = attrs.evolve(REMIK, jokers=6, joker_penalty=50)
PLAY_ON_REMIK = attrs.evolve(REMIK, tie_rule=TieRule.PLAY_ON)
PLAY_ON_STRAIGHT = attrs.evolve(STRAIGHT, tie_rule=TieRule.PLAY_ON)


@pytest.mark.parametrize(
    ("text", "rules", "penalty"),
    [
        ("JK AH 7C", REMIK, 48),  # R-V1
        ("KH 4S", STRAIGHT, 14),  # R-V1
        ("AD 3D 8C", STRAIGHT, 12),  # R-V1
        ("JS QS 2H", STRAIGHT, 22),  # R-V1
        ("JK AH 7C", HOUSE, 68),  # R-V: joker penalty is a ruleset field (25 or 50)
        ("10H JH QH KH", REMIK, 40),
    ],
)
def test_hand_penalty_seed_examples(text: str, rules: Ruleset, penalty: int) -> None:
    cards = parse_cards(text)
    assert hand_penalty(cards, rules) == penalty
    assert hand_penalty(list(cards), rules) == penalty
    assert sum(card_penalty(c, rules) for c in cards) == penalty


def test_card_penalty_by_rank() -> None:
    # R-V: 2-10 face value, J Q K 10, ace 11 (remik) or 1 (straight), joker 30.
    for rank_text, value in [("2", 2), ("9", 9), ("10", 10), ("J", 10), ("Q", 10), ("K", 10)]:
        card = parse_card(rank_text + "C")
        assert card_penalty(card, REMIK) == card_penalty(card, STRAIGHT) == value
    assert (card_penalty(parse_card("AS"), REMIK), card_penalty(parse_card("AS"), STRAIGHT)) == (11, 1)
    assert card_penalty(JOKER, REMIK) == 30 and card_penalty(JOKER, HOUSE) == 50
    assert hand_penalty((), REMIK) == 0


def test_remik_round() -> None:
    # R-S1: the others add their hands; the player who went out scores 0.
    hands = [(), parse_cards("JK AH 7C"), parse_cards("5S 5H")]
    result = score_round(hands, 0, REMIK)
    assert (result.winner, result.penalties, result.scores, result.rummy) == (0, (0, 48, 10), (0, 48, 10), False)
    assert not result.is_void
    # R-E2: opening and going out in one turn doubles the others' penalties.
    assert score_round(hands, 0, REMIK, rummy=True).scores == (0, 96, 20)


def test_straight_round() -> None:
    # R-S3: the winner collects the others' hands; R-E4: going rummy doubles it.
    hands = [parse_cards("KH 4S"), (), parse_cards("AD 3D 8C"), parse_cards("JS QS 2H")]
    result = score_round(hands, 1, STRAIGHT)
    assert result.penalties == (14, 0, 12, 22) and result.scores == (0, 48, 0, 0)
    assert score_round(hands, 1, STRAIGHT, rummy=True).scores == (0, 96, 0, 0)


def test_void_round() -> None:
    # R-D7: nobody goes out, nobody scores.
    result = score_round([parse_cards("KH"), parse_cards("2C")], None, REMIK)
    assert result.is_void and result.scores == (0, 0) and result.penalties == (10, 2)


def test_remik_game_ends_past_the_limit() -> None:
    # R-S2: the game ends after a round in which a total goes *past* 500.
    assert not is_game_over([500, 20], 9, REMIK)
    assert is_game_over([501, 20], 9, REMIK)
    assert is_game_over([301, 20], 9, attrs.evolve(REMIK, score_limit=300))
    final = standings([510, 40, 90], 12, REMIK)
    assert final == Standings((510, 40, 90), 12, True, (1,))  # lowest total wins
    going = standings([480, 40, 90], 12, REMIK)
    assert not going.is_over and going.winners == ()


def test_straight_game_ends_reaching_the_target() -> None:
    # R-S4: the game ends when a total *reaches* 100; the highest total wins.
    assert not is_game_over([99, 20], 3, STRAIGHT)
    assert is_game_over([100, 20], 3, STRAIGHT)
    assert standings([100, 20, 130], 3, STRAIGHT).winners == (2,)
    by_rounds = attrs.evolve(STRAIGHT, score_limit=None, max_rounds=5)
    assert not is_game_over([300, 0], 4, by_rounds)
    assert is_game_over([3, 0], 5, by_rounds)  # R-S4: an agreed number of rounds


def test_ties_share_or_play_on() -> None:
    # R-S2, S4: tied players share the win; the PLAY_ON variant plays until it breaks.
    assert standings([510, 40, 40], 12, REMIK).winners == (1, 2)
    assert standings([120, 120, 30], 5, STRAIGHT).winners == (0, 1)
    assert not is_game_over([510, 40, 40], 12, PLAY_ON_REMIK)
    assert is_game_over([510, 40, 41], 12, PLAY_ON_REMIK)
    assert not is_game_over([120, 120, 30], 5, PLAY_ON_STRAIGHT)
    assert standings([120, 120, 30], 5, PLAY_ON_STRAIGHT).winners == ()


def test_scoring_refuses_bad_arguments() -> None:
    # Bad arguments to the pure scoring functions are ArgumentErrors, not document errors.
    hands = [(), parse_cards("KH")]
    for winner in (2, -1, True, "0"):
        with pytest.raises(ArgumentError) as info:
            score_round(hands, winner, REMIK)  # type: ignore[arg-type]
        assert info.value.argument == "winner"
    with pytest.raises(InvalidCardsError):
        score_round([(), "KH"], 0, REMIK)  # type: ignore[list-item]
    with pytest.raises(InvalidCardsError):
        score_round(7, 0, REMIK)  # type: ignore[arg-type]
    with pytest.raises(RulesetError):
        score_round(hands, 0, "remik")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError) as info:
        is_game_over([1, "2"], 3, REMIK)  # type: ignore[list-item]
    assert info.value.argument == "totals[1]" and info.value.reason is ArgumentReason.WRONG_TYPE
    with pytest.raises(ArgumentError) as info:
        is_game_over([1, 2], -1, REMIK)
    assert info.value.reason is ArgumentReason.BAD_VALUE
    with pytest.raises(ArgumentError):
        standings(None, 3, REMIK)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        RoundResult(5, (0, 1), (0, 1))
    with pytest.raises(ArgumentError):
        RoundResult(0, (0, 1), (0,))
    with pytest.raises(ArgumentError):
        Standings((1, 2), 1, True, (3,))
