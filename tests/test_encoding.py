"""rummylib.encoding: fixed action ids (a bijection with legal_actions) and observation vectors."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from _budget import examples
from _setup import rest_on_table
from _walks import WALK_RULES, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib import JOKER, Discard, DrawStock, End, LayMeld, LayOff, Open, SwapJoker, parse_card, parse_cards
from rummylib._card import natural
from rummylib.encoding import ActionCodec, EncodingError, EncodingReason, ObservationEncoder
from rummylib.melds import Group, Meld, Run, validate_meld
from rummylib.testing import game_states

#: Joker-heavy house rules: six jokers, jokers side by side, two jokers in a set of three.
JOKERS = attrs.evolve(rl.REMIK, name="jokers", jokers=6, adjacent_jokers=True, group3_max_jokers=2)
GAMES = [(rl.REMIK, 2), (rl.REMIK, 4), (rl.STRAIGHT, 2), (rl.STRAIGHT, 4), (JOKERS, 3)]
_CODECS: dict[tuple[str, int], ActionCodec] = {}


def codec_for(rules: rl.Ruleset, players: int) -> ActionCodec:
    key = (rules.name, players)
    if key not in _CODECS:
        _CODECS[key] = ActionCodec(rules, players)
    return _CODECS[key]


def single_steps(state: rl.GameState) -> list[rl.Action]:
    return list(rl.legal_actions(state))


def lists_open(state: rl.GameState) -> bool:
    return any(isinstance(a, Open) for a in rl.legal_actions(state))


def assert_bijection(codec: ActionCodec, state: rl.GameState) -> None:
    actions = single_steps(state)
    ids = codec.legal_ids(state)
    assert len(set(ids)) == len(ids) == len(actions)  # one id per action, none shared
    for action, i in zip(actions, ids):
        assert 0 <= i < codec.size
        assert codec.encode(action) == i
        assert codec.decode(i) == action
    # The environments play the listed action of an id instead of decoding it: the same action.
    assert list(codec._legal_by_id(state).items()) == list(zip(ids, actions))
    mask = codec.legal_mask(state)
    assert len(mask) == codec.size
    assert {i for i, bit in enumerate(mask) if bit} == set(ids)
    # The trusted listing the environments bind (codec._id_listing): the same ids, actions and mask.
    listing = codec._id_listing()
    assert list(listing.listed_by_id(state).items()) == list(zip(ids, actions))
    assert listing.mask(ids) == mask


# --- the bijection on reachable states ----------------------------------------------------------


def _walk(rules: rl.Ruleset, players: int, seed: int, steps: int) -> int:
    """Play ``steps`` uniformly random legal actions, checking the bijection in every state passed."""
    codec = codec_for(rules, players)
    pick = random.Random(seed)
    state = rl.new_game(rules, players, seed=seed)
    for _ in range(steps):
        assert_bijection(codec, state)
        legal = list(rl.legal_actions(state))
        if not legal:
            break
        state = rl.apply(state, legal[pick.randrange(len(legal))])
    return steps


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_ids_round_trip_every_legal_action(game: tuple[rl.Ruleset, int], seed: int) -> None:
    # Each example checks every state of a random game's first 80 actions (R-O4, T, D, J4 steps).
    _walk(*game, seed, 80)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_ids_round_trip_every_legal_action_long_games(game: tuple[rl.Ruleset, int], seed: int) -> None:
    _walk(*game, seed, 400)  # about 10,000 states


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_states(rl.STRAIGHT, players=3, max_actions=120))
def test_mask_is_legal_actions_exactly_in_straight(state: rl.GameState) -> None:
    # Straight has no opening (R-O1 does not apply), so legal_actions lists single steps only.
    assert not lists_open(state)
    codec = codec_for(rl.STRAIGHT, 3)
    mask = codec.legal_mask(state)
    assert [codec.decode(i) for i, bit in enumerate(mask) if bit] == sorted(rl.legal_actions(state), key=codec.encode)


def _opened_remik_states() -> list[rl.GameState]:
    """Remik states of a greedy game after the player to act has opened (R-O5), a few per turn."""
    out: list[rl.GameState] = []
    for seed in range(4):
        state = rl.new_game(rl.REMIK, 2, seed=seed)
        bot = rl.GreedyBot()
        for _ in range(400):
            if state.is_over or len(out) > 40 * (seed + 1):
                break
            if state.phase is not rl.Phase.ROUND_OVER and state.round.opened[state.to_act]:
                out.append(state)
            state = rl.apply(state, bot.choose(rl.view(state, state.to_act), list(rl.legal_actions(state))))
    return out


def test_mask_is_legal_actions_exactly_in_remik_after_opening() -> None:
    states = _opened_remik_states()
    assert len(states) > 20
    codec = codec_for(rl.REMIK, 2)
    for state in states:
        assert not lists_open(state)
        assert sorted(codec.legal_ids(state)) == sorted(codec.encode(a) for a in rl.legal_actions(state))
        assert_bijection(codec, state)


def test_mask_is_legal_actions_exactly_in_remik_before_opening() -> None:
    # R-O4: once the engine lists the opening as single LayMeld steps, the mask must be all of it.
    codec = codec_for(rl.REMIK, 2)
    hands = [parse_cards("9S 10S JS QS KS 5H 6H 7H 8D 8C 8H 2C 3D 4D"), parse_cards("AS 2S 3S")]
    state = rl.start_round_from(rl.REMIK, hands, discard=parse_cards("KD"))
    assert not lists_open(state)  # R-O4: the opening is laid one LayMeld at a time
    assert sorted(codec.legal_ids(state)) == sorted(codec.encode(a) for a in rl.legal_actions(state))
    assert any(isinstance(codec.decode(i), LayMeld) for i in codec.legal_ids(state))
    assert_bijection(codec, state)


# --- the fixed layout ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players"),
    [(rl.REMIK, 2), (rl.STRAIGHT, 2), pytest.param(JOKERS, 3, marks=pytest.mark.slow)],
    ids=["remik", "straight", "jokers"],
)
def test_every_id_decodes_to_an_action_the_rules_allow_and_back(rules: rl.Ruleset, players: int) -> None:
    codec = codec_for(rules, players)
    seen = set()
    for i in range(codec.size):
        action = codec.decode(i)
        assert codec.encode(action) == i
        seen.add(action)
        if isinstance(action, LayMeld):
            validate_meld(action.meld, rules)  # R-M1..M4, J2, J3
    assert len(seen) == codec.size


def _oracle_meld_count(rules: rl.Ruleset) -> int:
    """Every Run and Group value, built by brute force and kept if validate_meld accepts it."""
    count = 0
    for suit, start, length in itertools.product(rl.Suit, range(1, 15), range(3, 14)):
        if start + length - 1 > 14:
            continue
        for k in range(min(length, rules.jokers) + 1):  # never more jokers than the deck has
            for slots in itertools.combinations(range(length), k):
                cards = [JOKER if i in slots else rl.melds.card_at_position(start + i, suit) for i in range(length)]
                try:
                    validate_meld(Run(suit, start, cards), rules)
                except rl.RummyError:
                    continue
                count += 1
    for rank, size in itertools.product(rl.Rank, (3, 4)):
        for suits in itertools.combinations(rl.Suit, size):
            for jokers in itertools.product((False, True), repeat=size):
                cards = [JOKER if j else natural(int(rank), s) for s, j in zip(suits, jokers)]
                try:
                    validate_meld(Group(rank, cards, suits), rules)
                except rl.RummyError:
                    continue
                count += 1
    return count


# The joker-heavy catalogue (every meld of it) in the slow suite (CI).
@pytest.mark.parametrize(
    "rules", [rl.REMIK, rl.STRAIGHT, pytest.param(JOKERS, marks=pytest.mark.slow)], ids=lambda r: r.name
)
def test_the_environments_listing_ranks_every_meld_as_the_catalogue(rules: rl.Ruleset) -> None:
    # The environments' listing (encoding._listing, compiled in the compiled build) ranks a listed meld
    # by the catalogue's tables itself: the same index as MeldCatalogue.index for every meld the rules
    # allow (R-M1..M4, J1..J3), and none for a meld they do not (then the codec's encode decides).
    codec = codec_for(rules, 2 if rules is not JOKERS else 3)
    melds = codec._melds
    for i in range(melds.size):
        meld = melds.meld(i)
        assert codec._listing.meld_index(meld) == i == melds.index(meld), meld
    outside: list[Meld] = [
        Run(rl.Suit.HEARTS, 12, parse_cards("QH KH AH")),
        Run(rl.Suit.HEARTS, 2, parse_cards("2H JK 4H")),
    ]
    outside.append(Group(rl.Rank.EIGHT, parse_cards("8S JK JK"), (rl.Suit.SPADES, rl.Suit.HEARTS, rl.Suit.CLUBS)))
    for meld in outside:
        assert codec._listing.meld_index(meld) == (-1 if melds.index(meld) is None else melds.index(meld))


def _slot_oracle(meld: Meld) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    # A table slot's numbers from the melds' public fields, as the encoder's docstring lays them out.
    jokers = [i for i, c in enumerate(meld.cards) if c.is_joker]
    stands = tuple(meld.represents[i].index for i in jokers)
    cards = tuple(c.index for c in meld.cards)
    if isinstance(meld, Run):
        bits = sum(1 << i for i in jokers)
        return (1, meld.suit.index + 1, meld.start, len(cards), bits, 0), cards, stands
    assert isinstance(meld, Group)
    bits = sum(1 << meld.suits[i].index for i in jokers)
    return (2, int(meld.rank), 0, len(cards), bits, sum(1 << s.index for s in meld.suits)), cards, stands


# The joker-heavy catalogue (every meld of it) in the slow suite (CI).
@pytest.mark.parametrize("rules", [rl.REMIK, pytest.param(JOKERS, marks=pytest.mark.slow)], ids=lambda r: r.name)
def test_table_slot_numbers_of_every_meld(rules: rl.Ruleset) -> None:
    # The observation's table numbers (encoding._numbers, compiled in the compiled build) of every
    # meld the rules allow, joker declarations included (R-M1..M4, J1..J3), from the melds' own fields.
    from rummylib.encoding._numbers import meld_numbers

    melds = codec_for(rules, 2 if rules is not JOKERS else 3)._melds
    for i in range(melds.size):
        meld = melds.meld(i)
        assert meld_numbers(meld) == _slot_oracle(meld), meld


@pytest.mark.slow
@pytest.mark.parametrize("rules", [rl.REMIK, rl.STRAIGHT, JOKERS], ids=lambda r: r.name)
def test_meld_catalogue_is_every_meld_the_rules_allow(rules: rl.Ruleset) -> None:
    assert codec_for(rules, 2 if rules is not JOKERS else 3).meld_count == _oracle_meld_count(rules)


def test_preset_sizes_are_documented() -> None:
    # docs/explanation/encoding.rst states these numbers.
    assert (ActionCodec(rl.REMIK, 4).size, ActionCodec(rl.STRAIGHT, 2).size) == (27579, 2628)
    assert (ActionCodec(rl.REMIK, 4).meld_count, ActionCodec(rl.STRAIGHT, 2).meld_count) == (20503, 329)
    assert ActionCodec(rl.STRAIGHT, 2).meld_count == _oracle_meld_count(rl.STRAIGHT)


def test_table_slot_bound_covers_every_table() -> None:
    # R-C3: a meld holds 3 cards or more, so no table holds more melds than the deck has thirds.
    for rules in (rl.REMIK, rl.STRAIGHT, JOKERS):
        codec = codec_for(rules, 3)
        assert codec.slots == len(rl.deck(rules)) // 3
        assert (codec.slots + 1) * 3 > len(rl.deck(rules))


# --- refusals -----------------------------------------------------------------------------------


def test_composite_open_has_no_id() -> None:
    run = rl.make_meld(parse_cards("9S 10S JS"), rl.REMIK)
    with pytest.raises(EncodingError) as caught:
        codec_for(rl.REMIK, 2).encode(Open((run,)))
    assert caught.value.reason is EncodingReason.COMPOSITE


@pytest.mark.parametrize(
    "action",
    [
        LayOff(36, parse_card("QS"), End.HIGH),  # past the slot bound
        LayOff(-1, parse_card("QS"), End.HIGH),
        LayOff(True, parse_card("QS"), End.HIGH),
        LayOff(0, parse_card("QS"), "high"),  # type: ignore[arg-type]
        LayOff(0, parse_card("KS"), End.LOW),  # a king is never below a run (R-M3)
        SwapJoker(0, JOKER),
        Discard("7H"),  # type: ignore[arg-type]
        LayMeld("9S 10S JS"),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_actions_outside_the_catalogue_are_refused(action: rl.Action) -> None:
    with pytest.raises(EncodingError) as caught:
        codec_for(rl.REMIK, 2).encode(action)
    assert caught.value.reason is EncodingReason.NOT_IN_CATALOGUE
    assert len(str(caught.value)) < 200


def test_straight_ids_have_no_jokers_swaps_or_high_aces() -> None:
    codec = codec_for(rl.STRAIGHT, 2)
    high_ace = Run(rl.Suit.SPADES, 12, parse_cards("QS KS AS"))  # R-M4
    for action in (Discard(JOKER), SwapJoker(0, parse_card("7H")), LayMeld(high_ace)):
        with pytest.raises(EncodingError) as caught:
            codec.encode(action)
        assert caught.value.reason is EncodingReason.NOT_IN_CATALOGUE


@pytest.mark.parametrize("bad", [-1, 2628, True, "3", 3.0, None])
def test_bad_ids_are_refused(bad: object) -> None:
    with pytest.raises(EncodingError) as caught:
        codec_for(rl.STRAIGHT, 2).decode(bad)  # type: ignore[arg-type]
    assert caught.value.reason is EncodingReason.BAD_ID


def test_wrong_arguments_are_typed_errors() -> None:
    with pytest.raises(EncodingError):
        ActionCodec("remik", 2)  # type: ignore[arg-type]
    with pytest.raises(EncodingError):
        ActionCodec(rl.REMIK, 7)
    with pytest.raises(EncodingError):
        ObservationEncoder(rl.STRAIGHT, True)
    with pytest.raises(EncodingError) as caught:
        codec_for(rl.REMIK, 2).encode("draw")  # type: ignore[arg-type]
    assert caught.value.reason is EncodingReason.WRONG_TYPE
    state = rl.new_game(rl.REMIK, 3, seed=1)
    with pytest.raises(EncodingError) as caught:
        codec_for(rl.REMIK, 2).legal_ids(state)
    assert caught.value.reason is EncodingReason.WRONG_GAME
    with pytest.raises(EncodingError):
        ObservationEncoder(rl.REMIK, 2).encode(rl.view(state, 0))
    with pytest.raises(EncodingError):
        codec_for(rl.REMIK, 2).legal_mask(rl.view(state, 0))  # type: ignore[arg-type]
    assert isinstance(EncodingError(EncodingReason.BAD_ID, 1, "x"), ValueError)


def test_numpy_integer_ids_decode() -> None:
    np = pytest.importorskip("numpy")
    codec = codec_for(rl.STRAIGHT, 2)
    assert codec.decode(np.int64(3)) == codec.decode(3)
    with pytest.raises(EncodingError):
        codec.decode(np.bool_(True))


def test_draw_ids_are_fixed() -> None:
    codec = codec_for(rl.REMIK, 2)
    assert [codec.decode(i) for i in range(3)] == [DrawStock(), rl.TakeDiscard(), rl.NextRound()]


# --- observations -------------------------------------------------------------------------------


def _hide_differently(state: rl.GameState, seat: int) -> rl.GameState | None:
    """The same state with one card of another seat's hand exchanged for a different stock card."""
    r = state.round
    for other in range(state.num_players):
        if other == seat:
            continue
        for card in r.hands[other].distinct():
            for k, stock_card in enumerate(r.stock):
                if stock_card != card:
                    hand = r.hands[other] - rl.CardMultiset([card]) + rl.CardMultiset([stock_card])
                    hands = tuple(hand if i == other else h for i, h in enumerate(r.hands))
                    stock = (*r.stock[:k], card, *r.stock[k + 1 :])
                    return attrs.evolve(state, round=attrs.evolve(r, hands=hands, stock=stock))
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES).flatmap(lambda g: st.tuples(st.just(g), game_states(g[0], players=g[1], max_actions=60))))
def test_observations_hold_only_the_view(game: tuple[tuple[rl.Ruleset, int], rl.GameState]) -> None:
    # R-H1: hidden cards (other hands, the stock order, the seed) never reach the vector.
    (rules, players), state = game
    enc = ObservationEncoder(rules, players)
    for seat in range(players):
        vector = enc.encode(rl.view(state, seat))
        assert len(vector) == enc.size
        assert all(0 <= v <= h for v, h in zip(vector, enc.high))
        other = _hide_differently(state, seat)
        if other is not None:
            assert rl.view(other, seat) == rl.view(state, seat)
            assert enc.encode(rl.view(other, seat)) == vector
        reseeded = attrs.evolve(state, seed=12345)
        assert enc.encode(rl.view(reseeded, seat)) == vector


