"""What a dataset holds, for people: its tables and views, each column's SQL type and description.

:func:`describe` answers ``handrec schema [DIR]`` and writes the column lists of docs/sql.md.  The
descriptions are where the columns are defined: the Arrow field metadata of
:data:`handrec.dataset.tables.SCHEMAS` (written into every Parquet file) and the view dictionaries
of :mod:`handrec.dataset.query`.  The SQL types are DuckDB's, as ``handrec query`` sees them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from handrec.dataset import query
from handrec.dataset.tables import SCHEMAS, description

__all__ = ["Column", "Relation", "describe"]


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, its SQL type (DuckDB's: ``BIGINT``, ``VARCHAR``...) and its description."""

    name: str
    sql_type: str
    description: str


@dataclass(frozen=True, slots=True)
class Relation:
    """A table (a Parquet file of the dataset) or a view (SQL over the tables), with its columns in order."""

    name: str
    kind: str  # "table" or "view"
    columns: tuple[Column, ...]


def _columns(con: duckdb.DuckDBPyConnection, name: str, descriptions: dict[str, str]) -> tuple[Column, ...]:
    rows = con.execute(f'DESCRIBE SELECT * FROM "{name}"').fetchall()  # DESCRIBE tables is a statement of its own
    return tuple(Column(r[0], r[1], descriptions.get(r[0], "")) for r in rows)


def describe(dataset: str | os.PathLike[str] | None = None) -> list[Relation]:
    """The tables, then the views, of the dataset in the folder ``dataset`` (without it: of the
    schema this handrec writes), each with its columns.

    A column's description is the one its Parquet file carries, else this handrec's for that
    name (a dataset written before the descriptions were), else ``""``.

    :raises handrec.dataset.query.QueryError: as :func:`handrec.dataset.query.connect`, for a
        folder that holds no dataset, or one mixing conversions.
    """
    known = {name: {f.name: description(f) for f in schema} for name, schema in SCHEMAS.items()}
    if dataset is None:
        con = duckdb.connect(":memory:")
        query._functions(con)
        for name, schema in SCHEMAS.items():
            con.register(name, pa.table({f.name: pa.array([], f.type) for f in schema}, schema=schema))
        con.execute(query._TRAVELLERS)
        con.execute(query._RANKINGS)
        for view in query._DD_VIEWS:
            con.execute(view)
        tables = list(SCHEMAS)
    else:
        con = query.connect(dataset)
        files = query._check_dataset(Path(dataset).resolve(), dataset)
        tables = list(files)
        for name, f in files.items():
            written = {fl.name: description(fl) for fl in pq.read_schema(f)}
            known[name] = {**known.get(name, {}), **{k: v for k, v in written.items() if v}}
    try:
        out = [Relation(name, "table", _columns(con, name, known.get(name, {}))) for name in tables]
        out += [Relation(name, "view", _columns(con, name, cols)) for name, cols in query.VIEWS.items()]
    finally:
        con.close()
    return out
