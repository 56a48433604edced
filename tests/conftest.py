"""Shared test setup.

Tests run with ``--import-mode=importlib``, so put this directory on
``sys.path`` to let test modules import their helper modules (``_oracle_melds``).

Hypothesis explores new random examples on every local run, a third as
many as CI's. CI (``.ci/run`` sets ``HYPOTHESIS_PROFILE=ci``) runs the full,
fixed, derandomized set, so that a submission's result does not depend on
luck; a bug found locally becomes a hand-written regression test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
# CI's second run, on the compiled wheel: the same fixed, derandomized examples, half of them
# (the first run has checked them all on the pure build, and the digest compares the builds).
settings.register_profile("ci-half", derandomize=True, print_blob=True, max_examples=50)
# A local run tries a third of Hypothesis's 100 examples where a test names no number (and
# ``_budget.examples`` cuts those that do the same way), so that the README's ``pytest`` stays
# quick; repeated local runs draw fresh examples, and CI runs the full, fixed set.
settings.register_profile("local", max_examples=34)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "local"))

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
