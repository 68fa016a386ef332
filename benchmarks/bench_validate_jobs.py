"""``handrec validate --jobs 1`` against ``--jobs 2`` where the parent has most to do: many diagnostics, early stops.

Run:

    python benchmarks/bench_validate_jobs.py [--boards 20000] [--rounds 5] [--case NAME ...] [--plain]

Cases, each on a generated PBN file (``handrec.generate`` with realistic records:
full deals, auctions with note references and suffixes on about a tenth of the
calls, comments, claims, passed-out and doubled boards, results; ``--plain``
for plain ones):

* ``clean``: the generated file as it is (no diagnostic);
* ``repeated``: every game's Board tag given twice (one T102 warning a board);
* ``unknown5``: five unknown tags a game, read with ``strict`` (five T120
  warnings a board, and one F020 with ``--plain``, whose file says ``% EXPORT``);
* ``max-errors``: every game's Score wrong (one S601 error a board), read with
  ``max_errors=50``: how soon the run stops;
* ``fail-fast``: the same file with ``max_errors=1``.

Each run is what ``handrec validate`` does (:func:`handrec.runs.validate.validate_paths`,
then every finding formatted as the CLI prints it, into ``/dev/null``), in this process.
Every (case, jobs) run is a task of ``benchmarks/_interleave.py``: each round runs every
task once, in an order rotated by one each round; a figure is the best of ``--rounds``.
``wall`` is the elapsed time; ``parent cpu`` and ``workers cpu`` are the CPU seconds (user +
system) of this process and of the worker processes (``resource.getrusage``), each the
best of the rounds on its own: the parent's share is what the pool cannot spread, and CPU
time moves less than wall time with other work on the machine.  ``findings`` counts what
was reported (the same whatever ``jobs``: checked).
"""

from __future__ import annotations

import argparse
import io
import re
import tempfile
from pathlib import Path

from _interleave import add_rounds_argument, interleave

from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.runs.validate import validate_paths


def make_files(folder: Path, boards: int, realistic: bool = True) -> dict[str, tuple[Path, dict]]:
    buf = io.StringIO()
    dump(generate_boards(boards, seed=1, realistic=realistic), buf, suffixes=realistic)
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


def run(path: Path, jobs: int, kw: dict) -> int:
    """One ``validate``, its findings printed as the CLI prints them (to /dev/null): how many."""
    n = 0
    with open("/dev/null", "w") as out:
        for rep in validate_paths([path], jobs=jobs, **kw):
            for f in rep.findings:
                out.write(str(f.diagnostic) + "\n")
                n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20000)
    add_rounds_argument(ap)
    ap.add_argument("--case", action="append", help="only these cases (default: all)")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--plain", action="store_true", help="plain generated records (no alerts, notes, claims...)")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp), args.boards, realistic=not args.plain)
        tasks = []
        for name, (path, kw) in files.items():
            if args.case and name not in args.case:
                continue
            for j in jobs:
                tasks.append((f"{name} {j}", lambda path=path, j=j, kw=kw: run(path, j, kw)))
        res = interleave(tasks, args.rounds)
    print(
        f"| case | jobs | wall s (best of {args.rounds} interleaved rounds) | parent cpu s | workers cpu s | findings |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in res.values():
        if r.error is not None:
            raise RuntimeError(f"{r.name}: {r.error}")
        name, j = r.name.rsplit(" ", 1)
        print(f"| {name} | {j} | {r.wall:.2f} | {r.self_cpu:.2f} | {r.child_cpu:.2f} | {r.value:,} |")
    for name in {r.name.rsplit(" ", 1)[0] for r in res.values()}:  # the same findings whatever jobs
        counts = {r.value for r in res.values() if r.name.rsplit(" ", 1)[0] == name}
        assert len(counts) == 1, (name, counts)


if __name__ == "__main__":
    main()
