"""What the table can take from a hand this turn: lay-offs, joker swaps, extended opening runs.

The go-out search (:mod:`rummylib.solver._goout`) reads these as precomputed
records on packed counts (R-T6, J4, J5, O4, O6).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple, cast

from rummylib.cards import CardMultiset
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, swap_joker
from rummylib.rules import Ruleset
from rummylib.solver._masks import naturals_held
from rummylib.solver._tables import Shape, Tables, card_index_at

__all__ = ["Fragment", "LayOption", "Slot", "fragments", "lay_options", "slots_of"]


class LayOption(NamedTuple):
    """All the cards one end of a table meld receives from the hand.

    A run's two ends are apart (``end`` is ``2 * target`` for the low end
    and ``2 * target + 1`` for the high one), so what one end takes does not
    constrain the other, unless the run could then grow past 13 cards: such
    a run, and a group, is one end (``2 * target``) whose options take
    everything the meld receives.

    ``needs`` is a mask of swap slots (:class:`Slot`, by number) that must be
    swapped for the option to be valid: laying a joker next to a table
    joker's place is allowed only once that joker is swapped out (R-J3).
    """

    packed: int  # the naturals, packed at their search positions
    jokers: int  # hand jokers it takes
    target: int  # index of the table meld
    low: int  # search position of its lowest natural, or -1 for jokers alone
    order: tuple[tuple[int, End | None], ...]  # (card index, end), in laying order (52 = joker)
    needs: int
    end: int  # the bit of the meld end it uses (at most one option per end)


class Slot(NamedTuple):
    """A table joker the hand can swap out (R-J4): where it lies and the card it stands for."""

    target: int
    card: int  # card index it stands for
    relevant: bool  # whether swapping it opens lay-offs (else all slots of a card are alike)


class Fragment(NamedTuple):
    """A clean opening run extended after the Open by hand jokers at its ends (R-O4, O6)."""

    packed: int
    jokers: int
    core: Shape
    low_ext: tuple[int, ...]  # card indices beyond the low end, inner first (52 = joker)
    high_ext: tuple[int, ...]


def _run_extensions(run: Run, counts: Sequence[int], jokers: int, rules: Ruleset, low: bool) -> list[list[int]]:
    """Card-index sequences (52 = joker) that can extend ``run`` at one end, laid inner first."""
    top = ACE_HIGH if rules.ace_high else 13
    suit = run.suit.index
    room = 13 - len(run.cards)
    out: list[list[int]] = []
    step = -1 if low else 1
    edge_joker = (run.cards[0] if low else run.cards[-1]).is_joker
    # DFS: (next position, cards so far, jokers used, last card is a joker)
    stack: list[tuple[int, list[int], int, bool]] = [((run.start - 1) if low else (run.end + 1), [], 0, edge_joker)]
    while stack:
        pos, seq, used, last_joker = stack.pop()
        if seq:
            out.append(seq)
        if len(seq) >= room or not 1 <= pos <= top:
            continue
        index = card_index_at(pos, suit)
        if counts[index]:
            stack.append((pos + step, [*seq, index], used, False))
        if used < jokers and (rules.adjacent_jokers or not last_joker):
            stack.append((pos + step, [*seq, 52], used + 1, True))
    return out


_Ends = tuple[list[list[int]], list[list[int]]]


def _run_ends(run: Run, counts: Sequence[int], jokers: int, rules: Ruleset) -> _Ends:
    """The sequences each end of ``run`` can take, low end first (each list starts with the empty one)."""
    lows = _run_extensions(run, counts, jokers, rules, True)
    highs = _run_extensions(run, counts, jokers, rules, False)
    return [[], *lows], [[], *highs]


def _combos(
    meld: Meld, counts: Sequence[int], jokers: int, rules: Ruleset, ends: _Ends | None, split: bool
) -> list[tuple[list[int], list[int], int]]:
    """Every (low end, high end, end number) ``meld`` can take (a group: low only).

    ``ends``: a run's :func:`_run_ends`. ``split``: a run's ends take their
    sequences apart (end 0 the low one, end 1 the high one); otherwise one
    option holds both (end 0).
    """
    combos: list[tuple[list[int], list[int], int]] = []
    if isinstance(meld, Run):
        lows, highs = ends if ends is not None else _run_ends(meld, counts, jokers, rules)
        if split:
            combos.extend((lo, [], 0) for lo in lows if lo)
            combos.extend(([], hi, 1) for hi in highs if hi)
            return combos
        for lo, hi in itertools.product(lows, highs):
            if (lo or hi) and len(meld.cards) + len(lo) + len(hi) <= 13 and lo.count(52) + hi.count(52) <= jokers:
                combos.append((lo, hi, 0))
    elif isinstance(meld, Group) and len(meld.cards) == 3:
        taken = {x.index for x in meld.suits}
        for s in range(4):
            if s not in taken:
                index = s * 13 + int(meld.rank) - 1
                if counts[index]:
                    combos.append(([index], [], 0))
        if jokers and rules.jokers and meld.joker_count + 1 <= rules.group4_max_jokers:
            combos.append(([52], [], 0))
    return combos


def _meld_options(
    meld: Meld,
    target: int,
    counts: Sequence[int],
    jokers: int,
    rules: Ruleset,
    tables: Tables,
    needs: int,
    ends: _Ends | None,
    split: bool,
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]],
) -> list[LayOption]:
    """The options of ``meld`` (a variant of table meld ``target``) whose cards ``seen`` does not hold yet.

    ``seen`` holds the (low end, high end) sequences of the options built
    for the meld's other variants (which determine an option's naturals,
    jokers and order); the new ones are added to it.
    """
    w = tables.width
    pos = tables.pos
    is_run = isinstance(meld, Run)
    options: list[LayOption] = []
    for lo, hi, end in _combos(meld, counts, jokers, rules, ends, split):
        key = (tuple(lo), tuple(hi))
        if key in seen:
            continue
        seen.add(key)
        packed = 0
        low = 52  # the lowest position of a natural (52: none, the option is jokers alone)
        natural_count = 0
        for c in lo + hi:  # a loop: no generators on this path
            if c != 52:
                p = pos[c]
                packed += 1 << (w * p)
                natural_count += 1
                if p < low:
                    low = p
        order: tuple[tuple[int, End | None], ...]
        if is_run:
            order = tuple([(c, End.LOW) for c in lo] + [(c, End.HIGH) for c in hi])
        else:
            order = tuple([(c, None) for c in lo])
        jokers_taken = len(lo) + len(hi) - natural_count
        options.append(
            LayOption(packed, jokers_taken, target, low if natural_count else -1, order, needs, 2 * target + end)
        )
    return options


def slots_of(table: Sequence[Meld], hand: CardMultiset, rules: Ruleset) -> list[tuple[int, int, int]]:
    """Every table joker the hand holds the card of: (meld index, slot in the meld, card index)."""
    if not (rules.joker_swap and rules.jokers):
        return []
    found: list[tuple[int, int, int]] = []
    counts = hand.counts
    for t, meld in enumerate(table):
        if not any(card.is_joker for card in meld.cards):
            continue
        for k, (card, stands) in enumerate(zip(meld.cards, meld.represents)):
            if card.is_joker and counts[stands.index]:
                found.append((t, k, stands.index))
    return found


def _may_matter(meld: Meld, k: int) -> bool:
    """Whether swapping slot ``k`` of ``meld`` could change what the meld takes (an end joker of a run; a group)."""
    return not isinstance(meld, Run) or k in (0, len(meld.cards) - 1)


def _ends_apart(meld: Run, ends: list[_Ends]) -> bool:
    """Whether no choice of what the run's two ends take (``ends``, swapped or not) grows it past 13 cards (R-M1)."""
    longest_low = max(max(map(len, lows)) for lows, _ in ends)
    longest_high = max(max(map(len, highs)) for _, highs in ends)
    return len(meld.cards) + longest_low + longest_high <= 13


