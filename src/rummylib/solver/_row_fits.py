"""The candidate rows a search keeps for one input, cut from cached per-card answers.

:meth:`Cover.restrict <rummylib.solver._search.Cover.restrict>` keeps, for
every card present, the candidates of its row that fit in the input (each
natural present, no more jokers than held). Which candidates fit depends only
on the presence of the few cards the row's candidates use and on the jokers
up to the most any candidate holds, so hands that differ elsewhere ask the
same question. :class:`RowFits` keeps those answers per row table (a
bounded cache), and :func:`restrict` is ``Cover.restrict`` reading them:
the same rows, the same packed input.
"""

from __future__ import annotations

from typing import Final

from rummylib.solver._search import Cover, Entry

__all__ = ["RowFits", "restrict"]

#: Cut rows kept per table; past it the cache starts over (it is only a speed-up).
_LIMIT: Final = 20_000


class RowFits:
    """Per card, the cuts of one table of rows (``rows``, as the searches of one objective share them)."""

    __slots__ = ("_cuts", "_masks", "_most", "rows")

    def __init__(self, rows: tuple[tuple[Entry, ...], ...]) -> None:
        self.rows = rows
        masks: list[int] = []
        for row in rows:
            mask = 0
            for entry in row:
                mask |= entry.packed
            masks.append(mask)
        #: Per card: every bit a candidate of its row uses (a candidate fits by these alone).
        self._masks = tuple(masks)
        #: Per card: the most jokers a candidate of its row holds (more held changes nothing).
        self._most = tuple(max((entry.jokers for entry in row), default=0) for row in rows)
        self._cuts: dict[tuple[int, int, int], tuple[tuple[Entry, ...], int]] = {}

    def fit(self, card: int, present: int, jokers: int) -> tuple[tuple[Entry, ...], int]:
        """The candidates of ``card``'s row that fit (every natural in ``present``, at most ``jokers`` jokers), and their bits."""
        most = self._most[card]
        key = (card, present & self._masks[card], min(most, jokers))
        cut = self._cuts.get(key)
        if cut is None:
            if len(self._cuts) >= _LIMIT:
                self._cuts.clear()
            absent = ~present
            row = tuple(e for e in self.rows[card] if e.jokers <= jokers and not e.packed & absent)
            used = 0
            for entry in row:
                used |= entry.packed
            cut = self._cuts[key] = (row, used)
        return cut


def restrict(cover: Cover, fits: RowFits, x: int, j: int) -> int:
    """``cover.restrict(x, j)`` with the cuts of ``fits`` (whose rows are ``cover.rows``): the same result.

    Cutting the table's rows by the last presence equals cutting them again
    and again as dead cards go (a cut only ever loses candidates).
    """
    assert fits.rows is cover.rows
    w = cover.w
    while True:
        p = cover.presence(x)
        rows: list[tuple[Entry, ...]] = [()] * 52
        alive = 0
        q = p
        while q:
            bit = q & -q
            q ^= bit
            card = (bit.bit_length() - 1) // w
            rows[card], used = fits.fit(card, p, j)
            alive |= used
        dead = p & ~alive
        if not dead:
            cover.rows = tuple(rows)
            return x
        while dead:
            bit = dead & -dead
            x &= ~(cover.field << (bit.bit_length() - 1))
            dead ^= bit
