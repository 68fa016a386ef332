"""What ``handrec convert`` costs beside ``handrec validate``, and how it scales: one big file and a folder.

Run (one command, prints the table):

    python benchmarks/bench_convert_cost.py                  # 20,000 boards, 5 rounds
    python benchmarks/bench_convert_cost.py --boards 5000 --rounds 3

**Inputs.**  ``--boards`` generated boards (:mod:`handrec.generate` with realistic
records: full deals, auctions with note references and suffixes on about a tenth
of the calls, comments, claims, passed-out and doubled boards; ``--plain`` for
plain ones), written once as one PBN file and once
as a folder of ``--files`` PBN files holding the same boards (cached under
``--cache``, default ``$TMPDIR/handrec-bench-cost``).  The big file is over
``handrec.runs.parts.PART_BYTES`` from about 8,000 boards, so that
``--jobs 2`` reads it in parts.

**Tasks.**  The real commands, each in a fresh process, output thrown away:
``handrec validate --jobs J`` and ``handrec convert --jobs J -o TMP --quiet``
for J in 1 and 2, on the file and on the folder, interleaved
(``benchmarks/_interleave.py``: each round runs every task once, in an order
rotated by one each round, so a change of load cannot land on one task); the
table gives the best of the rounds.  CPU time is user + system of the command
and of the workers it waited for (``RUSAGE_CHILDREN``); wall time from start
to exit.

**Figures.**  ``CPU us/board`` of each task; ``convert/validate CPU``: convert's
CPU over validate's for the same input and jobs (issue #23's target: at most
1.15); ``wall j2/j1``: the wall time of ``--jobs 2`` over ``--jobs 1``
(target on a quiet two-core machine: at most 0.6); ``efficiency``: ``wall j1 /
(2 x wall j2)``, 1.0 when the two processes share the work perfectly.  On a
loaded machine the wall figures mean little; the CPU ratios hold.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _interleave import add_rounds_argument, interleave

HANDREC = [sys.executable, "-m", "handrec.cli"]


def make_inputs(cache: Path, boards: int, files: int, realistic: bool = True) -> tuple[Path, Path]:
    """The big file and the folder of ``files`` files, ``boards`` boards each way (written once)."""
    from handrec.formats.pbn.writer import dump
    from handrec.generate import generate_boards

    kind = "real" if realistic else "plain"
    big = cache / f"big-{kind}-{boards}.pbn"
    folder = cache / f"folder-{kind}-{boards}-{files}"
    if not big.is_file() or not folder.is_dir():
        all_boards = list(generate_boards(boards, seed=23, realistic=realistic))
        tmp = big.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            dump(all_boards, f, suffixes=realistic)
        tmp.replace(big)
        shutil.rmtree(folder, ignore_errors=True)
        part = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir()
        per = -(-boards // files)
        for i in range(files):
            with open(part / f"session{i:03d}.pbn", "w", encoding="utf-8", newline="") as f:
                dump(all_boards[i * per : (i + 1) * per], f, suffixes=realistic)
        part.rename(folder)
    return big, folder


def run(args: list[str], env: dict[str, str]) -> int:
    """Run one command to its end; its exit status (0, or 1 for faults found).

    :raises RuntimeError: any other exit status."""
    done = subprocess.run([*HANDREC, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.decode()[-2000:]}")
    return done.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20_000, help="boards in the file, and in the folder")
    ap.add_argument("--files", type=int, default=20, help="files in the folder")
    add_rounds_argument(ap)
    ap.add_argument("--plain", action="store_true", help="plain generated records (no alerts, notes, claims...)")
    ap.add_argument("--cache", type=Path, help="where the inputs are kept")
    args = ap.parse_args()
    cache = args.cache or Path(tempfile.gettempdir()) / "handrec-bench-cost"
    cache.mkdir(parents=True, exist_ok=True)
    big, folder = make_inputs(cache, args.boards, args.files, realistic=not args.plain)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "ds")
        tasks: dict[tuple[str, str, int], list[str]] = {}
        for label, src in (("file", big), ("folder", folder)):
            for jobs in (1, 2):
                tasks[(label, "validate", jobs)] = ["validate", "--jobs", str(jobs), str(src)]
                tasks[(label, "convert", jobs)] = ["convert", "--jobs", str(jobs), "--quiet", "-o", out, str(src)]
        keys = list(tasks)
        load = os.getloadavg()
        res = interleave(
            [(" ".join(map(str, k)), lambda a=tasks[k]: run(a, env)) for k in keys],
            args.rounds,
            after=lambda _: shutil.rmtree(out, ignore_errors=True),
        )
        load = (load, os.getloadavg())
        for r in res.values():
            if r.error is not None:
                raise RuntimeError(f"{r.name}: {r.error}")
        best = {k: (res[" ".join(map(str, k))].cpu, res[" ".join(map(str, k))].wall) for k in keys}
    n = args.boards
    kind = "plain" if args.plain else "realistic"
    print(
        f"handrec validate and convert, {n:,} generated boards ({kind}): one file ({big.stat().st_size / 2**20:.1f} MiB) "
    )
    print(f"and a folder of {args.files} files; best of {args.rounds} interleaved rounds; {os.cpu_count()} cores")
    print(f"load average at the start {load[0][0]:.2f}, at the end {load[1][0]:.2f}")
    print()
    print(f"{'input':>6} {'command':>8} {'jobs':>4} {'CPU s':>7} {'CPU us/board':>12} {'wall s':>7} {'boards/s':>9}")
    for k in keys:
        cpu, wall = best[k]
        print(f"{k[0]:>6} {k[1]:>8} {k[2]:>4} {cpu:>7.2f} {cpu / n * 1e6:>12.0f} {wall:>7.2f} {n / wall:>9,.0f}")
    print()
    print(f"{'input':>6} {'jobs':>4} {'convert/validate CPU':>20} {'command':>8} {'wall j2/j1':>10} {'efficiency':>10}")
    for label in ("file", "folder"):
        for jobs in (1, 2):
            ratio = best[(label, "convert", jobs)][0] / best[(label, "validate", jobs)][0]
            print(f"{label:>6} {jobs:>4} {ratio:>20.2f}")
        for cmd in ("validate", "convert"):
            w1, w2 = best[(label, cmd, 1)][1], best[(label, cmd, 2)][1]
            print(f"{label:>6} {'':>4} {'':>20} {cmd:>8} {w2 / w1:>10.2f} {w1 / (2 * w2):>10.2f}")


if __name__ == "__main__":
    main()
