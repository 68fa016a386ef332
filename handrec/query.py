"""SQL over a converted dataset with DuckDB.

:func:`connect` opens an in-memory DuckDB database with one view per
Parquet table of the dataset (``boards``, ``calls``, ``plays``,
``diagnostics``, ``files``), registers handrec's scoring functions, and then
locks the connection down: the tables are scanned through pyarrow, so
DuckDB is given no file access at all (external access disabled): a query
can neither read other files nor write anywhere, the dataset folder
included (``COPY ... TO``, ``read_csv('/etc/passwd')``, ``INSTALL``,
``ATTACH`` fail with a permission error).  Pass ``allow_external=True`` to
lift that.
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
        if c.is_end_position or declarer is None or tricks is None:
            return None
        c = Contract(c.level, c.strain, c.doubling, Seat.parse(declarer))
        return score_ns(c, Vulnerability.parse(vulnerable), int(tricks))
    except (ModelError, ValueError):
        return None


def _imps(diff: float | None) -> int | None:
    return None if diff is None else imps(diff)


#: One row per scored game with its board's comparison: matchpoints on the 1/0.5 scale
#: (``mp_ns``, top = tables - 1) and the 2/1 scale (``mp2_ns``), percentages, and
#: Butler-style IMPs against the board's average (``imps_vs_avg_ns``).  A board is the
#: same deal under the same event and board number (bridge-rules.md §8.3).
_TRAVELLERS = """
CREATE VIEW travellers AS
WITH scored AS (
    SELECT *, coalesce(event, '') || '|' || coalesce(CAST(board AS VARCHAR), board_label, '') || '|' || deal AS board_key
    FROM boards
    WHERE score_ns IS NOT NULL AND deal IS NOT NULL
), compared AS (
    SELECT *,
        count(*) OVER (PARTITION BY board_key) AS tables,
        rank() OVER (PARTITION BY board_key ORDER BY score_ns) - 1 AS beaten_ns,
        count(*) OVER (PARTITION BY board_key, score_ns) - 1 AS tied_ns,
        avg(score_ns) OVER (PARTITION BY board_key) AS average_ns
    FROM scored
)
SELECT board_id, source_file, event, board, board_key, room, north, east, south, west,
       contract, declarer, result, score_ns, tables,
       beaten_ns + tied_ns / 2.0 AS mp_ns,
       tables - 1 - (beaten_ns + tied_ns / 2.0) AS mp_ew,
       2 * beaten_ns + tied_ns AS mp2_ns,
       2 * (tables - 1) - (2 * beaten_ns + tied_ns) AS mp2_ew,
       CASE WHEN tables > 1 THEN 100.0 * (beaten_ns + tied_ns / 2.0) / (tables - 1) END AS pct_ns,
       CASE WHEN tables > 1 THEN 100.0 - 100.0 * (beaten_ns + tied_ns / 2.0) / (tables - 1) END AS pct_ew,
       imps(score_ns - average_ns) AS imps_vs_avg_ns
FROM compared
"""

#: Session ranking of pairs by matchpoint percentage over the boards they played.
_RANKINGS = """
CREATE VIEW rankings AS
WITH per_pair AS (
    SELECT event, 'NS' AS direction, CASE WHEN north = south THEN north ELSE north || ' - ' || south END AS pair, mp_ns AS mp, tables - 1 AS top
    FROM travellers WHERE north IS NOT NULL AND south IS NOT NULL AND tables > 1
    UNION ALL
    SELECT event, 'EW', CASE WHEN east = west THEN east ELSE east || ' - ' || west END, mp_ew, tables - 1
    FROM travellers WHERE east IS NOT NULL AND west IS NOT NULL AND tables > 1
)
SELECT event, direction, pair, count(*) AS boards, sum(mp) AS mp, sum(top) AS top,
       round(100.0 * sum(mp) / sum(top), 2) AS pct,
       rank() OVER (PARTITION BY event, direction ORDER BY sum(mp) / sum(top) DESC) AS rank
FROM per_pair
GROUP BY event, direction, pair
"""


def connect(dataset: str | os.PathLike[str], *, allow_external: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with views over the dataset in ``dataset``.

    Views: ``boards``, ``calls``, ``plays``, ``diagnostics``, ``files`` (the
    Parquet tables), ``travellers`` (every scored game with matchpoints on
    both scales, percentages and IMPs against the board's average) and
    ``rankings`` (pairs by matchpoint percentage per event and direction).

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
    import pyarrow.dataset as ds

    for name in SCHEMAS:
        f = root / f"{name}.parquet"
        if f.is_file():
            # pyarrow reads the files, so DuckDB itself needs no file access at all
            # (projection and filters are still pushed down into the Arrow scan)
            con.register(name, ds.dataset(str(f), format="parquet"))
    if (root / "boards.parquet").is_file():
        con.execute(_TRAVELLERS)
        con.execute(_RANKINGS)
    if not allow_external:
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
