"""One table's game on a board page: the auction, the play, the lead and the BBO hand viewer link.

What a board page shows of one table's game, as plain values for the templates.

Everything here is data for an autoescaped template: text from the file (an alert's
explanation, a player's name) is never markup.

>>> from handrec.formats.dispatch import read
>>> import io
>>> text = '''[Board "1"]
... [Dealer "N"]
... [Vulnerable "None"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Auction "N"]
... 1S Pass 2S Pass
... 4S Pass Pass Pass
... [Play "E"]
... HA C5 H8 S2
... '''
>>> board = next(read(io.StringIO(text)))
>>> a = auction_view(board.auction)
>>> a["seats"], [[c["text"] or c["level"] + c["strain"] for c in row if c] for row in a["rows"]]
(['W', 'N', 'E', 'S'], [['1S', 'Pass', '2S'], ['Pass', '4S', 'Pass', 'Pass'], ['Pass']])
>>> lead_text(board.play)
'HA'
>>> bbo_url(board).startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
True
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from handrec.formats.lin.writer import dumps as lin_dumps
from handrec.model import Auction, Board, Call, CallKind, Card, Play, Rank, Seat
from handrec.rules.replay import Replay

__all__ = ["BBO_VIEWER", "AUCTION_SEATS", "auction_view", "play_view", "lead_text", "card_view", "bbo_url"]

#: The Bridge Base Online hand viewer; the board's LIN goes in its ``lin`` parameter (a link
#: only: the site never fetches it).
BBO_VIEWER = "https://www.bridgebase.com/tools/handviewer.html"

#: Auction columns, as bidding diagrams print them (West first).
AUCTION_SEATS: tuple[Seat, ...] = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)

_STRAIN_KEYS = {"NT": "NT", "S": "S", "H": "H", "D": "D", "C": "C"}


def _call_view(call: Call, notes: dict[int, str]) -> dict[str, Any]:
    """One call: ``level`` and ``strain`` (``S H D C NT``) for a bid, else ``text`` (``Pass``,
    ``X``, ``XX``; an en dash for a skipped turn, PBN 2.1 §3.9); ``alert``; ``note``: its
    explanation (LIN ``an``, a PBN note's text) or ``None``."""
    note = call.annotation
    if note is None and call.note is not None:
        note = notes.get(call.note)
    out: dict[str, Any] = {"level": "", "strain": "", "text": "", "alert": call.alert, "note": note}
    if call.is_skipped:
        out["text"] = "\u2013"
    elif call.kind is CallKind.BID:
        out["level"], out["strain"] = str(call.level), _STRAIN_KEYS[str(call.strain)]
    else:
        out["text"] = str(call)
    return out


def auction_view(auction: Auction | None) -> dict[str, Any] | None:
    """The auction as a bidding diagram: ``seats`` (column headers, West first), ``rows`` of
    four cells (``None`` before the dealer's first call; else :func:`_call_view`), ``notes``
    (the explanations in order, numbered as the cells' ``note_no``), ``ended`` (``"*"``
    when the record says more calls are unknown).  ``None`` without an auction or calls."""
    if auction is None or not auction.calls:
        return None
    notes = {n.index: n.text for n in auction.notes}
    cells: list[dict[str, Any] | None] = [None] * AUCTION_SEATS.index(auction.dealer)
    explained: list[str] = []
    for call in auction.calls:
        v = _call_view(call, notes)
        if v["note"]:
            explained.append(v["note"])
            v["note_no"] = len(explained)
        cells.append(v)
    rows = [cells[i : i + 4] for i in range(0, len(cells), 4)]
    return {
        "seats": [str(s) for s in AUCTION_SEATS],
        "rows": rows,
        "notes": explained,
        "ended": auction.ended,
    }


def card_view(card: Card | None) -> dict[str, str]:
    """A card as printed: ``suit`` (``S H D C``, ``""`` unknown) and ``rank`` (``10`` for a ten, ``?`` unknown)."""
    if card is None:
        return {"suit": "", "rank": "?"}
    return {"suit": str(card.suit), "rank": "10" if card.rank is Rank.TEN else str(card.rank)}


def play_view(rep: Replay | None, play: Play | None) -> dict[str, Any] | None:
    """The play trick by trick, from the replay (:func:`handrec.rules.replay.replay`):
    ``tricks``: ``number``, ``leader``, ``cards`` (seat and :func:`card_view`, in play order),
    ``winner`` (seat letter or ``""``); ``claim``: tricks declarer takes after a claim
    (LIN ``mc``) or ``None``.  ``None`` when no card was recorded."""
    if rep is None or not rep.tricks:
        return None
    tricks = []
    for t in rep.tricks:
        cards = [{"seat": str(seat), **card_view(c)} for seat, c in zip(t.seats, t.cards)]
        tricks.append(
            {
                "number": t.number,
                "leader": str(t.leader),
                "cards": cards,
                "winner": "" if t.winner is None else str(t.winner),
            }
        )
    return {"tricks": tricks, "claim": None if play is None else play.claim}


def lead_text(play: Play | None) -> str | None:
    """The opening lead as PBN writes a card (``HA``), ``None`` when the record has none."""
    if play is None or not play.cards or play.cards[0] is None:
        return None
    return str(play.cards[0])


def bbo_url(board: Board) -> str:
    """The hand viewer's address for ``board``: handrec's own single-deal LIN record
    (:func:`handrec.formats.lin.writer.dumps`) in the ``lin`` parameter, percent-encoded."""
    lin = lin_dumps(board).strip()
    return f"{BBO_VIEWER}?lin={quote(lin, safe='')}"
