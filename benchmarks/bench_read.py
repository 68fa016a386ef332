"""Boards per second: parse only and parse + full validation, PBN and LIN.

Each figure is reported beside a baseline measured in the same run on the
same file: reading the file and splitting it into lines.  Run:

    python benchmarks/bench_read.py [--boards 20000]

The input is generated (``handrec.generate``: full deals, auctions, 13
tricks of play, results and scores) so the run needs nothing else.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from handrec.generate import generate_boards
from handrec.io import decode_lines
from handrec.lin import dump as lin_dump
from handrec.parse.lin import parse_lin
from handrec.parse.pbn import parse_pbn
from handrec.pbn import dump as pbn_dump
from handrec.validator import analyse


def best_of(n: int, fn: Callable[[], int]) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(n):
        t0 = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - t0)
    return best, count


def lines_of(path: Path) -> list[str]:
    with open(path, "rb") as f:
        return list(decode_lines(f, str(path), []))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for fmt, dump in (("pbn", pbn_dump), ("lin", lin_dump)):
            p = Path(tmp) / f"bench.{fmt}"
            with open(p, "w", encoding="utf-8", newline="") as f:
                dump(generate_boards(args.boards, seed=7), f)
            files[fmt] = p
        print(f"{'format':6} {'task':24} {'boards/s':>10} {'vs lines':>9}")
        for fmt, p in files.items():
            parse = parse_pbn if fmt == "pbn" else parse_lin

            def baseline(p: Path = p) -> int:
                with open(p, "rb") as f:
                    return sum(1 for _ in io.TextIOWrapper(f, encoding="utf-8"))

            def parse_only(p: Path = p, parse=parse) -> int:
                with open(p, "rb") as f:
                    return sum(1 for _ in parse(decode_lines(f, str(p), []), str(p), []))

            def parse_validate(p: Path = p, parse=parse) -> int:
                n = 0
                with open(p, "rb") as f:
                    for b in parse(decode_lines(f, str(p), []), str(p), []):
                        analyse(b)
                        n += 1
                return n

            t_base, _ = best_of(args.repeat, baseline)
            for name, fn in (("parse", parse_only), ("parse + validate", parse_validate)):
                t, n = best_of(args.repeat, fn)
                assert n == args.boards, (fmt, name, n)
                print(f"{fmt:6} {name:24} {n / t:10.0f} {t / t_base:8.1f}x")
            print(f"{fmt:6} {'read + split lines':24} {args.boards / t_base:10.0f} {1.0:8.1f}x")


if __name__ == "__main__":
    main()
