"""The engine's cheap go-out screen is sound: it never rules out a hand the exact search lays out (R-D2, E1, T3)."""

from __future__ import annotations

import random

import attrs
from _oracle_solver import oracle_can_go_out
from _walks import WALK_RULES, walk
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.engine._cache import goes_out
from rummylib.engine._complete import may_open
from rummylib.engine._screens import cannot_go_out
from rummylib.solver._queries import can_go_out

C = rl.parse_cards
#: Many jokers, side by side allowed, two jokers in a set of three: the screen's joker counts are stressed.
JOKERS = attrs.evolve(rl.REMIK, name="jokers", jokers=8, adjacent_jokers=True, group3_max_jokers=2)
RULES = [rl.REMIK, rl.STRAIGHT, JOKERS]


@st.composite
def positions(draw: st.DrawFn, size: tuple[int, int]) -> tuple[rl.CardMultiset, tuple[rl.Meld, ...], rl.Ruleset]:
    """A random hand, and a table of disjoint melds found in other cards of the same deck."""
    rules = draw(st.sampled_from(RULES))
    deck = list(rl.deck(rules))
    cards = draw(st.permutations(deck))
    hand = rl.CardMultiset(cards[: draw(st.integers(*size))])
    rest = rl.CardMultiset(cards[40:70])
    table: list[rl.Meld] = []
    for meld in rl.find_melds(rest, rules):
        if len(table) >= draw(st.integers(0, 4)):
            break
        if rl.CardMultiset(meld.cards) <= rest:
            rest = rest - rl.CardMultiset(meld.cards)
            table.append(meld)
    return hand, tuple(table), rules


@settings(max_examples=150, deadline=None)
@given(positions((3, 7)))
def test_screen_never_rules_out_a_go_out_the_oracle_finds(
    pos: tuple[rl.CardMultiset, tuple[rl.Meld, ...], rl.Ruleset],
) -> None:
    # R-E1, E3, T3: brute force on small hands (every sequence of melds, lay-offs and swaps).
    hand, table, rules = pos
    if cannot_go_out(hand, table, rules):
        assert not oracle_can_go_out(list(hand), table, rules, opened=True)


@settings(max_examples=120, deadline=None)
@given(positions((8, 15)))
def test_screen_never_rules_out_a_go_out_the_solver_finds(
    pos: tuple[rl.CardMultiset, tuple[rl.Meld, ...], rl.Ruleset],
) -> None:
    # R-E1, T3: the exact go-out search on hands of a whole turn.
    hand, table, rules = pos
    if cannot_go_out(hand, table, rules):
        assert not can_go_out(hand, table, rules, opened=True)


def test_screen_on_reachable_positions() -> None:
    # R-D2: every draw-phase hand plus the top discard of seeded games, as the engine asks it.
    ruled_out = asked = 0
    for name in ("remik", "remik-house"):
        rules = WALK_RULES[name]
        for seed in range(3):
            for state in walk(rules, 3, seed, 90):
                r = state.round
                if state.phase is not rl.Phase.DRAW or not r.discard:
                    continue
                hand = r.hands[r.to_act] + rl.CardMultiset(r.discard[-1:])
                table = tuple(tm.meld for tm in r.table)
                asked += 1
                if cannot_go_out(hand, table, rules):
                    ruled_out += 1
                    assert not can_go_out(hand, table, rules, opened=True)
    assert ruled_out > asked // 2  # the screen settles most of them


def test_screen_examples() -> None:
    # One joker cannot carry three lonely cards (QS, JH, 3C); a laid-out hand passes (R-E1, T3).
    table: tuple[rl.Meld, ...] = ()
    assert cannot_go_out(rl.CardMultiset(C("7S QS JH 4D 5D 6D 7D 8D 3C 6C 6C 7C 7C JK")), table, rl.REMIK)
    assert not cannot_go_out(rl.CardMultiset(C("4D 5D 6D 7S 7H 7C 9H")), table, rl.REMIK)
    # A table run takes the next card of its suit, and the one after through a held card or a joker (R-T6).
    run = rl.parse_meld("5C 6C 7C", rl.REMIK)
    assert cannot_go_out(rl.CardMultiset(C("4D 5D 6D 3C 9S")), (), rl.REMIK)
    assert not cannot_go_out(rl.CardMultiset(C("4D 5D 6D 4C 9S")), (run,), rl.REMIK)
    assert not cannot_go_out(rl.CardMultiset(C("4D 5D 6D 3C 4C 9S")), (run,), rl.REMIK)
    assert cannot_go_out(rl.CardMultiset(C("4D 5D 6D 3C 9S")), (run,), rl.REMIK)  # 4C is missing


def test_unopened_may_take_the_discard_to_open_and_go_out_by_a_discard_where_melding_out_is_allowed() -> None:
    # R-D2, E3: with the house rule that a hand may also go out by melding, the last card may still be
    # discarded; the engine refused the take when one card fit no meld (a screen counted no discard).
    rules = attrs.evolve(rl.REMIK, name="meld-out", must_discard_to_go_out=False)
    hands = [C("10H JH QH KH AH 4S"), C("KS KD KC QS QC JC")]
    s = rl.start_round_from(
        rules, hands, discard=C("9H"), table=[], opened=[False, False], to_act=0, phase=rl.Phase.DRAW
    )
    assert rl.TakeDiscard() in list(rl.legal_actions(s))
    t = rl.apply(s, rl.TakeDiscard())
    t = rl.apply(t, rl.LayMeld(rl.parse_meld("9H 10H JH QH KH AH", rules)))
    assert rl.apply(t, rl.Discard(rl.parse_card("4S"))).phase in (rl.Phase.ROUND_OVER, rl.Phase.GAME_OVER)


@settings(max_examples=40, deadline=None)
@given(positions((6, 12)), st.randoms(use_true_random=False))
def test_cached_go_out_answer_is_the_solvers_in_any_table_order(
    pos: tuple[rl.CardMultiset, tuple[rl.Meld, ...], rl.Ruleset], rnd: random.Random
) -> None:
    # R-E1: the engine keeps go-out answers keyed on the table as a multiset; the order melds were laid
    # in never changes whether a hand can go out.
    hand, table, rules = pos
    want = can_go_out(hand, table, rules, opened=True)
    shuffled = list(table)
    rnd.shuffle(shuffled)
    engine_cache.clear()
    assert goes_out(hand, table, rules, opened=True) is want
    assert goes_out(hand, tuple(shuffled), rules, opened=True) is want  # a hit of the first question


@settings(max_examples=60, deadline=None)
@given(positions((3, 16)))
def test_opening_screen_never_rules_out_an_opening_the_solver_finds(
    pos: tuple[rl.CardMultiset, tuple[rl.Meld, ...], rl.Ruleset],
) -> None:
    # R-O2: GreedyBot and the listing skip the opening search when the cheap test says no opening.
    hand, _, rules = pos
    if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
        assert rl.best_opening(hand, rules) is None
