"""``handrec validate --jobs 1`` against ``--jobs 2`` where the parent has most to do: many diagnostics, early stops.

Run:

    python benchmarks/bench_validate_jobs.py [--boards 20000] [--repeat 3] [--case NAME ...]

Cases, each on a generated PBN file (``handrec.generate``: full deals,
auctions, play, results):

* ``clean``: the generated file as it is (no diagnostic);
* ``repeated``: every game's Board tag given twice (one T102 warning a board);
* ``unknown5``: five unknown tags a game, read with ``strict`` (five T120 and
  one F020 warning a board);
* ``max-errors``: every game's Score wrong (one S601 error a board), read with
  ``max_errors=50``: how soon the run stops;
* ``fail-fast``: the same file with ``max_errors=1``.

Each run is what ``handrec validate`` does (:func:`handrec.runs.validate.validate_paths`,
then every finding formatted as the CLI prints it, into ``/dev/null``), in this process:
``wall`` is the best of ``--repeat`` runs; ``parent cpu`` and ``workers cpu`` are the
CPU seconds (user + system) of this process and of the worker processes of the same best
run (``resource.getrusage``): the parent's share is what the pool cannot spread, and CPU
time moves less than wall time with other work on the machine.  ``findings`` counts what
was reported (the same whatever ``jobs``: checked).
"""

from __future__ import annotations

import argparse
import io
import re
import resource
import tempfile
import time
from pathlib import Path

from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.runs.validate import validate_paths


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def make_files(folder: Path, boards: int) -> dict[str, tuple[Path, dict]]:
    buf = io.StringIO()
    dump(generate_boards(boards, seed=1), buf)
    text = buf.getvalue()
    board = re.compile(r"^(\[Board [^\]]*\])(\r?\n)", re.M)
    files = {
        "clean": (text, {}),
        "repeated": (board.sub(r"\1\2\1\2", text), {}),
        "unknown5": (board.sub(r'\1\2[Zz1 "a"]\2[Zz2 "b"]\2[Zz3 "c"]\2[Zz4 "d"]\2[Zz5 "e"]\2', text), {"strict": True}),
        "max-errors": (re.sub(r'^(\[Score "NS -?\d+)', r"\g<1>7", text, flags=re.M), {"max_errors": 50}),
    }
    out = {}
    for name, (body, kw) in files.items():
        p = folder / f"{name}.pbn"
        p.write_text(body, newline="")
        out[name] = (p, kw)
    out["fail-fast"] = (out["max-errors"][0], {"max_errors": 1})
    return out


def run(path: Path, jobs: int, kw: dict) -> tuple[float, float, float, int]:
    """One ``validate``: (wall s, parent CPU s, workers CPU s, findings)."""
    c0, w0, t0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
    n = 0
    with open("/dev/null", "w") as out:
        for rep in validate_paths([path], jobs=jobs, **kw):
            for f in rep.findings:
                out.write(str(f.diagnostic) + "\n")
                n += 1
    t = time.perf_counter() - t0
    return t, _cpu(resource.RUSAGE_SELF) - c0, _cpu(resource.RUSAGE_CHILDREN) - w0, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case", action="append", help="only these cases (default: all)")
    ap.add_argument("--jobs", default="1,2")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp), args.boards)
        print(f"| case | jobs | wall s (best of {args.repeat}) | parent cpu s | workers cpu s | findings |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, (path, kw) in files.items():
            if args.case and name not in args.case:
                continue
            counts = set()
            for j in jobs:
                best = min((run(path, j, kw) for _ in range(args.repeat)), key=lambda r: r[0])
                counts.add(best[3])
                print(f"| {name} | {j} | {best[0]:.2f} | {best[1]:.2f} | {best[2]:.2f} | {best[3]:,} |", flush=True)
            assert len(counts) == 1, (name, counts)


if __name__ == "__main__":
    main()