#: Per table meld (by identity, held so its id stays its own) and slots swapped: the ruleset and the meld
#: with those jokers swapped out. A table meld lives for several turns, and every go-out search asks.
SWAPPED: dict[tuple[int, tuple[int, ...]], tuple[Meld, Ruleset, Meld]] = {}


def _swapped(meld: Meld, ks: tuple[int, ...], rules: Ruleset) -> Meld:
    """``meld`` with the jokers of slots ``ks`` swapped for the cards they stand for (R-J4), kept per meld."""
    key = (id(meld), ks)
    hit = SWAPPED.get(key)
    if hit is not None and hit[0] is meld and hit[1] is rules:
        return hit[2]
    if len(SWAPPED) >= 256:
        SWAPPED.clear()
    swapped = meld
    for k in ks:
        swapped = swap_joker(swapped, meld.represents[k], rules)[0]
    SWAPPED[key] = (meld, rules, swapped)
    return swapped


def lay_options(
    table: Sequence[Meld], hand: CardMultiset, rules: Ruleset, tables: Tables
) -> tuple[list[LayOption], list[Slot]]:
    """Every lay-off the table melds can take (R-J5, T6), and the joker slots the hand can swap (R-J4).

    A swap can open a lay-off (a joker next to an end joker of a run once that
    joker is swapped out; a joker onto a group that had too many): such
    options carry the slots they need, and those slots are ``relevant``.
    Swapping never closes a lay-off, so the options of the meld as it lies
    stay valid whatever is swapped.
    """
    counts = hand.counts
    jokers = hand.jokers
    found = slots_of(table, hand, rules)
    numbered: dict[tuple[int, int], int] = {(t, k): n for n, (t, k, _) in enumerate(found)}
    relevant: set[int] = set()
    options: list[LayOption] = []
    for t, meld in enumerate(table):
        variants: list[tuple[Meld, int, tuple[int, ...]]] = [(meld, 0, ())]
        if jokers:  # swaps only open lay-offs of jokers
            mine = [(k, n) for (tt, k), n in numbered.items() if tt == t and _may_matter(meld, k)]
            for size in range(1, len(mine) + 1):
                for chosen in itertools.combinations(mine, size):
                    swapped = _swapped(meld, tuple(k for k, _ in chosen), rules)
                    variants.append((swapped, sum(1 << n for _, n in chosen), tuple(n for _, n in chosen)))
        ends = [_run_ends(v, counts, jokers, rules) if isinstance(v, Run) else None for v, _, _ in variants]
        split = isinstance(meld, Run) and _ends_apart(meld, [e for e in ends if e is not None])
        # The variants of one meld are of its kind, so an option's (low end, high end) cards determine it.
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        for (variant, mask, numbers), variant_ends in zip(variants, ends):
            found_options = _meld_options(variant, t, counts, jokers, rules, tables, mask, variant_ends, split, seen)
            if found_options:
                options.extend(found_options)
                relevant.update(numbers)
    slots = [Slot(t, card, n in relevant) for n, (t, _, card) in enumerate(found)]
    return options, slots


