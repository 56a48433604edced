"""What must hold of every state legal play can reach (docs/explanation/saved-states.rst).

The loader (``from_dict``, ``from_json``) and :func:`~rummylib.start_round_from`
share these checks, so the engine builds no state the loader refuses and the
loader accepts no state the engine could not have built. They take a
:class:`RoundFacts`: what a state (or a seat's view, where hidden parts are
``None``) says, with the path of each field for the error message. Every
refusal raises :class:`~rummylib.InvalidStateError` naming that path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

import attrs

from rummylib.cards import Card, CardMultiset, deck
from rummylib.engine._state import FRESH_TURN, GameState, Phase, TableMeld, TurnState
from rummylib.errors import InvalidStateError, StateReason
from rummylib.melds import is_clean_run, meld_points
from rummylib.rules import DiscardRule, RestockRule, Ruleset
from rummylib.scoring import RoundResult, hand_penalty, is_game_over, round_scores

__all__ = [
    "MAX_ROUNDS",
    "MAX_TOTAL",
    "RoundFacts",
    "check_cards",
    "check_facts",
    "check_known_in_hands",
    "check_known_stock",
    "check_refill",
    "check_result",
    "check_state",
    "facts_of",
    "field_paths",
]

#: Largest running total or round score accepted (far beyond any real game).
MAX_TOTAL: Final = 10**12
#: Most rounds a game may have finished (a real game lasts tens).
MAX_ROUNDS: Final = 10_000

_PLAYING: Final = (Phase.DRAW, Phase.PLAY)


def _fail(reason: StateReason, path: str, detail: str) -> None:
    raise InvalidStateError(reason, path, detail)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _read_only(paths: Mapping[str, str]) -> Mapping[str, str]:
    return paths if isinstance(paths, MappingProxyType) else MappingProxyType(dict(paths))


@attrs.frozen
class RoundFacts:
    """What the consistency checks need, from a state or a view (``None``: not known)."""

    rules: Ruleset
    n: int
    dealer: int
    round_number: int
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    sizes: tuple[int, ...]
    hands: tuple[CardMultiset | None, ...]
    stock_size: int
    to_act: int
    phase: Phase
    turn: TurnState | None
    restocks: int
    discard: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    opened: tuple[bool, ...]
    has_laid: tuple[bool, ...] | None
    #: Paths of the fields, which differ between a state and a view (a read-only copy).
    at: Mapping[str, str] = attrs.field(converter=_read_only)


def check_facts(r: RoundFacts) -> None:
    """Every invariant of docs/explanation/saved-states.rst that ``r`` can show."""
    _check_progress(r)
    _check_turn(r)
    _check_sizes(r)
    _check_ending(r)
    _check_ownership(r)


def _check_progress(r: RoundFacts) -> None:
    """Round number, results, totals and the end of the game agree (R-S1..S4, D7)."""
    at = r.at
    want = len(r.results) + (1 if r.phase in _PLAYING else 0)
    if r.round_number != want or len(r.results) > MAX_ROUNDS:
        detail = f"round {r.round_number} with {len(r.results)} finished round(s) in phase {r.phase.value!r}"
        _fail(StateReason.INCONSISTENT, at["round_number"], detail)
    for i, result in enumerate(r.results):
        check_result(result, r.rules, _join(at["results"], i))
    for seat in range(r.n):
        earned = sum(x.scores[seat] for x in r.results)
        if not earned <= r.totals[seat] <= MAX_TOTAL:
            detail = f"total {r.totals[seat]} is not between the {earned} the results give seat {seat} and {MAX_TOTAL}"
            _fail(StateReason.INCONSISTENT, _join(at["totals"], seat), detail)
    over = is_game_over(r.totals, len(r.results), r.rules)
    if over != (r.phase is Phase.GAME_OVER):
        detail = "the game is over by its totals" if over else "the game is not over by its totals and rounds"
        _fail(StateReason.INCONSISTENT, at["phase"], f"phase {r.phase.value!r}, but {detail}")
    limit = r.rules.restock_limit
    if (limit is not None and r.restocks > limit) or r.restocks > MAX_ROUNDS:
        _fail(StateReason.INCONSISTENT, at["restocks"], f"{r.restocks} refills; the rules allow {limit} (R-D7)")


def check_result(result: RoundResult, rules: Ruleset, path: str) -> None:
    """A round's scores follow from its penalties (R-S1, S3, E2, E4, D7); ``path`` names the result."""
    winner = result.winner
    if winner is None and result.rummy:
        _fail(StateReason.INCONSISTENT, _join(path, "rummy"), "a void round has no one-turn go-out")
    if winner is not None and result.penalties[winner]:
        _fail(StateReason.INCONSISTENT, _join(_join(path, "penalties"), winner), "the winner's penalty is 0")
    want = round_scores(result.penalties, winner, rules, rummy=result.rummy)
    if result.scores != want:
        detail = f"the scores should be {list(want)} for these penalties"
        _fail(StateReason.INCONSISTENT, _join(path, "scores"), detail)


