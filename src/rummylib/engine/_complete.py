"""Can an opening in progress still be completed this turn? (R-O2, O4, D2, T3)

A player who has not opened lays the opening meld by meld; each step is
accepted only while the rest of the hand can still bring the opening to the
rules' points (with a clean run) together with the turn's other duties: the
taken discard in an opening meld (R-D2), going out when it was taken to go
out, a card kept for the discard (R-T3).

The search works on count vectors of the hand and the distinct melds the
solver finds in it once (``find_melds``); it is memoised on what decides the
answer (the cards left, the points still missing, whether the clean run and
the taken card are still needed, the melds still allowed), so each question
is answered once per position, never by listing openings. A bound on the
points the cards left can still bring cuts hopeless branches early.

The candidate melds come from the solver's packed-count query
(:func:`~rummylib.solver._queries.sorted_by_points`: pairs, points and bounds
computed once per hand, most valuable first), and the search carries the
hand's size and card bound down instead of summing them at every node.

Inside the search the cards left are one integer, a byte per card index
(:func:`~rummylib.solver._masks.pack_counts`, the layout of the candidates'
own packed cards; a count is at most 16, so bit 7 of each byte is free): a
meld fits when subtracting its own packed cards from the counts with every
bit 7 set leaves every bit 7 set (no byte borrowed), and the cards left are
the plain difference. One subtraction and one mask replace the loop over a
meld's cards and the new 53-tuple per step, and the memo hashes an integer.
Before that test, a small integer refuses most melds: a bit per natural card
that may still be left (each candidate holds its natural cards as such a mask),
carried down as the cards the hand holds once are laid (a card it holds twice
stays in the mask: it is a superset of the cards left, so it refuses only
melds that do not fit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rummylib.cards import Card, CardMultiset
from rummylib.engine._cache import goes_out, hand_opens, register
from rummylib.engine._screen import card_bound, may_open
from rummylib.melds import End, Meld, Run, lay_off
from rummylib.rules import Ruleset
from rummylib.solver._masks import GUARD, naturals_held, pack_counts, unpack_counts
from rummylib.solver._queries import Candidate, sorted_by_points

__all__ = [
    "MeldInfo",
    "OpeningSearch",
    "card_bound",
    "fits",
    "fits_anywhere",
    "may_open",
    "minus",
]


#: A candidate meld on count vectors (the solver's :class:`~rummylib.solver._queries.Candidate`).
MeldInfo = Candidate


def _holds(counts: tuple[int, ...], pairs: tuple[tuple[int, int], ...]) -> bool:
    for i, k in pairs:  # noqa: SIM110 - a loop: no generator on the hot path
        if counts[i] < k:
            return False
    return True


def fits(counts: tuple[int, ...], info: MeldInfo) -> bool:
    """Whether ``counts`` holds the cards of ``info``."""
    return _holds(counts, info.pairs)


def minus(counts: tuple[int, ...], info: MeldInfo) -> tuple[int, ...]:
    """``counts`` less the cards of ``info`` (which it holds)."""
    out = list(counts)
    for i, k in info.pairs:
        out[i] -= k
    return tuple(out)


class OpeningSearch:
    """The completion question for one hand, with a memo shared by every question on it.

    Args:
        hand: the hand now (the opening melds laid so far are on the table).
        table: the table now.
        rules: the ruleset.
        go_out: after the opening the whole hand must go out (R-D2).
        taken: the card taken from the pile that may not be discarded (R-T7), if any.
        hopeless: whether a hand surely cannot go out onto a table (a cheap
            sound screen run before each go-out plan).
    """

    __slots__ = (
        "_all",
        "_asked",
        "_clean",
        "_clean_masks",
        "_counts",
        "_go_out",
        "_holding",
        "_hopeless",
        "_memo",
        "_packed",
        "_path",
        "_plans",
        "_rules",
        "_size_bound",
        "_table",
        "_taken",
        "keep",
        "known",
        "melds",
    )

    def __init__(
        self,
        hand: CardMultiset,
        table: tuple[Meld, ...],
        rules: Ruleset,
        *,
        go_out: bool,
        taken: Card | None,
        hopeless: Callable[[CardMultiset, tuple[Meld, ...], Ruleset], bool] = lambda *_: False,
    ) -> None:
        self._rules = rules
        self._hopeless = hopeless
        self._plans: dict[tuple[object, ...], bool] = {}
        self._table = table
        self._go_out = go_out
        self._taken = None if rules.discard_taken_card else taken
        self.keep = 1 if rules.must_discard_to_go_out else 0
        # Most valuable first: a completion, when there is one, is found early.
        counts = hand._counts  # the slot itself (no property call)
        self.melds: tuple[MeldInfo, ...] = sorted_by_points(counts, rules)
        self._all, self._clean = _indexed(self.melds, counts)
        self._counts = counts
        self._packed = pack_counts(counts)
        self._clean_masks: tuple[int, ...] | None = None
        self._size_bound: tuple[int, int, int] | None = None
        self._holding: dict[int, _Rows] = {}
        # Without a go-out or a taken card an answer depends on the cards and duties alone: shared.
        self._memo = _shared_memo(rules) if not go_out and self._taken is None else {}
        self._path: list[int] = []
        #: Per meld's cards and duties (see :meth:`after_meld`): the most points a meld of them was refused
        #: with, and the fewest it was accepted with.
        self._asked: dict[tuple[int, int, bool, int | None, int | None], tuple[int, int]] = {}
        #: Indices (into :attr:`melds`) of melds seen in a completion found: each is in an opening that exists.
        self.known: set[int] = set()

    def opens(self, counts: tuple[int, ...]) -> bool:
        """``can_open(hand, rules)`` for the hand of this search (``counts``), duties aside.

        Exactly the solver's question (an opening of the rules' points, with a
        clean run where required, leaving the cards the rules keep; the meld
        limit of a turn plays no part), asked of the hand's candidate melds.
        Where the search has no duty of its own (no go-out, no taken card) it
        is the search's own root question, so its memo serves the per-meld
        questions that follow; otherwise the solver is asked (cached).
        """
        rules = self._rules
        if self._go_out or self._taken is not None:
            return hand_opens(CardMultiset._trusted(counts), rules)
        return self.can_complete(counts, rules.opening_points, rules.opening_clean_run, None, None)

    def opens_with(self, card: Card) -> bool:
        """R-D2, O2: some opening of the hand (duties aside) holds natural ``card``; any opening, for a joker."""
        rules = self._rules
        index = None if card.is_joker else card.index
        return self.can_complete(self._counts, rules.opening_points, rules.opening_clean_run, index, None)

    def can_complete(
        self,
        counts: tuple[int, ...],
        need: int,
        clean: bool,
        card: int | None,
        allowance: int | None,
        chosen: tuple[int, ...] = (),
    ) -> bool:
        """Whether opening melds from ``counts`` can bring ``need`` more points (and a clean run, the card).

        ``chosen`` are the indices (into :attr:`melds`) laid on the way, which a
        go-out plan may lay off onto. The melds of a completion found join
        :attr:`known` (a memo hit ends the path early: those melds are still
        in an opening that exists). ``counts`` holds no more copies of a card
        than the hand of the search (the rows' masks assume it: see :func:`_indexed`).
        """
        self._path = []
        found = self._complete(
            pack_counts(counts),
            sum(counts),
            card_bound(counts),
            need,
            clean,
            card,
            allowance,
            chosen,
            naturals_held(counts),
        )
        if found:
            self.known.update(self._path)
        return found

    def after_meld(self, j: int, need: int, clean: bool, card: int | None, allowance: int | None) -> bool:
        """Whether laying candidate ``j`` of the hand keeps the opening completable (R-O4).

        :meth:`can_complete` of the hand less the meld, with the meld's points,
        clean run and card taken off the duties, ``allowance`` already one less
        (the hand's size and card bound are carried, not summed again). Where a
        clean run is still owed after the meld and the meld leaves none of the
        hand's clean runs whole, the answer is ``False`` without a search: the
        search lays a clean run before the duty is met (R-O2), and only those fit.
        Where no go-out and no taken card weigh in, the answer reads the meld's
        cards and points alone, and more points never hurt: a meld with the cards
        of one already refused for the same duties (its jokers standing
        elsewhere) and no more points is refused without a search, one with
        the cards of one accepted and no fewer points accepted.
        """
        row = self._all[j]  # the meld's row: plain tuple reads, no attribute of the candidate
        drop = row[8]  # the natural cards the meld takes the last copies of
        rest_clean = clean and not row[6]
        if rest_clean:
            masks = self._clean_masks
            if masks is None:
                masks = self._clean_masks = tuple(clean_row[7] for clean_row in self._clean)
            for m in masks:
                if not m & drop:
                    break  # this clean run is still whole
            else:
                return False
        left = card if card is None or not any(i == card for i, _ in self.melds[j].pairs) else None
        size_bound = self._size_bound
        if size_bound is None:
            counts = self._counts
            size_bound = self._size_bound = (sum(counts), card_bound(counts), naturals_held(counts))
        size, bound, held = size_bound
        variants = not self._go_out and self._taken is None  # then the melds of the same cards: by their points
        if variants:
            key = (row[1], need, clean, card, allowance)
            low, high = self._asked.get(key, _NONE_ASKED)
            if row[4] >= high:
                return True
            if row[4] <= low:
                return False
        self._path = []
        if self._complete(
            self._packed - row[1],
            size - row[3],
            bound - row[5],
            need - row[4],
            rest_clean,
            left,
            allowance,
            (j,) if self._go_out else (),
            held ^ drop,
        ):
            self.known.update(self._path)
            if variants:  # the fewest points accepted (fewer than ``high``, or it answered above)
                self._asked[key] = (low, row[4])
            return True
        if variants:  # the most points refused (more than ``low``, or it answered above)
            self._asked[key] = (row[4], high)
        return False

    def _complete(
        self,
        counts: int,
        size: int,
        bound: int,
        need: int,
        clean: bool,
        card: int | None,
        allowance: int | None,
        chosen: tuple[int, ...],
        held: int,
    ) -> bool:
        """The search: ``counts`` are the cards left, packed (``pack_counts``).

        ``size`` and ``bound`` are their number and card_bound, carried down the search; ``held`` a bit per
        natural card index that may be left (at least those left: a card the hand holds twice stays in it
        after one copy is laid, see :func:`_indexed`).
        """
        if size < self.keep:
            return False
        if need <= 0 and not clean and card is None:
            return self._finish(counts, chosen)
        if allowance is not None and allowance <= 0:
            return False
        if need > 0 and bound < need:
            return False
        key = (counts, max(need, 0), clean, card, allowance, chosen if self._go_out else ())
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result = False
        less = None if allowance is None else allowance - 1
        room = size - self.keep  # the most cards a meld may take
        margin = bound - need  # a meld whose bound less points exceeds it leaves too little (rest_need > 0)
        go_out = self._go_out
        guarded = counts | GUARD  # each byte's bit 7 set: a byte that borrows loses it
        gone = ~held  # the natural cards surely no longer held
        # WLOG the meld holding the taken card comes first, then the clean run (the same order, filtered).
        rows = self._with(card) if card is not None else self._clean if clean else self._all
        for row in rows:
            if row[7] & gone:
                continue  # a natural card of the meld is gone (most melds: a small integer's test first)
            j, packed, slack, msize, points, mbound, mclean, _, drop = row
            # slack > margin: bound - mbound < need - points, the cards left cannot bring the rest (when the
            # meld fits, mbound <= bound, so this holds only where need - points > 0: the call below would say so)
            if slack > margin or msize > room or (guarded - packed) & GUARD != GUARD:
                continue  # too few points left, too many cards, or the cards left do not hold the meld's
            after = tuple(sorted((*chosen, j))) if go_out else ()
            if self._complete(
                counts - packed,
                size - msize,
                bound - mbound,
                need - points,
                clean and not mclean,
                None,
                less,
                after,
                held ^ drop,  # drop: the meld's cards the hand holds once, now gone (held holds them all)
            ):
                result = True
                self._path.append(j)  # on the way back up from the completion found
                break
        self._memo[key] = result
        return result

    def _with(self, card: int) -> _Rows:
        """The rows of the melds (in order) that hold card index ``card``."""
        found = self._holding.get(card)
        if found is None:
            melds = self.melds
            found = self._holding[card] = tuple(
                row for row in self._all if any(i == card for i, _ in melds[row[0]].pairs)
            )
        return found

    def _finish(self, packed: int, chosen: tuple[int, ...]) -> bool:
        """The opening is complete: can the rest of the turn end legally? (``packed``: the cards left.)"""
        if self._go_out:
            key = (packed, chosen)
            hit = self._plans.get(key)
            if hit is None:  # the hand left and the table after the opening: built for a new plan only
                rest = CardMultiset._trusted(unpack_counts(packed))
                table = (*self._table, *(self.melds[j].meld for j in chosen))
                hit = self._plans[key] = not self._hopeless(rest, table, self._rules) and (
                    goes_out(rest, table, self._rules, opened=True)
                )
            return hit
        taken = self._taken
        if taken is None:
            return True
        counts = unpack_counts(packed)
        if not counts[taken.index]:
            return True
        if sum(counts) > counts[taken.index]:  # another card is left
            return True
        # R-T7: only the taken card is left; one copy must be laid off first.
        return (counts[taken.index] >= 2 or not self.keep) and fits_anywhere(taken, self._table, self._rules)


#: Neither points refused nor points accepted yet (see :meth:`OpeningSearch.after_meld`).
_NONE_ASKED: Final = (-1, 1 << 30)

#: The ruleset and the completion answers shared by every search without a go-out or a taken card.
_SHARED: list[tuple[Ruleset, dict[tuple[object, ...], bool]]] = []
register(_SHARED)
_SHARED_SIZE: Final = 1 << 14


def _shared_memo(rules: Ruleset) -> dict[tuple[object, ...], bool]:
    """The memo of completion answers for ``rules`` where nothing but the cards and duties decides them.

    Without a go-out (R-D2) or a card taken that may not be discarded (R-T7),
    :meth:`OpeningSearch._complete` answers from its key alone (the cards
    left, the points, the clean run, the card, the melds allowed), searching
    the candidates of a hand that holds those cards: the same answer for every
    such hand. So the listing, ``apply``'s check of the meld laid and the next
    listing of the turn share one memo (bounded: cleared when full), and so do
    equal rulesets that are other objects (each environment's own copy).
    """
    if _SHARED and (_SHARED[0][0] is rules or _SHARED[0][0] == rules):  # an equal copy: the same answers
        memo = _SHARED[0][1]
        if len(memo) >= _SHARED_SIZE:
            memo.clear()
        return memo
    memo = {}
    _SHARED[:] = [(rules, memo)]
    return memo


#: A candidate as the search reads it: its index, packed cards, bound less points, size, points, bound, clean,
#: natural cards (a bit each) and those of them the hand holds once (laying the meld takes them all).
_Row = tuple[int, int, int, int, int, int, bool, int, int]
_Rows = tuple[_Row, ...]
#: Per candidate list (the solver's cached tuple, held so its id stays its own): its rows, and those of the
#: clean runs among them. A hand is searched again by ``apply`` and the next listing.
_INDEXED: dict[int, tuple[tuple[MeldInfo, ...], _Rows, _Rows]] = {}
register(_INDEXED)


def _indexed(melds: tuple[MeldInfo, ...], counts: tuple[int, ...]) -> tuple[_Rows, _Rows]:
    """The rows of ``melds`` (the candidates of ``counts``), and those of its clean runs (kept for a few lists).

    A row's last mask is the meld's natural cards that ``counts`` holds only once: whatever part of
    ``counts`` the search is at, laying the meld leaves none of those and may leave the others (the
    search's ``held`` stays a superset of the cards left, so its test refuses only melds that do not fit).
    """
    hit = _INDEXED.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1], hit[2]
    once = ~naturals_held(counts, 2)
    every = tuple(
        [
            (j, packed, bound - points, size, points, bound, clean, naturals, naturals & once)
            for j, (_, _, points, clean, size, bound, _, packed, naturals) in enumerate(melds)
        ]
    )
    clean = tuple(row for row in every if row[6])
    if len(_INDEXED) >= 16:
        _INDEXED.clear()
    _INDEXED[id(melds)] = (melds, every, clean)
    return every, clean


#: The ends a lay-off may name: both of a run, none of a set (an enum member read once, not per call).
_RUN_ENDS: Final[tuple[End | None, ...]] = (End.LOW, End.HIGH)
_SET_END: Final[tuple[End | None, ...]] = (None,)


def fits_anywhere(card: Card, table: Sequence[Meld], rules: Ruleset) -> bool:
    """Whether ``card`` can be laid off onto some meld of ``table``."""
    for meld in table:
        ends: tuple[End | None, ...] = _RUN_ENDS if isinstance(meld, Run) else _SET_END
        for end in ends:
            try:
                lay_off(meld, card, rules, end=end)
            except ValueError:
                continue
            return True
    return False
