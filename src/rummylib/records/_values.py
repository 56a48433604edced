"""JSON bodies of the small values: rulesets, melds, actions, card multisets.

Each ``*_to_json`` returns a JSON-safe body (no ``schema``/``kind``); each
``*_from_json`` reads one back from untrusted data, strictly, raising
:class:`~rummylib.InvalidStateError` with the path of the bad field. See the
schema description in :mod:`rummylib.records._json`.
"""

from __future__ import annotations

import enum
from typing import Any, Final

import attrs

from rummylib.actions import (
    MAX_OPEN_MELDS,
    Action,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    NextRound,
    Open,
    SwapJoker,
    TakeDiscard,
)
from rummylib.cards import JOKER, Card, CardMultiset, Rank, Suit
from rummylib.errors import InvalidMeldError, RulesetError, StateReason
from rummylib.melds import ACE_HIGH, End, Group, Meld, Run, validate_meld
from rummylib.melds._types import slot_token, split_slot
from rummylib.records._doc import (
    CARD_BY_TEXT,
    Obj,
    as_card,
    as_cards,
    as_str,
    card_list,
    fail,
    join,
    short,
)
from rummylib.rules import DiscardRule, RestockRule, Ruleset, Scoring, TieRule

from .._guards import is_instance

__all__: list[str] = []

# --- rulesets -----------------------------------------------------------------------------

_ENUMS: Final[dict[str, type[enum.Enum]]] = {
    "DiscardRule": DiscardRule,
    "RestockRule": RestockRule,
    "Scoring": Scoring,
    "TieRule": TieRule,
}
_SCALARS: Final = frozenset({"str", "int", "bool", "int | None", "tuple[tuple[int, int], ...]"})
#: Hand sizes and player counts in a document stay below this.
_MAX_SMALL: Final = 10_000


def ruleset_field_kinds() -> dict[str, str]:
    """Each :class:`Ruleset` field and the annotation that decides its JSON form."""
    kinds: dict[str, str] = {}
    for field in attrs.fields(Ruleset):
        kind = field.type if is_instance(field.type, str) else getattr(field.type, "__name__", "")
        if kind not in _SCALARS and kind not in _ENUMS:
            msg = f"Ruleset.{field.name} has a type ({kind}) the records layer cannot write"
            raise TypeError(msg)
        kinds[field.name] = kind
    return kinds


def ruleset_to_json(rules: Ruleset) -> dict[str, Any]:
    """Every field of ``rules``: enums as their values, hand sizes as an object."""
    body: dict[str, Any] = {}
    for name, kind in ruleset_field_kinds().items():
        value = getattr(rules, name)
        if kind in _ENUMS:
            value = value.value
        elif kind.startswith("tuple"):
            value = {str(players): size for players, size in value}
        body[name] = value
    return body


def _hand_sizes(obj: Obj, key: str) -> tuple[tuple[int, int], ...]:
    sizes = obj.child(key, "hand_sizes")
    pairs: list[tuple[int, int]] = []
    for count in sizes.keys():  # noqa: SIM118 - an Obj is a checked reader, not a dict
        if not (count.isascii() and count.isdigit() and len(count) <= 4):
            fail(StateReason.BAD_VALUE, sizes.at(count), "a player count key must be a decimal number")
        pairs.append((int(count), sizes.integer(count, 1, _MAX_SMALL)))
    sizes.done()
    return tuple(sorted(pairs))


#: Ruleset fields added after schema 1 was published; older documents lack them.
_ADDED_FIELDS: Final = frozenset({"take_discard_to_open"})


def ruleset_from_json(data: object, path: str) -> Ruleset:
    """Read a ruleset body: every field required, no other field, validated by :class:`Ruleset`."""
    obj = Obj(data, path, "a ruleset")
    kwargs: dict[str, Any] = {}
    for name, kind in ruleset_field_kinds().items():
        if name in _ADDED_FIELDS and not obj.has(name):
            continue  # a document written before the field existed: its default
        if kind == "str":
            kwargs[name] = obj.text(name)
        elif kind == "int":
            kwargs[name] = obj.integer(name)
        elif kind == "int | None":
            kwargs[name] = obj.opt_integer(name)
        elif kind == "bool":
            kwargs[name] = obj.flag(name)
        elif kind in _ENUMS:
            kwargs[name] = enum_value(_ENUMS[kind], obj.get(name), obj.at(name))
        else:
            kwargs[name] = _hand_sizes(obj, name)
    obj.done()
    try:
        return Ruleset(**kwargs)
    except RulesetError as exc:
        fail(StateReason.BAD_RULESET, join(path, exc.field), str(exc))


def enum_value(kind: type[enum.Enum], value: object, path: str) -> Any:
    """The member of ``kind`` whose value is the string ``value``."""
    text = as_str(value, path)
    for member in kind:
        if member.value == text:
            return member
    choices = ", ".join(repr(m.value) for m in kind)
    fail(StateReason.BAD_VALUE, path, f"{short(text)} is not one of {choices}")
    return None


