"""The ``handrec`` command line: validate, convert, query, booklet.

Only this module imports typer and rich; it wires the library together and
formats output.  Exit status: 0 clean, 1 when any error diagnostic was
found, 2 when an input could not be read or the usage is wrong.
"""

from __future__ import annotations

import json
import os
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from handrec import __version__
from handrec.diagnostics import Severity

app = typer.Typer(
    name="handrec",
    help="Validate, convert, query and print contract-bridge records (PBN and LIN).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class DiagFormat(StrEnum):
    text = "text"
    json = "json"


class RowFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"handrec {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Validate, convert, query and print contract-bridge records (PBN and LIN)."""


PathsArg = Annotated[
    list[Path],
    typer.Argument(help="PBN or LIN files (- for standard input), folders (searched recursively) or archives."),
]
_SIZES = "a size: 4096, 512K, 16M, 1G"
MemberSize = Annotated[
    str, typer.Option("--max-member-size", help=f"Largest archive member or compressed file, decompressed ({_SIZES}).")
]
ArchiveSize = Annotated[
    str, typer.Option("--max-archive-size", help=f"Largest archive, all members decompressed ({_SIZES}).")
]
FileSize = Annotated[str, typer.Option("--max-file-size", help=f"Largest plain file read (F010; {_SIZES}).")]
LineSize = Annotated[
    str, typer.Option("--max-line-size", help=f"Longest line read; longer ones are cut there (F013; {_SIZES}).")
]
BoardSize = Annotated[
    str,
    typer.Option(
        "--max-board-size",
        help=f"Largest board (PBN game, LIN deal) parsed; larger ones are reported (F016; {_SIZES}).",
    ),
]


def _limits(member: str, archive: str, file: str, line: str, board: str):
    """:class:`handrec.io.Limits` from the size options; a bad or zero size ends the command (exit 2)."""
    from handrec.io import Limits, parse_size

    values = []
    for option, text in (
        ("--max-member-size", member),
        ("--max-archive-size", archive),
        ("--max-file-size", file),
        ("--max-line-size", line),
        ("--max-board-size", board),
    ):
        try:
            n = parse_size(text)
        except ValueError as e:
            typer.echo(f"handrec: {option}: {e}", err=True)
            raise typer.Exit(2) from None
        if n < 1:
            typer.echo(f"handrec: {option} must be at least 1 byte, not {text!r}", err=True)
            raise typer.Exit(2)
        values.append(n)
    return Limits(
        member_bytes=values[0],
        archive_bytes=values[1],
        max_file_bytes=values[2],
        max_line_bytes=values[3],
        max_board_bytes=values[4],
    )


def _files_summary(statuses: dict[str, int], note: str = "") -> str:
    """``N files``: every input and every path or member not read (the rows of convert's ``files``
    table), then, unless all are ``ok``, how many have each status there: ``4 files (2 ok, 1
    unreadable, 1 skipped)``.  ``note`` goes after them (``5 files (5 ok; 2 resumed)``)."""
    from handrec.io import STATUSES

    total = sum(statuses.values())
    parts = [f"{statuses[s]} {s.replace('_', ' ')}" for s in STATUSES if statuses.get(s)]
    if not note and all(s == "ok" for s, n in statuses.items() if n):
        return f"{total} files"
    return f"{total} files ({', '.join(parts)}{'; ' + note if note else ''})"


def _unreadable(code: str) -> bool:
    """Codes meaning an input (or part of it, or of an archive) could not be read: exit status 2."""
    return code in ("F001", "F004", "F008", "F010", "F013", "F015", "F016")


#: Reading faults whose text is not in an exported file as written (dropped or replaced): a syntax
#: error's text (F003), an unknown token (F006), LIN commands after the last deal (F017), a bad call
#: (A306) or card (P406, written as an unknown card), a repeated tag or note (T102, T126: the first is
#: kept).  The others keep the text (T101 values, T124 table elements...) or repair only the form
#: (F005 closes the comment, F011 drops a stray separator, T105/T122 respell).  The unreadable
#: codes (:func:`_unreadable`) are listed apart, with exit status 2.
_NOT_AS_WRITTEN = ("F003", "F006", "F017", "A306", "P406", "T102", "T126")


def _not_as_written(d) -> bool:
    """Whether ``d``, a reading fault, means its text is not in an exported file as written:
    :data:`_NOT_AS_WRITTEN`, and T128 for a second note reference or suffix of a call or card
    (one is kept; a bad NAG is kept)."""
    from handrec.parse.pbn import T128_DROPPED  # the parser's reasons for an annotation it drops

    return d.code in _NOT_AS_WRITTEN or (d.code == "T128" and d.message.endswith(tuple(T128_DROPPED)))


_CONTROL = dict.fromkeys([*range(0x20), 0x7F, *range(0x80, 0xA0)])


def _printable(text: str) -> str:
    """``text`` with control characters escaped (``\\x1b``, ``\\n``): input never drives the terminal
    nor forges an output line."""
    if text.isprintable():
        return text
    return "".join(repr(c)[1:-1] if ord(c) in _CONTROL else c for c in text)


def _progress_bar(label: str):
    """A ``progress(done, total)`` callback drawing a bar on stderr, or ``None`` when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        sys.stderr.write(f"\r{label} [{'#' * filled}{' ' * (width - filled)}] {done}/{total} deals")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _require_solver() -> None:
    """End the command (exit 2, one line) when ``--dd`` was asked for and the solver (endplay) is missing."""
    from handrec.dd import solver_available

    if not solver_available():
        typer.echo("handrec: --dd needs the double-dummy solver: pip install 'handrec[dd]' (adds endplay)", err=True)
        raise typer.Exit(2)


@app.command()
def validate(
    paths: PathsArg,
    format: Annotated[DiagFormat, typer.Option("--format", "-f", help="Output format.")] = DiagFormat.text,
    warnings: Annotated[bool, typer.Option("--warnings/--no-warnings", help="Show warnings.")] = True,
    info: Annotated[bool, typer.Option("--info", help="Also show notes (severity info), e.g. partial deals.")] = False,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Also report what the standard lets readers skip (unknown tags and commands)."),
    ] = False,
    fail_fast: Annotated[bool, typer.Option("--fail-fast", help="Stop at the first error.")] = False,
    max_errors: Annotated[
        int | None,
        typer.Option("--max-errors", min=1, help="Stop at the N-th error: N errors printed (huge archives)."),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default: all cores; the output is the same whatever N). Small runs, and "
            "--dd, are read in one process.",
        ),
    ] = None,
    max_line_size: LineSize = "1M",
    max_file_size: FileSize = "4G",
    max_board_size: BoardSize = "16M",
    max_member_size: MemberSize = "1G",
    max_archive_size: ArchiveSize = "4G",
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="Also check DoubleDummyTricks, Ability, OptimumResultTable, OptimumScore, ParContract and "
            "Minimax against the double-dummy solver (needs handrec\\[dd]; D210-D213; read in one process).",
        ),
    ] = False,
) -> None:
    """Replay every board against the Laws and the scorer and report every fault.

    Prints `path:line:col: CODE severity: message` per fault, then
    `N files, N boards, N errors, N warnings`: N files counts every input
    and every path or archive member not read, as the files table of
    `handrec convert` does, and says how many are not ok:
    `3 files (1 ok, 2 unreadable), ...`.  With `--fail-fast` or
    `--max-errors N` it stops at the first or the N-th error: the output
    is the output without it cut right after that error, and the summary
    counts what was printed.  `--jobs N`
    reads the inputs in N processes (a big PBN or LIN file in parts) with the
    same output as one.  With `--dd`
    the double-dummy tables and par a file writes are solved again (DDS via
    endplay, 40 deals a call, cached on disk in $HANDREC_DD_CACHE or
    ~/.cache/handrec) and every wrong value reported at its tag.
    """
    from concurrent.futures.process import BrokenProcessPool

    from handrec.io import entry_status
    from handrec.validate_run import validate_paths

    if dd:
        from handrec import dd as ddmod

        _require_solver()
    limits = _limits(max_member_size, max_archive_size, max_file_size, max_line_size, max_board_size)
    stop_at = 1 if fail_fast else max_errors
    boards = errors = warns = 0
    statuses: dict[str, int] = {}  # reports by files-table status
    unreadable = False
    all_diags = []
    out = sys.stdout
    previous_cache = ddmod.set_cache_dir(ddmod.default_cache_dir()) if dd else None
    try:
        reports = validate_paths(
            paths,
            jobs=jobs,
            limits=limits,
            strict=strict,
            max_errors=stop_at,
            dd=dd,
            dd_progress=_progress_bar("double dummy") if dd else None,
        )
        for report in reports:
            status = entry_status((f.diagnostic.code for f in report.findings), read=report.is_input)
            statuses[status] = statuses.get(status, 0) + 1
            boards += report.boards
            errors += report.errors
            warns += report.warnings
            for finding in report.findings:
                d = finding.diagnostic
                if _unreadable(d.code):
                    unreadable = True
                if not (d.severity is Severity.ERROR or (d.severity is Severity.WARNING and warnings) or info):
                    continue  # counted, not shown
                if format is DiagFormat.json:
                    doc = d.to_dict()
                    doc["board_number"] = finding.board_number
                    all_diags.append(doc)
                else:
                    out.write(_printable(str(d)) + "\n")
    except BrokenProcessPool:
        out.flush()
        typer.echo("handrec: a worker process stopped unexpectedly (killed, or out of memory?); try --jobs 1", err=True)
        raise typer.Exit(2) from None
    finally:
        if dd:
            ddmod.set_cache_dir(previous_cache)
    stopped = stop_at is not None and errors >= stop_at
    from handrec.io import STATUSES

    statuses = {s: statuses[s] for s in STATUSES if s in statuses}
    summary = f"{_files_summary(statuses)}, {boards} boards, {errors} errors, {warns} warnings"
    if format is DiagFormat.json:
        doc = {
            "files": sum(statuses.values()),
            "statuses": statuses,
            "boards": boards,
            "errors": errors,
            "warnings": warns,
            "diagnostics": all_diags,
        }
        if stopped:
            doc["stopped"] = True
        json.dump(doc, out, ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        out.write(summary + "\n")
    if stopped:
        why = "--fail-fast" if fail_fast else f"--max-errors {max_errors}"
        typer.echo(f"handrec: stopped after {errors} error{'s' if errors > 1 else ''} ({why})", err=True)
    if not statuses:
        _nothing_found(paths)
        raise typer.Exit(1)
    raise typer.Exit(2 if unreadable else 1 if errors else 0)


def _nothing_found(paths: list[Path]) -> None:
    """Say on stderr that ``paths`` held no input at all (a mistyped or empty folder must not pass
    as a clean run)."""
    where = ", ".join(_printable(str(p)) for p in paths)
    typer.echo(
        f"handrec: no PBN or LIN input found in {where} (inside folders and archives, files that are "
        "neither, by content or by a .pbn/.lin name, are skipped)",
        err=True,
    )


class Engine(StrEnum):
    local = "local"
    dask = "dask"


@app.command()
def convert(
    paths: PathsArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="Dataset folder to write (created if needed).")],
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted run from its work folder (DIR/.handrec-work).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Re-read every input, also those unchanged since DIR was written.")
    ] = False,
    max_member_size: MemberSize = "1G",
    max_archive_size: ArchiveSize = "4G",
    max_file_size: FileSize = "4G",
    max_line_size: LineSize = "1M",
    max_board_size: BoardSize = "16M",
    engine: Annotated[
        Engine, typer.Option("--engine", help="Where the work runs: this machine, or a Dask cluster (handrec\\[dask]).")
    ] = Engine.local,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
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
            min=1,
            help="Stop reading after the input that brings the errors to N (huge archives); "
            "later inputs are listed in the files table with status not_read.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Convert PBN and LIN files, folders and archives (zip, tar, gz, bz2, xz) to a Parquet dataset.

    Tables: boards, calls, plays, diagnostics, tables, files.  Inputs unchanged
    since DIR was written keep their rows without being read again.  With
    `--fail-fast` or `--max-errors N` the dataset holds the inputs up to the
    one with the first or the N-th error (in input order, whatever --jobs)
    and the exit status is 1.
    """
    import time

    from handrec.store import ConvertProgress, SchedulerError
    from handrec.store import convert as do_convert

    limits = _limits(max_member_size, max_archive_size, max_file_size, max_line_size, max_board_size)
    if scheduler is not None and engine is not Engine.dask:
        typer.echo("handrec: --scheduler goes with --engine dask (it names the Dask cluster to run on)", err=True)
        raise typer.Exit(2)
    if output.exists() and not output.is_dir():
        typer.echo(f"handrec: cannot write {output}: it is a file, not a folder", err=True)
        raise typer.Exit(2)
    show = not quiet and sys.stderr.isatty()
    bar: dict = {}
    started = time.monotonic()

    def on_progress(p: ConvertProgress) -> None:
        if not show:
            return
        if not bar:  # started only now: the worker processes exist, so no thread is forked
            from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

            progress = Progress(
                TextColumn("[bold]converting"),
                BarColumn(),
                DownloadColumn(),
                TextColumn("{task.fields[files]} files, {task.fields[boards]} boards, {task.fields[rate]} boards/s"),
                TimeRemainingColumn(),
                transient=True,
            )
            progress.start()
            bar["progress"] = progress
            bar["task"] = progress.add_task("convert", total=p.bytes_total or None, files=0, boards=0, rate=0)
        rate = round(p.boards / max(time.monotonic() - started, 1e-3))
        bar["progress"].update(bar["task"], completed=p.bytes_done, files=p.files, boards=p.boards, rate=rate)

    def stop() -> None:
        if bar:
            bar["progress"].stop()

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
        )
    except (ImportError, SchedulerError) as e:
        stop()
        typer.echo(f"handrec: {e}", err=True)
        raise typer.Exit(2) from None
    except OSError as e:
        stop()
        typer.echo(f"handrec: cannot write {output}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        stop()
        typer.echo("handrec: interrupted; run the same command with --resume to continue", err=True)
        raise typer.Exit(130) from None
    stop()
    if not quiet:
        files = _files_summary(summary.statuses, f"{summary.resumed} resumed" if summary.resumed else "")
        typer.echo(
            f"{files}, {summary.boards} boards, {summary.errors} errors, {summary.warnings} warnings"
            + (f" -> {output}" if summary.written else ""),
            err=True,
        )
    refused = ("F008", "F009", "F010", "F014")
    for d in summary.diagnostics:
        if _unreadable(d.code) or d.code in refused:
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
        typer.echo(f"handrec: no input was read; the dataset in {_printable(str(output))} is left as it was", err=True)
    if not summary.statuses:
        _nothing_found(paths)
        raise typer.Exit(1)
    raise typer.Exit(2 if bad else 1 if summary.stopped else 0)


#: An argument of ``handrec query`` that can only be an option (SQL starting with a ``--``
#: comment goes on after it, on another line): ``--name``, ``--name=value``, ``-x``.
_OPTION_LIKE = re.compile(r"--?[A-Za-z][\w-]*(?:=\S*)?")


# Unknown options reach ``args``: SQL that starts with a ``--`` comment is SQL, not an option;
# an argument that looks like an option and nothing else is refused in the command (_OPTION_LIKE).
@app.command(context_settings={"ignore_unknown_options": True})
def query(
    args: Annotated[
        list[str],
        typer.Argument(
            metavar="[DIR] SQL",
            help="A dataset folder written by 'handrec convert' (optional with --db), then SQL over the tables "
            "boards, calls, plays, diagnostics, tables, files and the views travellers, rankings.",
            show_default=False,
        ),
    ],
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="DuckDB file holding the dataset's tables for repeated queries: built from DIR, rebuilt when DIR "
            "was converted again; without DIR the query reads this file alone.",
        ),
    ] = None,
    format: Annotated[RowFormat, typer.Option("--format", "-f", help="Output format.")] = RowFormat.table,
    allow_external: Annotated[
        bool, typer.Option("--allow-external", help="Let the SQL read or write files outside the dataset.")
    ] = False,
) -> None:
    """Run SQL (DuckDB) over a converted dataset and print the rows.

    `handrec query DIR SQL` reads the Parquet files; `handrec query DIR SQL
    --db FILE.duckdb` first copies them into FILE (only when it is missing
    or older than the dataset), then `handrec query --db FILE.duckdb SQL`
    answers from FILE alone.  The SQL can read or write no other file
    unless --allow-external.  SQL that starts with a -- comment is read as
    SQL; so is everything after a lone --: handrec query DIR -- "SQL".
    """
    from handrec.query import QueryError, materialise, run, write_csv

    unknown = [a for a in args if _OPTION_LIKE.fullmatch(a)]
    if unknown:
        typer.echo(
            f"handrec: no such option: {unknown[0]} (SQL starting with - goes after --: "
            'handrec query DIR -- "SQL"; see handrec query --help)',
            err=True,
        )
        raise typer.Exit(2)
    if len(args) > 2 or (len(args) == 1 and db is None):
        typer.echo("handrec: usage: handrec query DIR SQL [--db FILE] | handrec query --db FILE SQL", err=True)
        raise typer.Exit(2)
    dataset, sql = (Path(args[0]), args[1]) if len(args) == 2 else (None, args[0])
    try:
        if db is not None and dataset is not None and materialise(dataset, db):
            typer.echo(f"handrec: {dataset} -> {db}", err=True)
        cols, rows = run(None if db is not None else dataset, sql, allow_external=allow_external, db=db)
    except QueryError as e:
        typer.echo(f"handrec: {e}", err=True)
        raise typer.Exit(2) from None
    out = sys.stdout
    if format is RowFormat.csv:
        write_csv(out, cols, rows)
    elif format is RowFormat.json:
        json.dump([dict(zip(cols, r)) for r in rows], out, default=str, ensure_ascii=False)
        out.write("\n")
    else:
        from rich.console import Console
        from rich.table import Table

        t = Table(*cols, show_edge=False)
        for r in rows:
            t.add_row(*("" if v is None else str(v) for v in r))
        Console(file=out, width=max(80, min(200, 20 * len(cols)))).print(t)


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


