"""The screens of the take question (engine._oblige._quick_take) never refuse a take the exact search allows.

R-D2: a player who has not opened takes the top discard only to open with it
and go out this turn. The listing asks this of every draw state, so cheap
sound screens refuse most takes before the exact go-out search; here each
screen is checked against that search (``can_go_out`` with ``open_with``)
on hands built to come near going out and on the draw states of seeded games.
"""

from __future__ import annotations

import random

import attrs
from _budget import examples
from _walks import WALK_RULES, walk
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_screens import _count_vectors

import rummylib as rl
from rummylib.engine._cover import cannot_cover, may_meld
from rummylib.engine._oblige import _TAKE, may_take_discard
from rummylib.melds import Run, card_at_position
from rummylib.solver._goout_screen import cannot_go_out
from rummylib.solver._queries import can_go_out

JOKERS = attrs.evolve(rl.REMIK, name="jokers", jokers=6, adjacent_jokers=True, group3_max_jokers=2, restock_limit=1)
#: The R-D2 rulesets (take to open and go out), presets and house variants.
RULES = {
    "remik": WALK_RULES["remik"],
    "remik-house": WALK_RULES["remik-house"],
    "jokers": JOKERS,
    "low-ace": attrs.evolve(rl.REMIK, name="low-ace", ace_high=False, restock_limit=2),
}


@settings(max_examples=examples(400), deadline=None)
@given(_count_vectors(), st.integers(0, 51), st.integers(0, 3))
def test_card_screen_never_reads_the_cards_own_count(
    vector: tuple[tuple[int, ...], rl.Ruleset], index: int, jokers: int
) -> None:
    # R-D2: the take's first screen (may_meld; tests/test_engine_screens.py checks it against a plain loop)
    # is asked of the hand before the take: the card's own copies never change its answer.
    counts, rules = vector
    want = may_meld(index, counts, jokers, rules)
    for copies in (0, 1, 2):
        changed = (*counts[:index], copies, *counts[index + 1 :])
        assert may_meld(index, changed, jokers, rules) is want


def _exact(rules: rl.Ruleset, r: rl.RoundState) -> bool:
    """R-D2 before opening, by the exact search alone: open with the top discard and go out."""
    card = r.discard[-1]
    hand = r.hands[r.to_act] + rl.CardMultiset([card])
    table = tuple(tm.meld for tm in r.table)
    return can_go_out(hand, table, rules, opened=False, open_with=card)


def _asked(rules: rl.Ruleset, r: rl.RoundState) -> bool:
    _TAKE.clear()  # the answer kept for the last round asked
    return may_take_discard(rules, r)


def _near_out(rules: rl.Ruleset, seed: int) -> tuple[list[rl.Card], rl.Card, list[rl.Meld], rl.Card]:
    """A hand of disjoint melds (a spare card or two, a card or two swapped) less one card; the card, a table, a card left."""
    rng = random.Random(seed)
    deck = list(rl.deck(rules))
    rng.shuffle(deck)
    rest = rl.CardMultiset(deck[24:])
    table: list[rl.Meld] = []
    laid = rl.CardMultiset(deck[:24])
    for meld in dict.fromkeys(rl.find_melds(laid, rules)):
        if len(table) < rng.randrange(0, 4) and rl.CardMultiset(meld.cards) <= laid:
            table.append(meld)
            laid = laid - rl.CardMultiset(meld.cards)
    pool = rl.CardMultiset(deck[24:60])
    hand: list[rl.Card] = []
    melds = sorted(dict.fromkeys(rl.find_melds(pool, rules)), key=lambda m: (-len(m.cards), rng.random()))
    for meld in melds:
        if len(hand) + len(meld.cards) > 14:
            continue
        cards = rl.CardMultiset(meld.cards)
        if cards <= rest:
            hand.extend(meld.cards)
            rest = rest - cards
    spares = [c for c in rest.distinct() if not c.is_joker]
    rng.shuffle(spares)
    hand.extend(spares[: max(0, 14 - len(hand))][: rng.randrange(1, 3)])
    for _ in range(rng.randrange(0, 3)):  # a card or two swapped for others: borderline hands
        hand[rng.randrange(len(hand))] = spares.pop()
    naturals = [c for c in hand if not c.is_joker] or hand
    card = naturals[rng.randrange(len(naturals))]
    hand.remove(card)
    return hand, card, table, spares[-1]


