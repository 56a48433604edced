"""Engine: deal, seats, randomness, the draw/discard loop, the pile and the stock (R-P, T, D)."""

from __future__ import annotations

import hashlib

import attrs
import pytest
from _setup import rest_on_table
from hypothesis import given
from hypothesis import strategies as st

import rummylib as rl
from rummylib.engine._rng import _key, _Stream, shuffled

C = rl.parse_cards


def hand(text: str) -> rl.CardMultiset:
    return rl.CardMultiset(C(text))


# --- randomness: version-stable vectors (DESIGN.md "Randomness") ----------------------------


def test_shuffle_vectors_are_pinned() -> None:
    assert shuffled(range(10), 2026, "demo") == (6, 1, 2, 9, 0, 8, 5, 7, 4, 3)
    assert shuffled(range(10), "abc", "demo") == (6, 4, 9, 3, 7, 1, 8, 5, 0, 2)
    # a deck: more words than one block of the stream holds (eight)
    digest = hashlib.sha256(repr(shuffled(range(108), 7, "deal", 1)).encode()).hexdigest()
    assert digest == "13621a534e27537e19b4ae43b09a057656d5ae1d6f9147a8619606a2802a937f"


def _reference_words(seed: int | str, labels: tuple[object, ...], count: int) -> list[int]:
    # The stream as DESIGN.md states it: block k = BLAKE2b-512(labels, k) keyed by the seed, read as
    # little-endian 64-bit words, eight per block, in order.
    key = _key(seed)
    label = "\x1f".join(str(x) for x in labels).encode("utf-8")
    words: list[int] = []
    k = 0
    while len(words) < count:
        block = hashlib.blake2b(label + k.to_bytes(8, "little"), key=key, digest_size=64, person=b"rummylib-strm")
        raw = block.digest()
        words += [int.from_bytes(raw[i : i + 8], "little") for i in range(0, 64, 8)]
        k += 1
    return words[:count]


@given(seed=st.integers(0, 2**64) | st.text(max_size=20), count=st.integers(0, 40))
def test_the_stream_reads_each_block_as_eight_words_in_order(seed: int | str, count: int) -> None:
    stream = _Stream(seed, ("test", count))
    assert [stream._next64() for _ in range(count)] == _reference_words(seed, ("test", count), count)


def test_deal_vectors_are_pinned() -> None:
    s = rl.new_game(rl.REMIK, 4, seed=2026)
    assert str(s.round.hands[0]) == "4S 6S 6S 7S 10S JS JS 3H 2D 5C 5C 9C 10C KC"
    assert str(s.round.hands[1]) == "AH 7H 8H 10H JH JH KH AD AD 3C 8C QC KC"
    assert rl.parse_cards("5D 9D QS 9S 9D 5H 10C JK 7D 7C") == s.round.stock[:10]
    t = rl.new_game(rl.STRAIGHT, 2, seed=2026)
    assert str(t.round.hands[0]) == "AS 10S 6H 7H 10H 2D 7D KD 3C QC"
    assert str(t.round.hands[1]) == "7S 9S QS KS 2H 3H 8H 4D 5D QD"
    assert t.round.discard == C("8D")
    assert t.round.stock[:3] == C("JS 6S AH")


