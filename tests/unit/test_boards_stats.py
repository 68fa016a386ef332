"""Issue #19.5: the everyday-statistics columns of ``boards`` and the file's own figures, typed."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from handrec.dataset.query import QueryError, run
from handrec.runs.convert import convert

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
STATS = (
    "contract, declarer, result, level, strain, doubled, made, overtricks, undertricks, is_result, "
    "hcp_ns, hcp_ew, score_ns, file_score_ns"
)


@pytest.fixture(scope="module")
def sample_ds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds")
    convert([str(SAMPLE / "club_pairs.pbn"), str(SAMPLE / "bbo_hands.lin")], out)
    return out


def _rows(ds: Path, sql: str) -> list[tuple]:
    return run(ds, sql)[1]


def test_sample_boards_statistics(sample_ds: Path) -> None:
    rows = _rows(
        sample_ds,
        f"SELECT source_file, board, {STATS} FROM boards WHERE board IN (2, 3, 8) ORDER BY source_file, board",
    )
    by = {(Path(r[0]).name, r[1]): r[2:] for r in rows}
    assert by["bbo_hands.lin", 2] == ("2H", "E", 9, 2, "H", "", True, 1, 0, True, 16, 24, -140, None)
    assert by["bbo_hands.lin", 3] == ("3NT", "W", 9, 3, "NT", "", True, 0, 0, True, 12, 28, -600, None)
    # the file's own Score (470) beside handrec's (2SX made with two overtricks: 670)
    assert by["club_pairs.pbn", 3] == ("2SX", "S", 10, 2, "S", "X", True, 2, 0, True, 25, 15, 670, 470)
    assert by["club_pairs.pbn", 2] == ("2NT", "S", 5, 2, "NT", "", False, 0, 3, True, 26, 14, -300, -300)
    assert by["club_pairs.pbn", 8] == ("4H", "N", 9, 4, "H", "", False, 0, 1, True, 32, 8, -50, -50)


_PBN = """[Event "Claims"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[Declarer "N"]
[Contract "7NTXX"]
[Result "13"]
[Score "EW -2280"]
[ScoreMP "NS 3.5 EW 0.5"]
[ScoreIMP "4.25"]
[ScorePercentage "EW 12.5"]
[OptimumScore "EW -2220"]
[ParContract "NS 7NT="]
[DoubleDummyTricks "dddddddddd0000000000"]
[Auction "N"]
2NT Pass 7NT X
XX Pass Pass Pass

[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[Score "NS x"]
[ScoreMP "?"]
[OptimumScore "NS 10 EW 10"]
[ParContract "4S"]
[DoubleDummyTricks "zz"]

[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[Contract "Pass"]
[Auction "S"]
Pass Pass Pass Pass
"""


def test_file_figures_and_hand_records(tmp_path: Path) -> None:
    f = tmp_path / "claims.pbn"
    f.write_text(_PBN, encoding="utf-8")
    convert([str(f)], tmp_path / "ds")
    cols = (
        "board, level, strain, doubled, made, overtricks, undertricks, is_result, hcp_ns, hcp_ew, score_ns, "
        "file_score_ns, file_mp_ns, file_mp_ew, file_imp_ns, file_imp_ew, file_pct_ns, file_pct_ew, "
        "file_par_score_ns, file_par_contracts, file_dd_tricks"
    )
    rows = _rows(tmp_path / "ds", f"SELECT {cols} FROM boards ORDER BY board")
    assert rows == [
        # 7NTXX made: the bare ScoreIMP is declarer's side's (N-S); each side only as written
        (
            1,
            7,
            "NT",
            "XX",
            True,
            0,
            0,
            True,
            37,
            3,
            2280,
            2280,
            3.5,
            0.5,
            4.25,
            None,
            None,
            12.5,
            2220,
            "NS 7NT=",
            "dddddddddd0000000000",
        ),
        # a hand record: no contract; tags out of their PBN form give null, never a guess
        (
            2,
            None,
            None,
            None,
            None,
            None,
            None,
            False,
            37,
            3,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        ),
        # passed out: a result (0 to both sides), no contract columns
        (
            3,
            None,
            None,
            None,
            None,
            None,
            None,
            True,
            37,
            3,
            0,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        ),
    ]


def test_boards_types(sample_ds: Path) -> None:
    schema = pq.read_schema(sample_ds / "boards.parquet")
    assert {n: str(schema.field(n).type) for n in ("level", "made", "hcp_ns", "file_mp_ns", "file_score_ns")} == {
        "level": "int8",
        "made": "bool",
        "hcp_ns": "int16",
        "file_mp_ns": "double",
        "file_score_ns": "int32",
    }


def test_query_refuses_an_older_dataset(tmp_path: Path, sample_ds: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    for f in sample_ds.glob("*.parquet"):
        t = pq.read_table(f)
        meta = {**(t.schema.metadata or {}), b"handrec.schema_version": b"6"}
        pq.write_table(t.replace_schema_metadata(meta), old / f.name)
    with pytest.raises(QueryError) as e:
        run(old, "SELECT 1")
    assert str(e.value) == (
        f"{old}: a dataset of schema version 6, this handrec reads version 7: "
        "run 'handrec convert' again on its inputs to rewrite it"
    )
    assert "\n" not in str(e.value)


def test_query_command_refuses_an_older_dataset_in_one_line(tmp_path: Path, sample_ds: Path) -> None:
    import os
    import subprocess
    import sys

    old = tmp_path / "old"
    old.mkdir()
    for f in sample_ds.glob("*.parquet"):
        t = pq.read_table(f)
        pq.write_table(
            t.replace_schema_metadata({**(t.schema.metadata or {}), b"handrec.schema_version": b"5"}), old / f.name
        )
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "query", str(old), "select count(*) from boards"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert p.stdout == ""
    assert p.stderr.splitlines() == [
        f"handrec: {old}: a dataset of schema version 5, this handrec reads version 7: "
        "run 'handrec convert' again on its inputs to rewrite it"
    ]
    assert p.returncode == 2
