"""Every distinct meld a multiset of cards can form."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from rummylib._card import CARDS, _natural_index
from rummylib._card import SUITS as _SUITS
from rummylib.cards import JOKER, Card, CardMultiset, Rank
from rummylib.melds import ACE_HIGH, Group, Meld, Run
from rummylib.rules import Ruleset
from rummylib.solver._results import prepare
from rummylib.solver._tables import card_index_at

__all__ = ["find_melds"]


def _runs(counts: tuple[int, ...], jokers: int, rules: Ruleset) -> Iterator[Meld]:
    top = ACE_HIGH if rules.ace_high else 13
    for s, suit in enumerate(_SUITS):
        for start in range(1, top - 1):
            # Depth-first along the positions from ``start``: each slot a natural or a joker.
            stack: list[tuple[int, tuple[Card, ...], int, bool]] = [(start, (), 0, False)]
            found: list[Meld] = []
            while stack:
                pos, cards, used, has_natural = stack.pop()
                n = len(cards)
                if n >= 3 and has_natural:
                    found.append(Run(suit, start, cards))
                if n == 13 or pos > top:
                    continue
                index = card_index_at(pos, s)
                adjacent = n > 0 and cards[-1] is JOKER and not rules.adjacent_jokers
                if used < jokers and not adjacent:
                    stack.append((pos + 1, (*cards, JOKER), used + 1, has_natural))
                if counts[index]:
                    stack.append((pos + 1, (*cards, CARDS[index]), used, True))
            found.sort(key=lambda m: (len(m.cards), [c.is_joker for c in m.cards]))
            yield from found


def _group_templates(size: int) -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """Every (suits, suit mask, joker-suit mask, joker count) of a group of ``size``, in find_melds' order."""
    out = []
    for combo in range(16):
        suits = tuple(s for s in range(4) if combo >> s & 1)
        if len(suits) != size:
            continue
        for joker_combo in range(1 << size):
            joker_mask = sum(1 << suits[k] for k in range(size) if joker_combo >> k & 1)
            out.append((suits, combo, joker_mask, (joker_mask).bit_count()))
    return tuple(out)


#: Group layouts, computed once: finding groups is a hot path of the engine's legal moves.
GROUP_TEMPLATES: Final = ((3, _group_templates(3)), (4, _group_templates(4)))


def _groups(counts: tuple[int, ...], jokers: int, rules: Ruleset) -> Iterator[Meld]:
    limits = (min(rules.group3_max_jokers, jokers), min(rules.group4_max_jokers, jokers))
    most = max(limits)
    for rank in Rank:
        r = int(rank) - 1
        present = sum(1 << s for s in range(4) if counts[_natural_index(s, r + 1)])
        if (present).bit_count() + most < 3:
            continue
        for (size, templates), limit in zip(GROUP_TEMPLATES, limits):
            for suits, mask, joker_mask, joker_count in templates:
                if joker_count > limit or joker_count == size or (mask & ~joker_mask) & ~present:
                    continue
                cards = tuple(JOKER if joker_mask >> s & 1 else CARDS[_natural_index(s, r + 1)] for s in suits)
                yield Group(rank, cards, tuple(_SUITS[s] for s in suits))


def find_melds(cards: Iterable[Card], rules: Ruleset) -> Iterator[Meld]:
    """Every distinct meld that can be formed from the multiset ``cards``.

    Runs of every length and groups, with every legal joker placement and
    declaration (R-M, J1-J3), each once: runs by suit, start, length; then
    groups by rank. The iterator is lazy (a whole deck forms very many melds).

    Raises:
        InvalidCardsError: ``cards`` is not made of cards, or holds more
            copies of a card than the ruleset's deck.
        RulesetError: ``rules`` is not a :class:`Ruleset`.

    >>> from rummylib import REMIK, parse_cards, find_melds
    >>> [str(m) for m in find_melds(parse_cards("5H 6H JK"), REMIK)]
    ['JK=4H 5H 6H', '5H 6H JK=7H']
    """
    ms, checked = prepare(cards, rules)
    return _all(ms, checked)


def _all(ms: CardMultiset, rules: Ruleset) -> Iterator[Meld]:
    counts = ms.counts
    jokers = ms.jokers if rules.jokers else 0
    yield from _runs(counts, jokers, rules)
    yield from _groups(counts, jokers, rules)
