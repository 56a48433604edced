"""Determinisation (R-H1): sample_state deals what a seat has not seen, consistently and uniformly."""

from __future__ import annotations

import collections
import contextlib
from typing import Any

import attrs
import pytest
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.cards import CardMultiset
from rummylib.records import from_dict, to_dict


def _consistent(name: str, seeds: range, steps: int, every: int) -> int:
    checked = 0
    for seed in seeds:
        players = 2 + seed % 3
        for i, state in enumerate(walk(WALK_RULES[name], players, seed, steps)):
            if state.phase not in (rl.Phase.DRAW, rl.Phase.PLAY) or i % every:
                continue
            for seat in {state.to_act, (state.to_act + 1 + i) % players}:
                v = rl.view(state, seat)
                sample = rl.sample_state(v, seed=i)
                assert rl.view(sample, seat) == v  # R-H1: everything the seat sees is kept
                assert from_dict(to_dict(sample)) == sample  # a full, valid state (R-C3, D4, D6)
                checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(WALK_RULES))
def test_samples_are_consistent_with_reachable_views(name: str) -> None:
    assert _consistent(name, range(2), 150, 2) > 150


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WALK_RULES))
def test_samples_are_consistent_with_many_reachable_views(name: str) -> None:
    assert _consistent(name, range(3, 30), 600, 1) > 5000


def test_samples_draw_the_stock_from_its_refill() -> None:
    # R-D4: after a reshuffle every stock card comes from the refill, whatever else is hidden.
    cards = tuple(rl.deck(rl.REMIK))[::-1]
    s = rl.start_round_from(
        rl.REMIK, [cards[:13], cards[13:26]], discard=cards[26:], to_act=0, phase=rl.Phase.DRAW, fill_stock=False
    )
    t = rl.apply(s, rl.DrawStock())
    t = rl.apply(t, rl.Discard(max(t.round.hands[0], key=lambda c: c.index)))
    t = rl.apply(t, rl.DrawStock())
    v = rl.view(t, 0)
    assert v.restocks == 1 and len(v.restocked) == len(cards) - 27
    for sample in rl.sample_states(v, 20, seed="refill"):
        assert CardMultiset(sample.round.stock) <= v.restocked
        assert rl.view(sample, 0) == v


def test_sampling_is_deterministic_and_varies_with_the_seed() -> None:
    v = rl.view(rl.new_game(rl.REMIK, 3, seed=4), 2)
    assert rl.sample_states(v, 5, seed=1) == rl.sample_states(v, 5, seed=1)
    assert rl.sample_states(v, 5, seed=1)[0] == rl.sample_state(v, seed=1)
    assert rl.sample_state(v, seed=1) != rl.sample_state(v, seed=2)
    assert rl.sample_state(v, seed=1) != rl.sample_state(v, seed="1")
    assert len({s.round.hands[0] for s in rl.sample_states(v, 5, seed=1)}) == 5


