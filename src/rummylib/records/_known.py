"""JSON of the public knowledge of hands and stock (R-H1), with its load checks.

The three fields are optional in a document (a schema-1 document written
before they existed knows nothing) and are written only when not empty:

- ``known_cards``: one card list per seat, the cards every player knows
  that seat holds; each must be in that hand (a view: within its size).
- ``known_stock``: the bottom of the stock whose order is public, top
  first; a state's stock must end with it.
- ``restocked``: the cards of the stock's last refill; none before a
  refill, and afterwards the stock is made of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from rummylib.cards import Card, CardMultiset
from rummylib.engine._invariants import check_known_in_hands, check_known_stock, check_refill
from rummylib.errors import StateReason
from rummylib.records._doc import Obj, as_card, card_list, fail, items
from rummylib.rules import Ruleset

__all__: list[str] = []


@attrs.frozen
class Knowledge:
    """What a document says is publicly known (empty where it says nothing)."""

    known_cards: tuple[CardMultiset, ...]
    known_stock: tuple[Card, ...]
    restocked: CardMultiset


def knowledge_to_json(
    known: Sequence[CardMultiset], known_stock: Sequence[Card], restocked: CardMultiset
) -> dict[str, Any]:
    """The fields that are not empty."""
    out: dict[str, Any] = {}
    if any(known):
        out["known_cards"] = [card_list(k) for k in known]
    if known_stock:
        out["known_stock"] = card_list(known_stock)
    if restocked:
        out["restocked"] = card_list(restocked)
    return out


def read_knowledge(obj: Obj, rules: Ruleset, n: int, restocks: int) -> Knowledge:
    """Read the optional fields of ``obj``; each seat's list and the stock's bounded by the deck."""
    size = 52 * rules.decks + rules.jokers

    def cards(key: str) -> tuple[Card, ...]:
        return tuple(items(obj.get(key), obj.at(key), as_card, size)) if obj.has(key) else ()

    known = (CardMultiset(),) * n
    if obj.has("known_cards"):
        path = obj.at("known_cards")
        raw = tuple(items(obj.get("known_cards"), path, lambda v, p: CardMultiset(items(v, p, as_card, size)), n + 1))
        if len(raw) != n:
            fail(StateReason.INCONSISTENT, path, f"needs one card list per seat ({n}), found {len(raw)}")
        known = raw
    known_stock = cards("known_stock")
    restocked = CardMultiset(cards("restocked"))
    check_refill(restocks, known_stock, restocked, {key: obj.at(key) for key in ("known_stock", "restocked")})
    return Knowledge(known, known_stock, restocked)


def check_in_hands(k: Knowledge, hands: Sequence[CardMultiset | None], sizes: Sequence[int], path: str) -> None:
    """Each seat's known cards are in its hand (``None``: unseen, so only its size is checked)."""
    check_known_in_hands(k.known_cards, hands, sizes, path)


def check_stock(k: Knowledge, stock: Sequence[Card] | None, stock_size: int, path: str) -> None:
    """The stock ends with its public part and, after a refill, is made of the refill's cards."""
    check_known_stock(k.known_stock, k.restocked, stock, stock_size, path)
