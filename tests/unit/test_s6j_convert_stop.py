"""``handrec convert --max-errors N`` keeps its rule: the dataset holds whole inputs, up to the one that
brings the errors to N (so it may hold more than N errors), and every count adds up."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import handrec.runs.convert as run
from handrec.dataset.store import WORK_DIR
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert


def two_errors_a_game(games: int, seed: int) -> str:
    buf = io.StringIO()
    dump(generate_boards(games, seed=seed), buf)
    t = re.sub(r'^(\[Score "NS -?\d+)', r"\g<1>7", buf.getvalue(), flags=re.M)  # S601
    return re.sub(r'^\[Result "(\d+)"\]', lambda m: f'[Result "{int(m[1]) % 13 + 1}"]', t, flags=re.M)  # C503


@pytest.mark.parametrize("jobs", [1, 2])
def test_convert_max_errors_keeps_whole_inputs_and_the_counts_add_up(tmp_path: Path, jobs: int) -> None:
    root = tmp_path / "in"
    root.mkdir()
    for i in range(3):
        (root / f"f{i}.pbn").write_text(two_errors_a_game(10, seed=20 + i), newline="")
    out = tmp_path / "ds"
    s = convert([root], out, jobs=jobs, task_bytes=1, max_errors=3)
    files = pq.read_table(out / "files.parquet").to_pylist()
    boards = pq.read_table(out / "boards.parquet")
    diags = pq.read_table(out / "diagnostics.parquet").to_pylist()
    assert [(Path(f["source_file"]).name, f["status"], f["boards"]) for f in files] == [
        ("f0.pbn", "ok", 10),
        ("f1.pbn", "not_read", 0),
        ("f2.pbn", "not_read", 0),
    ]
    errors = [d for d in diags if d["severity"] == "error"]
    assert s.stopped and s.errors == files[0]["errors"] == len(errors) > 3  # the whole of f0: 2 a game (or 1)
    assert len(errors) >= 10
    assert {d["code"] for d in errors} <= {"S601", "C503"}
    assert s.boards == boards.num_rows == sum(f["boards"] for f in files) == sum(f["boards_written"] for f in files)
    assert sorted({d["board_id"] for d in errors}) == list(range(10))  # every board read is in boards, with its errors
    assert s.warnings == sum(f["warnings"] for f in files) == len([d for d in diags if d["severity"] == "warning"])


#: How long the slowed-down tasks below wait before reading: far longer than the test allows.
SLOW = 60.0
_REAL_RUN_JOB = run._run_job


def slow_after_the_first(job):
    """``_run_job``, but a minute late for every input after f0.pbn."""
    if any(Path(i.path).name != "f0.pbn" for i in job.inputs):
        time.sleep(SLOW)
    return _REAL_RUN_JOB(job)


def test_convert_stop_does_not_wait_for_the_tasks_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped by the first input's errors, convert interrupts the workers' tasks (their inputs are
    listed not_read) instead of waiting for them."""
    root = tmp_path / "in"
    root.mkdir()
    for i in range(5):
        (root / f"f{i}.pbn").write_text(two_errors_a_game(4, seed=30 + i), newline="")
    monkeypatch.setattr(run, "_run_job", slow_after_the_first)  # before the pool forks: the workers have it
    out = tmp_path / "ds"
    t = time.monotonic()
    s = convert([root], out, jobs=2, task_bytes=1, max_errors=1)
    assert time.monotonic() - t < SLOW / 4
    files = pq.read_table(out / "files.parquet").to_pylist()
    assert [(Path(f["source_file"]).name, f["status"]) for f in files] == [("f0.pbn", "ok")] + [
        (f"f{i}.pbn", "not_read") for i in range(1, 5)
    ]
    assert s.stopped and s.boards == 4 == pq.read_table(out / "boards.parquet").num_rows
    assert not (out / WORK_DIR).exists()