def test_observation_shows_the_opening_in_progress() -> None:
    # R-O4: an opening laid meld by meld is public while it is on the table.
    hands = [
        parse_cards("9S 10S JS QS KS 5H 6H 7H 8D 8C 8H 2C 3D 4D"),
        parse_cards("AS 2S 3S 4H 5D 6C 7C 8S 9H 10C JD QH KC"),
    ]
    state = rl.start_round_from(rl.REMIK, hands)
    run = rl.make_meld(parse_cards("9S 10S JS QS KS"), rl.REMIK)
    state = rl.apply(state, LayMeld(run))
    enc = ObservationEncoder(rl.REMIK, 2)
    opening = enc.field("opening")
    for seat in (0, 1):
        v = enc.encode(rl.view(state, seat))
        assert v[opening.offset : opening.offset + 3] == [49, 1, 51]


def test_observation_shows_the_cards_known_in_other_hands() -> None:
    # R-H1, D1: a taken discard is known to everyone while it stays in the taker's hand;
    # the rest of that hand stays hidden (a different hidden card gives the same vector).
    hands = [parse_cards("5H 6H 2C 9D KC QD 4S"), parse_cards("KS KD 3C 4D 8C 9C 10S")]
    state = rl.start_round_from(rl.STRAIGHT, hands, discard=parse_cards("7H"), to_act=0, phase=rl.Phase.DRAW)
    state = rl.apply(state, rl.TakeDiscard())
    enc = ObservationEncoder(rl.STRAIGHT, 2)
    known = enc.field("known")
    assert (known.length, known.high) == (53, 1)
    seven = parse_card("7H").index
    watcher = enc.encode(rl.view(state, 1))
    assert watcher[known.offset : known.offset + 53] == [int(i == seven) for i in range(53)]
    assert sum(enc.encode(rl.view(state, 0))[known.offset :]) == 0  # the taker's known card is its hand
    r = state.round
    swapped = r.hands[0] - rl.CardMultiset(parse_cards("2C")) + rl.CardMultiset([r.stock[0]])
    hidden = attrs.evolve(
        state, round=attrs.evolve(r, hands=(swapped, r.hands[1]), stock=(parse_card("2C"), *r.stock[1:]))
    )
    assert rl.view(hidden, 1) == rl.view(state, 1)
    assert enc.encode(rl.view(hidden, 1)) == watcher


