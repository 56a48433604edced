"""The opening search's screens against a plain search of the same candidates (R-O2, O4).

:class:`~rummylib.engine._complete.OpeningSearch` refuses a candidate meld at a
node of its search on cheap tests before the exact fit of its packed cards:
the natural cards surely gone (a bit mask carried down, a superset of the cards
left where the hand holds a card twice), the points the cards left can still
bring, the cards kept. Each must refuse only melds that do not fit or cannot
help, so its answers must be those of a search with none of them: here a plain
memoised search over the hand's candidates on count tuples, on seeded hands
from two decks (duplicates, several jokers).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import attrs
import pytest

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.engine._complete import MeldInfo, OpeningSearch, fits, minus
from rummylib.rules import Ruleset
from rummylib.solver._queries import sorted_by_points

#: REMIK, and a joker-heavy house variant: the searches' candidates at their most varied.
_RULES = {"remik": rl.REMIK, "jokers": attrs.evolve(rl.REMIK, jokers=8, adjacent_jokers=True)}


def _plain(counts: tuple[int, ...], rules: Ruleset, keep: int) -> Callable[[tuple[int, ...], int, bool], bool]:
    """``complete(counts, need, clean)``: some disjoint candidates of ``counts`` bring ``need`` (and a clean run)."""
    melds: tuple[MeldInfo, ...] = sorted_by_points(counts, rules)

    @cache
    def complete(left: tuple[int, ...], need: int, clean: bool) -> bool:
        if need <= 0 and not clean:
            return sum(left) >= keep
        return any(
            fits(left, m)
            and sum(left) - m.size >= keep
            and complete(minus(left, m), need - m.points, clean and not m.clean)
            for m in melds
        )

    return complete


@pytest.mark.parametrize("name", sorted(_RULES))
def test_the_opening_search_answers_as_a_plain_search(name: str) -> None:
    rules = _RULES[name]
    need, clean = rules.opening_points, rules.opening_clean_run
    keep = 1 if rules.must_discard_to_go_out else 0
    asked = opened = listed = 0
    for seed in range(150):
        cards = list(rl.deck(rules))
        rng = random.Random(seed)
        rng.shuffle(cards)
        hand = rl.CardMultiset(cards[: rng.randint(13, 19)])
        counts = hand.counts
        complete = _plain(counts, rules, keep)
        engine_cache.clear()  # no answer of another hand's search in the shared memo
        search = OpeningSearch(hand, (), rules, go_out=False, taken=None)
        want = complete(counts, need, clean)
        assert search.opens(counts) is want, (seed, str(hand))
        opened += want
        for j, info in enumerate(search.melds):
            if len(hand) - info.size < max(keep, 1):
                continue
            engine_cache.clear()
            fresh = OpeningSearch(hand, (), rules, go_out=False, taken=None)
            got = fresh.after_meld(j, need, clean, None, None)
            assert got is complete(minus(counts, info), need - info.points, clean and not info.clean), (
                seed,
                str(hand),
                str(info.meld),
            )
            asked += 1
            listed += got
    assert opened > 10 and listed > 50 and asked > listed  # both answers, often
