"""Whether the cards of parts of one input can all be laid: a search bounded by the relaxation at every state.

A cover that lays every card of a part is a feasibility question, and the
bound of :class:`~rummylib.solver._laid.Laid` (the whole input's prices)
hardly cuts it: every card *could* be laid, just not all at once. Here each
state of the search solves the relaxation of its own cards, the most cards
the candidates that fit can lay, started from its parent's basis (the dual
simplex, a few pivots: a child only has less capacity), and is cut when that
is below its number of cards. On 60 cards of seed 124 of
``benchmarks/worst.py`` the relaxation of all 60 lays them all, but every
child of the root is cut at once: 18 states prove that no partition lays
every card, where the search without it took 28,000 (and the least-deadwood
search two proofs of 2.6 s each).

A cut is exact: the prices at which the dual simplex stops are rounded up,
checked against every candidate that fits in integer arithmetic and raised
where one is short (as in :func:`~rummylib.solver._priced.tightened`), so the
bound holds whatever the floating-point simplex did. The search branches on
the card the fewest fitting candidates take (that of
:class:`~rummylib.solver._laid.Constrained`), the candidates the
relaxation uses most first; it is exhaustive, so ``None`` means no cover.

Prices that cut the root of a part are kept (:meth:`Laying.cut`), checked
on every candidate of the input, not only those that fit the part: such
prices bound every part of the input, since a cover lays exactly its part's
cards and each candidate is worth at most its cards' prices. The
decomposition asks hundreds of parts that differ by a few cards, and one
kept set of prices cuts most of them, and many states of a search, without a
programme: 70 cards of seed 34 of ``benchmarks/worst.py`` asked 428 parts
and solved 2 programmes, 70 of seed 65 asked 816 and solved 56 (each
programme copies a tableau and takes a few dual pivots; a kept price is one
sum over the rows).
"""

from __future__ import annotations

from math import ceil
from operator import itemgetter, mul

from rummylib.solver._laid import Constrained
from rummylib.solver._priced import SCALE, Relaxed, Split
from rummylib.solver._search import Cover, Entry, OverBudget, by_position
from rummylib.solver._settings import SearchSettings
from rummylib.solver._simplex import _Simplex
from rummylib.solver._tables import Shape, Tables, packed_counts

__all__ = ["CARDS", "Laying"]

#: The relaxation of laying cards: each candidate is worth the cards it lays.
CARDS = Split(lambda shape: shape.size, lambda shape: 0, 1, (1,) * 53, (0,) * 53)


