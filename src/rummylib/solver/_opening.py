"""The best remik opening (R-O2, O3) and whether one exists."""

from __future__ import annotations

from collections.abc import Iterable
from operator import mul
from typing import cast

import attrs

from rummylib._guards import is_int, is_int_in
from rummylib.cards import Card, CardMultiset
from rummylib.errors import InvalidStateError, StateReason, shorten
from rummylib.rules import Ruleset
from rummylib.solver._keep import keep_one
from rummylib.solver._leftover import by_leftover
from rummylib.solver._lp import remembered
from rummylib.solver._opening_objective import opening_rows, points_split, scales, search
from rummylib.solver._opening_screen import clean_run_in, held_positions, list_hand, live_points
from rummylib.solver._priced import SCALE, tightened
from rummylib.solver._proofs import by_progress, cap, proving
from rummylib.solver._results import Opening, prepare
from rummylib.solver._search import (
    Cover,
    Entry,
    OverBudget,
    by_position,
    card_penalties,
    cards_in,
    pack,
)
from rummylib.solver._settings import DEFAULT_SETTINGS, SearchSettings
from rummylib.solver._tables import Tables, build_melds, leftover, packed_counts, tables_for

__all__ = ["best_opening", "can_open", "search_opening"]

#: The step of :func:`_solve` that tries the leftover decomposition (``_leftover``).
LEFTOVER = "leftover"
#: The decomposition tried first, within the ``leftover_first_*`` settings.
LEFTOVER_FIRST = "leftover first"
#: The plain search without a programme, within ``trial_budget`` states (see _steps).
GLANCE = "glance"


def _solve(hand: CardMultiset, rules: Ruleset, keep: int, settings: SearchSettings, a: int | None) -> Opening | None:
    """The best opening; ``a``: the hand's :func:`held_positions`, if known."""
    if len(hand) < settings.orders_from:
        return _solve_rounds(hand, rules, keep, settings, a)  # one search: nothing asked twice
    # Each round searches the input again: its programmes are solved once (see solve_lp),
    # and it starts from the bounds the earlier rounds proved (see _proofs).
    with remembered(settings.opening_warm_bases), proving():
        return _solve_rounds(hand, rules, keep, settings, a)


def _solve_rounds(
    hand: CardMultiset, rules: Ruleset, keep: int, settings: SearchSettings, a: int | None
) -> Opening | None:
    if len(hand) - keep < 3:
        return None  # no meld fits in what may be laid
    counts = hand.counts
    if a is None:
        a = held_positions(counts)
    if rules.opening_clean_run and not clean_run_in(a, rules.ace_high):
        return None  # most hands: no opening without a clean run, and no search needed
    if settings.opening_screen and not counts[52] and live_points(a, counts, rules.ace_high) < rules.opening_points:
        return None  # many others: too few points in the melds they could lay at best
    if len(hand) >= settings.orders_from:
        # Budgeted attempts in each order (exact when they end), the default order first,
        # and the leftover decomposition (exact when it ends, its budget and kept work
        # growing with the rounds: see _steps); then the default order without a budget.
        default = "suit" if len(hand) >= settings.suit_major_from else "rank"
        orders = [default, *(order for order in settings.orders if order != default)]
        split = keep <= 1 and len(hand) >= settings.leftover_from
        kept: dict[str, object] = {}  # the decomposition's work, from round to round
        for round_, budget in enumerate(settings.order_budgets):
            if round_:  # the order that proved the most so far first (_proofs)
                orders = by_progress(orders)
            attempt = attrs.evolve(
                settings,
                memo_limit=budget,
                give_up=True,
                keep_split_budget=min(budget, settings.keep_split_budget),
            )
            steps = _steps(len(hand), round_, orders, settings, split=split)
            duty = LEFTOVER not in steps or len(hand) < settings.leftover_early_from
            duty = duty and (round_ > 0 or len(hand) >= settings.first_duty_from)
            for step in steps:
                try:
                    if step == GLANCE:
                        trial = settings.trial_budget
                        glance = attrs.evolve(attempt, lp_from=1 << 30, memo_limit=trial, keep_split_budget=trial)
                        return _solve_in(hand, rules, keep, glance, default, duty=False)
                    if step in (LEFTOVER, LEFTOVER_FIRST):
                        by, left = _leftover_step(step, budget, settings)
                        # Its certain failure is seen from the packing relaxation the first order
                        # solved (kept by remembered), so only after that order's attempt (_sets_beyond).
                        screen = step == LEFTOVER
                        return _solve_in(hand, rules, keep, by, "rank", by_left=(left, kept), screen=screen)
                    return _solve_in(hand, rules, keep, attempt, step, duty=duty)
                except OverBudget:
                    pass
        kept.clear()  # its memos are no use to the search below
    return _solve_in(hand, rules, keep, settings, None)


