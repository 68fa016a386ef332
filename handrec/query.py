"""SQL over a converted dataset with DuckDB.

:func:`connect` opens an in-memory DuckDB database with one view per
Parquet table of the dataset (``boards``, ``calls``, ``plays``,
``diagnostics``, ``files``), registers handrec's scoring functions, and then
locks the connection down: external access is disabled and only the
dataset folder may be read, so a query cannot read or write other files
(``COPY ... TO``, ``read_csv('/etc/passwd')`` fail with a permission
error).  Pass ``allow_external=True`` to lift that.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb

from handrec.arrow import SCHEMAS
from handrec.model import Contract, ModelError, Seat, Vulnerability
from handrec.scoring.duplicate import score_ns
from handrec.scoring.imps import imps

__all__ = ["connect", "run", "QueryError"]


class QueryError(ValueError):
    """The dataset is missing or the SQL failed; the message says which."""


def _bridge_score(contract: str | None, declarer: str | None, vulnerable: str | None, tricks: int | None) -> int | None:
    if contract is None or vulnerable is None:
        return None
    try:
        c = Contract.parse(contract)
        if c.is_passed_out:
            return 0
        if declarer is None or tricks is None:
            return None
        c = Contract(c.level, c.strain, c.doubling, Seat.parse(declarer))
        return score_ns(c, Vulnerability.parse(vulnerable), int(tricks))
    except (ModelError, ValueError):
        return None


def _imps(diff: float | None) -> int | None:
    return None if diff is None else imps(diff)


def connect(dataset: str | os.PathLike[str], *, allow_external: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with views over the dataset in ``dataset``.

    SQL functions: ``bridge_score(contract, declarer, vulnerable, tricks)``
    gives North-South's duplicate score (contract as in PBN, e.g. ``4SX``;
    vulnerable ``None``/``NS``/``EW``/``Both``; tricks taken by declarer);
    ``imps(difference)`` the signed IMPs of a score difference
    (bridge-rules.md §4, §8.1).

    :raises QueryError: when ``dataset`` holds no ``boards.parquet``.
    """
    root = Path(dataset).resolve()
    if not (root / "boards.parquet").is_file():
        raise QueryError(f"{dataset}: no handrec dataset here (boards.parquet missing); run 'handrec convert' first")
    con = duckdb.connect(":memory:")
    from duckdb.sqltypes import BIGINT, DOUBLE, INTEGER, VARCHAR

    con.create_function(
        "bridge_score", _bridge_score, [VARCHAR, VARCHAR, VARCHAR, BIGINT], INTEGER, null_handling="special"
    )
    con.create_function("imps", _imps, [DOUBLE], INTEGER, null_handling="special")
    for name in SCHEMAS:
        f = root / f"{name}.parquet"
        if f.is_file():
            path = str(f).replace("'", "''")
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    if not allow_external:
        root_sql = str(root).replace("'", "''")
        con.execute(f"SET allowed_directories=['{root_sql}']")
        con.execute("SET enable_external_access=false")
        con.execute("SET lock_configuration=true")
    return con


def run(
    dataset: str | os.PathLike[str], sql: str, *, allow_external: bool = False
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one SQL statement over the dataset: ``(column names, rows)``.

    :raises QueryError: on a missing dataset or any SQL error (the message
        is DuckDB's).
    """
    con = connect(dataset, allow_external=allow_external)
    try:
        cur = con.execute(sql)
        cols = [d[0] for d in cur.description] if cur.description else []
        return cols, cur.fetchall()
    except duckdb.Error as e:
        raise QueryError(str(e).strip()) from None
    finally:
        con.close()
