"""SearchBot: perfect-information Monte Carlo over determinisations (re-exported by :mod:`rummylib.bots`).

At each decision that matters (the draw, and the discard when
:class:`~rummylib.GreedyBot` would discard) the bot samples states
consistent with its view (:func:`~rummylib.sample_states`, R-H1), plays each
candidate in every sample (common samples for all candidates) with greedy
rollouts until it has ended ``horizon`` more turns of its own, and scores
the position reached: the round's real result if it ended, else the chance
of going out first (a logistic in the deadwood gap to the nearest opponent,
an unopened remik hand charged for what its opening still lacks, a card
that is half of a meld counted at a discount) against what each side would
pay (its whole hand, R-S1, S3). A candidate replaces the greedy choice only
when its sample-by-sample lead over it exceeds a standard error. Every
other decision (opening, melds, lay-offs, going out) is GreedyBot's.

The rollout bots are imported lazily from :mod:`rummylib.bots`, which
imports this module for the re-export.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rummylib.actions import Action, Discard, DrawStock, TakeDiscard
from rummylib.cards import Card, CardMultiset
from rummylib.engine import GameState, Phase, PlayerView, apply, sample_states, view
from rummylib.melds import is_clean_run, meld_points
from rummylib.rules import Ruleset, Scoring
from rummylib.scoring import card_penalty, hand_penalty
from rummylib.solver import Partition, best_partition

from ._guards import is_instance, is_int, is_int_in

if TYPE_CHECKING:
    from rummylib.bots import GreedyBot

__all__ = ["SearchBot"]

#: Most samples or candidates a bot may be configured with (a bound on its work).
MAX_SAMPLES: Final = 1000
#: Most actions one rollout plays before it is scored where it stands.
_ROLLOUT_CAP: Final = 120
#: Charge for an unopened remik hand with no clean run, and per missing opening point.
_NO_CLEAN_RUN: Final = 15
_PARTITION_MEMO: Final = 4096
#: Deadwood points that make going out first about e times likelier (the logistic's scale).
_RACE_SCALE: Final = 8.0
#: Standard errors by which a candidate must beat the greedy choice to replace it.
_MARGIN: Final = 1.0
#: The share of its penalty a deadwood card counts for when it is half of a meld in the making.
_PARTIAL_WEIGHT: Final = 0.6


class SearchBot:
    """A determinised search player (PIMC) built on GreedyBot rollouts.

    Args:
        seed: seeds the bot's own stream of sample seeds (BLAKE2b/SplitMix64,
            the same on every platform).
        samples: determinisations per decision (the iteration budget).
        candidates: discards searched (the greedy discard and the next best).
        horizon: the bot's own turns a rollout plays past the decision before
            the position is scored.
        time_limit: seconds per decision; when set the bot stops sampling
            once it is spent (at least one sample), so play then depends on
            the machine's speed. ``None`` (default): exactly ``samples``.

    Raises:
        SimulationError: an argument is not a positive int (or a positive
            number of seconds).

    The same seed and budget give the same choices (with ``time_limit=None``).
    The bot pickles (its caches are dropped), so :func:`~rummylib.simulate`
    can run it on a process pool; ``"search"`` names it there and in the CLI.

    >>> import rummylib as rl
    >>> s = rl.new_game(rl.STRAIGHT, 2, seed=7)
    >>> bot = rl.SearchBot(seed=1, samples=2)
    >>> rl.is_legal(s, bot.choose(rl.view(s, s.to_act), rl.LegalActions(s)))
    True
    """

    __slots__ = ("_greedy", "_memo", "_rng", "_rollout", "candidates", "horizon", "samples", "seed", "time_limit")

    def __init__(
        self,
        seed: int = 0,
        *,
        samples: int = 8,
        candidates: int = 4,
        horizon: int = 1,
        time_limit: float | None = None,
    ) -> None:
        from rummylib.bots import SimulationError, SimulationReason, _SplitMix64

        for name, value in (("seed", seed), ("samples", samples), ("candidates", candidates), ("horizon", horizon)):
            if not is_int(value) or (name != "seed" and not is_int_in(value, 1, MAX_SAMPLES)):
                msg = f"SearchBot {name} must be an int{'' if name == 'seed' else f' 1..{MAX_SAMPLES}'}, not {value!r}"
                raise SimulationError(SimulationReason.BAD_ARGUMENT, value, msg)
        bad_type = is_instance(time_limit, bool) or not is_instance(time_limit, (int, float))
        if time_limit is not None and (bad_type or not 0 < time_limit < 3600):
            msg = f"SearchBot time_limit must be seconds in (0, 3600) or None, not {time_limit!r}"
            raise SimulationError(SimulationReason.BAD_ARGUMENT, time_limit, msg)
        self.seed = seed
        self.samples = samples
        self.candidates = candidates
        self.horizon = horizon
        self.time_limit = time_limit
        self._rng = _SplitMix64(seed)
        self._reset()

    def _reset(self) -> None:
        from rummylib.bots import GreedyBot

        self._greedy = GreedyBot()
        self._rollout: list[GreedyBot] = []
        self._memo: dict[tuple[CardMultiset, Ruleset], Partition] = {}

    def __repr__(self) -> str:
        limit = "" if self.time_limit is None else f", time_limit={self.time_limit!r}"
        budget = f"samples={self.samples}, candidates={self.candidates}, horizon={self.horizon}"
        return f"SearchBot(seed={self.seed}, {budget}{limit})"

    def __getstate__(self) -> tuple[int, int, int, int, float | None, int]:
        return (self.seed, self.samples, self.candidates, self.horizon, self.time_limit, self._rng.state)

    def __setstate__(self, state: tuple[int, int, int, int, float | None, int]) -> None:
        from rummylib.bots import _SplitMix64

        self.seed, self.samples, self.candidates, self.horizon, self.time_limit, rng_state = state
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
        else:
            return greedy
        if len(options) < 2:
            return greedy
        return self._search(view, options, greedy)

    def _discards(self, view: PlayerView, legal: Sequence[Action], greedy: Discard) -> list[Action]:
        """The greedy discard and the next best by the deadwood left (R-V)."""
        rules = view.rules
        seen: list[Action] = [greedy]

        def left(card: Card) -> tuple[float, int]:
            part = self._partition(view.hand - CardMultiset((card,)), rules)
            return (sum(_costs(part.leftover, rules)), -card_penalty(card, rules))

        ranked = sorted({c for c in view.hand if c != greedy.card}, key=left)
        for card in ranked:
            if len(seen) >= self.candidates:
                break
            if Discard(card) in legal:
                seen.append(Discard(card))
        return seen

    def _search(self, view: PlayerView, options: list[Action], greedy: Action) -> Action:
        """The candidate whose lead over the greedy choice, sample by sample, is surely positive.

        Every candidate is played in the same samples, so the per-sample
        differences to the greedy choice cancel the luck of the deal; a
        candidate replaces the greedy choice only when the mean difference
        exceeds ``_MARGIN`` standard errors (noise alone does not move it).
        """
        start = time.perf_counter()
        values: list[list[float]] = [[] for _ in options]
        seed = self._rng.next64()
        for state in sample_states(view, self.samples, seed):
            for i, action in enumerate(options):
                values[i].append(self._value(apply(state, action), view.seat))
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
        base = values[options.index(greedy)] if greedy in options else [0.0] * len(values[0])
        best, best_score = greedy, 0.0
        for action, row in zip(options, values):
            diffs = [x - y for x, y in zip(row, base)]
            k = len(diffs)
            mean = sum(diffs) / k
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1) / k) if k > 1 else 0.0
            score = mean - _MARGIN * spread
            if score > best_score:
                best, best_score = action, score
        return best

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
        need = self.horizon + (1 if state.to_act == me else 0)  # the turn in progress does not count
        for _ in range(_ROLLOUT_CAP):
            if state.phase not in (Phase.DRAW, Phase.PLAY):
                return _result(state, me)
            seat = state.to_act
            state = apply(state, bots[seat].choose(view(state, seat), LegalActions(state)))
            if seat == me and state.to_act != me:
                need -= 1
                if need == 0:
                    break
        if state.phase not in (Phase.DRAW, Phase.PLAY):
            return _result(state, me)
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

    def _deadwood(self, state: GameState, seat: int, drawn: bool) -> float:
        rules = state.rules
        hand = state.round.hands[seat]
        part = self._partition(hand, rules)
        costs = _costs(part.leftover, rules)
        penalty = sum(costs)
        if drawn and costs:  # the card it will throw does not count
            penalty -= max(costs)
        if rules.opening_required and not state.round.opened[seat]:
            points = sum(meld_points(m, rules) for m in part.melds)
            penalty += max(0, rules.opening_points - points) / 2
            if rules.opening_clean_run and not any(is_clean_run(m) for m in part.melds):
                penalty += _NO_CLEAN_RUN
        return penalty

    def _race(self, state: GameState, me: int) -> float:
        """Expected lead where the rollout stops: who is nearer to going out, and what each would pay.

        The one with less distance (deadwood, and for an unopened remik hand what
        its opening lacks) more likely goes out first (a logistic in the gap);
        the loser pays its whole hand (R-S1, S3: melds in hand count too).
        """
        rules = state.rules
        hands = state.round.hands
        others = [s for s in range(state.num_players) if s != me]
        mine = self._deadwood(state, me, drawn=False)
        nearest = min(self._deadwood(state, s, drawn=False) for s in others)
        p_me = 1 / (1 + math.exp(max(-30.0, min(30.0, (mine - nearest) / _RACE_SCALE))))
        pay_me = hand_penalty(hands[me], rules)
        pay_others = sum(hand_penalty(hands[s], rules) for s in others) / len(others)
        return p_me * pay_others - (1 - p_me) * pay_me


def _positions(card: Card, rules: Ruleset) -> tuple[int, ...]:
    rank = int(card.rank or 0)
    return (1, 14) if rank == 1 and rules.ace_high else (rank,)


def _partners(a: Card, b: Card, rules: Ruleset) -> bool:
    """Two deadwood cards one card short of a meld: a pair of a rank, or a run with at most one gap."""
    if a.rank is b.rank:
        return a.suit is not b.suit
    return a.suit is b.suit and any(0 < abs(x - y) <= 2 for x in _positions(a, rules) for y in _positions(b, rules))


def _costs(leftover: CardMultiset, rules: Ruleset) -> list[float]:
    """Each deadwood card's penalty, discounted where it is half of a meld in the making (R-V)."""
    cards = list(leftover)
    out = []
    for i, card in enumerate(cards):
        cost = float(card_penalty(card, rules))
        if not card.is_joker and any(
            j != i and not c.is_joker and _partners(card, c, rules) for j, c in enumerate(cards)
        ):
            cost *= _PARTIAL_WEIGHT
        out.append(cost)
    return out


def _result(state: GameState, me: int) -> float:
    """The round's outcome for ``me``: its lead over the others' mean score (R-S1, S3)."""
    result = state.results[-1]
    scores = result.scores
    n = len(scores)
    others = (sum(scores) - scores[me]) / (n - 1)
    if state.rules.scoring is Scoring.PENALTY:
        return others - scores[me]
    return scores[me] - others
