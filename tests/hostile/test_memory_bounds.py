"""Memory bounded by design on inputs that amplify it (issue #22.4): the peak RSS of a run, measured.

Each command runs in a fresh wrapper process that prints
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` after it: the peak resident set of the
largest process of that run alone (the command or one of its workers).  The inputs are
smaller versions of those reported (see ``benchmarks/bench_memory.py``); the bounds are
generous (a run on a small normal file peaks at about 40 MiB for ``validate``, 110 MiB for
``convert --jobs 2``) and far under what the inputs took before.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pyarrow.parquet as pq

from handrec.formats.dispatch import read
from handrec.inputs.entries import iter_entries
from handrec.runs import parts

from .test_bad_inputs import BASE

#: Runs ``argv[2:]`` with the file ``argv[1]`` (or nothing) as standard input; prints the
#: peak RSS of its children in KiB, then the command's exit status and standard output.
_WRAP = (
    "import resource, subprocess, sys\n"
    "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
    "r = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True, text=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)\n"
    "sys.stdout.write(r.stdout)\n"
)


def peak(*args: object, stdin: Path | None = None) -> tuple[float, int, list[str]]:
    """``handrec ARGS`` in a fresh wrapper: (peak RSS in MiB, exit status, standard output lines)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, "-c", _WRAP, str(stdin or ""), sys.executable, "-m", "handrec.cli", *map(str, args)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=True).stdout
    head, *lines = out.splitlines()
    kib, status = map(int, head.split())
    return kib / 1024, status, lines


def test_a_zip_on_standard_input_is_spooled_to_a_file_not_held(tmp_path: Path) -> None:
    """A 1.8 MB zip holding 400 MiB of zeros (not a bridge file): before, read into memory whole (twice)."""
    z = tmp_path / "in.zip"
    block = bytes(1 << 20)
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("a.pbn", BASE)
        with zf.open("filler.bin", "w") as w:
            for _ in range(400):
                w.write(block)
    assert z.stat().st_size < 2_000_000
    mib, status, out = peak("validate", "-", stdin=z)
    assert (status, out) == (0, ["1 files, 1 boards, 0 errors, 0 warnings"])
    assert mib < 150, f"validate - of a 1.8 MB zip peaked at {mib:.0f} MiB"


def _padded_members(path: Path, members: int) -> None:
    """A tar.gz of PBN members just under 8 MiB each (held in memory when listed): one board, then
    lines of 1023 spaces; about 17 KB each compressed."""
    pad = b" " * 1023 + b"\n"
    data = (BASE + "\n").encode() + pad * ((8 << 10) - 1)
    with tarfile.open(path, "w:gz", compresslevel=9) as tf:
        for i in range(members):
            info = tarfile.TarInfo(f"m{i:02}.pbn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


def test_tar_members_held_in_memory_weigh_their_bytes_in_a_task(tmp_path: Path) -> None:
    """A task groups inputs up to about 1 MiB by the bytes they carry, not by their compressed
    share: before, the 12 members (96 MiB, 0.2 MB compressed) all went to one task, held at once
    by the parent and by the worker (a 9.4 MB tar.gz of 8 MiB members took 2.5 GiB)."""
    t = tmp_path / "in.tar.gz"
    _padded_members(t, 12)
    tasks = list(parts._tasks(iter_entries([t]), lambda e: None, parts.TASK_BYTES))
    assert [(task.kind, len(task.inputs)) for task in tasks] == [("inputs", 1)] * 12
    ds = tmp_path / "ds"
    mib, status, out = peak("convert", t, "-o", ds, "--jobs", "2", "-q")
    assert (status, out) == (0, [])
    rows = pq.read_table(ds / "files.parquet").to_pylist()
    assert [(r["boards"], r["status"]) for r in rows] == [(1, "ok")] * 12
    assert mib < 250, f"convert --jobs 2 of a tar.gz of 12 members of 8 MiB peaked at {mib:.0f} MiB"


def test_a_board_of_a_million_comment_lines(tmp_path: Path) -> None:
    """One board with a million ``;`` comment lines (2 MB): before, some 400 bytes a line."""
    head, rest = BASE.split("\n", 1)
    f = tmp_path / "c.pbn"
    f.write_text(head + "\n" + ";\n" * 1_000_000 + rest)
    mib, status, out = peak("validate", f)
    assert (status, out) == (0, ["1 files, 1 boards, 0 errors, 0 warnings"])
    assert mib < 150, f"validate of a board of a million comment lines peaked at {mib:.0f} MiB"


def test_a_run_of_semicolon_lines_is_one_comment(tmp_path: Path) -> None:
    """The lines of a run of ``;`` comments (blanks between them allowed) are one comment, joined by
    line ends, each without its ``;`` and trailing blanks; a tag or a call ends the run."""
    f = tmp_path / "c.pbn"
    f.write_text('[Event "x"] ;a  \n  ; b\n;\n[Board "1"]\n;c\n' + BASE.split("\n", 1)[1])
    (board,) = read(f)
    assert board.commentary == ("a\n b\n", "c")
    assert board.comment_anchors == (("tag", 0), ("tag", 1))
