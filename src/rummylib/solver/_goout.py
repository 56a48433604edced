"""Plans that empty the hand this turn (R-T2 to T7, O2 to O4, J4, J5, E1, E3).

A plan places every card of the hand (but the one discarded where the rules
need a discard) by new melds, lay-offs onto the table melds and joker swaps.
New melds laid on one turn and lay-offs onto them are the same as longer new
melds, so lay-offs are only searched onto the melds already on the table.

The search branches on the lowest natural card left in the hand. First it
decides how many copies of that card replace table jokers standing for it
(R-J4: swaps are a set, so only their number matters, apart from the few
swaps that open a lay-off, which are tracked by slot). Then each copy is the
discard, or in a new meld, or in a lay-off onto a table meld (all the cards a
table meld receives are one option, so its two ends are decided together).
Jokers swapped off the table are counted apart: they must go into new melds
(R-J4), and the melds holding them are laid after the opening and do not
count toward it. Jokers that are left once the naturals are placed go onto
free ends of table melds, or are the discard. The state is polynomial in the
number of swappable jokers (every subset was tried before).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from rummylib._card import CARDS
from rummylib.actions import Action, Discard, LayMeld, LayOff, Open, SwapJoker
from rummylib.cards import JOKER, Card, CardMultiset, check_in_deck, deck
from rummylib.errors import (
    ArgumentError,
    ArgumentReason,
    CardsReason,
    InvalidCardsError,
    InvalidMeldError,
    MeldReason,
)
from rummylib.melds import End, Meld, validate_meld
from rummylib.rules import Ruleset
from rummylib.solver._goout_screen import cannot_go_out
from rummylib.solver._goout_search import _Search
from rummylib.solver._goout_steps import _Discard, _Extended, _Lay, _NewMeld, _State, _Swap
from rummylib.solver._layoffs import Fragment, fragments, lay_options
from rummylib.solver._opening import can_open
from rummylib.solver._results import prepare
from rummylib.solver._search import NEG, pack
from rummylib.solver._tables import Shape, build_meld, build_melds, tables_for

__all__ = ["can_go_out", "plan_checked", "plan_go_out"]


def _check_table(table: object, rules: Ruleset) -> tuple[Meld, ...]:
    # A meld holds three cards at least, so no deck makes more than a third of its size in melds: read no
    # more than that (a hostile table of a million melds, or an endless iterator, is refused at once).
    most = len(deck(rules)) // 3
    try:
        melds = tuple(itertools.islice(cast(Iterable[Meld], table), most + 1))
    except TypeError:
        msg = f"table must be a sequence of melds, not {type(table).__name__}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, table, msg) from None
    if len(melds) > most:
        msg = f"a table of more than {most} melds does not fit the {rules.name} deck"
        raise InvalidCardsError(CardsReason.NOT_IN_DECK, (), msg)
    for meld in melds:
        validate_meld(meld, rules)
    return tuple(melds)


class _Plan(NamedTuple):
    """A plan's parts, in the order they are played."""

    first: list[Meld]  # the Open's melds, or (opened) the first new melds
    swaps: list[SwapJoker]
    later: list[Meld]  # melds holding freed jokers
    layoffs: list[LayOff]
    discard: Card | None


def _search_for(
    hand: CardMultiset, table: Sequence[Meld], rules: Ruleset, need_open: bool, open_with: Card | None
) -> tuple[_Search, _State, int]:
    """The search for a go-out plan, solved: the search, its start state and value (NEG: no plan)."""
    counts = hand.counts
    probe = tables_for(counts, hand.jokers, rules, whole_runs=rules.melds_per_turn is not None)
    options, slots = lay_options(table, hand, rules, probe)
    tables = tables_for(counts, hand.jokers + len(slots), rules, whole_runs=rules.melds_per_turn is not None)
    if tables is not probe:
        options, slots = lay_options(table, hand, rules, tables)
    search = _Search(rules, tables, options, slots, need_open, None if open_with is None else open_with.index)
    if need_open and rules.opening_clean_run and hand.jokers:
        for frag in fragments(tables, counts, hand.jokers, rules):
            search.add_fragment(frag)
    start = search.start(
        pack(counts, tables), hand.jokers, need_open and rules.opening_clean_run, open_with is not None
    )
    return search, start, search.best(start, rules.opening_points if need_open else 0)


def _found(value: int, need_open: bool, rules: Ruleset) -> bool:
    """Whether the search's value is a plan's: some plan, and (before opening) one whose Open makes R-O2."""
    return value != NEG and not (need_open and value < rules.opening_points)


