"""Hypothesis state machine: random legal play in both rulesets and house variants.

Invariants: card conservation after every action (R-C3); ``apply`` never changes
its input; every listed action is legal; random actions are legal exactly when
``legal_actions`` lists them (``check`` raises otherwise); totals change only
when a round ends; phases and turn order follow the rules.
"""

from __future__ import annotations

import copy
import itertools

import attrs
from _budget import examples
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import rummylib as rl
from rummylib._card import CARDS

VARIANTS = [
    attrs.evolve(rl.REMIK, restock_limit=1),
    attrs.evolve(rl.STRAIGHT, restock_limit=1),
    # house variants: six jokers at 50, remik with straight-like one meld a turn; straight that must discard
    attrs.evolve(rl.REMIK, name="house-remik", jokers=6, joker_penalty=50, restock_limit=1, opening_points=30),
    attrs.evolve(rl.STRAIGHT, name="house-straight", must_discard_to_go_out=True, melds_per_turn=None, restock_limit=2),
    # joker-heavy house rules (issue 10): four decks, sixteen jokers; and the R-D2 house variant
    attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, restock_limit=1, opening_points=30),
    attrs.evolve(rl.REMIK, name="take-to-open", take_discard_to_open=True, restock_limit=1, opening_points=30),
]
LISTED_CAP = 400


def _listed(state: rl.GameState) -> list[rl.Action]:
    return list(itertools.islice(rl.legal_actions(state), LISTED_CAP))


def _is_listed(state: rl.GameState, action: rl.Action) -> bool:
    return any(a == action for a in rl.legal_actions(state))


class EngineMachine(RuleBasedStateMachine):
    state: rl.GameState
    deck: rl.CardMultiset

    @initialize(rules=st.sampled_from(VARIANTS), players=st.integers(2, 4), seed=st.integers(0, 2**64))
    def start(self, rules: rl.Ruleset, players: int, seed: int) -> None:
        self.state = rl.new_game(rules, players, seed=seed)
        self.deck = self.state.round.cards()
        assert self.deck == rl.deck(rules)

    @rule(data=st.data())
    def play_a_listed_action(self, data: st.DataObject) -> None:
        s = self.state
        actions = _listed(s)
        if not actions:
            assert s.is_over
            return
        for a in actions:
            assert rl.is_legal(s, a), a
        assert len(set(actions)) == len(actions)  # each once
        bold: list[rl.Action] = [a for a in actions if not isinstance(a, (rl.Discard, rl.DrawStock))]
        action: rl.Action
        want_bold: bool = data.draw(st.booleans(), label="bold")
        if bold and want_bold:
            action = data.draw(st.sampled_from(bold), label="action")
        else:
            action = data.draw(st.sampled_from(actions), label="action")
        event(f"{s.rules.name}: {type(action).__name__}")
        before = copy.deepcopy(s)
        new = rl.apply(s, action)
        assert s == before  # apply never changes its input
        self._check_transition(s, action, new)
        self.state = new

    def _check_transition(self, s: rl.GameState, action: rl.Action, new: rl.GameState) -> None:
        n = s.num_players
        if isinstance(action, rl.NextRound):
            assert new.dealer == (s.dealer + 1) % n  # R-P4
            assert new.round_number == s.round_number + 1
            self.deck = new.round.cards()
            assert new.totals == s.totals
            return
        ended = new.phase in (rl.Phase.ROUND_OVER, rl.Phase.GAME_OVER)
        if ended:
            assert len(new.results) == len(s.results) + 1
            res = new.results[-1]
            assert new.totals == tuple(t + x for t, x in zip(s.totals, res.scores))
            if res.winner is not None:
                assert len(new.round.hands[res.winner]) == 0
            assert new.is_over == new.standings.is_over
        else:
            assert new.totals == s.totals  # totals change only at round end
            if isinstance(action, rl.Discard):
                assert new.to_act == (s.to_act + 1) % n and new.phase is rl.Phase.DRAW
            elif isinstance(action, (rl.DrawStock, rl.TakeDiscard)):
                assert new.to_act == s.to_act and new.phase is rl.Phase.PLAY
                assert len(new.round.hands[s.to_act]) == len(s.round.hands[s.to_act]) + 1
            else:
                assert new.to_act == s.to_act and new.phase is rl.Phase.PLAY

    @rule(data=st.data())
    def random_actions_are_legal_exactly_when_listed(self, data: st.DataObject) -> None:
        s = self.state
        r = s.round
        hand = r.hands[r.to_act]
        cards = st.sampled_from(CARDS[:52] + (rl.JOKER,))
        targets = st.integers(-1, len(r.table))
        ends = st.sampled_from([None, rl.End.LOW, rl.End.HIGH])
        extra = data.draw(st.lists(cards, max_size=4), label="extra")
        pool = hand + rl.CardMultiset(extra)
        try:
            melds = list(itertools.islice(rl.find_melds(pool, s.rules), 60))
        except rl.InvalidCardsError:
            melds = []  # the extra cards exceed the deck
        options: list[st.SearchStrategy[rl.Action]] = [
            st.just(rl.DrawStock()),
            st.just(rl.TakeDiscard()),
            st.just(rl.NextRound()),
            st.builds(rl.Discard, cards),
            st.builds(rl.LayOff, targets, cards, ends),
            st.builds(rl.SwapJoker, targets, cards),
        ]
        if melds:
            options.append(st.builds(rl.LayMeld, st.sampled_from(melds)))
            options.append(st.builds(rl.Open, st.lists(st.sampled_from(melds), min_size=1, max_size=4)))
        action: rl.Action = data.draw(st.one_of(options), label="probe")
        if rl.is_legal(s, action) and isinstance(action, rl.Open):
            # R-O4: the composite is never listed; its melds are, one after another, to the same state
            t = s
            for meld in action.melds:
                assert _is_listed(t, rl.LayMeld(meld)), meld
                t = rl.apply(t, rl.LayMeld(meld))
            assert t == rl.apply(s, action)
        elif rl.is_legal(s, action):
            assert _is_listed(s, action), action
        else:
            try:
                rl.check(s, action)
            except rl.IllegalActionError as err:
                assert isinstance(err.reason, rl.IllegalActionReason)
            else:
                raise AssertionError(f"check accepted {action!r} that is_legal refused")

    @invariant()
    def cards_are_conserved(self) -> None:
        # R-C3: hands + stock + pile + table hold exactly the deck.
        assert self.state.round.cards() == self.deck

    @invariant()
    def views_hold_only_public_facts(self) -> None:
        s = self.state
        for seat in range(s.num_players):
            v = rl.view(s, seat)
            assert v.hand == s.round.hands[seat]
            assert v.hand_sizes == tuple(len(h) for h in s.round.hands)
            assert v.stock_size == len(s.round.stock)


EngineMachine.TestCase.settings = settings(
    max_examples=examples(40),
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestEngineMachine = EngineMachine.TestCase
