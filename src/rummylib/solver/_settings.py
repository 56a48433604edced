"""Every tuning constant of the exact search, in one frozen value.

None of these changes an answer's value, only how soon it comes: each one
says which strategy an input of a given size gets, or how much work a
heuristic step may spend before the exact search takes over (the answers
are proved best either way; which of several equal answers comes back may
depend on the strategy). The values were measured with
``benchmarks/solver.py``. The solver passes :data:`DEFAULT_SETTINGS`; tests
pass ``attrs.evolve(DEFAULT_SETTINGS, ...)`` to force a strategy on small
inputs.
"""

from __future__ import annotations

import attrs

__all__ = ["DEFAULT_SETTINGS", "SearchSettings"]


@attrs.frozen
class SearchSettings:
    """How the exact search spends its effort.

    Sizes count the cards of the input, jokers included (after cards no
    candidate meld can take are dropped, where the search drops them first).

    Attributes:
        small_max: inputs of at most this many cards take the bitmask fast
            paths of ``best_partition`` (``_small`` without jokers,
            ``_small_jokers`` with them); 0 turns them off.
        trial_from: inputs of this many cards or more first get a short trial
            of the plain search (whole decks: every card has a place).
        trial_budget: memoised states a trial, or the exact finish of an LP
            dive, may use before it gives up.
        lp_from: inputs of this many cards or more get the dual prices of the
            linear relaxation as each card's potential.
        hunt_from: inputs of this many cards or more look for a first cover
            (discrepancy search, then LP diving) for the exact search to prove.
        hunt_budget: nodes the discrepancy search for a first cover may visit.
        window_from: the plain search of inputs this large or larger asks
            aspiration windows (:meth:`Cover.solve`); smaller ones, whose few
            states cost less than the windows' repeated searches, get one
            search against the floor.
        dive_rounds: most programmes one deep LP dive solves.
        opening_deep_dive: the opening's search priced by points, finding no first
            cover by the discrepancy search or the shallow dive, tries the deep
            dive too (``best_partition`` always does). Off: measured with
            ``benchmarks/worst.py`` on the 800 openings of 40-108 cards, seeds
            0-79, it found no first cover that settled an input sooner, while its
            cold programmes cost 70 cards of seed 54 1,192 of its 3,043 simplex
            pivots (about 0.4 s), 65 of seed 2 895 of 1,816, 75 of seed 19 809.
        tie_budget: memoised states the opening's search priced by points may
            spend on tie-breaks (cards placed, penalty) before the search
            priced by the whole gain takes over.
        keep_split_from: openings of inputs this large that must keep one card
            (R-T3) first try a search without it, leaving each card out in turn
            when the best opening of all the cards lays every card.
        keep_split_budget: memoised states each search of that attempt may use;
            past it the attempt gives way to the search that carries the duty.
        memo_limit: most states one search memoises; past it the memo starts over.
        give_up: a search whose memo reaches ``memo_limit`` gives up
            (``OverBudget``) instead of starting over (set for a budgeted attempt).
        suit_major_from: inputs of this many cards or more are searched
            suit-major (whole suits first) rather than rank-major.
        orders_from: openings of inputs this large are first tried in each of
            ``orders`` in turn, within each of ``order_budgets`` memoised states
            per search; the search in the default order, unbudgeted, comes last.
            Which order settles an input soonest differs from input to input,
            by orders of magnitude, and each attempt is exact if it ends.
        orders: search orders by name (``_tables.ORDERS``).
        order_budgets: memoised states each search of one attempt may use
            (measured with ``benchmarks/worst.py``, seeds 0-79 of 50-100 cards: a
            second round of 7,000 rather than 25,000 settles 60 cards of seed 68 in
            0.42 s instead of 0.62, its decomposition coming sooner after the
            attempt it cannot settle, and slows no input of the grid).
        leftover_from: openings of inputs this large that keep at most one card
            first try the leftover decomposition (``_leftover``): each small
            leftover in turn, the rest laid whole; exact if it ends.
        leftover_round: the first round of ``order_budgets`` before which it is
            tried; it is tried again before each later round, its work kept.
        leftover_soon_from: inputs this large try it from the round
            ``leftover_round`` on, smaller ones from the round after (measured with
            ``benchmarks/worst.py`` and the 54-card openings of
            ``benchmarks/solver.py``: up to 60 cards the first round's
            decomposition spent 0.3 s to give up or settle what the searches of
            the next round settle in a tenth of that, 54 cards of seed 7023 in
            0.19 s instead of 0.54; from 70 cards on it is the decomposition that
            settles the hard inputs, in the first round).
        leftover_scale: memoised states each of its searches may use in a
            round, per state of that round's order budget (at most ``memo_limit``;
            40 gives it the whole memo limit from the first round on: measured
            with ``benchmarks/worst.py``, the decomposition then settles the
            hardest inputs found, 96 cards of seed 12 or 84 of seed 2, in its
            first round instead of its third or second).
        leftover_early_from: openings of inputs this large whose budgeted
            attempt to keep a card by leaving each card out (``keep_split_from``)
            runs over its budget, in a round the decomposition is tried in, go on
            to the next step of the round at once rather than to the budgeted
            search carrying the duty to keep a card (measured with
            ``benchmarks/worst.py``: of the inputs of 60-100 cards whose attempt
            ran over, the decomposition settled those of 80 cards or more sooner,
            90 of seed 22 in 0.42 s instead of 0.67; below 80 cards the search
            with the duty sometimes settled in 0.16 s what the decomposition did in 0.5).
        leftover_early_programmes: in those attempts, the most programmes of the
            input less one card that search may price before it gives way
            (measured with ``worst.py``: 90 cards of seed 22 priced three and
            then ran over, 0.46-0.48 s; with one, 0.33-0.41 s; inputs of 80-108
            cards that it settles priced none or one, a few up to four).
        first_duty_from: in the first round, a budgeted attempt on an input
            smaller than this whose search leaving each card out runs over gives
            way at once to the next step (as past ``leftover_early_from``), the
            search carrying the duty waiting for the next round (measured with a
            deterministic count of pivots and states: 54 cards of seed 7026 settle
            in the second round's first search either way, and the first round's
            two duty searches, a programme and 5,000 states each, were a third of
            its time; 54:7023 and 60 cards of seed 68 of the held-out seeds gain
            too, 60:34 loses 0.04 s).
        leftover_first_from: inputs this large that try the decomposition in the
            first round open that round with a glance (the plain search without a
            programme, within ``trial_budget`` states: whole decks settle at once)
            and then the decomposition within ``leftover_first_programmes`` and
            ``leftover_first_budget``, before the first order's attempt (which the
            decomposition, with its usual limits and the work kept, still follows).
            Measured with ``benchmarks/worst.py`` and a deterministic count of
            simplex pivots and search states: on inputs of 70-100 cards that the
            first order's attempt failed to settle (0.15-0.25 s each) the
            decomposition settles most in a few programmes (70 cards of seed 27
            in one); when it fails it costs its init and a few programmes.
        leftover_first_programmes: most programmes that first try may solve
            (measured: 3 gave up on inputs 6 settles, 8 spent more on those it fails;
            7 settles 70 cards of seed 64, 1,866 simplex pivots and 0.56 s with 6,
            604 pivots and 0.3 s with 7, and 70 of seed 26 in 432 pivots instead of
            764, at most 45 more pivots on the 480 inputs of 50-100 cards of
            seeds 0-79 it fails on).
        leftover_first_budget: memoised states each of its searches may use (the
            usual 200,000 let one search of 90 cards of seed 62 run 1.6 s).
        leftover_sets: most leftovers that decomposition may make (each is bounded
            as it is made; few of them reach the levels tried).
        leftover_reach: most leftovers one level of it may ask (those whose bound
            reaches the level, not yet settled); past it the decomposition gives up.
            Measured with callgrind after ``leftover_programmes`` and the warm starts of
            ``_lp``: 70 cards of seed 175 settle in the first try (38 asked at the
            optimum's level, 3,486 made) in 739M instructions instead of 3,647M; 70 of
            seed 196, 18 points below the best points of its cards, gives up at the level
            asking 83 instead of after it (3,555M instead of 3,984M); 80 of seed 193
            settles in the first round's decomposition (23 asked, 7,029 made).
        leftover_programmes: most linear programmes it may solve in one round.
        leftover_budget: memoised states each of its searches may use when
            called on its own (tests).
        leftover_bound_first: the decomposition stops the dual simplex of a
            leftover's programme at the first prices that bound the leftover
            below the points it is asked for (and goes on from there only if it
            is asked for fewer, or to search it); ``False`` solves every programme
            in full (tests). Measured: 80 cards of seed 56 spent 652 dual pivots
            on 12 programmes, most of them after the bound had already fallen
            below the points asked (2 to 6 pivots in); stopped, 27.
        laid_first_budget: memoised states the search for a cover laying every
            card (``_leftover.laid_whole``, tried by ``best_partition`` when it
            finds no first cover) may spend branching on the most constrained
            card before it branches on the lowest card within ``hunt_budget``; 0
            skips that first try (measured with ``benchmarks/worst.py``: 70 cards
            of seed 78 settled in 232 states, 0.1 s, where the lowest card first
            ran out of its 20,000 and the least-deadwood search then took 2.9 s;
            100 of seed 5, which it does not settle within 400, lose about 0.03 s).
        deadwood_from: ``best_partition`` of inputs this large whose search priced
            by the packing relaxation runs past ``deadwood_budget`` memoised states
            tries the deadwood decomposition (``_deadwood``: each small leftover in
            turn, the rest laid whole; exact if it ends), then searches on, its
            work kept. Measured with ``benchmarks/worst.py``, seeds 0-239: from 48
            cards rather than 75 (once each rest is laid by ``_laying``, its
            relaxation solved at every state), 60 cards of seed 124 took 0.26 s
            instead of 5 s and 70 of seed 211 0.35 s instead of 0.6-0.8; the two
            inputs of 48-74 cards of seeds 0-79 where it gives up lose 0.014 s each.
            Where at most ``deadwood_sets`` leftovers lie between the least deadwood the
            relaxation allows and the first cover's, the decomposition comes first
            (70 cards of seed 211: 2,971M instructions instead of 4,483M).
        deadwood_budget: memoised states that search may use first.
        deadwood_sets: with at most this many leftovers between the relaxation's
            bound and the first cover's, the decomposition comes first.
        deadwood_search_budget: states each of its searches laying a rest whole
            may visit (``_laying.Laying.lay``: each state solves a programme;
            states the kept prices cut are not counted).
        deadwood_leftovers: most leftovers the decomposition may try in all, most
            of them cut by kept prices (70 cards of seed 65 of ``worst.py``: 816,
            of which 12 searched; the level enumeration is bounded by it).
        deadwood_searches: most of those leftovers it may search (those the
            prices kept from earlier rests do not cut). Before the prices were
            kept, ``deadwood_sets`` bounded every leftover tried.
        deadwood_pool: most sets of prices ``_laying.Laying`` keeps (the least
            recently used go; 70 cards of seed 65 kept 11).
        opening_screen: ``best_opening`` answers ``None`` without a search for a
            hand without jokers whose cards in some run or group of three are
            worth less than the opening points at best (``_opening_screen``);
            ``False`` sends those hands to the search (tests).
        opening_warm_bases: within one ``best_opening`` call, a linear programme
            of the same columns and capacity as one solved before (or with one
            row more) starts the primal simplex from that one's optimal basis
            (``_lp``). Measured with callgrind: 70 cards of seed 196 4,648M
            instructions to 3,984M, 90 of seed 87 2,278M to 972M.
        partition_warm_bases: the same within ``best_partition``; off, because
            the other optimal prices it reaches send the least-deadwood search
            elsewhere: 70 cards of seed 140 took 1.44 s with it, 0.09 s without.
    """

    small_max: int = 20
    trial_from: int = 90
    trial_budget: int = 3_000
    lp_from: int = 24
    hunt_from: int = 64
    hunt_budget: int = 20_000
    window_from: int = 20
    dive_rounds: int = 12
    opening_deep_dive: bool = False
    tie_budget: int = 20_000
    keep_split_from: int = 24
    keep_split_budget: int = 50_000
    memo_limit: int = 200_000
    suit_major_from: int = 100
    orders_from: int = 40
    orders: tuple[str, ...] = ("rank", "reversed")
    order_budgets: tuple[int, ...] = (5_000, 7_000, 125_000)
    leftover_from: int = 48
    leftover_round: int = 0
    leftover_soon_from: int = 65
    leftover_scale: int = 40
    leftover_early_from: int = 80
    leftover_early_programmes: int = 1
    first_duty_from: int = 65
    leftover_first_from: int = 65
    leftover_first_programmes: int = 7
    leftover_first_budget: int = 5_000
    leftover_sets: int = 10_000
    leftover_reach: int = 60
    leftover_programmes: int = 40
    leftover_budget: int = 200_000
    leftover_bound_first: bool = True
    laid_first_budget: int = 400
    give_up: bool = False
    deadwood_from: int = 48
    deadwood_budget: int = 20_000
    deadwood_sets: int = 12
    deadwood_search_budget: int = 150
    deadwood_leftovers: int = 2_000
    deadwood_searches: int = 24
    deadwood_pool: int = 64
    opening_screen: bool = True
    opening_warm_bases: bool = True
    partition_warm_bases: bool = False


#: The settings every public solver function uses.
DEFAULT_SETTINGS = SearchSettings()
