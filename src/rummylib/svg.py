"""Pictures of cards, hands, melds, the table and whole views, as standalone SVG.

Every function returns one complete SVG document (a ``str``) that a browser,
a notebook or ``rsvg-convert`` shows as it is: no stylesheet, no script, no
external font or image, no new dependency. Suits are drawn as the symbols
``♠ ♥ ♦ ♣`` (hearts and diamonds red); a joker in a meld shows the card it
stands for; card backs are plain blue.

Each card picture is a ``<g class="card" data-card="7H">`` (a joker in a
meld also carries ``data-stands-for="8D"``) with a ``<title>``; a card back
is a ``<g class="back">``. Programs (and tests) can read the picture back.

In a notebook, :class:`~rummylib.Card`, :class:`~rummylib.CardMultiset`,
melds and :class:`~rummylib.PlayerView` show themselves through
``_repr_svg_``: each is a one-line method that imports this module when it
is first called, so the lower layers never import upward when loaded.

>>> import rummylib as rl
>>> picture = card_svg(rl.parse_card("7H"))
>>> picture.startswith("<svg"), 'data-card="7H"' in picture
(True, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from rummylib._card import as_cards
from rummylib.cards import Card, CardMultiset, Suit
from rummylib.engine import Phase, PlayerView, TableMeld
from rummylib.errors import RulesetError, RulesetReason
from rummylib.melds import Group, Meld, Run

from ._guards import is_collection_of_items

__all__ = ["card_svg", "cards_svg", "meld_svg", "table_svg", "to_svg", "view_svg"]

#: Card width and height, in SVG user units (pixels).
CARD_W: Final = 60
CARD_H: Final = 84
#: Horizontal step between overlapping cards of a hand or a meld.
STEP: Final = 28
_GAP: Final = 8
_MARGIN: Final = 6
_FONT: Final = "DejaVu Sans, Segoe UI Symbol, Arial, sans-serif"
_RED: Final = "#c62828"
_BLACK: Final = "#1b1b1b"
_JOKER: Final = "#6a1b9a"
_BACK: Final = "#28508c"
_FELT: Final = "#1f6f43"
_SYMBOL: Final = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}
#: Most card backs drawn for one hidden hand (the count is written beside them).
_MAX_BACKS: Final = 15
#: Most cards one picture of a hand shows, and most melds one table shows (a guard against huge inputs).
MAX_CARDS: Final = 1000
MAX_MELDS: Final = 500


def _colour(suit: Suit | None) -> str:
    if suit is None:
        return _JOKER
    return _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK


def _rank_text(card: Card) -> str:
    return str(card)[:-1]


def _text(x: float, y: float, body: str, *, size: int, fill: str, anchor: str = "start", bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}"{weight}>'
        f"{escape(body)}</text>"
    )


def _card_g(card: Card, x: float, y: float, stands_for: Card | None = None) -> str:
    """One face-up card at ``(x, y)``: index top left, a big symbol in the middle."""
    extra = f" data-stands-for={quoteattr(str(stands_for))}" if stands_for is not None else ""
    title = "joker" if card.is_joker else str(card)
    if stands_for is not None:
        title += f" standing for {stands_for}"
    parts = [
        f'<g class="card" data-card={quoteattr(str(card))}{extra} transform="translate({x:g},{y:g})">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="#ffffff" stroke="#555555" stroke-width="1"/>',
    ]
    if card.suit is None:
        parts.append(_text(4, 14, "JK", size=12, fill=_JOKER, bold=True))
        parts.append(_text(CARD_W / 2 + 6, 72, "\u2605", size=30, fill=_JOKER, anchor="middle"))
        if stands_for is not None and stands_for.suit is not None:
            # In the corner, so it stays visible when the next card overlaps this one.
            colour = _colour(stands_for.suit)
            parts.append('<rect x="2" y="18" width="24" height="34" rx="3" fill="#f3e5f5"/>')
            parts.append(_text(14, 33, _rank_text(stands_for), size=14, fill=colour, anchor="middle", bold=True))
            parts.append(_text(14, 48, _SYMBOL[stands_for.suit], size=14, fill=colour, anchor="middle"))
    else:
        colour = _colour(card.suit)
        parts.append(_text(5, 18, _rank_text(card), size=16, fill=colour, bold=True))
        parts.append(_text(5, 35, _SYMBOL[card.suit], size=16, fill=colour))
        parts.append(_text(CARD_W / 2 + 6, 70, _SYMBOL[card.suit], size=34, fill=colour, anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def _back_g(x: float, y: float) -> str:
    return (
        f'<g class="back" transform="translate({x:g},{y:g})">'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="{_BACK}" stroke="#ffffff" stroke-width="1.5"/>'
        f'<rect x="6" y="6" width="{CARD_W - 12}" height="{CARD_H - 12}" rx="3" fill="none" '
        f'stroke="#9fb8e0" stroke-width="1.5"/></g>'
    )


def _document(width: float, height: float, body: Iterable[str], title: str, background: str | None = None) -> str:
    w, h = max(1, round(width)), max(1, round(height))
    ground = f'<rect width="{w}" height="{h}" fill="{background}"/>' if background else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="{_FONT}" role="img"><title>{escape(title)}</title>{ground}{"".join(body)}</svg>'
    )


def _row_width(count: int, step: float = STEP) -> float:
    return 0 if count == 0 else CARD_W + step * (count - 1)


def _cards_row(cards: Sequence[Card], x: float, y: float, stands: Sequence[Card | None] | None = None) -> list[str]:
    return [
        _card_g(c, x + i * STEP, y, None if stands is None else stands[i])
        for i, c in enumerate(cards)  # later cards on top: the index of each stays visible
    ]


def _meld_row(meld: Meld, x: float, y: float) -> list[str]:
    stands = [r if c.is_joker else None for c, r in zip(meld.cards, meld.represents)]
    return _cards_row(meld.cards, x, y, stands)


def _check_card(card: object) -> Card:
    if not isinstance(card, Card):
        msg = f"expected a Card, not {type(card).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "card", card, msg)
    return card


def _check_meld(meld: object) -> Meld:
    if not isinstance(meld, (Run, Group)):
        msg = f"expected a Run or a Group, not {type(meld).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "meld", meld, msg)
    return meld


def card_svg(card: Card, *, stands_for: Card | None = None) -> str:
    """One card; a joker with ``stands_for`` shows the card it stands for.

    Raises:
        RulesetError: ``card`` (or ``stands_for``) is not a :class:`~rummylib.Card`.
    """
    card = _check_card(card)
    if stands_for is not None:
        stands_for = _check_card(stands_for)
    m = _MARGIN
    return _document(CARD_W + 2 * m, CARD_H + 2 * m, [_card_g(card, m, m, stands_for)], str(card))


def cards_svg(cards: Iterable[Card]) -> str:
    """A hand (any cards), overlapping left to right in the order given (a multiset: canonical order).

    Raises:
        InvalidCardsError: ``cards`` is not an iterable of cards.
        RulesetError: more than :data:`MAX_CARDS` cards.

    >>> import rummylib as rl
    >>> cards_svg(rl.parse_cards("7H JK")).count('class="card"')
    2
    """
    bounded = itertools.islice(cards, MAX_CARDS + 1) if is_collection_of_items(cards) else cards
    items = as_cards(cards if isinstance(cards, CardMultiset) else bounded)
    if len(items) > MAX_CARDS:
        msg = f"a picture shows at most {MAX_CARDS} cards"
        raise RulesetError(RulesetReason.BAD_VALUE, "cards", len(items), msg)
    m = _MARGIN
    title = " ".join(map(str, items)) or "no cards"
    return _document(_row_width(len(items)) + 2 * m, CARD_H + 2 * m, _cards_row(items, m, m), title)


def meld_svg(meld: Meld) -> str:
    """A meld in table order, each joker showing the card it stands for.

    Raises:
        RulesetError: ``meld`` is not a :class:`~rummylib.Run` or :class:`~rummylib.Group`.

    >>> import rummylib as rl
    >>> meld = rl.make_meld(rl.parse_cards("8S 8H JK"), rl.REMIK, jokers=rl.parse_cards("8D"))
    >>> 'data-stands-for="8D"' in meld_svg(meld)
    True
    """
    meld = _check_meld(meld)
    m = _MARGIN
    return _document(_row_width(len(meld)) + 2 * m, CARD_H + 2 * m, _meld_row(meld, m, m), str(meld))


def _table_body(
    melds: Sequence[Meld], players: Sequence[str] | None, owners: Sequence[int | None], width: float, y: float
) -> tuple[list[str], float]:
    """Melds laid out in rows that wrap at ``width``; returns the parts and the height used."""
    parts: list[str] = []
    x: float = _MARGIN
    top = y
    for meld, owner in zip(melds, owners):
        w = _row_width(len(meld))
        if x > _MARGIN and x + w > width - _MARGIN:
            x, y = _MARGIN, y + CARD_H + 22
        parts.extend(_meld_row(meld, x, y + 14))
        if players is not None and owner is not None and 0 <= owner < len(players):
            parts.append(_text(x + 2, y + 10, _short(players[owner], 12), size=10, fill="#e8f5e9"))
        x += w + 2 * _GAP
    height = 0 if not melds else y - top + CARD_H + 22
    return parts, height


def _pile(view_top: Card | None, pile_size: int, stock_size: int, x: float, y: float) -> list[str]:
    parts = [_text(x, y + 10, f"stock {stock_size}", size=11, fill="#ffffff")]
    parts.append(_back_g(x, y + 14) if stock_size else _empty(x, y + 14))
    px = x + CARD_W + 3 * _GAP
    parts.append(_text(px, y + 10, f"discard {pile_size}", size=11, fill="#ffffff"))
    parts.append(_card_g(view_top, px, y + 14) if view_top is not None else _empty(px, y + 14))
    return parts


def _empty(x: float, y: float) -> str:
    return (
        f'<rect class="empty" x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="none" '
        f'stroke="#a5d6a7" stroke-dasharray="4 3"/>'
    )


def _melds_of(table: Iterable[Meld | TableMeld]) -> tuple[list[Meld], list[int | None]]:
    melds: list[Meld] = []
    owners: list[int | None] = []
    if not is_collection_of_items(table):
        raise RulesetError(RulesetReason.WRONG_TYPE, "table", table, "the table is an iterable of melds")
    for item in itertools.islice(table, MAX_MELDS + 1):
        if isinstance(item, TableMeld):
            melds.append(_check_meld(item.meld))
            owners.append(item.owner)
        else:
            melds.append(_check_meld(item))
            owners.append(None)
    if len(melds) > MAX_MELDS:
        raise RulesetError(RulesetReason.BAD_VALUE, "table", len(melds), f"a picture shows at most {MAX_MELDS} melds")
    return melds, owners


def table_svg(
    table: Iterable[Meld | TableMeld],
    *,
    top_discard: Card | None = None,
    discard_size: int | None = None,
    stock_size: int | None = None,
    width: int = 720,
) -> str:
    """The melds on the table (rows wrapping at ``width``), with the stock and the top discard if given.

    Raises:
        RulesetError: a value of ``table`` is not a meld, or ``top_discard`` is not a card.

    >>> import rummylib as rl
    >>> picture = table_svg([rl.make_meld(rl.parse_cards("9S 10S JS"), rl.REMIK)], top_discard=rl.parse_card("KH"),
    ...                     stock_size=40)
    >>> picture.count('class="card"'), "stock 40" in picture
    (4, True)
    """
    melds, owners = _melds_of(table)
    parts: list[str] = []
    y = float(_MARGIN)
    if top_discard is not None or stock_size is not None:
        top = None if top_discard is None else _check_card(top_discard)
        pile = discard_size if discard_size is not None else (0 if top is None else 1)
        parts += _pile(top, pile, stock_size or 0, _MARGIN, y)
        y += CARD_H + 22
    body, height = _table_body(melds, None, owners, width, y)
    parts += body
    if not melds:
        parts.append(_text(_MARGIN, y + 16, "no melds on the table", size=12, fill="#e8f5e9"))
        height = 24
    return _document(width, y + height + _MARGIN, parts, f"table of {len(melds)} meld(s)", _FELT)


def _short(name: str, most: int = 24) -> str:
    return name if len(name) <= most else name[: most - 1] + "\u2026"


def _seat_line(v: PlayerView, seat: int) -> str:
    name = _short(v.players[seat])
    marks = []
    if seat == v.dealer:
        marks.append("dealer")
    if v.opened[seat] and v.rules.opening_required:
        marks.append("opened")
    if seat == v.to_act and v.phase in (Phase.DRAW, Phase.PLAY):
        marks.append("to act")
    extra = f" ({', '.join(marks)})" if marks else ""
    return f"{name}{extra} - {v.hand_sizes[seat]} cards - total {v.totals[seat]}"


def _hidden_hand(v: PlayerView, seat: int, y: float) -> list[str]:
    count = v.hand_sizes[seat]
    parts = [f'<g class="seat" data-seat="{seat}" data-hand-size="{count}">']
    parts.append(_text(_MARGIN, y + 12, _seat_line(v, seat), size=13, fill="#ffffff", bold=seat == v.to_act))
    for i in range(min(count, _MAX_BACKS)):
        parts.append(_back_g(_MARGIN + i * 10, y + 18))
    if count > _MAX_BACKS:
        parts.append(
            _text(_MARGIN + _MAX_BACKS * 10 + CARD_W + 4, y + 60, f"+{count - _MAX_BACKS}", size=12, fill="#fff")
        )
    parts.append("</g>")
    return parts


def _status(v: PlayerView) -> str:
    if v.is_over:
        winners = ", ".join(v.players[s] for s in v.standings.winners)
        return f"round {v.round_number} - game over - won by {winners}"
    if v.phase is Phase.ROUND_OVER:
        last = v.results[-1] if v.results else None
        how = "nobody went out" if last is None or last.winner is None else f"{v.players[last.winner]} went out"
        return f"round {v.round_number} over - {how}"
    who = "you" if v.to_act == v.seat else v.players[v.to_act]
    return f"round {v.round_number} - {who} to {v.phase.value}"


def view_svg(v: PlayerView, *, width: int | None = None) -> str:
    """A whole view: the other seats' hands as card backs with counts, stock, top discard, table, own hand.

    Only what the view holds is drawn, so the picture of a view never shows
    a card the seat may not see (R-H1).

    Raises:
        RulesetError: ``v`` is not a :class:`~rummylib.PlayerView`.

    >>> import rummylib as rl
    >>> picture = view_svg(rl.view(rl.new_game(rl.REMIK, ["Ann", "Bob"], seed=1), 1))
    >>> picture.count('class="card"'), picture.count('class="back"')
    (13, 15)
    """
    if not isinstance(v, PlayerView):
        msg = f"expected a PlayerView, not {type(v).__name__}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "view", v, msg)
    if width is None:
        width = max(440, min(820, round(_row_width(len(v.hand))) + 2 * _MARGIN))
    parts = [_text(_MARGIN, 18, _status(v), size=15, fill="#ffffff", bold=True)]
    y = 28.0
    n = len(v.players)
    for k in range(1, n):
        seat = (v.seat + k) % n
        parts += _hidden_hand(v, seat, y)
        y += CARD_H + 26
    parts += _pile(v.top_discard, len(v.discard), v.stock_size, _MARGIN, y)
    y += CARD_H + 26
    melds, owners = _melds_of(v.table)
    body, height = _table_body(melds, v.players, owners, width, y)
    parts += body
    y += height + 4
    parts.append(_text(_MARGIN, y + 12, _seat_line(v, v.seat) + " (you)", size=13, fill="#ffffff", bold=True))
    hand = tuple(v.hand)
    step: float = STEP
    if _row_width(len(hand)) > width - 2 * _MARGIN and len(hand) > 1:
        step = (width - 2 * _MARGIN - CARD_W) / (len(hand) - 1)  # a long hand: tighter overlap
    parts += [_card_g(c, _MARGIN + i * step, y + 18) for i, c in enumerate(hand)]
    y += 18 + CARD_H + _MARGIN
    title = f"{v.players[v.seat]}'s view, round {v.round_number}"
    return _document(width, y, parts, title, _FELT)


def to_svg(value: Card | CardMultiset | Meld | PlayerView) -> str:
    """The picture of any value that has one (what ``_repr_svg_`` returns).

    Raises:
        RulesetError: ``value`` has no picture.
    """
    if isinstance(value, Card):
        return card_svg(value)
    if isinstance(value, CardMultiset):
        return cards_svg(value)
    if isinstance(value, (Run, Group)):
        return meld_svg(value)
    if isinstance(value, PlayerView):
        return view_svg(value)
    msg = f"no picture for a {type(value).__name__}"
    raise RulesetError(RulesetReason.WRONG_TYPE, "value", value, msg)
