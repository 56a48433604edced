"""JSON bodies of game states, with full re-validation on reading.

A state read from a document is checked as a whole before it is built: the
ruleset, the seats, every card of the deck exactly once across hands, stock,
pile and table (R-C3), every table meld under the ruleset with its joker
declarations, hand sizes and the turn consistent with the phase, the round
results consistent with the totals (the invariants of
docs/explanation/saved-states.rst, in :mod:`rummylib.engine._invariants`). Anything wrong raises
:class:`~rummylib.InvalidStateError` naming the path of the bad field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState, Phase, RoundState, TableMeld, TurnState
from rummylib.engine._deal import check_names
from rummylib.engine._invariants import MAX_ROUNDS, MAX_TOTAL, RoundFacts, check_cards, check_facts, field_paths
from rummylib.engine._rng import MAX_SEED_DIGITS, validate_seed
from rummylib.engine._state import FRESH_TURN
from rummylib.errors import ArgumentError, RulesetError, StateReason
from rummylib.records._doc import (
    Obj,
    as_bool,
    as_card,
    as_int,
    as_list,
    as_str,
    card_list,
    fail,
    items,
    join,
)
from rummylib.records._known import check_in_hands, check_stock, knowledge_to_json, read_knowledge
from rummylib.records._values import enum_value, meld_from_json, meld_to_json, ruleset_from_json, ruleset_to_json
from rummylib.rules import MAX_PLAYERS, Ruleset
from rummylib.scoring import RoundResult

__all__ = ["MAX_ROUNDS", "MAX_SEED_DIGITS", "MAX_TOTAL"]

#: Longest per-seat array read (a guard; the ruleset's seat count is checked after).
_MAX_SEATS: Final = MAX_PLAYERS
_FRESH: Final = FRESH_TURN


# --- writing --------------------------------------------------------------------------------


def seed_to_json(seed: int | str) -> dict[str, str]:
    return {"type": "str", "value": seed} if isinstance(seed, str) else {"type": "int", "value": str(seed)}


def turn_to_json(turn: TurnState) -> dict[str, Any]:
    def card(c: Card | None) -> str | None:
        return None if c is None else str(c)

    return {
        "drawn": card(turn.drawn),
        "taken": card(turn.taken),
        "must_meld": card(turn.must_meld),
        "must_go_out": turn.must_go_out,
        "freed_jokers": turn.freed_jokers,
        "melds_laid": turn.melds_laid,
        "laid": turn.laid,
        "opening_points": turn.opening_points,
        "opening_clean": turn.opening_clean,
    }


def table_to_json(table: Sequence[TableMeld]) -> list[dict[str, Any]]:
    return [{"meld": meld_to_json(tm.meld), "owner": tm.owner} for tm in table]


def result_to_json(result: RoundResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "penalties": list(result.penalties),
        "scores": list(result.scores),
        "rummy": result.rummy,
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state, hidden information included (a server's copy)."""
    r = state.round
    return {
        "rules": ruleset_to_json(state.rules),
        "players": list(state.players),
        "seed": seed_to_json(state.seed),
        "dealer": state.dealer,
        "round_number": state.round_number,
        "totals": list(state.totals),
        "results": [result_to_json(x) for x in state.results],
        "round": {
            "hands": [card_list(h) for h in r.hands],
            "stock": card_list(r.stock),
            "discard": card_list(r.discard),
            "table": table_to_json(r.table),
            "opened": list(r.opened),
            "has_laid": list(r.has_laid),
            "to_act": r.to_act,
            "phase": r.phase.value,
            "turn": turn_to_json(r.turn),
            "restocks": r.restocks,
            **knowledge_to_json(r.known_cards, r.known_stock, r.restocked),
        },
    }


# --- reading: the parts ---------------------------------------------------------------------


def read_players(obj: Obj, rules: Ruleset) -> tuple[str, ...]:
    names = tuple(items(obj.get("players"), obj.at("players"), as_str, _MAX_SEATS))
    if not rules.min_players <= len(names) <= rules.max_players:
        detail = f"{len(names)} players; the {rules.name} rules seat {rules.min_players} to {rules.max_players}"
        fail(StateReason.INCONSISTENT, obj.at("players"), detail)
    try:
        return check_names(rules, names)  # what new_game refuses (R-P1)
    except (ArgumentError, RulesetError) as exc:
        fail(StateReason.BAD_VALUE, obj.at("players"), str(exc))


