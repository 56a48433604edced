"""The opening by its leftover, and the partition that lays every card (``solver/_leftover``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import attrs
import pytest
from _budget import examples
from _deals import dealt
from _oracle_solver import oracle_opening, selections
from _over_budget import recording
from _solver_helpers import decomposed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_oracle import rules_and_hand

from rummylib import REMIK, STRAIGHT, Card, CardMultiset, Opening, Ruleset, best_partition
from rummylib._card import CARDS
from rummylib.melds import is_clean_run
from rummylib.solver import _keep, _leftover, _opening
from rummylib.solver._leftover import Constrained, Laid, _laid_split, by_leftover, laid_whole
from rummylib.solver._opening import _solve_in, search_opening
from rummylib.solver._opening_objective import opening_rows, scales
from rummylib.solver._priced import SCALE, Relaxed, fixed, tightened
from rummylib.solver._search import NEG, Cover, OverBudget, entries, pack
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import tables_for


def tuned(**changes: Any) -> SearchSettings:
    """The default search settings with ``changes``."""
    return attrs.evolve(DEFAULT_SETTINGS, **changes)


#: The decomposition first, on every size, with budgets no small input reaches.
FIRST = tuned(
    orders_from=0,
    leftover_from=0,
    leftover_round=0,
    leftover_soon_from=0,
    leftover_sets=10**6,
    leftover_programmes=10**6,
)


def assert_same_as_oracle(hand: list[Card], rules: Ruleset, changed: SearchSettings, keep: int) -> Opening | None:
    """The opening found under ``changed``, checked to be worth the brute-force oracle's (points, cards, penalty)."""
    opening = search_opening(hand, rules, changed, keep=keep)
    got = None if opening is None else (opening.points, opening.cards_placed, -opening.penalty)
    assert got == oracle_opening(hand, rules, keep=keep)
    return opening


def assert_same_as_default(hand: CardMultiset, rules: Ruleset, changed: SearchSettings, keep: int) -> None:
    """The opening found under ``changed`` is worth what the default settings' is (points, cards, penalty)."""
    got, want = (search_opening(hand, rules, s, keep=keep) for s in (changed, DEFAULT_SETTINGS))
    assert (None if got is None else (got.points, got.cards_placed, got.penalty)) == (
        None if want is None else (want.points, want.cards_placed, want.penalty)
    )


@contextmanager
def counted(kind: type[Cover]) -> Iterator[list[int]]:
    """Count the states ``kind``'s search visits (calls of its ``best``)."""
    spent = [0]
    best = kind.best

    def counting(self: Cover, x: int, j: int, need: int, rem: int, alpha: int) -> int:
        spent[0] += 1
        return best(self, x, j, need, rem, alpha)

    with mock.patch.object(kind, "best", counting):
        yield spent


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]))
def test_opening_by_leftover_matches_oracle(case: tuple[Ruleset, list[Card]], keep: int) -> None:
    # R-O2, O3, T3: the best opening is the best over what it leaves in hand (at least
    # ``keep`` cards) of the best cover laying all the rest; tie-breaks by the leftover.
    rules, hand = case
    opening = assert_same_as_oracle(hand, rules, FIRST, keep)
    if opening is not None:
        laid = CardMultiset(c for m in opening.melds for c in m.cards)
        assert laid + opening.leftover == CardMultiset(hand)
        assert len(opening.leftover) >= keep


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]), st.sampled_from([1, 2]))
def test_opening_by_leftover_over_budget_matches_oracle(
    case: tuple[Ruleset, list[Card]], keep: int, budget: int
) -> None:
    # A decomposition that runs out of leftovers or programmes gives way to the search,
    # with the same answer.
    rules, hand = case
    tight = attrs.evolve(FIRST, leftover_sets=budget, leftover_programmes=budget)
    assert_same_as_oracle(hand, rules, tight, keep)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([REMIK, STRAIGHT]),
    st.integers(12, 22),
    st.integers(0, 10**6),
    st.sampled_from([0, 1]),
    st.sampled_from([1, 2, 50]),
    st.sampled_from([0, 10**6]),
    st.sampled_from([0, 1, 10**6]),
)
def test_decomposition_right_after_keeping_a_card_gives_up_matches_the_search(
    rules: Ruleset, size: int, seed: int, keep: int, budget: int, soon: int, programmes: int
) -> None:
    # R-O2, O3, T3: a budgeted attempt whose search leaving each card out runs over goes
    # straight on to the decomposition (leftover_early_from), without the search carrying
    # the duty to keep a card; whichever step settles the input, the answer is worth what
    # the plain search's is (inputs this small get no attempts by default). So too when
    # the decomposition comes a round later (leftover_soon_from), and when that search may
    # price only so many inputs less one card (leftover_early_programmes).
    hand = dealt(rules, size, seed)
    early = attrs.evolve(
        FIRST,
        leftover_early_from=0,
        leftover_soon_from=soon,
        leftover_early_programmes=programmes,
        keep_split_from=0,
        order_budgets=(budget, 4 * budget),
        leftover_sets=budget,
        leftover_programmes=budget,
    )
    assert_same_as_default(hand, rules, early, keep)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8), st.sampled_from([0, 1]), st.sampled_from([0, 1, 2]), st.sampled_from([1, 3, 10**6]))
