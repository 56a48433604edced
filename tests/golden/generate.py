"""Generate the golden game corpus: seeded random play, recorded with expected results.

Each game is played by a seeded :class:`random.Random` choosing among
:func:`rummylib.legal_actions` (with a bias toward laying cards, so games
progress), under rulesets with ``restock_limit`` set so every round ends.
The records go to ``tests/golden/games/`` and their final totals to
``tests/golden/golden.json``; ``tests/test_records_golden.py`` replays them.

Run from the repository root::

    .venv/bin/python tests/golden/generate.py          # write the corpus
    .venv/bin/python tests/golden/generate.py --search # report features per seed

Regenerate only when the rules change on purpose: the corpus pins the
engine's behaviour (like perft counts in chess).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

import attrs

import rummylib as rl
from rummylib.records import GameRecord, replay, save_record

HERE = Path(__file__).resolve().parent
GAMES = HERE / "games"
MANIFEST = HERE / "golden.json"
DOCUMENTS = HERE / "documents"
#: The state stored in ``documents/state.json``: after this many actions of remik-2p-seed0.
STATE_INDEX = 164
#: Most actions one generated game may take (a guard; real games end long before).
MAX_ACTIONS = 6000
#: Most legal actions looked at per choice (the listing is lazy and can be large).
MAX_CHOICES = 300

VARIANTS: dict[str, rl.Ruleset] = {
    "remik": attrs.evolve(rl.REMIK, restock_limit=2, max_rounds=3),
    "remik-six-jokers": attrs.evolve(
        rl.REMIK, jokers=6, joker_penalty=50, score_limit=300, restock_limit=1, max_rounds=3
    ),
    "remik-low-opening": attrs.evolve(rl.REMIK, opening_points=30, restock_limit=2, max_rounds=3),
    "remik-no-restock": attrs.evolve(rl.REMIK, restock_limit=0, max_rounds=2, tie_rule=rl.TieRule.PLAY_ON),
    "straight": attrs.evolve(rl.STRAIGHT, restock_limit=2, max_rounds=4),
    "straight-any-melds": attrs.evolve(
        rl.STRAIGHT, melds_per_turn=None, must_discard_to_go_out=True, restock_limit=1, max_rounds=4
    ),
    "straight-seven-cards": attrs.evolve(
        rl.STRAIGHT, melds_per_turn=None, hand_sizes={2: 7, 3: 7, 4: 7, 5: 6, 6: 6}, restock_limit=2, max_rounds=4
    ),
    "straight-no-restock": attrs.evolve(rl.STRAIGHT, restock_limit=0, discard_taken_card=True, max_rounds=3),
}


def choose(state: rl.engine.GameState, rng: random.Random) -> rl.actions.Action:
    """A seeded, slightly greedy random legal action."""
    if state.phase is rl.engine.Phase.ROUND_OVER:
        return rl.NextRound()
    actions = list(itertools.islice(rl.legal_actions(state), MAX_CHOICES))
    if state.phase is rl.engine.Phase.DRAW:
        takes = [a for a in actions if isinstance(a, rl.TakeDiscard)]
        return takes[0] if takes and rng.random() < 0.5 else actions[0]
    swaps = [a for a in actions if isinstance(a, rl.SwapJoker)]
    plays = [a for a in actions if not isinstance(a, rl.Discard)]
    discards = [a for a in actions if isinstance(a, rl.Discard)]
    if swaps and rng.random() < 0.7:
        return rng.choice(swaps)
    if plays and (not discards or rng.random() < 0.85):
        return rng.choice(plays)
    return rng.choice(discards)


def hoard(state: rl.engine.GameState, rng: random.Random) -> list[rl.actions.Action] | None:
    """Seat 0's plan when it hoards: lay nothing until it can go out in one turn (R-E2, E4)."""
    r = state.round
    if r.to_act != 0 or r.has_laid[0] or r.turn.laid:
        return None
    if state.phase is rl.engine.Phase.DRAW:
        return [rl.TakeDiscard() if rl.is_legal(state, rl.TakeDiscard()) else rl.DrawStock()]
    if state.phase is not rl.engine.Phase.PLAY:
        return None
    plan = rl.plan_go_out(r.hands[0], [tm.meld for tm in r.table], state.rules, opened=r.opened[0])
    if plan:
        return plan
    discards = [a for a in itertools.islice(rl.legal_actions(state), MAX_CHOICES) if isinstance(a, rl.Discard)]
    return [rng.choice(discards)] if discards else None


