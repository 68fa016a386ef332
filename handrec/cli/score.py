"""``handrec score``: travellers and rankings of each event (matchpoints, IMPs, Butler, cross-IMPs, rubber, Chicago, minibridge)."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from handrec.cli.app import (
    InputReport,
    PathsArg,
    PlainWriter,
    _printable,
    app,
)


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
            help="Which table to write (travellers: a row per result, or per deal of a session, or per teams "
            "board; rankings: a row per pair or team). Default: both in text, travellers in csv; not with json.",
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
    from handrec.events.event_score import score_event
    from handrec.events.games import record
    from handrec.events.methods import Method
    from handrec.events.report import render
    from handrec.formats.dispatch import iter_inputs, read_input

    report = InputReport()
    recs = []
    hand_records: list[tuple[str, int]] = []  # (input, boards): files of hand records only, not scored
    for inp in iter_inputs(paths, report.paths):
        file_recs = [record(board) for board in read_input(inp)]
        if file_recs and all(r.hand_record for r in file_recs):
            hand_records.append((inp.path, len(file_recs)))  # each board would say "no result": said once
        else:
            recs.extend(file_recs)
        report.add(inp)
    if table is not None and format is ScoreFormat.json:
        typer.echo("handrec: --table goes with --format text or csv (json holds both tables)", err=True)
        raise typer.Exit(2)
    for path, n in hand_records:
        typer.echo(
            _printable(f"handrec: {path}: hand records only ({_boards(n)}, none with a result): not scored"), err=True
        )
    events = score_event(recs, None if method is ScoreMethod.auto else Method(method.value), neuberg=neuberg)
    text = render(events, format.value, table=None if table is None else table.value)
    PlainWriter(sys.stdout, json=format is ScoreFormat.json).write(text)  # names are data: no control characters
    report.say_faults()
    if not recs and not hand_records:
        report.say_nothing(paths)
        typer.echo("handrec: no boards found", err=True)
    raise typer.Exit(report.status(0 if recs else 1))  # nothing to score: 1, as booklet with nothing to print


def _boards(n: int) -> str:
    return f"{n} board{'s' if n != 1 else ''}"
