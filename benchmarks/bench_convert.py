"""Convert throughput and peak memory: boards/s and peak RSS for a small and a large input, --jobs 1 and 2.

Run:

    python benchmarks/bench_convert.py                     # 10,000 vs 20,000 boards
    python benchmarks/bench_convert.py --boards 1000000    # 10,000 vs 1,000,000 boards (long)

The input is ``--per-file`` generated boards (``handrec.generate``: full
deals, auctions, play, results and scores) written once as PBN and once as
LIN, then copied under new names until there are ``--boards`` boards
(files alternate PBN and LIN): parsing a copy costs what parsing new boards
costs, and generating a million boards would take longer than converting
them.  Each conversion runs in a fresh process, so its peak RSS is its own:
``parent`` is the process that lists inputs, commits and merges the
tables, ``worker`` the largest worker process (``--jobs 1`` has none).  The
last table gives large / small ratios: memory that does not grow with the
input shows as a ratio near 1.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from handrec.generate import generate_boards
from handrec.lin import dump as lin_dump
from handrec.pbn import dump as pbn_dump


def make_inputs(folder: Path, boards: int, per_file: int, seed_files: dict[str, Path]) -> int:
    """Fill ``folder`` with copies of the seed files up to ``boards`` boards; returns the board count."""
    folder.mkdir(parents=True)
    n = i = 0
    while n < boards:
        fmt = "pbn" if i % 2 == 0 else "lin"
        shutil.copyfile(seed_files[fmt], folder / f"part{i:05d}.{fmt}")
        n += per_file
        i += 1
    return n


def child(src: str, out: str, jobs: int) -> None:
    """Run one conversion in this process and print its figures as JSON."""
    from handrec.store import convert

    t0 = time.perf_counter()
    s = convert([src], out, jobs=jobs)
    dt = time.perf_counter() - t0
    kib = 1 if sys.platform != "darwin" else 1 / 1024  # ru_maxrss: KiB on Linux, bytes on macOS
    print(
        json.dumps(
            {
                "boards": s.boards,
                "seconds": dt,
                "parent_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kib / 1024,
                "worker_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * kib / 1024,
            }
        )
    )


def measure(src: Path, out: Path, jobs: int) -> dict[str, float]:
    r = subprocess.run(
        [sys.executable, __file__, "--child", str(src), str(out), str(jobs)],
        check=True,
        capture_output=True,
        text=True,
    )
    shutil.rmtree(out, ignore_errors=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20000, help="boards in the large input (e.g. 1000000)")
    ap.add_argument("--small", type=int, default=10000, help="boards in the small input")
    ap.add_argument("--per-file", type=int, default=2000, help="boards per file")
    ap.add_argument("--jobs", default="1,2", help="comma-separated --jobs values")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    jobs_list = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        seeds = {}
        for fmt, dump in (("pbn", pbn_dump), ("lin", lin_dump)):
            seeds[fmt] = root / f"seed.{fmt}"
            with open(seeds[fmt], "w", encoding="utf-8", newline="") as f:
                dump(generate_boards(args.per_file, seed=7), f)
        sizes = {"small": args.small, "large": args.boards}
        results: dict[tuple[str, int], dict[str, float]] = {}
        print(
            f"{'input':>8} {'boards':>9} {'jobs':>4} {'seconds':>8} {'boards/s':>9} {'parent MiB':>10} {'worker MiB':>10}"
        )
        for label, n in sizes.items():
            src = root / label
            count = make_inputs(src, n, args.per_file, seeds)
            for jobs in jobs_list:
                r = results[(label, jobs)] = measure(src, root / "out", jobs)
                assert r["boards"] == count, (r["boards"], count)
                print(
                    f"{label:>8} {count:>9,} {jobs:>4} {r['seconds']:>8.1f} {r['boards'] / r['seconds']:>9,.0f} "
                    f"{r['parent_mib']:>10.0f} {r['worker_mib']:>10.0f}"
                )
            shutil.rmtree(src)
        print()
        print(f"large / small ({args.boards:,} / {args.small:,} boards)")
        print(f"{'jobs':>4} {'boards/s':>9} {'parent RSS':>10} {'worker RSS':>10}")
        for jobs in jobs_list:
            s, g = results[("small", jobs)], results[("large", jobs)]
            rate = (g["boards"] / g["seconds"]) / (s["boards"] / s["seconds"])
            worker = g["worker_mib"] / s["worker_mib"] if s["worker_mib"] else float("nan")
            print(f"{jobs:>4} {rate:>9.2f} {g['parent_mib'] / s['parent_mib']:>10.2f} {worker:>10.2f}")
        if len(jobs_list) > 1:
            base = jobs_list[0]
            print()
            print(f"speed-up over --jobs {base} (large input)")
            for jobs in jobs_list[1:]:
                print(f"{jobs:>4} {results[('large', base)]['seconds'] / results[('large', jobs)]['seconds']:>9.2f}")


if __name__ == "__main__":
    main()
