"""Engine scenarios for remik: opening, D2, jokers, going out, scoring (R-O, D2, J4, J5, T1-T3, E1, E2, S1, S2)."""

from __future__ import annotations

import attrs
import pytest
from _setup import with_openers_melds
from _walks import single_step_universe

import rummylib as rl

C = rl.parse_cards
R = rl.IllegalActionReason
REMIK = rl.REMIK


def card(text: str) -> rl.Card:
    return rl.parse_card(text)


def M(text: str) -> rl.Meld:
    return rl.parse_meld(text, REMIK)


def refused(state: rl.GameState, action: rl.Action, reason: rl.IllegalActionReason) -> rl.IllegalActionError:
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(state, action)
    assert err.value.reason is reason, err.value
    assert not rl.is_legal(state, action)
    assert action not in set(rl.legal_actions(state))
    return err.value


def listed(state: rl.GameState, action: rl.Action) -> rl.GameState:
    """``action`` is listed (an Open: its melds one after another, R-O4); the state after it."""
    if not isinstance(action, rl.Open):
        assert action in set(rl.legal_actions(state))
        return rl.apply(state, action)
    for meld in action.melds:
        assert rl.LayMeld(meld) in set(rl.legal_actions(state)), meld
        state = rl.apply(state, rl.LayMeld(meld))
    return state


def accepted(state: rl.GameState, action: rl.Action) -> rl.GameState:
    after = rl.apply(state, action)
    assert listed(state, action) == after
    return after


def play(hand0: str, hand1: str = "2S 4D 6C 8H 10S QD", **kw: object) -> rl.GameState:
    """Seat 0 to play (already drawn), seat 1 holding ``hand1``."""
    kw.setdefault("to_act", 0)
    kw.setdefault("phase", rl.Phase.PLAY)
    return _start([C(hand0), C(hand1)], **kw)


def _start(hands: list[tuple[rl.Card, ...]], **kw: object) -> rl.GameState:
    """The set-up, each opened seat owning a meld (R-O1; an inert full group where the test gives none)."""
    others = [kw.get("discard", ()), kw.get("stock", ())]
    kw["table"] = with_openers_melds(REMIK, hands, kw.get("table", ()), kw.get("opened"), *others)  # type: ignore[arg-type]
    return rl.start_round_from(REMIK, hands, **kw)  # type: ignore[arg-type]


# --- opening (O) --------------------------------------------------------------------------------


def test_opening_below_51_is_refused_with_have_and_need() -> None:
    # R-O2, O3: the joker counts as the card it stands for (4H here: 15, not 18).
    s = play("9S 10S JS JK 5H 6H 2D")
    err = refused(s, rl.Open([M("9S 10S JS"), M("JK=4H 5H 6H")]), R.OPENING_TOO_LOW)
    assert err.fields == {"have": 44, "need": 51}
    assert err.have == 44 and err.need == 51


def test_opening_counts_the_joker_at_its_place() -> None:
    # R-O3: the same cards as 5H 6H JK=7H make 47 + ... ; QH KH JK=AH is 31.
    s = play("9S 10S JS JK QH KH 2D")
    t = accepted(s, rl.Open([M("9S 10S JS"), M("QH KH JK=AH")]))
    # R-O4: the opening is down (60 points, a clean run) and checked at the discard.
    assert t.round.opened == (False, False)
    assert (t.round.turn.opening_points, t.round.turn.opening_clean) == (60, True)
    assert [tm.owner for tm in t.round.table] == [0, 0]
    assert accepted(t, rl.Discard(card("2D"))).round.opened == (True, False)


def test_opening_needs_a_clean_run() -> None:
    # R-O2
    s = play("KS KH KD QS QH QD 2C")
    refused(s, rl.Open([M("KS KH KD"), M("QS QH QD")]), R.NO_CLEAN_RUN)
    s = play("KS KH KD 10H JH JK 2C 3C 4C 9D")
    refused(s, rl.Open([M("KS KH KD"), M("10H JH JK=QH")]), R.NO_CLEAN_RUN)
    accepted(s, rl.Open([M("KS KH KD"), M("10H JH JK=QH"), M("2C 3C 4C")]))


