"""rummylib.svg: standalone SVG pictures that parse, show the right cards and never leak (R-H1)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib import svg
from rummylib.testing import game_states, hands

_NS = "{http://www.w3.org/2000/svg}"


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{_NS}svg"
    assert int(root.attrib["width"]) > 0 and int(root.attrib["height"]) > 0
    return root


def _cards(root: ET.Element) -> Counter[str]:
    return Counter(g.attrib["data-card"] for g in root.iter(f"{_NS}g") if g.attrib.get("class") == "card")


def _backs(root: ET.Element) -> int:
    return sum(1 for g in root.iter(f"{_NS}g") if g.attrib.get("class") == "back")


def test_card_shows_rank_and_suit_symbol() -> None:
    root = _parse(svg.card_svg(rl.parse_card("10H")))
    assert _cards(root) == Counter({"10H": 1})
    texts = [t.text for t in root.iter(f"{_NS}text")]
    assert "10" in texts and "\u2665" in texts  # a readable symbol, not a letter


def test_joker_in_a_meld_shows_the_card_it_stands_for() -> None:  # R-J2: a joker stands for one card
    meld = rl.make_meld(rl.parse_cards("8S 8H JK"), rl.REMIK, jokers=rl.parse_cards("8D"))
    root = _parse(svg.meld_svg(meld))
    jokers = [g for g in root.iter(f"{_NS}g") if g.attrib.get("data-card") == "JK"]
    assert [g.attrib["data-stands-for"] for g in jokers] == ["8D"]
    assert "\u2666" in [t.text for t in jokers[0].iter(f"{_NS}text")]
    assert _cards(root) == Counter({"8S": 1, "8H": 1, "JK": 1})


@settings(max_examples=25, deadline=None)
@given(hands(rl.REMIK, max_size=20))
def test_a_hand_shows_each_card_once(hand: rl.CardMultiset) -> None:
    root = _parse(svg.cards_svg(hand))
    assert _cards(root) == Counter(str(c) for c in hand)


def test_table_with_stock_and_top_discard() -> None:
    melds = [rl.make_meld(rl.parse_cards("9S 10S JS"), rl.REMIK)]
    melds.append(rl.make_meld(rl.parse_cards("5D 5C JK"), rl.REMIK, jokers=rl.parse_cards("5S")))
    root = _parse(svg.table_svg(melds, top_discard=rl.parse_card("KH"), discard_size=3, stock_size=41))
    assert _cards(root) == Counter({"9S": 1, "10S": 1, "JS": 1, "5D": 1, "5C": 1, "JK": 1, "KH": 1})
    texts = [t.text for t in root.iter(f"{_NS}text")]
    assert "stock 41" in texts and "discard 3" in texts
    assert _backs(root) == 1


def _visible(v: rl.PlayerView) -> Counter[str]:
    seen = Counter(str(c) for c in v.hand)
    for tm in v.table:
        seen.update(str(c) for c in tm.meld.cards)
    if v.top_discard is not None:
        seen[str(v.top_discard)] += 1
    return seen


@settings(max_examples=20, deadline=None)
@given(game_states(max_actions=60), st.data())
def test_a_view_shows_exactly_what_the_seat_may_see(state: rl.GameState, data: st.DataObject) -> None:  # R-H1
    seat = data.draw(st.integers(0, state.num_players - 1))
    v = rl.view(state, seat)
    root = _parse(svg.view_svg(v))
    assert _cards(root) == _visible(v)
    hidden = {
        int(g.attrib["data-seat"]): int(g.attrib["data-hand-size"])
        for g in root.iter(f"{_NS}g")
        if g.attrib.get("class") == "seat"
    }
    assert hidden == {s: len(state.round.hands[s]) for s in range(state.num_players) if s != seat}


def test_another_seats_cards_never_appear() -> None:  # R-H1
    state = rl.new_game(rl.REMIK, ["Ann", "Bob", "Cy"], seed=11)
    picture = svg.view_svg(rl.view(state, 1))
    cards = _cards(_parse(picture))
    assert cards == Counter(str(c) for c in state.round.hands[1])
    assert _backs(_parse(picture)) == 14 + 13 + 1  # two hidden hands and the stock
    assert "13 cards" in picture and "14 cards" in picture


def test_long_names_are_shortened() -> None:
    state = rl.new_game(rl.STRAIGHT, ["A" * 200, "Bob"], seed=1)
    texts = [t.text or "" for t in _parse(svg.view_svg(rl.view(state, 1))).iter(f"{_NS}text")]
    assert max(len(t) for t in texts) < 80 and any(t.startswith("A" * 23 + "\u2026") for t in texts)


def test_names_are_escaped() -> None:
    state = rl.new_game(rl.STRAIGHT, ["<b>&", 'x"y'], seed=1)
    root = _parse(svg.view_svg(rl.view(state, 0)))
    assert any("<b>&" in (t.text or "") for t in root.iter(f"{_NS}text"))


def test_repr_svg_on_values() -> None:
    card = rl.parse_card("QS")
    hand = rl.CardMultiset(rl.parse_cards("QS QS JK"))
    meld = rl.make_meld(rl.parse_cards("3C 4C 5C"), rl.REMIK)
    v = rl.view(rl.new_game(rl.STRAIGHT, 2, seed=4), 0)
    assert _cards(_parse(card._repr_svg_())) == Counter({"QS": 1})
    assert _cards(_parse(hand._repr_svg_())) == Counter({"QS": 2, "JK": 1})
    assert _cards(_parse(meld._repr_svg_())) == Counter({"3C": 1, "4C": 1, "5C": 1})
    assert _cards(_parse(v._repr_svg_())) == _visible(v)
    assert svg.to_svg(meld) == meld._repr_svg_()


def test_lower_layers_do_not_import_svg_at_load() -> None:
    import subprocess
    import sys

    code = "import sys, rummylib; print('rummylib.svg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "call",
    [
        lambda: svg.card_svg("7H"),  # type: ignore[arg-type]
        lambda: svg.meld_svg(rl.parse_cards("7H 8H 9H")),  # type: ignore[arg-type]
        lambda: svg.view_svg(rl.new_game(rl.STRAIGHT, 2, seed=1)),  # type: ignore[arg-type]
        lambda: svg.to_svg(3),  # type: ignore[arg-type]
        lambda: svg.cards_svg(5),  # type: ignore[arg-type]
        lambda: svg.table_svg([rl.parse_card("7H")]),  # type: ignore[list-item]
        lambda: svg.table_svg(5),  # type: ignore[arg-type]
        lambda: svg.cards_svg(itertools.repeat(rl.JOKER)),  # endless: bounded before the work
        lambda: svg.table_svg([rl.make_meld(rl.parse_cards("7H 8H 9H"), rl.REMIK)] * 501),
    ],
)
def test_wrong_types_raise_typed_errors(call: object) -> None:
    with pytest.raises((rl.RulesetError, rl.InvalidCardsError)):
        call()  # type: ignore[operator]