def _laid_this_turn(r: RoundFacts, seat: int) -> bool:
    """Whether ``seat`` may own melds its ``has_laid`` flag does not show yet (the current or final turn)."""
    if seat != r.to_act:
        return False
    if r.phase is Phase.PLAY:
        return r.turn is None or r.turn.laid
    return r.phase not in _PLAYING and bool(r.results) and r.results[-1].winner == seat


def _in_opening(r: RoundFacts, index: int, owner: int) -> bool:
    """Whether table meld ``index`` is one of the turn's new melds, an opening in progress (R-O4)."""
    if owner != r.to_act or r.phase is not Phase.PLAY:
        return False
    if r.turn is None:
        return True  # another seat's view: the turn's record is not shown
    return index >= len(r.table) - r.turn.melds_laid


def _check_opening(r: RoundFacts, bad: Callable[[str, str], None]) -> None:
    """The opening in progress is the turn's new melds, with their points and clean run (R-O2, O4)."""
    turn, seat = r.turn, r.to_act
    assert turn is not None
    if (turn.opening_points or turn.opening_clean) and not (turn.melds_laid and r.rules.opening_required):
        bad("opening_points", "an opening in progress is made of the turn's new melds (R-O4)")
    if r.opened[seat] or not r.rules.opening_required or not turn.melds_laid:
        return
    new = r.table[len(r.table) - turn.melds_laid :]
    points = sum(meld_points(tm.meld, r.rules) for tm in new)
    clean = any(is_clean_run(tm.meld) for tm in new)
    if any(tm.owner != seat for tm in new) or (points, clean) != (turn.opening_points, turn.opening_clean):
        bad("opening_points", "the opening in progress is not the turn's new melds (R-O4)")


def _check_ownership(r: RoundFacts) -> None:
    """Opening flags, table owners and ``has_laid`` agree (R-O1, E2, E4)."""
    at = r.at
    owners = {tm.owner for tm in r.table}
    for i, tm in enumerate(r.table):
        if r.rules.opening_required and tm.owner is not None and not r.opened[tm.owner]:
            if _in_opening(r, i, tm.owner):
                continue  # the opening in progress of the seat to act (R-O4)
            where = _join(at["table"], i) + ".owner"
            _fail(StateReason.INCONSISTENT, where, f"seat {tm.owner} has not opened, so laid no meld (R-O1)")
    for seat, flag in enumerate(r.opened):
        where = _join(at["opened"], seat)
        if r.rules.opens_at_start and not flag:
            _fail(StateReason.INCONSISTENT, where, "without an opening rule everyone has opened")
        if r.rules.opening_required and flag and seat not in owners:
            _fail(StateReason.INCONSISTENT, where, f"seat {seat} opened, so owns a table meld (R-O1, O2)")
    if r.has_laid is None:
        return
    for seat, laid in enumerate(r.has_laid):
        where = _join(at["has_laid"], seat)
        if laid and not r.opened[seat] and not r.rules.lay_off_before_opening:  # only lay-offs precede an opening
            _fail(StateReason.INCONSISTENT, where, f"seat {seat} laid melds without opening")
        if not laid and seat in owners and not _laid_this_turn(r, seat):
            _fail(StateReason.INCONSISTENT, where, f"seat {seat} owns melds laid in an earlier turn (R-E2, E4)")


