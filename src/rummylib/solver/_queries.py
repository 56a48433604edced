"""The engine's meld questions on packed counts: the candidate melds of a hand, once per hand.

The engine's legal-move generator and its turn-completion searches (R-O4,
D2, J4) ask, for one hand, "which melds can these cards form, and what does
each take and bring?" again and again. :func:`hand_candidates` answers on the
hand's count vector: every distinct meld, in exactly the order
:func:`~rummylib.find_melds` gives them, each with its cards as (index,
copies) pairs, its opening points (R-V, O3), whether it is a clean run
(R-O2), its size and an upper bound of what its cards bring. The melds are
built on the trusted path (their layout is correct by construction, so no
validation runs) and the answer is kept in a small bounded cache keyed on the
immutable counts and the ruleset.
"""

from __future__ import annotations

import itertools
from operator import itemgetter
from typing import Final, NamedTuple

from rummylib._card import CARDS
from rummylib._card import SUITS as _SUITS
from rummylib.cards import JOKER, Card, Rank
from rummylib.melds import ACE_HIGH, Meld
from rummylib.melds._types import _new_group, _new_run
from rummylib.rules import Ruleset
from rummylib.solver._find import GROUP_TEMPLATES
from rummylib.solver._goout import can_go_out, plan_checked
from rummylib.solver._goout_screen import clear_facts
from rummylib.solver._masks import no_meld_without_jokers, packed_cards, rank_masks, ranks_with

__all__ = [
    "CARD_BOUND",
    "Candidate",
    "can_go_out",
    "candidates_with",
    "clear_candidates",
    "hand_candidates",
    "plan_checked",
    "sorted_by_points",
]

_RANKS = tuple(Rank)


class Candidate(NamedTuple):
    """A candidate meld of a hand, on count vectors."""

    meld: Meld
    #: (card index, copies) pairs of the meld's cards, by index.
    pairs: tuple[tuple[int, int], ...]
    #: Opening value (R-V, O3): jokers as what they stand for.
    points: int
    #: A run without jokers (R-O2).
    clean: bool
    size: int
    #: The most its cards could bring to an opening anywhere (an ace or a joker 11, a picture 10).
    bound: int
    jokers: int
    #: Its cards packed as one integer, byte ``i`` the copies of card index ``i`` (see :func:`~rummylib.solver._masks.packed_cards`).
    packed: int
    #: Bit ``i`` per natural card index ``i`` it holds (one copy each).
    naturals: int


#: Per card index, the most the card can bring to an opening (R-V, O3): an ace or a joker 11, a picture 10.
CARD_BOUND: Final = (*(11 if i % 13 == 0 else min(i % 13 + 1, 10) for i in range(52)), 11)


def _position_value(position: int) -> int:
    return 11 if position == ACE_HIGH else min(position, 10)


def _index_at(position: int, suit: int) -> int:
    return suit * 13 + (0 if position == ACE_HIGH else position - 1)


def _pairs(indices: list[int]) -> tuple[tuple[int, int], ...]:
    counts: dict[int, int] = {}
    for i in indices:
        counts[i] = counts.get(i, 0) + 1
    return tuple(sorted(counts.items()))


def _runs(counts: tuple[int, ...], jokers: int, rules: Ruleset, out: list[Candidate], suits: range = range(4)) -> None:
    """Every run, as :func:`~rummylib.find_melds` orders them (by suit, start, then length and joker slots).

    A suit's runs depend only on which of its positions are held and on the
    jokers at hand, so they are built once per (suit, held positions, jokers,
    rules' run knobs) and shared by every hand with that suit (a bounded
    cache): a hand changes one suit per turn.
    """
    top = ACE_HIGH if rules.ace_high else 13
    adjacent_ok = rules.adjacent_jokers
    jokers = min(jokers, _MOST_RUN_JOKERS)  # a window of at most 14 slots needs a real card: more change nothing
    masks = rank_masks(counts)
    high = top == ACE_HIGH
    for s in suits:
        if not jokers:
            m = masks[s] | (1 << 13 if high and masks[s] & 1 else 0)  # the high ace after the king
            if not m & (m >> 1) & (m >> 2):
                continue  # no three in a row: no run (most suits of most hands; _clean_runs finds none)
        key = (s, masks[s], jokers, top, adjacent_ok)
        found = _SUIT_RUNS.get(key)
        if found is None:
            built: list[Candidate] = []
            if jokers:
                _joker_runs(s, masks[s], jokers, top, adjacent_ok, built)
            else:
                _clean_runs(s, masks[s], top, built)
            if len(_SUIT_RUNS) >= _SUIT_RUNS_SIZE:
                _SUIT_RUNS.clear()
            found = _SUIT_RUNS[key] = tuple(built)
        out.extend(found)


