"""OpenSpiel games ``python_remik`` and ``python_straight_rummy`` (extra ``rummylib[openspiel]``).

Importing this module registers both with :mod:`pyspiel`. They are
sequential, imperfect-information games with explicit chance: every card of
the deal is a chance outcome (a card kind, weighted by the copies left), and
so is every draw from a stock whose order nobody knows (a turned-over pile is
drawn without chance, R-D6). Player actions are
:class:`~rummylib.encoding.ActionCodec` ids, chance outcomes
:attr:`~rummylib.Card.index` values.

Parameters: ``players``, ``max_turns`` (the game ends where it stands after
that many turns; OpenSpiel needs a bounded length) and every scalar
:class:`~rummylib.Ruleset` field (enums by value, ``-1`` for ``None``). The
defaults are the preset's, except one round (``max_rounds=1``) and two
refills of the stock (``restock_limit=2``), so the game is finite.

Returns are zero-sum: each seat's total against the table's mean, over 100,
negated under penalty scoring (remik). Information-state strings are
perfect recall (every public step and the seat's own cards); observation
strings and both tensors are the seat's :class:`~rummylib.PlayerView`
(an :class:`~rummylib.encoding.ObservationEncoder` vector).

>>> import pyspiel
>>> import rummylib.rl.openspiel
>>> game = pyspiel.load_game("python_straight_rummy", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

import random
from typing import Any

import attrs

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # the extra is missing
    _msg = "rummylib.rl.openspiel needs open_spiel and numpy: pip install 'rummylib[openspiel]'"
    raise ImportError(_msg, name=exc.name) from exc

from rummylib._card import CARDS
from rummylib.actions import DrawStock
from rummylib.cards import Card, CardMultiset, deck
from rummylib.encoding import ActionCodec, ObservationEncoder
from rummylib.engine import GameState, Phase, PlayerView, apply, sample_state, start_round_from, view
from rummylib.records import format_action
from rummylib.rules import RestockRule, Ruleset, Scoring

from ._common import render_text
from ._spiel_rules import MAX_GAME_LENGTH, PRESETS, max_turns_of, parameter_specification, ruleset_from

__all__ = ["RemikGame", "RummyGame", "RummyState", "StraightRummyGame"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _game_type(short_name: str) -> pyspiel.GameType:
    preset = PRESETS[short_name]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {preset.name} rummy (rummylib)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=preset.max_players,
        min_num_players=preset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(preset),
    )


class _Config:
    """What a game's parameters make: the ruleset, the codec, the encoder, the bounds."""

    def __init__(self, short_name: str, params: dict[str, Any]) -> None:
        self.key = (short_name, tuple(sorted(params.items())))
        game_type = _game_type(short_name)
        values = {**game_type.parameter_specification, **params}
        self.rules: Ruleset = ruleset_from(PRESETS[short_name], values)
        self.players: int = int(values["players"])
        self.max_turns: int = max_turns_of(values["max_turns"])
        self.codec = ActionCodec(self.rules, self.players)
        self.encoder = ObservationEncoder(self.rules, self.players)
        hand = self.rules.hand_size(self.players) + 1
        per_turn = 4 + 2 * (hand + self.rules.jokers)
        deal = self.players * hand + 2
        rounds = self.rules.max_rounds or 1
        bound = float(self.encoder.field("seats").high) / 100.0
        length = rounds * deal + self.max_turns * per_turn
        if length > MAX_GAME_LENGTH:
            msg = f"the game could last {length} actions, more than OpenSpiel counts: lower max_rounds or max_turns"
            raise ValueError(msg)
        self.info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=53,
            num_players=self.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length,
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self  # immutable and shared by every state of the game (a clone copies states)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_config_for, self.key)


_CONFIGS: dict[tuple[str, tuple[tuple[str, Any], ...]], _Config] = {}


def _config_for(short_name: str, params: tuple[tuple[str, Any], ...]) -> _Config:
    key = (short_name, params)
    if key not in _CONFIGS:
        _CONFIGS[key] = _Config(short_name, dict(params))
    return _CONFIGS[key]