def test_a_glance_and_a_short_decomposition_first_match_oracle(
    case: tuple[Ruleset, list[Card]], keep: int, programmes: int, budget: int
) -> None:
    # R-O2, O3, T3: from leftover_first_from cards the first round opens with a glance (the
    # plain search within trial_budget states) and the decomposition within its first limits,
    # before the orders and the decomposition with its usual limits (its work kept): the
    # answer is the oracle's whichever step settles the input.
    rules, hand = case
    first = attrs.evolve(
        FIRST,
        leftover_first_from=0,
        leftover_first_programmes=programmes,
        leftover_first_budget=budget,
        trial_budget=budget,
        order_budgets=(budget, 4 * budget),
        leftover_sets=2,
        leftover_programmes=programmes + 1,
    )
    assert_same_as_oracle(hand, rules, first, keep)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([REMIK, STRAIGHT]),
    st.integers(12, 22),
    st.integers(0, 10**6),
    st.sampled_from([0, 1]),
    st.sampled_from([0, 1, 3]),
    st.sampled_from([1, 50, 10**6]),
)
def test_a_glance_and_a_short_decomposition_first_match_the_search(
    rules: Ruleset, size: int, seed: int, keep: int, programmes: int, budget: int
) -> None:
    # R-O2, O3, T3: as above on inputs the oracle is too slow for, against the default settings.
    hand = dealt(rules, size, seed)
    first = attrs.evolve(
        FIRST,
        leftover_first_from=0,
        leftover_first_programmes=programmes,
        leftover_first_budget=budget,
        trial_budget=budget,
        keep_split_from=0,
        order_budgets=(budget, 4 * budget),
        leftover_sets=budget,
        leftover_programmes=programmes + 1,
    )
    assert_same_as_default(hand, rules, first, keep)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([REMIK, STRAIGHT]),
    st.integers(12, 22),
    st.integers(0, 10**6),
    st.sampled_from([0, 1]),
    st.sampled_from([1, 2, 50]),
    st.sampled_from([0, 10**6]),
)
def test_a_first_round_without_the_duty_search_matches_the_search(
    rules: Ruleset, size: int, seed: int, keep: int, budget: int, leftover_from: int
) -> None:
    # R-O2, O3, T3: below first_duty_from cards the first round's attempt whose search leaving
    # each card out runs over gives way to the next step without the search carrying the duty
    # to keep a card; the next round's attempts, the decomposition or the final search settle
    # the input with the answer of the default settings.
    hand = dealt(rules, size, seed)
    first = tuned(
        orders_from=0,
        keep_split_from=0,
        first_duty_from=10**6,
        leftover_from=leftover_from,
        leftover_round=0,
        leftover_soon_from=10**6,
        order_budgets=(budget, 4 * budget),
        leftover_sets=budget,
        leftover_programmes=budget,
    )
    assert_same_as_default(hand, rules, first, keep)