#: Runs per (suit, held rank mask, jokers, top position, adjacent jokers allowed): see :func:`_runs`.
_SUIT_RUNS: dict[tuple[int, int, int, int, bool], tuple[Candidate, ...]] = {}
#: Groups per (rank index, suits present as 4 bits, joker limits of a group of three and of four).
_RANK_GROUPS: dict[tuple[int, int, tuple[int, int]], tuple[Candidate, ...]] = {}
_SUIT_CACHE_SIZE: Final = 2048
_SUIT_RUNS_SIZE: Final = 1 << 14  # 8192 masks a suit: 2048 keys, cleared, built half the runs of a long run again
_MOST_RUN_JOKERS: Final = ACE_HIGH


def _joker_runs(s: int, m: int, jokers: int, top: int, adjacent_ok: bool, out: list[Candidate]) -> None:
    """The runs of suit ``s`` with ``jokers`` at hand (at least one), in find_melds' order.

    A run is a window of positions whose every slot is a card held or a
    joker: the positions not held must be jokers, and any held ones may be
    (find_melds lists every placement), within the jokers at hand, with a
    real card among them and no two jokers side by side unless the rules allow it.
    """
    held = m << 1  # bit p per position p held (1 = ace low .. 13 = king)
    if top == ACE_HIGH and m & 1:
        held |= 1 << ACE_HIGH
    short = 3 - jokers  # the fewest of a run's first three slots held (a longer run holds those three too)
    for start in range(1, top - 1):
        if _HELD3[held >> start & 7] < short:
            continue  # no run from here: the same empty answer the window cache would give
        most = min(13, top - start + 1)
        bits = held >> start & ((1 << most) - 1)
        # Only the slots before the first one the jokers cannot fill matter: no run reaches past it.
        gaps = ~bits & ((1 << most) - 1)
        for _ in range(jokers):
            gaps &= gaps - 1
        if gaps:
            most = (gaps & -gaps).bit_length() - 1
            bits &= (1 << most) - 1
        key = (s, start, bits, most, jokers, adjacent_ok)
        runs = _START_RUNS.get(key)
        if runs is None:
            found = _window_runs(bits, most, jokers, adjacent_ok)
            built: list[Candidate] = []
            if found:
                _add_runs(s, start, found, built)
            if len(_START_RUNS) >= _WINDOW_CACHE_SIZE:
                _START_RUNS.clear()
            runs = _START_RUNS[key] = tuple(built)
        out.extend(runs)


#: The number of slots held among three (bits 0-2).
_HELD3: Final = (0, 1, 1, 2, 1, 2, 2, 3)


def _window_runs(bits: int, most: int, jokers: int, adjacent_ok: bool) -> tuple[tuple[int, int], ...]:
    """The (length, joker-slot mask) of every run from one start, sorted as find_melds lists them.

    ``bits``: slot ``k`` of the window is held (``most`` slots at most). The
    answer depends on nothing else, so it is kept (a bounded cache): the same
    patterns recur across starts, suits and hands.
    """
    key = (bits, most, jokers, adjacent_ok)
    hit = _WINDOWS.get(key)
    if hit is not None:
        return hit
    found: list[tuple[int, int]] = []
    missing = 0  # slots of the window not held: jokers for sure
    for length in range(1, most + 1):
        if not bits >> (length - 1) & 1:
            missing |= 1 << (length - 1)
        free = jokers - missing.bit_count()
        if free < 0:
            break  # a longer window misses as many cards at least
        if length < 3:
            continue
        full = (1 << length) - 1
        optional = [k for k in range(length) if not missing >> k & 1]
        for r in range(min(free, len(optional)) + 1):
            for extra in itertools.combinations(optional, r):
                mask = missing
                for k in extra:
                    mask |= 1 << k
                if mask == full or (not adjacent_ok and mask & (mask >> 1)):
                    continue
                found.append((length, mask))
    found.sort(key=lambda lm: (lm[0], [lm[1] >> k & 1 for k in range(lm[0])]))
    if len(_WINDOWS) >= _WINDOW_CACHE_SIZE:
        _WINDOWS.clear()
    result = _WINDOWS[key] = tuple(found)
    return result


