"""The hand-record booklet as one standalone, printable HTML file (Jinja2).

:func:`render_html` feeds the view models of :mod:`handrec.booklet.views`
(:func:`~handrec.booklet.views.board_view`, the results pages) to the Jinja2
template ``templates/booklet.html.j2`` (autoescaped, strict undefined) and
returns the page; :func:`write_booklet` writes it atomically.

The page is self-contained (the CSS is inlined) and prints eight boards to
a sheet on A4 and US Letter alike: a 2 x 4 grid of 90 x 56 mm boards
inside 12 mm margins, each with its double-dummy grid and par when known
(:func:`~handrec.booklet.views.dd_view`).  A board recorded by several games is shown once
(:func:`~handrec.booklet.views.distinct_boards`); their results make the results pages
(:func:`~handrec.booklet.views.booklet_results`: travellers and rankings computed by
:mod:`handrec.events.games`, shared with the PDF booklet).  Input text (event names, tags) only ever reaches
the page as escaped template *data*; templates are never built from it.
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
from handrec.booklet.suit_codes import suit_plain, suit_text
from handrec.booklet.views import (
    _SUITS_SHOWN,
    BoardView,
    BookletSummary,
    NothingToPrint,
    board_range,
    board_view,
    booklet_sections,
    dd_view,
    select_boards,
)
from handrec.dd import solver as ddmod
from handrec.model import Board, Suit

__all__ = [
    "BOARDS_PER_PAGE",
    "render_html",
    "write_booklet",
]

#: Boards on one printed sheet (two columns of four; fits A4 and Letter).
BOARDS_PER_PAGE = 8

_TEMPLATE = "booklet.html.j2"
_SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}


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
    printed sheet, each board once (:func:`handrec.booklet.views.diagram_boards`).  A board with
    part of a deal gets a diagram with the missing hands shown as
    "unknown"; a board with no deal at all gets none (its results still
    count on the results pages).  With no diagram but results, the page
    holds the results only; with neither, a sheet says "No boards.".

    ``dd``: ``None`` shows the double-dummy grid and par the boards' tags
    give, ``True`` also solves the other complete deals (endplay; without it
    a note says so once), ``False`` shows none (:func:`handrec.dd.solver.boards_dd`).
    ``results``: ``None`` (default) adds the results (travellers and
    rankings, :func:`handrec.booklet.results_pages.booklet_results`) when the input has any, ``False``
    never; the claimed-figure diagnostics are appended to ``diagnostics``.
    ``summary``, when given, is filled in (:class:`handrec.booklet.views.BookletSummary`).
    """
    views, res, note, heading_board = _prepare(boards, dd, results, diagnostics, summary=summary)
    return _render(views, res, title, note, heading_board)


def _prepare(
    boards: Iterable[Board],
    dd: bool | None,
    results: bool | None,
    diagnostics: list[Any] | None,
    progress: Any = None,
    summary: BookletSummary | None = None,
    allow_empty: bool = True,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, str | None, BoardView | None]:
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
    parts = booklet_sections(shown)
    for part in parts:
        part["views"] = [views[i] for i in part.pop("indexes")]
    return parts, res, note, board_view(all_boards[0]) if all_boards else None


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
    parts, res, note, heading_board = _prepare(boards, dd, results, diagnostics, progress, summary, allow_empty)
    text = _render(parts, res, title, note, heading_board)
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
    return sum(len(p["views"]) for p in parts)


def _sheets(parts: Sequence[dict[str, Any]], heading: str, site: str | None, date: str | None) -> list[dict[str, Any]]:
    """The printed sheets: :data:`BOARDS_PER_PAGE` boards of one part (:func:`booklet_sections`)
    a sheet, each part from a new sheet, headed by its event (else its file), date and file;
    with one part, by the booklet's ``heading``, ``site`` and ``date`` as always."""
    sheets = []
    for part in parts:
        views = part["views"]
        if len(parts) == 1:
            head = {"heading": heading, "site": site, "date": date, "file": None}
        else:
            named = part["event"] is not None
            head = {
                "heading": part["event"] if named else part["file"],
                "site": part["site"],
                "date": part["date"],
                "file": part["file"] if named else None,  # not twice when it is the heading
            }
        for i in range(0, len(views), BOARDS_PER_PAGE):
            chunk = list(views[i : i + BOARDS_PER_PAGE])
            sheets.append(
                {"boards": chunk, "range": board_range([v["label"] for v in chunk]), "starts": i == 0, **head}
            )
    return sheets


def _render(
    parts: Sequence[dict[str, Any]],
    results: dict[str, Any] | None,
    title: str | None,
    note: str | None = None,
    first: BoardView | None = None,
) -> str:
    """``parts``: :func:`booklet_sections` with each part's board ``views``; ``first``: the view
    of the input's first board (heading, site, date), drawn or not."""
    heading = title or (first["event"] if first else None) or "Hand records"
    if len(parts) > 1:  # the first board's event is one of several: each sheet names its own
        heading = title or "Hand records"
    site, date = (first["site"], first["date"]) if first else (None, None)
    sheets = _sheets(parts, heading, site, date)
    if not sheets and results is None:
        sheets = [
            {"boards": [], "range": "", "starts": True, "heading": heading, "site": site, "date": date, "file": None}
        ]
    return (
        _environment()
        .get_template(_TEMPLATE)
        .render(
            heading=heading,
            site=site,
            date=date,
            sheets=sheets,
            parted=len(parts) > 1,
            board_count=sum(len(s["boards"]) for s in sheets),
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
    env.globals["suit_text"] = suit_text  # suit codes of the input's text drawn as suits
    env.globals["suit_plain"] = suit_plain
    env.globals["suits"] = [
        {"key": str(s), "symbol": s.symbol, "name": _SUIT_NAMES[s], "red": s.is_red} for s in _SUITS_SHOWN
    ]
    return env