def test_the_first_round_of_large_inputs_opens_with_the_decomposition() -> None:
    # The order of the steps (_steps): from leftover_first_from cards the first round of the
    # decomposition opens with a glance and the short decomposition; the rounds after it,
    # and smaller inputs, keep the first order's attempt ahead of the decomposition.
    settings = DEFAULT_SETTINGS
    orders = ["rank", "reversed"]
    big = settings.leftover_first_from
    assert _opening._steps(big, 0, orders, settings, split=True) == [
        _opening.GLANCE,
        _opening.LEFTOVER_FIRST,
        "rank",
        _opening.LEFTOVER,
        "reversed",
    ]
    assert _opening._steps(big, 1, orders, settings, split=True) == ["rank", _opening.LEFTOVER, "reversed"]
    assert _opening._steps(big, 0, orders, settings, split=False) == orders
    assert _opening._steps(big - 1, 0, orders, settings, split=True)[0] == "rank"


@pytest.mark.parametrize("programmes", [0, 1, 2, 10**6])
def test_keeping_a_card_within_few_programmes_gives_the_same_opening(programmes: int) -> None:
    # R-O2, O3, T3: on 90 cards of seed 22 the search leaving each card out prices three
    # inputs less one card before it runs over; capped below that (leftover_early_programmes)
    # it gives way sooner to the decomposition, and the opening is the same (with the
    # decomposition not tried first, leftover_first_from, which settles this input at once).
    hand = dealt(REMIK, 90, 22)
    raised: list[str] = []
    with mock.patch.object(_opening, "keep_one", recording(_keep.keep_one, raised)):
        later = tuned(leftover_early_programmes=programmes, leftover_first_from=10**6)
        opening = search_opening(hand, REMIK, later, keep=1)
    assert opening is not None
    assert (opening.points, opening.cards_placed, opening.penalty) == (683, 89, 2)
    assert ("programmes" in raised) == (programmes < 3)


@pytest.mark.parametrize(
    ("size", "seed", "points", "penalty"), [(72, 14, 551, 2), (84, 2, 631, 2), (80, 1, 598, 4), (96, 12, 714, 3)]
)
def test_hard_openings_are_settled_by_their_leftover(size: int, seed: int, points: int, penalty: int) -> None:
    # R-O2, O3, T3: on these inputs the packing relaxation stays 1-3 points above the
    # optimum and the search took 12 s (72 cards of seed 14) and over a minute (84 of
    # seed 2); HiGHS agrees on the points. Leaving one low card and laying all the rest,
    # the relaxation of covers that lay every card is exact or one point off: a few
    # programmes and searches settle them within the decomposition's budgets (it raises
    # OverBudget past them). Its searches branch on the most constrained card
    # (Constrained): on 80 cards of seed 1 one leftover took the lowest-card search
    # past 200,000 states. The counts bound the work (never a time).
    hand = dealt(REMIK, size, seed)
    with (
        counted(Constrained) as states,
        mock.patch.object(Relaxed, "tightened", autospec=True, side_effect=Relaxed.tightened) as programmes,
    ):
        opening = _solve_in(hand, REMIK, 1, DEFAULT_SETTINGS, "rank", by_left=(DEFAULT_SETTINGS.leftover_budget, {}))
    assert opening is not None
    assert (opening.points, opening.cards_placed, opening.penalty) == (points, size - 1, penalty)
    laid = CardMultiset(c for m in opening.melds for c in m.cards)
    assert laid + opening.leftover == hand and any(is_clean_run(m) for m in opening.melds)
    assert 0 < programmes.call_count <= 20  # measured: 5, 4, 5 and 6 (the whole input and each leftover priced)
    assert 0 < states[0] <= 20_000  # measured: 128, 1,796, 4,170 and 61 (the lowest card first: 395,075 ...)


def test_decomposition_gives_way_past_its_budget() -> None:
    # A budget of one programme: the decomposition raises OverBudget (the caller then
    # searches as before).
    with pytest.raises(OverBudget):
        _solve_in(dealt(REMIK, 72, 14), REMIK, 1, tuned(leftover_programmes=1), "rank", by_left=(10**6, {}))


