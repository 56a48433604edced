"""The play phase's position, and its discards, lay-offs and joker swaps (R-T3, T6, T7, J4, J5, D2).

:func:`~rummylib.engine._legal.legal_actions` lists a play phase kind by
kind; the kinds share one look at the position (:class:`Play`: the hand, the
R-O4 boundary). Each kind is generated from what decides it: the hand's
distinct cards (discards), the free ends and slots of the table melds
(lay-offs), the jokers on the table and the cards they stand for (swaps). A
candidate that leaves a duty of the turn (the taken card, freed jokers, an
opening in progress, the last card) is checked as ``apply`` would check it,
without raising (:func:`after_ok`); the others need no check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import compress
from typing import Final

from rummylib._card import CARDS
from rummylib.actions import Action, Discard, LayOff, SwapJoker
from rummylib.cards import JOKER, Card, CardMultiset
from rummylib.engine._fits import grown_meld, holds_any, lay_off_candidates, swapped_meld, table_jokers
from rummylib.engine._hand import add_card, remove_card, replace
from rummylib.engine._oblige import can_finish_turn, needs_finish_check, turn_needs_check
from rummylib.engine._state import (
    PLAY_PHASE,
    GameState,
    RoundState,
    TableMeld,
    TurnState,
    evolve_round,
    table_meld,
)
from rummylib.engine._turn import laid_off_turn, swapped_turn
from rummylib.melds import End
from rummylib.rules import Ruleset

__all__ = ["DISCARDS", "Play", "after_ok", "discard_selectors", "discards", "lay_offs", "play", "swaps"]

#: ``Discard(card)`` for each card index, in the order of the card index (the hand's order).
DISCARDS: Final = tuple(Discard(card) for card in CARDS)


class Play:
    """What every play-phase generator needs to know of the position (a plain slotted record: built per listing).

    ``opened_after``: the player has opened, or will have at the R-O4 boundary
    (a lay-off, swap or discard); ``boundary_ok``: that boundary may be crossed
    now (the opening in progress meets R-O2); ``crossed``: the round once it is.
    """

    __slots__ = ("boundary_ok", "counts", "crossed", "hand", "opened_after", "r", "rules", "size")

    def __init__(
        self, rules: Ruleset, r: RoundState, opened_after: bool, boundary_ok: bool, crossed: RoundState
    ) -> None:
        self.rules, self.r, self.hand = rules, r, r.hands[r.to_act]
        self.counts, self.size = self.hand._counts, self.hand._len  # the hand's slots (no property or __len__ call)
        self.opened_after, self.boundary_ok, self.crossed = opened_after, boundary_ok, crossed


#: The last state looked at and its look (held, so its id stays its own).
_LAST: list[object] = [None, None]


def play(state: GameState) -> Play | None:
    """The look at ``state``'s play phase (None in another phase): the four kinds of one listing share it."""
    last = _LAST
    if last[0] is state:
        return last[1]  # type: ignore[return-value]  # the look kept with this very state
    p = _new_play(state)
    last[0], last[1] = state, p
    return p


def _new_play(state: GameState) -> Play | None:
    r = state.round
    if r.phase is not PLAY_PHASE:
        return None
    rules = state.rules
    seat = r.to_act
    turn = r.turn
    crossed = r
    ok = True
    opened = r.opened[seat]
    if not opened and turn.melds_laid:
        need = rules.opening_points
        ok = (
            turn.must_meld is None
            and turn.opening_points >= need
            and (turn.opening_clean or not rules.opening_clean_run)
        )
        opened = True
        crossed = evolve_round(r, opened=replace(r.opened, seat, True))
    return Play(rules, r, opened, ok, crossed)


