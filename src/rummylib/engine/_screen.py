"""The opening screen: a cheap necessary condition for an opening in a hand's counts (R-O2, O3).

Before any search the engine asks whether the cards that could sit in some
meld at all can bring the opening's points (with a clean run where the rules
require one): most hands of random play cannot, and are refused here in a
few table lookups per suit.

Where a clean run is required and the hand holds at most one joker, a hand
that passes that count is read again through each window of three in a row
(:func:`_after_clean_run`): the opening holds a clean run, so some window of
it is laid, its cards leave the other melds, and the rest counts only what
melds without a joker could hold plus the one meld the joker sits in.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Final, TypeVar

from rummylib.engine._cache import register
from rummylib.rules import Ruleset
from rummylib.solver._masks import rank_masks, run_covered, twice_masks
from rummylib.solver._queries import CARD_BOUND

__all__ = ["card_bound", "counted_screen", "covered_tables", "may_open"]


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


def may_open(counts: tuple[int, ...], rules: Ruleset, need: int, clean: bool, second_look: bool = True) -> bool:
    """A cheap necessary condition for an opening worth ``need`` in ``counts`` (R-O2, O3).

    ``False`` when a clean run is needed and no suit holds three in a row, or
    when the cards that could sit in any meld at all cannot bring ``need``: a
    card counts when some window of three around it holds it with the jokers,
    or its rank is held in three suits (two, with a joker). Each suit is read
    through a table per rank mask (the windows of three held, or of two and a joker).
    Where that count passes, a clean run is needed and the hand holds at most
    one joker, :func:`_after_clean_run` looks again (unless not ``second_look``:
    :func:`counted_screen`; two jokers complete nearly any hand).
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
    if bound < need:  # one copy of each eligible card is not enough: the further copies (two or more decks)
        twice = twice_masks(counts)
        for suit in range(4):
            more = twice[suit] & eligible[suit]
            while more:
                bit = more & -more
                more ^= bit
                i = suit * 13 + bit.bit_length() - 1
                bound += (counts[i] - 1) * CARD_BOUND[i]
        if bound < need:
            return False
    return not (second_look and clean) or jokers >= 2 or _after_clean_run(counts, rules.ace_high, need, jokers)


def counted_screen(counts: tuple[int, ...], rules: Ruleset, need: int, clean: bool) -> bool:
    """:func:`may_open` without its second look: the count of the cards that could sit in some meld alone."""
    return may_open(counts, rules, need, clean, second_look=False)


def _run_position_ranks(positions: int) -> int:
    """Run positions (bit 1 = ace low .. 13 = king, 14 = ace high) as rank indices (0 = ace)."""
    return positions >> 1 & _LOW13 | positions >> 14 & 1


def _positions(mask: int, ace_high: bool) -> tuple[int, int]:
    """The run positions of a suit's rank ``mask`` and the highest position a run may reach."""
    held = mask << 1
    if ace_high and mask & 1:
        held |= 1 << 14
    return held, 14 if ace_high else 13


def _block(held: int, low: int, high: int, top: int) -> int:
    """The positions held in a row on either side of ``low`` .. ``high`` (not those), within 1 .. ``top``."""
    out = 0
    q = high + 1
    while q <= top and held >> q & 1:
        out |= 1 << q
        q += 1
    q = low - 1
    while q >= 1 and held >> q & 1:
        out |= 1 << q
        q -= 1
    return out


def _windows_of(mask: int, ace_high: bool) -> tuple[tuple[int, int, int], ...]:
    """Each window of three positions in a row that the suit's rank ``mask`` holds, as (ranks, points, chain).

    ``points``: the window's opening points as a run (R-V: an ace low 1, high 11); ``chain``: the ranks held
    in a row on either side of it (the cards the clean run may grow by).
    """
    held, top = _positions(mask, ace_high)
    starts = held & held >> 1 & held >> 2  # bit p: positions p, p + 1, p + 2 held
    out = []
    while starts:
        low = starts & -starts
        starts ^= low
        p = low.bit_length() - 1
        points = _RUN3_POINTS[p]
        out.append((_run_position_ranks(7 << p), points, _run_position_ranks(_block(held, p, p + 2, top))))
    return tuple(out)


#: Per start position (1 = ace low), the opening points of a run of three from it (R-V: an ace high 11).
_RUN3_POINTS: Final = tuple(sum(11 if q == 14 else min(q, 10) for q in range(p, p + 3)) for p in range(15))


def _reaches_of(mask: int, ace_high: bool) -> tuple[int, ...]:
    """The natural cards (ranks) one joker could join in a run of the suit's rank ``mask``.

    A run with one joker puts it on a position not held (a held one would leave the run's natural cards a
    run of three already, or too few): its cards are those held in a row on either side of that position.
    """
    held, top = _positions(mask, ace_high)
    gaps = ~held & (held << 1 | held >> 1) & ((2 << top) - 2)  # positions not held, next to one held
    out = []
    while gaps:
        low = gaps & -gaps
        gaps ^= low
        g = low.bit_length() - 1
        block = _block(held, g, g, top)
        if block.bit_count() >= 2:
            out.append(_run_position_ranks(block))
    return tuple(out)


_T = TypeVar("_T")


