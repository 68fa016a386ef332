"""Writing the results website into one folder that holds everything it needs (``build_site``).

The pages of :mod:`handrec.site.data` go through the Jinja2 templates of ``templates/site/``.

The folder (``DIR``)::

    index.html                  the events and their sessions
    assets/site.css, sort.js    one stylesheet (screen and print), the table sorter
    assets/fonts/               DejaVu Sans (regular, bold) and its licence
    s1/index.html               a session: rankings, boards, pairs
    s1/board-1.html ...         one page per board: diagram, double dummy, auction, play, traveller
    s1/pair-1.html ...          one page per pair or team: its score card

Nothing is fetched from the network: every stylesheet, script and font is a relative
link into the folder, and the only address outside it is the Bridge Base Online hand
viewer, as a link (:func:`handrec.site.pages.bbo_url`).  Every value from the input
reaches a page as template data, autoescaped (``<script>`` in a name is text).  The
pages work without JavaScript; ``sort.js`` only adds sorting to the tables.

A folder that already holds files is written over only when a previous run of this
function made it (it holds ``.handrec-site``, the list of the files written): those files
are replaced, nothing else in the folder is touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from handrec._resources import templates_dir
from handrec.model import Board
from handrec.site.data import SiteSession, board_extras, collect, site_sessions
from handrec.site.markup import GLOBALS

__all__ = ["MARKER", "SiteSummary", "NotASiteFolder", "build_site", "environment"]

#: The file that marks a folder as written by :func:`build_site` (one path per line).
MARKER = ".handrec-site"
_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt")
_ASSETS = ("site.css", "sort.js")


class NotASiteFolder(FileExistsError):
    """The output folder holds files that a previous ``handrec site`` did not write."""


@dataclass(slots=True)
class SiteSummary:
    """What :func:`build_site` wrote: ``sessions``, ``boards`` (board pages), ``pairs`` (score
    cards), ``pages`` (HTML files in all), ``games`` (games read), ``note`` (why double dummy
    is missing, when asked for), ``diagnostics`` (the file's own figures that disagree with
    handrec's or cannot be read: the rows the pages mark)."""

    sessions: int = 0
    boards: int = 0
    pairs: int = 0
    pages: int = 0
    games: int = 0
    note: str | None = None
    diagnostics: list[Any] = field(default_factory=list)


@cache
def environment() -> jinja2.Environment:
    """The site's Jinja2 environment: ``templates/site/`` only, autoescaped, strict undefined."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir() / "site"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(GLOBALS)
    return env


def _prepare(out: Path) -> list[str]:
    """Create ``out`` or check that handrec made it; the files its last build wrote."""
    if not out.exists():
        out.mkdir(parents=True)
        return []
    if not out.is_dir():
        raise NotASiteFolder(f"{out} is not a folder")
    marker = out / MARKER
    if marker.is_file():
        return [line for line in marker.read_text(encoding="utf-8").splitlines() if line]
    if any(out.iterdir()):
        raise NotASiteFolder(f"{out} holds files that handrec site did not write (no {MARKER}); choose an empty folder")
    return []


def _write(out: Path, rel: str, text: str, written: list[str]) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    written.append(rel)


def build_site(
    boards: Iterable[Board],
    out: Path | str,
    *,
    title: str | None = None,
    dd: bool | None = None,
    progress: Any = None,
) -> SiteSummary:
    """Write the website of ``boards`` into the folder ``out`` and say what it holds.

    ``title``: the index page's heading (default: the Event tag when the inputs have one
    event, else "Results").  ``dd``: as :func:`handrec.site.data.site_sessions`.

    :raises NotASiteFolder: when ``out`` holds files that an earlier build did not write.
    :raises OSError: when the folder cannot be written.
    """
    target = Path(out)
    previous = _prepare(target)
    data = collect(boards)
    sessions, note = site_sessions(data, dd=dd, progress=progress)
    env = environment()
    written: list[str] = []

    for name in _ASSETS:
        src = templates_dir() / "site" / name
        _write(target, f"assets/{name}", src.read_text(encoding="utf-8"), written)
    for name in _FONTS:
        (target / "assets" / "fonts").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(templates_dir() / "fonts" / name, target / "assets" / "fonts" / name)
        written.append(f"assets/fonts/{name}")

    events: dict[str, list[SiteSession]] = {}
    for s in sessions:
        events.setdefault(s.event, []).append(s)
    heading = title or (next(iter(events)) if len(events) == 1 and next(iter(events)) else "Results")
    common = {"site_title": heading, "dd_note": note}
    _write(
        target,
        "index.html",
        env.get_template("index.html.j2").render(root="", events=events, sessions=sessions, **common),
        written,
    )
    summary = SiteSummary(
        sessions=len(sessions),
        games=len(data.records),
        note=note,
        diagnostics=[d for s in sessions for d in s.diagnostics],
    )
    for s in sessions:
        label = s.name if s.name != heading else (s.date or "Session")  # the crumb: not the heading twice
        ctx = {"root": "../", "session": s, "session_label": label, **common}
        _write(target, f"{s.folder}/index.html", env.get_template("session.html.j2").render(**ctx), written)
        board_tpl = env.get_template("board.html.j2")
        for i, b in enumerate(s.boards):
            prev = s.boards[i - 1] if i else None
            nxt = s.boards[i + 1] if i + 1 < len(s.boards) else None
            page = board_tpl.render(board=b, extras=board_extras(b), prev=prev, next=nxt, **ctx)
            _write(target, f"{s.folder}/{b.page}", page, written)
        pair_tpl = env.get_template("pair.html.j2")
        for p in s.pairs.values():
            _write(target, f"{s.folder}/{p.page}", pair_tpl.render(pair=p, **ctx), written)
        summary.boards += len(s.boards)
        summary.pairs += len(s.pairs)

    for rel in set(previous) - set(written):  # pages of the last build that this one has not
        stale = target / rel
        if ".." not in Path(rel).parts and stale.is_file():
            stale.unlink()
    _write_marker(target, written)
    summary.pages = sum(1 for w in written if w.endswith(".html"))
    return summary


def _write_marker(target: Path, written: list[str]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f"{MARKER}.", dir=target)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(written) + "\n")
    os.replace(tmp, target / MARKER)
