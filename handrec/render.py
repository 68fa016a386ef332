"""The hand-record booklet: boards to one standalone, printable HTML file.

Two steps, kept apart so each can be tested on its own:

1. :func:`board_view` turns a :class:`~handrec.model.Board` into a plain
   view model (a ``dict`` of strings, ints, lists and ``None``): what the
   page shows, already spelt for print (``10`` for a ten, a dash for a
   void, HCP per seat).
2. :func:`render_html` feeds the view models to the Jinja2 template
   ``templates/booklet.html.j2`` (autoescaped, strict undefined) and
   returns the page; :func:`write_booklet` writes it atomically.

The page is self-contained (the CSS is inlined) and prints eight boards to
a sheet on A4 and US Letter alike: a 2 x 4 grid of 90 x 56 mm boards
inside 12 mm margins.  Input text (event names, tags) only ever reaches
the page as escaped template *data*; templates are never built from it.

>>> from handrec.model import Board, Deal, Origin, Seat, Vulnerability
>>> d = Deal.parse("N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982")
>>> v = board_view(Board(origin=Origin("t.pbn"), number=3, dealer=Seat.SOUTH,
...                      vulnerable=Vulnerability.EW, deal=d))
>>> v["hands"]["E"]["S"], v["hcp"]["N"], v["vulnerable_seats"]
('107', 16, ['E', 'W'])
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from handrec._resources import templates_dir
from handrec.model import Board, Hand, Rank, Seat, Suit, Vulnerability

__all__ = ["BOARDS_PER_PAGE", "board_view", "render_html", "write_booklet"]

#: Boards on one printed sheet (two columns of four; fits A4 and Letter).
BOARDS_PER_PAGE = 8

#: Printed for a suit the hand does not hold.
VOID = "\u2014"

#: A suit string longer than this (in characters, ``10`` counting two) gets
#: the smaller "crowded" type so that a long suit stays inside its column.
CROWDED_AT = 9

_TEMPLATE = "booklet.html.j2"

_SEATS_NESW: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
_SUITS_SHOWN: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
_VUL_LABELS = {
    Vulnerability.NONE: "None vul",
    Vulnerability.NS: "N-S vul",
    Vulnerability.EW: "E-W vul",
    Vulnerability.BOTH: "Both vul",
}
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

BoardView = dict[str, Any]


def board_view(board: Board) -> BoardView:
    """The view model of one board: what its diagram shows, as plain values.

    Keys:

    * ``number``: the board number (int) or ``None``; ``label``: what the
      page prints as the number (the number, else the raw ``Board`` tag,
      else ``"?"``).
    * ``dealer``: ``"N"``/``"E"``/``"S"``/``"W"`` or ``None``;
      ``dealer_name``: ``"North"``... or ``None``.
    * ``vulnerable``: ``"None"``/``"NS"``/``"EW"``/``"Both"`` or ``None``;
      ``vulnerable_label``: e.g. ``"N-S vul"`` (``"Vul unknown"`` if absent);
      ``vulnerable_seats``: the vulnerable seat letters, in N E S W order.
    * ``hands``: seat letter to ``{"S": ..., "H": ..., "D": ..., "C": ...}``,
      ranks high to low with ``10`` for a ten and a dash (U+2014) for a void;
      ``None`` for a hand the record does not give.
    * ``hcp``: seat letter to high-card points (A 4, K 3, Q 2, J 1) or
      ``None`` for an unknown hand.
    * ``crowded``: seat letters whose longest suit needs the smaller type.
    * ``event``, ``site``, ``date``: tag values (``None`` when absent,
      empty or ``?``); the date is spelt out when complete
      (``2026.11.01`` becomes ``1 November 2026``).
    * ``deal_given``: whether any hand is known; ``incomplete``: ``True``
      unless the deal has four 13-card hands holding 52 distinct cards.

    >>> from handrec.model import Origin
    >>> v = board_view(Board(origin=Origin("t.pbn"), number=1))
    >>> v["hands"]["N"], v["hcp"]["N"], v["incomplete"], v["vulnerable_label"]
    (None, None, True, 'Vul unknown')
    """
    deal = board.deal
    hands: dict[str, dict[str, str] | None] = {}
    hcp: dict[str, int | None] = {}
    crowded: list[str] = []
    for seat in _SEATS_NESW:
        hand = deal[seat] if deal is not None else None
        key = str(seat)
        if hand is None:
            hands[key] = None
            hcp[key] = None
            continue
        suits = _hand_strings(hand)
        hands[key] = suits
        hcp[key] = hand.hcp
        if max(len(s) for s in suits.values()) > CROWDED_AT:
            crowded.append(key)

    vul = board.vulnerable
    raw_number = board.tag("Board")
    if board.number is not None:
        label = str(board.number)
    elif raw_number and raw_number.strip() not in ("", "?"):
        label = raw_number.strip()
    else:
        label = "?"
    return {
        "number": board.number,
        "label": label,
        "dealer": None if board.dealer is None else str(board.dealer),
        "dealer_name": None if board.dealer is None else _SEAT_NAMES[board.dealer],
        "vulnerable": None if vul is None else str(vul),
        "vulnerable_label": "Vul unknown" if vul is None else _VUL_LABELS[vul],
        "vulnerable_seats": [] if vul is None else [str(s) for s in _SEATS_NESW if vul.is_vulnerable(s)],
        "hands": hands,
        "hcp": hcp,
        "crowded": crowded,
        "event": _tag(board, "Event"),
        "site": _tag(board, "Site"),
        "date": _display_date(_tag(board, "Date")),
        "deal_given": any(h is not None for h in hands.values()),
        "incomplete": deal is None or not deal.is_complete,
    }


def render_html(boards: Iterable[Board], *, title: str | None = None) -> str:
    """The booklet for ``boards`` as one standalone HTML page.

    The heading is ``title`` if given, else the first board's ``Event`` tag
    (else "Hand records"); the first board's ``Site`` and ``Date`` follow
    it.  Boards appear in the order given, :data:`BOARDS_PER_PAGE` to a
    printed sheet.  Boards without a deal (or with part of one) still get
    a diagram, with the missing hands shown as "unknown".
    """
    return _render([board_view(b) for b in boards], title)


def write_booklet(boards: Iterable[Board], out: Path | str, *, title: str | None = None) -> int:
    """Write the booklet to ``out`` (UTF-8) and return how many boards it holds.

    The page is written to a temporary file in the same folder and moved
    over ``out`` with :func:`os.replace`, so a reader never sees half a
    file and a failure leaves any earlier ``out`` untouched.

    :raises OSError: if the folder is missing or not writable.
    """
    views = [board_view(b) for b in boards]
    text = _render(views, title)
    target = Path(out)
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(views)


def _render(views: Sequence[BoardView], title: str | None) -> str:
    first = views[0] if views else None
    heading = title or (first["event"] if first else None) or "Hand records"
    sheets = [list(views[i : i + BOARDS_PER_PAGE]) for i in range(0, len(views), BOARDS_PER_PAGE)] or [[]]
    return (
        _environment()
        .get_template(_TEMPLATE)
        .render(
            heading=heading,
            site=first["site"] if first else None,
            date=first["date"] if first else None,
            sheets=sheets,
            board_count=len(views),
        )
    )


@cache
def _environment() -> jinja2.Environment:
    """The one Jinja2 environment: package templates only, autoescaped, strict."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["suits"] = [
        {"key": str(s), "symbol": s.symbol, "name": _SUIT_NAMES[s], "red": s.is_red} for s in _SUITS_SHOWN
    ]
    return env