class _PerMask(dict[int, _T]):
    """Per 13-bit rank mask of a suit, a table entry worked out when first asked (at most 2**13 keys)."""

    def __init__(self, build: Callable[[int, bool], _T], ace_high: bool) -> None:
        super().__init__()
        self._build = build
        self._ace_high = ace_high

    def __missing__(self, mask: int) -> _T:
        found = self[mask] = self._build(mask, self._ace_high)
        return found


#: Per ``ace_high``: :func:`_windows_of` and :func:`_reaches_of` of each suit mask, filled on first ask.
_WINDOWS: Final = {high: _PerMask(_windows_of, high) for high in (False, True)}
_REACHES: Final = {high: _PerMask(_reaches_of, high) for high in (False, True)}
for _high in (False, True):
    register(_WINDOWS[_high])
    register(_REACHES[_high])


def _after_clean_run(counts: tuple[int, ...], ace_high: bool, need: int, jokers: int) -> bool:
    """R-O2: some window of three in a row (of the clean run every opening holds) leaves the rest enough.

    For each window the hand holds: its points, plus what the rest of the hand (less the window's cards)
    can bring, counted as :func:`counted_screen` counts it but without jokers (a card of the rest counts
    when a window of three of the rest holds it, the clean run may grow onto it, or its rank is held in
    three suits of the rest, each copy of such a card), and with the one joker (``jokers`` is 0 or 1) the
    most one meld holding it can add: 11 for the joker, and the cards not counted yet that a run or a
    group with that joker could hold. Sound: an opening's clean run holds some window, its other cards
    and its other melds' cards are counted, and the joker (at most one) sits in one meld.
    """
    masks = rank_masks(counts)
    a, b, c, d = masks
    windows = _WINDOWS[ace_high]
    cover = covered_tables(ace_high)[0]
    points = _POINTS
    multi = []  # (suit, rank bit, extra copies, most each brings) of the cards held twice or more
    twice = twice_masks(counts)
    for suit in range(4):
        more = twice[suit]
        while more:
            bit = more & -more
            more ^= bit
            i = suit * 13 + bit.bit_length() - 1
            multi.append((suit, bit, counts[i] - 1, CARD_BOUND[i]))
    ca = cb = cc = cd = -1
    for s in range(4):
        found = windows[masks[s]]
        if not found:
            continue
        if ca < 0:
            ca, cb, cc, cd = cover[a], cover[b], cover[c], cover[d]
        if s == 0:
            x, y, z = b, c, d
        elif s == 1:
            x, y, z = a, c, d
        elif s == 2:
            x, y, z = a, b, d
        else:
            x, y, z = a, b, c
        three, two, one = x & y & z, (x & y) | (x & z) | (y & z), x | y | z
        m = masks[s]
        keep = twice[s]
        for ranks, run_points, chain in found:
            rest_need = need - run_points
            if rest_need <= 0:
                return True
            r = m & ~(ranks & ~keep)
            groups = three | r & two
            counted = [ca | groups & a, cb | groups & b, cc | groups & c, cd | groups & d]
            counted[s] = cover[r] | chain | groups & r
            bound = points[counted[0]] + points[counted[1]] + points[counted[2]] + points[counted[3]]
            for suit, bit, extra, value in multi:
                if counted[suit] & bit:
                    bound += (extra - 1 if suit == s and ranks & bit else extra) * value
            if bound >= rest_need:
                return True
            if (
                jokers
                and bound + 11 + _joker_gain(masks, counted, s, r, three, two, one, groups, ace_high) >= rest_need
            ):
                return True
    return False


def _joker_gain(
    masks: list[int], counted: list[int], s: int, r: int, three: int, two: int, one: int, groups: int, ace_high: bool
) -> int:
    """The most the cards not ``counted`` can add to one meld with the joker: a run, or a rank of two suits.

    ``masks`` are the hand's rank masks, ``r`` the window's suit ``s`` less the window; ``three``, ``two``,
    ``one``: the ranks held in three, two, one of the other suits; ``groups``: the ranks of three suits.
    """
    table = _REACHES[ace_high]
    points = _POINTS
    best = 0
    for k in range(4):
        done = counted[k]
        for reach in table[masks[k] if k != s else r]:
            gain = points[reach & ~done]
            if gain > best:
                best = gain
    pair = (two | r & one) & ~groups  # ranks held in exactly two suits of the rest
    if pair:
        ua, ub, uc, ud = masks[0] & ~counted[0], masks[1] & ~counted[1], masks[2] & ~counted[2], masks[3] & ~counted[3]
        if s == 0:
            ua = r & ~counted[0]
        elif s == 1:
            ub = r & ~counted[1]
        elif s == 2:
            uc = r & ~counted[2]
        else:
            ud = r & ~counted[3]
        ua &= pair
        ub &= pair
        uc &= pair
        ud &= pair
        both = (ua & (ub | uc | ud)) | (ub & (uc | ud)) | (uc & ud)
        gain = 11 if (ua | ub | uc | ud) & 1 else min((ua | ub | uc | ud).bit_length(), 10)
        if both:
            gain = max(gain, 22 if both & 1 else 2 * min(both.bit_length(), 10))
        if gain > best:
            best = gain
    return best
