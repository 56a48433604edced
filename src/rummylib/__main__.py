"""``python -m rummylib``: the same as the ``rummylib`` command."""

from __future__ import annotations

import sys

from rummylib.cli import main

if __name__ == "__main__":
    sys.exit(main())
