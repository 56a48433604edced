"""The go-out screen (solver/_goout_screen.py) is sound: it never rules out a hand that can go out.

One screen serves both callers: the plan search (``plan_go_out``) asks it
first, and the engine asks it before its R-D2 question. Every test here
checks a refusal against the search *without* the screen and, on small
hands, against the brute-force oracle (R-T2, E1, E3, J4).
"""

from __future__ import annotations

import attrs
from _budget import examples
from _oracle_solver import oracle_can_go_out
from _walks import WALK_RULES, walk
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_solver_oracle import go_out_cases

import rummylib as rl
from rummylib import Card, CardMultiset, Meld, Ruleset
from rummylib.solver._goout import _plan_for
from rummylib.solver._goout_screen import cannot_go_out, homeless

C = rl.parse_cards
NATURALS = [rl.Card(rank, suit) for suit in rl.Suit for rank in rl.Rank]
#: Many jokers, side by side allowed, two jokers in a set of three: the screen's joker counts are stressed.
JOKERS = attrs.evolve(rl.REMIK, name="jokers", jokers=8, adjacent_jokers=True, group3_max_jokers=2)
RULES = [rl.REMIK, rl.STRAIGHT, JOKERS]
#: The house rules of benchmarks/hostile.py: 4 decks, 16 jokers, 16-card hands.
JOKERS16 = attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, hand_sizes=dict.fromkeys(range(2, 7), 16))

Position = tuple[CardMultiset, tuple[Meld, ...], Ruleset]


def search_finds(
    hand: list[Card] | CardMultiset, table: list[Meld] | tuple[Meld, ...], rules: Ruleset, opened: bool
) -> bool:
    """The go-out search itself, with no screen in front of it."""
    need_open = rules.opening_required and not opened
    return _plan_for(CardMultiset(hand), tuple(table), rules, need_open, None) is not None


# --- strategies ------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, size: tuple[int, int]) -> Position:
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


@st.composite
def strays_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], bool]:
    """A table of melds and a hand of random cards near them: most such hands cannot go out."""
    rules, hand, table, opened = draw(go_out_cases())
    on_table = CardMultiset(c for m in table for c in m.cards)
    near = {int(t.rank) for m in table for t in m.cards if t.rank is not None}
    pool = [c for c in NATURALS if c.rank is not None and (not near or min(abs(int(c.rank) - r) for r in near) <= 2)]
    extra = draw(st.lists(st.sampled_from(pool or [rl.parse_card("AS")]), max_size=4))
    for card in extra:
        if (CardMultiset([*hand, card]) + on_table).count(card) <= rules.decks:
            hand.append(card)
    return rules, hand[:9], table, opened


@st.composite
def loose_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], bool]:
    """A table from the oracle's cases and a hand of up to seven cards from anywhere (and a joker or not)."""
    rules, _, table, opened = draw(go_out_cases())
    on_table = CardMultiset(c for m in table for c in m.cards)
    hand: list[Card] = []
    for card in draw(st.lists(st.sampled_from(NATURALS), min_size=2, max_size=7)):
        if (CardMultiset([*hand, card]) + on_table).count(card) <= rules.decks:
            hand.append(card)
    if rules.jokers and draw(st.booleans()) and on_table.jokers < rules.jokers:
        hand.append(rl.JOKER)
    return rules, hand, table, opened


# --- soundness ---------------------------------------------------------------------------


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(go_out_cases(), strays_cases(), loose_cases()))
def test_the_screen_refuses_only_hands_that_cannot_go_out(case: tuple[Ruleset, list[Card], list[Meld], bool]) -> None:
    # R-T2, E1, E3: at most one card is left for the discard; each argument alone is sound too.
    rules, hand, table, opened = case
    ms, melds = CardMultiset(hand), tuple(table)
    refused = cannot_go_out(ms, melds, rules)
    by_places = homeless(ms, melds, rules) > 1
    assert refused or not by_places  # the screen runs the places argument
    event("refused" if refused else "passed")
    if refused:
        assert not search_finds(hand, table, rules, opened)
        assert not oracle_can_go_out(hand, table, rules, opened=opened)


@settings(max_examples=examples(150), deadline=None)
@given(positions((3, 7)))
def test_screen_never_rules_out_a_go_out_the_oracle_finds(pos: Position) -> None:
    # R-E1, E3, T3: brute force on small hands (every sequence of melds, lay-offs and swaps).
    hand, table, rules = pos
    if cannot_go_out(hand, table, rules):
        assert not oracle_can_go_out(list(hand), table, rules, opened=True)


@settings(max_examples=examples(120), deadline=None)
@given(positions((8, 15)))
def test_screen_never_rules_out_a_go_out_the_search_finds(pos: Position) -> None:
    # R-E1, T3: the exact go-out search, unscreened, on hands of a whole turn.
    hand, table, rules = pos
    if cannot_go_out(hand, table, rules):
        assert not search_finds(hand, table, rules, opened=True)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(go_out_cases(), strays_cases(), loose_cases()))
def test_plan_go_out_agrees_with_its_unscreened_search(case: tuple[Ruleset, list[Card], list[Meld], bool]) -> None:
    rules, hand, table, opened = case
    assert (rl.plan_go_out(hand, table, rules, opened=opened) is not None) == search_finds(hand, table, rules, opened)


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
                    assert not search_finds(hand, table, rules, opened=True)
    assert ruled_out > asked // 2  # the screen settles most of them


# --- examples ----------------------------------------------------------------------------


def test_jokers_a_card_needs_examples() -> None:
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


def test_the_screen_counts_places_per_copy() -> None:
    table = (rl.parse_meld("9C 10C JC", JOKERS16), rl.parse_meld("3H 4H 5H", JOKERS16))
    assert homeless(CardMultiset(C("AH")), table, JOKERS16) == 1  # no neighbour, no group (R-M1, M2)
    assert homeless(CardMultiset(C("QC")), table, JOKERS16) == 0  # onto 9C 10C JC (R-T6)
    assert homeless(CardMultiset(C("QC QC")), table, JOKERS16) == 1  # the run holds one QC
    assert homeless(CardMultiset(C("QC QC KC")), table, JOKERS16) == 1  # QC KC onto the run, one QC left
    assert homeless(CardMultiset(C("KC")), table, JOKERS16) == 1  # QC is not in the hand to fill the gap
    assert homeless(CardMultiset(C("KC QC")), table, JOKERS16) == 0
    assert homeless(CardMultiset(C("AH JK")), table, JOKERS16) == 0  # a joker can fill 2H (R-J1)
    swapped = (rl.parse_meld("9C JK=10C JC", JOKERS16),)
    assert homeless(CardMultiset(C("10C 10C")), swapped, JOKERS16) == 1  # one may replace the joker (R-J4)
    assert homeless(CardMultiset(C("10C 10C")), swapped, attrs.evolve(JOKERS16, joker_swap=False)) == 2
    # A group of three takes the suit it lacks (R-T6): 7C onto 7S 7H 7D, one copy.
    group = (rl.parse_meld("7S 7H 7D", JOKERS16),)
    assert homeless(CardMultiset(C("7C")), group, JOKERS16) == 0
    assert homeless(CardMultiset(C("7C 7C")), group, JOKERS16) == 1
