"""Every legal single-step action of a state, generated directly from the position.

Each kind of action is generated from what decides it: the hand's distinct
cards (discards), the free ends and slots of the table melds (lay-offs), the
jokers on the table and the cards they stand for (swaps), the distinct melds
the solver finds in the hand (new melds), and the turn's duties. No candidate
goes through :func:`~rummylib.apply`: where a duty of the turn decides (an
opening in progress, R-O4; the taken discard, R-D2; freed jokers, R-J4; the
card taken, R-T7) the solver is asked once per state, or once per candidate
meld on count vectors. The listing is exact: a test checks it against
``apply`` on every action of a brute-force enumeration.

Listed are single steps only: an opening is laid meld by meld with
:class:`~rummylib.LayMeld`; the composite :class:`~rummylib.Open` is accepted by
``apply`` but never listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, cast, overload

from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, NextRound, SwapJoker, TakeDiscard
from rummylib.cards import CardMultiset
from rummylib.engine._check import by_is_legal, is_legal
from rummylib.engine._complete import may_open, minus
from rummylib.engine._moves import Play, after_ok, discards, lay_offs, play, swaps
from rummylib.engine._oblige import (
    may_take_discard,
    opening_needs,
    opening_search,
)
from rummylib.engine._state import (
    DRAW_PHASE,
    ROUND_OVER_PHASE,
    GameState,
    Phase,
    RoundState,
    TurnState,
    table_meld,
)
from rummylib.engine._turn import melded_turn
from rummylib.errors import InvalidStateError, StateReason
from rummylib.rules import Ruleset
from rummylib.solver._queries import hand_candidates

__all__ = ["KINDS", "LegalActions", "legal_actions"]

#: The kinds of action, in the order a listing gives them.
KINDS: Final = ("next_round", "draws", "discards", "lay_offs", "swaps", "melds")

# Actions are immutable values: the listing hands out shared instances of the ones without choices.
_DRAW_STOCK: Final = DrawStock()
_TAKE_DISCARD: Final = TakeDiscard()
_NEXT_ROUND: Final = NextRound()
_DRAWS: Final[tuple[tuple[Action, ...], ...]] = ((_DRAW_STOCK,), (_DRAW_STOCK, _TAKE_DISCARD))  # by may_take_discard


class LegalActions(Sequence[Action]):
    """The legal single-step actions of a state: a lazy, sized, indexable sequence, grouped by kind.

    Each kind is generated on first use (``.draws``, ``.discards``,
    ``.lay_offs``, ``.swaps``, ``.melds``, ``.next_round``; ``by_kind()``
    gives them all); ``len``, indexing and iteration build the whole list once.
    ``action in legal`` asks :func:`~rummylib.is_legal` until the list is built,
    so it also answers for the composite :class:`~rummylib.Open`. It holds the
    state, so hand it only to trusted bots; to keep a bot honest give it
    ``SeatActions(LegalActions(state))`` (as :func:`~rummylib.play_game` and
    :func:`~rummylib.simulate` do).

    Complete and exact: every single-step action :func:`~rummylib.apply`
    accepts is listed, each once, and nothing else. Joker declarations are
    part of the melds, so each reading of a joker is its own action; a run
    lay-off names its end.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 3, seed=1)
    >>> legal = rl.LegalActions(s)
    >>> rl.DrawStock() in legal, len(legal) == len(legal.discards) + len(legal.melds)
    (False, True)
    """

    __slots__ = ("_items", "_kinds", "_state")

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, GameState):
            msg = f"legal actions need a GameState, not {type(state).__name__}"
            raise InvalidStateError(StateReason.WRONG_TYPE, "", msg)
        self._state = state
        self._items: tuple[Action, ...] | None = None
        self._kinds: dict[str, tuple[Action, ...]] = {}

    def _kind(self, kind: str) -> tuple[Action, ...]:
        found = self._kinds.get(kind)
        if found is None:
            found = self._kinds[kind] = tuple(_GENERATORS[kind](self._state))
        return found

    @property
    def next_round(self) -> tuple[NextRound, ...]:
        """:class:`~rummylib.NextRound`, once a round is over."""
        return cast("tuple[NextRound, ...]", self._kind("next_round"))

    @property
    def draws(self) -> tuple[DrawStock | TakeDiscard, ...]:
        """:class:`~rummylib.DrawStock` and :class:`~rummylib.TakeDiscard` where legal."""
        return cast("tuple[DrawStock | TakeDiscard, ...]", self._kind("draws"))

    @property
    def discards(self) -> tuple[Discard, ...]:
        """One :class:`~rummylib.Discard` per distinct card that may go."""
        return cast("tuple[Discard, ...]", self._kind("discards"))

    @property
    def lay_offs(self) -> tuple[LayOff, ...]:
        """Every legal :class:`~rummylib.LayOff` (each run end separately)."""
        return cast("tuple[LayOff, ...]", self._kind("lay_offs"))

    @property
    def swaps(self) -> tuple[SwapJoker, ...]:
        """Every legal :class:`~rummylib.SwapJoker`."""
        return cast("tuple[SwapJoker, ...]", self._kind("swaps"))

    @property
    def melds(self) -> tuple[LayMeld, ...]:
        """Every legal :class:`~rummylib.LayMeld` (before opening, each meld of an opening still completable)."""
        return cast("tuple[LayMeld, ...]", self._kind("melds"))

    def by_kind(self) -> dict[str, tuple[Action, ...]]:
        """Every kind (see :data:`KINDS`) to its actions, empty kinds included."""
        return {kind: self._kind(kind) for kind in KINDS}

    def _all(self) -> tuple[Action, ...]:
        if self._items is None:
            # Only the phase's own kinds can hold actions: the others are known empty without a look.
            kinds, state = self._kinds, self._state
            steps = _STEPS_BY_ID[id(state.round.phase)]
            if len(steps) == 1 and not kinds:  # a draw or round-over phase, no kind asked yet: one generator
                kind, generate = steps[0]
                self._items = kinds[kind] = tuple(generate(state))
                return self._items
            items: list[Action] = []
            if not kinds:  # no kind asked yet (the listing of a step): each generated in turn
                for kind, generate in steps:
                    items += (made := tuple(generate(state)))
                    kinds[kind] = made
            else:
                for kind, generate in steps:
                    found = kinds.get(kind)
                    if found is None:
                        found = kinds[kind] = tuple(generate(state))
                    items += found
            self._items = tuple(items)
        return self._items

    def __contains__(self, action: object) -> bool:
        if self._items is not None:
            return action in self._items
        kind = _KIND_OF.get(type(action))
        if kind is not None and (kind in self._kinds or not by_is_legal(action)):
            return action in self._kind(kind)  # a kind is cheap to list, and shared by later tests
        try:
            return is_legal(self._state, action)  # type: ignore[arg-type]
        except (TypeError, ValueError):  # not an action at all
            return False

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __repr__(self) -> str:
        shown = "..." if self._items is None else ", ".join(map(repr, self._items))
        return f"LegalActions({shown})"


def legal_actions(state: GameState) -> LegalActions:
    """Every single-step action :func:`~rummylib.apply` accepts in ``state`` (a :class:`LegalActions`).

    Complete and exact: every action of one step that ``apply`` accepts is
    listed once, and nothing else. An opening is listed meld by meld
    (:class:`~rummylib.LayMeld`, R-O4); the composite :class:`~rummylib.Open`
    is never listed, though ``apply`` accepts it.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> list(rl.legal_actions(s))
    [DrawStock(), TakeDiscard()]

    Raises:
        InvalidStateError: ``state`` is not a :class:`GameState`.
    """
    return LegalActions(state)


# --- the generators -------------------------------------------------------------------------


def _next_round(state: GameState) -> Iterable[Action]:
    return (_NEXT_ROUND,) if state.round.phase is ROUND_OVER_PHASE else ()


def _draws(state: GameState) -> Iterable[Action]:
    r = state.round
    return _DRAWS[may_take_discard(state.rules, r)] if r.phase is DRAW_PHASE else ()


def _melds(state: GameState) -> Iterable[Action]:
    p = play(state)
    if p is None:
        return ()
    r, rules = p.r, p.rules
    turn = r.turn
    limit = rules.melds_per_turn
    if limit is not None and turn.melds_laid >= limit:
        return ()
    if rules.opening_required and not r.opened[r.to_act]:
        if turn.laid and not turn.melds_laid:
            return ()  # the opening comes before any lay-off (R-O4)
        if not turn.melds_laid and not may_open(p.counts, rules, *opening_needs(rules, r)[:2]):
            return ()  # most hands: no opening at all, so no meld of one
        return _opening_melds(p)
    return _opened_melds(p, r, rules, turn)


def _opened_melds(p: Play, r: RoundState, rules: Ruleset, turn: TurnState) -> Iterator[Action]:
    seat = r.to_act
    counts = p.counts
    free = turn.taken is None and not turn.has_obligation  # then a meld adds no duty (R-D2, J4, T7)
    size = p.size
    for info in hand_candidates(counts, rules):
        meld = info.meld
        if free and info.size < size:  # a card is kept: nothing to check
            yield LayMeld(meld)
            continue
        hand = CardMultiset._trusted(minus(counts, info))
        new_turn = melded_turn(turn, (meld,), rules, opening=False)
        if (hand and not new_turn.has_obligation and new_turn.taken is None) or after_ok(
            p, r, hand, new_turn, table=(*r.table, table_meld(meld=meld, owner=seat))
        ):
            yield LayMeld(meld)


def _opening_melds(p: Play) -> Iterator[Action]:
    """Each meld that keeps the opening completable this turn, with the turn's duties (R-O4, D2, T3)."""
    r, rules = p.r, p.rules
    need, clean, card, allowance = opening_needs(rules, r)  # the opening screen is passed (see _melds)
    search = opening_search(rules, r)
    if not r.turn.melds_laid and not search.opens(p.counts):
        return
    if allowance is not None:
        search.known.clear()  # the screen's openings may hold more melds than the turn allows
    less = None if allowance is None else allowance - 1
    size = p.size
    keep, known, after_meld = search.keep, search.known, search.after_meld  # known: updated in place
    for j, info in enumerate(search.melds):
        rest = size - info.size
        if rest == 0:
            if rules.must_discard_to_go_out:
                continue
            turn = melded_turn(r.turn, (info.meld,), rules, opening=True)
            if after_ok(p, r, CardMultiset(), turn):
                yield LayMeld(info.meld)
            continue
        if rest < keep:
            continue
        # j in known: a meld of an opening found for another meld (with the same duties)
        if j in known or after_meld(j, need, clean, card, less):
            yield LayMeld(info.meld)


