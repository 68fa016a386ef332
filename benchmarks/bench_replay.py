"""Per-board cost of validation (replay) and of ``TableBuffers.add``, parse excluded.

The boards are generated (``handrec.generate``), written as PBN or LIN and read
back once; then ``analyse`` and ``TableBuffers.add`` are timed over the parsed
boards, best of ``--repeat`` runs (the ranges show the noise).  Run:

    python benchmarks/bench_replay.py [--boards 3000] [--repeat 7] [--profile]
"""

from __future__ import annotations

import argparse
import io
import time

from handrec.dataset.tables import TableBuffers
from handrec.formats.dispatch import read
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.rules.play import replay_play
from handrec.rules.replay import replay
from handrec.rules.validator import analyse


def timed(repeat: int, fn) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="cProfile analyse + add instead of timing")
    args = ap.parse_args()
    gen = list(generate_boards(args.boards, seed=args.seed))
    for fmt, dump in (("pbn", pbn_dump), ("lin", lin_dump)):
        text = io.StringIO(newline="")
        dump(gen, text)
        boards = list(read(io.StringIO(text.getvalue(), newline="")))
        assert len(boards) == args.boards, (fmt, len(boards))
        run_format(fmt, boards, args)


def run_format(fmt: str, boards: list, args: argparse.Namespace) -> None:
    analyses = [analyse(b) for b in boards]
    if args.profile:
        import cProfile
        import pstats

        def work() -> None:
            buf = TableBuffers()
            for b in boards:
                buf.add(analyse(b))

        pr = cProfile.Profile()
        pr.runcall(work)
        pstats.Stats(pr).sort_stats("tottime").print_stats(15)
        return
    plays = []
    for b, a in zip(boards, analyses):
        c = a.replay.contract
        if b.play is not None and c is not None and c.strain is not None:
            plays.append((b.play, c, b.deal))

    def run_play() -> None:
        for p, c, d in plays:
            replay_play(p, c, d)

    def run_replay() -> None:
        for b in boards:
            replay(b)

    def run_analyse() -> None:
        for b in boards:
            analyse(b)

    def run_add() -> None:
        buf = TableBuffers()
        for a in analyses:
            buf.add(a)

    def run_take() -> None:
        buf = TableBuffers()
        for a in analyses:
            buf.add(a)
        for name in ("boards", "calls", "plays", "diagnostics"):
            buf.take(name)

    n = len(boards)
    print(f"{fmt}: {n} boards ({len(plays)} with play); µs per board, best [range] of {args.repeat}")
    for name, fn, k in (
        ("replay_play", run_play, len(plays)),
        ("replay", run_replay, n),
        ("analyse", run_analyse, n),
        ("TableBuffers.add", run_add, n),
        ("add + take (Arrow)", run_take, n),
    ):
        ts = [t * 1e6 / k for t in timed(args.repeat, fn)]
        print(f"  {name:20} {min(ts):8.1f}  [{min(ts):.1f}-{max(ts):.1f}]")


if __name__ == "__main__":
    main()
