"""SearchBot: perfect-information Monte Carlo over determinisations (re-exported by :mod:`rummylib.bots`).

At each decision that matters (the draw, and the discard when
:class:`~rummylib.GreedyBot` would discard) the bot samples states
consistent with its view (:func:`~rummylib.sample_states`, R-H1), plays each
candidate in every sample (common samples for all candidates) with a fast
greedy rollout up to its own next draw, and scores the position reached:
the round's real result if it ended, else the deadwood race (the others'
best-partition penalty against its own, an unopened remik hand charged for
what its opening still lacks). The candidate with the best mean wins; ties
go to the greedy choice. Every other decision (opening, melds, lay-offs,
going out) is GreedyBot's.

The rollout bots are imported lazily from :mod:`rummylib.bots`, which
imports this module for the re-export.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rummylib.actions import Action, Discard, DrawStock, TakeDiscard
from rummylib.cards import CardMultiset
from rummylib.engine import GameState, Phase, PlayerView, apply, sample_states, view
from rummylib.melds import is_clean_run, meld_points
from rummylib.rules import Ruleset, Scoring
from rummylib.scoring import card_penalty
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


class SearchBot:
    """A determinised search player (PIMC) built on GreedyBot rollouts.

    Args:
        seed: seeds the bot's own stream of sample seeds (BLAKE2b/SplitMix64,
            the same on every platform).
        samples: determinisations per decision (the iteration budget).
        candidates: discards searched (the greedy discard and the next best).
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

    __slots__ = ("_greedy", "_memo", "_rng", "_rollout", "candidates", "samples", "seed", "time_limit")

    def __init__(
        self, seed: int = 0, *, samples: int = 6, candidates: int = 4, time_limit: float | None = None
    ) -> None:
        from rummylib.bots import SimulationError, SimulationReason, _SplitMix64

        for name, value in (("seed", seed), ("samples", samples), ("candidates", candidates)):
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
        return f"SearchBot(seed={self.seed}, samples={self.samples}, candidates={self.candidates}{limit})"

    def __getstate__(self) -> tuple[int, int, int, float | None, int]:
        return (self.seed, self.samples, self.candidates, self.time_limit, self._rng.state)

    def __setstate__(self, state: tuple[int, int, int, float | None, int]) -> None:
        from rummylib.bots import _SplitMix64

        self.seed, self.samples, self.candidates, self.time_limit, rng_state = state
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
        ranked = sorted(
            {c for c in view.hand if c != greedy.card},
            key=lambda c: (self._partition(view.hand - CardMultiset((c,)), rules).penalty, -card_penalty(c, rules)),
        )
        for card in ranked:
            if len(seen) >= self.candidates:
                break
            if Discard(card) in legal:
                seen.append(Discard(card))
        return seen

    def _search(self, view: PlayerView, options: list[Action], greedy: Action) -> Action:
        start = time.perf_counter()
        totals = [0.0] * len(options)
        seed = self._rng.next64()
        for state in sample_states(view, self.samples, seed):
            for i, action in enumerate(options):
                totals[i] += self._value(apply(state, action), view.seat)
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
        best = max(range(len(options)), key=lambda i: (totals[i], options[i] == greedy))
        return options[best]

    # --- rollouts and evaluation -----------------------------------------------------------

    def _bots(self, n: int) -> list[GreedyBot]:
        from rummylib.bots import GreedyBot

        while len(self._rollout) < n:
            self._rollout.append(GreedyBot())
        return self._rollout

    def _value(self, state: GameState, me: int) -> float:
        """Roll out greedily until ``me`` has drawn again (or the round ends), then score it."""
        from rummylib.bots import LegalActions

        bots = self._bots(state.num_players)
        left_me = state.to_act != me or state.phase is not Phase.PLAY
        for _ in range(_ROLLOUT_CAP):
            if state.phase not in (Phase.DRAW, Phase.PLAY):
                return _result(state, me)
            if state.to_act != me:
                left_me = True
            elif left_me and state.phase is Phase.PLAY:
                break
            seat = state.to_act
            state = apply(state, bots[seat].choose(view(state, seat), LegalActions(state)))
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
        penalty = float(part.penalty)
        if drawn and part.leftover:  # the card it will throw does not count
            penalty -= max(card_penalty(c, rules) for c in part.leftover)
        if rules.opening_required and not state.round.opened[seat]:
            points = sum(meld_points(m, rules) for m in part.melds)
            penalty += max(0, rules.opening_points - points) / 2
            if rules.opening_clean_run and not any(is_clean_run(m) for m in part.melds):
                penalty += _NO_CLEAN_RUN
        return penalty

    def _race(self, state: GameState, me: int) -> float:
        """Half the deadwood lead: the others' mean deadwood less mine (both games: less is closer to out)."""
        n = state.num_players
        mine = self._deadwood(state, me, drawn=True)
        others = sum(self._deadwood(state, s, drawn=False) for s in range(n) if s != me) / (n - 1)
        return (others - mine) / 2


def _result(state: GameState, me: int) -> float:
    """The round's outcome for ``me``: its lead over the others' mean score (R-S1, S3)."""
    result = state.results[-1]
    scores = result.scores
    n = len(scores)
    others = (sum(scores) - scores[me]) / (n - 1)
    if state.rules.scoring is Scoring.PENALTY:
        return others - scores[me]
    return scores[me] - others
