"""Dealing: new games, new rounds, rounds from given cards, the first dealer (R-P1..P5, D3, D5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from rummylib._card import as_cards
from rummylib.cards import Card, CardMultiset, as_multiset, check_in_deck, deck
from rummylib.engine._invariants import MAX_TOTAL, check_state
from rummylib.engine._rng import Seed, fresh_seed, is_text, shuffled, validate_seed
from rummylib.engine._state import GameState, Phase, RoundState, TableMeld
from rummylib.errors import (
    ArgumentError,
    ArgumentReason,
    CardsReason,
    InvalidCardsError,
    InvalidMeldError,
    MeldReason,
    shorten,
)
from rummylib.melds import Group, Meld, Run, validate_meld
from rummylib.rules import Ruleset, _check_rules

from .._guards import is_collection_of_items, is_instance, is_int_in

__all__ = ["MAX_NAME_CHARS", "check_names", "choose_first_dealer", "new_game", "start_round_from"]

#: Longest player name (a document's strings are bounded the same way).
MAX_NAME_CHARS: Final = 4096


def check_names(rules: Ruleset, players: object) -> tuple[str, ...]:
    """Player names, or a count naming them ``P0``...: bounded and checked before any work (R-P1..P3).

    Raises:
        ArgumentError: not a count or a sequence of names, or a name that is
            too long or not valid Unicode.
        RulesetError: a count the ruleset does not seat.
    """
    if isinstance(players, bool):
        rules.hand_size(0)
    if isinstance(players, int):
        rules.hand_size(players)  # raises for a count the ruleset does not allow, before naming seats
        return tuple(f"P{i}" for i in range(players))
    if not isinstance(players, Sequence) or isinstance(players, (str, bytes)):
        msg = f"players must be a count or a sequence of names, not {shorten(players)}"
        raise ArgumentError(ArgumentReason.WRONG_TYPE, "players", players, msg)
    rules.hand_size(len(players))  # R-P2, P3
    names = tuple(players)
    for name in names:
        if not isinstance(name, str):
            msg = f"player names must be strings, got {shorten(name)}"
            raise ArgumentError(ArgumentReason.WRONG_TYPE, "players", players, msg)
        if len(name) > MAX_NAME_CHARS or not is_text(name):
            msg = f"a player name is at most {MAX_NAME_CHARS} characters of valid Unicode, not {shorten(name)}"
            raise ArgumentError(ArgumentReason.BAD_VALUE, "players", players, msg)
    return names


def _check_seat(value: object, n: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        msg = f"{field} must be a seat 0..{n - 1}"
        raise ArgumentError(ArgumentReason.BAD_VALUE, field, value, msg)
    return value


def _first_to_act(rules: Ruleset, dealer: int, n: int) -> int:
    return dealer if rules.dealer_plays_first else (dealer + 1) % n


def _first_phase(rules: Ruleset, dealer: int, to_act: int) -> Phase:
    # R-T1: the remik dealer holds 14 cards and plays first without drawing.
    return Phase.PLAY if rules.dealer_extra_card and to_act == dealer else Phase.DRAW


def deal_round(rules: Ruleset, n: int, dealer: int, seed: Seed, round_number: int) -> RoundState:
    """Shuffle with the seed's ``("deal", round_number)`` stream and deal (R-P2, P3, D3, D5).

    Cards go one at a time clockwise from the dealer's left; the dealer's
    extra card (R-P2) comes next, then the upcard (R-D5); the rest is the
    stock, its first card on top.
    """
    cards = shuffled(tuple(deck(rules)), seed, "deal", round_number)
    size = rules.hand_size(n)
    dealt: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for i in range(n * size):
        dealt[(dealer + 1 + i) % n].append(cards[pos])
        pos += 1
    if rules.dealer_extra_card:
        dealt[dealer].append(cards[pos])
        pos += 1
    discard: tuple[Card, ...] = ()
    if rules.upcard:
        discard = (cards[pos],)
        pos += 1
    to_act = _first_to_act(rules, dealer, n)
    return RoundState(
        hands=tuple(CardMultiset(h) for h in dealt),
        stock=cards[pos:],
        discard=discard,
        table=(),
        opened=(rules.opens_at_start,) * n,
        has_laid=(False,) * n,
        to_act=to_act,
        phase=_first_phase(rules, dealer, to_act),
    )


def new_game(rules: Ruleset, players: int | Sequence[str], *, seed: Seed | None = None, dealer: int = 0) -> GameState:
    """Start a game and deal its first round.

    Args:
        rules: the ruleset.
        players: the number of seats, or the players' names in seat order.
        seed: an ``int`` or ``str`` fixing every shuffle of the game; ``None``
            draws 128 bits from :mod:`secrets`.
        dealer: the first dealer (see :func:`choose_first_dealer` for R-P5).

    Raises:
        ArgumentError: the names or the dealer are not valid.
        RulesetError: the ruleset, the player count or the seed is not valid.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.REMIK, 4, seed=2026)
    >>> s.to_act, s.phase.value, [len(h) for h in s.round.hands]
    (0, 'play', [14, 13, 13, 13])
    >>> t = rl.new_game(rl.STRAIGHT, 2, seed=2026, dealer=1)
    >>> t.to_act, t.phase.value, len(t.round.discard), len(t.round.stock)
    (0, 'draw', 1, 31)
    """
    rules = _check_rules(rules)
    names = check_names(rules, players)
    n = len(names)
    dealer = _check_seat(dealer, n, "dealer")
    seed = fresh_seed() if seed is None else validate_seed(seed)
    return GameState(
        rules=rules,
        players=names,
        seed=seed,
        dealer=dealer,
        round_number=1,
        totals=(0,) * n,
        round=deal_round(rules, n, dealer, seed, 1),
    )


def _table_meld(item: object, rules: Ruleset, n: int) -> TableMeld:
    if isinstance(item, TableMeld):
        tm = item
    elif isinstance(item, (Run, Group)):
        tm = TableMeld(item)
    else:
        msg = f"table melds must be Meld or TableMeld values, not {item!r}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, item, msg)
    if not isinstance(tm.meld, (Run, Group)):
        msg = f"table melds must be Meld or TableMeld values, not {tm.meld!r}"
        raise InvalidMeldError(MeldReason.WRONG_TYPE, tm.meld, msg)
    validate_meld(tm.meld, rules)
    if tm.owner is not None:
        _check_seat(tm.owner, n, "table meld owner")
    return tm


def start_round_from(
    rules: Ruleset,
    hands: Sequence[Iterable[Card]],
    *,
    stock: Iterable[Card] = (),
    discard: Iterable[Card] = (),
    table: Iterable[Meld | TableMeld] = (),
    opened: Sequence[bool] | None = None,
    dealer: int = 0,
    to_act: int | None = None,
    phase: Phase | None = None,
    totals: Sequence[int] | None = None,
    players: Sequence[str] | None = None,
    seed: Seed = 0,
    fill_stock: bool = True,
) -> GameState:
    """A game whose current round starts from the cards given (for tests and puzzles).

    Args:
        rules: the ruleset.
        hands: each seat's hand (any iterables of cards).
        stock: the top of the stock, in drawing order (``stock[0]`` is drawn first).
        discard: the discard pile, bottom first (its last card is the top).
        table: melds already on the table (``Meld`` or ``TableMeld`` with an owner).
        opened: who has opened; default: nobody (everybody without an opening rule).
        dealer: the dealer; ``to_act`` defaults to who plays first after this deal.
        phase: ``Phase.DRAW`` or ``Phase.PLAY``; default as after a real deal (R-T1).
        totals: running totals so far (default zeros).
        players: seat names (default ``P0``, ``P1``, ...).
        seed: seed for the filler stock and for later reshuffles.
        fill_stock: put every card of the deck not given anywhere under the
            given stock, shuffled by ``seed`` (so R-C3 holds for the whole
            deck); with ``False`` the cards given must be the whole deck
            already (to set up an empty stock, put the rest on the table).

    Raises:
        InvalidCardsError: the cards given hold more copies than the deck has.
        InvalidMeldError: a table meld is not valid under the rules.
        ArgumentError: a bad seat, name, phase, flags or totals.
        RulesetError: a bad player count or seed.
        InvalidStateError: the round breaks an invariant the loader checks
            (docs/explanation/saved-states.rst), so no legal play reaches it:
            an empty hand or one larger than the deal gives, an opened seat
            owning no table meld, totals that end the game, ... (reason
            ``INCONSISTENT``); with ``fill_stock=False``, cards of the deck
            missing (``CARDS_NOT_CONSERVED``).

    >>> import rummylib as rl
    >>> s = rl.start_round_from(rl.STRAIGHT, [rl.parse_cards("2H 3H 4H 9C"), rl.parse_cards("KS QS")],
    ...                         stock=rl.parse_cards("5H"), discard=rl.parse_cards("7D"))
    >>> s.to_act, s.round.stock[0], len(s.round.stock)
    (1, Card('5H'), 45)
    """
    rules = _check_rules(rules)
    hand_sets, names = _seats(rules, hands, players)
    n = len(hand_sets)
    seed = validate_seed(seed)
    stock_cards = as_cards(stock, "stock")
    pile = as_cards(discard, "discard")
    melds = tuple(_table_meld(m, rules, n) for m in table)
    dealer = _check_seat(dealer, n, "dealer")
    rest = _rest_of_deck(rules, hand_sets, stock_cards, pile, melds)
    if fill_stock:
        stock_cards = stock_cards + shuffled(tuple(rest), seed, "fill")
    first = _first_to_act(rules, dealer, n) if to_act is None else _check_seat(to_act, n, "to_act")
    phase = _start_phase(rules, dealer, first, phase)
    opened_t = _flags(opened, n, rules)
    totals_t = _totals(totals, n)
    laid = tuple((o and not rules.opens_at_start) or any(tm.owner == i for tm in melds) for i, o in enumerate(opened_t))
    round_state = RoundState(
        hands=hand_sets,
        stock=stock_cards,
        discard=pile,
        table=melds,
        opened=opened_t,
        has_laid=laid,
        to_act=first,
        phase=phase,
    )
    state = GameState(
        rules=rules, players=names, seed=seed, dealer=dealer, round_number=1, totals=totals_t, round=round_state
    )
    check_state(state)  # refuse what the loader refuses (saved-states.rst)
    return state


def _seats(
    rules: Ruleset, hands: Sequence[Iterable[Card]], players: Sequence[str] | None
) -> tuple[tuple[CardMultiset, ...], tuple[str, ...]]:
    """The hands given, one per seat, and the seats' names."""
    if not is_collection_of_items(hands) or not is_instance(hands, Sequence):
        msg = f"hands must be a sequence of hands, one per seat, not {hands!r}"
        raise InvalidCardsError(CardsReason.WRONG_TYPE, hands, msg)
    n = len(hands)
    names = check_names(rules, n if players is None else players)
    if len(names) != n:
        msg = f"{len(names)} player names for {n} hands"
        raise ArgumentError(ArgumentReason.INCONSISTENT, "players", players, msg)
    return tuple(as_multiset(h, f"hand {i}") for i, h in enumerate(hands)), names


