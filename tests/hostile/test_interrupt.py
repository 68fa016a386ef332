"""Ctrl-C, once, stops every long command (issue #19.1): within about a second, one line on stderr,
exit status 130, no traceback, no process left, nothing half-written.

Each command runs as ``python -m handrec.cli`` in a session of its own; the test sends SIGINT
to its whole process group, as a terminal's Ctrl-C does (the pool's workers get it too, and
ignore it), at a moment seen from outside: the process's own CPU time (reading), its worker
processes and theirs (workers running), the merge's temporary table files (merging), DDS's
threads (solving).  A conversion interrupted then is finished by ``convert --resume`` with
the rows of a clean run.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from handrec.dataset.store import WORK_DIR
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")

NOTE = "handrec: interrupted\n"
RESUME_NOTE = "handrec: interrupted; run the same command with --resume to continue\n"
TABLES = ("boards", "calls", "plays", "diagnostics", "supplemental", "files")
#: Seconds from SIGINT to the end of the process.
WITHIN = 2.0
_TICK = os.sysconf("SC_CLK_TCK")


# -- the process tree, from /proc ------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None when gone."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _in_session(sid: int) -> set[int]:
    """The live (not zombie) processes of session ``sid``: the command's and every process it started."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            f = _stat(int(entry.name))
            if f is not None and f[0] != "Z" and int(f[3]) == sid:
                out.add(int(entry.name))
    return out


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            f = _stat(int(entry.name))
            if f is not None and f[0] != "Z" and int(f[1]) == pid:
                out.add(int(entry.name))
    return out


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used."""
    f = _stat(pid)
    return 0.0 if f is None else (int(f[11]) + int(f[12])) / _TICK


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


# -- running a command and interrupting it ---------------------------------------------------


class Run:
    """``handrec ARGS`` in a new session, its stderr to a file."""

    def __init__(self, args: list[str], tmp: Path) -> None:
        self.err = tmp / f"stderr-{time.monotonic_ns()}.txt"
        with open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "handrec.cli", *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
                # a test run started in the background has SIGINT ignored: the command gets Python's default
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )
        self.pid = self.proc.pid

    def wait_for(self, what: str, ready: Callable[[], bool], timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if self.proc.poll() is not None:
                pytest.fail(f"the command ended (status {self.proc.returncode}) before {what}: {self.stderr()}")
            if time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"no {what} within {timeout} s")
            time.sleep(0.005)

    def interrupt(self) -> tuple[int, float, str]:
        """SIGINT to the process group; the exit status, the seconds it took, and stderr."""
        t = time.monotonic()
        try:
            os.killpg(self.pid, signal.SIGINT)
        except ProcessLookupError:  # ended already (a Ctrl-C sent before)
            pass
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"still running 30 s after Ctrl-C: {self.stderr()}")
        took = time.monotonic() - t
        time.sleep(0.2)  # a child killed at the very end is reaped by then
        left = _in_session(self.pid)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left running after Ctrl-C: {left}"
        return code, took, self.stderr()

    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        for pid in _in_session(self.pid) | {self.pid}:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()


def _stopped(run: Run, note: str | re.Pattern[str] = NOTE) -> None:
    code, took, err = run.interrupt()
    assert "Traceback" not in err, err
    if isinstance(note, str):
        assert err == note
    else:
        assert note.fullmatch(err), err
    assert code == 130
    assert took < WITHIN, f"took {took:.2f} s to stop"


# -- inputs ----------------------------------------------------------------------------------


def _pbn(n: int, seed: int, tables: int = 1) -> str:
    s = io.StringIO()
    pbn_dump(generate_boards(n * tables, seed, tables=tables), s)
    return s.getvalue()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``folder``: 10 files of 250 boards (1.4 MB in all); ``big``: one file of 8,250 boards
    (4.7 MB: read in parts with --jobs 2, and over validate's pool threshold);
    ``clean``: the dataset of ``folder`` converted without interruption."""
    root = tmp_path_factory.mktemp("interrupt")
    text = _pbn(250, seed=7)
    folder = root / "folder"
    folder.mkdir()
    for i in range(10):
        (folder / f"s{i:02d}.pbn").write_text(text, encoding="utf-8", newline="")
    big = root / "big.pbn"
    big.write_text(text * 33, encoding="utf-8", newline="")
    clean = root / "clean"
    convert([folder], clean, jobs=2)
    return {"folder": folder, "big": big, "clean": clean, "small": folder / "s00.pbn"}


