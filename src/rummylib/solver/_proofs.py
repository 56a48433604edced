"""What the budgeted attempts of one opening call proved, kept for its later attempts.

An opening of 40 cards or more is tried in several search orders within
budgets that grow from round to round (``_opening``); an attempt that runs
out used to leave nothing behind, so the next one proved again, window by
window, what it had already proved (no opening worth 498 points, say), and
the search carrying the duty to keep a card (R-T3) proved again what the
search that may lay every card had just proved. Within :func:`proving`:

* the search priced by points keeps, per question (the cards, the jokers
  and the duty), the most points no answer can reach (:func:`cap`), and
  starts its aspiration windows there (:meth:`Cover.solve`). A bound proved
  in one order holds in every order; one proved for an opening that may lay
  every card holds for one that must keep a card (it is one of them);
* each order's lowest bound is its progress, and each round after the first
  tries first the order that proved the most (:func:`by_progress`): which
  order settles an input differs by orders of magnitude from input to input;
* a tie-break step that ran out of its budget (``_opening_objective.settle``)
  is not tried again on the same question, in any order (:func:`ran_out`): the
  search priced by the whole gain, which takes over, is the one made for it;
* the searches priced by points and by the whole gain that prove an answer
  keep their memo from round to round (:func:`kept`): a larger budget goes on
  where a smaller one stopped;
* the first cover an order's search found (or failed to find) is kept
  (:func:`first_of`): the discrepancy search and the dive's finish are the same
  in every round, within budgets of their own, and the dive's finish no
  longer fills the memo of an attempt with states its proof may not need.

All of it only decides where a search starts or which attempt comes first:
every answer is still proved by the search, so it stays exact.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar, cast

from rummylib.solver._search import Cover
from rummylib.solver._settings import SearchSettings
from rummylib.solver._tables import ORDERS, Tables

__all__ = ["by_progress", "cap", "first_of", "kept", "proved", "proving", "ran_out"]

T = TypeVar("T")

#: Most memoised states the kept searches hold together; past it the others' memos are dropped.
_MOST = 400_000


class _Kept(threading.local):
    """The bounds, progress and spent tie steps while :func:`proving` is active (``caps`` ``None`` otherwise).

    One per thread: the searches kept are changed as they run, so two threads
    solving at once (the same input even) never share one.
    """

    def __init__(self) -> None:
        self.caps: dict[tuple[object, ...], list[int]] | None = None
        self.progress: dict[tuple[int, ...], int] = {}
        self.spent: set[tuple[object, ...]] = set()
        self.firsts: dict[tuple[object, ...], object] = {}
        self.searches: dict[tuple[object, ...], Cover] = {}


_KEPT = _Kept()


@contextmanager
def proving() -> Iterator[None]:
    """Within it, the searches of :mod:`~rummylib.solver._opening_objective` keep what they prove."""
    outer = (_KEPT.caps, _KEPT.progress, _KEPT.spent, _KEPT.firsts, _KEPT.searches)
    if _KEPT.caps is None:
        _KEPT.caps, _KEPT.progress, _KEPT.spent, _KEPT.firsts, _KEPT.searches = {}, {}, set(), {}, {}
    try:
        yield
    finally:
        _KEPT.caps, _KEPT.progress, _KEPT.spent, _KEPT.firsts, _KEPT.searches = outer


def _question(tables: Tables, x: int, j: int, need: int) -> tuple[object, ...]:
    """The question of ``x`` (packed in ``tables``' order), ``j`` jokers and duty ``need``, in any order."""
    w, field, pos = tables.width, tables.field, tables.pos
    return (tuple((x >> (w * pos[c])) & field for c in range(52)), j, need)


def cap(tables: Tables, x: int, j: int, need: int) -> list[int] | None:
    """``[n, w]``: no opening of the question is worth more than ``n`` points, and the window a search
    stopped in (``Cover.solve``'s ``cap``); ``None`` outside :func:`proving`.

    The list is kept: what a search proves in it holds for the later ones.
    """
    caps = _KEPT.caps
    if caps is None:
        return None
    key = _question(tables, x, j, need)
    known = caps.get(key)
    if known is None:
        known = caps[key] = [1 << 62, 1 << 62]
    if need > 1:  # keeping cards is one way to open: the bound of the same cards without the duty holds
        free = caps.get(key[:2] + (need & 1,))
        if free is not None and free[0] < known[0]:
            known[0] = known[1] = free[0]
    return known


@contextmanager
def proved(tables: Tables, x: int, j: int, need: int) -> Iterator[list[int] | None]:
    """The :func:`cap` of the question, noted as the progress of ``tables``' order once the block ends."""
    bound = cap(tables, x, j, need)
    try:
        yield bound
    finally:
        if bound is not None and bound[0] < _KEPT.progress.get(tables.pos, 1 << 62):
            _KEPT.progress[tables.pos] = bound[0]


def by_progress(orders: list[str]) -> list[str]:
    """``orders``, the one that proved the lowest bound first (stable: the others keep their places)."""
    progress = _KEPT.progress
    return sorted(orders, key=lambda order: progress.get(ORDERS[order], 1 << 62))


def ran_out(tables: Tables, x: int, j: int, need: int, found: int, *, now: bool = False) -> bool:
    """Whether the tie step on ``found`` ran out before (in any order); with ``now``, note that it did."""
    if _KEPT.caps is None:
        return False
    key = (*_question(tables, x, j, need), found)
    if now:
        _KEPT.spent.add(key)
    return key in _KEPT.spent


def first_of(tables: Tables, x: int, j: int, need: int, search: tuple[object, ...], find: Callable[[], T]) -> T:
    """``find()``, the first cover of the question for ``search`` (what else it depends on), kept within :func:`proving`."""
    if _KEPT.caps is None:
        return find()
    key = (tables.pos, *_question(tables, x, j, need), *search)
    if key not in _KEPT.firsts:
        _KEPT.firsts[key] = find()
    return cast(T, _KEPT.firsts[key])


def kept(
    tables: Tables,
    x: int,
    j: int,
    need: int,
    search: tuple[object, ...],
    make: Callable[[], Cover],
    settings: SearchSettings,
) -> Cover:
    """``make()``, or the search made for the same question and ``search`` by an earlier attempt, with its memo.

    The memo holds true bounds of the same candidates and prices (``search`` says
    which), so a later attempt goes on from it within its own ``settings``' budget.
    """
    if _KEPT.caps is None:
        return make()
    key = (tables.pos, *_question(tables, x, j, need), *search)
    searches = _KEPT.searches
    cover = searches.get(key)
    if cover is None:
        cover = searches[key] = make()
    if sum(len(other.memo) for other in searches.values()) > _MOST:  # memory stays bounded
        for other in searches.values():
            if other is not cover:
                other.memo.clear()
    cover.settings, cover.limit, cover.trial = settings, settings.memo_limit, settings.give_up
    return cover