def _most_cards(r: RoundFacts, seat: int) -> int:
    """The most cards ``seat`` can hold now (R-P2, P3, T1)."""
    rules = r.rules
    most = rules.hand_size(r.n)
    # The dealer's extra card (R-P2) leaves with its no-draw first turn (R-T1);
    # a house variant where the dealer does not play first keeps it, and draws.
    if rules.dealer_extra_card and not rules.dealer_plays_first and seat == r.dealer:
        most += 1
    if r.phase is Phase.PLAY and seat == r.to_act:
        most += 1  # drawn this turn, or the dealer's extra card on its first turn
    return most


def _check_sizes(r: RoundFacts) -> None:
    """Hand sizes fit the deal, the phase and the turn (R-P2, P3, T1, T3, E1, E3)."""
    playing = r.phase in _PLAYING
    for seat, size in enumerate(r.sizes):
        most = _most_cards(r, seat)
        if size > most or (playing and size == 0):
            detail = f"seat {seat} holds {size} cards; in phase {r.phase.value!r} it can hold 1 to {most}"
            _fail(StateReason.INCONSISTENT, _join(r.at["hands"], seat), detail)


def _check_ending(r: RoundFacts) -> None:
    """A finished round: who went out, the hands left, how it ended (R-E1..E5, D7, S1, S3)."""
    if r.phase in _PLAYING:
        return
    last = r.results[-1]
    where = _join(r.at["results"], len(r.results) - 1)
    if last.winner is not None:
        if last.winner != r.to_act or r.sizes[last.winner]:
            detail = f"seat {last.winner} went out, so was the last to act with an empty hand"
            _fail(StateReason.INCONSISTENT, where + ".winner", detail)
        if r.has_laid is not None and last.rummy == r.has_laid[last.winner]:
            detail = "a one-turn go-out (R-E2, E4) is one with nothing laid in an earlier turn of the round"
            _fail(StateReason.INCONSISTENT, where + ".rummy", detail)
    elif not _void_ending(r):
        detail = "a void round ends at a draw from an empty stock that cannot be refilled (R-D7)"
        _fail(StateReason.INCONSISTENT, where + ".winner", detail)
    for seat, hand in enumerate(r.hands):
        if hand is not None and hand_penalty(hand, r.rules) != last.penalties[seat]:
            path = _join(where + ".penalties", seat)
            _fail(StateReason.INCONSISTENT, path, f"seat {seat}'s hand is worth {hand_penalty(hand, r.rules)}")
    if r.turn is not None and (r.turn.must_meld is not None or r.turn.freed_jokers):
        _fail(StateReason.INCONSISTENT, r.at["turn"], "a round ends only with the turn's obligations met (R-D2, J4)")
    if r.turn is not None and last.winner is None and r.turn != FRESH_TURN:
        _fail(StateReason.INCONSISTENT, r.at["turn"], "a void round ends at a draw, before the turn did anything")


def _void_ending(r: RoundFacts) -> bool:
    rules = r.rules
    if r.stock_size:
        return False
    if rules.restock_limit is not None and r.restocks >= rules.restock_limit:
        return True
    if rules.restock_rule is RestockRule.RESHUFFLE_KEEP_TOP:
        return len(r.discard) <= 1
    return not r.discard


