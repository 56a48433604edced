"""Hypothesis strategies for rummylib values, for your own property tests.

Install Hypothesis to use this module (``pip install "rummylib[test]"``); the
rest of rummylib never imports it. Every strategy takes the ruleset it
should respect, so tests can run under the presets and house variants alike:

* :func:`cards`: single cards of a ruleset's deck;
* :func:`hands`: multisets of cards that fit in a ruleset's deck;
* :func:`melds`: valid runs and groups (jokers where the rules allow them);
* :func:`rulesets`: the presets and valid house variants;
* :func:`game_states`: states reached from a new game by legal actions.

>>> from hypothesis import given, settings
>>> from rummylib import REMIK, deck
>>> from rummylib.testing import hands
>>> @settings(max_examples=20, deadline=None)
... @given(hands(REMIK))
... def test_a_hand_fits_in_the_deck(hand):
...     assert hand <= deck(REMIK)
>>> test_a_hand_fits_in_the_deck()
"""

from __future__ import annotations

from collections.abc import Sequence

from ._guards import is_int

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    msg = (
        "rummylib.testing needs Hypothesis, which is not installed; "
        "install it with: pip install 'rummylib[test]' (or: pip install hypothesis)"
    )
    raise ImportError(msg, name=exc.name) from exc

import attrs

from rummylib._card import SUITS
from rummylib.cards import JOKER, Card, CardMultiset, Rank, deck
from rummylib.engine import GameState, apply, legal_actions, new_game
from rummylib.errors import RulesetError, RulesetReason
from rummylib.melds import ACE_HIGH, Group, Meld, Run, card_at_position, validate_meld
from rummylib.rules import REMIK, RULESETS, Ruleset, TieRule, _check_rules

__all__ = [
    "cards",
    "game_states",
    "hands",
    "melds",
    "rulesets",
]


def cards(rules: Ruleset = REMIK) -> st.SearchStrategy[Card]:
    """Single cards of the deck of ``rules`` (the joker only if it has jokers).

    Raises:
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`.

    >>> from hypothesis import given, settings
    >>> from rummylib import STRAIGHT
    >>> @settings(max_examples=20, deadline=None)
    ... @given(cards(STRAIGHT))
    ... def test_no_joker_in_straight(card):
    ...     assert not card.is_joker
    >>> test_no_joker_in_straight()
    """
    return st.sampled_from(deck(_check_rules(rules)).distinct())


def hands(rules: Ruleset = REMIK, *, min_size: int = 0, max_size: int = 14) -> st.SearchStrategy[CardMultiset]:
    """Multisets of ``min_size`` to ``max_size`` cards that fit in the deck of ``rules``.

    A card appears at most as often as the deck holds it (twice in remik,
    jokers up to ``rules.jokers``; R-C1, C2). ``max_size`` may be as large as
    the whole deck, for solver tests on any multiset. Shrinks towards small
    hands of low cards.

    Raises:
        ValueError: the sizes are negative, reversed, or larger than the deck.

    >>> from hypothesis import given, settings
    >>> from rummylib import STRAIGHT
    >>> @settings(max_examples=20, deadline=None)
    ... @given(hands(STRAIGHT, min_size=10, max_size=10))
    ... def test_ten_distinct_cards(hand):
    ...     assert len(hand) == len(hand.distinct()) == 10
    >>> test_ten_distinct_cards()
    """
    full = tuple(deck(_check_rules(rules)))
    if not 0 <= min_size <= max_size <= len(full):
        msg = f"need 0 <= min_size <= max_size <= {len(full)} (the deck), got min_size={min_size}, max_size={max_size}"
        raise ValueError(msg)
    slots = st.lists(st.integers(0, len(full) - 1), min_size=min_size, max_size=max_size, unique=True)
    return slots.map(lambda picked: CardMultiset(full[i] for i in picked))


def _slot_jokers(draw: st.DrawFn, length: int, rules: Ruleset) -> list[bool]:
    if rules.jokers == 0:
        return [False] * length
    wanted = draw(st.lists(st.booleans(), min_size=length, max_size=length))
    placed: list[bool] = []
    budget = rules.jokers
    for want in wanted:
        ok = want and budget > 0 and (rules.adjacent_jokers or not (placed and placed[-1]))
        placed.append(ok)
        budget -= int(ok)
    if all(placed):
        placed[draw(st.integers(0, length - 1))] = False
    return placed