@pytest.mark.parametrize("first", [0, 10**6])
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(8))
def test_laying_every_card_matches_oracle(first: int, case: tuple[Ruleset, list[Card]]) -> None:
    # R-V: the cover that lays every card (tried by best_partition where it finds no first
    # cover) exists exactly when the oracle lays every card some candidate can take, and
    # it lays exactly those: by the lowest card first alone (first 0), and by the most
    # constrained card first, within a budget it never runs out of (laid_first_budget).
    rules, hand = case
    ms = CardMultiset(hand)
    jokers = ms.jokers if rules.jokers else 0
    tables = tables_for(ms.counts, jokers, rules)
    cover = Cover(tables, entries(tables, lambda shape: 0, (0,) * 53), (0,) * 53, DEFAULT_SETTINGS)
    x = cover.restrict(pack(ms.counts, tables), jokers)
    shapes = laid_whole(tables, x, jokers, tuned(hunt_budget=10**6, laid_first_budget=first))
    # Cards no candidate takes (dropped by restrict) are left in every answer.
    dead = [i for i in range(52) if ms.counts[i] and not (x >> (tables.width * tables.pos[i])) & tables.field]
    kept = Counter({CARDS[i]: ms.counts[i] for i in dead})
    exists = any(left == kept for _, left in selections(hand, rules))
    assert (shapes is not None) == exists
    if shapes is not None:
        laid = Counter(CARDS[c] for shape in shapes for c in shape.naturals)
        laid[CARDS[52]] += sum(shape.jokers for shape in shapes)
        assert laid + kept == Counter(hand)


def test_a_whole_multiset_laid_whole_is_found_at_once() -> None:
    # R-V: these 100 cards (seed 5) can all be laid (HiGHS: penalty 0), but the
    # least-deadwood search once found no first cover and ran for minutes; the search
    # that lays every card, rank-major, finds one in a few hundred states. (The first
    # cover of best_partition, found along the relaxation's melds, now lays them all.)
    hand = dealt(REMIK, 100, 5)
    with counted(Laid) as states:
        p = best_partition(hand, REMIK)
    assert p.penalty == 0 and not p.leftover
    assert states[0] <= 20_000
    ms = CardMultiset(hand)
    tables = tables_for(ms.counts, ms.jokers, REMIK)
    cover = Cover(tables, entries(tables, lambda shape: 0, (0,) * 53), (0,) * 53, DEFAULT_SETTINGS)
    x = cover.restrict(pack(ms.counts, tables), ms.jokers)
    with counted(Laid) as states:
        shapes = laid_whole(tables, x, ms.jokers, DEFAULT_SETTINGS)
    assert shapes is not None and sum(shape.size for shape in shapes) == 100
    assert 0 < states[0] <= 20_000


def test_a_whole_multiset_laid_whole_by_the_most_constrained_card_first() -> None:
    # R-V: these 70 cards (seed 78) can all be laid (HiGHS: penalty 0); the lowest card
    # first ran out of its 20,000 states and the least-deadwood search then took seconds,
    # while the most constrained card first (laid_first_budget) finds a cover in 232.
    hand = dealt(REMIK, 70, 78)
    with counted(Constrained) as states:
        p = best_partition(hand, REMIK)
    assert p.penalty == 0 and not p.leftover
    assert 0 < states[0] <= DEFAULT_SETTINGS.laid_first_budget


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_hand(12), st.sampled_from([0, 1]), st.integers(-3, 1))
def test_constrained_search_matches_lowest_card_search(
    case: tuple[Ruleset, list[Card]], need: int, offset: int
) -> None:
    # R-O2, O3: the decomposition's search that branches on the most constrained card
    # (Constrained) gives the value of the search that branches on the lowest card (Laid)
    # for every cut-off (above it exact, at or below it a bound), priced as the
    # decomposition prices it, also without the candidates fixing drops; its cover
    # lays every card and is worth that value.
    rules, hand = case
    ms = CardMultiset(hand)
    jokers = ms.jokers if rules.jokers else 0
    tables = tables_for(ms.counts, jokers, rules)
    plain = Cover(tables, entries(tables, lambda shape: 0, (0,) * 53), (0,) * 53, DEFAULT_SETTINGS)
    x = plain.restrict(pack(ms.counts, tables), jokers)
    split = _laid_split(scales(rules)[3])
    lowest = tightened(plain, tables, x, jokers, split, 0, Laid)
    exact = lowest.solve(x, jokers, need, NEG, SCALE, windows=False)
    target = exact + offset * SCALE if exact != NEG else 0
    w, field = tables.width, tables.field
    present = Counter({tables.card_at[p]: (x >> (w * p)) & field for p in range(52) if (x >> (w * p)) & field})
    for kind in (Laid, Constrained):
        search = fixed(tightened(plain, tables, x, jokers, split, 0, kind), tables, x, jokers, 0, target)
        value = search.solve(x, jokers, need, target - 1, SCALE, windows=False)
        assert (value >= target) == (exact >= target)
        if value >= target:
            assert value == exact
            shapes = search.path(x, jokers, need, value)
            assert sum(split.priced(shape) for shape in shapes) * SCALE == value
            assert Counter(c for shape in shapes for c in shape.naturals) == present
            assert sum(shape.jokers for shape in shapes) == jokers
            assert not need or any(shape.clean for shape in shapes)


