"""Hostile-input benchmark: checks with many swappable jokers, and large JSON documents (issue 10).

Run ``python benchmarks/hostile.py`` (``--quick`` for fewer repeats). It prints
one Markdown table of median CPU milliseconds (``time.process_time``) over
repeats. The peer of each row is the same call on the same hand with no
table joker the hand can swap (the table's runs hold the card instead), so
the ratio is what the swappable jokers cost.

Rows:

* ``plan_go_out`` opened and unopened, with 9 and 16 swappable jokers
  (house rules: 4 decks, 16 jokers), on a hand that goes out and one with a
  card nothing takes; and the slowest of a fixed set of awkward hands.
* ``plan_go_out`` on the 16 plain runs: the slowest of a fixed set of hands
  that cannot go out (``NO_PLAN``); the peer is a hand that goes out there.
* ``is_legal(TakeDiscard)`` (R-D2, J4) and ``list(legal_actions)`` in the
  draw and play phases of the same set-ups, opened and not.
* ``replay`` of a legal record at the cap (``MAX_ACTIONS``): random legal
  play in which no seat empties its hand (straight, 2 players, so the pile
  is turned over again and again and the stock's order is public); the peer
  is the same actions through plain ``apply`` (no state kept). The label
  gives the replay's peak traced memory.
* ``from_json`` of hostile documents of about 1 MB (a stock of one-item
  arrays, deep nesting, many small objects, long strings): the time to refuse.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

import attrs

import rummylib as rl
from rummylib.engine import _cache as engine_cache
from rummylib.records._record import MAX_ACTIONS

RULES = attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, hand_sizes=dict.fromkeys(range(2, 7), 16))
AWKWARD = ("9D KD 5C 5S 2S 8S", "8S 10D 9H 9D AH KC", "2C AS AC 6D 9H 3H", "6H 9S", "9D 7C KC")
#: Hands that cannot go out on the 16 plain runs (with the runs' middle cards): the lay-offs
#: form a chain (each middle card fits the run below or above it), which the search once
#: tried in every matching (0.4 to 1.8 s each before the ends of a run were marked apart).
NO_PLAN = ("8S 10D 9H 9D QC QC AH", "9H JH KD 9C 8H 9C 2S", "9S KC 8C 10D 10S JD 9C 9S", "JS 2D 3D 10D QH JH KC")
_clock = time.process_time


def _median_ms(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = _clock()
        run()
        times.append(_clock() - start)
    return 1000 * statistics.median(times)


def _table(k: int, *, jokers: bool = True) -> tuple[list[rl.Meld], list[rl.Card]]:
    """``k`` runs with a joker standing for a card the hand holds (or, for the peer, the card itself)."""
    melds: list[rl.Meld] = []
    hand: list[rl.Card] = []
    for suit, start in [(s, v) for v in (3, 5, 7, 9) for s in "SHDC"][:k]:
        low, mid, high = (f"{'J' if v == 11 else v}{suit}" for v in (start, start + 1, start + 2))
        melds.append(rl.parse_meld(f"{low} {'JK=' if jokers else ''}{mid} {high}", RULES))
        hand.append(rl.parse_cards(mid)[0])
    return melds, hand


def _plan_rows(k: int, repeats: int) -> list[tuple[str, float, float]]:
    rows = []
    melds, hand = _table(k)
    peer, _ = _table(k, jokers=False)
    cases = [("goes out", "KS 7D"), ("a card nothing takes", "AC AC")]
    for opened in (True, False):
        for label, extra in cases:
            cards = [*hand, *rl.parse_cards(extra)]
            mine = _median_ms(partial(rl.plan_go_out, cards, melds, RULES, opened=opened), repeats)
            other = _median_ms(partial(rl.plan_go_out, cards, peer, RULES, opened=opened), repeats)
            rows.append((f"plan_go_out, {k} jokers, {'opened' if opened else 'unopened'}, {label}", mine, other))
        worst = max(
            (
                _median_ms(partial(rl.plan_go_out, [*hand, *rl.parse_cards(e)], melds, RULES, opened=opened), repeats),
                e,
            )
            for e in AWKWARD
        )
        cards = [*hand, *rl.parse_cards(worst[1])]
        other = _median_ms(partial(rl.plan_go_out, cards, peer, RULES, opened=opened), repeats)
        rows.append(
            (
                f"plan_go_out, {k} jokers, {'opened' if opened else 'unopened'}, worst awkward ({worst[1]})",
                worst[0],
                other,
            )
        )
    if k == 16:
        for opened in (True, False):
            plan = partial(rl.plan_go_out, rules=RULES, opened=opened)
            worst = max((_median_ms(partial(plan, [*hand, *rl.parse_cards(e)], peer), repeats), e) for e in NO_PLAN)
            other = _median_ms(partial(plan, [*hand, *rl.parse_cards("KS 7D")], peer), repeats)
            who = "opened" if opened else "unopened"
            rows.append((f"plan_go_out, 16 plain runs, {who}, worst no-plan hand ({worst[1]})", worst[0], other))
    return rows


def _state(k: int, top: str, opened: bool, phase: rl.Phase, *, jokers: bool = True, extra: str = "") -> rl.GameState:
    melds, hand = _table(k, jokers=jokers)
    table = [rl.TableMeld(m, 1) for m in melds]
    if opened:  # seat 0 laid its opening (R-O1): a full group, which takes nothing from the hand
        table.append(rl.TableMeld(rl.parse_meld("KS KH KD KC", RULES), 0))
    return rl.start_round_from(
        RULES,
        [[*hand, *(rl.parse_cards(extra) if extra else [])], rl.parse_cards("2C 9D 4H")],
        discard=rl.parse_cards(top),
        table=table,
        opened=[opened, True],
        to_act=0,
        phase=phase,
    )


def _listing(state: rl.GameState) -> list[rl.Action]:
    return list(rl.legal_actions(state))


def _cold(run: Callable[[], object]) -> Callable[[], object]:
    """``run`` after the engine's per-hand caches are emptied (a listing's first time)."""

    def go() -> object:
        engine_cache.clear()
        return run()

    return go


def _engine_rows(k: int, repeats: int) -> list[tuple[str, float, float]]:
    rows = []
    for opened in (True, False):
        who = "opened" if opened else "unopened"
        for top in ("AC", "KC"):
            s, p = (_state(k, top, opened, rl.Phase.DRAW, jokers=j) for j in (True, False))
            mine = _median_ms(_cold(partial(rl.is_legal, s, rl.TakeDiscard())), repeats)
            other = _median_ms(_cold(partial(rl.is_legal, p, rl.TakeDiscard())), repeats)
            rows.append((f"is_legal(TakeDiscard {top}), {k} jokers, {who}", mine, other))
            mine = _median_ms(_cold(partial(_listing, s)), repeats)
            other = _median_ms(_cold(partial(_listing, p)), repeats)
            rows.append((f"legal_actions, draw phase, top {top}, {k} jokers, {who}", mine, other))
        for extra in ("7D", "AC"):
            s, p = (_state(k, "AC", opened, rl.Phase.PLAY, jokers=j, extra=extra) for j in (True, False))
            mine = _median_ms(_cold(partial(_listing, s)), repeats)
            other = _median_ms(_cold(partial(_listing, p)), repeats)
            rows.append((f"legal_actions, play phase, + {extra}, {k} jokers, {who}", mine, other))
    return rows


def _endless_record(rules: rl.Ruleset, players: int, seed: int) -> rl.GameRecord:
    """A legal record of ``MAX_ACTIONS`` actions: random play in which no seat goes out or lays below 3 cards."""
    rng = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed)
    actions: list[rl.Action] = []
    while len(actions) < MAX_ACTIONS and not state.is_over:
        legal = list(rl.legal_actions(state))
        rng.shuffle(legal)
        seat = state.to_act
        for action in legal:
            after = rl.apply(state, action)
            hand = len(after.round.hands[seat])
            keeps = hand >= 3 or (hand and isinstance(action, (rl.Discard, rl.DrawStock, rl.TakeDiscard)))
            if after.round_number == state.round_number and keeps:
                break
        else:
            action = legal[0]
            after = rl.apply(state, action)
        state = after
        actions.append(action)
    return rl.GameRecord(rules, players, seed=seed, actions=actions)


def _replay_rows(repeats: int) -> list[tuple[str, float, float]]:
    record = _endless_record(rl.STRAIGHT, 2, 1)

    def plain() -> None:
        state = record.start()
        for action in record.actions:
            state = rl.apply(state, action)

    gc.collect()
    tracemalloc.start()
    rl.replay(record)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    mine: list[float] = []
    other: list[float] = []
    for _ in range(repeats):  # alternated, so both see the same load on a shared machine
        mine.append(_median_ms(partial(rl.replay, record), 1))
        other.append(_median_ms(plain, 1))
    label = f"replay, legal record of {len(record.actions)} actions (straight 2p, peak {peak:.0f} MB)"
    return [(label, statistics.median(mine), statistics.median(other))]


def _documents() -> list[tuple[str, str]]:
    doc = rl.to_dict(rl.new_game(rl.REMIK, 2, seed=1))
    out = []
    big = json.loads(json.dumps(doc))
    big["round"]["stock"] = [["AS"]] * 49_000
    out.append(("stock of 49 000 one-item arrays", json.dumps(big)))
    big = json.loads(json.dumps(doc))
    big["round"]["stock"] = ["AS"] * 180_000
    out.append(("stock of 180 000 cards", json.dumps(big)))
    big = json.loads(json.dumps(doc))
    big["round"]["table"] = [{"owner": 0, "meld": {"kind": "run", "slots": ["AS"]}}] * 20_000
    out.append(("table of 20 000 melds", json.dumps(big)))
    big = json.loads(json.dumps(doc))
    big["results"] = [{"winner": 0}] * 60_000
    out.append(("60 000 results", json.dumps(big)))
    big = json.loads(json.dumps(doc))
    big["names"] = ["x" * 4000] * 250
    out.append(("250 names of 4000 characters", json.dumps(big)))
    out.append(("1 MB of nesting", "[" * 500_000 + "]" * 500_000))
    out.append(("500 000 numbers and one array", "[" + "0," * 500_000 + "[]]"))
    out.append(("49 000 one-item arrays of arrays", json.dumps([[[0]]] * 24_000)))
    out.append(("5 000 objects of 20 keys", json.dumps([{f"k{i}": 0 for i in range(20)}] * 5_000)))
    out.append(("a 1 MB string", json.dumps("x" * 1_000_000)))
    big = json.loads(json.dumps(doc))
    big["round"]["hands"] = [["AS"] * 100] * 1_600
    out.append(("1 600 hands of 100 cards", json.dumps(big)))
    out.append(("one object with 80 000 keys", json.dumps({f"k{i}": 0 for i in range(80_000)})))
    return out


def _json_rows(repeats: int) -> list[tuple[str, float, float]]:
    rows = []
    small = rl.to_json(rl.new_game(rl.REMIK, 2, seed=1))

    def load(text: str) -> None:
        with contextlib.suppress(rl.RummyError):
            rl.from_json(text)

    peer = _median_ms(partial(load, small), repeats)
    for label, text in _documents():
        rows.append((f"from_json, {label} ({len(text) / 1e6:.2f} MB)", _median_ms(partial(load, text), repeats), peer))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--only", choices=("plan", "engine", "replay", "json"), help="one group of rows")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    rows = []
    for k in (9, 16):
        if args.only in (None, "plan"):
            rows += _plan_rows(k, repeats)
        if args.only in (None, "engine"):
            rows += _engine_rows(k, repeats)
    if args.only in (None, "replay"):
        rows += _replay_rows(repeats)
    if args.only in (None, "json"):
        rows += _json_rows(repeats)
    print("| what | median ms | peer ms | ratio |")
    print("|---|---:|---:|---:|")
    for label, mine, other in rows:
        ratio = mine / other if other else float("inf")
        print(f"| {label} | {mine:.1f} | {other:.1f} | {ratio:.1f} |")
    print("\npeer: plan_go_out/legality rows, the same hand with the table's jokers replaced by their cards;")
    print("replay row, the same actions through plain apply; from_json rows, a real saved state.")


if __name__ == "__main__":
    main()
