"""How many Hypothesis examples the costliest property tests run.

CI (``HYPOTHESIS_PROFILE=ci``, set by ``.ci/run``) runs each test's full
number; the README's local ``pytest`` runs half, so that a newcomer's first
run stays quick (``conftest.py`` halves Hypothesis's default of 100 the same
way for tests that name no number). Either run is the same test over a fixed
or fresh sample. CI's run on the compiled wheel (``ci-half``) also runs half,
over a fixed sample.
"""

from __future__ import annotations

import os

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"


def examples(full: int) -> int:
    """``full`` under CI, else half of it (at least 10)."""
    return full if CI else max(10, full // 2)
