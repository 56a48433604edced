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


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_examples_run(page: Path) -> None:
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
