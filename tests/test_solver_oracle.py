"""The solver against the naive oracle on many small hands (Hypothesis)."""

from __future__ import annotations

import attrs
from _budget import examples
from _oracle_solver import (
    oracle_can_go_out,
    oracle_melds,
    oracle_opening,
    oracle_partition_penalty,
    replay,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    Card,
    CardMultiset,
    End,
    InvalidMeldError,
    Meld,
    Open,
    Rank,
    Ruleset,
    Run,
    Suit,
    best_opening,
    best_partition,
    can_open,
    find_melds,
    hand_penalty,
    is_clean_run,
    lay_off,
    meld_points,
    plan_go_out,
    validate_meld,
)

#: House variants the oracle also covers: six jokers, several melds per straight turn,
#: jokers side by side, a straight game with a discard to go out.
HOUSE_REMIK = attrs.evolve(REMIK, name="house-remik", jokers=6, adjacent_jokers=True)
HOUSE_STRAIGHT = attrs.evolve(STRAIGHT, name="house-straight", melds_per_turn=None, must_discard_to_go_out=True)
ONE_MELD_REMIK = attrs.evolve(REMIK, name="one-meld-remik", melds_per_turn=2, opening_points=20)
#: Small openings, so that small hands can open (R-O2 with a lower threshold).
LOW_REMIK = attrs.evolve(REMIK, name="low-remik", opening_points=20)
RULESETS = [REMIK, STRAIGHT, HOUSE_REMIK, HOUSE_STRAIGHT, ONE_MELD_REMIK, LOW_REMIK]

SETTINGS = settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hands(draw: st.DrawFn, rules: Ruleset, max_size: int, min_size: int = 0) -> list[Card]:
    """Dense small hands: few suits, a window of ranks, duplicates and jokers."""
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(3, 6))
    ranks = [((low - 1 + k) % 13) + 1 for k in range(width)]
    pool = [Card(Rank(r), s) for s in suits for r in ranks for _ in range(rules.decks)]
    pool += [JOKER] * rules.jokers
    size = min(min_size, len(pool))
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=max_size, unique=True))
    return [pool[i] for i in picked]


def _check_melds(melds: tuple[Meld, ...], hand: list[Card], rules: Ruleset) -> CardMultiset:
    for m in melds:
        validate_meld(m, rules)
    used = CardMultiset(c for m in melds for c in m.cards)
    assert used <= CardMultiset(hand)
    return CardMultiset(hand) - used


@st.composite
def rules_and_hand(draw: st.DrawFn, max_size: int) -> tuple[Ruleset, list[Card]]:
    rules = draw(st.sampled_from(RULESETS))
    return rules, draw(hands(rules, max_size))


@SETTINGS
@given(rules_and_hand(8))
def test_partition_matches_oracle(case: tuple[Ruleset, list[Card]]) -> None:
    rules, hand = case
    p = best_partition(hand, rules)
    left = _check_melds(p.melds, hand, rules)
    assert left == p.leftover
    assert p.penalty == hand_penalty(p.leftover, rules)
    assert p.penalty == oracle_partition_penalty(hand, rules)


@SETTINGS
@given(rules_and_hand(8))
def test_opening_matches_oracle(case: tuple[Ruleset, list[Card]]) -> None:
    # R-O2, O3: the most points, then the most cards, then the least penalty.
    rules, hand = case
    opening = best_opening(hand, rules, keep=0)
    expected = oracle_opening(hand, rules)
    assert can_open(hand, rules, keep=0) == (expected is not None)
    if opening is None:
        assert expected is None
        return
    left = _check_melds(opening.melds, hand, rules)
    assert left == opening.leftover
    assert opening.points == sum(meld_points(m, rules) for m in opening.melds)
    assert opening.points >= rules.opening_points
    if rules.opening_clean_run:
        assert any(is_clean_run(m) for m in opening.melds)
    assert (opening.points, opening.cards_placed, -opening.penalty) == expected


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(9))
def test_go_out_plans_open_as_best_opening_allows(case: tuple[Ruleset, list[Card]]) -> None:
    # R-T3, E1, E3: plan_go_out and best_opening keep the same cards, so a plan that opens
    # lays an opening that best_opening (default keep) finds, and is worth at most its best.
    rules, hand = case
    if not rules.opening_required:
        return
    plan = plan_go_out(hand, [], rules, opened=False)
    best = best_opening(hand, rules)
    if plan is None:
        return
    opening = plan[0]
    assert isinstance(opening, Open)
    assert best is not None
    assert sum(meld_points(m, rules) for m in opening.melds) <= best.points