def _steps(size: int, round_: int, orders: list[str], settings: SearchSettings, *, split: bool) -> list[str]:
    """The steps of one round of budgeted attempts on an input of ``size`` cards.

    The search orders; from the round ``leftover_round`` on (a round later below
    ``leftover_soon_from`` cards) the leftover decomposition right after the
    first order when ``split`` (the opening keeps at most one card). From
    ``leftover_first_from`` cards the first of those rounds opens with a glance (the plain
    search, no programme, within ``trial_budget`` states: whole decks settle at
    once) and the decomposition within the ``leftover_first_*`` limits.
    """
    first = settings.leftover_round + (size < settings.leftover_soon_from)
    if not split or round_ < first:
        return orders
    steps = [orders[0], LEFTOVER, *orders[1:]]
    if round_ == first and size >= settings.leftover_first_from:
        return [GLANCE, LEFTOVER_FIRST, *steps]
    return steps


def _leftover_step(step: str, budget: int, settings: SearchSettings) -> tuple[SearchSettings, int]:
    """The settings of a decomposition step and the memoised states each of its searches may use."""
    left = budget * settings.leftover_scale
    if step == LEFTOVER:
        return settings, left
    first = attrs.evolve(settings, leftover_programmes=settings.leftover_first_programmes)
    return first, min(left, settings.leftover_first_budget)


def _solve_in(
    hand: CardMultiset,
    rules: Ruleset,
    keep: int,
    settings: SearchSettings,
    order: str | None,
    *,
    by_left: tuple[int, dict[str, object]] | None = None,
    duty: bool = True,
    screen: bool = False,
) -> Opening | None:
    """The best opening by the search in ``order`` (``None``: the default for the input's size).

    With ``by_left`` (a budget of memoised states per search, and the work kept
    from an earlier call), by the leftover decomposition (``_leftover``), which
    raises :class:`OverBudget` past its budgets. Without ``duty``, a budgeted
    attempt (``settings.give_up``) whose search leaving each card out runs over
    its states or ``leftover_early_programmes`` raises :class:`OverBudget`
    rather than trying the search carrying the duty to keep a card
    (``leftover_early_from``). With ``screen``, a decomposition sure to give up
    on its leftovers (:func:`_sets_beyond`) raises :class:`OverBudget` at once.
    """
    jokers = hand.jokers if rules.jokers else 0
    tables = tables_for(hand.counts, jokers, rules, settings=settings, order=order)
    cached = tables.extra.get("opening")
    if cached is None:
        cached = tables.extra["opening"] = opening_rows(rules, tables)
    tables, rows, m2, potential = cast(tuple[Tables, tuple[tuple[Entry, ...], ...], int, tuple[int, ...]], cached)
    cover = Cover(tables, rows, potential, settings)
    x = cover.restrict(pack(hand.counts, tables), jokers)
    # Cards no candidate can take (dropped by restrict) are left over, kept for the discard.
    keep = max(0, keep - (len(hand) - jokers - cards_in(x, tables.width, tables.field)))
    need = int(rules.opening_clean_run) | keep << 1  # the duty of the search (see Cover)
    # Only openings worth the opening points matter: anything less is cut off.
    alpha = rules.opening_points * m2 - 1
    best = None
    settled = by_left is not None
    if by_left is not None:
        if screen and _sets_beyond(cover, tables, x, jokers, need, rules.opening_points, by_left[1]):
            raise OverBudget("sets")  # the decomposition would give up on them: skip it
        best = by_leftover(cover, tables, x, jokers, keep, alpha, *by_left)
    elif keep == 1 and cards_in(x, tables.width, tables.field) + jokers >= settings.keep_split_from:
        # A budgeted attempt: on some inputs the search that may lay every card is the hard
        # one, and the search carrying the duty to keep a card is the quicker (exact either way).
        attempt = attrs.evolve(settings, memo_limit=settings.keep_split_budget, give_up=True)
        try:
            most = None if duty else settings.leftover_early_programmes
            best = keep_one(Cover(tables, cover.rows, potential, attempt), tables, x, jokers, need & 1, alpha, m2, most)
            settled = True
        except OverBudget:
            if settings.give_up and not duty:
                raise  # the round's next step, the decomposition, settles these sooner
    if not settled:
        best = search(cover, tables, x, jokers, need, alpha, m2)
    if best is None:
        return None
    value, shapes = best
    points = value // m2
    left = leftover(hand.counts, shapes)
    penalty = sum(map(mul, card_penalties(rules), left.counts))
    return Opening(build_melds(shapes, rules, mix_clean=False), points, left, penalty)


