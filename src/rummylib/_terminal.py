"""Terminal rendering for the command line: cards with suit symbols, tables, a progress bar."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from typing import TextIO

import attrs

from rummylib.actions import Action
from rummylib.cards import Card
from rummylib.melds import Group, Meld, Run
from rummylib.melds._types import slot_token
from rummylib.records import format_action

__all__: list[str] = []

_RANK_WORDS = {
    1: "aces", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
    8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings",
}  # fmt: skip
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def supports_symbols(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that can print ``♠♥♦♣`` (a UTF-8 tty)."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return bool(tty) and encoding == "utf8"


@attrs.frozen
class Painter:
    """Formats cards and melds, with suit symbols or letters."""

    symbols: bool = False

    def card(self, card: Card) -> str:
        if card.suit is None or not self.symbols:
            return str(card)
        return str(card)[:-1] + card.suit.symbol

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def meld(self, meld: Meld) -> str:
        return " ".join(slot_token(c, r, self.card) for c, r in zip(meld.cards, meld.represents))

    def describe(self, meld: Meld) -> str:
        """``run of hearts`` / ``clean run of spades`` / ``set of eights`` (the word for a group is "set")."""
        if isinstance(meld, Run):
            clean = "clean run" if meld.is_clean else "run"
            return f"{clean} of {_SUIT_WORDS[meld.suit.value]}"
        if isinstance(meld, Group):
            return f"set of {_RANK_WORDS[int(meld.rank)]}"
        return "meld"  # pragma: no cover - every meld is a run or a group

    def action(self, action: Action) -> str:
        """An action in the notation of :func:`rummylib.records.format_action`, suits painted."""
        return self.text(format_action(action))

    def text(self, text: str) -> str:
        """``text`` with every card in it painted as the screen shows cards (``AD`` as ``A♦``)."""
        if not self.symbols:
            return text
        return _CARD_TOKEN.sub(lambda m: m[1] + _SYMBOL_OF[m[2]], text)


#: A card written in notation inside any text: ``7H``, ``10S``, ``JK=AD`` (the ``AD``).
_CARD_TOKEN = re.compile(r"(?<!\w)(10|[2-9AJQK])([SHDC])(?!\w)")
_SYMBOL_OF = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``many`` for an irregular plural."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def render_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain text table: columns padded, numbers right-aligned, a rule under the header."""
    body = [[str(v) for v in row] for row in rows]
    numeric = [all(_is_number(r[i]) for r in body) and bool(body) for i in range(len(headers))]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric)]
        return "  ".join(parts).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths if w).rstrip()]
    out += [line(r) for r in body]
    return "\n".join(out)


def _is_number(text: str) -> bool:
    if text in {"-", ""}:
        return True
    try:
        float(text.rstrip("%*"))
    except ValueError:
        return False
    return True


class ProgressBar:
    """A one-line progress bar, drawn only when ``enabled`` (on a terminal)."""

    def __init__(self, total: int, stream: TextIO, *, enabled: bool, label: str = "", width: int = 30) -> None:
        self.total = max(total, 1)
        self.stream = stream
        self.enabled = enabled
        self.label = label
        self.width = width
        self.done = 0
        self._started = time.monotonic()
        self._last = -1.0

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        now = time.monotonic()
        if self.enabled and (now - self._last >= 0.1 or self.done >= self.total):
            self._last = now
            filled = int(self.width * self.done / self.total)
            bar = "#" * filled + "." * (self.width - filled)
            elapsed = now - self._started
            self.stream.write(f"\r{self.label}[{bar}] {self.done}/{self.total} {elapsed:5.1f}s{self._eta(elapsed)}")
            self.stream.flush()

    def _eta(self, elapsed: float) -> str:
        """`` ETA 12s``: the time left at the rate so far (nothing before the first step or after the last)."""
        if not 0 < self.done < self.total:
            return "          " if self.done >= self.total else ""
        left = elapsed / self.done * (self.total - self.done)
        shown = f"{left:.0f}s" if left < 100 else f"{left / 60:.0f}m"
        return f" ETA {shown:>4}"

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


class Out:
    """Where a command writes, and how it draws cards there."""

    def __init__(self, stdout: TextIO, stderr: TextIO, suits: str) -> None:
        self.stdout = stdout
        self.stderr = stderr
        symbols = supports_symbols(stdout) if suits == "auto" else suits == "symbols"
        self.paint = Painter(symbols=symbols)
        self.tty = _isatty(stderr)

    def print(self, *parts: object) -> None:
        print(*parts, file=self.stdout)

    def error(self, message: str) -> None:
        print(f"rummylib: error: {message}", file=self.stderr)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