@SETTINGS
@given(rules_and_hand(8), st.sampled_from([None, 1, 2]))
def test_opening_that_keeps_cards_matches_oracle(case: tuple[Ruleset, list[Card]], keep: int | None) -> None:
    # R-T3: by default a remik opening leaves a card for the discard; none where a player
    # may go out by melding (must_discard_to_go_out false). keep=k leaves at least k cards.
    rules, hand = case
    wanted = (1 if rules.must_discard_to_go_out else 0) if keep is None else keep
    opening = best_opening(hand, rules, keep=keep)
    expected = oracle_opening(hand, rules, wanted)
    assert can_open(hand, rules, keep=keep) == (expected is not None)
    if opening is None:
        assert expected is None
        return
    left = _check_melds(opening.melds, hand, rules)
    assert left == opening.leftover and len(left) >= wanted
    assert (opening.points, opening.cards_placed, -opening.penalty) == expected


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(6))
def test_find_melds_matches_oracle(case: tuple[Ruleset, list[Card]]) -> None:
    rules, hand = case
    found = list(find_melds(hand, rules))
    assert len(found) == len(set(found))
    assert set(found) == set(oracle_melds(hand, rules))


def _lays_off(meld: Meld, card: Card, rules: Ruleset) -> bool:
    ends: list[End | None] = [End.LOW, End.HIGH] if isinstance(meld, Run) else [None]
    for end in ends:
        try:
            lay_off(meld, card, rules, end=end)
        except InvalidMeldError:
            continue
        return True
    return False


@st.composite
def go_out_cases(draw: st.DrawFn) -> tuple[Ruleset, list[Card], list[Meld], bool]:
    """A table, and a hand built from melds, lay-off cards, swap cards and strays."""
    rules = draw(st.sampled_from(RULESETS))
    pool = draw(hands(rules, 18, 10))
    table: list[Meld] = []
    left = CardMultiset(pool)
    for _ in range(draw(st.integers(0, 3))):
        options = [m for m in find_melds(left, rules) if len(m) <= 5]
        if not options:
            break
        meld = draw(st.sampled_from(options))
        table.append(meld)
        left = left - CardMultiset(meld.cards)
    hand: list[Card] = []
    for _ in range(draw(st.integers(0, 2))):
        options = [m for m in find_melds(left, rules) if len(m) <= 4]
        if not options:
            break
        meld = draw(st.sampled_from(options))
        hand.extend(meld.cards)
        left = left - CardMultiset(meld.cards)
    # A card a table joker stands for (R-J4), and naturals that want the freed joker.
    on_table = CardMultiset(c for m in table for c in m.cards)

    def fits(card: Card) -> bool:
        limit = rules.jokers if card.is_joker else rules.decks
        return CardMultiset([*hand, card]).count(card) + on_table.count(card) <= limit

    jokers_on_table = [s for m in table for c, s in zip(m.cards, m.represents) if c.is_joker]
    want_swap: bool = draw(st.booleans())
    if jokers_on_table and want_swap:
        stands = draw(st.sampled_from(jokers_on_table))
        if fits(stands):
            hand.append(stands)
            wanting = [m for m in find_melds(left, rules) if m.joker_count == 1 and len(m) <= 4]
            if wanting:
                meld = draw(st.sampled_from(wanting))
                naturals = [c for c in meld.cards if not c.is_joker]
                if all(fits(c) for c in naturals):
                    hand.extend(naturals)
    # Cards that lay off onto the table (R-J5, T6).
    for _ in range(draw(st.integers(0, 2))):
        layable = [c for c in left.distinct() if fits(c) and any(_lays_off(m, c, rules) for m in table)]
        if layable:
            hand.append(draw(st.sampled_from(layable)))
    # A stray card, the usual discard.
    if left and draw(st.integers(0, 3)):
        stray = draw(st.sampled_from(list(left)))
        if fits(stray):
            hand.append(stray)
    hand = hand[:8]
    opened = draw(st.booleans())
    return rules, hand, table, opened


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(go_out_cases())
def test_go_out_matches_oracle(case: tuple[Ruleset, list[Card], list[Meld], bool]) -> None:
    # R-E1, E3, J4, O2-O4, T5: a plan exists exactly when some action sequence empties the hand.
    rules, hand, table, opened = case
    plan = plan_go_out(hand, table, rules, opened=opened)
    if plan is not None:
        replay(hand, table, rules, opened, plan)
    assert (plan is not None) == oracle_can_go_out(hand, table, rules, opened=opened)
