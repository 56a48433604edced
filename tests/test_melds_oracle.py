"""Property tests: melds against a naive brute-force oracle (R-M1..M4, J1..J5).

``make_meld`` must accept exactly the card lists that the oracle in
``_oracle_melds`` accepts, return the reading it finds when there is one, the
given order when that is one of several, and say AMBIGUOUS otherwise.
``lay_off`` and ``swap_joker`` must keep melds valid and conserve cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from _budget import examples
from _oracle_melds import (
    Reading,
    expected_readings,
    joker_targets,
    meld_key,
    oracle_readings,
    reading_in_order,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    Card,
    End,
    Group,
    InvalidMeldError,
    Meld,
    MeldReason,
    Rank,
    Ruleset,
    Run,
    Suit,
    format_meld,
    lay_off,
    make_meld,
    meld_points,
    meld_readings,
    parse_card,
    parse_cards,
    parse_meld,
    swap_joker,
    validate_meld,
)
from rummylib.cards import format_cards

#: House variants that move the joker rules (R-J2, J3) and the ace (R-M3/M4).
HOUSE_ADJACENT = attrs.evolve(REMIK, name="house-adjacent", adjacent_jokers=True, jokers=3)
HOUSE_SET_JOKERS = attrs.evolve(REMIK, name="house-sets", group3_max_jokers=2, ace_high=False)
RULESETS: list[Ruleset] = [REMIK, STRAIGHT, HOUSE_ADJACENT, HOUSE_SET_JOKERS]
#: The parametrisations: the two presets by default, the house variants in the slow suite
#: (``pytest -m slow``, run by CI) to keep the default run within its time budget.
RULE_PARAMS = [REMIK, STRAIGHT] + [pytest.param(r, marks=pytest.mark.slow) for r in (HOUSE_ADJACENT, HOUSE_SET_JOKERS)]

#: A small pool that makes runs around both aces, sets of fives and aces, and duplicates likely.
POOL = parse_cards("AH 2H 3H 4H 5H JH QH KH 5S 5D 5C AS AD JK")

RUN_POOL = parse_cards("AH 2H 3H 4H 5H 6H 10H JH QH KH JK JK")
SET_POOL = parse_cards("AS AH AD AC 5S 5H 5D 5C JK")

card_lists = st.one_of(
    st.lists(st.sampled_from(POOL), min_size=3, max_size=6),
    st.lists(st.sampled_from(RUN_POOL), min_size=3, max_size=6),
    st.lists(st.sampled_from(SET_POOL), min_size=3, max_size=5),
)
rulesets = st.sampled_from(RULESETS)
ORACLE_SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_meld_shape(meld: Meld, cards: Sequence[Card], rules: Ruleset) -> None:
    validate_meld(meld, rules)
    assert Counter(meld.cards) == Counter(cards)
    assert len(meld.represents) == len(meld.cards)
    for card, stands in zip(meld.cards, meld.represents):
        assert not stands.is_joker
        assert card.is_joker or card == stands


def _targets(reading: Reading) -> list[Card]:
    return [parse_card(t) for t in joker_targets(reading)]


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@ORACLE_SETTINGS
@given(cards=card_lists)
def test_make_meld_agrees_with_oracle(rules: Ruleset, cards: list[Card]) -> None:
    """R-M1..M4, J1..J3: make_meld accepts exactly what the brute force accepts."""
    readings = expected_readings(cards, rules)
    before = list(cards)
    try:
        meld = make_meld(cards, rules)
    except InvalidMeldError as exc:
        assert cards == before
        if exc.reason is MeldReason.AMBIGUOUS:
            assert len(readings) > 1, exc
            assert not any(reading_in_order(r, cards) for r in readings), exc
            assert {meld_key(m) for m in exc.readings} == readings
            assert len(exc.readings) == len(readings)
        else:
            assert not readings, f"{exc} but the oracle found {readings}"
            _check_reason(exc, cards, rules)
        return
    assert cards == before
    key = meld_key(meld)
    assert key in readings
    if len(readings) > 1:
        # Several readings: only the order the player gave may choose one.
        assert reading_in_order(key, cards), (key, readings)
    _check_meld_shape(meld, cards, rules)


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@ORACLE_SETTINGS
@given(cards=card_lists)
def test_meld_readings_agree_with_oracle(rules: Ruleset, cards: list[Card]) -> None:
    """R-M1..M4, J1..J3: meld_readings lists every reading the brute force finds, each once."""
    readings = meld_readings(cards, rules)
    assert [meld_key(m) for m in readings] == sorted(
        {meld_key(m) for m in readings}, key=[meld_key(m) for m in readings].index
    )
    assert {meld_key(m) for m in readings} == oracle_readings(cards, rules)
    assert len(set(readings)) == len(readings)
    for meld in readings:
        _check_meld_shape(meld, cards, rules)
        assert make_meld(meld.cards, rules, jokers=[r for c, r in zip(meld.cards, meld.represents) if c.is_joker])


def _check_reason(exc: InvalidMeldError, cards: Sequence[Card], rules: Ruleset) -> None:
    """The reason for refusing cards is one the cards can actually have."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    suits = {c.suit for c in naturals}
    ranks = {c.rank for c in naturals}
    reason = exc.reason
    assert exc.cards == tuple(cards)
    assert format_cards(cards) in str(exc), exc
    if reason is MeldReason.TOO_SHORT:
        assert len(cards) < 3
    elif reason is MeldReason.NO_NATURAL:
        assert not naturals
    elif reason is MeldReason.JOKERS_NOT_ALLOWED:
        assert jokers and not rules.jokers
    elif reason in (MeldReason.MIXED_SUITS, MeldReason.MIXED_RANKS):
        assert len(suits) > 1 and len(ranks) > 1
    elif reason in (MeldReason.GROUP_TOO_BIG, MeldReason.REPEATED_SUIT):
        assert len(ranks) == 1
        assert reason is MeldReason.REPEATED_SUIT or len(cards) > 4
        assert reason is MeldReason.GROUP_TOO_BIG or len(set(naturals)) < len(naturals)
    elif reason in (MeldReason.GAP, MeldReason.WRAPS_CORNER, MeldReason.REPEATED_RANK, MeldReason.ACE_BOTH_ENDS):
        assert len(suits) == 1
        if reason is MeldReason.GAP:
            missing = parse_cards(str(exc).split(" has a gap at ")[1])
            assert all(c.suit in suits and c not in naturals for c in missing)
            assert len(missing) > jokers
        if reason is MeldReason.ACE_BOTH_ENDS:
            assert [c.rank for c in naturals].count(Rank.ACE) == 2
        if reason is MeldReason.REPEATED_RANK:
            assert len(set(naturals)) < len(naturals)
    elif reason is MeldReason.ACE_HIGH_FORBIDDEN:
        assert not rules.ace_high and Rank.ACE in ranks
    elif reason is MeldReason.ADJACENT_JOKERS:
        assert not rules.adjacent_jokers and jokers >= 2
    elif reason is MeldReason.TOO_MANY_JOKERS:
        assert jokers >= 1
    elif reason is MeldReason.TOO_LONG:
        assert len(cards) > 13
    else:
        pytest.fail(f"unexpected reason {reason} for {format_cards(cards)}: {exc}")


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@ORACLE_SETTINGS
@given(cards=card_lists, data=st.data())
def test_declared_jokers_choose_a_reading(rules: Ruleset, cards: list[Card], data: st.DataObject) -> None:
    """R-J1: declaring what the jokers stand for picks exactly that reading."""
    readings = sorted(expected_readings(cards, rules), key=repr)
    jokers = sum(1 for c in cards if c.is_joker)
    if readings and jokers:
        reading = data.draw(st.sampled_from(readings))
        targets = _targets(reading)
        declared = data.draw(st.permutations(targets))
        meld = make_meld(cards, rules, jokers=declared)
        assert meld_key(meld) == reading
        _check_meld_shape(meld, cards, rules)
    if jokers:
        # A declaration no reading has is refused (or the cards form no meld at all).
        wrong = [parse_card("9C")] * jokers
        with pytest.raises(InvalidMeldError) as info:
            make_meld(cards, rules, jokers=wrong)
        if readings:
            assert info.value.reason is MeldReason.JOKER_MISMATCH
        # Declaring the wrong number of jokers is a mismatch too.
        with pytest.raises(InvalidMeldError) as info:
            make_meld(cards, rules, jokers=[*wrong, parse_card("9C")])
        assert info.value.reason in {MeldReason.JOKER_MISMATCH, MeldReason.JOKERS_NOT_ALLOWED, MeldReason.NO_NATURAL}


