"""Hostile input (issue 10): bounded work, typed errors, short messages; bots see only their seat.

The resource test runs each hostile input in a subprocess under an address
space and CPU-time limit, so a regression fails instead of swapping. On main
before this branch ``max_players=2**63-1`` gets the process killed,
``new_game(REMIK, 10**9)`` builds a billion names, ``seed="\\ud800"`` raises
``UnicodeEncodeError``, ``Open(5)`` ``TypeError`` and ``apply(..., seat=99)`` is accepted.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import overload

import attrs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.bots import SeatActions
from rummylib.errors import MAX_MESSAGE
from rummylib.records import format_record, load_record, parse_record, save_record

SRC = str(Path(__file__).resolve().parents[1] / "src")

#: Each entry: a statement that must raise a RummyError, quickly and in little memory.
HOSTILE = {
    "max_players 30M": "d = rl.to_dict(rl.REMIK); d['body' if 'body' in d else 'max_players']; "
    "b = d.get('body', d); b['max_players'] = 30_000_000; rl.from_json(json.dumps(d))",
    "max_players 2**63-1": "d = rl.to_dict(rl.REMIK); b = d.get('body', d); b['max_players'] = 2**63 - 1; "
    "rl.from_json(json.dumps(d))",
    "evolve max_players": "attrs.evolve(rl.REMIK, max_players=10**18)",
    "new_game 10**9": "rl.new_game(rl.REMIK, 10**9)",
    "record 10**7": "rl.GameRecord(rl.REMIK, 10**7, seed=1)",
    "seed 10**5000": "rl.new_game(rl.REMIK, 2, seed=10**5000)",
    "seed surrogate": "rl.new_game(rl.REMIK, 2, seed='\\ud800')",
    "from_counts": "rl.CardMultiset.from_counts([10**30] * 53)",
    "parse_card 1MB": "rl.parse_card('x' * 1_000_000)",
    "parse_cards 1MB": "rl.parse_cards('7H ' * 300_000 + 'x')",
    "json 1MB array": "rl.from_json('[' + '0,' * 500_000 + '0]')",
    # Shapes of at most 1 MB that cost work per value or per container (the walk checks in bulk):
    "json 49k one-item stock": "d = rl.to_dict(rl.new_game(rl.REMIK, 2, seed=1)); "
    "d['round']['stock'] = [['AS']] * 49_000; rl.from_json(json.dumps(d))",
    "json 500k numbers + []": "rl.from_json('[' + '0,' * 500_000 + '[]]')",
    "json 24k [[0]]": "rl.from_json(json.dumps([[[0]]] * 24_000))",
    "json 80k keys": "rl.from_json(json.dumps({f'k{i}': 0 for i in range(80_000)}))",
    "json 5k objects": "rl.from_json(json.dumps([{f'k{i}': 0.5 for i in range(20)}] * 5_000))",
    "json 1MB floats": "rl.from_json('[' + '0.5,' * 250_000 + '[]]')",
    "hand_sizes 1M": "attrs.evolve(rl.REMIK, hand_sizes=[(i, 1) for i in range(1_000_000)])",
    "names 1M": "rl.new_game(rl.REMIK, ['x' * 1000] * 1000)",
}

_RUNNER = textwrap.dedent(
    """
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (20, 20))
    import attrs, rummylib as rl
    out = {}
    for name, code in json.loads(sys.argv[1]).items():
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.process_time()  # CPU seconds: a busy machine does not inflate them
        try:
            exec(code)
            kind, size = "accepted", 0
        except rl.RummyError as e:
            kind, size = type(e).__name__, len(str(e))
        out[name] = [kind, size, time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before]
    print(json.dumps(out))
    """
)


def _run_hostile(cases: dict[str, str]) -> dict[str, list[object]]:
    proc = subprocess.run(
        [sys.executable, "-c", _RUNNER, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict[str, list[object]] = json.loads(proc.stdout)
    return result


def test_hostile_inputs_are_refused_in_bounded_memory() -> None:
    # Issue 10 part 1: each refused with a typed error and a short message, under 1 GB and 20 s of CPU.
    for name, (kind, size, seconds, grown) in _run_hostile(HOSTILE).items():
        print(f"{name:24} {kind:18} {seconds:8.4f} s CPU, peak memory +{grown} KB")
        assert kind != "accepted", name
        assert isinstance(size, int) and size <= MAX_MESSAGE, name


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"a": [0, 1, [], 1e999]}', "a[3]"),
        ('{"a": [[0], [1, "' + "x" * 5000 + '"]]}', "a[1][1]"),
        ('{"a": {"b": 1, "c": 2e400}}', "a.c"),
        ('{"a": [[0], [1, 18446744073709551616]]}', "a[1][1]"),
        ('{"a": {"b": [], "c": 18446744073709551616}}', "a.c"),
    ],
)
def test_bulk_checks_still_name_the_value(text: str, path: str) -> None:
    # Values checked in bulk (in C) are walked one by one once a limit is passed, to name them.
    with pytest.raises(rl.InvalidStateError) as err:
        rl.from_json(text)
    assert err.value.path == path


# --- untyped escapes and skipped checks (parts 4, 5) ----------------------------------------


def _round_over() -> rl.GameState:
    s = rl.start_round_from(rl.STRAIGHT, [rl.parse_cards("2H 3H 4H"), rl.parse_cards("KS QS")], to_act=0)
    s = rl.apply(s, rl.DrawStock())
    s = rl.apply(s, rl.LayMeld(rl.make_meld(rl.parse_cards("2H 3H 4H"), rl.STRAIGHT)))
    if s.phase is rl.Phase.PLAY:
        s = rl.apply(s, rl.Discard(next(iter(s.round.hands[0]))))
    assert s.phase is rl.Phase.ROUND_OVER
    return s


@pytest.mark.parametrize("seat", [99, -1, "x", True, 1.0, 2])
def test_next_round_refuses_a_seat_that_is_not_a_seat(seat: object) -> None:
    # R-P4: only a seat of the game may deal on.
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(_round_over(), rl.NextRound(), seat=seat)  # type: ignore[arg-type]
    assert err.value.reason is rl.IllegalActionReason.NOT_YOUR_TURN


def test_a_run_built_around_its_validators_is_refused() -> None:
    # R-M1: 2S 6S 2D is no run, however it was built.
    run = rl.make_meld(rl.parse_cards("2S 3S 4S"), rl.REMIK)
    object.__setattr__(run, "cards", tuple(rl.parse_cards("2S 6S 2D")))
    with pytest.raises(rl.InvalidMeldError):
        rl.validate_meld(run, rl.REMIK)
    forged = pickle.loads(pickle.dumps(run))
    with pytest.raises(rl.InvalidMeldError):
        rl.validate_meld(forged, rl.REMIK)


JUNK = [
    lambda: rl.Open(5),  # type: ignore[arg-type]
    lambda: rl.Open(None),  # type: ignore[arg-type]
    lambda: rl.TableMeld(5),  # type: ignore[arg-type]
    lambda: rl.TableMeld(rl.make_meld(rl.parse_cards("2S 3S 4S"), rl.REMIK), "x"),  # type: ignore[arg-type]
    lambda: rl.TurnState(drawn=5),  # type: ignore[arg-type]
    lambda: rl.TurnState(freed_jokers=-1),
    lambda: rl.TurnState(opening_points="x"),  # type: ignore[arg-type]  # R-O4: points laid so far
    lambda: rl.TurnState(opening_points=-1),
    lambda: rl.TurnState(opening_points=True),
    lambda: rl.TurnState(opening_clean=5),  # type: ignore[arg-type]
    lambda: rl.TurnState(opening_clean=None),  # type: ignore[arg-type]
    lambda: rl.RoundState(5, 6, 7, 8, 9, 1, 2, rl.Phase.PLAY),  # type: ignore[arg-type]
    lambda: rl.RoundState([rl.CardMultiset()], [], [], [], [True], [True], 3, rl.Phase.PLAY),
    lambda: rl.GameState(1, 2, 3, 4, 5, 6, 7),  # type: ignore[arg-type]
    lambda: attrs.evolve(rl.new_game(rl.REMIK, 2, seed=1), dealer=7),
    lambda: attrs.evolve(rl.new_game(rl.REMIK, 2, seed=1), totals=("a", 0)),  # type: ignore[arg-type]
    lambda: attrs.evolve(rl.view(rl.new_game(rl.REMIK, 2, seed=1), 0), hand="7H"),  # type: ignore[arg-type]
    lambda: rl.start_round_from(rl.REMIK, [[], []]),
    lambda: rl.start_round_from(rl.REMIK, [rl.parse_cards("7H")] * 2, opened=5),  # type: ignore[arg-type]
    lambda: rl.start_round_from(rl.REMIK, [rl.parse_cards("7H")] * 2, totals=[-5, 0]),
    lambda: rl.start_round_from(rl.REMIK, [list(rl.deck(rl.REMIK))[:54], [rl.parse_card("7H")]]),
    lambda: rl.start_round_from(rl.REMIK, [rl.parse_cards("7H")] * 2, players=["\ud800", "b"]),
    lambda: rl.start_round_from(rl.REMIK, [rl.parse_cards("7H")] * 2, seed="\ud800"),
    lambda: rl.start_round_from(rl.REMIK, [rl.parse_cards("7H")] * 2, totals=[600, 0]),
    lambda: load_record(None),  # type: ignore[arg-type]
    lambda: load_record("game\x00.json"),
    lambda: save_record(rl.GameRecord(rl.REMIK, ("a", "b"), seed=1), None),  # type: ignore[arg-type]
    lambda: save_record(rl.GameRecord(rl.REMIK, ("a", "b"), seed=1), "game\x00.json"),
    lambda: save_record(None, "never-written.json"),  # type: ignore[arg-type]
    lambda: rl.GameRecord(rl.REMIK, 1, seed=1),
    lambda: rl.GameRecord(rl.REMIK, ("a", "b"), seed=1, dealer=5),
]


@pytest.mark.parametrize("make", JUNK)
def test_junk_raises_typed_errors(make: object) -> None:
    # Issue 10 parts 4-6: typed errors at construction, never TypeError/IndexError later.
    with pytest.raises(rl.RummyError) as err:
        make()  # type: ignore[operator]
    assert len(str(err.value)) <= MAX_MESSAGE


def test_bots_get_no_path_to_the_state() -> None:
    # R-H1: a bot sees its view; its legal actions hold no state, stock or other hand.
    s = rl.new_game(rl.REMIK, 2, seed=4)
    legal = SeatActions(rl.LegalActions(s))
    assert not hasattr(legal, "_state") and not hasattr(legal, "__dict__")
    assert list(legal) == list(rl.legal_actions(s))
    reachable = pickle.dumps(legal)
    assert pickle.loads(reachable) == legal or list(pickle.loads(reachable)) == list(legal)
    seen: list[object] = []

    class Spy:
        def choose(self, view: rl.PlayerView, legal: object) -> rl.Action:
            seen.append(legal)
            return next(iter(legal))  # type: ignore[call-overload, no-any-return]

    rl.play_game(rl.STRAIGHT, 2, [Spy(), Spy()], seed=1, max_actions=5)
    assert seen and all(isinstance(x, SeatActions) for x in seen)


# --- fuzzing every public entry point ---------------------------------------------------------

TYPED = (rl.RummyError,)


@settings(max_examples=examples(60), deadline=None)
@given(text=st.text(max_size=200))
def test_text_parsers_raise_only_typed_errors(text: str) -> None:
    for parse in (rl.parse_card, rl.parse_cards, rl.from_json, parse_record):
        try:
            parse(text)
        except TYPED as exc:
            assert len(str(exc)) <= MAX_MESSAGE


def _json_containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    # A named function: Hypothesis inspects the source of a lambda to check it recurses.
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    _json_containers,
    max_leaves=20,
)


@settings(max_examples=examples(60), deadline=None)
@given(doc=_JSON, key=st.sampled_from(["rules", "players", "round", "seed", "totals", "body"]))
def test_json_readers_raise_only_typed_errors(doc: object, key: str) -> None:
    base = rl.to_dict(rl.new_game(rl.REMIK, 2, seed=1))
    target = base.get("body", base)
    target[key] = doc
    for value in (doc, base):
        with contextlib.suppress(rl.RummyError):
            rl.from_dict(value)


@settings(max_examples=examples(60), deadline=None)
@given(value=_JSON | st.integers(min_value=-(10**40), max_value=10**40), seat=st.none() | _JSON)
def test_engine_functions_and_constructors_raise_only_typed_errors(value: object, seat: object) -> None:
    s = rl.new_game(rl.REMIK, 2, seed=1)
    calls: list[Callable[[], object]] = [
        lambda: rl.apply(s, value, seat=seat),  # type: ignore[arg-type]
        lambda: rl.is_legal(s, rl.DrawStock(), seat=seat),  # type: ignore[arg-type]
        lambda: rl.view(s, value),  # type: ignore[arg-type]
        lambda: rl.new_game(rl.REMIK, value),  # type: ignore[arg-type]
        lambda: rl.new_game(rl.REMIK, 2, seed=value),  # type: ignore[arg-type]
        lambda: rl.Open(value),  # type: ignore[arg-type]
        lambda: rl.LayOff(value, value),  # type: ignore[arg-type]
        lambda: rl.CardMultiset.from_counts(value),  # type: ignore[arg-type]
        lambda: rl.start_round_from(rl.REMIK, value),  # type: ignore[arg-type]
        lambda: attrs.evolve(rl.REMIK, max_players=value),  # type: ignore[arg-type]
        lambda: rl.GameRecord(rl.REMIK, value, seed=1),  # type: ignore[arg-type]
    ]
    for call in calls:
        try:
            result = call()
        except TYPED as exc:
            assert len(str(exc)) <= MAX_MESSAGE
            continue
        if isinstance(result, rl.GameState):
            assert rl.from_dict(rl.to_dict(result)) == result


@settings(max_examples=25, deadline=None)
@given(args=st.lists(st.sampled_from(["check", "solve", "rules", "--rules", "remik", "x", "7H 8H 9H", "--seed",
                                      "-1", "10" * 40, "--json", "\ud800", ""]), max_size=5))  # fmt: skip
def test_cli_arguments_raise_only_typed_errors(args: list[str]) -> None:
    import io

    from rummylib.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(args)
        except SystemExit:
            pass
        except TYPED:
            pass


# --- what the engine builds round-trips (part 6) ---------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       rules=st.sampled_from([rl.REMIK, rl.STRAIGHT, attrs.evolve(rl.REMIK, jokers=16, decks=4, name="jokers")]))  # fmt: skip
def test_every_state_play_reaches_round_trips(seed: int, steps: int, rules: rl.Ruleset) -> None:
    # R-C3 and the saved-state invariants: from_dict accepts every state legal play reaches.
    s = rl.new_game(rules, 3, seed=seed)
    bot = rl.RandomBot(seed=seed)
    for _ in range(steps):
        assert rl.from_dict(rl.to_dict(s)) == s
        if s.is_over:
            break
        s = rl.apply(s, bot.choose(rl.view(s, s.to_act), list(rl.legal_actions(s))))


def test_simulate_starts_no_more_workers_than_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 10 part 7: --games 1 --jobs 12 plays in this process, with no pool of 12 workers.
    import concurrent.futures
    import contextlib as _contextlib
    import io

    from rummylib.cli import main

    started: list[int] = []

    class Pool:
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            raise AssertionError("no pool for one game")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    with _contextlib.redirect_stdout(io.StringIO()), _contextlib.redirect_stderr(io.StringIO()):
        assert main(["simulate", "--rules", "straight", "--games", "1", "--jobs", "12", "--seed", "1"]) == 0
    assert started == []


def test_start_round_from_refuses_what_the_loader_refuses() -> None:
    # Issue 10 part 6, R-C3: with fill_stock=False the cards given must be the whole deck.
    hands = [rl.parse_cards("2H 9C"), rl.parse_cards("KS QS")]
    with pytest.raises(rl.InvalidStateError) as err:
        rl.start_round_from(rl.STRAIGHT, hands, discard=rl.parse_cards("7D"), fill_stock=False)
    assert err.value.reason is rl.StateReason.CARDS_NOT_CONSERVED
    # R-O1: a remik seat that has opened owns a meld on the table (it laid its opening).
    with pytest.raises(rl.InvalidStateError, match="owns a table meld"):
        rl.start_round_from(rl.REMIK, hands, opened=[True, False])
    group = rl.TableMeld(rl.parse_meld("AS AH AD", rl.REMIK), 0)
    s = rl.start_round_from(rl.REMIK, hands, table=[group], opened=[True, False])
    assert rl.from_dict(rl.to_dict(s)) == s


@settings(max_examples=examples(40), deadline=None)
@given(data=st.data(), rules=st.sampled_from([rl.REMIK, rl.STRAIGHT]))
def test_whatever_start_round_from_builds_round_trips(data: st.DataObject, rules: rl.Ruleset) -> None:
    # Issue 10 part 6: start_round_from refuses what the loader refuses, so what it builds
    # (and what play reaches from it) saves and loads back unchanged: opened flags, table
    # owners, and the whole deck given or not (R-O1, C3) included.
    n = data.draw(st.integers(2, 3))
    cards = list(data.draw(st.permutations(list(rl.deck(rules)))))
    sizes = [data.draw(st.integers(0, rules.hand_size(n) + 1)) for _ in range(n)]
    hands = [cards[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(n)]
    pile = cards[sum(sizes) : sum(sizes) + data.draw(st.integers(0, 3))]
    rest = cards[sum(sizes) + len(pile) :]
    table: list[rl.TableMeld] = []
    for _ in range(data.draw(st.integers(0, 2))):  # melds from the rest, owned by a seat or by nobody
        meld = next(iter(rl.find_melds(rest[:12], rules)), None)
        if meld is not None:
            owner = data.draw(st.sampled_from([None, *range(n)]))
            table.append(rl.TableMeld(meld, owner))
            for c in meld.cards:
                rest.remove(c)
        rest = rest[12:] + rest[:12]
    kw: dict[str, object] = {
        "dealer": data.draw(st.integers(0, n - 1)),
        "totals": data.draw(st.lists(st.integers(-5, 600), min_size=n, max_size=n)),
        "table": table,
        "opened": data.draw(st.lists(st.booleans(), min_size=n, max_size=n)),
    }
    if data.draw(st.booleans()):  # the whole deck given (the rest as the stock), or part of it
        kw["fill_stock"] = False
        kw["stock"] = rest[: len(rest) - data.draw(st.integers(0, 1))]
    if data.draw(st.booleans()):
        kw["phase"] = data.draw(st.sampled_from([rl.Phase.DRAW, rl.Phase.PLAY]))
        kw["to_act"] = data.draw(st.integers(0, n - 1))
    try:
        s = rl.start_round_from(rules, hands, discard=pile, seed=1, **kw)  # type: ignore[arg-type]
    except rl.RummyError:
        return
    bot = rl.RandomBot(seed=1)
    for _ in range(30):
        assert rl.from_dict(rl.to_dict(s)) == s
        if s.is_over:
            break
        legal = list(rl.legal_actions(s))
        assert legal, "start_round_from built a dead end"
        s = rl.apply(s, bot.choose(rl.view(s, s.to_act), legal))


class _Endless(Sequence[rl.Action]):
    """A sequence that says it holds a billion draws (only the reader's bound stops it)."""

    def __len__(self) -> int:
        return 10**9

    @overload
    def __getitem__(self, index: int) -> rl.Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[rl.Action]: ...
    def __getitem__(self, index: int | slice) -> rl.Action | Sequence[rl.Action]:
        if isinstance(index, slice):
            raise NotImplementedError
        return rl.DrawStock()


def test_a_record_longer_than_a_game_may_be_is_refused_at_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # One cap on a game's length: simulate stops there, and no record holds more, so a
    # 1 MB record cannot make replay keep hundreds of thousands of states.
    from rummylib.records._notation import read_action
    from rummylib.records._record import MAX_ACTIONS
    from rummylib.simulation import DEFAULT_MAX_ACTIONS

    assert DEFAULT_MAX_ACTIONS == MAX_ACTIONS
    with pytest.raises(rl.InvalidStateError) as built:
        rl.GameRecord(rl.STRAIGHT, 2, seed=1, actions=_Endless())
    assert built.value.reason is rl.StateReason.TOO_LARGE and str(MAX_ACTIONS) in str(built.value)
    text = format_record(rl.GameRecord(rl.STRAIGHT, 2, seed=1)) + "draw\n" * (3 * MAX_ACTIONS)
    read = 0

    def counting(*args: object) -> rl.Action:
        nonlocal read
        read += 1
        return read_action(*args)  # type: ignore[arg-type]

    monkeypatch.setattr("rummylib.records._text.read_action", counting)
    with pytest.raises(rl.InvalidStateError) as parsed:
        parse_record(text)
    assert parsed.value.reason is rl.StateReason.TOO_LARGE and len(str(parsed.value)) < 100
    assert read == MAX_ACTIONS  # the first action past the cap is refused unread
    doc = json.loads(rl.to_json(rl.GameRecord(rl.STRAIGHT, 2, seed=1)))
    doc["actions"] = ["draw"] * (MAX_ACTIONS + 1)
    with pytest.raises(rl.InvalidStateError) as loaded:
        rl.from_json(json.dumps(doc), rl.GameRecord)
    assert loaded.value.reason is rl.StateReason.TOO_LARGE and len(str(loaded.value)) < 100


@pytest.mark.parametrize("enabled", [True, False])
def test_replay_pauses_the_cycle_collector_and_restores_it_also_on_refusal(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # replay keeps every state alive, so it runs with the collector paused; the caller's
    # setting is what it finds afterwards, whether the record replays or is refused.
    good = rl.GameRecord(rl.STRAIGHT, 2, seed=7, actions=(rl.DrawStock(),))
    bad = rl.GameRecord(rl.STRAIGHT, 2, seed=7, actions=(rl.DrawStock(), rl.DrawStock()))
    during: list[bool] = []

    def spy(state: rl.GameState, action: rl.Action) -> rl.GameState:
        during.append(gc.isenabled())
        return rl.apply(state, action)

    monkeypatch.setattr("rummylib.records._record.apply", spy)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert len(rl.replay(good)) == 2 and gc.isenabled() is enabled
        with pytest.raises(rl.IllegalActionError) as refused:
            rl.replay(bad)
        assert refused.value.index == 1 and gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert during == [False, False, False]


def test_replay_leaves_what_a_caller_froze_frozen() -> None:
    # A server may gc.freeze() its objects before forking; replay's promotion of its own
    # states to the oldest generation must not thaw them.
    record = rl.GameRecord(rl.STRAIGHT, 2, seed=7, actions=(rl.DrawStock(),))
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        rl.replay(record)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    before = gc.get_freeze_count()
    rl.replay(record)
    assert gc.get_freeze_count() == before == 0


def test_plan_go_out_reads_no_more_table_than_a_deck_can_make() -> None:
    # issue 10: a table of a million melds (or an endless iterator) is refused before any of it is validated.
    meld = rl.make_meld(rl.parse_cards("5H 6H 7H"), rl.REMIK)
    hand = rl.parse_cards("9S 10S JS 2D")
    most = len(rl.deck(rl.REMIK)) // 3
    assert rl.plan_go_out(hand, [meld] * 2, rl.REMIK, opened=True) is not None
    for table in ([meld] * 1_000_000, itertools.repeat(meld), [meld] * (most + 1)):
        with pytest.raises(rl.InvalidCardsError) as info:
            rl.plan_go_out(hand, table, rl.REMIK, opened=True)  # type: ignore[arg-type]
        assert info.value.reason is rl.CardsReason.NOT_IN_DECK
        assert len(str(info.value)) <= 500


@pytest.mark.parametrize(
    "make",
    [
        lambda cards: rl.CardMultiset(cards),
        lambda cards: rl.best_partition(cards, rl.REMIK),
        lambda cards: rl.find_melds(cards, rl.REMIK),
        lambda cards: rl.best_opening(cards, rl.REMIK),
    ],
    ids=["CardMultiset", "best_partition", "find_melds", "best_opening"],
)
def test_card_collections_are_bounded(make: Callable[[object], object]) -> None:
    # issue 10: an endless iterator or a million cards is refused after reading one card past the bound
    # (MAX_COPIES of every card), and no multiset holds more copies of a card than from_counts accepts.
    card = rl.parse_card("7H")
    for cards in (itertools.repeat(card), [card] * 1_000_000, [card] * 256, iter([card] * 256)):
        with pytest.raises(rl.InvalidCardsError) as info:
            make(cards)
        assert info.value.reason is rl.CardsReason.BAD_COUNT
        assert len(str(info.value)) <= 500
    assert len(rl.CardMultiset([card] * 255)) == 255
    big = rl.CardMultiset.from_counts([255] * 53)
    with pytest.raises(rl.InvalidCardsError):
        big + rl.CardMultiset([card])
