"""The hand-record booklet as PDF: boards to Typst source (Jinja2) to PDF (the ``typst`` package).

Three steps, each testable on its own:

1. :func:`booklet_data` turns boards into plain data (dicts, lists,
   strings, ints, ``None``): header, pages, and per board the view model
   of :func:`handrec.booklet.views.board_view` plus the double-dummy grid and par
   (:mod:`handrec.dd.solver`).
2. :func:`render_typst_source` writes that data into the template
   ``templates/booklet.typ.j2`` as **one Typst literal** (:func:`typst_value`)
   and returns the Typst source.  All layout lives in Typst code in the
   template; no input string is ever spliced into Typst markup or code, so
   names and events holding ``#``, ``*``, ``$``, ``[``, ``@``, ``\\``...
   are printed verbatim.  The Jinja2 environment refuses to print anything
   that has not been through the ``typst`` filter (see :func:`_finalize`).
3. :func:`compile_typst` compiles the source in-process with the fonts
   shipped in ``templates/fonts`` only (DejaVu Sans; no system or
   Typst-bundled fonts), untagged, with no document date: the same input
   gives byte-identical PDFs on every machine.

Layouts: 1, 2, 4, 6 or 8 boards per page (:data:`LAYOUTS`) on A4 or US
Letter; a board is one unbreakable block and never spans two pages; page
numbers in the footer.  A board recorded by several games is printed once;
a board with no deal at all gets no diagram (:func:`handrec.booklet.views.diagram_boards`).
When the input has results (:func:`handrec.booklet.results_pages.booklet_results`), results
pages follow the diagrams: the ranking, then per board a traveller sorted by
the N-S score with handrec's matchpoints or IMPs, each traveller one
unbreakable block (one column or two, as the pair names allow).

>>> from handrec.model import Board, Deal, Origin, Seat, Vulnerability
>>> d = Deal.parse("N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982")
>>> src = render_typst_source([Board(origin=Origin("t.pbn"), number=3, dealer=Seat.SOUTH,
...                                  vulnerable=Vulnerability.EW, deal=d)], title='Club "#1"')
>>> '"Club \\\\"#1\\\\""' in src
True
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from handrec._resources import templates_dir
from handrec.booklet.suit_codes import suit_plain
from handrec.booklet.views import (
    BookletSummary,
    NothingToPrint,
    board_range,
    board_view,
    booklet_sections,
    select_boards,
)
from handrec.booklet.views import dd_view as _dd_view
from handrec.dd import solver as ddmod
from handrec.model import Board

__all__ = [
    "LAYOUTS",
    "PAPERS",
    "BookletError",
    "TypstCode",
    "typst_str",
    "typst_value",
    "booklet_data",
    "render_typst_source",
    "compile_typst",
    "render_pdf",
    "render_png",
    "write_pdf",
]

log = logging.getLogger(__name__)

#: Boards per page to (columns, rows) of the page grid.
LAYOUTS: Mapping[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 8: (2, 4)}

#: Paper names to Typst paper names and (width, height) in millimetres.
PAPERS: Mapping[str, tuple[str, tuple[float, float]]] = {
    "a4": ("a4", (210.0, 297.0)),
    "letter": ("us-letter", (215.9, 279.4)),
}

_TEMPLATE = "booklet.typ.j2"

# Page geometry in millimetres (the template uses the same numbers through the data).
_MARGIN_X = 12.0
_MARGIN_TOP = 11.0
_MARGIN_BOTTOM = 15.0
_HEAD = 11.0  # page heading, rule and space below it
_NOTE = 5.0  # the one-line note under the first heading
_GUTTER = 4.0

# A board's natural size in ems of its base type size (measured on the template).
_BOARD_EMS = (21.6, 16.6)  # width, height (measured: 19.1-21.4 x 16.3 with the DD grid and par)
_MAX_SIZE = 24.0  # points: one board to a page should not look like a poster
_PT_PER_MM = 72 / 25.4

#: Advance widths in ems of DejaVu Sans 2.37 (``hmtx`` / 2048 units per em) for what a hand line holds.
_ADVANCE = {"A": 1401, "K": 1343, "Q": 1612, "J": 604, "\u2014": 2048}
_DIGIT = 1303
#: A hand line (suit sign box 1.05 em + ranks) wider than this many ems is set smaller to stay
#: inside its column (a side column is at least 6.6 em wide; see _BOARD_EMS).
_HAND_LINE_EMS = 6.5

_VUL_LABELS = {None: "Vul: ?", "None": "Vul: None", "NS": "Vul: N-S", "EW": "Vul: E-W", "Both": "Vul: Both"}


class BookletError(RuntimeError):
    """Typst could not compile the booklet (a template bug: input cannot cause it)."""


# ---------------------------------------------------------------------------
# Typst literals


class TypstCode(str):
    """Text that is already valid Typst code (a literal made by :func:`typst_value`)."""

    __slots__ = ()


def typst_str(value: str) -> TypstCode:
    """A Typst string literal holding ``value`` exactly.

    Backslash and double quote are escaped, control characters written as
    ``\\u{..}``; nothing else needs escaping inside a Typst string.  Shown
    as content (``#s`` or ``text(s)``) a string is never parsed as markup.

    >>> print(typst_str('a "b" \\\\ #c'))
    "a \\"b\\" \\\\ #c"
    """
    out = ['"']
    for ch in str(value):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return TypstCode("".join(out))


def typst_value(value: Any) -> TypstCode:
    """Plain Python data as a Typst literal.

    ``None`` becomes ``none``, booleans ``true``/``false``, ints and finite
    floats numbers, strings string literals (:func:`typst_str`), lists and
    tuples arrays (``(a, b,)``), dicts with string keys dictionaries
    (keys always quoted).

    :raises TypeError: for anything else (so no stray object reaches the source).

    >>> print(typst_value({"a": [1, None, "x"], "b c": True}))
    ("a": (1, none, "x",), "b c": true)
    """
    if value is None:
        return TypstCode("none")
    if isinstance(value, bool):
        return TypstCode("true" if value else "false")
    if isinstance(value, int):
        return TypstCode(str(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(f"no Typst literal for {value!r}")
        return TypstCode(repr(value))
    if isinstance(value, str):
        return typst_str(value)
    if isinstance(value, (list, tuple)):
        return TypstCode("(" + "".join(f"{typst_value(v)}, " for v in value).rstrip(" ") + ")")
    if isinstance(value, Mapping):
        if not value:
            return TypstCode("(:)")
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"dictionary keys must be strings, not {k!r}")
            items.append(f"{typst_str(k)}: {typst_value(v)}")
        return TypstCode("(" + ", ".join(items) + ")")
    raise TypeError(f"no Typst literal for {type(value).__name__}")


def _finalize(value: Any) -> Any:
    """Jinja2 ``finalize``: only Typst literals and numbers may be printed."""
    if isinstance(value, TypstCode) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return value
    raise TypeError(f"template printed {value!r} without the typst filter")


@cache
def _environment() -> jinja2.Environment:
    """Jinja2 for Typst: no HTML autoescape (wrong for Typst), strict, print-guarded."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["typst"] = typst_value
    env.filters["typst_str"] = typst_str
    return env


# ---------------------------------------------------------------------------
# Data


@dataclass(frozen=True, slots=True)
class _Geometry:
    cols: int
    rows: int
    cell_w: float  # mm
    cell_h: float  # mm
    head: float  # mm: the page heading block (with the note line when there is one)
    size: float  # base type size of a board, points
    inner_w: float  # mm: width of a board's diagram inside its frame (centred when the cell is wider)


def _geometry(per_page: int, paper: str, note: bool = False) -> _Geometry:
    """Grid, cell size and type size: the largest base size at which a board fits its cell."""
    cols, rows = LAYOUTS[per_page]
    width, height = PAPERS[paper][1]
    head = _HEAD + (_NOTE if note else 0.0)
    body_w = width - 2 * _MARGIN_X
    body_h = height - _MARGIN_TOP - _MARGIN_BOTTOM - head
    cell_w = (body_w - (cols - 1) * _GUTTER) / cols
    cell_h = (body_h - (rows - 1) * _GUTTER) / rows
    size = round(min(min(cell_w / _BOARD_EMS[0], cell_h / _BOARD_EMS[1]) * _PT_PER_MM, _MAX_SIZE), 1)
    inner_w = min(cell_w, _BOARD_EMS[0] * 1.1 * size / _PT_PER_MM)
    return _Geometry(cols, rows, round(cell_w, 2), round(cell_h, 2), head, size, round(inner_w, 2))


def _check_layout(per_page: int, paper: str) -> str:
    if per_page not in LAYOUTS:
        raise ValueError(f"boards per page must be one of {sorted(LAYOUTS)}, not {per_page!r}")
    key = str(paper).strip().lower()
    if key in ("us-letter", "usletter"):
        key = "letter"
    if key not in PAPERS:
        raise ValueError(f"paper must be 'a4' or 'letter', not {paper!r}")
    return key


def _hand_scale(suits: Mapping[str, str] | None) -> float:
    """The type scale (0-1) at which a hand's longest line fits :data:`_HAND_LINE_EMS`.

    >>> _hand_scale({"S": "AKQJ1098765432", "H": "\u2014", "D": "\u2014", "C": "\u2014"})
    0.66
    >>> _hand_scale({"S": "AKQ", "H": "1098", "D": "J", "C": "2"})
    1.0
    """
    if suits is None:
        return 1.0
    widest = max(1.05 + sum(_ADVANCE.get(ch, _DIGIT) for ch in ranks) / 2048 for ranks in suits.values())
    return 1.0 if widest <= _HAND_LINE_EMS else math.floor(_HAND_LINE_EMS / widest * 100) / 100


#: The page heading is one line: the template shrinks it to fit, to half size at most; past
#: these lengths (about what half size holds on A4 or Letter) the text is cut with an ellipsis
#: (the Site; the Date keeps its own 30).
_HEADING_CHARS = 110
_META_CHARS = 70


def _shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last an ellipsis, when longer.

    >>> _shorten("Spring Pairs", 20), _shorten("The Annual Open Pairs", 10)
    ('Spring Pairs', 'The Annua\u2026')
    """
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _meta(site: str | None, date: str | None, file: str | None = None) -> str:
    """A page heading's right side: site, date and file, each shortened, joined by dots."""
    parts = (site and _shorten(site, _META_CHARS), date and _shorten(date, 30), file and _shorten(file, _META_CHARS))
    return " \u00b7 ".join(x for x in parts if x)


def _board_data(board: Board, info: ddmod.BoardDD | None) -> dict[str, Any]:
    v = board_view(board)
    grid, p = _dd_view(info)
    note = None
    if v["incomplete"]:
        note = "Incomplete deal" if v["deal_given"] else "Deal not given"
    return {
        "label": v["label"],
        "dealer": v["dealer"],
        "dealer_name": v["dealer_name"],
        "vul_label": _VUL_LABELS[v["vulnerable"]],
        "vul_seats": list(v["vulnerable_seats"]),
        "hands": v["hands"],
        "hcp": v["hcp"],
        "scale": {seat: _hand_scale(h) for seat, h in v["hands"].items()},
        "note": note,
        "dd": grid,
        "par": p,
    }


def booklet_data(
    boards: Iterable[Board],
    *,
    title: str | None = None,
    per_page: int = 8,
    paper: str = "a4",
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    summary: BookletSummary | None = None,
) -> dict[str, Any]:
    """Everything the template shows, as plain data (see the template's header for the shape).

    ``dd``: ``None`` shows the double dummy and par the boards' tags give;
    ``True`` also solves the other complete deals (endplay, the
    ``handrec[dd]`` extra; without it a note says so once, on page 1);
    ``False`` shows none.

    A board recorded by several games (one per table) is shown once; a
    board with no deal at all is not drawn (:func:`handrec.booklet.views.diagram_boards`),
    one with part of a deal is.  With no board to draw but results, there
    are no diagram pages (``pages`` is empty); ``summary``, when given, is
    filled in (:class:`handrec.booklet.views.BookletSummary`).  ``results``: ``None`` adds
    results pages when the input has results (travellers, rankings:
    :func:`handrec.booklet.results_pages.booklet_results`), ``True`` likewise, ``False``
    never.  The claimed-figure diagnostics found on the way are appended to
    ``diagnostics`` when given; ``progress(done, total)`` follows the solver
    (:func:`handrec.dd.solver.solve_tables`).

    :raises ValueError: for a layout or paper not offered.
    """
    paper_key = _check_layout(per_page, paper)
    all_boards, board_list, res = select_boards(boards, results, diagnostics, summary)
    note = None
    if dd is False:
        infos: list[ddmod.BoardDD | None] = [None] * len(board_list)
    else:
        infos, note = ddmod.boards_dd(board_list, solve=bool(dd), progress=progress)
    views = [_board_data(b, i) for b, i in zip(board_list, infos)]
    parts = booklet_sections(board_list)
    first = board_view(all_boards[0]) if all_boards else None  # drawn or not: the heading is the input's
    # with several parts the first board's event is one of them: each page names its own
    event = first["event"] if first and len(parts) <= 1 else None
    # suit codes of the input's text as suit symbols: the template colours the red ones
    heading = _shorten(suit_plain(title or event) or "Hand records", _HEADING_CHARS)
    site, date = (suit_plain(first["site"]), suit_plain(first["date"])) if first else (None, None)
    if res is not None:
        res = {**res, "events": [{**ev, "name": suit_plain(ev["name"])} for ev in res["events"]]}
    meta = _meta(site, date)
    geo = _geometry(per_page, paper_key, note=note is not None)
    pages = []
    for part in parts:
        if len(parts) == 1:
            head, info = heading, meta
        else:  # each part from a new page, headed by its event (else its file), date and file
            named = part["event"] is not None
            head = _shorten(suit_plain(part["event"] if named else part["file"]), _HEADING_CHARS)
            info = _meta(suit_plain(part["site"]), suit_plain(part["date"]), part["file"] if named else None)
        chunks = [part["indexes"][i : i + per_page] for i in range(0, len(part["indexes"]), per_page)]
        for chunk in chunks:
            shown = [views[i] for i in chunk]
            pages.append(
                {"boards": shown, "range": board_range([v["label"] for v in shown]), "heading": head, "meta": info}
            )
    if not pages and res is None:
        pages.append({"boards": [], "range": "", "heading": heading, "meta": meta})  # a page saying "No boards."
    return {
        "heading": heading,
        "meta": meta,
        "note": note,
        "paper": PAPERS[paper_key][0],
        "cols": geo.cols,
        "rows": geo.rows,
        "cell_h": geo.cell_h,
        "inner_w": geo.inner_w,
        "head": geo.head,
        "size": geo.size,
        "margin_x": _MARGIN_X,
        "margin_top": _MARGIN_TOP,
        "margin_bottom": _MARGIN_BOTTOM,
        "gutter": _GUTTER,
        "pages": pages,
        "board_count": len(views),
        "results": res,
    }


def render_typst_source(
    boards: Iterable[Board],
    *,
    title: str | None = None,
    per_page: int = 8,
    paper: str = "a4",
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    summary: BookletSummary | None = None,
) -> str:
    """The booklet as Typst source (see :func:`booklet_data` for the options).

    Heading: ``title``, else the first board's ``Event`` tag, else "Hand
    records"; the first board's ``Site`` and ``Date`` beside it.  Boards in
    the order given, ``per_page`` to a page (1, 2, 4, 6 or 8), ``paper``
    ``"a4"`` or ``"letter"``.

    :raises ValueError: for a layout or paper not offered.
    """
    data = booklet_data(
        boards,
        title=title,
        per_page=per_page,
        paper=paper,
        dd=dd,
        results=results,
        diagnostics=diagnostics,
        progress=progress,
        summary=summary,
    )
    return _environment().get_template(_TEMPLATE).render(doc=data)


# ---------------------------------------------------------------------------
# Compiling


def fonts_dir() -> Path:
    """The folder of the shipped fonts (DejaVu Sans, regular and bold)."""
    return templates_dir() / "fonts"


@cache
def _fonts() -> Any:
    import typst

    return typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[str(fonts_dir())])


