"""Which build of rummylib a benchmark measures: pure Python, or the compiled one (docs/howto/compiled-build.rst)."""

from __future__ import annotations

import importlib.machinery
import pkgutil

import rummylib


def build() -> str:
    """``"pure Python"``, or ``"compiled (N modules)"`` when extension modules of the mypyc build are loaded."""
    native = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = 0
    for info in pkgutil.walk_packages(rummylib.__path__, "rummylib."):
        spec = info.module_finder.find_spec(info.name, None)
        if spec is not None and str(spec.origin).endswith(native):
            found += 1
    return f"compiled ({found} modules)" if found else "pure Python"
