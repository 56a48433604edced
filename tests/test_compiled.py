"""The optional compiled build (mypyc, ``pyproject.toml``'s ``hooks.mypyc``): what it compiles, and which build runs.

CI runs the whole test suite twice: on the pure-Python source tree, and on
a wheel built with ``HATCH_BUILD_HOOK_ENABLE_MYPYC=true`` with
``RUMMYLIB_EXPECT_COMPILED=1`` set, so a build that silently fell back to
pure Python cannot pass as compiled. The two builds give the same answers:
the rest of the suite, and ``benchmarks/digest.py`` compared across them.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import re
import sys
from pathlib import Path

import pytest

import rummylib

ROOT = Path(__file__).resolve().parent.parent
_NATIVE = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _compiled_list() -> list[str]:
    """The module names the mypyc hook compiles, read from ``pyproject.toml``'s ``include`` list."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[tool.hatch.build.targets.wheel.hooks.mypyc]", 1)[1].split("\n[", 1)[0]
    paths = re.findall(r'"/src/(rummylib/[\w/]+)\.py"', section)
    return [p.replace("/", ".") for p in paths]


COMPILED = _compiled_list()


def test_the_hook_lists_modules() -> None:
    assert len(COMPILED) >= 5  # the parse above found the list (a renamed section would give none)
    for name in COMPILED:
        importlib.import_module(name)  # each exists


def test_only_private_modules_that_read_checked_values_are_compiled() -> None:
    # A compiled module trusts its annotations: mypyc converts a bool read from a field typed int to
    # an int, and raises a bare TypeError on a value of another type. So no module that reads a
    # caller's raw input (actions, seats, ids, documents, public arguments) is compiled: those stay
    # pure Python and hand the compiled ones values they have checked. Every compiled module is
    # private, and none of the boundary modules below is on the list.
    boundary = {
        "rummylib.engine._apply",  # transition: the action and the seat as given
        "rummylib.engine._check",
        "rummylib.engine._view",  # view: the seat as given
        "rummylib.encoding._actions",  # encode/decode: actions and ids as given (its trusted back: _listing)
        "rummylib.encoding._catalogue",  # MeldCatalogue.index: the meld encode is given
        "rummylib.encoding._observation",  # encode: the view as given (its trusted back: _numbers)
        "rummylib.solver._opening",  # best_opening and friends: the public arguments
        "rummylib.solver._partition",
        "rummylib.solver._goout",
        "rummylib.cards",
    }
    for name in COMPILED:
        assert name.rsplit(".", 1)[1].startswith("_"), name
        assert name not in boundary, name


def _is_native(name: str) -> bool:
    module = sys.modules.get(name) or importlib.import_module(name)
    return str(getattr(module, "__file__", "")).endswith(_NATIVE)


@pytest.mark.skipif(os.environ.get("RUMMYLIB_EXPECT_COMPILED") != "1", reason="the pure-Python build")
def test_the_compiled_build_is_compiled() -> None:
    missing = [name for name in COMPILED if not _is_native(name)]
    assert not missing, f"not compiled: {missing}"


_FROM_TREE = Path(rummylib.__file__).resolve().is_relative_to(ROOT / "src")


@pytest.mark.skipif(not _FROM_TREE, reason="rummylib is imported from an installed build, not this source tree")
def test_the_source_tree_runs_pure_python() -> None:
    # A compiled build made inside the source tree (``pip install .`` with the hook on) leaves
    # extension modules beside the sources, and Python prefers them: an editable install would then
    # run stale code. Remove them with ``git clean -fX src`` (they are git-ignored).
    stale = [name for name in COMPILED if _is_native(name)]
    assert not stale, f"compiled modules in {Path(rummylib.__file__).parent}: {stale}; run git clean -fX src"
