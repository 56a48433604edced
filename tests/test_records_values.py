"""JSON documents for rulesets, melds, actions and card multisets; the action notation."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    REMIK,
    STRAIGHT,
    CardMultiset,
    Discard,
    DrawStock,
    End,
    Group,
    InvalidStateError,
    LayMeld,
    LayOff,
    Meld,
    NextRound,
    Open,
    Ruleset,
    Run,
    StateReason,
    SwapJoker,
    TakeDiscard,
    make_meld,
    parse_card,
    parse_cards,
)
from rummylib.actions import Action
from rummylib.records import (
    format_action,
    from_dict,
    from_json,
    parse_action,
    to_dict,
    to_json,
)
from rummylib.records._values import ruleset_field_kinds
from rummylib.testing import cards, hands, melds, rulesets

SETTINGS = settings(max_examples=examples(150), deadline=None)


def actions(rules: Ruleset = REMIK) -> st.SearchStrategy[Action]:
    """Every kind of action, with melds valid under ``rules``."""
    target = st.integers(0, 60)
    return st.one_of(
        st.just(DrawStock()),
        st.just(TakeDiscard()),
        st.just(NextRound()),
        st.builds(Discard, cards(rules)),
        st.builds(LayMeld, melds(rules)),
        st.builds(Open, st.lists(melds(rules), min_size=1, max_size=4).map(tuple)),
        st.builds(LayOff, target, cards(rules), st.sampled_from([None, End.LOW, End.HIGH])),
        st.builds(SwapJoker, target, cards(rules).filter(lambda c: not c.is_joker)),
    )


def _error(data: object) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        from_dict(data)
    return info.value


# --- rulesets -------------------------------------------------------------------------------


def test_every_ruleset_field_is_written() -> None:
    body = to_dict(REMIK)
    assert set(body) == {"schema", "kind"} | {f.name for f in attrs.fields(Ruleset)}
    assert set(ruleset_field_kinds()) == {f.name for f in attrs.fields(Ruleset)}


@SETTINGS
@given(rulesets())
def test_ruleset_round_trips(rules: Ruleset) -> None:
    assert from_dict(to_dict(rules), Ruleset) == rules
    assert from_json(to_json(rules), Ruleset) == rules


def test_unknown_ruleset_field_is_refused() -> None:
    doc = to_dict(REMIK)
    doc["jokers_wild"] = True
    err = _error(doc)
    assert err.reason is StateReason.UNKNOWN_FIELD and err.path == "jokers_wild"


def test_missing_ruleset_field_is_refused() -> None:
    doc = to_dict(STRAIGHT)
    del doc["upcard"]
    err = _error(doc)
    assert err.reason is StateReason.MISSING_FIELD and err.path == "upcard"


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("decks", "2", StateReason.WRONG_TYPE),
        ("decks", True, StateReason.WRONG_TYPE),
        ("decks", 9, StateReason.BAD_RULESET),
        ("ace_high", 1, StateReason.WRONG_TYPE),
        ("discard_rule", "sometimes", StateReason.BAD_VALUE),
        ("melds_per_turn", 0, StateReason.BAD_RULESET),
        ("hand_sizes", {"2": 13}, StateReason.BAD_RULESET),
        ("hand_sizes", [[2, 13]], StateReason.WRONG_TYPE),
        ("max_players", 1, StateReason.BAD_RULESET),
    ],
)
def test_bad_ruleset_values_are_refused(field: str, value: object, reason: StateReason) -> None:
    doc = to_dict(REMIK)
    doc[field] = value
    err = _error(doc)
    assert err.reason is reason
    assert err.path.startswith(field) or err.path in ("min_players", "max_players")


def test_ruleset_hand_size_keys_are_numbers() -> None:
    doc = to_dict(REMIK)
    doc["hand_sizes"] = {"two": 13}
    err = _error(doc)
    assert err.reason is StateReason.BAD_VALUE and err.path == "hand_sizes.two"


# --- melds ----------------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(melds))
def test_meld_round_trips(meld: Meld) -> None:  # R-M6: slots and joker declarations kept
    assert from_dict(to_dict(meld), Meld) == meld


def test_meld_document_declares_every_joker() -> None:  # R-J1
    meld = make_meld(parse_cards("8S 8H JK"), REMIK, jokers=parse_cards("8C"))
    assert to_dict(meld) == {"schema": 1, "kind": "meld", "type": "group", "slots": ["8S", "8H", "JK=8C"]}
    err = _error({"schema": 1, "kind": "meld", "type": "group", "slots": ["8S", "8H", "JK"]})
    assert err.reason is StateReason.BAD_MELD and err.path == "slots[2]"


def test_high_ace_run() -> None:  # R-M3
    doc = {"schema": 1, "kind": "meld", "type": "run", "slots": ["QH", "KH", "AH"]}
    meld = from_dict(doc, Run)
    assert meld.start == 12 and meld.end == 14


@pytest.mark.parametrize(
    ("slots", "kind"),
    [
        (["KH", "AH", "2H"], "run"),  # R-M3: no corner
        (["5H", "6H", "JK=8H"], "run"),  # joker declared where it cannot be
        (["5H", "7H", "6H"], "run"),  # out of order
        (["8H", "8S", "8D"], "group"),  # not in suit order
        (["8S", "8S", "8D"], "group"),  # R-M2 repeated suit
        (["5H", "6H"], "run"),
        (["5H", "6H", "7S"], "run"),
        (["5H", "6H", "7H"], "group"),
        (["JK=5H", "JK=6H", "JK=7H"], "run"),
        (["5H", "6H", "7H"] * 5, "run"),
        (["5H", "6H", "JK=JK"], "run"),
        (["5H", "6H", "7h"], "run"),
    ],
)
def test_bad_melds_are_refused(slots: list[str], kind: str) -> None:
    err = _error({"schema": 1, "kind": "meld", "type": kind, "slots": slots})
    assert err.reason in (StateReason.BAD_MELD, StateReason.BAD_CARD)
    assert err.path.startswith("slots")


# --- actions --------------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(actions))
def test_action_document_round_trips(action: Action) -> None:
    assert from_dict(to_dict(action)) == action
    assert from_json(to_json(action)) == action


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(actions))
def test_action_notation_is_symmetric(action: Action) -> None:
    text = format_action(action)
    assert parse_action(text) == action
    assert "\n" not in text


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (DrawStock(), "draw"),
        (TakeDiscard(), "take"),
        (NextRound(), "next"),
        (Discard(parse_card("10H")), "discard 10H"),
        (SwapJoker(1, parse_card("7H")), "swap #1 7H"),
        (LayOff(2, JOKER, End.HIGH), "layoff #2 JK high"),
        (LayOff(0, parse_card("AS")), "layoff #0 AS"),
        (LayMeld(make_meld(parse_cards("JK 5H JK 7H"), REMIK)), "meld JK=4H 5H JK=6H 7H"),
        (
            Open((make_meld(parse_cards("9S 10S JS"), REMIK), make_meld(parse_cards("QH KH AH"), REMIK))),
            "open 9S 10S JS | QH KH AH",
        ),
    ],
)
def test_notation_examples(action: Action, text: str) -> None:
    assert format_action(action) == text
    assert str(action) == text
    assert parse_action(text) == action


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(actions))
def test_str_of_an_action_is_its_notation(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert str(action) == format_action(action) == f"{action}"


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(actions))
def test_one_name_per_action_kind_in_notation_and_json(action: Action) -> None:
    assert to_dict(action)["type"] == str(action).split()[0]


@pytest.mark.parametrize(
    ("old", "action"),
    [
        ({"type": "draw_stock"}, DrawStock()),
        ({"type": "take_discard"}, TakeDiscard()),
        ({"type": "next_round"}, NextRound()),
        ({"type": "swap_joker", "target": 1, "card": "7H"}, SwapJoker(1, parse_card("7H"))),
        ({"type": "lay_off", "target": 2, "card": "JK", "end": "high"}, LayOff(2, JOKER, End.HIGH)),
        ({"type": "lay_meld", "meld": {"type": "run", "slots": ["5H", "6H", "7H"]}},
         LayMeld(make_meld(parse_cards("5H 6H 7H"), REMIK))),
    ],
)  # fmt: skip
def test_old_json_action_names_are_still_read(old: dict[str, object], action: Action) -> None:
    assert from_dict({"schema": 1, "kind": "action", **old}) == action
    assert to_dict(action)["type"] != old["type"]  # written with the one name now


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(actions))
def test_from_json_accepts_the_action_alias(action: Action) -> None:
    assert from_json(to_json(action), Action) == action
    assert from_dict(to_dict(action), Action) == action


def test_from_json_with_the_action_alias_refuses_other_kinds() -> None:
    with pytest.raises(InvalidStateError, match="expected an Action document"):
        from_json(to_json(REMIK), Action)


def test_notation_is_lenient_when_reading() -> None:
    assert parse_action("  DISCARD   th ") == Discard(parse_card("10H"))
    assert parse_action("layoff 3 ♥7 LOW") == LayOff(3, parse_card("7H"), End.LOW)
    group = make_meld(parse_cards("8S 8H 8D"), REMIK)
    assert parse_action("meld 8d 8s 8h") == LayMeld(group)
    # R-J1: an obvious joker may stay undeclared when the ruleset is given
    assert parse_action("meld 5H JK 7H", REMIK) == LayMeld(make_meld(parse_cards("5H JK 7H"), REMIK))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", StateReason.BAD_SYNTAX),
        ("draw 7H", StateReason.BAD_SYNTAX),
        ("discard", StateReason.BAD_SYNTAX),
        ("discard 7H 8H", StateReason.BAD_SYNTAX),
        ("discard 7X", StateReason.BAD_CARD),
        ("swap #1 JK", StateReason.BAD_CARD),
        ("swap one 7H", StateReason.BAD_SYNTAX),
        ("layoff #-1 7H", StateReason.BAD_SYNTAX),
        ("layoff #99999 7H", StateReason.BAD_SYNTAX),
        ("layoff #1 7H middle", StateReason.BAD_SYNTAX),
        ("meld", StateReason.BAD_SYNTAX),
        ("meld 5H JK 7H", StateReason.BAD_MELD),  # undeclared joker without rules
        ("meld 5H 6H JK=9H", StateReason.BAD_MELD),
        ("meld 5H 6H 7H=7H", StateReason.BAD_SYNTAX),
        ("meld 5H 6H JK=JK", StateReason.BAD_MELD),
        ("open 9S 10S JS ||", StateReason.BAD_SYNTAX),
        ("open", StateReason.BAD_SYNTAX),
        ("castle kingside", StateReason.BAD_SYNTAX),
        ("x" * 10_000, StateReason.TOO_LARGE),
    ],
)
def test_bad_notation_is_refused(text: str, reason: StateReason) -> None:
    with pytest.raises(InvalidStateError) as info:
        parse_action(text)
    assert info.value.reason is reason


def test_notation_checks_melds_against_the_rules() -> None:  # R-M4
    assert isinstance(parse_action("meld QH KH AH").meld, Run)  # type: ignore[union-attr]
    with pytest.raises(InvalidStateError) as info:
        parse_action("meld QH KH AH", STRAIGHT)
    assert info.value.reason is StateReason.BAD_MELD


def test_format_refuses_what_is_not_an_action() -> None:
    for bad in ("draw", 3, None, LayOff(-1, JOKER), LayOff(1, "7H"), Open(()), LayMeld("5H 6H 7H")):  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError):
            format_action(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError):
            to_dict(bad)  # type: ignore[arg-type]


# --- card multisets and headers -------------------------------------------------------------


@SETTINGS
@given(hands(REMIK, max_size=30))
def test_multiset_round_trips(hand: CardMultiset) -> None:  # R-C2
    doc = to_dict(hand)
    assert doc["cards"] == [str(c) for c in hand]
    assert from_dict(doc, CardMultiset) == hand


@pytest.mark.parametrize(
    ("doc", "reason", "path"),
    [
        ({"kind": "meld"}, StateReason.MISSING_FIELD, "schema"),
        ({"schema": 2, "kind": "meld"}, StateReason.BAD_SCHEMA, "schema"),
        ({"schema": "1", "kind": "meld"}, StateReason.BAD_SCHEMA, "schema"),
        ({"schema": True, "kind": "meld"}, StateReason.BAD_SCHEMA, "schema"),
        ({"schema": 1, "kind": "spaceship"}, StateReason.BAD_SCHEMA, "kind"),
        ({"schema": 1, "kind": "cards", "cards": ["7H", 7]}, StateReason.WRONG_TYPE, "cards[1]"),
        ({"schema": 1, "kind": "cards", "cards": ["7H", "TH"]}, StateReason.BAD_CARD, "cards[1]"),
        ({"schema": 1, "kind": "cards", "cards": [], "extra": 1}, StateReason.UNKNOWN_FIELD, "extra"),
        (
            {"schema": 1, "kind": "action", "type": "discard", "card": "7H", "end": None},
            StateReason.UNKNOWN_FIELD,
            "end",
        ),
        (
            {"schema": 1, "kind": "action", "type": "lay_off", "target": 1.0, "card": "7H", "end": None},
            StateReason.WRONG_TYPE,
            "target",
        ),
        (
            {"schema": 1, "kind": "action", "type": "lay_off", "target": 1, "card": "7H", "end": "top"},
            StateReason.BAD_VALUE,
            "end",
        ),
        ({"schema": 1, "kind": "action", "type": "open", "melds": []}, StateReason.BAD_VALUE, "melds"),
        ([1, 2], StateReason.WRONG_TYPE, ""),
        ({"schema": 1, "kind": "cards", "cards": (1, 2)}, StateReason.WRONG_TYPE, "cards"),
        ({"schema": 1, "kind": "cards", "cards": [float("nan")]}, StateReason.BAD_VALUE, "cards[0]"),
        ({"schema": 1, "kind": "cards", "cards": [10**30]}, StateReason.TOO_LARGE, "cards[0]"),
        ({"schema": 1, "kind": "cards", "cards": ["x" * 5000]}, StateReason.TOO_LARGE, "cards[0]"),
        ({1: 2}, StateReason.WRONG_TYPE, ""),
    ],
)
def test_bad_documents_are_refused(doc: Any, reason: StateReason, path: str) -> None:
    err = _error(doc)
    assert err.reason is reason
    assert err.path == path


def test_expected_kind_is_checked() -> None:
    with pytest.raises(InvalidStateError) as info:
        from_dict(to_dict(REMIK), Meld)
    assert info.value.reason is StateReason.BAD_SCHEMA
    with pytest.raises(InvalidStateError):
        from_dict(to_dict(DrawStock()), Discard)
    assert from_dict(to_dict(make_meld(parse_cards("8S 8H 8D"), REMIK)), Group)


def test_deep_and_huge_documents_are_refused() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert _error(deep).reason is StateReason.TOO_DEEP
    cyclic: dict[str, Any] = {"schema": 1}
    cyclic["kind"] = cyclic
    assert _error(cyclic).reason is StateReason.TOO_DEEP
    huge = {"schema": 1, "kind": "cards", "cards": ["7H"] * 1_000_001}
    assert _error(huge).reason is StateReason.TOO_LARGE


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 200_000 + "]" * 200_000, StateReason.TOO_LARGE),  # more containers than MAX_CONTAINERS
        ("[" * 50 + "]" * 50, StateReason.TOO_DEEP),
        ('{"schema": 1, "schema": 1}', StateReason.BAD_SYNTAX),
        ('{"schema": NaN}', StateReason.BAD_SYNTAX),
        ("{", StateReason.BAD_SYNTAX),
        ("1" * 5000, StateReason.BAD_SYNTAX),
        (b"\xff", StateReason.BAD_SYNTAX),
        ("", StateReason.BAD_SYNTAX),
    ],
)
def test_bad_json_text_is_refused(text: str | bytes, reason: StateReason) -> None:
    with pytest.raises(InvalidStateError) as info:
        from_json(text)
    assert info.value.reason is reason


def test_documents_are_plain_json() -> None:
    meld = make_meld(parse_cards("JK 5H JK 7H"), REMIK)
    for value in (REMIK, STRAIGHT, meld, Open((meld,)), CardMultiset(parse_cards("7H 7H JK"))):
        doc = to_dict(value)
        assert json.loads(json.dumps(doc)) == doc


@SETTINGS
@given(st.sampled_from([REMIK, STRAIGHT]).flatmap(lambda r: st.tuples(st.just(r), actions(r))))
def test_notation_with_rules_is_symmetric(case: tuple[Ruleset, Action]) -> None:
    rules, action = case
    assert parse_action(format_action(action), rules) == action


def test_schema_is_documented_with_the_package() -> None:
    import rummylib.records

    doc = rummylib.records.__doc__ or ""
    for field in ("round.hands", "``stock_size``", "``hand_sizes``", "``slots``", "``restocks``", "``seed``"):
        assert field.strip("`").split(".")[-1] in doc
    for name in attrs.fields_dict(Ruleset):
        assert f"``{name}``" in doc, name


def test_an_open_the_engine_accepts_round_trips_whatever_its_size() -> None:
    # issue 10: whatever the engine accepts, documents and notation keep. With four decks (a house rule) an
    # opening may hold 50 melds; documents used to stop at 40, below the action's own bound.
    import rummylib as rl
    from rummylib.actions import MAX_OPEN_MELDS

    rules = attrs.evolve(rl.REMIK, decks=4, jokers=16)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    sets = [rl.make_meld(rl.parse_cards(f"{r}S {r}H {r}D"), rules) for r in ranks] * 4
    big = rl.Open(sets[:50])
    assert rl.from_dict(rl.to_dict(big)) == big
    assert rl.parse_action(str(big), rules) == big
    too_many = rl.to_dict(rl.Open(sets[:2]))
    too_many["melds"] = too_many["melds"] * (MAX_OPEN_MELDS // 2 + 1)
    with pytest.raises(rl.InvalidStateError):
        rl.from_dict(too_many)