@settings(max_examples=examples(150), deadline=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32))
def test_take_of_a_hand_near_going_out_is_the_exact_answer(name: str, seed: int) -> None:
    # R-D2: hands made of melds but for a card or two, the taken card one of their cards: the listing's
    # answer, screens and all, is the exact search's.
    rules = RULES[name]
    hand, card, table, other = _near_out(rules, seed)
    state = rl.start_round_from(
        rules, [hand, [other]], discard=[card], table=table, opened=[False, False], to_act=0, phase=rl.Phase.DRAW
    )
    r = state.round
    assert _asked(rules, r) is _exact(rules, r)


def test_take_before_opening_is_the_exact_answer_in_seeded_games() -> None:
    # R-D2: every unopened draw state of seeded games; most takes are refused by the screens.
    asked = allowed = 0
    for rules in RULES.values():
        for seed in (1, 2, 3):
            for state in walk(rules, 4, seed, 300):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard or r.opened[r.to_act]:
                    continue
                answer = _asked(rules, r)
                assert answer is _exact(rules, r), (rules.name, seed)
                asked += 1
                allowed += answer
    assert asked > 1000


# --- jokers laid off into a table run's gaps (R-J4, J5, T6) ------------------------------------------------


def test_a_card_reached_through_a_joker_laid_off_is_not_refuted() -> None:
    # R-J5, T6: the joker is laid off at 8H, then 9H beyond it; the rest are melds and the discard. The
    # cover screen's split (no joker in a gap: 9H must meld; a joker in one: one joker fewer in new melds)
    # must let it through, and so must the counting screen.
    rules = rl.REMIK
    table = (rl.parse_meld("5H 6H 7H", rules),)
    hand = rl.CardMultiset(rl.parse_cards("JK 9H 2S 3S 4S KC KD KS 5C"))
    assert can_go_out(hand, table, rules, opened=True)
    assert not cannot_go_out(hand, table, rules)
    assert not cannot_cover(hand, table, rules)


def _bridged(rules: rl.Ruleset, seed: int) -> tuple[rl.CardMultiset, tuple[rl.Meld, ...]] | None:
    """A hand that goes out by laying a joker off into a table run's gap and naturals beyond it, and that table.

    The rest of the hand is disjoint melds and one spare card (the discard); ``None`` where the deal
    gave no run to bridge.
    """
    rng = random.Random(seed)
    deck = list(rl.deck(rules))
    rng.shuffle(deck)
    laid = rl.CardMultiset(deck[:30])
    runs = [m for m in dict.fromkeys(rl.find_melds(laid, rules)) if isinstance(m, Run) and not m.joker_count]
    if not runs:
        return None
    run = runs[rng.randrange(len(runs))]
    rest = rl.CardMultiset(deck[30:]) + (laid - rl.CardMultiset(run.cards))
    top = 14 if rules.ace_high else 13
    ends = [(run.start - 1, -1), (run.start + len(run.cards), 1)]
    pos, step = ends[rng.randrange(2)]
    beyond = [
        card_at_position(p, run.suit) for p in (pos + step, pos + 2 * step)[: rng.randrange(1, 3)] if 1 <= p <= top
    ]
    hand: list[rl.Card] = [rl.JOKER]
    for card in beyond:
        if rest.count(card):
            hand.append(card)
            rest = rest - rl.CardMultiset([card])
    if len(hand) < 2 or not 1 <= pos <= top:
        return None
    pool = rl.CardMultiset(list(rest)[:: max(1, len(rest) // 30)][:30])
    for meld in sorted(dict.fromkeys(rl.find_melds(pool, rules)), key=lambda _: rng.random()):
        if len(hand) >= 11:
            break
        cards = rl.CardMultiset(meld.cards)
        if not meld.joker_count and cards <= rest:
            hand.extend(meld.cards)
            rest = rest - cards
    hand.append(next(c for c in rest.distinct() if not c.is_joker))  # the discard
    return rl.CardMultiset(hand), (run,)


@settings(max_examples=examples(200), deadline=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32))
def test_hands_going_out_through_a_joker_laid_off_are_never_refuted(name: str, seed: int) -> None:
    # R-J4, J5: only the hand's own jokers reach a card through a table run's gaps, and such a joker is in no
    # new meld; the screens split on it. Wherever the exact search finds a plan, neither screen refutes it.
    rules = RULES[name]
    built = _bridged(rules, seed)
    if built is None:
        return
    hand, table = built
    if can_go_out(hand, table, rules, opened=True):
        assert not cannot_go_out(hand, table, rules)
        assert not cannot_cover(hand, table, rules)