#: Runs from one start per (held slots, slots, jokers, adjacent jokers allowed): see :func:`_window_runs`.
_WINDOWS: dict[tuple[int, int, int, bool], tuple[tuple[int, int], ...]] = {}
#: The joker runs of one suit from one start per (suit, start, held slots that matter, slots, jokers, adjacent ok).
_START_RUNS: dict[tuple[int, int, int, int, int, bool], tuple[Candidate, ...]] = {}
_WINDOW_CACHE_SIZE: Final = 1 << 15


#: ``_RUN_POINTS[start][length]``: the opening points of a run of ``length`` positions from ``start`` (R-V, O3).
_RUN_POINTS: Final = tuple(
    tuple(sum(_position_value(p) for p in range(start, start + n)) for n in range(ACE_HIGH + 1))
    for start in range(ACE_HIGH + 1)
)


def _add_runs(s: int, start: int, found: tuple[tuple[int, int], ...], out: list[Candidate]) -> None:
    """The runs of suit ``s`` from ``start`` of each (length, joker-slot mask) of ``found``, in that order."""
    base = (s << 4 | start) << 18
    for length, mask in found:
        key = base | length << 14 | mask  # a mask has at most 13 bits, a length at most 4
        cand = _RUN_CANDIDATES.get(key)
        if cand is None:
            cand = _run_candidate(s, start, length, mask)
            if len(_RUN_CANDIDATES) >= _WINDOW_CACHE_SIZE:
                _RUN_CANDIDATES.clear()
            _RUN_CANDIDATES[key] = cand
        out.append(cand)


def _run_candidate(s: int, start: int, length: int, mask: int) -> Candidate:
    """The run of suit ``s`` from ``start`` of ``length`` slots, a joker in slot ``k`` per bit ``k`` of ``mask``."""
    window = [_index_at(p, s) for p in range(start, start + length)]  # window[k]: the card of slot k
    if not mask:
        naturals = window
        cards = tuple([CARDS[i] for i in naturals])
        used = 0
    else:
        naturals = [window[k] for k in range(length) if not mask >> k & 1]
        cards = tuple([JOKER if mask >> k & 1 else CARDS[window[k]] for k in range(length)])
        used = mask.bit_count()
    if start + length - 1 == ACE_HIGH:
        naturals = sorted(naturals)  # the high ace's index sorts first
    bound = 11 * used
    packed = used << 416  # packed_cards(pairs), summed here: the joker's byte is byte 52
    held = 0
    for i in naturals:
        bound += CARD_BOUND[i]
        packed += 1 << (i << 3)
        held |= 1 << i
    pairs = tuple([(i, 1) for i in naturals])
    if used:
        pairs += ((52, used),)
    meld = _new_run(_SUITS[s], start, cards)
    return Candidate(meld, pairs, _RUN_POINTS[start][length], not used, length, bound, used, packed, held)


#: Each run candidate per (suit, start, length, joker-slot mask) packed in one integer: a run is those four
#: alone, and the lists of the suits and starts share most of theirs (see :func:`_add_runs`).
_RUN_CANDIDATES: dict[int, Candidate] = {}


