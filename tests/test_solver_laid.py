"""The search that lays every card: what :class:`Constrained` remembers between states (``_laid``)."""

from __future__ import annotations

import random

import pytest
from _deals import dealt

from rummylib import REMIK, STRAIGHT, Ruleset
from rummylib.solver._laid import Constrained
from rummylib.solver._leftover import _laid_split
from rummylib.solver._opening_objective import opening_rows, scales
from rummylib.solver._priced import tightened
from rummylib.solver._search import Cover, Entry, pack
from rummylib.solver._tables import tables_for


def _plain_pick(search: Constrained, j: int, p: int) -> tuple[Entry, ...]:
    """The branch of the first card with at most one fitting candidate, else of the first with the fewest."""
    absent = ~p
    least, pick = 1 << 30, 0
    q = p
    while q:
        bit = q & -q
        q ^= bit
        card = (bit.bit_length() - 1) // search.w
        n = sum(1 for entry in search.having[card] if entry.jokers <= j and not entry.packed & absent)
        if n < least:
            least, pick = n, card
            if n <= 1:
                break
    return search.having[pick] if least else ()


@pytest.mark.parametrize(("rules", "size", "seed"), [(REMIK, 60, 3), (REMIK, 80, 1), (STRAIGHT, 40, 2)])
def test_remembered_counts_pick_what_counting_picks(rules: Ruleset, size: int, seed: int) -> None:
    # Each state's branch, read from the counts remembered by pattern and the picks
    # remembered by presence (and after they are forgotten), is the one a fresh count gives.
    hand = dealt(rules, size, seed)
    jokers = hand.jokers if rules.jokers else 0
    tables = tables_for(hand.counts, jokers, rules)
    tables, rows, _m2, potential = opening_rows(rules, tables)
    cover = Cover(tables, rows, potential)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    search = tightened(cover, tables, x, jokers, _laid_split(scales(rules)[3]), 0, Constrained)
    assert isinstance(search, Constrained)
    rng = random.Random(seed)
    for walk in range(40):
        if walk == 20:
            search.clear_counts()
        part, j = x, jokers
        while part:
            p = search.presence(part)
            picked = search.branch(j, p)
            assert picked == _plain_pick(search, j, p)
            assert search.branch(j, p) is picked  # remembered
            fits = [e for e in picked if e.jokers <= j and not e.packed & ~p]
            if not fits:
                break
            entry = rng.choice(fits)
            part, j = part - entry.packed, j - entry.jokers