def _plan_for(
    hand: CardMultiset, table: Sequence[Meld], rules: Ruleset, need_open: bool, open_with: Card | None
) -> _Plan | None:
    search, start, value = _search_for(hand, table, rules, need_open, open_with)
    if not _found(value, need_open, rules):
        return None
    counted: list[Shape] = []
    later: list[Shape] = []
    extended: list[Fragment] = []
    plan = _Plan([], [], [], [], None)
    free_slots = {card: list(slots) for card, slots in enumerate(search.plain)}
    for step in search.path(start):
        if isinstance(step, _Swap):
            chosen = free_slots[step.card][: step.plain]
            del free_slots[step.card][: step.plain]
            chosen += [n for n in search.relevant[step.card] if step.slots >> n & 1]
            plan.swaps.extend(SwapJoker(search.slots[n].target, CARDS[search.slots[n].card]) for n in chosen)
        elif isinstance(step, _NewMeld):
            (counted if step.freed == 0 else later).append(step.shape)
        elif isinstance(step, _Extended):
            extended.append(step.fragment)
        elif isinstance(step, _Lay):
            plan.layoffs.extend(LayOff(step.option.target, CARDS[c], end) for c, end in step.option.order)
        elif isinstance(step, _Discard):
            plan = plan._replace(discard=CARDS[search.tables.card_at[step.card]])
        else:
            for opt in step.placed:
                plan.layoffs.extend(LayOff(opt.target, CARDS[c], end) for c, end in opt.order)
            if step.discard_joker:
                plan = plan._replace(discard=JOKER)
    plan.first.extend(_opening_melds(counted, extended, len(table), plan.layoffs, rules))
    plan.later.extend(build_melds(later, rules))
    return plan


def _opening_melds(
    counted: list[Shape], extended: list[Fragment], on_table: int, layoffs: list[LayOff], rules: Ruleset
) -> list[Meld]:
    """The first melds (the Open's), with the lay-offs onto extended opening runs added to ``layoffs``."""
    first = build_melds(counted, rules, mix_clean=False)
    if not extended:
        return first
    # Fragments exist only with the opening: the Open lays its melds in its own
    # canonical order, and a lay-off names its target by that order.
    cores = [build_meld(frag.core) for frag in extended]
    first = list(Open((*first, *cores)).melds)
    taken: set[int] = set()
    for core_meld, frag in zip(cores, extended):
        index = next(i for i, m in enumerate(first) if i not in taken and m == core_meld)
        taken.add(index)
        target = on_table + index
        layoffs.extend(LayOff(target, CARDS[c], End.LOW) for c in frag.low_ext)
        layoffs.extend(LayOff(target, CARDS[c], End.HIGH) for c in frag.high_ext)
    return first


def _check_open_with(card: object, hand: CardMultiset, need_open: bool) -> None:
    if not isinstance(card, Card):
        msg = f"open_with must be a Card, not {card!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, card, msg)
    if not hand.count(card):
        msg = f"open_with {card} is not in the hand {hand}"
        raise InvalidCardsError(CardsReason.NOT_ENOUGH, card, msg)
    if not need_open:
        msg = f"open_with {card} needs a plan that opens (opened=False under rules with an opening)"
        raise ArgumentError(ArgumentReason.BAD_VALUE, "open_with", card, f"open_with: {msg}")


def plan_go_out(
    hand: Iterable[Card], table: Sequence[Meld], rules: Ruleset, *, opened: bool, open_with: Card | None = None
) -> list[Action] | None:
    """Actions that empty the hand this turn, or ``None`` if it cannot be done.

    The hand is as it stands after the draw. A plan is: the ``Open`` (when
    ``opened`` is false and the rules need an opening; its melds alone meet
    R-O2), joker swaps (R-J4; each freed joker goes into a new meld laid the
    same turn, which does not count toward the opening), further new melds,
    lay-offs onto ``table`` (``LayOff.target`` indexes ``table``), and the
    final ``Discard`` where the rules need one (R-E1) or a card remains
    (R-E3). It respects ``rules.melds_per_turn`` (R-T5; an ``Open`` counts
    its melds). Exact: ``None`` means no plan exists.

    Args:
        hand: the cards in hand (any iterable of cards).
        table: the melds on the table, in the order they were laid.
        rules: the ruleset.
        opened: whether the player has opened already (R-O1).
        open_with: a card of the hand that the ``Open`` must hold (one copy
            of it, in one of the opening melds themselves): R-D2, a player
            who has not opened takes the top discard only to open with it
            and go out. A card laid later in the turn does not count, not
            even by a lay-off onto an opening run (R-O4, O6). Only meaningful
            when the plan opens (``opened`` false and
            ``rules.opening_required``); otherwise it is an error. A joker
            asks for an opening meld with a joker (never a freed one: swaps
            come after the Open).

    Raises:
        InvalidCardsError: the hand is not made of cards, or hand and table
            hold more copies of a card than the deck; ``open_with`` is not a
            card, or not in the hand.
        ArgumentError: ``opened`` is not a bool, or ``open_with`` is
            given where the plan has no ``Open`` (``opened`` true, or rules
            without an opening).
        InvalidMeldError: a table meld is not a valid meld under ``rules``.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import REMIK, make_meld, parse_cards, plan_go_out
    >>> table = [make_meld(parse_cards("JS QS KS"), REMIK)]
    >>> for action in plan_go_out(parse_cards("JK 9S 2D"), table, REMIK, opened=True):
    ...     print(action)
    layoff #0 JK low
    layoff #0 9S low
    discard 2D

    With ``open_with`` only plans whose ``Open`` holds the card count (R-D2):
    here 9D can open, but 2C can only be the discard.

    >>> from rummylib import format_meld, parse_card
    >>> hand = parse_cards("JH QH KH AH 9S 9D 9C 2C")
    >>> plan = plan_go_out(hand, [], REMIK, opened=False, open_with=parse_card("9D"))
    >>> [format_meld(m) for m in plan[0].melds], plan[-1]
    (['JH QH KH AH', '9S 9D 9C'], Discard(card=Card('2C')))
    >>> print(plan_go_out(hand, [], REMIK, opened=False, open_with=parse_card("2C")))
    None
    """
    ms, melds, checked = _checked(hand, table, rules, opened, open_with)
    return plan_checked(ms, melds, checked, opened=opened, open_with=open_with)


