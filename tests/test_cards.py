"""Cards, notation, multisets and decks (RULES.md C1-C3)."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    Card,
    CardMultiset,
    CardParseError,
    InvalidCardsError,
    ParseReason,
    Rank,
    Suit,
    deck,
    parse_card,
    parse_cards,
)
from rummylib._card import CARDS, as_cards, card_at, natural
from rummylib.cards import as_multiset, check_in_deck, format_cards
from rummylib.errors import CardsReason

cards_st = st.sampled_from(CARDS)
card_lists = st.lists(cards_st, max_size=20)
multisets = card_lists.map(CardMultiset)
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# --- cards ---------------------------------------------------------------------------------


def test_card_fields_and_index() -> None:
    seven = Card(Rank.SEVEN, Suit.HEARTS)
    assert (seven.rank, seven.suit, seven.is_joker) == (Rank.SEVEN, Suit.HEARTS, False)
    assert seven.index == 13 + 6
    assert (JOKER.rank, JOKER.suit, JOKER.is_joker, JOKER.index) == (None, None, True, 52)
    assert [c.index for c in CARDS] == list(range(53))
    assert sorted(CARDS, reverse=True) == list(reversed(CARDS))
    assert str(Suit.HEARTS) == "H" and Suit.CLUBS.index == 3 and Suit.SPADES.symbol == "♠"
    assert str(Rank.TEN) == "10" and Rank.ACE.symbol == "A" and int(Rank.KING) == 13


def test_copies_are_the_same_card() -> None:
    # R-C2: the two 7H of a double deck are the same card twice.
    a, b = parse_card("7H"), Card(Rank.SEVEN, Suit.HEARTS)
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.rank = Rank.ACE  # type: ignore[misc]


def test_card_rejects_half_a_card() -> None:
    with pytest.raises(InvalidCardsError):
        Card(Rank.ACE, None)
    with pytest.raises(InvalidCardsError):
        Card(None, Suit.SPADES)
    with pytest.raises(InvalidCardsError):
        Card(1, Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardsError):
        Card(Rank.ACE, "S")  # type: ignore[arg-type]


def test_natural_and_card_at() -> None:
    assert natural(1, Suit.SPADES) == parse_card("AS") == card_at(0)
    assert card_at(52) is JOKER
    for bad in (0, 14, -1, True):
        with pytest.raises(InvalidCardsError):
            natural(bad, Suit.SPADES)
    for index in (-1, 53, 1.0, None):
        with pytest.raises(InvalidCardsError):
            card_at(index)  # type: ignore[arg-type]


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7H", "7H"), ("10H", "10H"), ("TH", "10H"), ("7h", "7H"), ("7♥", "7H"), ("♥7", "7H"), ("JK", "JK"),
     ("jk", "JK"), ("Joker", "JK"), ("as", "AS"), ("1s", "AS"), ("qd", "QD"), ("K♣", "KC"), ("7♥\ufe0f", "7H")],
)  # fmt: skip
def test_parse_card_variants(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


def test_parse_cards_keeps_order_and_accepts_commas() -> None:
    assert [str(c) for c in parse_cards("9S, 10s,JS  jk")] == ["9S", "10S", "JS", "JK"]


@pytest.mark.parametrize(
    ("text", "reason", "token", "position"),
    [
        ("7H XS", ParseReason.BAD_RANK, "XS", 1),
        ("7H 7X", ParseReason.BAD_SUIT, "7X", 1),
        ("H", ParseReason.BAD_TOKEN, "H", 0),
        ("11H", ParseReason.BAD_RANK, "11H", 0),
        ("", ParseReason.EMPTY, "", None),
        (" , ", ParseReason.EMPTY, " , ", None),
    ],
)
def test_parse_cards_errors_name_token_and_position(
    text: str, reason: ParseReason, token: str, position: int | None
) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    assert info.value.reason is reason
    assert info.value.token == token and info.value.position == position
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_card_wants_exactly_one() -> None:
    with pytest.raises(CardParseError) as info:
        parse_card("7H 8H")
    assert info.value.reason is ParseReason.BAD_TOKEN
    with pytest.raises(CardParseError) as info:
        parse_card("  ")
    assert info.value.reason is ParseReason.EMPTY
    with pytest.raises(CardParseError) as info:
        parse_card(7)  # type: ignore[arg-type]
    assert info.value.reason is ParseReason.WRONG_TYPE


@settings(max_examples=examples(200), deadline=None)
@given(card=cards_st)
def test_card_notation_round_trip(card: Card) -> None:
    text = str(card)
    assert parse_card(text) == card
    assert parse_card(text.lower()) == card
    assert parse_card(f"  {text} ") == card
    if not card.is_joker:
        assert card.suit is not None
        rank_text, suit = text[:-1], text[-1]
        assert parse_card(rank_text.replace("10", "T") + suit) == card
        assert parse_card(rank_text.replace("10", "t") + suit.lower()) == card
        assert parse_card(rank_text + SYMBOLS[suit]) == card
        assert parse_card(SYMBOLS[suit] + rank_text) == card
        assert parse_card(rank_text + card.suit.symbol) == card


@settings(max_examples=examples(200), deadline=None)
@given(cards=card_lists.filter(bool), sep=st.sampled_from([" ", ", ", ",", "  \n"]))
def test_cards_notation_round_trip(cards: list[Card], sep: str) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards(sep.join(str(c) for c in cards)) == tuple(cards)
    assert parse_cards(format_cards(cards).lower()) == tuple(cards)


# --- multisets (R-C2) ----------------------------------------------------------------------


def test_multiset_basics() -> None:
    hand = CardMultiset(parse_cards("JK 7H 10H 7H"))
    assert str(hand) == "7H 7H 10H JK" and repr(hand) == "CardMultiset('7H 7H 10H JK')"
    assert hand.count(parse_card("7H")) == 2 and hand.count(parse_card("8H")) == 0
    assert len(hand) == 4 and hand.jokers == 1 and bool(hand) and not CardMultiset()
    assert parse_card("10H") in hand and parse_card("9H") not in hand and "7H" not in hand
    assert hand.distinct() == parse_cards("7H 10H JK")
    assert CardMultiset.from_counts(hand.counts) == hand
    assert as_multiset(hand) is hand and as_multiset(parse_cards("7H")) == CardMultiset(parse_cards("7H"))
    assert hand != parse_cards("7H 7H 10H JK")  # a multiset is not a tuple


def test_multiset_subtraction_is_strict() -> None:
    hand = CardMultiset(parse_cards("7H 7H JK"))
    with pytest.raises(InvalidCardsError) as info:
        hand - CardMultiset(parse_cards("7H 8H"))
    assert info.value.reason is CardsReason.NOT_ENOUGH
    assert "8H" in str(info.value)
    assert info.value.value == CardMultiset(parse_cards("8H"))


def test_multiset_is_immutable() -> None:
    hand = CardMultiset(parse_cards("7H"))
    with pytest.raises(AttributeError):
        hand._counts = ()
    with pytest.raises(AttributeError):
        hand.extra = 1


def test_multiset_from_counts_validates() -> None:
    for bad in ((0,) * 52, (0,) * 52 + (-1,), (0,) * 52 + (True,), (0.5,) * 53, 7, "x" * 53):
        with pytest.raises(InvalidCardsError) as info:
            CardMultiset.from_counts(bad)  # type: ignore[arg-type]
        assert info.value.reason is CardsReason.BAD_COUNT


@settings(max_examples=examples(150), deadline=None)
@given(a=multisets, b=multisets, c=multisets)
def test_multiset_algebra(a: CardMultiset, b: CardMultiset, c: CardMultiset) -> None:
    assert a + b == b + a
    assert (a + b) + c == a + (b + c)
    assert (a + b) - b == a
    assert a <= a + b and b <= a + b
    assert len(a + b) == len(a) + len(b)
    assert a + CardMultiset() == a
    assert (a <= b and b <= a) == (a == b)
    assert (a < b) == (a <= b and a != b)
    assert (a >= b) == (b <= a) and (a > b) == (b < a)
    if b <= a:
        assert (a - b) + b == a
    else:
        with pytest.raises(InvalidCardsError):
            a - b


@settings(max_examples=examples(150), deadline=None)
@given(cards=card_lists, data=st.data())
def test_multiset_order_free_hash_eq_and_pickle(cards: list[Card], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(cards))
    a, b = CardMultiset(cards), CardMultiset(shuffled)
    assert a == b and hash(a) == hash(b)
    assert list(a) == sorted(cards)  # canonical iteration
    assert sum(a.counts) == len(a) == len(cards)
    for card in set(cards):
        assert a.count(card) == cards.count(card)
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a and copy.copy(a) == a
    assert {a: 1}[b] == 1


def test_cards_pickle() -> None:
    for card in CARDS:
        back = pickle.loads(pickle.dumps(card))
        assert back == card and back.index == card.index


def test_as_cards_normalises_iterables() -> None:
    cards = parse_cards("7H JK 7H")
    assert as_cards(list(cards)) == cards
    assert as_cards(c for c in cards) == cards
    assert as_cards(CardMultiset(cards)) == parse_cards("7H 7H JK")
    for bad in ("7H", parse_card("7H"), 7, None, [parse_card("7H"), "8H"], b"7H"):
        with pytest.raises(InvalidCardsError) as info:
            as_cards(bad)
        assert info.value.reason is CardsReason.WRONG_TYPE


# --- decks (R-C1) --------------------------------------------------------------------------


def test_deck_sizes() -> None:
    remik, straight = deck(REMIK), deck(STRAIGHT)
    assert len(remik) == 108 and remik.jokers == 4  # R-C1: two decks plus four jokers
    assert all(remik.count(c) == 2 for c in CARDS[:52])
    assert len(straight) == 52 and straight.jokers == 0  # R-C1: one deck, no jokers
    assert set(straight) == set(CARDS[:52])
    assert len(deck(attrs.evolve(REMIK, jokers=6))) == 110


def test_check_in_deck() -> None:
    check_in_deck(deck(REMIK), REMIK)
    with pytest.raises(InvalidCardsError) as info:
        check_in_deck(CardMultiset(parse_cards("JK")), STRAIGHT)
    assert info.value.reason is CardsReason.NOT_IN_DECK and "JK" in str(info.value)
    with pytest.raises(InvalidCardsError):
        check_in_deck(deck(REMIK) + CardMultiset(parse_cards("5D")), REMIK)
    with pytest.raises(InvalidCardsError):
        deck("remik")  # type: ignore[arg-type]