def test_observation_known_cards_are_per_relative_seat() -> None:
    # Seat k places to the viewer's left is block k - 1 of the known field (R-P1).
    enc = ObservationEncoder(rl.REMIK, 4)
    known = enc.field("known")
    assert known.length == 53 * 3 and known.offset + known.length == enc.field("restocked").offset
    hands = [parse_cards("2C 3C 4C 5D 6D"), parse_cards("AS 2S 3S"), parse_cards("9H 9D 9S"), parse_cards("KH KD KS")]
    state = rl.start_round_from(rl.STRAIGHT, hands, discard=parse_cards("QC"), to_act=2, phase=rl.Phase.DRAW)
    state = rl.apply(state, rl.TakeDiscard())
    enc = ObservationEncoder(rl.STRAIGHT, 4)
    queen = parse_card("QC").index
    for seat, block in ((0, 1), (1, 0), (3, 2)):
        v = enc.encode(rl.view(state, seat))
        at = enc.field("known").offset + 53 * block
        assert v[at + queen] == 1 and sum(v[enc.field("known").offset :]) == 1


def test_observation_fields_tile_the_vector() -> None:
    enc = ObservationEncoder(rl.REMIK, 4)
    offset = 0
    for field in enc.fields:
        assert field.offset == offset
        offset += field.length
    assert offset == enc.size == len(enc.high)
    with pytest.raises(EncodingError):
        enc.field("seed")