def _rest_of_deck(
    rules: Ruleset,
    hands: tuple[CardMultiset, ...],
    stock: tuple[Card, ...],
    pile: tuple[Card, ...],
    melds: tuple[TableMeld, ...],
) -> CardMultiset:
    """The cards of the deck not given anywhere (R-C3); the cards given must fit in the deck."""
    used = CardMultiset(stock) + CardMultiset(pile)
    for h in hands:
        used = used + h
    for tm in melds:
        used = used + CardMultiset(tm.meld.cards)
    check_in_deck(used, rules, "the cards given")
    return deck(rules) - used


def _start_phase(rules: Ruleset, dealer: int, first: int, phase: Phase | None) -> Phase:
    """The phase the round starts in: as after a real deal (R-T1), or the one given (draw or play)."""
    if phase is None:
        return _first_phase(rules, dealer, first)
    if phase not in (Phase.DRAW, Phase.PLAY):
        msg = "a round starts in Phase.DRAW or Phase.PLAY"
        raise ArgumentError(ArgumentReason.BAD_VALUE, "phase", phase, msg)
    return phase


def _totals(totals: Sequence[int] | None, n: int) -> tuple[int, ...]:
    """The running totals given (zeros by default), each within bounds."""
    totals_t = (0,) * n if totals is None else _seat_values(totals, n, "totals")
    if not all(is_int_in(t, 0, MAX_TOTAL) for t in totals_t):
        raise ArgumentError(ArgumentReason.BAD_VALUE, "totals", totals, f"needs {n} integers 0..{MAX_TOTAL}")
    return totals_t


