"""The Parquet dataset: deterministic whatever --jobs, incremental, resumable, every input accounted for."""

from __future__ import annotations

import io
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
from handrec.arrow import SCHEMA_VERSION
from handrec.cli import app
from handrec.generate import generate_boards
from handrec.lin import dump as lin_dump
from handrec.pbn import dump as pbn_dump
from handrec.store import WORK_DIR, convert

TABLES = ("boards", "calls", "plays", "diagnostics", "tables", "files")


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
    assert sorted(p.name for p in out.iterdir()) == [f"{t}.parquet" for t in sorted(TABLES)]
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
from handrec.store import convert

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
