"""JSON bodies of game states and player views, with full re-validation on reading.

A state read from a document is checked as a whole before it is built: the
ruleset, the seats, every card of the deck exactly once across hands, stock,
pile and table (R-C3), every table meld under the ruleset with its joker
declarations, hand sizes and the turn consistent with the phase, the round
results consistent with the totals. Anything wrong raises
:class:`~rummylib.InvalidStateError` naming the path of the bad field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from rummylib.cards import Card, CardMultiset, deck
from rummylib.engine import GameState, Phase, PlayerView, RoundState, TableMeld, TurnState
from rummylib.errors import StateReason
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
from rummylib.rules import DiscardRule, Ruleset, Scoring
from rummylib.scoring import RoundResult, Standings, hand_penalty, is_game_over, standings

__all__: list[str] = []

#: Most digits in an integer seed.
MAX_SEED_DIGITS: Final = 256
#: Largest running total or round score accepted (far beyond any real game).
MAX_TOTAL: Final = 10**12
#: Most rounds a document may hold.
MAX_ROUNDS: Final = 100_000

_FRESH: Final = TurnState()
#: Longest per-seat array read (a guard; the ruleset's seat count is checked after).
_MAX_SEATS: Final = 64


# --- writing --------------------------------------------------------------------------------


def seed_to_json(seed: int | str) -> dict[str, str]:
    return {"type": "str", "value": seed} if isinstance(seed, str) else {"type": "int", "value": str(seed)}


def _turn_to_json(turn: TurnState) -> dict[str, Any]:
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
    }


def _table_to_json(table: Sequence[TableMeld]) -> list[dict[str, Any]]:
    return [{"meld": meld_to_json(tm.meld), "owner": tm.owner} for tm in table]


def _result_to_json(result: RoundResult) -> dict[str, Any]:
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
        "results": [_result_to_json(x) for x in state.results],
        "round": {
            "hands": [card_list(h) for h in r.hands],
            "stock": card_list(r.stock),
            "discard": card_list(r.discard),
            "table": _table_to_json(r.table),
            "opened": list(r.opened),
            "has_laid": list(r.has_laid),
            "to_act": r.to_act,
            "phase": r.phase.value,
            "turn": _turn_to_json(r.turn),
            "restocks": r.restocks,
            **knowledge_to_json(r.known_cards, r.known_stock, r.restocked),
        },
    }


def view_to_json(v: PlayerView) -> dict[str, Any]:
    """One seat's view: nothing that seat may not know (R-H1)."""
    return {
        "seat": v.seat,
        "rules": ruleset_to_json(v.rules),
        "players": list(v.players),
        "dealer": v.dealer,
        "round_number": v.round_number,
        "totals": list(v.totals),
        "results": [_result_to_json(x) for x in v.results],
        "standings": {
            "rounds": v.standings.rounds,
            "is_over": v.standings.is_over,
            "winners": list(v.standings.winners),
        },
        "hand": card_list(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "stock_size": v.stock_size,
        "discard": card_list(v.discard),
        "table": _table_to_json(v.table),
        "opened": list(v.opened),
        "to_act": v.to_act,
        "phase": v.phase.value,
        "turn": None if v.turn is None else _turn_to_json(v.turn),
        "restocks": v.restocks,
        "has_laid": list(v.has_laid),
        **knowledge_to_json(v.known_cards, v.known_stock, v.restocked),
    }


# --- reading: the parts ---------------------------------------------------------------------


def read_players(obj: Obj, rules: Ruleset) -> tuple[str, ...]:
    names = tuple(items(obj.get("players"), obj.at("players"), as_str, _MAX_SEATS))
    if not rules.min_players <= len(names) <= rules.max_players:
        detail = f"{len(names)} players; the {rules.name} rules seat {rules.min_players} to {rules.max_players}"
        fail(StateReason.INCONSISTENT, obj.at("players"), detail)
    return names


def read_seed(obj: Obj) -> int | str:
    seed = obj.child("seed", "a seed")
    kind = seed.text("type")
    value = seed.text("value")
    seed.done()
    if kind == "str":
        return value
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


def _deck_size(rules: Ruleset) -> int:
    return 52 * rules.decks + rules.jokers


def _ints(value: object, path: str, n: int, high: int = MAX_TOTAL) -> tuple[int, ...]:
    values = tuple(items(value, path, lambda v, p: as_int(v, p, 0, high), _MAX_SEATS))
    if len(values) != n:
        fail(StateReason.INCONSISTENT, path, f"needs one value per seat ({n}), found {len(values)}")
    return values


def _bools(value: object, path: str, n: int) -> tuple[bool, ...]:
    values = tuple(items(value, path, as_bool, _MAX_SEATS))
    if len(values) != n:
        fail(StateReason.INCONSISTENT, path, f"needs one flag per seat ({n}), found {len(values)}")
    return values


def _result(value: object, path: str, n: int, rules: Ruleset) -> RoundResult:
    obj = Obj(value, path, "a round result")
    winner = _opt_seat(obj.get("winner"), obj.at("winner"), n)
    penalties = _ints(obj.get("penalties"), obj.at("penalties"), n)
    scores = _ints(obj.get("scores"), obj.at("scores"), n)
    rummy = obj.flag("rummy")
    obj.done()
    # The scores follow from the penalties (R-S1, S3, E2, E4, D7).
    if winner is None:
        want = (0,) * n
        if rummy:
            fail(StateReason.INCONSISTENT, obj.at("rummy"), "a void round has no one-turn go-out")
    else:
        if penalties[winner]:
            fail(StateReason.INCONSISTENT, join(obj.at("penalties"), winner), "the winner's penalty is 0")
        factor = rules.rummy_multiplier if rummy else 1
        if rules.scoring is Scoring.PENALTY:
            want = tuple(p * factor for p in penalties)
        else:
            want = tuple(sum(penalties) * factor if i == winner else 0 for i in range(n))
    if scores != want:
        fail(StateReason.INCONSISTENT, obj.at("scores"), f"the scores should be {list(want)} for these penalties")
    return RoundResult(winner, penalties, scores, rummy)


def _opt_card(value: object, path: str) -> Card | None:
    return None if value is None else as_card(value, path)


def _turn(value: object, path: str, rules: Ruleset) -> TurnState:
    obj = Obj(value, path, "a turn")
    turn = TurnState(
        drawn=_opt_card(obj.get("drawn"), obj.at("drawn")),
        taken=_opt_card(obj.get("taken"), obj.at("taken")),
        must_meld=_opt_card(obj.get("must_meld"), obj.at("must_meld")),
        must_go_out=obj.flag("must_go_out"),
        freed_jokers=obj.integer("freed_jokers", 0, rules.jokers),
        melds_laid=obj.integer("melds_laid", 0, 52 * rules.decks + rules.jokers),
        laid=obj.flag("laid"),
    )
    obj.done()
    return turn


def _table(value: object, path: str, rules: Ruleset, opened: tuple[bool, ...]) -> tuple[TableMeld, ...]:
    n = len(opened)
    table: list[TableMeld] = []
    raw = as_list(value, path)
    if len(raw) > _deck_size(rules) // 3:
        fail(StateReason.TOO_LARGE, path, f"holds {len(raw)} melds; the deck makes at most {_deck_size(rules) // 3}")
    for i, item in enumerate(raw):
        obj = Obj(item, join(path, i), "a table meld")
        meld = meld_from_json(obj.get("meld"), obj.at("meld"), rules)
        owner = _opt_seat(obj.get("owner"), obj.at("owner"), n)
        obj.done()
        if owner is not None and not opened[owner]:
            fail(StateReason.INCONSISTENT, obj.at("owner"), f"seat {owner} has not opened, so laid no meld (R-O1)")
        table.append(TableMeld(meld, owner))
    return tuple(table)


def _phase(obj: Obj) -> Phase:
    phase: Phase = enum_value(Phase, obj.get("phase"), obj.at("phase"))
    return phase


# --- reading: consistency -------------------------------------------------------------------


@attrs.frozen
class _Round:
    """What the consistency checks need, from a state or a view (``None``: not known)."""

    rules: Ruleset
    n: int
    dealer: int
    round_number: int
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    sizes: tuple[int, ...]
    hands: tuple[CardMultiset | None, ...]
    to_act: int
    phase: Phase
    turn: TurnState | None
    restocks: int
    discard: tuple[Card, ...]
    opened: tuple[bool, ...]
    has_laid: tuple[bool, ...] | None
    #: Paths of the fields, which differ between a state and a view.
    at: dict[str, str]


def _check_progress(r: _Round) -> None:
    """Round number, results, totals and the end of the game agree (R-S1..S4)."""
    at = r.at
    playing = r.phase in (Phase.DRAW, Phase.PLAY)
    want = len(r.results) + (1 if playing else 0)
    if r.round_number != want or len(r.results) > MAX_ROUNDS:
        detail = f"round {r.round_number} with {len(r.results)} finished round(s) in phase {r.phase.value!r}"
        fail(StateReason.INCONSISTENT, at["round_number"], detail)
    for seat in range(r.n):
        earned = sum(x.scores[seat] for x in r.results)
        if r.totals[seat] < earned:
            detail = f"total {r.totals[seat]} is below the {earned} the round results give seat {seat}"
            fail(StateReason.INCONSISTENT, join(at["totals"], seat), detail)
    over = is_game_over(r.totals, len(r.results), r.rules)
    if over != (r.phase is Phase.GAME_OVER):
        detail = "the game is over by its totals" if over else "the game is not over by its totals and rounds"
        fail(StateReason.INCONSISTENT, at["phase"], f"phase {r.phase.value!r}, but {detail}")
    limit = r.rules.restock_limit
    if limit is not None and r.restocks > limit:
        fail(StateReason.INCONSISTENT, at["restocks"], f"{r.restocks} refills; the rules allow {limit} (R-D7)")


def _check_seats(r: _Round) -> None:
    """Opening flags and hand sizes fit the phase and the turn (R-O1, P2, P3, T1..T7, E1..E5)."""
    at = r.at
    for seat, flag in enumerate(r.opened):
        if r.rules.opens_at_start and not flag:
            fail(StateReason.INCONSISTENT, join(at["opened"], seat), "without an opening rule everyone has opened")
        if r.has_laid is not None and r.has_laid[seat] and not flag:
            fail(StateReason.INCONSISTENT, join(at["has_laid"], seat), f"seat {seat} laid melds without opening")
    dealt = r.rules.hand_size(r.n)
    playing = r.phase in (Phase.DRAW, Phase.PLAY)
    for seat, size in enumerate(r.sizes):
        # one more for the dealer's extra card (R-P2) and for a player who has drawn
        extra = int(r.rules.dealer_extra_card and seat == r.dealer)
        most = dealt + extra + (1 if seat == r.to_act and r.phase is not Phase.DRAW else 0)
        if size > most or (playing and size == 0):
            detail = f"seat {seat} holds {size} cards; in phase {r.phase.value!r} that is impossible"
            fail(StateReason.INCONSISTENT, join(at["hands"], seat), detail)
    if not playing:
        last = r.results[-1]
        if last.winner is not None and (last.winner != r.to_act or r.sizes[last.winner]):
            detail = f"seat {last.winner} went out, so was the last to act with an empty hand"
            fail(StateReason.INCONSISTENT, join(at["results"], len(r.results) - 1) + ".winner", detail)
        for seat, hand in enumerate(r.hands):
            if hand is not None and hand_penalty(hand, r.rules) != last.penalties[seat]:
                path = join(join(at["results"], len(r.results) - 1) + ".penalties", seat)
                fail(StateReason.INCONSISTENT, path, f"seat {seat}'s hand is worth {hand_penalty(hand, r.rules)}")


def _check_turn(r: _Round) -> None:
    """The turn's record fits the phase, the hand and the rules (R-T1, D2, J4, T5, T7)."""
    turn = r.turn
    if turn is None or r.phase not in (Phase.DRAW, Phase.PLAY):
        return
    path = r.at["turn"]
    if r.phase is Phase.DRAW:
        if turn != _FRESH:
            fail(StateReason.INCONSISTENT, path, "before the draw a turn has done nothing yet")
        return
    rules, hand = r.rules, r.hands[r.to_act]

    def bad(field: str, detail: str) -> None:
        fail(StateReason.INCONSISTENT, join(path, field), detail)

    first_turn = rules.dealer_extra_card and rules.dealer_plays_first and r.to_act == r.dealer
    if turn.drawn is None and not (first_turn and len(r.discard) <= int(rules.upcard) and r.restocks == 0):
        bad("drawn", "only the dealer's first turn has no draw (R-T1)")
    if turn.taken is not None and (turn.taken != turn.drawn or rules.discard_taken_card):
        bad("taken", "the taken card is the card drawn from the pile this turn (R-T7)")
    if turn.must_meld is not None and (turn.must_meld != turn.drawn or rules.discard_rule is not DiscardRule.NEW_MELD):
        bad("must_meld", "only the card taken under R-D2 must go into a new meld")
    if turn.must_go_out and (turn.drawn is None or rules.discard_rule is not DiscardRule.NEW_MELD):
        bad("must_go_out", "only a player who took the discard before opening must go out (R-D2)")
    if turn.freed_jokers and not (rules.joker_swap and r.opened[r.to_act]):
        bad("freed_jokers", "jokers are freed only by an opened player's swap (R-J4)")
    if turn.melds_laid and not (turn.laid and r.opened[r.to_act]):
        bad("melds_laid", "melds were laid, so the turn has laid something, by an opened player")
    if rules.melds_per_turn is not None and turn.melds_laid > rules.melds_per_turn:
        bad("melds_laid", f"the rules allow {rules.melds_per_turn} new meld(s) per turn (R-T5)")
    if hand is not None:
        for field, card in (("taken", turn.taken), ("must_meld", turn.must_meld)):
            if card is not None and card not in hand:
                bad(field, f"{card} is not in the hand of seat {r.to_act}")
        if turn.freed_jokers > hand.jokers:
            bad("freed_jokers", f"seat {r.to_act} holds {hand.jokers} joker(s)")


def _check_cards(rules: Ruleset, places: Sequence[tuple[str, Sequence[Card]]], path: str, total: int | None) -> None:
    """No card beyond the deck; with ``total`` unknown cards, exactly the deck (R-C1, C3)."""
    full = deck(rules).counts
    seen = [0] * len(full)
    for where, cards in places:
        for j, card in enumerate(cards):
            seen[card.index] += 1
            if seen[card.index] > full[card.index]:
                detail = f"one {card} too many: the {rules.name} deck holds {full[card.index]} (R-C3)"
                fail(StateReason.CARDS_NOT_CONSERVED, join(where, j), detail)
    if total is None:
        missing = CardMultiset.from_counts(f - s for f, s in zip(full, seen))
        if missing:
            fail(StateReason.CARDS_NOT_CONSERVED, path, f"cards missing from the round: {missing} (R-C3)")
    elif sum(seen) + total != sum(full):
        detail = f"{sum(seen) + total} cards in play; the {rules.name} deck has {sum(full)} (R-C3)"
        fail(StateReason.CARDS_NOT_CONSERVED, path, detail)


# --- reading: states and views --------------------------------------------------------------


def _common(obj: Obj) -> tuple[Ruleset, tuple[str, ...], int, int, tuple[int, ...], tuple[RoundResult, ...]]:
    rules = ruleset_from_json(obj.get("rules"), obj.at("rules"))
    players = read_players(obj, rules)
    n = len(players)
    dealer = read_seat(obj.get("dealer"), obj.at("dealer"), n)
    round_number = obj.integer("round_number", 1, MAX_ROUNDS + 1)
    totals = _ints(obj.get("totals"), obj.at("totals"), n)
    results = tuple(items(obj.get("results"), obj.at("results"), lambda v, p: _result(v, p, n, rules), MAX_ROUNDS))
    return rules, players, dealer, round_number, totals, results


def state_from_json(data: object, path: str) -> GameState:
    """Read and fully re-validate a state body."""
    obj = Obj(data, path, "a game state")
    rules, players, dealer, round_number, totals, results = _common(obj)
    n = len(players)
    seed = read_seed(obj)
    rnd = obj.child("round", "a round")
    hands_path = rnd.at("hands")
    size = _deck_size(rules)
    raw_hands = tuple(items(rnd.get("hands"), hands_path, lambda v, p: tuple(items(v, p, as_card, size)), _MAX_SEATS))
    if len(raw_hands) != n:
        fail(StateReason.INCONSISTENT, hands_path, f"needs one hand per seat ({n}), found {len(raw_hands)}")
    stock = tuple(items(rnd.get("stock"), rnd.at("stock"), as_card, size))
    discard = tuple(items(rnd.get("discard"), rnd.at("discard"), as_card, size))
    opened = _bools(rnd.get("opened"), rnd.at("opened"), n)
    has_laid = _bools(rnd.get("has_laid"), rnd.at("has_laid"), n)
    table = _table(rnd.get("table"), rnd.at("table"), rules, opened)
    to_act = read_seat(rnd.get("to_act"), rnd.at("to_act"), n)
    phase = _phase(rnd)
    turn = _turn(rnd.get("turn"), rnd.at("turn"), rules)
    restocks = rnd.integer("restocks", 0, MAX_ROUNDS)
    known = read_knowledge(rnd, rules, n, restocks)
    rnd.done()
    obj.done()
    places = [(join(hands_path, i), h) for i, h in enumerate(raw_hands)]
    places += [(rnd.at("stock"), stock), (rnd.at("discard"), discard)]
    places += [(join(rnd.at("table"), i) + ".meld.slots", tm.meld.cards) for i, tm in enumerate(table)]
    _check_cards(rules, places, rnd.path, None)
    hands = tuple(CardMultiset(h) for h in raw_hands)
    at = {
        "round_number": obj.at("round_number"),
        "totals": obj.at("totals"),
        "results": obj.at("results"),
        "phase": rnd.at("phase"),
        "restocks": rnd.at("restocks"),
        "opened": rnd.at("opened"),
        "has_laid": rnd.at("has_laid"),
        "hands": hands_path,
        "turn": rnd.at("turn"),
    }
    check = _Round(
        rules, n, dealer, round_number, totals, results, tuple(len(h) for h in hands), hands,
        to_act, phase, turn, restocks, discard, opened, has_laid, at,
    )  # fmt: skip
    _check_progress(check)
    _check_seats(check)
    _check_turn(check)
    check_in_hands(known, hands, check.sizes, rnd.at("known_cards"))
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


def view_from_json(data: object, path: str) -> PlayerView:
    """Read and re-validate a view body (everything a view can show is checked)."""
    obj = Obj(data, path, "a player view")
    rules, players, dealer, round_number, totals, results = _common(obj)
    n = len(players)
    seat = read_seat(obj.get("seat"), obj.at("seat"), n)
    raw = obj.child("standings", "standings")
    shown = (raw.integer("rounds", 0, MAX_ROUNDS), raw.flag("is_over"))
    winners = tuple(items(raw.get("winners"), raw.at("winners"), lambda v, p: read_seat(v, p, n)))
    raw.done()
    size = _deck_size(rules)
    hand_cards = tuple(items(obj.get("hand"), obj.at("hand"), as_card, size))
    sizes = _ints(obj.get("hand_sizes"), obj.at("hand_sizes"), n, 52 * rules.decks + rules.jokers)
    stock_size = obj.integer("stock_size", 0, 52 * rules.decks + rules.jokers)
    discard = tuple(items(obj.get("discard"), obj.at("discard"), as_card, size))
    opened = _bools(obj.get("opened"), obj.at("opened"), n)
    table = _table(obj.get("table"), obj.at("table"), rules, opened)
    to_act = read_seat(obj.get("to_act"), obj.at("to_act"), n)
    phase = _phase(obj)
    raw_turn = obj.get("turn")
    turn = None if raw_turn is None else _turn(raw_turn, obj.at("turn"), rules)
    restocks = obj.integer("restocks", 0, MAX_ROUNDS)
    # A schema-1 view written before has_laid: an opened seat laid its opening (R-O1) in an earlier turn.
    old = opened if rules.opening_required else (False,) * n
    has_laid = _bools(obj.get("has_laid"), obj.at("has_laid"), n) if obj.has("has_laid") else old
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
    _check_cards(rules, places, obj.path, hidden)
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
    }
    hands = tuple(hand if i == seat else None for i in range(n))
    check = _Round(
        rules, n, dealer, round_number, totals, results, sizes, hands,
        to_act, phase, turn, restocks, discard, opened, has_laid, at,
    )  # fmt: skip
    _check_progress(check)
    _check_seats(check)
    _check_turn(check)
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
        has_laid=has_laid,
        known_cards=known.known_cards,
        known_stock=known.known_stock,
        restocked=known.restocked,
    )
