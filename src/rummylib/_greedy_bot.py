"""GreedyBot: the solver's answers played greedily (re-exported by :mod:`rummylib.bots`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Final

from rummylib._card import CARDS
from rummylib._guards import check_seed_int
from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, Open, TakeDiscard
from rummylib.cards import Card, CardMultiset
from rummylib.engine import LegalActions, Phase, PlayerView, TurnState
from rummylib.engine._complete import may_open
from rummylib.errors import SimulationError, SimulationReason
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, meld_points
from rummylib.rules import DiscardRule, Ruleset
from rummylib.scoring import card_penalty
from rummylib.solver import Opening, Partition, best_opening, best_partition
from rummylib.solver._queries import plan_checked, sorted_by_points
from rummylib.solver._results import RulesCache
from rummylib.solver._search import card_penalties

__all__ = ["GreedyBot", "no_legal_action"]


def no_legal_action(legal: object) -> SimulationError:
    """The error of a bot asked to choose from no legal action."""
    msg = "no legal action to choose from (is the game over?)"
    return SimulationError(SimulationReason.NO_LEGAL_ACTION, legal, msg)


_MEMO_SIZE: Final = 32


class GreedyBot:
    """A simple, strong-enough player built on the solver.

    On its turn it:

    1. goes out when :func:`~rummylib.plan_go_out` finds a way (R-E1, E3);
    2. before opening, opens as soon as :func:`~rummylib.best_opening` finds an
       opening (R-O2);
    3. once opened, lays the new melds of :func:`~rummylib.best_partition`,
       then lays off its deadwood onto the table (R-T2, T5, T6);
    4. discards its costliest deadwood (ties: the higher card).

    It takes the top discard only when that is legal and useful: the card
    would sit in a meld of its best partition (lowering its deadwood), or,
    before a remik opening, when the engine offers it (it can then open and
    go out with it, R-D2). The ``seed`` is accepted so the class is a
    :data:`BotFactory`; the bot is deterministic and ignores it.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 2, seed=11)
    >>> rl.is_legal(s, GreedyBot().choose(rl.view(s, s.to_act), rl.LegalActions(s)))
    True
    """

    __slots__ = ("_memo", "_rules", "seed")

    def __init__(self, seed: int = 0) -> None:
        check_seed_int(seed, "GreedyBot seed")
        self.seed = seed
        self._memo: dict[tuple[object, ...], object] = {}
        self._rules: Ruleset | None = None

    def __repr__(self) -> str:
        return "GreedyBot()"

    def __getstate__(self) -> int:
        return self.seed  # the memo is a cache: never shipped

    def __setstate__(self, state: int) -> None:
        self.seed = state
        self._memo = {}
        self._rules = None

    # Partitions repeat within a turn (the hand after a take is the draw decision's; each lay is one choose).
    def _cached(self, key: tuple[object, ...], compute: Callable[[], object]) -> object:
        memo = self._memo
        if key in memo:
            return memo[key]
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        value = memo[key] = compute()
        return value

    def _partition(self, hand: CardMultiset, rules: Ruleset) -> Partition:
        result = self._cached(("partition", hand), lambda: best_partition(hand, rules))
        return result  # type: ignore[return-value]

    # The opening and the plan are asked once per hand (a lay changes the hand, the table too): not memoised,
    # which would cost hashing the hand and the table's melds for almost no hit.
    def _opening(self, hand: CardMultiset, rules: Ruleset) -> Opening | None:
        # The engine's cheap necessary test first: most hands cannot bring an opening's points at all (R-O2).
        if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
            return None
        return best_opening(hand, rules)

    def _plan(
        self, view: PlayerView, table: tuple[Meld, ...], opened: bool, opens: bool = False
    ) -> list[Action] | None:
        hand, rules = view.hand, view.rules
        if len(hand) == 1 and rules.must_discard_to_go_out and (opened or not rules.opening_required):
            return [Discard(next(iter(hand)))]  # the solver's only plan: the last card must be the discard (R-E1)
        # The engine's checked values go to the solver's unchecked entry (which runs the sound screen first);
        # ``opens``: best_opening found an opening, so can_open holds and the solver need not ask it again.
        return plan_checked(hand, table, rules, opened=opened, opens=opens)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return the greedy action (always one of ``legal``)."""
        if view.rules is not self._rules:  # the memo's keys leave the ruleset out
            self._memo.clear()
            self._rules = view.rules
        if view.phase is Phase.DRAW:
            return self._draw(view, legal)
        if view.phase is Phase.PLAY and view.to_act == view.seat:
            action = self._play(view, legal)
            if action is not None:
                return action
        return _fallback(view, legal)

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        top = view.top_discard
        if top is not None and TakeDiscard() in legal and self._wants(view, top):  # the listing first: cheap
            return TakeDiscard()
        if DrawStock() in legal:
            return DrawStock()
        return _fallback(view, legal)

    def _wants(self, view: PlayerView, top: Card) -> bool:
        rules = view.rules
        opened = view.opened[view.seat]
        if rules.discard_rule is DiscardRule.NEW_MELD and not opened:
            return True  # offered only if it can open (and go out, R-D2) with it: the hand with it can open
        with_top = self._partition(view.hand + CardMultiset((top,)), rules)
        without = self._partition(view.hand, rules)
        # Lower deadwood than holding it as deadwood: the card sits in a meld.
        return with_top.penalty < without.penalty + card_penalty(top, rules)

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        rules = view.rules
        hand = view.hand
        table = tuple(tm.meld for tm in view.table)
        opened = view.opened[view.seat]
        turn = view.turn
        if not opened and rules.opening_required and turn is not None and turn.melds_laid:
            # An opening in progress (R-O4): every listed meld keeps it completable, so lay
            # the most valuable one until R-O2 is met, then play on as an opened player.
            if not _opening_met(turn, rules):
                return _best_meld(legal, rules, hand) or self._discard(view, legal)
            opened = True
        opening = None
        if not opened and rules.opening_required:
            opening = self._opening(hand, rules)
            if opening is None:  # no opening, so no going out either (R-O1)
                return self._discard(view, legal)
        plan = self._plan(view, table, opened, opening is not None)
        if plan:
            first = plan[0]
            step: Action = LayMeld(first.melds[0]) if isinstance(first, Open) else first
            if step in legal:
                return step
        if opening is not None:
            # Lay the best opening meld by meld (R-O4); where that opening would use
            # every card (R-T3), the most valuable meld the engine offers.
            for meld in opening.melds:
                action: Action = LayMeld(meld)
                if action in legal:
                    return action
            return _best_meld(legal, rules, hand) or self._discard(view, legal)
        part = self._partition(hand, rules)
        for meld in part.melds:
            action = LayMeld(meld)
            if action in legal:
                return action
        for card in _costliest_first(part.leftover, rules):
            for target, tm in enumerate(view.table):
                for end in _ends_taking(tm.meld, card):
                    action = LayOff(target, card, end)
                    if action in legal:
                        return action
        return self._discard(view, legal)

    def _discard(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        rules = view.rules
        part = self._partition(view.hand, rules)
        for card in _costliest_first(part.leftover, rules):
            action = Discard(card)
            if action in legal:
                return action
        # No deadwood may go: throw the card whose loss keeps the best partition.
        options = list(legal.discards) if type(legal) is LegalActions else [a for a in legal if isinstance(a, Discard)]
        if not options:
            return None

        def cost(a: Discard) -> tuple[int, int]:
            rest = view.hand - CardMultiset((a.card,))
            return (self._partition(rest, rules).penalty, -card_penalty(a.card, rules))

        return min(options, key=cost)


def _opening_met(turn: TurnState, rules: Ruleset) -> bool:
    """Whether the opening in progress meets R-O2 (and holds the taken card, R-D2)."""
    clean = turn.opening_clean or not rules.opening_clean_run
    return turn.opening_points >= rules.opening_points and clean and turn.must_meld is None


def _best_meld(legal: Sequence[Action], rules: Ruleset, hand: CardMultiset | None = None) -> Action | None:
    """The listed new meld worth the most points (then the longest), if any.

    ``hand``: the hand of a player who has not opened (R-O4). The engine then
    lists the hand's candidate melds that keep the opening completable, in
    the solver's order (:func:`~rummylib.solver._queries.sorted_by_points`),
    so the first candidate by points and length (ties in that order) that the
    engine accepts is the listing's best, found without listing every meld.
    """
    if hand is not None and type(legal) is LegalActions:
        ranked = sorted(sorted_by_points(hand.counts, rules), key=lambda c: (-c.points, -c.size))
        return next((LayMeld(c.meld) for c in ranked if LayMeld(c.meld) in legal), None)
    # The engine's lazy listing gives its melds alone, in the order of the whole list.
    melds = list(legal.melds) if type(legal) is LegalActions else [a for a in legal if isinstance(a, LayMeld)]
    if not melds:
        return None
    return max(melds, key=lambda a: (meld_points(a.meld, rules), len(a.meld.cards)))


def _ends_taking(meld: Meld, card: Card) -> tuple[End | None, ...]:
    """Where ``card`` could be laid off onto ``meld`` by position alone (the engine decides)."""
    if isinstance(meld, Run):
        if card.is_joker:
            return (End.HIGH, End.LOW)
        if card.suit is not meld.suit or card.rank is None:
            return ()
        rank = int(card.rank)  # the card at position p is the one of rank p (the ace at 14)
        end, start = meld.end, meld.start
        ends: list[End | None] = []
        if end < ACE_HIGH and rank == (1 if end + 1 == ACE_HIGH else end + 1):
            ends.append(End.HIGH)
        if start > 1 and rank == start - 1:
            ends.append(End.LOW)
        return tuple(ends)
    if (
        isinstance(meld, Group)
        and len(meld.cards) < 4
        and (card.is_joker or (card.rank is meld.rank and card.suit not in meld.suits))
    ):
        return (None,)
    return ()


def _costliest_first(cards: CardMultiset, rules: Ruleset) -> list[Card]:
    """The distinct cards of ``cards``, costliest first (R-V1), ties by the higher card index."""
    held = list(compress(_INDICES, cards.counts))
    held.sort(key=_DEADWOOD_KEYS(rules).__getitem__, reverse=True)
    return [CARDS[i] for i in held]


_INDICES: Final = range(53)
#: Per ruleset, the sort key of each card index: its penalty (R-V1), then the index (below 64: one int per key).
_DEADWOOD_KEYS: RulesCache[tuple[int, ...]] = RulesCache(
    lambda rules: tuple(pen << 6 | i for i, pen in enumerate(card_penalties(rules)))
)


def _fallback(view: PlayerView, legal: Sequence[Action]) -> Action:
    """A legal action when the greedy plan has none: meet the turn's obligation first."""
    if not legal:
        raise no_legal_action(legal)
    turn = view.turn
    need = turn.must_meld if turn is not None else None
    placing = [a for a in legal if isinstance(a, (Open, LayMeld))]
    if need is not None:
        for a in placing:
            melds = a.melds if isinstance(a, Open) else (a.meld,)
            if any(need in m.cards for m in melds):
                return a
    if placing:
        return max(placing, key=lambda a: sum(len(m) for m in (a.melds if isinstance(a, Open) else (a.meld,))))
    return legal[0]


GreedyBot.__module__ = "rummylib.bots"  # documented, imported and pickled as rummylib.bots.GreedyBot
