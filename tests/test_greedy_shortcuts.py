"""The greedy bot's shortcuts in front of the solver give the solver's own answers.

A one-card hand of an opened player, under rules where the last card must be
discarded (R-E1, T3), has one go-out plan: discard it. The bot answers so
without the go-out search; the solver must agree on every card and on the
tables of seeded games.
"""

from __future__ import annotations

from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.actions import Discard
from rummylib.solver._queries import plan_checked


def test_a_one_card_plan_is_its_discard_on_every_card_and_table() -> None:
    # R-E1: with a discard needed to go out, the single card left can only be that discard.
    asked = 0
    for rules in WALK_RULES.values():
        if not rules.must_discard_to_go_out:
            continue
        tables: dict[tuple[rl.Meld, ...], None] = {}
        for seed in (1, 2):
            for state in walk(rules, 3, seed, 400):
                tables[tuple(tm.meld for tm in state.round.table)] = None
        for table in list(tables)[::4]:  # a sample of the distinct tables, the empty one first
            on_table = rl.CardMultiset(c for m in table for c in m.cards)
            for card in rl.CardMultiset(rl.deck(rules)).distinct():
                if on_table.count(card) >= rl.CardMultiset(rl.deck(rules)).count(card):
                    continue  # every copy is on the table
                hand = rl.CardMultiset([card])
                for opened in (True, False) if not rules.opening_required else (True,):
                    assert plan_checked(hand, table, rules, opened=opened) == [Discard(card)]
                    asked += 1
    assert asked > 1000


def test_the_best_opening_meld_is_the_listings_best_on_seeded_games() -> None:
    # R-O4: before opening, the meld the bot lays (the most points, then the longest, ties in listing
    # order) is the same whether found lazily by the engine's single checks or by listing every meld.
    from rummylib._greedy_bot import _best_meld
    from rummylib.melds import meld_points

    asked = found = 0
    for rules in (WALK_RULES["remik"], WALK_RULES["remik-house"]):
        for seed in range(4):
            for state in walk(rules, 3, seed, 500):
                r = state.round
                if r.phase is not rl.Phase.PLAY or r.opened[r.to_act]:
                    continue
                listed = list(rl.LegalActions(state).melds)
                best = max(listed, key=lambda a: (meld_points(a.meld, rules), len(a.meld.cards)), default=None)
                assert _best_meld(rl.LegalActions(state), rules, r.hands[r.to_act]) == best
                asked += 1
                found += best is not None
    assert asked > 300 and found > 30