@st.composite
def _runs(draw: st.DrawFn, rules: Ruleset, max_length: int) -> Run:
    top = ACE_HIGH if rules.ace_high else 13
    length = draw(st.integers(3, min(max_length, 13, top)))
    start = draw(st.integers(1, top - length + 1))
    suit = draw(st.sampled_from(SUITS))
    jokers = _slot_jokers(draw, length, rules)
    slots = tuple(JOKER if j else card_at_position(start + i, suit) for i, j in enumerate(jokers))
    return Run(suit, start, slots)


@st.composite
def _groups(draw: st.DrawFn, rules: Ruleset) -> Group:
    size = draw(st.integers(3, 4))
    rank = draw(st.sampled_from(tuple(Rank)))
    suits = sorted(draw(st.permutations(SUITS))[:size], key=lambda s: s.index)
    limit = min(rules.group3_max_jokers if size == 3 else rules.group4_max_jokers, rules.jokers, size - 1)
    count = draw(st.integers(0, limit))
    joker_slots = set(draw(st.permutations(range(size)))[:count])
    slots = tuple(JOKER if i in joker_slots else Card(rank, s) for i, s in enumerate(suits))
    return Group(rank, slots, suits)


def melds(
    rules: Ruleset = REMIK, *, kinds: Sequence[str] = ("run", "group"), max_length: int = 13
) -> st.SearchStrategy[Meld]:
    """Valid melds under ``rules``: runs and groups, with jokers where allowed.

    Runs respect the ace rule (R-M3, M4), the no-adjacent-jokers rule (R-J3)
    and the deck's joker count; groups respect the joker limits (R-J2). Every
    meld drawn passes :func:`~rummylib.validate_meld`.

    Args:
        rules: the ruleset the melds must satisfy.
        kinds: ``"run"``, ``"group"`` or both.
        max_length: the longest run to draw (3 to 13).

    Raises:
        ValueError: ``kinds`` names something else, or ``max_length`` is below 3.

    >>> from hypothesis import given, settings
    >>> from rummylib import REMIK, meld_points
    >>> @settings(max_examples=30, deadline=None)
    ... @given(melds(REMIK))
    ... def test_value_is_at_least_the_length(meld):
    ...     assert meld_points(meld, REMIK) >= len(meld)
    >>> test_value_is_at_least_the_length()
    """
    rules = _check_rules(rules)
    unknown = set(kinds) - {"run", "group"}
    if unknown or not kinds:
        msg = f"kinds must name 'run' and/or 'group', got {tuple(kinds)!r}"
        raise ValueError(msg)
    if max_length < 3:
        msg = f"max_length must be at least 3, got {max_length!r}"
        raise ValueError(msg)
    options: list[st.SearchStrategy[Meld]] = []
    if "run" in kinds:
        options.append(_runs(rules, max_length))
    if "group" in kinds:
        options.append(_groups(rules))

    def checked(meld: Meld) -> Meld:
        validate_meld(meld, rules)  # the construction above is valid by design; keep it honest
        return meld

    return st.one_of(options).map(checked)


@st.composite
def _remik_variant(draw: st.DrawFn, base: Ruleset) -> Ruleset:
    return attrs.evolve(
        base,
        name=f"{base.name}-house",
        jokers=draw(st.sampled_from((base.jokers, 2, 4, 6))),
        joker_penalty=draw(st.sampled_from((base.joker_penalty, 25, 50))),
        opening_points=draw(st.sampled_from((base.opening_points, 30, 40, 61))),
        score_limit=draw(st.sampled_from((base.score_limit, 300, 1000))),
        restock_limit=draw(st.sampled_from((base.restock_limit, 0, 1, 3))),
        tie_rule=draw(st.sampled_from(tuple(TieRule))),
    )


@st.composite
def _straight_variant(draw: st.DrawFn, base: Ruleset) -> Ruleset:
    rounds = draw(st.sampled_from((None, 1, 3, 5)))
    limit = draw(st.sampled_from((base.score_limit, 50, 200))) if rounds is None else None
    return attrs.evolve(
        base,
        name=f"{base.name}-house",
        melds_per_turn=draw(st.sampled_from((1, None))),
        must_discard_to_go_out=draw(st.booleans()),
        max_rounds=rounds,
        score_limit=limit,
        restock_limit=draw(st.sampled_from((base.restock_limit, 0, 1, 3))),
        tie_rule=draw(st.sampled_from(tuple(TieRule))),
    )


