"""The documentation's examples run, and the docs build with warnings as errors."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(DOCS.rglob("*.rst"))


def test_pages_found() -> None:
    assert len(PAGES) >= 10


#: Pages whose examples need an extra: (text on the page, the modules it needs, the extra).
EXTRAS = [
    ("from rummylib.rl import", ("numpy", "gymnasium", "pettingzoo"), "rl"),
    ("import pyspiel", ("pyspiel",), "openspiel"),
]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_examples_run(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for marker, modules, extra in EXTRAS:
        if marker in text and not all(importlib.util.find_spec(m) for m in modules):
            pytest.skip(f"the examples need the extra: pip install 'rummylib[{extra}]'")
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(page), module_relative=False, optionflags=flags, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.name} (see the output above)"


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None, reason="sphinx is not installed (pip install '.[docs]')"
)
def test_docs_build_without_warnings(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
