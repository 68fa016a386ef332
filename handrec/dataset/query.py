"""SQL over a converted dataset with DuckDB.

:func:`connect` opens an in-memory DuckDB database with one view per
Parquet table of the dataset (``boards``, ``calls``, ``plays``,
``diagnostics``, ``supplemental``, ``files``; an older dataset's ``tables.parquet`` as
``supplemental``), registers handrec's scoring functions, and then
locks the connection down: the tables are scanned through pyarrow, so
DuckDB is given no file access at all (external access disabled): a query
can neither read other files nor write anywhere, the dataset folder
included (``COPY ... TO``, ``read_csv('/etc/passwd')``, ``INSTALL``,
``ATTACH`` fail with a permission error).  Pass ``allow_external=True`` to
lift that.

:func:`materialise` copies the dataset's tables into a DuckDB database file
(``handrec query DIR SQL --db FILE.duckdb``) for repeated queries: native
DuckDB tables, the ``travellers`` and ``rankings`` views, and a
``handrec_meta`` table recording the dataset it was built from (folder,
convert run id, size and modification time of each Parquet file).  It is
rebuilt -- into a temporary file renamed over the old one -- only when that
record no longer matches the dataset.  :func:`connect_db` opens such a file
read-only, registers the SQL functions (they live in no file) and locks it
down like :func:`connect`.  Both refuse a dataset whose tables come from
different conversions, or with a table missing (a conversion killed between
its final renames).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from handrec import __version__
from handrec.dataset.score_views import RANKINGS_COLUMNS, RANKINGS_SQL, TRAVELLERS_COLUMNS, TRAVELLERS_SQL
from handrec.dataset.tables import RENAMED, SCHEMA_VERSION, SCHEMAS
from handrec.events.travellers import row_score
from handrec.model import ModelError, Vulnerability
from handrec.scoring.imps import imps

_TRAVELLERS = TRAVELLERS_SQL
_RANKINGS = RANKINGS_SQL

__all__ = [
    "connect",
    "connect_db",
    "materialise",
    "dataset_state",
    "run",
    "run_statements",
    "statements_with_rows",
    "list_columns",
    "QueryError",
    "csv_value",
    "write_csv",
]


class QueryError(ValueError):
    """The dataset is missing or the SQL failed; the message says which."""


#: The message of the :class:`QueryError` for SQL that holds no statement.
NO_STATEMENT = "no SQL statement to run (the SQL is empty, or only comments)"


def _bridge_score(contract: str | None, declarer: str | None, vulnerable: str | None, tricks: int | None) -> int | None:
    """SQL ``bridge_score``: :func:`handrec.events.travellers.row_score` with the vulnerability as text."""
    if contract is None or vulnerable is None:
        return None
    try:
        vul = Vulnerability.parse(vulnerable)
    except (ModelError, ValueError):
        return None
    return row_score(contract, declarer or "", None if tricks is None else int(tricks), vul)


def _imps(diff: float | None) -> int | None:
    return None if diff is None else imps(diff)


#: The double-dummy views over ``convert --dd``'s columns (empty without ``--dd``):
#: ``par_reached`` (every scored game with a par: ``at_par`` when North-South's score is the par
#: score, ``vs_par_ns`` the points above it); ``declarer_play`` (every game whose contract has a
#: double-dummy count: declarer's name, the result against double dummy); ``lead_cost`` (each
#: opening lead made, from the ``leads`` table: the leader's name, declarer's tricks after it, the
#: tricks it cost against the best lead, whether it was a best lead); ``dd_outliers`` (the games
#: furthest from double dummy: ``distance`` is the tricks between the result and double dummy).
_DD_VIEWS = (
    """
CREATE VIEW par_reached AS
SELECT board_id, source_file, event, board, deal, vulnerable, contract, declarer, result, score_ns,
       par_score_ns, score_vs_par_ns AS vs_par_ns, score_ns = par_score_ns AS at_par
FROM boards WHERE score_ns IS NOT NULL AND par_score_ns IS NOT NULL
""",
    """
CREATE VIEW declarer_play AS
SELECT board_id, source_file, event, board, contract, declarer,
       CASE declarer WHEN 'N' THEN north WHEN 'E' THEN east WHEN 'S' THEN south WHEN 'W' THEN west END AS declarer_name,
       result, dd_tricks, tricks_vs_dd, cards_played