@app.command()
def booklet(
    paths: PathsArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write: .pdf (Typst) or .html.")],
    title: Annotated[str | None, typer.Option("--title", help="Title (default: the Event tag).")] = None,
    per_page: Annotated[int, typer.Option("--per-page", help="Boards per page: 1, 2, 4, 6 or 8 (PDF).")] = 8,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size (PDF).")] = Paper.a4,
    dd: Annotated[
        bool | None,
        typer.Option(
            "--dd/--no-dd",
            help="Solve double dummy for deals without a table (needs handrec\\[dd]: without it, exit 2) / show none.",
        ),
    ] = None,
    results: Annotated[
        bool | None,
        typer.Option(
            "--results/--no-results",
            help="Results pages: travellers with matchpoints or IMPs and the ranking (default: when the input "
            "has several results of a board, a ScoreTable or two rooms of a teams match).",
        ),
    ] = None,
) -> None:
    """Print a hand-record booklet: the deals, then the results.

    A diagram shows the hands, dealer, vulnerability, HCP, and the double-dummy
    table and par where available; a board with part of a deal is drawn with
    the missing hands marked unknown.  Boards with no deal at all get no
    diagram (stderr says how many); their results still count.  Then the
    results pages (travellers scored by handrec, ranking) when the input has
    them; with --results, stderr says why there are none.  The file's own
    figures are checked as validate does: each that disagrees with handrec's
    (S603-S608, S611) or cannot be read (S609) is printed on stderr, and its
    traveller or ranking row is marked.  When no board has a deal and there
    are no results, nothing is written and the command exits 1.
    """
    from handrec.reader import iter_inputs, read_input

    if per_page not in (1, 2, 4, 6, 8):
        typer.echo("handrec: --per-page must be 1, 2, 4, 6 or 8", err=True)
        raise typer.Exit(2)
    suffix = output.suffix.lower()
    if suffix not in (".pdf", ".html", ".htm"):
        typer.echo("handrec: --output must end in .pdf or .html", err=True)
        raise typer.Exit(2)
    if dd:
        _require_solver()
    input_errors: list = []
    claims: list = []  # the file's own figures checked against handrec's results (S603-S609, S611)

    def boards():
        for inp in iter_inputs(paths, input_errors):
            yield from read_input(inp)
            input_errors.extend(d for d in inp.diagnostics if _unreadable(d.code))

    from handrec.dd import default_cache_dir, set_cache_dir
    from handrec.render import BookletSummary, NothingToPrint

    progress = _progress_bar("double dummy") if dd else None
    summary = BookletSummary()
    previous_cache = set_cache_dir(default_cache_dir())  # solved tables kept for the next run
    empty = False
    try:
        if suffix == ".pdf":
            from handrec.render_pdf import write_pdf

            n = write_pdf(
                boards(),
                output,
                title=title,
                per_page=per_page,
                paper=paper.value,
                dd=dd,
                results=results,
                diagnostics=claims,
                progress=progress,
                summary=summary,
                allow_empty=False,
            )
        else:
            from handrec.render import write_booklet

            n = write_booklet(
                boards(),
                output,
                title=title,
                dd=dd,
                results=results,
                diagnostics=claims,
                progress=progress,
                summary=summary,
                allow_empty=False,
            )
    except NothingToPrint:
        empty = True
    except OSError as e:
        typer.echo(f"handrec: cannot write {output}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None
    finally:
        set_cache_dir(previous_cache)
    for d in claims:
        typer.echo(_printable(str(d)), err=True)
    bad = [d for d in input_errors if _unreadable(d.code)]
    for d in bad:
        typer.echo(_printable(str(d)), err=True)
    if empty:  # nothing written
        if summary.total == 0:
            why = "the input has no boards"
        elif summary.total == 1:
            why = "the board has no deal"
        else:
            why = f"none of the {summary.total} boards has a deal"
        if summary.total and results is not False:
            why += " and there are no results"
        typer.echo(f"handrec: nothing to print: {why}", err=True)
        raise typer.Exit(2 if bad else 1)
    if summary.left_out:
        k = summary.left_out
        typer.echo(f"handrec: {k} board{'s' if k > 1 else ''} without a deal left out of the diagrams", err=True)
    if results and summary.no_results:
        typer.echo(f"handrec: no results to print: {summary.no_results}", err=True)
    typer.echo(f"{n} boards -> {output}", err=True)
    raise typer.Exit(2 if bad else 0)


class ExportFormat(StrEnum):
    pbn = "pbn"
    lin = "lin"


@app.command()
def export(
    paths: PathsArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write (- for standard output).")],
    to: Annotated[ExportFormat, typer.Option("--to", help="Format to write.")] = ExportFormat.pbn,
) -> None:
    """Write the boards of PBN or LIN inputs as one PBN (export format) or LIN file.

    Boards with a room (Room Open/Closed) become vugraph tables in LIN.  What
    the output format cannot hold (e.g. Score tags in LIN, LIN alert marks
    in PBN) is listed on stderr, never dropped silently; so is input text
    not written as it was read (a syntax error's text, a bad card or
    call), each fault as `path:line:col: CODE severity: message: not in
    the output as written`, then a count.  Exit status 1 when some text
    is not carried over as written (the file is written), 2 when an input
    could not be read.
    """
    from handrec.reader import iter_inputs, read_input

    input_errors: list = []
    not_written: list = []  # reading faults whose text is not in the output as written, in input order

    def boards():
        for inp in iter_inputs(paths, input_errors):
            for b in read_input(inp):
                not_written.extend(d for d in b.diagnostics if _not_as_written(d))
                yield b
            not_written.extend(d for d in inp.diagnostics if _not_as_written(d))
            input_errors.extend(d for d in inp.diagnostics if _unreadable(d.code))

    from handrec.lin import dump as lin_dump
    from handrec.lin import for_pbn, pbn_losses
    from handrec.pbn import dump as pbn_dump

    dropped: dict[str, int] = {}  # what the output format cannot hold: kind -> boards

    def for_pbn_output():
        for b in boards():
            b = for_pbn(b)
            for kind in pbn_losses(b):
                dropped[kind] = dropped.get(kind, 0) + 1
            yield b

    def write(f) -> int:
        if to is ExportFormat.pbn:
            return pbn_dump(for_pbn_output(), f)
        return lin_dump(boards(), f, dropped=dropped)

    tmp = output.with_name(f".{output.name}.tmp")
    try:
        if str(output) == "-":  # standard output (the reports stay on stderr)
            n = write(sys.stdout)
            sys.stdout.flush()
        else:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                n = write(f)
            os.replace(tmp, output)
    except BrokenPipeError:  # standard output closed by the reader (| head): stop quietly, as SIGPIPE would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(141) from None
    except OSError as e:
        tmp.unlink(missing_ok=True)
        typer.echo(f"handrec: cannot write {output}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None
    bad = [d for d in input_errors if _unreadable(d.code)]
    for d in bad:
        typer.echo(_printable(str(d)), err=True)
    if dropped:
        lost = ", ".join(f"{k} ({v} board{'s' if v > 1 else ''})" for k, v in sorted(dropped.items()))
        typer.echo(f"handrec: not carried in {to.value.upper()}: {lost}", err=True)
    for d in not_written:
        typer.echo(f"{_printable(str(d))}: not in the output as written", err=True)
    if not_written:
        k, m = len(not_written), len({(d.path, d.board) for d in not_written if d.board is not None})
        typer.echo(
            f"handrec: {k} fault{'s' if k > 1 else ''} above not carried over as written "
            f"({m} of {n} board{'s' if n > 1 else ''})",
            err=True,
        )
    typer.echo(f"{n} boards -> {'standard output' if str(output) == '-' else output}", err=True)
    raise typer.Exit(2 if bad else 1 if not_written else 0)


@app.command()
def generate(
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write: .pbn or .lin.")],
    boards: Annotated[int, typer.Option("--boards", "-n", min=1, help="How many boards.")] = 16,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same boards).")] = 1,
    tables: Annotated[
        int, typer.Option("--tables", min=1, help="Tables each board is played at (a pairs session: travellers).")
    ] = 1,
    event: Annotated[str, typer.Option("--event", help="The Event tag of every board.")] = "handrec generated",
) -> None:
    """Write random, fully legal boards (deal, auction, play, result, score) as PBN or LIN.

    With `--tables T` each board is played at T tables, one game per table
    (N-S pair N1-S1 v E-W pair E1-W1 at table 1...), so the file has
    travellers to score (`handrec score -m mp`) and results pages to print.
    """
    from handrec.generate import generate_boards

    suffix = output.suffix.lower()
    if suffix not in (".pbn", ".lin"):
        typer.echo("handrec: --output must end in .pbn or .lin", err=True)
        raise typer.Exit(2)
    gen = generate_boards(boards * tables, seed, path=str(output), tables=tables, event=event)
    try:
        if suffix == ".pbn":
            from handrec.pbn import dump

            with open(output, "w", encoding="utf-8", newline="") as f:
                n = dump(gen, f)
        else:
            from handrec.lin import dump as lin_dump

            with open(output, "w", encoding="utf-8", newline="") as f:
                n = lin_dump(gen, f)
    except OSError as e:
        typer.echo(f"handrec: cannot write {output}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None
    games = f" ({n} games)" if tables > 1 else ""
    typer.echo(f"{boards if tables > 1 else n} boards{games} -> {output}", err=True)


class ScoreMethod(StrEnum):
    auto = "auto"
    mp = "mp"
    mp2 = "mp2"
    imp = "imp"
    butler = "butler"
    cross_imp = "cross-imp"
    rubber = "rubber"
    chicago = "chicago"
    minibridge = "minibridge"


class ScoreFormat(StrEnum):
    text = "text"
    csv = "csv"
    json = "json"


class ScoreTableChoice(StrEnum):
    travellers = "travellers"
    rankings = "rankings"


@app.command()
def score(
    paths: PathsArg,
    method: Annotated[
        ScoreMethod,
        typer.Option(
            "--method",
            "-m",
            help="auto: each event as its tags say (teams IMPs when a board has an Open and a Closed room; "
            "Scoring Butler, Cross..., MP1 (2/1), IMP (Butler), Rubber, Chicago; else mp); "
            "mp: matchpoints 1/0.5 (top n-1); mp2: 2/1 (top 2(n-1)); imp: teams, Open v Closed room; "
            "butler; cross-imp; rubber, chicago, minibridge: each file's boards in order as one session.",
        ),
    ] = ScoreMethod.auto,
    format: Annotated[ScoreFormat, typer.Option("--format", "-f", help="Output format.")] = ScoreFormat.text,
    table: Annotated[
        ScoreTableChoice | None,
        typer.Option(
            "--table",
            help="With --format csv: which table to write (travellers: a row per result, or per deal of a "
            "session, or per teams board; rankings: a row per pair or team). Default: travellers.",
        ),
    ] = None,
    neuberg: Annotated[
        bool,
        typer.Option(
            "--neuberg/--no-neuberg",
            help="Matchpoints: score boards played fewer times on the top of the most-played board (Neuberg).",
        ),
    ] = True,
) -> None:
    """Score events: travellers with matchpoints or IMPs, session totals and rankings.

    A traveller is every result of a board (same Event, board and deal), or the
    board's ScoreTable; pairs or teams are ranked over the session."""
    from handrec.events import Method, record, render, score_event
    from handrec.reader import iter_inputs, read_input

    input_errors: list = []
    recs = []
    for inp in iter_inputs(paths, input_errors):
        for board in read_input(inp):
            recs.append(record(board))
        input_errors.extend(d for d in inp.diagnostics if _unreadable(d.code))
    if table is not None and format is not ScoreFormat.csv:
        typer.echo("handrec: --table goes with --format csv (text and json show both tables)", err=True)
        raise typer.Exit(2)
    events = score_event(recs, None if method is ScoreMethod.auto else Method(method.value), neuberg=neuberg)
    sys.stdout.write(render(events, format.value, table=(table or ScoreTableChoice.travellers).value))
    bad = [d for d in input_errors if _unreadable(d.code)]
    for d in bad:
        typer.echo(_printable(str(d)), err=True)
    if not recs and not bad:
        typer.echo("handrec: no boards found", err=True)
    raise typer.Exit(2 if bad else 0 if recs else 1)  # nothing to score: 1, as booklet with nothing to print


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
