"""PBN supplemental tables land in convert's output: one `tables` row per element, keyed to its board."""

from __future__ import annotations

from pathlib import Path

from handrec.dataset.query import run
from handrec.formats.dispatch import read
from handrec.runs.convert import convert


def test_optimum_result_tables_in_parquet(corpus_dir: Path, tmp_path: Path) -> None:
    src = corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"
    convert([src], tmp_path / "ds", jobs=1)
    _, rows = run(
        tmp_path / "ds",
        "select table_name, count(distinct board_id), count(distinct row), count(*) from tables group by all",
    )
    assert rows == [("OptimumResultTable", 36, 20, 36 * 20 * 3)]
    # the elements of board 1's table are the file's, column by column
    b = next(iter(read(src)))
    (t,) = [t for t in b.tables if t.name == "OptimumResultTable"]
    _, got = run(
        tmp_path / "ds",
        'select row, "column", value from tables t join boards b using (board_id) where b.board = 1 order by row, "column"',
    )
    want = sorted((r, c.name, v) for r, row in enumerate(t.rows) for c, v in zip(t.columns, row))
    assert got == want
