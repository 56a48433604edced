"""The shape of the source a newcomer can change safely (issue 12): sizes, layers, no import cycles.

Read from the source with :mod:`ast`, never by importing it:

- no module over :data:`MAX_MODULE_LINES` lines;
- no function over :data:`MAX_FUNCTION_LINES` lines of its own (from its ``def``
  to its end, less its docstring: a public function documents every argument),
  but the few declarative tables of :data:`TABLES`;
- every module imports, at module level, only from its own layer of
  DESIGN.md's diagram or a layer below it (:data:`LAYERS`; a function may
  import upward lazily, as ``Card._repr_svg_`` imports :mod:`rummylib.svg`);
- no cycle among the modules' module-level imports.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "rummylib"

MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60

#: Functions longer than :data:`MAX_FUNCTION_LINES` because they are declarative tables, with their ceiling.
TABLES = {
    "rummylib.cli.build_parser": 80,  # the argparse table of every subcommand and option
}

#: DESIGN.md's layers, lowest first: a module's layer is its longest matching prefix here.
#: ``actions`` sits below the solver because ``plan_go_out`` answers with actions.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rummylib.errors", "rummylib._reasons", "rummylib._guards", "rummylib._trusted", "rummylib._version"),
    ("rummylib.cards", "rummylib._card"),
    ("rummylib.rules",),
    ("rummylib.melds",),
    ("rummylib.scoring",),
    ("rummylib.actions",),
    ("rummylib.solver",),
    ("rummylib.engine",),
    ("rummylib.records", "rummylib.events", "rummylib.svg"),
    ("rummylib.encoding",),
    (
        "rummylib.bots",
        "rummylib._greedy_bot",
        "rummylib._search_bot",
        "rummylib._search_belief",
        "rummylib.simulation",
        "rummylib._sim_results",
        "rummylib._tournament",
        "rummylib.testing",
    ),
    ("rummylib.rl",),
    ("rummylib.cli", "rummylib._cli_games", "rummylib._terminal", "rummylib.__main__"),
    ("rummylib",),  # the top-level re-exports
)


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


@cache
def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def _layer(module: str) -> int:
    best, found = -1, -1
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), rank
    assert found >= 0, f"{module} is in no layer of LAYERS: add it where DESIGN.md's diagram puts it"
    return found


def _imports(module: str) -> set[str]:
    """The rummylib modules ``module`` imports at module level (``if TYPE_CHECKING:`` blocks left out)."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _tree(module).body:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "rummylib")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            if base.split(".")[0] != "rummylib":
                continue
            for alias in node.names:  # ``from pkg import mod`` imports the module pkg.mod
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    found.discard(module)
    return found


def _own_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines from its ``def`` to its end, less its docstring."""
    assert node.end_lineno is not None
    length = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        assert first.end_lineno is not None
        length -= first.end_lineno - first.lineno + 1
    return length


def _function_lengths() -> list[tuple[str, int]]:
    out = []
    for module in MODULES:
        for node in ast.walk(_tree(module)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((f"{module}.{node.name}", _own_lines(node)))
    return out


def test_every_module_is_in_a_layer_and_the_scan_sees_the_package() -> None:
    assert len(MODULES) > 80
    for module in MODULES:
        _layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_over_450_lines(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{module} has {lines} lines: split it by concept"


def test_no_function_over_60_lines_but_declarative_tables() -> None:
    lengths = _function_lengths()
    long = {name: n for name, n in lengths if n > MAX_FUNCTION_LINES and name not in TABLES}
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines (less the docstring): {long}"
    seen = dict(lengths)
    for name, ceiling in TABLES.items():
        assert name in seen, f"{name} is gone: drop it from TABLES"
        assert seen[name] <= ceiling, f"the table {name} grew to {seen[name]} lines"


def test_the_scan_measures_what_it_says() -> None:
    # The measure itself: lines from ``def`` to the end, less the docstring.
    tree = ast.parse(
        'def f(x):\n    """Doc.\n\n    More.\n    """\n    y = x\n    return y\n\n\ndef g():\n    return 1\n'
    )
    f, g = tree.body
    assert isinstance(f, ast.FunctionDef) and isinstance(g, ast.FunctionDef)
    assert (_own_lines(f), _own_lines(g)) == (3, 2)  # f: 7 lines, 4 of them the docstring
    assert _layer("rummylib.solver._small") == _layer("rummylib.solver") < _layer("rummylib.engine._legal")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_downward(module: str) -> None:
    # DESIGN.md: each layer uses only the layers below it (and its own).
    mine = _layer(module)
    upward = sorted(m for m in _imports(module) if _layer(m) > mine)
    assert not upward, f"{module} (layer {LAYERS[mine][0]}) imports from above: {upward}"


def test_no_import_cycles() -> None:
    graph = {m: sorted(d for d in _imports(m) if d in MODULES) for m in MODULES}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for d in graph[m]:
            if state.get(d) == 1:
                cycle = path[path.index(d) :] + [d]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        path.pop()
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m)