def _clean_runs(s: int, m: int, top: int, out: list[Candidate]) -> None:
    """The runs of suit ``s`` without jokers: per start, every length from 3 along the positions held."""
    if top == ACE_HIGH and m & 1:
        m |= 1 << 13  # the high ace
    if not m & (m >> 1) & (m >> 2):
        return  # no three in a row: no run (most suits of most hands)
    held = m << 1  # bit p per position p held (1 = ace low .. 13 = king, 14 = the high ace)
    start = 1
    while start < top - 1:
        if not held >> start & 1:
            start += 1
            continue
        end = start  # one past the last position of the longest run from ``start``
        while end <= top and held >> end & 1 and end - start < 13:
            end += 1
        if end - start < 3:
            start = end + 1  # no run starts inside a block of fewer than three
            continue
        _add_runs(s, start, _CLEAN_LENGTHS[end - start], out)
        start += 1


#: Per number of positions held in a row from a start: every clean run from it, as (length, no joker slot).
_CLEAN_LENGTHS: Final = tuple(tuple((n, 0) for n in range(3, most + 1)) for most in range(ACE_HIGH + 1))


_LAYOUTS: Final = GROUP_TEMPLATES  # find_melds' order of group layouts


def _layouts_within(
    limits: tuple[int, int],
) -> tuple[tuple[int, tuple[tuple[tuple[int, ...], int, int, int], ...]], ...]:
    """Per group size, the layouts with at most the size's joker limit and a real card, in find_melds' order."""
    return tuple(
        (size, tuple(lay for lay in layouts if lay[3] <= limit and lay[3] < size))
        for (size, layouts), limit in zip(_LAYOUTS, limits)
    )


_WITHIN: dict[tuple[int, int], tuple[tuple[int, tuple[tuple[tuple[int, ...], int, int, int], ...]], ...]] = {}


def _groups(
    counts: tuple[int, ...], jokers: int, rules: Ruleset, out: list[Candidate], ranks: range = range(13)
) -> None:
    limits = (min(rules.group3_max_jokers, jokers), min(rules.group4_max_jokers, jokers))
    most = max(limits)
    within = _WITHIN.get(limits)
    if within is None:
        within = _WITHIN[limits] = _layouts_within(limits)  # a few small keys: bounded by the joker limits
    # A group needs three slots (real cards and jokers): only the ranks held in enough suits, in order.
    enough = ranks_with(counts, 3 - most) & ((1 << ranks.stop) - (1 << ranks.start))
    while enough:
        low = enough & -enough
        enough ^= low
        r = low.bit_length() - 1
        present = (counts[r] > 0) | (counts[13 + r] > 0) << 1 | (counts[26 + r] > 0) << 2 | (counts[39 + r] > 0) << 3
        if present.bit_count() + most < 3:
            continue
        key = (r, present, limits)
        found = _RANK_GROUPS.get(key)
        if found is None:
            if len(_RANK_GROUPS) >= _SUIT_CACHE_SIZE:
                _RANK_GROUPS.clear()
            found = _RANK_GROUPS[key] = _rank_groups(r, present, within)
        out.extend(found)


def _rank_groups(
    r: int, present: int, within: tuple[tuple[int, tuple[tuple[tuple[int, ...], int, int, int], ...]], ...]
) -> tuple[Candidate, ...]:
    """The groups of rank index ``r`` with the suits ``present`` (4 bits) and the layouts ``within``."""
    out: list[Candidate] = []
    for size, layouts in within:
        for suits, mask, joker_mask, joker_count in layouts:
            if (mask & ~joker_mask) & ~present:
                continue
            key = (r, suits, joker_mask)  # a group is its rank and layout alone: kept across the suits present
            cand = _GROUP_CANDIDATES.get(key)
            if cand is None:
                cards: tuple[Card, ...] = tuple(JOKER if joker_mask >> s & 1 else CARDS[s * 13 + r] for s in suits)
                pairs = _pairs([52 if joker_mask >> s & 1 else s * 13 + r for s in suits])
                bound = sum(CARD_BOUND[i] * k for i, k in pairs)
                meld = _new_group(_RANKS[r], cards, tuple(_SUITS[s] for s in suits))
                value = (11 if r == 0 else min(r + 1, 10)) * size
                held = sum(1 << i for i, _ in pairs if i < 52)
                cand = Candidate(meld, pairs, value, False, size, bound, joker_count, packed_cards(pairs), held)
                _GROUP_CANDIDATES[key] = cand  # at most 13 ranks times the layouts: no bound needed
            out.append(cand)
    return tuple(out)


