"""How a turn's record changes when cards go on the table (R-O4, D2, J4, T7).

Pure updates of :class:`~rummylib.TurnState`, shared by ``apply`` and the
legal-move generator so both agree on what a step leaves owed.
"""

from __future__ import annotations

from rummylib.cards import Card
from rummylib.engine._cache import register
from rummylib.engine._state import FRESH_TURN, RoundState, TurnState, drawn_turn, evolve_turn
from rummylib.melds import Meld, is_clean_run
from rummylib.rules import Ruleset

__all__ = ["drawn_fresh", "laid_off_turn", "melded_turn", "swapped_turn"]

#: The turn after a stock draw, by the drawn card's index (``drawn_turn(FRESH_TURN, card)``): a turn is
#: immutable, so every draw of the same card shares one, as every fresh turn shares ``FRESH_TURN``.
_DRAWN: dict[int, TurnState] = {}
register(_DRAWN)  # engine._cache.clear() forgets it too (at most one entry per card kind)


def drawn_fresh(card: Card) -> TurnState:
    """``drawn_turn(FRESH_TURN, card)``: the turn after drawing ``card`` from the stock (made once per card)."""
    turn = _DRAWN.get(card.index)
    if turn is None or turn.drawn is not card:  # the very card: the same value, down to identity
        turn = _DRAWN[card.index] = drawn_turn(FRESH_TURN, card)
    return turn


def melded_turn(turn: TurnState, melds: tuple[Meld, ...], rules: Ruleset, opening: bool) -> TurnState:
    """The turn after laying new ``melds``: D2 and J4 obligations met where they hold the cards.

    ``opening``: the melds are part of an opening in progress (R-O4), so they
    count toward its points and clean run.
    """
    must_meld, taken, freed = turn.must_meld, turn.taken, turn.freed_jokers
    points, clean = turn.opening_points, turn.opening_clean
    for meld in melds:
        jokers = meld.joker_count
        if must_meld is not None and must_meld in meld.cards:
            if must_meld.is_joker:
                jokers -= 1
            must_meld = None
        if taken is not None and taken in meld.cards:
            taken = None
        freed = max(0, freed - jokers)
        if opening:
            points += sum(meld.points)  # validated by the caller: meld_points would check it again
            clean = clean or is_clean_run(meld)
    return evolve_turn(
        turn,
        must_meld=must_meld,
        taken=taken,
        freed_jokers=freed,
        melds_laid=turn.melds_laid + len(melds),
        laid=True,
        opening_points=points,
        opening_clean=clean,
    )


def laid_off_turn(r: RoundState, target: int, card: Card) -> TurnState:
    """The turn after laying ``card`` off onto table meld ``target``.

    A lay-off onto a meld laid this same turn counts as use in a new meld, for
    the taken discard (R-D2) and for a freed joker (R-J4): the table ends up as
    if the longer meld had been laid at once.
    """
    turn = r.turn
    taken = None if turn.taken == card else turn.taken
    must_meld, freed = turn.must_meld, turn.freed_jokers
    if target >= len(r.table) - turn.melds_laid:
        if must_meld is not None and card == must_meld:
            must_meld = None
        elif card.is_joker and freed:
            freed -= 1
    return evolve_turn(turn, laid=True, taken=taken, must_meld=must_meld, freed_jokers=freed)


def swapped_turn(turn: TurnState, card: Card) -> TurnState:
    """The turn after swapping ``card`` for a table joker (R-J4): the joker is freed and owed to a new meld.

    ``card`` leaves the hand, so it is no longer the taken card that may not be discarded (R-T7).
    """
    return evolve_turn(
        turn, laid=True, freed_jokers=turn.freed_jokers + 1, taken=None if turn.taken == card else turn.taken
    )
