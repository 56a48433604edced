"""The opening completion search on packed counts against the count-vector path and the solver (R-O2, O4).

:class:`~rummylib.engine._complete.OpeningSearch` keeps the cards left as one
integer, a byte per card index, and asks whether a meld fits by one
subtraction with bit 7 of every byte set (a byte that borrows clears its
guard bit). These tests pin that arithmetic to the plain count vectors
(``fits`` and ``minus``) on hands up to the most decks and jokers a ruleset
allows, and the search's root answer to the solver's exact ``can_open``.
"""

from __future__ import annotations

import attrs
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.engine._complete import OpeningSearch, fits, minus
from rummylib.rules import MAX_DECKS, MAX_JOKERS
from rummylib.solver import can_open
from rummylib.solver._masks import GUARD, pack_counts, packed_cards, unpack_counts
from rummylib.solver._queries import hand_candidates
from rummylib.testing import hands

#: Every deck and joker a ruleset may shuffle together: the largest counts the bytes must hold.
_WIDEST = attrs.evolve(rl.REMIK, decks=MAX_DECKS, jokers=MAX_JOKERS, group3_max_jokers=2, adjacent_jokers=True)
_COUNTS = st.tuples(st.lists(st.integers(0, MAX_DECKS), min_size=52, max_size=52), st.integers(0, MAX_JOKERS)).map(
    lambda p: (*p[0], p[1])
)


@settings(max_examples=examples(150), deadline=None)
@given(counts=_COUNTS, source=hands(_WIDEST, max_size=9))
def test_a_packed_fit_and_difference_are_the_count_vectors(counts: tuple[int, ...], source: rl.CardMultiset) -> None:
    # R-O4: the search lays a meld only where the cards left hold it, and goes on with exactly the rest.
    assert unpack_counts(pack_counts(counts)) == counts
    packed = pack_counts(counts)
    for info in hand_candidates(source.counts, _WIDEST):
        meld = info.packed
        assert meld == packed_cards(info.pairs) == pack_counts(_cards_of(info))
        fit = (packed | GUARD) - meld & GUARD == GUARD
        assert fit is fits(counts, info), (counts, info.pairs)
        if fit:
            assert unpack_counts(packed - meld) == minus(counts, info)


def _cards_of(info: object) -> tuple[int, ...]:
    out = [0] * 53
    for i, k in info.pairs:  # type: ignore[attr-defined]
        out[i] += k
    return tuple(out)


_HOUSE = attrs.evolve(rl.REMIK, jokers=8, adjacent_jokers=True)


@settings(max_examples=examples(120), deadline=None)
@given(rules=st.sampled_from([rl.REMIK, _HOUSE]), data=st.data())
def test_the_packed_search_opens_exactly_where_the_solver_does(rules: rl.Ruleset, data: st.DataObject) -> None:
    # R-O2, O3: the search's root question (no duty) is can_open of the hand, as the solver answers it.
    hand = data.draw(hands(rules, min_size=6, max_size=14))
    engine_cache.clear()
    search = OpeningSearch(hand, (), rules, go_out=False, taken=None)
    assert search.opens(hand.counts) is can_open(hand, rules), str(hand)


def test_every_count_a_ruleset_allows_fits_its_byte() -> None:
    # R-O4: at the edges (the most jokers, every copy of a card), a meld fits exactly when the counts hold it.
    for index in (0, 12, 38, 51, 52):
        for have in range(MAX_JOKERS + 1):
            counts = tuple(have if i == index else MAX_DECKS for i in range(53))
            packed = pack_counts(counts)
            for take in range(1, MAX_JOKERS + 2):
                meld = packed_cards(((index, take),))
                fit = (packed | GUARD) - meld & GUARD == GUARD
                assert fit is (have >= take), (index, have, take)
                if fit:
                    assert unpack_counts(packed - meld) == tuple(
                        n - take if i == index else n for i, n in enumerate(counts)
                    )
