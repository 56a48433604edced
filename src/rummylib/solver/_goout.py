"""Plans that empty the hand this turn (R-T2 to T7, O2 to O4, J4, J5, E1, E3).

A plan places every card of the hand (but the one discarded where the rules
need a discard) by new melds, lay-offs onto the table melds and joker swaps.
New melds laid on one turn and lay-offs onto them are the same as longer new
melds, so lay-offs are only searched onto the melds already on the table.

The search branches on the lowest natural card left in the hand: it is the
discard, or in a new meld, or in a lay-off onto a table meld (all the cards a
table meld receives are one option, so its two ends are decided together).
Jokers swapped off the table are tracked apart: they must go into new melds
(R-J4), and the melds holding them are laid after the opening and do not
count toward it. Jokers that are left once the naturals are placed go onto
free ends of table melds, or are the discard.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import cast

from rummylib.actions import Action, Discard, LayMeld, LayOff, Open, SwapJoker
from rummylib.cards import CARDS, JOKER, Card, CardMultiset, check_in_deck
from rummylib.errors import (
    ArgumentError,
    ArgumentReason,
    CardsReason,
    InvalidCardsError,
    InvalidMeldError,
    MeldReason,
)
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, swap_joker, validate_meld
from rummylib.rules import Ruleset
from rummylib.solver._results import prepare
from rummylib.solver._search import NEG, pack, presence
from rummylib.solver._tables import (
    Shape,
    Tables,
    build_meld,
    build_melds,
    card_index_at,
    tables_for,
)

__all__ = ["plan_go_out"]

# A lay-off option: all the cards one table meld receives.
# (packed naturals, mask, jokers, slot, lowest natural or -1, [(card index, end)] in laying order)
_LayOption = tuple[int, int, int, int, int, tuple[tuple[int, End | None], ...]]


def _run_extensions(run: Run, counts: Sequence[int], jokers: int, rules: Ruleset, low: bool) -> list[list[int]]:
    """Card-index sequences (52 = joker) that can extend ``run`` at one end, laid inner first."""
    top = ACE_HIGH if rules.ace_high else 13
    suit = run.suit.index
    room = 13 - len(run.cards)
    out: list[list[int]] = []
    step = -1 if low else 1
    edge_joker = (run.cards[0] if low else run.cards[-1]).is_joker
    # DFS: (next position, cards so far, jokers used, last card is a joker)
    stack: list[tuple[int, list[int], int, bool]] = [((run.start - 1) if low else (run.end + 1), [], 0, edge_joker)]
    while stack:
        pos, seq, used, last_joker = stack.pop()
        if seq:
            out.append(seq)
        if len(seq) >= room or not 1 <= pos <= top:
            continue
        index = card_index_at(pos, suit)
        if counts[index]:
            stack.append((pos + step, [*seq, index], used, False))
        if used < jokers and (rules.adjacent_jokers or not last_joker):
            stack.append((pos + step, [*seq, 52], used + 1, True))
    return out


def _options(
    table: Sequence[Meld], counts: Sequence[int], jokers: int, rules: Ruleset, pos: tuple[int, ...]
) -> list[_LayOption]:
    """Every way each table meld can take cards of the hand (lay-offs, R-J5, T6)."""
    options: list[_LayOption] = []
    for slot, meld in enumerate(table):
        combos: list[tuple[list[int], list[int]]] = []
        if isinstance(meld, Run):
            lows = [[], *_run_extensions(meld, counts, jokers, rules, True)]
            highs = [[], *_run_extensions(meld, counts, jokers, rules, False)]
            for lo, hi in itertools.product(lows, highs):
                if (lo or hi) and len(meld.cards) + len(lo) + len(hi) <= 13 and lo.count(52) + hi.count(52) <= jokers:
                    combos.append((lo, hi))
        elif isinstance(meld, Group) and len(meld.cards) == 3:
            for s in range(4):
                if all(x.index != s for x in meld.suits):
                    index = s * 13 + int(meld.rank) - 1
                    if counts[index]:
                        combos.append(([index], []))
            if jokers and rules.jokers and meld.joker_count + 1 <= rules.group4_max_jokers:
                combos.append(([52], []))
        for lo, hi in combos:
            naturals = [c for c in lo + hi if c != 52]
            packed = sum(1 << c for c in naturals)
            order: tuple[tuple[int, End | None], ...]
            if isinstance(meld, Run):
                order = tuple((c, End.LOW) for c in lo) + tuple((c, End.HIGH) for c in hi)
            else:
                order = tuple((c, None) for c in lo)
            low = min(pos[c] for c in naturals) if naturals else -1
            options.append((packed, packed, len(lo) + len(hi) - len(naturals), slot, low, order))
    return options


# A clean opening run extended after the Open by jokers laid off at its ends (R-O4, O6):
# (packed, jokers, core shape, low extension, high extension), extensions inner first.
_Fragment = tuple[int, int, Shape, tuple[int, ...], tuple[int, ...]]


def _fragments(tables: Tables, counts: Sequence[int], jokers: int, rules: Ruleset) -> list[_Fragment]:
    """Clean runs of the hand with a joker (and a card beyond it) laid off at an end.

    Lay-offs onto a new meld usually make nothing a longer meld could not, but
    the opening needs its clean run as laid: ``6S 7S 8S`` can open and then take
    a joker at each end, which ``JK 6S 7S 8S JK`` laid at once could not.
    """
    top = ACE_HIGH if rules.ace_high else 13
    out: list[_Fragment] = []
    w = tables.width
    for core in tables.shapes:
        if not core.clean or not all(counts[c] for c in core.naturals):
            continue
        suit, start = divmod(core.key, 16)
        end = start + len(core.layout) - 1
        # Extensions (inner card first) that could not be laid as a meld of their own:
        # jokers alone (several only where jokers may lie side by side), or one joker
        # and the natural beyond it. Longer ones are a later meld with the same cards.
        most = jokers if rules.adjacent_jokers else 1
        lows: list[tuple[int, ...]] = [()]
        highs: list[tuple[int, ...]] = [()]
        for k in range(1, most + 1):
            if start - k >= 1:
                lows.append((52,) * k)
            if end + k <= top:
                highs.append((52,) * k)
        if start - 2 >= 1 and counts[card_index_at(start - 2, suit)]:
            lows.append((52, card_index_at(start - 2, suit)))
        if end + 2 <= top and counts[card_index_at(end + 2, suit)]:
            highs.append((52, card_index_at(end + 2, suit)))
        for lo in lows:
            for hi in highs:
                used = lo.count(52) + hi.count(52)
                if not used or used > jokers or len(core.layout) + len(lo) + len(hi) > 13:
                    continue
                naturals = [*core.naturals, *(c for c in lo + hi if c != 52)]
                packed = sum(1 << (w * tables.pos[c]) for c in naturals)
                out.append((packed, used, core, lo, hi))
    return out


class _Search:
    """The go-out search for one table after a fixed set of joker swaps."""

    def __init__(
        self,
        rules: Ruleset,
        tables: Tables,
        options: list[_LayOption],
        need_open: bool,
        limit: int | None,
        must_discard: bool,
        open_with: int | None = None,
    ) -> None:
        self.rules = rules
        self.tables = tables
        self.w = tables.width
        self.need_open = need_open
        self.limit = limit
        self.must_discard = must_discard
        w = self.w
        self.rows = tables.packed
        self.lay_rows: list[list[_LayOption]] = [[] for _ in range(52)]
        self.joker_only: dict[int, list[_LayOption]] = {}
        for opt in options:
            packed_bits, _, jk, slot, low, order = opt
            repacked = sum(1 << (w * tables.pos[c]) for c, _ in order if c != 52)
            new = (repacked, packed_bits, jk, slot, low, order)
            if low < 0:
                self.joker_only.setdefault(slot, []).append(new)
            else:
                self.lay_rows[low].append(new)
        self.frag_rows: list[list[_Fragment]] = [[] for _ in range(52)]
        for lst in self.joker_only.values():  # most jokers first
            lst.sort(key=lambda o: -o[2])
        self.memo: dict[tuple[int, int, int, int, int, int, bool, bool], tuple[int, bool, object]] = {}
        # The card that has to go into the Open (R-D2): its index (52 = joker) and,
        # for a natural, the bit of its count field in the packed hand.
        self.open_with = open_with
        self.need_bit = 0 if open_with is None or open_with == 52 else 1 << (w * tables.pos[open_with])
        self.need_field = self.need_bit * tables.field

    def opens_with(self, shape: Shape, packed: int) -> bool:
        """Whether an opening meld of ``shape`` (packed naturals) holds the card owed to the Open."""
        if self.open_with == 52:
            return shape.jokers > 0
        return bool(packed & self.need_bit)

    def frag_opens_with(self, frag: _Fragment) -> bool:
        """Whether the clean core of ``frag`` (what the Open lays) holds the card owed to the Open."""
        return self.open_with is not None and self.open_with in frag[2].naturals

    def presence(self, x: int) -> int:
        return presence(x, self.w, self.tables.ones)

    def _terminal(self, h: int, f: int, used: int, allow: int, need_clean: bool) -> tuple[int, object]:
        if f or need_clean:
            return NEG, None
        # Discard first where a discard is needed and no natural was kept for it.
        discard_joker = self.must_discard and allow == 1
        if discard_joker:
            if h == 0:
                return NEG, None
            h -= 1
        spare = 0 if self.must_discard else allow
        placed: list[_LayOption] = []
        for slot, opts in sorted(self.joker_only.items()):
            if h <= spare:
                break
            if used >> slot & 1:
                continue
            for opt in opts:
                if opt[2] <= h:
                    placed.append(opt)
                    h -= opt[2]
                    break
        if h > spare:
            return NEG, None
        return 0, ("end", placed, discard_joker or h > 0)

    def best(
        self, x: int, h: int, f: int, used: int, allow: int, melds: int, need_clean: bool, need: bool, target: int
    ) -> int:
        """Most opening points a full placement can count, or NEG if none places everything.

        ``need``: a copy of ``open_with`` still has to go into an opening meld;
        once the last copy (a hand joker for a joker) is gone there is none.
        Stops as soon as ``target`` points are reached (any placement when
        ``target <= 0``); such a value is a lower bound, and is memoised as one.
        """
        if need and not (x & self.need_field if self.need_bit else h):
            return NEG
        key = (x, h, f, used, allow, melds, need_clean, need)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] >= target):
            return hit[0]
        if x == 0:
            value, end = self._terminal(h, f, used, allow, need_clean or need)
            self.memo[key] = (value, True, end)
            return value
        w = self.w
        p = self.presence(x)
        low_bit = (p & -p).bit_length() - 1
        card = low_bit // w
        absent = ~p
        best = NEG
        choice: object = None
        counting = self.need_open

        def done() -> int:
            self.memo[key] = (best, False, choice)
            return best

        if self.limit is None or melds < self.limit:
            for packed, shape in self.rows[card]:
                sj = shape.jokers
                if sj > h + f or packed & absent:
                    continue
                for u in range(max(0, sj - h), min(sj, f) + 1):
                    counted = u == 0
                    gain = shape.points if counting and counted else 0
                    nc = need_clean and not (counted and shape.clean)
                    nw = need and not (counted and self.opens_with(shape, packed))
                    sub = self.best(x - packed, h - (sj - u), f - u, used, allow, melds + 1, nc, nw, target - gain)
                    if sub != NEG and sub + gain > best:
                        best = sub + gain
                        choice = ("meld", shape, u, packed)
                        if best >= target:
                            return done()
            for frag in self.frag_rows[card]:
                packed, jk, core, _, _ = frag
                if jk > h or packed & absent:
                    continue
                nw = need and not self.frag_opens_with(frag)
                sub = self.best(x - packed, h - jk, f, used, allow, melds + 1, False, nw, target - core.points)
                if sub != NEG and sub + core.points > best:
                    best = sub + core.points
                    choice = ("frag", frag)
                    if best >= target:
                        return done()
        for opt in self.lay_rows[card]:
            packed, _, jk, slot, _, _ = opt
            if used >> slot & 1 or jk > h or packed & absent:
                continue
            sub = self.best(x - packed, h - jk, f, used | (1 << slot), allow, melds, need_clean, need, target)
            if sub != NEG and sub > best:
                best = sub
                choice = ("lay", opt)
                if best >= target:
                    return done()
        if allow:
            sub = self.best(x - (1 << (card * w)), h, f, used, allow - 1, melds, need_clean, need, target)
            if sub != NEG and sub > best:
                best = sub
                choice = ("discard", card)
        self.memo[key] = (best, True, choice)
        return best

    def path(
        self, x: int, h: int, f: int, used: int, allow: int, melds: int, need_clean: bool, need: bool
    ) -> list[object]:
        steps: list[object] = []
        while True:
            _, _, choice = self.memo[(x, h, f, used, allow, melds, need_clean, need)]
            steps.append(choice)
            if x == 0 or not isinstance(choice, tuple):
                return steps
            if choice[0] == "meld":
                _, shape, u, packed = choice
                assert isinstance(shape, Shape) and isinstance(u, int) and isinstance(packed, int)
                counted = u == 0
                x -= packed
                h -= shape.jokers - u
                f -= u
                melds += 1
                need_clean = need_clean and not (counted and shape.clean)
                need = need and not (counted and self.opens_with(shape, packed))
            elif choice[0] == "frag":
                frag = choice[1]
                need = need and not self.frag_opens_with(frag)
                x -= frag[0]
                h -= frag[1]
                melds += 1
                need_clean = False
            elif choice[0] == "lay":
                opt = choice[1]
                x -= opt[0]
                h -= opt[2]
                used |= 1 << opt[3]
            else:
                x -= 1 << (choice[1] * self.w)
                allow -= 1


def _check_table(table: object, rules: Ruleset) -> tuple[Meld, ...]:
    try:
        melds = tuple(cast(Iterable[Meld], table))
    except TypeError:
        msg = f"table must be a sequence of melds, not {type(table).__name__}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, table, msg) from None
    for meld in melds:
        validate_meld(meld, rules)
    return tuple(melds)


def _swappable(table: Sequence[Meld], hand: CardMultiset) -> list[tuple[int, Card]]:
    found: list[tuple[int, Card]] = []
    for t, meld in enumerate(table):
        for card, stands in zip(meld.cards, meld.represents):
            if card.is_joker and hand.count(stands):
                found.append((t, stands))
    return found


def _plan_for(
    hand: CardMultiset,
    freed: int,
    table: Sequence[Meld],
    rules: Ruleset,
    need_open: bool,
    open_with: Card | None = None,
) -> tuple[list[Meld], list[Meld], list[LayOff], Card | None] | None:
    limit = rules.melds_per_turn
    counts = hand.counts
    tables = tables_for(counts, hand.jokers + freed, rules, whole_runs=limit is not None)
    options = _options(table, counts, hand.jokers, rules, tables.pos)
    need = open_with is not None
    search = _Search(
        rules,
        tables,
        options,
        need_open,
        limit,
        rules.must_discard_to_go_out,
        None if open_with is None else open_with.index,
    )
    if need_open and rules.opening_clean_run and hand.jokers:
        for frag in _fragments(tables, counts, hand.jokers, rules):
            naturals = [*frag[2].naturals, *(c for c in frag[3] + frag[4] if c != 52)]
            search.frag_rows[min(tables.pos[c] for c in naturals)].append(frag)
    x = pack(counts, tables)
    need_clean = need_open and rules.opening_clean_run
    target = rules.opening_points if need_open else 0
    value = search.best(x, hand.jokers, freed, 0, 1, 0, need_clean, need, target)
    if value == NEG or (need_open and value < rules.opening_points):
        return None
    steps = search.path(x, hand.jokers, freed, 0, 1, 0, need_clean, need)
    counted: list[Shape] = []
    later: list[Shape] = []
    extended: list[_Fragment] = []
    layoffs: list[LayOff] = []
    discard: Card | None = None
    for step in steps:
        assert isinstance(step, tuple)
        if step[0] == "meld":
            (counted if step[2] == 0 else later).append(step[1])
        elif step[0] == "frag":
            extended.append(step[1])
        elif step[0] == "lay":
            for c, end in step[1][5]:
                layoffs.append(LayOff(step[1][3], CARDS[c], end))
        elif step[0] == "discard":
            discard = CARDS[tables.card_at[step[1]]]
        elif step[0] == "end":
            for opt in step[1]:
                for c, end in opt[5]:
                    layoffs.append(LayOff(opt[3], CARDS[c], end))
            if step[2]:
                discard = JOKER
    first = build_melds(counted, rules, mix_clean=False)
    if extended:
        # Fragments exist only with the opening: the Open lays its melds in its own
        # canonical order, and a lay-off names its target by that order.
        cores = [build_meld(core) for _, _, core, _, _ in extended]
        first = list(Open((*first, *cores)).melds)
        taken: set[int] = set()
        for core_meld, (_, _, _, lo, hi) in zip(cores, extended):
            index = next(i for i, m in enumerate(first) if i not in taken and m == core_meld)
            taken.add(index)
            target = len(table) + index
            layoffs.extend(LayOff(target, CARDS[c], End.LOW) for c in lo)
            layoffs.extend(LayOff(target, CARDS[c], End.HIGH) for c in hi)
    return first, build_melds(later, rules), layoffs, discard


def _check_open_with(card: object, hand: CardMultiset, need_open: bool) -> None:
    if not isinstance(card, Card):
        msg = f"open_with must be a Card, not {card!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, card, msg)
    if not hand.count(card):
        msg = f"open_with {card} is not in the hand {hand}"
        raise InvalidCardsError(CardsReason.NOT_ENOUGH, card, msg)
    if not need_open:
        msg = f"open_with {card} needs a plan that opens (opened=False under rules with an opening)"
        raise ArgumentError(ArgumentReason.BAD_VALUE, "open_with", card, f"open_with: {msg}")


def plan_go_out(
    hand: Iterable[Card], table: Sequence[Meld], rules: Ruleset, *, opened: bool, open_with: Card | None = None
) -> list[Action] | None:
    """Actions that empty the hand this turn, or ``None`` if it cannot be done.

    The hand is as it stands after the draw. A plan is: the ``Open`` (when
    ``opened`` is false and the rules need an opening; its melds alone meet
    R-O2), joker swaps (R-J4; each freed joker goes into a new meld laid the
    same turn, which does not count toward the opening), further new melds,
    lay-offs onto ``table`` (``LayOff.target`` indexes ``table``), and the
    final ``Discard`` where the rules need one (R-E1) or a card remains
    (R-E3). It respects ``rules.melds_per_turn`` (R-T5; an ``Open`` counts
    its melds). Exact: ``None`` means no plan exists.

    Args:
        hand: the cards in hand (any iterable of cards).
        table: the melds on the table, in the order they were laid.
        rules: the ruleset.
        opened: whether the player has opened already (R-O1).
        open_with: a card of the hand that the ``Open`` must hold (one copy
            of it, in one of the opening melds themselves): R-D2, a player
            who has not opened takes the top discard only to open with it
            and go out. A card laid later in the turn does not count, not
            even by a lay-off onto an opening run (R-O4, O6). Only meaningful
            when the plan opens (``opened`` false and
            ``rules.opening_required``); otherwise it is an error. A joker
            asks for an opening meld with a joker (never a freed one: swaps
            come after the Open).

    Raises:
        InvalidCardsError: the hand is not made of cards, or hand and table
            hold more copies of a card than the deck; ``open_with`` is not a
            card, or not in the hand.
        ArgumentError: ``opened`` is not a bool, or ``open_with`` is
            given where the plan has no ``Open`` (``opened`` true, or rules
            without an opening).
        InvalidMeldError: a table meld is not a valid meld under ``rules``.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import REMIK, make_meld, parse_cards, plan_go_out
    >>> table = [make_meld(parse_cards("JS QS KS"), REMIK)]
    >>> for action in plan_go_out(parse_cards("JK 9S 2D"), table, REMIK, opened=True):
    ...     print(action)
    layoff #0 JK low
    layoff #0 9S low
    discard 2D

    With ``open_with`` only plans whose ``Open`` holds the card count (R-D2):
    here 9D can open, but 2C can only be the discard.

    >>> from rummylib import format_meld, parse_card
    >>> hand = parse_cards("JH QH KH AH 9S 9D 9C 2C")
    >>> plan = plan_go_out(hand, [], REMIK, opened=False, open_with=parse_card("9D"))
    >>> [format_meld(m) for m in plan[0].melds], plan[-1]
    (['JH QH KH AH', '9S 9D 9C'], Discard(card=Card('2C')))
    >>> print(plan_go_out(hand, [], REMIK, opened=False, open_with=parse_card("2C")))
    None
    """
    ms, checked = prepare(hand, rules, "hand")
    if not isinstance(opened, bool):
        msg = f"opened must be a bool, not {opened!r}"
        raise ArgumentError(ArgumentReason.WRONG_TYPE, "opened", opened, f"opened: {msg}")
    melds = _check_table(table, checked)
    on_table = CardMultiset(c for m in melds for c in m.cards)
    check_in_deck(ms + on_table, checked, "hand and table")
    need_open = checked.opening_required and not opened
    if open_with is not None:
        _check_open_with(open_with, ms, need_open)
    if not ms:
        return None if (need_open or checked.must_discard_to_go_out) else []
    swappable = _swappable(melds, ms) if checked.joker_swap and checked.jokers else []
    for size in range(len(swappable) + 1):
        for subset in itertools.combinations(swappable, size):
            swapped = CardMultiset(card for _, card in subset)
            if not swapped <= ms:
                continue
            table_now = list(melds)
            for t, card in subset:
                table_now[t] = swap_joker(table_now[t], card, checked)[0]
            found = _plan_for(ms - swapped, size, table_now, checked, need_open, open_with)
            if found is None:
                continue
            first, later, layoffs, discard = found
            actions: list[Action] = []
            if need_open:
                actions.append(Open(first))
            actions.extend(SwapJoker(t, card) for t, card in subset)
            if not need_open:
                actions.extend(LayMeld(m) for m in first)
            actions.extend(LayMeld(m) for m in later)
            actions.extend(layoffs)
            if discard is not None:
                actions.append(Discard(discard))
            return actions
    return None
