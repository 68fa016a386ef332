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
inside 12 mm margins, each with its double-dummy grid and par when known
(:func:`dd_view`).  A board recorded by several games is shown once
(:func:`distinct_boards`); their results make the results pages
(:func:`booklet_results`: travellers and rankings computed by
:mod:`handrec.events.games`, shared with the PDF booklet).  Input text (event names, tags) only ever reaches
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
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from handrec._resources import templates_dir
from handrec.dd import solver as ddmod
from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Cross, Method, cross_for, pairs_method_for
from handrec.events.report import fmt_number, fmt_percent
from handrec.events.sessions import group_sessions
from handrec.events.teams import score_teams
from handrec.events.travellers import travellers
from handrec.model import Board, Contract, Hand, ModelError, Rank, Seat, Strain, Suit, Vulnerability

__all__ = [
    "BOARDS_PER_PAGE",
    "BookletSummary",
    "NothingToPrint",
    "board_view",
    "board_key",
    "has_deal",
    "distinct_boards",
    "diagram_boards",
    "select_boards",
    "booklet_results",
    "no_results_reason",
    "render_html",
    "write_booklet",
]

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


def render_html(
    boards: Iterable[Board],
    *,
    title: str | None = None,
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    summary: BookletSummary | None = None,
) -> str:
    """The booklet for ``boards`` as one standalone HTML page.

    The heading is ``title`` if given, else the first board's ``Event`` tag
    (else "Hand records"); the first board's ``Site`` and ``Date`` follow
    it.  Boards appear in the order given, :data:`BOARDS_PER_PAGE` to a
    printed sheet, each board once (:func:`diagram_boards`).  A board with
    part of a deal gets a diagram with the missing hands shown as
    "unknown"; a board with no deal at all gets none (its results still
    count on the results pages).  With no diagram but results, the page
    holds the results only; with neither, a sheet says "No boards.".

    ``dd``: ``None`` shows the double-dummy grid and par the boards' tags
    give, ``True`` also solves the other complete deals (endplay; without it
    a note says so once), ``False`` shows none (:func:`handrec.dd.solver.boards_dd`).
    ``results``: ``None`` (default) adds the results (travellers and
    rankings, :func:`booklet_results`) when the input has any, ``False``
    never; the claimed-figure diagnostics are appended to ``diagnostics``.
    ``summary``, when given, is filled in (:class:`BookletSummary`).
    """
    views, res, note, heading_board = _prepare(boards, dd, results, diagnostics, summary=summary)
    return _render(views, res, title, note, heading_board)


@dataclass(slots=True)
class BookletSummary:
    """What a booklet holds, for the caller to report (filled in by the render functions).

    ``boards``: diagrams drawn; ``left_out``: boards without a deal, not drawn
    (:func:`diagram_boards`); ``results``: whether there are results pages;
    ``no_results``: why there are none, when results were not refused
    (:func:`no_results_reason`); ``total``: boards of the input
    (``boards + left_out``).
    """

    boards: int = 0
    left_out: int = 0
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
        summary.boards, summary.left_out = len(shown), left_out
        summary.results, summary.no_results = res is not None, reason
    return all_boards, shown, res


def _prepare(
    boards: Iterable[Board],
    dd: bool | None,
    results: bool | None,
    diagnostics: list[Any] | None,
    progress: Any = None,
    summary: BookletSummary | None = None,
    allow_empty: bool = True,
) -> tuple[list[BoardView], dict[str, Any] | None, str | None, BoardView | None]:
    if summary is None and not allow_empty:
        summary = BookletSummary()
    all_boards, shown, res = select_boards(boards, results, diagnostics, summary)
    if not allow_empty and summary is not None and summary.empty:
        raise NothingToPrint("no board has a deal and there are no results")
    note = None
    infos: list[Any] = [None] * len(shown)
    if dd is not False:
        infos, note = ddmod.boards_dd(shown, solve=bool(dd), progress=progress)
    views = []
    for b, info in zip(shown, infos):
        v = board_view(b)
        v["dd"], v["par"] = dd_view(info)
        views.append(v)
    return views, res, note, board_view(all_boards[0]) if all_boards else None


def write_booklet(
    boards: Iterable[Board],
    out: Path | str,
    *,
    title: str | None = None,
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    progress: Any = None,
    summary: BookletSummary | None = None,
    allow_empty: bool = True,
) -> int:
    """Write the booklet to ``out`` (UTF-8) and return how many diagrams it holds
    (options as :func:`render_html`).

    The page is written to a temporary file in the same folder and moved
    over ``out`` with :func:`os.replace`, so a reader never sees half a
    file and a failure leaves any earlier ``out`` untouched.

    :raises NothingToPrint: with ``allow_empty=False``, when no board has a
        deal and there are no results (nothing is written).
    :raises OSError: if the folder is missing or not writable.
    """
    views, res, note, heading_board = _prepare(boards, dd, results, diagnostics, progress, summary, allow_empty)
    text = _render(views, res, title, note, heading_board)
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