# --- melds --------------------------------------------------------------------------------


def slot_tokens(meld: Meld) -> list[str]:
    """A meld's slots as tokens, each joker declared: ``["5H", "6H", "JK=7H"]``."""
    return list(map(slot_token, meld.cards, meld.represents))


def meld_to_json(meld: Meld) -> dict[str, Any]:
    """``{"type": "run" | "group", "slots": [...]}``."""
    return {"type": "run" if isinstance(meld, Run) else "group", "slots": slot_tokens(meld)}


def read_slot(token: str, path: str) -> tuple[Card, Card]:
    """A slot token: ``(card, represents)``; a joker must declare a real card."""
    head, declared = split_slot(token)
    if declared is not None and head == "JK":
        stands = CARD_BY_TEXT.get(declared)
        if stands is None or stands is JOKER:
            fail(StateReason.BAD_MELD, path, f"{short(token)}: a joker declares a real card, as in JK=7H")
        return JOKER, stands
    card = CARD_BY_TEXT.get(token)
    if card is None:
        fail(StateReason.BAD_CARD, path, f"{short(token)} is not a card in canonical notation (7H, 10H, JK=7H)")
    if card is JOKER:
        fail(StateReason.BAD_MELD, path, "a joker must declare the card it stands for, as in JK=7H")
    return card, card


def build_meld(slots: list[tuple[Card, Card]], kind: str | None, path: str) -> Meld:
    """Build the meld whose slots are ``(card, represents)`` pairs in table order.

    ``kind`` is ``"run"``, ``"group"`` or ``None`` to infer it from the slots.
    """
    if len(slots) < 3:
        fail(StateReason.BAD_MELD, path, f"a meld has at least 3 slots, found {len(slots)}")
    stands = [s for _, s in slots]
    cards = tuple(c for c, _ in slots)
    text = " ".join(slot_token(c, s) for c, s in slots)
    suits = {s.suit for s in stands}
    ranks = {s.rank for s in stands}
    if kind is None:
        kind = "group" if len(ranks) == 1 and len(stands) > 1 else "run"
    meld: Meld
    try:
        if kind == "run":
            if len(suits) != 1:
                fail(StateReason.BAD_MELD, path, f"run {text} mixes suits")
            first = stands[0]  # slots stand for real cards only
            meld = Run(first.suit or Suit.SPADES, int(first.rank or 1), cards)
        else:
            if len(ranks) != 1:
                fail(StateReason.BAD_MELD, path, f"group {text} mixes ranks")
            meld = Group(stands[0].rank or Rank.ACE, cards, tuple(s.suit or Suit.SPADES for s in stands))
    except InvalidMeldError as exc:
        fail(StateReason.BAD_MELD, path, f"{text or '(no cards)'}: {exc}")
    if list(meld.represents) != stands:
        reads = " ".join(map(str, meld.represents))
        detail = f"{text}: the jokers do not match their positions; the run stands for {reads}"
        fail(StateReason.BAD_MELD, path, detail)
    return meld


def meld_from_json(data: object, path: str, rules: Ruleset | None = None) -> Meld:
    """Read a meld body; with ``rules``, also check it is legal under them (R-J2, J3, M4)."""
    obj = Obj(data, path, "a meld")
    kind = obj.text("type")
    if kind not in ("run", "group"):
        fail(StateReason.BAD_VALUE, obj.at("type"), f"{short(kind)} is not 'run' or 'group'")
    slots_path = obj.at("slots")
    raw = obj.array("slots")
    if len(raw) > ACE_HIGH:
        fail(StateReason.BAD_MELD, slots_path, f"a meld has at most 13 slots, found {len(raw)}")
    slots = [read_slot(as_str(item, join(slots_path, i)), join(slots_path, i)) for i, item in enumerate(raw)]
    obj.done()
    meld = build_meld(slots, kind, slots_path)
    if rules is not None:
        check_meld(meld, rules, path)
    return meld


def check_meld(meld: Meld, rules: Ruleset, path: str) -> None:
    """Refuse a meld the ruleset forbids."""
    try:
        validate_meld(meld, rules)
    except InvalidMeldError as exc:
        fail(StateReason.BAD_MELD, path, str(exc))


# --- actions ------------------------------------------------------------------------------

#: Each action kind's one name: the first word of its notation and its JSON ``type``.
ACTION_TYPES: Final[dict[type, str]] = {
    DrawStock: "draw",
    TakeDiscard: "take",
    Open: "open",
    LayMeld: "meld",
    LayOff: "layoff",
    SwapJoker: "swap",
    Discard: "discard",
    NextRound: "next",
}
#: The JSON ``type`` names of earlier development versions (still read).
_OLD_NAMES: Final = {"draw_stock": DrawStock, "take_discard": TakeDiscard, "lay_meld": LayMeld,
                     "lay_off": LayOff, "swap_joker": SwapJoker, "next_round": NextRound}  # fmt: skip
