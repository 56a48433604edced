"""The bound-card screen in front of the exact go-out search (engine._cover) never refutes a hand that can go out.

``cannot_cover`` is a necessary condition only: ``True`` must mean that no
plan lays the hand out but for one discard (R-D2, J4, T2). Checked three ways:
hands built to go out (melds, lay-offs onto the table, one discard) are never
refuted; on every R-D2 question of seeded games that the screen refutes, the
exact search agrees; and the engine's answer with the screen is the answer
without it.
"""

from __future__ import annotations

import random

import attrs
import pytest
from _budget import examples
from _walks import WALK_RULES, walk
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine._cover import cannot_cover
from rummylib.engine._oblige import _can_open_and_go_out
from rummylib.melds import Run
from rummylib.solver._queries import can_go_out

JOKERS = attrs.evolve(rl.REMIK, name="jokers", jokers=6, adjacent_jokers=True, group3_max_jokers=2, restock_limit=1)
RULES = {**WALK_RULES, "jokers": JOKERS}


def _built_to_go_out(rules: rl.Ruleset, seed: int) -> tuple[rl.CardMultiset, tuple[rl.Meld, ...]]:
    """A hand of disjoint melds, cards that extend table runs, and one spare card; and that table."""
    rng = random.Random(seed)
    deck = list(rl.deck(rules))
    rng.shuffle(deck)
    table = tuple(dict.fromkeys(rl.find_melds(rl.CardMultiset(deck[:20]), rules)))[: rng.randrange(0, 4)]
    rest = rl.CardMultiset(deck[20:])
    hand: list[rl.Card] = []
    pool = rl.CardMultiset(deck[20:44])
    for meld in sorted(dict.fromkeys(rl.find_melds(pool, rules)), key=lambda _: rng.random()):
        if len(hand) >= 12:
            break
        cards = rl.CardMultiset(meld.cards)
        if cards <= rest:
            hand.extend(meld.cards)
            rest = rest - cards
    for meld in table:  # a lay-off at a run's end, where the card is still in the stock
        if isinstance(meld, Run) and rng.random() < 0.5:
            for end in (rl.End.LOW, rl.End.HIGH):
                for card in rest.distinct():
                    try:
                        rl.lay_off(meld, card, rules, end=end)
                    except ValueError:
                        continue
                    hand.append(card)
                    rest = rest - rl.CardMultiset([card])
                    break
                break
    hand.append(next(iter(rest.distinct())))  # the discard
    return rl.CardMultiset(hand), table


@settings(max_examples=examples(150), deadline=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32))
def test_hands_built_to_go_out_are_never_refuted(name: str, seed: int) -> None:
    # R-T2: melds, lay-offs and one discard empty the hand, so the screen must let it through.
    rules = RULES[name]
    hand, table = _built_to_go_out(rules, seed)
    assert not cannot_cover(hand, table, rules)


def test_refuted_questions_of_seeded_games_have_no_plan() -> None:
    # R-D2: every take of the discard an unopened player is asked about, with the card; the hands the
    # screen refutes have no go-out plan by the exact search (opened and unopened alike).
    refuted = 0
    for name, rules in RULES.items():
        for seed in (1, 2):
            for state in walk(rules, 3, seed, 200):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard:
                    continue
                hand = r.hands[r.to_act] + rl.CardMultiset([r.discard[-1]])
                table = tuple(tm.meld for tm in r.table)
                if not cannot_cover(hand, table, rules):
                    continue
                refuted += 1
                for opened in (False, True):
                    assert not can_go_out(hand, table, rules, opened=opened, open_with=None), (name, seed)
    assert refuted > 100


def test_the_r_d2_answer_is_the_exact_searchs() -> None:
    # R-D2 with the screen in front equals the exact search alone, on hands that pass the cheap screens.
    asked = 0
    for rules in (RULES["remik"], RULES["remik-house"], JOKERS):
        for seed in range(3):
            for state in walk(rules, 4, seed, 300):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard or r.opened[r.to_act]:
                    continue
                card = r.discard[-1]
                hand = r.hands[r.to_act] + rl.CardMultiset([card])
                table = tuple(tm.meld for tm in r.table)
                answer = _can_open_and_go_out(hand, card, table, rules)
                if cannot_cover(hand, table, rules):
                    assert not answer
                    assert not can_go_out(hand, table, rules, opened=False, open_with=card)
                    asked += 1
    assert asked > 20


