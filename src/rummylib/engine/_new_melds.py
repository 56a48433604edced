"""An opened player's new melds this turn: the taken card and freed jokers (R-D2, J4).

After taking the discard (R-D2) the card must go into a new meld this turn;
after a joker swap (R-J4) the freed joker must. :class:`NewMeldCover` answers
whether new melds of the hand can still hold them, with a card kept for the
discard (R-T3) and within the melds a turn allows. A lay-off onto a meld laid
this same turn counts as a new meld (R-J4, D2).

Joker swaps are reasoned about as a set, never as a sequence (issue 10): a
swap puts the exact card on the table and a joker in the hand, so what
matters is how many jokers the new melds hold and how many swappable cards
they leave in the hand. The search is memoised on the cards left, the jokers
placed and the duties still open, so it stays polynomial in the number of
jokers on the table. The candidate melds of a pool on count vectors are
shared by every check of one turn (16 swaps ask 16 times):
``hand_candidates`` keeps them in the solver's bounded cache.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from rummylib._card import CARDS
from rummylib.cards import JOKER, Card, CardMultiset
from rummylib.engine._complete import MeldInfo, fits, minus
from rummylib.engine._cover import may_meld
from rummylib.engine._fits import group_fit, grown_meld, run_fit, table_jokers
from rummylib.engine._state import RoundState
from rummylib.melds import End, Group, Meld, Run
from rummylib.rules import Ruleset
from rummylib.solver._queries import candidates_with, hand_candidates

__all__ = ["NewMeldCover", "swap_counts"]


class NewMeldCover:
    """New melds that hold the taken card and every freed joker, swaps taken as a set.

    Let the new melds hold ``j`` jokers. The hand has ``own`` jokers (the freed
    ones among them); swapping ``s`` more in needs ``s`` swappable cards left in
    the hand, and then all ``owed + s`` freed jokers must be placed. So a cover
    exists iff ``own >= owed``, ``j >= owed`` and ``j - own <=`` the swappable cards left.
    """

    def __init__(
        self,
        hand: CardMultiset,
        need: Card | None,
        owed: int,
        allowance: int | None,
        keep: int,
        swaps: dict[int, int],
        new_melds: tuple[Meld, ...],
        rules: Ruleset,
    ) -> None:
        self.rules = rules
        self.keep = keep
        self.owed = owed
        self.own = hand.jokers
        self.swaps = swaps
        extra = sum(min(k, hand.counts[i]) for i, k in swaps.items())
        # The hand's naturals with every joker it holds or a swap could bring: the candidates' pool.
        self.pool = CardMultiset._trusted((*hand.counts[:52], hand.jokers + extra)) if extra else hand
        self._melds_info: tuple[MeldInfo, ...] | None = None
        self.memo: dict[tuple[object, ...], bool] = {}
        self.need = need
        self.start = (hand.counts[:52], allowance, new_melds)

    @property
    def melds(self) -> tuple[MeldInfo, ...]:
        if self._melds_info is None:
            self._melds_info = hand_candidates(self.pool.counts, self.rules)
        return self._melds_info

    def _avail(self, naturals: tuple[int, ...]) -> int:
        return sum(min(k, naturals[i]) for i, k in self.swaps.items())

    def run(self) -> bool:
        if self.own < self.owed:
            return False  # a joker owed to a new meld is no longer in the hand (laid off onto an old meld)
        naturals, allowance, new_melds = self.start
        need = None if self.need is None else self.need.index
        if need is not None and not new_melds:
            jokers = self.own + self._avail(naturals)
            if not may_meld(need, naturals, jokers, self.rules):
                return False  # most taken cards: no meld at all could hold them
        return self._walk(naturals, 0, need, allowance, new_melds)

    def _walk(
        self, nat: tuple[int, ...], j: int, need: int | None, allowance: int | None, new: tuple[Meld, ...]
    ) -> bool:
        own = self.own
        if j - own > self._avail(nat):
            return False
        left = sum(nat) + own - j  # a swapped card leaves the hand and its joker comes in
        if left < self.keep:
            return False
        if need is None and j >= self.owed:
            return True
        key = (nat, j, need, allowance, new)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.memo[key] = False  # no cycles: every step places a card
        result = self._melds(nat, j, need, allowance, new) or self._lay_offs(nat, j, need, allowance, new)
        self.memo[key] = result
        return result

    def _melds(
        self, nat: tuple[int, ...], j: int, need: int | None, allowance: int | None, new: tuple[Meld, ...]
    ) -> bool:
        if allowance is not None and allowance <= 0:
            return False
        less = None if allowance is None else allowance - 1
        counts = (*nat, 64)  # jokers are checked against the pool below
        # WLOG every new meld holds the card (only those are built) or a joker.
        found = self.melds if need is None else candidates_with(self.pool.counts, self.rules, need)
        for info in found:
            jokers = info.jokers
            if need is None and not jokers:
                continue
            if not fits(counts, info):
                continue
            rest = minus(counts, info)[:52]
            if self._walk(rest, j + jokers, None, less, new):
                return True
        return False

    def _lay_offs(
        self, nat: tuple[int, ...], j: int, need: int | None, allowance: int | None, new: tuple[Meld, ...]
    ) -> bool:
        """Lay the card or a joker off onto a meld laid this turn (counts as a new meld, R-D2, J4)."""
        if need is not None:
            if not nat[need] and need != 52:
                return False
            card = CARDS[need]
        else:
            card = JOKER
        for k, meld in enumerate(new):
            for grown in _grown(meld, card, self.rules):
                after = (*new[:k], grown, *new[k + 1 :])
                if card.is_joker:
                    if self._walk(nat, j + 1, None, allowance, after):
                        return True
                else:
                    rest = list(nat)
                    rest[card.index] -= 1
                    if self._walk(tuple(rest), j, None, allowance, after):
                        return True
        return False


#: The run ends a lay-off may name, low first (the members read once).
_RUN_ENDS: Final = (End.LOW, End.HIGH)


def _grown(meld: Meld, card: Card, rules: Ruleset) -> Iterator[Meld]:
    """Each meld ``lay_off(meld, card, rules, end=...)`` accepts, low end first (the fit tests, unchecked)."""
    if isinstance(meld, Run):
        for end in _RUN_ENDS:
            if run_fit(meld, card, end, rules):
                yield grown_meld(meld, card, end)
    elif isinstance(meld, Group) and group_fit(meld, card, rules):
        yield grown_meld(meld, card, None)


def swap_counts(r: RoundState, rules: Ruleset) -> dict[int, int]:
    found: dict[int, int] = {}
    if not (rules.joker_swap and r.opened[r.to_act]):
        return found
    for _, _, stands in table_jokers(r.table):  # the table's melds with a joker (kept for the last table)
        for x in stands:
            found[x] = found.get(x, 0) + 1
    return found