class Laying:
    """Covers laying every card of parts of one input (naturals ``x`` of ``tables``, ``jokers``).

    The programme of the whole input is solved once; a part's states start from
    it. States proved not to be laid whole are kept for later parts (bounded).
    """

    def __init__(
        self,
        tables: Tables,
        rows: tuple[tuple[Entry, ...], ...],
        x: int,
        jokers: int,
        settings: SearchSettings,
        split: Split = CARDS,
    ) -> None:
        nothing = (0,) * 53
        plain = Cover(tables, rows, nothing, settings)
        whole = plain.restrict(x, jokers)
        self.tables = tables
        self.settings = settings
        #: Cards some candidate fitting in the input takes (a part holding another is not laid whole).
        self.alive = plain.presence(whole)
        self.search = Constrained(tables, plain.rows, nothing, settings)
        self.relaxed = Relaxed(self.search, tables, whole, jokers, split)
        self.value = by_position(split.plain, tables)
        self.column = {id(entry): k for k, entry in enumerate(self.relaxed.entries)}
        self.failed: set[tuple[int, int]] = set()
        self.left = 0
        rowof, pos = self.relaxed.rowof, tables.pos
        joker_row = len(self.relaxed.capacity) - 1
        #: Per candidate, the rows of its naturals, then the joker row once per joker.
        self.rows = [
            (*(rowof[pos[c]] for c in entry.shape.naturals), *(joker_row,) * entry.jokers)
            for entry in self.relaxed.entries
        ]
        self.sums = [itemgetter(*rows) for rows in self.rows]  # a meld has 3 cards or more: tuples
        #: Prices that cut the root of a part, checked on every candidate of the input (last used first).
        self.pool: list[list[int]] = []

    def lay(self, x: int, jokers: int, budget: int) -> list[Shape] | None:
        """Shapes laying every card of the part ``x`` and ``jokers`` of the input, or ``None`` if none do.

        Raises:
            OverBudget: the search would visit more than ``budget`` states.
        """
        if self.search.presence(x) & ~self.alive:
            return None  # a card no candidate of the input takes
        self.left = budget
        if len(self.failed) > self.settings.memo_limit:
            self.failed.clear()
        found = self._lay(x, jokers, self.relaxed.warm.tableau)
        return None if found is None else [entry.shape for entry in found]

    def _lay(self, x: int, j: int, parent: _Simplex | None) -> list[Entry] | None:
        if x == 0:
            return [] if j == 0 else None
        key = (x, j)
        if key in self.failed:
            return None
        capacity, n = self._part(x, j)
        if parent is not self.relaxed.warm.tableau and self._pooled(capacity, n):
            self.failed.add(key)
            return None  # cut by kept prices, without a programme
        self.left -= 1
        if self.left < 0:
            raise OverBudget("laying states")
        tableau, used = self._bounded(x, j, parent, capacity, n)
        if tableau is None and used is None:
            self.failed.add(key)
            return None  # cut: fewer cards can be laid than there are
        if used:
            whole = self._integral(x, j, used)
            if whole is not None:
                return whole  # the relaxation's own answer lays every card
        search = self.search
        p = search.presence(x)
        absent = ~p
        branch = [entry for entry in search.branch(j, p) if entry.jokers <= j and not entry.packed & absent]
        if used:
            column = self.column
            branch.sort(key=lambda entry: -used[column[id(entry)]])
        for entry in branch:
            found = self._lay(x - entry.packed, j - entry.jokers, tableau)
            if found is not None:
                return [entry, *found]
        self.failed.add(key)
        return None

    def _bounded(
        self, x: int, j: int, parent: _Simplex | None, capacity: list[int], n: int
    ) -> tuple[_Simplex | None, list[float] | None]:
        """The state's solved tableau and column values; both ``None`` if its relaxation cuts it.

        ``capacity`` and ``n``: the part's :meth:`_part`.

        ``(None, [])`` when there is no tableau to start from or the dual simplex
        stalls: no cut, no order (its children start from nothing either).
        """
        relaxed = self.relaxed
        if parent is None:
            return None, []
        root = parent is relaxed.warm.tableau
        tableau = relaxed.warm.start(capacity, parent)
        assert tableau is not None
        enough: float | None = n - 1e-6
        while True:
            answer = relaxed.warm.resume(tableau, capacity, enough)
            if answer is None:
                return None, []
            prices, used = answer
            if sum(map(mul, prices, capacity)) < n - 1e-6 and self._cut(x, j, capacity, prices, n, root):
                return None, None
            if used is not None:
                return tableau, used
            enough = None

    def _cut(self, x: int, j: int, capacity: list[int], prices: list[float], n: int, keep: bool) -> bool:
        """Whether ``prices``, made whole and checked on every candidate that fits, bound the state below ``n`` cards.

        ``keep``: prices that cut are kept for :meth:`cut` (checked on the other candidates too).
        """
        units = [max(0, ceil(price * SCALE - 1e-6)) for price in prices]
        absent = ~self.search.presence(x)
        others = []
        for k, (entry, gain, sums) in enumerate(zip(self.relaxed.entries, self.relaxed.priced, self.sums)):
            if entry.jokers > j or entry.packed & absent:
                others.append(k)
                continue
            short = gain * SCALE - sum(sums(units))
            if short > 0:
                _repair(units, entry.jokers, short, self.rows[k])
        total: int = sum(map(mul, units, capacity))
        if total >= n * SCALE:
            return False
        if keep:
            self._keep(units, others, capacity, n)
        return True

    def _keep(self, units: list[int], others: list[int], capacity: list[int], n: int) -> None:
        """Keep ``units`` (a cut's prices), checked on the candidates that did not fit too, if they still cut."""
        units = units[:]
        entries, priced, rows = self.relaxed.entries, self.relaxed.priced, self.rows
        for k in others:
            short = priced[k] * SCALE - sum(self.sums[k](units))
            if short > 0:
                _repair(units, entries[k].jokers, short, rows[k])
        if sum(map(mul, units, capacity)) < n * SCALE:
            self.pool.insert(0, units)
            del self.pool[self.settings.deadwood_pool :]  # the least recently used go

    def cut(self, x: int, j: int) -> bool:
        """Whether prices kept from earlier parts prove that the part ``x``, ``j`` cannot be laid whole.

        Prices checked on every candidate of the input bound every part of it
        (a cover lays exactly its part's cards, each candidate worth at most its
        cards' prices), so a part worth more than its prices allow is not laid
        whole, without a programme. The prices that cut move to the front.
        """
        return self._pooled(*self._part(x, j))

    def _part(self, x: int, j: int) -> tuple[list[int], int]:
        """The programme's capacity for the part ``x``, ``j``, and what its cards are worth all laid."""
        value = self.value
        w, field = self.tables.width, self.tables.field
        n = j * value[52] + sum(count * value[p] for p, count in packed_counts(x, w, field))
        return self.relaxed.capacity_of(x, j), n

    def _pooled(self, capacity: list[int], n: int) -> bool:
        """:meth:`cut` of the part of ``capacity`` worth ``n``."""
        pool = self.pool
        for k, units in enumerate(pool):
            if sum(map(mul, units, capacity)) < n * SCALE:
                if k:
                    pool.insert(0, pool.pop(k))
                return True
        return False

    def _integral(self, x: int, j: int, used: list[float]) -> list[Entry] | None:
        """The candidates the relaxation uses whole, if their copies lay exactly ``x`` and ``j`` jokers."""
        chosen: list[Entry] = []
        for entry, value in zip(self.relaxed.entries, used):
            copies = round(value)
            if abs(value - copies) > 1e-4:
                return None
            chosen += [entry] * copies
        if sum(entry.packed for entry in chosen) != x or sum(entry.jokers for entry in chosen) != j:
            return None
        return chosen


def _repair(units: list[int], jokers: int, short: int, rows: tuple[int, ...]) -> None:
    """Raise one price of ``units`` by what the candidate of ``rows`` (``jokers`` of them last) is ``short``."""
    if jokers:
        units[rows[-1]] += -(-short // jokers)
    else:
        units[rows[0]] += short
