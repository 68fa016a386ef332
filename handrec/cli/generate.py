"""``handrec generate``: random boards with legal auctions and play, for tests and benchmarks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    _printable,
    app,
)


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
) -> None:
    """Write random, fully legal boards (deal, auction, play, result, score) as PBN or LIN.

    With --tables T each board is played at T tables, one game per table
    (N-S pair N1-S1 v E-W pair E1-W1 at table 1...), so the file has
    travellers to score (handrec score -m mp) and results pages to print.
    """
    from handrec.generate import generate_boards

    suffix = output.suffix.lower()
    if suffix not in (".pbn", ".lin"):
        typer.echo("handrec: --output must end in .pbn or .lin", err=True)
        raise typer.Exit(2)
    gen = generate_boards(boards * tables, seed, path=str(output), tables=tables, event=event)
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
                n = dump(gen, f)
            os.replace(tmp, output)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as e:
        typer.echo(f"handrec: cannot write {_printable(str(output))}: {_printable(str(e.strerror or e))}", err=True)
        raise typer.Exit(2) from None
    # boards: the games written, as validate, convert and export will count them
    deals = f" ({boards} deal{'s' if boards != 1 else ''} x {tables} tables)" if tables > 1 else ""
    typer.echo(f"{n} boards{deals} -> {_printable(str(output))}", err=True)
