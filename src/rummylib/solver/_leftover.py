"""The best opening of a large input by what it leaves in hand: each small leftover, the rest laid whole.

An opening leaves some cards ``L`` in hand (at least ``keep``, R-T3) and lays
every other card. What it is worth on the two tie-breaks (cards placed,
penalty removed) depends on ``L`` alone, and its points are those of the
best cover of the rest that lays every card. On inputs of 60 cards and more
the best opening leaves very little: the best points of the cards (each at
its best place, jokers 11) are often within three to eight points of the
optimum, so only leftovers worth that little need trying, and each is a
question about covers that lay every card.

That question has a far tighter relaxation than the packing one: every card
must be covered, so no card can be "left over at its price" in a fractional
answer. It is solved with a bonus per card laid (:data:`BONUS`, large
enough that the relaxation lays every card it can), whose prices bound every
cover that lays all the cards of any part of the input; :class:`Laid` is the
search that never leaves a card. Each leftover is first bounded by the
prices of the whole input (one programme), then, if still promising, by a
programme of its own (started from the whole one's basis, see
:class:`~rummylib.solver._priced.Relaxed`), and only then searched (by
:class:`Constrained`). On 72 to 96 cards where the packing relaxation
stays one to three points above the optimum and the search of
:mod:`~rummylib.solver._keep` took seconds to minutes, these bounds are
exact or one point off.

Leftovers are tried level by level: for each number of points ``t``, from
the bound down, every leftover whose bound reaches ``t`` is asked for a
cover worth ``t`` (or enough to beat the best found on the tie-breaks).
Once an answer worth ``t`` is known, no leftover whose bound is below ``t``
can beat it, so the answer is exact. The work is bounded by the settings
(:class:`~rummylib.solver._settings.SearchSettings`: ``leftover_*``); past
them :class:`~rummylib.solver._search.OverBudget` is raised and the caller
searches as before.
"""

from __future__ import annotations

from heapq import merge

import attrs

from rummylib.solver._laid import Constrained, Laid
from rummylib.solver._opening_objective import scales
from rummylib.solver._optimise import Found
from rummylib.solver._priced import SCALE, Part, Relaxed, Split, fixed, tightened
from rummylib.solver._proofs import cap
from rummylib.solver._search import NEG, Cover, OverBudget, by_position, cards_in, entries, pack
from rummylib.solver._settings import SearchSettings
from rummylib.solver._tables import Shape, Tables, packed_without, tables_for

__all__ = ["BONUS", "Constrained", "Laid", "by_leftover", "laid_whole"]

#: Points per card laid that the relaxation of a whole cover adds (see :func:`_laid_split`).
BONUS = 30
#: No bound known (see :meth:`_Decomposition.within`).
NEG_BOUND = NEG


def _laid_split(best_points: tuple[int, ...]) -> Split:
    """Points plus :data:`BONUS` per card, priced; the prices of an answer that lays every card."""
    return Split(
        lambda shape: shape.points + BONUS * shape.size,
        lambda shape: 0,
        1,
        tuple(v + BONUS for v in best_points),
        (0,) * 53,
    )


@attrs.define
class _Leftover:
    """One leftover: its cards (search positions, 52 a joker), its bound in points, its own search."""

    cards: tuple[int, ...]
    bound: int
    search: Cover | None = None
    exact: bool = False
    #: The search without the candidates no cover reaching ``target`` uses (``_priced.fixed``).
    fixed: Cover | None = None
    target: int = 0
    #: Its programme while not solved in full (:meth:`_Decomposition.ask`).
    part: Part | None = None


