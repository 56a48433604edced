"""One hash of everything the engine answers on the states of seeded games: run it before and after a change.

Usage: ``PYTHONPATH=src python benchmarks/digest.py [STATES]`` (default 50,000;
about two minutes on an idle machine). For every state of seeded games
(``tests/_walks.py``: both presets and two house variants, 2 to 4 players,
random and half-greedy play) it hashes the legal listing (in order and by
kind), the codec's legal ids, the fast observation vector of every seat, the
view of the seat to act, the state itself and the state after each of its
first 40 legal actions. Equal output before and after a performance change
means the change left all of those identical on these states.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import numpy as np

import rummylib as rl
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.rl._observe import StateObserver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from _walks import WALK_RULES, walk


def digest(target: int) -> tuple[int, str]:
    """The number of states hashed and the hex digest."""
    total = hashlib.sha256()
    count = 0
    seed = 0
    while count < target:
        for rules in WALK_RULES.values():
            for players in (2, 3, 4):
                h = hashlib.sha256()
                codec = ActionCodec(rules, players)
                observer = StateObserver(ObservationEncoder(rules, players), np)
                for state in walk(rules, players, seed, 400, greedy_share=1 if seed % 2 else 0):
                    legal = rl.legal_actions(state)
                    items = tuple(legal)
                    h.update(repr(items).encode())
                    h.update(repr(sorted(legal.by_kind().items())).encode())
                    h.update(repr(codec.legal_ids(state)).encode())
                    for seat in range(players):
                        h.update(observer(state, seat).tobytes())
                    h.update(repr(rl.view(state, state.to_act)).encode())
                    h.update(repr(state).encode())
                    for action in items[:40]:
                        h.update(repr(rl.apply(state, action)).encode())
                    count += 1
                total.update(h.digest())
        seed += 1
    return count, total.hexdigest()


if __name__ == "__main__":
    start = time.perf_counter()
    states, hexdigest = digest(int(sys.argv[1]) if len(sys.argv) > 1 else 50_000)
    print(f"{states} states, {time.perf_counter() - start:.0f} s: {hexdigest}")
