"""Nox sessions: tests on each supported Python present, typecheck, docs, build."""

from __future__ import annotations

import shutil

import nox

nox.options.sessions = ["tests", "typecheck", "docs", "build"]
nox.options.reuse_existing_virtualenvs = True

SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]
PRESENT = [v for v in SUPPORTED if shutil.which(f"python{v}")] or ["3.11"]


@nox.session(python=PRESENT)
def tests(session: nox.Session) -> None:
    """Run the test suite (doctests included)."""
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src, tests and this file."""
    session.install("-e", ".[typecheck]")
    session.run("mypy", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the Sphinx docs with warnings as errors."""
    session.install("-e", ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist and wheel and check them with twine."""
    session.install("build", "twine")
    shutil.rmtree("dist", ignore_errors=True)
    session.run("python", "-m", "build")
    session.run("twine", "check", "--strict", *[str(p) for p in __import__("pathlib").Path("dist").glob("*")])
