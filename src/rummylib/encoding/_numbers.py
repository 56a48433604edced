"""The observation's table, turn and pile numbers: :class:`~rummylib.encoding.ObservationEncoder`'s trusted back.

The encoder (and the environments' :class:`~rummylib.rl._observe.StateObserver`)
asks these for the numbers of a table, a turn and a pile of a view or a
state it has already checked; they read only values the engine made, so the
compiled build compiles this module (``pyproject.toml``'s mypyc list). The
tests compare the encoder's vectors with these numbers against the field
layout on many reachable states, and the observer's against the encoder's.
"""

from __future__ import annotations

from typing import Final

from rummylib._card import NUM_CARD_KINDS, SUITS
from rummylib.cards import Card
from rummylib.engine._state import TableMeld, TurnState
from rummylib.melds import Group, Meld, Run

__all__ = ["meld_numbers", "pile_change", "pile_counts", "table_numbers", "turn_numbers"]

#: Numbers per table slot: kind, owner, suit or rank, start, length, joker slots, group suits.
SLOT_WIDTH: Final = 7
#: The ``turn`` field off the viewer's turn.
NO_TURN: Final = (0, 0, 0, 0, 0, 0, 0)
#: Each suit's index, by identity (an enum's own hash runs in Python).
_SUIT_INDEX: Final = {id(suit): i for i, suit in enumerate(SUITS)}
_JOKER: Final = NUM_CARD_KINDS - 1

#: A meld's numbers: the slot's numbers without the owner (kind first), the card indices it holds,
#: and the card index each of its jokers stands for.
MeldNumbers = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def meld_numbers(meld: Meld) -> MeldNumbers:
    """The numbers of one table meld (its slot without the owner, its cards, what its jokers stand for)."""
    jokers = 0
    cards = tuple([c.index for c in meld.cards])
    jokers_for: list[int] = []
    is_run = isinstance(meld, Run)
    for i, (card, rep) in enumerate(zip(meld.cards, meld.represents)):
        if card.index == _JOKER:
            jokers_for.append(rep.index)
            jokers |= 1 << (i if is_run else rep.index // 13)
    if isinstance(meld, Run):
        slot = (1, _SUIT_INDEX[id(meld.suit)] + 1, meld.start, len(cards), jokers, 0)
    else:
        assert isinstance(meld, Group)
        suits = 0
        for s in meld.suits:
            suits += 1 << _SUIT_INDEX[id(s)]
        slot = (2, int(meld.rank), 0, len(cards), jokers, suits)
    return slot, cards, tuple(jokers_for)


def table_numbers(
    table: tuple[TableMeld, ...], seat: int, players: int, slots: int, memo: dict[int, tuple[Meld, MeldNumbers]]
) -> tuple[int, ...]:
    """The ``table``, ``table_cards`` and ``table_jokers_for`` fields of ``table`` seen from ``seat``.

    ``memo`` keeps each meld's numbers by identity (it holds the meld, so its id cannot be reused
    while the entry lives): table melds are immutable and shared from state to state.
    """
    out: list[int] = []
    on_table = [0] * NUM_CARD_KINDS
    stands = [0] * 52
    for tm in table[:slots]:
        meld = tm.meld
        hit = memo.get(id(meld))
        if hit is not None and hit[0] is meld:
            numbers = hit[1]
        else:
            numbers = meld_numbers(meld)
            if len(memo) > 4096:
                memo.clear()
            memo[id(meld)] = (meld, numbers)
        slot, cards, jokers_for = numbers
        owner = tm.owner
        out.append(slot[0])
        out.append(0 if owner is None else 1 + (owner - seat) % players)
        out.extend(slot[1:])
        for i in cards:
            on_table[i] += 1
        for i in jokers_for:
            stands[i] += 1
    out.extend([0] * (SLOT_WIDTH * (slots - min(len(table), slots))))
    out.extend(on_table)
    out.extend(stands)
    return tuple(out)


def turn_numbers(t: TurnState | None, slots: int) -> tuple[int, ...]:
    """The ``turn`` field of the viewer's turn ``t`` (``None``: not the viewer's turn, all zeros)."""
    if t is None:
        return NO_TURN
    d, k, m = t.drawn, t.taken, t.must_meld
    return (
        0 if d is None else d.index + 1,
        0 if k is None else k.index + 1,
        0 if m is None else m.index + 1,
        int(t.must_go_out),
        t.freed_jokers,
        min(t.melds_laid, slots),
        int(t.laid),
    )


def pile_change(last: tuple[Card, ...], discard: tuple[Card, ...]) -> tuple[int, int] | None:
    """``(card index, +1 or -1)`` where ``discard`` is ``last`` with one card thrown onto it or its top taken.

    ``None`` for any other pile (a refill, a new round): its numbers are counted
    from every card. One discard or one take is the most common change by far
    (R-D1, D2), so the encoder and the environments' observer work a pile out
    from the last one's numbers with one count and the top changed.
    """
    size = len(discard)
    if size == len(last) + 1 and discard[:-1] == last:
        return discard[-1].index, 1
    if size == len(last) - 1 and last[:-1] == discard:
        return last[-1].index, -1
    return None


def pile_counts(discard: tuple[Card, ...]) -> tuple[int, ...]:
    """The ``pile`` and ``pile_top`` fields of ``discard``, counted from scratch."""
    pile = [0] * NUM_CARD_KINDS
    for card in discard:
        pile[card.index] += 1
    top = [0] * NUM_CARD_KINDS
    if discard:
        top[discard[-1].index] = 1
    return (*pile, *top)
