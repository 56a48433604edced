"""Built-in players: the :class:`Bot` protocol, :class:`RandomBot`, :class:`GreedyBot`, :class:`SearchBot`.

A bot sees only what its seat may know (a :class:`~rummylib.PlayerView`,
R-H1) and the legal actions, and returns one of them. Bots pickle, so
:func:`~rummylib.simulate` can ship them to worker processes.

>>> import rummylib as rl
>>> s = rl.new_game(rl.STRAIGHT, 2, seed=7)
>>> bots = [rl.GreedyBot(), rl.RandomBot(seed=1)]
>>> a = bots[s.to_act].choose(rl.view(s, s.to_act), rl.LegalActions(s))
>>> rl.is_legal(s, a)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, Protocol, TypeAlias, overload, runtime_checkable

from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    Open,
    TakeDiscard,
)
from rummylib.cards import Card, CardMultiset
from rummylib.engine import LegalActions, Phase, PlayerView, TurnState
from rummylib.engine._complete import may_open
from rummylib.errors import SimulationError, SimulationReason
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, meld_points
from rummylib.rules import DiscardRule, Ruleset
from rummylib.scoring import card_penalty
from rummylib.solver import Opening, Partition, best_opening, best_partition
from rummylib.solver._queries import plan_checked

from ._guards import is_int
from ._search_bot import SearchBot, SearchBotSettings

__all__ = [
    "Bot",
    "BotFactory",
    "GreedyBot",
    "LegalActions",
    "RandomBot",
    "SearchBot",
    "SearchBotSettings",
    "SeatActions",
    "SimulationError",
    "SimulationReason",
    "derive_seed",
]

_MASK64: Final = (1 << 64) - 1


def _no_legal_action(legal: object) -> SimulationError:
    msg = "no legal action to choose from (is the game over?)"
    return SimulationError(SimulationReason.NO_LEGAL_ACTION, legal, msg)


def derive_seed(seed: int, *labels: int | str) -> int:
    """A 128-bit seed derived from ``seed`` and ``labels`` (BLAKE2b, version-stable).

    :func:`~rummylib.simulate` gives game ``i`` the seed ``derive_seed(seed,
    "game", i)`` and its seat ``k`` the bot seed ``derive_seed(seed, "bot", i,
    k)``, so a simulation is the same however it is split across processes.

    Raises:
        SimulationError: ``seed`` is not an int (reason ``BAD_ARGUMENT``).

    >>> derive_seed(2026, "game", 0) == derive_seed(2026, "game", 0)
    True
    >>> derive_seed(2026, "game", 0) != derive_seed(2026, "game", 1)
    True
    """
    if not is_int(seed):
        raise SimulationError(SimulationReason.BAD_ARGUMENT, seed, f"a seed must be an int, not {seed!r}")
    text = "\x1f".join([repr(int(seed)), *(repr(x) for x in labels)])
    digest = hashlib.blake2b(text.encode(), digest_size=16, person=b"rummylib-seed").digest()
    return int.from_bytes(digest, "big")


class _SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and the same on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        digest = hashlib.blake2b(repr(int(seed)).encode(), digest_size=8, person=b"rummylib-bot").digest()
        self.state = int.from_bytes(digest, "big")

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``range(n)``, without modulo bias (rejection sampling)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n


# --- the protocol ---------------------------------------------------------------------


@runtime_checkable
class Bot(Protocol):
    """A player: picks one of the legal actions from what its seat may see.

    ``legal`` holds every action :func:`~rummylib.apply` accepts now (in the
    engine's order); ``action in legal`` is a cheap legality test. A bot used
    with :func:`~rummylib.simulate` on a process pool must pickle.
    """

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return one action of ``legal``."""
        ...


#: Builds the bot for one seat of one game from a seed (``RandomBot`` and
#: ``GreedyBot`` are factories themselves). Must pickle to run on a process pool.
BotFactory: TypeAlias = Callable[[int], Bot]


class SeatActions(Sequence[Action]):
    """The legal actions as a bot may see them: a tuple, with no path back to the state.

    Built from a :class:`LegalActions` (or any iterable of actions) by listing
    it once; it holds only the actions, so neither attribute access
    (``_state``, ``__dict__``) nor pickling reaches the stock or other hands.
    :func:`~rummylib.play_game` and :func:`~rummylib.simulate` give bots this.

    >>> import rummylib as rl
    >>> legal = SeatActions(rl.LegalActions(rl.new_game(rl.STRAIGHT, 2, seed=1)))
    >>> list(legal), hasattr(legal, "_state")
    ([DrawStock(), TakeDiscard()], False)
    """

    __slots__ = ("_items",)

    def __init__(self, actions: Iterable[Action]) -> None:
        self._items: tuple[Action, ...] = tuple(actions)

    def __contains__(self, action: object) -> bool:
        return action in self._items

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._items)

    def __reduce__(self) -> tuple[type[SeatActions], tuple[tuple[Action, ...]]]:
        return (SeatActions, (self._items,))

    def __repr__(self) -> str:
        return f"SeatActions({', '.join(map(repr, self._items))})"


