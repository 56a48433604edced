"""The error the encoders raise."""

from __future__ import annotations

import enum

from rummylib.errors import RummyError
from rummylib.errors import shorten as _shorten


class EncodingReason(enum.Enum):
    """Why a value has no id, an id no action, or a view no observation."""

    #: Not an action (or not a view, a state, an int id) at all.
    WRONG_TYPE = "wrong_type"
    #: A composite :class:`~rummylib.Open`, which has no id (ids name single steps; encode its melds one by one).
    COMPOSITE = "composite"
    #: An action the ruleset never allows (a meld, card, end or table slot outside the catalogue).
    NOT_IN_CATALOGUE = "not_in_catalogue"
    #: An id outside ``range(size)``.
    BAD_ID = "bad_id"
    #: A view or state of another ruleset or table size than the encoder's.
    WRONG_GAME = "wrong_game"


class EncodingError(RummyError, ValueError):
    """A value cannot be encoded or decoded.

    Attributes:
        reason: why.
        value: the offending value.
    """

    def __init__(self, reason: EncodingReason, value: object, detail: str) -> None:
        self.reason = reason
        self.value = value
        super().__init__(detail)


def shorten(value: object) -> str:
    """A short, bounded ``repr`` of ``value`` for a message (:func:`rummylib.errors.shorten`)."""
    return _shorten(value, 60)
