"""SearchBot: perfect-information Monte Carlo over determinisations (re-exported by :mod:`rummylib.bots`).

At each decision that matters (the draw, and the discard when
:class:`~rummylib.GreedyBot` would discard) the bot samples states
consistent with its view (:func:`~rummylib.sample_states`, R-H1), plays each
candidate in every sample (common samples for all candidates) with greedy
rollouts until it has ended ``horizon`` more turns of its own, and scores
the position reached: the round's real result if it ended, else the chance
of going out first (a logistic in how many cards each side is from going
out: deadwood cards, half for a card that is half of a meld, and for an
unopened remik hand what its opening still lacks) against what each side
would pay (its whole hand, R-S1, S3). Samples come in batches; after each,
candidates surely worse than the greedy choice are dropped. A candidate
replaces the greedy choice only when its sample-by-sample lead over it
exceeds ``margin`` standard errors. With ``belief_steps`` each sample is
first brought to agree with the top discard (:mod:`rummylib._search_belief`):
its thrower, had it discarded its costliest deadwood, would have thrown that
card. With ``hold`` (the default), a turn where GreedyBot would lay the
bot's first cards of the round without going out is searched too: lay them
(GreedyBot's move) or hold them back and discard, keeping the chance of
going out in one turn, which doubles (R-E2, E4). Every other decision
(melds, lay-offs, going out) is GreedyBot's. ``win_weight`` adds points for
winning the round to every value searched (0 by default).
:class:`SearchBotSettings` holds every knob.

The rollout bots are imported lazily from :mod:`rummylib.bots`, which
imports this module for the re-export.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from rummylib.actions import Action, Discard, DrawStock, LayMeld, LayOff, Open, TakeDiscard
from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState, Phase, PlayerView, apply, sample_states, view
from rummylib.errors import SimulationError, SimulationReason
from rummylib.melds import is_clean_run, meld_points
from rummylib.rules import Ruleset, Scoring
from rummylib.scoring import card_penalty, hand_penalty
from rummylib.solver import Partition, best_partition

from ._guards import check_seed_int, is_instance, is_int_in
from ._search_belief import agree, thrower

if TYPE_CHECKING:
    from rummylib.bots import GreedyBot

__all__ = ["SearchBot", "SearchBotSettings"]

#: Most samples, candidates or horizon a bot may be configured with (a bound on its work).
MAX_SAMPLES: Final = 1000
#: Most actions one rollout plays before it is scored where it stands.
_ROLLOUT_CAP: Final = 120
_PARTITION_MEMO: Final = 4096
#: Cards from going out that make going out first about e times likelier (the logistic's scale).
_RACE_SCALE: Final = 1.0
#: What a deadwood card counts for, in cards from going out, when it is half of a meld in the making.
_PARTIAL: Final = 0.5
#: Missing opening points that count as one card from going out (R-O2), and a missing clean run.
_POINTS_PER_CARD: Final = 8.0
_NO_CLEAN_RUN: Final = 2.0
#: The share of its penalty a deadwood card counts for, when ranking discards, if it is half of a meld.
_PARTIAL_WEIGHT: Final = 0.6


def _positive(name: str, top: int) -> Callable[[object, attrs.Attribute[int], int], None]:
    def check(_self: object, _attr: attrs.Attribute[int], value: int) -> None:
        if not is_int_in(value, 1, top):
            msg = f"SearchBotSettings {name} must be an int 1..{top}, not {value!r}"
            raise _bad_argument(value, msg)

    return check


def _check_belief(_self: object, _attr: attrs.Attribute[int], value: int) -> None:
    if not is_int_in(value, 0, MAX_SAMPLES):
        raise _bad_argument(value, f"SearchBotSettings belief_steps must be an int 0..{MAX_SAMPLES}, not {value!r}")


def _check_margin(_self: object, _attr: attrs.Attribute[float], value: float) -> None:
    if is_instance(value, bool) or not is_instance(value, (int, float)) or not 0 <= value <= 10:
        raise _bad_argument(value, f"SearchBotSettings margin must be a number 0..10, not {value!r}")


def _check_limit(_self: object, _attr: attrs.Attribute[float | None], value: float | None) -> None:
    if value is None:
        return
    if is_instance(value, bool) or not is_instance(value, (int, float)) or not 0 < value < 3600:
        raise _bad_argument(value, f"SearchBotSettings time_limit must be seconds in (0, 3600) or None, not {value!r}")


def _check_win_weight(_self: object, _attr: attrs.Attribute[float], value: float) -> None:
    if is_instance(value, bool) or not is_instance(value, (int, float)) or not 0 <= value <= 1000:
        raise _bad_argument(value, f"SearchBotSettings win_weight must be points 0..1000, not {value!r}")


def _check_hold(_self: object, _attr: attrs.Attribute[bool], value: bool) -> None:
    if not is_instance(value, bool):
        raise _bad_argument(value, f"SearchBotSettings hold must be a bool, not {value!r}")


def _bad_argument(value: object, msg: str) -> Exception:
    return SimulationError(SimulationReason.BAD_ARGUMENT, value, msg)


@attrs.frozen
class SearchBotSettings:
    """How hard a :class:`SearchBot` searches: one value, passed explicitly.

    Attributes:
        samples: most determinisations per searched decision (the iteration budget).
        batch: samples played between two prunings: after each batch a
            candidate that is surely worse than the greedy choice (by
            ``margin`` standard errors) is dropped, and the search stops
            once only the greedy choice is left.
        candidates: discards searched (the greedy discard and the next best).
        horizon: the bot's own turns a rollout plays past the decision before
            the position is scored.
        margin: standard errors by which a candidate must beat the greedy
            choice to replace it (and trail it to be dropped).
        belief_steps: most swaps that bring a sample to agree with the top
            discard (its thrower's costliest deadwood, see
            :mod:`rummylib._search_belief`); 0 (default) keeps the samples
            uniform: 8 predicts GreedyBot's hand better but did not win
            more rounds against it (docs/explanation/search-bot.rst).
        time_limit: seconds per decision; when set the bot stops sampling
            once it is spent (after at least one batch), so play then depends
            on the machine's speed. ``None`` (default): the budget is exact.
        hold: on a turn where GreedyBot would lay the bot's first cards of
            the round (a remik opening, R-O2) without going out, also search
            holding them back and discarding instead (R-E2, E4: going out in
            one turn doubles). ``True`` (default).
        win_weight: points added to a searched value for winning the round
            and taken for losing it (at the horizon: times the chance of
            going out first less the chance of not); 0 (default) values only
            the score.

    Raises:
        SimulationError: a field is out of range (reason ``BAD_ARGUMENT``).

    >>> SearchBotSettings(samples=16).batch
    8
    """

    samples: int = attrs.field(default=48, validator=_positive("samples", MAX_SAMPLES))
    batch: int = attrs.field(default=8, validator=_positive("batch", MAX_SAMPLES))
    candidates: int = attrs.field(default=4, validator=_positive("candidates", MAX_SAMPLES))
    horizon: int = attrs.field(default=1, validator=_positive("horizon", MAX_SAMPLES))
    margin: float = attrs.field(default=1.0, validator=_check_margin)
    belief_steps: int = attrs.field(default=0, validator=_check_belief)
    time_limit: float | None = attrs.field(default=None, validator=_check_limit)
    hold: bool = attrs.field(default=True, validator=_check_hold)
    win_weight: float = attrs.field(default=0.0, validator=_check_win_weight)


class SearchBot:
    """A determinised search player (PIMC) built on GreedyBot rollouts.

    Args:
        seed: seeds the bot's own stream of sample seeds (BLAKE2b/SplitMix64,
            the same on every platform).
        settings: the search budget and its knobs (default
            ``SearchBotSettings()``).

    Raises:
        SimulationError: ``seed`` is not an int, or ``settings`` is not a
            :class:`SearchBotSettings`.

    The same seed and settings give the same choices (with ``time_limit=None``).
    The bot pickles (its caches are dropped), so :func:`~rummylib.simulate`
    can run it on a process pool; ``"search"`` names it there and in the CLI.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=7)
    >>> bot = rl.SearchBot(seed=1, settings=rl.SearchBotSettings(samples=2))
    >>> rl.is_legal(s, bot.choose(rl.view(s, s.to_act), rl.LegalActions(s)))
    True
    """

    __slots__ = ("_greedy", "_memo", "_rng", "_rollout", "seed", "settings")

    def __init__(self, seed: int = 0, *, settings: SearchBotSettings | None = None) -> None:
        from rummylib.bots import _SplitMix64

        check_seed_int(seed, "SearchBot seed")
        if settings is None:
            settings = SearchBotSettings()
        elif not is_instance(settings, SearchBotSettings):
            raise _bad_argument(settings, f"SearchBot settings must be a SearchBotSettings, not {settings!r}")
        self.seed = seed
        self.settings = settings
        self._rng = _SplitMix64(seed)
        self._reset()

    def _reset(self) -> None:
        from rummylib.bots import GreedyBot

        self._greedy = GreedyBot()
        self._rollout: list[GreedyBot] = []
        self._memo: dict[tuple[CardMultiset, Ruleset], Partition] = {}

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed}, settings={self.settings!r})"

    def __getstate__(self) -> tuple[int, SearchBotSettings, int]:
        return (self.seed, self.settings, self._rng.state)

    def __setstate__(self, state: tuple[int, SearchBotSettings, int]) -> None:
        from rummylib.bots import _SplitMix64

        self.seed, self.settings, rng_state = state
        self._rng = _SplitMix64(0)
        self._rng.state = rng_state
        self._reset()

    # --- choosing -----------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return the searched action (always one of ``legal``).

        Raises:
            SimulationError: ``legal`` is empty.
        """
        greedy = self._greedy.choose(view, legal)
        options: list[Action]
        if view.phase is Phase.DRAW and view.to_act == view.seat:
            options = [a for a in (TakeDiscard(), DrawStock()) if a in legal]
        elif isinstance(greedy, Discard):
            options = self._discards(view, legal, greedy)
        elif self.settings.hold and self._may_hold(view, greedy):
            wait = self._greedy._discard(view, legal)
            options = [greedy, wait] if wait is not None else []
        else:
            return greedy
        if len(options) < 2:
            return greedy
        return self._search(view, options, greedy)

    def _may_hold(self, view: PlayerView, greedy: Action) -> bool:
        """Whether ``greedy`` starts laying in a round where ``view.seat`` has laid nothing, short of going out.

        Holding back keeps the chance of going out in one turn, which doubles
        (R-E2 opening and going out at once, R-E4 going rummy); laying
        exposes the melds and lowers what the hand would pay.
        """
        turn = view.turn
        if turn is None or turn.laid or view.has_laid[view.seat] or not isinstance(greedy, (LayMeld, Open, LayOff)):
            return False
        table = tuple(tm.meld for tm in view.table)
        return not self._greedy._plan(view, table, view.opened[view.seat])

    def _discards(self, view: PlayerView, legal: Sequence[Action], greedy: Discard) -> list[Action]:
        """The greedy discard and the next best by the deadwood left (R-V)."""
        rules = view.rules
        seen: list[Action] = [greedy]

        def left(card: Card) -> tuple[float, int]:
            part = self._partition(view.hand - CardMultiset((card,)), rules)
            return (sum(_costs(part.leftover, rules)), -card_penalty(card, rules))

        ranked = sorted({c for c in view.hand if c != greedy.card}, key=left)
        for card in ranked:
            if len(seen) >= self.settings.candidates:
                break
            if Discard(card) in legal:
                seen.append(Discard(card))
        return seen

    def _search(self, view: PlayerView, options: list[Action], greedy: Action) -> Action:
        """The candidate whose lead over the greedy choice, sample by sample, is surely positive.

        Every candidate is played in the same samples (common random
        numbers), so the per-sample differences to the greedy choice cancel
        the luck of the deal. After each batch, candidates surely worse than
        the greedy choice are dropped; at the end a candidate replaces the
        greedy choice only when its mean lead exceeds ``margin`` standard
        errors (noise alone does not move it).
        """
        settings = self.settings
        start = time.perf_counter()
        if greedy not in options:
            options = [greedy, *options]
        values: dict[Action, list[float]] = {a: [] for a in options}
        alive = list(options)
        states = sample_states(view, settings.samples, self._rng.next64())
        believe = self._belief(view)
        for first in range(0, len(states), settings.batch):
            for state in states[first : first + settings.batch]:
                state = believe(state)
                for action in alive:
                    values[action].append(self._value(apply(state, action), view.seat))
            base = values[greedy]
            alive = [a for a in alive if a == greedy or _lead(values[a], base, settings.margin)[1] >= 0]
            spent = settings.time_limit is not None and time.perf_counter() - start > settings.time_limit
            if len(alive) < 2 or spent:
                break
        best, best_score = greedy, 0.0
        for action in alive:
            low = _lead(values[action], values[greedy], settings.margin)[0]
            if low > best_score:
                best, best_score = action, low
        return best

    def _belief(self, view: PlayerView) -> Callable[[GameState], GameState]:
        """What brings a sample to agree with the top discard's thrower (the identity when nothing is read)."""
        seat = thrower(view)
        steps = self.settings.belief_steps
        if seat is None or not steps:
            return lambda state: state
        from rummylib.bots import _SplitMix64

        top = view.discard[-1]
        below = _SplitMix64(self._rng.next64()).below
        return lambda state: agree(state, seat, top, steps, below, self._partition)

    # --- rollouts and evaluation -----------------------------------------------------------

    def _bots(self, n: int) -> list[GreedyBot]:
        from rummylib.bots import GreedyBot

        while len(self._rollout) < n:
            self._rollout.append(GreedyBot())
        return self._rollout

    def _value(self, state: GameState, me: int) -> float:
        """Roll out greedily until ``me`` has ended ``horizon`` more turns (or the round ends), then score it."""
        from rummylib.bots import LegalActions

        bots = self._bots(state.num_players)
        need = self.settings.horizon + (1 if state.to_act == me else 0)  # the turn in progress does not count
        for _ in range(_ROLLOUT_CAP):
            if state.phase not in (Phase.DRAW, Phase.PLAY):
                return _result(state, me, self.settings.win_weight)
            seat = state.to_act
            state = apply(state, bots[seat].choose(view(state, seat), LegalActions(state)))
            if seat == me and state.to_act != me:
                need -= 1
                if need == 0:
                    break
        if state.phase not in (Phase.DRAW, Phase.PLAY):
            return _result(state, me, self.settings.win_weight)
        return self._race(state, me)

    def _partition(self, hand: CardMultiset, rules: Ruleset) -> Partition:
        key = (hand, rules)
        memo = self._memo
        part = memo.get(key)
        if part is None:
            if len(memo) >= _PARTITION_MEMO:
                memo.clear()
            part = memo[key] = best_partition(hand, rules)
        return part

    def _distance(self, state: GameState, seat: int) -> float:
        """How many cards ``seat`` is from going out: its deadwood cards, and what its opening still lacks.

        A deadwood card that is half of a meld in the making counts half; an
        unopened remik hand adds a card per ``_POINTS_PER_CARD`` points its
        best melds lack of the opening (R-O2) and ``_NO_CLEAN_RUN`` cards
        without a clean run among them.
        """
        rules = state.rules
        part = self._partition(state.round.hands[seat], rules)
        left = sum(_PARTIAL if partial else 1.0 for partial in _partnered(part.leftover, rules))
        if rules.opening_required and not state.round.opened[seat]:
            points = sum(meld_points(m, rules) for m in part.melds)
            left += max(0, rules.opening_points - points) / _POINTS_PER_CARD
            if rules.opening_clean_run and not any(is_clean_run(m) for m in part.melds):
                left += _NO_CLEAN_RUN
        return left

    def _race(self, state: GameState, me: int) -> float:
        """Expected lead where the rollout stops: who is nearer to going out, and what each would pay.

        The one fewer cards from going out (:meth:`_distance`) more likely
        goes out first (a logistic in the gap, ``_RACE_SCALE`` cards wide);
        the loser pays its whole hand (R-S1, S3: melds in hand count too).
        """
        rules = state.rules
        hands = state.round.hands
        others = [s for s in range(state.num_players) if s != me]
        mine = self._distance(state, me)
        nearest = min(self._distance(state, s) for s in others)
        p_me = 1 / (1 + math.exp(max(-30.0, min(30.0, (mine - nearest) / _RACE_SCALE))))
        pay_me = hand_penalty(hands[me], rules)
        pay_others = sum(hand_penalty(hands[s], rules) for s in others) / len(others)
        return p_me * pay_others - (1 - p_me) * pay_me + self.settings.win_weight * (2 * p_me - 1)


