"""The environments' legal ids and mask of a state already checked: :class:`~rummylib.encoding.ActionCodec`'s trusted back.

:class:`IdListing` holds the codec's own tables (its bases, lay-off shapes and
meld ranking) and, for a state the caller has already checked (an
environment's own state, or one :meth:`ActionCodec._legal_by_id` checked),
lists ``{id: action}`` in ``legal_actions`` order and builds the mask of a set
of ids. It reads only values the engine and the codec made, so the compiled
build compiles it (``pyproject.toml``'s mypyc list); every raw id or action a
caller gives goes through :class:`ActionCodec`'s pure checks instead. The
tests compare its answer with ``encode`` of each listed action on many
states of both presets and house variants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import compress

from rummylib._card import SUITS
from rummylib.actions import Action, LayMeld, LayOff
from rummylib.cards import JOKER, Card, Suit
from rummylib.engine import GameState, Phase
from rummylib.engine._legal import _DRAW_STOCK, _GENERATORS, _ORDER_BY_ID, _TAKE_DISCARD
from rummylib.engine._moves import DISCARDS, discard_selectors
from rummylib.engine._oblige import may_take_discard
from rummylib.melds import End, Group, Meld, Run
from rummylib.rules import Ruleset

__all__ = ["IdListing"]

_DRAW = 0
_TAKE = 1
#: How many values :class:`IdListing` keeps the ids of before it starts afresh.
_KNOWN_SIZE = 4096
_JOKER = JOKER.index
#: Each suit's index, by identity (an enum's own hash runs in Python).
_SUIT_INDEX = {id(suit): i for i, suit in enumerate(SUITS)}


class IdListing:
    """``{id: action}`` of the legal single steps of a checked state, and the mask of ids (the codec's tables).

    Args:
        rules: the codec's ruleset.
        size: how many ids there are.
        bases: the codec's ``discard_base``, ``meld_base``, ``lay_off_base``, ``per_slot`` and ``slots``.
        shape_index: the index of each lay-off (card, end) shape.
        runs: the meld catalogue's run tables: the highest run position, the ids per suit, and per
            length the first id in a suit and the index of each joker pattern.
        groups: the catalogue's run count and the index of each group shape (its suits and joker slots).
        encode: the codec's ``encode``, for an action the tables do not place (never for a listed one).
    """

    def __init__(
        self,
        rules: Ruleset,
        size: int,
        bases: tuple[int, int, int, int, int],
        shape_index: dict[tuple[Card, End | None], int],
        runs: tuple[int, int, dict[int, int], dict[int, dict[int, int]]],
        groups: tuple[int, dict[tuple[tuple[Suit, ...], tuple[bool, ...]], int]],
        encode: Callable[[Action], int],
    ) -> None:
        self._rules = rules
        self._size = size
        self._discard_base, self._meld_base, self._lay_off_base, self._per_slot, self._slots = bases
        self._shape_index = shape_index
        self._top, self._per_suit, self._length_base, self._pattern_index = runs
        self._run_count, self._group_index = groups
        self._groups = len(groups[1])
        #: ``(id, Discard(card))`` per card index, as the engine's discards are listed (``compress`` by the hand).
        self._discards: tuple[tuple[int, Action], ...] = tuple(
            (self._discard_base + i, discard)
            for i, discard in enumerate(DISCARDS[: self._meld_base - self._discard_base])
        )  # the block holds the joker's discard only where the rules have jokers
        self._encode = encode
        #: The id of each lay-off value and meld listed lately, by identity (the value held, so its id stays
        #: its own): the engine's listing hands out the same objects again and again.
        self._known: dict[int, tuple[object, int]] = {}

    def listed_by_id(self, state: GameState) -> dict[int, Action]:
        """``{id: action}`` for every legal single step of ``state`` (checked), in ``legal_actions`` order."""
        r = state.round
        if r.phase is Phase.DRAW:  # the listing's _draws, without a generator: the stock, then the pile if allowed
            take = may_take_discard(state.rules, r)  # False on an empty pile
            return {_DRAW: _DRAW_STOCK, _TAKE: _TAKE_DISCARD} if take else {_DRAW: _DRAW_STOCK}
        if r.phase is Phase.PLAY:
            return self.play_ids(state)
        # The other phases: the listing's own generators, kind by kind in its order (next_round only).
        encode = self._encode
        return {encode(a): a for kind in _ORDER_BY_ID[id(r.phase)] for a in _GENERATORS[kind](state)}

    def play_ids(self, state: GameState) -> dict[int, Action]:
        """The play phase's ``{id: action}``: the listing's generators in its order (discards, lay-offs, swaps, melds).

        Each kind's ids come straight from its actions' fields (a listed action is one the codec
        allows: the general encode is the fallback).
        """
        chosen = discard_selectors(state)  # a discard's id is its card's index past the block's base
        out: dict[int, Action] = {} if chosen is None else dict(compress(self._discards, chosen))
        known = self._known
        if len(known) >= _KNOWN_SIZE:
            known.clear()
        for lay in _GENERATORS["lay_offs"](state):  # the engine keeps its LayOff values per table meld
            hit = known.get(id(lay))
            if hit is None or hit[0] is not lay:
                hit = known[id(lay)] = (lay, self._lay_off_id(lay))
            out[hit[1]] = lay
        if self._rules.joker_swap:  # without it the listing has no swap (R-J4)
            for a in _GENERATORS["swaps"](state):
                out[self._encode(a)] = a
        for m in _GENERATORS["melds"](state):
            assert isinstance(m, LayMeld)
            meld = m.meld  # the solver's candidates keep their melds: a new LayMeld, mostly a known meld
            hit = known.get(id(meld))
            if hit is None or hit[0] is not meld:
                i = self.meld_index(meld)
                hit = known[id(meld)] = (meld, self._encode(m) if i < 0 else self._meld_base + i)
            out[hit[1]] = m
        return out

    def _lay_off_id(self, lay: Action) -> int:
        assert isinstance(lay, LayOff)
        shape, slot = self._shape_index.get((lay.card, lay.end)), lay.target
        if shape is not None and slot < self._slots:
            return self._lay_off_base + slot * self._per_slot + shape
        return self._encode(lay)

    def meld_index(self, meld: Meld) -> int:
        """The catalogue index of a meld the engine built (``MeldCatalogue.index``), or -1 if it has none."""
        if isinstance(meld, Run):
            cards = meld.cards
            length = len(cards)
            pats = self._pattern_index.get(length)
            if pats is None or meld.start + length - 1 > self._top:
                return -1
            mask = 0
            for i, card in enumerate(cards):
                if card.index == _JOKER:
                    mask |= 1 << i
            offset = pats.get(mask, -1)
            if offset < 0:
                return -1
            base = _SUIT_INDEX[id(meld.suit)] * self._per_suit + self._length_base[length]
            return base + (meld.start - 1) * len(pats) + offset
        if isinstance(meld, Group):
            found = self._group_index.get((meld.suits, tuple([c.index == _JOKER for c in meld.cards])), -1)
            return -1 if found < 0 else self._run_count + (int(meld.rank) - 1) * self._groups + found
        return -1

    def mask(self, ids: Iterable[int]) -> bytearray:
        """A ``size``-long mask with a 1 at each of ``ids`` (the environments view it as int8 without a copy)."""
        mask = bytearray(self._size)
        for i in ids:
            mask[i] = 1
        return mask