def _sets_beyond(
    cover: Cover, tables: Tables, x: int, jokers: int, need: int, least: int, kept: dict[str, object]
) -> bool:
    """Whether the leftover decomposition is sure to bound more leftovers than ``leftover_sets`` (kept in ``kept``).

    It tries leftovers level by level, from ``top`` (each card at its best value)
    down, and reaches at least the level of the optimum, where it finds it (or
    the opening points, ``least``), where it has bounded every leftover of at least
    ``keep`` cards (``need >> 1``) worth at most ``top`` less that level. The
    relaxation of the packing (the one the orders' searches solve, kept by
    ``remembered``) bounds the optimum, and so do the points the budgeted searches
    proved no opening of the question reaches (``_proofs.cap``, which the earlier
    attempts lower), so if those leftovers alone are more than the settings allow, the
    decomposition can only give up on them (70 cards of seed 54: 23 points below
    ``top``, tens of thousands of leftovers): a speed-up, exact either way.
    """
    keep = need >> 1
    known = kept.get("beyond")
    if known is True:
        return True
    values = by_position(scales(tables.rules)[3], tables)
    kinds = [(values[52], jokers)] if jokers else []
    kinds += [(values[position], count) for position, count in packed_counts(x, tables.width, tables.field)]
    top = sum(v * n for v, n in kinds)
    bound = kept.get("bound")
    if not isinstance(bound, int):
        priced = tightened(cover, tables, x, jokers, points_split(tables.rules))
        bound = kept["bound"] = priced.remaining(x, jokers) // (SCALE * priced.fine)  # no opening is worth more
    proved = cap(tables, x, jokers, need)
    if proved is not None:
        bound = min(bound, proved[0])
    slack = top - max(bound, least)
    # Leftovers worth at most ``slack`` points, counted by their points (every card's value is positive).
    ways = [1] + [0] * max(slack, 0)
    for value, count in kinds:
        ways = [sum(ways[v - i * value] for i in range(count + 1) if v >= i * value) for v in range(len(ways))]
    sets = sum(ways) - (1 if keep >= 1 else 0) if slack >= 0 else 0  # keep is at most 1 here
    kept["beyond"] = beyond = sets > cover.settings.leftover_sets
    return beyond


def check_keep(keep: object, rules: Ruleset) -> int:
    """The number of cards an opening must leave in hand: ``keep``, or the rules' default.

    By default a player keeps one card where the rules end a turn, and so a
    go-out, by a discard (``rules.must_discard_to_go_out``: remik, R-T3, E1),
    and none where a player may go out by melding (straight rummy, E3).

    Raises:
        InvalidStateError: ``keep`` is not ``None`` or an int from 0 to the
            size of the ruleset's deck.
    """
    if keep is None:
        return 1 if rules.must_discard_to_go_out else 0
    most = 52 * rules.decks + rules.jokers
    if not is_int_in(keep, 0, most):
        msg = f"keep must be None or an int from 0 to {most} (the deck), not {shorten(keep)}"
        reason = StateReason.BAD_VALUE if is_int(keep) else StateReason.WRONG_TYPE
        raise InvalidStateError(reason, "keep", msg)
    return cast(int, keep)