def test_observation_shows_own_hand_and_seats_relative() -> None:
    state = rl.new_game(rl.REMIK, 3, seed=5)
    enc = ObservationEncoder(rl.REMIK, 3)
    v = enc.encode(rl.view(state, 1))
    hand = enc.field("hand")
    assert v[hand.offset : hand.offset + 53] == list(state.round.hands[1].counts)
    seats = enc.field("seats")
    # seat 1 first, then 2, then 0 (the dealer holds 14, R-P2)
    assert v[seats.offset : seats.offset + 9 : 3] == [13, 13, 14]
    assert v[enc.field("round").offset + 1] == 2  # the dealer, seat 0, is two places to seat 1's left


def _stock_fields(enc: ObservationEncoder, vector: list[int]) -> tuple[list[int], list[int]]:
    restocked, known = enc.field("restocked"), enc.field("known_stock")
    return (
        vector[restocked.offset : restocked.offset + restocked.length],
        vector[known.offset : known.offset + known.length],
    )


def test_observation_shows_a_turned_over_stock_in_order() -> None:
    # R-D6: the pile turned over unshuffled is the new stock, first discard on top, in everyone's sight.
    cards = parse_cards("5H 6H 2C 9D KS KD 3C 4D 2H 3H 4H")
    state = rl.start_round_from(
        rl.STRAIGHT,
        [cards[:4], cards[4:8]],
        discard=cards[8:],
        table=rest_on_table(rl.STRAIGHT, cards),
        to_act=0,
        phase=rl.Phase.DRAW,
        fill_stock=False,
    )
    state = rl.apply(state, DrawStock())  # seat 0 turns 2H 3H 4H over and draws 2H
    enc = ObservationEncoder(rl.STRAIGHT, 2)
    assert (enc.field("known_stock").length, enc.field("known_stock").high) == (52, 53)
    codes = [parse_card(c).index + 1 for c in ("3H", "4H")]
    for seat in (0, 1):
        restocked, known = _stock_fields(enc, enc.encode(rl.view(state, seat)))
        assert restocked == list(rl.CardMultiset(cards[8:]).counts)
        assert known == codes + [0] * 50
    state = rl.apply(rl.apply(state, Discard(parse_card("9D"))), DrawStock())  # seat 1 draws 3H
    assert _stock_fields(enc, enc.encode(rl.view(state, 0)))[1] == codes[1:] + [0] * 51