# --- valid melds, built directly ------------------------------------------------------------


@st.composite
def runs(draw: st.DrawFn, rules: Ruleset) -> Run:
    suit = draw(st.sampled_from(list(Suit)))
    top = 14 if rules.ace_high else 13
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, top - length + 1))
    mask = draw(st.lists(st.booleans(), min_size=length, max_size=length))
    if rules.jokers == 0:
        mask = [False] * length
    cards = [JOKER if joker else _natural(start + i, suit) for i, joker in enumerate(mask)]
    run = Run(suit, start, cards) if not all(mask) else Run(suit, start, [_natural(start, suit), *cards[1:]])
    try:
        validate_meld(run, rules)
    except InvalidMeldError:
        run = Run(suit, start, [_natural(start + i, suit) for i in range(length)])
    return run


@st.composite
def groups(draw: st.DrawFn, rules: Ruleset) -> Group:
    rank = draw(st.sampled_from(list(Rank)))
    size = draw(st.sampled_from([3, 4]))
    suits = sorted(draw(st.permutations(list(Suit)))[:size], key=lambda s: s.index)
    limit = rules.group3_max_jokers if size == 3 else rules.group4_max_jokers
    limit = min(limit, rules.jokers, size - 1)
    jokers = draw(st.integers(0, limit))
    at = set(draw(st.permutations(range(size)))[:jokers])
    cards = [JOKER if i in at else _natural(int(rank), s) for i, s in enumerate(suits)]
    return Group(rank, cards, suits)