def test_a_taken_card_no_meld_could_hold_is_refused_as_the_full_questions_refuse_it() -> None:
    # R-D2: before opening the Open must hold the taken card in a meld of the hand's own cards and jokers;
    # after opening a new meld must hold it (with the jokers swaps could bring, R-J4). Where the count
    # screen (may_meld) says no meld could hold it, the exact search and the full turn question say no too.
    from rummylib.engine._cover import may_meld
    from rummylib.engine._oblige import _cannot_meld, can_finish_turn, take_discard_round

    unopened = opened = 0
    for rules in (RULES["remik"], RULES["remik-house"], JOKERS):
        for seed in range(3):
            for state in walk(rules, 4, seed, 300):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard or r.discard[-1].is_joker:
                    continue
                card = r.discard[-1]
                hand = r.hands[r.to_act] + rl.CardMultiset([card])
                table = tuple(tm.meld for tm in r.table)
                if not r.opened[r.to_act]:
                    if not may_meld(card.index, hand.counts[:52], hand.jokers, rules):
                        assert not can_go_out(hand, table, rules, opened=False, open_with=card)
                        unopened += 1
                elif _cannot_meld(card.index, r.hands[r.to_act].counts, rules, r):  # the hand before the take
                    assert not can_finish_turn(rules, take_discard_round(rules, r))
                    opened += 1
    assert unopened > 50 and opened > 50


@settings(max_examples=examples(400), deadline=None)
@given(
    name=st.sampled_from(sorted(RULES)),
    seed=st.integers(0, 2**32),
    size=st.integers(3, 30),
)
def test_the_screens_meld_options_are_the_solvers_candidates(name: str, seed: int, size: int) -> None:
    # R-M1..M5, J1..J3: the cover search's options (the cards of each meld holding a card, built on bit
    # masks) are exactly the distinct cards of the solver's candidate melds holding it, each set of natural
    # cards once, with its fewest jokers (more jokers never cover more: jokers are no bound card), of five
    # cards at most (a longer run is two shorter ones: see test_long_runs_split_into_the_screens_options). Asked
    # of a fresh pool, then again: the runs are kept per rank whatever the suit (shifted to the card's),
    # the groups per card and suits held, and the entries per card, so later pools read them (R-D2's screen).
    from rummylib.engine._cover import _option_entry
    from rummylib.solver._queries import candidates_with

    rules = RULES[name]
    pool = _random_pool(rules, seed, size)
    for index in (i for i in range(52) if pool[i]):
        expected = _packed(_short(_fewest({c.pairs for c in candidates_with(pool, rules, index)})))
        assert sorted(_option_entry(pool, rules, index)[1]) == expected, (name, index)
        assert sorted(_option_entry(pool, rules, index)[1]) == expected, (name, index)  # kept


#: Each ruleset with no joker, one, two and all of its jokers; five or more are the slow suite's.
_WHOLE_SUITS = [
    pytest.param(name, jokers, marks=[pytest.mark.slow] if jokers > 4 else [])
    for name, rules in RULES.items()
    for jokers in sorted({0, min(1, rules.jokers), min(2, rules.jokers), rules.jokers})
]


@pytest.mark.parametrize(("name", "jokers"), _WHOLE_SUITS)
def test_the_screens_meld_options_on_whole_suits(name: str, jokers: int) -> None:
    # R-M3, M4: the longest runs (13 positions, the ace low or high) and every joker placement on them;
    # three suits hold the same positions, so their runs are the first's kept options, shifted.
    from rummylib.engine._cover import _option_entry
    from rummylib.solver._queries import candidates_with

    rules = RULES[name]
    pool = (*(1 if i < 13 or i % 13 in (0, 5, 12) else 0 for i in range(52)), jokers)
    for index in (i for i in range(52) if pool[i]):
        expected = _packed(_short(_fewest({c.pairs for c in candidates_with(pool, rules, index)})))
        assert sorted(_option_entry(pool, rules, index)[1]) == expected, (rules.name, jokers, index)


