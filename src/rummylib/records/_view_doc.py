"""JSON bodies of player views, re-validated on reading as far as a view can show.

A view holds one seat's hand and the sizes of the others; every invariant of
docs/explanation/saved-states.rst that these show is checked (the hidden
hands and the stock are counted, not seen).
"""

from __future__ import annotations

from typing import Any

from rummylib.cards import Card, CardMultiset
from rummylib.engine import Phase, PlayerView, TableMeld, TurnState
from rummylib.engine._invariants import MAX_ROUNDS, RoundFacts, check_cards, check_facts, field_paths
from rummylib.errors import StateReason
from rummylib.records._doc import Obj, as_card, card_list, fail, items, join
from rummylib.records._known import Knowledge, check_in_hands, check_stock, knowledge_to_json, read_knowledge
from rummylib.records._state import (
    deck_size,
    read_bools,
    read_common,
    read_ints,
    read_phase,
    read_seat,
    read_table,
    read_turn,
    result_to_json,
    table_to_json,
    turn_to_json,
)
from rummylib.records._values import ruleset_to_json
from rummylib.rules import Ruleset
from rummylib.scoring import Standings, standings

__all__: list[str] = []


def view_to_json(v: PlayerView) -> dict[str, Any]:
    """One seat's view: nothing that seat may not know (R-H1)."""
    return {
        "seat": v.seat,
        "rules": ruleset_to_json(v.rules),
        "players": list(v.players),
        "dealer": v.dealer,
        "round_number": v.round_number,
        "totals": list(v.totals),
        "results": [result_to_json(x) for x in v.results],
        "standings": {
            "rounds": v.standings.rounds,
            "is_over": v.standings.is_over,
            "winners": list(v.standings.winners),
        },
        "hand": card_list(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "stock_size": v.stock_size,
        "discard": card_list(v.discard),
        "table": table_to_json(v.table),
        "opened": list(v.opened),
        "to_act": v.to_act,
        "phase": v.phase.value,
        "turn": None if v.turn is None else turn_to_json(v.turn),
        "restocks": v.restocks,
        "opening_points": v.opening_points,
        "opening_clean": v.opening_clean,
        "has_laid": list(v.has_laid),
        **knowledge_to_json(v.known_cards, v.known_stock, v.restocked),
    }


def view_from_json(data: object, path: str) -> PlayerView:
    """Read and re-validate a view body (everything a view can show is checked)."""
    obj = Obj(data, path, "a player view")
    rules, players, dealer, round_number, totals, results = read_common(obj)
    n = len(players)
    seat = read_seat(obj.get("seat"), obj.at("seat"), n)
    shown = _read_standings(obj, n)
    size = deck_size(rules)
    hand_cards = tuple(items(obj.get("hand"), obj.at("hand"), as_card, size))
    sizes = read_ints(obj.get("hand_sizes"), obj.at("hand_sizes"), n, 52 * rules.decks + rules.jokers)
    stock_size = obj.integer("stock_size", 0, 52 * rules.decks + rules.jokers)
    discard = tuple(items(obj.get("discard"), obj.at("discard"), as_card, size))
    opened = read_bools(obj.get("opened"), obj.at("opened"), n)
    table = read_table(obj.get("table"), obj.at("table"), rules, n)
    to_act = read_seat(obj.get("to_act"), obj.at("to_act"), n)
    phase = read_phase(obj)
    raw_turn = obj.get("turn")
    turn = None if raw_turn is None else read_turn(raw_turn, obj.at("turn"), rules)
    restocks = obj.integer("restocks", 0, MAX_ROUNDS)
    opening_points, opening_clean, has_laid = _read_opening(obj, size, opened, rules.opening_required)
    known = read_knowledge(obj, rules, n, restocks)
    obj.done()
    _check_turn_shown(obj, seat, sizes, len(hand_cards), to_act == seat and phase in (Phase.DRAW, Phase.PLAY), turn)
    _check_cards_shown(obj, rules, seat, (hand_cards, discard, table), known, sum(sizes) - sizes[seat] + stock_size)
    hand = CardMultiset(hand_cards)
    hands = tuple(hand if i == seat else None for i in range(n))
    check_facts(RoundFacts(
        rules, n, dealer, round_number, totals, results, sizes, hands, stock_size,
        to_act, phase, turn, restocks, discard, table, opened, has_laid,
        field_paths(obj.at, obj.at, obj.at("hand_sizes")),
    ))  # fmt: skip
    _check_opening_shown(obj, (opening_points, opening_clean), turn, phase)
    check_in_hands(known, hands, sizes, obj.at("known_cards"))
    check_stock(known, None, stock_size, obj.path)
    table_standings = _standings_shown(obj, shown, totals, len(results), rules)
    return PlayerView(
        seat=seat,
        rules=rules,
        players=players,
        dealer=dealer,
        round_number=round_number,
        hand=hand,
        hand_sizes=sizes,
        table=table,
        discard=discard,
        stock_size=stock_size,
        opened=opened,
        to_act=to_act,
        phase=phase,
        turn=turn,
        restocks=restocks,
        totals=totals,
        results=results,
        standings=table_standings,
        opening_points=opening_points,
        opening_clean=opening_clean,
        has_laid=has_laid,
        known_cards=known.known_cards,
        known_stock=known.known_stock,
        restocked=known.restocked,
    )


def _check_cards_shown(
    obj: Obj,
    rules: Ruleset,
    seat: int,
    shown: tuple[tuple[Card, ...], tuple[Card, ...], tuple[TableMeld, ...]],
    known: Knowledge,
    unseen: int,
) -> None:
    """The cards a view shows (hand, discard pile, table) and knows of others and the stock, and the ``unseen``
    rest: together the deck (R-C3)."""
    hand_cards, discard, table = shown
    places = [(obj.at("hand"), hand_cards), (obj.at("discard"), discard)]
    places += [(join(obj.at("table"), i) + ".meld.slots", tm.meld.cards) for i, tm in enumerate(table)]
    others = [(join(obj.at("known_cards"), i), tuple(k)) for i, k in enumerate(known.known_cards) if i != seat]
    places += [*others, (obj.at("known_stock"), known.known_stock)]
    hidden = unseen - sum(len(k) for _, k in others) - len(known.known_stock)
    check_cards(rules, places, obj.path, hidden)


def _standings_shown(
    obj: Obj, shown: tuple[int, bool, tuple[int, ...]], totals: tuple[int, ...], rounds: int, rules: Ruleset
) -> Standings:
    """The standings that follow from the totals, which must be the ones shown (R-S3, S4)."""
    table_standings = standings(totals, rounds, rules)
    if (table_standings.rounds, table_standings.is_over, table_standings.winners) != shown:
        fail(StateReason.INCONSISTENT, obj.at("standings"), "the standings do not follow from the totals")
    return table_standings


def _read_standings(obj: Obj, n: int) -> tuple[int, bool, tuple[int, ...]]:
    """The standings a view shows: rounds, whether the game is over, the winners (checked against the totals)."""
    raw = obj.child("standings", "standings")
    shown = (raw.integer("rounds", 0, MAX_ROUNDS), raw.flag("is_over"))
    winners = tuple(items(raw.get("winners"), raw.at("winners"), lambda v, p: read_seat(v, p, n)))
    raw.done()
    return (*shown, winners)


def _read_opening(
    obj: Obj, size: int, opened: tuple[bool, ...], opening_required: bool
) -> tuple[int, bool, tuple[bool, ...]]:
    """The opening in progress (R-O4) and who has laid melds; views written before these fields lack them."""
    opening_points = obj.integer("opening_points", 0, 11 * size) if obj.has("opening_points") else 0
    opening_clean = obj.flag("opening_clean") if obj.has("opening_clean") else False
    # A schema-1 view written before has_laid: an opened seat laid its opening (R-O1) in an earlier turn.
    old = opened if opening_required else (False,) * len(opened)
    has_laid = read_bools(obj.get("has_laid"), obj.at("has_laid"), len(opened)) if obj.has("has_laid") else old
    return opening_points, opening_clean, has_laid


def _check_turn_shown(obj: Obj, seat: int, sizes: tuple[int, ...], held: int, mine: bool, turn: object) -> None:
    """The hand shown has its size, and the turn shows only to the player to act (R-H1)."""
    if sizes[seat] != held:
        fail(StateReason.INCONSISTENT, join(obj.at("hand_sizes"), seat), f"the hand shown holds {held}")
    if (turn is not None) != mine:
        detail = "a view shows the turn only to the player to act" if turn is not None else "the turn is missing"
        fail(StateReason.INCONSISTENT, obj.at("turn"), detail)


def _check_opening_shown(obj: Obj, public: tuple[int, bool], turn: TurnState | None, phase: Phase) -> None:
    """The public opening in progress is the turn's, and nothing outside the play phase (R-O4)."""
    if (turn is not None and public != (turn.opening_points, turn.opening_clean)) or (
        phase is not Phase.PLAY and public != (0, False)
    ):
        fail(StateReason.INCONSISTENT, obj.at("opening_points"), "the opening in progress differs from the turn's")