def best_opening(hand: Iterable[Card], rules: Ruleset, *, keep: int | None = None) -> Opening | None:
    """The most valuable legal opening in ``hand`` (R-O2, O3), or ``None``.

    An opening is a set of disjoint melds worth at least ``rules.opening_points``
    with a clean run among them when ``rules.opening_clean_run``; jokers count
    as the card they stand for and aces 1 or 11 by place. Among the openings
    worth the most points it places the most cards, then leaves the least
    penalty. Under rules with no opening condition it is the most valuable
    non-empty set of melds. Any multiset up to a whole deck is accepted.

    The opening leaves at least ``keep`` cards of ``hand`` unlaid. By default
    that is what the rules make a player keep, so the answer is one the engine
    accepts: one card for the final discard where the rules end every turn
    with a discard (``rules.must_discard_to_go_out``; remik, R-T3), none where
    a player may go out by melding. ``keep=0`` asks the pure multiset
    question: the best melds in the cards, all of them laid if that is best.

    Args:
        hand: any iterable of cards (a list, a tuple, a :class:`CardMultiset`).
        rules: the ruleset.
        keep: how many cards must stay in hand (``None``: the rules' default).

    Returns:
        The best :class:`Opening`, or ``None`` if the hand cannot open.

    Raises:
        InvalidCardsError: ``hand`` is not made of cards, or holds more
            copies of a card than the ruleset's deck.
        RulesetError: ``rules`` is not a :class:`Ruleset`.
        InvalidStateError: ``keep`` is not ``None`` or an int from 0 to the
            number of cards in the ruleset's deck.

    >>> from rummylib import REMIK, parse_cards, best_opening
    >>> opening = best_opening(parse_cards("9S 10S JS 8H 8D 8C 2C"), REMIK)
    >>> [str(m) for m in opening.melds], opening.points, str(opening.leftover)
    (['9S 10S JS', '8H 8D 8C'], 53, '2C')

    A remik player keeps a card for the discard (R-T3); ``keep=0`` lays all it can:

    >>> hand = parse_cards("9S 10S JS QS KS 8H 8D 8C 5H 6H 7H 2C 3C 4C")
    >>> best_opening(hand, REMIK).points, best_opening(hand, REMIK, keep=0).points
    (91, 100)
    """
    return search_opening(hand, rules, DEFAULT_SETTINGS, keep=keep)


def search_opening(
    hand: Iterable[Card], rules: Ruleset, settings: SearchSettings, *, keep: int | None = None
) -> Opening | None:
    """:func:`best_opening` with the search tuned by ``settings`` (the same answer's value).

    Raises:
        InvalidCardsError: as :func:`best_opening`.
        RulesetError: as :func:`best_opening`.
        InvalidStateError: as :func:`best_opening`.
    """
    listed = list_hand(hand, rules) if type(hand) is list and type(rules) is Ruleset else None
    if listed is None:
        ms, checked = prepare(hand, rules, "hand")
        return _solve(ms, checked, check_keep(keep, checked), settings, None)
    # The common call, a hand as a list: counted, checked and its bits set in one loop.
    ms, a = listed
    return _solve(ms, rules, check_keep(keep, rules), settings, a)


def can_open(hand: Iterable[Card], rules: Ruleset, *, keep: int | None = None) -> bool:
    """Whether ``hand`` holds a legal opening (R-O2) that leaves ``keep`` cards.

    ``keep`` is as in :func:`best_opening`: by default the cards the rules
    make a player keep (one in remik, R-T3).

    Raises:
        InvalidCardsError: as :func:`best_opening`.
        RulesetError: as :func:`best_opening`.
        InvalidStateError: as :func:`best_opening`.

    >>> from rummylib import REMIK, parse_cards, can_open
    >>> can_open(parse_cards("9S 10S JS 8H 8D 8C 2C"), REMIK), can_open(parse_cards("9S 10S JS 8H 8D 2C"), REMIK)
    (True, False)
    >>> can_open(parse_cards("9S 10S JS 8H 8D 8C"), REMIK), can_open(parse_cards("9S 10S JS 8H 8D 8C"), REMIK, keep=0)
    (False, True)
    """
    return search_opening(hand, rules, DEFAULT_SETTINGS, keep=keep) is not None
