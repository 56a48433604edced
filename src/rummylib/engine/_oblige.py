"""Can the current turn still end legally? (R-O4, D2, J4, T3, T7)

The engine offers an action only if, after it, the player can still finish
the turn: complete an opening in progress (R-O4), meet the D2 obligation (the
taken discard in a new meld; before opening, open with it and go out), put
freed jokers into new melds (J4), keep a card for the discard (T3) and not be
left holding only the card just taken from the pile (T7). This is where the
engine asks the solver.

An opened player's duties to new melds (the taken card, freed jokers) are
searched in :mod:`rummylib.engine._new_melds`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from rummylib.cards import Card, CardMultiset
from rummylib.engine._cache import goes_out, hand_melds, register
from rummylib.engine._complete import (
    OpeningSearch,
    fits_anywhere,
    may_open,
)
from rummylib.engine._cover import cannot_cover, may_meld
from rummylib.engine._fits import table_jokers, table_melds
from rummylib.engine._hand import add_card, remove_card, remove_cards, replace
from rummylib.engine._new_melds import NewMeldCover, swap_counts
from rummylib.engine._state import FRESH_TURN, PLAY_PHASE, RoundState, TurnState, evolve_round, evolve_turn
from rummylib.melds import Meld, swap_joker
from rummylib.rules import DiscardRule, Ruleset
from rummylib.solver._goout_screen import cannot_go_out

_NEW_MELD: Final = DiscardRule.NEW_MELD  # R-D2's rule as a global: an enum member is read through its metaclass

__all__ = [
    "can_finish_turn",
    "fits_anywhere",
    "may_take_discard",
    "needs_finish_check",
    "opening_search",
    "take_discard_round",
]


def needs_finish_check(r: RoundState) -> bool:
    """Whether the turn has a duty the solver must vouch for (else a discard always ends it)."""
    return turn_needs_check(r.turn, r.opened[r.to_act])


def turn_needs_check(turn: TurnState, opened: bool) -> bool:
    """:func:`needs_finish_check` of a round with ``turn``, for a player to act who has opened or not."""
    return turn.has_obligation or turn.taken is not None or (bool(turn.melds_laid) and not opened)


# --- going out with freed jokers (R-D2 after opening, J4) ------------------------------------


def _joker_covers(
    hand: CardMultiset,
    jokers: int,
    table: tuple[Meld, ...],
    rules: Ruleset,
    seen: set[tuple[CardMultiset, tuple[Meld, ...]]],
) -> Iterator[tuple[CardMultiset, tuple[Meld, ...]]]:
    """Ways to put ``jokers`` freed jokers into new melds, swapping more jokers in on the way (R-J4).

    Yields the cards left and the table after those melds and swaps.
    """
    if jokers <= 0:
        yield hand, table
        return
    for meld in hand_melds(hand, rules):  # find_melds' distinct melds, in its order (cached candidates)
        if not meld.joker_count:
            continue
        rest = remove_cards(hand, meld.cards)
        after = (*table, meld)
        if rest is None or (rest, after) in seen:
            continue
        seen.add((rest, after))
        yield from _joker_covers(rest, jokers - meld.joker_count, after, rules, seen)
    if not rules.joker_swap:
        return
    for i, tmeld in enumerate(table):
        for slot, stands in zip(tmeld.cards, tmeld.represents):
            if not slot.is_joker or not hand.count(stands):
                continue
            new_meld, joker = swap_joker(tmeld, stands, rules)
            swapped = add_card(remove_card(hand, stands), joker)
            after = (*table[:i], new_meld, *table[i + 1 :])
            if (swapped, after) in seen:
                continue
            seen.add((swapped, after))
            yield from _joker_covers(swapped, jokers + 1, after, rules, seen)


def _no_go_out(hand: CardMultiset, table: tuple[Meld, ...], rules: Ruleset) -> bool:
    """Sound screens before an exact go-out search: ``True`` means ``hand`` surely cannot go out onto ``table``.

    The counting screen first (microseconds), then the search of the cards
    only a new meld can take (:func:`~rummylib.engine._cover.cannot_cover`).
    """
    return cannot_go_out(hand, table, rules) or cannot_cover(hand, table, rules)


def _can_open_and_go_out(
    hand: CardMultiset, card: Card, table: tuple[Meld, ...], rules: Ruleset, *, screened: bool = False
) -> bool:
    """R-D2 before opening, nothing laid yet: open with ``card`` and go out this very turn (one exact search).

    ``screened``: the opening screen (:func:`may_open` of ``hand``) and the card's (:func:`may_meld`) are
    known to hold already. :func:`may_meld` does not read the card's own copy: it may be asked before the take.
    """
    if not screened:
        if not card.is_joker and not may_meld(card.index, hand._counts, hand._counts[52], rules):
            return False  # the Open holds the card in a meld of the hand's own cards and jokers (swaps come after it)
        if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
            return False  # most hands cannot even open
    if _no_go_out(hand, table, rules) or not OpeningSearch(hand, (), rules, go_out=False, taken=None).opens_with(card):
        return False  # sound screens, then an opening holding the card (its answers shared with the listing's)
    return goes_out(hand, table, rules, opened=False, open_with=card, opens=True)


# --- the question --------------------------------------------------------------------------


def opening_search(rules: Ruleset, r: RoundState) -> OpeningSearch:
    """The completion search for the player to act, who has not opened (R-O4)."""
    turn = r.turn
    table = table_melds(r.table)
    hand = r.hands[r.to_act]
    return OpeningSearch(hand, table, rules, go_out=turn.must_go_out, taken=turn.taken, hopeless=_no_go_out)


def opening_needs(rules: Ruleset, r: RoundState) -> tuple[int, bool, int | None, int | None]:
    """What the opening in progress still needs: points, a clean run, the taken card, melds allowed."""
    turn = r.turn
    need = rules.opening_points - turn.opening_points
    clean = rules.opening_clean_run and not turn.opening_clean
    card = None if turn.must_meld is None else turn.must_meld.index
    limit = rules.melds_per_turn
    allowance = None if limit is None else limit - turn.melds_laid
    return need, clean, card, allowance


def _unopened(rules: Ruleset, r: RoundState) -> bool:
    turn = r.turn
    hand = r.hands[r.to_act]
    if turn.laid and not turn.melds_laid:  # the opening is over for this turn (a lay-off came first)
        return turn.must_meld is None and not turn.must_go_out and _t7_ok(rules, r)
    if not (turn.melds_laid or turn.must_meld is not None or turn.must_go_out):
        return _t7_ok(rules, r)
    if turn.must_go_out and not turn.melds_laid and turn.must_meld is not None:
        table = table_melds(r.table)
        return _can_open_and_go_out(hand, turn.must_meld, table, rules)
    need, clean, card, allowance = opening_needs(rules, r)
    if not turn.melds_laid and not may_open(hand.counts, rules, need, clean):
        return False
    search = opening_search(rules, r)
    if not turn.melds_laid and not search.opens(hand.counts):
        return False
    return search.can_complete(hand.counts, need, clean, card, allowance)


def _t7_ok(rules: Ruleset, r: RoundState) -> bool:
    hand = r.hands[r.to_act]
    taken = r.turn.taken
    if taken is None or rules.discard_taken_card or len(hand) > hand.counts[taken.index]:  # another card is held
        return True
    # R-T7: the hand holds only the card just taken; it must be laid off first.
    keep = 1 if rules.must_discard_to_go_out else 0
    table = table_melds(r.table)
    return (hand.count(taken) >= 2 or keep == 0) and fits_anywhere(taken, table, rules)


def can_finish_turn(rules: Ruleset, r: RoundState) -> bool:
    """Whether the player to act (in the play phase) can still end this turn legally."""
    seat = r.to_act
    if rules.opening_required and not r.opened[seat]:
        return _unopened(rules, r)
    hand = r.hands[seat]
    turn = r.turn
    keep = 1 if rules.must_discard_to_go_out else 0
    table = table_melds(r.table)
    if turn.must_go_out:
        if not turn.freed_jokers:
            return not _no_go_out(hand, table, rules) and goes_out(hand, table, rules, opened=True)
        # R-J4 inside a D2 go-out: the freed jokers go into new melds first, then the rest goes out.
        for rest, after in _joker_covers(hand, turn.freed_jokers, table, rules, set()):
            if len(rest) >= keep and (
                not rest or (not _no_go_out(rest, after, rules) and goes_out(rest, after, rules, opened=True))
            ):
                return True
        return False
    if turn.must_meld is not None or turn.freed_jokers > 0:
        need = turn.must_meld
        owed = turn.freed_jokers
        if need is not None and need.is_joker:
            need, owed = None, owed + 1
        if hand.jokers < owed:
            return False  # NewMeldCover.run's first test, before the swaps are counted: a freed joker was laid off
        limit = rules.melds_per_turn
        allowance = None if limit is None else limit - turn.melds_laid
        new_melds = table[len(table) - turn.melds_laid :] if turn.melds_laid else ()
        cover = NewMeldCover(hand, need, owed, allowance, keep, swap_counts(r, rules), new_melds, rules)
        return cover.run()
    return _t7_ok(rules, r)


# --- taking the discard (R-D2, T7) --------------------------------------------------------


def take_discard_round(rules: Ruleset, r: RoundState, known: tuple[CardMultiset, ...] | None = None) -> RoundState:
    """The round after the player to act takes the top discard (the pile is not empty), unchecked.

    ``known``: the public knowledge of hands after it (R-H1), if the caller tracks it (else ``r``'s).
    """
    seat = r.to_act
    card = r.discard[-1]
    taken = None if rules.discard_taken_card else card
    if rules.discard_rule is _NEW_MELD:
        # R-D2: before opening, take it only to go out (house variant: only to open with it).
        must_go_out = not r.opened[seat] and not rules.take_discard_to_open
        turn = evolve_turn(FRESH_TURN, drawn=card, taken=taken, must_meld=card, must_go_out=must_go_out)
    else:
        turn = evolve_turn(FRESH_TURN, drawn=card, taken=taken)
    hands = replace(r.hands, seat, add_card(r.hands[seat], card))
    known_cards = r.known_cards if known is None else known
    return evolve_round(r, hands=hands, discard=r.discard[:-1], phase=PLAY_PHASE, turn=turn, known_cards=known_cards)


#: The last round asked whether its player may take the discard, and the answer (held, so its id stays its
#: own): the draw listing asks, then ``apply`` asks again of the same round.
_TAKE: list[tuple[RoundState, Ruleset, bool]] = []
register(_TAKE)


def may_take_discard(rules: Ruleset, r: RoundState, new: RoundState | None = None) -> bool:
    """Whether the player to act may take the top discard: there is one, and the turn can still end (R-D2, T7).

    ``new``: the round after the take, if built already.
    """
    if not r.discard:
        return False  # no pile to take from
    last = _TAKE[0] if _TAKE else None
    if last is not None and last[0] is r and last[1] is rules:
        return last[2]
    answer = _quick_take(rules, r) if new is None else None
    if answer is None:
        answer = can_finish_turn(rules, take_discard_round(rules, r) if new is None else new)
    _TAKE[:] = [(r, rules, answer)]
    return answer


def _quick_take(rules: Ruleset, r: RoundState) -> bool | None:
    """What :func:`can_finish_turn` answers on the round after the take where the hand's counts decide it; else None.

    Without R-D2 (``DiscardRule.FREE``) the take leaves no duty but R-T7, met
    whenever the hand holds a card besides the copies of the one taken. Before
    opening under R-D2 the player must open with the card and go out: that is
    :func:`_can_open_and_go_out` of the hand with the card, asked here with its
    opening screen done once. After opening, a natural card no meld of the hand
    (with its jokers and the swaps) could hold is refused, as
    :class:`~rummylib.engine._new_melds.NewMeldCover` would first. None of these
    builds the round of the take.
    """
    seat = r.to_act
    hand = r.hands[seat]
    card = r.discard[-1]
    if rules.discard_rule is not _NEW_MELD:
        # can_finish_turn, opened or not: no must_meld, no go-out, no freed joker: _t7_ok of the hand with the card
        if rules.discard_taken_card or hand._len > hand._counts[card.index]:
            return True
        return None
    if rules.opening_required and not r.opened[seat]:
        if rules.take_discard_to_open:
            return None
        held = hand._counts
        if not card.is_joker and not may_meld(card.index, held, held[52], rules):
            return False  # the cheapest sound test first (half the takes): as _can_open_and_go_out's
        counts = list(held)
        counts[card.index] += 1
        with_card = tuple(counts)
        if not may_open(with_card, rules, rules.opening_points, rules.opening_clean_run):
            return False
        # can_finish_turn of the take: _unopened asks exactly this (the turn's only duty is R-D2's)
        table = table_melds(r.table)
        return _can_open_and_go_out(CardMultiset._trusted(with_card), card, table, rules, screened=True)
    if r.opened[seat] and not card.is_joker and _cannot_meld(card.index, hand._counts, rules, r):
        return False  # NewMeldCover.run's first screen: no new meld could hold the card
    return None


def _cannot_meld(index: int, counts: tuple[int, ...], rules: Ruleset, r: RoundState) -> bool:
    """No meld of hand ``counts`` (before the take) with natural ``index``, its jokers and swaps holds it (R-D2, J4).

    :func:`may_meld` reads the card's partners off the counts; the swaps (the taken card's too) only where needed.
    """
    jokers = counts[52]
    if may_meld(index, counts, jokers, rules):
        return False
    if not rules.joker_swap:
        return True
    extra = 0  # each table joker standing for a card held (or the one taken): at most swap_counts' count
    for _, _, stands in table_jokers(r.table):  # kept for the last table; loops: no generator on the hot path
        for i in stands:
            if counts[i] or i == index:
                extra += 1
    return not (extra and may_meld(index, counts, jokers + extra, rules))
