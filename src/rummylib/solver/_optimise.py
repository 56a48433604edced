"""One search pipeline for every question: trial, price, first cover, prove, path.

A question (the best opening, the least deadwood) is an :class:`Objective`:
how the plain search answers it, how its gain splits for the linear
relaxation, and how a search priced by that relaxation proves its answer.
:func:`optimise` picks the strategy an input's size calls for (see
:class:`~rummylib.solver._settings.SearchSettings`) and runs the steps in
order; the caller has restricted the candidates to the input already
(:meth:`Cover.restrict`).
"""

from __future__ import annotations

from typing import Protocol

from rummylib.solver._priced import Split, tightened, wants_lp
from rummylib.solver._search import Cover, cards_in
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import Shape, Tables

__all__ = ["Found", "Objective", "optimise", "wants_trial"]

#: An answer: its gain on the objective's plain scale, and the shapes of its cover.
Found = tuple[int, list[Shape]]


class Objective(Protocol):
    """What one question asks of the search (gains on its plain scale)."""

    def split(self) -> Split:
        """The gain as the relaxation prices it (see :class:`~rummylib.solver._priced.Split`)."""
        ...

    def plain(self, cover: Cover, x: int, j: int, need: int, alpha: int) -> Found | None:
        """The best answer above ``alpha`` by the search with each card's own bound, or ``None``."""
        ...

    def prove(
        self, cover: Cover, priced: Cover, tables: Tables, x: int, j: int, need: int, alpha: int, size: int
    ) -> Found | None:
        """The best answer above ``alpha`` by ``priced`` (the search priced by the relaxation), or ``None``."""
        ...


def optimise(
    objective: Objective,
    cover: Cover,
    tables: Tables,
    x: int,
    j: int,
    need: int,
    alpha: int,
    priced: list[Cover] | None = None,
) -> Found | None:
    """The best answer above ``alpha`` to ``objective`` on naturals ``x`` and ``j`` jokers, or ``None``.

    Large inputs first get a short plain trial (exact if it ends: whole decks
    are settled by the first descent); small ones the plain search; the rest
    the relaxation's prices, with which the objective proves its answer. The
    search priced by the relaxation, if one is made, is appended to
    ``priced``: its prices bound every part of the input too.
    """
    size = cards_in(x, tables.width, tables.field) + j
    settings = cover.settings
    if wants_trial(size, settings):
        result = cover.within(settings.trial_budget, lambda c: (objective.plain(c, x, j, need, alpha),))
        if result is not None:
            return result[0]
    if not wants_lp(size, settings):
        return objective.plain(cover, x, j, need, alpha)
    points_cover = tightened(cover, tables, x, j, objective.split(), need >> 1)
    if priced is not None:
        priced.append(points_cover)
    return objective.prove(cover, points_cover, tables, x, j, need, alpha, size)


def wants_trial(size: int, settings: SearchSettings = DEFAULT_SETTINGS) -> bool:
    """Whether a search of ``size`` cards (jokers included) should start with a short plain trial (:meth:`Cover.within`)."""
    return size >= settings.trial_from
