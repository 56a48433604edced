"""Observation vectors straight from a state and a seat: the environments' fast path.

:class:`StateObserver` returns, as a float32 numpy vector, exactly
``ObservationEncoder.encode(view(state, seat))`` (R-H1: the seat's view only),
without building the :class:`~rummylib.PlayerView` or the list of integers.
It reads from the state only the fields :func:`~rummylib.view` copies into a
view (never another hand's cards, the stock's order or the seed) and writes
the encoder's layout as bytes, most of them whole 53-count blocks; the
table's and the pile's numbers are the encoder's own (worked out once per
table and seat, and once per pile), the known cards' bytes are kept per seat
until they change. The few numbers that can pass 255 (a run's joker bits,
running totals, counters) are written into the float vector afterwards. The
tests check it against the encoder on every seat of many reachable states of
both presets and house variants.
"""

from __future__ import annotations

from typing import Any, Final

from rummylib._card import NUM_CARD_KINDS
from rummylib.cards import Card, CardMultiset
from rummylib.encoding import ObservationEncoder
from rummylib.encoding._observation import _PHASE_CODES, COUNTER_CAP
from rummylib.engine import GameState, Phase, TableMeld, view
from rummylib.engine._state import TurnState

from ._common import as_vector

__all__ = ["StateObserver"]

_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
#: Cached tables (and piles, and known cards) before the cache starts afresh.
_CACHE_LIMIT: Final = 64


