"""Exact maximum-gain cover of a multiset by disjoint candidate melds.

The multiset is a packed count vector (one field of ``Tables.width`` bits
per natural card) plus a joker count. The search branches on the lowest
natural card still present: every copy of it is left over, or one copy goes
into a candidate meld whose lowest natural it is (all lower cards are
gone). Results are memoised per call on the remaining state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from rummylib.rules import Ruleset
from rummylib.scoring import _penalty_table
from rummylib.solver._results import RulesCache
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import Shape, Tables

T = TypeVar("T")

#: Gain of an impossible state (a needed clean run never laid).
NEG = -(1 << 62)


class Entry(NamedTuple):
    """A candidate meld as one search sees it (read by position in the hot loops)."""

    packed: int  #: one count at the search position of each natural it uses
    jokers: int
    gain: int  #: what laying it adds to the objective
    clean: bool  #: a clean run (R-O2)
    shape: Shape
    potential: int  #: the potential of its cards: what its gain is bounded by


def card_penalties(rules: Ruleset) -> tuple[int, ...]:
    """Penalty of each card index left in hand (R-V), joker last (cached per ruleset)."""
    return _PENALTIES(rules)


_PENALTIES: RulesCache[tuple[int, ...]] = RulesCache(_penalty_table)


def pack(counts: Sequence[int], tables: Tables) -> int:
    """Pack the 52 natural counts into one int, ``tables.width`` bits at each search position."""
    x = 0
    w = tables.width
    for i in range(52):
        if counts[i]:
            x |= counts[i] << (w * tables.pos[i])
    return x


def shape_gain_penalty(shape: Shape, pens: tuple[int, ...]) -> int:
    """Penalty a shape removes from the hand."""
    return sum(pens[c] for c in shape.naturals) + shape.jokers * pens[52]


def entries(tables: Tables, gain: Callable[[Shape], int], potential: Sequence[int]) -> tuple[tuple[Entry, ...], ...]:
    """Per lowest card: the shapes as search entries with their gain and potential."""
    w = tables.width
    out: list[tuple[Entry, ...]] = []
    for shapes in tables.by_low:
        row: list[Entry] = []
        for s in shapes:
            packed = sum(1 << (w * tables.pos[c]) for c in s.naturals)
            spot = sum(potential[c] for c in s.naturals) + s.jokers * potential[52]
            row.append(Entry(packed, s.jokers, gain(s), s.clean, s, spot))
        out.append(tuple(row))
    return tuple(out)


def by_position(values: Sequence[int], tables: Tables) -> tuple[int, ...]:
    """Per-card values reordered by search position, the joker's value last."""
    return (*(values[c] for c in tables.card_at), values[52])


def after_clean(need: int, clean: bool) -> int:
    """The duty ``need`` (see :class:`Cover`) once a meld is laid: a clean run meets bit 0."""
    return need & ~1 if clean else need


def after_leave(need: int, count: int) -> int:
    """The duty ``need`` (see :class:`Cover`) once ``count`` cards are left over."""
    if need < 2:
        return need
    return (need & 1) | (max(0, (need >> 1) - count) << 1)


def met(need: int, jokers: int) -> bool:
    """Whether the duty ``need`` is met once no natural card is left and ``jokers`` jokers stay."""
    return not need & 1 and need >> 1 <= jokers


def presence(x: int, width: int, ones: int) -> int:
    """Bit at the low end of each ``width``-bit count field of ``x`` that is non-zero."""
    if width == 1:
        return x
    p = x
    for k in range(1, width):
        p |= x >> k
    return p & ones


class OverBudget(Exception):
    """A trial search (:meth:`Cover.within`) memoised more states than it was allowed."""