def _check_turn(r: RoundFacts) -> None:
    """The turn's record fits the phase, the hand and the rules (R-T1, D2, J4, T5, T7)."""
    turn = r.turn
    if turn is None or r.phase not in _PLAYING:
        return
    path = r.at["turn"]
    if r.phase is Phase.DRAW:
        if turn != FRESH_TURN:
            _fail(StateReason.INCONSISTENT, path, "before the draw a turn has done nothing yet")
        return
    rules, hand, seat = r.rules, r.hands[r.to_act], r.to_act

    def bad(field: str, detail: str) -> None:
        _fail(StateReason.INCONSISTENT, _join(path, field), detail)

    # ``drawn`` is None on the dealer's no-draw first turn (R-T1) and in a
    # puzzle set-up that starts in the play phase; the hand-size bound holds either way.
    if turn.taken is not None and (turn.taken != turn.drawn or rules.discard_taken_card):
        bad("taken", "the taken card is the card drawn from the pile this turn (R-T7)")
    if turn.must_meld is not None and (turn.must_meld != turn.drawn or rules.discard_rule is not DiscardRule.NEW_MELD):
        bad("must_meld", "only the card taken under R-D2 must go into a new meld")
    if turn.must_go_out and (turn.drawn is None or rules.discard_rule is not DiscardRule.NEW_MELD):
        bad("must_go_out", "only a player who took the discard before opening must go out (R-D2)")
    if turn.freed_jokers and not (rules.joker_swap and r.opened[seat] and turn.laid):
        bad("freed_jokers", "jokers are freed only by an opened player's swap, which lays a card (R-J4)")
    opening = rules.opening_required and not r.opened[seat] and turn.melds_laid > 0  # in progress (R-O4)
    if turn.melds_laid and not (turn.laid and (r.opened[seat] or opening)):
        bad("melds_laid", "melds were laid, so the turn has laid something, by an opened player")
    if rules.melds_per_turn is not None and turn.melds_laid > rules.melds_per_turn:
        bad("melds_laid", f"the rules allow {rules.melds_per_turn} new meld(s) per turn (R-T5)")
    if turn.melds_laid > sum(1 for tm in r.table if tm.owner == seat):
        bad("melds_laid", f"seat {seat} owns fewer table melds than it laid this turn")
    if turn.laid and not (r.opened[seat] or rules.lay_off_before_opening or opening):
        bad("laid", "nothing goes on the table before the opening (R-O1)")
    _check_opening(r, bad)
    if hand is not None:
        for field, card in (("taken", turn.taken), ("must_meld", turn.must_meld)):
            if card is not None and card not in hand:
                bad(field, f"{card} is not in the hand of seat {seat}")
        if turn.freed_jokers > hand.jokers:
            bad("freed_jokers", f"seat {seat} holds {hand.jokers} joker(s)")


def check_cards(
    rules: Ruleset,
    places: Sequence[tuple[str, Sequence[Card]]],
    path: str,
    hidden: int | None,
) -> None:
    """No card beyond the deck; with ``hidden`` unknown cards, exactly the deck (R-C1, C3)."""
    full = deck(rules).counts
    seen = [0] * len(full)
    for where, cards in places:
        for j, card in enumerate(cards):
            seen[card.index] += 1
            if seen[card.index] > full[card.index]:
                detail = f"one {card} too many: the {rules.name} deck holds {full[card.index]} (R-C3)"
                _fail(StateReason.CARDS_NOT_CONSERVED, _join(where, j), detail)
    if hidden is None:
        missing = CardMultiset.from_counts(f - s for f, s in zip(full, seen))
        if missing:
            _fail(StateReason.CARDS_NOT_CONSERVED, path, f"cards missing from the round: {missing} (R-C3)")
    elif sum(seen) + hidden != sum(full):
        detail = f"{sum(seen) + hidden} cards in play; the {rules.name} deck has {sum(full)} (R-C3)"
        _fail(StateReason.CARDS_NOT_CONSERVED, path, detail)


