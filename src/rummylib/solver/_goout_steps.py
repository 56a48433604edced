"""The go-out search's typed records: its state, and the steps a plan is read back from (see :mod:`._goout`)."""

from __future__ import annotations

from typing import NamedTuple

from rummylib.solver._layoffs import Fragment, LayOption
from rummylib.solver._tables import Shape

__all__: list[str] = []  # internal to the solver: _goout_search builds these, _goout reads them


class _State(NamedTuple):
    """One state of the go-out search."""

    x: int  # naturals left in hand, packed
    h: int  # hand jokers left
    f: int  # freed jokers still to place in new melds (R-J4); below zero: owed by later swaps
    used: int  # meld ends that received a lay-off (bit per end, LayOption.end)
    allow: int  # discards still allowed (0 or 1)
    melds: int  # new melds laid (R-T5)
    need_clean: bool  # the opening still needs its clean run (R-O2)
    need: bool  # the opening still needs the owed card (R-D2)
    swapped: int  # relevant swap slots swapped
    committed: int  # relevant swap slots a chosen lay-off needs, swapped when their card comes
    fresh: bool  # the swaps of the lowest card are still to decide


class _Swap(NamedTuple):
    """Swap ``plain`` interchangeable slots and the ``slots`` mask of relevant ones for card ``card``."""

    card: int  # search position
    plain: int
    slots: int


class _NewMeld(NamedTuple):
    shape: Shape
    freed: int  # freed jokers it holds (then it does not count toward the opening)
    packed: int


class _Extended(NamedTuple):
    fragment: Fragment


class _Lay(NamedTuple):
    option: LayOption


class _Discard(NamedTuple):
    card: int  # search position


class _End(NamedTuple):
    """The naturals are placed: hand jokers onto free ends, and whether a joker is the discard."""

    placed: tuple[LayOption, ...]
    discard_joker: bool


_Step = _Swap | _NewMeld | _Extended | _Lay | _Discard | _End