# --- RandomBot ------------------------------------------------------------------------


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded stream.

    The stream is SplitMix64 seeded through BLAKE2b: the same seed makes the
    same choices on every Python version and platform. A bot is a player
    with memory, not a value: each call advances its stream (a copy or an
    unpickled bot continues from where the original was).

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> v, legal = rl.view(s, s.to_act), list(rl.legal_actions(s))
    >>> a, b = RandomBot(seed=3), RandomBot(seed=3)
    >>> [a.choose(v, legal) for _ in range(6)] == [b.choose(v, legal) for _ in range(6)]
    True
    """

    __slots__ = ("_rng", "seed")

    def __init__(self, seed: int = 0) -> None:
        if not is_int(seed):
            msg = f"RandomBot seed must be an int, not {seed!r}"
            raise SimulationError(SimulationReason.BAD_ARGUMENT, seed, msg)
        self.seed = seed
        self._rng = _SplitMix64(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return ``legal[i]`` for a uniformly drawn ``i``.

        Raises:
            SimulationError: ``legal`` is empty.
        """
        n = len(legal)
        if n == 0:
            raise _no_legal_action(legal)
        return legal[self._rng.below(n)]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"

    def __getstate__(self) -> tuple[int, int]:
        return (self.seed, self._rng.state)

    def __setstate__(self, state: tuple[int, int]) -> None:
        self.seed, rng_state = state
        self._rng = _SplitMix64(0)
        self._rng.state = rng_state


# --- GreedyBot ------------------------------------------------------------------------

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

    # Solver calls repeat within a turn (each lay is one choose); keep a few answers.
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

    def _opening(self, hand: CardMultiset, rules: Ruleset) -> Opening | None:
        # The engine's cheap necessary test first: most hands cannot bring an opening's points at all (R-O2).
        if not may_open(hand.counts, rules, rules.opening_points, rules.opening_clean_run):
            return None
        result = self._cached(("opening", hand), lambda: best_opening(hand, rules))
        return result  # type: ignore[return-value]

    def _plan(self, view: PlayerView, table: tuple[Meld, ...], opened: bool) -> list[Action] | None:
        hand, rules = view.hand, view.rules
        key = ("plan", hand, table, opened)
        # The engine's checked values go to the solver's unchecked entry (which runs the sound screen first).
        return self._cached(key, lambda: plan_checked(hand, table, rules, opened=opened))  # type: ignore[return-value]

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
                return _best_meld(legal, rules) or self._discard(view, legal)
            opened = True
        opening = None
        if not opened and rules.opening_required:
            opening = self._opening(hand, rules)
            if opening is None:  # no opening, so no going out either (R-O1)
                return self._discard(view, legal)
        plan = self._plan(view, table, opened)
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
            return _best_meld(legal, rules) or self._discard(view, legal)
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
        options = [a for a in legal if isinstance(a, Discard)]
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


def _best_meld(legal: Sequence[Action], rules: Ruleset) -> Action | None:
    """The listed new meld worth the most points (then the longest), if any."""
    melds = [a for a in legal if isinstance(a, LayMeld)]
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
    return sorted(cards.distinct(), key=lambda c: (card_penalty(c, rules), c.index), reverse=True)


def _fallback(view: PlayerView, legal: Sequence[Action]) -> Action:
    """A legal action when the greedy plan has none: meet the turn's obligation first."""
    if not legal:
        raise _no_legal_action(legal)
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
