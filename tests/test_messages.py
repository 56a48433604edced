"""Error messages speak notation: cards, melds and actions as a player writes them.

Never a Python repr (``Card('9H')``) or a class name (``DrawStock``); a rule
code, where there is one, is a short suffix such as ``(R-O1)``.
"""

from __future__ import annotations

import re

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib import Action, End, GameState, RummyError
from rummylib.testing import cards, game_states, melds

#: What a message must never show: reprs of library values and action class names.
PYTHON_TEXT = re.compile(
    r"Card\(|CardMultiset\(|Run\(|Group\(|TableMeld\(|<End\.|"
    r"\b(DrawStock|TakeDiscard|LayMeld|LayOff|SwapJoker|Discard|NextRound|Open)\b"
)
#: A rule code anywhere but in a final bracket is a message built the wrong way round.
RULE_CODE = re.compile(r"\bR-[A-Z]\d*")


def _actions(rules: rl.Ruleset) -> st.SearchStrategy[Action]:
    return st.one_of(
        st.sampled_from([rl.DrawStock(), rl.TakeDiscard(), rl.NextRound()]),
        st.builds(rl.Discard, cards(rules)),
        st.builds(rl.LayMeld, melds(rules)),
        st.builds(rl.Open, st.lists(melds(rules), min_size=1, max_size=3).map(tuple)),
        st.builds(rl.LayOff, st.integers(0, 6), cards(rules), st.sampled_from([None, End.LOW, End.HIGH])),
        st.builds(rl.SwapJoker, st.integers(0, 6), cards(rules).filter(lambda c: not c.is_joker)),
    )


def _check_message(text: str) -> None:
    assert not PYTHON_TEXT.search(text), text
    for m in RULE_CODE.finditer(text):  # codes sit in the closing bracket: "... (R-O1, O2)"
        assert text.rfind("(", 0, m.start()) > text.rfind(")", 0, m.start()), text


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from([rl.REMIK, rl.STRAIGHT]).flatmap(
        lambda r: st.tuples(game_states(r, max_actions=30), st.lists(_actions(r), min_size=1, max_size=6))
    )
)
def test_refusals_name_cards_and_actions_in_notation(case: tuple[GameState, list[Action]]) -> None:
    state, tries = case
    for action in tries:
        try:
            rl.check(state, action)
        except RummyError as error:
            _check_message(str(error))


def test_examples_of_refusals() -> None:
    state = rl.new_game(rl.REMIK, 3, seed=1)  # the dealer has 14 cards and plays first, no draw
    hand = state.round.hands[state.to_act]
    missing = next(c for c in rl.deck(rl.REMIK).distinct() if hand.count(c) == 0)
    cases: list[tuple[Action, str]] = [
        (rl.TakeDiscard(), "'take' is not allowed now: drawing is over for this turn"),
        (rl.NextRound(), "'next' is not allowed now: the round is still being played"),
        (rl.Discard(missing), f"you do not hold {missing}"),
    ]
    for action, text in cases:
        try:
            rl.check(state, action)
        except rl.IllegalActionError as error:
            assert str(error) == text
        else:
            raise AssertionError(f"{action} was accepted")
