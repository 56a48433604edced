"""SearchBot's belief: samples brought to agree with the top discard keep the view (R-H1) and agree more often."""

from __future__ import annotations

import attrs
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib._search_belief import _disagreeing, agree, thrower
from rummylib.bots import _SplitMix64
from rummylib.cards import CardMultiset, parse_cards
from rummylib.solver import best_partition


def _views(name: str, seeds: range) -> list[tuple[rl.GameState, rl.PlayerView, int]]:
    """Reachable two-player states, the acting seat's view, and the seat that threw the top discard."""
    out = []
    for seed in seeds:
        for state in walk(WALK_RULES[name], 2, seed, 120):
            if state.phase in (rl.Phase.DRAW, rl.Phase.PLAY):
                v = rl.view(state, state.to_act)
                seat = thrower(v)
                if seat is not None:
                    out.append((state, v, seat))
    return out


def test_repaired_samples_keep_the_view_and_agree_more_often() -> None:
    # R-H1: only the thrower's hidden cards and the stock's hidden cards are exchanged.
    for name in ("remik", "straight"):
        before = after = total = 0
        for i, (_state, v, seat) in enumerate(_views(name, range(2))[::8]):
            top = v.discard[-1]
            for k, sample in enumerate(rl.sample_states(v, 2, seed=i)):
                fixed = agree(sample, seat, top, 8, _SplitMix64(k).below, best_partition)
                assert rl.view(fixed, v.seat) == v
                assert v.known_cards[seat] <= fixed.round.hands[seat]
                again = agree(sample, seat, top, 8, _SplitMix64(k).below, best_partition)
                assert again == fixed  # the same stream, the same repair
                before += not _disagreeing(sample.round.hands[seat], top, v.rules, best_partition)
                after += not _disagreeing(fixed.round.hands[seat], top, v.rules, best_partition)
                total += 1
        assert total > 10 and after > before, (name, before, after, total)


def test_a_repair_swaps_out_deadwood_costlier_than_the_discard() -> None:
    # Seat 1 threw 3C; a sample that deals it KD as deadwood disagrees, and the repair swaps KD out.
    hands = [parse_cards("2S 5S 8S JH QD 4C 7C 9D 10H AS"), parse_cards("KD 6H 6D 6S 9C 10C JC 2D 4H QS")]
    state = rl.start_round_from(rl.STRAIGHT, hands, discard=parse_cards("3C"), to_act=0, phase=rl.Phase.DRAW)
    top = rl.parse_card("3C")
    assert rl.parse_card("KD") in _disagreeing(state.round.hands[1], top, rl.STRAIGHT, best_partition)
    fixed = agree(state, 1, top, 20, _SplitMix64(1).below, best_partition)
    assert rl.view(fixed, 0) == rl.view(state, 0)
    assert rl.parse_card("KD") not in fixed.round.hands[1] and rl.parse_card("KD") in fixed.round.stock


def test_the_thrower_is_read_only_when_the_top_is_the_last_turns_discard() -> None:
    hands = [parse_cards("5H 6H 2C 9D"), parse_cards("KS KD 3C 4D")]
    dealt = rl.start_round_from(rl.STRAIGHT, hands, discard=parse_cards("7H"), to_act=0, phase=rl.Phase.DRAW)
    assert thrower(rl.view(dealt, 0)) is None  # R-D5: one card and no refill may be the card turned up
    two = rl.start_round_from(rl.STRAIGHT, hands, discard=parse_cards("8C 7H"), to_act=0, phase=rl.Phase.DRAW)
    assert thrower(rl.view(two, 0)) == 1
    assert thrower(rl.view(rl.apply(two, rl.TakeDiscard()), 0)) is None  # the top is now an older card
    assert thrower(rl.view(rl.apply(two, rl.DrawStock()), 0)) == 1
    remik = rl.start_round_from(rl.REMIK, [*hands, parse_cards("QH QD")], discard=parse_cards("7H"), to_act=0)
    assert thrower(attrs.evolve(rl.view(remik, 0), phase=rl.Phase.DRAW)) == 2  # R-D3: no upcard in remik
    assert thrower(attrs.evolve(rl.view(remik, 0), restocks=1, restocked=CardMultiset())) is None


def test_no_belief_steps_keep_the_uniform_samples() -> None:
    _state, v, seat = _views("remik", range(1))[0]
    sample = rl.sample_states(v, 1, seed=3)[0]
    assert agree(sample, seat, v.discard[-1], 0, _SplitMix64(1).below, best_partition) is sample
