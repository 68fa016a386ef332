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

**Both cores.**  The pages are rendered and written by :func:`write_pages`: in this process,
or, given a ``runner`` (``handrec site --jobs``), by processes forked once the session
data is made (and this one), each writing every ``n``-th page (the pages are shared out in turn,
so the big score cards do not all fall to one worker).  A page's text depends on its data
only, and the list of files written is in page order: the folder is the same, byte for
byte, whatever the number of workers.

A folder that already holds files is written over only when a previous run of this
function made it (it holds ``.handrec-site``, the list of the files written): those files
are replaced, nothing else in the folder is touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from handrec._resources import templates_dir
from handrec.model import Board
from handrec.site.data import Collected, SiteSession, board_extras, collect, site_sessions
from handrec.site.markup import GLOBALS

__all__ = ["MARKER", "SiteSummary", "NotASiteFolder", "Runner", "build_site", "environment", "write_pages"]

#: The file that marks a folder as written by :func:`build_site` (one path per line).
MARKER = ".handrec-site"
_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt")
_ASSETS = ("site.css", "sort.js")


#: ``runner(task)`` runs ``task(k, n)`` for each ``k`` in ``range(n)``, ``n`` of its choosing,
#: in processes forked from this one (they see the pages of the build in progress), and
#: returns the results in order; an error of a task is raised.  ``handrec site --jobs``
#: makes one (:mod:`handrec.cli.site`).
Runner = Callable[[Callable[[int, int], int]], list[int]]

#: One page to write: its path in the folder, its template, and a function that gives the
#: template's context (made by the worker that writes the page: a board's auction, play
#: and hand-viewer link are made there too).
Page = tuple[str, str, Callable[[], dict[str, Any]]]

# The pages of the build in progress and the folder, for the workers that a runner forks
# (set before the runner starts them, cleared after): a task gets only its share's number.
_WORK: tuple[Path, list[Page]] | None = None


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
        auto_reload=False,  # compiled once a run: no look at the files again for each page
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
    boards: Iterable[Board] | Collected,
    out: Path | str,
    *,
    title: str | None = None,
    dd: bool | None = None,
    progress: Any = None,
    runner: Runner | None = None,
) -> SiteSummary:
    """Write the website of ``boards`` (or of their games as :func:`handrec.site.data.collect`
    gives them) into the folder ``out`` and say what it holds.

    ``title``: the index page's heading (default: the Event tag when the inputs have one
    event, else "Results").  ``dd``: as :func:`handrec.site.data.site_sessions`.  ``runner``:
    renders the pages in worker processes (:data:`Runner`); ``None``: in this process.

    :raises NotASiteFolder: when ``out`` holds files that an earlier build did not write.
    :raises OSError: when the folder cannot be written.
    """
    target = Path(out)
    previous = _prepare(target)
    data = boards if isinstance(boards, Collected) else collect(boards)
    sessions, note = site_sessions(data, dd=dd, progress=progress)
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
    pages: list[Page] = [
        ("index.html", "index.html.j2", lambda: {"root": "", "events": events, "sessions": sessions, **common})
    ]
    summary = SiteSummary(
        sessions=len(sessions),
        games=len(data.records),
        note=note,
        diagnostics=[d for s in sessions for d in s.diagnostics],
    )
    for s in sessions:
        label = s.name if s.name != heading else (s.date or "Session")  # the crumb: not the heading twice
        ctx = {"root": "../", "session": s, "session_label": label, **common}
        pages.append((f"{s.folder}/index.html", "session.html.j2", lambda ctx=ctx: ctx))
        for i, b in enumerate(s.boards):
            prev = s.boards[i - 1] if i else None
            nxt = s.boards[i + 1] if i + 1 < len(s.boards) else None
            board = {"board": b, "prev": prev, "next": nxt, **ctx}
            pages.append(
                (f"{s.folder}/{b.page}", "board.html.j2", lambda c=board: {**c, "extras": board_extras(c["board"])})
            )
        for p in s.pairs.values():
            pages.append((f"{s.folder}/{p.page}", "pair.html.j2", lambda c={"pair": p, **ctx}: c))
        summary.boards += len(s.boards)
        summary.pairs += len(s.pairs)
    write_pages(target, pages, runner)
    written.extend(rel for rel, _, _ in pages)

    for rel in set(previous) - set(written):  # pages of the last build that this one has not
        stale = target / rel
        if ".." not in Path(rel).parts and stale.is_file():
            stale.unlink()
    _write_marker(target, written)
    summary.pages = sum(1 for w in written if w.endswith(".html"))
    return summary


#: A build of fewer pages renders them in this process, even given a runner: starting the
#: workers costs more than they save (a club session of 30 boards is some 50 pages).
POOL_PAGES = 200


def write_pages(target: Path, pages: list[Page], runner: Runner | None = None) -> None:
    """Render ``pages`` with the site's templates and write them into ``target``: here, or by
    the workers of ``runner`` (a task the pages ``k, k + n, k + 2n...`` of ``n`` tasks), when
    there are :data:`POOL_PAGES` or more.

    :raises OSError: when a page cannot be written (raised here from a worker's too).
    """
    global _WORK
    env = environment()
    for name in {tpl for _, tpl, _ in pages}:  # compiled once, here: forked workers inherit them
        env.get_template(name)
    for folder in sorted({(target / rel).parent for rel, _, _ in pages}):
        folder.mkdir(parents=True, exist_ok=True)
    _WORK = (target, pages)
    try:
        if runner is None or len(pages) < POOL_PAGES:
            _write_share(0, 1)
        else:
            runner(_write_share)
    finally:
        _WORK = None


def _write_share(k: int, n: int) -> int:
    """Write the pages ``k, k + n, ...`` of the build in progress (:data:`_WORK`); how many."""
    if _WORK is None:  # a worker that was not forked from the build (a spawned one)
        raise RuntimeError("write_pages: the worker does not see the pages (not forked)")
    target, pages = _WORK
    env = environment()
    templates: dict[str, jinja2.Template] = {}
    done = 0
    for rel, tpl, context in pages[k::n]:
        if tpl not in templates:
            templates[tpl] = env.get_template(tpl)
        text = templates[tpl].render(**context())
        (target / rel).write_text(text, encoding="utf-8", newline="\n")
        done += 1
    return done


def _write_marker(target: Path, written: list[str]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f"{MARKER}.", dir=target)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(written) + "\n")
    os.replace(tmp, target / MARKER)
