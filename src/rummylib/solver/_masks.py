"""Bit masks of a hand's count vector: the ranks held per suit, run positions, windows of three.

The cheap tests in front of the exact searches (the go-out screen, the
engine's opening screen, the candidate generator) read a hand through these
masks, so each layout is written once:

- :func:`rank_masks`: per suit, bit ``r`` per rank index ``r`` held (0 = ace .. 12 = king);
  :func:`twice_masks`: those held twice or more;
- :func:`suit_masks`: per suit, bit ``p`` per run position ``p`` held (1 = ace low .. 13 = king, 14 = ace
  high where the rules allow it);
- :func:`ranks_with`: bit ``r`` per rank index held in at least so many suits;
- :func:`run_covered`: the run positions some window of three could hold, given a number of jokers;
- :func:`no_meld_without_jokers`: no run or group at all in a hand of natural cards;
- :func:`pack_counts`, :func:`packed_cards`: a count vector, or a meld's (card index, copies) pairs, as
  one integer, byte ``i`` holding the copies of card index ``i`` (the searches fit and subtract melds
  on it; :func:`unpack_counts` reads it back); :data:`GUARD` is bit 7 of each of those bytes: a meld
  fits the counts when ``((counts | GUARD) - packed) & GUARD == GUARD`` (no byte borrowed);
- :func:`naturals_held`: bit ``i`` per natural card index held (once or more, or twice or more).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "GUARD",
    "TWO_OR_MORE",
    "naturals_held",
    "no_meld_without_jokers",
    "pack_counts",
    "packed_cards",
    "rank_masks",
    "ranks_with",
    "run_covered",
    "suit_masks",
    "twice_masks",
    "unpack_counts",
]

#: Maps a count byte to 1 when a card is held (``bytes.translate``).
_HELD: Final = bytes([0] + [1] * 255)
#: Maps a count byte to 1 when two copies or more are held (``bytes.translate``).
TWO_OR_MORE: Final = bytes([0, 0] + [1] * 254)
#: Bit 7 of each of the 53 bytes of :func:`pack_counts`' layout (a count is at most 16: it never reaches it).
GUARD: Final = int.from_bytes(b"\x80" * 53, "little")


class _SuitMasks(dict[bytes, int]):
    """13 held bytes (0 or 1, ace first) to their rank mask, each worked out when first asked (at most 2**13 keys)."""

    def __missing__(self, key: bytes) -> int:
        mask = 0
        for r, h in enumerate(key):
            if h:
                mask |= 1 << r
        self[key] = mask
        return mask


_SUIT_MASK: Final = _SuitMasks().__getitem__
_LAST_MASKS: list[object] = [None, None, None]


def rank_masks(counts: tuple[int, ...]) -> list[int]:
    """Per suit, bit ``r`` for each rank index ``r`` (0 = ace .. 12 = king) held.

    The list is shared with the next caller of the same ``counts``: read it, never change it.
    """
    last = _LAST_MASKS
    if last[0] is counts:  # the runs and the groups of one hand ask in turn
        return last[1]  # type: ignore[return-value]
    raw = bytes(counts)
    held = raw.translate(_HELD)  # the joker's byte (the 53rd) is never read
    mask = _SUIT_MASK
    out = [mask(held[:13]), mask(held[13:26]), mask(held[26:39]), mask(held[39:52])]
    last[0] = counts
    last[1] = out
    last[2] = raw
    return out


def twice_masks(counts: tuple[int, ...]) -> list[int]:
    """Per suit, bit ``r`` for each rank index ``r`` held twice or more (the counts' bytes kept by :func:`rank_masks`)."""
    last = _LAST_MASKS
    raw = last[2] if last[0] is counts else bytes(counts)
    two = raw.translate(TWO_OR_MORE)  # type: ignore[attr-defined]
    mask = _SUIT_MASK
    return [mask(two[:13]), mask(two[13:26]), mask(two[26:39]), mask(two[39:52])]


def naturals_held(counts: tuple[int, ...], least: int = 1) -> int:
    """Bit ``i`` per natural card index ``i`` of which ``counts`` holds ``least`` copies or more (1 or 2)."""
    if least == 1:
        a, b, c, d = rank_masks(counts)  # often asked of these counts just before: kept
        return a | b << 13 | c << 26 | d << 39
    flags = bytes(counts[:52]).translate(TWO_OR_MORE)
    mask = 0
    i = flags.find(1)
    while i >= 0:
        mask |= 1 << i
        i = flags.find(1, i + 1)
    return mask


def ranks_with(counts: tuple[int, ...], suits: int) -> int:
    """Bit ``r`` for each rank index held in at least ``suits`` suits (1-4; 0 or less: every rank)."""
    if suits <= 0:
        return (1 << 13) - 1
    a, b, c, d = rank_masks(counts)
    if suits == 1:
        return a | b | c | d
    if suits == 2:
        return (a & (b | c | d)) | (b & (c | d)) | (c & d)
    if suits == 3:
        return (a & b & (c | d)) | (c & d & (a | b))
    return a & b & c & d


def suit_masks(counts: tuple[int, ...], ace_high: bool) -> list[int]:
    """Per suit, a bit per run position held: bit 1 = ace low ... bit 13 = king, bit 14 = ace high."""
    masks = [m << 1 for m in rank_masks(counts)]
    if ace_high:
        return [m | 1 << 14 if m & 2 else m for m in masks]
    return masks


def run_covered(mask: int, jokers: int) -> int:
    """The positions of ``mask`` that some 3-card window could hold with ``jokers`` (bit 14 folded onto bit 1)."""
    if jokers >= 2:
        return mask
    pairs = (mask & (mask >> 1)) | (mask & (mask >> 2)) | ((mask >> 1) & (mask >> 2))
    w = pairs if jokers else mask & (mask >> 1) & (mask >> 2)  # windows with 2 (a joker fills one) or 3 held
    covered = (w | (w << 1) | (w << 2)) & mask
    if covered & (1 << 14):
        covered |= 2
    return covered


def no_meld_without_jokers(counts: tuple[int, ...], ace_high: bool) -> bool:
    """Without jokers: no suit holds three run positions in a row and no rank three suits (R-M1, M2).

    The first tests of the candidate generator's runs and groups, which then find nothing.
    """
    for m in rank_masks(counts):
        if ace_high and m & 1:
            m |= 1 << 13  # the high ace after the king
        if m & (m >> 1) & (m >> 2):
            return False
    return not ranks_with(counts, 3)


def packed_cards(pairs: tuple[tuple[int, int], ...]) -> int:
    """``pairs`` (card index, copies) as one integer: byte ``i`` holds the copies of card index ``i``."""
    packed = 0
    for i, k in pairs:
        packed += k << (8 * i)
    return packed


def pack_counts(counts: tuple[int, ...]) -> int:
    """53 counts as one integer in :func:`packed_cards`' layout."""
    return int.from_bytes(bytes(counts), "little")


def unpack_counts(packed: int) -> tuple[int, ...]:
    """The 53 counts of :func:`pack_counts`."""
    return tuple(packed.to_bytes(53, "little"))