def _render(
    views: Sequence[BoardView],
    results: dict[str, Any] | None,
    title: str | None,
    note: str | None = None,
    first: BoardView | None = None,
) -> str:
    """``first``: the view of the input's first board (heading, site, date), drawn or not."""
    heading = title or (first["event"] if first else None) or "Hand records"
    sheets = [list(views[i : i + BOARDS_PER_PAGE]) for i in range(0, len(views), BOARDS_PER_PAGE)]
    if not sheets and results is None:
        sheets = [[]]  # a sheet saying "No boards."
    return (
        _environment()
        .get_template(_TEMPLATE)
        .render(
            heading=heading,
            site=first["site"] if first else None,
            date=first["date"] if first else None,
            sheets=sheets,
            board_count=len(views),
            results=results,
            note=note,
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


# ---------------------------------------------------------------------------
# Results pages: travellers scored by handrec, and the session ranking

#: Law 12C2 artificial adjusted scores as a traveller prints them.
_ARTIFICIAL_TEXT = {"AVERAGE_PLUS": "Avg+", "AVERAGE": "Avg", "AVERAGE_MINUS": "Avg\u2212"}
_MINUS = "\u2212"
#: Codes of the claimed-figure checks (handrec.events.checks) whose rows a results page marks:
#: a figure that differs from handrec's (S611: a ScoreTable percentage by another formula).
_CLAIM_CODES = ("S603", "S604", "S605", "S607", "S608", "S611", "S616")
#: A traveller up to this wide (:func:`_traveller_width`) fits half an A4 or Letter page in the PDF,
#: so that the travellers go two abreast (measured: 69 fits 86 mm, 79 does not).
_HALF_WIDTH = 70
_ROW_RE = re.compile(r"\b(ScoreTable|TotalScoreTable) row (\d+)\b")


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


def _signed(value: Any) -> str:
    """An exact number as printed on a traveller: at most 2 decimals, a true minus sign."""
    text = fmt_number(value)
    return text.replace("-", _MINUS) if text.startswith("-") else text


def _result_cells(e: Any) -> dict[str, Any]:
    """A traveller row's room, contract, declarer, tricks and score cells (N-S plus, E-W plus, zero)."""
    score = e.score_ns
    return {
        "room": e.room,
        "contract": _contract_view(e.contract, e.tricks),
        "by": e.declarer or "",
        "tricks": "" if e.tricks is None else str(e.tricks),
        "score_ns": str(score) if score is not None and score > 0 else "",
        "score_ew": str(-score) if score is not None and score < 0 else "",
        "zero": score == 0,
    }


def _contract_view(text: str, tricks: int | None) -> dict[str, Any]:
    """A traveller's contract cell: ``level``, ``strain`` (S H D C NT), ``doubling`` (``""``, ``x``,
    ``xx``), ``result`` (``=``, ``+1``, ``-2``) or, when it is not a contract, just ``text``."""
    out: dict[str, Any] = {"text": text, "level": None, "strain": None, "doubling": "", "result": ""}
    if not text:
        return out
    try:
        c = Contract.parse(text)
    except (ModelError, ValueError):
        return out
    if c.is_passed_out:
        out["text"] = "Pass"
        return out
    if c.is_end_position or c.strain is None:
        return out
    out.update(level=str(c.level), strain=str(c.strain), doubling=str(c.doubling).lower(), text="")
    if tricks is not None:
        over = tricks - c.level - 6
        out["result"] = "=" if over == 0 else (f"+{over}" if over > 0 else f"{_MINUS}{-over}")
    return out


_METHOD_LABELS = {
    "mp": "Matchpoints, top n\u22121 (1 per pair beaten, \u00bd per tie)",
    "mp2": "Matchpoints, top 2(n\u22121) (2 per pair beaten, 1 per tie)",
    "butler": "Butler IMPs (datum: mean without top and bottom)",
    "cross-imp": "Cross-IMPs (average over the comparisons)",
    "imp": "Teams: IMPs between the Open and Closed rooms",
}
#: Cross-IMPs as the Scoring tag divides them (handrec.events.games.Cross): ``Cross``, ``Cross1``, ``Cross2``.
_CROSS_LABELS = {
    Cross.SUM: "Cross-IMPs (summed over the comparisons)",
    Cross.SCORES: "Cross-IMPs (divided by the number of results)",
    Cross.COMPARISONS: _METHOD_LABELS["cross-imp"],
}


def _traveller_width(t: dict[str, Any], mp: bool) -> int:
    """A traveller's width in characters (the longest text of each column, header included) plus two
    per column for the cell padding: the PDF's 7-point table is about 1.25 mm per unit."""
    rows = t["rows"]

    def col(header: str, cells: Iterable[str]) -> int:
        return max([len(header), *(len(c) for c in cells)]) + 2

    width = col("", [])  # the flag column
    if t["rooms"]:
        width += col("Room", (r["room"] or "" for r in rows))
    if t["pairs"]:
        width += col("N-S", (r["ns"] or "" for r in rows)) + col("E-W", (r["ew"] or "" for r in rows))
    if t["contracts"]:
        width += col("Contract", []) + col("By", []) + col("Res", [])
    width += col("+N-S", (r["score_ns"] for r in rows)) + col("+E-W", (r["score_ew"] for r in rows))
    if t["times"]:
        width += col("x", (r["times"] for r in rows))
    head = "MP" if mp else "IMP"
    width += col(f"{head} N-S", (r["ns_value"] for r in rows)) + col(f"{head} E-W", (r["ew_value"] for r in rows))
    if mp:
        width += col("% N-S", (r["ns_pct"] for r in rows))
    return width


def _flags(diags: Sequence[Any]) -> tuple[set[tuple[str, int | None]], set[tuple[str, int | None, str, int]]]:
    """Where the file's own figures disagree with handrec's: games ``(path, board index)`` and
    table rows ``(path, board index, table, row index)``."""
    games: set[tuple[str, int | None]] = set()
    rows: set[tuple[str, int | None, str, int]] = set()
    for d in diags:
        if d.code not in _CLAIM_CODES:
            continue
        m = _ROW_RE.search(d.message)
        if m is not None:
            rows.add((d.path, d.board, m.group(1), int(m.group(2)) - 1))
        else:
            games.add((d.path, d.board))
    return games, rows


def _traveller_view(st: Any, method: Any, flagged: Any, holder: tuple[str, int | None] | None) -> dict[str, Any]:
    """One scored traveller as printed: rows sorted by the N-S score, best first.

    ``holder``: (path, board index) of the game whose ScoreTable the traveller comes from.
    """
    games, table_rows = flagged
    t = st.traveller
    mp = method in (Method.MP, Method.MP2)
    rows = []
    for se in st.entries:
        e = se.entry
        rec = e.record
        if rec is not None:
            flag = (rec.origin.path, rec.origin.index) in games
        else:
            flag = holder is not None and (holder[0], holder[1], "ScoreTable", e.row) in table_rows
        artificial = None
        if e.artificial is not None:
            artificial = "/".join(_ARTIFICIAL_TEXT[k.name] for k in e.artificial)
        score = e.score_ns
        rows.append(
            {
                "ns": e.ns,
                "ew": e.ew,
                **_result_cells(e),
                "artificial": artificial,
                "times": str(e.multiplicity) if e.multiplicity != 1 else "",
                "ns_value": "" if se.ns is None else _signed(se.ns),
                "ew_value": "" if se.ew is None else _signed(se.ew),
                "ns_pct": fmt_percent(se.pct_ns) if mp and se.pct_ns is not None else "",
                "flag": flag,
                "_sort": (0 if score is not None else 1 if artificial else 2, -(score or 0)),
            }
        )
    rows.sort(key=lambda r: r["_sort"])  # stable: equal scores keep the file's order
    for r in rows:
        del r["_sort"]
    info = []
    if mp and st.top is not None:
        info.append(f"top {st.top}")
    if st.expected is not None:
        info.append(f"Neuberg to {st.expected} results")
    if st.datum is not None:
        info.append(f"datum {_signed(round(st.datum))}")
    if st.note:
        info.append(st.note)
    return {
        "board": t.board or "?",
        "played": t.played,
        "source": t.source,
        "info": ", ".join(info),
        "rooms": any(e.room for e in t.entries),
        "times": any(e.multiplicity != 1 for e in t.entries),
        "pairs": any(r["ns"] or r["ew"] for r in rows),
        "contracts": any(r["contract"]["level"] or r["contract"]["text"] or r["by"] or r["artificial"] for r in rows),
        "rows": rows,
    }


def _teams_view(boards: Sequence[Any], flagged: Any) -> list[dict[str, Any]]:
    """Teams: per board, the Open and Closed room results (sorted by N-S score) and the IMPs."""
    games, _ = flagged
    out = []
    for tb in boards:
        home = tb.match[3] if len(tb.match) > 3 and tb.match[3] else "Home"
        visit = tb.match[4] if len(tb.match) > 4 and tb.match[4] else "Visit"
        rows = []
        for e, sign in ((tb.open, 1), (tb.closed, -1)):
            imps_ns = sign * tb.imps_home  # the home team sits N-S in the Open room
            rec = e.record
            score = e.score_ns
            rows.append(
                {
                    "ns": e.ns or (home if sign > 0 else visit),
                    "ew": e.ew or (visit if sign > 0 else home),
                    **_result_cells(e),
                    "artificial": None,
                    "times": "",
                    "ns_value": _signed(imps_ns),
                    "ew_value": _signed(-imps_ns),
                    "ns_pct": "",
                    "flag": rec is not None and (rec.origin.path, rec.origin.index) in games,
                    "_score": score or 0,
                }
            )
        rows.sort(key=lambda r: -r["_score"])
        for r in rows:
            del r["_score"]
        v = tb.imps_home
        info = f"{home if v > 0 else visit} +{abs(v)} IMPs" if v else "no swing"
        out.append(
            {
                "board": tb.board or "?",
                "played": 2,
                "source": "games",
                "info": info,
                "rooms": True,
                "times": False,
                "pairs": True,
                "contracts": True,
                "rows": rows,
            }
        )
    return out


def _ranking_from_table(view: Any, row_flags: set[int]) -> dict[str, Any]:
    """A TotalScoreTable as the file gives it (names joined with " - ")."""
    columns = []
    keep = []
    for i, name in enumerate(view.columns):
        if name.lower() in ("center", "countrycode", "club"):
            continue
        keep.append(i)
        columns.append(name.replace("_", " "))
    rows = []
    for n, row in enumerate(view.rows):
        cells = []
        for i in keep:
            cell = row[i].strip().strip('"') if i < len(row) else ""
            if ";" in cell:
                cell = " - ".join(p.strip() for p in cell.split(";") if p.strip())
            cells.append("" if cell in ("?", "-") else cell)
        rows.append({"cells": cells, "flag": n in row_flags})
    right = [
        i for i, c in enumerate(columns) if c.split()[0].lower() not in ("pairid", "names", "teamid", "name", "team")
    ]
    return {"title": "Session ranking", "source": "TotalScoreTable", "columns": columns, "right": right, "rows": rows}


def _ranking_computed(r: Any, method: Any) -> dict[str, Any]:
    mp = method in (Method.MP, Method.MP2)
    title = {"NS": "N-S", "EW": "E-W", "pairs": "Pairs", "teams": "Teams"}.get(r.title, r.title)
    if method is Method.IMP:
        columns = ["Rank", "Team", "Boards", "IMPs won", "IMPs lost", "Net"]
    elif mp:
        columns = ["Rank", "Pair", "Boards", "MP", "Top", "%"]
    else:
        columns = ["Rank", "Pair", "Boards", "IMPs"]
    rows = []
    for row in r.rows:
        if method is Method.IMP:
            net = row.total - (row.against or 0)
            cells = [row.rank, row.name, str(row.boards), _signed(row.total), _signed(row.against), _signed(net)]
        elif mp:
            cells = [row.rank, row.name, str(row.boards), _signed(row.total), _signed(row.top), fmt_percent(row.pct)]
        else:
            cells = [row.rank, row.name, str(row.boards), _signed(row.total)]
        rows.append({"cells": cells, "flag": False})
    right = [i for i in range(len(columns)) if i not in (0, 1)]
    return {"title": f"Ranking {title}", "source": "computed", "columns": columns, "right": right, "rows": rows}


def booklet_results(boards: Iterable[Board]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The results pages of a booklet, as plain data, and the claimed-figure diagnostics.

    Results exist when a board has a ScoreTable with scores, several scored
    games (same Event, board and deal: PBN travellers as games, LIN rooms),
    or an Open and a Closed room of a teams match.  Everything is computed by
    :mod:`handrec.events.games` (travellers, matchpoints with Neuberg, Butler or
    cross-IMPs as the Scoring tag says, teams IMPs, rankings), never copied
    from the file; the file's own figures are checked with
    :func:`handrec.events.checks.check_event` (S603-S609, S611) and a traveller
    or ranking row they disagree with is flagged.  The ranking is the
    TotalScoreTable when the file has one, else computed.

    Returns ``(None, diagnostics)`` when there are no results.  The data:
    ``events``: list of ``name``, ``method`` (Method value), ``method_label``,
    ``value_head`` (``MP`` / ``IMP``), ``pct`` (bool), ``columns`` (2 when every traveller fits
    half a page, else 1), ``travellers`` (``board``,
    ``played``, ``source``, ``info``, ``rooms``, ``times``, ``pairs``, ``contracts`` (bools: which
    columns to show), ``rows``:
    ``ns``, ``ew``, ``room``, ``contract`` (``level``, ``strain``, ``doubling``,
    ``result``, ``text``), ``by``, ``tricks``, ``artificial``, ``score_ns``,
    ``score_ew``, ``zero``, ``times``, ``ns_value``, ``ew_value``, ``ns_pct``,
    ``flag``), ``rankings`` (``title``, ``source``, ``columns``, ``right``,
    ``rows``: ``cells``, ``flag``), ``notes``; ``flagged`` (bool: any row flagged).
    """
    return _results([record(b) for b in boards])


def no_results_reason(recs: Sequence[Any]) -> str:
    """Why records (:func:`handrec.events.games.record`) give no results pages, for a director.

    >>> from handrec.model import Origin
    >>> no_results_reason([record(Board(origin=Origin("t.pbn"), number=1))])
    'no board has a result'
    """
    if not any(t.size > 0 for t in travellers(recs)):
        return "no board has a result"
    if any(v.name == "ScoreTable" for r in recs for v in r.tables):
        return "each board has at most one result and no ScoreTable holds a score"
    return "each board has at most one result and there is no ScoreTable"


def _results(recs: list[Any]) -> tuple[dict[str, Any] | None, list[Any]]:
    """:func:`booklet_results` of the records of the boards."""
    by_path: dict[str, list[Any]] = {}
    for r in recs:
        by_path.setdefault(r.origin.path, []).append(r)
    diags: list[Any] = []
    for rs in by_path.values():
        if any(r.claims or r.tables for r in rs):
            diags.extend(check_event(rs))
    flagged = _flags(diags)
    games_flags, row_flags = flagged

    events = []
    for name, ev in group_sessions(recs):  # the sessions handrec.events.games.score_event scores
        team_boards, team_rankings, team_notes = score_teams(ev)
        if team_boards:
            method = Method.IMP
            label = _METHOD_LABELS[method.value]
            travs = _teams_view(team_boards, flagged)
            rankings = [_ranking_computed(r, method) for r in team_rankings]
            notes = [n for n in team_notes if not n.startswith("no teams")]
        else:
            trs = [t for t in travellers(ev) if t.size > 0]
            if not any(t.played >= 2 or (t.source == "ScoreTable" and t.size > 0) for t in trs):
                continue
            holders = {
                (r.event, r.board, r.deal or ""): (r.origin.path, r.origin.index)
                for r in reversed(ev)
                if any(v.name == "ScoreTable" for v in r.tables)
            }
            method = pairs_method_for(ev)
            # cross-IMPs divided as the Scoring tag says, as handrec score does without -m
            (scored,) = score_event(ev, method, cross=cross_for(ev) if method is Method.CROSS_IMP else None)
            label = _METHOD_LABELS[method.value] if scored.cross is None else _CROSS_LABELS[scored.cross]
            travs = [
                _traveller_view(
                    st,
                    method,
                    flagged,
                    holders.get((st.traveller.event, st.traveller.board, st.traveller.deal or ""))
                    if st.traveller.source == "ScoreTable"
                    else None,
                )
                for st in scored.travellers
            ]
            rankings = []
            total = next(
                ((r, v) for r in ev for v in r.tables if v.name == "TotalScoreTable" and v.rows),
                None,
            )
            if total is not None:
                holder, view = total
                flags = {
                    i
                    for (p, b, tname, i) in row_flags
                    if tname == "TotalScoreTable" and (p, b) == (holder.origin.path, holder.origin.index)
                }
                rankings.append(_ranking_from_table(view, flags))
            else:
                rankings = [_ranking_computed(r, method) for r in scored.rankings]
            notes = list(scored.notes)
        mp = method in (Method.MP, Method.MP2)
        events.append(
            {
                "name": name if ev[0].event else "",
                "method": method.value,
                "method_label": label,
                "value_head": "MP" if mp else "IMP",
                "pct": mp,
                "columns": 2 if all(_traveller_width(t, mp) <= _HALF_WIDTH for t in travs) else 1,
                "travellers": travs,
                "rankings": rankings,
                "notes": notes,
            }
        )
    if not events:
        return None, diags
    any_flag = any(r["flag"] for ev in events for t in ev["travellers"] for r in t["rows"]) or any(
        r["flag"] for ev in events for rk in ev["rankings"] for r in rk["rows"]
    )
    return {"events": events, "flagged": any_flag}, diags
