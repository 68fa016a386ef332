"""What a booklet shows, as plain data: the boards it draws, their diagrams, double-dummy grids and results pages.

The HTML writer (:mod:`handrec.booklet.html`) and the PDF writer
(:mod:`handrec.booklet.pdf`) share these view models, so that both print the
same things:

* :func:`board_view` turns a :class:`~handrec.model.Board` into a plain
  view model (a ``dict`` of strings, ints, lists and ``None``): what the
  page shows, already spelt for print (``10`` for a ten, a dash for a
  void, HCP per seat); :func:`dd_view` its double-dummy grid and par.
* :func:`select_boards` picks what a booklet holds: a board recorded by several
  games is shown once (:func:`distinct_boards`), a board without a deal is
  not drawn (:func:`diagram_boards`), and the games' results make the results
  pages (:func:`handrec.booklet.results_pages.booklet_results`: travellers and
  rankings computed by :mod:`handrec.events.games`).

>>> from handrec.model import Board, Deal, Origin, Seat, Vulnerability
>>> d = Deal.parse("N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982")
>>> v = board_view(Board(origin=Origin("t.pbn"), number=3, dealer=Seat.SOUTH,
...                      vulnerable=Vulnerability.EW, deal=d))
>>> v["hands"]["E"]["S"], v["hcp"]["N"], v["vulnerable_seats"]
('107', 16, ['E', 'W'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from handrec.booklet.results_pages import _results, no_results_reason
from handrec.events.games import record
from handrec.model import Board, Hand, Rank, Seat, Strain, Suit, Vulnerability

__all__ = [
    "BoardView",
    "BookletSummary",
    "NothingToPrint",
    "board_view",
    "dd_view",
    "board_key",
    "has_deal",
    "distinct_boards",
    "diagram_boards",
    "select_boards",
    "section_key",
    "booklet_sections",
    "board_range",
]

#: Printed for a suit the hand does not hold.
VOID = "\u2014"

#: A suit string longer than this (in characters, ``10`` counting two) gets
#: the smaller "crowded" type so that a long suit stays inside its column.
CROWDED_AT = 9

_SEATS_NESW: tuple[Seat, ...] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
_SUITS_SHOWN: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
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

_DD_STRAIN_KEYS = {
    Strain.NOTRUMP: "NT",
    Strain.SPADES: "S",
    Strain.HEARTS: "H",
    Strain.DIAMONDS: "D",
    Strain.CLUBS: "C",
}
#: Printed in a double-dummy cell where the declarer takes fewer than seven tricks.
_DD_DASH = "\u2013"


def dd_view(info: Any) -> tuple[list[Any] | None, dict[str, Any] | None]:
    """A :class:`handrec.dd.solver.BoardDD` as printed: the grid (rows of seat letter and five cells for
    NT, S, H, D, C: the level made, or a dash below seven tricks; declarers N, S, E, W) and the
    par (``score`` label, ``passed_out``, ``contracts``: level, strain key, doubled, declarer,
    result; ``text``: a ParContract value kept as written).  ``(None, None)`` for ``None``."""
    if info is None:
        return None, None
    grid = None
    if info.table is not None:
        grid = [[str(seat), [str(t - 6) if t >= 7 else _DD_DASH for t in tricks]] for seat, tricks in info.table.rows()]
    p = None
    if info.par is not None or info.par_text is not None:
        contracts = []
        if info.par is not None:
            for c in info.par.contracts:
                contracts.append(
                    {
                        "level": str(c.level),
                        "strain": _DD_STRAIN_KEYS[c.strain],
                        "doubled": c.doubled,
                        "declarer": c.declarer_text,
                        "result": c.result_text,
                    }
                )
        p = {
            "score": None if info.par is None else info.par.label,
            "passed_out": info.par is not None and info.par.passed_out,
            "contracts": contracts,
            "text": info.par_text,
        }
    return grid, p


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


@dataclass(slots=True)
class BookletSummary:
    """What a booklet holds, for the caller to report (filled in by the render functions).

    ``boards``: diagrams drawn; ``left_out``: boards without a deal, not drawn
    (:func:`diagram_boards`); ``results``: whether there are results pages;
    ``no_results``: why there are none, when results were not refused
    (:func:`handrec.booklet.results_pages.no_results_reason`); ``total``: boards of the input
    (``boards + left_out``); ``read``: the games read (each table's record of a board: what
    ``validate`` and ``convert`` count as boards).
    """

    boards: int = 0
    left_out: int = 0
    read: int = 0
    results: bool = False
    no_results: str | None = None

    @property
    def total(self) -> int:
        return self.boards + self.left_out

    @property
    def empty(self) -> bool:
        """Nothing to print: no diagram and no results page."""
        return self.boards == 0 and not self.results


class NothingToPrint(ValueError):
    """The booklet would hold no diagram and no results page (raised only when asked: ``allow_empty=False``)."""


def select_boards(
    boards: Iterable[Board],
    results: bool | None,
    diagnostics: list[Any] | None,
    summary: BookletSummary | None,
) -> tuple[list[Board], list[Board], dict[str, Any] | None]:
    """The input's boards, those the booklet draws, and the results pages (shared by HTML and PDF)."""
    all_boards = list(boards)
    res = None
    reason = None
    if results is not False:
        recs = [record(b) for b in all_boards]
        res, diags = _results(recs)
        if diagnostics is not None:
            diagnostics.extend(diags)
        if res is None and summary is not None:
            reason = no_results_reason(recs)
    shown, left_out = diagram_boards(all_boards)
    if summary is not None:
        summary.boards, summary.left_out, summary.read = len(shown), left_out, len(all_boards)
        summary.results, summary.no_results = res is not None, reason
    return all_boards, shown, res


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