FROM boards WHERE dd_tricks IS NOT NULL AND result IS NOT NULL
""",
    """
CREATE VIEW lead_cost AS
SELECT l.board_id, b.source_file, b.event, b.board, b.contract, b.declarer,
       CASE b.declarer WHEN 'N' THEN 'E' WHEN 'E' THEN 'S' WHEN 'S' THEN 'W' WHEN 'W' THEN 'N' END AS leader,
       CASE b.declarer WHEN 'N' THEN b.east WHEN 'E' THEN b.south WHEN 'S' THEN b.west WHEN 'W' THEN b.north END
           AS leader_name,
       l.lead, l.dd_tricks, l.cost, l.best, b.result
FROM leads l JOIN boards b USING (board_id) WHERE l.played
""",
    """
CREATE VIEW dd_outliers AS
SELECT board_id, source_file, source_line, event, board, contract, declarer, result, dd_tricks, tricks_vs_dd,
       abs(tricks_vs_dd) AS distance
FROM boards WHERE tricks_vs_dd IS NOT NULL
""",
)


def _check_dataset(root: Path, shown: str | os.PathLike[str]) -> dict[str, Path]:
    """The Parquet tables of the dataset in ``root``; refuses a missing dataset or one mixing runs."""
    if not (root / "boards.parquet").is_file():
        raise QueryError(f"{shown}: no handrec dataset here (boards.parquet missing); run 'handrec convert' first")
    files = {name: root / f"{name}.parquet" for name in SCHEMAS if (root / f"{name}.parquet").is_file()}
    for name, old in RENAMED.items():  # an older dataset: its file of the table under its old name
        if name not in files and (root / f"{old}.parquet").is_file():
            files[name] = root / f"{old}.parquet"
    runs: dict[bytes | None, list[str]] = {}
    versions = set()
    for name, f in files.items():
        try:
            meta = pq.read_schema(f).metadata or {}
        except (OSError, pa.ArrowException) as e:
            raise QueryError(f"{f}: not a readable Parquet file ({e})") from None
        runs.setdefault(meta.get(b"handrec.run"), []).append(name)
        versions.add(meta.get(b"handrec.schema_version"))
    if versions != {SCHEMA_VERSION.encode()}:
        found = ", ".join(sorted(v.decode() if v else "unknown" for v in versions))
        raise QueryError(
            f"{shown}: a dataset of schema version {found}, this handrec reads version {SCHEMA_VERSION}: "
            "run 'handrec convert' again on its inputs to rewrite it"
        )
    missing = [name for name in SCHEMAS if name not in files]
    if missing:
        raise QueryError(
            f"{shown}: incomplete dataset ({', '.join(f'{m}.parquet' for m in missing)} missing), "
            "probably an interrupted 'handrec convert': run it again on the same inputs"
        )
    if len(runs) > 1:
        parts = "; ".join(f"{', '.join(names)} from run {r.decode() if r else 'unknown'}" for r, names in runs.items())
        raise QueryError(
            f"{shown}: the tables come from different conversions ({parts}), "
            "probably an interrupted 'handrec convert': run it again on the same inputs"
        )
    return files


#: What identifies the SQL of the ``travellers`` and ``rankings`` views: a ``--db`` file built
#: with other views (an older grouping of sessions) is rebuilt, or refused without the dataset.
_GAME = {
    "board_id": "The game (boards.board_id).",
    "source_file": "The input it was read from.",
}
#: The columns of the double-dummy views (convert --dd), each with its one-line description.
DD_VIEW_COLUMNS: dict[str, dict[str, str]] = {
    "par_reached": {
        **_GAME,
        "event": "The Event tag.",
        "board": "The board number.",
        "deal": "The deal, North first.",
        "vulnerable": "The vulnerability: None, NS, EW or Both.",
        "contract": "The contract played.",
        "declarer": "The declarer.",
        "result": "Tricks taken by declarer.",
        "score_ns": "North-South's score.",
        "par_score_ns": "The par score for North-South (boards.par_score_ns).",
        "vs_par_ns": "score_ns minus par_score_ns: North-South's points above (+) or below (-) par.",
        "at_par": "Whether the table reached par (score_ns = par_score_ns).",
    },
    "declarer_play": {
        **_GAME,
        "event": "The Event tag.",
        "board": "The board number.",
        "contract": "The contract played.",
        "declarer": "The declarer's seat.",
        "declarer_name": "The declarer's name (the North, East, South or West tag of that seat).",
        "result": "Tricks taken by declarer.",
        "dd_tricks": "Tricks the contract takes double dummy.",
        "tricks_vs_dd": "result minus dd_tricks: declarer's play (and the defence's) against double dummy.",
        "cards_played": "How many cards of the play are given (52: a full play, so no entry mistake).",
    },
    "lead_cost": {
        **_GAME,
        "event": "The Event tag.",
        "board": "The board number.",
        "contract": "The contract played.",
        "declarer": "The declarer's seat.",
        "leader": "The opening leader's seat (declarer's left-hand opponent, Law 41).",
        "leader_name": "The opening leader's name.",
        "lead": "The opening lead made at the table.",
        "dd_tricks": "Tricks declarer takes double dummy after that lead.",
        "cost": "Tricks the lead gave declarer against the best lead (0: a best lead).",
        "best": "Whether it was a best lead.",
        "result": "Tricks taken by declarer at the table.",
    },
    "dd_outliers": {
        **_GAME,
        "source_line": "The line of the input where the game starts.",
        "event": "The Event tag.",
        "board": "The board number.",
        "contract": "The contract played.",
        "declarer": "The declarer.",
        "result": "Tricks taken by declarer.",
        "dd_tricks": "Tricks the contract takes double dummy.",
        "tricks_vs_dd": "result minus dd_tricks.",
        "distance": "abs(tricks_vs_dd): order by it, descending, for the boards furthest from double dummy.",
    },
}

#: The views over the tables, each with its columns' descriptions (in the order the view gives them).
VIEWS: dict[str, dict[str, str]] = {"travellers": TRAVELLERS_COLUMNS, "rankings": RANKINGS_COLUMNS, **DD_VIEW_COLUMNS}


VIEWS_ID = hashlib.sha256((_TRAVELLERS + _RANKINGS + "".join(_DD_VIEWS)).encode()).hexdigest()[:16]


def dataset_state(dataset: str | os.PathLike[str]) -> dict[str, Any]:
    """What identifies a dataset's current contents: folder, run id, versions, size and mtime of
    each table, and the views' SQL (:data:`VIEWS_ID`).

    :raises QueryError: as :func:`connect`.
    """
    root = Path(dataset).resolve()
    files = _check_dataset(root, dataset)
    try:
        meta = pq.read_schema(files["boards"]).metadata or {}
        tables = {}
        for name, f in files.items():
            st = f.stat()
            tables[name] = [st.st_size, st.st_mtime_ns]
    except OSError as e:  # a table removed since _check_dataset saw it
        raise QueryError(
            f"{dataset}: {Path(e.filename or '').name or 'a table'} is gone; run the query again"
        ) from None
    return {
        "dataset": str(root),
        "run": (meta.get(b"handrec.run") or b"").decode() or None,
        "schema_version": (meta.get(b"handrec.schema_version") or b"").decode() or None,
        "handrec_version": __version__,
        "views": VIEWS_ID,
        "tables": tables,
    }


def _functions(con: duckdb.DuckDBPyConnection) -> None:
    from duckdb.sqltypes import BIGINT, DOUBLE, INTEGER, VARCHAR

    con.execute("SET enable_progress_bar=false")  # no bar drawn over the output
    con.create_function(
        "bridge_score", _bridge_score, [VARCHAR, VARCHAR, VARCHAR, BIGINT], INTEGER, null_handling="special"
    )
    con.create_function("imps", _imps, [DOUBLE], INTEGER, null_handling="special")


def _lock(con: duckdb.DuckDBPyConnection, allow_external: bool) -> None:
    if not allow_external:
        # DuckDB lets a locked connection reach its spill folder (default ./.tmp): no spill folder at all
        if con.execute("SELECT current_setting('temp_directory')").fetchone() != ("",):
            con.execute("SET temp_directory=''")
        con.execute("SET enable_external_access=false")
        con.execute("SET lock_configuration=true")


def connect(dataset: str | os.PathLike[str], *, allow_external: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with views over the dataset in ``dataset``.

    Views: ``boards``, ``calls``, ``plays``, ``diagnostics``, ``files`` (the
    Parquet tables), ``travellers`` (every scored game with its session's
    ``method`` as ``handrec score`` gives it, matchpoints on both scales,
    percentages, and IMPs by Butler, cross-IMPs or teams) and ``rankings``
    (each session ranked by its method: pairs by percentage or total IMPs,
    teams by net IMPs; :mod:`handrec.dataset.score_views`).  It refuses a
    dataset of another schema version (run ``handrec convert`` again).

    SQL functions: ``bridge_score(contract, declarer, vulnerable, tricks)``
    gives North-South's duplicate score (contract as in PBN, e.g. ``4SX``;
    vulnerable ``None``/``NS``/``EW``/``Both``; tricks taken by declarer);
    ``imps(difference)`` the signed IMPs of a score difference
    (bridge-rules.md §4, §8.1).

    :raises QueryError: when ``dataset`` holds no ``boards.parquet``, tables of
        another schema version, or tables written by different conversions (an
        interrupted rename).
    """
    root = Path(dataset).resolve()
    files = _check_dataset(root, dataset)
    con = duckdb.connect(":memory:")
    _functions(con)
    import pyarrow.dataset as ds

    for name, f in files.items():
        # pyarrow reads the files, so DuckDB itself needs no file access at all
        # (projection and filters are still pushed down into the Arrow scan)
        try:
            con.register(name, ds.dataset(str(f), format="parquet"))
        except OSError as e:  # removed since _check_dataset saw it (another convert, a user)
            con.close()
            raise QueryError(f"{dataset}: {f.name} is gone ({e.__class__.__name__}); run the query again") from None
    con.execute(_TRAVELLERS)
    con.execute(_RANKINGS)
    for view in _DD_VIEWS:
        con.execute(view)
    _lock(con, allow_external)
    return con