def _random_pool(rules: rl.Ruleset, seed: int, size: int) -> tuple[int, ...]:
    # ``size`` cards drawn from the rules' deck by ``seed``, as counts; jokers at most the rules'.
    cards = random.Random(seed).sample(list(rl.deck(rules)), size)
    counts = list(rl.CardMultiset(cards).counts)
    counts[52] = min(counts[52], rules.jokers)
    return tuple(counts)


def _packed(found: list[tuple[tuple[int, int], ...]]) -> list[int]:
    # Each option's cards as the search reads them: byte i holds the copies of card index i.
    return sorted(sum(k << (8 * i) for i, k in pairs) for pairs in found)


def _short(found: list[tuple[tuple[int, int], ...]]) -> list[tuple[tuple[int, int], ...]]:
    # The options the screen lists: five cards at most (groups hold four; a run of more is two shorter).
    return [p for p in found if sum(k for _, k in p) <= 5]


@settings(max_examples=examples(300), deadline=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**32), size=st.integers(3, 30))
def test_long_runs_split_into_the_screens_options(name: str, seed: int, size: int) -> None:
    # R-M3, M4: why the screen lists no run of more than five cards. Cut after its third position, each
    # run of six or more of the solver's is a run of three and a shorter run, each with a natural card
    # (else it is dropped) and both candidates of the same pool (J1, J3: no jokers side by side that the
    # run did not have), so the bound cards it held are held by disjoint short runs with no more jokers.
    from rummylib.solver._queries import candidates_with, hand_candidates

    rules = RULES[name]
    pool = _random_pool(rules, seed, size)
    known = {c.pairs for c in hand_candidates(pool, rules)}
    for i in (i for i in range(52) if pool[i]):
        for c in candidates_with(pool, rules, i):
            if not isinstance(c.meld, Run) or len(c.meld.cards) <= 5:
                continue
            parts = [c.meld.cards[:3], c.meld.cards[3:]]
            for part in parts:
                if all(card.is_joker for card in part):
                    continue
                start = c.meld.start if part is parts[0] else c.meld.start + 3
                assert _pairs(rl.Run(c.meld.suit, start, part), rules) in known, (name, c.meld)


def _pairs(meld: rl.Meld, rules: rl.Ruleset) -> tuple[tuple[int, int], ...]:
    counts = rl.CardMultiset(meld.cards).counts
    return tuple((i, k) for i, k in enumerate(counts) if k)


def _jokers(pairs: tuple[tuple[int, int], ...]) -> int:
    return sum(k for i, k in pairs if i == 52)


def _fewest(found: set[tuple[tuple[int, int], ...]]) -> list[tuple[tuple[int, int], ...]]:
    # Each candidate whose natural cards no other candidate holds with fewer jokers.
    least: dict[tuple[tuple[int, int], ...], int] = {}
    for p in found:
        naturals = tuple(x for x in p if x[0] != 52)
        least[naturals] = min(least.get(naturals, 99), _jokers(p))
    return [p for p in found if _jokers(p) == least[tuple(x for x in p if x[0] != 52)]]


def test_the_screens_kept_options_are_forgotten_by_the_engine_cache_clear() -> None:
    # engine._cache.clear() is what benchmarks call to measure a cold listing (R-D2's screen
    # included): the cover screen's kept options, runs, groups and reaches go with it.
    from rummylib.engine import _cache, _cover

    pool = _random_pool(rl.REMIK, 7, 20)
    for index in (i for i in range(52) if pool[i]):
        _cover._option_entry(pool, rl.REMIK, index)
    kept = (_cover._OPTIONS, _cover._RUNS, _cover._GROUPS, _cover._REACH)
    assert all(kept)
    _cache.clear()
    assert not any(kept)
