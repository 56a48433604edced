"""rummylib.events: each seat's event takes its view to its next view, and leaks nothing (R-H1)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

import rummylib as rl
from rummylib.bots import GreedyBot
from rummylib.events import Event, apply_event, event_from_dict, event_from_json, event_to_dict, event_to_json, events

Step = tuple[rl.GameState, rl.Action, rl.GameState]


def _steps(rules: rl.Ruleset, players: int, seed: int, count: int, greedy: float = 0.5) -> Iterator[Step]:
    """``count`` steps of one game: greedy moves (rounds end) mixed with random ones (stocks run out)."""
    rng = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed)
    bot = GreedyBot(0)
    for _ in range(count):
        legal = list(rl.legal_actions(state))
        if not legal:
            return
        if rng.random() < greedy:
            action = bot.choose(rl.view(state, state.to_act), legal)
        else:
            action = legal[rng.randrange(len(legal))]
        after = rl.apply(state, action)
        yield state, action, after
        state = after


def _check_step(before: rl.GameState, action: rl.Action, after: rl.GameState, *, json: bool = False) -> None:
    step = events(before, action, after)
    public = step.public
    assert public.viewer is None and not public.hand_in and not public.hand_out and public.turn is None
    if isinstance(action, rl.DrawStock):
        assert public.card is None  # R-H1: nobody else learns the drawn card
    for seat in range(before.num_players):
        mine = step.for_seat(seat)
        assert apply_event(rl.view(before, seat), mine) == rl.view(after, seat), (seat, action)
        assert set(public.extra) <= set(mine.extra)  # a seat's event: the public one, plus what it alone learns
        private = {"viewer": None, "card": public.card, "hand_in": public.hand_in, "hand_out": public.hand_out}
        assert attrs.evolve(mine, **private, turn=None, extra=public.extra) == public  # type: ignore[arg-type]
        if json:
            assert event_from_json(event_to_json(mine)) == mine
            assert apply_event(rl.view(before, seat), mine, check=True) == rl.view(after, seat)
    if json:
        assert event_from_dict(event_to_dict(public)) == public


_GAMES = [
    (rl.REMIK, 3, 1),
    (rl.REMIK, 2, 2),
    (rl.STRAIGHT, 2, 3),
    (rl.STRAIGHT, 4, 4),
    (attrs.evolve(rl.REMIK, restock_limit=0), 2, 5),  # R-D7: void rounds when the stock runs out
    (attrs.evolve(rl.STRAIGHT, restock_limit=1), 3, 6),
]


@pytest.mark.parametrize(("rules", "players", "seed"), _GAMES)
def test_each_seat_applies_its_events_to_reach_its_next_view(rules: rl.Ruleset, players: int, seed: int) -> None:
    for i, (before, action, after) in enumerate(_steps(rules, players, seed, 120, greedy=0.7)):
        _check_step(before, action, after, json=i % 5 == 0)


def test_random_remik_play_through_a_reshuffle_and_joker_swaps() -> None:  # R-D4, R-J4
    wanted = {"reshuffle", "SwapJoker", "TakeDiscard", "LayOff"}
    kinds: set[str] = set()
    for seed in range(9, 15):  # random play reaches them within a game or two; stop as soon as it has
        for i, (before, action, after) in enumerate(_steps(rl.REMIK, 2, seed, 260, greedy=0.0)):
            _check_step(before, action, after, json=i % 10 == 0)
            kinds.add(type(action).__name__)
            if after.round.restocks > before.round.restocks:
                kinds.add("reshuffle")
                assert events(before, action, after).public.refilled
        if wanted <= kinds:
            break
    assert wanted <= kinds, kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", [rl.REMIK, rl.STRAIGHT, attrs.evolve(rl.REMIK, restock_limit=1)], ids=["remik", "straight", "capped"]
)
def test_thousands_of_random_steps(rules: rl.Ruleset) -> None:
    kinds: set[str] = set()
    steps = 0
    for game in range(12):
        players = rules.min_players + game % (min(rules.max_players, 4) - rules.min_players + 1)
        for before, action, after in _steps(rules, players, 100 + game, 700, greedy=0.3 + 0.05 * game):
            _check_step(before, action, after, json=steps % 7 == 0)
            steps += 1
            kinds.add(type(action).__name__)
            if after.round.restocks > before.round.restocks:
                kinds.add("restock")
            if len(after.results) > len(before.results):
                kinds.add("round_end")
    assert steps > 3000
    assert {"DrawStock", "Discard", "NextRound", "round_end", "restock"} <= kinds, kinds


def test_every_field_of_a_view_is_carried_by_events() -> None:
    from rummylib.events._event import COPIED, EXTRA, REBUILT
    from rummylib.events._json import extra_types_unsupported

    fields = set(attrs.fields_dict(rl.PlayerView))
    assert fields == set(COPIED) | set(REBUILT) | set(EXTRA)
    assert not extra_types_unsupported(), (
        f"PlayerView fields {extra_types_unsupported()} have a type events/_json.py cannot write: add it to _WRITE "
        "and _read_extra"
    )


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("int", 7),
        ("bool", True),
        ("Card | None", None),
        ("Card | None", rl.JOKER),
        ("tuple[bool, ...]", (True, False)),
        ("tuple[int, ...]", (3, -1)),
        ("tuple[Card, ...]", rl.parse_cards("7H JK 7H")),
        ("CardMultiset", rl.CardMultiset(rl.parse_cards("7H JK"))),
        ("tuple[CardMultiset, ...]", (rl.CardMultiset(), rl.CardMultiset(rl.parse_cards("2C")))),
    ],
)
def test_extra_view_fields_have_a_json_form(kind: str, value: object) -> None:
    import json

    from rummylib.events._json import _WRITE, _read_extra

    assert _read_extra(kind, json.loads(json.dumps(_WRITE[kind](value))), "extra.x") == value


# --- what a seat may not see does not change its event -----------------------------------------


def _reshuffle_hidden(state: rl.GameState, seat: int, rng: random.Random) -> rl.GameState:
    """The same state with the cards ``seat`` cannot see dealt differently among the same places."""
    r = state.round
    actor = r.to_act
    movable = [s for s in range(state.num_players) if s != seat and (s != actor or r.phase is not rl.Phase.PLAY)]
    pool = [c for s in movable for c in r.hands[s]] + list(r.stock)
    rng.shuffle(pool)
    hands = list(r.hands)
    at = 0
    for s in movable:
        size = len(r.hands[s])
        hands[s] = rl.CardMultiset(pool[at : at + size])
        at += size
    return attrs.evolve(state, round=attrs.evolve(r, hands=tuple(hands), stock=tuple(pool[at:])))


@pytest.mark.parametrize(("rules", "players", "seed"), _GAMES[:4])
def test_events_do_not_depend_on_what_the_seat_cannot_see(rules: rl.Ruleset, players: int, seed: int) -> None:  # R-H1
    rng = random.Random(seed)
    compared = 0
    for before, action, after in _steps(rules, players, seed, 90, greedy=0.7):
        for seat in range(players):
            other = _reshuffle_hidden(before, seat, rng)
            assert rl.view(other, seat) == rl.view(before, seat)
            if not rl.is_legal(other, action):
                continue
            other_after = rl.apply(other, action)
            if rl.view(other_after, seat) != rl.view(after, seat):
                # Only the seat's own draw (it sees the card) or a round's end (hands are shown) may differ.
                assert (isinstance(action, rl.DrawStock) and before.to_act == seat) or len(after.results) > len(
                    before.results
                )
                continue
            assert events(other, action, other_after).for_seat(seat) == events(before, action, after).for_seat(seat)
            compared += 1
    assert compared > 100


def test_a_stock_draw_is_seen_only_by_the_drawer() -> None:
    state = rl.new_game(rl.STRAIGHT, ["Ann", "Bob", "Cy"], seed=8)
    after = rl.apply(state, rl.DrawStock())
    step = events(state, rl.DrawStock(), after)
    drawn = after.round.turn.drawn
    assert drawn is not None
    names = state.players
    assert step.public.text(names) == "Bob: draw"
    assert step.for_seat(1).text(names) == f"Bob: draw {drawn}" and step.for_seat(1).card == drawn
    for seat in (0, 2):
        mine = step.for_seat(seat)
        assert (
            mine.card is None
            and not mine.hand_in
            and str(drawn) not in event_to_json(mine).replace(f'"{drawn}"', "") + ""
        )
        assert mine.text(names) == "Bob: draw"


def test_a_new_round_deals_each_seat_its_own_hand_only() -> None:  # R-P4
    for before, action, after in _steps(rl.STRAIGHT, 2, 1, 400, greedy=1.0):
        if isinstance(action, rl.NextRound):
            step = events(before, action, after)
            assert step.public.text() == f"round {after.round_number}: seat {after.dealer} deals"
            for seat in range(2):
                mine = step.for_seat(seat)
                assert rl.view(before, seat).hand - mine.hand_out + mine.hand_in == after.round.hands[seat]
                assert mine.table_size == 0 and mine.result is None
            return
    pytest.fail("no round ended")


def test_round_end_carries_the_result() -> None:
    for before, action, after in _steps(rl.REMIK, 2, 2, 400, greedy=1.0):
        if len(after.results) > len(before.results):
            e = events(before, action, after).public
            assert e.result == after.results[-1] and e.phase in (rl.Phase.ROUND_OVER, rl.Phase.GAME_OVER)
            assert "round 1 over" in e.text()
            return
    pytest.fail("no round ended")


# --- hostile events --------------------------------------------------------------------------


def _sample() -> tuple[rl.PlayerView, Event]:
    state = rl.new_game(rl.REMIK, 3, seed=5)
    return rl.view(state, 1), events(state, rl.Discard(next(iter(state.round.hands[0])))).for_seat(1)


@pytest.mark.parametrize(
    "change",
    [
        {"viewer": 2},
        {"viewer": None},
        {"table_size": 5},
        {"discard_kept": 9},
        {"hand_sizes": (14, 13)},
        {"hand_out": rl.CardMultiset(rl.parse_cards("JK JK JK"))},
        {"hand_in": rl.CardMultiset(rl.parse_cards("2H"))},
    ],
)
def test_an_event_that_does_not_fit_the_view_is_refused(change: dict[str, object]) -> None:
    v, e = _sample()
    with pytest.raises(rl.InvalidStateError) as caught:
        apply_event(v, attrs.evolve(e, **change))  # type: ignore[arg-type]
    assert caught.value.path.startswith("event.")


def test_a_checked_apply_refuses_an_inconsistent_view() -> None:  # R-C3: the cards must add up
    v, e = _sample()
    forged = attrs.evolve(e, stock_size=e.stock_size + 5)
    assert apply_event(v, forged).stock_size == e.stock_size + 5  # fits the view's shape
    with pytest.raises(rl.InvalidStateError) as caught:
        apply_event(v, forged, check=True)
    assert caught.value.reason is rl.StateReason.CARDS_NOT_CONSERVED
    assert apply_event(v, e, check=True) == apply_event(v, e)


def test_apply_event_refuses_wrong_types() -> None:
    v, e = _sample()
    with pytest.raises(rl.InvalidStateError):
        apply_event(v, "discard KS")  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        apply_event(e, e)  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        events("state", rl.DrawStock())  # type: ignore[arg-type]
    with pytest.raises(rl.InvalidStateError):
        events(rl.new_game(rl.REMIK, 2, seed=1), rl.DrawStock(), rl.new_game(rl.REMIK, 2, seed=2))
    with pytest.raises(rl.InvalidStateError):
        events(rl.new_game(rl.REMIK, 2, seed=1), "draw", rl.new_game(rl.REMIK, 2, seed=1))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seat", -1),
        ("phase", "dance"),
        ("card", "KX"),
        ("action", {"type": "fly"}),
        ("table_changes", [{"index": 0, "meld": {"type": "run", "slots": ["KS"]}, "owner": 0}]),
        ("hand_in", ["JK"] * 2000),
        ("extra", 1),
        ("kind", "view"),
    ],
)
def test_a_forged_event_document_is_refused(key: str, value: object) -> None:
    _, e = _sample()
    doc = event_to_dict(e)
    doc[key] = value
    with pytest.raises(rl.InvalidStateError):
        event_from_dict(doc)


def test_an_event_is_smaller_than_a_view_mid_game() -> None:
    *_, (before, action, after) = _steps(rl.REMIK, 3, 1, 60, greedy=1.0)
    mine = events(before, action, after).for_seat(0)
    assert len(event_to_json(mine)) < len(rl.records.to_json(rl.view(after, 0)))
