"""Set-ups of reachable states for engine tests: the rest of the deck laid on the table.

``start_round_from`` builds only states legal play can reach (R-C3: every
card of the deck is somewhere), so a test that wants an empty stock and a
small discard pile puts the rest of the deck on the table, as melds without
an owner (:func:`rest_on_table`).
"""

from __future__ import annotations

from collections.abc import Iterable

import rummylib as rl


def rest_on_table(rules: rl.Ruleset, *given: Iterable[rl.Card]) -> list[rl.Meld]:
    """Melds holding every card of ``rules``' deck not in ``given`` (to pass as ``table``)."""
    left = rl.deck(rules)
    for cards in given:
        left = left - rl.CardMultiset(cards)
    partition = rl.best_partition(left, rules)
    assert not partition.leftover, f"no meld takes {partition.leftover}: choose other cards for the set-up"
    return list(partition.melds)


def with_openers_melds(
    rules: rl.Ruleset,
    hands: Iterable[Iterable[rl.Card]],
    table: Iterable[rl.Meld | rl.TableMeld] = (),
    opened: Iterable[bool] | None = None,
    *others: Iterable[rl.Card],
) -> list[rl.Meld | rl.TableMeld]:
    """``table`` and, for each opened seat owning none of it, a full group of four suits owned by that seat.

    R-O1: a seat that has opened laid melds, which stay on the table. A full
    group takes no lay-off and holds no joker, so it changes nothing else in
    the set-up; it goes at the end, so the indices of ``table`` stay.
    """
    hand_list = [list(h) for h in hands]
    melds = list(table)
    if opened is None or not rules.opening_required:
        return melds
    used = rl.CardMultiset([c for h in hand_list for c in h] + [c for o in others for c in o])
    for m in melds:
        used = used + rl.CardMultiset((m.meld if isinstance(m, rl.TableMeld) else m).cards)
    owners = {m.owner for m in melds if isinstance(m, rl.TableMeld)}
    held = {c.rank for h in hand_list for c in h}
    free = rl.deck(rules) - used
    for seat, flag in enumerate(opened):
        if not flag or seat in owners:
            continue
        rank = next(
            r
            for r in sorted(rl.Rank, key=lambda r: (r in held, -int(r)))
            if all(free.count(rl.Card(r, suit)) for suit in rl.Suit)
        )
        group = [rl.Card(rank, suit) for suit in rl.Suit]
        free = free - rl.CardMultiset(group)
        melds.append(rl.TableMeld(rl.make_meld(group, rules), seat))
    return melds
