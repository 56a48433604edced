"""``action in legal`` before the listing is built: a discard or a lay-off asks ``is_legal`` alone (engine/_check.py).

A bot asks for the one action it chose; :func:`~rummylib.engine._check.by_is_legal`
sends a plain discard or lay-off to ``is_legal`` instead of listing its whole
kind. The listing is exact, so both answers must agree on every action, legal
or not, of reachable states; actions with look-alike fields (a ``bool``
target, which equals an ``int``) still answer by the listing.
"""

from __future__ import annotations

import pytest
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib._card import CARDS
from rummylib.bots import LegalActions
from rummylib.engine._check import by_is_legal


def _candidates(state: rl.GameState) -> list[rl.Action]:
    """Every discard, and every lay-off of a held card (and one not held) onto each table meld and past it."""
    r = state.round
    hand = r.hands[r.to_act]
    out: list[rl.Action] = [rl.Discard(c) for c in CARDS]
    cards = [*dict.fromkeys(hand), next(c for c in CARDS if not hand.count(c))]
    for target in range(len(r.table) + 1):
        out.extend(rl.LayOff(target, c, end) for c in cards for end in (None, rl.End.LOW, rl.End.HIGH))
    return out


@pytest.mark.parametrize("name", sorted(WALK_RULES))
def test_a_discard_or_lay_off_asked_alone_is_in_the_listing(name: str) -> None:
    # R-T3, T6, T7, D2, J5, O4: is_legal and the exact listing agree on every candidate of the play phase.
    rules = WALK_RULES[name]
    asked = 0
    legal_seen = 0
    for seed in (3, 4):
        for i, state in enumerate(walk(rules, 3, seed, 160)):
            if state.phase is not rl.Phase.PLAY or i % 2:
                continue
            listed = set(LegalActions(state))
            for action in _candidates(state):
                assert by_is_legal(action)
                got = action in LegalActions(state)  # a fresh listing: nothing built yet
                assert got is (action in listed), action
                asked += 1
                legal_seen += got
    assert asked > 1000
    assert legal_seen > 50


def test_look_alike_fields_answer_by_the_listing() -> None:
    # R-T6: LayOff(True, ...) equals LayOff(1, ...), so it is "in" a listing holding that lay-off, though
    # apply refuses a bool target; such an action is never sent to is_legal alone.
    rules = rl.REMIK
    hands = [rl.parse_cards("9S JH QS 2C"), rl.parse_cards("KD KC 3S 4S")]
    run = rl.parse_meld("5H 6H 7H", rules)
    s = rl.start_round_from(
        rules,
        hands,
        discard=rl.parse_cards("2D"),
        table=[rl.TableMeld(run, 0), rl.TableMeld(rl.parse_meld("8H 9H 10H", rules), 1)],
        opened=[True, True],
        to_act=0,
        phase=rl.Phase.PLAY,
    )
    plain = rl.LayOff(1, rl.parse_card("JH"), rl.End.HIGH)
    look_alike = rl.LayOff(True, rl.parse_card("JH"), rl.End.HIGH)
    assert not by_is_legal(look_alike)
    assert (look_alike in LegalActions(s)) is (look_alike in tuple(LegalActions(s)))
    assert plain in LegalActions(s)
    assert plain in tuple(LegalActions(s))
    assert look_alike in tuple(LegalActions(s))  # equal to the listed lay-off
    assert look_alike in LegalActions(s)
