"""The per-meld lay-off fits kept by engine._fits are exactly the fit tests' answers (R-T6, J5, M2, J2, J3)."""

from __future__ import annotations

import attrs
import pytest
from _walks import fit_tests, table_melds_of, walk

import rummylib as rl
from rummylib.engine import _fits

#: The presets and house variants of the joker limits and the ace (R-J2, J3, M4).
RULESETS = {
    "remik": rl.REMIK,
    "straight": rl.STRAIGHT,
    "adjacent": attrs.evolve(rl.REMIK, adjacent_jokers=True),
    "six-jokers": attrs.evolve(rl.REMIK, jokers=6, group3_max_jokers=1, group4_max_jokers=2),
    "group4-one": attrs.evolve(rl.REMIK, jokers=6, group3_max_jokers=1, group4_max_jokers=1),
    "no-ace-high": attrs.evolve(rl.REMIK, ace_high=False),
}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_meld_fits_are_run_fit_and_group_fit_for_every_card(name: str) -> None:
    # R-J2, J3, M2: for every table meld of many walks, under every ruleset (their joker limits differ),
    # the kept lay-offs are each (card, end) the fit tests accept, low end first, the card before the
    # joker, as LayOff values onto the meld's slot with their cards' indices.
    rules = RULESETS[name]
    melds = table_melds_of(state for seed in range(6) for state in walk(rules, 3, seed, 300))
    jokers = 0
    for meld in melds:
        expected = fit_tests(3, meld, rules)
        _, _, slot, lays, cards = _fits._meld_fits(3, meld, rules)
        assert slot == 3
        assert [(lay.target, lay.card, lay.end) for lay in lays] == expected, meld
        assert cards == tuple(card.index for _, card, _ in expected)
        jokers += meld.joker_count > 0
    assert len(melds) > 30 and (jokers > 5 or not rules.jokers)


def test_table_jokers_kept_for_two_tables_answer_as_asked_fresh() -> None:
    # R-J4: table_jokers keeps its answer for the last two tables (a swap's check asks of the table after
    # the swap between two listings of one table); asked in any order, each answer is the fresh one.
    from rummylib.engine import _cache
    from rummylib.solver._goout_screen import joker_stands

    tables = [s.round.table for seed in range(3) for s in walk(rl.REMIK, 4, seed, 200) if s.round.table]
    fresh = {id(t): tuple((i, tm, x) for i, tm in enumerate(t) if (x := joker_stands(tm.meld))) for t in tables}
    _cache.clear()
    asked = 0
    for a, b in zip(tables, tables[7:]):
        for t in (a, b, a, a, b, b, a):
            assert _fits.table_jokers(t) == fresh[id(t)]
            asked += 1
    assert asked > 500 and any(fresh.values())
    _cache.clear()
    assert not _fits._JOKERS


def test_swaps_screened_by_held_cards_equal_the_full_search() -> None:
    # R-J4: swaps() skips the swap search when no table joker stands for a card the hand holds; on every
    # play state of many walks its answer equals the search's own (which tests each slot).
    from rummylib.engine._moves import _swaps_of, play, swaps

    asked = found = 0
    for seed in range(4):
        for state in walk(rl.REMIK, 4, seed, 300):
            p = play(state)
            if p is None or not p.boundary_ok or not p.opened_after:
                continue
            listed = list(swaps(state))
            assert listed == list(_swaps_of(p))
            asked += 1
            found += bool(listed)
    assert asked > 100 and found > 0
