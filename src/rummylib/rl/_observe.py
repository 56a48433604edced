"""Observation vectors straight from a state and a seat: the environments' fast path.

:class:`StateObserver` returns, as a float32 numpy vector, exactly
``ObservationEncoder.encode(view(state, seat))`` (R-H1: the seat's view only),
without building the :class:`~rummylib.PlayerView` or the list of integers.
It reads from the state only the fields :func:`~rummylib.view` copies into a
view (never another hand's cards, the stock's order or the seed) and writes
the encoder's layout as bytes, most of them whole 53-count blocks; the
table's and the pile's numbers are the encoder's own (worked out once per
table and seat, and once per pile), the known cards' bytes are kept per seat
until they change, and the scalars are written into a copy of the seat's
template (the numbers that change only at an opening or a round's end). The
few numbers that can pass 255 (a run's joker bits, running totals, counters)
are written into the float vector afterwards. The tests check it against the
encoder on every seat of many reachable states of both presets and house variants.
"""

from __future__ import annotations

from typing import Any, Final

from rummylib._card import NUM_CARD_KINDS
from rummylib.cards import Card, CardMultiset
from rummylib.encoding import ObservationEncoder
from rummylib.encoding._numbers import NO_TURN, SLOT_WIDTH, pile_change
from rummylib.encoding._observation import _PHASE_CODES, COUNTER_CAP
from rummylib.engine import GameState, Phase, TableMeld, view
from rummylib.engine._state import FRESH_TURN, RoundState

from ._common import as_vector

__all__ = ["StateObserver"]

