"""Engine scenarios for Straight Rummy (R-T4..T7, E3, E4, S3, S4, M4)."""

from __future__ import annotations

import attrs
import pytest

import rummylib as rl

C = rl.parse_cards
R = rl.IllegalActionReason
ST = rl.STRAIGHT


def card(text: str) -> rl.Card:
    return rl.parse_card(text)


def M(text: str) -> rl.Meld:
    return rl.parse_meld(text, ST)


def play(hand0: str, hand1: str = "KH 4S", rules: rl.Ruleset = ST, **kw: object) -> rl.GameState:
    kw.setdefault("to_act", 0)
    kw.setdefault("phase", rl.Phase.PLAY)
    return rl.start_round_from(rules, [C(hand0), C(hand1)], **kw)  # type: ignore[arg-type]


def refused(state: rl.GameState, action: rl.Action, reason: rl.IllegalActionReason) -> None:
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(state, action)
    assert err.value.reason is reason, err.value
    assert action not in set(rl.legal_actions(state))


def test_one_new_meld_per_turn() -> None:
    # R-T5 (rules.melds_per_turn = 1)
    s = play("2H 3H 4H 9C 10C JC 5D")
    t = rl.apply(s, rl.LayMeld(M("2H 3H 4H")))
    refused(t, rl.LayMeld(M("9C 10C JC")), R.MELD_LIMIT)
    many = attrs.evolve(ST, melds_per_turn=None)  # the variant: any number
    u = rl.apply(
        rl.apply(play("2H 3H 4H 9C 10C JC 5D", rules=many), rl.LayMeld(M("2H 3H 4H"))), rl.LayMeld(M("9C 10C JC"))
    )
    assert len(u.round.table) == 2


def test_lay_off_without_a_meld_of_ones_own() -> None:
    # R-T6: onto any meld, own or not, no meld of one's own first.
    table = [rl.TableMeld(M("5S 6S 7S"), 1)]
    s = play("8S 9D 2C", table=table)
    t = rl.apply(s, rl.LayOff(0, card("8S"), rl.End.HIGH))
    assert str(t.round.table[0].meld) == "5S 6S 7S 8S" and t.round.table[0].owner == 1


def test_ace_is_low_only() -> None:
    # R-M4
    table = [rl.TableMeld(M("JS QS KS"), 1), rl.TableMeld(M("2D 3D 4D"), 1)]
    s = play("AS AD 9C", table=table)
    refused(s, rl.LayOff(0, card("AS"), rl.End.HIGH), R.DOES_NOT_FIT)
    rl.apply(s, rl.LayOff(1, card("AD"), rl.End.LOW))
    refused(s, rl.LayMeld(rl.Run(rl.Suit.SPADES, 12, C("QS KS AS"))), R.INVALID_MELD)


def test_go_out_by_a_meld_without_discarding() -> None:
    # R-E3, E5: the round ends the moment the hand is empty. R-S3: winner collects.
    s = play("2H 3H 4H", "KH 4S")
    t = rl.apply(s, rl.LayMeld(M("2H 3H 4H")))
    assert t.phase is rl.Phase.ROUND_OVER
    result = t.results[-1]
    assert result.winner == 0 and result.rummy  # R-E4: all in one turn, nothing earlier
    assert result.penalties == (0, 14) and result.scores == (28, 0)  # R-V1 KH 4S = 14, doubled


def test_go_out_by_a_lay_off_and_by_a_discard() -> None:
    # R-E3; nothing laid before this turn? seat 0 laid earlier here, so no rummy (R-E4).
    table = [rl.TableMeld(M("5S 6S 7S"), 0)]
    s = play("8S", "AD 3D 8C", table=table)
    t = rl.apply(s, rl.LayOff(0, card("8S"), rl.End.HIGH))
    assert t.results[-1].scores == (12, 0) and not t.results[-1].rummy
    u = rl.apply(play("9C", "JS QS 2H", table=table), rl.Discard(card("9C")))
    assert u.results[-1].scores == (22, 0) and u.round.discard[-1] == card("9C")


def test_must_discard_to_go_out_variant() -> None:
    # R-E3 variant: the last card must leave by a discard, as in remik.
    rules = attrs.evolve(ST, must_discard_to_go_out=True)
    s = play("2H 3H 4H", rules=rules)
    refused(s, rl.LayMeld(M("2H 3H 4H")), R.MUST_KEEP_CARD)
    t = rl.apply(play("2H 3H 4H 9C", rules=rules), rl.LayMeld(M("2H 3H 4H")))
    u = rl.apply(t, rl.Discard(card("9C")))
    assert u.results[-1].winner == 0


def test_taken_card_may_be_laid_but_not_discarded() -> None:
    # R-T4, T7; a turn that could only end by discarding the taken card is refused.
    table = [rl.TableMeld(M("5S 6S 7S"), 1)]
    s = rl.start_round_from(ST, [C("9C 2D"), C("KH 4S")], discard=C("8S"), table=table, to_act=0)
    t = rl.apply(s, rl.TakeDiscard())
    refused(t, rl.Discard(card("8S")), R.CANNOT_DISCARD_TAKEN_CARD)
    u = rl.apply(t, rl.LayOff(0, card("8S"), rl.End.HIGH))
    rl.apply(u, rl.Discard(card("2D")))
    # holding only the taken card and one other: laying the other off would strand the turn
    table2 = [rl.TableMeld(M("10C JC QC"), 1)]
    s2 = rl.start_round_from(ST, [C("9C"), C("KH 4S")], discard=C("2D"), table=table2, to_act=0)
    t2 = rl.apply(s2, rl.TakeDiscard())
    refused(t2, rl.LayOff(0, card("9C"), rl.End.LOW), R.CANNOT_FINISH_TURN)


def test_game_ends_when_a_total_reaches_the_target() -> None:
    # R-S4: reaching 100 ends it; highest wins.
    s = play("2H 3H 4H", "KH 4S", totals=[72, 90])
    t = rl.apply(s, rl.LayMeld(M("2H 3H 4H")))
    assert t.totals == (100, 90) and t.is_over and t.standings.winners == (0,)
    rounds = attrs.evolve(ST, score_limit=None, max_rounds=1)  # the agreed-rounds variant
    u = rl.apply(play("2H 3H 4H", rules=rounds), rl.LayMeld(M("2H 3H 4H")))
    assert u.is_over


def test_no_open_and_no_swap_in_straight() -> None:
    # Straight Rummy has no opening and no joker swap (J4 is a remik rule): a swap is
    # refused as SWAP_NOT_ALLOWED, not as a missing joker.
    s = play("2H 3H 4H 9C")
    refused(s, rl.Open([M("2H 3H 4H")]), R.CANNOT_OPEN)
    refused(s, rl.SwapJoker(0, card("9C")), R.SWAP_NOT_ALLOWED)


def test_tie_play_on_variant_keeps_the_game_going() -> None:
    # R-S2/S4 variant: a tie for the win plays further rounds.
    # A shared 100 ends the game under SHARE, so a round is played from it only under PLAY_ON
    # (start_round_from refuses a game its totals have ended).
    rules = attrs.evolve(ST, tie_rule=rl.TieRule.PLAY_ON)
    with pytest.raises(rl.InvalidStateError):
        play("2H 3H 4H", "KH 4S", totals=[100, 100])
    s = play("2H 3H 4H", "KH 4S", rules=rules, totals=[100, 100])
    assert not s.is_over
    t = rl.apply(s, rl.LayMeld(M("2H 3H 4H")))
    assert t.totals == (128, 100) and t.is_over  # R-E4: a one-turn go-out doubles and t.standings.winners == (0,)
