"""The opening screen: a cheap necessary condition for an opening in a hand's counts (R-O2, O3).

Before any search the engine asks whether the cards that could sit in some
meld at all can bring the opening's points (with a clean run where the rules
require one): most hands of random play cannot, and are refused here in a
few table lookups per suit.
"""

from __future__ import annotations

import operator
from typing import Final

from rummylib.rules import Ruleset
from rummylib.solver._masks import TWO_OR_MORE, rank_masks, run_covered
from rummylib.solver._queries import CARD_BOUND

__all__ = ["card_bound", "covered_tables", "may_open"]


def card_bound(counts: tuple[int, ...]) -> int:
    """An upper bound on the opening points ``counts`` can still bring."""
    return sum(map(operator.mul, counts, CARD_BOUND))


def _points_table() -> tuple[int, ...]:
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = (mask & -mask).bit_length() - 1
        table[mask] = table[mask & (mask - 1)] + CARD_BOUND[low]
    return tuple(table)


#: Per 13-bit mask of rank indices (0 = ace), the most one card of each of those ranks brings (R-V, O3).
_POINTS: Final = _points_table()
_LOW13: Final = (1 << 13) - 1


def _covered_table(ace_high: bool, jokers: int) -> tuple[int, ...]:
    # Per 13-bit rank mask of one suit: the ranks some window of three could hold with ``jokers`` (0 or 1).
    out = []
    for m in range(1 << 13):
        p = m << 1  # run positions: bit 1 = ace low .. 13 = king, 14 = ace high
        if ace_high and p & 2:
            p |= 1 << 14
        out.append(run_covered(p, jokers) >> 1 & _LOW13)
    return tuple(out)


#: Per ``ace_high``: :func:`_covered_table` for no joker and for one (built on first use).
_COVERED: dict[bool, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def covered_tables(ace_high: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per 13-bit rank mask of a suit, the ranks some window of three could hold: with no joker, with one.

    ``run_covered`` of the suit's run positions (the ace high too, where ``ace_high``), as rank indices.
    """
    tables = _COVERED.get(ace_high)
    if tables is None:
        tables = _COVERED[ace_high] = (_covered_table(ace_high, 0), _covered_table(ace_high, 1))
    return tables


def may_open(counts: tuple[int, ...], rules: Ruleset, need: int, clean: bool) -> bool:
    """A cheap necessary condition for an opening worth ``need`` in ``counts`` (bit masks per suit).

    ``False`` when a clean run is needed and no suit holds three in a row, or
    when the cards that could sit in any meld at all cannot bring ``need``: a
    card counts when some window of three around it holds it with the jokers,
    or its rank is held in three suits (two, with a joker). Each suit is read
    through a table per rank mask (the windows of three held, or of two and a joker).
    """
    jokers = counts[52] if rules.jokers else 0
    a, b, c, d = rank_masks(counts)
    tables = covered_tables(rules.ace_high)
    three = tables[0]  # non-zero: the suit holds three in a row
    if clean and not (three[a] or three[b] or three[c] or three[d]):
        return False
    if need <= 0:
        return True
    if jokers >= 2:  # two jokers complete any card
        eligible = (a, b, c, d)
    else:
        if jokers:  # a rank held in two suits, or a window holding two
            groups, cover = (a & (b | c | d)) | (b & (c | d)) | (c & d), tables[1]
        else:
            groups, cover = (a & b & (c | d)) | (c & d & (a | b)), three
        eligible = (cover[a] | groups & a, cover[b] | groups & b, cover[c] | groups & c, cover[d] | groups & d)
    bound = 11 * jokers + _POINTS[eligible[0]] + _POINTS[eligible[1]] + _POINTS[eligible[2]] + _POINTS[eligible[3]]
    if bound >= need:  # one copy of each eligible card brings enough already
        return True
    more = bytes(counts[:52]).translate(TWO_OR_MORE)  # further copies (two or more decks)
    i = more.find(1)
    while i >= 0:
        suit, rank = divmod(i, 13)
        if eligible[suit] >> rank & 1:
            bound += (counts[i] - 1) * CARD_BOUND[i]
        i = more.find(1, i + 1)
    return bound >= need