class _Decomposition:
    """The state of :func:`by_leftover` on one input."""

    def __init__(self, cover: Cover, tables: Tables, x: int, jokers: int, keep: int) -> None:
        settings = cover.settings
        self.settings = settings
        attempt = attrs.evolve(settings, memo_limit=settings.leftover_budget, give_up=True)
        self.cover = Cover(tables, cover.rows, cover.potential, attempt)
        self.tables = tables
        self.x = x
        self.jokers = jokers
        self.keep = keep
        pens, self.m1, self.m2, best_points = scales(tables.rules)
        self.split = _laid_split(best_points)
        self.value = by_position(best_points, tables)
        self.pen = by_position(pens, tables)
        w = tables.width
        kinds: list[tuple[int, int]] = []
        p = cover.presence(x)
        while p:
            bit = p & -p
            p ^= bit
            position = (bit.bit_length() - 1) // w
            kinds.append((position, (x >> (position * w)) & tables.field))
        if jokers:
            kinds.append((52, jokers))
        self.kinds = kinds
        self.n = cards_in(x, w, tables.field) + jokers
        self.top = sum(self.value[c] * n for c, n in kinds)
        self.penalty = sum(self.pen[c] * n for c, n in kinds)
        self.relaxed = Relaxed(self.cover, tables, x, jokers, self.split)
        whole = self.relaxed.tightened(x, jokers, Laid)
        self.prices = whole.potential
        self.whole = whole.remaining(x, jokers)
        self.leftovers: dict[tuple[int, ...], _Leftover] = {}
        #: The same, in the order of their cards; every leftover worth ``top - done`` points or less is made.
        self.order: list[_Leftover] = []
        self.done = self.top + 1
        #: Per kind, the points (bits) the leftovers of it and the kinds after it may be worth.
        self.reach = _reach([(self.value[c], n) for c, n in kinds])
        #: Leftovers with a programme of their own (:meth:`ask`), whose prices bound every leftover holding them.
        self.priced: list[_Leftover] = []
        #: Programmes solved and memoised states allowed per search, in this call (:func:`by_leftover`).
        self.programmes = 0
        self.budget = settings.leftover_budget

    def within(self, cards: tuple[int, ...]) -> int:
        """A bound on the points of laying all but ``cards``, by the programme of each leftover they hold.

        Prices checked on the candidates that fit beside leftover ``L`` bound every
        cover laying all the cards of a part of the input without ``L``.
        """
        best = NEG_BOUND
        for known in self.priced:
            rest = list(cards)
            try:
                for c in known.cards:
                    rest.remove(c)
            except ValueError:
                continue  # it does not hold that leftover
            search = known.search
            assert search is not None
            x, j = self.without(known.cards)
            total = search.remaining(x, j) - sum(search.potential[c] for c in rest)
            bound = total // SCALE - BONUS * (self.n - len(cards))
            best = bound if best == NEG_BOUND else min(best, bound)
        return best

    def rest(self, cards: tuple[int, ...]) -> int:
        """The tie-breaks of an opening that leaves ``cards``: cards placed, then penalty removed."""
        return (self.n - len(cards)) * self.m1 + self.penalty - sum(self.pen[c] for c in cards)

    def without(self, cards: tuple[int, ...]) -> tuple[int, int]:
        """The input less ``cards``."""
        return packed_without(self.x, self.jokers, cards, self.tables.width)

    def level(self, t: int) -> list[_Leftover]:
        """Every leftover of at least ``keep`` cards whose bound reaches ``t`` points.

        In the order of their cards (a leftover before those it is part of): each
        is made once, the first time a level reaches it, and kept in that order.
        """
        if t < self.done:
            self._make(self.top - self.done + 1, self.top - t)
            self.done = t
        return [known for known in self.order if known.bound >= t]

    def _make(self, lo: int, hi: int) -> None:
        """Make every leftover of at least ``keep`` cards worth ``lo`` to ``hi`` points (those not made yet)."""
        made: list[_Leftover] = []
        kinds, value, prices = self.kinds, self.value, self.prices
        reach = self.reach
        limit = self.settings.leftover_sets

        def visit(start: int, cards: list[int], lost: int, priced: int) -> None:
            if lo <= lost and len(cards) >= self.keep:
                key = tuple(cards)
                if key not in self.leftovers:
                    laid = self.n - len(cards)
                    bound = min(self.top - lost, (self.whole - priced) // SCALE - BONUS * laid)
                    made.append(_Leftover(key, bound))
                    self.leftovers[key] = made[-1]
                    if len(self.leftovers) > limit:
                        raise OverBudget("sets")
            for k in range(start, len(kinds)):
                c, count = kinds[k]
                v = lost + value[c]
                if v > hi or cards.count(c) >= count:
                    continue
                if v < lo and not (reach[k] >> (lo - v)) & ((2 << (hi - lo)) - 1):
                    continue  # no leftover worth ``lo`` to ``hi`` points below this one
                cards.append(c)
                visit(k, cards, v, priced + prices[c])
                cards.pop()

        try:
            visit(0, [], 0, 0)
        finally:
            if made:  # both in the order of their cards
                self.order = list(merge(self.order, made, key=lambda known: known.cards))

    def ask(self, leftover: _Leftover, points: int) -> tuple[int, list[Shape]] | None:
        """The best points of a cover laying all but ``leftover`` if they reach ``points``, with its shapes."""
        x, j = self.without(leftover.cards)
        laid = self.n - len(leftover.cards)
        if leftover.search is None:
            held = self.within(leftover.cards)
            if held != NEG_BOUND and held < leftover.bound:
                leftover.bound = held
                if held < points:
                    return None
            self.programmes += 1
            if self.programmes > self.settings.leftover_programmes:
                raise OverBudget("programmes")
            leftover.part = self.relaxed.part(x, j)
            self.priced.append(leftover)
        # Its programme's dual simplex, stopped at the first prices that bound it below
        # ``points`` (a bound is all a leftover that cannot reach them needs), solved
        # in full before a search (its prices, and so its answers, as if never stopped).
        enough: float | None = None
        if self.settings.leftover_bound_first:
            enough = points + BONUS * laid - 0.5  # the prices rounded up stay below points + BONUS * laid
        while leftover.part is not None:
            leftover.search, solved = self.relaxed.advance(leftover.part, x, j, Constrained, enough)
            if solved:
                leftover.part = None
            own = leftover.search.remaining(x, j) // SCALE - BONUS * laid
            leftover.bound = min(leftover.bound, own)
            if own < points:
                return None
            enough = None
        assert leftover.search is not None
        floor = SCALE * (points + BONUS * laid) - 1
        if leftover.fixed is None or leftover.target != floor + 1:
            # Only covers worth ``points`` matter: drop the candidates none of them uses (a memo of its own).
            leftover.fixed = fixed(leftover.search, self.tables, x, j, 0, floor + 1)
            leftover.target = floor + 1
        search = leftover.fixed
        # Memory stays bounded: each search within the memo limit, and the memos of the
        # others (only a speed-up) dropped once they hold more than it.
        most = self.settings.memo_limit
        search.limit = min(self.budget, most)
        if sum(len(known.fixed.memo) for known in self.priced if known.fixed is not None) > most:
            for known in self.priced:
                if known is not leftover and known.fixed is not None:
                    known.fixed.memo.clear()
        need = int(self.tables.rules.opening_clean_run)
        value = search.solve(x, j, need, floor, SCALE)
        if value <= floor:
            # No cover reaches ``points``: the fixed search's own bound holds only for the candidates it kept.
            leftover.bound = min(leftover.bound, points - 1)
            return None
        leftover.exact = True
        leftover.bound = value // SCALE - BONUS * laid
        return leftover.bound, search.path(x, j, need, value)


def _reach(kinds: list[tuple[int, int]]) -> list[int]:
    """Per kind ``k``, a bit per sum of points some copies of kinds ``k`` on may make (``kinds``: value, count)."""
    out = [1] * (len(kinds) + 1)
    for k in range(len(kinds) - 1, -1, -1):
        v, n = kinds[k]
        bits = out[k + 1]
        out[k] = bits
        for i in range(1, n + 1):
            out[k] |= bits << (i * v)
    return out[:-1]


def by_leftover(
    cover: Cover,
    tables: Tables,
    x: int,
    jokers: int,
    keep: int,
    alpha: int,
    budget: int | None = None,
    kept: dict[str, object] | None = None,
) -> Found | None:
    """The best opening above ``alpha`` (plain scale) leaving at least ``keep`` cards, or ``None``.

    ``cover`` is the plain search of the opening (its rows restricted to the
    input); its settings bound the work (``leftover_*``), ``budget`` (if given)
    the memoised states of each search. ``kept``, if given, keeps the work of
    one call (bounds, programmes, memos) for the next call on the same input
    with a larger budget. Each level settled without an answer proves that no
    opening reaches it: within ``_proofs.proving`` the question's ``cap`` is
    lowered below it, for the later attempts (also when this call gives up).

    Raises:
        OverBudget: the answer would take more leftovers, programmes or
            memoised states than the settings allow.
    """
    state = kept.get("leftover") if kept is not None else None
    if not isinstance(state, _Decomposition):
        state = _Decomposition(cover, tables, x, jokers, keep)
        if kept is not None:
            kept["leftover"] = state
    state.settings = cover.settings
    state.programmes = 0
    state.budget = cover.settings.leftover_budget if budget is None else budget
    m2 = state.m2
    proof = cap(tables, x, jokers, int(tables.rules.opening_clean_run) | keep << 1)
    best: Found | None = None
    incumbent = max(alpha, 0)  # an opening is never empty (its gain is more than nothing)
    t = state.top
    while t * m2 + state.rest(()) > incumbent:
        asked = [known for known in state.level(t) if not known.exact]
        if len(asked) > state.settings.leftover_reach:
            raise OverBudget("reach")  # too many leftovers may reach ``t``: the searches settle it sooner
        for leftover in sorted(asked, key=lambda item: -(item.bound * m2 + state.rest(item.cards))):
            rest = state.rest(leftover.cards)
            points = max(t, (incumbent - rest) // m2 + 1)
            if leftover.bound < points or leftover.exact:
                continue
            found = state.ask(leftover, points)
            if found is not None and found[0] * m2 + rest > incumbent:
                incumbent = found[0] * m2 + rest
                best = (incumbent, found[1])
        if best is None and proof is not None and t <= proof[0] and t * m2 > incumbent:
            proof[0] = t - 1  # every leftover asked for ``t`` points in vain: no opening reaches them
        t -= 1
    return best


def laid_whole(
    tables: Tables, x: int, jokers: int, settings: SearchSettings, *, exact: bool = False
) -> list[Shape] | None:
    """Shapes that lay every card of ``x`` and every joker, or ``None`` if there are none or the search runs out.

    With ``exact``, running out raises :class:`~rummylib.solver._search.OverBudget`, so ``None`` means none.

    The search that lays every card, rank-major whatever the order of
    ``tables`` (measured: suit-major gets lost), priced by its own relaxation:
    first :class:`Constrained` within ``laid_first_budget`` memoised states,
    then :class:`Laid` within ``hunt_budget`` (a first cover's), each exact if
    it ends. A partition that lays every card leaves no penalty, the least
    there is: on 100 cards of seed 5 the least-deadwood search, never told that
    nothing need be left, wandered for minutes, while this finds such a cover
    in a few hundred states.
    """
    w, field = tables.width, tables.field
    counts = [0] * 52
    for position in range(52):
        counts[tables.card_at[position]] = (x >> (w * position)) & field
    ranked = tables_for(counts, jokers, tables.rules, settings=settings, order="rank")
    nothing = (0,) * 53
    attempt = attrs.evolve(settings, memo_limit=settings.hunt_budget, give_up=True)
    plain = Cover(ranked, entries(ranked, lambda shape: 0, nothing), nothing, attempt)
    x = plain.restrict(pack(counts, ranked), jokers)
    if cards_in(x, ranked.width, ranked.field) < sum(counts):
        return None  # a card no candidate takes
    _, _, _, best_points = scales(tables.rules)
    search = tightened(plain, ranked, x, jokers, _laid_split(best_points), 0, Laid)
    floor = SCALE * BONUS * (sum(counts) + jokers) - 1
    if settings.laid_first_budget:
        first = attrs.evolve(settings, memo_limit=settings.laid_first_budget, give_up=True)
        constrained = Constrained(ranked, search.rows, search.potential, first, fine=search.fine, scale=search.scale)
        try:
            value = constrained.solve(x, jokers, 0, floor, SCALE)
            return constrained.path(x, jokers, 0, value) if value > floor else None
        except OverBudget:
            pass  # the lowest card first, within hunt_budget
    try:
        value = search.solve(x, jokers, 0, floor, SCALE)
        return search.path(x, jokers, 0, value) if value > floor else None
    except OverBudget:
        if exact:
            raise
        return None