_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
#: Cached tables (and piles, and known cards) before the cache starts afresh.
_CACHE_LIMIT: Final = 64
#: A seat's scalars: the totals, opened flags, round and dealer they were made for, the template of the
#: ``pile_size`` .. ``round`` numbers, where each relative seat's hand size goes (and whose it is), and the
#: running totals past 255 (with their places in the vector).
_SeatEntry = tuple[object, object, int, int, list[int], list[tuple[int, int]], list[tuple[int, int]]]


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
        self._view = memoryview(self._bytes)
        self._u8 = np.frombuffer(self._bytes, dtype=np.uint8)
        self._f32 = np.dtype(np.float32)  # a dtype, not the type: astype converts a type on every call
        self._n = encoder.players
        self._slots = encoder.slots
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
        # Per phase, keyed on its identity (an enum's own hash runs in Python): its bytes for a viewer not to
        # act and for the viewer to act, indexed by ``mine``.
        self._phases = {id(p): (bytes([*_PHASE_CODES[p], 0]), bytes([*_PHASE_CODES[p], 1])) for p in Phase}
        self._tables: dict[tuple[int, int], tuple[tuple[TableMeld, ...], bytes, list[tuple[int, int]]]] = {}
        self._last_pile: tuple[tuple[Card, ...], bytes] = ((), bytes(encoder._pile_counts(())))
        #: Per seat: the totals, opened flags, round and dealer last seen, and what :meth:`_seat_entry` made of
        #: them (first: none seen).
        self._seats: list[_SeatEntry] = [(None, None, 0, 0, [], [], [])] * self._n
        #: Where the ``turn`` field starts in the ``pile_size`` .. ``round`` run (``opening`` follows it).
        self._turn_at = 3 + 3 * self._n
        self._knowns: dict[tuple[int, int], tuple[tuple[CardMultiset, ...], bytes]] = {}
        self._known_of: dict[int, tuple[CardMultiset, bytes]] = {}
        #: Per seat, the entry of :meth:`_known` last used (first: no known cards yet).
        self._known_at: list[tuple[tuple[CardMultiset, ...] | None, bytes]] = [(None, b"")] * self._n
        #: The last restocked cards and known stock order seen, and their bytes.
        self._refill: tuple[object, object, bytes] = (None, None, b"")
        #: Each viewer's seats in relative order: itself, then each seat to its left (R-P1).
        self._order = [tuple((seat + k) % self._n for k in range(self._n)) for seat in range(self._n)]
        #: The last table worked out from scratch, its bytes and patches (the other seats' are derived).
        self._last_table: tuple[tuple[TableMeld, ...] | None, bytes, list[tuple[int, int]]] = (None, b"", [])
        #: Per seat, the entry of :meth:`_table` last used (first: the empty table's).
        self._table_of = [self._table((), seat) for seat in range(self._n)]

    def __call__(self, state: GameState, seat: int) -> Any:
        if not self._fast:
            return as_vector(self._enc.encode(view(state, seat)), self._np)
        r = state.round
        phase = r.phase
        mine = r.to_act == seat and (phase is _DRAW or phase is _PLAY)
        table = r.table
        hit = self._table_of[seat]  # the seat's last table: the same one on most calls
        if hit[0] is not table:
            kept = self._tables.get((id(table), seat))
            hit = kept if kept is not None and kept[0] is table else self._table(table, seat)
            self._table_of[seat] = hit
        pile = self._last_pile
        if pile[0] is not r.discard:
            pile = self._pile(r.discard)
        scalars, wide = self._scalars(state, r, seat, mine, phase)
        known = r.known_cards  # R-H1, D4, D6: what every player knows of the hands and the stock
        if self._n == 2:  # the other seat's known cards alone: kept per multiset (a take changes the taker's)
            other = known[1 - seat]
            one = self._known_of.get(id(other))
            if one is None or one[0] is not other:
                one = self._known_one(other)
            packed = one[1]
        else:
            public = self._known_at[seat]  # the seat's last known cards: the same ones on most calls
            if public[0] is not known:
                kept_known = self._knowns.get((id(known), seat))
                public = kept_known if kept_known is not None and kept_known[0] is known else self._known(known, seat)
                self._known_at[seat] = public
            packed = public[1]
        refill = self._refill
        if refill[0] is not r.restocked or refill[1] is not r.known_stock:  # only on a refill or a draw
            refill = self._refill = (r.restocked, r.known_stock, self._stock_tail(r.restocked, r.known_stock, refill))
        # The same length: a wrong one is refused (through the buffer's memoryview, cheaper than the bytearray's
        # slice assignment); bytearray() of the hand's counts is cheaper than bytes() of them.
        self._view[:] = b"".join(
            (
                self._phases[id(phase)][mine],
                bytearray(r.hands[seat]._counts),
                hit[1],
                pile[1],
                scalars,
                packed,
                refill[2],
            )
        )
        vector = self._u8.astype(self._f32)  # a fresh float32 copy: the caller may keep it
        for at, value in hit[2]:
            vector[at] = value
        for at, value in wide:
            vector[at] = value
        return vector

    def _scalars(
        self, state: GameState, r: RoundState, seat: int, mine: bool, phase: Phase
    ) -> tuple[bytearray, list[tuple[int, int]]]:
        # The pile_size .. round fields (R-P1: seats relative to the viewer): the seat's template, the numbers
        # that change from step to step written into a copy (the multisets' size slots read directly).
        seats = self._seats[seat]
        if (
            seats[0] is not state.totals
            or seats[1] is not r.opened
            or seats[2] != state.round_number
            or seats[3] != state.dealer
        ):
            seats = self._seat_entry(state, r.opened, seat)
        mid = seats[4].copy()
        hands = r.hands
        mid[0] = len(r.discard)
        mid[1] = len(r.stock)
        restocks = r.restocks
        mid[2] = restocks if restocks < COUNTER_CAP else COUNTER_CAP  # noqa: FURB136
        for at, s in seats[5]:
            mid[at] = hands[s]._len
        at = self._turn_at
        turn = r.turn
        if mine and turn is not FRESH_TURN:  # the viewer's own turn only (a fresh turn's numbers are all 0)
            drawn, taken, must = turn.drawn, turn.taken, turn.must_meld
            if drawn is not None:
                mid[at] = drawn.index + 1
            if taken is not None:
                mid[at + 1] = taken.index + 1
            if must is not None:
                mid[at + 2] = must.index + 1
            mid[at + 3] = turn.must_go_out  # a bool counts as 0 or 1, as the encoder's int() of it
            mid[at + 4] = turn.freed_jokers
            laid, slots = turn.melds_laid, self._slots
            mid[at + 5] = laid if laid < slots else slots  # noqa: FURB136
            mid[at + 6] = turn.laid
        if phase is _PLAY:  # R-O4: the opening in progress of the seat to act is public
            points, top = turn.opening_points, self._opening_cap
            mid[at + 7] = points if points < top else top  # noqa: FURB136
            mid[at + 8] = turn.opening_clean
        wide = seats[6]  # the running totals past 255 (0 in the list), with their places in the vector
        try:
            scalars = bytearray(mid)  # cheaper than bytes() of a list
        except ValueError:  # another number past 255 (a long game's counters): written below too
            scalars = bytearray([0 if v > 255 else v for v in mid])
            wide = wide + [(self._mid + i, v) for i, v in enumerate(mid) if v > 255]
        return scalars, wide

    def _seat_entry(self, state: GameState, opened: tuple[bool, ...], seat: int) -> _SeatEntry:
        # The seat's template of the pile_size .. round fields, in the encoder's order: what changes only at a
        # round's end (totals, the round, the dealer) or an opening (opened) written, the rest 0. Per relative
        # seat: its hand size (where it goes, and whose), whether it opened, its running total clipped as the
        # encoder does (0 here if past 255, with its place in the vector and value among the patches).
        totals = state.totals
        cap = self._total_cap
        mid = [0, 0, 0]
        sizes: list[tuple[int, int]] = []
        patches: list[tuple[int, int]] = []
        for k, s in enumerate(self._order[seat]):
            total = totals[s]
            clipped = total if 0 <= total <= cap else (0 if total < 0 else cap)
            if clipped > 255:
                patches.append((self._mid + 3 + 3 * k + 2, clipped))
                clipped = 0
            sizes.append((len(mid), s))
            mid += (0, opened[s], clipped)
        number = state.round_number
        counter = number if number < COUNTER_CAP else COUNTER_CAP  # noqa: FURB136
        mid += (*NO_TURN, 0, 0, self._opening_points, counter, (state.dealer - seat) % self._n)
        entry = self._seats[seat] = (totals, opened, number, state.dealer, mid, sizes, patches)
        return entry

    def _known(self, known: tuple[CardMultiset, ...], seat: int) -> tuple[tuple[CardMultiset, ...], bytes]:
        # The known field: once per known cards and seat (they change only on a take, a swap or a lay).
        packed = b"".join([bytes(known[s].counts) for s in self._order[seat][1:]])
        if len(self._knowns) >= _CACHE_LIMIT:
            self._knowns.clear()
        entry = self._knowns[id(known), seat] = (known, packed)
        return entry

    def _known_one(self, known: CardMultiset) -> tuple[CardMultiset, bytes]:
        # Two players: the known field is the other seat's known cards, once per multiset (the entry
        # holds it, so its id cannot be reused meanwhile).
        if len(self._known_of) >= _CACHE_LIMIT:
            self._known_of.clear()
        entry = self._known_of[id(known)] = (known, bytes(known.counts))
        return entry

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

    def _table(
        self, table: tuple[TableMeld, ...], seat: int
    ) -> tuple[tuple[TableMeld, ...], bytes, list[tuple[int, int]]]:
        # The encoder's own table numbers, as bytes: once per table and seat (the entry holds the table,
        # so its id cannot be reused meanwhile; a table changes only when something is laid). Seen from
        # another seat, only the owners differ (each 1 + the owner's seat relative to the viewer, R-P1):
        # the first seat's bytes with those rewritten (every seat asks in turn after each lay).
        shared = self._last_table
        if shared[0] is table:
            out = bytearray(shared[1])
            at, n = 1, self._n  # the owner is the second number of each slot
            for tm in table[: self._slots]:
                owner = tm.owner
                if owner is not None:
                    out[at] = 1 + (owner - seat) % n
                at += SLOT_WIDTH
            packed, patches = bytes(out), shared[2]  # the numbers past 255 are joker bits: the same from every seat
        else:
            numbers = self._enc._table_numbers(table, seat)
            try:
                packed, patches = bytes(numbers), []
            except ValueError:  # a run's joker bit past the eighth position: written into the floats
                patches = [(self._table_at + i, v) for i, v in enumerate(numbers) if v > 255]
                packed = bytes(0 if v > 255 else v for v in numbers)
            self._last_table = (table, packed, patches)
        if len(self._tables) >= _CACHE_LIMIT:
            self._tables.clear()
        entry = self._tables[id(table), seat] = (table, packed, patches)
        return entry

    def _pile(self, discard: tuple[Card, ...]) -> tuple[tuple[Card, ...], bytes]:
        # The encoder's pile and pile_top fields (53 counts, then the top card one-hot), as bytes: once per
        # pile. A pile one discard longer or one take shorter than the last one (R-D1, D2: the most
        # common change by far) is the last one's bytes with one count and the top changed.
        last, packed = self._last_pile
        change = pile_change(last, discard)
        if change is None:
            out = bytearray(self._enc._pile_counts(discard))  # counted from every card
        else:
            out = bytearray(packed)
            out[change[0]] += change[1]
            if last:
                out[NUM_CARD_KINDS + last[-1].index] = 0  # the old top
            if discard:
                out[NUM_CARD_KINDS + discard[-1].index] = 1  # the new top
        entry = self._last_pile = (discard, bytes(out))
        return entry
