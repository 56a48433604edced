"""Determinisation: full states consistent with one seat's view (:func:`sample_state`).

The cards a seat has not seen are its view's complement in the deck: every
card less its own hand, the table, the discard pile, the cards publicly
known in the other hands (R-H1) and the stock's public part (R-D6). A
sample deals them uniformly at random, with the engine's keyed BLAKE2b
shuffle (never :mod:`random`), into the other hands beyond their known
cards and the stock above its public part; after a refill the stock's
hidden cards are drawn only from the refill's cards (R-D4).

Everything else is copied from the view: a field of the view with the name
of a :class:`GameState` or :class:`RoundState` field is the state's value,
so a new public field of both is carried without change here. The sample's
own seed (its future reshuffles and deals) is derived from the sample seed.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import attrs

from rummylib.cards import Card, CardMultiset, deck
from rummylib.engine._invariants import check_known_in_hands, check_known_stock, check_refill, check_state
from rummylib.engine._rng import Seed, shuffled, validate_seed
from rummylib.engine._state import GameState, Phase, RoundState, TurnState
from rummylib.engine._view import PlayerView, view
from rummylib.errors import ArgumentError, ArgumentReason, InvalidStateError, StateReason

from .._guards import is_int, is_int_in

__all__ = ["MAX_SAMPLES", "sample_state", "sample_states"]

#: Most states one :func:`sample_states` call returns.
MAX_SAMPLES: Final = 10_000

#: Where the refill check names the public stock fields of a sample.
_REFILL_PATHS: Final = {"known_stock": "round.known_stock", "restocked": "round.restocked"}
#: Fields built here, not copied from the view.
_BUILT: Final = frozenset({"hands", "stock", "turn", "seed", "round"})


def _sample_seed(seed: Seed, index: int) -> int:
    raw = repr(seed).encode("utf-8")
    digest = hashlib.blake2b(raw + b"\x1f" + str(index).encode(), digest_size=16, person=b"rummylib-smpl")
    return int.from_bytes(digest.digest(), "big")


def _bad(detail: str) -> InvalidStateError:
    return InvalidStateError(StateReason.INCONSISTENT, "view", detail)


def _unseen(v: PlayerView) -> CardMultiset:
    """The cards ``v.seat`` has not seen: the deck less everything its view shows."""
    counts = list(deck(v.rules).counts)
    shown: list[tuple[Card, ...] | CardMultiset] = [v.hand, v.discard, v.known_stock]
    shown += [tm.meld.cards for tm in v.table]
    shown += [k for i, k in enumerate(v.known_cards) if i != v.seat]
    for cards in shown:
        for card in cards:
            counts[card.index] -= 1
            if counts[card.index] < 0:
                raise _bad(f"the view shows more copies of {card} than the {v.rules.name} deck holds (R-C3)")
    return CardMultiset._trusted(tuple(counts))


def _hidden_sizes(v: PlayerView) -> tuple[list[int], int]:
    """How many hidden cards each seat's hand and the stock hold."""
    if not (len(v.hand_sizes) == len(v.known_cards) == len(v.players)):
        raise _bad("the view needs one hand size and one known-card list per seat")
    sizes = [0 if i == v.seat else n - len(k) for i, (n, k) in enumerate(zip(v.hand_sizes, v.known_cards))]
    stock = v.stock_size - len(v.known_stock)
    if min(sizes, default=0) < 0 or stock < 0 or v.hand_sizes[v.seat] != len(v.hand):
        raise _bad("a seat is known to hold more cards than it holds, or the stock more than its size")
    return sizes, stock


def _deal(v: PlayerView, seed: Seed, index: int) -> tuple[tuple[CardMultiset, ...], tuple[Card, ...]]:
    """The hidden cards dealt at random: (hands, stock top first)."""
    unseen = _unseen(v)
    sizes, stock_hidden = _hidden_sizes(v)
    if sum(sizes) + stock_hidden != len(unseen):
        raise _bad(f"{len(unseen)} unseen cards for {sum(sizes) + stock_hidden} hidden places (R-C3)")
    if v.restocks and v.restocked:  # R-D4: the stock holds only cards of its last refill
        pool = CardMultiset._trusted(tuple(map(min, unseen.counts, v.restocked.counts)))
        if len(pool) < stock_hidden:
            raise _bad("the stock is larger than what is left of its last refill")
        top = shuffled(tuple(pool), seed, "sample", index, "stock")[:stock_hidden]
        rest = shuffled(tuple(unseen - CardMultiset(top)), seed, "sample", index, "hands")
    else:
        cards = shuffled(tuple(unseen), seed, "sample", index, "deal")
        top, rest = cards[:stock_hidden], cards[stock_hidden:]
    hands: list[CardMultiset] = []
    pos = 0
    for seat, size in enumerate(sizes):
        if seat == v.seat:
            hands.append(v.hand)
        else:
            hands.append(v.known_cards[seat] + CardMultiset(rest[pos : pos + size]))
            pos += size
    return tuple(hands), (*top, *v.known_stock)


