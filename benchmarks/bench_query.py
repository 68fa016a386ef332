"""GROUP BY over a million boards: the Parquet dataset (``handrec query DIR``) against the ``--db`` file.

Run (one command; the first run builds and caches the dataset, about a minute):

    python benchmarks/bench_query.py                   # 1,000,000 boards
    python benchmarks/bench_query.py --boards 100000   # quicker

**The dataset.**  Generating and parsing a million PBN boards would take
most of ten minutes (``benchmarks/bench_convert.py`` measures that path),
so the tables are built directly: ``--base`` games of a generated pairs
event (:func:`handrec.generate.generate_boards` with ``tables=10``: each
deal played at ten tables, each with its own auction, play and result) go
through :func:`handrec.rules.validator.analyse` and
:class:`handrec.dataset.tables.TableBuffers` -- the code ``convert`` runs per board
-- and are then repeated as sessions (event ``Session k``, ``source_file``
``session-k.pbn``, ``board_id`` renumbered) up to ``--boards`` boards, and
written with the writer and layout of ``handrec convert`` (zstd, row groups
of :data:`handrec.dataset.store.ROW_GROUP_ROWS` rows, dictionary-encoded strings,
column statistics, one run id).  It is cached under ``--cache`` (default
``$TMPDIR/handrec-bench-query/<boards>-<base>``) and reused by later runs.

**The timings.**  Each query runs on (a) :func:`handrec.dataset.query.connect`,
the in-memory DuckDB with views over the Parquet files (what ``handrec
query DIR SQL`` does), and (b) :func:`handrec.dataset.query.connect_db` over a file
written by :func:`handrec.dataset.query.materialise` (``handrec query --db
FILE``); best of ``--repeat`` runs after one warm-up, connection already
open.  The baseline, measured in the same run, is pyarrow reading the
three ``boards`` columns the first GROUP BY needs (``contract``,
``score_ns``, ``result``) from the same file; ``x base`` is a query's time
over it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from handrec.dataset.merge import _TableWriter
from handrec.dataset.query import connect, connect_db, materialise
from handrec.dataset.store import DICTIONARY_COLUMNS, ROW_GROUP_ROWS, ROW_TABLES
from handrec.dataset.tables import SCHEMAS, TableBuffers, metadata
from handrec.generate import generate_boards
from handrec.rules.validator import analyse

QUERIES: dict[str, str] = {
    "per contract level and strain": """
        SELECT substr(contract, 1, 1) AS level, regexp_extract(contract, '^[1-7](NT|S|H|D|C)', 1) AS strain,
               count(*) AS boards, round(avg(score_ns), 6) AS avg_score,
               round(avg(result), 6) AS avg_tricks
        FROM boards WHERE contract <> 'Pass' GROUP BY ALL ORDER BY ALL""",
    "per declarer and vulnerability": """
        SELECT declarer, vulnerable, count(*) AS boards, round(avg(score_ns), 6) AS avg_score,
               round(avg(result), 6) AS avg_tricks, count(*) FILTER (WHERE contract LIKE '%X%') AS doubled
        FROM boards GROUP BY ALL ORDER BY ALL""",
    "travellers: matchpoints per board": """
        SELECT event, board, count(*) AS tables, round(avg(score_ns), 6) AS avg_score, max(mp_ns) AS top_mp,
               round(avg(pct_ns), 6) AS avg_pct
        FROM travellers GROUP BY ALL ORDER BY avg_pct DESC, event, board LIMIT 10""",
    "rankings: top 3 pairs per session": """
        SELECT event, direction, pair, pct FROM rankings WHERE rank <= 3 ORDER BY event, direction, rank, pair
        LIMIT 10""",
}


def build(out: Path, boards: int, base: int, seed: int = 11) -> None:
    """Write a dataset of ``boards`` boards to ``out`` (see the module doc)."""
    buf = TableBuffers()
    for b in generate_boards(base, seed, path="session-0.pbn", event="Session 0", tables=10):
        buf.add(analyse(b))
    tables = {t: pa.Table.from_batches([buf.take(t)]) for t in ROW_TABLES}
    meta = {**metadata(), b"handrec.run": b"bench"}
    copies = -(-boards // base)
    out.mkdir(parents=True, exist_ok=True)
    for t, tab in tables.items():
        schema = SCHEMAS[t].with_metadata(meta)
        path = out / f".{t}.parquet.tmp"
        w = _TableWriter(path, t, schema, ROW_GROUP_ROWS, DICTIONARY_COLUMNS[t])
        try:
            for k in range(copies):
                n_boards = min(base, boards - k * base)
                part = tab if n_boards == base else tab.filter(pc.less(tab["board_id"], n_boards))
                n = part.num_rows
                if not n:
                    continue
                part = part.set_column(
                    part.schema.get_field_index("source_file"), "source_file", pa.array([f"session-{k}.pbn"] * n)
                )
                if "event" in part.column_names:
                    part = part.set_column(
                        part.schema.get_field_index("event"), "event", pa.array([f"Session {k}"] * n)
                    )
                i = part.schema.get_field_index("board_id")
                part = part.set_column(i, "board_id", pc.add(part["board_id"], pa.scalar(k * base, pa.int64())))
                w.write(part)
        finally:
            w.close()
    files = TableBuffers()
    for k in range(copies):
        n_boards = min(base, boards - k * base)
        files.add_file(f"session-{k}.pbn", "pbn", n_boards, 0, 0)
    w = _TableWriter(
        out / ".files.parquet.tmp", "files", SCHEMAS["files"].with_metadata(meta), ROW_GROUP_ROWS, ["format"]
    )
    w.write(files.take("files"))
    w.close()
    for t in SCHEMAS:
        os.replace(out / f".{t}.parquet.tmp", out / f"{t}.parquet")


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    result = fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def size_mib(*paths: Path) -> float:
    return sum(p.stat().st_size for p in paths) / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1_000_000, help="boards in the dataset")
    ap.add_argument("--base", type=int, default=20_000, help="generated games, repeated as sessions")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per query (best is shown)")
    ap.add_argument("--cache", type=Path, help="dataset folder (default: under the temporary directory)")
    args = ap.parse_args()
    ds = args.cache or Path(tempfile.gettempdir()) / "handrec-bench-query" / f"{args.boards}-{args.base}"
    t0 = time.perf_counter()
    if not (ds / "files.parquet").is_file():
        build(ds, args.boards, args.base)
        print(f"built {ds} in {time.perf_counter() - t0:.1f} s")
    else:
        print(f"using the cached dataset {ds}")
    db = ds.parent / f"{ds.name}.duckdb"
    db.unlink(missing_ok=True)
    t0 = time.perf_counter()
    materialise(ds, db)
    t_db = time.perf_counter() - t0
    parquet = sorted(ds.glob("*.parquet"))
    boards = pq.ParquetFile(ds / "boards.parquet").metadata
    print(
        f"{boards.num_rows:,} boards, {boards.num_row_groups} row groups; Parquet {size_mib(*parquet):.0f} MiB "
        f"(boards {size_mib(ds / 'boards.parquet'):.0f} MiB); --db file {size_mib(db):.0f} MiB, built in {t_db:.1f} s"
    )
    print(f"{os.cpu_count()} cores; best of {args.repeat} after a warm-up\n")

    base_s, _ = best(
        lambda: pq.read_table(ds / "boards.parquet", columns=["contract", "score_ns", "result"]), args.repeat
    )
    pcon = connect(ds)
    dcon = connect_db(db)
    rows = [("baseline: pyarrow reads 3 boards columns", base_s, None)]
    p_count, _ = best(lambda: pcon.execute("SELECT count(*) FROM boards").fetchall(), args.repeat)
    d_count, _ = best(lambda: dcon.execute("SELECT count(*) FROM boards").fetchall(), args.repeat)
    rows.append(("count(*) FROM boards", p_count, d_count))
    answers = {}
    for label, sql in QUERIES.items():
        p_s, p_rows = best(lambda sql=sql: pcon.execute(sql).fetchall(), args.repeat)
        d_s, d_rows = best(lambda sql=sql: dcon.execute(sql).fetchall(), args.repeat)
        assert p_rows == d_rows, label
        answers[label] = p_rows
        rows.append((label, p_s, d_s))
    pcon.close()
    dcon.close()

    w = max(len(r[0]) for r in rows)
    print(f"{'query':<{w}} {'Parquet s':>9} {'x base':>7} {'--db s':>7} {'x base':>7}")
    for label, p_s, d_s in rows:
        d = f"{d_s:>7.3f} {d_s / base_s:>7.2f}" if d_s is not None else f"{'':>7} {'':>7}"
        print(f"{label:<{w}} {p_s:>9.3f} {p_s / base_s:>7.2f} {d}")
    print()
    first = answers["per contract level and strain"]
    print("per contract level and strain (first rows): level, strain, boards, avg score, avg tricks")
    for r in first[:5]:
        print(f"  {r[0]} {r[1]:<2} {r[2]:>8,} {r[3]:>8.1f} {r[4]:>6.2f}")


if __name__ == "__main__":
    main()
