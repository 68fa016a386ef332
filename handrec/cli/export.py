"""``handrec export``: write the boards read as PBN or LIN, or the event they hold as USEBIO."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    PathsArg,
    _not_as_written,
    _printable,
    _unreadable,
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
    input_errors: list = []
    not_written: list = []  # reading faults whose text is not in the output as written, in input order

    def boards():
        for inp in iter_inputs(paths, input_errors):
            for b in read_input(inp):
                not_written.extend(d for d in b.diagnostics if _not_as_written(d))
                yield b
            not_written.extend(d for d in inp.diagnostics if _not_as_written(d))
            input_errors.extend(d for d in inp.diagnostics if _unreadable(d.code))

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
        try:
            built = usebio_document(read)
        except UsebioExportError as e:
            for d in input_errors:
                if _unreadable(d.code):
                    typer.echo(_printable(str(d)), err=True)
            typer.echo(f"handrec: {e}", err=True)
            raise typer.Exit(2) from None
        usebio_text = usebio_dumps(built.document, usebio_version.value)
        for note in built.notes:
            typer.echo(f"handrec: {note}", err=True)
        n_read = len(read)

    def write(f) -> int:
        if usebio_text is not None:
            f.write(usebio_text)
            return n_read
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
        typer.echo(f"handrec: cannot write {_printable(str(output))}: {_printable(str(e.strerror or e))}", err=True)
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
    typer.echo(f"{n} boards -> {'standard output' if str(output) == '-' else _printable(str(output))}", err=True)
    raise typer.Exit(2 if bad else 1 if not_written else 0)
