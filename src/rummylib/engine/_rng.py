"""Version-stable shuffles keyed by the game seed.

The algorithm is fixed so that a seed gives the same deal on every Python
version and platform:

1. The seed is normalised to bytes: ``b"i" + decimal digits`` for an ``int``,
   ``b"s" + UTF-8`` for a ``str``; the key is
   ``BLAKE2b(that, digest_size=32, person=b"rummylib-seed")``.
2. A stream for a purpose (``labels`` such as ``("deal", 3)``) is the
   concatenation of the blocks ``BLAKE2b(label || counter, key=key,
   digest_size=64, person=b"rummylib-strm")`` for ``counter = 0, 1, ...``
   (8-byte little-endian), where ``label`` is the labels' ``str`` joined with
   ``"\\x1f"`` and UTF-8 encoded.
3. ``below(n)`` reads 8 bytes (little-endian) as ``x`` and rejects
   ``x >= 2**64 - 2**64 % n``; otherwise returns ``x % n``.
4. Fisher-Yates: for ``i`` from ``len - 1`` down to ``1``, swap item ``i``
   with item ``below(i + 1)``.

With no seed, the engine draws 128 bits from :mod:`secrets`.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from typing import Final, TypeAlias, TypeVar

from rummylib._guards import MAX_SEED_DIGITS, is_seed_int
from rummylib.errors import RulesetError, RulesetReason, shorten

__all__ = ["MAX_SEED_CHARS", "MAX_SEED_DIGITS", "Seed", "fresh_seed", "is_text", "shuffled", "validate_seed"]

#: Longest ``str`` seed.
MAX_SEED_CHARS: Final = 4096

T = TypeVar("T")
Seed: TypeAlias = int | str
_TWO64: Final = 1 << 64


def fresh_seed() -> int:
    """128 unpredictable bits from :mod:`secrets` (never :mod:`random`)."""
    return secrets.randbits(128)


def is_text(value: str) -> bool:
    """Whether ``value`` encodes as UTF-8 (no lone surrogates), so it can be hashed, saved and shown."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def validate_seed(seed: object) -> Seed:
    """Return ``seed`` if it is an ``int`` of at most 256 digits or a UTF-8 ``str`` of at most 4096 characters.

    Raises:
        RulesetError: any other value (reason ``WRONG_TYPE`` or ``BAD_VALUE``).
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        msg = f"a seed must be an int or a str, not {shorten(seed)}"
        raise RulesetError(RulesetReason.WRONG_TYPE, "seed", seed, msg)
    if isinstance(seed, int):
        if not is_seed_int(seed):
            msg = f"an int seed has at most {MAX_SEED_DIGITS} decimal digits"
            raise RulesetError(RulesetReason.BAD_VALUE, "seed", seed, msg)
    elif len(seed) > MAX_SEED_CHARS or not is_text(seed):
        msg = f"a str seed is at most {MAX_SEED_CHARS} characters of valid Unicode (no lone surrogates)"
        raise RulesetError(RulesetReason.BAD_VALUE, "seed", seed, msg)
    return seed


def _key(seed: Seed) -> bytes:
    raw = b"i" + str(int(seed)).encode("ascii") if isinstance(seed, int) else b"s" + seed.encode("utf-8")
    return hashlib.blake2b(raw, digest_size=32, person=b"rummylib-seed").digest()


#: A block of the stream: eight little-endian 64-bit words.
_BLOCK: Final = struct.Struct("<8Q")


class _Stream:
    """64-bit words: block ``k`` is BLAKE2b-512 of the labels and ``k`` under the seed's key, read as eight words."""

    __slots__ = ("_counter", "_key", "_label", "_words")

    def __init__(self, seed: Seed, labels: tuple[object, ...]) -> None:
        self._key = _key(seed)
        self._label = "\x1f".join(str(x) for x in labels).encode("utf-8")
        self._counter = 0
        self._words: list[int] = []  # the current block's words not yet read, the next one last

    def _next64(self) -> int:
        words = self._words
        if not words:
            block = self._label + self._counter.to_bytes(8, "little")
            digest = hashlib.blake2b(block, key=self._key, digest_size=64, person=b"rummylib-strm").digest()
            self._counter += 1
            words = self._words = list(_BLOCK.unpack(digest))
            words.reverse()
        return words.pop()

    def below(self, n: int) -> int:
        limit = _TWO64 - _TWO64 % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n


def shuffled(items: Sequence[T], seed: Seed, *labels: object) -> tuple[T, ...]:
    """``items`` in the order the seeded stream ``labels`` shuffles them to.

    >>> shuffled(range(5), 2026, "demo") == shuffled(range(5), 2026, "demo")
    True
    >>> sorted(shuffled(range(5), 2026, "demo"))
    [0, 1, 2, 3, 4]
    """
    out = list(items)
    stream = _Stream(seed, labels)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)