def fragments(tables: Tables, counts: Sequence[int], jokers: int, rules: Ruleset) -> list[Fragment]:
    """Clean runs of the hand with a joker (and a card beyond it) laid off at an end.

    Lay-offs onto a new meld usually make nothing a longer meld could not, but
    the opening needs its clean run as laid: ``6S 7S 8S`` can open and then take
    a joker at each end, which ``JK 6S 7S 8S JK`` laid at once could not.
    """
    top = ACE_HIGH if rules.ace_high else 13
    out: list[Fragment] = []
    w = tables.width
    found = tables.extra.get("clean_shapes")  # the clean runs among the shapes, kept with the tables
    if found is None:
        found = tables.extra["clean_shapes"] = tuple(s for s in tables.shapes if s.clean)
    clean = cast("tuple[Shape, ...]", found)
    held = naturals_held(tuple(counts))
    for core in clean:
        if core.mask & ~held:  # a natural of the run is not held
            continue
        suit, start = divmod(core.key, 16)
        end = start + len(core.layout) - 1
        # Extensions (inner card first) that could not be laid as a meld of their own:
        # jokers alone (several only where jokers may lie side by side), or one joker
        # and the natural beyond it. Longer ones are a later meld with the same cards.
        most = jokers if rules.adjacent_jokers else 1
        lows: list[tuple[int, ...]] = [()]
        highs: list[tuple[int, ...]] = [()]
        for k in range(1, most + 1):
            if start - k >= 1:
                lows.append((52,) * k)
            if end + k <= top:
                highs.append((52,) * k)
        if start - 2 >= 1 and counts[card_index_at(start - 2, suit)]:
            lows.append((52, card_index_at(start - 2, suit)))
        if end + 2 <= top and counts[card_index_at(end + 2, suit)]:
            highs.append((52, card_index_at(end + 2, suit)))
        for lo in lows:
            for hi in highs:
                used = lo.count(52) + hi.count(52)
                if not used or used > jokers or len(core.layout) + len(lo) + len(hi) > 13:
                    continue
                naturals = [*core.naturals, *(c for c in lo + hi if c != 52)]
                packed = sum(1 << (w * tables.pos[c]) for c in naturals)
                out.append(Fragment(packed, used, core, lo, hi))
    return out