def _natural(position: int, suit: Suit) -> Card:
    rank = 1 if position == 14 else position
    return Card(Rank(rank), suit)


def melds(rules: Ruleset) -> st.SearchStrategy[Meld]:
    return st.one_of(runs(rules), groups(rules))


LAY_CARDS = [JOKER, *parse_cards("AH 2H 3H 10H JH QH KH 5S 5H 5D 5C KS AS 2S")]


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_lay_off_keeps_meld_valid_and_conserves_cards(rules: Ruleset, data: st.DataObject) -> None:
    """R-J5, M1..M3: a lay-off extends the meld by exactly one card at an end, or refuses."""
    meld = data.draw(melds(rules))
    card = data.draw(st.sampled_from([*LAY_CARDS, *meld.represents]))
    end = data.draw(st.sampled_from([None, End.LOW, End.HIGH])) if isinstance(meld, Run) else None
    joker_as = data.draw(st.sampled_from([None, *LAY_CARDS[1:]])) if card.is_joker else None
    try:
        new = lay_off(meld, card, rules, end=end, joker_as=joker_as)
    except InvalidMeldError:
        return
    validate_meld(new, rules)
    assert type(new) is type(meld)
    assert Counter(new.cards) == Counter(meld.cards) + Counter([card])
    if isinstance(new, Run):
        assert isinstance(meld, Run)
        assert new.suit is meld.suit
        if new.start == meld.start:
            assert new.cards[:-1] == meld.cards and end is not End.LOW
        else:
            assert new.start == meld.start - 1 and new.cards[1:] == meld.cards and end is not End.HIGH
    else:
        assert isinstance(new, Group) and isinstance(meld, Group)
        assert new.rank is meld.rank and set(meld.suits) < set(new.suits)
    if joker_as is not None:
        assert joker_as in new.represents and joker_as not in meld.represents


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_lay_off_accepts_every_card_the_oracle_allows(rules: Ruleset, data: st.DataObject) -> None:
    """R-J5: whenever the oracle can extend the layout at an end, lay_off does it."""
    meld = data.draw(melds(rules))
    if len(meld) > 5:
        return  # the brute force is too slow on long runs
    card = data.draw(st.sampled_from([*LAY_CARDS, *meld.represents]))
    old = meld_key(meld)
    extended = [r for r in oracle_readings([*meld.cards, card], rules) if _extends(r, old)]
    for reading in extended:
        end: End | None = None
        if reading[0] == "run":
            end = End.HIGH if reading[2] == old[2] else End.LOW
        added = Counter(joker_targets(reading)) - Counter(joker_targets(old))
        joker_as = parse_card(next(iter(added))) if card.is_joker else None
        new = lay_off(meld, card, rules, end=end, joker_as=joker_as)
        assert meld_key(new) == reading
    if not extended:
        with pytest.raises(InvalidMeldError):
            lay_off(meld, card, rules)


