"""Output (and datasets) in a folder that cannot be entered: one line ``handrec: cannot write ...``,
exit status 2, never a traceback, for every command that writes or opens a path.

The kernel refuses a ``chmod 000`` folder only to a process without CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH: as root the command runs under ``setpriv`` with both dropped (as a user
would meet it); a test that can do neither is skipped.  Each command runs as a real process,
so what it meets is the kernel's refusal, not a stand-in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_bad_inputs import BASE

_CAPS = "-dac_override,-dac_read_search"


def _prefix() -> list[str]:
    """What runs a command without the right to enter a locked folder: nothing for a user, setpriv for root."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a chmod 000 folder cannot be refused to this test")
    return ["setpriv", f"--bounding-set={_CAPS}", f"--inh-caps={_CAPS}"]


def handrec(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``handrec ARGS`` in ``cwd`` as a process that a chmod 000 folder keeps out."""
    return subprocess.run(
        [*_prefix(), sys.executable, "-m", "handrec.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path`` with ``a.pbn`` (one board), a dataset ``ds`` of it and a folder ``locked`` (mode 000)."""
    (tmp_path / "a.pbn").write_text(BASE)
    assert handrec(tmp_path, "convert", "a.pbn", "-o", "ds", "-q", "-j", "1").returncode == 0
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0)
    try:
        yield tmp_path
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["convert", "a.pbn", "-o", "locked/ds", "-j", "1"], "handrec: cannot write locked/ds: Permission denied"),
        (["export", "a.pbn", "-o", "locked/x.pbn"], "handrec: cannot write locked/x.pbn: Permission denied"),
        (["export", "a.pbn", "-o", "locked/sub/x.lin"], "handrec: cannot write locked/sub/x.lin: Permission denied"),
        (["booklet", "a.pbn", "-o", "locked/b.html"], "handrec: cannot write locked/b.html: Permission denied"),
        (["site", "a.pbn", "-o", "locked/s"], "handrec: cannot write locked/s: Permission denied"),
        (["generate", "-o", "locked/g.pbn", "-q"], "handrec: cannot write locked/g.pbn: Permission denied"),
        (
            ["query", "ds", "select 1", "--db", "locked/x.duckdb"],
            "handrec: cannot write locked/x.duckdb: Permission denied",
        ),
        (["query", "--db", "locked/x.duckdb", "select 1"], "handrec: cannot read locked/x.duckdb: Permission denied"),
        (["query", "locked/ds", "select 1"], "handrec: cannot read locked/ds: Permission denied"),
        (["schema", "locked/ds"], "handrec: cannot read locked/ds: Permission denied"),
    ],
)
def test_a_locked_folder_is_one_line_and_status_2(locked: Path, args: list[str], line: str) -> None:
    r = handrec(locked, *args)
    assert (r.stderr.splitlines(), r.stdout, r.returncode) == ([line], "", 2)
    os.chmod(locked / "locked", 0o755)
    assert os.listdir(locked / "locked") == []  # no temporary file left behind either


def test_a_locked_dd_cache_is_one_warning_and_the_run_goes_on(locked: Path) -> None:
    pytest.importorskip("endplay")
    cache = locked / "locked" / "cache"
    r = subprocess.run(
        [*_prefix(), sys.executable, "-m", "handrec.cli", "booklet", "a.pbn", "-o", "b.html", "--dd"],
        cwd=locked,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HANDREC_DD_CACHE": str(cache)},
    )
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [
        f"handrec: double-dummy cache {cache}/dd-cache.sqlite3 not opened ([Errno 13] Permission denied: "
        f"'{cache}'); going on without it",
        "1 boards (1 diagram) -> b.html",
    ]
    assert (locked / "b.html").is_file()


def test_dd_stats_of_a_cache_that_cannot_be_opened_says_so(locked: Path) -> None:
    # it printed "size: 0 bytes, tables: 0" and exit 0, the warning bare after them
    cache = locked / "locked" / "cache"
    r = subprocess.run(
        [*_prefix(), sys.executable, "-m", "handrec.cli", "dd", "--stats"],
        cwd=locked,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HANDREC_DD_CACHE": str(cache)},
    )
    assert (r.stdout, r.stderr.splitlines(), r.returncode) == (
        "",
        [f"handrec: cannot read the double-dummy cache {cache}/dd-cache.sqlite3: Permission denied"],
        2,
    )