def _config(game: Any) -> _Config:
    # OpenSpiel may hand a state a re-created game object: the configuration is found by its parameters.
    return _config_for(game.get_type().short_name, tuple(sorted(dict(game.get_parameters()).items())))


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """A rummylib ruleset as an OpenSpiel game (see the module docs)."""

    def __init__(self, params: dict[str, Any] | None = None, *, short_name: str = "python_remik") -> None:
        config = _Config(short_name, params or {})
        super().__init__(_game_type(short_name), config.info, params or {})
        self.rules = config.rules

    def new_initial_state(self) -> RummyState:
        """The state before the first card is dealt."""
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RummyObserver:
        """The observer OpenSpiel uses for strings and tensors."""
        if params:
            msg = f"observation parameters are not supported: {params!r}"
            raise ValueError(msg)
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return RummyObserver(_config(self), perfect_recall=perfect)


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: dealing, drawing (chance) or a seat to act."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self._g = _config(game)
        self.engine: GameState | None = None  # None while the first deal is on
        self._dealt: list[list[Card]] = [[] for _ in range(self._g.players)]
        self._upcard: Card | None = None
        self._dealer = 0
        self._draw_pool: tuple[Card, ...] | None = None  # a pending stock draw (chance)
        self._stock_known = False
        self._turns = 0
        self._over = False
        #: The perfect-recall log, as pairs of the seat that may see an entry (``None`` for everyone) and its text.
        self.log: list[tuple[int | None, str]] = []
        self._start_deal(0, None)

    # --- the deal --------------------------------------------------------------------------------

    def _start_deal(self, dealer: int, previous: GameState | None) -> None:
        self._dealer = dealer
        self._previous = previous
        self._dealt = [[] for _ in range(self._g.players)]
        self._upcard = None
        self._deal_left = CardMultiset(deck(self._g.rules))
        self._stock_known = False
        self.engine = None
        self.log.append((None, f"deal, dealer P{dealer}"))

    def _deal_target(self) -> int | None:
        """The seat the next dealt card goes to, or -1 for the upcard (R-D5), or None when done."""
        rules, n = self._g.rules, self._g.players
        size = rules.hand_size(n)
        dealt = sum(len(h) for h in self._dealt)
        if dealt < n * size:
            return (self._dealer + 1 + dealt) % n  # one at a time from the dealer's left (R-P2)
        if rules.dealer_extra_card and dealt == n * size:
            return self._dealer
        if rules.upcard and self._upcard is None:
            return -1
        return None

    def _deal(self, card: Card) -> None:
        target = self._deal_target()
        assert target is not None
        self._deal_left = self._deal_left - CardMultiset([card])
        if target == -1:
            self._upcard = card
            self.log.append((None, f"upcard {card}"))
        else:
            self._dealt[target].append(card)
            self.log.append((target, f"dealt {card}"))
        if self._deal_target() is None:
            self._begin_round()

    def _begin_round(self) -> None:
        rules, prev = self._g.rules, self._previous
        pile = () if self._upcard is None else (self._upcard,)
        fresh = start_round_from(
            rules, self._dealt, discard=pile, dealer=self._dealer, totals=None if prev is None else prev.totals
        )
        if prev is not None:
            fresh = attrs.evolve(prev, dealer=self._dealer, round_number=prev.round_number + 1, round=fresh.round)
        self.engine = fresh

    # --- OpenSpiel API ---------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE or TERMINAL."""
        if self._over:
            return _TERMINAL
        if self.engine is None or self._draw_pool is not None:
            return _CHANCE
        return self.engine.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player == self.engine.to_act
        return sorted(self._g.codec.legal_ids(self.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Card kinds and their probabilities: the copies left in the deck or the unknown stock."""
        pool = CardMultiset(self._draw_pool) if self._draw_pool is not None else self._deal_left
        total = len(pool)
        return [(i, n / total) for i, n in enumerate(pool.counts) if n]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self._deal(CARDS[action])
        elif self._draw_pool is not None:
            self._draw(CARDS[action])
        else:
            self._play(action)

    def _play(self, action_id: int) -> None:
        assert self.engine is not None
        state = self.engine
        action = self._g.codec.decode(action_id)
        seat = state.to_act
        self.log.append((None, f"P{seat} {format_action(action)}"))
        if isinstance(action, DrawStock):
            self._draw_stock(state)
            return
        self._after(apply(state, action), seat)

    def _draw_stock(self, state: GameState) -> None:
        r, rules = state.round, state.rules
        if r.stock and not self._stock_known:
            self._draw_pool = r.stock
            return
        if not r.stock:
            capped = rules.restock_limit is not None and r.restocks >= rules.restock_limit
            if rules.restock_rule is RestockRule.RESHUFFLE_KEEP_TOP and not capped and len(r.discard) > 1:
                self._draw_pool = r.discard[:-1]  # R-D4: the reshuffled pile, order unknown
                return
            self._stock_known = rules.restock_rule is RestockRule.TURN_OVER  # R-D6: turned over, in order
        self._after(apply(state, DrawStock()), state.to_act)

    def _draw(self, card: Card) -> None:
        assert self.engine is not None and self._draw_pool is not None
        state, pool = self.engine, list(self._draw_pool)
        r = state.round
        pool.remove(card)
        if r.stock:
            new_round = attrs.evolve(r, stock=(card, *pool))
        else:  # R-D4: the pile but its top becomes the stock
            new_round = attrs.evolve(r, stock=(card, *pool), discard=r.discard[-1:], restocks=r.restocks + 1)
        self._draw_pool = None
        seat = state.to_act
        self.log.append((seat, f"drew {card}"))
        self._after(apply(attrs.evolve(state, round=new_round), DrawStock()), seat)

    def _after(self, state: GameState, seat: int) -> None:
        self.engine = state
        if state.to_act != seat or state.phase is not Phase.PLAY:
            self._turns += 1
        if state.is_over or self._turns >= self._g.max_turns:
            self._over = True
        elif state.phase is Phase.ROUND_OVER:
            self._start_deal((state.dealer + 1) % self._g.players, state)  # R-P4

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"card {CARDS[action]}"
        return format_action(self._g.codec.decode(action))

    def is_terminal(self) -> bool:
        """Whether the game has ended (over by the rules, or at ``max_turns``)."""
        return self._over

    def returns(self) -> list[float]:
        """Zero-sum returns from the running totals (0 until the game ends)."""
        n = self._g.players
        if not self._over or self.engine is None:
            return [0.0] * n
        totals = self.engine.totals
        mean = sum(totals) / n
        sign = -1.0 if self._g.rules.scoring is Scoring.PENALTY else 1.0
        return [sign * (t - mean) / 100.0 for t in totals]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state the seat cannot tell from this one (:func:`~rummylib.sample_state` of its view).

        The cards the seat has not seen are dealt again uniformly at random
        to the other hands, beyond their publicly known cards, and to the
        stock above its public part (R-H1, D4, D6); a pending stock draw
        draws from the new stock.
        """
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else random.getrandbits(53)
        clone: RummyState = self.clone()
        engine = self.engine
        if engine is not None and engine.phase in (Phase.DRAW, Phase.PLAY):
            clone.engine = sample_state(view(engine, player_id), seed)
            if self._draw_pool is not None and self._draw_pool == engine.round.stock:
                clone._draw_pool = clone.engine.round.stock
        return clone

    def seat_view(self, player: int) -> PlayerView | None:
        """What ``player`` may see now (``None`` during a deal)."""
        return None if self.engine is None else view(self.engine, player)

    def dealt_to(self, player: int) -> list[Card]:
        """The cards dealt so far to ``player`` in a deal in progress."""
        return list(self._dealt[player])

    def __str__(self) -> str:
        if self.engine is None:
            return "dealing: " + " | ".join(" ".join(map(str, h)) for h in self._dealt)
        return render_text(self.engine)


class RummyObserver:
    """Strings and tensors for one seat (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: _Config, *, perfect_recall: bool) -> None:
        self._enc = game.encoder
        self._perfect = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {f.name: self.tensor[f.offset : f.offset + f.length] for f in game.encoder.fields}

    def set_from(self, state: RummyState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        v = state.seat_view(player)
        if v is None:
            self.tensor.fill(0)
            hand = self.dict["hand"]
            for card in state.dealt_to(player):
                hand[card.index] += 1
            return
        self.tensor[:] = np.fromiter(self._enc.encode(v), dtype=np.float32, count=self._enc.size)

    def string_from(self, state: RummyState, player: int) -> str:
        """The perfect-recall log (information state) or the view (observation) as text."""
        if self._perfect:
            seen = [text for who, text in state.log if who is None or who == player]
            return f"P{player}\n" + "\n".join(seen)
        v = state.seat_view(player)
        if v is None:
            return f"P{player} dealing: " + " ".join(map(str, state.dealt_to(player)))
        return _view_text(v)


def _view_text(v: PlayerView) -> str:
    table = "; ".join(f"{tm.meld}" for tm in v.table)
    top = v.discard[-1] if v.discard else "-"
    return (
        f"P{v.seat} {v.phase.value} to act P{v.to_act} round {v.round_number} hand {v.hand} | sizes {list(v.hand_sizes)}"
        f" opened {[int(o) for o in v.opened]} totals {list(v.totals)} | table {table} | pile {len(v.discard)} top {top}"
        f" stock {v.stock_size} | turn {v.turn}"
    )


class RemikGame(RummyGame):
    """``python_remik``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, short_name="python_remik")


class StraightRummyGame(RummyGame):
    """``python_straight_rummy``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, short_name="python_straight_rummy")


# Registered as classes, as OpenSpiel's own Python games are.
pyspiel.register_game(_game_type("python_remik"), RemikGame)
pyspiel.register_game(_game_type("python_straight_rummy"), StraightRummyGame)