def _hand_strings(hand: Hand) -> dict[str, str]:
    """``{"S": "AKQ", ...}``: ranks high to low, ``10`` for a ten, a dash for a void."""
    out: dict[str, str] = {}
    for suit in _SUITS_SHOWN:
        ranks = "".join("10" if c.rank is Rank.TEN else str(c.rank) for c in hand.suit_cards(suit))
        out[str(suit)] = ranks or VOID
    return out


def _tag(board: Board, name: str) -> str | None:
    """A tag's value stripped, or ``None`` when absent, empty or unknown (``?``)."""
    value = board.tag(name)
    if value is None:
        return None
    value = value.strip()
    return None if value in ("", "?") else value


def _display_date(value: str | None) -> str | None:
    """Spell out a PBN date (``YYYY.MM.DD``, ``?`` for unknown parts).

    >>> _display_date("2026.11.01"), _display_date("2026.03.??"), _display_date("2026.??.??")
    ('1 November 2026', 'March 2026', '2026')
    >>> _display_date("Nov 1st")
    'Nov 1st'
    """
    if value is None:
        return None
    parts = value.split(".")
    if len(parts) != 3 or len(parts[0]) != 4:
        return value
    year, month, day = (p if p.isdigit() else None for p in parts)
    if year is None or (month is not None and not 1 <= int(month) <= 12):
        return value
    if month is None:
        return year if day is None else value
    if day is None:
        return f"{_MONTHS[int(month) - 1]} {year}"
    if not 1 <= int(day) <= 31:
        return value
    return f"{int(day)} {_MONTHS[int(month) - 1]} {year}"
