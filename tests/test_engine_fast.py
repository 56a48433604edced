"""The engine's fast paths (issue 11) give exactly what the checked paths give.

* The trusted construction path (``rummylib._trusted``) builds the next state
  without re-checking its fields; the public constructors still check every
  field, and a state the engine built equals the one the public constructor
  builds from the same fields.
* The solver's packed-count meld query (``solver._queries``) lists exactly the
  melds of ``find_melds``, in its order, with the points, cleanliness and
  sizes ``meld_points`` and ``is_clean_run`` give.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from _budget import examples
from _walks import fit_tests, table_melds_of
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib._trusted import builder, evolver, replacer
from rummylib.engine import GameState, RoundState, TableMeld, TurnState, _state
from rummylib.engine._complete import card_bound
from rummylib.engine._state import evolve_game, evolve_round, evolve_turn, table_meld
from rummylib.melds import is_clean_run, meld_points
from rummylib.solver._masks import packed_cards
from rummylib.solver._queries import candidates_with, clear_candidates, hand_candidates, sorted_by_points

RULESETS = {
    "remik": rl.REMIK,
    "straight": rl.STRAIGHT,
    "adjacent": attrs.evolve(rl.REMIK, adjacent_jokers=True),
    "six-jokers": attrs.evolve(rl.REMIK, jokers=6, group3_max_jokers=1, group4_max_jokers=2),
    "no-ace-high": attrs.evolve(rl.REMIK, ace_high=False),
}


def _public_copy(obj: object) -> object:
    """``obj`` rebuilt through its public, checking constructor."""
    return attrs.evolve(obj)  # type: ignore[misc]


def _walk(rules: rl.Ruleset, players: int, seed: int, steps: int) -> list[GameState]:
    rng = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed)
    out = [state]
    for _ in range(steps):
        if state.is_over:
            break
        legal = rl.legal_actions(state)
        state = rl.apply(state, legal[rng.randrange(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize("name", ["remik", "straight", "six-jokers"])
def test_engine_built_states_equal_their_checked_rebuilds(name: str) -> None:
    # Every state, round, turn, table meld and view the engine builds on the
    # trusted path passes the public checks and compares equal to its rebuild.
    for state in _walk(RULESETS[name], 3, 7, 400):
        r = state.round
        assert _public_copy(state) == state
        assert _public_copy(r) == r
        assert _public_copy(r.turn) == r.turn
        for tm in r.table:
            assert _public_copy(tm) == tm
        v = rl.view(state, r.to_act)
        assert _public_copy(v) == v


def test_trusted_copies_equal_attrs_evolve() -> None:
    state = _walk(rl.REMIK, 4, 3, 30)[-1]
    r = state.round
    assert evolve_round(r, to_act=(r.to_act + 1) % 4) == attrs.evolve(r, to_act=(r.to_act + 1) % 4)
    assert evolve_game(state, round_number=2) == attrs.evolve(state, round_number=2)
    assert evolve_turn(r.turn, laid=True) == attrs.evolve(r.turn, laid=True)
    meld = rl.make_meld(rl.parse_cards("5H 6H 7H"), rl.REMIK)
    assert table_meld(meld=meld, owner=1) == TableMeld(meld, 1)
    assert type(evolve_round(r)) is RoundState


def test_trusted_values_are_exactly_the_frozen_class() -> None:
    # The trusted path fills an "open twin" by plain assignment, then switches its class: the value
    # must end up exactly the frozen class, with every slot set, frozen, hashable and picklable.
    state = _walk(rl.REMIK, 4, 5, 60)[-1]
    r = state.round
    made: list[Any] = [
        evolve_game(state),
        evolve_round(r, to_act=(r.to_act + 1) % 4),
        evolve_turn(r.turn, laid=True),
        table_meld(meld=rl.make_meld(rl.parse_cards("5H 6H 7H"), rl.REMIK), owner=1),
        rl.view(state, r.to_act),
    ]
    classes: tuple[Any, ...] = (GameState, RoundState, TurnState, TableMeld, rl.PlayerView)
    for value, cls in zip(made, classes):
        assert type(value) is cls
        for field in attrs.fields(cls):
            getattr(value, field.name)  # every slot is set
        assert _public_copy(value) == value
        assert hash(value) == hash(_public_copy(value))
        assert pickle.loads(pickle.dumps(value)) == value
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            value.__setattr__(attrs.fields(cls)[0].name, None)


@pytest.mark.parametrize("name", ["remik", "straight"])
def test_view_passes_each_field_in_its_place(name: str) -> None:
    # view() builds its PlayerView by position (R-H1): every field must land on its own name.
    for state in _walk(RULESETS[name], 3, 11, 300)[::7]:
        r = state.round
        for seat in range(3):
            mine = r.to_act == seat and r.phase in (rl.Phase.DRAW, rl.Phase.PLAY)
            playing = r.phase is rl.Phase.PLAY
            expected = rl.PlayerView(
                seat=seat,
                rules=state.rules,
                players=state.players,
                dealer=state.dealer,
                round_number=state.round_number,
                hand=r.hands[seat],
                hand_sizes=tuple(len(h) for h in r.hands),
                table=r.table,
                discard=r.discard,
                stock_size=len(r.stock),
                opened=r.opened,
                to_act=r.to_act,
                phase=r.phase,
                turn=r.turn if mine else None,
                restocks=r.restocks,
                totals=state.totals,
                results=state.results,
                standings=state.standings,
                opening_points=r.turn.opening_points if playing else 0,
                opening_clean=r.turn.opening_clean if playing else False,
                has_laid=r.has_laid,
                known_cards=r.known_cards,
                known_stock=r.known_stock,
                restocked=r.restocked,
            )
            got = rl.view(state, seat)
            for field in attrs.fields(rl.PlayerView):
                assert getattr(got, field.name) == getattr(expected, field.name), field.name


def test_positional_builder_takes_the_fields_in_order() -> None:
    build = builder(TableMeld, positional=True)
    meld = rl.make_meld(rl.parse_cards("5H 6H 7H"), rl.REMIK)
    assert build(meld, 2) == TableMeld(meld, 2)
    with pytest.raises(TypeError):
        build(meld=meld, owner=2)


def test_replacers_set_each_field_in_its_place() -> None:
    # The engine's positional copies (the commonest moves) equal attrs.evolve with the same fields by
    # keyword. The values come from another state, so two fields swapped would show.
    a, b = _walk(rl.REMIK, 4, 5, 60)[-1], _walk(rl.REMIK, 4, 9, 45)[-1]
    ra, rb = a.round, b.round
    for replace_, cls, names in (
        (_state.with_round, GameState, ("round",)),
        (_state.drawn_turn, TurnState, ("drawn",)),
        (_state.stock_drawn_round, RoundState, ("hands", "stock", "discard", "restocks", "phase", "turn")),
        (_state.public_drawn_round, RoundState, ("hands", "stock", "phase", "turn", "known_cards", "known_stock")),
        (
            _state.discarded_round,
            RoundState,
            ("hands", "discard", "has_laid", "to_act", "phase", "turn", "known_cards"),
        ),
    ):
        pairs: dict[type, tuple[Any, Any]] = {GameState: (a, b), RoundState: (ra, rb), TurnState: (ra.turn, rb.turn)}
        base, other = pairs[cls]
        if cls is TurnState:
            other = evolve_turn(other, drawn=rl.parse_card("QC"))
        values = [getattr(other, n) for n in names]
        got = replace_(base, *values)
        assert type(got) is cls
        assert got == attrs.evolve(base, **dict(zip(names, values)))
        assert pickle.loads(pickle.dumps(got)) == got


def test_replacer_refuses_what_is_not_a_field_list() -> None:
    for changed in [(), ("hands", "hands"), ("hands", "nope")]:
        with pytest.raises(TypeError, match="distinct field names"):
            replacer(RoundState, *changed)
    with pytest.raises(TypeError):
        replacer(RoundState, "hands")(None, 1, 2)  # one value per named field, by position


def test_trusted_path_refuses_a_class_without_slots() -> None:
    @attrs.frozen(slots=False)
    class Loose:
        x: int

    with pytest.raises(TypeError, match="not a slot"):
        builder(Loose)
    with pytest.raises(TypeError, match="not a slot"):
        evolver(Loose)


def test_public_constructors_still_check_every_field() -> None:
    # The trusted path is the engine's alone: outside input still meets every check.
    state = rl.new_game(rl.REMIK, 3, seed=1)
    r = state.round
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(r, to_act=7)
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(r, hands=(*r.hands[:-1], "not a hand"))  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(r, opened=(True,))
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(state, totals=(0, 0))
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(state, round="a round")  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        TurnState(freed_jokers=-1)
    with pytest.raises(rl.InvalidStateError):
        TurnState(drawn="AH")  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        TableMeld("AH AS AD")  # type: ignore[arg-type]
    v = rl.view(state, 0)
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(v, seat=9)
    with pytest.raises(rl.InvalidStateError):
        attrs.evolve(v, hand=("AH",))  # type: ignore[arg-type]


#: A joker-heavy house variant: the candidates' joker placements at their most varied.
_MANY_JOKERS = attrs.evolve(rl.REMIK, jokers=8, adjacent_jokers=True)


@settings(max_examples=examples(150), deadline=None)
@given(name=st.sampled_from([*sorted(RULESETS), "jokers"]), seed=st.integers(0, 10**9), size=st.integers(0, 24))
def test_hand_candidates_are_find_melds(name: str, seed: int, size: int) -> None:
    # The engine's R-D2/J4 searches (engine/_oblige's joker covers) read these for find_melds' distinct melds.
    rules = _MANY_JOKERS if name == "jokers" else RULESETS[name]
    cards = list(rl.deck(rules))
    random.Random(seed).shuffle(cards)
    hand = rl.CardMultiset(cards[:size])
    found = hand_candidates(hand.counts, rules)
    assert tuple(c.meld for c in found) == tuple(dict.fromkeys(rl.find_melds(hand, rules)))
    for c in found:
        assert c.points == meld_points(c.meld, rules)
        assert c.clean == is_clean_run(c.meld)
        assert (c.size, c.jokers) == (len(c.meld.cards), c.meld.joker_count)
        counts = rl.CardMultiset(c.meld.cards).counts
        assert c.pairs == tuple((i, n) for i, n in enumerate(counts) if n)
        assert c.bound == card_bound(counts)  # the completion search carries bounds down by these
        assert c.packed == packed_cards(c.pairs)  # summed along as the runs are built
        assert c.naturals == sum(1 << i for i, _ in c.pairs if i < 52)  # the opening search's first fit test
    assert sorted_by_points(hand.counts, rules) == tuple(sorted(found, key=lambda c: -c.points))
    for index in {card.index for card in hand.distinct() if not card.is_joker}:
        want = tuple(c for c in found if index in dict(c.pairs))
        assert candidates_with(hand.counts, rules, index) == want
        clear_candidates()  # built from the card's suit and rank alone, not from the cached whole list
        assert candidates_with(hand.counts, rules, index) == want


def test_hand_candidates_along_games_with_warm_caches() -> None:
    # R-M1 to M4, J1 to J3: the joker runs kept per suit and start stay exact while the caches live on
    # from hand to hand (a hand changes one card per move) and from ruleset to ruleset (ace high or not).
    clear_candidates()
    checked = 0
    for name in sorted(RULESETS):
        for state in _walk(RULESETS[name], 3, 3, 200):
            r = state.round
            hand = r.hands[r.to_act]
            found = hand_candidates(hand.counts, state.rules)
            assert tuple(c.meld for c in found) == tuple(dict.fromkeys(rl.find_melds(hand, state.rules)))
            checked += 1
    assert checked > 800


def test_hand_candidates_with_jokers_pinned() -> None:
    # R-J1: a joker at either end of 5H 6H; find_melds' order (JK=4H first).
    found = hand_candidates(rl.CardMultiset(rl.parse_cards("5H 6H JK")).counts, rl.REMIK)
    assert [str(c.meld) for c in found] == ["JK=4H 5H 6H", "5H 6H JK=7H"]
    assert [c.points for c in found] == [15, 18]


def test_take_discard_screen_gives_the_full_answer() -> None:
    # R-D2: before opening, taking the discard means opening with it and going out; the listing refutes
    # most such takes on the hand's counts (the opening screen) before building the round of the take.
    # R-T4, T7: without R-D2 a take is allowed whenever another card is held, also decided on the counts.
    # The answer must be the full question's on every draw state, presets and house variants alike.
    from _walks import WALK_RULES, walk

    from rummylib.engine._oblige import _TAKE, can_finish_turn, may_take_discard, take_discard_round

    variants = {
        **WALK_RULES,
        "take-to-open": attrs.evolve(rl.REMIK, take_discard_to_open=True, restock_limit=2),
        "remik-free": attrs.evolve(rl.REMIK, discard_rule=rl.DiscardRule.FREE, restock_limit=2),
        "discard-taken": attrs.evolve(rl.STRAIGHT, discard_taken_card=True, restock_limit=2),
    }
    asked = refused = 0
    for rules in variants.values():
        for seed in (1, 2):
            for state in walk(rules, 3, seed, 250):
                r = state.round
                if r.phase is not rl.Phase.DRAW or not r.discard:
                    continue
                _TAKE.clear()
                full = can_finish_turn(rules, take_discard_round(rules, r))
                assert may_take_discard(rules, r) is full
                asked += 1
                refused += not full
    assert asked > 500 and refused > 100


# The presets by default; the house variants in the slow suite (CI).
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=() if n in {"remik", "straight"} else pytest.mark.slow) for n in sorted(RULESETS)]
)
def test_a_fitting_lay_off_is_built_as_lay_off_builds_it(name: str) -> None:
    # R-T6, J5: apply builds a lay-off the listing's fit test vouches for on the trusted path
    # (grown_meld); it must be exactly lay_off's meld, and where the test says no, lay_off refuses.
    from rummylib.cards import JOKER
    from rummylib.engine._fits import group_fit, grown_meld, run_fit
    from rummylib.melds import End, Group, Run, lay_off

    rules = RULESETS[name]
    melds = table_melds_of(state for seed in range(8) for state in _walk(rules, 3, seed, 300))
    fitting = 0
    for meld in melds:
        for card in (*rl.deck(rl.REMIK).distinct(), JOKER):
            for end in (End.LOW, End.HIGH) if isinstance(meld, Run) else (None,):
                if isinstance(meld, Run):
                    assert end is not None
                    fits = run_fit(meld, card, end, rules)
                else:
                    assert isinstance(meld, Group)
                    fits = group_fit(meld, card, rules)
                try:
                    built: rl.Meld | None = lay_off(meld, card, rules, end=end)
                except rl.InvalidMeldError:
                    built = None
                assert built == (grown_meld(meld, card, end) if fits else None), (meld, card, end)
                fitting += fits
    assert len(melds) > 30 and fitting > 30


def test_table_fits_kept_per_meld_are_the_fit_tests_and_forgotten_by_clear() -> None:
    # R-T6, J5: the lay-off candidates of a table are each meld's fits, kept per meld object (a new
    # table shares all its melds but one with the last); each is the fit tests' answer, in slot order,
    # low end first, the card before the joker, and engine._cache.clear() forgets them.
    from rummylib.engine import _cache, _fits

    rules = rl.REMIK
    tables = 0
    for seed in range(4):
        for state in _walk(rules, 4, seed, 300):
            table = state.round.table
            if not table:
                continue
            expected = [fit for i, tm in enumerate(table) for fit in fit_tests(i, tm.meld, rules)]
            found, held = _fits._table_fits(table, rules)
            assert [(lay.target, lay.card, lay.end) for lay in found] == expected
            counts = tuple(range(1, 54))  # a distinct count per card index: the getter reads each lay-off's card
            assert held(counts)[: len(found)] == tuple(counts[card.index] for _, card, _ in expected)
            assert len(held(counts)) == len(found) + 2  # the padding: a tuple even for one lay-off or none
            tables += 1
    assert tables > 100 and _fits._MELD_FITS
    _cache.clear()
    assert not _fits._MELD_FITS and not _fits._FITS