@pytest.mark.parametrize("rules", [REMIK, STRAIGHT])
@pytest.mark.parametrize("limit", [3, 30, 300])
def test_decomposition_skipped_only_where_it_would_give_up_on_leftovers(rules: Ruleset, limit: int) -> None:
    # R-O2, O3, T3: _opening skips the decomposition when it is sure to bound more leftovers
    # than leftover_sets (from the packing relaxation's bound on the points); wherever it
    # does, the decomposition run in full indeed gives up on them, whatever it finds first.
    changed = tuned(leftover_sets=limit, leftover_programmes=10**6, leftover_budget=10**6, leftover_reach=10**6)
    skipped = tried = 0
    for size, seed in [(size, seed) for size in (16, 24, 32, 40) for seed in range(12)]:
        tables, cover, x, jokers, m2 = decomposed(rules, dealt(rules, size, seed), changed)
        for keep in (0, 1):
            if not _opening._sets_beyond(cover, tables, x, jokers, keep, rules.opening_points, {}):
                tried += 1
                continue
            skipped += 1
            with pytest.raises(OverBudget, match="sets"):
                by_leftover(cover, tables, x, jokers, keep, rules.opening_points * m2 - 1)
    assert skipped and tried  # both cases met


@pytest.mark.parametrize(("size", "seed"), [(40, 3), (70, 196), (72, 14)])
def test_each_level_holds_every_leftover_worth_it_once_in_card_order(size: int, seed: int) -> None:
    # The levels of the decomposition (its leftovers made level by level, each once) are those
    # a plain enumeration gives: every leftover of at least one card worth at most ``top - t``
    # points, in the order of their cards, those whose bound reaches ``t`` at each level.
    hand = dealt(REMIK, size, seed)
    jokers = hand.jokers
    tables = tables_for(hand.counts, jokers, REMIK, settings=DEFAULT_SETTINGS, order="rank")
    tables, rows, _, potential = opening_rows(REMIK, tables)
    cover = Cover(tables, rows, potential, DEFAULT_SETTINGS)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    state = _leftover._Decomposition(cover, tables, x, jokers, 1)

    def worth(most: int, start: int = 0) -> list[tuple[int, ...]]:
        """Every multiset of the kinds from ``start`` on worth at most ``most`` points (the empty one too)."""
        out: list[tuple[int, ...]] = [()]
        for k in range(start, len(state.kinds)):
            c, n = state.kinds[k]
            for copies in range(1, n + 1):
                if copies * state.value[c] <= most:
                    out += [(c,) * copies + rest for rest in worth(most - copies * state.value[c], k + 1)]
        return out

    for t in range(state.top, state.top - 9, -1):
        level = state.level(t)
        every = set(worth(state.top - t)) - {()}
        assert set(state.leftovers) == every
        assert [known.cards for known in state.order] == sorted(every)
        assert level == [known for known in state.order if known.bound >= t]
