"""``handrec convert``: write the inputs as a Parquet dataset (boards, calls, plays, diagnostics, supplemental, files)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    ArchiveSize,
    BoardSize,
    FileSize,
    LineSize,
    MemberSize,
    PathsArg,
    ReadTimeout,
    _cannot,
    _files_summary,
    _limits,
    _nothing_found,
    _printable,
    _require_solver,
    _unreadable,
    app,
)
from handrec.cli.dd import NO_CACHE_HELP, DDProgress, plain_warnings
from handrec.cli.interrupt import RESUME_NOTE, say
from handrec.cli.progress import Bar, shown


def _dd_cache_dir():
    from handrec.dd.cache import default_cache_dir

    return default_cache_dir()


class Engine(StrEnum):
    local = "local"
    dask = "dask"


@app.command()
def convert(
    paths: PathsArg,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="DIR", help="Dataset folder to write (created if needed).")
    ],
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all cores).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted run from its work folder (DIR/.handrec-work).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Re-read every input, also those unchanged since DIR was written.")
    ] = False,
    append: Annotated[
        bool,
        typer.Option(
            "--append",
            help="Keep every input DIR holds and add the inputs given: unchanged ones skipped, changed ones "
            "replaced, new ones added at the end (one line each on stderr).",
        ),
    ] = False,
    replace: Annotated[
        bool,
        typer.Option("--replace", help="Rebuild DIR with only the inputs given, dropping the others it holds."),
    ] = False,
    max_member_size: MemberSize = "1G",
    max_archive_size: ArchiveSize = "4G",
    max_file_size: FileSize = "4G",
    max_line_size: LineSize = "1M",
    max_board_size: BoardSize = "16M",
    read_timeout: ReadTimeout = 60.0,
    engine: Annotated[
        Engine, typer.Option("--engine", help="Where the work runs: this machine, or a Dask cluster (handrec[dask]).")
    ] = Engine.local,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Dask scheduler address, with --engine dask (default: a local cluster of --jobs workers).",
        ),
    ] = None,
    fail_fast: Annotated[
        bool, typer.Option("--fail-fast", help="Stop reading after the input with the first error.")
    ] = False,
    max_errors: Annotated[
        int | None,
        typer.Option(
            "--max-errors",
            metavar="N",
            min=1,
            help="Stop reading after the input that brings the errors to N (huge archives); "
            "later inputs are listed in the files table with status not_read.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
    wait: Annotated[
        bool,
        typer.Option("--wait", help="When another convert is writing DIR, wait for it instead of refusing."),
    ] = False,
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="Double dummy for every deal (needs handrec[dd]): the deals table, the boards' dd_tricks, "
            "tricks_vs_dd, par_score_ns, score_vs_par_ns, and the checks of validate --dd (D210-D214).",
        ),
    ] = False,
    dd_leads: Annotated[
        bool, typer.Option("--dd-leads", help="With --dd: also the leads table (declarer's tricks after each lead).")
    ] = False,
    dd_margin: Annotated[
        int, typer.Option("--dd-margin", min=1, help="With --dd: D214 for a result this many tricks from double dummy.")
    ] = 3,
    no_dd_cache: Annotated[bool, typer.Option("--no-dd-cache", help=NO_CACHE_HELP)] = False,
) -> None:
    """Convert PBN, LIN and USEBIO files, folders and archives (zip, tar, gz, bz2, xz) to a Parquet dataset.

    Tables: boards, calls, plays, diagnostics, supplemental, files (with --dd also deals,
    with --dd-leads leads).  Inputs unchanged
    since DIR was written keep their rows without being read again.  When DIR
    holds inputs not given this time, convert refuses (exit status 2) unless
    --append keeps them or --replace drops them.  With
    --fail-fast or --max-errors N the dataset holds the inputs up to the
    one with the first or the N-th error (in input order, whatever --jobs)
    and the exit status is 1.
    """
    from handrec.runs.convert import ConvertProgress, SchedulerError, WouldDrop
    from handrec.runs.convert import convert as do_convert

    limits = _limits(max_member_size, max_archive_size, max_file_size, max_line_size, max_board_size, read_timeout)
    if dd or dd_leads:
        _require_solver()
        plain_warnings()  # a cache that cannot be opened: one line "handrec: ..."
    dd_bar = DDProgress("double dummy") if (dd or dd_leads) and not quiet else None
    if append and replace:
        typer.echo("handrec: --append keeps the inputs DIR holds and --replace drops them: give one", err=True)
        raise typer.Exit(2)
    if scheduler is not None and engine is not Engine.dask:
        typer.echo("handrec: --scheduler goes with --engine dask (it names the Dask cluster to run on)", err=True)
        raise typer.Exit(2)
    try:
        a_file = output.exists() and not output.is_dir()
    except OSError as e:  # a parent folder that cannot be entered (stat itself is refused)
        raise _cannot("write", output, e) from None
    if a_file:
        typer.echo(f"handrec: cannot write {_printable(str(output))}: it is a file, not a folder", err=True)
        raise typer.Exit(2)
    bar = Bar("converting", enabled=shown(quiet))  # drawn from the first report: the workers exist then

    def on_progress(p: ConvertProgress) -> None:
        bar.update(p.bytes_done, p.bytes_total, boards=p.boards, files=p.files)

    stop = bar.close

    from handrec.dataset.lock import DatasetBusy

    def waiting() -> None:
        typer.echo(f"handrec: waiting for the other convert into {_printable(str(output))}", err=True)

    try:
        summary = do_convert(
            paths,
            output,
            jobs=jobs,
            resume=resume,
            force=force,
            limits=limits,
            on_progress=on_progress,
            engine=engine.value,
            scheduler=scheduler,
            max_errors=1 if fail_fast else max_errors,
            dd=dd or dd_leads,
            dd_leads=dd_leads,
            dd_margin=dd_margin,
            dd_cache=None if no_dd_cache else _dd_cache_dir(),
            dd_progress=dd_bar,
            wait=wait,
            on_wait=waiting,
            existing="append" if append else "replace" if replace else "refuse",
        )
    except DatasetBusy as e:
        typer.echo(f"handrec: {_printable(str(e))}; run again when it ends, or add --wait", err=True)
        raise typer.Exit(2) from None
    except WouldDrop as e:
        stop()
        typer.echo(f"handrec: {_printable(str(e))}", err=True)
        raise typer.Exit(2) from None
    except (ImportError, SchedulerError) as e:
        stop()
        typer.echo(f"handrec: {_printable(str(e))}", err=True)
        raise typer.Exit(2) from None
    except OSError as e:
        stop()
        raise _cannot("write", output, e) from None
    except KeyboardInterrupt:
        stop()
        if dd_bar is not None:
            dd_bar.close()
        raise typer.Exit(say(RESUME_NOTE)) from None
    stop()
    refused = ("F008", "F009", "F010", "F014", "F022", "F023", "F024")  # not read, by policy
    faults = [d for d in summary.diagnostics if _unreadable(d.code) or d.code in refused]
    if not summary.written:  # nothing read: its errors first, they are the news
        for d in faults:
            typer.echo(_printable(str(d)), err=True)
    if not quiet:
        for a in summary.actions:
            typer.echo(f"{_printable(a.path)}: {a.action}", err=True)
        files = _files_summary(
            summary.statuses,
            f"{summary.resumed} resumed" if summary.resumed else "",
            [a.action for a in summary.actions] if append and summary.actions else None,
        )
        typer.echo(
            f"{files}, {summary.boards} boards, {summary.errors} errors, {summary.warnings} warnings"
            + (f" -> {_printable(str(output))}" if summary.written else ""),
            err=True,
        )
    if summary.written:
        for d in faults:
            typer.echo(_printable(str(d)), err=True)
    bad = summary.unreadable or any(_unreadable(d.code) or d.code in ("F008", "F010") for d in summary.diagnostics)
    if summary.stopped:
        why = "--fail-fast" if fail_fast else f"--max-errors {max_errors}"
        typer.echo(
            f"handrec: stopped after {summary.errors} error{'s' if summary.errors != 1 else ''} ({why}); "
            f"{summary.not_read} input{'s' if summary.not_read != 1 else ''} not read "
            "(status not_read in the files table)",
            err=True,
        )
    if not summary.written:
        there = f"the dataset in {_printable(str(output))} is left as it was"
        if not (output / "files.parquet").exists():
            there = f"nothing was written to {_printable(str(output))}"
        typer.echo(f"handrec: no input was read; {there}", err=True)
    if not summary.statuses:
        _nothing_found(paths)
        raise typer.Exit(1)
    raise typer.Exit(2 if bad else 1 if summary.stopped else 0)


#: An argument of ``handrec query`` that can only be an option (SQL starting with a ``--``
#: comment goes on after it, on another line): ``--name``, ``--name=value``, ``-x``.
