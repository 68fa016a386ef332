"""Writing LIN (Bridge Base Online): boards to single-deal LIN records.

First version of the writer (lin.md §2.1, §4-§6): ``pn`` (S,W,N,E),
``st``, ``md`` (dealer digit, four hands S,W,N,E), ``rh``, ``ah``, ``sv``,
the calls ``mb`` with ``!`` alerts and ``an`` explanations, then the cards
``pc`` in play order with ``pg||`` after each trick and ``mc`` for a claim.
One record per line.

>>> from handrec.model import Board, Deal, Origin, Seat, Vulnerability
>>> d = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> dumps(Board(Origin("x"), number=1, dealer=Seat.NORTH, vulnerable=Vulnerability.NONE, deal=d))
'pn|,,,|st||md|3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|rh||ah|Board 1|sv|o|\\n'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from handrec.model import SUITS_HIGH_FIRST, Board, CallKind, Hand, Seat, Vulnerability

__all__ = ["dump", "dumps"]

_LIN_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_DEALER_DIGIT = {Seat.SOUTH: "1", Seat.WEST: "2", Seat.NORTH: "3", Seat.EAST: "4"}
_SV = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
_NAME_TAGS = {Seat.SOUTH: "South", Seat.WEST: "West", Seat.NORTH: "North", Seat.EAST: "East"}


def _hand(h: Hand | None) -> str:
    if h is None:
        return ""
    return "".join(f"{s}" + "".join(str(c.rank) for c in h.suit_cards(s)) for s in SUITS_HIGH_FIRST)


def _clean(text: str) -> str:
    return text.replace("|", "/")


def dumps(board: Board) -> str:
    """One board as a single-deal LIN record (one line, ending in a newline).

    ``|`` cannot occur in a LIN value; one inside a name or explanation is
    written as ``/``.
    """
    parts: list[str] = []
    names = ",".join(_clean((board.tag(_NAME_TAGS[s]) or "").replace(",", " ")) for s in _LIN_ORDER)
    parts.append(f"pn|{names}|st||")
    if board.deal is not None:
        digit = _DEALER_DIGIT.get(board.dealer, "") if board.dealer is not None else ""  # type: ignore[arg-type]
        parts.append(f"md|{digit}" + ",".join(_hand(board.deal[s]) for s in _LIN_ORDER) + "|")
    parts.append("rh||")
    label = board.number if board.number is not None else board.tag("Board")
    if label is not None:
        parts.append(f"ah|Board {label}|")
    if board.vulnerable is not None:
        parts.append(f"sv|{_SV[board.vulnerable]}|")
    if board.auction is not None:
        for call in board.auction.calls:
            tok = {CallKind.PASS: "p", CallKind.DOUBLE: "d", CallKind.REDOUBLE: "r"}.get(call.kind)
            if tok is None:
                tok = f"{call.level}{'N' if call.strain is not None and call.strain.suit is None else call.strain}"
            parts.append(f"mb|{tok}{'!' if call.alert else ''}|")
            if call.annotation:
                parts.append(f"an|{_clean(call.annotation)}|")
        parts.append("pg||")
    if board.play is not None:
        for i, card in enumerate(board.play.cards):
            if card is None:
                break
            parts.append(f"pc|{card}|")
            if i % 4 == 3:
                parts.append("pg||")
        if board.play.claim is not None:
            parts.append(f"mc|{board.play.claim}|")
    return "".join(parts) + "\n"


def dump(boards: Iterable[Board], file: TextIO) -> int:
    """Write boards as LIN records, one per line; returns the number written."""
    n = 0
    for b in boards:
        file.write(dumps(b))
        n += 1
    return n
