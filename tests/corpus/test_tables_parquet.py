"""PBN supplemental tables land in convert's output: one `supplemental` row per element, keyed to its board."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq

from handrec.dataset.query import run
from handrec.formats.dispatch import read
from handrec.runs.convert import convert

SUMMARY = "select table_name, count(distinct board_id), count(distinct row), count(*) from supplemental group by all"


def test_optimum_result_tables_in_parquet(corpus_dir: Path, tmp_path: Path) -> None:
    src = corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"
    convert([src], tmp_path / "ds", jobs=1)
    _, rows = run(tmp_path / "ds", SUMMARY)
    assert rows == [("OptimumResultTable", 36, 20, 36 * 20 * 3)]
    # the elements of board 1's table are the file's, column by column
    b = next(iter(read(src)))
    (t,) = [t for t in b.tables if t.name == "OptimumResultTable"]
    _, got = run(
        tmp_path / "ds",
        'select row, "column", value from supplemental t join boards b using (board_id) where b.board = 1 '
        'order by row, "column"',
    )
    want = sorted((r, c.name, v) for r, row in enumerate(t.rows) for c, v in zip(t.columns, row))
    assert got == want
    # the name clashes with none of DuckDB's words: DESCRIBE gives the table's columns
    _, cols = run(tmp_path / "ds", "describe supplemental")
    assert [c[:2] for c in cols] == [
        ("board_id", "BIGINT"),
        ("source_file", "VARCHAR"),
        ("table_name", "VARCHAR"),
        ("row", "INTEGER"),
        ("column", "VARCHAR"),
        ("value", "VARCHAR"),
    ]


def test_an_older_datasets_tables_parquet_is_read_as_supplemental(corpus_dir: Path, tmp_path: Path) -> None:
    """Issue #19 point 7: the table was ``tables`` (``tables.parquet``) before.  An older dataset's
    file is read as ``supplemental``; converting into the folder again writes ``supplemental.parquet``
    and removes the old file (only one handrec wrote)."""
    src = corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"
    old = tmp_path / "old"
    convert([src], old, jobs=1)
    (old / "supplemental.parquet").rename(old / "tables.parquet")  # as an older handrec left it
    assert run(old, SUMMARY)[1] == [("OptimumResultTable", 36, 20, 2160)]
    assert run(old, SUMMARY, db=tmp_path / "old.duckdb")[1] == [("OptimumResultTable", 36, 20, 2160)]
    convert([src], old, jobs=1)
    assert not (old / "tables.parquet").exists()
    assert pq.read_table(old / "supplemental.parquet").num_rows == 2160
    # a tables.parquet that handrec did not write is left alone
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(old / "files.parquet", tmp_path / "mine.parquet")
    pq.write_table(pq.read_table(tmp_path / "mine.parquet").replace_schema_metadata({}), other / "tables.parquet")
    convert([src], other, jobs=1)
    assert (other / "tables.parquet").is_file()
    assert run(other, SUMMARY)[1] == [("OptimumResultTable", 36, 20, 2160)]
