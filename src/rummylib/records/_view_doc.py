"""JSON bodies of player views, re-validated on reading as far as a view can show.

A view holds one seat's hand and the sizes of the others; every invariant of
docs/explanation/saved-states.rst that these show is checked (the hidden
hands and the stock are counted, not seen).
"""

from __future__ import annotations

from typing import Any

from rummylib.cards import CardMultiset
from rummylib.engine import Phase, PlayerView
from rummylib.engine._invariants import MAX_ROUNDS, RoundFacts, check_cards, check_facts
from rummylib.errors import StateReason
from rummylib.records._doc import Obj, as_card, card_list, fail, items, join
from rummylib.records._known import check_in_hands, check_stock, knowledge_to_json, read_knowledge
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
    raw = obj.child("standings", "standings")
    shown = (raw.integer("rounds", 0, MAX_ROUNDS), raw.flag("is_over"))
    winners = tuple(items(raw.get("winners"), raw.at("winners"), lambda v, p: read_seat(v, p, n)))
    raw.done()
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
    # the opening in progress (R-O4), public; views written before it lack the fields
    opening_points = obj.integer("opening_points", 0, 11 * size) if obj.has("opening_points") else 0
    opening_clean = obj.flag("opening_clean") if obj.has("opening_clean") else False
    # A schema-1 view written before has_laid: an opened seat laid its opening (R-O1) in an earlier turn.
    old = opened if rules.opening_required else (False,) * n
    has_laid = read_bools(obj.get("has_laid"), obj.at("has_laid"), n) if obj.has("has_laid") else old
    known = read_knowledge(obj, rules, n, restocks)
    obj.done()
    if sizes[seat] != len(hand_cards):
        fail(StateReason.INCONSISTENT, join(obj.at("hand_sizes"), seat), f"the hand shown holds {len(hand_cards)}")
    mine = to_act == seat and phase in (Phase.DRAW, Phase.PLAY)
    if (turn is not None) != mine:
        detail = "a view shows the turn only to the player to act" if turn is not None else "the turn is missing"
        fail(StateReason.INCONSISTENT, obj.at("turn"), detail)
    places = [(obj.at("hand"), hand_cards), (obj.at("discard"), discard)]
    places += [(join(obj.at("table"), i) + ".meld.slots", tm.meld.cards) for i, tm in enumerate(table)]
    others = [(join(obj.at("known_cards"), i), tuple(k)) for i, k in enumerate(known.known_cards) if i != seat]
    places += [*others, (obj.at("known_stock"), known.known_stock)]
    hidden = sum(sizes) - sizes[seat] + stock_size - sum(len(k) for _, k in others) - len(known.known_stock)
    check_cards(rules, places, obj.path, hidden)
    hand = CardMultiset(hand_cards)
    at = {
        "round_number": obj.at("round_number"),
        "totals": obj.at("totals"),
        "results": obj.at("results"),
        "phase": obj.at("phase"),
        "restocks": obj.at("restocks"),
        "opened": obj.at("opened"),
        "has_laid": obj.at("has_laid"),
        "hands": obj.at("hand_sizes"),
        "turn": obj.at("turn"),
        "table": obj.at("table"),
    }
    hands = tuple(hand if i == seat else None for i in range(n))
    facts = RoundFacts(
        rules, n, dealer, round_number, totals, results, sizes, hands, stock_size,
        to_act, phase, turn, restocks, discard, table, opened, has_laid, at,
    )  # fmt: skip
    check_facts(facts)
    public = (opening_points, opening_clean)
    if (turn is not None and public != (turn.opening_points, turn.opening_clean)) or (
        phase is not Phase.PLAY and public != (0, False)
    ):
        fail(StateReason.INCONSISTENT, obj.at("opening_points"), "the opening in progress differs from the turn's")
    check_in_hands(known, hands, sizes, obj.at("known_cards"))
    check_stock(known, None, stock_size, obj.path)
    table_standings: Standings = standings(totals, len(results), rules)
    if (table_standings.rounds, table_standings.is_over, table_standings.winners) != (*shown, winners):
        fail(StateReason.INCONSISTENT, obj.at("standings"), "the standings do not follow from the totals")
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
