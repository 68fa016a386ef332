"""``handrec query``: SQL over a converted dataset through DuckDB."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from handrec.cli.app import (
    PlainWriter,
    RowFormat,
    _cannot,
    _plain,
    _printable,
    app,
    terminal_columns,
)

_OPTION_LIKE = re.compile(r"--?[A-Za-z][\w-]*(?:=\S*)?")
#: The narrowest a column of a table may be (its border and a few characters): past it, records
#: are shown one a block.
_MIN_COLUMN = 6


# Unknown options reach ``args``: SQL that starts with a ``--`` comment is SQL, not an option;
# an argument that looks like an option and nothing else is refused in the command (_OPTION_LIKE).
@app.command(context_settings={"ignore_unknown_options": True})
def query(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[DIR] [SQL]",
            help="A dataset folder written by 'handrec convert' (optional with --db), then SQL over the tables "
            "boards, calls, plays, diagnostics, supplemental, files and the views travellers, rankings. "
            "Without SQL: the tables and views with their columns.",
            show_default=False,
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
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

    handrec query DIR SQL reads the Parquet files; handrec query DIR SQL
    --db FILE.duckdb first copies them into FILE (only when it is missing
    or older than the dataset), then handrec query --db FILE.duckdb SQL
    answers from FILE alone.  The SQL can read or write no other file
    unless --allow-external.  SQL that starts with a -- comment is read as
    SQL; so is everything after a lone --: handrec query DIR -- "SQL".
    SQL of several statements runs them in order and prints the rows of
    each that returns rows (SELECT, SHOW, DESCRIBE...), one table after
    another; --format csv and json take one such statement.
    handrec query DIR (or --db FILE) without SQL lists the tables and
    views with their columns and types.
    """
    from handrec.dataset.query import (
        QueryError,
        list_columns,
        materialise,
        run_statements,
        statements_with_rows,
        write_csv,
    )

    args = args or []
    unknown = [a for a in args if _OPTION_LIKE.fullmatch(a)]
    if unknown:
        typer.echo(
            f"handrec: no such option: {unknown[0]} (SQL starting with - goes after --: "
            'handrec query DIR -- "SQL"; see handrec query --help)',
            err=True,
        )
        raise typer.Exit(2)
    if len(args) > 2 or (not args and db is None):
        typer.echo("handrec: usage: handrec query DIR [SQL] [--db FILE] | handrec query --db FILE [SQL]", err=True)
        raise typer.Exit(2)
    dataset: Path | None
    sql: str | None
    if len(args) == 2:
        dataset, sql = Path(args[0]), args[1]
    elif args and db is None:
        dataset, sql = Path(args[0]), None  # a folder alone: what it holds
    else:
        dataset, sql = None, args[0] if args else None
    try:
        try:
            if db is not None and dataset is not None and materialise(dataset, db):
                typer.echo(f"handrec: {_printable(str(dataset))} -> {_printable(str(db))}", err=True)
        except OSError as e:  # --db in a folder that cannot be entered or written
            raise _cannot("write", db, e) from None
        if sql is None:
            results = [list_columns(None if db is not None else dataset, db=db)]
        else:
            # CSV and JSON hold one result set: refused before any statement runs.
            if format is not RowFormat.table and (n := statements_with_rows(sql)) > 1:
                typer.echo(
                    f"handrec: the SQL has {n} statements that return rows; --format {format.value} prints one "
                    "(run them one at a time, or print them as tables)",
                    err=True,
                )
                raise typer.Exit(2)
            results = run_statements(None if db is not None else dataset, sql, allow_external=allow_external, db=db)
    except QueryError as e:
        typer.echo(f"handrec: {_plain(str(e))}", err=True)  # DuckDB's message has lines (the SQL, a caret)
        raise typer.Exit(2) from None
    except OSError as e:  # the dataset (or --db) in a folder that cannot be entered
        raise _cannot("read", db if dataset is None else dataset, e) from None
    # Values are data: control characters are escaped and nothing is read as rich markup.
    if format is RowFormat.csv:
        for cols, rows in results:
            write_csv(PlainWriter(sys.stdout), cols, rows)
    elif format is RowFormat.json:
        out = PlainWriter(sys.stdout, json=True)
        import json  # here: the other formats need none, and every command's start imports this module

        for cols, rows in results:
            json.dump([dict(zip(cols, r)) for r in rows], out, default=str, ensure_ascii=False)
            out.write("\n")
    else:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        for i, (cols, rows) in enumerate(results):
            # a terminal's own width; elsewhere (a pipe, a file) the same layout whatever runs it
            width = terminal_columns() or max(80, min(200, 20 * len(cols)))
            console = Console(file=sys.stdout, width=width, markup=False, highlight=False, emoji=False)
            if i:
                console.print()  # one blank line between the result sets of several statements
            if len(cols) * _MIN_COLUMN > width:
                # too many columns to show side by side (select * from boards: 69): a record a
                # block, a line a column, as psql's expanded display (every value shown, folded)
                for n, r in enumerate(rows, 1):
                    t = Table(show_edge=False, show_header=False, title=f"record {n}", title_justify="left")
                    t.add_column(overflow="fold", no_wrap=False, max_width=max(8, width // 3))
                    t.add_column(overflow="fold")
                    for c, v in zip(cols, r):
                        t.add_row(Text(_printable(c)), Text("" if v is None else _printable(str(v))))
                    console.print(t)
                if not rows:
                    console.print(Text(", ".join(_printable(c) for c in cols) + ": no rows"))
                continue
            t = Table(show_edge=False)
            for c in cols:
                t.add_column(Text(_printable(c)), overflow="fold")  # a value is wrapped, never cut
            for r in rows:
                t.add_row(*(Text("" if v is None else _printable(str(v))) for v in r))
            console.print(t)