def test_where_an_unseen_card_lands_is_uniform() -> None:
    # Chi-square over the places one unseen card can go (straight has one copy of each card).
    state = rl.new_game(rl.STRAIGHT, 3, seed=11)  # seat 0 sees 7 cards and the upcard; 44 are hidden
    v = rl.view(state, 0)
    card = next(c for c in rl.deck(rl.STRAIGHT) if c not in v.hand and c not in v.discard)
    places = {"hand 1": 0, "hand 2": 0, "stock 0-9": 0, "stock 10-19": 0, "stock 20-29": 0}
    trials = 2200
    for sample in rl.sample_states(v, trials, seed=2026):
        r = sample.round
        if card in r.hands[1]:
            places["hand 1"] += 1
        elif card in r.hands[2]:
            places["hand 2"] += 1
        else:
            places[("stock 0-9", "stock 10-19", "stock 20-29")[r.stock.index(card) // 10]] += 1
    hidden = 7 + 7 + len(state.round.stock)
    assert hidden == 44
    expected = [trials * 7 / hidden, trials * 7 / hidden] + [trials * 10 / hidden] * 3
    chi2 = sum((o - e) ** 2 / e for o, e in zip(places.values(), expected))
    assert chi2 < 18.47, places  # the 0.999 quantile of chi-square with 4 degrees of freedom


def test_bad_arguments_are_refused() -> None:
    state = rl.new_game(rl.REMIK, 2, seed=1)
    v = rl.view(state, 0)
    with pytest.raises(rl.InvalidStateError) as info:
        rl.sample_state(state, seed=1)  # type: ignore[arg-type]
    assert info.value.reason is rl.StateReason.WRONG_TYPE
    for n in (-1, rl.engine.MAX_SAMPLES + 1, True, 2.0):
        with pytest.raises(rl.ArgumentError) as bad_n:  # an argument, not a ruleset field (issue 12)
            rl.sample_states(v, n, seed=1)  # type: ignore[arg-type]
        assert bad_n.value.argument == "n"
        assert bad_n.value.reason is (
            rl.ArgumentReason.BAD_VALUE
            if isinstance(n, int) and not isinstance(n, bool)
            else rl.ArgumentReason.WRONG_TYPE
        )
    with pytest.raises(rl.RulesetError):
        rl.sample_state(v, seed=1.5)  # type: ignore[arg-type]
    forged = attrs.evolve(v, known_cards=(CardMultiset(), CardMultiset(list(v.hand) * 2)))
    with pytest.raises(rl.InvalidStateError):
        rl.sample_state(forged, seed=1)
    with pytest.raises(rl.InvalidStateError):
        rl.sample_state(attrs.evolve(v, stock_size=v.stock_size + 1), seed=1)


def test_a_finished_round_is_not_sampled() -> None:
    rules = attrs.evolve(rl.STRAIGHT, restock_limit=0)
    state = next(s for s in walk(rules, 2, 3, 500) if s.phase is rl.Phase.ROUND_OVER)
    with pytest.raises(rl.InvalidStateError) as info:
        rl.sample_state(rl.view(state, 0), seed=1)
    assert "over" in str(info.value)


def _forged_views() -> list[tuple[str, rl.PlayerView]]:
    """Hand-made views: one field of a reachable view changed, as a hostile caller would."""
    out: list[tuple[str, rl.PlayerView]] = []
    for name in ("remik", "straight"):
        for i, state in enumerate(walk(WALK_RULES[name], 3, 7, 160)):
            if state.phase not in (rl.Phase.DRAW, rl.Phase.PLAY) or i % 5:
                continue
            v = rl.view(state, (state.to_act + 1) % 3)
            changes: dict[str, Any] = {
                "to_act": (v.to_act + 1) % 3,
                "round_number": v.round_number + 1,
                "totals": (v.totals[0] + 1, *v.totals[1:]),
                "opening_points": v.opening_points + 7,
                "opening_clean": not v.opening_clean,
                "has_laid": (not v.has_laid[0], *v.has_laid[1:]),
                "restocked": v.restocked + CardMultiset(rl.parse_cards("AS")),
                "opened": (not v.opened[0], *v.opened[1:]),
                "phase": rl.Phase.PLAY if v.phase is rl.Phase.DRAW else rl.Phase.DRAW,
                "dealer": (v.dealer + 1) % 3,
                "known_cards": tuple(
                    k + CardMultiset(rl.parse_cards("JK")) if seat == v.seat else k
                    for seat, k in enumerate(v.known_cards)
                ),
                "known_stock": (*v.known_stock, rl.parse_card("2C")),
            }
            for field, value in changes.items():
                with contextlib.suppress(rl.RummyError):  # the constructor may already refuse it
                    out.append((f"{name}:{i}:{field}", attrs.evolve(v, **{field: value})))
    return out


def test_a_forged_view_is_refused_or_sampled_into_a_reachable_state() -> None:
    # R-H1, C3, D4, O1, E2: sample_state promises view(sample, seat) == view and a state
    # legal play can reach (the loader's invariants); a hand-made view that no such state
    # shows is refused with InvalidStateError, never sampled into a state the loader refuses.
    refused = 0
    for label, forged in _forged_views():
        try:
            samples = rl.sample_states(forged, 2, seed=3)
        except rl.InvalidStateError:
            refused += 1
            continue
        for sample in samples:
            assert rl.view(sample, forged.seat) == forged, label
            assert from_dict(to_dict(sample)) == sample, label
    assert refused > 50


def test_a_seat_that_laid_off_before_opening_saves_loads_and_samples() -> None:
    # House variant of R-O1 (lay_off_before_opening): a seat may lay off before it opens, so
    # has_laid (R-E2, E4) can be true for a seat that has not opened, and its opening in
    # progress (R-O4) is then the only meld it owns; the loader and sample_state must accept
    # those reachable states and views.
    rules = attrs.evolve(rl.REMIK, name="lay-off-first", lay_off_before_opening=True, melds_per_turn=2, restock_limit=1)
    seen: collections.Counter[str] = collections.Counter()
    for players, seed in ((2, 0), (3, 4)):
        for i, state in enumerate(walk(rules, players, seed, 210)):
            assert from_dict(to_dict(state)) == state
            r = state.round
            if any(laid and not opened for laid, opened in zip(r.has_laid, r.opened)):
                seen["laid before opening"] += 1
            if r.turn.melds_laid and r.has_laid[r.to_act] and not r.opened[r.to_act]:
                seen["opening after lay-offs"] += 1
            if state.phase in (rl.Phase.DRAW, rl.Phase.PLAY):
                for seat in range(players):
                    v = rl.view(state, seat)
                    assert rl.view(rl.sample_state(v, seed=i), seat) == v
    assert seen["laid before opening"] and seen["opening after lay-offs"]
