"""The listing's no-duty shortcut (engine/_legal.py): a meld or lay-off that keeps a card needs no check.

Where the turn owes nothing (no taken card, R-D2, T7; no freed joker, R-J4;
no opening in progress, R-O4) a new meld or a lay-off adds no duty, so the
listing gives each one that leaves a card in the hand without asking the
solver. The ones that empty the hand still go through the check (R-T3, E1,
E3: going out by melding or laying off is allowed only where the rules say).
These small hands of opened players make the hand-emptying case common; the
listing must be exactly what ``apply`` accepts.
"""

from __future__ import annotations

import random

import attrs
import pytest
from _setup import with_openers_melds
from _walks import single_step_universe

import rummylib as rl

_TABLE = [rl.parse_meld("5H 6H 7H", rl.REMIK), rl.parse_meld("9S 9D 9C", rl.REMIK)]
_RULES = [
    rl.REMIK,
    attrs.evolve(rl.REMIK, must_discard_to_go_out=False),
    rl.STRAIGHT,
    attrs.evolve(rl.STRAIGHT, must_discard_to_go_out=True),
]
# Cards that fit the table, or make a meld with each other: a hand of one to four of them.
_FITTING = rl.parse_cards("4H 8H 9H 9H 3H 2H 10H JK")


def _hands(seed: int) -> list[list[rl.Card]]:
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        size = rng.randint(1, 4)
        out.append(rng.sample(_FITTING, size))
    return out


@pytest.mark.parametrize("rules", _RULES, ids=[f"{r.name}-{r.must_discard_to_go_out}" for r in _RULES])
def test_no_duty_melds_and_lay_offs_are_exactly_what_apply_accepts(rules: rl.Ruleset) -> None:
    # R-T3, E1, E3, T6: with no duty left, every lay-off and meld keeping a card is listed, and one emptying
    # the hand is listed only where the rules let a player go out without a discard.
    emptying = 0
    for seed in range(3):
        for hand in _hands(seed):
            if (rules.decks == 1 and len(set(hand)) < len(hand)) or (rules.jokers == 0 and rl.JOKER in hand):
                continue  # a card the deck does not hold
            hands = [hand, rl.parse_cards("2S 4D 6C 8S 10S QD")]
            table = with_openers_melds(rules, hands, _TABLE, [True, True])
            state = rl.start_round_from(rules, hands, table=table, opened=[True, True], to_act=0, phase=rl.Phase.PLAY)
            listed = set(rl.legal_actions(state))
            brute = {a for a in single_step_universe(state) if rl.is_legal(state, a)}
            assert listed == brute, state
            emptying += len(hand) == 1 or any(len(m.cards) == len(hand) for m in rl.find_melds(hand, rules))
    assert emptying > 10  # hands a single step could empty were met


_TOPS = rl.parse_cards("4H 8H 9H 3H 10H 7S 2S")


@pytest.mark.parametrize("rules", _RULES, ids=[f"{r.name}-{r.must_discard_to_go_out}" for r in _RULES])
def test_melds_and_lay_offs_after_a_take_are_exactly_what_apply_accepts(rules: rl.Ruleset) -> None:
    # R-D2, T7: after taking the discard the turn owes the card (a new meld with it; not its discard), so the
    # no-duty shortcut must not apply; one step later (the card melded or laid off) it may.
    taken = 0
    # KH with KS KD: a group leaving only the taken card, which must then be laid off (R-T7); and random hands.
    some = [list(rl.parse_cards(text)) for text in ("KH", "KH 9H", "4H 8H", "3H JK", "10H 9H 8H")] + _hands(10)[:8]
    for hand in some:
        for top in _TOPS:
            cards = [*hand, top]
            if max(map(cards.count, cards)) > rules.decks or (rules.jokers == 0 and rl.JOKER in cards):
                continue  # a card the deck does not hold
            hands = [[*hand, *rl.parse_cards("KS KD")], rl.parse_cards("2D 4D 6C 8S 10S QD")]
            table = with_openers_melds(rules, hands, _TABLE, [True, True], [top])
            start = rl.start_round_from(
                rules, hands, table=table, opened=[True, True], to_act=0, phase=rl.Phase.DRAW, discard=[top]
            )
            if not rl.is_legal(start, rl.TakeDiscard()):
                continue
            taken += 1
            state = rl.apply(start, rl.TakeDiscard())
            for s in (state, *(rl.apply(state, a) for a in rl.legal_actions(state) if not isinstance(a, rl.Discard))):
                if s.phase is not rl.Phase.PLAY:
                    continue
                brute = {a for a in single_step_universe(s) if rl.is_legal(s, a)}
                assert set(rl.legal_actions(s)) == brute, s
    assert taken > 10
