"""Seeded deals for the solver tests: ``size`` cards off a shuffled deck, as ``benchmarks/solver.py``'s ``deal``."""

from __future__ import annotations

import random

from rummylib import CardMultiset, Ruleset, deck


def dealt(rules: Ruleset, size: int, seed: int) -> CardMultiset:
    """``size`` cards off the top of ``rules``' deck shuffled with ``random.Random(seed)`` (the inputs of ``worst.py``)."""
    cards = list(deck(rules))
    random.Random(seed).shuffle(cards)
    return CardMultiset(cards[:size])
