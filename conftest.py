"""Collection set-up for the doctests under src/ (tests/conftest.py sets up the tests).

The adapters in ``rummylib.rl`` need their extras; without them their modules
are not collected for doctests (their tests skip with the extra's name).
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if not all(importlib.util.find_spec(m) for m in ("numpy", "gymnasium", "pettingzoo")):
    collect_ignore_glob.append("src/rummylib/rl/*")
elif importlib.util.find_spec("pyspiel") is None:
    collect_ignore_glob.append("src/rummylib/rl/openspiel*")
