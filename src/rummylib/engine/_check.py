"""The public entry points of a move: check, is_legal, apply (pokerkit-style dry runs)."""

from __future__ import annotations

from typing import cast

from rummylib.actions import Action, Discard, LayMeld, LayOff
from rummylib.cards import Card
from rummylib.engine._apply import transition
from rummylib.engine._cache import register
from rummylib.engine._known import track
from rummylib.engine._state import GameState
from rummylib.errors import IllegalActionError
from rummylib.melds import End

__all__ = ["apply", "by_is_legal", "check", "is_legal"]


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
    last = _CHECKED[0] if _CHECKED else None
    if last is not None and last[0] is state and last[2] is seat and last[1] == action:
        return track(state, action, last[3])  # is_legal just built this very state (a pure function of its input)
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
        after = transition(state, action, seat)
    except IllegalActionError:
        return False
    _CHECKED[:] = [(state, action, seat, after)]
    return True


#: The last action ``is_legal`` accepted, with its state, seat and the state after it (held, so ``is`` cannot
#: see a new object at an old id): a bot tests an action, then plays it, and ``apply`` need not build it again.
_CHECKED: list[tuple[GameState, Action, int | None, GameState]] = []
register(_CHECKED)


def by_is_legal(action: object) -> bool:
    """Whether ``action in legal`` (its kind not listed yet) asks :func:`is_legal` instead of listing the kind.

    A meld (a kind costly to list); a discard or a lay-off of plain values (an
    ``int`` target, a :class:`~rummylib.Card`, an :class:`~rummylib.End` or
    ``None``), whose only equal in the listing is itself: the listing is exact,
    so both answers agree, and the one test (a bot asks for its choice
    first) is cheaper than the kind's every check, then shared with ``apply``.
    """
    kind = type(action)
    if kind is LayMeld:
        return True
    if kind is Discard:
        return type(cast(Discard, action).card) is Card
    if kind is LayOff:
        lay = cast(LayOff, action)
        return type(lay.target) is int and type(lay.card) is Card and (lay.end is None or type(lay.end) is End)
    return False
