"""rummylib.testing: its strategies draw what they promise, and drive property tests of the foundation."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.cards import CardMultiset, parse_card
from rummylib.engine import GameState
from rummylib.melds import Group, Meld, Run, format_meld, make_meld, meld_points, parse_meld, swap_joker
from rummylib.records import from_json, to_json
from rummylib.rules import REMIK, RULESETS, STRAIGHT, Ruleset
from rummylib.testing import cards, game_states, hands, melds, rulesets

FAST = settings(max_examples=examples(60), deadline=None)


@FAST
@given(st.data())
def test_cards_come_from_the_deck(data: st.DataObject) -> None:  # R-C1
    rules = data.draw(rulesets())
    card = data.draw(cards(rules))
    assert card in rl.deck(rules)


@FAST
@given(cards(REMIK))
def test_card_notation_round_trips(card: rl.Card) -> None:
    assert parse_card(str(card)) == card


@FAST
@given(st.data())
def test_hands_fit_in_the_deck(data: st.DataObject) -> None:  # R-C1, R-C2
    rules = data.draw(rulesets())
    hand = data.draw(hands(rules, max_size=30))
    assert hand <= rl.deck(rules)
    assert len(hand) <= 30
    assert all(hand.count(c) <= rules.decks for c in hand.distinct() if not c.is_joker)


@settings(max_examples=10, deadline=None)
@given(hands(STRAIGHT, min_size=52, max_size=52))
def test_a_hand_can_be_the_whole_deck(hand: CardMultiset) -> None:
    assert hand == rl.deck(STRAIGHT)


def test_hand_sizes_are_checked() -> None:
    with pytest.raises(ValueError, match="max_size"):
        hands(STRAIGHT, max_size=53)
    with pytest.raises(ValueError, match="min_size"):
        hands(STRAIGHT, min_size=5, max_size=4)


@FAST
@given(hands(REMIK), hands(REMIK))
def test_penalty_adds_up(a: CardMultiset, b: CardMultiset) -> None:  # R-V, R-S1
    assert rl.hand_penalty(a + b, REMIK) == rl.hand_penalty(a, REMIK) + rl.hand_penalty(b, REMIK)


@FAST
@given(st.data())
def test_melds_are_valid_under_their_rules(data: st.DataObject) -> None:  # R-M1..M4, R-J2, R-J3
    rules = data.draw(rulesets())
    meld = data.draw(melds(rules))
    rl.validate_meld(meld, rules)
    assert meld_points(meld, rules) == sum(meld.points)
    if rules.jokers == 0:
        assert meld.joker_count == 0
    if isinstance(meld, Run) and not rules.ace_high:
        assert meld.end <= 13  # R-M4


@FAST
@given(melds(REMIK))
def test_meld_notation_round_trips(meld: Meld) -> None:  # R-M6
    assert parse_meld(format_meld(meld), REMIK) == meld


@FAST
@given(melds(REMIK))
def test_make_meld_rebuilds_from_table_order(meld: Meld) -> None:  # R-J1
    declared = [r for c, r in zip(meld.cards, meld.represents) if c.is_joker]
    assert make_meld(meld.cards, REMIK, jokers=declared) == meld


@FAST
@given(melds(REMIK))
def test_swapping_every_joker_out_keeps_the_meld(meld: Meld) -> None:  # R-J4
    current = meld
    for card, stands in zip(meld.cards, meld.represents):
        if card.is_joker:
            current, freed = swap_joker(current, stands, REMIK)
            assert freed.is_joker
    assert current.joker_count == 0
    assert current.represents == meld.represents


@FAST
@given(melds(STRAIGHT, kinds=("group",)))
def test_kinds_restrict_the_melds(meld: Meld) -> None:
    assert isinstance(meld, Group)


def test_meld_options_are_checked() -> None:
    with pytest.raises(ValueError, match="kinds"):
        melds(REMIK, kinds=("sequence",))
    with pytest.raises(ValueError, match="max_length"):
        melds(REMIK, max_length=2)


@FAST
@given(rulesets())
def test_rulesets_are_valid_and_deal(rules: Ruleset) -> None:  # R-P2, R-P3
    for players in range(rules.min_players, rules.max_players + 1):
        assert players * rules.hand_size(players) < len(rl.deck(rules))
    assert rules.name in RULESETS or rules.name.endswith("-house")


@FAST
@given(rulesets(presets=["straight"], variants=False))
def test_plain_presets_only(rules: Ruleset) -> None:
    assert rules is STRAIGHT


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(rl.RulesetError, match="gin"):
        rulesets(presets=["gin"])


def test_clear_import_error_without_hypothesis() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["hypothesis"] = None  # as if it were not installed
        try:
            import rummylib.testing
        except ImportError as error:
            print(error)
        import rummylib  # the rest of the package does not need it
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'rummylib[test]'" in done.stdout


# --- reachable game states --------------------------------------------------------------------

GAMES = settings(max_examples=15, deadline=None)


@GAMES
@given(game_states())
def test_reachable_states_conserve_cards(state: GameState) -> None:  # R-C3
    assert state.round.cards() == rl.deck(state.rules)


@GAMES
@given(game_states(REMIK, players=3, max_actions=30))
def test_views_show_only_the_own_hand(state: GameState) -> None:  # R-H1
    for seat in range(3):
        seen = rl.view(state, seat)
        assert seen.hand == state.round.hands[seat]
        assert seen.hand_sizes == tuple(len(h) for h in state.round.hands)
        assert seen.stock_size == len(state.round.stock)


@GAMES
@given(game_states(STRAIGHT, max_actions=30))
def test_every_listed_action_is_legal(state: GameState) -> None:
    for action in rl.legal_actions(state):
        rl.check(state, action)


@GAMES
@given(game_states(max_actions=30))
def test_states_round_trip_through_json(state: GameState) -> None:
    assert from_json(to_json(state), GameState) == state


def test_game_state_options_are_checked() -> None:
    with pytest.raises(rl.RulesetError):
        game_states(STRAIGHT, players=9)
    with pytest.raises(ValueError, match="max_actions"):
        game_states(STRAIGHT, max_actions=-1)