def read_seed(obj: Obj) -> int | str:
    seed = obj.child("seed", "a seed")
    kind = seed.text("type")
    value = seed.text("value")
    seed.done()
    if kind == "str":
        try:
            return validate_seed(value)  # what new_game refuses
        except RulesetError as exc:
            fail(StateReason.BAD_VALUE, seed.at("value"), str(exc))
    if kind != "int":
        fail(StateReason.BAD_VALUE, seed.at("type"), f"{kind!r} is not 'int' or 'str'")
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_SEED_DIGITS:
        fail(StateReason.BAD_VALUE, seed.at("value"), f"an int seed is up to {MAX_SEED_DIGITS} decimal digits")
    return int(value)


def read_seat(value: object, path: str, n: int) -> int:
    return as_int(value, path, 0, n - 1)


def _opt_seat(value: object, path: str, n: int) -> int | None:
    return None if value is None else read_seat(value, path, n)


def deck_size(rules: Ruleset) -> int:
    return 52 * rules.decks + rules.jokers


def read_ints(value: object, path: str, n: int, high: int = MAX_TOTAL) -> tuple[int, ...]:
    values = tuple(items(value, path, lambda v, p: as_int(v, p, 0, high), _MAX_SEATS))
    if len(values) != n:
        fail(StateReason.INCONSISTENT, path, f"needs one value per seat ({n}), found {len(values)}")
    return values


def read_bools(value: object, path: str, n: int) -> tuple[bool, ...]:
    values = tuple(items(value, path, as_bool, _MAX_SEATS))
    if len(values) != n:
        fail(StateReason.INCONSISTENT, path, f"needs one flag per seat ({n}), found {len(values)}")
    return values


def read_result(value: object, path: str, n: int) -> RoundResult:
    obj = Obj(value, path, "a round result")
    winner = _opt_seat(obj.get("winner"), obj.at("winner"), n)
    penalties = read_ints(obj.get("penalties"), obj.at("penalties"), n)
    scores = read_ints(obj.get("scores"), obj.at("scores"), n)
    rummy = obj.flag("rummy")
    obj.done()
    return RoundResult(winner, penalties, scores, rummy)  # its scores are checked with the state (check_result)


def _opt_card(value: object, path: str) -> Card | None:
    return None if value is None else as_card(value, path)


def read_turn(value: object, path: str, rules: Ruleset) -> TurnState:
    obj = Obj(value, path, "a turn")
    turn = TurnState(
        drawn=_opt_card(obj.get("drawn"), obj.at("drawn")),
        taken=_opt_card(obj.get("taken"), obj.at("taken")),
        must_meld=_opt_card(obj.get("must_meld"), obj.at("must_meld")),
        must_go_out=obj.flag("must_go_out"),
        freed_jokers=obj.integer("freed_jokers", 0, rules.jokers),
        melds_laid=obj.integer("melds_laid", 0, 52 * rules.decks + rules.jokers),
        laid=obj.flag("laid"),
        # the opening in progress (R-O4); documents written before it lack the fields
        opening_points=obj.integer("opening_points", 0, 11 * deck_size(rules)) if obj.has("opening_points") else 0,
        opening_clean=obj.flag("opening_clean") if obj.has("opening_clean") else False,
    )
    obj.done()
    return turn


def read_table(value: object, path: str, rules: Ruleset, n: int) -> tuple[TableMeld, ...]:
    table: list[TableMeld] = []
    raw = as_list(value, path)
    if len(raw) > deck_size(rules) // 3:
        fail(StateReason.TOO_LARGE, path, f"holds {len(raw)} melds; the deck makes at most {deck_size(rules) // 3}")
    for i, item in enumerate(raw):
        obj = Obj(item, join(path, i), "a table meld")
        meld = meld_from_json(obj.get("meld"), obj.at("meld"), rules)
        owner = _opt_seat(obj.get("owner"), obj.at("owner"), n)
        obj.done()
        table.append(TableMeld(meld, owner))
    return tuple(table)


