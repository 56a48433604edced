"""Many swappable jokers (issue 10): the checks count their work, polynomially in the jokers.

No timings here (benchmarks/hostile.py measures them); these tests count
search states and candidate-meld computations, which grew exponentially
(or once per swap) before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import attrs
import pytest

import rummylib as rl
from rummylib.cards import CardMultiset
from rummylib.engine import _cache
from rummylib.solver import _goout

RULES = attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, hand_sizes=dict.fromkeys(range(2, 7), 16))


def _table(k: int) -> tuple[list[rl.Meld], list[rl.Card]]:
    """``k`` runs on the table, each with a joker standing for a card the hand holds (R-J4)."""
    melds: list[rl.Meld] = []
    hand: list[rl.Card] = []
    for suit, start in [(s, v) for v in (3, 5, 7, 9) for s in "SHDC"][:k]:
        low, mid, high = (f"{'J' if v == 11 else v}{suit}" for v in (start, start + 1, start + 2))
        melds.append(rl.parse_meld(f"{low} JK={mid} {high}", RULES))
        hand.append(rl.parse_cards(mid)[0])
    return melds, hand


@pytest.mark.parametrize("k", [9, 16])
def test_unopened_go_out_search_states_stay_few(k: int) -> None:
    # R-J4, O2, O4: before opening, a clean run the opening needs that can no longer
    # be laid ends the branch, and lay-off marks of melds no card can still reach are
    # forgotten, and an opening short of its points tries the melds worth most first:
    # 16 jokers took 8 296 states (about 1 s), now 17.
    melds, hand = _table(k)
    cards = CardMultiset([*hand, *rl.parse_cards("KS 7D")])
    search, _, value = _goout._search_for(cards, melds, RULES, True, None)
    assert len(search.memo) < 300
    assert (value >= RULES.opening_points) == (k == 16)
    awkward = CardMultiset([*hand, *rl.parse_cards("9D KD 5C 5S 2S 8S")])
    search, _, value = _goout._search_for(awkward, melds, RULES, True, None)
    assert len(search.memo) < 5_000  # was 18 958 with 16 jokers, now 33 (2 566 with 9: no opening)
    assert (value >= RULES.opening_points) == (k == 16)  # 9 jokers: the best opening is worth 33


def _python_calls(run: Callable[[], object]) -> int:
    """How many Python function calls ``run`` makes (a machine-independent measure of work)."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls


def test_listing_with_16_swaps_shares_the_candidate_melds() -> None:
    # R-J4, D2: each of the 16 swaps is checked for a way to finish the turn; every
    # check rebuilt the pool's candidate melds (543 634 calls, about 107 ms), they
    # now share them: about 58 000 calls.
    melds, hand = _table(16)
    s = rl.start_round_from(
        RULES, [[*hand, *rl.parse_cards("7D")], rl.parse_cards("2C 9D 4H")], discard=rl.parse_cards("AC"),
        table=[*(rl.TableMeld(m, 1) for m in melds), rl.TableMeld(rl.parse_meld("KS KH KD KC", RULES), 0)],
        opened=[True, True], to_act=0, phase=rl.Phase.PLAY,
    )  # fmt: skip
    _cache.clear()
    listed: list[rl.Action] = []
    assert _python_calls(lambda: listed.extend(rl.legal_actions(s))) < 150_000
    assert sum(isinstance(a, rl.SwapJoker) for a in listed) == 16
