"""Small inputs searched in one window give exactly the answers of the aspiration windows.

``SearchSettings.window_from``: below it the plain search asks one window
against its floor. The answer is the same value and the same melds (the
search's tie rule does not depend on its bounds), checked here against the
windowed search (``window_from=0``) on dealt hands and on dense ones.
"""

from __future__ import annotations

import attrs
from _budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import REMIK, STRAIGHT, CardMultiset, Ruleset
from rummylib._card import CARDS
from rummylib.cards import JOKER
from rummylib.solver._opening import search_opening
from rummylib.solver._partition import search_partition
from rummylib.solver._settings import DEFAULT_SETTINGS

WINDOWED = attrs.evolve(DEFAULT_SETTINGS, window_from=0)
#: The general search only (the bitmask path of small hands off), so hands without jokers are searched too.
GENERAL = attrs.evolve(DEFAULT_SETTINGS, small_max=0)
GENERAL_WINDOWED = attrs.evolve(WINDOWED, small_max=0)
FREE_ACE_REMIK = attrs.evolve(REMIK, name="free-ace-remik", ace_penalty=0)  # many ties
RULESETS = [REMIK, STRAIGHT, FREE_ACE_REMIK]
SETTINGS = settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def dealt(draw: st.DrawFn) -> tuple[Ruleset, CardMultiset]:
    """Up to 23 cards dealt from the deck (jokers included), or from a few suits and ranks (many melds)."""
    rules = draw(st.sampled_from(RULESETS))
    if draw(st.booleans()):
        size = 52 * rules.decks + rules.jokers
        picked = draw(st.lists(st.integers(0, size - 1), max_size=23, unique=True))
        return rules, CardMultiset(CARDS[i % 52] if i < 52 * rules.decks else JOKER for i in picked)
    low = draw(st.integers(0, 8))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    pool = [CARDS[s * 13 + r] for s in suits for r in range(low, low + 5) for _ in range(rules.decks)]
    pool += [JOKER] * rules.jokers
    picked = draw(st.lists(st.integers(0, len(pool) - 1), max_size=23, unique=True))
    return rules, CardMultiset(pool[i] for i in picked)


@SETTINGS
@given(dealt())
def test_one_window_partitions_as_the_windows_do(case: tuple[Ruleset, CardMultiset]) -> None:
    # R-V: the least deadwood, and the same melds and leftover.
    rules, hand = case
    assert search_partition(hand, rules, GENERAL) == search_partition(hand, rules, GENERAL_WINDOWED)


@SETTINGS
@given(dealt(), st.sampled_from([None, 0]))
def test_one_window_opens_as_the_windows_do(case: tuple[Ruleset, CardMultiset], keep: int | None) -> None:
    # R-O2, O3, T3: the same best opening (melds, points, leftover), or none.
    rules, hand = case
    assert search_opening(hand, rules, DEFAULT_SETTINGS, keep=keep) == search_opening(hand, rules, WINDOWED, keep=keep)