def test_points_from_different_turns_never_add_up() -> None:
    # R-O1, O2, O4: a meld of the opening is laid only if the opening can be completed this
    # turn, so a small meld cannot wait for more.
    s = play("2C 3C 4C 9D")
    refused(s, rl.LayMeld(M("2C 3C 4C")), R.CANNOT_FINISH_TURN)
    refused(s, rl.Open([M("2C 3C 4C")]), R.OPENING_TOO_LOW)


def test_before_opening_only_draw_and_discard() -> None:
    # R-O1: no lay-off, no swap, no meld before opening.
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1)]
    s = play("6H 8H 9H 2C", table=table, opened=[False, True])
    refused(s, rl.LayOff(0, card("8H"), rl.End.HIGH), R.MUST_OPEN_FIRST)
    refused(s, rl.SwapJoker(0, card("6H")), R.MUST_OPEN_FIRST)
    actions = set(rl.legal_actions(s))
    assert actions == {rl.Discard(c) for c in C("6H 8H 9H 2C")}


def test_after_the_open_the_same_turn_may_lay_lay_off_and_swap() -> None:
    # R-O4, J4: once the 51 is down, further melds (any value), lay-offs and swaps.
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1)]
    hand = "9S 10S JS QS KS AS 6H 2C 3C 4C 8H 8D 8C 5D"
    s = play(hand, table=table, opened=[False, True])
    t = accepted(s, rl.Open([M("9S 10S JS QS KS AS")]))  # 60 points, clean
    t = accepted(t, rl.LayMeld(M("2C 3C 4C")))  # R-O4: any value now
    t = accepted(t, rl.LayOff(0, card("8H"), rl.End.HIGH))
    t = accepted(t, rl.SwapJoker(0, card("6H")))
    t = accepted(t, rl.LayMeld(M("8D 8C JK=8S")))  # the freed joker into a new meld
    assert t.round.hands[0] == rl.CardMultiset(C("5D"))
    assert str(t.round.table[0].meld) == "5H 6H 7H 8H"


def test_swap_on_the_opening_turn_does_not_count_toward_51() -> None:
    # R-J4, O4: the opening must reach 51 by itself; the swap comes after it.
    table = [rl.TableMeld(M("QD KD JK=AD"), 1)]
    s = play("AD 2S 3S 4S QH QC 7C", table=table, opened=[False, True])
    refused(s, rl.SwapJoker(0, card("AD")), R.MUST_OPEN_FIRST)


def test_clean_run_only_at_the_moment_of_opening() -> None:
    # R-O6: a joker may later be laid off onto the opening's clean run.
    s = play("9S 10S JS QS KS AS JK 2C", opened=[False, False])
    t = accepted(s, rl.Open([M("9S 10S JS QS KS AS")]))
    t = accepted(t, rl.LayOff(0, rl.JOKER, rl.End.LOW))
    assert str(t.round.table[0].meld) == "JK=8S 9S 10S JS QS KS AS"


def test_must_keep_a_card_for_the_discard() -> None:
    # R-T3, E1: the last card leaves only by the discard.
    s = play("9S 10S JS QS KS AS", opened=[False, False])
    refused(s, rl.Open([M("9S 10S JS QS KS AS")]), R.MUST_KEEP_CARD)
    table = [rl.TableMeld(M("2H 3H 4H"), 1)]
    s = play("5H 9C", table=table, opened=[True, True])
    t = accepted(s, rl.LayOff(0, card("5H"), rl.End.HIGH))
    refused(t, rl.LayOff(0, card("9C"), rl.End.HIGH), R.DOES_NOT_FIT)
    s = play("5H", table=table, opened=[True, True])
    refused(s, rl.LayOff(0, card("5H"), rl.End.HIGH), R.MUST_KEEP_CARD)