_BY_NAME: Final = {name: kind for kind, name in ACTION_TYPES.items()}
#: Largest meld index accepted in an action.
MAX_TARGET: Final = 1000


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": ..., fields...}`` for each action."""
    check_action(action)
    body: dict[str, Any] = {"type": ACTION_TYPES[type(action)]}
    if isinstance(action, Open):
        body["melds"] = [meld_to_json(m) for m in action.melds]
    elif isinstance(action, LayMeld):
        body["meld"] = meld_to_json(action.meld)
    elif isinstance(action, LayOff):
        body.update(target=action.target, card=str(action.card))
        body["end"] = None if action.end is None else action.end.value
    elif isinstance(action, SwapJoker):
        body.update(target=action.target, card=str(action.card))
    elif isinstance(action, Discard):
        body["card"] = str(action.card)
    return body


def action_from_json(data: object, path: str, rules: Ruleset | None = None) -> Action:
    """Read an action body."""
    obj = Obj(data, path, "an action")
    name = obj.text("type")
    kind = _BY_NAME.get(name) or _OLD_NAMES.get(name)
    if kind is None:
        choices = ", ".join(repr(n) for n in _BY_NAME)
        fail(StateReason.BAD_VALUE, obj.at("type"), f"{short(name)} is not an action type ({choices})")
    action: Action
    if kind is Open:
        raw = obj.array("melds")
        if not raw or len(raw) > MAX_OPEN_MELDS:
            fail(StateReason.BAD_VALUE, obj.at("melds"), f"an opening lays 1 to {MAX_OPEN_MELDS} melds")
        action = Open(meld_from_json(m, join(obj.at("melds"), i), rules) for i, m in enumerate(raw))
    elif kind is LayMeld:
        action = LayMeld(meld_from_json(obj.get("meld"), obj.at("meld"), rules))
    elif kind is LayOff:
        target = obj.integer("target", 0, MAX_TARGET)
        card = as_card(obj.get("card"), obj.at("card"))
        end = obj.get("end")
        action = LayOff(target, card, None if end is None else enum_value(End, end, obj.at("end")))
    elif kind is SwapJoker:
        target = obj.integer("target", 0, MAX_TARGET)
        card = as_card(obj.get("card"), obj.at("card"))
        if card is JOKER:
            fail(StateReason.BAD_CARD, obj.at("card"), "a joker swap puts a real card in the joker's place")
        action = SwapJoker(target, card)
    elif kind is Discard:
        action = Discard(as_card(obj.get("card"), obj.at("card")))
    else:
        action = kind()
    obj.done()
    return action


# --- card multisets ----------------------------------------------------------------------


def multiset_to_json(cards: CardMultiset) -> dict[str, Any]:
    """``{"cards": [...]}`` in canonical order."""
    return {"cards": card_list(cards)}


def multiset_from_json(data: object, path: str) -> CardMultiset:
    """Read ``{"cards": [...]}`` (any order)."""
    obj = Obj(data, path, "a card multiset")
    cards = as_cards(obj.get("cards"), obj.at("cards"))
    obj.done()
    return CardMultiset(cards)


def check_action(action: object, path: str = "") -> Action:
    """Refuse a value that is not a well-formed action (before writing it out)."""
    if type(action) not in ACTION_TYPES:
        fail(StateReason.WRONG_TYPE, path, f"expected an action (DrawStock, Discard, ...), not {short(action)}")
    melds: tuple[object, ...] = ()
    if isinstance(action, Open):
        melds = action.melds
        if not 1 <= len(melds) <= MAX_OPEN_MELDS:
            fail(StateReason.BAD_VALUE, join(path, "melds"), f"an opening lays 1 to {MAX_OPEN_MELDS} melds")
    elif isinstance(action, LayMeld):
        melds = (action.meld,)
    for meld in melds:
        if not isinstance(meld, (Run, Group)):
            fail(StateReason.WRONG_TYPE, path, f"expected a Run or a Group, not {short(meld)}")
    if isinstance(action, (LayOff, SwapJoker)):
        target = action.target
        if type(target) is not int or not 0 <= target <= MAX_TARGET:
            fail(StateReason.BAD_VALUE, join(path, "target"), f"a meld index is 0..{MAX_TARGET}, not {short(target)}")
    if isinstance(action, (LayOff, SwapJoker, Discard)) and not isinstance(action.card, Card):
        fail(StateReason.WRONG_TYPE, join(path, "card"), f"expected a Card, not {short(action.card)}")
    if isinstance(action, SwapJoker) and action.card.is_joker:
        fail(StateReason.BAD_CARD, join(path, "card"), "a joker swap puts a real card in the joker's place")
    if isinstance(action, LayOff) and action.end is not None and not isinstance(action.end, End):
        fail(StateReason.WRONG_TYPE, join(path, "end"), f"expected End.LOW, End.HIGH or None, not {short(action.end)}")
    return action  # type: ignore[return-value]
