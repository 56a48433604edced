"""Sphinx configuration for the rummylib documentation (build: ``sphinx-build -W docs docs/_build/html``)."""

from __future__ import annotations

import enum
import re
import sys
from pathlib import Path

import attrs
from docutils import nodes
from sphinx import addnodes

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
    "encoding", "bots", "simulation", "testing", "cli", "rl",
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


def _public_target(target: str) -> str | None:
    """``rummylib.engine._state.TableMeld`` -> ``rummylib.engine.TableMeld`` (its documented home).

    Type hints name a class where it is defined, in a private module; the
    reference documents it where users import it from.
    """
    parts = target.split(".")
    if len(parts) < 3 or parts[0] != "rummylib" or not any(p.startswith("_") for p in parts[1:-1]):
        return None
    home = _home(parts[-1])
    return None if home is None else f"{home}.{parts[-1]}"


def _resolve_reexports(app, env, node, contnode):  # type: ignore[no-untyped-def]
    """Let ``:func:`rummylib.make_meld``` link to ``rummylib.melds.make_meld``.

    The pages refer to names the way users import them (from the top-level
    package); autodoc documents them in their home module.
    """
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("rummylib."):
        return None
    public = _public_target(target)
    if public is not None:
        node["reftarget"] = public
        if contnode.astext() == target:  # show the public path, not the private one
            contnode = contnode.__class__("", "", nodes.Text(public), classes=contnode.get("classes", []))
    else:
        head, _, tail = target.partition(".")[2].partition(".")
        home = _home(head)
        if home is None:
            return None
        node["reftarget"] = ".".join(part for part in (home, head, tail) if part)
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], node["reftarget"], node, contnode)


_ATTRS_DEFAULT = re.compile(r"attr_dict\['(\w+)'\]\.default")


_ACTION_UNION = re.compile(
    r"(?:~?rummylib\.actions\.)?DrawStock \| (?:~?rummylib\.actions\.)?TakeDiscard \| (?:~?rummylib\.actions\.)?Open"
    r" \| (?:~?rummylib\.actions\.)?LayMeld \| (?:~?rummylib\.actions\.)?LayOff \| (?:~?rummylib\.actions\.)?SwapJoker"
    r" \| (?:~?rummylib\.actions\.)?Discard \| (?:~?rummylib\.actions\.)?NextRound"
)


_DOCUMENT_UNION = re.compile(
    r"~rummylib\.rules\.Ruleset \| ~rummylib\.melds\.\w+\.Meld \| ~rummylib\.cards\.CardMultiset"
    r" \| ~rummylib\.engine\.\w+\.GameState \| ~rummylib\.engine\.\w+\.PlayerView"
    r" \| ~rummylib\.records\.\w+\.GameRecord \| ~rummylib\.actions\.Action"
)


def _signature(app, what, name, obj, options, signature, return_annotation):  # type: ignore[no-untyped-def]
    """Signatures as users read them: attrs defaults as values, the action union as ``Action``."""
    fixed = _attrs_defaults(app, what, name, obj, options, signature, return_annotation)
    if fixed is not None:
        signature, return_annotation = fixed

    # The union of the eight action classes is written as its alias, :data:`~rummylib.Action`,
    # and the union of every document type as :data:`~rummylib.records.Document`.
    def alias(text: str | None) -> str | None:
        if text is None:
            return None
        return _DOCUMENT_UNION.sub("~rummylib.records.Document", _ACTION_UNION.sub("~rummylib.actions.Action", text))

    return alias(signature), alias(return_annotation)


def _attrs_defaults(app, what, name, obj, options, signature, return_annotation):  # type: ignore[no-untyped-def]
    """Show an attrs field's default as its value, not as ``attr_dict['x'].default``.

    ``autodoc_preserve_defaults`` reads defaults from the source, and attrs
    writes ``__init__`` from a template that fetches them from a dict.
    """
    if not signature or "attr_dict[" not in signature or not attrs.has(obj):
        return None
    fields = attrs.fields_dict(obj)

    def value(match: re.Match[str]) -> str:
        default = fields[match.group(1)].default
        if isinstance(default, enum.Enum):
            return f"{type(default).__name__}.{default.name}"
        return "<factory>" if isinstance(default, attrs.Factory) else repr(default)  # type: ignore[arg-type]

    return _ATTRS_DEFAULT.sub(value, signature), return_annotation


