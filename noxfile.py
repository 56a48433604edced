"""Nox sessions: tests on each supported Python present, typecheck, docs, build; ``nox -s compiled`` on request."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nox

nox.options.sessions = ["lint", "tests", "typecheck", "docs", "build"]
nox.options.reuse_existing_virtualenvs = True

SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]


def _pyenv_activate_all() -> None:
    """Let pyenv's shims answer for every installed supported version, not only the global one."""
    if not shutil.which("pyenv") or os.environ.get("PYENV_VERSION"):
        return
    result = subprocess.run(["pyenv", "versions", "--bare"], capture_output=True, text=True, check=False)
    wanted = [v for v in result.stdout.split() if any(v.startswith(f"{s}.") for s in SUPPORTED)]
    if wanted:
        os.environ["PYENV_VERSION"] = ":".join(wanted)


def _runs(version: str) -> bool:
    exe = shutil.which(f"python{version}")
    return exe is not None and subprocess.run([exe, "-c", ""], capture_output=True, check=False).returncode == 0


_pyenv_activate_all()
PRESENT = [v for v in SUPPORTED if _runs(v)] or ["3.11"]


@nox.session(python=PRESENT)
def tests(session: nox.Session) -> None:
    """Run the test suite (doctests included)."""
    session.install("-e", ".[test,rl]")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff: lint findings and formatting (fails on either)."""
    session.install("-e", ".[lint]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src, tests and this file."""
    session.install("-e", ".[typecheck]")
    session.run("mypy", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the Sphinx docs with warnings as errors."""
    session.install("-e", ".[docs,rl,openspiel]")  # the API pages of rummylib.rl import the frameworks
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist and wheel, check them with twine, and import the wheel in a fresh venv."""
    session.install("build", "twine")
    shutil.rmtree("dist", ignore_errors=True)
    session.run("python", "-m", "build")
    dist = sorted(str(p) for p in Path("dist").glob("*"))
    session.run("twine", "check", "--strict", *dist)
    wheel = next(p for p in dist if p.endswith(".whl"))
    # The wheel alone, with only its runtime dependencies, in a clean environment.
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        session.run("python", "-m", "venv", str(venv))
        bindir = venv / ("Scripts" if sys.platform == "win32" else "bin")
        python = str(bindir / "python")
        session.run(python, "-m", "pip", "install", "--quiet", wheel, external=True)
        session.run(python, "-c", _WHEEL_CHECK, external=True)
        session.run(str(bindir / "rummylib"), "check", "9S 10S JS", external=True)


@nox.session(python=PRESENT)
def compiled(session: nox.Session) -> None:
    """The optional mypyc build (docs/howto/compiled-build.rst): build its wheel, then run the tests on it."""
    session.install("build")
    with tempfile.TemporaryDirectory() as out:
        session.run(
            "python", "-m", "build", "--outdir", out, ".", env={"HATCH_BUILD_HOOK_ENABLE_MYPYC": "true"}
        )  # not --wheel: the wheel is built from the sdist in a temporary directory, so nothing compiled lands in src/
        wheel = next(str(p) for p in Path(out).glob("*.whl"))
        session.install(f"{wheel}[test,rl]")  # the tests import the wheel, not src/: nothing is installed editable
        session.install("--force-reinstall", "--no-deps", wheel)  # a reused venv may hold an older build
        session.run("pytest", "tests", *session.posargs, env={"RUMMYLIB_EXPECT_COMPILED": "1"})


_WHEEL_CHECK = """
import importlib.metadata as md
import rummylib
installed = {d.metadata["Name"].lower().replace("_", "-") for d in md.distributions()}
extra = installed - {"rummylib", "attrs", "typing-extensions", "pip", "setuptools"}
assert not extra, f"unexpected runtime dependencies: {sorted(extra)}"
try:
    import rummylib.testing
except ImportError as error:
    assert "rummylib[test]" in str(error), error
else:
    raise AssertionError("rummylib.testing imported without hypothesis")
print("wheel OK:", rummylib.__version__, "with", sorted(installed - {"pip", "setuptools"}))
"""