def _tables(out: Path) -> dict[str, object]:
    """The dataset's rows (``files.status`` dropped: ``unchanged`` for reused rows, ``ok`` for read ones)."""
    tables = {t: pq.read_table(out / f"{t}.parquet") for t in TABLES}
    return {t: (v.drop_columns(["status"]) if t == "files" else v) for t, v in tables.items()}


def _resume_to_clean(folder: Path, out: Path, clean: Path) -> None:
    """``convert --resume`` (the library call the command makes) writes the rows of the clean run."""
    summary = convert([folder], out, jobs=2, resume=True)
    assert (summary.files, summary.boards, summary.errors, summary.warnings) == (10, 2500, 0, 0)
    now, want = _tables(out), _tables(clean)
    assert all(now[t].equals(want[t]) for t in TABLES)
    assert not (out / WORK_DIR).exists()


def _workers_busy(run: Run) -> Callable[[], bool]:
    """Two worker processes that have started on their tasks."""

    def ready() -> bool:
        workers = _children(run.pid)
        return len(workers) >= 2 and sum(_cpu(w) for w in workers) >= 0.3

    return ready


def _reading(run: Run, seconds: float = 1.2) -> Callable[[], bool]:
    """The command past its imports, into its inputs (CPU time)."""
    return lambda: _cpu(run.pid) >= seconds


# -- convert ---------------------------------------------------------------------------------


def test_convert_of_one_big_file_stops_while_its_parts_are_read(inputs: dict[str, Path], tmp_path: Path) -> None:
    """The case of the issue: a big file read in parts by two workers; the dataset already in
    the folder stays as it was, byte for byte."""
    out = tmp_path / "out"
    shutil.copytree(inputs["clean"], out)
    before = {p.name: p.read_bytes() for p in out.glob("*.parquet")}
    run = Run(["convert", str(inputs["big"]), "-o", str(out), "--jobs", "2", "--append"], tmp_path)
    run.wait_for("busy workers", _workers_busy(run))
    _stopped(run, RESUME_NOTE)
    assert {p.name: p.read_bytes() for p in out.glob("*.parquet")} == before
    assert not list(out.glob(".*.tmp"))


@pytest.mark.parametrize("moment", ["reading", "workers", "merging"])
def test_convert_of_a_folder_stops_and_resumes(inputs: dict[str, Path], tmp_path: Path, moment: str) -> None:
    """Interrupted while this process reads (--jobs 1), while the workers read, while the
    parts are merged: ``--resume`` then writes the rows of a clean run."""
    out = tmp_path / "out"
    jobs = "1" if moment == "reading" else "2"
    run = Run(["convert", str(inputs["folder"]), "-o", str(out), "--jobs", jobs], tmp_path)
    if moment == "reading":
        # past the work folder's creation, then 0.2 s of CPU into the inputs (a fixed CPU figure
        # raced the end of the run as the reading got faster: 2,500 boards take about 0.8 s)
        run.wait_for("the work folder", lambda: (out / WORK_DIR).is_dir())
        started = _cpu(run.pid)
        run.wait_for("reading", lambda: _cpu(run.pid) >= started + 0.2)
    elif moment == "workers":
        run.wait_for("busy workers", _workers_busy(run))
    else:
        run.wait_for("the merge", lambda: any(out.glob(".*.parquet.tmp")))
    _stopped(run, RESUME_NOTE)
    assert not (out / "files.parquet").exists()  # no dataset yet: the merge renames files.parquet last
    assert not list(out.glob(".*.parquet.tmp"))  # nor half a table
    _resume_to_clean(inputs["folder"], out, inputs["clean"])


