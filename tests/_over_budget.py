"""Watching a solver stage give way: the reasons of the ``OverBudget`` a patched function raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummylib.solver._search import OverBudget


def recording(function: Callable[..., Any], raised: list[str]) -> Callable[..., Any]:
    """``function``, appending the reason of each ``OverBudget`` it raises to ``raised`` (and raising it on)."""

    def wrapper(*args: Any) -> Any:
        try:
            return function(*args)
        except OverBudget as error:
            raised.append(str(error))
            raise

    return wrapper