def test_open_twice_or_open_without_melds_is_refused() -> None:
    s = play("9S 10S JS QS KS AS 2C 3C 4C 7D", opened=[True, False])
    refused(s, rl.Open([M("9S 10S JS QS KS AS")]), R.CANNOT_OPEN)
    s = play("9S 10S JS QS KS AS 2C 3C 4C 7D")
    refused(s, rl.Open([]), R.INVALID_MELD)
    refused(s, rl.Open([M("5H 6H 7H")]), R.CARD_NOT_IN_HAND)


def test_open_is_a_set_of_melds() -> None:
    a, b = M("9S 10S JS QS KS AS"), M("2C 3C 4C")
    assert rl.Open([a, b]) == rl.Open([b, a])
    s = play("9S 10S JS QS KS AS 2C 3C 4C 7D")
    t = rl.apply(s, rl.Open([b, a]))
    assert [tm.meld for tm in t.round.table] == list(rl.Open([a, b]).melds)


# --- the dealer's first turn (T1) ------------------------------------------------------------------


def test_dealer_plays_first_without_drawing() -> None:
    # R-T1, P2
    s = rl.new_game(REMIK, 3, seed=11, dealer=2)
    assert s.to_act == 2 and s.phase is rl.Phase.PLAY and len(s.round.hands[2]) == 14
    refused(s, rl.DrawStock(), R.WRONG_PHASE)
    t = rl.apply(s, rl.Discard(min(s.round.hands[2])))
    assert t.to_act == 0 and t.phase is rl.Phase.DRAW and len(t.round.hands[2]) == 13


# --- taking the discard (D2) --------------------------------------------------------------------------


def draw_phase(hand0: str, pile: str, **kw: object) -> rl.GameState:
    kw.setdefault("to_act", 0)
    kw.setdefault("phase", rl.Phase.DRAW)
    return _start([C(hand0), C("2S 4D 6C 8H 10S QD")], discard=C(pile), **kw)


def test_opened_player_takes_the_discard_only_into_a_new_meld() -> None:
    # R-D2: offered only when a new meld with it can be laid, keeping a card to discard.
    s = draw_phase("7H 8H 2C", "9H", opened=[True, False])
    t = accepted(s, rl.TakeDiscard())
    assert t.round.turn.must_meld == card("9H")
    refused(t, rl.Discard(card("2C")), R.TAKEN_CARD_NOT_MELDED)
    refused(t, rl.Discard(card("9H")), R.CANNOT_DISCARD_TAKEN_CARD)
    u = accepted(t, rl.LayMeld(M("7H 8H 9H")))
    assert u.round.turn.must_meld is None
    accepted(u, rl.Discard(card("2C")))
    # no meld possible: refused
    refused(draw_phase("7H 2C 3D", "9H", opened=[True, False]), rl.TakeDiscard(), R.CANNOT_USE_DISCARD)
    # a meld possible only by placing every card: nothing left to discard, refused (R-T3)
    refused(draw_phase("7H 8H", "9H", opened=[True, False]), rl.TakeDiscard(), R.CANNOT_USE_DISCARD)


def test_lay_off_does_not_meet_the_discard_obligation() -> None:
    # R-D2: a lay-off does not count; laying the only copy off would strand the turn.
    table = [rl.TableMeld(M("10H JH QH"), 1)]
    s = draw_phase("7H 8H 2C", "9H", opened=[True, True], table=table)
    t = accepted(s, rl.TakeDiscard())
    refused(t, rl.LayOff(0, card("9H"), rl.End.LOW), R.CANNOT_FINISH_TURN)


