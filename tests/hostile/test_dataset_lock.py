"""One conversion per dataset folder (issue #22.2): a second convert into a folder another one is
writing refuses at once (exit 2, one line) or waits with --wait; a killed holder frees the folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.lock import DatasetBusy, DatasetLock

runner = CliRunner()
SAMPLE = Path(__file__).parents[2] / "sample_data" / "club_session.pbn"

HOLD = """
import sys, time
from pathlib import Path
from handrec.dataset.lock import DatasetLock
with DatasetLock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _holder(folder: Path, seconds: float) -> subprocess.Popen[str]:
    """A process holding ``folder``'s lock for ``seconds``, started once it holds it."""
    p = subprocess.Popen([sys.executable, "-c", HOLD, str(folder), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None
    with p.stdout:
        assert p.stdout.readline().strip() == "held"
    return p


def test_second_convert_refuses_while_one_writes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = _holder(out, 30)
    try:
        r = runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out)])
        assert r.exit_code == 2
        assert r.stderr == (f"handrec: another convert is writing {out}; run again when it ends, or add --wait\n")
        assert not (out / "boards.parquet").exists()  # nothing written, nothing of the other run's touched
    finally:
        holder.kill()
        holder.wait()


def test_wait_takes_the_folder_when_the_holder_ends(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = _holder(out, 1.5)
    try:
        r = runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out), "--wait", "--quiet"])
    finally:
        holder.wait()
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith(f"handrec: waiting for the other convert into {out}\n")
    assert (out / "boards.parquet").is_file()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = _holder(out, 60)
    os.kill(holder.pid, signal.SIGKILL)  # as the OOM killer would: no clean-up runs
    holder.wait()
    r = runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out), "--quiet"])
    assert r.exit_code == 0, r.output


def test_lock_in_process(tmp_path: Path) -> None:
    with DatasetLock(tmp_path / "d"):
        _holder(tmp_path / "e", 0).wait()  # another folder is free
        p = subprocess.run(
            [sys.executable, "-c", HOLD, str(tmp_path / "d"), "0"], capture_output=True, text=True, timeout=60
        )
        assert p.returncode == 1 and "DatasetBusy: another convert is writing" in p.stderr
    start = time.monotonic()
    with DatasetLock(tmp_path / "d"):  # released: taken again at once
        assert time.monotonic() - start < 5


def test_busy_is_an_os_error(tmp_path: Path) -> None:
    holder = _holder(tmp_path / "d", 30)
    try:
        with pytest.raises(OSError) as e, DatasetLock(tmp_path / "d"):
            pass
        assert isinstance(e.value, DatasetBusy) and e.value.folder == tmp_path / "d"
        assert list((tmp_path / "d").iterdir()) == []  # the lock writes nothing
    finally:
        holder.kill()
        holder.wait()


def test_the_library_takes_the_lock_too(tmp_path: Path) -> None:
    """Issue #22 follow-up: :func:`handrec.runs.convert.convert` itself holds the folder's lock, so a
    library caller cannot write a folder another convert is writing; ``on_wait`` is called once."""
    from handrec.runs.convert import convert

    out = tmp_path / "out"
    holder = _holder(out, 30)
    try:
        with pytest.raises(DatasetBusy):
            convert([SAMPLE], out, jobs=1)
        assert list(out.iterdir()) == []
    finally:
        holder.kill()
        holder.wait()
    holder = _holder(out, 1.5)
    calls = []
    try:
        s = convert([SAMPLE], out, jobs=1, wait=True, on_wait=lambda: calls.append(time.monotonic()))
    finally:
        holder.wait()
    assert len(calls) == 1 and s.boards == 32
    assert (out / "boards.parquet").is_file()


def test_a_forked_child_does_not_hold_the_lock(tmp_path: Path) -> None:
    """The pool's workers are forked while convert holds the lock: they must not keep the folder
    locked once the holder is gone (a kill -9 of the parent, the workers still ending)."""
    out = tmp_path / "d"
    with DatasetLock(out):
        pid = os.fork()
        if pid == 0:  # the child: lives on after the parent let go
            time.sleep(3)
            os._exit(0)
    try:
        with DatasetLock(out):  # free at once, though the child still runs
            pass
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
