"""The least deadwood of a large input by what it leaves in hand: each small leftover, the rest laid whole.

A partition leaves some cards ``L`` in hand and lays every other card; its
deadwood is the penalty of ``L`` alone. So the least deadwood is the least
penalty ``d`` for which some leftover worth ``d`` leaves a rest that can be
laid whole, and leftovers are tried level by level, ``d = 0, 2, 3, ...``:
the first rest laid whole is the answer, and every leftover of a lower level
having failed proves it exact. Whether a rest can be laid whole is the
question :class:`~rummylib.solver._laying.Laying` answers, by a search that
solves the relaxation of every state it visits: far tighter than the packing
relaxation of the whole input, whose prices may leave a card "over at its
price" fractionally. On such inputs the search priced by the packing
relaxation must visit every partition near its bound to prove that none does
better (80 cards of seed 112 of ``benchmarks/worst.py``: 0.9 s, against 0.3 s
this way; 60 cards of seed 124: two proofs of 2.6 s each that no partition
lays all 60 cards, which ``Laying`` proves in 18 states). Levels start at the
least deadwood the packing relaxation allows (``least``).

Most leftovers are settled without a search: prices that cut an earlier
rest, kept by the ``Laying``, cut theirs too (:meth:`~rummylib.solver._laying.Laying.cut`).
The work is bounded by the settings (``deadwood_leftovers`` leftovers in all,
``deadwood_searches`` of them searched, each search within ``deadwood_search_budget``);
past them :class:`~rummylib.solver._search.OverBudget` is raised and the caller
searches as before.
"""

from __future__ import annotations

from rummylib.solver._laying import Laying
from rummylib.solver._search import OverBudget
from rummylib.solver._settings import SearchSettings
from rummylib.solver._tables import Shape, Tables, packed_counts, packed_without

__all__ = ["by_deadwood", "leftovers"]


def by_deadwood(
    laying: Laying,
    x: int,
    jokers: int,
    pens: tuple[int, ...],
    below: int | None,
    settings: SearchSettings,
    least: int = 0,
) -> tuple[int, list[Shape]] | None:
    """The least deadwood below ``below`` of naturals ``x`` and ``jokers`` (``pens`` by position), with its shapes.

    ``least``: no partition leaves less (the levels below it are not tried).

    ``None``: every partition leaves ``below`` or more (``below=None``: no limit).

    Raises:
        OverBudget: the answer would take more than ``deadwood_leftovers``
            leftovers, or more than ``deadwood_searches`` searches (leftovers
            the kept prices do not cut), or a search ran out of its budget.
    """
    w = laying.tables.width
    kinds = _kinds(x, jokers, laying.tables, pens)
    if kinds is None:
        raise OverBudget("free cards")  # leftovers of one penalty would be unbounded
    searched = seen = 0
    d = least
    while below is None or d < below:
        for cards in _level(kinds, pens, d, settings.deadwood_leftovers - seen):
            seen += 1
            if seen > settings.deadwood_leftovers:
                raise OverBudget("deadwood leftovers")
            rest, rest_jokers = packed_without(x, jokers, cards, w)
            if laying.cut(rest, rest_jokers):
                continue  # the prices that cut an earlier rest cut this one
            searched += 1
            if searched > settings.deadwood_searches:
                raise OverBudget("deadwood searches")
            shapes = laying.lay(rest, rest_jokers, settings.deadwood_search_budget)
            if shapes is not None:
                return d, shapes
        d += 1
    return None


def leftovers(
    x: int, jokers: int, tables: Tables, pens: tuple[int, ...], least: int, below: int, settings: SearchSettings
) -> int:
    """How many leftovers of naturals ``x`` and ``jokers`` are worth ``least`` to ``below`` (less one) of penalty.

    At most ``deadwood_sets`` + 1 are counted: with at most ``deadwood_sets``, the decomposition comes first.
    """
    most = settings.deadwood_sets
    kinds = _kinds(x, jokers, tables, pens)
    if kinds is None:
        return most + 1  # leftovers of one penalty would be unbounded
    count = 0
    for d in range(least, below):
        count += len(_level(kinds, pens, d, most - count))
        if count > most:
            break
    return count


def _kinds(x: int, jokers: int, tables: Tables, pens: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """The positions and counts of naturals ``x`` and ``jokers`` (52), or ``None`` if a card is free (no penalty)."""
    kinds = packed_counts(x, tables.width, tables.field)
    if jokers:
        kinds.append((52, jokers))
    return None if any(pens[c] <= 0 for c, _ in kinds) else kinds


def _level(kinds: list[tuple[int, int]], pens: tuple[int, ...], d: int, limit: int) -> list[tuple[int, ...]]:
    """Every leftover (positions, 52 a joker) whose penalty is exactly ``d``, at most ``limit`` + 1 of them."""
    out: list[tuple[int, ...]] = []

    def visit(start: int, cards: list[int], left: int) -> None:
        if left == 0:
            out.append(tuple(cards))
            return
        for k in range(start, len(kinds)):
            c, count = kinds[k]
            if pens[c] > left or cards.count(c) >= count or len(out) > limit:
                continue
            cards.append(c)
            visit(k, cards, left - pens[c])
            cards.pop()

    visit(0, [], d)
    return out