def test_unopened_player_takes_the_discard_only_to_open_with_it_and_go_out() -> None:
    # R-D2, E1, E2
    hand = "2C 3C 4C 5C 6C 7C KS KH KD 8D 9D 10D QS"
    s = draw_phase(hand, "JD")
    t = accepted(s, rl.TakeDiscard())
    assert t.round.turn.must_go_out
    refused(t, rl.Discard(card("QS")), R.TAKEN_CARD_NOT_MELDED)
    # R-O4: an Open without the taken card is accepted while a further opening meld can hold it,
    # and the discard that would close the opening without it is refused.
    t2 = accepted(t, rl.Open([M("2C 3C 4C 5C 6C 7C"), M("KS KH KD")]))
    refused(t2, rl.Discard(card("QS")), R.OPENING_WITHOUT_DISCARD)
    refused(t2, rl.LayMeld(M("8D 9D 10D")), R.CANNOT_FINISH_TURN)
    assert accepted(accepted(t2, rl.LayMeld(M("8D 9D 10D JD"))), rl.Discard(card("QS"))).is_over is False
    u = accepted(t, rl.Open([M("2C 3C 4C 5C 6C 7C"), M("8D 9D 10D JD")]))
    refused(u, rl.Discard(card("QS")), R.MUST_GO_OUT)
    v = accepted(u, rl.LayMeld(M("KS KH KD")))
    w = accepted(v, rl.Discard(card("QS")))
    assert w.phase is rl.Phase.ROUND_OVER
    result = w.results[-1]
    # R-E2: opened and went out in one turn: the other scores double.
    assert result.winner == 0 and result.rummy
    assert result.penalties == (0, 2 + 4 + 6 + 8 + 10 + 10) and result.scores == (0, 80)
    assert w.totals == (0, 80)


def test_unopened_player_cannot_take_without_going_out() -> None:
    # R-D2
    refused(draw_phase("2C 3C 4C 5C 6C 7C KS KH KD 8D 9D 2H QS", "JD"), rl.TakeDiscard(), R.CANNOT_USE_DISCARD)


# --- jokers (J4, J5) -------------------------------------------------------------------------------------


def test_joker_swap_needs_a_new_meld_for_the_joker() -> None:
    # R-J4: either copy of the card; the joker must go into a new meld this turn.
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1), rl.TableMeld(M("2S 3S 4S"), 1)]
    s = play("6H 8S 9S 2D", table=table, opened=[True, True])
    t = accepted(s, rl.SwapJoker(0, card("6H")))
    assert t.round.turn.freed_jokers == 1 and rl.JOKER in t.round.hands[0]
    refused(t, rl.Discard(card("2D")), R.FREED_JOKER_NOT_MELDED)
    refused(t, rl.Discard(rl.JOKER), R.FREED_JOKER_NOT_MELDED)
    refused(t, rl.LayOff(1, rl.JOKER, rl.End.HIGH), R.CANNOT_FINISH_TURN)  # a lay-off does not count
    u = accepted(t, rl.LayMeld(M("8S 9S JK=10S")))
    accepted(u, rl.Discard(card("2D")))
    refused(s, rl.SwapJoker(0, card("8S")), R.NO_SUCH_JOKER)
    refused(s, rl.SwapJoker(len(s.round.table), card("6H")), R.NO_SUCH_MELD)


def test_swap_refused_when_the_joker_could_not_be_melded() -> None:
    # R-J4: the engine offers only what can still end the turn legally.
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1)]
    s = play("6H KD 2C", table=table, opened=[True, True])
    refused(s, rl.SwapJoker(0, card("6H")), R.CANNOT_FINISH_TURN)


def test_swap_only_with_the_exact_card_and_not_in_straight() -> None:
    table = [rl.TableMeld(M("8S 8H JK=8D"), 1)]
    s = play("8C 8D 2C 3C", table=table, opened=[True, True])
    refused(s, rl.SwapJoker(0, card("8C")), R.NO_SUCH_JOKER)


