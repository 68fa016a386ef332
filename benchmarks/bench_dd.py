"""Double-dummy solving: handrec's solver layer against endplay's own ``calc_all_tables``.

    python benchmarks/bench_dd.py [--deals 80] [--rounds 3] [--jobs N]

Each round draws N new distinct random deals and solves them with each
contender, in an order that alternates from round to round (interleaved,
so that the machine's load weighs on all alike):

* ``endplay``: ``endplay.dds.calc_all_tables`` on ``endplay.types.Deal``
  objects, 40 deals a call (its limit), DDS's own threads (one per core);
* ``handrec threads``: :class:`handrec.dd.solver.Solver` in ``"threads"``
  mode with an empty cache (a fresh SQLite file each round): DDS's threads;
* ``handrec pool``: the same in ``"pool"`` mode: one worker process per core,
  each DDS with one thread, tasks of 4 deals (the pool is
  started before the round, as a command's pool lives for the whole run).

It prints deals/s, CPU use (cores busy: CPU seconds of the process and its
workers over the wall time) and the ratio of each handrec row's time to
endplay's (the target: at most 1.15), and checks that all agree.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handrec.dd.cache import DDCache  # noqa: E402
from handrec.dd.solver import Solver  # noqa: E402
from handrec.generate import random_deal  # noqa: E402


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) of this process and the live processes ``pids``."""
    t = os.times()
    total = t.user + t.system
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def _workers(solver: Solver) -> list[int]:
    pool = solver._pool
    return [p.pid for p in (getattr(pool, "_processes", None) or {}).values()] if pool is not None else []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=80, help="distinct deals a round (default 80)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EDeal

    work = Path(tempfile.mkdtemp(prefix="bench-dd-"))
    os.chdir(work)  # DDS's dump.txt, if any, lands here
    rng = random.Random(args.seed)
    pool_solver = Solver(None, jobs=args.jobs, mode="pool")
    pool_solver.tables([str(random_deal(rng)) for _ in range(args.jobs * 4 * 4)])  # start and warm the workers
    calc_all_tables([EDeal(str(random_deal(rng)))])  # warm DDS in this process

    def endplay(keys: list[str]) -> list[str]:
        out = []
        for i in range(0, len(keys), 40):
            for t in calc_all_tables([EDeal(k) for k in keys[i : i + 40]]):
                g = t.to_list()  # [S H D C NT][N E S W]
                out.append("".join(f"{g[d][p]:x}" for p in (0, 2, 1, 3) for d in (4, 0, 1, 2, 3)))
        return out

    def handrec(mode: str, rnd: int):
        def run(keys: list[str]) -> list[str]:
            if mode == "pool":
                s = pool_solver
                s.clear()
                s.cache = DDCache(work / f"cache-pool-{rnd}")
            else:
                s = Solver(DDCache(work / f"cache-threads-{rnd}"), mode="threads")
            tables = s.tables(keys)
            s.cache.close()  # type: ignore[union-attr]
            return [t.to_hex() for t in tables]

        return run

    names = ["endplay", "handrec threads", "handrec pool"]
    totals = {n: [0.0, 0.0] for n in names}
    for rnd in range(args.rounds):
        keys = list(dict.fromkeys(str(random_deal(rng)) for _ in range(args.deals)))
        order = names if rnd % 2 == 0 else names[::-1]
        results = {}
        for name in order:
            fn = endplay if name == "endplay" else handrec(name.split()[1], rnd)
            pids = _workers(pool_solver) if name == "handrec pool" else []
            c0, t0 = _cpu_of(pids), time.perf_counter()
            results[name] = fn(keys)
            wall, cpu = time.perf_counter() - t0, _cpu_of(pids) - c0
            totals[name][0] += wall
            totals[name][1] += cpu
            print(f"round {rnd + 1} {name:16s} {len(keys) / wall:6.2f} deals/s  {cpu / wall:4.2f} cores", flush=True)
        assert results["handrec threads"] == results["endplay"] == results["handrec pool"], "solvers disagree"
    pool_solver.close()
    n = args.deals * args.rounds
    base = totals["endplay"][0]
    print(f"\n{n} distinct deals ({args.rounds} rounds of {args.deals}), {os.cpu_count()} cores, jobs {args.jobs}\n")
    print("| solver | deals/s | cores busy | time vs endplay |")
    print("| --- | ---: | ---: | ---: |")
    for name in names:
        wall, cpu = totals[name]
        print(f"| {name} | {n / wall:.2f} | {cpu / wall:.2f} | {wall / base:.2f} |")


if __name__ == "__main__":
    main()
