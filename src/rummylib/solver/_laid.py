"""The searches of covers that lay every card: :class:`Laid` (lowest card first) and :class:`Constrained`.

Used by the leftover decomposition (:mod:`~rummylib.solver._leftover`), the
search for a partition that lays every card (``_leftover.laid_whole``) and the
deadwood decomposition's rests (:mod:`~rummylib.solver._laying`).
"""

from __future__ import annotations

from typing import Any

from rummylib.solver._search import NEG, Cover, Entry, presence
from rummylib.solver._tables import Tables

__all__ = ["Constrained", "Laid"]


class Laid(Cover):
    """A :class:`~rummylib.solver._search.Cover` whose answers lay every card and every joker.

    The search of :class:`Cover` without its branch that leaves the lowest
    card: a state whose lowest card fits no candidate is worth :data:`NEG`,
    and so is one with jokers left once the naturals are gone.
    """

    def best(self, x: int, j: int, need: int, rem: int, alpha: int) -> int:
        """The best gain of a cover of all of ``x`` and ``j`` jokers (fail-soft against ``alpha``)."""
        if rem <= alpha:
            return rem
        priced, rest = divmod(rem, self.fine)
        floored = (priced - priced % self.scale) * self.fine + rest
        if floored <= alpha:
            return floored
        key = (x, j, need)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] <= alpha):
            return hit[0]
        if x == 0:
            value = 0 if not need & 1 and not j else NEG
            self.memo[key] = (value, True, None)
            return value
        p = (x | x >> 1) & self.ones if self.w == 2 else self.presence(x)
        best = NEG
        choice: Entry | None = None
        absent = ~p
        for entry in self.branch(j, p):
            packed, jokers, gain, clean, _shape, spot = entry
            if jokers > j or packed & absent:
                continue
            floor = max(alpha, best) - gain
            sub = rem - spot  # the child's first bound: no call where it cuts the child off
            if sub > floor:
                sub = self.best(x - packed, j - jokers, need & ~1 if clean else need, rem - spot, floor)
            if sub != NEG and sub + gain > best:
                best = sub + gain
                choice = entry
        if len(self.memo) >= self.limit:
            self.full()
        self.memo[key] = (best, best > alpha, choice)
        return best

    def branch(self, j: int, p: int) -> tuple[Entry, ...]:
        """The candidates to branch on at a state of presence ``p``: those of its lowest card."""
        del j  # every candidate of the card is tried; the loop skips those that do not fit
        return self.rows[((p & -p).bit_length() - 1) // self.w]


class Constrained(Laid):
    """:class:`Laid` branching on the card the fewest candidates take, not on the lowest card.

    In a cover that lays every card, each card is in one of the candidates that
    contain it and fit, so branching on any card present is exhaustive; the
    card with the fewest such candidates gives the fewest branches, and a card
    with none ends the state at once (worth :data:`NEG`), where branching on the
    lowest card finds it stranded only once every lower card is laid. A state's
    value does not depend on the card branched on, so the memo is that of
    :class:`Laid`. On the decomposition's hardest leftovers (80 cards of seed 1)
    a search of over 200,000 states takes a few dozen.
    """

    def __init__(self, tables: Tables, rows: tuple[tuple[Entry, ...], ...], *args: Any, **kwargs: Any) -> None:
        super().__init__(tables, rows, *args, **kwargs)
        having: list[list[Entry]] = [[] for _ in range(52)]
        for row in rows:
            for entry in row:
                for c in entry.shape.naturals:
                    having[tables.pos[c]].append(entry)
        #: Per search position: the candidates that contain it, in the rows' order.
        self.having = tuple(map(tuple, having))
        # Whether a candidate of a card fits reads only the presence of the cards of its
        # candidates, and the jokers up to the most any of them takes: :meth:`branch`
        # counts each card's fitting candidates once per such pattern (the same counts,
        # found again in a few operations on most states instead of a pass over them).
        near = [0] * 52
        for position, entries in enumerate(having):
            for entry in entries:
                near[position] |= entry.packed
        #: Per search position: the presence bits its count reads.
        self.near = tuple(presence(mask, self.w, self.ones) for mask in near)
        #: The most jokers a candidate takes: more jokers count as that many.
        self.most_jokers = max((entry.jokers for row in rows for entry in row), default=0)
        self.clear_counts()

    def clear_counts(self) -> None:
        """Forget what :meth:`branch` remembers (only a speed-up: past ``memo_limit`` entries it starts over)."""
        #: Per number of jokers (up to :attr:`most_jokers`) and search position: the count by pattern.
        self.counted: list[list[dict[int, int]]] = [[{} for _ in range(52)] for _ in range(self.most_jokers + 1)]
        #: Per number of jokers: the candidates :meth:`branch` gave each presence.
        self.picked: list[dict[int, tuple[Entry, ...]]] = [{} for _ in range(self.most_jokers + 1)]
        #: Entries of the two.
        self.remembered = 0

    def branch(self, j: int, p: int) -> tuple[Entry, ...]:
        """The candidates of the first card of presence ``p`` that the fewest candidates fitting in it take.

        The first card with at most one such candidate if there is one, else the
        first with the fewest (each count read from :attr:`counted` where known).
        """
        jokers = min(self.most_jokers, j)
        known = self.picked[jokers].get(p)
        if known is not None:
            return known
        w, near = self.w, self.near
        counted = self.counted[jokers]
        least = 1 << 30
        pick = 0
        q = p
        while q:
            bit = q & -q
            q ^= bit
            card = (bit.bit_length() - 1) // w
            pattern = p & near[card]
            n = counted[card].get(pattern)
            if n is None:
                n = counted[card][pattern] = self._count(card, j, p)
            if n < least:
                least, pick = n, card
                if n <= 1:
                    break
        picked = self.having[pick] if least else ()
        self.remembered += 1
        if self.remembered > self.settings.memo_limit:
            self.clear_counts()  # this call's counts go to the old tables, as good as dropped
        self.picked[jokers][p] = picked
        return picked

    def _count(self, card: int, j: int, p: int) -> int:
        """How many candidates of ``card`` fit in presence ``p`` with ``j`` jokers."""
        self.remembered += 1
        absent = ~p
        return sum(1 for entry in self.having[card] if entry.jokers <= j and not entry.packed & absent)

    def choose(self, x: int, j: int, need: int, value: int) -> Entry | None:
        """The choice :meth:`best` makes at a state whose exact best gain is ``value`` (as :meth:`Cover.choose`)."""
        rem = self.remaining(x, j)
        p = self.presence(x)
        absent = ~p
        for entry in self.branch(j, p):
            packed, jokers, gain, clean, _, _ = entry
            if jokers > j or packed & absent:
                continue
            want = value - gain
            if self.best(x - packed, j - jokers, need & ~1 if clean else need, rem - entry.potential, want - 1) == want:
                return entry
        return None
