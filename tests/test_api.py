"""The public API is exactly what DESIGN.md and the docs promise."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import attrs
import pytest

import rummylib
from rummylib import (
    REMIK,
    Discard,
    DrawStock,
    LayMeld,
    LayOff,
    NextRound,
    Open,
    SwapJoker,
    TakeDiscard,
    make_meld,
    parse_card,
    parse_cards,
)

#: The foundation: errors, cards, rules, melds, scoring, actions.
FOUNDATION = {
    "Action",
    "Card",
    "CardMultiset",
    "CardParseError",
    "CardsReason",
    "Discard",
    "DiscardRule",
    "DrawStock",
    "End",
    "Group",
    "IllegalActionError",
    "InvalidCardsError",
    "InvalidMeldError",
    "InvalidStateError",
    "JOKER",
    "LayMeld",
    "LayOff",
    "Meld",
    "MeldReason",
    "NextRound",
    "Open",
    "ParseReason",
    "REMIK",
    "RULESETS",
    "Rank",
    "RestockRule",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "RulesetReason",
    "RummyError",
    "Run",
    "STRAIGHT",
    "Scoring",
    "Standings",
    "Suit",
    "SwapJoker",
    "TakeDiscard",
    "TieRule",
    "__version__",
    "card_penalty",
    "deck",
    "format_cards",
    "format_meld",
    "get_ruleset",
    "hand_penalty",
    "is_clean_run",
    "is_game_over",
    "lay_off",
    "make_meld",
    "meld_points",
    "meld_readings",
    "parse_card",
    "parse_cards",
    "parse_meld",
    "score_round",
    "standings",
    "swap_joker",
    "validate_meld",
}

#: The names the upper layers (solver, engine, records, bots, simulation) export from ``rummylib``;
#: a name added to ``rummylib.__all__`` is added here too.
LATER_LAYERS: set[str] = {
    # game servers
    "RulesetMismatchError",
    # solver
    "Opening",
    "Partition",
    "best_opening",
    "best_partition",
    "can_open",
    "check_opening",
    "find_melds",
    # the opening check's error
    "InvalidOpeningError",
    "OpeningReason",
    "plan_go_out",
    # engine
    "GameState",
    "IllegalActionReason",
    "Phase",
    "PlayerView",
    "RoundState",
    "TableMeld",
    "TurnState",
    "apply",
    "check",
    "choose_first_dealer",
    "is_legal",
    "legal_actions",
    "new_game",
    "start_round_from",
    "view",
    # determinisation
    "sample_state",
    "sample_states",
    # records
    "GameRecord",
    "StateReason",
    "format_action",
    "from_dict",
    "from_json",
    "parse_action",
    "replay",
    "to_dict",
    "to_json",
    # bots and simulation
    "Bot",
    "GameResult",
    "GreedyBot",
    "LegalActions",
    "RandomBot",
    "SearchBot",
    "SearchBotSettings",
    "GameFailure",
    "simulate_iter",
    "SeatActions",
    "SimulationError",
    "SimulationReason",
    "SimulationResult",
    "SimulationSummary",
    "play_game",
    "simulate",
    # error kinds: action syntax, bad arguments
    "ActionParseError",
    "ArgumentError",
    "ArgumentReason",
    # the types in simulate's signature
    "BotSpec",
    "ProgressCallback",
}

#: The foundation modules and their public names (each module's ``__all__``).
FOUNDATION_MODULES = {
    "rummylib.errors": {
        "CardParseError", "CardsReason", "IllegalActionError", "InvalidCardsError", "InvalidMeldError",
        "InvalidStateError", "MeldReason", "ParseReason", "RulesetError", "RulesetReason", "RummyError",
        # reason enums the engine and records added to the errors module
        "IllegalActionReason", "StateReason",
        "ActionParseError", "ArgumentError", "ArgumentReason", "SimulationError", "SimulationReason",
        # the opening check
        "InvalidOpeningError", "OpeningReason",
        "RulesetMismatchError",  # lean views and records name rulesets by fingerprint
    },
    "rummylib.cards": {
        "JOKER", "Card", "CardMultiset", "Rank", "Suit", "deck", "format_cards", "parse_card", "parse_cards",
    },
    "rummylib.rules": {
        "REMIK", "RULESETS", "STRAIGHT", "DiscardRule", "RestockRule", "Ruleset", "Scoring", "TieRule", "get_ruleset",
    },
    "rummylib.melds": {
        "End", "Group", "Meld", "Run", "format_meld", "is_clean_run", "lay_off", "make_meld", "meld_points", "meld_readings",
        "parse_meld", "swap_joker", "validate_meld",
    },
    "rummylib.scoring": {
        "RoundResult", "Standings", "card_penalty", "hand_penalty", "is_game_over", "score_round", "standings",
    },
    "rummylib.actions": {
        "Action", "Discard", "DrawStock", "LayMeld", "LayOff", "NextRound", "Open", "SwapJoker", "TakeDiscard",
    },
}  # fmt: skip


def isort_key(name: str) -> tuple[int, str]:
    """The order ruff (RUF022) and isort keep ``__all__`` in: CONSTANTS, then Classes, then the rest."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


