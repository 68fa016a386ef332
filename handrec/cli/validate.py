"""``handrec validate``: replay every board of the inputs and print each fault (file, line, column, code)."""

# No "from __future__ import annotations" here: Typer reads the command's parameters from its
# annotations at each start, and evaluated once as the module is imported they are not compiled
# from strings again (typing.get_type_hints): 2-3 ms of every validate run (start-up, #23 item 4).

import sys
from typing import Annotated

import typer

from handrec.cli.app import (
    ArchiveSize,
    BoardSize,
    DiagFormat,
    FileSize,
    LineSize,
    MemberSize,
    PathsArg,
    ReadTimeout,
    _files_summary,
    _limits,
    _nothing_found,
    _printable,
    _require_solver,
    _unreadable,
    app,
)
from handrec.cli.dd import NO_CACHE_HELP, DDProgress, dd_session, interrupted_note
from handrec.cli.interrupt import say
from handrec.cli.progress import Bar, shown
from handrec.diagnostics import Severity


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
        typer.Option(
            "--max-errors", min=1, metavar="N", help="Stop at the N-th error: N errors printed (huge archives)."
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            min=1,
            help="Worker processes (default: all cores; the output is the same whatever N). Small runs, and "
            "--dd, are read in one process.",
        ),
    ] = None,
    max_line_size: LineSize = "1M",
    max_file_size: FileSize = "4G",
    max_board_size: BoardSize = "16M",
    read_timeout: ReadTimeout = 60.0,
    max_member_size: MemberSize = "1G",
    max_archive_size: ArchiveSize = "4G",
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="Also check DoubleDummyTricks, Ability, OptimumResultTable, OptimumScore, ParContract and "
            "Minimax against the double-dummy solver, and warn of results far from double dummy (D214, "
            "with a worklist; needs handrec[dd]; D210-D214; read in one process).",
        ),
    ] = False,
    dd_margin: Annotated[
        int,
        typer.Option(
            "--dd-margin", min=1, help="With --dd: warn of a result this many tricks or more from double dummy."
        ),
    ] = 3,
    no_dd_cache: Annotated[bool, typer.Option("--no-dd-cache", help=NO_CACHE_HELP)] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar (the faults and the summary are printed as ever).")
    ] = False,
) -> None:
    """Replay every board against the Laws and the scorer and report every fault.

    Prints path:line:col: CODE severity: message per fault (path: CODE
    severity: message for a fault of a whole file), then
    N files, N boards, N errors, N warnings: N files counts every input
    and every path or archive member not read, as the files table of
    handrec convert does, and says how many are not ok:
    3 files (1 ok, 2 unreadable), ....  With --fail-fast or
    --max-errors N it stops at the first or the N-th error: the output
    is the output without it cut right after that error, and the summary
    counts what was printed.  --jobs N
    reads the inputs in N processes (a big PBN or LIN file in parts) with the
    same output as one.  With --dd
    the double-dummy tables and par a file writes are solved again (DDS via
    endplay, 40 deals a call, cached on disk in $HANDREC_DD_CACHE or
    ~/.cache/handrec) and every wrong value reported at its tag; every result
    `--dd-margin` tricks or more from double dummy (default 3) is a D214
    warning, and they are listed again at the end as a worklist, the most
    unlikely first.  Without any solver, a deal whose play fits it only with
    the hands turned (D215) is always reported.
    """
    # BrokenProcessPool's base: concurrent.futures.process imports multiprocessing, which only
    # a run with a pool needs
    from concurrent.futures import BrokenExecutor
    from contextlib import nullcontext

    from handrec.cli.startup import imports_without_gc

    with imports_without_gc("handrec.runs.validate"):  # the model, the rules, the checks
        from handrec.inputs.status import entry_status
        from handrec.runs.validate import validate_paths

    if dd:
        _require_solver()
    limits = _limits(max_member_size, max_archive_size, max_file_size, max_line_size, max_board_size, read_timeout)
    stop_at = 1 if fail_fast else max_errors
    boards = errors = warns = 0
    statuses: dict[str, int] = {}  # reports by files-table status
    unreadable = False
    all_diags = []
    out = sys.stdout
    worklist = []
    show = shown(quiet, format is DiagFormat.json)  # on a terminal only, never with JSON
    bar = DDProgress(enabled=show) if dd else None
    reading = Bar("validating", enabled=show)  # drawn from the first report: the workers exist then

    def on_progress(p) -> None:
        reading.update(p.bytes_done, p.bytes_total, boards=p.boards, files=p.files)

    session = dd_session(no_dd_cache) if dd else nullcontext()
    solver = None
    try:
        with session as solver:
            reports = validate_paths(
                paths,
                jobs=jobs,
                limits=limits,
                strict=strict,
                max_errors=stop_at,
                dd=dd,
                dd_progress=bar,
                dd_margin=dd_margin if dd else None,
                on_progress=on_progress if show else None,
            )
            for report in reports:
                status = entry_status((f.diagnostic.code for f in report.findings), read=report.is_input)
                statuses[status] = statuses.get(status, 0) + 1
                boards += report.boards
                errors += report.errors
                warns += report.warnings
                for finding in report.findings:
                    d = finding.diagnostic
                    if d.code == "D214":
                        worklist.append(d)
                    if _unreadable(d.code):
                        unreadable = True
                    if not (d.severity is Severity.ERROR or (d.severity is Severity.WARNING and warnings) or info):
                        continue  # counted, not shown
                    if format is DiagFormat.json:
                        doc = d.to_dict()
                        doc["board_number"] = finding.board_number
                        all_diags.append(doc)
                    else:
                        reading.write(out, _printable(str(d)) + "\n")
    except BrokenExecutor:  # BrokenProcessPool: a worker died
        out.flush()
        typer.echo("handrec: a worker process stopped unexpectedly (killed, or out of memory?); try --jobs 1", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        out.flush()
        raise typer.Exit(say(interrupted_note(solver) if solver is not None else None)) from None
    finally:
        reading.close()
        if bar is not None:
            bar.close()
    stopped = stop_at is not None and errors >= stop_at
    from handrec.inputs.status import STATUSES

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
        if dd:
            from handrec.dd.director import worklist as order

            doc["dd_worklist"] = [d.to_dict() for d in order(worklist)]
        if stopped:
            doc["stopped"] = True
        import json  # here: the text output needs none (start-up)

        json.dump(doc, out, ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        if worklist:
            from handrec.dd.director import worklist as order

            out.write(
                f"double-dummy worklist: {len(worklist)} result{'s' if len(worklist) > 1 else ''} "
                f"{dd_margin} or more tricks from double dummy, the most unlikely first\n"
            )
            for i, d in enumerate(order(worklist), 1):
                out.write(f"{i:4d}. {_printable(d.path)}:{d.line}: {_printable(d.message)}\n")
        out.write(summary + "\n")
    if stopped:
        why = "--fail-fast" if fail_fast else f"--max-errors {max_errors}"
        typer.echo(f"handrec: stopped after {errors} error{'s' if errors > 1 else ''} ({why})", err=True)
    if not statuses:
        _nothing_found(paths)
        raise typer.Exit(1)
    raise typer.Exit(2 if unreadable else 1 if errors else 0)