#: The kind each single-step action belongs to (an Open is asked of ``is_legal``).
_KIND_OF: Final[dict[type, str]] = {
    NextRound: "next_round",
    DrawStock: "draws",
    TakeDiscard: "draws",
    Discard: "discards",
    LayOff: "lay_offs",
    SwapJoker: "swaps",
    LayMeld: "melds",
}

#: Per phase, the kinds it may hold, in the order of :data:`KINDS` (the others yield nothing there).
_PHASE_ORDER: Final[dict[Phase, tuple[str, ...]]] = {
    Phase.DRAW: ("draws",),
    Phase.PLAY: ("discards", "lay_offs", "swaps", "melds"),
    Phase.ROUND_OVER: ("next_round",),
    Phase.GAME_OVER: (),
}
_ORDER_BY_ID: Final = {id(phase): kinds for phase, kinds in _PHASE_ORDER.items()}  # by identity: Enum hashes in Python

#: Each kind's generator: plain functions answer ``()`` where the position rules their kind out (no generator runs).
_GENERATORS: Final[dict[str, Callable[[GameState], Iterable[Action]]]] = {
    "next_round": _next_round,
    "draws": _draws,
    "discards": discards,
    "lay_offs": lay_offs,
    "swaps": swaps,
    "melds": _melds,
}

#: Per phase (by identity), its kinds with their generators, in the order of :data:`KINDS`.
_STEPS_BY_ID: Final = {
    id(phase): tuple((kind, _GENERATORS[kind]) for kind in kinds) for phase, kinds in _PHASE_ORDER.items()
}
