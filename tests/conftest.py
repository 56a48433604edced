"""Shared test setup.

Tests run with ``--import-mode=importlib``, so put this directory on
``sys.path`` to let test modules import their helper modules (``_oracle_melds``).
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
