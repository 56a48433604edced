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