def test_observation_shows_reshuffled_cards_but_not_their_order() -> None:
    # R-D4: which cards left the pile is public; the shuffled order is not, and remik has no known_stock.
    cards = parse_cards("5H 6H 2C 9D KS KD 3C 4D 2H 3H 4H QC")
    state = rl.start_round_from(
        rl.REMIK,
        [cards[:4], cards[4:8]],
        discard=cards[8:],
        table=rest_on_table(rl.REMIK, cards),
        to_act=0,
        phase=rl.Phase.DRAW,
        fill_stock=False,
    )
    state = rl.apply(state, DrawStock())
    enc = ObservationEncoder(rl.REMIK, 2)
    assert enc.field("known_stock").length == 0 and enc.field("known_stock").offset == enc.size
    vector = enc.encode(rl.view(state, 1))
    assert _stock_fields(enc, vector)[0] == list(rl.CardMultiset(cards[8:11]).counts)
    r = state.round
    shuffled = attrs.evolve(state, round=attrs.evolve(r, stock=r.stock[::-1]))
    assert r.stock != r.stock[::-1] and rl.view(shuffled, 1) == rl.view(state, 1)
    assert enc.encode(rl.view(shuffled, 1)) == vector


#: The walks' rules, and remik with a turnover (R-D6 as a house rule: a known stock order in remik's layout).
_REFILL_RULES = {
    **WALK_RULES,
    "remik-turnover": attrs.evolve(
        rl.REMIK, name="turnover-remik", restock_rule=rl.RestockRule.TURN_OVER, restock_limit=2
    ),
}


