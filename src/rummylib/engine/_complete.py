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

Left to do: the candidate melds still come from ``find_melds`` as
:class:`~rummylib.Meld` objects and are turned into count pairs here; a
solver query on packed counts (the completion and the R-D2/J4 cover as one
search over the solver's shapes) would remove that step and most of the
time left in these checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rummylib.cards import Card, CardMultiset
from rummylib.engine._cache import hand_melds
from rummylib.melds import End, Meld, Run, is_clean_run, lay_off, meld_points
from rummylib.rules import Ruleset
from rummylib.solver import plan_go_out

__all__ = ["MeldInfo", "OpeningSearch", "card_bound", "fits", "fits_anywhere", "may_open", "meld_info", "minus"]


def _card_bound(index: int) -> int:
    # The most a card can bring to an opening (R-V, O3): an ace 11, a picture 10, a joker 11.
    if index == 52:
        return 11
    rank = index % 13 + 1
    return 11 if rank == 1 else min(rank, 10)


_BOUND = tuple(_card_bound(i) for i in range(53))


def card_bound(counts: tuple[int, ...]) -> int:
    """An upper bound on the opening points ``counts`` can still bring."""
    return sum(c * b for c, b in zip(counts, _BOUND) if c)


def may_open(counts: tuple[int, ...], rules: Ruleset, need: int, clean: bool) -> bool:
    """A cheap necessary condition for an opening worth ``need`` in ``counts`` (bit masks per suit).

    ``False`` when a clean run is needed and no suit holds three in a row, or
    when the cards that could sit in any meld at all cannot bring ``need``.
    """
    jokers = counts[52] if rules.jokers else 0
    masks = []
    for suit in range(4):
        base = suit * 13
        mask = 0
        for rank in range(13):
            if counts[base + rank]:
                mask |= 2 << rank  # bit 1 = ace low ... bit 13 = king
        if rules.ace_high and mask & 2:
            mask |= 1 << 14
        masks.append(mask)
    if clean and not any(m & (m >> 1) & (m >> 2) for m in masks):
        return False
    if need <= 0:
        return True
    bound = 11 * jokers
    for suit, m in enumerate(masks):
        if jokers >= 2:
            covered = m
        else:
            w = m & (m >> 1) & (m >> 2) if not jokers else (m & (m >> 1)) | (m & (m >> 2)) | ((m >> 1) & (m >> 2))
            covered = (w | (w << 1) | (w << 2)) & m
        if covered & (1 << 14):
            covered |= 2
        base = suit * 13
        for rank in range(13):
            i = base + rank
            if not counts[i]:
                continue
            suits = sum(1 for s in range(4) if counts[s * 13 + rank])
            if covered & (2 << rank) or suits >= 3 or (suits >= 2 and jokers):
                bound += counts[i] * _BOUND[i]
    return bound >= need


class MeldInfo(NamedTuple):
    """A candidate meld on count vectors."""

    meld: Meld
    #: (card index, copies) pairs of the meld's cards.
    pairs: tuple[tuple[int, int], ...]
    points: int
    clean: bool
    size: int
    bound: int


def meld_info(meld: Meld, rules: Ruleset) -> MeldInfo:
    """The count-vector form of ``meld``."""
    counts: dict[int, int] = {}
    for card in meld.cards:
        counts[card.index] = counts.get(card.index, 0) + 1
    pairs = tuple(sorted(counts.items()))
    bound = sum(_BOUND[i] * k for i, k in pairs)
    return MeldInfo(meld, pairs, meld_points(meld, rules), is_clean_run(meld), len(meld.cards), bound)


def fits(counts: tuple[int, ...], info: MeldInfo) -> bool:
    """Whether ``counts`` holds the cards of ``info``."""
    return all(counts[i] >= k for i, k in info.pairs)


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
        stranded: how many cards of a hand surely cannot leave it but by the
            discard (a cheap test run before each go-out plan).
    """

    __slots__ = ("_go_out", "_memo", "_plans", "_rules", "_stranded", "_table", "_taken", "keep", "melds")

    def __init__(
        self,
        hand: CardMultiset,
        table: tuple[Meld, ...],
        rules: Ruleset,
        *,
        go_out: bool,
        taken: Card | None,
        stranded: Callable[[CardMultiset, tuple[Meld, ...], Ruleset], int] = lambda *_: 0,
    ) -> None:
        self._rules = rules
        self._stranded = stranded
        self._plans: dict[tuple[object, ...], bool] = {}
        self._table = table
        self._go_out = go_out
        self._taken = None if rules.discard_taken_card else taken
        self.keep = 1 if rules.must_discard_to_go_out else 0
        found = [meld_info(m, rules) for m in hand_melds(hand, rules)]
        # Most valuable first: a completion, when there is one, is found early.
        found.sort(key=lambda info: -info.points)
        self.melds: tuple[MeldInfo, ...] = tuple(found)
        self._memo: dict[tuple[object, ...], bool] = {}

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
        go-out plan may lay off onto.
        """
        size = sum(counts)
        if size < self.keep:
            return False
        if need <= 0 and not clean and card is None:
            return self._finish(counts, chosen)
        if allowance is not None and allowance <= 0:
            return False
        if need > 0 and card_bound(counts) < need:
            return False
        key = (counts, max(need, 0), clean, card, allowance, chosen if self._go_out else ())
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result = False
        less = None if allowance is None else allowance - 1
        for j, info in enumerate(self.melds):
            if card is not None and not any(i == card for i, _ in info.pairs):
                continue  # WLOG the meld holding the taken card comes first
            if card is None and clean and not info.clean:
                continue  # WLOG the clean run comes next
            if size - info.size < self.keep or not fits(counts, info):
                continue
            after = tuple(sorted((*chosen, j))) if self._go_out else ()
            if self.can_complete(minus(counts, info), need - info.points, clean and not info.clean, None, less, after):
                result = True
                break
        self._memo[key] = result
        return result

    def _finish(self, counts: tuple[int, ...], chosen: tuple[int, ...]) -> bool:
        """The opening is complete: can the rest of the turn end legally?"""
        rest = CardMultiset._trusted(counts)
        if self._go_out:
            table = (*self._table, *(self.melds[j].meld for j in chosen))
            key = (counts, chosen)
            hit = self._plans.get(key)
            if hit is None:
                hit = self._plans[key] = self._stranded(rest, table, self._rules) <= self.keep and (
                    plan_go_out(rest, table, self._rules, opened=True) is not None
                )
            return hit
        taken = self._taken
        if taken is None or not counts[taken.index]:
            return True
        if any(c != taken for c in rest.distinct()):
            return True
        # R-T7: only the taken card is left; one copy must be laid off first.
        return (counts[taken.index] >= 2 or not self.keep) and fits_anywhere(taken, self._table, self._rules)


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
