"""A stream copied to a temporary file leaves nothing behind, even under SIGKILL (issue #22.4).

An archive or a compressed stream read from standard input or a FIFO is copied to a
temporary file as it comes (:func:`handrec.inputs.entries._stream_entries`).  That file
has no name in the file system once it is open, so a run killed with SIGKILL (no
``atexit``, no ``finally``) leaves no file in the temporary folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pyarrow.parquet as pq

from handrec.runs import parts

from .test_bad_inputs import BASE


def _open_in(pid: int, folder: Path) -> list[str]:
    """The targets of process ``pid``'s open file descriptors that lie in ``folder``."""
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # closed meanwhile
            continue
        if target.startswith(str(folder) + os.sep):
            found.append(target)
    return found


def test_a_zip_on_standard_input_killed_while_read_leaves_no_temporary_file(tmp_path: Path) -> None:
    """``validate -`` is killed (SIGKILL) while its temporary copy of a zip is open; before, it
    left ``handrec-stream-*`` in the temporary folder (removed only at a normal exit)."""
    z = tmp_path / "in.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("a.pbn", BASE)
        zf.writestr("filler.bin", os.urandom(3 << 20))  # stored: the zip is over 3 MiB
    data = z.read_bytes()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(tmp)}
    cmd = [sys.executable, "-m", "handrec.cli", "validate", "-"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        assert proc.stdin is not None
        proc.stdin.write(data[: 2 << 20])  # a slow writer: 2 MiB (two reads of the run), then it waits
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while not (spools := _open_in(proc.pid, tmp)):  # the copy is open: the run reads into it
            assert proc.poll() is None and time.monotonic() < deadline, "no temporary copy was opened"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        proc.kill()
        proc.wait()
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:
            pass
    assert len(spools) == 1 and spools[0].endswith(" (deleted)"), spools  # no name while open
    assert sorted(os.listdir(tmp)) == []


def test_a_zip_on_standard_input_validates_as_the_file_does(tmp_path: Path) -> None:
    """The same zip from standard input and as a file: the same summary (read from the copy)."""
    z = tmp_path / "in.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.pbn", BASE)
        zf.writestr("b.pbn", BASE)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(tmp)}
    cmd = [sys.executable, "-m", "handrec.cli", "validate"]
    with open(z, "rb") as f:
        piped = subprocess.run([*cmd, "-"], stdin=f, capture_output=True, text=True, env=env, timeout=120)
    named = subprocess.run([*cmd, str(z)], capture_output=True, text=True, env=env, timeout=120)
    assert (piped.returncode, piped.stdout) == (0, "2 files, 2 boards, 0 errors, 0 warnings\n")
    assert (named.returncode, named.stdout) == (piped.returncode, piped.stdout)
    assert sorted(os.listdir(tmp)) == []


def test_a_zip_on_standard_input_converts_with_workers_as_the_file_does(tmp_path: Path, corpus_dir: Path) -> None:
    """``convert --jobs 2``: the workers read the members from the copy by its path (another
    process): the tables are those of the zip as a file but for ``source_file``."""
    z = tmp_path / "in.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_STORED) as zf:  # stored: over the bytes that start a pool
        for i in range(30):
            for p in sorted((corpus_dir / "pbn").iterdir())[:8]:
                zf.write(p, f"pbn{i:02}/{p.name}")
    assert sum(m.file_size for m in zipfile.ZipFile(z).infolist()) > parts.POOL_BYTES
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(tmp)}
    cmd = [sys.executable, "-m", "handrec.cli", "convert", "--jobs", "2", "-q", "-o"]
    with open(z, "rb") as f:
        piped = subprocess.run([*cmd, tmp_path / "a", "-"], stdin=f, capture_output=True, env=env, timeout=300)
    named = subprocess.run([*cmd, tmp_path / "b", z], capture_output=True, env=env, timeout=300)
    assert (piped.returncode, named.returncode) == (0, 0), piped.stderr
    for table in ("boards", "files", "diagnostics"):
        a = pq.read_table(tmp_path / "a" / f"{table}.parquet")
        b = pq.read_table(tmp_path / "b" / f"{table}.parquet")
        assert a.num_rows == b.num_rows > 0, table
        assert [c for c in a.column_names if a.column(c) != b.column(c)] == ["source_file"], table
        files = [s.replace("<stdin>!", f"{z}!") for s in a.column("source_file").to_pylist()]
        assert files == b.column("source_file").to_pylist(), table
    assert sorted(os.listdir(tmp)) == []
