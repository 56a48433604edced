"""A first cover by a limited discrepancy search along the rows' order (the relaxation's melds first)."""

from __future__ import annotations

from rummylib.solver._search import Cover, Entry, after_clean, after_leave, met
from rummylib.solver._tables import Shape

__all__ = ["hunt"]


def hunt(cover: Cover, x: int, j: int, need: int, floor: int, unit: int, budget: int) -> tuple[int, list[Shape]] | None:
    """A cover worth at least ``cover``'s bound's last whole unit (and more than ``floor``), or ``None``.

    A limited discrepancy search: it follows the rows' order (the relaxation's
    melds first, see :func:`~rummylib.solver._priced.tightened`) and allows 0,
    then 1, then 2 departures from it, within ``budget`` nodes in all.
    Depth-first search with chronological backtracking can spend its time deep
    in a tree whose mistake was near the root; this finds the cover the
    relaxation points at when one exists, and the exact search that follows
    only has to prove it best.
    """
    rem = cover.remaining(x, j)
    keep = need >> 1  # cards to leave over give up at least the least potential each
    target = max(floor + 1, ((rem - keep * cover.least(x, j)) // unit) * unit)
    left = [budget]
    for discrepancies in range(3):
        found = _probe(cover, x, j, need, rem, target - 1, discrepancies, left)
        if found is not None:
            return sum(entry.gain for entry in found), [entry.shape for entry in found]
        if left[0] <= 0:
            return None
    return None


def _probe(
    cover: Cover, x: int, j: int, need: int, rem: int, alpha: int, k: int, left: list[int]
) -> list[Entry] | None:
    if rem <= alpha or left[0] <= 0:
        return None
    left[0] -= 1
    if x == 0:
        return [] if met(need, j) and alpha < 0 else None
    p = cover.presence(x)
    low_bit = (p & -p).bit_length() - 1
    card = low_bit // cover.w
    shift = card * cover.w
    absent = ~p
    first = True
    for entry in cover.rows[card]:
        packed, jokers, gain, clean, _, spot = entry
        if jokers > j or packed & absent:
            continue
        if not first and k == 0:
            return None
        found = _probe(
            cover, x - packed, j - jokers, after_clean(need, clean), rem - spot, alpha - gain, k - (not first), left
        )
        if found is not None:
            return [entry, *found]
        first = False
    if not first and k == 0:
        return None
    count = (x >> shift) & cover.field
    return _probe(
        cover,
        x - (count << shift),
        j,
        after_leave(need, count),
        rem - count * cover.potential[card],
        alpha,
        k - (not first),
        left,
    )
