"""Links to nothing and FIFOs without a writer (issue #22.6): exact diagnostics, exit codes, no wait.

A symbolic link to nothing found in a folder is skipped with F014, as a FIFO there is; named
on the command line it stays an unreadable input (F001, exit 2).  A FIFO named on the
command line that no one writes to stops after ``--read-timeout`` seconds with one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app

from .test_bad_inputs import BASE

runner = CliRunner()


def run(*args: object) -> tuple[list[str], int]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.stdout.splitlines(), r.exit_code


def _folder_with_broken_links(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.pbn").write_text(BASE)
    os.symlink(d / "gone.pbn", d / "b.pbn")  # a link to nothing, named as a bridge file
    os.symlink("loop", d / "loop")  # a link to itself: ELOOP, not ENOENT
    return d


def test_a_broken_link_in_a_folder_is_skipped_as_a_fifo_is(tmp_path: Path) -> None:
    d = _folder_with_broken_links(tmp_path)
    out, status = run("validate", d)
    assert out == [
        f"{d / 'b.pbn'}: F014 warning: broken symbolic link skipped: not a regular file",
        f"{d / 'loop'}: F014 warning: broken symbolic link skipped: not a regular file",
        "3 files (1 ok, 2 skipped), 1 boards, 0 errors, 2 warnings",
    ]
    assert status == 0
    ds = tmp_path / "ds"
    out, status = run("convert", d, "-o", ds, "--jobs", "1", "-q")
    assert status == 0
    rows = pq.read_table(ds / "files.parquet").to_pylist()
    assert [(Path(r["source_file"]).name, r["status"], r["warnings"]) for r in rows] == [
        ("a.pbn", "ok", 0),
        ("b.pbn", "skipped", 1),
        ("loop", "skipped", 1),
    ]


def test_a_broken_link_named_explicitly_stays_an_error(tmp_path: Path) -> None:
    d = _folder_with_broken_links(tmp_path)
    out, status = run("validate", d / "b.pbn")
    assert out == [
        f"{d / 'b.pbn'}: F001 error: cannot read input: No such file or directory",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
    ]
    assert status == 2


def _cli(*args: object, timeout: float = 30) -> tuple[list[str], list[str], int, float]:
    """``handrec ARGS`` in a process of its own (a hang is a failure, not a stuck test run): out, err, status, seconds."""
    start = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "handrec.cli", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )
    return r.stdout.splitlines(), r.stderr.splitlines(), r.returncode, time.monotonic() - start


def test_a_fifo_with_no_writer_times_out_with_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)
    line = f"{fifo}: F001 error: cannot read input: nothing written to it for 1 s (--read-timeout)"
    out, err, status, seconds = _cli("validate", "--read-timeout", "1", fifo)
    assert (out, err, status) == ([line, "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings"], [], 2)
    assert 1 <= seconds < 15
    out, err, status, seconds = _cli("convert", "--read-timeout", "1", fifo, "-o", tmp_path / "ds", "-q")
    assert (out, err, status) == ([], [line], 2)
    assert 1 <= seconds < 15


def test_a_fifo_whose_writer_comes_late_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)

    def write() -> None:
        time.sleep(0.5)  # the reader is waiting for a writer by then
        with open(fifo, "wb") as w:
            w.write(BASE.encode()[:100])
            w.flush()
            time.sleep(0.5)  # silent for a while, under the timeout
            w.write(BASE.encode()[100:])

    t = threading.Thread(target=write, daemon=True)
    t.start()
    out, err, status, _ = _cli("validate", "--read-timeout", "5", fifo)
    t.join(20)
    assert (out, err, status) == (["1 files, 1 boards, 0 errors, 0 warnings"], [], 0)


def test_a_link_to_a_folder_is_followed_and_a_loop_read_once(tmp_path: Path) -> None:
    """A folder linked into the input is read like any other (its boards were dropped without a
    word before); a link back up the tree gives nothing the second time, as a file met again."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "r.pbn").write_text(BASE)
    d = tmp_path / "in"
    (d / "a").mkdir(parents=True)
    (d / "a" / "x.pbn").write_text(BASE)
    os.symlink("../real", d / "b")
    os.symlink("..", d / "a" / "up")  # a loop: in/a/up is in
    out, status = run("validate", d)
    assert out == ["2 files, 2 boards, 0 errors, 0 warnings"]
    assert status == 0
    ds = tmp_path / "ds"
    _, status = run("convert", d, "-o", ds, "--jobs", "1", "-q")
    assert status == 0
    rows = pq.read_table(ds / "files.parquet").to_pylist()
    assert [(r["source_file"], r["boards"]) for r in rows] == [(str(d / "a" / "x.pbn"), 1), (str(d / "b" / "r.pbn"), 1)]