def _seat_values(values: object, n: int, field: str) -> tuple[Any, ...]:
    """One value per seat from a sequence, bounded before it is read."""
    if not isinstance(values, Sequence) or isinstance(values, (str, bytes)) or len(values) != n:
        raise ArgumentError(ArgumentReason.BAD_VALUE, field, values, f"needs a sequence of {n} values, one per seat")
    return tuple(values)


def _flags(opened: object, n: int, rules: Ruleset) -> tuple[bool, ...]:
    if opened is None:
        return (rules.opens_at_start,) * n
    flags = _seat_values(opened, n, "opened")
    if not all(isinstance(o, bool) for o in flags):
        raise ArgumentError(ArgumentReason.WRONG_TYPE, "opened", opened, f"needs {n} bools")
    return tuple(bool(o) or rules.opens_at_start for o in flags)


def _draw_rank(card: Card) -> int:
    # R-P5: joker highest, then ace, king ... two.
    if card.rank is None:
        return 15
    return 14 if int(card.rank) == 1 else int(card.rank)


def choose_first_dealer(rules: Ruleset, players: int, *, seed: Seed | None = None) -> int:
    """Draw for the first deal (R-P5): highest card deals; joker, then ace, king ... two.

    Suits do not rank; players tied for highest draw again (from the same
    shuffled deck, reshuffled with a new stream if it runs out).

    Raises:
        ArgumentError: ``players`` is not a count or a sequence of names.
        RulesetError: ``rules`` is not a :class:`~rummylib.Ruleset`, the
            ruleset does not seat that many players, or ``seed`` is of the
            wrong type or out of range.

    >>> import rummylib as rl
    >>> rl.choose_first_dealer(rl.REMIK, 4, seed=1) == rl.choose_first_dealer(rl.REMIK, 4, seed=1)
    True
    """
    rules = _check_rules(rules)
    n = len(check_names(rules, players))
    seed = fresh_seed() if seed is None else validate_seed(seed)
    contenders = list(range(n))
    pack: list[Card] = []
    shuffles = 0
    while True:
        draws: dict[int, int] = {}
        for seat in contenders:
            if not pack:
                pack = list(shuffled(tuple(deck(rules)), seed, "dealer", shuffles))
                shuffles += 1
            draws[seat] = _draw_rank(pack.pop(0))
        best = max(draws.values())
        contenders = [s for s in contenders if draws[s] == best]
        if len(contenders) == 1:
            return contenders[0]
