"""``can_go_out`` answers from the plan search's value without building the plan (R-T2, O2, D2, E1, E3).

The engine asks the go-out question as a yes or no (the R-D2 take, a turn's
go-out duty); ``can_go_out`` must answer exactly what ``plan_checked``
answers, ``is not None``, for opened and unopened players, with and without
``open_with``.
"""

from __future__ import annotations

from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.solver._goout import can_go_out, plan_checked


def test_can_go_out_is_whether_the_plan_search_finds_a_plan() -> None:
    # R-T2, O2, D2: on the hands of seeded games, with the top discard added (the take question) and not.
    asked = found = 0
    for name, rules in WALK_RULES.items():
        for seed in (1, 2):
            for state in walk(rules, 3, seed, 150):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard:
                    continue
                card = r.discard[-1]
                hand = r.hands[r.to_act]
                table = tuple(tm.meld for tm in r.table)
                questions: list[tuple[rl.CardMultiset, bool, rl.Card | None]] = [(hand, True, None)]
                questions.append((hand + rl.CardMultiset([card]), True, None))
                if rules.opening_required:
                    questions += [(hand, False, None), (hand + rl.CardMultiset([card]), False, card)]
                for ms, opened, open_with in questions:
                    plan = plan_checked(ms, table, rules, opened=opened, open_with=open_with)
                    exists = can_go_out(ms, table, rules, opened=opened, open_with=open_with)
                    assert exists == (plan is not None), (name, seed, ms, opened, open_with)
                    asked += 1
                    found += exists
    assert asked > 500 and found > 20, (asked, found)


def test_can_go_out_of_an_empty_hand() -> None:
    # E1, E3: an empty hand is out already where no discard is owed and no opening is pending.
    for rules in (rl.REMIK, rl.STRAIGHT):
        for opened in (False, True):
            expected = plan_checked(rl.CardMultiset(), (), rules, opened=opened) is not None
            assert can_go_out(rl.CardMultiset(), (), rules, opened=opened) == expected
