"""Memory bounded by design on inputs that amplify it (issue #22.4): the peak RSS of a run, measured.

Each command runs in a fresh wrapper process that prints
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` after it: the peak resident set of the
largest process of that run alone (the command or one of its workers).  The inputs are
smaller versions of those reported (see ``benchmarks/bench_memory.py``); the bounds are
generous (a run on a small normal file peaks at about 40 MiB for ``validate``, 110 MiB for
``convert --jobs 2``) and far under what the inputs took before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

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