def _lead(row: list[float], base: list[float], margin: float) -> tuple[float, float]:
    """The mean of ``row - base`` less and plus ``margin`` standard errors."""
    diffs = [x - y for x, y in zip(row, base)]
    k = len(diffs)
    mean = sum(diffs) / k
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1) / k) if k > 1 else 0.0
    return mean - margin * spread, mean + margin * spread


def _positions(card: Card, rules: Ruleset) -> tuple[int, ...]:
    rank = int(card.rank or 0)
    return (1, 14) if rank == 1 and rules.ace_high else (rank,)


def _partners(a: Card, b: Card, rules: Ruleset) -> bool:
    """Two deadwood cards one card short of a meld: a pair of a rank, or a run with at most one gap."""
    if a.rank is b.rank:
        return a.suit is not b.suit
    return a.suit is b.suit and any(0 < abs(x - y) <= 2 for x in _positions(a, rules) for y in _positions(b, rules))


def _partnered(leftover: CardMultiset, rules: Ruleset) -> list[bool]:
    """For each deadwood card, whether it is half of a meld in the making with another (R-M1, M2)."""
    cards = list(leftover)
    return [
        not card.is_joker and any(j != i and not c.is_joker and _partners(card, c, rules) for j, c in enumerate(cards))
        for i, card in enumerate(cards)
    ]


def _costs(leftover: CardMultiset, rules: Ruleset) -> list[float]:
    """Each deadwood card's penalty, discounted where it is half of a meld in the making (R-V)."""
    return [
        card_penalty(card, rules) * (_PARTIAL_WEIGHT if partial else 1.0)
        for card, partial in zip(leftover, _partnered(leftover, rules))
    ]


def _result(state: GameState, me: int, win_weight: float) -> float:
    """The round's outcome for ``me``: its lead over the others' mean score (R-S1, S3), and ``win_weight`` won or lost."""
    result = state.results[-1]
    bonus = 0.0 if result.winner is None else (win_weight if result.winner == me else -win_weight)
    scores = result.scores
    n = len(scores)
    others = (sum(scores) - scores[me]) / (n - 1)
    if state.rules.scoring is Scoring.PENALTY:
        return others - scores[me] + bonus
    return scores[me] - others + bonus
