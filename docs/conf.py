"""Sphinx configuration for the rummylib documentation (build: ``sphinx-build -W docs docs/_build/html``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rummylib import __version__  # noqa: E402

project = "rummylib"
author = "rummylib developers"
copyright = "2026, rummylib developers"
release = __version__
version = ".".join(__version__.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

# No network at build time: intersphinx stays off.
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"

# Google-style docstrings (STYLE.md).
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}
autodoc_preserve_defaults = True

# ``>>>`` blocks in the pages are run by tests/test_docs.py; they can also be
# run with ``sphinx-build -b doctest docs docs/_build/doctest``.
doctest_global_setup = "import rummylib"

html_theme = "furo"
html_title = f"rummylib {release}"
html_static_path: list[str] = []


#: The modules the API reference documents, lowest layer first.
API_MODULES = (
    "errors", "cards", "rules", "melds", "scoring", "actions", "solver", "engine", "records", "events", "svg",
    "bots", "simulation", "testing", "cli",
)  # fmt: skip


def _home(name: str) -> str | None:
    """The documented module whose ``__all__`` holds ``name``."""
    import importlib

    for module in API_MODULES:
        try:
            mod = importlib.import_module(f"rummylib.{module}")
        except ImportError:
            continue
        if name in getattr(mod, "__all__", ()):
            return mod.__name__
    return None


def _resolve_reexports(app, env, node, contnode):  # type: ignore[no-untyped-def]
    """Let ``:func:`rummylib.make_meld``` link to ``rummylib.melds.make_meld``.

    The pages refer to names the way users import them (from the top-level
    package); autodoc documents them in their home module.
    """
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("rummylib."):
        return None
    head, _, tail = target.partition(".")[2].partition(".")
    home = _home(head)
    if home is None:
        return None
    node["reftarget"] = ".".join(part for part in (home, head, tail) if part)
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], node["reftarget"], node, contnode)


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("missing-reference", _resolve_reexports)
