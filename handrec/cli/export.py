"""``handrec export``: write the boards read as PBN or LIN, or the event they hold as USEBIO."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    InputReport,
    PathsArg,
    _cannot,
    _not_as_written,
    _printable,
    app,
)


class ExportFormat(StrEnum):
    pbn = "pbn"
    lin = "lin"
    usebio = "usebio"


class UsebioVersion(StrEnum):
    v12 = "1.2"
    v13 = "1.3"


#: The format an output name asks for, by its extension (``export -o x.lin`` writes LIN).
_BY_SUFFIX = {".pbn": ExportFormat.pbn, ".lin": ExportFormat.lin, ".xml": ExportFormat.usebio}


def _output_format(output: Path, to: ExportFormat | None) -> ExportFormat:
    """The format to write: ``--to``, else the output's extension, else PBN for standard output.
    A ``--to`` that another format's extension contradicts, or a name that says no format without
    ``--to``, ends the command (exit 2): a .lin file holding PBN is a trap for the next reader."""
    named = _BY_SUFFIX.get(output.suffix.lower()) if str(output) != "-" else None
    if to is None:
        if named is not None:
            return named
        if str(output) == "-":
            return ExportFormat.pbn
        known = ", ".join(_BY_SUFFIX)
        typer.echo(f"handrec: cannot tell the format from {_printable(output.name)} ({known}): add --to", err=True)
        raise typer.Exit(2)
    if named is not None and named is not to:
        typer.echo(
            f"handrec: --to {to.value} but {_printable(output.name)} names {named.value.upper()}: "
            "change the name or --to",
            err=True,
        )
        raise typer.Exit(2)
    return to


@app.command()
def export(
    paths: PathsArg,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="File to write (- for standard output).")
    ],
    to: Annotated[
        ExportFormat | None,
        typer.Option("--to", help="Format to write (default: the output's extension; PBN for standard output)."),
    ] = None,
    usebio_version: Annotated[
        UsebioVersion, typer.Option("--usebio-version", help="With --to usebio: the USEBIO version written.")
    ] = UsebioVersion.v12,
) -> None:
    """Write the boards of PBN, LIN or USEBIO inputs as one PBN (export format), LIN or USEBIO file.

    USEBIO (`--to usebio`) is one scored event: handrec scores it (as `handrec score` does)
    and writes the participants, places and totals, each traveller line with its match
    points or IMPs, teams matches, and the hand records; pair numbers come from the
    PairNS/PairEW tags, else they are made from the names (said on stderr).

    Boards with a room (Room Open/Closed) become vugraph tables in LIN.  What
    the output format cannot hold (e.g. Score tags in LIN, LIN alert marks
    in PBN) is listed on stderr, never dropped silently; so is input text
    not written as it was read (a syntax error's text, a bad card or
    call), each fault as path:line:col: CODE severity: message: not in
    the output as written, then a count.  Exit status 1 when some text
    is not carried over as written (the file is written), 2 when an input
    could not be read.
    """
    from handrec.formats.dispatch import iter_inputs, read_input

    to = _output_format(output, to)
    report = InputReport()
    not_written: list = []  # reading faults whose text is not in the output as written, in input order
    escapes: list[tuple[str, list[int]]] = []  # each PBN input's escape lines no board holds (layout lines)

    def boards():
        for inp in iter_inputs(paths, report.paths):
            lines: list[int] = []
            for b in read_input(inp, escape_lines=lines):
                not_written.extend(d for d in b.diagnostics if _not_as_written(d))
                yield b
            if lines:
                escapes.append((inp.path, lines))
            not_written.extend(d for d in inp.diagnostics if _not_as_written(d))
            report.add(inp)

    def nothing() -> typer.Exit:
        """No board was read: why, and that no file was made (an empty one would pass for the export)."""
        report.say_faults()
        report.say_nothing(paths)
        where = "standard output" if str(output) == "-" else _printable(str(output))
        typer.echo(f"handrec: no boards found; nothing written to {where}", err=True)
        return typer.Exit(report.status(1))

    from handrec.formats.lin.writer import dump as lin_dump
    from handrec.formats.lin.writer import for_pbn, pbn_losses
    from handrec.formats.pbn.writer import dump as pbn_dump

    dropped: dict[str, int] = {}  # what the output format cannot hold: kind -> boards

    def for_pbn_output():
        for b in boards():
            b = for_pbn(b)
            for kind in pbn_losses(b):
                dropped[kind] = dropped.get(kind, 0) + 1
            yield b

    usebio_text: str | None = None
    if to is ExportFormat.usebio:
        from handrec.events.usebio import UsebioExportError, usebio_document
        from handrec.formats.usebio.writer import dumps as usebio_dumps

        read = list(boards())
        if not read:
            raise nothing()
        try:
            built = usebio_document(read)
        except UsebioExportError as e:
            report.say_faults()
            typer.echo(f"handrec: {e}", err=True)
            raise typer.Exit(2) from None
        usebio_text = usebio_dumps(built.document, usebio_version.value)
        for note in built.notes:
            typer.echo(f"handrec: {note}", err=True)
        n_read = len(read)

    # The first board is read before anything is opened: with none, no file (nor a PBN header
    # on standard output) is made.
    if usebio_text is None:
        stream = for_pbn_output() if to is ExportFormat.pbn else boards()
        first = next(stream, None)
        if first is None:
            raise nothing()
        stream = itertools.chain([first], stream)

    def write(f) -> int:
        if usebio_text is not None:
            f.write(usebio_text)
            return n_read
        if to is ExportFormat.pbn:
            return pbn_dump(stream, f)
        return lin_dump(stream, f, dropped=dropped)

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
        # the cleaning up may be refused as the writing was (a folder that cannot be entered):
        # the first refusal is the news, not a second traceback
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise _cannot("write", output, e) from None
    report.say_faults()
    if dropped:
        lost = ", ".join(f"{k} ({v} board{'s' if v > 1 else ''})" for k, v in sorted(dropped.items()))
        typer.echo(f"handrec: not carried in {to.value.upper()}: {lost}", err=True)
    for path, lines in escapes:
        typer.echo(_printable(f"handrec: {path}: {_escape_note(lines)}"), err=True)
    for d in not_written:
        typer.echo(f"{_printable(str(d))}: not in the output as written", err=True)
    if not_written:
        k, m = len(not_written), len({(d.path, d.board) for d in not_written if d.board is not None})
        typer.echo(
            f"handrec: {k} fault{'s' if k > 1 else ''} above not carried over as written "
            f"({m} of {n} board{'s' if n > 1 else ''})",
            err=True,
        )
    typer.echo(f"{n} boards -> {'standard output' if str(output) == '-' else _printable(str(output))}", err=True)
    raise typer.Exit(report.status(1 if not_written else 0))


#: How many runs of line numbers the note of dropped escape lines shows.
_RUNS_SHOWN = 5


def _escape_note(lines: list[int]) -> str:
    """What ``export`` says of a PBN input's escape lines that no board holds (PBN 2.1 §2.4:
    BridgeComposer's layout lines such as ``%BCOptions`` or ``%Font:...``, ``%Creator``, comment
    banners; the writer writes its own ``% PBN 2.1``, ``% EXPORT`` and ``%Content-type``): their count, then the
    first :data:`_RUNS_SHOWN` runs of line numbers (``3-42``: lines 3 to 42).

    >>> _escape_note([1, 2, 3, 7, 9, 10, 12, 20, 30]), _escape_note([4])
    ('9 % lines not carried (layout or comment lines): lines 1-3, 7, 9-10, 12, 20 ...', '1 % line not carried (layout or comment line): line 4')
    """
    runs: list[list[int]] = []
    for n in lines:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs[:_RUNS_SHOWN])
    shown += " ..." if len(runs) > _RUNS_SHOWN else ""
    if len(lines) == 1:
        return f"1 % line not carried (layout or comment line): line {shown}"
    return f"{len(lines)} % lines not carried (layout or comment lines): lines {shown}"
