"""The Parquet dataset: deterministic whatever --jobs, incremental, resumable, every input accounted for."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec import __version__
from handrec.cli import app
from handrec.dataset.store import WORK_DIR
from handrec.dataset.tables import SCHEMA_VERSION, SCHEMAS
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert

TABLES = ("boards", "calls", "plays", "diagnostics", "supplemental", "files")


def _write(path: Path, n: int, seed: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    s = io.StringIO()
    (pbn_dump if path.suffix == ".pbn" else lin_dump)(generate_boards(n, seed), s)
    path.write_text(s.getvalue(), encoding="utf-8", newline="")
    return path


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """Eight small PBN/LIN files in two folders, a zip and a file with faults."""
    root = tmp_path / "in"
    for i in range(6):
        _write(root / f"d{i % 2}" / f"f{i}.{'pbn' if i % 3 else 'lin'}", 8 + i, seed=i)
    with zipfile.ZipFile(root / "more.zip", "w") as z:
        z.writestr("z/a.pbn", (root / "d1" / "f1.pbn").read_bytes())
        z.writestr("z/b.lin", (root / "d0" / "f0.lin").read_bytes())
    bad = (root / "d1" / "f1.pbn").read_text().replace('[Score "', '[Score "1', 1)  # S602
    (root / "faulty.pbn").write_text(bad, newline="")
    return root


def _read(out: Path) -> dict[str, pa.Table]:
    return {t: pq.read_table(out / f"{t}.parquet") for t in TABLES}


def _same(a: dict[str, pa.Table], b: dict[str, pa.Table], *, files: bool = True) -> None:
    for t in TABLES if files else TABLES[:-1]:
        assert a[t].equals(b[t]), t


def test_jobs_1_and_2_write_identical_tables(inputs: Path, tmp_path: Path) -> None:
    s1 = convert([inputs], tmp_path / "j1", jobs=1, task_bytes=2000, batch_boards=5)
    s2 = convert([inputs], tmp_path / "j2", jobs=2, task_bytes=2000, batch_boards=5)
    a, b = _read(tmp_path / "j1"), _read(tmp_path / "j2")
    _same(a, b)
    assert s1.boards == s2.boards == a["boards"].num_rows == 8 + 9 + 10 + 11 + 12 + 13 + 9 + 8 + 9
    assert a["boards"].column("board_id").to_pylist() == list(range(s1.boards))
    assert (s1.errors, s1.files) == (s2.errors, s2.files) == (1, 9)


def test_dataset_layout(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    convert([inputs], out, jobs=1, row_group_rows=1000)
    assert sorted(p.name for p in out.iterdir()) == [f"{t}.parquet" for t in sorted(SCHEMAS)]  # deals, leads: empty
    plays = pq.ParquetFile(out / "plays.parquet")
    md = plays.metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)][:-1] == [1000] * (md.num_row_groups - 1)
    assert md.num_row_groups > 3
    col = md.row_group(0).column(plays.schema_arrow.get_field_index("source_file"))
    assert col.compression == "ZSTD"
    assert "RLE_DICTIONARY" in col.encodings
    meta = plays.schema_arrow.metadata
    assert meta[b"handrec.schema_version"] == SCHEMA_VERSION.encode()
    assert meta[b"handrec.version"] == __version__.encode()
    assert len({pq.read_schema(out / f"{t}.parquet").metadata[b"handrec.run"] for t in TABLES}) == 1


def test_statistics_are_written_for_the_columns_a_query_filters_on(inputs: Path, tmp_path: Path) -> None:
    """Row-group min/max for numbers and the filter strings (DuckDB skips row groups by them),
    none for a deal, an auction, a name or a card (they prune nothing and cost the write)."""
    out = tmp_path / "ds"
    convert([inputs], out, jobs=1, row_group_rows=1000)
    boards = pq.ParquetFile(out / "boards.parquet")
    rg = boards.metadata.row_group(0)
    idx = boards.schema_arrow.get_field_index

    def stats(name: str) -> pq.Statistics | None:
        s = rg.column(idx(name)).statistics
        return s if s is not None and s.has_min_max else None

    assert stats("board_id").min == 0
    assert stats("source_file") is not None and stats("contract") is not None and stats("score_ns") is not None
    assert stats("deal") is None and stats("auction") is None and stats("north") is None
    plays = pq.ParquetFile(out / "plays.parquet")
    prg = plays.metadata.row_group(0)
    pidx = plays.schema_arrow.get_field_index
    assert prg.column(pidx("trick")).statistics.min == 1
    assert not (s := prg.column(pidx("card")).statistics) or not s.has_min_max


def test_every_input_is_accounted_for(inputs: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    with zipfile.ZipFile(tmp_path / "evil.zip", "w") as z:
        z.writestr("../x.pbn", '[Board "1"]\n')
    out = tmp_path / "ds"
    paths = [inputs, tmp_path / "notes.txt", tmp_path / "missing.pbn", tmp_path / "evil.zip"]
    s = convert(paths, out, jobs=2, task_bytes=3000)
    t = _read(out)
    files = t["files"].to_pylist()
    assert [(f["source_file"].removeprefix(str(tmp_path) + "/"), f["status"]) for f in files][-3:] == [
        ("notes.txt", "unreadable"),
        ("missing.pbn", "unreadable"),
        ("evil.zip!../x.pbn", "skipped"),
    ]
    assert (s.files, s.unreadable, s.skipped) == (9, 2, 1)
    assert all(f["boards"] == f["boards_written"] for f in files)
    assert sum(f["boards"] for f in files) == t["boards"].num_rows
    errors = t["diagnostics"].filter(pa.compute.equal(t["diagnostics"]["severity"], "error")).num_rows
    assert sum(f["errors"] for f in files) == errors
    assert set(t["diagnostics"].column("source_file").to_pylist()) <= {f["source_file"] for f in files}
    ok = [f for f in files if f["status"] == "ok"]
    assert all(len(f["sha256"]) == 64 and f["bytes"] > 0 for f in ok)


def test_converting_twice_reuses_unchanged_inputs(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    first = convert([inputs], out, jobs=1)
    before = _read(out)
    again = convert([inputs], out, jobs=2)
    after = _read(out)
    _same(before, after, files=False)
    assert after["files"].column("status").to_pylist() == ["unchanged"] * 9
    assert after["files"].drop_columns(["status"]).equals(before["files"].drop_columns(["status"]))
    assert (again.unchanged, again.files, again.boards, again.errors) == (9, 9, first.boards, first.errors)
    assert not (out / WORK_DIR).exists()


def test_incremental_equals_a_fresh_conversion(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    convert([inputs], out, jobs=1, row_group_rows=100)
    _write(inputs / "d0" / "f2.pbn", 20, seed=99)  # changed
    (inputs / "d1" / "f3.lin").unlink()  # gone
    _write(inputs / "d0" / "new.lin", 3, seed=5)  # added
    s = convert([inputs], out, jobs=2, row_group_rows=100)
    fresh = tmp_path / "fresh"
    convert([inputs], fresh, jobs=1, row_group_rows=100)
    a, b = _read(out), _read(fresh)
    _same(a, b, files=False)
    status = dict(zip(a["files"]["source_file"].to_pylist(), a["files"]["status"].to_pylist()))
    assert status[str(inputs / "d0" / "f2.pbn")] == status[str(inputs / "d0" / "new.lin")] == "ok"
    assert s.unchanged == 7 and list(status.values()).count("unchanged") == 7
    # --force reads everything again
    s = convert([inputs], out, jobs=1, force=True, row_group_rows=100)
    assert s.unchanged == 0
    _same(_read(out), b)


class Interrupt(Exception):
    pass


def _interrupt_after(n: int):
    def hook(committed: int) -> None:
        if committed == n:
            raise Interrupt

    return hook


def test_resume_after_an_interruption(inputs: Path, tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    convert([inputs], clean, jobs=1, task_bytes=1)
    out = tmp_path / "ds"
    with pytest.raises(Interrupt):
        convert([inputs], out, jobs=2, task_bytes=1, on_commit=_interrupt_after(4))
    assert not (out / "boards.parquet").exists()  # nothing partial is visible
    assert len((out / WORK_DIR / "manifest.jsonl").read_text().splitlines()) == 5  # header + 4 tasks
    s = convert([inputs], out, jobs=2, task_bytes=1, resume=True)
    assert (s.resumed, s.unchanged) == (4, 0)
    _same(_read(out), _read(clean))
    assert not (out / WORK_DIR).exists()


def test_an_interrupted_update_keeps_the_old_dataset(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    convert([inputs], out, jobs=1)
    before = _read(out)
    _write(inputs / "d0" / "f0.lin", 4, seed=42)
    with pytest.raises(Interrupt):
        convert([inputs], out, jobs=1, task_bytes=1, on_commit=_interrupt_after(2))
    _same(_read(out), before)  # the old tables are untouched until the new ones are complete
    s = convert([inputs], out, jobs=1)  # no --resume: the leftover work is discarded
    assert s.discarded_work
    assert s.unchanged == 8
    assert _read(out)["boards"].num_rows == before["boards"].num_rows - 8 + 4


_KILLED_RUN = """
import sys, time
from pathlib import Path
from handrec.runs.convert import convert

