"""``handrec schema [DIR]``: the tables, views and columns a ``query`` can use, with types and descriptions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import _cannot, _plain, _printable, app


def schema_lines(relations) -> list[str]:
    """The text of ``handrec schema``: per table or view a heading line ``NAME (table)``, then one
    line a column, ``name  TYPE  description``, names and types aligned over the whole listing;
    a blank line between them."""
    width = max(len(c.name) for r in relations for c in r.columns)
    type_width = max(len(c.sql_type) for r in relations for c in r.columns)
    lines: list[str] = []
    for r in relations:
        if lines:
            lines.append("")
        lines.append(f"{r.name} ({r.kind})")
        for c in r.columns:
            lines.append(f"  {c.name:<{width}}  {c.sql_type:<{type_width}}  {c.description}".rstrip())
    return lines


@app.command()
def schema(
    dataset: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR", help="A dataset folder written by 'handrec convert' (default: the schema handrec writes)."
        ),
    ] = None,
) -> None:
    """List the tables and views of a dataset, with each column's SQL type and description.

    Without DIR: the tables and views that this handrec writes and `handrec query` offers.
    A folder that holds no dataset exits 2.
    """
    from handrec.dataset.query import QueryError
    from handrec.dataset.schema import describe

    try:
        relations = describe(dataset)
    except QueryError as e:
        typer.echo(f"handrec: {_printable(str(e))}", err=True)
        raise typer.Exit(2) from None
    except OSError as e:  # a folder that cannot be entered
        raise _cannot("read", dataset, e) from None
    # a dataset's Parquet files are input: their names and descriptions never drive the terminal
    typer.echo(_plain("\n".join(schema_lines(relations))))