_GROUP_CANDIDATES: dict[tuple[int, tuple[int, ...], int], Candidate] = {}


def _compute(counts: tuple[int, ...], rules: Ruleset) -> tuple[Candidate, ...]:
    jokers = counts[52] if rules.jokers else 0
    out: list[Candidate] = []
    _runs(counts, jokers, rules, out)
    _groups(counts, jokers, rules, out)
    return tuple(out)


_SIZE: Final = 256
_CACHE: dict[tuple[int, tuple[int, ...]], tuple[Ruleset, tuple[Candidate, ...], tuple[Candidate, ...] | None]] = {}


def _entry(
    counts: tuple[int, ...], rules: Ruleset
) -> tuple[Ruleset, tuple[Candidate, ...], tuple[Candidate, ...] | None]:
    key = (id(rules), counts)
    found = _CACHE.get(key)
    if found is not None and found[0] is rules:
        return found
    if len(_CACHE) >= _SIZE:
        _CACHE.clear()
    found = _CACHE[key] = (rules, _compute(counts, rules), None)
    return found


def hand_candidates(counts: tuple[int, ...], rules: Ruleset) -> tuple[Candidate, ...]:
    """Every distinct meld the cards ``counts`` (53 counts, jokers last) can form, as :class:`Candidate`.

    The melds are those of :func:`~rummylib.find_melds` on the same cards, in
    the same order. ``counts`` and ``rules`` are trusted (the engine's own
    checked values). Cached per counts and ruleset (a bounded cache).
    """
    if not (rules.jokers and counts[52]) and no_meld_without_jokers(counts, rules.ace_high):
        return ()  # the answer of _compute, without its cache entry (most hands of random play)
    return _entry(counts, rules)[1]


#: A candidate's opening points (``Candidate.points``), read in C by ``sorted``.
_POINTS: Final = itemgetter(2)


def sorted_by_points(counts: tuple[int, ...], rules: Ruleset) -> tuple[Candidate, ...]:
    """:func:`hand_candidates`, most opening points first (ties in find_melds' order)."""
    rules_, found, ordered = _entry(counts, rules)
    if ordered is None:
        ordered = tuple(sorted(found, key=_POINTS, reverse=True))  # stable: ties keep find_melds' order
        _CACHE[(id(rules), counts)] = (rules_, found, ordered)
    return ordered


_WITH: dict[tuple[int, tuple[int, ...], int], tuple[Ruleset, tuple[Candidate, ...]]] = {}


def candidates_with(counts: tuple[int, ...], rules: Ruleset, index: int) -> tuple[Candidate, ...]:
    """The candidates of :func:`hand_candidates` that hold natural card ``index`` (0-51), in the same order.

    Only the runs of the card's suit and the groups of its rank are built, so
    this is cheap where a duty names one card (the taken discard, R-D2).
    Cached per counts, ruleset and card (a bounded cache).
    """
    key = (id(rules), counts, index)
    found = _WITH.get(key)
    if found is not None and found[0] is rules:
        return found[1]
    whole = _CACHE.get((id(rules), counts))
    if whole is not None and whole[0] is rules:
        out = list(whole[1])
    else:
        jokers = counts[52] if rules.jokers else 0
        suit, rank = divmod(index, 13)
        out = []
        _runs(counts, jokers, rules, out, range(suit, suit + 1))
        _groups(counts, jokers, rules, out, range(rank, rank + 1))
    held = tuple(c for c in out if any(i == index for i, _ in c.pairs))
    if len(_WITH) >= _SIZE:
        _WITH.clear()
    _WITH[key] = (rules, held)
    return held


def clear_candidates() -> None:
    """Forget every cached answer (benchmarks measure cold listings)."""
    _CACHE.clear()
    _WITH.clear()
    _SUIT_RUNS.clear()
    _WINDOWS.clear()
    _START_RUNS.clear()
    _RUN_CANDIDATES.clear()
    _RANK_GROUPS.clear()
    _GROUP_CANDIDATES.clear()
    clear_facts()
