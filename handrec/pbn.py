"""Writing PBN: boards to PBN 2.1 export-style text.

First version of the writer: the mandatory tag set in export order, then
the other tags, the Auction section (four calls per line, note references
with their Note tags) and the Play section (one trick per line, columns by
seat from the opening leader, PBN 2.1 §3.6), CR LF line ends.

>>> from handrec.model import Board, Origin, Tag
>>> b = Board(Origin("x"), tags=(Tag("Board", "1"), Tag("Dealer", "N")))
>>> dumps(b).splitlines()[:2]
['[Board "1"]', '[Dealer "N"]']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from handrec.model import Board, Card, Play, Suit, trick_winner

__all__ = ["dump", "dumps", "play_lines", "MTS_ORDER"]

#: The mandatory tag set in export order (PBN 2.1 §3.4).
MTS_ORDER = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
_SECTION_TAGS = {"Auction", "Play", "Note"}


def _q(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def play_lines(play: Play, trump: Suit | None) -> list[list[Card | None]]:
    """Play-order cards regrouped into PBN play lines (one trick a line).

    Column ``j`` of every line is the card of seat ``play.leader + j``
    (PBN 2.1 §3.6); missing cards are ``None`` (written ``-``).

    :raises ValueError: when ``play.leader`` is ``None``.
    """
    if play.leader is None:
        raise ValueError("play has no opening leader")
    lines: list[list[Card | None]] = []
    leader = play.leader
    cards = list(play.cards)
    for start in range(0, len(cards), 4):
        trick = cards[start : start + 4]
        row: list[Card | None] = [None] * 4
        for i, c in enumerate(trick):
            row[(leader - play.leader + i) % 4] = c
        lines.append(row)
        if len(trick) == 4 and all(c is not None for c in trick):
            leader = trick_winner(leader, trick, trump)  # type: ignore[arg-type]
    return lines


def dumps(board: Board) -> str:
    """One board as PBN text (CR LF line ends, no trailing blank line)."""
    out: list[str] = []
    by_name = {}
    for t in board.tags:
        if t.name not in _SECTION_TAGS:
            by_name.setdefault(t.name, t.value)
    for name in MTS_ORDER:
        if name in by_name:
            out.append(f'[{name} "{_q(by_name[name])}"]')
    for name, value in by_name.items():
        if name not in MTS_ORDER:
            out.append(f'[{name} "{_q(value)}"]')
    if board.auction is not None:
        a = board.auction
        out.append(f'[Auction "{a.dealer}"]')
        notes: list[tuple[int, str]] = []
        tokens: list[str] = []
        for call in a.calls:
            tok = str(call)
            if call.annotation is not None:
                n = len(notes) + 1
                notes.append((n, call.annotation))
                tok += f" ={n}="
            tokens.append(tok)
        if a.ended in ("*", "+"):
            tokens.append(a.ended)
        for i in range(0, len(tokens), 4):
            out.append(" ".join(tokens[i : i + 4]))
        for n, text in notes:
            out.append(f'[Note "{n}:{_q(text)}"]')
    if board.play is not None and board.play.leader is not None:
        p = board.play
        out.append(f'[Play "{p.leader}"]')
        trump = board.contract.trump if board.contract is not None else None
        for row in play_lines(p, trump):
            out.append(" ".join("-" if c is None else str(c) for c in row))
        if p.ended in ("*", "+") or (len(p.cards) < 52 and p.cards):
            out.append("*")
    return "\r\n".join(out) + "\r\n"


def dump(boards: Iterable[Board], file: TextIO, *, header: bool = True) -> int:
    """Write boards as a PBN file (``% PBN 2.1`` / ``% EXPORT`` header, games separated by blank lines).

    Returns the number of boards written.
    """
    n = 0
    if header:
        file.write("% PBN 2.1\r\n% EXPORT\r\n")
    for b in boards:
        file.write("\r\n" if n or header else "")
        file.write(dumps(b))
        n += 1
    return n