_META = "handrec_meta"


def _db_state(db: Path) -> dict[str, Any] | None:
    """The ``handrec_meta`` record of the database file ``db``; ``None`` when it has none.

    :raises QueryError: when ``db`` is not a DuckDB database.
    """
    try:
        con = duckdb.connect(str(db), read_only=True, config={"enable_external_access": False})
    except duckdb.Error as e:
        raise QueryError(f"{db}: not a DuckDB database ({str(e).strip()})") from None
    try:
        rows = con.execute(f"SELECT value FROM main.{_META} WHERE key = 'state'").fetchall()
    except duckdb.Error:
        return None
    finally:
        con.close()
    return json.loads(rows[0][0]) if rows else None


def materialise(dataset: str | os.PathLike[str], db: str | os.PathLike[str]) -> bool:
    """Copy the dataset's tables into the DuckDB file ``db`` unless it already holds them; ``True`` if (re)built.

    The file gets one table per Parquet table, the ``travellers`` and
    ``rankings`` views and ``handrec_meta`` (:func:`dataset_state` as JSON).
    It is written as ``.NAME.tmp`` beside ``db`` and renamed over it, so a
    reader sees the old file or the new one.  DuckDB has no file access while
    copying (pyarrow reads the Parquet files).

    :raises QueryError: on a missing or mixed dataset, or when ``db`` exists
        but is not a file written by this function (it is never overwritten).
    """
    db = Path(db)
    state = dataset_state(dataset)
    if db.exists():
        old = _db_state(db)
        if old is None:
            raise QueryError(f"{db}: not a handrec query database; refusing to overwrite it")
        if old == state:
            return False
    tmp = db.with_name(f".{db.name}.{os.getpid()}.tmp")
    for f in (tmp, tmp.with_name(tmp.name + ".wal")):
        f.unlink(missing_ok=True)
    import pyarrow.dataset as ds

    try:
        con = duckdb.connect(str(tmp), config={"enable_external_access": False})
        try:
            _functions(con)
            for name, f in _check_dataset(Path(state["dataset"]), dataset).items():
                con.register("handrec_source", ds.dataset(str(f), format="parquet"))
                con.execute(f"CREATE TABLE {name} AS SELECT * FROM handrec_source")
                con.unregister("handrec_source")
            con.execute(_TRAVELLERS)
            con.execute(_RANKINGS)
            for view in _DD_VIEWS:
                con.execute(view)
            con.execute(f"CREATE TABLE {_META} (key VARCHAR PRIMARY KEY, value VARCHAR)")
            con.execute(f"INSERT INTO {_META} VALUES ('state', ?)", [json.dumps(state, sort_keys=True)])
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, db)
    except duckdb.Error as e:
        raise QueryError(f"{db}: cannot write the database ({str(e).strip()})") from None
    finally:
        for f in (tmp, tmp.with_name(tmp.name + ".wal")):
            f.unlink(missing_ok=True)
    return True


