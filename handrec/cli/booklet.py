"""``handrec booklet``: hand-record booklets (HTML or PDF) with diagrams, HCP, double dummy and results."""

from __future__ import annotations

from enum import StrEnum
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
from handrec.cli.dd import NO_CACHE_HELP, DDProgress, dd_session, interrupted_note
from handrec.cli.interrupt import say


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


@app.command()
def booklet(
    paths: PathsArg,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="File to write: .pdf (Typst) or .html.")
    ],
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Title (default: the Event tag).")
    ] = None,
    per_page: Annotated[
        int | None,
        typer.Option("--per-page", metavar="N", help="Boards per page: 1, 2, 4, 6 or 8 (PDF; default 8)."),
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", case_sensitive=False, help="Paper size (PDF).")] = Paper.a4,
    dd: Annotated[
        bool | None,
        typer.Option(
            "--dd/--no-dd",
            help="Solve double dummy for deals without a table (needs handrec[dd]: without it, exit 2) / show none.",
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
    pair: Annotated[
        str | None,
        typer.Option(
            "--pair",
            metavar="LABEL",
            help="Personal hand records of one pair or team (its label in the rankings: id or names).",
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="NAME", help="Personal hand records of the pairs a player played in."),
    ] = None,
    no_dd_cache: Annotated[bool, typer.Option("--no-dd-cache", help=NO_CACHE_HELP)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar (with --dd).")] = False,
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

    With --pair or --player (HTML only): the boards one pair played, each with
    its result and the field's frequencies under the diagram.
    """
    if pair is not None or player is not None:
        from handrec.cli.site import personal

        personal(paths, output, pair=pair, player=player, title=title, dd=dd)
    from handrec.formats.dispatch import read_input
    from handrec.inputs.entries import iter_inputs

    if per_page is not None and per_page not in (1, 2, 4, 6, 8):
        typer.echo("handrec: --per-page must be 1, 2, 4, 6 or 8", err=True)
        raise typer.Exit(2)
    suffix = output.suffix.lower()
    if suffix not in (".pdf", ".html", ".htm"):
        typer.echo("handrec: --output must end in .pdf or .html", err=True)
        raise typer.Exit(2)
    if per_page is not None and suffix != ".pdf":
        # The HTML booklet flows its boards to the width of the screen or the page: no fixed count.
        typer.echo("handrec: --per-page is for the PDF booklet (the HTML one reflows to the page)", err=True)
        raise typer.Exit(2)
    per_page = 8 if per_page is None else per_page
    if dd:
        _require_solver()
    report = InputReport()
    claims: list = []  # the file's own figures checked against handrec's results (S603-S609, S611)

    def boards():
        for inp in iter_inputs(paths, report.paths):
            yield from read_input(inp)
            report.add(inp)

    from handrec.booklet.views import BookletSummary, NothingToPrint

    progress = DDProgress(enabled=not quiet) if dd else None
    summary = BookletSummary()
    empty = False
    session = dd_session(no_dd_cache)  # solved tables kept for the next run (unless --no-dd-cache)
    solver = session.__enter__()
    try:
        if suffix == ".pdf":
            from handrec.booklet.pdf import write_pdf

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
            from handrec.booklet.html import write_booklet

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
        raise _cannot("write", output, e) from None
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
        raise typer.Exit(say(interrupted_note(solver))) from None
    finally:
        if progress is not None:
            progress.close()
        session.__exit__(None, None, None)
    for d in claims:
        typer.echo(_printable(str(d)), err=True)
    report.say_faults()
    if empty:  # nothing written
        if summary.total == 0 and report.faults:  # the faults above say why
            why = "no board was read"
        elif summary.total == 0:
            why = "the input has no boards"
        elif summary.total == 1:
            why = "the board has no deal"
        else:
            why = f"none of the {summary.total} boards has a deal"
        if summary.total and results is not False:
            why += " and there are no results"
        typer.echo(f"handrec: nothing to print: {why}", err=True)
        raise typer.Exit(report.status(1))
    if summary.left_out:
        k = summary.left_out
        typer.echo(f"handrec: {k} board{'s' if k > 1 else ''} without a deal left out of the diagrams", err=True)
    if results and summary.no_results:
        typer.echo(f"handrec: no results to print: {summary.no_results}", err=True)
    # boards: the games read, as validate, convert and export count them; then the diagrams drawn
    typer.echo(f"{summary.read} boards ({n} diagram{'s' if n != 1 else ''}) -> {_printable(str(output))}", err=True)
    raise typer.Exit(report.status())