def _refilled_states(rules: rl.Ruleset, want: int) -> list[rl.GameState]:
    """At least ``want`` reachable two-player states mid-round after a refill of the stock (fewer seeds first)."""
    found: list[rl.GameState] = []
    for seed in range(40):
        found += [
            s for s in walk(rules, 2, seed, 400) if s.round.restocks and s.phase in (rl.Phase.DRAW, rl.Phase.PLAY)
        ]
        if len(found) >= want:
            break
    return found


@pytest.mark.parametrize("name", sorted(_REFILL_RULES))
def test_observation_of_a_refilled_stock_is_the_view_only(name: str) -> None:
    # R-H1, D4, D6 on reachable states: the stock fields are the view's, and the hidden order never shows.
    rules = _REFILL_RULES[name]
    enc = ObservationEncoder(rules, 2)
    states = _refilled_states(rules, 12)
    assert len(states) >= 12
    for state in states[::-1][:12]:  # the last found first: the deepest into their stock
        r = state.round
        hidden = len(r.stock) - len(r.known_stock)
        other = attrs.evolve(state, round=attrs.evolve(r, stock=(*r.stock[:hidden][::-1], *r.known_stock)))
        for seat in (0, 1):
            v = rl.view(state, seat)
            vector = enc.encode(v)
            assert rl.view(other, seat) == v and enc.encode(rl.view(other, seat)) == vector
            restocked, known = _stock_fields(enc, vector)
            assert restocked == list(v.restocked.counts)
            if rules.restock_rule is rl.RestockRule.TURN_OVER:
                assert known == [c.index + 1 for c in v.known_stock] + [0] * (len(known) - len(v.known_stock))
            else:
                assert known == [] and v.known_stock == ()


