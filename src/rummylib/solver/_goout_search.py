"""The go-out search: the memoised branch on the lowest card (see :mod:`._goout`; records in :mod:`._goout_steps`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter

from rummylib.rules import Ruleset
from rummylib.solver._goout_steps import _Discard, _End, _Extended, _Lay, _NewMeld, _State, _Step, _Swap
from rummylib.solver._layoffs import Fragment, LayOption, Slot
from rummylib.solver._search import NEG, presence
from rummylib.solver._tables import Shape, Tables

__all__: list[str] = []  # internal to the solver: _goout reads the search

# Records are built by tuple's own constructor: a NamedTuple's generated __new__ is one more Python call.
_new = tuple.__new__
_gain = itemgetter(2)  # a move's points


def _minimal(masks: Iterable[int]) -> tuple[int, ...]:
    """The masks that contain no other (one witness of each is enough)."""
    ordered = sorted(set(masks), key=int.bit_count)
    kept: list[int] = []
    for mask in ordered:
        for k in kept:  # a loop, not any(): this runs for every pair
            if k & mask == k:
                break
        else:
            kept.append(mask)
    return tuple(kept)


def _clean_cores(tables: Tables) -> tuple[int, ...]:
    """The packed naturals of the clean runs among the shapes, minimal ones only (kept with the tables)."""
    found = tables.extra.get("clean_cores")
    if found is None:
        found = tables.extra["clean_cores"] = _minimal(
            packed for row in tables.packed for packed, shape in row if shape.clean
        )
    return found  # type: ignore[return-value]


class _Search:
    """The go-out search for one hand and table."""

    def __init__(
        self,
        rules: Ruleset,
        tables: Tables,
        options: list[LayOption],
        slots: list[Slot],
        need_open: bool,
        open_with: int | None,
    ) -> None:
        self.rules = rules
        self.tables = tables
        self.w = tables.width
        self.need_open = need_open
        self.limit = rules.melds_per_turn
        self.step = 0 if self.limit is None else 1  # melds are counted only under a limit (R-T5)
        self.must_discard = rules.must_discard_to_go_out
        self.rows: list[tuple[tuple[int, Shape], ...] | None] = [None] * 52  # filled by _row
        self.root_absent = 0
        self.most_jokers = 0
        # Rows of positions with nothing are one shared empty tuple (most are empty).
        self.lay_rows: list[Sequence[LayOption]] = [()] * 52
        self.joker_only: dict[int, list[LayOption]] = {}
        self._file_options(options)
        # Lay-off marks of meld ends no option of the cards left can reach are
        # forgotten (``_live``), so the memo sees fewer states; jokers alone reach these.
        # A run's two ends are marked apart, so a mark lives only while the search
        # is at the ranks next to that end (the states stay few on long chains of runs).
        self.joker_ends = sum(1 << e for e in self.joker_only)
        self.frag_rows: list[Sequence[Fragment]] = [()] * 52
        # Swap slots by the search position of their card: how many plain ones, which relevant ones.
        self.slots = slots
        self.plain: list[Sequence[int]] = [()] * 52
        self.relevant: list[Sequence[int]] = [()] * 52
        self.below = [0] * 52  # relevant slots whose card is at or below each position
        self.swap_at = 0  # bit per search position whose card has swap slots
        # Swap slots of cards above each position: a meld may use freed jokers that
        # swaps of higher cards will supply (``f`` goes below zero until they do).
        self.slot_cards: list[tuple[int, int]] = []
        if slots:
            self._file_slots(slots)
        self.memo: dict[_State, tuple[int, bool, _Step | None]] = {}
        self.clean_memo: dict[int, bool] = {}
        self.low_memo: dict[int, int] = {}
        self.live_memo: dict[int, int] = {}
        self.come_memo: dict[tuple[int, int], int] = {}
        # The card that has to go into the Open (R-D2): its index (52 = joker) and,
        # for a natural, the bit of its count field in the packed hand.
        self.open_with = open_with
        self.need_bit = 0 if open_with is None or open_with == 52 else 1 << (self.w * tables.pos[open_with])
        self.need_field = self.need_bit * tables.field
        # Built on first use (only an opening that still needs its clean run asks): most plans never do.
        self._clean_cores: tuple[int, ...] | None = None

    def _file_options(self, options: list[LayOption]) -> None:
        """File the lay-off options by their lowest natural; those of jokers alone by their end."""
        by_low: dict[int, list[LayOption]] = {}
        for opt in options:
            if opt.low < 0:
                self.joker_only.setdefault(opt.end, []).append(opt)
            else:
                by_low.setdefault(opt.low, []).append(opt)
        for p, row in by_low.items():
            self.lay_rows[p] = row
        for lst in self.joker_only.values():  # most jokers first
            lst.sort(key=lambda o: -o.jokers)

    def _file_slots(self, slots: list[Slot]) -> None:
        """File the swap slots by the search position of their card: plain ones, relevant ones, and below."""
        plain: dict[int, list[int]] = {}
        relevant: dict[int, list[int]] = {}
        for n, slot in enumerate(slots):
            p = self.tables.pos[slot.card]
            (relevant if slot.relevant else plain).setdefault(p, []).append(n)
            self.swap_at |= 1 << p
        for p, numbers in plain.items():
            self.plain[p] = numbers
        for p, numbers in relevant.items():
            self.relevant[p] = numbers
        positions = sorted({*plain, *relevant})
        mask = 0
        for p in positions:
            if self.relevant[p]:
                mask |= sum(1 << n for n in self.relevant[p])
                self.below[p:] = [mask] * (52 - p)
        self.slot_cards = [(q, len(self.plain[q]) + len(self.relevant[q])) for q in positions]

    def add_fragment(self, frag: Fragment) -> None:
        """File an extended opening run (R-O2, O6) by its lowest natural; its core is clean."""
        naturals = [*frag.core.naturals, *(c for c in frag.low_ext + frag.high_ext if c != 52)]
        p = min(self.tables.pos[c] for c in naturals)
        self.frag_rows[p] = [*self.frag_rows[p], frag]
        self._clean_cores = None  # the fragment is one more clean core

    @property
    def clean_cores(self) -> tuple[int, ...]:
        """The packed naturals of the minimal clean runs the hand (and its fragments) can lay."""
        if self._clean_cores is None:
            # The fragments add none: each holds its core's naturals, a clean run of the same tables, which
            # holds one of these minimal ones already.
            self._clean_cores = _clean_cores(self.tables)  # minimal already
        return self._clean_cores

    def clean_possible(self, x: int) -> bool:
        """Whether the naturals ``x`` still hold a clean run (R-O2): else the opening cannot be met."""
        hit = self.clean_memo.get(x)
        if hit is None:
            absent = ~presence(x, self.w, self.tables.ones)
            hit = False
            for packed in self.clean_cores:  # a loop, not any(): no generator
                if not packed & absent:
                    hit = True
                    break
            self.clean_memo[x] = hit
        return hit

    def opens_with(self, shape: Shape, packed: int) -> bool:
        """Whether an opening meld of ``shape`` (packed naturals) holds the card owed to the Open."""
        if self.open_with == 52:
            return shape.jokers > 0
        return bool(packed & self.need_bit)

    def frag_opens_with(self, frag: Fragment) -> bool:
        """Whether the clean core of ``frag`` (what the Open lays) holds the card owed to the Open."""
        return self.open_with is not None and self.open_with in frag.core.naturals

    def low_card(self, x: int) -> int:
        hit = self.low_memo.get(x)
        if hit is None:
            p = presence(x, self.w, self.tables.ones)
            hit = self.low_memo[x] = ((p & -p).bit_length() - 1) // self.w
        return hit

    def start(self, x: int, h: int, need_clean: bool, need: bool) -> _State:
        """The root state; the meld rows will keep only the shapes this hand could ever lay (``_row``)."""
        self.root_absent = ~presence(x, self.w, self.tables.ones)
        self.most_jokers = h + len(self.slots)  # jokers in hand, and every one a swap could free
        fresh = bool(x) and self._has_swaps(self.low_card(x))
        return _State(x, h, 0, 0, 1, 0, need_clean, need, 0, 0, fresh)

    def to_come(self, x: int, card: int) -> int:
        """How many swaps cards above ``card`` still in ``x`` can make (each frees a joker)."""
        if not self.slot_cards:
            return 0
        hit = self.come_memo.get((x, card))
        if hit is None:
            w, field = self.w, self.tables.field
            hit = sum(min(n, (x >> (q * w)) & field) for q, n in self.slot_cards if q > card)
            self.come_memo[x, card] = hit
        return hit

    def _has_swaps(self, card: int) -> bool:
        return bool(self.swap_at >> card & 1)

    def child(
        self,
        card: int,
        x: int,
        h: int,
        f: int,
        used: int,
        allow: int,
        melds: int,
        need_clean: bool,
        need: bool,
        swapped: int,
        committed: int,
    ) -> _State:
        """The state with these fields, where ``card`` was the lowest card before: ``fresh`` once that card is gone."""
        swap_at = self.swap_at
        if not swap_at or not x or (x >> (card * self.w)) & self.tables.field:
            fresh = False  # no swaps, or those of this card (still the lowest) are decided
        else:
            fresh = bool(swap_at >> self.low_card(x) & 1)
        if used:
            used &= self._live(x) | (self.joker_ends if h else 0)
        return _new(_State, (x, h, f, used, allow, melds, need_clean, need, swapped, committed, fresh))

    def _live(self, x: int) -> int:
        """The meld ends a lay-off of the naturals ``x`` can still reach."""
        hit = self.live_memo.get(x)
        if hit is None:
            absent = ~presence(x, self.w, self.tables.ones)
            hit = 0
            for p in range(self.low_card(x) if x else 52, 52):
                for opt in self.lay_rows[p]:
                    if not opt.packed & absent:
                        hit |= 1 << opt.end
            self.live_memo[x] = hit
        return hit

    def terminal(self, s: _State) -> tuple[int, _End | None]:
        if s.f or s.need_clean or s.need or s.committed:
            return NEG, None
        h = s.h
        # Discard first where a discard is needed and no natural was kept for it.
        discard_joker = self.must_discard and s.allow == 1
        if discard_joker:
            if h == 0:
                return NEG, None
            h -= 1
        spare = 0 if self.must_discard else s.allow
        placed: list[LayOption] = []
        for end, opts in sorted(self.joker_only.items()):
            if h <= spare:
                break
            if s.used >> end & 1:
                continue
            for opt in opts:
                if opt.jokers <= h and not opt.needs & ~s.swapped:
                    placed.append(opt)
                    h -= opt.jokers
                    break
        if h > spare:
            return NEG, None
        return 0, _End(tuple(placed), discard_joker or h > 0)

    def best(self, s: _State, target: int) -> int:
        """Most opening points a full placement can count, or NEG if none places everything.

        Stops as soon as ``target`` points are reached (any placement when
        ``target <= 0``); such a value is a lower bound, and is memoised as one.
        """
        if s.need and not (s.x & self.need_field if self.need_bit else s.h):
            return NEG
        if s.need_clean and not self.clean_possible(s.x):
            return NEG  # the clean run the opening needs can no longer be laid (R-O2)
        if s.f < 0 and -s.f > self.to_come(s.x, self.low_card(s.x) - 1 if s.fresh else self.low_card(s.x)):
            return NEG  # more freed jokers owed than swaps still to come
        hit = self.memo.get(s)
        if hit is not None and (hit[1] or hit[0] >= target):
            return hit[0]
        if s.x == 0:
            value, end = self.terminal(s)
            self.memo[s] = (value, True, end)
            return value
        best, choice, exact = self._choices(s, target)
        self.memo[s] = (best, exact, choice)
        return best

    def _choices(self, s: _State, target: int) -> tuple[int, _Step | None, bool]:
        if s.fresh:
            return self._swaps(s, target)
        w = self.w
        card = self.low_card(s.x)
        absent = ~presence(s.x, w, self.tables.ones)
        best = NEG
        choice: _Step | None = None
        moves: Iterable[tuple[_Step, _State, int]] = self._moves(s, card, absent)
        if target > 0:  # an opening still short of its points: the melds worth most first
            moves = sorted(moves, key=_gain, reverse=True)  # stable: equal gains keep their order
        for step, sub_state, gain in moves:
            sub = self.best(sub_state, target - gain)
            if sub != NEG and sub + gain > best:
                best, choice = sub + gain, step
                if best >= target:
                    return best, choice, False
        return best, choice, True

    def _swaps(self, s: _State, target: int) -> tuple[int, _Step | None, bool]:
        """Decide how many copies of the lowest card replace table jokers (R-J4)."""
        best = NEG
        choice: _Step | None = None
        for step, sub_state in self._swap_states(s):
            sub = self.best(sub_state, target)
            if sub != NEG and sub > best:
                best, choice = sub, step
                if best >= target:
                    return best, choice, False
        return best, choice, True

    def _moves(self, s: _State, card: int, absent: int) -> Iterable[tuple[_Step, _State, int]]:
        """Every way to place one copy of ``card`` (or all of them, for a lay-off), with its points."""
        if self.limit is None or s.melds < self.limit:
            yield from self._new_melds(s, card, absent)
        for opt in self.lay_rows[card]:
            if s.used >> opt.end & 1 or opt.jokers > s.h or opt.packed & absent:
                continue
            past = opt.needs & self.below[card]
            if past & ~s.swapped:
                continue  # a slot it needs was not swapped when its card came
            child = self.child(
                card,
                s.x - opt.packed,
                s.h - opt.jokers,
                s.f,
                s.used | (1 << opt.end),
                s.allow,
                s.melds,
                s.need_clean,
                s.need,
                s.swapped,
                s.committed | (opt.needs & ~past),
            )
            yield _Lay(opt), child, 0
        if s.allow:
            x = s.x - (1 << (card * self.w))
            child = self.child(card, x, s.h, s.f, s.used, 0, s.melds, s.need_clean, s.need, s.swapped, s.committed)
            yield _Discard(card), child, 0

    def _row(self, card: int) -> tuple[tuple[int, Shape], ...]:
        """The shapes lowest at ``card`` that the root hand holds the naturals of, with few enough jokers."""
        absent, most = self.root_absent, self.most_jokers
        row = tuple([(p, shape) for p, shape in self.tables.packed[card] if not p & absent and shape.jokers <= most])
        self.rows[card] = row
        return row

    def _new_melds(self, s: _State, card: int, absent: int) -> Iterable[tuple[_Step, _State, int]]:
        counting = self.need_open
        x, h, f, need_clean, need = s.x, s.h, s.f, s.need_clean, s.need
        used, allow, swapped, committed = s.used, s.allow, s.swapped, s.committed
        freed = f + self.to_come(x, card) if self.slot_cards else f  # freed jokers there are or can still be
        melds = s.melds + self.step
        make = self.child
        row = self.rows[card]
        for packed, shape in self._row(card) if row is None else row:
            sj = shape.jokers
            if sj > h + freed or packed & absent:
                continue
            if freed == 0:  # no freed jokers: the meld takes hand jokers only, and counts
                clean, owed = need_clean and not shape.clean, need and not self.opens_with(shape, packed)
                sub = make(card, x - packed, h - sj, f, used, allow, melds, clean, owed, swapped, committed)
                yield _new(_NewMeld, (shape, 0, packed)), sub, shape.points if counting else 0
                continue
            for u in range(max(0, sj - h), min(sj, freed) + 1):
                counted = u == 0
                gain = shape.points if counting and counted else 0
                clean = need_clean and not (counted and shape.clean)
                owed = need and not (counted and self.opens_with(shape, packed))
                sub = make(card, x - packed, h - (sj - u), f - u, used, allow, melds, clean, owed, swapped, committed)
                yield _new(_NewMeld, (shape, u, packed)), sub, gain
        for frag in self.frag_rows[card]:
            if frag.jokers > s.h or frag.packed & absent:
                continue
            child = self.child(
                card,
                s.x - frag.packed,
                s.h - frag.jokers,
                s.f,
                s.used,
                s.allow,
                s.melds + self.step,
                False,
                s.need and not self.frag_opens_with(frag),
                s.swapped,
                s.committed,
            )
            yield _Extended(frag), child, frag.core.points

    def path(self, s: _State) -> list[_Step]:
        """The steps of the plan the memo holds from ``s`` (which :meth:`best` solved)."""
        steps: list[_Step] = []
        while True:
            choice = self.memo[s][2]
            if choice is None:
                return steps
            steps.append(choice)
            if isinstance(choice, _End):
                return steps
            s = self._after(s, choice)

    def _after(self, s: _State, step: _Step) -> _State:
        """The state ``step`` leads to from ``s``, as :meth:`best` built it."""
        if isinstance(step, _Swap):
            for sub_step, sub in self._swap_states(s):
                if sub_step == step:
                    return sub
        else:
            card = self.low_card(s.x)
            absent = ~presence(s.x, self.w, self.tables.ones)
            for move, sub, _ in self._moves(s, card, absent):
                if move == step:
                    return sub
        raise AssertionError("the memo's choice is not a move of its state")  # pragma: no cover

    def _swap_states(self, s: _State) -> Iterable[tuple[_Swap, _State]]:
        """Every choice of swaps for the lowest card: plain slots by number, relevant ones by slot."""
        card = self.low_card(s.x)
        count = (s.x >> (card * self.w)) & self.tables.field
        relevant = self.relevant[card]
        for subset in range(1 << len(relevant)):
            mask = sum(1 << n for k, n in enumerate(relevant) if subset >> k & 1)
            taken = mask.bit_count()
            if taken > count or s.committed & self.below[card] & ~mask & ~s.swapped:
                continue  # too few copies, or a lay-off chosen earlier needs a slot left out
            for plain in range(min(len(self.plain[card]), count - taken) + 1):
                k = taken + plain
                sub = self.child(
                    card,
                    s.x - (k << (card * self.w)),
                    s.h,
                    s.f + k,
                    s.used,
                    s.allow,
                    s.melds,
                    s.need_clean,
                    s.need,
                    s.swapped | mask,
                    s.committed & ~mask,
                )
                yield _Swap(card, plain, mask), sub
