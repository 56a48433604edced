"""What the adapters share: the optional imports, seeding, rewards and text rendering."""

from __future__ import annotations

import array
import math
import numbers
import secrets
from typing import Any, Final

from rummylib.encoding import EncodingError, EncodingReason
from rummylib.encoding._actions import _as_index
from rummylib.encoding._errors import shorten
from rummylib.engine import GameState, Phase
from rummylib.rules import Ruleset, Scoring

REWARDS: Final = ("win", "score")
EPISODES: Final = ("game", "round")
RENDER_MODES: Final = ("ansi", "human")


def require(extra: str, *modules: str) -> None:
    """Import ``modules`` or raise an ImportError that names the extra to install."""
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            msg = f"rummylib.rl needs {name}: pip install 'rummylib[{extra}]'"
            raise ImportError(msg, name=name) from exc


def engine_seed(np_random: Any) -> int:
    """A 63-bit engine seed drawn from a numpy Generator (so ``reset(seed=...)`` is reproducible)."""
    return int(np_random.integers(0, 2**63 - 1))


def fresh_seed() -> int:
    return secrets.randbits(63)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        msg = f"{name} must be one of {', '.join(choices)}, not {value!r}"
        raise ValueError(msg)
    assert isinstance(value, str)
    return value


def action_id(action: object, size: int) -> int:
    """``action`` as an id: an int or a numpy integer, never a bool or a float (``int(1.5)`` is not id 1).

    Out of range it is still an id (the caller treats it as illegal); anything
    else is refused before anything changes.

    Raises:
        EncodingError: ``action`` is not an integer (``BAD_ID``).
    """
    i = _as_index(action)
    if i is None:
        msg = f"an action is an int id 0..{size - 1}, not {shorten(action)}"
        raise EncodingError(EncodingReason.BAD_ID, action, msg)
    return i


def check_reward(name: str, value: object) -> float:
    """A finite real number (a numpy float too), never a bool."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        msg = f"{name} must be a finite number, not {shorten(value)}"
        raise ValueError(msg)
    return float(value)


def check_max_cycles(value: object) -> int | None:
    """``None`` or an int of at least 1."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        msg = f"max_cycles must be None or an int of at least 1, not {shorten(value)}"
        raise ValueError(msg)
    return value


def round_rewards(state: GameState, reward: str, *, last_round: bool) -> list[float]:
    """Each seat's reward for the round that just ended in ``state`` (and the game, if over).

    ``"score"``: the round's scores over 100, negated under penalty scoring (R-S1, S3).
    ``"win"``: at the end of the episode, +1 for each winner and -1 for the others
    (a void round, R-D7, pays 0).
    """
    rules: Ruleset = state.rules
    n = state.num_players
    result = state.last_result
    if result is None:
        return [0.0] * n
    if reward == "score":
        sign = -1.0 if rules.scoring is Scoring.PENALTY else 1.0
        return [sign * s / 100.0 for s in result.scores]
    if not last_round:
        return [0.0] * n
    if state.is_over:
        winners = set(state.standings.winners)
    elif result.winner is None:
        return [0.0] * n
    else:
        winners = {result.winner}
    return [1.0 if s in winners else -1.0 for s in range(n)]


def episode_over(state: GameState, episode: str) -> bool:
    return state.is_over or (episode == "round" and state.phase is Phase.ROUND_OVER)


def render_text(state: GameState, seat: int | None = None) -> str:
    """The table as text: totals, table melds, pile top, each hand (all, or only ``seat``'s)."""
    r = state.round
    lines = [f"{state.rules.name} round {state.round_number}, {r.phase.value}, seat {r.to_act} to act"]
    lines.append("totals: " + " ".join(f"P{i}={t}" for i, t in enumerate(state.totals)))
    for i, tm in enumerate(r.table):
        lines.append(f"  [{i}] {tm.meld}  (P{tm.owner})")
    top = r.discard[-1] if r.discard else "-"
    lines.append(f"pile top: {top} ({len(r.discard)} cards), stock: {len(r.stock)}")
    for i, hand in enumerate(r.hands):
        shown = str(hand) if seat is None or seat == i else f"{len(hand)} cards"
        lines.append(f"P{i}{'*' if i == r.to_act else ' '} {shown}")
    return "\n".join(lines)


def as_vector(values: list[int], np: Any) -> Any:
    """An observation's integers as a float32 numpy vector (through a C array: faster than ``fromiter``).

    The integers are small and non-negative (each at most its field's bound),
    so the float32 values are exact. Most observations hold only bytes (every
    value below 256), which ``bytes`` packs several times faster than an
    ``array`` of 64-bit integers; a larger value falls back to the array.
    """
    try:
        packed = bytes(values)
    except ValueError:  # a value of 256 or more (a running total)
        return np.frombuffer(array.array("q", values), dtype=np.int64).astype(np.float32)
    return np.frombuffer(packed, dtype=np.uint8).astype(np.float32)
