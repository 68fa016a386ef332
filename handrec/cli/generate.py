"""``handrec generate``: random boards with legal auctions and play, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from handrec.cli.app import (
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


@app.command()
def generate(
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE", help="File to write: .pbn or .lin.")],
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
        str, typer.Option("--event", metavar="TEXT", help="The Event tag of every board.")
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

    suffix = output.suffix.lower()
    if suffix not in (".pbn", ".lin"):
        typer.echo("handrec: --output must end in .pbn or .lin", err=True)
        raise typer.Exit(2)
    gen = generate_boards(boards * tables, seed, path=str(output), tables=tables, event=event, realistic=realistic)
    bar = Bar("generating", unit="count", enabled=shown(quiet))
    gen = _counted(gen, bar, boards * tables)
    if suffix == ".pbn":
        from handrec.formats.pbn.writer import dump
    else:
        from handrec.formats.lin.writer import dump
    # Written beside the output and renamed into place: an interrupted run never leaves half a file
    # under the name asked for (nor replaces a good one with half of a new one).
    tmp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        try:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                n = dump(gen, f, suffixes=True) if realistic and suffix == ".pbn" else dump(gen, f)
            os.replace(tmp, output)
        except BaseException:
            with contextlib.suppress(OSError):  # refused as the writing was: that refusal is the news
                tmp.unlink(missing_ok=True)
            raise
        finally:
            bar.close()
    except OSError as e:
        typer.echo(f"handrec: cannot write {_printable(str(output))}: {_printable(str(e.strerror or e))}", err=True)
        raise typer.Exit(2) from None
    if quiet:
        return
    # boards: the games written, as validate, convert and export will count them
    deals = f" ({boards} deal{'s' if boards != 1 else ''} x {tables} tables)" if tables > 1 else ""
    typer.echo(f"{n} boards{deals} -> {_printable(str(output))}", err=True)