def _extends(new: Reading, old: Reading) -> bool:
    if new[0] != old[0] or new[1] != old[1]:
        return False
    if new[0] == "run":
        new_cards, old_cards = new[3], old[3]
        assert isinstance(new_cards, tuple) and isinstance(old_cards, tuple)
        if new[2] == old[2]:
            return new_cards[:-1] == old_cards
        return new[2] == _minus_one(old[2]) and new_cards[1:] == old_cards
    new_slots, old_slots = new[2], old[2]
    assert isinstance(new_slots, tuple) and isinstance(old_slots, tuple)
    return set(old_slots) < set(new_slots)


def _minus_one(value: object) -> int:
    assert isinstance(value, int)
    return value - 1


@pytest.mark.parametrize("rules", [REMIK, HOUSE_ADJACENT, HOUSE_SET_JOKERS], ids=lambda r: r.name)
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_swap_joker_only_for_the_exact_card(rules: Ruleset, data: st.DataObject) -> None:
    """R-J4: only the card a joker stands for frees it; the meld stays valid, cards conserved."""
    meld = data.draw(melds(rules))
    targets = {stands for card, stands in zip(meld.cards, meld.represents) if card.is_joker}
    card = data.draw(st.sampled_from([*LAY_CARDS[1:], *meld.represents]))
    if card not in targets:
        with pytest.raises(InvalidMeldError) as info:
            swap_joker(meld, card, rules)
        assert info.value.reason is MeldReason.NO_SUCH_JOKER
        return
    new, freed = swap_joker(meld, card, rules)
    assert freed == JOKER
    validate_meld(new, rules)
    assert new.represents == meld.represents
    assert Counter(new.cards) + Counter([JOKER]) == Counter(meld.cards) + Counter([card])
    assert new.joker_count == meld.joker_count - 1


@pytest.mark.parametrize("rules", RULE_PARAMS, ids=lambda r: r.name)
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_meld_notation_round_trip(rules: Ruleset, data: st.DataObject) -> None:
    """R-M6: the notation records every slot, so parsing it gives the same meld back."""
    meld = data.draw(melds(rules))
    text = format_meld(meld)
    assert parse_meld(text, rules) == meld
    assert parse_meld(text.lower(), rules) == meld
    assert len(meld) > 5 or meld_key(meld) in oracle_readings(meld.cards, rules)
    assert meld_points(meld, rules) == sum(meld.points)