def _checked(
    hand: object, table: object, rules: object, opened: object, open_with: object
) -> tuple[CardMultiset, tuple[Meld, ...], Ruleset]:
    """:func:`plan_go_out`'s arguments checked: the hand, the table melds and the ruleset."""
    ms, checked = prepare(hand, rules, "hand")
    if not isinstance(opened, bool):
        msg = f"opened must be a bool, not {opened!r}"
        raise ArgumentError(ArgumentReason.WRONG_TYPE, "opened", opened, f"opened: {msg}")
    melds = _check_table(table, checked)
    on_table = CardMultiset(c for m in melds for c in m.cards)
    check_in_deck(ms + on_table, checked, "hand and table")
    if open_with is not None:
        _check_open_with(open_with, ms, checked.opening_required and not opened)
    return ms, melds, checked


def plan_checked(
    ms: CardMultiset,
    melds: tuple[Meld, ...],
    checked: Ruleset,
    *,
    opened: bool,
    open_with: Card | None = None,
    opens: bool = False,
) -> list[Action] | None:
    """:func:`plan_go_out` on arguments already checked (the engine's own state: valid melds, a real hand).

    ``opens``: ``can_open(ms, checked)`` is known to hold (it implies the
    ``keep=0`` test below, which is then skipped).
    """
    need_open = checked.opening_required and not opened
    settled = _settled(ms, melds, checked, need_open, opens)
    if settled is not None:
        return [] if settled else None
    found = _plan_for(ms, melds, checked, need_open, open_with)
    if found is None:
        return None
    actions: list[Action] = []
    if need_open:
        actions.append(Open(found.first))
    actions.extend(found.swaps)
    if not need_open:
        actions.extend(LayMeld(m) for m in found.first)
    actions.extend(LayMeld(m) for m in found.later)
    actions.extend(found.layoffs)
    if found.discard is not None:
        actions.append(Discard(found.discard))
    return actions


def _settled(ms: CardMultiset, melds: tuple[Meld, ...], checked: Ruleset, need_open: bool, opens: bool) -> bool | None:
    """Whether a plan exists, where that is known before the search (an empty hand, the sound screens); else ``None``.

    ``True`` only for an empty hand that may go out as it is (the empty plan).
    """
    if not ms:
        return not (need_open or checked.must_discard_to_go_out)
    if cannot_go_out(ms, melds, checked):
        return False  # only one card can be the discard (R-T2, E1, E3)
    # The Open comes from the hand alone (R-O2, O4): no opening, no plan.
    if need_open and not opens and not can_open(ms, checked, keep=0):
        return False
    return None


def can_go_out(
    ms: CardMultiset,
    melds: tuple[Meld, ...],
    checked: Ruleset,
    *,
    opened: bool,
    open_with: Card | None = None,
    opens: bool = False,
) -> bool:
    """Whether :func:`~rummylib.plan_go_out` finds a plan, on the engine's checked values (no re-validation).

    ``plan_checked(...) is not None``, without building the plan: the
    search's value decides it. ``opens``: the caller knows ``can_open(ms,
    checked)`` holds, so the plan's own opening test (``keep=0``, implied) is
    skipped.
    """
    need_open = checked.opening_required and not opened
    settled = _settled(ms, melds, checked, need_open, opens)
    if settled is not None:
        return settled
    return _found(_search_for(ms, melds, checked, need_open, open_with)[2], need_open, checked)
