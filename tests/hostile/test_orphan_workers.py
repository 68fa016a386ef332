"""No orphan workers (issue #22.3): when the parent of ``--jobs 2`` dies without clean-up (kill -9,
as the OOM killer does), its pool workers end within seconds instead of running on for good."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")


def _children(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    one = root / "g0.pbn"
    r = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "generate", "-n", "1500", "--seed", "5", "-o", str(one)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    for i in range(1, 12):
        shutil.copy(one, root / f"g{i}.pbn")
    return root


@pytest.mark.parametrize("command", ["convert", "validate", "convert-dask"])
def test_workers_end_when_the_parent_is_killed(folder: Path, tmp_path: Path, command: str) -> None:
    if command == "convert-dask":
        pytest.importorskip("distributed", reason="the Dask engine needs handrec[dask]")
    args = [sys.executable, "-m", "handrec.cli", command.split("-")[0], str(folder), "--jobs", "2"]
    if command.startswith("convert"):
        args += ["-o", str(tmp_path / "out")]
    if command == "convert-dask":  # a LocalCluster of two worker processes started by handrec
        args += ["--engine", "dask"]
    # About 10 MB in all: over validate's POOL_BYTES, so both commands use the pool.
    parent = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2 and parent.poll() is None:
            workers = _children(parent.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the pool's workers never started"
        time.sleep(0.3)  # the workers are inside their tasks
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers still running after their parent was killed: {left}"