def test_joker_lay_off_declares_the_end() -> None:
    # R-J5
    table = [rl.TableMeld(M("JS QS KS"), 1), rl.TableMeld(M("8S 8H 8D"), 1)]
    s = play("JK 9S 2C", table=table, opened=[True, True])
    low = accepted(s, rl.LayOff(0, rl.JOKER, rl.End.LOW))
    assert str(low.round.table[0].meld) == "JK=10S JS QS KS"
    high = accepted(s, rl.LayOff(0, rl.JOKER, rl.End.HIGH))
    assert str(high.round.table[0].meld) == "JS QS KS JK=AS"
    grp = accepted(s, rl.LayOff(1, rl.JOKER, None))
    assert str(grp.round.table[1].meld) == "8S 8H 8D JK=8C"
    refused(s, rl.LayOff(0, rl.JOKER, None), R.BAD_END)
    refused(s, rl.LayOff(1, rl.JOKER, rl.End.LOW), R.BAD_END)
    refused(s, rl.LayOff(0, card("9S"), rl.End.LOW), R.DOES_NOT_FIT)
    refused(s, rl.LayOff(5, card("9S"), rl.End.LOW), R.NO_SUCH_MELD)


# --- going out and scoring (E1, E2, S1, S2) ----------------------------------------------------------------


def test_go_out_by_discarding_the_last_card_after_earlier_turns() -> None:
    # R-E1, S1: not a one-turn go-out (opened earlier), so single penalty.
    table = [rl.TableMeld(M("2H 3H 4H"), 0)]
    s = play("5H 6H 7H KC", "AS JK 7C", table=table, opened=[True, False])
    t = accepted(s, rl.LayMeld(M("5H 6H 7H")))
    u = accepted(t, rl.Discard(card("KC")))
    result = u.results[-1]
    assert result.winner == 0 and not result.rummy
    assert result.scores == (0, 48)  # JK 30 + A 11 + 7 (R-V1)
    assert list(rl.legal_actions(u)) == [rl.NextRound()]  # R-E5


def test_open_and_go_out_in_one_turn_doubles() -> None:
    # R-E2
    s = play("9S 10S JS QS KS AS 2C 3C 4C 7D", "AS JK 7C")
    t = accepted(s, rl.Open([M("9S 10S JS QS KS AS"), M("2C 3C 4C")]))
    u = accepted(t, rl.Discard(card("7D")))
    assert u.results[-1].rummy and u.results[-1].scores == (0, 96)


def test_house_multiplier() -> None:
    # R-E2 via rules.rummy_multiplier
    rules = attrs.evolve(REMIK, rummy_multiplier=3)
    s = rl.start_round_from(rules, [C("9S 10S JS QS KS AS 7D"), C("7C")], to_act=0, phase=rl.Phase.PLAY)
    t = rl.apply(rl.apply(s, rl.Open([M("9S 10S JS QS KS AS")])), rl.Discard(card("7D")))
    assert t.results[-1].scores == (0, 21)


def test_game_ends_past_the_limit_lowest_wins() -> None:
    # R-S2: past 500 (not at it), lowest total wins.
    s = play("9S 10S JS QS KS AS 7D", "KC", totals=[10, 490])
    t = rl.apply(rl.apply(s, rl.Open([M("9S 10S JS QS KS AS")])), rl.Discard(card("7D")))
    assert t.totals == (10, 510) and t.is_over and t.phase is rl.Phase.GAME_OVER
    assert t.standings.winners == (0,)
    assert list(rl.legal_actions(t)) == []
    refused(t, rl.NextRound(), R.GAME_OVER)
    s = play("9S 10S JS QS KS AS 7D", "5C", totals=[10, 490])
    t = rl.apply(rl.apply(s, rl.Open([M("9S 10S JS QS KS AS")])), rl.Discard(card("7D")))
    assert t.totals == (10, 500) and not t.is_over  # exactly 500 is not past it