def after_ok(p: Play, base: RoundState, hand: CardMultiset, turn: TurnState, **changes: object) -> bool:
    """What ``apply`` checks after a meld, lay-off or swap, without raising (mirrors ``_after_play``)."""
    rules = p.rules
    if not hand:
        if rules.must_discard_to_go_out:
            return False
        if not base.opened[base.to_act] and turn.melds_laid:
            # going out closes the opening (R-O4): it must meet R-O2
            need = rules.opening_points
            if turn.opening_points < need or (rules.opening_clean_run and not turn.opening_clean):
                return False
        return turn.must_meld is None and not turn.freed_jokers
    new = evolve_round(base, hands=replace(base.hands, base.to_act, hand), turn=turn, **changes)
    return not needs_finish_check(new) or can_finish_turn(rules, new)


def discards(state: GameState) -> Iterable[Action]:
    chosen = discard_selectors(state)
    return () if chosen is None else compress(DISCARDS, chosen)  # one Discard per distinct card, in the hand's order


def discard_selectors(state: GameState) -> tuple[int, ...] | None:
    """Per card index, non-zero where discarding that card is legal now; None where no discard is (R-T3, T7).

    The hand's own counts where every card it holds may go (``compress`` of :data:`DISCARDS` by them
    lists the discards): the environments' listing reads ids off them the same way.
    """
    p = play(state)
    if p is None or not p.boundary_ok:
        return None
    turn = p.r.turn
    if turn.must_meld is not None or turn.freed_jokers:
        return None
    if turn.must_go_out and p.size > 1:
        return None
    if p.rules.discard_taken_card or turn.taken is None:
        return p.counts
    chosen = list(p.counts)
    chosen[turn.taken.index] = 0  # R-T7: not the card just taken from the pile
    return tuple(chosen)


def lay_offs(state: GameState) -> Iterable[Action]:
    p = play(state)
    if p is None or not p.boundary_ok or not (p.opened_after or p.rules.lay_off_before_opening):
        return ()
    r = p.crossed
    found = lay_off_candidates(p.counts, p.r.table, p.rules)  # the table's own LayOff values (kept per table)
    if p.size > 1 and not turn_needs_check(r.turn, r.opened[r.to_act]):
        return found  # a lay-off adds no duty: each keeps a card
    return _checked_lay_offs(p, r, found)


def _checked_lay_offs(p: Play, r: RoundState, found: Iterable[LayOff]) -> Iterator[Action]:
    for lay in found:
        i, card, end = lay.target, lay.card, lay.end
        hand = remove_card(p.hand, card)
        turn = laid_off_turn(r, i, card)
        done = not turn_needs_check(turn, r.opened[r.to_act])  # needs_finish_check without a round copy
        if (hand and done) or after_ok(p, r, hand, turn, table=_grown_table(r, i, card, end)):
            yield lay


def _grown_table(r: RoundState, i: int, card: Card, end: End | None) -> tuple[TableMeld, ...]:
    tm = r.table[i]
    return replace(r.table, i, table_meld(meld=grown_meld(tm.meld, card, end), owner=tm.owner))


def swaps(state: GameState) -> Iterable[Action]:
    p = play(state)
    if p is None or not p.boundary_ok or not p.rules.joker_swap or not p.opened_after:
        return ()
    counts = p.counts
    for _, _, wanted in table_jokers(p.crossed.table):
        if holds_any(counts, wanted):
            return _swaps_of(p)  # some joker stands for a card held: the swaps are searched
    return ()  # no joker on the table stands for a card the hand holds (most listings): no generator


def _swaps_of(p: Play) -> Iterator[Action]:
    r = p.crossed
    for i, tm, wanted in table_jokers(r.table):  # the melds with a joker (kept per table)
        if not holds_any(p.counts, wanted):
            continue  # no joker of this meld stands for a card the hand holds (most melds)
        seen: set[Card] = set()
        for slot, stands in zip(tm.meld.cards, tm.meld.represents):
            if not slot.is_joker or stands in seen or not p.hand.count(stands):
                continue
            seen.add(stands)
            new_meld = swapped_meld(tm.meld, stands)  # swap_joker's meld: the table meld is checked already
            hand = add_card(remove_card(p.hand, stands), JOKER)
            turn = swapped_turn(r.turn, stands)
            if after_ok(p, r, hand, turn, table=replace(r.table, i, table_meld(meld=new_meld, owner=tm.owner))):
                yield SwapJoker(i, stands)
