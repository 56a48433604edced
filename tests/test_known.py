"""Public knowledge in views (R-H1): known cards of each hand, the known stock, and no leaks."""

from __future__ import annotations

import attrs
import pytest
from _setup import rest_on_table
from _walks import WALK_RULES, walk

import rummylib as rl
from rummylib.cards import CardMultiset, parse_cards
from rummylib.records import from_dict, to_dict


def _c(text: str) -> rl.Card:
    return rl.parse_card(text)


def test_a_taken_discard_is_known_to_every_seat_until_laid() -> None:
    # R-H1, D1: the pile is public, so the card taken from it is known in the taker's hand.
    s = rl.start_round_from(
        rl.STRAIGHT,
        [parse_cards("5H 6H 2C 9D"), parse_cards("KS KD 3C 4D")],
        discard=parse_cards("7H"),
        to_act=0,
        phase=rl.Phase.DRAW,
    )
    t = rl.apply(s, rl.TakeDiscard())
    for seat in (0, 1):
        assert rl.view(t, seat).known_cards == (CardMultiset([_c("7H")]), CardMultiset())
    meld = rl.make_meld(parse_cards("5H 6H 7H"), rl.STRAIGHT)
    u = rl.apply(t, rl.LayMeld(meld))
    assert rl.view(u, 1).known_cards == (CardMultiset(), CardMultiset())


def test_a_discarded_known_card_is_no_longer_known() -> None:
    s = rl.start_round_from(
        attrs.evolve(rl.STRAIGHT, discard_taken_card=True),
        [parse_cards("5H 6H 2C 9D"), parse_cards("KS KD 3C 4D")],
        discard=parse_cards("7H"),
        to_act=0,
        phase=rl.Phase.DRAW,
    )
    t = rl.apply(rl.apply(s, rl.TakeDiscard()), rl.Discard(_c("7H")))
    assert t.round.known_cards == (CardMultiset(), CardMultiset())


def test_a_freed_joker_is_known() -> None:
    # R-J4: everyone sees the joker go from the table to the swapper's hand.
    run = rl.make_meld(parse_cards("5H JK 7H"), rl.REMIK)
    s = rl.start_round_from(
        rl.REMIK,
        [parse_cards("6H 9C 9D 9S 2C"), parse_cards("KS KD 3C 4D")],
        table=[rl.TableMeld(run, 1), rl.TableMeld(rl.parse_meld("QS QH QD QC", rl.REMIK), 0)],  # R-O1
        opened=[True, True],
        to_act=0,
        phase=rl.Phase.PLAY,
    )
    t = rl.apply(s, rl.SwapJoker(0, _c("6H")))
    assert rl.view(t, 1).known_cards[0] == CardMultiset([rl.JOKER])


def _turned_over() -> rl.GameState:
    s = rl.start_round_from(
        rl.STRAIGHT,
        [parse_cards("5H 6H 2C 9D"), parse_cards("KS KD 3C 4D")],
        discard=parse_cards("2H 3H 4H"),
        table=rest_on_table(rl.STRAIGHT, parse_cards("5H 6H 2C 9D KS KD 3C 4D 2H 3H 4H")),
        to_act=0,
        phase=rl.Phase.DRAW,
        fill_stock=False,
    )
    return rl.apply(s, rl.DrawStock())


def test_a_turnover_makes_the_stock_order_public() -> None:
    # R-D6: the pile turned over unshuffled; its first card is drawn first, by everyone's sight.
    t = _turned_over()
    v = rl.view(t, 1)
    assert v.known_stock == parse_cards("3H 4H") == t.round.stock
    assert v.restocked == CardMultiset(parse_cards("2H 3H 4H"))
    assert v.known_cards[0] == CardMultiset([_c("2H")])
    u = rl.apply(rl.apply(t, rl.Discard(_c("9D"))), rl.DrawStock())
    assert rl.view(u, 0).known_cards[1] == CardMultiset([_c("3H")])
    assert rl.view(u, 0).known_stock == parse_cards("4H")


