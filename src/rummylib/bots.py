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
from typing import Final, Protocol, TypeAlias, get_args, overload, runtime_checkable

from rummylib.actions import Action
from rummylib.engine import LegalActions, PlayerView
from rummylib.errors import SimulationError, SimulationReason, shorten

from ._greedy_bot import GreedyBot, no_legal_action
from ._guards import check_seed_int, is_collection_of_items
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
_ACTION_TYPES: Final = get_args(Action)


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
    check_seed_int(seed, "a seed")
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
        if type(actions) is LegalActions:  # the engine's own listing holds actions only (not a subclass)
            self._items: tuple[Action, ...] = actions._all()  # its own tuple, listed once (no __getitem__ call)
            return
        items = tuple(actions) if is_collection_of_items(actions) else None
        if items is None or not all(isinstance(a, _ACTION_TYPES) for a in items):
            msg = f"SeatActions takes an iterable of actions, not {shorten(actions)}"
            raise SimulationError(SimulationReason.BAD_ARGUMENT, actions, msg)
        self._items = items

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
        check_seed_int(seed, "RandomBot seed")
        self.seed = seed
        self._rng = _SplitMix64(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return ``legal[i]`` for a uniformly drawn ``i``.

        Raises:
            SimulationError: ``legal`` is empty.
        """
        items = legal._items if type(legal) is SeatActions else legal  # a bot's listing: its tuple, read in C
        n = len(items)
        if n == 0:
            raise no_legal_action(legal)
        return items[self._rng.below(n)]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"

    def __getstate__(self) -> tuple[int, int]:
        return (self.seed, self._rng.state)

    def __setstate__(self, state: tuple[int, int]) -> None:
        self.seed, rng_state = state
        self._rng = _SplitMix64(0)
        self._rng.state = rng_state