def _public_modules() -> list[ModuleType]:
    modules = [rummylib]
    for info in pkgutil.walk_packages(rummylib.__path__, "rummylib."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ImportError:
            if not info.name.startswith("rummylib.rl."):
                raise  # only the framework adapters may need an extra that is not installed
    return modules


def test_top_level_all_is_exactly_the_public_api() -> None:
    names = rummylib.__all__
    assert len(names) == len(set(names)), "duplicate names in rummylib.__all__"
    unknown = set(names) - FOUNDATION - LATER_LAYERS
    assert not unknown, f"add these new public names to LATER_LAYERS in tests/test_api.py: {sorted(unknown)}"
    gone = (FOUNDATION | LATER_LAYERS) - set(names)
    assert not gone, f"public names missing from rummylib.__all__: {sorted(gone)}"


def test_top_level_names_are_importable_and_public() -> None:
    for name in rummylib.__all__:
        assert hasattr(rummylib, name), name
        assert not name.startswith("_") or name == "__version__", name
    namespace: dict[str, object] = {}
    exec("from rummylib import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(rummylib.__all__)


def test_version_is_a_string() -> None:
    assert isinstance(rummylib.__version__, str)
    assert rummylib.__version__.count(".") >= 1


@pytest.mark.parametrize(("module_name", "expected"), sorted(FOUNDATION_MODULES.items()))
def test_foundation_modules_all(module_name: str, expected: set[str]) -> None:
    module = importlib.import_module(module_name)
    assert set(module.__all__) == expected
    for name in module.__all__:
        assert getattr(rummylib, name) is getattr(module, name), name


@pytest.mark.parametrize("module", _public_modules(), ids=lambda m: m.__name__)
def test_every_public_module_all_is_sorted(module: ModuleType) -> None:
    names = list(getattr(module, "__all__", []))
    assert names == sorted(names, key=isort_key), f"{module.__name__}.__all__ is not in isort (RUF022) order"
    for name in names:
        try:
            defined = hasattr(module, name)
        except ImportError:  # a lazy adapter name whose extra is not installed (rummylib.rl)
            defined = name in getattr(module, "_HOMES", {})
        assert defined, f"{module.__name__}.__all__ names {name!r}, which it does not define"


def test_every_error_is_a_rummy_error_and_a_value_error() -> None:
    errors = [getattr(rummylib, n) for n in rummylib.__all__ if n.endswith("Error")]
    assert len(errors) >= 7
    for error in errors:
        assert issubclass(error, rummylib.RummyError) or error is rummylib.RummyError
        if error is not rummylib.RummyError:
            assert issubclass(error, ValueError), error


def test_actions_are_frozen_hashable_values() -> None:
    run = make_meld(parse_cards("9S 10S JS"), REMIK)
    group = make_meld(parse_cards("8S 8H 8D"), REMIK)
    actions = [
        DrawStock(),
        TakeDiscard(),
        Open((group, run)),
        LayMeld(run),
        LayOff(0, parse_card("QS"), rummylib.End.HIGH),
        SwapJoker(1, parse_card("8C")),
        Discard(parse_card("KS")),
        NextRound(),
    ]
    assert len(set(actions)) == len(actions)
    assert Open((group, run)) == Open([run, group])  # an opening is a set of melds (R-O2)
    assert LayOff(0, parse_card("QS")).end is None
    assert DrawStock() == DrawStock() and hash(NextRound()) == hash(NextRound())
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Discard(parse_card("KS")).card = parse_card("QS")  # type: ignore[misc]
