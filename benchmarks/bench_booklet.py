"""Booklet time for 32 and 128 boards: PDF and HTML, with and without double dummy.

Boards are generated (``handrec.generate``: full deals, one game each), written
as PBN and read back.  Each case is timed in this run and shown as a ratio
against two baselines measured in the same run on the same boards: reading
the PBN text (``read``) and rendering the Jinja2 template to Typst source
without double dummy (``typst src``).  The double-dummy cases solve every deal
with endplay (DDS, 40 deals a call) from a **fresh** cache (memory cleared, a
new empty cache folder), then once more from the disk cache alone (memory
cleared again: what a second ``handrec booklet --dd`` costs).  "+ results" is
the same boards played at 4 tables each (travellers, matchpoints, ranking).
Best of ``--repeat`` runs, except the fresh-cache solving cases (one run).
Run:

    python benchmarks/bench_booklet.py [--sizes 32 128] [--repeat 3] [--no-dd]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from handrec.booklet.html import render_html
from handrec.booklet.pdf import render_pdf, render_typst_source
from handrec.dd import solver as dd
from handrec.formats.dispatch import read
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards


def best(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def pbn_text(n: int, tables: int = 1) -> str:
    out = io.StringIO(newline="")
    pbn_dump(list(generate_boards(n * tables, seed=n, tables=tables)), out)
    return out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[32, 128])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-dd", action="store_true", help="skip the double-dummy cases (no endplay needed)")
    args = ap.parse_args()
    solve = not args.no_dd and dd.solver_available()
    print(
        f"handrec booklet benchmark; Python {platform.python_version()}, {os.cpu_count()} CPUs; best of {args.repeat}"
    )
    if not solve:
        print("(double-dummy cases skipped: " + ("--no-dd" if args.no_dd else "endplay not installed") + ")")
    header = f"{'case':34} {'boards':>6} {'seconds':>9} {'x read':>8} {'x typst src':>12}"
    print(header)
    print("-" * len(header))
    work = Path(tempfile.mkdtemp(prefix="handrec-bench-"))
    os.chdir(work)  # DDS may write dump.txt into the working directory
    warm = list(generate_boards(2, seed=1))
    render_pdf(warm, dd=False)  # load the templates, fonts and Typst once, outside the timings
    render_html(warm, dd=False)
    for n in args.sizes:
        bench_size(n, args.repeat, solve, work)


def bench_size(n: int, repeat: int, solve: bool, work: Path) -> None:
    """Print the rows of one size (see the module doc)."""
    text = pbn_text(n)
    boards = list(read(io.StringIO(text, newline="")))
    assert len(boards) == n
    t_read = best(repeat, lambda: list(read(io.StringIO(text, newline=""))))
    t_src = best(repeat, lambda: render_typst_source(boards, dd=False))

    def row(case: str, seconds: float) -> None:
        print(f"{case:34} {n:6d} {seconds:9.3f} {seconds / t_read:8.1f} {seconds / t_src:12.1f}")

    row("read PBN (baseline)", t_read)
    row("Jinja -> Typst source (baseline)", t_src)
    t_pdf = best(repeat, lambda: render_pdf(boards, dd=False))
    row("PDF, no DD", t_pdf)
    row("HTML, no DD", best(repeat, lambda: render_html(boards, dd=False)))
    if solve:
        dd.clear_cache()
        previous = dd.set_cache_dir(work / f"cache-solve-{n}")  # fresh and empty
        try:
            t0 = time.perf_counter()
            dd.solve_tables([b.deal for b in boards])
            t_solve = time.perf_counter() - t0
        finally:
            dd.set_cache_dir(previous)
            dd.clear_cache()
        row("solve alone (fresh cache)", t_solve)
        for fmt, render in (("PDF", render_pdf), ("HTML", render_html)):
            dd.clear_cache()
            previous = dd.set_cache_dir(work / f"cache-{fmt}-{n}")  # fresh and empty
            try:
                t0 = time.perf_counter()
                render(boards, dd=True)
                t_dd = time.perf_counter() - t0
                row(f"{fmt}, DD solved (fresh cache)", t_dd)
                if fmt == "PDF":  # the target: at most 1.2 times the solve alone plus the booklet without DD
                    print(f"{'  PDF DD / (solve + PDF no DD)':34} {n:6d} {t_dd / (t_solve + t_pdf):9.2f}")

                def cached(render: Callable[..., object] = render) -> None:
                    dd.clear_cache()  # memory cleared: the tables come from the disk cache
                    render(boards, dd=True)

                row(f"{fmt}, DD from the disk cache", best(repeat, cached))
            finally:
                dd.set_cache_dir(previous)
                dd.clear_cache()
    games = list(read(io.StringIO(pbn_text(n, tables=4), newline="")))
    row("PDF + results (4 tables a board)", best(repeat, lambda: render_pdf(games, dd=False)))
    row("HTML + results (4 tables a board)", best(repeat, lambda: render_html(games, dd=False)))


if __name__ == "__main__":
    main()