def test_remik_one_meld_limit_variant_counts_the_opening() -> None:
    # R-T5 as a house knob on remik: the opening's melds count.
    rules = attrs.evolve(REMIK, melds_per_turn=1)
    s = rl.start_round_from(rules, [C("9S 10S JS QS KS AS 2C 3C 4C 7D"), C("5C")], to_act=0, phase=rl.Phase.PLAY)
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(s, rl.Open([M("9S 10S JS QS KS AS"), M("2C 3C 4C")]))
    assert err.value.reason is R.MELD_LIMIT
    t = rl.apply(s, rl.Open([M("9S 10S JS QS KS AS")]))
    assert not rl.is_legal(t, rl.LayMeld(M("2C 3C 4C")))


def test_take_the_discard_when_a_swap_makes_the_meld() -> None:
    # R-D2 with R-J4: swap 6S for the joker, then meld 8H 9H JK=10H (or 7H).
    table = [rl.TableMeld(M("5S JK=6S 7S"), 1)]
    s = draw_phase("9H 6S 2C", "8H", opened=[True, True], table=table)
    t = accepted(s, rl.TakeDiscard())
    refused(t, rl.Discard(card("2C")), R.TAKEN_CARD_NOT_MELDED)
    u = accepted(t, rl.SwapJoker(0, card("6S")))
    v = accepted(u, rl.LayMeld(M("8H 9H JK=10H")))
    w = accepted(v, rl.Discard(card("2C")))
    assert w.results[-1].winner == 0 and not w.results[-1].rummy  # opened before this turn


def test_legal_actions_list_every_joker_declaration() -> None:
    # R-J1: a set of three with a joker can stand for either missing suit; both are actions.
    s = play("8S 8H JK 2C 3D", opened=[True, False])
    melds = {a.meld for a in rl.legal_actions(s) if isinstance(a, rl.LayMeld)}
    assert {str(m) for m in melds} >= {"8S 8H JK=8D", "8S 8H JK=8C"}


@pytest.mark.parametrize(
    ("hand0", "opened"),
    [
        ("9S 10S JS QS KS AS 8S 8H JK 2C", [False, True]),
        ("9S 10S JS 6H 8S 8H JK 2C", [True, True]),
        ("5H 7H 8H 3S 3D", [True, True]),
    ],
)
def test_legal_actions_match_brute_force(hand0: str, opened: list[bool]) -> None:
    # perft-style: the lazy generator equals a brute-force filter of a superset.
    mine = 0 if opened[0] else 1  # a seat that has not opened owns no meld (R-O1)
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1), rl.TableMeld(M("QD QC JK=QH"), 1), rl.TableMeld(M("2S 3S 4S"), mine)]
    s = play(hand0, table=table, opened=opened)
    listed = list(rl.legal_actions(s))
    assert len(listed) == len(set(listed))
    assert set(listed) == {a for a in single_step_universe(s) if rl.is_legal(s, a)}


def test_go_out_turn_with_two_swaps_never_dead_ends() -> None:
    # R-D2 + R-J4: open with the taken card, swap two jokers in, meld them, go out.
    # Regression: a freed joker could once be laid off, leaving no legal action.
    table = [rl.TableMeld(M("AS 2S 3S JK=4S"), 1), rl.TableMeld(M("QS JK=QH QD QC"), 1)]
    s = draw_phase("9C 10C JC QC KC 4S QH 2D 8C", "AC", table=table, opened=[False, True])
    t = accepted(s, rl.TakeDiscard())
    t = accepted(t, rl.Open([M("9C 10C JC QC KC AC")]))
    t = accepted(t, rl.SwapJoker(0, card("4S")))
    t = accepted(t, rl.SwapJoker(1, card("QH")))
    for step in list(rl.legal_actions(t)):
        assert rl.is_legal(t, step)
    t = accepted(t, rl.LayMeld(M("JK=AD 2D JK=3D")))
    t = accepted(t, rl.Discard(card("8C")))
    assert t.results[-1].winner == 0 and t.results[-1].rummy