def test_same_seed_same_game_and_no_seed_is_random() -> None:
    assert rl.new_game(rl.REMIK, 3, seed="x") == rl.new_game(rl.REMIK, 3, seed="x")
    a, b = rl.new_game(rl.REMIK, 3), rl.new_game(rl.REMIK, 3)
    assert isinstance(a.seed, int) and a.seed != b.seed
    assert a.round.stock != b.round.stock


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(rl.RulesetError):
        rl.new_game(rl.REMIK, 7)  # R-P2: 2 to 6 players
    with pytest.raises(rl.RulesetError):
        rl.new_game(rl.REMIK, 1)
    with pytest.raises(rl.RulesetError):
        rl.new_game(rl.REMIK, 3, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(rl.ArgumentError):  # a dealer is a seat, not a ruleset field
        rl.new_game(rl.REMIK, 3, dealer=3)
    with pytest.raises(rl.RulesetError):
        rl.new_game("remik", 3)  # type: ignore[arg-type]


# --- deal and seats ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 7))
def test_remik_deal(n: int) -> None:
    # R-P2: 13 each, dealer 14 and plays first; R-T1: no draw; R-D3: no upcard.
    s = rl.new_game(rl.REMIK, n, seed=n, dealer=n - 1)
    sizes = [len(h) for h in s.round.hands]
    assert sizes == [13] * (n - 1) + [14]
    assert s.to_act == n - 1 and s.phase is rl.Phase.PLAY
    assert s.round.discard == ()
    assert s.round.cards() == rl.deck(rl.REMIK)  # R-C3
    assert s.round.opened == (False,) * n


@pytest.mark.parametrize(("n", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_straight_deal(n: int, size: int) -> None:
    # R-P3: hand sizes by player count; left of the dealer starts; R-D5: upcard.
    s = rl.new_game(rl.STRAIGHT, n, seed=n, dealer=1)
    assert [len(h) for h in s.round.hands] == [size] * n
    assert s.to_act == 2 % n and s.phase is rl.Phase.DRAW
    assert len(s.round.discard) == 1
    assert s.round.cards() == rl.deck(rl.STRAIGHT)
    assert s.round.opened == (True,) * n  # no opening rule


def test_deal_one_at_a_time_from_the_dealers_left() -> None:
    # R-P2: seat dealer+1 gets the first card of the shuffled deck.
    s = rl.new_game(rl.STRAIGHT, 3, seed=9, dealer=0)
    order = shuffled(tuple(rl.deck(rl.STRAIGHT)), 9, "deal", 1)
    assert order[0] in s.round.hands[1] and order[1] in s.round.hands[2] and order[2] in s.round.hands[0]
    assert s.round.discard == (order[21],) and s.round.stock == order[22:]


def test_player_names() -> None:
    s = rl.new_game(rl.STRAIGHT, ["ann", "bob"], seed=1)
    assert s.players == ("ann", "bob")
    assert rl.new_game(rl.STRAIGHT, 3, seed=1).players == ("P0", "P1", "P2")


def test_choose_first_dealer() -> None:
    # R-P5: deterministic with a seed, a seat of the table.
    for n in range(2, 7):
        seats = {rl.choose_first_dealer(rl.REMIK, n, seed=k) for k in range(30)}
        assert seats <= set(range(n)) and len(seats) > 1
    assert rl.choose_first_dealer(rl.REMIK, 4, seed=3) == rl.choose_first_dealer(rl.REMIK, 4, seed=3)


def test_first_dealer_draw_ranks() -> None:
    # R-P5: joker highest, then ace, king ... two; suits do not rank.
    from rummylib.engine._deal import _draw_rank

    order = [_draw_rank(c) for c in C("JK AS KH QD 10C 2S")]
    assert order == sorted(order, reverse=True) and len(set(order)) == 6
    assert _draw_rank(C("7S")[0]) == _draw_rank(C("7H")[0])


# --- the draw/discard loop ---------------------------------------------------------------------


def _play_draw_discard(rules: rl.Ruleset, seed: int, steps: int) -> rl.GameState:
    s = rl.new_game(rules, 3, seed=seed)
    deck = s.round.cards()
    for _ in range(steps):
        if s.is_over:
            break
        if s.phase is rl.Phase.ROUND_OVER:
            s = rl.apply(s, rl.NextRound())
            deck = s.round.cards()
        elif s.phase is rl.Phase.DRAW:
            s = rl.apply(s, rl.DrawStock())
        else:
            s = rl.apply(s, rl.Discard(max(s.round.hands[s.to_act])))
        assert s.round.cards() == deck  # R-C3
    return s


@pytest.mark.parametrize("rules", [rl.REMIK, rl.STRAIGHT])
def test_draw_discard_loop_voids_at_the_restock_cap(rules: rl.Ruleset) -> None:
    s = _play_draw_discard(attrs.evolve(rules, restock_limit=1), 1, 400)
    assert s.round_number > 1
    assert all(r.is_void for r in s.results)  # R-D7: nobody melds, the cap ends rounds
    assert s.totals == (0, 0, 0)


def test_turn_order_and_draw() -> None:
    # R-T4: draw one card; then discard passes the turn left (R-P1).
    s = rl.new_game(rl.STRAIGHT, 3, seed=4)
    top = s.round.stock[0]
    t = rl.apply(s, rl.DrawStock())
    assert t.round.hands[1].count(top) == 1 and t.round.turn.drawn == top
    u = rl.apply(t, rl.Discard(top))  # a card drawn from the stock may be discarded (R-T7)
    assert u.to_act == 2 and u.phase is rl.Phase.DRAW and u.round.discard[-1] == top


def test_next_round_passes_the_deal_left() -> None:
    # R-P4
    rules = attrs.evolve(rl.STRAIGHT, restock_limit=0)
    hands = [C("2H 9C"), C("KS QS")]
    s = rl.start_round_from(
        rules, hands, discard=C("7D"), table=rest_on_table(rules, *hands, C("7D")), fill_stock=False, dealer=1
    )
    s = rl.apply(s, rl.DrawStock())  # empty stock, cap 0: void (R-D7)
    assert s.phase is rl.Phase.ROUND_OVER and s.results[-1].is_void
    t = rl.apply(s, rl.NextRound())
    assert t.dealer == 0 and t.round_number == 2 and t.to_act == 1
    assert t.round.cards() == rl.deck(rules)


# --- the pile and the stock ---------------------------------------------------------------------


def test_only_the_top_discard_is_taken() -> None:
    # R-D1
    s = rl.start_round_from(rl.STRAIGHT, [C("2H 9C"), C("KS QS")], discard=C("7D 8D"), to_act=0)
    t = rl.apply(s, rl.TakeDiscard())
    assert t.round.hands[0] == hand("2H 9C 8D") and t.round.discard == C("7D")


def test_straight_taken_card_cannot_be_discarded() -> None:
    # R-T7
    s = rl.start_round_from(rl.STRAIGHT, [C("2H 9C"), C("KS QS")], discard=C("7D"), to_act=0)
    t = rl.apply(s, rl.TakeDiscard())
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(t, rl.Discard(C("7D")[0]))
    assert err.value.reason is rl.IllegalActionReason.CANNOT_DISCARD_TAKEN_CARD
    assert rl.Discard(C("7D")[0]) not in list(rl.legal_actions(t))
    rl.check(t, rl.Discard(C("9C")[0]))


def test_remik_reshuffle_keeps_the_top_discard() -> None:
    # R-D4: the rest of the pile is shuffled with the seed into the new stock.
    hands = [C("2H 9C 5S"), C("KS QS 4D")]
    pile = C("3C 4C 5C 6C")
    table = rest_on_table(rl.REMIK, *hands, pile)  # the rest of the deck: an empty stock (R-C3)
    s = rl.start_round_from(rl.REMIK, hands, discard=pile, table=table, fill_stock=False, to_act=0, phase=rl.Phase.DRAW)
    t = rl.apply(s, rl.DrawStock())
    assert t.round.discard == C("6C") and t.round.restocks == 1
    drawn = t.round.turn.drawn
    assert drawn is not None
    assert sorted((*t.round.stock, drawn)) == sorted(C("3C 4C 5C"))
    again = rl.apply(s, rl.DrawStock())
    assert again == t  # seeded, so repeatable


def test_straight_turns_the_pile_over_unshuffled() -> None:
    # R-D6: the first discard is drawn first, the most recent last; a new pile starts.
    hands, pile = [C("2H 9C"), C("KS QS")], C("3C 4C 5C")
    table = rest_on_table(rl.STRAIGHT, *hands, pile)
    s = rl.start_round_from(rl.STRAIGHT, hands, discard=pile, table=table, fill_stock=False, to_act=0)
    t = rl.apply(s, rl.DrawStock())
    assert t.round.turn.drawn == C("3C")[0]
    assert t.round.stock == C("4C 5C") and t.round.discard == () and t.round.restocks == 1


def test_void_when_no_pile_can_serve() -> None:
    # R-D7: remik, empty stock and a single discard.
    hands, pile = [C("2H 9C 5S"), C("KS QS 4D")], C("6C")
    table = rest_on_table(rl.REMIK, *hands, pile)
    s = rl.start_round_from(rl.REMIK, hands, discard=pile, table=table, fill_stock=False, to_act=0, phase=rl.Phase.DRAW)
    t = rl.apply(s, rl.DrawStock())
    assert t.phase is rl.Phase.ROUND_OVER
    result = t.results[-1]
    assert result.is_void and result.scores == (0, 0) and t.totals == (0, 0)
    assert list(rl.legal_actions(t)) == [rl.NextRound()]


def test_void_past_the_restock_cap() -> None:
    # R-D7: a ruleset may cap the refills.
    rules = attrs.evolve(rl.STRAIGHT, restock_limit=1)
    hands, pile = [C("2H 9C"), C("KS QS")], C("3C 4C")
    table = rest_on_table(rules, *hands, pile)
    s = rl.start_round_from(rules, hands, discard=pile, table=table, fill_stock=False, to_act=0)
    s = rl.apply(s, rl.DrawStock())  # first refill
    s = rl.apply(s, rl.Discard(C("3C")[0]))
    s = rl.apply(s, rl.DrawStock())  # 4C, the last stock card
    s = rl.apply(s, rl.Discard(C("4C")[0]))
    s = rl.apply(s, rl.DrawStock())  # would be the second refill
    assert s.phase is rl.Phase.ROUND_OVER and s.results[-1].is_void


# --- errors ----------------------------------------------------------------------------------------


def test_illegal_actions_have_reasons() -> None:
    R = rl.IllegalActionReason
    s = rl.new_game(rl.STRAIGHT, 2, seed=3)
    cases: list[tuple[object, rl.IllegalActionReason]] = [
        (rl.Discard(C("2H")[0]), R.WRONG_PHASE),
        (rl.NextRound(), R.WRONG_PHASE),
        ("draw", R.WRONG_TYPE),
        (rl.DrawStock, R.WRONG_TYPE),
    ]
    for action, reason in cases:
        with pytest.raises(rl.IllegalActionError) as err:
            rl.check(s, action)  # type: ignore[arg-type]
        assert err.value.reason is reason
        assert not rl.is_legal(s, action)  # type: ignore[arg-type]
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(s, rl.DrawStock(), seat=0)
    assert err.value.reason is R.NOT_YOUR_TURN
    t = rl.apply(s, rl.DrawStock(), seat=1)
    missing = next(c for c in rl.deck(rl.STRAIGHT).distinct() if not t.round.hands[1].count(c))
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(t, rl.Discard(missing))
    assert err.value.reason is R.CARD_NOT_IN_HAND
    assert isinstance(err.value, ValueError)
    assert str(missing) in str(err.value)


def test_start_round_from_validates() -> None:
    with pytest.raises(rl.InvalidCardsError):
        rl.start_round_from(rl.STRAIGHT, [C("2H 2H"), C("KS")])  # one deck: one 2H
    with pytest.raises(rl.InvalidCardsError):
        rl.start_round_from(rl.STRAIGHT, "2H 3H")  # type: ignore[arg-type]
    with pytest.raises(rl.ArgumentError) as info:  # a seat is an argument, not a ruleset field
        rl.start_round_from(rl.STRAIGHT, [C("2H"), C("KS")], to_act=2)
    assert info.value.argument == "to_act" and info.value.reason is rl.ArgumentReason.BAD_VALUE
    s = rl.start_round_from(rl.STRAIGHT, [C("2H"), C("KS")])
    assert s.round.cards() == rl.deck(rl.STRAIGHT)


def test_non_states_raise_typed_errors() -> None:
    for call in (
        lambda: rl.legal_actions("state"),  # type: ignore[arg-type]
        lambda: rl.apply(None, rl.DrawStock()),  # type: ignore[arg-type]
        lambda: rl.is_legal(3, rl.DrawStock()),  # type: ignore[arg-type]
        lambda: rl.view({}, 0),  # type: ignore[arg-type]
    ):
        with pytest.raises(rl.InvalidStateError):
            call()


def test_states_pickle() -> None:
    import pickle

    s = rl.new_game(rl.REMIK, 3, seed=8)
    assert pickle.loads(pickle.dumps(s)) == s
    assert pickle.loads(pickle.dumps(rl.view(s, 1))) == rl.view(s, 1)