def test_a_second_ctrl_c_during_the_clean_up_ends_at_once(inputs: dict[str, Path], tmp_path: Path) -> None:
    """Two Ctrl-C in a row (a user pressing again): still one line, status 130, no worker left,
    and a work folder that ``--resume`` finishes."""
    out = tmp_path / "out"
    run = Run(["convert", str(inputs["folder"]), "-o", str(out), "--jobs", "2"], tmp_path)
    run.wait_for("busy workers", _workers_busy(run))
    os.killpg(run.pid, signal.SIGINT)
    time.sleep(0.02)  # the workers are being stopped
    _stopped(run, RESUME_NOTE)
    _resume_to_clean(inputs["folder"], out, inputs["clean"])


# -- validate, generate, site ----------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_stops(inputs: dict[str, Path], tmp_path: Path, jobs: str) -> None:
    run = Run(["validate", str(inputs["big"]), "--jobs", jobs], tmp_path)
    run.wait_for("reading", _reading(run) if jobs == "1" else _workers_busy(run))
    _stopped(run)


def test_generate_stops_and_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "g.pbn"
    out.write_text("old\n")
    run = Run(["generate", "-n", "100000", "-o", str(out)], tmp_path)
    run.wait_for("writing", lambda: any(tmp_path.glob(".g.pbn.*.tmp")) and _cpu(run.pid) >= 1.0)
    _stopped(run)
    assert out.read_text() == "old\n"
    assert not list(tmp_path.glob(".g.pbn.*"))


def test_site_stops(inputs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "site"
    run = Run(["site", str(inputs["folder"]), "-o", str(out)], tmp_path)
    # the pages are rendered by the workers too (site --jobs): some written, not all
    run.wait_for("pages written", lambda: out.is_dir() and sum(1 for _ in out.rglob("*.html")) >= 5)
    _stopped(run)
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # every page whole, or not there


# -- double dummy ----------------------------------------------------------------------------


def _solving(run: Run) -> Callable[[], bool]:
    """DDS at work: its threads (one a core, at least one) started beside the main thread, the
    one an import starts and the thread that waits on DDS."""
    return lambda: _threads(run.pid) >= 4 and _cpu(run.pid) >= 1.0


DD_NOTE = re.compile(r"handrec: interrupted; the \d+ deals solved so far are not kept \(--no-dd-cache\)\n")


@pytest.mark.parametrize("command", ["validate", "booklet", "convert"])
def test_double_dummy_solving_stops(inputs: dict[str, Path], tmp_path: Path, command: str) -> None:
    """Inside DDS's C code (seconds for 40 deals on a busy machine) Ctrl-C still stops at once."""
    pytest.importorskip("endplay")
    args = [command, str(inputs["small"]), "--dd", "--no-dd-cache"]
    if command == "booklet":
        args += ["-o", str(tmp_path / "b.html")]
    if command == "convert":
        args += ["-o", str(tmp_path / "out"), "--jobs", "1"]
    run = Run(args, tmp_path)
    run.wait_for("solving", _solving(run))
    _stopped(run, RESUME_NOTE if command == "convert" else DD_NOTE)
    assert not (tmp_path / "b.html").exists()


def test_convert_on_the_dask_engine_stops_at_once(inputs: dict[str, Path], tmp_path: Path) -> None:
    """The local Dask cluster's workers are killed, not shut down politely (which took about
    4 s and printed the workers' log lines): one line, status 130, nothing left."""
    pytest.importorskip("distributed", reason="the Dask engine needs handrec[dask]")
    many = tmp_path / "many"  # 10,000 boards: still at work well after the cluster's start
    many.mkdir()
    for i, f in enumerate(sorted(inputs["folder"].glob("*.pbn")) * 4):
        (many / f"{i:02d}-{f.name}").write_bytes(f.read_bytes())
    out = tmp_path / "out"
    run = Run(["convert", str(many), "-o", str(out), "--engine", "dask", "--jobs", "2"], tmp_path)

    def reading() -> bool:  # the cluster up (its workers past their imports) and the work folder made
        workers = _children(run.pid)
        return (out / WORK_DIR).is_dir() and len(workers) >= 2 and sum(_cpu(w) for w in workers) >= 2.0

    run.wait_for("the cluster's workers at work", reading, timeout=120)
    _stopped(run, RESUME_NOTE)
