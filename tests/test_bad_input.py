"""Bad input into the foundation's public functions: only typed errors, nothing mutated.

Arbitrary text goes into the parsers; arbitrary objects (ints, None, text, bytes,
lists of junk, half-right card lists) into every public function of errors,
cards, rules, melds and scoring. What comes out is a result or a
:class:`~rummylib.RummyError`; never an AttributeError, KeyError, IndexError or
TypeError, and the arguments are left as they were.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    CardMultiset,
    CardParseError,
    End,
    Group,
    Meld,
    Rank,
    RulesetError,
    RummyError,
    Run,
    Suit,
    card_penalty,
    deck,
    format_meld,
    get_ruleset,
    hand_penalty,
    is_clean_run,
    is_game_over,
    lay_off,
    make_meld,
    meld_points,
    parse_card,
    parse_cards,
    parse_meld,
    score_round,
    standings,
    swap_joker,
    validate_meld,
)
from rummylib._card import CARDS, as_cards, card_at, natural
from rummylib.cards import as_multiset, check_in_deck, format_cards
from rummylib.errors import MAX_MESSAGE, shorten

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])

cards = st.sampled_from(CARDS)
card_tokens = st.sampled_from(["7H", "10h", "TH", "JK", "jk=7H", "JK=", "=", "♥7", "1S", "ZZ", "7♥️", ",", "JK=JK"])
meld_text = st.lists(st.one_of(card_tokens, st.text(max_size=4)), max_size=6).map(" ".join)
scalars = st.one_of(
    st.integers(-3, 60),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.sampled_from([Suit.HEARTS, Rank.ACE, End.LOW, REMIK, ..., 1j]),
)


def _containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    # A named function: Hypothesis inspects the source of a lambda to check it recurses.
    return st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
    )


junk = st.recursive(st.one_of(scalars, cards), _containers, max_leaves=8)
card_lists = st.lists(st.one_of(cards, cards, cards, scalars), max_size=6)

RUN = make_meld(parse_cards("5H JK 7H"), REMIK)
GROUP = make_meld(parse_cards("8S 8H JK"), REMIK, jokers=parse_cards("8D"))
MELDS: list[Meld] = [RUN, GROUP]
rulesets = st.sampled_from([REMIK, STRAIGHT])


def only_typed_errors(call: Callable[[], object]) -> None:
    try:
        call()
    except RummyError as exc:
        assert isinstance(exc, ValueError)
        assert str(exc), "an error needs a message"
        assert getattr(exc, "reason", None) is not None or type(exc) is RummyError


def unchanged(*values: Any) -> Callable[[], None]:
    """Snapshot ``values`` now; the returned check asserts none of them changed."""
    before = [pickle.dumps(v) for v in values]

    def check() -> None:
        assert [pickle.dumps(v) for v in values] == before

    return check


# --- text into the parsers -----------------------------------------------------------------


@SETTINGS
@given(text=st.text())
def test_parse_card_on_any_text(text: str) -> None:
    try:
        card = parse_card(text)
    except CardParseError as exc:
        assert exc.reason is not None
        assert shorten(exc.token) in str(exc)  # named, and shortened when long
        assert len(str(exc)) <= MAX_MESSAGE
        return
    assert parse_card(str(card)) == card


@SETTINGS
@given(text=st.one_of(st.text(), meld_text))
def test_parse_cards_on_any_text(text: str) -> None:
    try:
        result = parse_cards(text)
    except CardParseError as exc:
        assert exc.position is None or exc.position >= 0
        return
    assert parse_cards(format_cards(result)) == result


@SETTINGS
@given(text=st.one_of(st.text(), meld_text), rules=rulesets)
def test_parse_meld_on_any_text(text: str, rules: Any) -> None:
    only_typed_errors(lambda: parse_meld(text, rules))


# --- objects into every function -------------------------------------------------------------

ONE_ARG: list[Callable[[Any], object]] = [
    parse_card,
    parse_cards,
    deck,
    get_ruleset,
    is_clean_run,
    format_meld,
    as_cards,
    as_multiset,
    format_cards,
    card_at,
    CardMultiset,
    CardMultiset.from_counts,
    lambda x: CardMultiset(parse_cards("7H")).count(x),
    lambda x: REMIK.hand_size(x),
    lambda x: natural(x, Suit.SPADES),
    lambda x: natural(3, x),
    lambda x: parse_meld(x, REMIK),
    lambda x: make_meld(x, REMIK),
    lambda x: make_meld(parse_cards("5H 6H JK"), x),
    lambda x: make_meld(parse_cards("5H 6H JK"), REMIK, jokers=x),
    lambda x: validate_meld(x, REMIK),
    lambda x: meld_points(x, REMIK),
    lambda x: card_penalty(x, REMIK),
    lambda x: hand_penalty(x, REMIK),
    lambda x: hand_penalty(parse_cards("7H"), x),
    lambda x: check_in_deck(x, REMIK),
    lambda x: check_in_deck(CardMultiset(), x),
    lambda x: score_round(x, 0, REMIK),
    lambda x: score_round([(), ()], x, REMIK),
    lambda x: score_round([(), ()], 0, x),
    lambda x: score_round([(), ()], 0, REMIK, rummy=x),
    lambda x: is_game_over(x, 1, REMIK),
    lambda x: is_game_over([1, 2], x, REMIK),
    lambda x: is_game_over([1, 2], 1, x),
    lambda x: standings(x, 1, STRAIGHT),
    lambda x: standings([1, 2], x, STRAIGHT),
    lambda x: Run(x, 5, parse_cards("5H 6H 7H")),
    lambda x: Run(Suit.HEARTS, x, parse_cards("5H 6H 7H")),
    lambda x: Run(Suit.HEARTS, 5, x),
    lambda x: Group(x, parse_cards("8S 8H 8D"), (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)),
    lambda x: Group(Rank.EIGHT, x, (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)),
    lambda x: Group(Rank.EIGHT, parse_cards("8S 8H 8D"), x),
    lambda x: attrs.evolve(REMIK, jokers=x),
    lambda x: attrs.evolve(REMIK, hand_sizes=x),
]


@pytest.mark.parametrize("function", range(len(ONE_ARG)))
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.one_of(junk, card_lists))
def test_one_bad_argument(function: int, value: Any) -> None:
    check = unchanged(value)
    only_typed_errors(lambda: ONE_ARG[function](value))
    check()


MELD_CALLS: list[Callable[[Meld, Any, Any], object]] = [
    lambda m, x, r: lay_off(m, x, r),
    lambda m, x, r: lay_off(m, JOKER, r, end=x),
    lambda m, x, r: lay_off(m, JOKER, r, joker_as=x),
    lambda m, x, r: lay_off(m, parse_card("4H"), r, end=x),
    lambda m, x, r: lay_off(x, parse_card("4H"), r),
    lambda m, x, r: lay_off(m, parse_card("4H"), x),
    lambda m, x, r: swap_joker(m, x, r),
    lambda m, x, r: swap_joker(x, parse_card("6H"), r),
    lambda m, x, r: swap_joker(m, parse_card("6H"), x),
    lambda m, x, r: validate_meld(m, x),
    lambda m, x, r: meld_points(m, x),
]


@pytest.mark.parametrize("function", range(len(MELD_CALLS)))
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld=st.sampled_from(MELDS), value=st.one_of(junk, cards), rules=rulesets)
def test_meld_functions_with_a_bad_argument(function: int, meld: Meld, value: Any, rules: Any) -> None:
    check = unchanged(meld, value)
    only_typed_errors(lambda: MELD_CALLS[function](meld, value, rules))
    check()


@SETTINGS
@given(hand=card_lists, rules=rulesets, jokers=st.one_of(st.none(), card_lists))
def test_make_meld_on_half_right_card_lists(hand: list[Any], rules: Any, jokers: Any) -> None:
    check = unchanged(hand, jokers)
    only_typed_errors(lambda: make_meld(hand, rules, jokers=jokers))
    only_typed_errors(lambda: hand_penalty(hand, rules))
    only_typed_errors(lambda: CardMultiset(hand))
    check()


@SETTINGS
@given(hands=st.lists(card_lists, max_size=4), winner=st.one_of(st.none(), st.integers(-1, 4)), rules=rulesets)
def test_score_round_on_half_right_hands(hands: list[list[Any]], winner: int | None, rules: Any) -> None:
    check = unchanged(hands)
    only_typed_errors(lambda: score_round(hands, winner, rules))
    check()


def test_operators_refuse_other_types_the_python_way() -> None:
    # Operators return NotImplemented, so Python raises its usual TypeError.
    hand = CardMultiset(parse_cards("7H"))
    with pytest.raises(TypeError):
        hand + [parse_card("7H")]
    with pytest.raises(TypeError):
        hand <= [parse_card("7H")]  # noqa: B015
    assert (hand == [parse_card("7H")]) is False


def test_rules_errors_are_ruleset_errors() -> None:
    with pytest.raises(RulesetError):
        make_meld(parse_cards("5H 6H 7H"), "remik")  # type: ignore[arg-type]