def connect_db(db: str | os.PathLike[str], *, allow_external: bool = False) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a database file written by :func:`materialise`, locked down as :func:`connect`.

    :raises QueryError: when ``db`` is missing, is not such a file, or was
        written for another schema version or with other views (:data:`VIEWS_ID`).
    """
    db = Path(db)
    if not db.is_file():
        raise QueryError(f"{db}: no such database; build it with 'handrec query DIR SQL --db {db}'")
    state = _db_state(db)
    if state is None:
        raise QueryError(f"{db}: not a handrec query database (no {_META} table)")
    if state.get("schema_version") != SCHEMA_VERSION:
        raise QueryError(
            f"{db}: written for dataset schema {state.get('schema_version')}, this handrec reads {SCHEMA_VERSION}; "
            f"rebuild it with 'handrec query DIR SQL --db {db}'"
        )
    if state.get("views") != VIEWS_ID:
        raise QueryError(
            f"{db}: its travellers and rankings views are those of another handrec version; "
            f"rebuild it with 'handrec query DIR SQL --db {db}'"
        )
    config = {} if allow_external else {"enable_external_access": False, "temp_directory": ""}
    try:
        con = duckdb.connect(str(db), read_only=True, config=config)
    except duckdb.Error as e:
        raise QueryError(f"{db}: {str(e).strip()}") from None
    _functions(con)
    _lock(con, allow_external)
    return con


#: Statement types whose rows a script of several statements shows; the others (CREATE,
#: INSERT, COPY, SET...) run and show nothing, as DuckDB's own shell does with their status row.
_ROW_STATEMENTS = frozenset(
    getattr(duckdb.StatementType, name)
    for name in ("SELECT", "EXPLAIN", "PRAGMA", "CALL", "MULTI")
    if hasattr(duckdb.StatementType, name)
)


def statements_with_rows(sql: str) -> int:
    """How many result sets ``handrec query`` shows for ``sql``: the number of its statements
    that return rows (SELECT, SHOW, DESCRIBE, EXPLAIN, PRAGMA, CALL...), or 1 for a single
    statement of any kind (its status row, ``Count`` or ``Success``, is its result).

    :raises QueryError: on SQL that DuckDB cannot split into statements (its message).
    """
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as e:
        raise QueryError(str(e).strip()) from None
    if len(statements) == 1:
        return 1
    return sum(st.type in _ROW_STATEMENTS for st in statements)


def run_statements(
    dataset: str | os.PathLike[str] | None,
    sql: str,
    *,
    allow_external: bool = False,
    db: str | os.PathLike[str] | None = None,
) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
    """Run the statements of ``sql`` in order on one connection: the result sets that
    :func:`statements_with_rows` counts, each ``(column names, rows)``, in statement order
    (``create temp view v as ...; select * from v`` gives one, ``select 1; select 2`` two).

    With ``db``: the database file ``db``, first (re)built from ``dataset`` by
    :func:`materialise` when ``dataset`` is given, else used as it is.

    :raises QueryError: on a missing dataset, SQL without a statement (empty, or only
        comments: :data:`NO_STATEMENT`) or any SQL error (the message is DuckDB's; the
        statements before it have run).
    """
    if db is not None:
        if dataset is not None:
            materialise(dataset, db)
        con = connect_db(db, allow_external=allow_external)
    elif dataset is None:
        raise QueryError("a dataset folder or a database file (--db) is needed")
    else:
        con = connect(dataset, allow_external=allow_external)
    try:
        statements = duckdb.extract_statements(sql)
        if not statements:  # empty, blanks, ";", only comments
            raise QueryError(NO_STATEMENT)
        results = []
        for st in statements:
            cur = con.execute(st)
            if len(statements) > 1 and st.type not in _ROW_STATEMENTS:
                continue
            cols = [d[0] for d in cur.description] if cur.description else []
            results.append((cols, cur.fetchall()))
        return results
    except duckdb.PermissionException as e:
        msg = str(e).strip()
        if "disabled by configuration" in msg:  # the lock of _lock: say how to lift it
            msg += "\n(the SQL may read only the dataset's tables: --allow-external lets it reach other files)"
        raise QueryError(msg) from None
    except duckdb.Error as e:
        raise QueryError(str(e).strip()) from None
    finally:
        con.close()


def run(
    dataset: str | os.PathLike[str] | None,
    sql: str,
    *,
    allow_external: bool = False,
    db: str | os.PathLike[str] | None = None,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run SQL over the dataset and return its one result set: ``(column names, rows)``.

    ``sql`` is one statement, or several of which one returns rows (``create temp view v
    as ...; select * from v``); :func:`run_statements` gives every result set.

    :raises QueryError: as :func:`run_statements`, and when the SQL has more than one
        statement that returns rows (before any of it runs) or none.
    """
    if (n := statements_with_rows(sql)) > 1:
        raise QueryError(f"the SQL gives {n} result sets, not one")
    results = run_statements(dataset, sql, allow_external=allow_external, db=db)
    if len(results) != 1:
        raise QueryError(f"the SQL gives {len(results)} result sets, not one")
    return results[0]


