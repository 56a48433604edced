"""The public API is exactly what DESIGN.md and the docs promise."""

from __future__ import annotations

import rummylib


def test_all_is_sorted_and_importable() -> None:
    names = rummylib.__all__
    assert len(names) == len(set(names))
    for name in names:
        assert hasattr(rummylib, name), name