def play(rules: rl.Ruleset, players: int, seed: int, hoarder: bool = False) -> GameRecord:
    """One game of seeded random play, as a record (seat 0 hoards if ``hoarder``)."""
    rng = random.Random(f"golden/{rules.name}/{players}/{seed}/{hoarder}")
    names = tuple(f"P{i}" for i in range(players))
    state = rl.new_game(rules, names, seed=seed, dealer=seed % players)
    actions: list[rl.actions.Action] = []
    plan: list[rl.actions.Action] = []
    while not state.is_over:
        if len(actions) >= MAX_ACTIONS:
            msg = f"game {rules.name}/{players}/{seed} did not end in {MAX_ACTIONS} actions"
            raise RuntimeError(msg)
        if not plan and hoarder:
            plan = hoard(state, rng) or []
        action = plan.pop(0) if plan else choose(state, rng)
        try:
            state = rl.apply(state, action)
        except rl.IllegalActionError:
            plan = []
            action = choose(state, rng)
            state = rl.apply(state, action)
        actions.append(action)
    return GameRecord(rules, names, seed, seed % players, actions)


def features(record: GameRecord) -> set[str]:
    """What a game exercises, found by replaying it (never trusted from the manifest)."""
    found: set[str] = set()
    states = replay(record)
    for before, action, after in zip(states, record.actions, states[1:]):
        if isinstance(action, rl.SwapJoker):
            found.add("joker_swap")
        if isinstance(action, rl.TakeDiscard):
            found.add("take_discard")
        if after.round.restocks > before.round.restocks and before.round_number == after.round_number:
            kind = record.rules.restock_rule.value
            found.add("reshuffle" if kind == "reshuffle_keep_top" else "turn_over")
    for result in states[-1].results:
        found.add("void_round" if result.winner is None else "went_out")
        if result.rummy:
            found.add("one_turn_go_out")
    return found


def summary(record: GameRecord) -> dict[str, Any]:
    final = replay(record)[-1]
    return {
        "totals": list(final.totals),
        "rounds": len(final.results),
        "winners": list(final.standings.winners),
        "actions": len(record.actions),
    }


#: (variant, players, seed, seat 0 hoards, file format), chosen with --search to cover every feature.
CORPUS: list[tuple[str, int, int, bool, str]] = [
    ("remik", 2, 0, False, "txt"),
    ("remik", 3, 1, True, "txt"),
    ("remik", 4, 2, True, "json"),
    ("remik-six-jokers", 2, 3, True, "txt"),
    ("remik-six-jokers", 4, 2, False, "json"),
    ("remik-low-opening", 3, 1, True, "txt"),
    ("remik-no-restock", 2, 3, False, "txt"),
    ("remik-no-restock", 3, 1, True, "txt"),
    ("straight", 2, 0, False, "txt"),
    ("straight", 3, 1, True, "json"),
    ("straight-any-melds", 2, 0, True, "txt"),
    ("straight-seven-cards", 6, 14, True, "txt"),
    ("straight-seven-cards", 4, 9, True, "json"),
    ("straight-no-restock", 3, 1, False, "txt"),
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, default=0, help="report features of this many seeds per variant")
    parser.add_argument("--hoarder", action="store_true", help="with --search: seat 0 hoards")
    args = parser.parse_args(argv)
    if args.search:
        for name, rules in VARIANTS.items():
            for seed in range(args.search):
                players = 2 + seed % 3
                record = play(rules, players, seed, args.hoarder)
                print(name, players, seed, len(record.actions), sorted(features(record)), flush=True)
        return 0
    GAMES.mkdir(exist_ok=True)
    manifest: list[dict[str, Any]] = []
    for name, players, seed, hoarder, fmt in CORPUS:
        record = play(VARIANTS[name], players, seed, hoarder)
        file = f"{name}-{players}p-seed{seed}{'-hoarder' if hoarder else ''}.{fmt}"
        save_record(record, GAMES / file)
        manifest.append({"file": file, "variant": name, **summary(record), "features": sorted(features(record))})
        print(file, manifest[-1]["totals"], manifest[-1]["features"], flush=True)
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    write_documents()
    return 0


def write_documents() -> None:
    """One stored document of each kind, from the first golden game; they must keep loading."""
    from rummylib.records import load_record, to_json

    DOCUMENTS.mkdir(exist_ok=True)
    record = load_record(GAMES / "remik-2p-seed0.txt")
    states = replay(record)
    state = states[STATE_INDEX]
    opening = next(a for a in record.actions if isinstance(a, rl.Open))
    values: dict[str, Any] = {
        "ruleset-remik": rl.REMIK,
        "ruleset-straight": rl.STRAIGHT,
        "meld": opening.melds[0],
        "action-open": opening,
        "action-lay-off": rl.LayOff(2, rl.JOKER, rl.End.HIGH),
        "cards": state.round.hands[0],
        "state": state,
        "view": rl.view(state, 1),
        "record": attrs.evolve(record, actions=record.actions[:STATE_INDEX]),
    }
    for name, value in values.items():
        (DOCUMENTS / f"{name}.json").write_text(to_json(value, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