_PRIVATE_PATH = re.compile(r"\brummylib(?:\.\w+)*\._\w+\.(\w+)")


def _public_paths(app, doctree, docname):  # type: ignore[no-untyped-def]
    """Name every class by its public path in the rendered text and link titles.

    Attribute types (``:type:`` fields) are written from the annotations,
    which name the private module a class is defined in.
    """

    def public(match: re.Match[str]) -> str:
        home = _home(match.group(1))
        return match.group(0) if home is None else f"{home}.{match.group(1)}"

    for ref in doctree.findall(nodes.reference):
        if "reftitle" in ref:
            ref["reftitle"] = _PRIVATE_PATH.sub(public, ref["reftitle"])
    for text in list(doctree.findall(nodes.Text)):
        new = _PRIVATE_PATH.sub(public, str(text))
        if new != str(text):
            text.parent.replace(text, nodes.Text(new))


#: The rule codes the rules page defines (``.. _R-D2:`` labels), without the ``R-``.
RULE_CODES = frozenset(re.findall(r"^\.\. _R-([A-Z]\d*):", (ROOT / "docs" / "rules.rst").read_text(), re.MULTILINE))
#: A cited list of rule codes: ``R-D2``, ``R-S2, S4``, ``R-P1..P5``, ``R-T3/E1``.
RULE_CITATION = re.compile(r"\bR-[A-Z]\d*(?:(?:, |/|\.\.|-| to | or | and )[A-Z]\d+)*")
_ONE_CODE = re.compile(r"R-[A-Z]\d*|[A-Z]\d+")
#: A bare code, as the narrative pages write them in brackets: ``(P2, T1)``.
_BARE_CODE = re.compile(r"(?<![\w\-=.#/])[A-Z]\d{1,2}(?![\w])")
_NO_LINKS = (nodes.literal, nodes.literal_block, nodes.doctest_block, nodes.reference, nodes.title,
             nodes.target, nodes.raw, nodes.comment, addnodes.desc_signature, addnodes.pending_xref)  # fmt: skip


def _code_spans(text: str, bare: bool) -> list[tuple[int, int, str]]:
    """Where ``text`` cites a rule: (start, end, code) for each code, in order."""
    spans = []
    for m in RULE_CITATION.finditer(text):
        for c in _ONE_CODE.finditer(m.group(0)):
            spans.append((m.start() + c.start(), m.start() + c.end(), c.group(0).removeprefix("R-")))
    if bare:
        for m in _BARE_CODE.finditer(text):
            if not any(s <= m.start() < e for s, e, _ in spans):
                spans.append((m.start(), m.end(), m.group(0)))
    return sorted(s for s in spans if s[2] in RULE_CODES)


def _link_rule_codes(app, doctree, docname):  # type: ignore[no-untyped-def]
    """Make every rule code in the text (``R-D2``; ``(D2)`` on narrative pages) a link to its rule."""
    if app.builder.format != "html":
        return
    page = app.builder.get_relative_uri(docname, "rules")
    bare = not docname.startswith("api/")
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, _NO_LINKS) for a in _ancestors(text)):
            continue
        spans = _code_spans(str(text), bare)
        if not spans:
            continue
        raw, pieces, at = str(text), [], 0
        for start, end, code in spans:
            pieces.append(nodes.Text(raw[at:start]))
            uri = ("" if docname == "rules" else page) + f"#r-{code.lower()}"
            pieces.append(nodes.reference(raw[start:end], raw[start:end], internal=True, refuri=uri,
                                          classes=["rule-code"], reftitle=f"rule {code}"))  # fmt: skip
            at = end
        pieces.append(nodes.Text(raw[at:]))
        index = parent.index(text)
        parent.remove(text)
        for offset, piece in enumerate(p for p in pieces if p.astext()):
            parent.insert(index + offset, piece)


def _ancestors(node):  # type: ignore[no-untyped-def]
    while node.parent is not None:
        node = node.parent
        yield node


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("doctree-resolved", _link_rule_codes)
    app.connect("doctree-resolved", _public_paths)
    app.connect("missing-reference", _resolve_reexports)
    app.connect("autodoc-process-signature", _signature)
