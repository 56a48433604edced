"""The documentation's examples run, the docs build with warnings as errors, and they read right.

The rules page defines every rule code the code and the docs cite; the built
API reference has no garbled attribute, no attrs-internal default and no
private module path.
"""

from __future__ import annotations

import doctest
import html
import importlib
import importlib.util
import inspect
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.rst"))

#: The codes the rules page defines with ``.. _R-D2:`` labels (without ``R-``).
RULE_CODES = frozenset(
    re.findall(r"^\.\. _R-([A-Z]\d*):", (DOCS / "rules.rst").read_text(encoding="utf-8"), re.MULTILINE)
)
#: A cited list of codes, as docs/conf.py links them: ``R-D2``, ``R-S2, S4``, ``R-T3/E1``.
RULE_CITATION = re.compile(r"\bR-[A-Z]\d*(?:(?:, |/|\.\.|-| to | or | and )[A-Z]\d+)*")
#: A bare code in brackets, as the narrative pages write them: ``(P2, T1)``.
BARE_CODE = re.compile(r"(?<![\w\-=.#/])[A-Z]\d{1,2}(?![\w])")


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
def test_docs_build_without_warnings(built_html: Path) -> None:
    assert (built_html / "index.html").is_file()


# --- the rules page ---------------------------------------------------------------------


def _cited_codes() -> dict[str, set[str]]:
    """Every rule code cited in src/, tests/, docs/ and the README, with the files citing it."""
    files = [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"), *PAGES, ROOT / "README.md"]
    cited: dict[str, set[str]] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        codes = [
            c.removeprefix("R-") for m in RULE_CITATION.finditer(text) for c in re.findall(r"R-[A-Z]\d*|[A-Z]\d+", m[0])
        ]
        if path.suffix == ".rst" and "api" not in path.parts:
            codes += BARE_CODE.findall(text)
        for code in codes:
            cited.setdefault(code, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_rules_page_has_every_rule_of_both_games() -> None:
    sections = {code for code in RULE_CODES if len(code) == 1}
    assert sections == set("CVMJOTDESPH")
    assert len(RULE_CODES - sections) == 50  # C1..C3, V1, M1..M6, ..., H1
    assert {"D2", "J4", "O4", "T7", "D7", "H1"} <= RULE_CODES


def test_every_cited_rule_code_is_on_the_rules_page() -> None:
    cited = _cited_codes()
    missing = {code: sorted(files) for code, files in cited.items() if code not in RULE_CODES}
    assert not missing, f"rule codes cited but not defined in docs/rules.rst: {missing}"
    assert {"D2", "J4", "O2", "C3"} <= set(cited)  # the scan does find citations


# --- the API reference ------------------------------------------------------------------

#: The modules the API reference documents (docs/conf.py).
API_MODULES = (
    "errors", "cards", "rules", "melds", "scoring", "actions", "solver", "engine", "records",
    "bots", "simulation", "testing", "cli",
)  # fmt: skip
#: Public functions that cannot raise on any input (everything else documents ``Raises:``).
_CANNOT_RAISE = {"is_clean_run", "main"}


def test_public_functions_document_what_they_raise() -> None:
    lacking = []
    for name in API_MODULES:
        module = importlib.import_module(f"rummylib.{name}")
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if inspect.isfunction(obj) and attr not in _CANNOT_RAISE and "Raises:" not in (obj.__doc__ or ""):
                lacking.append(f"rummylib.{name}.{attr}")
    assert not lacking, f"public functions without a Raises: section: {lacking}"


_SPHINX = importlib.util.find_spec("sphinx") is not None


@pytest.fixture(scope="module")
def built_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs built once as HTML, with warnings as errors (the build must succeed)."""
    out = tmp_path_factory.mktemp("html")
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


@pytest.mark.slow
@pytest.mark.skipif(not _SPHINX, reason="sphinx is not installed (pip install '.[docs]')")
def test_api_reference_reads_right(built_html: Path) -> None:
    problems = []
    for page in sorted((built_html / "api").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r'<dt class="field-\w+">Type<.*?</dd>', text, re.DOTALL):
            value = _text(m[0]).removeprefix("Type:").strip()
            if re.search(r"[A-Za-z]+ [a-z]+", value):  # prose where a type belongs: "X: Y" misread
                problems.append(f"{page.name}: garbled attribute type {value[:60]!r}")
        for m in re.finditer(r"attr_dict\[[^]]*\]\.default", text):
            problems.append(f"{page.name}: default shown as {m[0]}")
        signatures = "".join(re.findall(r'<dt class="sig .*?</dt>', text, re.DOTALL))
        for m in re.finditer(r"&lt;\w+\.\w+: [^&]*&gt;", signatures):  # an enum's repr as a default
            problems.append(f"{page.name}: default shown as {html.unescape(m[0])}")
        if page.name in ("engine.html", "bots.html") and "DrawStock | TakeDiscard | Open" in _text(signatures):
            problems.append(f"{page.name}: the Action union spelled out in a signature (write Action)")
        for m in re.finditer(r"rummylib(?:\.\w+)*\._\w+\.\w+", text):
            problems.append(f"{page.name}: private path {m[0]}")
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.skipif(not _SPHINX, reason="sphinx is not installed (pip install '.[docs]')")
def test_rule_codes_are_links_to_their_rule(built_html: Path) -> None:
    rules = (built_html / "rules.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(r-[a-z]\d*)"', rules))
    assert anchors == {f"r-{code.lower()}" for code in RULE_CODES}
    links = set()
    for page in built_html.rglob("*.html"):
        links |= set(re.findall(r'href="[^"]*rules\.html#(r-[a-z]\d*)"', page.read_text(encoding="utf-8")))
    assert links <= anchors
    assert {"r-d2", "r-j4", "r-o2", "r-h1"} <= links  # the API pages and the tutorials link them


# --- the command line as the docs show it ---------------------------------------------------

#: Subcommands whose output is deterministic and quick, so the docs' transcripts can be rerun.
_RERUN = {"check", "solve", "rules"}


def _transcripts(path: Path) -> list[tuple[str, list[str]]]:
    """``$ rummylib ...`` lines of the console blocks in ``path`` with the output printed under them."""
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("$ "):
            current = None
            words = shlex.split(line[2:].split("  #")[0])
            if words[:1] == ["rummylib"] and len(words) > 1 and words[1] in _RERUN:
                current = []
                found.append((line[2:], current))
        elif current is not None:
            if not line or line.startswith(("```", "..")):
                current = None
            else:
                current.append(raw.rstrip().removeprefix("   ") if path.suffix == ".rst" else raw.rstrip())
    return found


@pytest.mark.parametrize("path", [DOCS / "howto" / "cli.rst", DOCS / "index.rst", ROOT / "README.md"], ids=str)
def test_cli_transcripts_match_the_real_output(path: Path) -> None:
    from rummylib.cli import main

    transcripts = _transcripts(path)
    assert transcripts
    for command, shown in transcripts:
        if not shown:
            continue  # a command given without its output
        out, err = io.StringIO(), io.StringIO()
        main(shlex.split(command.split("  #")[0])[1:], stdout=out, stderr=err)
        real = (out.getvalue() + err.getvalue()).rstrip("\n").splitlines()
        assert [s.rstrip() for s in shown] == [r.rstrip() for r in real], command
