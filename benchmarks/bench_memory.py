"""Peak memory of ``validate`` and ``convert --jobs 2`` on hostile inputs against a small normal file (issue #22.4).

Run from the repository root:

    python benchmarks/bench_memory.py [--scale 1.0] [--keep DIR]

The inputs are written by the script into a temporary folder (``--keep DIR`` writes them
there and leaves them):

- ``stdin.zip``: a zip of one small PBN file and two members of 900 MiB of zeros each (not
  bridge files: skipped), about 1.8 MB, read from standard input (``handrec validate -``);
  the same zip named as a file is a row too;
- ``members.tar.gz``: a tar.gz of 120 PBN members of 8 MiB each (one board, then lines
  of spaces), about 2 MB compressed, 960 MiB decompressed;
- ``comments.pbn``: one board holding four million ``;`` comment lines (8 MB).

``--scale`` multiplies the sizes (member sizes, member counts and comment lines).  Each
command is run in a fresh wrapper process that runs it and prints
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``: the peak resident set of the largest
process of the run (the parent or one of its workers, not their sum).  The baseline of a
command is the same command on ``sample_data/club_pairs.pbn`` (piped into standard input
for the standard-input row); ``x base`` is the ratio of the peaks.  Printed as a Markdown
table.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).parents[1]
SAMPLE = ROOT / "sample_data" / "club_pairs.pbn"

#: The wrapper: runs ``argv[2:]`` with ``argv[1]`` as standard input ("" for none), prints the peak RSS (KiB).
_WRAP = (
    "import resource, subprocess, sys\n"
    "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
    "r = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def peak_rss(args: list[str], stdin: Path | None = None, timeout: float = 1800) -> tuple[int, int, float]:
    """``python -m handrec.cli ARGS`` in a fresh wrapper: (exit status, peak RSS in KiB, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-c", _WRAP, str(stdin or ""), sys.executable, "-m", "handrec.cli", *args]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, check=True).stdout
    status, kib = out.split()
    return int(status), int(kib), time.perf_counter() - start


def first_board() -> str:
    """The first game of the sample file, ending in a blank line."""
    text = SAMPLE.read_text()
    start = text.index("[Event")
    return text[start : text.index("\n\n", start) + 2]


def write_zeros_zip(path: Path, members: int, member_bytes: int) -> None:
    """A zip of one small PBN file and ``members`` members of ``member_bytes`` zeros (``filler{i}.bin``)."""
    block = bytes(1 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("a.pbn", first_board())
        for i in range(members):
            with zf.open(f"filler{i}.bin", "w", force_zip64=True) as w:
                left = member_bytes
                while left > 0:
                    w.write(block[: min(left, len(block))])
                    left -= len(block)


def write_members_tgz(path: Path, members: int, member_bytes: int) -> None:
    """A tar.gz of ``members`` PBN members of ``member_bytes`` each: one board, then lines of 1023 spaces."""
    board = first_board().encode()
    pad = b" " * 1023 + b"\n"
    data = board + pad * ((member_bytes - len(board)) // len(pad))
    with tarfile.open(path, "w:gz", compresslevel=9) as tf:
        for i in range(members):
            info = tarfile.TarInfo(f"m{i:04}.pbn")
            info.size = len(data)
            tf.addfile(info, _Reader(data))


class _Reader:
    """``data`` as a file object, without copies (tarfile reads it in blocks)."""

    def __init__(self, data: bytes) -> None:
        self._view = memoryview(data)
        self._pos = 0

    def read(self, n: int = -1) -> bytes:
        end = len(self._view) if n < 0 else self._pos + n
        out = bytes(self._view[self._pos : end])
        self._pos += len(out)
        return out


def write_comment_board(path: Path, lines: int) -> None:
    """One board with ``lines`` ``;`` comment lines after its first tag."""
    board = first_board()
    head, rest = board.split("\n", 1)
    with open(path, "w") as f:
        f.write(head + "\n")
        f.write(";\n" * lines)
        f.write(rest)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the input sizes (default 1)")
    ap.add_argument("--keep", type=Path, help="write the inputs here and keep them")
    args = ap.parse_args()
    s = args.scale
    with tempfile.TemporaryDirectory(prefix="handrec-bench-memory-") as tmp:
        d = args.keep or Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        zpath, tpath, cpath = d / "stdin.zip", d / "members.tar.gz", d / "comments.pbn"
        write_zeros_zip(zpath, 2, int(900 * s) << 20)
        write_members_tgz(tpath, max(1, int(120 * s)), 8 << 20)
        write_comment_board(cpath, int(4_000_000 * s))
        cases = [  # (label, input size, command args without the input, stdin, input path)
            ("zip from standard input", zpath, None, zpath),
            ("the same zip as a file", zpath, zpath, None),
            ("tar.gz of 8 MiB members", tpath, tpath, None),
            ("board of `;` comment lines", cpath, cpath, None),
        ]
        print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, scale {s:g}\n")
        print("| input | size | command | peak RSS | baseline | x base | status | seconds |")
        print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
        for command in ("validate", "convert --jobs 2"):
            for label, size_of, path, stdin in cases:
                target = "-" if stdin is not None else str(path)
                base_target = "-" if stdin is not None else str(SAMPLE)
                extra: list[str] = []
                if command != "validate":
                    extra = ["-o", str(d / "ds"), "--jobs", "2", "-q", "--force"]
                verb = command.split()[0]
                _, base, _ = peak_rss([verb, base_target, *extra], SAMPLE if stdin is not None else None)
                status, kib, seconds = peak_rss([verb, target, *extra], stdin)
                print(
                    f"| {label} | {size_of.stat().st_size / 1e6:.1f} MB | `{command}` | {kib / 1024:.0f} MiB "
                    f"| {base / 1024:.0f} MiB | {kib / base:.2f} | {status} | {seconds:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
