"""``handrec query --db``: a DuckDB file holding the dataset's tables, answering as the Parquet files do."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.query import QueryError, connect_db, materialise, run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
runner = CliRunner()

#: Queries whose answers must be the same from the Parquet files and from the database file.
QUERIES = [
    "select board_id, source_file, board, contract, declarer, result, score_ns, format from boards order by board_id",
    "select contract, count(*) n, sum(score_ns) s from boards group by all order by all",
    "select * from travellers order by board_id",
    "select * from rankings order by all",
    "select code, count(*) from diagnostics group by all order by all",
    "select * from files order by source_file",
    "select count(*), sum(trick), min(card) from plays",
    "select board_id, bridge_score(contract, declarer, vulnerable, result) s from boards order by board_id",
]


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _pairs_event() -> str:
    """A pairs event: two boards, each played at three tables with different results."""
    games = []
    for board in (1, 2):
        for ns, ew, result in (("A", "B", 10), ("C", "D", 9), ("E", "F", 11)):
            games.append(
                f'[Event "Club pairs"]\n[Board "{board}"]\n[North "{ns}1"]\n[South "{ns}2"]\n'
                f'[East "{ew}1"]\n[West "{ew}2"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
                f'[Contract "4S"]\n[Declarer "N"]\n[Result "{result - board + 1}"]\n'
            )
    return "\n".join(games)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("in")
    shutil.copytree(SAMPLE, root / "sample")
    (root / "pairs.pbn").write_text(_pairs_event(), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory, inputs: Path) -> Path:
    out = tmp_path_factory.mktemp("ds")
    r = cli("convert", inputs, "-o", out, "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("sql", QUERIES)
def test_db_answers_as_the_parquet_files(dataset: Path, tmp_path: Path, sql: str) -> None:
    db = tmp_path / "h.duckdb"
    expected = run(dataset, sql)
    assert expected[1], "the sample data should give rows"
    assert run(dataset, sql, db=db) == expected  # builds the file
    assert run(None, sql, db=db) == expected  # the file alone


def test_real_values_through_the_cli(dataset: Path, tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    sql = "select count(*) boards, sum(score_ns) total from boards"
    r = cli("query", dataset, sql, "--db", db, "-f", "csv")
    assert r.exit_code == 0, r.output
    rows = pq.read_table(dataset / "boards.parquet", columns=["score_ns"]).column(0).to_pylist()
    expected = f"{len(rows)},{sum(v for v in rows if v is not None)}"
    assert r.stdout.splitlines() == ["boards,total", expected]
    assert f"-> {db}" in r.stderr
    r = cli("query", "--db", db, sql, "-f", "csv")  # no DIR: the file alone
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["boards,total", expected]
    assert r.stderr == ""


def test_built_once_then_rebuilt_when_the_dataset_changes(dataset: Path, inputs: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    shutil.copytree(dataset, ds)
    db = tmp_path / "h.duckdb"
    assert materialise(ds, db) is True
    assert materialise(ds, db) is False  # same dataset: the file is reused as it is
    before = run(None, "select count(*) from boards", db=db)[1][0][0]
    # convert again into the same folder with one input fewer: a new run id
    fewer = tmp_path / "in"
    shutil.copytree(inputs, fewer)
    (fewer / "pairs.pbn").unlink()
    r = cli("convert", fewer, "-o", ds, "-j", "1", "-q", "--replace")  # other paths: the old ones dropped
    assert r.exit_code == 0, r.output
    assert materialise(ds, db) is True
    after = run(None, "select count(*) from boards", db=db)[1][0][0]
    assert after == run(ds, "select count(*) from boards")[1][0][0] == before - 6
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_db_is_locked_down(dataset: Path, tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    materialise(dataset, db)
    target = tmp_path / "stolen.csv"
    for sql in (
        f"copy (select * from boards) to '{target}'",
        "select * from read_csv('/etc/passwd')",
        f"attach '{tmp_path / 'other.duckdb'}'",
        "install httpfs",
        "set enable_external_access=true",
        "drop table boards",
        "create table x as select 1",
    ):
        r = cli("query", "--db", db, sql)
        assert r.exit_code == 2, sql
        assert r.stdout == ""
    assert not target.exists()
    assert not (tmp_path / "other.duckdb").exists()
    r = cli("query", dataset, f"copy (select 1) to '{target}'", "--db", db)
    assert r.exit_code == 2
    assert not target.exists()
    # the file is unchanged: still answers, still has every table
    assert run(None, "select count(*) from files", db=db)[1][0][0] > 0


def test_allow_external_lifts_it(dataset: Path, tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    materialise(dataset, db)
    target = tmp_path / "out.csv"
    r = cli(
        "query", "--db", db, f"copy (select board_id from boards order by 1 limit 2) to '{target}'", "--allow-external"
    )
    assert r.exit_code == 0, r.output
    assert target.read_text().splitlines() == ["board_id", "0", "1"]


def test_refuses_to_overwrite_another_database(dataset: Path, tmp_path: Path) -> None:
    db = tmp_path / "mine.duckdb"
    con = duckdb.connect(str(db))
    con.execute("create table precious as select 42 v")
    con.close()
    r = cli("query", dataset, "select 1", "--db", db)
    assert r.exit_code == 2
    assert "not a handrec query database" in r.stderr
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("select v from precious").fetchall() == [(42,)]
    con.close()
    text = tmp_path / "notes.duckdb"
    text.write_text("hello")
    r = cli("query", dataset, "select 1", "--db", text)
    assert r.exit_code == 2
    assert text.read_text() == "hello"


def test_usage_errors(dataset: Path, tmp_path: Path) -> None:
    r = cli("query", "select 1")  # no DIR and no --db
    assert r.exit_code == 2
    r = cli("query", "--db", tmp_path / "missing.duckdb", "select 1")
    assert r.exit_code == 2
    assert "no such database" in r.stderr
    with pytest.raises(QueryError):
        connect_db(tmp_path / "missing.duckdb")


def _mix_runs(src: Path, dst: Path, tmp_path: Path) -> None:
    """``dst``: the dataset ``src`` with its ``files`` table from another conversion (a kill between renames)."""
    shutil.copytree(src, dst)
    other = tmp_path / "other"
    r = cli("convert", SAMPLE, "-o", other, "-j", "1", "-q")
    assert r.exit_code == 0
    os.replace(other / "files.parquet", dst / "files.parquet")


def test_query_refuses_tables_from_two_runs(dataset: Path, inputs: Path, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    _mix_runs(dataset, mixed, tmp_path)
    r = cli("query", mixed, "select count(*) from boards")
    assert r.exit_code == 2
    assert "different conversions" in r.stderr
    assert "files from run" in r.stderr
    assert "handrec convert" in r.stderr
    r = cli("query", mixed, "select 1", "--db", tmp_path / "m.duckdb")
    assert r.exit_code == 2
    assert "different conversions" in r.stderr
    assert not (tmp_path / "m.duckdb").exists()
    # converting again mends it, and query answers again
    r = cli("convert", inputs, "-o", mixed, "-j", "1", "-q", "--replace")
    assert r.exit_code == 0
    assert cli("query", mixed, "select count(*) from boards").exit_code == 0


def test_dir_without_sql_lists_tables_views_and_columns(dataset: Path, tmp_path: Path) -> None:
    """Issue #19 point 7: ``handrec query DIR`` alone lists the tables and views with their columns
    (name, DuckDB type), the same from the Parquet files as from a ``--db`` file."""
    from handrec.dataset.tables import SCHEMAS

    r = cli("query", dataset, "-f", "csv")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "table,kind,column,type"
    rows = [line.split(",", 3) for line in lines[1:]]
    files = [row for row in rows if row[0] == "files"]
    assert files == [
        ["files", "table", "source_file", "VARCHAR"],
        ["files", "table", "format", "VARCHAR"],
        ["files", "table", "boards", "INTEGER"],
        ["files", "table", "errors", "INTEGER"],
        ["files", "table", "warnings", "INTEGER"],
        ["files", "table", "boards_written", "INTEGER"],
        ["files", "table", "status", "VARCHAR"],
        ["files", "table", "sha256", "VARCHAR"],
        ["files", "table", "bytes", "BIGINT"],
    ]
    tables = {row[0] for row in rows if row[1] == "table"}
    assert tables == set(SCHEMAS)  # every Parquet table, with its columns in order
    for name in SCHEMAS:
        assert [row[2] for row in rows if row[0] == name] == SCHEMAS[name].names
    views = {row[0] for row in rows if row[1] == "view"}
    assert {"travellers", "rankings"} <= views and not views & tables
    # in the order of handrec schema: the tables, then the views
    schema = [line.split(" (")[0] for line in cli("schema", dataset).stdout.splitlines() if line[:1].isalpha()]
    assert list(dict.fromkeys(row[0] for row in rows)) == schema
    db = tmp_path / "h.duckdb"
    materialise(dataset, db)
    from_db = cli("query", "--db", db, "-f", "csv")
    assert from_db.exit_code == 0, from_db.output
    assert from_db.stdout == r.stdout  # handrec_meta is not listed
    text = cli("query", dataset)
    assert text.stdout.splitlines()[0].split() == ["table", "┃", "kind", "┃", "column", "┃", "type"]
    assert cli("query").exit_code == 2  # neither DIR nor --db


def test_several_statements_print_every_result_set(dataset: Path) -> None:
    # New-user trial: "select 1; select 2" printed the last result alone.
    n = run(dataset, "select count(*) from boards")[1][0][0]
    r = cli("query", dataset, "select 7 as a; create temp view v as select count(*) as n from boards; select * from v")
    assert r.exit_code == 0, r.output
    assert [line.strip() for line in r.stdout.splitlines()] == ["a", "━━━", "7", "", "n", "━━━━", str(n)]
    r = cli("query", dataset, "create temp view v as select 2 as b; select * from v", "-f", "json")
    assert (r.exit_code, r.stdout) == (0, '[{"b": 2}]\n')


def test_csv_and_json_take_one_result_set(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.csv"
    for fmt in ("csv", "json"):
        r = cli("query", dataset, f"select 1; copy (select 1) to '{out}'; select 2", "-f", fmt, "--allow-external")
        assert r.exit_code == 2
        assert r.stdout == ""
        assert r.stderr == (
            f"handrec: the SQL has 2 statements that return rows; --format {fmt} prints one "
            "(run them one at a time, or print them as tables)\n"
        )
    assert not out.exists()  # refused before any statement ran


def test_run_wants_one_result_set(dataset: Path, tmp_path: Path) -> None:
    with pytest.raises(QueryError, match="the SQL gives 2 result sets, not one"):
        run(dataset, "select 1; select 2")
    out = tmp_path / "x.csv"
    with pytest.raises(QueryError, match="the SQL gives 2 result sets, not one"):
        run(dataset, f"select 1; copy (select 1) to '{out}'; select 2", allow_external=True)
    assert not out.exists()  # refused before any statement ran
    assert run(dataset, "create temp view v as select 3 as c; select * from v") == (["c"], [(3,)])