class StateObserver:
    """``observer(state, seat)``: the observation vector of ``view(state, seat)`` (R-H1), as float32.

    Equal to ``as_vector(encoder.encode(view(state, seat)), np)`` for every
    state of the encoder's rules and table size.

    Args:
        encoder: the environment's encoder.
        np: the numpy module.
    """

    def __init__(self, encoder: ObservationEncoder, np: Any) -> None:
        self._enc = encoder
        self._np = np
        #: The vector's bytes, written whole on each call, and a numpy uint8 view of them (made once).
        self._bytes = bytearray(encoder.size)
        self._u8 = np.frombuffer(self._bytes, dtype=np.uint8)
        self._f32 = np.float32
        self._n = encoder.players
        offsets = {f.name: f for f in encoder.fields}
        #: ``pile_size`` to ``round``: one run of scalars, some of which may pass 255.
        self._mid = offsets["pile_size"].offset
        self._stock_len = offsets["known_stock"].length
        self._opening_cap = encoder.high[offsets["opening"].offset]
        self._total_cap = encoder.high[offsets["seats"].offset + 2]
        self._opening_points = encoder.rules.opening_points
        self._table_at = offsets["table"].offset
        # A float32 holds every integer up to 2**24 exactly; past that, the encoder's own path.
        self._fast = max(encoder.high) < 1 << 24
        # Keyed on the phase's identity: an enum's own hash runs in Python.
        self._phases = {(id(p), mine): bytes([*_PHASE_CODES[p], mine]) for p in Phase for mine in (False, True)}
        self._tables: dict[tuple[int, int], tuple[tuple[TableMeld, ...], bytes, list[tuple[int, int]]]] = {}
        self._last_pile: tuple[tuple[Card, ...], bytes] = ((), bytes(self._enc._pile_numbers(())))
        self._knowns: dict[tuple[int, int], tuple[tuple[CardMultiset, ...], bytes]] = {}
        #: The last restocked cards and known stock order seen, and their bytes.
        self._refill: tuple[object, object, bytes] = (None, None, b"")
        #: Each viewer's seats in relative order: itself, then each seat to its left (R-P1).
        self._order = [tuple((seat + k) % self._n for k in range(self._n)) for seat in range(self._n)]

    def __call__(self, state: GameState, seat: int) -> Any:
        if not self._fast:
            return as_vector(self._enc.encode(view(state, seat)), self._np)
        r = state.round
        phase = r.phase
        mine = r.to_act == seat and (phase is _DRAW or phase is _PLAY)
        table, patches = self._table(r.table, seat)
        mid = self._scalars(state, seat, r.turn if mine else None, phase)
        wide: list[int] | None = None
        try:
            scalars = bytes(mid)
        except ValueError:  # a number past 255: written below
            scalars, wide = bytes(len(mid)), mid
        parts = [self._phases[id(phase), mine], bytes(r.hands[seat].counts), table, self._pile(r.discard), scalars]
        parts.append(self._public(r.known_cards, r.restocked, r.known_stock, seat))
        self._bytes[:] = b"".join(parts)  # the same length: a wrong one is refused (the buffer is exported)
        vector = self._u8.astype(self._f32)  # a fresh float32 copy: the caller may keep it
        for at, value in patches:
            vector[at] = value
        if wide is not None:
            vector[self._mid : self._mid + len(wide)] = wide
        return vector

    def _scalars(self, state: GameState, seat: int, turn: TurnState | None, phase: Phase) -> list[int]:
        # The encoder's pile_size .. round fields, in its order (R-P1: seats relative to the viewer).
        r = state.round
        hands, opened, totals, cap = r.hands, r.opened, state.totals, self._total_cap
        out = [len(r.discard), len(r.stock), min(r.restocks, COUNTER_CAP)]
        for s in self._order[seat]:
            total = totals[s]
            out += (len(hands[s]), opened[s], total if 0 <= total <= cap else (0 if total < 0 else cap))
        out += self._enc._turn_numbers(turn)
        if phase is _PLAY:  # R-O4: the opening in progress of the seat to act is public
            out += (min(r.turn.opening_points, self._opening_cap), r.turn.opening_clean)
        else:
            out += (0, 0)
        out += (self._opening_points, min(state.round_number, COUNTER_CAP), (state.dealer - seat) % self._n)
        return out  # bools among them count as 0 and 1, as the encoder's int() of them

    def _public(
        self, known: tuple[CardMultiset, ...], restocked: CardMultiset, stock: tuple[Card, ...], seat: int
    ) -> bytes:
        # The known, restocked and known_stock fields: what every player knows (R-H1, D4, D6).
        key = (id(known), seat)  # the known cards change only on a take, a swap or a lay
        hit = self._knowns.get(key)
        if hit is not None and hit[0] is known:
            packed = hit[1]
        else:
            packed = b"".join([bytes(known[s].counts) for s in self._order[seat][1:]])
            if len(self._knowns) >= _CACHE_LIMIT:
                self._knowns.clear()
            self._knowns[key] = (known, packed)
        refill = self._refill
        if refill[0] is not restocked or refill[1] is not stock:  # they change only on a refill or a draw
            refill = self._refill = (restocked, stock, self._stock_tail(restocked, stock, refill))
        return packed + refill[2]

    def _stock_tail(
        self, restocked: CardMultiset, stock: tuple[Card, ...], last: tuple[object, object, bytes]
    ) -> bytes:
        # The restocked and known_stock fields (R-D4, D6): the stock's public order after a turnover, top first.
        length = self._stock_len
        before = last[1]
        if (
            last[0] is restocked
            and isinstance(before, tuple)
            and 0 < len(before) <= length
            and len(stock) == len(before) - 1
            and stock == before[1:]
        ):  # the top card of the last known stock drawn: its codes move up one place
            return last[2][:NUM_CARD_KINDS] + last[2][NUM_CARD_KINDS + 1 :] + b"\0"
        tail = bytes(restocked.counts)
        if length:
            codes = bytes([c.index + 1 for c in stock[:length]])  # a reachable state never has more
            tail += codes + bytes(length - len(codes))
        return tail

    def _table(self, table: tuple[TableMeld, ...], seat: int) -> tuple[bytes, list[tuple[int, int]]]:
        # The encoder's own table numbers, as bytes: once per table and seat (the entry holds the table,
        # so its id cannot be reused meanwhile; a table changes only when something is laid).
        key = (id(table), seat)
        hit = self._tables.get(key)
        if hit is not None and hit[0] is table:
            return hit[1], hit[2]
        numbers = self._enc._table_numbers(table, seat)
        try:
            packed, patches = bytes(numbers), []
        except ValueError:  # a run's joker bit past the eighth position: written into the floats
            patches = [(self._table_at + i, v) for i, v in enumerate(numbers) if v > 255]
            packed = bytes(0 if v > 255 else v for v in numbers)
        if len(self._tables) >= _CACHE_LIMIT:
            self._tables.clear()
        self._tables[key] = (table, packed, patches)
        return packed, patches

    def _pile(self, discard: tuple[Card, ...]) -> bytes:
        # The encoder's pile and pile_top numbers, as bytes: once per pile (it changes only on a take or
        # a discard; the entry holds the pile, so its id cannot be reused meanwhile).
        last = self._last_pile
        if last[0] is not discard:
            last = self._last_pile = (discard, bytes(self._enc._pile_numbers(discard)))
        return last[1]
