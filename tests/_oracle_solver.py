"""A deliberately naive solver oracle, and a replayer for go-out plans.

Nothing here shares logic with :mod:`rummylib.solver`. The oracle lists every
meld of a small multiset by trying every sub-multiset against every table
layout, then enumerates every selection of disjoint melds. The go-out oracle
plays every sequence of actions with the meld functions (make, lay off,
swap) until the hand is empty. Only small inputs are feasible.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import attrs

from rummylib import (
    JOKER,
    Action,
    Card,
    CardMultiset,
    Discard,
    End,
    Group,
    InvalidMeldError,
    LayMeld,
    LayOff,
    Meld,
    Open,
    Rank,
    Ruleset,
    Run,
    Suit,
    SwapJoker,
    card_penalty,
    is_clean_run,
    lay_off,
    meld_points,
    swap_joker,
    validate_meld,
)

SUITS = tuple(Suit)


def _nat(rank: int, suit: Suit) -> Card:
    return Card(Rank(1 if rank == 14 else rank), suit)


def _sub_multisets(counts: Counter[Card]) -> Iterator[Counter[Card]]:
    items = sorted(counts.items())
    for choice in itertools.product(*(range(n + 1) for _, n in items)):
        yield Counter({card: k for (card, _), k in zip(items, choice) if k})


def oracle_melds(cards: Sequence[Card], rules: Ruleset) -> list[Meld]:
    """Every valid meld whose cards are a sub-multiset of ``cards`` (naively)."""
    found: set[Meld] = set()
    for sub in _sub_multisets(Counter(cards)):
        n = sum(sub.values())
        if n < 3 or n > 13:
            continue
        jokers = sub[JOKER]
        naturals = [c for c, k in sub.items() if not c.is_joker for _ in range(k)]
        if not naturals:
            continue
        # Runs: every suit and every start; the naturals take their positions.
        for suit in SUITS:
            if any(c.suit is not suit for c in naturals):
                continue
            for start in range(1, 15 - n + 1):
                window = list(range(start, start + n))
                options = [[1, 14] if c.rank is Rank.ACE else [int(c.rank or 0)] for c in naturals]
                for positions in itertools.product(*options):
                    if len(set(positions)) != len(positions) or not all(p in window for p in positions):
                        continue
                    slots = [_nat(p, suit) if p in positions else JOKER for p in window]
                    if sum(1 for c in slots if c.is_joker) != jokers:
                        continue
                    try:
                        meld: Meld = Run(suit, start, tuple(slots))
                        validate_meld(meld, rules)
                    except InvalidMeldError:
                        continue
                    found.add(meld)
        # Groups: every choice of suits for the jokers.
        ranks = {c.rank for c in naturals}
        if len(ranks) == 1 and 3 <= n <= 4:
            rank = naturals[0].rank
            assert rank is not None
            suits_used = [c.suit for c in naturals if c.suit is not None]
            if len(set(suits_used)) != len(suits_used):
                continue
            free = [s for s in SUITS if s not in suits_used]
            for extra in itertools.combinations(free, jokers):
                slots_g = sorted(
                    [(s, Card(rank, s)) for s in suits_used] + [(s, JOKER) for s in extra],
                    key=lambda sc: SUITS.index(sc[0]),
                )
                try:
                    meld = Group(rank, tuple(c for _, c in slots_g), tuple(s for s, _ in slots_g))
                    validate_meld(meld, rules)
                except InvalidMeldError:
                    continue
                found.add(meld)
    return sorted(found, key=str)


def selections(cards: Sequence[Card], rules: Ruleset) -> Iterator[tuple[list[Meld], Counter[Card]]]:
    """Every set of disjoint melds from ``cards``, with the cards left over."""
    melds = oracle_melds(cards, rules)
    needs = [Counter(m.cards) for m in melds]

    def walk(i: int, left: Counter[Card], chosen: list[Meld]) -> Iterator[tuple[list[Meld], Counter[Card]]]:
        yield list(chosen), left
        for k in range(i, len(melds)):
            if all(left[c] >= n for c, n in needs[k].items()):
                chosen.append(melds[k])
                yield from walk(k, left - needs[k], chosen)
                chosen.pop()

    yield from walk(0, Counter(cards), [])


def penalty(left: Counter[Card], rules: Ruleset) -> int:
    return sum(card_penalty(c, rules) * n for c, n in left.items())


def oracle_partition_penalty(cards: Sequence[Card], rules: Ruleset) -> int:
    """The least leftover penalty over every selection."""
    return min(penalty(left, rules) for _, left in selections(cards, rules))


def oracle_opening(cards: Sequence[Card], rules: Ruleset, keep: int = 0) -> tuple[int, int, int] | None:
    """(points, cards placed, -leftover penalty) of the best legal opening leaving ``keep`` cards, or None."""
    best: tuple[int, int, int] | None = None
    for chosen, left in selections(cards, rules):
        if not chosen or sum(left.values()) < keep:
            continue
        points = sum(meld_points(m, rules) for m in chosen)
        if points < rules.opening_points:
            continue
        if rules.opening_clean_run and not any(is_clean_run(m) for m in chosen):
            continue
        key = (points, sum(len(m) for m in chosen), -penalty(left, rules))
        if best is None or key > best:
            best = key
    return best


# --- go-out: play every action sequence ---------------------------------------------------


@attrs.frozen
class _Turn:
    hand: CardMultiset
    table: tuple[Meld, ...]
    opened: bool
    freed: int
    melds: int


def oracle_can_go_out(
    hand: Sequence[Card], table: Sequence[Meld], rules: Ruleset, *, opened: bool, open_with: Card | None = None
) -> bool:
    """Whether some legal sequence of actions empties the hand this turn.

    ``open_with``: only sequences whose opening melds hold that card count (R-D2).
    """
    must_open = rules.opening_required and not opened
    assert open_with is None or must_open, "open_with needs a turn that opens"
    seen: set[_Turn] = set()
    limit = rules.melds_per_turn
    cache: dict[CardMultiset, list[Meld]] = {}

    def melds_of(cards: CardMultiset) -> list[Meld]:
        if cards not in cache:
            cache[cards] = oracle_melds(list(cards), rules)
        return cache[cards]

    def ok_after(left: CardMultiset) -> bool:
        return not (rules.must_discard_to_go_out and len(left) == 0)

    def go(t: _Turn) -> bool:
        if t in seen:
            return False
        seen.add(t)
        is_open = t.opened or not rules.opening_required
        natural_jokers = t.hand.jokers - t.freed
        if t.freed == 0:
            if not t.hand and not rules.must_discard_to_go_out and is_open:
                return True
            if len(t.hand) == 1 and is_open and (natural_jokers >= 1 or not t.hand.jokers):
                return True  # discard the last card
        if not is_open:
            hand_melds = melds_of(t.hand)
            needs = [CardMultiset(m.cards) for m in hand_melds]

            def opens(i: int, left: CardMultiset, chosen: tuple[Meld, ...]) -> bool:
                if chosen:
                    points = sum(meld_points(m, rules) for m in chosen)
                    clean = any(is_clean_run(m) for m in chosen)
                    holds = open_with is None or any(open_with in m.cards for m in chosen)
                    meets = points >= rules.opening_points and (clean or not rules.opening_clean_run) and holds
                    if meets and ok_after(left) and go(_Turn(left, t.table + chosen, True, 0, len(chosen))):
                        return True
                if limit is not None and len(chosen) >= limit:
                    return False
                for k in range(i, len(hand_melds)):
                    if needs[k] <= left and opens(k, left - needs[k], (*chosen, hand_melds[k])):
                        return True
                return False

            return opens(0, t.hand, ())
        if limit is None or t.melds < limit:
            for m in melds_of(t.hand):
                left = t.hand - CardMultiset(m.cards)
                freed = max(0, t.freed - m.joker_count)
                if ok_after(left) and go(_Turn(left, (*t.table, m), True, freed, t.melds + 1)):
                    return True
        for k, meld in enumerate(t.table):
            for card in t.hand.distinct():
                if card.is_joker and natural_jokers < 1:
                    continue
                left = t.hand - CardMultiset([card])
                if not ok_after(left):
                    continue
                ends: list[End | None] = [End.LOW, End.HIGH] if isinstance(meld, Run) else [None]
                for end in ends:
                    try:
                        new = lay_off(meld, card, rules, end=end)
                    except InvalidMeldError:
                        continue
                    table = (*t.table[:k], new, *t.table[k + 1 :])
                    if go(_Turn(left, table, True, t.freed, t.melds)):
                        return True
                if rules.joker_swap and not card.is_joker:
                    try:
                        new, joker = swap_joker(meld, card, rules)
                    except InvalidMeldError:
                        continue
                    table = (*t.table[:k], new, *t.table[k + 1 :])
                    hand2 = left + CardMultiset([joker])
                    if go(_Turn(hand2, table, True, t.freed + 1, t.melds)):
                        return True
        return False

    start = _Turn(CardMultiset(hand), tuple(table), not must_open, 0, 0)
    if must_open:
        start = attrs.evolve(start, opened=False)
    return go(start)


def replay(hand: Sequence[Card], table: Sequence[Meld], rules: Ruleset, opened: bool, plan: Sequence[Action]) -> None:
    """Play ``plan`` with the meld functions; raise AssertionError at the first illegal step."""
    left = CardMultiset(hand)
    melds = list(table)
    is_open = opened or not rules.opening_required
    freed = 0
    laid = 0
    assert plan or not hand, "empty plan"
    for i, action in enumerate(plan):
        last = i == len(plan) - 1
        if isinstance(action, Open):
            assert i == 0 and not is_open, "Open must come first, once, and only before opening"
            for m in action.melds:
                validate_meld(m, rules)
            used = CardMultiset(c for m in action.melds for c in m.cards)
            assert used <= left
            left = left - used
            assert sum(meld_points(m, rules) for m in action.melds) >= rules.opening_points  # R-O2
            if rules.opening_clean_run:
                assert any(is_clean_run(m) for m in action.melds)  # R-O2
            melds.extend(action.melds)
            laid += len(action.melds)
            is_open = True
        elif isinstance(action, SwapJoker):
            assert is_open and rules.joker_swap  # R-J4
            assert action.card in left
            new, joker = swap_joker(melds[action.target], action.card, rules)
            melds[action.target] = new
            left = left - CardMultiset([action.card]) + CardMultiset([joker])
            freed += 1
        elif isinstance(action, LayMeld):
            assert is_open  # R-O1
            validate_meld(action.meld, rules)
            used = CardMultiset(action.meld.cards)
            assert used <= left
            left = left - used
            freed = max(0, freed - action.meld.joker_count)  # R-J4: freed jokers into new melds
            melds.append(action.meld)
            laid += 1
        elif isinstance(action, LayOff):
            assert is_open or rules.lay_off_before_opening  # R-O1, T6
            assert action.card in left
            if action.card.is_joker:
                assert left.jokers - freed >= 1, "a freed joker may not be laid off (R-J4)"
            melds[action.target] = lay_off(melds[action.target], action.card, rules, end=action.end)
            left = left - CardMultiset([action.card])
        elif isinstance(action, Discard):
            assert last, "the discard ends the turn"
            assert action.card in left and len(left) == 1
            if action.card.is_joker:
                assert left.jokers - freed >= 1, "a freed joker may not be discarded (R-J4)"
            left = left - CardMultiset([action.card])
        else:  # pragma: no cover
            raise AssertionError(f"unexpected action {action!r}")
        if not last and rules.must_discard_to_go_out:
            assert len(left) >= 1, "a remik player keeps a card for the discard (R-T3)"
    assert not left, f"cards left: {left}"
    assert freed == 0, "every freed joker goes into a new meld (R-J4)"
    if rules.melds_per_turn is not None:
        assert laid <= rules.melds_per_turn  # R-T5
    if rules.must_discard_to_go_out:
        assert isinstance(plan[-1], Discard)  # R-E1