def rulesets(*, presets: Sequence[str] | None = None, variants: bool = True) -> st.SearchStrategy[Ruleset]:
    """The presets, and (with ``variants``) valid house variants of them.

    A variant changes the knobs tables really vary (jokers, penalties, the
    opening, the score limit, a cap on stock refills, ties; for Straight Rummy
    melds per turn, the last discard and a fixed number of deals). Variants
    are named ``"<preset>-house"``. Shrinks towards the plain presets.

    Args:
        presets: names of the presets to start from (default: all of them).
        variants: whether to draw house variants as well as the presets.

    Raises:
        RulesetError: a name in ``presets`` is no preset.

    >>> from hypothesis import given, settings
    >>> from rummylib import deck
    >>> @settings(max_examples=20, deadline=None)
    ... @given(rulesets())
    ... def test_every_deck_can_deal_six(rules):
    ...     assert len(deck(rules)) > rules.max_players * rules.hand_size(rules.max_players)
    >>> test_every_deck_can_deal_six()
    """
    names = sorted(RULESETS) if presets is None else list(presets)
    bases: list[Ruleset] = []
    for name in names:
        if name not in RULESETS:
            msg = f"no such preset; choose from {', '.join(sorted(RULESETS))}"
            raise RulesetError(RulesetReason.UNKNOWN_NAME, "presets", name, msg)
        bases.append(RULESETS[name])
    if not bases:
        raise RulesetError(RulesetReason.BAD_VALUE, "presets", presets, "name at least one preset")
    plain: st.SearchStrategy[Ruleset] = st.sampled_from(bases)
    if not variants:
        return plain

    def house(base: Ruleset) -> st.SearchStrategy[Ruleset]:
        return _remik_variant(base) if base.opening_required else _straight_variant(base)

    return st.one_of(plain, st.sampled_from(bases).flatmap(house))


@st.composite
def _game_states(draw: st.DrawFn, rules: Ruleset | None, players: int | None, max_actions: int) -> GameState:
    ruleset = draw(rulesets()) if rules is None else rules
    low, high = ruleset.min_players, min(ruleset.max_players, 4)
    seats = draw(st.integers(low, max(low, high))) if players is None else players
    seed = draw(st.integers(0, 2**64 - 1))
    dealer = draw(st.integers(0, seats - 1))
    state = new_game(ruleset, seats, seed=seed, dealer=dealer)
    steps = draw(st.integers(0, max_actions))
    for _ in range(steps):
        legal = list(legal_actions(state))
        if not legal:  # the game is over
            break
        state = apply(state, legal[draw(st.integers(0, len(legal) - 1))])
    return state


def game_states(
    rules: Ruleset | None = None, *, players: int | None = None, max_actions: int = 40
) -> st.SearchStrategy[GameState]:
    """States reached from :func:`~rummylib.new_game` by up to ``max_actions`` legal actions.

    Each action is drawn from :func:`~rummylib.legal_actions`, so every state is
    reachable in a real game; Hypothesis shrinks towards fewer, earlier actions.
    The seed and the first dealer are drawn too.

    Args:
        rules: the ruleset, or ``None`` to draw one from :func:`rulesets`.
        players: the number of seats, or ``None`` to draw one (up to 4).
        max_actions: the most actions applied after the deal.

    Raises:
        RulesetError: ``rules`` does not allow ``players`` seats.
        ValueError: ``max_actions`` is negative.

    >>> from hypothesis import given, settings
    >>> from rummylib import STRAIGHT, deck
    >>> @settings(max_examples=10, deadline=None)
    ... @given(game_states(STRAIGHT, players=2, max_actions=20))
    ... def test_cards_are_conserved(state):  # R-C3
    ...     assert state.round.cards() == deck(STRAIGHT)
    >>> test_cards_are_conserved()
    """
    if rules is not None:
        rules = _check_rules(rules)
        if players is not None:
            rules.hand_size(players)
    if not is_int(max_actions) or max_actions < 0:
        msg = f"max_actions must be a non-negative int, got {max_actions!r}"
        raise ValueError(msg)
    return _game_states(rules, players, max_actions)
