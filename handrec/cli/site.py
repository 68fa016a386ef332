"""``handrec site``: a static results website (rankings, boards, score cards) of the events in the inputs."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    InputReport,
    PathsArg,
    _cannot,
    _printable,
    _require_solver,
    app,
)
from handrec.cli.dd import NO_CACHE_HELP, DDProgress, dd_session


@app.command()
def site(
    paths: PathsArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write the site into (made if missing).")],
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Heading of the index page (default: the Event tag).")
    ] = None,
    dd: Annotated[
        bool | None,
        typer.Option(
            "--dd/--no-dd",
            help="Solve double dummy for deals without a table (needs handrec[dd]: without it, exit 2) / show none.",
        ),
    ] = None,
    no_dd_cache: Annotated[bool, typer.Option("--no-dd-cache", help=NO_CACHE_HELP)] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            min=1,
            help="Worker processes that read big PBN and LIN files in parts and render the pages (default: all cores; "
            "the files are the same whatever N).",
        ),
    ] = None,
) -> None:
    """Write a results website: an index of events and sessions; per session the rankings;
    a page per board (diagram, HCP, double dummy and par, auction and play, traveller scored
    by handrec, a link to the BBO hand viewer); a score card per pair or team.

    Everything the pages use is in the folder (stylesheet, fonts, a small table sorter):
    open index.html in a browser or copy the folder to a web server.  Figures of the file
    that disagree with handrec's are marked on the pages and listed on stderr.
    """
    from handrec.runs.site_read import collect_inputs
    from handrec.site.render import NotASiteFolder, build_site

    if dd:
        _require_solver()
    report = InputReport()
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    progress = DDProgress() if dd else None
    session = dd_session(no_dd_cache)  # the shared double-dummy cache (unless --no-dd-cache)
    session.__enter__()
    try:
        data = collect_inputs(paths, report.paths, jobs, on_input=report.add)
        if not data.records:  # an empty site would pass for the results of the inputs: none is written
            report.say_faults()
            report.say_nothing(paths)
            typer.echo(f"handrec: no boards found; nothing written to {_printable(str(output))}", err=True)
            raise typer.Exit(report.status(1))
        summary = build_site(data, output, title=title, dd=dd, progress=progress, runner=_runner(jobs))
    except NotASiteFolder as e:
        typer.echo(f"handrec: {_printable(str(e))}", err=True)
        raise typer.Exit(2) from None
    except OSError as e:
        raise _cannot("write", output, e) from None
    finally:
        if progress is not None:
            progress.close()
        session.__exit__(None, None, None)
    for d in summary.diagnostics:
        typer.echo(_printable(str(d)), err=True)
    report.say_faults()
    typer.echo(
        # boards: the games read, as validate, convert and export count them; deals: the board pages
        f"{summary.sessions} session{'s' if summary.sessions != 1 else ''}, {summary.games} boards "
        f"({summary.boards} deal{'s' if summary.boards != 1 else ''}), "
        f"{summary.pairs} score cards -> {_printable(str(output / 'index.html'))}",
        err=True,
    )
    raise typer.Exit(report.status())


def _runner(jobs: int) -> Callable[[Callable[[int, int], int]], list[int]] | None:
    """A :data:`handrec.site.render.Runner` of ``jobs`` processes: this one and ``jobs - 1`` forked
    workers (:func:`handrec.runs.pool.start_pool`), started when the pages are ready; ``None`` (the pages rendered in this process) for one
    job, or where the workers could not be forked (they must see the pages the build made)."""
    if jobs < 2 or not sys.platform.startswith("linux"):
        return None

    def run(task: Callable[[int, int], int]) -> list[int]:
        from handrec.runs.pool import start_pool, stop_pool

        if threading.active_count() != 1:  # start_pool would not fork: render here
            return [task(0, 1)]
        # one share a process, this one included: it renders its share while the workers
        # render theirs (a worker forked from this big process costs more for the same pages)
        ex = start_pool(jobs - 1)
        try:
            futures = [ex.submit(task, k, jobs) for k in range(1, jobs)]
            done = [task(0, jobs)] + [f.result() for f in futures]
        except BaseException:
            stop_pool(ex)
            raise
        ex.shutdown()
        return done

    return run


def personal(
    paths: list[Path], output: Path, *, pair: str | None, player: str | None, title: str | None, dd: bool | None
) -> None:
    """``handrec booklet --pair / --player``: one pair's boards with its result and the field's
    frequencies (:mod:`handrec.site.personal`).  Ends the command: 0 written, 1 no such pair,
    2 usage or an unreadable input."""
    from handrec.formats.dispatch import iter_inputs, read_input
    from handrec.site.personal import NoSuchPair, personal_booklet, write_personal

    if pair is not None and player is not None:
        typer.echo("handrec: give --pair or --player, not both", err=True)
        raise typer.Exit(2)
    if output.suffix.lower() not in (".html", ".htm"):
        typer.echo("handrec: --pair and --player write HTML: --output must end in .html", err=True)
        raise typer.Exit(2)
    if dd:
        _require_solver()
    report = InputReport()

    def boards():
        for inp in iter_inputs(paths, report.paths):
            yield from read_input(inp)
            report.add(inp)

    try:
        book = personal_booklet(boards(), pair=pair, player=player, dd=dd)
        n = write_personal(book, output, title=title)
    except NoSuchPair as e:
        report.say_faults()  # a pair missing because its input was refused: that is why
        known = "; ".join(_printable(k) for k in e.known)
        typer.echo(f"handrec: {_printable(str(e))}" + (f" (pairs: {known})" if known else ""), err=True)
        raise typer.Exit(report.status(1)) from None
    except OSError as e:
        raise _cannot("write", output, e) from None
    report.say_faults()
    who = ", ".join(_printable(p.title) for _, p in book.parts)
    typer.echo(f"{n} boards of {who} -> {_printable(str(output))}", err=True)
    raise typer.Exit(report.status())
