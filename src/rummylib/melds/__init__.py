"""Melds: runs and sets, built, validated, valued, extended (the rules R-M, J, V and O3).

A :class:`Run` knows its suit and its slots low to high; a :class:`Group` (a
set: the word messages and docs use) knows its rank and the suit each card stands for. ``.cards`` are
the physical cards in table order (jokers as :data:`~rummylib.JOKER`),
``.represents`` the card each one stands for, in the same order.

>>> from rummylib import REMIK, make_meld, meld_points, parse_cards
>>> run = make_meld(parse_cards("5H 6H JK"), REMIK)
>>> str(run), meld_points(run, REMIK)
('5H 6H JK=7H', 18)
"""

from __future__ import annotations

from rummylib.melds._build import make_meld, meld_readings, parse_meld
from rummylib.melds._change import lay_off, swap_joker

# ACE_HIGH, card_at_position, position_value and rank_value are re-exported (``X as X``)
# for the layers above (solver, engine, encoding, bots), deliberately left out of __all__:
# they are the meld layer's internal vocabulary, not public API.
from rummylib.melds._types import (
    ACE_HIGH as ACE_HIGH,
)
from rummylib.melds._types import (
    End,
    Group,
    Meld,
    Run,
    format_meld,
    is_clean_run,
    meld_points,
    validate_meld,
)
from rummylib.melds._types import (
    card_at_position as card_at_position,
)
from rummylib.melds._types import (
    position_value as position_value,
)
from rummylib.melds._types import (
    rank_value as rank_value,
)

__all__ = [
    "End",
    "Group",
    "Meld",
    "Run",
    "format_meld",
    "is_clean_run",
    "lay_off",
    "make_meld",
    "meld_points",
    "meld_readings",
    "parse_meld",
    "swap_joker",
    "validate_meld",
]