def _json_text(value: object) -> str:
    """A value of JSON's types as it is, any other (a date, a decimal, bytes) as its text."""
    return str(value)


def csv_value(value: object) -> object:
    """A query result's value as a CSV cell: a DuckDB STRUCT or MAP (a dict), LIST (a list) or
    ARRAY (a tuple) as JSON text (``{"a":1,"b":[1,2]}``, RFC 8259); inside it a DECIMAL is a
    JSON number when a double holds it exactly, values JSON has no type for (dates, bytes,
    NaN, a long decimal) JSON strings of their text; any other value as it is (the csv
    module writes ``None`` as an empty cell).

    >>> csv_value({"pair": "A - B", "mp": [1, 2.5]}), csv_value([None, True]), csv_value(7)
    ('{"pair":"A - B","mp":[1,2.5]}', '[null,true]', 7)
    """
    if isinstance(value, dict | list | tuple):
        return json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"), default=_json_text)
    return value


def _finite(value: object) -> object:
    """``value`` with every float that is not finite (NaN, infinities) as its text (JSON has
    none), and every decimal a double holds exactly as that number."""
    if isinstance(value, float):
        return value if value - value == 0 else str(value)
    if isinstance(value, Decimal):
        if value.is_finite() and Decimal(repr(float(value))) == value:
            return int(value) if value == value.to_integral_value() and abs(value) < 2**53 else float(value)
        return str(value)
    if isinstance(value, dict):
        return {
            (k if isinstance(k, str) else json.dumps(_finite(k), default=_json_text)): _finite(v)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def write_csv(out: IO[str], cols: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Write a query's result as CSV (``handrec query --format csv``): a header of the column
    names, then one line per row, nested values as JSON text (:func:`csv_value`)."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(cols)
    w.writerows([tuple(csv_value(v) for v in row) for row in rows])


def list_columns(
    dataset: str | os.PathLike[str] | None, *, db: str | os.PathLike[str] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The dataset's tables and views with their columns (``handrec query DIR`` without SQL):
    ``(["table", "kind", "column", "type"], rows)``, one row per column, the Parquet tables
    (kind ``table``) before the views (kind ``view``), in the order of ``handrec schema``
    (:data:`SCHEMAS`, :data:`VIEWS`; any other after them by name), each one's columns in
    order; the type is DuckDB's (``VARCHAR``, ``INTEGER``, ``STRUCT(...)``).  ``dataset``
    and ``db`` as :func:`run` takes them.

    :raises QueryError: as :func:`run`.
    """
    sql = f"""
        SELECT table_name, column_name, data_type, ordinal_position FROM information_schema.columns
        WHERE table_name <> '{_META}'"""
    order = {name: i for i, name in enumerate([*SCHEMAS, *VIEWS])}
    _, rows = run(dataset, sql, db=db)
    rows.sort(key=lambda r: (order.get(r[0], len(order)), r[0], r[3]))
    kind = {name: "table" for name in SCHEMAS}
    return ["table", "kind", "column", "type"], [(t, kind.get(t, "view"), c, ty) for t, c, ty, _ in rows]