def hook(n):
    if n == 3:
        Path(sys.argv[3]).write_text("3 tasks committed")
        time.sleep(60)

convert([sys.argv[1]], sys.argv[2], jobs=1, task_bytes=1, on_commit=hook)
"""


def test_resume_after_sigkill(inputs: Path, tmp_path: Path) -> None:
    out, marker = tmp_path / "ds", tmp_path / "marker"
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(inputs), str(out), str(marker)])
    try:
        deadline = time.monotonic() + 30
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), "the conversion did not reach its third task"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert not (out / "boards.parquet").exists()
    r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--resume", "--jobs", "2"])
    assert r.exit_code == 0, r.output
    assert "3 resumed" in r.output
    clean = tmp_path / "clean"
    convert([inputs], clean, jobs=1)
    _same(_read(out), _read(clean))
    ids = _read(out)["boards"].column("board_id").to_pylist()
    assert ids == list(range(len(ids)))


# --- stopping early: --max-errors / --fail-fast -------------------------------------------


@pytest.fixture
def faulty(tmp_path: Path) -> Path:
    """Six inputs in order a0..a5; a1, a3 and a4 each hold one error (S602), the others none."""
    root = tmp_path / "faulty"
    for i in range(6):
        p = _write(root / f"a{i}.pbn", 5 + i, seed=10 + i)
        if i in (1, 3, 4):
            p.write_text(p.read_text().replace('[Score "', '[Score "1', 1), newline="")
    return root


def _status(out: Path) -> list[tuple[str, str, int]]:
    return [(Path(f["source_file"]).name, f["status"], f["boards"]) for f in _read(out)["files"].to_pylist()]


@pytest.mark.parametrize("jobs", [1, 2])
def test_max_errors_stops_after_the_nth_error_in_input_order(faulty: Path, tmp_path: Path, jobs: int) -> None:
    out = tmp_path / "ds"
    s = convert([faulty], out, jobs=jobs, task_bytes=1, max_errors=2)
    assert s.stopped and (s.errors, s.files, s.not_read) == (2, 4, 2)
    assert _status(out) == [
        ("a0.pbn", "ok", 5),
        ("a1.pbn", "ok", 6),
        ("a2.pbn", "ok", 7),
        ("a3.pbn", "ok", 8),
        ("a4.pbn", "not_read", 0),
        ("a5.pbn", "not_read", 0),
    ]
    t = _read(out)
    assert t["boards"].num_rows == 5 + 6 + 7 + 8 == s.boards
    assert t["boards"].column("board_id").to_pylist() == list(range(26))
    assert t["diagnostics"].column("code").to_pylist() == ["S602", "S602"]
    # the same dataset as converting the inputs read, whatever --jobs
    ref = tmp_path / "ref"
    convert(sorted(faulty.glob("a[0-3].pbn")), ref, jobs=1)
    for name in ("boards", "calls", "plays", "diagnostics"):
        assert t[name].equals(_read(ref)[name]), name


def test_max_errors_not_reached_changes_nothing(faulty: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    s = convert([faulty], a, jobs=2, max_errors=3)  # the third error is in the last input with one
    assert s.stopped and s.not_read == 1
    s = convert([faulty], b, jobs=2, max_errors=4)
    assert not s.stopped and s.not_read == 0 and s.errors == 3
    with pytest.raises(ValueError):
        convert([faulty], tmp_path / "c", max_errors=0)


def test_cli_fail_fast_and_max_errors(faulty: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["convert", str(faulty), "-o", str(tmp_path / "ff"), "--fail-fast", "-j", "2"])
    assert r.exit_code == 1, r.output
    assert "handrec: stopped after 1 error (--fail-fast); 4 inputs not read (status not_read in the files table)" in (
        r.stderr
    )
    assert [s for _, s, _ in _status(tmp_path / "ff")] == ["ok", "ok"] + ["not_read"] * 4
    r = runner.invoke(app, ["convert", str(faulty), "-o", str(tmp_path / "m2"), "--max-errors", "2"])
    assert r.exit_code == 1
    assert "stopped after 2 errors (--max-errors 2); 2 inputs not read" in r.stderr
    r = runner.invoke(app, ["convert", str(faulty), "-o", str(tmp_path / "m9"), "--max-errors", "9"])
    assert r.exit_code == 0 and "stopped" not in r.stderr
    r = runner.invoke(app, ["convert", str(faulty), "-o", str(tmp_path / "m0"), "--max-errors", "0"])
    assert r.exit_code == 2


# --- special files, claimed figures -----------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_a_folder_is_skipped_not_unreadable(inputs: Path, tmp_path: Path) -> None:
    os.mkfifo(inputs / "d0" / "pipe.pbn")
    out = tmp_path / "ds"
    s = convert([inputs], out, jobs=2)
    assert (s.skipped, s.unreadable) == (1, 0)
    rows = {Path(f["source_file"]).name: f for f in _read(out)["files"].to_pylist()}
    assert rows["pipe.pbn"]["status"] == "skipped"
    assert rows["pipe.pbn"]["warnings"] == 1
    diag = _read(out)["diagnostics"].filter(pa.compute.equal(_read(out)["diagnostics"]["code"], "F014"))
    assert diag.num_rows == 1 and diag.column("board_id").to_pylist() == [None]
    r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(tmp_path / "cli"), "-q"])
    assert r.exit_code == 0, r.output  # skipped by policy, as validate does: not an unreadable input
    assert "F014" in r.stderr


DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _pairs(claims: dict[tuple[int, int], str]) -> str:
    """Two boards at three tables; ``claims[(board, table)]``: extra tags of that game."""
    games = []
    for board in (1, 2):
        for table, (ns, ew, result) in enumerate((("A", "B", 10), ("C", "D", 9), ("E", "F", 11))):
            games.append(
                f'[Event "Club pairs"]\n[Board "{board}"]\n[North "{ns}1"]\n[South "{ns}2"]\n'
                f'[East "{ew}1"]\n[West "{ew}2"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
                f'[Contract "4S"]\n[Declarer "N"]\n[Result "{result - board + 1}"]\n' + claims.get((board, table), "")
            )
    return "\n".join(games)


def test_claimed_figures_are_checked_as_validate_does(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    # board 2, table C (the fifth game, board_id 4): -100 beats nobody, so NS 0 and 0 %
    (src / "pairs.pbn").write_text(
        _pairs({(2, 1): '[ScoreMP "NS 5"]\n[ScorePercentage "NS 50"]\n', (1, 0): '[ScoreMP "NS 2"]\n'}),
        encoding="utf-8",
    )
    _write(src / "plain.pbn", 4, seed=3)
    out = tmp_path / "ds"
    s = convert([src], out, jobs=1)
    d = _read(out)["diagnostics"].to_pylist()
    got = [(x["code"], x["board_id"], x["line"], x["message"]) for x in d if x["code"].startswith("S6")]
    assert [(c, b) for c, b, _, _ in got] == [("S603", 4), ("S605", 4)]
    v = CliRunner().invoke(app, ["validate", str(src / "pairs.pbn"), "--format", "json"])
    expected = [(x["code"], x["line"], x["message"]) for x in json.loads(v.stdout)["diagnostics"]]
    assert [(c, line, m) for c, _, line, m in got] == [e for e in expected if e[0].startswith("S6")]
    files = {Path(f["source_file"]).name: f for f in _read(out)["files"].to_pylist()}
    errors = sum(x["severity"] == "error" for x in d)
    assert files["pairs.pbn"]["errors"] == errors == s.errors
    assert errors == json.loads(v.stdout)["errors"]
    assert files["plain.pbn"]["errors"] == 0
    boards = _read(out)["boards"].to_pylist()
    assert boards[4]["board"] == 2 and boards[4]["north"] == "C1"


def test_pair_playing_a_board_twice_is_reported_as_validate_does(tmp_path: Path) -> None:
    """S612 with no claimed figure in the input: convert checks it as validate does."""
    src = tmp_path / "twice.pbn"
    src.write_text(_pairs({}).replace('[North "C1"]\n[South "C2"]', '[North "A1"]\n[South "A2"]'))
    out = tmp_path / "ds"
    s = convert([src], out, jobs=1)
    d = _read(out)["diagnostics"].to_pylist()
    got = [(x["code"], x["board_id"], x["line"], x["message"]) for x in d if x["code"].startswith("S6")]
    assert [(c, b) for c, b, _, _ in got] == [("S612", 1), ("S612", 4)]  # board 2 says Dealer N: T103
    assert got[0][3] == "N-S pair A1 - A2 plays board 1 a second time (also at line 1)"
    v = CliRunner().invoke(app, ["validate", str(src), "--format", "json"])
    assert [(c, line, m) for c, _, line, m in got] == [
        (x["code"], x["line"], x["message"]) for x in json.loads(v.stdout)["diagnostics"] if x["code"] == "S612"
    ]
    assert s.warnings == json.loads(v.stdout)["warnings"] == 2 + 3 + 3  # S612 twice; T103, T104 on board 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_event_checks_past_the_memory_bound_are_made_as_validate_makes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """An input longer than the records kept in memory is still checked whole, as validate
    checks it (its records spilled to disk: handrec.events.spill), claims or not (issue #22.5:
    convert once skipped the checks past 20,000 boards, and S612 without a word)."""
    import handrec.events.checks as checks
    import handrec.runs.convert as run

    monkeypatch.setattr(checks, "SPILL_RECORDS", 2)  # every input here spills
    # the limits convert had (gone: these are no-ops now), at which it stopped checking
    monkeypatch.setattr(run, "CHECK_BOARDS", 2, raising=False)
    monkeypatch.setattr(run, "CHECK_BOARDS_WITH_CLAIMS", 3, raising=False)
    src = tmp_path / "in"
    src.mkdir()
    (src / "pairs.pbn").write_text(_pairs({(2, 1): '[ScoreMP "NS 5"]\n'}), encoding="utf-8")
    (src / "twice.pbn").write_text(_pairs({}).replace('[North "C1"]\n[South "C2"]', '[North "A1"]\n[South "A2"]'))
    out = tmp_path / "ds"
    convert([src], out, jobs=jobs)
    d = [x for x in _read(out)["diagnostics"].to_pylist() if x["code"].startswith("S6")]
    got = [(Path(x["source_file"]).name, x["code"], x["line"], x["message"]) for x in d]
    assert [(f, c) for f, c, _, _ in got] == [("pairs.pbn", "S603"), ("twice.pbn", "S612"), ("twice.pbn", "S612")]
    v = CliRunner().invoke(app, ["validate", str(src), "--format", "json", "--jobs", "1"])
    expected = [
        (Path(x["path"]).name, x["code"], x["line"], x["message"])
        for x in json.loads(v.stdout)["diagnostics"]
        if x["code"].startswith("S6")
    ]
    assert got == expected


# --- a folder holding Parquet files handrec did not write -------------------------------------------


def test_convert_refuses_to_overwrite_parquet_files_it_did_not_write(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "theirs"
    out.mkdir()
    foreign = pa.table({"x": [1, 2, 3]})
    pq.write_table(foreign, out / "boards.parquet")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="boards.parquet"):
        convert([inputs], out, jobs=1)
    assert pq.read_table(out / "boards.parquet").equals(foreign)
    assert sorted(p.name for p in out.iterdir()) == ["boards.parquet", "notes.txt"]  # nothing written
    r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 2
    assert r.stderr == (
        f"handrec: cannot write {out}: {out / 'boards.parquet'} was not written by handrec convert "
        "(no handrec metadata): not overwritten, even with --force or --replace; move it away, or convert "
        "into another folder\n"
    )
    assert pq.read_table(out / "boards.parquet").equals(foreign)


def test_convert_refuses_a_file_that_is_not_parquet_under_a_table_name(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "files.parquet").write_text("not parquet")
    r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 2
    assert r.stderr == (
        f"handrec: cannot write {out}: {out / 'files.parquet'} cannot be read as Parquet (damaged?), so nothing "
        "shows handrec wrote it: not overwritten, even with --force or --replace; delete it and convert again, "
        "or convert into another folder\n"
    )
    assert (out / "files.parquet").read_text() == "not parquet"


def test_a_damaged_table_of_a_dataset_is_named_with_the_way_out(inputs: Path, tmp_path: Path) -> None:
    # a boards.parquet cut short (a full disk, a copy stopped): handrec cannot tell it wrote it, so
    # it never deletes it, not even with --replace; the message says what to do, and doing it works
    out = tmp_path / "ds"
    assert CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--jobs", "1", "-q"]).exit_code == 0
    boards = out / "boards.parquet"
    boards.write_bytes(boards.read_bytes()[:100])
    for extra in ([], ["--force"], ["--replace"]):
        r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--jobs", "1", *extra])
        assert (r.exit_code, r.stderr) == (
            2,
            f"handrec: cannot write {out}: {boards} cannot be read as Parquet (damaged?), so nothing shows "
            "handrec wrote it: not overwritten, even with --force or --replace; delete it and convert again, "
            "or convert into another folder\n",
        )
        assert len(boards.read_bytes()) == 100
    boards.unlink()
    r = CliRunner().invoke(app, ["convert", str(inputs), "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.stderr
    assert pq.read_table(boards).num_rows == sum(pq.read_table(out / "files.parquet").column("boards").to_pylist()) > 0


def test_convert_writes_into_an_empty_folder_a_handrec_dataset_or_beside_other_files(
    inputs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    out.mkdir()
    (out / "other.parquet").write_bytes(b"not a table name: left alone")
    assert convert([inputs], out, jobs=1).boards > 0
    assert convert([inputs], out, jobs=1, force=True).boards > 0  # converting again into a handrec dataset
    assert (out / "other.parquet").read_bytes() == b"not a table name: left alone"


def test_a_bug_while_analysing_a_board_is_f015_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure of handrec itself on one board (not an input fault) ends that input's reading with
    F015, as validate reports it: the boards before it are kept, the other inputs are read."""
    import handrec.runs.convert_parts as run  # the loop every task runs (whole inputs, and parts of one)

    src = tmp_path / "in"
    src.mkdir()
    for name, seed in (("a.pbn", 1), ("b.pbn", 2)):
        s = io.StringIO()
        pbn_dump(generate_boards(5, seed=seed), s)
        (src / name).write_text(s.getvalue(), encoding="utf-8")
    real = run.analyse

    def analyse(board):  # type: ignore[no-untyped-def]
        if board.origin.path.endswith("a.pbn") and board.origin.index == 2:
            raise RuntimeError("boom")
        return real(board)

    monkeypatch.setattr(run, "analyse", analyse)
    summary = convert([src], tmp_path / "ds", jobs=1)
    files = pq.read_table(tmp_path / "ds" / "files.parquet").to_pylist()
    got = {Path(f["source_file"]).name: (f["status"], f["boards"], f["boards_written"]) for f in files}
    assert got == {"a.pbn": ("unreadable", 3, 2), "b.pbn": ("ok", 5, 5)}
    diags = pq.read_table(tmp_path / "ds" / "diagnostics.parquet").to_pylist()
    f015 = [d for d in diags if d["code"] == "F015"]
    assert (
        len(f015) == 1 and Path(f015[0]["source_file"]).name == "a.pbn" and "RuntimeError: boom" in f015[0]["message"]
    )
    assert pq.read_table(tmp_path / "ds" / "boards.parquet").num_rows == 7
    assert summary.errors >= 1
    # a.pbn in parts of about 500 bytes (issue #23.1): the parts after the one that failed are dropped
    convert([src], tmp_path / "parts", jobs=2, part_bytes=500)
    for t in ("boards", "calls", "plays", "diagnostics", "files"):
        assert pq.read_table(tmp_path / "parts" / f"{t}.parquet").equals(
            pq.read_table(tmp_path / "ds" / f"{t}.parquet")
        ), t