def _folder_with_a_locked_one(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    (d / "sub").mkdir(parents=True)
    (d / "top.pbn").write_text(BASE)
    (d / "sub" / "s.pbn").write_text(BASE)
    return d


def test_a_folder_that_cannot_be_listed_is_an_unreadable_input(tmp_path: Path, monkeypatch) -> None:
    """A folder inside the input that cannot be listed is F001, counted unreadable, exit 2: its
    boards are not read, and the run says so (it was skipped without a word).  The listing's
    refusal is made here by ``os.scandir`` (root lists any folder); the test below does it with
    the permission itself."""
    d = _folder_with_a_locked_one(tmp_path)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if not isinstance(path, int) and Path(os.fspath(path)).name == "sub":  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    out, status = run("validate", d)
    assert out == [
        f"{d / 'sub'}: F001 error: cannot read input: Permission denied",
        "2 files (1 ok, 1 unreadable), 1 boards, 1 errors, 0 warnings",
    ]
    assert status == 2
    ds = tmp_path / "ds"
    _, status = run("convert", d, "-o", ds, "--jobs", "1", "-q")
    assert status == 2
    rows = pq.read_table(ds / "files.parquet").to_pylist()
    assert [(r["source_file"], r["status"], r["boards"], r["errors"]) for r in rows] == [
        (str(d / "top.pbn"), "ok", 1, 0),
        (str(d / "sub"), "unreadable", 0, 1),
    ]


def _without_root_s_override() -> list[str] | None:
    """The command prefix that runs a process without the rights to read any file, or ``None``."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]


def test_a_folder_without_read_permission_is_an_unreadable_input(tmp_path: Path) -> None:
    prefix = _without_root_s_override()
    if prefix is None:
        pytest.skip("running as root without setpriv: every folder can be listed")
    d = _folder_with_a_locked_one(tmp_path)
    (d / "sub").chmod(0)
    try:
        r = subprocess.run(
            [*prefix, sys.executable, "-m", "handrec.cli", "validate", str(d)], capture_output=True, text=True
        )
    finally:
        (d / "sub").chmod(0o755)
    assert r.stdout.splitlines() == [
        f"{d / 'sub'}: F001 error: cannot read input: Permission denied",
        "2 files (1 ok, 1 unreadable), 1 boards, 1 errors, 0 warnings",
    ]
    assert r.returncode == 2


def test_a_results_site_inside_the_input_is_not_read_as_lin(tmp_path: Path) -> None:
    """handrec's own site links every board page to BBO's hand viewer (``?lin=...``): its pages
    are markup, not LIN (a second ``site`` run into a folder of the input read 20 pages as 20
    sessions)."""
    d = tmp_path / "club"
    d.mkdir()
    (d / "a.pbn").write_text(BASE)
    _, status = run("site", d, "-o", d / "site", "-j", "1")
    assert status == 0
    assert any("handviewer" in p.read_text() for p in (d / "site").rglob("board-*.html"))
    out, status = run("validate", d)
    assert (out, status) == (["1 files, 1 boards, 0 errors, 0 warnings"], 0)
