"""The listing's joker swap on the trusted path against :func:`~rummylib.swap_joker` (R-J4).

The legal-move generator builds the table meld a swap leaves with
:func:`~rummylib.engine._fits.swapped_meld` (no validation: the table meld is
checked already); it must be exactly ``swap_joker``'s meld for every joker
slot of every meld, runs and groups, plain and joker-heavy rules.
"""

from __future__ import annotations

import attrs
from _budget import examples
from _walks import WALK_RULES, walk
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine._fits import swapped_meld
from rummylib.engine._new_melds import swap_counts
from rummylib.testing import melds

_HOUSE = attrs.evolve(rl.REMIK, jokers=8, adjacent_jokers=True, group4_max_jokers=2)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), rules=st.sampled_from([rl.REMIK, _HOUSE]))
def test_the_trusted_swap_is_swap_joker(data: st.DataObject, rules: rl.Ruleset) -> None:
    # R-J4: the exact card a joker stands for replaces the first such joker; the meld is otherwise the same.
    meld = data.draw(melds(rules))
    for slot, stands in zip(meld.cards, meld.represents):
        if not slot.is_joker:
            continue
        want, joker = rl.swap_joker(meld, stands, rules)
        got = swapped_meld(meld, stands)
        assert joker == rl.JOKER
        assert type(got) is type(want) and got == want and hash(got) == hash(want), (str(meld), str(stands))
        assert got.cards == want.cards and got.represents == want.represents and str(got) == str(want)
        rl.validate_meld(got, rules)


def test_swap_counts_count_every_table_joker() -> None:
    # R-J4: the swaps a cover may make are one per table joker, by the card it stands for, read from the
    # kept table_jokers of the last table; asked of tables in turn (each new one replaces the kept one).
    checked = 0
    for name in ("remik", "remik-house"):
        rules = WALK_RULES[name]
        for seed in range(4):
            previous = None
            for state in walk(rules, 3, seed, 200, greedy_share=0):
                r = state.round
                if r.phase not in (rl.Phase.DRAW, rl.Phase.PLAY) or not r.opened[r.to_act]:
                    continue
                expected: dict[int, int] = {}
                for tm in r.table:
                    for card, stands in zip(tm.meld.cards, tm.meld.represents):
                        if card.is_joker:
                            expected[stands.index] = expected.get(stands.index, 0) + 1
                assert swap_counts(r, rules) == expected, (name, seed)
                if previous is not None:  # the kept table is another one: asked again, still the same counts
                    swap_counts(previous, rules)
                    assert swap_counts(r, rules) == expected, (name, seed)
                previous = r
                checked += expected != {}
    assert checked > 20  # tables with jokers were met
