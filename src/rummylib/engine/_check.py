"""The public entry points of a move: check, is_legal, apply (pokerkit-style dry runs)."""

from __future__ import annotations

from rummylib.actions import Action
from rummylib.engine._apply import transition
from rummylib.engine._known import track
from rummylib.engine._state import GameState
from rummylib.errors import IllegalActionError

__all__ = ["apply", "check", "is_legal"]


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action`` by the player to act. ``state`` never changes.

    Args:
        state: the current state.
        action: the action.
        seat: if given, the seat claiming to act (a server passes the
            client's seat); a wrong seat is refused with ``NOT_YOUR_TURN``.

    Raises:
        IllegalActionError: the action is not legal here; ``reason`` is an
            :class:`~rummylib.IllegalActionReason` and the message names it.
        InvalidStateError: ``state`` is not a :class:`GameState`.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> t = rl.apply(s, rl.DrawStock())
    >>> len(t.round.hands[1]), len(s.round.hands[1]), t.phase.value
    (11, 10, 'play')
    >>> rl.apply(t, rl.DrawStock())
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: 'draw' is not allowed now: drawing is over for this turn
    """
    return track(state, action, transition(state, action, seat))


def check(state: GameState, action: Action, *, seat: int | None = None) -> None:
    """Raise the error :func:`apply` would raise for ``action``; return ``None`` if it is legal.

    Raises:
        IllegalActionError: the action is not legal here (as :func:`apply`).
        InvalidStateError: ``state`` is not a :class:`GameState`.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 3, seed=1)
    >>> try:
    ...     rl.check(s, rl.TakeDiscard())
    ... except rl.IllegalActionError as e:
    ...     print(e.reason)
    IllegalActionReason.WRONG_PHASE
    """
    transition(state, action, seat)


def is_legal(state: GameState, action: Action, *, seat: int | None = None) -> bool:
    """Whether :func:`apply` accepts ``action``.

    Raises:
        InvalidStateError: ``state`` is not a :class:`GameState` (an illegal
            action is answered with ``False``, never raised).

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=1)
    >>> rl.is_legal(s, rl.DrawStock()), rl.is_legal(s, rl.NextRound())
    (True, False)
    """
    try:
        transition(state, action, seat)
    except IllegalActionError:
        return False
    return True
