"""How many Hypothesis examples the property tests that name a count of 40 or more run.

CI (``HYPOTHESIS_PROFILE=ci``, set by ``.ci/run``) runs each test's full
number; CI's run on the compiled wheel (``ci-half``) runs half of it; the
README's local ``pytest`` runs a third, so that a newcomer's first run stays
quick (``conftest.py`` cuts Hypothesis's default of 100 the same way for
tests that name no number). Each run is the same test over a fixed (CI) or
fresh (local) sample.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "local")
CI = PROFILE == "ci"
_SHARE = {"ci": 1, "ci-half": 2}.get(PROFILE, 3)


def examples(full: int) -> int:
    """``full`` under CI, half of it on CI's compiled run, else a third (at least 10)."""
    return max(10, full // _SHARE) if _SHARE > 1 else full