# --- the pile's numbers from the last pile's (a fast path) ------------------------------------

#: Each step: a discard (a card index), a take (-1), or another pile altogether (its card indices).
_PILE_STEPS = st.lists(
    st.one_of(st.integers(-1, 52), st.lists(st.integers(0, 52), max_size=12)),
    max_size=40,
)


@settings(max_examples=examples(60), deadline=None)
@given(_PILE_STEPS)
def test_pile_numbers_from_the_last_pile_are_the_counted_ones(steps: list[int | list[int]]) -> None:
    # R-D1: a pile changes by one discard or the top taken; any other pile is counted afresh.
    from rummylib._card import CARDS

    enc = ObservationEncoder(rl.REMIK, 2)
    pile: tuple[rl.Card, ...] = ()
    for step in steps:
        if isinstance(step, list):
            pile = tuple(CARDS[i] for i in step)
        elif step < 0:
            pile = pile[:-1]
        else:
            pile = (*pile, CARDS[step])
        assert enc._pile_numbers(pile) == ObservationEncoder._pile_counts(pile)
        assert enc._pile_numbers(tuple(pile)) == ObservationEncoder._pile_counts(pile)  # a cached pile


def test_pile_numbers_on_reachable_piles_are_the_counted_ones() -> None:
    # R-D1: every pile of seeded games, in the order of play and then in another order.
    for name in ("remik", "straight"):
        rules = WALK_RULES[name]
        enc = ObservationEncoder(rules, 3)
        piles = [s.round.discard for s in walk(rules, 3, 5, 300)]
        for pile in [*piles, *random.Random(1).sample(piles, len(piles))]:
            assert enc._pile_numbers(pile) == ObservationEncoder._pile_counts(pile)