def test_a_reshuffle_shows_its_cards_but_not_their_order() -> None:
    # R-D4: the cards under the top discard were public; the shuffled order is not.
    s = rl.start_round_from(
        rl.REMIK,
        [parse_cards("5H 6H 2C 9D"), parse_cards("KS KD 3C 4D")],
        discard=parse_cards("2H 3H 4H QC"),
        table=rest_on_table(rl.REMIK, parse_cards("5H 6H 2C 9D KS KD 3C 4D 2H 3H 4H QC")),
        to_act=0,
        phase=rl.Phase.DRAW,
        fill_stock=False,
    )
    t = rl.apply(s, rl.DrawStock())
    v = rl.view(t, 1)
    assert v.restocked == CardMultiset(parse_cards("2H 3H 4H"))
    assert v.known_stock == () and v.known_cards == (CardMultiset(), CardMultiset())
    assert CardMultiset(t.round.stock) <= v.restocked


def _check_invariants(state: rl.GameState) -> None:
    r = state.round
    for seat, known in enumerate(r.known_cards):
        assert known <= r.hands[seat]
    assert r.stock[len(r.stock) - len(r.known_stock) :] == r.known_stock
    if r.restocks:
        assert CardMultiset(r.stock) <= r.restocked
    else:
        assert not r.restocked


@pytest.mark.parametrize("name", sorted(WALK_RULES))
def test_knowledge_invariants_and_round_trips_on_reachable_states(name: str) -> None:
    for seed in range(2):
        for i, state in enumerate(walk(WALK_RULES[name], 2 + seed, seed, 250)):
            _check_invariants(state)
            if i % 10 == 0:
                assert from_dict(to_dict(state)) == state
                v = rl.view(state, i % state.num_players)
                assert from_dict(to_dict(v)) == v


def _hide_swap(state: rl.GameState, seat: int) -> rl.GameState | None:
    """``state`` with a hidden card of another hand swapped with a different hidden stock card, or None."""
    r = state.round
    hidden_stock = r.stock[: len(r.stock) - len(r.known_stock)]
    for other in range(state.num_players):
        if other == seat:
            continue
        spare = r.hands[other] - r.known_cards[other]
        for i, y in enumerate(hidden_stock):
            if r.restocks and y not in r.restocked:
                continue
            for x in spare.distinct():
                if x != y and (not r.restocks or r.restocked.count(x) > CardMultiset(r.stock).count(x)):
                    hand = r.hands[other] - CardMultiset([x]) + CardMultiset([y])
                    hands = tuple(hand if k == other else h for k, h in enumerate(r.hands))
                    stock = (*r.stock[:i], x, *r.stock[i + 1 :])
                    return attrs.evolve(state, seed=12345, round=attrs.evolve(r, hands=hands, stock=stock))
    return None


@pytest.mark.parametrize("name", sorted(WALK_RULES))
def test_states_differing_only_in_hidden_cards_give_equal_views(name: str) -> None:
    # R-H1: another hand beyond its known cards, the stock's hidden order and the seed never show.
    swapped = 0
    for i, state in enumerate(walk(WALK_RULES[name], 3, 7, 200)):
        seat = i % 3
        other = _hide_swap(state, seat)
        if other is None:
            continue
        assert other != state
        assert rl.view(other, seat) == rl.view(state, seat)
        assert to_dict(rl.view(other, seat)) == to_dict(rl.view(state, seat))
        swapped += 1
    assert swapped > 50


def _reachable_with_known_stock() -> rl.GameState:
    return next(s for s in walk(WALK_RULES["straight"], 2, 1, 2000) if s.round.known_stock and any(s.round.known_cards))


def test_a_known_card_not_in_its_hand_is_refused() -> None:
    state = _reachable_with_known_stock()
    doc = to_dict(state)
    seat = next(i for i, k in enumerate(state.round.known_cards) if k)
    stray = next(c for c in state.round.stock if c not in state.round.hands[seat])
    doc["round"]["known_cards"][seat].append(str(stray))
    with pytest.raises(rl.InvalidStateError) as info:
        from_dict(doc)
    assert info.value.reason is rl.StateReason.INCONSISTENT
    assert "known_cards" in str(info.value)


def test_a_forged_known_stock_or_refill_is_refused() -> None:
    state = _reachable_with_known_stock()
    doc = to_dict(state)
    doc["round"]["known_stock"] = doc["round"]["known_stock"][::-1] + ["KS"]
    with pytest.raises(rl.InvalidStateError):
        from_dict(doc)
    doc = to_dict(state)
    doc["round"]["restocked"] = []
    with pytest.raises(rl.InvalidStateError):
        from_dict(doc)
    doc = to_dict(rl.view(state, 0))
    doc["known_stock"] = doc["known_stock"] + ["KS"] * 60  # longer than the stock
    with pytest.raises(rl.InvalidStateError):
        from_dict(doc)
