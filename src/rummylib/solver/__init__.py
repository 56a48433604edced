"""The exact solver: melds in a multiset, best opening, least deadwood, go-out plans.

Every function is exact, deterministic and pure, and accepts any multiset
of cards up to a whole deck (R-C1), not only a hand. Candidate melds
are precomputed once per ruleset (a small bounded cache); every search keeps
its memo for the length of one call.

>>> from rummylib import REMIK, parse_cards, best_opening
>>> best_opening(parse_cards("9S 10S JS 8H 8D 8C 2C"), REMIK).points
53
"""

from __future__ import annotations

from rummylib.solver._check import check_opening
from rummylib.solver._find import find_melds
from rummylib.solver._goout import plan_go_out
from rummylib.solver._opening import best_opening, can_open
from rummylib.solver._partition import best_partition
from rummylib.solver._results import Opening, Partition

__all__ = [
    "Opening",
    "Partition",
    "best_opening",
    "best_partition",
    "can_open",
    "check_opening",
    "find_melds",
    "plan_go_out",
]
