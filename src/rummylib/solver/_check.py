"""The pure opening check of melds as laid (R-O2, O3): :func:`check_opening`."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from rummylib.errors import InvalidMeldError, InvalidOpeningError, MeldReason, OpeningReason
from rummylib.melds import Meld, is_clean_run, validate_meld
from rummylib.melds._types import checked_points
from rummylib.rules import Ruleset
from rummylib.solver._results import check_rules

from .._guards import is_collection_of_items

__all__ = ["check_opening"]

#: More melds than any deck can hold: refused before any work.
_MAX_MELDS = 200


def check_opening(melds: Iterable[Meld], rules: Ruleset) -> int:
    """The points of ``melds`` as an opening, or a typed error (R-O2, O3).

    Each meld is validated; jokers count as the card they stand for and aces
    by place. The melds must total ``rules.opening_points`` and hold a run
    without jokers when ``rules.opening_clean_run``. Whether the melds come
    from one hand is not asked: pass melds a player laid out.

    Args:
        melds: the opening's melds (any iterable of :class:`~rummylib.Run`
            and :class:`~rummylib.Group`).
        rules: the ruleset.

    Returns:
        The opening's points.

    Raises:
        InvalidOpeningError: no melds (``EMPTY``), below the threshold
            (``TOO_LOW``, with ``have`` and ``need``), no clean run
            (``NO_CLEAN_RUN``), or rules without an opening (``NO_OPENING_RULE``).
        InvalidMeldError: an item is not a meld, or not valid under ``rules``.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from rummylib import REMIK, check_opening, make_meld, parse_cards
    >>> run = make_meld(parse_cards("10S JS QS KS"), REMIK)
    >>> check_opening([run, make_meld(parse_cards("8H 8D 8C"), REMIK)], REMIK)
    64
    >>> check_opening([run], REMIK)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidOpeningError: the opening is worth 40, below 51 (R-O2)
    """
    checked = check_rules(rules)
    items = _melds(melds)
    need = checked.opening_points
    if not checked.opening_required:
        msg = f"the {checked.name} rules have no opening"
        raise InvalidOpeningError(OpeningReason.NO_OPENING_RULE, 0, need, msg)
    for meld in items:
        validate_meld(meld, checked)
    if not items:
        raise InvalidOpeningError(OpeningReason.EMPTY, 0, need, "an opening needs at least one meld")
    have = sum(map(checked_points, items))  # each validated above
    if have < need:
        raise InvalidOpeningError(
            OpeningReason.TOO_LOW, have, need, f"the opening is worth {have}, below {need} (R-O2)"
        )
    if checked.opening_clean_run and not any(is_clean_run(m) for m in items):
        msg = "the opening needs a run without jokers (R-O2)"
        raise InvalidOpeningError(OpeningReason.NO_CLEAN_RUN, have, need, msg)
    return have


def _melds(melds: object) -> tuple[Meld, ...]:
    if not is_collection_of_items(melds):
        msg = f"check_opening() takes an iterable of melds, not {type(melds).__name__}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, melds, msg)
    items = tuple(itertools.islice(melds, _MAX_MELDS + 1))  # type: ignore[call-overload]
    if len(items) > _MAX_MELDS:
        msg = f"check_opening() takes at most {_MAX_MELDS} melds"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, (), msg)
    return items