class Cover:
    """One exact branch-and-bound search; the memo lives as long as this object.

    ``potential[i]`` bounds what one copy of card ``i`` (joker: 52) can add
    to the gain; the sum over what is left bounds a subtree. :meth:`best` is
    fail-soft: a value above ``alpha`` is exact, one at or below it is only
    an upper bound (the subtree cannot beat ``alpha``).

    A search state carries a *duty* ``need``: bit 0 set while a clean run must
    still be laid (R-O2), and ``need >> 1`` the cards that must still be left
    over (R-T3: a remik player keeps a card for the discard). A state whose
    duty is not met when the naturals run out is worth :data:`NEG`.
    """

    def __init__(
        self,
        tables: Tables,
        rows: tuple[tuple[Entry, ...], ...],
        potential: Sequence[int],
        settings: SearchSettings = DEFAULT_SETTINGS,
        *,
        fine: int = 1,
        scale: int = 1,
        relaxed_use: dict[int, float] | None = None,
    ) -> None:
        self.settings = settings
        self.w = tables.width
        self.field = tables.field
        self.ones = tables.ones
        self.rows = rows
        self.potential = potential  # by search position, joker last (see by_position)
        #: What keeping one card costs at least: the least potential of any card
        #: (:meth:`solve` narrows it to the cards of the state it starts from).
        self.keep_cost = min(potential)
        self.memo: dict[tuple[int, int, int], tuple[int, bool, Entry | None]] = {}
        #: Bounds are ``priced * fine + rest``; with ``scale`` > 1 the priced part is
        #: floored to a multiple of ``scale`` (see _priced.tightened).
        self.fine = fine
        self.scale = scale
        #: Memo size at which :meth:`full` is called; :meth:`within` lowers it for a while.
        self.limit = settings.memo_limit
        self.trial = settings.give_up
        #: Bounds capped at alpha's priced part (:meth:`capped_solve`); the least rest of a card kept.
        self.capped = False
        self.keep_rest = 0
        #: What the relaxation that priced this search uses of each shape, by the shape's ``id``
        #: (empty: none, see _priced.tightened): the order a dive from it solves its programme in.
        self.relaxed_use: dict[int, float] = {} if relaxed_use is None else relaxed_use

    def full(self) -> None:
        """The memo reached :attr:`limit`: start it over, or end a trial search."""
        if self.trial:
            raise OverBudget
        self.memo.clear()  # bounded memory; entries are only a speed-up (see path)

    def within(self, budget: int, search: Callable[[Cover], T]) -> T | None:
        """``search(self)`` if it finishes within ``budget`` memoised states, else ``None``.

        Whole decks are easy for the plain search (every card has a place, and the
        first descent finds it) while the relaxation costs tens of milliseconds at
        that size; a short trial of the plain search settles them first.
        """
        self.limit = budget
        self.trial = True
        try:
            return search(self)
        except OverBudget:
            return None
        finally:
            self.limit = self.settings.memo_limit
            self.trial = self.settings.give_up

    def presence(self, x: int) -> int:
        """Bit at the low end of each field whose count is non-zero."""
        return presence(x, self.w, self.ones)

    def restrict(self, x: int, j: int) -> int:
        """Keep only rows that fit in ``x`` and ``j``; return ``x`` without dead cards.

        A card no fitting candidate contains is left over in every answer; dropping
        it may kill other candidates, so this repeats until nothing changes.
        """
        w = self.w
        while True:
            p = self.presence(x)
            absent = ~p
            rows: list[tuple[Entry, ...]] = [()] * 52
            alive = 0
            q = p
            while q:
                bit = q & -q
                q ^= bit
                card = (bit.bit_length() - 1) // w
                row = tuple(e for e in self.rows[card] if e.jokers <= j and not e.packed & absent)
                rows[card] = row
                for e in row:
                    alive |= e.packed
            self.rows = tuple(rows)
            dead = p & ~alive
            if not dead:
                return x
            while dead:
                bit = dead & -dead
                shift = bit.bit_length() - 1
                x &= ~(self.field << shift)
                dead ^= bit

    def least(self, x: int, j: int, fine: int = 0) -> int:
        """The least potential (with ``fine``: its rest modulo ``fine``) of a card in ``x`` or a joker, with ``j``."""
        w = self.w
        pot = self.potential if not fine else [value % fine for value in self.potential]
        least = pot[52] if j else None
        p = self.presence(x)
        while p:
            bit = p & -p
            p ^= bit
            value = pot[(bit.bit_length() - 1) // w]
            if least is None or value < least:
                least = value
        return 0 if least is None else least

    def remaining(self, x: int, j: int) -> int:
        """The potential of what is left: an upper bound on its gain."""
        w = self.w
        total = j * self.potential[52]
        p = self.presence(x)
        while p:
            bit = p & -p
            p ^= bit
            shift = bit.bit_length() - 1
            total += ((x >> shift) & self.field) * self.potential[shift // w]
        return total

    def best(self, x: int, j: int, need: int, rem: int, alpha: int) -> int:
        """Best total gain from naturals ``x`` and ``j`` jokers (fail-soft against ``alpha``)."""
        # Each card still to keep gives up at least the least potential of any card.
        bound = rem - (need >> 1) * self.keep_cost if need > 1 else rem
        if bound <= alpha:
            return bound
        if self.scale > 1:  # floor the priced part of the bound to a whole number (see _priced.Split)
            priced, rest = divmod(bound, self.fine)
            floored = (priced - priced % self.scale) * self.fine + rest
            if floored <= alpha:
                return floored
            if self.capped:  # the priced part is capped by alpha's (see capped_solve)
                unit = self.scale * self.fine
                floored = (alpha + (unit >> 1)) // unit * unit + rem % self.fine - (need >> 1) * self.keep_rest
                if floored <= alpha:
                    return floored
        key = (x, j, need)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] <= alpha):
            return hit[0]
        if x == 0:
            value = 0 if met(need, j) else NEG
            self.memo[key] = (value, True, None)
            return value
        w = self.w
        p = (x | x >> 1) & self.ones if w == 2 else presence(x, w, self.ones)  # two decks: inline
        card = ((p & -p).bit_length() - 1) // w
        shift = card * w
        count = (x >> shift) & self.field
        best = NEG
        choice: Entry | None = None
        absent = ~p
        for entry in self.rows[card]:
            packed, jokers, gain, clean, _shape, spot = entry
            if jokers > j or packed & absent:
                continue
            floor = (alpha if alpha > best else best) - gain  # noqa: FURB136 - no call in the hot loop
            sub = bound - spot  # the child's first bound: a meld keeps the duty's count of cards to keep
            if sub > floor:
                sub = self.best(x - packed, j - jokers, need & ~1 if clean else need, rem - spot, floor)
            if sub != NEG and sub + gain > best:
                best = sub + gain
                choice = entry
        floor = alpha if alpha > best else best  # noqa: FURB136 - no call in the hot loop
        left = need if need < 2 else after_leave(need, count)
        rest = rem - count * self.potential[card]
        # The child's first bound (its first test, here without the call where it cuts the child off).
        sub = rest - (left >> 1) * self.keep_cost if left > 1 else rest
        if sub > floor:
            sub = self.best(x - (count << shift), j, left, rest, floor)
        if sub > best:
            best = sub
            choice = None
        exact = best > alpha
        if len(self.memo) >= self.limit:
            self.full()
        self.memo[key] = (best, exact, choice)
        return best

    def solve(
        self, x: int, j: int, need: int, floor: int, unit: int, *, windows: bool = True, cap: list[int] | None = None
    ) -> int:
        """The exact best gain if it is above ``floor``, else a value at or below ``floor``.

        Aspiration windows: first ask for the whole potential, then allow a loss
        of 1, 3, 7, ... ``unit``; a narrow window prunes at once every branch
        that leaves too much behind, and memo entries (upper bounds included)
        stay valid from one window to the next. The first windows that fail
        also tell how far below the potential the optimum lies. ``windows=False``: one search against ``floor``.
        ``cap``: ``[n, w]``, no answer is worth ``(n + 1) * unit`` (proved before) and an earlier
        search of the same question stopped in the window of ``w``: the windows start there, below
        ``n``; each that fails lowers ``n`` to what it proved, and ``w`` follows the windows.
        """
        if need > 1:  # cards to keep: each costs at least the least potential of a card present
            self.keep_cost = self.least(x, j)
            self.keep_rest = self.least(x, j, self.fine) if self.scale > 1 else 0
        rem = self.remaining(x, j)
        if not windows:
            return self.best(x, j, need, rem, floor)
        top, loss = rem // unit, 0
        if cap is not None:  # go on where an earlier search of the question stopped
            top = min(top, cap[0])
            loss = max(0, top - cap[1])
        while True:
            alpha = max(floor, (top - loss) * unit - 1)
            if cap is not None:
                cap[1] = top - loss
            value = self.best(x, j, need, rem, alpha)
            if cap is not None and value <= alpha:
                cap[0] = min(cap[0], value // unit)  # fail-soft: no answer is worth more
            if value > alpha or alpha <= floor:
                return value
            # ``value`` bounds the optimum from above: skip windows that cannot hold it.
            loss = max(2 * loss + 1, top - value // unit)

    def capped_solve(self, x: int, j: int, need: int, floor: int, unit: int) -> int:
        """:meth:`solve`, where the caller has proved no answer's priced part above ``floor``'s (in whole ``unit``).

        Then no state's priced part exceeds its ``alpha``'s (a whole answer would
        beat the proof), so each bound is capped there plus the rest's own bound:
        the rest (for the opening, the tie-breaks) cuts subtrees the prices alone
        call promising. Bounds stay true, so the memo stays valid.
        """
        assert unit == self.scale * self.fine
        self.capped = True
        try:
            return self.solve(x, j, need, floor, unit)
        finally:
            self.capped = False

    def path(self, x: int, j: int, need: int, value: int) -> list[Shape]:
        """The shapes of a cover worth ``value``, the exact result of :meth:`solve` on this state.

        Each step reads the memo; a step the memo no longer holds (it is bounded,
        see :attr:`SearchSettings.memo_limit`) is found again by :meth:`choose`.
        """
        chosen: list[Shape] = []
        while x:
            hit = self.memo.get((x, j, need))
            entry = hit[2] if hit is not None and hit[1] and hit[0] == value else self.choose(x, j, need, value)
            if entry is None:
                p = self.presence(x)
                low_bit = (p & -p).bit_length() - 1
                shift = (low_bit // self.w) * self.w
                count = (x >> shift) & self.field
                x -= count << shift
                need = after_leave(need, count)
                continue
            packed, jokers, gain, clean, shape, _ = entry
            chosen.append(shape)
            x -= packed
            j -= jokers
            value -= gain
            need = after_clean(need, clean)
        return chosen

    def choose(self, x: int, j: int, need: int, value: int) -> Entry | None:
        """The choice :meth:`best` makes at a state whose exact best gain is ``value``.

        The same order and the same tie rule as :meth:`best` (the first candidate
        reaching the best; leaving the low card only if strictly better), so the
        answer does not depend on what the memo still held.
        """
        rem = self.remaining(x, j)
        p = self.presence(x)
        low_bit = (p & -p).bit_length() - 1
        card = low_bit // self.w
        absent = ~p
        for entry in self.rows[card]:
            packed, jokers, gain, clean, _, spot = entry
            if jokers > j or packed & absent:
                continue
            want = value - gain
            if self.best(x - packed, j - jokers, after_clean(need, clean), rem - spot, want - 1) == want:
                return entry
        return None


def cards_in(x: int, width: int, field: int) -> int:
    """How many cards a packed count vector holds."""
    if width == 1:
        return x.bit_count()
    total = 0
    while x:
        total += x & field
        x >>= width
    return total