#: The round's fields the checks name by path, beside ``round_number``, ``totals``, ``results`` and ``hands``.
_ROUND_FIELDS: Final = ("phase", "restocks", "opened", "has_laid", "turn", "table")


def field_paths(top: Callable[[str], str], rnd: Callable[[str], str], hands: str) -> Mapping[str, str]:
    """The paths the checks name: the game's fields by ``top``, the round's by ``rnd``, the hands (or sizes)."""
    paths = {key: top(key) for key in ("round_number", "totals", "results")}
    paths.update({key: rnd(key) for key in _ROUND_FIELDS})
    paths["hands"] = hands
    return MappingProxyType(paths)


def check_refill(restocks: int, known_stock: Sequence[Card], restocked: CardMultiset, at: Mapping[str, str]) -> None:
    """The refill's public fields (R-D4, D6): none before a refill; the cards of public order are from it.

    ``at`` gives the paths of ``known_stock`` and ``restocked``.
    """
    if restocks == 0 and (known_stock or restocked):
        key = "known_stock" if known_stock else "restocked"
        _fail(StateReason.INCONSISTENT, at[key], "the stock has not been refilled this round (R-D4, D6)")
    if not CardMultiset(known_stock) <= restocked:
        _fail(StateReason.INCONSISTENT, at["known_stock"], "a card of public order came from the last refill")


def check_known_in_hands(
    known: Sequence[CardMultiset], hands: Sequence[CardMultiset | None], sizes: Sequence[int], path: str
) -> None:
    """Each seat's known cards are in its hand (R-H1; ``None``: unseen, so only its size is checked)."""
    for seat, (cards, hand) in enumerate(zip(known, hands)):
        if (hand is not None and not cards <= hand) or len(cards) > sizes[seat]:
            _fail(StateReason.INCONSISTENT, _join(path, seat), f"a known card of seat {seat} is not in its hand")


def check_known_stock(
    known_stock: Sequence[Card], restocked: CardMultiset, stock: Sequence[Card] | None, stock_size: int, path: str
) -> None:
    """The stock ends with its public part and, after a refill, is made of the refill's cards (R-D4, D6)."""
    tail = len(known_stock)
    if tail > stock_size or (stock is not None and tuple(stock[stock_size - tail :]) != tuple(known_stock)):
        _fail(StateReason.INCONSISTENT, _join(path, "known_stock"), "the stock does not end with its known order")
    if restocked and (stock_size > len(restocked) or (stock is not None and not CardMultiset(stock) <= restocked)):
        _fail(StateReason.INCONSISTENT, _join(path, "restocked"), "the stock holds a card not from its last refill")


#: The paths of a state's fields, as its document names them.
STATE_PATHS: Final = field_paths(str, lambda key: f"round.{key}", "round.hands")


def facts_of(state: GameState, at: Mapping[str, str] | None = None) -> RoundFacts:
    """The facts a whole state shows."""
    r = state.round
    return RoundFacts(
        rules=state.rules,
        n=state.num_players,
        dealer=state.dealer,
        round_number=state.round_number,
        totals=state.totals,
        results=state.results,
        sizes=tuple(len(h) for h in r.hands),
        hands=r.hands,
        stock_size=len(r.stock),
        to_act=r.to_act,
        phase=r.phase,
        turn=r.turn,
        restocks=r.restocks,
        discard=r.discard,
        table=r.table,
        opened=r.opened,
        has_laid=r.has_laid,
        at=STATE_PATHS if at is None else at,
    )


def check_state(state: GameState) -> None:
    """Every invariant of a whole state (the loader's and ``start_round_from``'s checks)."""
    r = state.round
    places = [(_join("round.hands", i), tuple(h)) for i, h in enumerate(r.hands)]
    places += [("round.stock", r.stock), ("round.discard", r.discard)]
    places += [(_join("round.table", i) + ".meld.slots", tm.meld.cards) for i, tm in enumerate(r.table)]
    check_cards(state.rules, places, "round", None)
    check_facts(facts_of(state))
