"""What one opening call's budgeted attempts prove is kept for its later ones, and stays exact (``_proofs``).

The bound a failed aspiration window proves (``Cover.solve``'s ``cap``) starts
the windows of every later search of the same question, in any order, and of
the search that must keep a card (R-T3); the order that proved the most goes
first; a first cover is found once. None of it may change an answer: checked
against the oracle with budgets that run out again and again, and the bounds
kept against the exact optimum on seeded deals.
"""

from __future__ import annotations

import attrs
import pytest
from _budget import examples
from _deals import dealt
from _oracle_solver import oracle_opening
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_oracle import HOUSE_REMIK, LOW_REMIK, ONE_MELD_REMIK, hands

from rummylib import REMIK, Card, Ruleset
from rummylib.solver._opening import search_opening
from rummylib.solver._opening_objective import opening_rows, points_split
from rummylib.solver._priced import SCALE, tightened
from rummylib.solver._search import Cover, OverBudget, pack
from rummylib.solver._settings import DEFAULT_SETTINGS
from rummylib.solver._tables import tables_for

#: Rounds of budgeted attempts in both orders, the budgets run out again and again.
ROUNDS = [(1, 4, 16), (3, 30, 300), (2, 2, 2, 10**6)]


@st.composite
def opening_hands(draw: st.DrawFn) -> tuple[Ruleset, list[Card]]:
    """Dense hands of up to 9 cards under rules whose openings small hands reach (R-O2)."""
    rules = draw(st.sampled_from([LOW_REMIK, ONE_MELD_REMIK, HOUSE_REMIK]))
    return rules, draw(hands(rules, 9, 5))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opening_hands(), st.sampled_from(ROUNDS), st.sampled_from([0, 1]), st.sampled_from([1, 10**6]))
def test_attempts_that_keep_their_proofs_match_oracle(
    case: tuple[Ruleset, list[Card]], budgets: tuple[int, ...], keep: int, split: int
) -> None:
    # R-O2, O3, T3: each attempt starts from the bounds the earlier ones proved, the
    # order that proved the most goes first, first covers and spent tie steps are kept;
    # the answer is the oracle's, whether the search that may lay every card settles
    # it or the one carrying the duty to keep a card (``split``: 1).
    rules, hand = case
    tuned = attrs.evolve(
        DEFAULT_SETTINGS,
        lp_from=0,
        hunt_from=0,
        orders_from=0,
        keep_split_from=0,
        keep_split_budget=split,
        orders=("rank", "reversed"),
        order_budgets=budgets,
        tie_budget=2,
    )
    opening = search_opening(hand, rules, tuned, keep=keep)
    got = None if opening is None else (opening.points, opening.cards_placed, -opening.penalty)
    assert got == oracle_opening(hand, rules, keep=keep)


def _priced(size: int, seed: int, order: str, budget: int) -> tuple[Cover, int, int]:
    """The search of a seeded deal priced by points (as ``settle``'s), within ``budget`` states; its input."""
    hand = dealt(REMIK, size, seed)
    tables = tables_for(hand.counts, hand.jokers, REMIK, order=order)
    tables, rows, _, potential = opening_rows(REMIK, tables)
    attempt = attrs.evolve(DEFAULT_SETTINGS, memo_limit=budget, give_up=True)
    cover = Cover(tables, rows, potential, attempt)
    x = cover.restrict(pack(hand.counts, tables), hand.jokers)
    return tightened(cover, tables, x, hand.jokers, points_split(REMIK)), x, hand.jokers


@pytest.mark.parametrize(("size", "seed"), [(40, 3), (50, 4)])
def test_a_bound_kept_from_failed_windows_never_cuts_the_optimum(size: int, seed: int) -> None:
    # R-O2, O3: every window that fails proves no opening reaches it; the bound kept
    # (shared by both orders, and by budgets that run out) stays at or above the best
    # opening's points, and a search started from it finds that opening.
    m2 = opening_rows(REMIK, tables_for((0,) * 53, 0, REMIK))[2]
    unit = SCALE * m2
    exact, x, j = _priced(size, seed, "rank", 10**7)
    best = exact.solve(x, j, 1, -1, unit) // unit
    bound = [1 << 62, 1 << 62]
    lowered = False
    for budget in (100, 400, 1_600):
        for order in ("rank", "reversed"):
            search, x, j = _priced(size, seed, order, budget)
            before = bound[0]
            try:
                value = search.solve(x, j, 1, -1, unit, cap=bound)
            except OverBudget:
                value = None
            assert bound[0] >= best
            lowered = lowered or bound[0] < min(before, search.remaining(x, j) // unit)
            if value is not None:
                assert value // unit == best
    search, x, j = _priced(size, seed, "reversed", 10**7)
    assert search.solve(x, j, 1, -1, unit, cap=bound) // unit == best
    assert lowered or bound[0] == best  # the windows did prove something


def test_what_one_call_keeps_belongs_to_its_thread() -> None:
    # The searches _proofs keeps are changed as they run, and remembered()'s programmes are kept per call:
    # a thread solving beside one inside proving()/remembered() keeps nothing of the other's, and gets
    # the same answer as alone.
    import threading

    from rummylib.solver import _lp, _proofs

    seen: list[object] = []

    def other() -> None:
        seen.extend((_proofs._KEPT.caps, _lp._KEPT.solved))

    with _proofs.proving(), _lp.remembered():
        assert _proofs._KEPT.caps == {} and _lp._KEPT.solved == {}
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert seen == [None, None]
    assert _proofs._KEPT.caps is None and _lp._KEPT.solved is None


def test_threads_solving_the_same_input_at_once_get_the_serial_answer() -> None:
    # R-O2, O3, T3: each call's kept searches are its own thread's (see above), so two threads asking
    # the same large opening at once find the very opening a serial call finds.
    from concurrent.futures import ThreadPoolExecutor

    from rummylib.solver import best_opening

    hand = dealt(REMIK, 48, 7)
    alone = best_opening(hand, REMIK)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: best_opening(hand, REMIK), range(4)))
    assert alone is not None
    assert all(a == alone for a in answers)