def compile_typst(source: str, *, format: str = "pdf", ppi: float | None = None) -> tuple[Any, list[str]]:
    """Compile Typst source in-process; returns ``(output, warnings)``.

    ``format`` ``"pdf"`` gives ``bytes``; ``"png"`` a list of page images
    (``ppi`` pixels per inch, default 144).  Only the shipped fonts are
    visible; the project root is an empty temporary folder, so the source
    can read no file.  Warnings come back as ``"message (hints)"`` strings.

    :raises BookletError: if Typst reports an error.
    """
    import typst

    with tempfile.TemporaryDirectory(prefix="handrec-typst-") as root:
        try:
            out, warnings = typst.compile_with_warnings(
                source.encode("utf-8"),
                root=root,
                font_paths=_fonts(),
                ignore_system_fonts=True,
                format=format,  # type: ignore[arg-type]
                ppi=ppi,
                pdf_tags=False,
            )
        except typst.TypstError as e:
            raise BookletError(f"typst: {e.message}\n{e.diagnostic}") from e
    texts = [w.message + (f" ({'; '.join(w.hints)})" if w.hints else "") for w in warnings]
    return out, texts


def render_pdf(
    boards: Iterable[Board],
    *,
    title: str | None = None,
    per_page: int = 8,
    paper: str = "a4",
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    summary: BookletSummary | None = None,
) -> bytes:
    """The booklet as PDF bytes (options as :func:`render_typst_source`)."""
    source = render_typst_source(
        boards,
        title=title,
        per_page=per_page,
        paper=paper,
        dd=dd,
        results=results,
        diagnostics=diagnostics,
        progress=progress,
        summary=summary,
    )
    return _compile_logged(source)


