"""``handrec generate``: random boards with legal auctions and play, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from handrec.cli.app import (
    _CONTROL,
    _cannot,
    _printable,
    app,
)
from handrec.cli.progress import Bar, shown

if TYPE_CHECKING:
    from handrec.model import Board


def _counted(boards: Iterator[Board], bar: Bar, total: int) -> Iterator[Board]:
    """The boards, the bar moved as each is taken (at most every tenth of a second)."""
    last = 0.0
    n = 0
    for n, board in enumerate(boards, 1):
        yield board
        now = time.monotonic()
        if now - last >= 0.1:
            last = now
            bar.update(n, total)
    bar.update(n, total)


class GenFormat(StrEnum):
    pbn = "pbn"
    lin = "lin"


def _format(output: Path, fmt: GenFormat | None) -> GenFormat:
    """The format to write: the output's extension, else ``--format`` (PBN for standard output).
    A name that is neither .pbn nor .lin, or a ``--format`` it contradicts, ends the command
    (exit 2): a .lin file holding PBN is a trap for the next reader (as with ``export --to``)."""
    if str(output) == "-":
        return fmt or GenFormat.pbn
    named = {".pbn": GenFormat.pbn, ".lin": GenFormat.lin}.get(output.suffix.lower())
    if named is None:
        typer.echo("handrec: --output must end in .pbn or .lin (or be - for standard output)", err=True)
        raise typer.Exit(2)
    if fmt is not None and fmt is not named:
        typer.echo(
            f"handrec: --format {fmt.value} but {_printable(output.name)} names {named.value.upper()}: "
            "change the name or --format",
            err=True,
        )
        raise typer.Exit(2)
    return named


def _check_event(event: str) -> None:
    """End the command (exit 2) when ``event`` holds a control character (a tab, a line end,
    ESC, a C1 control): the PBN tag value would not be in PBN form (T121), and the help
    promises that every generated file validates clean."""
    bad = next((c for c in event if ord(c) in _CONTROL), None)
    if bad is not None:
        typer.echo(
            f"handrec: --event must not hold control characters (it holds U+{ord(bad):04X}): a PBN tag value has none",
            err=True,
        )
        raise typer.Exit(2)


@app.command()
def generate(
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="FILE", help="File to write: .pbn or .lin (- for standard output)."),
    ],
    fmt: Annotated[
        GenFormat | None,
        typer.Option("--format", help="Format to write (default: the output's extension; PBN for standard output)."),
    ] = None,
    boards: Annotated[
        int,
        typer.Option(
            "--boards",
            "-n",
            min=1,
            metavar="N",
            help="How many deals (board numbers); with --tables T, each played T times.",
        ),
    ] = 16,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Random seed (same seed, same boards).")] = 1,
    tables: Annotated[
        int,
        typer.Option(
            "--tables", min=1, metavar="T", help="Tables each board is played at (a pairs session: travellers)."
        ),
    ] = 1,
    event: Annotated[
        str,
        typer.Option("--event", metavar="TEXT", help="The Event tag of every board (no control characters)."),
    ] = "handrec generated",
    realistic: Annotated[
        bool,
        typer.Option(
            "--realistic/--plain",
            help="Realistic records (the default): alerts and notes on about a tenth of the calls, comments,"
            " claims, passed-out, doubled and redoubled boards; --plain: none of these.",
        ),
    ] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Write random, fully legal boards (deal, auction, play, result, score) as PBN or LIN.

    -o - writes to standard output (PBN, or LIN with --format lin).

    With --tables T each board is played at T tables, one game per table
    (N-S pair N1-S1 v E-W pair E1-W1 at table 1...), so the file has
    travellers to score (handrec score -m mp) and results pages to print.
    By default the records look like real ones (--realistic): note references
    with their Note tags and ! suffixes on about a tenth of the calls, a
    comment on some boards, claims, passed-out, doubled and redoubled boards
    in the proportions of real files; --plain writes none of these.  Every
    file validates clean either way.
    """
    from handrec.generate import generate_boards

    fmt = _format(output, fmt)
    _check_event(event)
    to_stdout = str(output) == "-"
    path = "<stdout>" if to_stdout else str(output)
    gen = generate_boards(boards * tables, seed, path=path, tables=tables, event=event, realistic=realistic)
    bar = Bar("generating", unit="count", enabled=shown(quiet))
    gen = _counted(gen, bar, boards * tables)
    if fmt is GenFormat.pbn:
        from handrec.formats.pbn.writer import dump
    else:
        from handrec.formats.lin.writer import dump

    def write(f) -> int:
        return dump(gen, f, suffixes=True) if realistic and fmt is GenFormat.pbn else dump(gen, f)

    if to_stdout:
        try:
            try:
                n = write(sys.stdout)
                sys.stdout.flush()
            finally:
                bar.close()
        except BrokenPipeError:  # standard output closed by the reader (| head): stop quietly, as SIGPIPE would
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(141) from None
    else:
        n = _write_file(output, write, bar)
    if quiet:
        return
    # boards: the games written, as validate, convert and export will count them
    deals = f" ({boards} deal{'s' if boards != 1 else ''} x {tables} tables)" if tables > 1 else ""
    where = "standard output" if to_stdout else _printable(str(output))
    typer.echo(f"{n} boards{deals} -> {where}", err=True)


def _write_file(output: Path, write: Callable[[TextIO], int], bar: Bar) -> int:
    """``write`` into ``output``, through a file beside it renamed into place: an interrupted run
    never leaves half a file under the name asked for (nor replaces a good one with half of a new
    one).  A file that cannot be written ends the command (one line, exit 2)."""
    tmp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        try:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                n = write(f)
            os.replace(tmp, output)
        except BaseException:
            with contextlib.suppress(OSError):  # refused as the writing was: that refusal is the news
                tmp.unlink(missing_ok=True)
            raise
        finally:
            bar.close()
    except OSError as e:
        raise _cannot("write", output, e) from None
    return n
