"""A turn in small steps (issue 11): the staged opening, Open as a composite, exact direct listing.

- Brute force: on random small positions, ``legal_actions`` lists exactly the
  single-step actions ``apply`` accepts out of a superset (every card as a
  discard, lay-off at each end and swap on each meld, every meld of the hand).
- Equivalence (R-O4): the (table, hand) pairs reachable at the end of a turn
  through single steps equal those reachable through ``Open`` and then the
  same later steps.
- R-J4 / R-D2 refinement, the house variant ``take_discard_to_open``,
  ``check_opening``, and the obligation checks with 9 and 16 swappable jokers.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator

import attrs
import pytest
from _setup import with_openers_melds
from _walks import single_step_universe

import rummylib as rl

C = rl.parse_cards
R = rl.IllegalActionReason


def _small(rules: rl.Ruleset, size: int, **kw: object) -> rl.Ruleset:
    sizes = dict.fromkeys(range(rules.min_players, rules.max_players + 1), size)
    return attrs.evolve(rules, hand_sizes=sizes, restock_limit=1, **kw)  # type: ignore[arg-type]


SMALL = [
    _small(rl.REMIK, 8, name="remik-small", opening_points=21),
    _small(rl.REMIK, 8, name="remik-take-to-open", opening_points=21, take_discard_to_open=True),
    _small(rl.REMIK, 8, name="remik-one-meld", opening_points=15, melds_per_turn=2, jokers=6),
    _small(rl.REMIK, 8, name="remik-lay-off-first", opening_points=21, lay_off_before_opening=True),
    _small(rl.STRAIGHT, 7, name="straight-small"),
    _small(rl.STRAIGHT, 7, name="straight-must-discard", must_discard_to_go_out=True, melds_per_turn=None),
]


def _positions(rules: rl.Ruleset, seed: int, steps: int) -> Iterator[rl.GameState]:
    """States of a random game that lays cards when it can (so tables and openings happen)."""
    rng = random.Random(seed)
    state = rl.new_game(rules, 2, seed=seed)
    for _ in range(steps):
        if state.is_over:
            return
        yield state
        legal = list(rl.legal_actions(state))
        assert legal, state  # the engine never leaves a player without an action
        laying = [a for a in legal if isinstance(a, (rl.LayMeld, rl.LayOff, rl.SwapJoker))]
        pool = laying if laying and rng.random() < 0.8 else legal
        state = rl.apply(state, rng.choice(pool))


# The brute-force check of one house variant of each game is in the slow suite (CI).
@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(
            r, id=r.name, marks=pytest.mark.slow if r.name in {"straight-must-discard", "remik-one-meld"} else ()
        )
        for r in SMALL
    ],
)
def test_listing_is_exactly_what_apply_accepts(rules: rl.Ruleset) -> None:
    # R-O4, D2, J4, T3, T7: every single step apply accepts is listed once, and nothing else.
    seen_kinds: collections.Counter[str] = collections.Counter()
    for seed in range(3):
        for state in _positions(rules, seed, 60):
            legal = rl.legal_actions(state)
            listed = list(legal)
            assert len(listed) == len(set(listed))
            universe = single_step_universe(state)
            brute = {a for a in universe if rl.is_legal(state, a)}
            assert set(listed) == brute, state
            fresh = rl.legal_actions(state)  # `in` answers kind by kind, before any listing
            assert {a for a in universe if a in fresh} == brute
            groups = legal.by_kind()
            assert [a for items in groups.values() for a in items] == listed
            seen_kinds.update(kind for kind, items in groups.items() if items)
            turn = state.round.turn
            if turn.melds_laid and not state.round.opened[state.to_act]:
                seen_kinds["opening in progress"] += 1
    assert seen_kinds["melds"] and seen_kinds["discards"]


def _outcomes(state: rl.GameState, *, composite: bool) -> set[tuple[object, ...]]:
    """Every (table, hand, pile top, round over) at the end of this turn (table as a multiset)."""
    seat = state.to_act
    found: set[tuple[object, ...]] = set()
    seen: set[rl.GameState] = set()

    def end(s: rl.GameState) -> tuple[object, ...]:
        table = tuple(sorted((repr(tm.meld), tm.owner) for tm in s.round.table))
        return (table, s.round.hands[seat], s.round.discard[-1:], s.phase)

    def steps(s: rl.GameState, fresh_open: bool) -> Iterator[rl.GameState]:
        legal = list(rl.legal_actions(s))
        r = s.round
        unopened = s.rules.opening_required and not r.opened[seat]
        for action in legal:
            if composite and unopened and isinstance(action, rl.LayMeld):
                continue  # the composite model opens with one Open
            if composite and fresh_open and isinstance(action, rl.LayMeld):
                continue  # ... and lays nothing more before the boundary
            yield rl.apply(s, action)
        if composite and unopened and not r.turn.laid:
            melds = list(dict.fromkeys(rl.find_melds(r.hands[seat], s.rules)))
            for k in (1, 2, 3):
                for combo in _combos(melds, k):
                    action = rl.Open(combo)
                    if rl.is_legal(s, action):
                        yield rl.apply(s, action)

    def walk(s: rl.GameState, fresh_open: bool) -> None:
        if s in seen:
            return
        seen.add(s)
        for after in steps(s, fresh_open):
            if after.phase is not rl.Phase.PLAY or after.to_act != seat:
                found.add(end(after))
            else:
                opened_now = composite and after.round.turn.melds_laid > s.round.turn.melds_laid
                walk(after, opened_now and not after.round.opened[seat])

    walk(state, False)
    return found


def _combos(melds: list[rl.Meld], k: int) -> Iterator[tuple[rl.Meld, ...]]:
    import itertools

    yield from itertools.combinations_with_replacement(melds, k)


def _openable(rules: rl.Ruleset, seed: int, count: int) -> Iterator[rl.GameState]:
    """Play-phase positions of seat 0 whose 8-card hand can meld (so the turn may open or lay)."""
    rng = random.Random(seed)
    cards = list(rl.deck(rules))
    table = [rl.TableMeld(rl.parse_meld("JD QD KD", rules), 1)]
    found = 0
    while found < count:
        rng.shuffle(cards)
        hand = [c for c in cards[:10] if c not in table[0].meld.cards][:8]
        if rules.opening_required and not rl.can_open(hand, rules):
            continue
        if not rules.opening_required and not next(iter(rl.find_melds(hand, rules)), None):
            continue
        other = [c for c in cards[10:] if c not in table[0].meld.cards][:5]
        found += 1
        yield rl.start_round_from(
            rules, [hand, other], table=table, opened=[False, True] if rules.opening_required else None, to_act=0,
            phase=rl.Phase.PLAY,
        )  # fmt: skip


@pytest.mark.parametrize("rules", SMALL[:4] + SMALL[5:], ids=[r.name for r in SMALL[:4] + SMALL[5:]])
def test_single_steps_reach_what_open_reaches(rules: rl.Ruleset) -> None:
    # R-O4: laying the opening meld by meld reaches exactly what Open plus the same later steps reach.
    melded = 0
    for state in _openable(rules, 7, 4):
        single = _outcomes(state, composite=False)
        assert single == _outcomes(state, composite=True), state
        melded += any(len(table) > 1 for table, *_ in single)  # type: ignore[arg-type]
    assert melded  # the compared turns do lay melds (an opening, where the rules have one)


# --- the staged opening, by hand ------------------------------------------------------------


def M(text: str, rules: rl.Ruleset = rl.REMIK) -> rl.Meld:
    return rl.parse_meld(text, rules)


def _play(hand: str, rules: rl.Ruleset = rl.REMIK, **kw: object) -> rl.GameState:
    kw.setdefault("to_act", 0)
    kw.setdefault("phase", rl.Phase.PLAY)
    hands = [C(hand), C("2S 4D 6C 8H 10S QD")]
    kw["table"] = with_openers_melds(rules, hands, kw.get("table", ()), kw.get("opened"))  # type: ignore[arg-type]
    return rl.start_round_from(rules, hands, **kw)  # type: ignore[arg-type]


def test_opening_laid_meld_by_meld_and_checked_at_the_boundary() -> None:
    # R-O2, O4: each step is offered only while 51 can still be reached; the discard checks it.
    s = _play("10S JS QS KS 8H 8D 8C 2C 5D")
    first = rl.LayMeld(M("10S JS QS KS"))
    assert first in set(rl.legal_actions(s))
    t = rl.apply(s, first)
    assert (t.round.opened[0], t.round.turn.opening_points, t.round.turn.opening_clean) == (False, 40, True)
    v = rl.view(t, 1)
    assert (v.opening_points, v.opening_clean) == (40, True)  # the opening in progress is public
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(t, rl.Discard(C("2C")[0]))
    assert err.value.reason is R.OPENING_TOO_LOW
    assert set(rl.legal_actions(t)) == {rl.LayMeld(M("8H 8D 8C"))}
    u = rl.apply(t, rl.LayMeld(M("8H 8D 8C")))
    w = rl.apply(u, rl.Discard(C("2C")[0]))
    assert w.round.opened[0]
    assert rl.from_dict(rl.to_dict(u)) == u


def test_open_is_the_same_melds_laid_in_turn() -> None:
    # R-O4: the composite and the single steps give the same state.
    s = _play("10S JS QS KS 8H 8D 8C 2C 5D")
    melds = (M("10S JS QS KS"), M("8H 8D 8C"))
    by_steps = rl.apply(rl.apply(s, rl.LayMeld(melds[0])), rl.LayMeld(melds[1]))
    assert rl.apply(s, rl.Open(melds)) == by_steps
    assert rl.Open(melds) in rl.legal_actions(s)  # the composite answers `in` ...
    assert rl.Open(melds) not in list(rl.legal_actions(s))  # ... but is never listed


def test_a_meld_that_strands_the_opening_is_refused() -> None:
    # R-O4, T3: 10S JS QS and the eights make 53, but they leave no card to discard.
    s = _play("10S JS QS 8H 8D 8C")
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(s, rl.LayMeld(M("8H 8D 8C")))
    assert err.value.reason is R.CANNOT_FINISH_TURN
    assert not [a for a in rl.legal_actions(s) if isinstance(a, rl.LayMeld)]


def test_lay_off_onto_a_meld_laid_this_turn_uses_the_freed_joker() -> None:
    # R-J4 refinement: a freed joker laid off onto a meld laid this turn counts as a new meld.
    table = [rl.TableMeld(M("5H JK=6H 7H"), 1)]
    s = _play("6H 9C 10C JC 2D 3S", table=table, opened=[True, True])
    new = len(s.round.table)  # the index of this turn's meld (seat 0's opening group is on the table, R-O1)
    t = rl.apply(s, rl.LayMeld(M("9C 10C JC")))
    u = rl.apply(t, rl.SwapJoker(0, C("6H")[0]))
    assert u.round.turn.freed_jokers == 1
    lay = rl.LayOff(new, rl.JOKER, rl.End.HIGH)
    assert lay in set(rl.legal_actions(u))
    w = rl.apply(u, lay)
    assert w.round.turn.freed_jokers == 0
    assert rl.Discard(C("2D")[0]) in set(rl.legal_actions(w))
    # onto a meld that was on the table before this turn it does not count
    assert rl.LayOff(0, rl.JOKER, rl.End.HIGH) not in set(rl.legal_actions(u))


def test_lay_off_onto_a_meld_laid_this_turn_uses_the_taken_discard() -> None:
    # R-D2 refinement: the taken card laid off onto this turn's new meld meets the duty.
    rules = rl.REMIK
    hands = [C("9C 10C JC 2D 3S"), C("2S 4D 6C 8H")]
    table = with_openers_melds(rules, hands, [], [True, True], C("QC"))  # each seat's opening (R-O1)
    s = rl.start_round_from(
        rules, hands, discard=C("QC"), table=table, opened=[True, True], to_act=0, phase=rl.Phase.DRAW,
    )  # fmt: skip
    t = rl.apply(s, rl.TakeDiscard())
    u = rl.apply(t, rl.LayMeld(M("9C 10C JC")))
    assert u.round.turn.must_meld is not None
    w = rl.apply(u, rl.LayOff(len(table), C("QC")[0], rl.End.HIGH))
    assert w.round.turn.must_meld is None
    assert rl.is_legal(w, rl.Discard(C("2D")[0]))


def test_take_discard_to_open_house_variant() -> None:
    # R-D2 house variant: an unopened player takes the discard to open with it, without going out.
    rules = attrs.evolve(rl.REMIK, take_discard_to_open=True)
    hand = C("10S JS QS 8H 8D 2C 5D 9H 4C")
    s = rl.start_round_from(rules, [hand, C("2S 4D 6C 8H")], discard=C("8C"), to_act=0, phase=rl.Phase.DRAW)
    assert not rl.is_legal(attrs.evolve(s, rules=rl.REMIK), rl.TakeDiscard())  # remik: must go out
    t = rl.apply(s, rl.TakeDiscard())
    assert not t.round.turn.must_go_out
    assert not [a for a in rl.legal_actions(t) if not isinstance(a, rl.LayMeld)]
    u = rl.apply(rl.apply(t, rl.LayMeld(M("10S JS QS"))), rl.LayMeld(M("8H 8D 8C")))
    assert rl.apply(u, rl.Discard(C("2C")[0])).round.opened[0]
    with pytest.raises(rl.RulesetError):
        attrs.evolve(rl.STRAIGHT, take_discard_to_open=True)


def test_old_ruleset_documents_read_the_new_field_as_false() -> None:
    doc = rl.to_dict(rl.REMIK)
    del doc["take_discard_to_open"]
    assert rl.from_dict(doc) == rl.REMIK


def test_check_opening() -> None:
    # R-O2, O3
    run, eights = M("10S JS QS KS"), M("8H 8D 8C")
    assert rl.check_opening([run, eights], rl.REMIK) == 64
    with pytest.raises(rl.InvalidOpeningError) as err:
        rl.check_opening([run], rl.REMIK)
    assert (err.value.reason, err.value.have, err.value.need) == (rl.OpeningReason.TOO_LOW, 40, 51)
    with pytest.raises(rl.InvalidOpeningError) as err:
        rl.check_opening([M("KS KH KD"), M("QS QH QD"), M("JS JH JD")], rl.REMIK)
    assert err.value.reason is rl.OpeningReason.NO_CLEAN_RUN
    with pytest.raises(rl.InvalidOpeningError) as err:
        rl.check_opening([], rl.REMIK)
    assert err.value.reason is rl.OpeningReason.EMPTY
    with pytest.raises(rl.InvalidMeldError):
        rl.check_opening(5, rl.REMIK)  # type: ignore[arg-type]


# --- many jokers (issue 10 part 3) -------------------------------------------------------------

JOKERS16 = attrs.evolve(rl.REMIK, name="jokers16", decks=4, jokers=16, hand_sizes=dict.fromkeys(range(2, 7), 16))


def _joker_table(k: int) -> tuple[list[rl.TableMeld], list[rl.Card]]:
    """``k`` table jokers, each in its own run, standing for a card the hand holds (never a 2, 3, Q, K or ace)."""
    runs = [
        f"{a}{s} JK={b}{s} {c}{s}" for a, b, c in (("4", "5", "6"), ("7", "8", "9"), ("10", "J", "Q")) for s in "SHDC"
    ]
    runs += [f"4{s} JK=5{s} 6{s}" for s in "SHDC"]
    table = [rl.TableMeld(rl.parse_meld(text, JOKERS16), 1) for text in runs[:k]]
    hand = [tm.meld.represents[1] for tm in table]
    return table, hand


@pytest.mark.parametrize("k", [9, 16])
def test_taking_the_discard_with_many_swappable_jokers(k: int) -> None:
    # R-D2, J4: swaps reasoned about as a set (the check once took 19.5 s with 9 jokers).
    table, hand = _joker_table(k)
    for top, legal in (("AC", False), ("KC", True)):
        s = rl.start_round_from(
            JOKERS16, [hand, C("2C 9D 4H")], discard=C(top), opened=[True, True], to_act=0,
            table=with_openers_melds(JOKERS16, [hand, C("2C 9D 4H")], table, [True, True], C(top)),
            phase=rl.Phase.DRAW,
        )  # fmt: skip
        assert rl.is_legal(s, rl.TakeDiscard()) is legal
        assert (rl.TakeDiscard() in list(rl.legal_actions(s))) is legal


def test_taken_joker_laid_off_onto_an_old_meld_is_refused() -> None:
    # R-D2, J4 regression (a dead end in random play): a swap gives a joker back, but it is a
    # freed joker owing its own new meld, so the taken joker's duty could no longer be met.
    table = [rl.TableMeld(M("6S 7S 8S 9S 10S JK=JS"), 0)]
    s = rl.start_round_from(
        rl.REMIK, [C("3C 4C 6H 9H"), C("JS 8H AD 2D")], discard=C("JK"), opened=[True, True], to_act=1,
        table=with_openers_melds(rl.REMIK, [C("3C 4C 6H 9H"), C("JS 8H AD 2D")], table, [True, True], C("JK")),
        phase=rl.Phase.DRAW,
    )  # fmt: skip
    t = rl.apply(s, rl.TakeDiscard())
    with pytest.raises(rl.IllegalActionError) as err:
        rl.apply(t, rl.LayOff(0, rl.JOKER, rl.End.LOW))
    assert err.value.reason is R.CANNOT_FINISH_TURN
    assert rl.LayMeld(M("AD 2D JK=3D")) in set(rl.legal_actions(t))
