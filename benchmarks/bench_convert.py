"""Convert throughput and peak memory of ``handrec convert``: a small against a large input, --jobs 1 and 2.

Run:

    python benchmarks/bench_convert.py                       # 10,000 vs 100,000 boards
    python benchmarks/bench_convert.py --boards 1000000      # 10,000 vs 1,000,000 boards (about 10 minutes)
    python benchmarks/bench_convert.py --layout one-file     # only the single-big-file layout

**Inputs.**  ``--per-file`` generated boards (:mod:`handrec.generate` with
realistic records: full deals, auctions with note references and suffixes,
comments, claims, passed-out and doubled boards, results and scores) are written once as PBN and once
as LIN; each layout is then made of them, and cached under ``--cache``
(default ``$TMPDIR/handrec-bench-convert``) for later runs:

* ``files``: copies of the two seed files under new names (alternating PBN
  and LIN) until there are enough boards -- many inputs, as an archive of
  club results would be;
* ``one-file``: a single PBN file, the PBN seed repeated -- one input that
  one worker reads from start to end, the case where per-input memory (the
  rows of the input, its claimed-figure checks) would show.

Parsing a copy costs what parsing new boards costs; generating a million
boards would take longer than converting them.

**Measure.**  Each conversion is the real command, ``handrec convert SRC -o
OUT --jobs J --quiet``, in a fresh process.  ``peak proc`` is the largest
peak RSS of any one process of the run (``ru_maxrss`` of the command and
its workers, exact, read by a small wrapper process); ``peak total`` is
the highest sum of the RSS of the command and its workers at one moment
(sampled every 20 ms with psutil).  The last table gives large / small
ratios: memory that does not grow with the input shows as a ratio near 1
(the issue's target: at most 1.5 for 1,000,000 against 10,000 boards).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards

HANDREC = Path(sys.executable).with_name("handrec")


def seeds(cache: Path, per_file: int) -> dict[str, Path]:
    """The PBN and LIN seed files of ``per_file`` boards each (written once), realistic records
    (note references and suffixes, comments, claims, passed-out and doubled boards)."""
    out = {}
    for fmt, dump in (("pbn", pbn_dump), ("lin", lin_dump)):
        out[fmt] = cache / f"seed-real-{per_file}.{fmt}"
        if not out[fmt].is_file():
            tmp = out[fmt].with_suffix(".tmp")
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                boards = generate_boards(per_file, seed=7, realistic=True)
                if fmt == "pbn":
                    dump(boards, f, suffixes=True)
                else:
                    dump(boards, f)
            tmp.replace(out[fmt])
    return out


def make_input(cache: Path, layout: str, boards: int, per_file: int) -> tuple[Path, int]:
    """The input of ``layout`` with about ``boards`` boards (cached); returns it and its board count."""
    seed = seeds(cache, per_file)
    copies = -(-boards // per_file)
    count = copies * per_file
    src = cache / f"{layout}-{count}-{per_file}"
    if layout == "one-file":
        src = src.with_suffix(".pbn")
    if src.exists():
        return src, count
    tmp = src.with_name(src.name + ".tmp")
    if layout == "files":
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for i in range(copies):
            fmt = "pbn" if i % 2 == 0 else "lin"
            shutil.copyfile(seed[fmt], tmp / f"part{i:05d}.{fmt}")
    else:
        text = seed["pbn"].read_bytes()
        with open(tmp, "wb") as f:
            for _ in range(copies):
                f.write(text)
                if not text.endswith(b"\n\n"):
                    f.write(b"\n")
    tmp.rename(src)
    return src, count


def wrapper(args: list[str]) -> None:
    """Run ``handrec convert ...`` and print the largest peak RSS of it and its workers (KiB)."""
    r = subprocess.run([str(HANDREC), "convert", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0, 1):
        sys.stderr.write(r.stderr)
        raise SystemExit(r.returncode)
    print(json.dumps({"maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))


def measure(src: Path, out: Path, jobs: int) -> dict[str, float]:
    """Convert ``src`` into ``out`` (removed after); seconds, boards and peaks in MiB."""
    shutil.rmtree(out, ignore_errors=True)
    args = [str(src), "-o", str(out), "--jobs", str(jobs), "--quiet"]
    t0 = time.perf_counter()
    proc = psutil.Popen(
        [sys.executable, __file__, "--wrap", json.dumps(args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    peak_total = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_total
        while not done.is_set():
            try:
                tree = proc.children(recursive=True)  # the command and its workers (not the wrapper)
                total = 0
                for p in tree:
                    try:
                        total += p.memory_info().rss
                    except psutil.Error:
                        pass
                peak_total = max(peak_total, total)
            except psutil.Error:
                pass
            done.wait(0.02)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    dt = time.perf_counter() - t0
    done.set()
    th.join()
    if proc.returncode:
        raise RuntimeError(f"handrec convert failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    import pyarrow.parquet as pq

    boards = pq.ParquetFile(out / "boards.parquet").metadata.num_rows
    shutil.rmtree(out, ignore_errors=True)
    maxrss = json.loads(stdout.decode().strip().splitlines()[-1])["maxrss_kib"]
    return {"boards": boards, "seconds": dt, "proc_mib": maxrss / 1024, "total_mib": peak_total / 2**20}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100_000, help="boards in the large input (e.g. 1000000)")
    ap.add_argument("--small", type=int, default=10_000, help="boards in the small input")
    ap.add_argument("--per-file", type=int, default=2000, help="boards per file (files layout; seed size)")
    ap.add_argument("--jobs", default="1,2", help="comma-separated --jobs values")
    ap.add_argument("--layout", choices=("files", "one-file", "both"), default="both")
    ap.add_argument("--cache", type=Path, help="where the inputs are kept (default: under the temporary directory)")
    ap.add_argument("--wrap", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.wrap:
        wrapper(json.loads(args.wrap))
        return
    cache = args.cache or Path(tempfile.gettempdir()) / "handrec-bench-convert"
    cache.mkdir(parents=True, exist_ok=True)
    jobs_list = [int(j) for j in args.jobs.split(",")]
    layouts = ("files", "one-file") if args.layout == "both" else (args.layout,)
    sizes = {"small": args.small, "large": args.boards}
    results: dict[tuple[str, str, int], dict[str, float]] = {}
    print(f"handrec convert, {psutil.cpu_count()} cores; inputs cached in {cache}")
    print(
        f"{'layout':>8} {'input':>5} {'boards':>9} {'jobs':>4} {'seconds':>8} {'boards/s':>9} "
        f"{'peak proc MiB':>13} {'peak total MiB':>14}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        for layout in layouts:
            for label, n in sizes.items():
                src, count = make_input(cache, layout, n, args.per_file)
                for jobs in jobs_list:
                    r = results[(layout, label, jobs)] = measure(src, Path(tmp) / "out", jobs)
                    assert r["boards"] == count, (r["boards"], count)
                    print(
                        f"{layout:>8} {label:>5} {count:>9,} {jobs:>4} {r['seconds']:>8.1f} "
                        f"{r['boards'] / r['seconds']:>9,.0f} {r['proc_mib']:>13.0f} {r['total_mib']:>14.0f}",
                        flush=True,
                    )
    print()
    print(f"large / small ({args.boards:,} / {args.small:,} boards)")
    print(f"{'layout':>8} {'jobs':>4} {'boards/s':>9} {'peak proc':>9} {'peak total':>10}")
    for layout in layouts:
        for jobs in jobs_list:
            s, g = results[(layout, "small", jobs)], results[(layout, "large", jobs)]
            rate = (g["boards"] / g["seconds"]) / (s["boards"] / s["seconds"])
            print(
                f"{layout:>8} {jobs:>4} {rate:>9.2f} {g['proc_mib'] / s['proc_mib']:>9.2f} "
                f"{g['total_mib'] / s['total_mib']:>10.2f}"
            )


if __name__ == "__main__":
    main()