def _turn(v: PlayerView, hands: tuple[CardMultiset, ...]) -> TurnState:
    """The turn: the view's own; for another seat in play, a draw of one of its cards (and its melds this turn)."""
    if v.turn is not None:
        return v.turn
    if v.phase is Phase.PLAY and hands[v.to_act]:
        drawn = min(hands[v.to_act], key=lambda c: c.index)
        owned = sum(1 for tm in v.table if tm.owner == v.to_act)
        # The opening in progress is public (R-O4): the view's copy is the turn's.
        points, clean = v.opening_points, v.opening_clean
        # Its melds on the table went down this turn if it laid nothing before (R-E2, E4), or if it
        # has not opened: an unopened seat owns only its opening in progress (R-O1, O4; with
        # lay_off_before_opening it may have laid off in earlier turns, so has_laid says nothing).
        this_turn = not v.has_laid[v.to_act] or (v.rules.opening_required and not v.opened[v.to_act])
        if owned and this_turn:
            limit = v.rules.melds_per_turn
            laid = owned if limit is None else min(owned, limit)
            return TurnState(drawn=drawn, melds_laid=laid, laid=True, opening_points=points, opening_clean=clean)
        return TurnState(drawn=drawn, opening_points=points, opening_clean=clean)
    return TurnState()


def _build(v: PlayerView, seed: Seed, index: int) -> GameState:
    hands, stock = _deal(v, seed, index)
    rnd = RoundState(hands=hands, stock=stock, turn=_turn(v, hands), **_copied(v, RoundState))
    return GameState(round=rnd, seed=_sample_seed(seed, index), **_copied(v, GameState))


def _reachable(v: PlayerView, sample: GameState) -> GameState:
    """``sample`` if it is a state legal play can reach that shows ``v``; else the view was made by hand.

    Only the hidden cards differ between the samples of one view, and the
    deal puts them where the view says they may be, so checking one sample
    checks the view: the loader's invariants (docs/explanation/saved-states.rst)
    and the round trip through :func:`view` (R-H1).
    """
    try:
        check_state(sample)
        r = sample.round
        check_refill(r.restocks, r.known_stock, r.restocked, _REFILL_PATHS)
        check_known_in_hands(r.known_cards, r.hands, [len(h) for h in r.hands], "round.known_cards")
        check_known_stock(r.known_stock, r.restocked, r.stock, len(r.stock), "round")
    except InvalidStateError as error:
        raise _bad(f"no state legal play can reach shows this view: {error}") from None
    shown = view(sample, v.seat)
    if shown != v:
        fields = [f.name for f in attrs.fields(PlayerView) if getattr(shown, f.name) != getattr(v, f.name)]
        raise _bad(f"no state shows this view: its {', '.join(fields)} cannot be as given (R-H1)")
    return sample


def _copied(v: PlayerView, kind: type) -> dict[str, Any]:
    """The view's values of the fields of ``kind`` it shares (by name), those built here aside."""
    names = {f.name for f in attrs.fields(kind)} - _BUILT
    return {name: getattr(v, name) for name in names if hasattr(v, name)}


def _check_view(v: object) -> PlayerView:
    if not isinstance(v, PlayerView):
        msg = f"expected a PlayerView, not {type(v).__name__}"
        raise InvalidStateError(StateReason.WRONG_TYPE, "view", msg)
    if v.phase not in (Phase.DRAW, Phase.PLAY):
        raise _bad(f"the round is over (phase {v.phase.value!r}): its hands are scored, not hidden")
    return v


def sample_state(view: PlayerView, seed: Seed) -> GameState:
    """A full state consistent with ``view``: ``rl.view(sample_state(v, seed), v.seat) == v``.

    The cards ``view.seat`` has not seen go uniformly at random (the engine's
    keyed shuffle of ``seed``) to the other hands, beyond what is publicly
    known of them, and to the stock above its public part (R-H1). The same
    seed gives the same sample on every platform. For another seat's turn in
    progress the sample's turn is a plain stock draw of one of its cards.

    Args:
        view: one seat's view during a round (phase draw or play).
        seed: an ``int`` or ``str``.

    Returns:
        A :class:`GameState` whose view for ``view.seat`` equals ``view``.

    Raises:
        InvalidStateError: ``view`` is not a :class:`PlayerView`, its round is
            over, or no state legal play can reach shows it (a hand-made view:
            more cards than the deck, or fields that contradict each other).
        RulesetError: ``seed`` is not an ``int`` or a ``str``.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 3, seed=5)
    >>> v = rl.view(s, 1)
    >>> t = rl.sample_state(v, seed=1)
    >>> rl.view(t, 1) == v, t.round.hands[1] == s.round.hands[1], t.round.hands[0] == s.round.hands[0]
    (True, True, False)
    """
    v = _check_view(view)
    return _reachable(v, _build(v, validate_seed(seed), 0))


def sample_states(view: PlayerView, n: int, seed: Seed) -> tuple[GameState, ...]:
    """``n`` independent samples of :func:`sample_state` (the first is ``sample_state(view, seed)``).

    Raises:
        InvalidStateError: as :func:`sample_state`.
        ArgumentError: ``n`` is not an int in ``0..MAX_SAMPLES``.
        RulesetError: ``seed`` is not an ``int`` or a ``str`` (as for :func:`~rummylib.new_game`).

    >>> import rummylib as rl
    >>> v = rl.view(rl.new_game(rl.STRAIGHT, 2, seed=3), 0)
    >>> [rl.view(s, 0) == v for s in rl.sample_states(v, 3, seed=9)]
    [True, True, True]
    """
    v = _check_view(view)
    if not is_int_in(n, 0, MAX_SAMPLES):
        msg = f"n must be an int 0..{MAX_SAMPLES}"
        raise ArgumentError(ArgumentReason.WRONG_TYPE if not is_int(n) else ArgumentReason.BAD_VALUE, "n", n, msg)
    s = validate_seed(seed)
    first = _reachable(v, _build(v, s, 0))
    return (first, *(_build(v, s, i) for i in range(1, n)))[:n]