def board_key(board: Board) -> tuple[str, str, str] | None:
    """What makes two games the same board of a booklet: Event, board label and deal.

    ``None`` when the board gives no deal (such games are never merged).
    """
    if board.deal is None:
        return None
    event = (board.tag("Event") or "").strip()
    label = str(board.number) if board.number is not None else (board.tag("Board") or "").strip()
    return (event, label, str(board.deal))


def distinct_boards(boards: Iterable[Board]) -> list[Board]:
    """The boards of a booklet: the first game of each board (:func:`board_key`), in input order.

    A file that records every table's result of a board as a separate game (PBN
    travellers, LIN rooms) repeats its deal; the booklet shows the diagram once.
    """
    seen: set[tuple[str, str, str]] = set()
    out: list[Board] = []
    for b in boards:
        key = board_key(b)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        out.append(b)
    return out


def has_deal(board: Board) -> bool:
    """Whether the board gives a deal: at least one hand (a partial deal counts)."""
    deal = board.deal
    return deal is not None and any(deal[s] is not None for s in _SEATS_NESW)


def diagram_boards(boards: Sequence[Board]) -> tuple[list[Board], int]:
    """The boards a booklet draws and how many boards it leaves out for want of a deal.

    Drawn: :func:`distinct_boards` that have a deal (:func:`has_deal`).  Left
    out: the boards none of whose games gives a deal, counted once per Event
    and board label (a game without a deal of a board drawn from another game
    is not counted; games with no board label count one each).
    """
    shown = [b for b in distinct_boards(boards) if has_deal(b)]
    drawn = {_event_label(b) for b in shown}
    missing: set[tuple[str, str]] = set()
    unlabelled = 0
    for b in boards:
        if has_deal(b):
            continue
        key = _event_label(b)
        if key[1] in ("", "?"):
            unlabelled += 1
        elif key not in drawn:
            missing.add(key)
    return shown, len(missing) + unlabelled


def _event_label(board: Board) -> tuple[str, str]:
    label = str(board.number) if board.number is not None else (board.tag("Board") or "").strip()
    return ((board.tag("Event") or "").strip(), label)


def section_key(board: Board) -> tuple[str, str]:
    """What makes a part of a booklet: the input file and the Event (stripped; ``""`` when none).

    Files of one folder often number their boards from 1 alike, and two files may hold the
    same event's name: each file's event is a part of its own, so no board sits among
    another file's boards of the same number.
    """
    return (board.origin.path, (board.tag("Event") or "").strip())


def booklet_sections(boards: Sequence[Board]) -> list[dict[str, Any]]:
    """The parts of a booklet (:func:`section_key`), in the order their first board comes.

    Each: ``event``, ``site``, ``date`` (of its first board, as :func:`board_view` spells
    them; ``None`` when absent), ``file`` (the input file's name, no folder) and ``indexes``
    (its boards' positions in ``boards``, in order).
    """
    parts: dict[tuple[str, str], dict[str, Any]] = {}
    for i, b in enumerate(boards):
        key = section_key(b)
        part = parts.get(key)
        if part is None:
            name = PurePosixPath(b.origin.path.replace("\\", "/")).name or b.origin.path
            part = parts[key] = {
                "event": _tag(b, "Event"),
                "site": _tag(b, "Site"),
                "date": _display_date(_tag(b, "Date")),
                "file": name,
                "indexes": [],
            }
        part["indexes"].append(i)
    return list(parts.values())


def board_range(labels: Sequence[str]) -> str:
    """The footer's name for the boards of one page: a run of consecutive numbers as a range
    (``Boards 1–8``), anything else listed as it is printed (``Boards 7, 8, 1``).

    >>> board_range(["1", "2", "3"]), board_range(["4"]), board_range(["2", "2", "5"])
    ('Boards 1–3', 'Board 4', 'Boards 2, 2, 5')
    """
    if not labels:
        return ""
    if len(labels) == 1:
        return f"Board {labels[0]}"
    if all(x.isdigit() for x in labels):
        numbers = [int(x) for x in labels]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"Boards {labels[0]}\u2013{labels[-1]}"
    return "Boards " + ", ".join(labels)
