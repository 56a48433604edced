"""Can the current turn still end legally? (R-D2, J4, T3, T7)

The engine offers an action only if, after it, the player can still finish
the turn: meet the D2 obligation (the taken discard in a new meld; before
opening, open with it and go out), put freed jokers into new melds (J4),
keep a card for the discard (T3) and not be left holding only the card just
taken from the pile (T7). This is where the engine asks the solver.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rummylib.cards import JOKER, Card, CardMultiset
from rummylib.engine._hand import add_card, remove_card, remove_cards
from rummylib.engine._state import RoundState
from rummylib.melds import End, Meld, Run, is_clean_run, lay_off, meld_points, swap_joker
from rummylib.rules import Ruleset
from rummylib.solver import can_open, find_melds, plan_go_out

__all__ = ["can_finish_turn", "fits_anywhere", "openings"]


def fits_anywhere(card: Card, table: Sequence[Meld], rules: Ruleset) -> bool:
    """Whether ``card`` can be laid off onto some meld of ``table``."""
    for meld in table:
        ends: tuple[End | None, ...] = (End.LOW, End.HIGH) if isinstance(meld, Run) else (None,)
        for end in ends:
            try:
                lay_off(meld, card, rules, end=end)
            except ValueError:
                continue
            return True
    return False


def openings(melds: Sequence[Meld], hand: CardMultiset, rules: Ruleset) -> Iterator[tuple[Meld, ...]]:
    """Every multiset of disjoint ``melds`` from ``hand`` that is a legal opening (R-O2).

    ``melds`` must be distinct; each opening is yielded once, its melds in
    the order of ``melds``. The opening leaves a card for the discard if the
    rules need one. Lazy: the number of openings is exponential in the hand.
    """
    keep = 1 if rules.must_discard_to_go_out else 0
    limit = rules.melds_per_turn
    need = rules.opening_points
    clean_needed = rules.opening_clean_run
    values = [meld_points(m, rules) for m in melds]
    clean = [is_clean_run(m) for m in melds]

    def walk(
        start: int, left: CardMultiset, chosen: tuple[Meld, ...], points: int, has_clean: bool
    ) -> Iterator[tuple[Meld, ...]]:
        if chosen and points >= need and (has_clean or not clean_needed) and len(left) >= keep:
            yield chosen
        if limit is not None and len(chosen) >= limit:
            return
        for i in range(start, len(melds)):
            rest = remove_cards(left, melds[i].cards)
            if rest is None:
                continue
            yield from walk(i, rest, (*chosen, melds[i]), points + values[i], has_clean or clean[i])

    yield from walk(0, hand, (), 0, False)


def _cover(
    hand: CardMultiset,
    need: Card | None,
    jokers: int,
    allowance: int | None,
    keep: int,
    swaps: tuple[Card, ...],
    rules: Ruleset,
    cache: dict[CardMultiset, list[Meld]],
) -> bool:
    """Whether new melds from ``hand`` can hold ``need`` and ``jokers`` jokers, leaving ``keep`` cards.

    ``swaps`` are the cards table jokers stand for: swapping one in (R-J4)
    puts a joker in the hand that must go into a new meld as well.
    """
    if need is None and jokers <= 0:
        return len(hand) >= keep
    if allowance is not None and allowance <= 0:
        return False
    melds = cache.get(hand)
    if melds is None:
        melds = cache[hand] = _find_melds(hand, rules)
    target = need if need is not None else JOKER
    less = None if allowance is None else allowance - 1
    for meld in melds:
        if target not in meld.cards:
            continue
        rest = remove_cards(hand, meld.cards)
        if rest is None or len(rest) < keep:
            continue
        if _cover(rest, None, jokers - meld.joker_count, less, keep, swaps, rules, cache):
            return True
    for i, card in enumerate(swaps):
        if (i and swaps[i - 1] == card) or not hand.count(card):
            continue
        swapped = add_card(remove_card(hand, card), JOKER)
        if _cover(swapped, need, jokers + 1, allowance, keep, swaps[:i] + swaps[i + 1 :], rules, cache):
            return True
    return False


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
    for meld in _find_melds(hand, rules):
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


def _find_melds(hand: CardMultiset, rules: Ruleset) -> list[Meld]:
    return list(find_melds(hand, rules))


def _plan_go_out(hand: CardMultiset, table: Sequence[Meld], rules: Ruleset, *, opened: bool) -> bool:
    return plan_go_out(hand, list(table), rules, opened=opened) is not None


def _can_open_and_go_out(hand: CardMultiset, card: Card, table: tuple[Meld, ...], rules: Ruleset) -> bool:
    """R-D2 before opening: open with ``card`` and go out this very turn (one exact search)."""
    if not can_open(hand, rules):
        return False  # cheap test first: most hands cannot even open
    return plan_go_out(hand, list(table), rules, opened=False, open_with=card) is not None


def can_finish_turn(rules: Ruleset, r: RoundState) -> bool:
    """Whether the player to act (in the play phase) can still end this turn legally."""
    seat = r.to_act
    hand = r.hands[seat]
    turn = r.turn
    keep = 1 if rules.must_discard_to_go_out else 0
    table = tuple(tm.meld for tm in r.table)
    if turn.must_go_out:
        if not r.opened[seat]:
            return turn.must_meld is not None and _can_open_and_go_out(hand, turn.must_meld, table, rules)
        if not turn.freed_jokers:
            return _plan_go_out(hand, table, rules, opened=True)
        # R-J4 inside a D2 go-out: the freed jokers go into new melds first, then the rest goes out.
        for rest, after in _joker_covers(hand, turn.freed_jokers, table, rules, set()):
            if len(rest) >= keep and (not rest or _plan_go_out(rest, after, rules, opened=True)):
                return True
        return False
    if turn.must_meld is not None or turn.freed_jokers > 0:
        need = turn.must_meld
        jokers = turn.freed_jokers
        if need is not None and need.is_joker:
            need, jokers = None, jokers + 1
        limit = rules.melds_per_turn
        allowance = None if limit is None else limit - turn.melds_laid
        swaps: tuple[Card, ...] = ()
        if rules.joker_swap and r.opened[seat]:
            swaps = tuple(sorted(x for tm in r.table for c, x in zip(tm.meld.cards, tm.meld.represents) if c.is_joker))
        return _cover(hand, need, jokers, allowance, keep, swaps, rules, {})
    taken = turn.taken
    if taken is None or rules.discard_taken_card or any(c != taken for c in hand.distinct()):
        return True
    # R-T7: the hand holds only the card just taken; it must be laid off first.
    copies = hand.count(taken)
    return (copies >= 2 or keep == 0) and fits_anywhere(taken, table, rules)