def read_phase(obj: Obj) -> Phase:
    phase: Phase = enum_value(Phase, obj.get("phase"), obj.at("phase"))
    return phase


# --- reading: states and views --------------------------------------------------------------


def read_common(obj: Obj) -> tuple[Ruleset, tuple[str, ...], int, int, tuple[int, ...], tuple[RoundResult, ...]]:
    rules = ruleset_from_json(obj.get("rules"), obj.at("rules"))
    players = read_players(obj, rules)
    n = len(players)
    dealer = read_seat(obj.get("dealer"), obj.at("dealer"), n)
    round_number = obj.integer("round_number", 1, MAX_ROUNDS + 1)
    totals = read_ints(obj.get("totals"), obj.at("totals"), n)
    results = tuple(items(obj.get("results"), obj.at("results"), lambda v, p: read_result(v, p, n), MAX_ROUNDS))
    return rules, players, dealer, round_number, totals, results


def state_from_json(data: object, path: str) -> GameState:
    """Read and fully re-validate a state body."""
    obj = Obj(data, path, "a game state")
    rules, players, dealer, round_number, totals, results = read_common(obj)
    n = len(players)
    seed = read_seed(obj)
    rnd = obj.child("round", "a round")
    hands_path = rnd.at("hands")
    size = deck_size(rules)
    raw_hands = tuple(items(rnd.get("hands"), hands_path, lambda v, p: tuple(items(v, p, as_card, size)), _MAX_SEATS))
    if len(raw_hands) != n:
        fail(StateReason.INCONSISTENT, hands_path, f"needs one hand per seat ({n}), found {len(raw_hands)}")
    stock = tuple(items(rnd.get("stock"), rnd.at("stock"), as_card, size))
    discard = tuple(items(rnd.get("discard"), rnd.at("discard"), as_card, size))
    opened = read_bools(rnd.get("opened"), rnd.at("opened"), n)
    has_laid = read_bools(rnd.get("has_laid"), rnd.at("has_laid"), n)
    table = read_table(rnd.get("table"), rnd.at("table"), rules, n)
    to_act = read_seat(rnd.get("to_act"), rnd.at("to_act"), n)
    phase = read_phase(rnd)
    turn = read_turn(rnd.get("turn"), rnd.at("turn"), rules)
    restocks = rnd.integer("restocks", 0, MAX_ROUNDS)
    known = read_knowledge(rnd, rules, n, restocks)
    rnd.done()
    obj.done()
    places = [(join(hands_path, i), h) for i, h in enumerate(raw_hands)]
    places += [(rnd.at("stock"), stock), (rnd.at("discard"), discard)]
    places += [(join(rnd.at("table"), i) + ".meld.slots", tm.meld.cards) for i, tm in enumerate(table)]
    check_cards(rules, places, rnd.path, None)
    hands = tuple(CardMultiset(h) for h in raw_hands)
    facts = RoundFacts(
        rules, n, dealer, round_number, totals, results, tuple(len(h) for h in hands), hands, len(stock),
        to_act, phase, turn, restocks, discard, table, opened, has_laid, field_paths(obj.at, rnd.at, hands_path),
    )  # fmt: skip
    check_facts(facts)
    check_in_hands(known, hands, facts.sizes, rnd.at("known_cards"))
    check_stock(known, stock, len(stock), rnd.path)
    round_state = RoundState(
        hands=hands,
        stock=stock,
        discard=discard,
        table=table,
        opened=opened,
        has_laid=has_laid,
        to_act=to_act,
        phase=phase,
        turn=_FRESH if turn == _FRESH else turn,
        restocks=restocks,
        known_cards=known.known_cards,
        known_stock=known.known_stock,
        restocked=known.restocked,
    )
    return GameState(
        rules=rules,
        players=players,
        seed=seed,
        dealer=dealer,
        round_number=round_number,
        totals=totals,
        round=round_state,
        results=results,
    )