def _compile_logged(source: str, **options: Any) -> Any:
    """:func:`compile_typst`'s output, its warnings logged."""
    out, warnings = compile_typst(source, **options)
    for w in warnings:
        log.warning("typst: %s", w)
    return out


def render_png(
    boards: Iterable[Board],
    *,
    title: str | None = None,
    per_page: int = 8,
    paper: str = "a4",
    dd: bool | None = None,
    results: bool | None = None,
    ppi: float = 100,
) -> list[bytes]:
    """The booklet's pages as PNG images, for looking at (options as :func:`render_typst_source`)."""
    source = render_typst_source(boards, title=title, per_page=per_page, paper=paper, dd=dd, results=results)
    pages = _compile_logged(source, format="png", ppi=ppi)
    return pages if isinstance(pages, list) else [pages]


def write_pdf(
    boards: Iterable[Board],
    out: Path | str,
    *,
    title: str | None = None,
    per_page: int = 8,
    paper: str = "a4",
    dd: bool | None = None,
    results: bool | None = None,
    diagnostics: list[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    summary: BookletSummary | None = None,
    allow_empty: bool = True,
) -> int:
    """Write the booklet PDF to ``out`` and return how many diagrams it holds (games of the same
    board count once; boards without a deal are not drawn).

    The PDF goes to a temporary file in the same folder, then replaces
    ``out`` (:func:`os.replace`): a reader never sees half a file and a
    failure leaves any earlier ``out`` untouched.

    :raises ValueError: for a layout or paper not offered.
    :raises NothingToPrint: with ``allow_empty=False``, when no board has a
        deal and there are no results (nothing is written).
    :raises OSError: if the folder is missing or not writable.
    """
    summary = summary if summary is not None else BookletSummary()
    source = render_typst_source(
        boards,
        title=title,
        per_page=per_page,
        paper=paper,
        dd=dd,
        results=results,
        diagnostics=diagnostics,
        progress=progress,
        summary=summary,
    )
    if not allow_empty and summary.empty:
        raise NothingToPrint("no board has a deal and there are no results")
    pdf = _compile_logged(source)
    target = Path(out)
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pdf)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return summary.boards
