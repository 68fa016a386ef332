"""The results website's build time against ``handrec score`` on the same file, in the same run.

    python benchmarks/bench_site.py [--boards 1000] [--tables 10] [--repeat 3]

Generates a pairs session (``handrec generate --boards B --tables T``: B boards, each
played at T tables, full auctions and play) and times, in interleaved rounds so that both
see the same machine, the two commands as a user runs them (a fresh process each, from
start to exit):

* ``handrec score FILE`` (the baseline: read, replay, travellers, matchpoints, rankings,
  printed);
* ``handrec site FILE -o DIR`` (the same reading and scoring, the booklet's checks of the
  file's own figures, then B board pages, 2T score cards, the session and index pages), on
  all cores (the file read in parts and the pages rendered by the workers: ``--jobs``), and
  with ``--jobs 1``.

Prints the cores and the load average, each command's best time (and the CPU time of
that run, its workers' included), the site's pages and size, and the ratio to score (the issue's target: "a site of 1,000 boards at 10 tables
builds in a few seconds").
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HANDREC = Path(sys.executable).with_name("handrec")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)  # the finished commands and their workers
    return r.ru_utime + r.ru_stime


def _run(args: list[str]) -> tuple[float, float]:
    """One command from start to exit: its wall time and the CPU time of it and its workers."""
    t, c = time.perf_counter(), _cpu()
    subprocess.run([str(HANDREC), *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, _cpu() - c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "session.pbn"
        subprocess.run(
            [str(HANDREC), "generate", "-o", str(src), "--boards", str(args.boards), "--tables", str(args.tables)],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        out = Path(tmp) / "site"
        score: list[tuple[float, float]] = []
        site: list[tuple[float, float]] = []
        site1: list[tuple[float, float]] = []
        load = os.getloadavg()
        for _ in range(args.repeat):  # interleaved: each round runs all three
            score.append(_run(["score", str(src)]))
            shutil.rmtree(out, ignore_errors=True)
            site1.append(_run(["site", str(src), "-o", str(out), "--jobs", "1"]))
            shutil.rmtree(out, ignore_errors=True)
            site.append(_run(["site", str(src), "-o", str(out)]))
        pages = list(out.rglob("*.html"))
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        games = args.boards * args.tables
        print(f"cores: {os.cpu_count()}, load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
        print(f"input: {args.boards} boards at {args.tables} tables ({games} games), {src.stat().st_size / 1e6:.1f} MB")
        print(f"{'command':<28}{'best s':>9}{'games/s':>10}{'vs score':>10}{'cpu s':>9}")
        base = min(score)[0]
        for name, times in (("handrec score", score), ("handrec site --jobs 1", site1), ("handrec site", site)):
            best, cpu = min(times)  # the best wall time, and the CPU time of that run
            print(f"{name:<28}{best:>9.2f}{games / best:>10.0f}{best / base:>10.2f}{cpu:>9.2f}")
        print(f"site: {len(pages)} pages, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
