"""Interleaved timing of named tasks, shared by the benchmarks that compare tasks (issue #23.6).

Each round runs every task once, in an order rotated by one each round, so that a change of
the machine's load lands on every task alike and not on one row; a task's figures are the
best of the rounds (``--rounds``, 5 by default): wall time (``time.perf_counter``) and CPU
time, user + system, of this process and of the child processes that ended during the task
(``resource.getrusage``: a subprocess the task waited for, the workers of a pool it closed),
each the best over the rounds on its own.  :func:`table` gives them with ratios against named
baselines measured in the same rounds.

    from _interleave import add_rounds_argument, interleave, table

    results = interleave([("lines", read_lines), ("parse", parse)], rounds=args.rounds)
    print(table(results, baselines=["lines"], count=boards, per="board"))

A task is a function without arguments; what it returns is kept (``Result.value``, the value
of its last run: a count of boards, of findings) so that a benchmark can check it.  A task
that raises is dropped from the later rounds and reported with its error.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["Result", "add_rounds_argument", "interleave", "table", "write_generated"]


@dataclass
class Result:
    """One task's figures over the rounds: ``walls`` and ``cpus`` (seconds, one a round it
    ran), ``self_cpus`` and ``child_cpus`` (this process's CPU and its ended children's, which
    add up to ``cpus``), ``value`` (what the last run returned), ``error`` (why it stopped)."""

    name: str
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    self_cpus: list[float] = field(default_factory=list)
    child_cpus: list[float] = field(default_factory=list)
    value: object = None
    error: str | None = None

    @property
    def wall(self) -> float:
        """The best wall time (seconds); ``nan`` when the task never ran to its end."""
        return min(self.walls, default=float("nan"))

    @property
    def cpu(self) -> float:
        """The best CPU time, user + system of this process and its ended children (seconds)."""
        return min(self.cpus, default=float("nan"))

    @property
    def self_cpu(self) -> float:
        """The best CPU time of this process alone (seconds)."""
        return min(self.self_cpus, default=float("nan"))

    @property
    def child_cpu(self) -> float:
        """The best CPU time of the child processes alone (seconds)."""
        return min(self.child_cpus, default=float("nan"))


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def add_rounds_argument(ap: argparse.ArgumentParser, default: int = 5) -> None:
    """Add ``--rounds N`` (each round runs every task once; best of the rounds)."""
    ap.add_argument(
        "--rounds", type=int, default=default, help=f"rounds, each running every task once; best of them ({default})"
    )


def interleave(
    tasks: Sequence[tuple[str, Callable[[], object]]],
    rounds: int = 5,
    *,
    warmup: bool = False,
    after: Callable[[str], None] | None = None,
    progress: bool = True,
) -> dict[str, Result]:
    """Run ``tasks`` (``(name, function)`` pairs, names unique) in ``rounds`` rounds, each
    round every task once, the order rotated by one each round; the results by name, in the
    order of ``tasks``.  ``warmup``: one untimed round first (caches, bytecode, parsers);
    ``after(name)`` runs untimed after each task (to remove its output); ``progress`` prints
    a line to stderr after each round.

    :raises ValueError: no task, a name given twice, or ``rounds`` below 1.
    """
    names = [name for name, _ in tasks]
    if not tasks or len(set(names)) != len(names) or rounds < 1:
        raise ValueError(f"interleave needs tasks with unique names and rounds >= 1, not {names!r}, {rounds}")
    results = {name: Result(name) for name in names}
    if warmup:
        for name, fn in tasks:
            try:
                fn()
            except Exception as e:  # reported as the task's error; it is not timed then
                results[name].error = f"{type(e).__name__}: {e}"
            if after is not None:
                after(name)
    for r in range(rounds):
        k = r % len(tasks)
        for name, fn in [*tasks[k:], *tasks[:k]]:
            res = results[name]
            if res.error is not None:
                continue
            s0, c0, t0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
            try:
                value = fn()
            except Exception as e:  # a peer's reader gives up on some inputs: reported, not fatal
                res.error = f"{type(e).__name__}: {e}"
                continue
            finally:
                wall = time.perf_counter() - t0
                own, children = _cpu(resource.RUSAGE_SELF) - s0, _cpu(resource.RUSAGE_CHILDREN) - c0
                if after is not None:
                    after(name)
            res.walls.append(wall)
            res.self_cpus.append(own)
            res.child_cpus.append(children)
            res.cpus.append(own + children)
            res.value = value
        if progress:
            print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    return results


def table(
    results: dict[str, Result],
    baselines: Sequence[str] = (),
    *,
    count: int | None = None,
    per: str = "board",
    width: int = 0,
) -> str:
    """The results as a text table: per task its best wall and CPU seconds; with ``count``
    (items each run handles) ``{per}s/s`` from the best wall and CPU µs per item; then for
    each baseline the task's wall and CPU over the baseline's (``x NAME``: 2.00 = twice the
    baseline's time).  A task that failed shows its error; a baseline that failed gives no
    ratio.  The first line gives the load average and the number of rounds run."""
    width = width or max(12, *(len(n) for n in results))
    rounds = max((len(r.walls) for r in results.values()), default=0)
    load = os.getloadavg()
    head = [f"{'task':<{width}}", f"{'wall s':>8}", f"{'cpu s':>8}"]
    if count is not None:
        head += [f"{per + 's/s':>10}", f"{'cpu us/' + per:>13}"]
    for b in baselines:
        head += [f"{'wall x ' + b[:12]:>20}", f"{'cpu x ' + b[:12]:>20}"]
    lines = [
        f"best of {rounds} interleaved rounds; {os.cpu_count()} CPUs; load average {load[0]:.2f} {load[1]:.2f}",
        " ".join(head),
    ]
    for name, r in results.items():
        if not r.walls:
            lines.append(f"{name:<{width}} failed: {r.error}")
            continue
        cells = [f"{name:<{width}}", f"{r.wall:>8.3f}", f"{r.cpu:>8.3f}"]
        if count is not None:
            cells += [f"{count / r.wall:>10,.0f}", f"{r.cpu / count * 1e6:>13,.0f}"]
        for b in baselines:
            base = results.get(b)
            if base is None or not base.walls:
                cells += [f"{'':>20}", f"{'':>20}"]
            else:
                cpu_ratio = r.cpu / base.cpu if base.cpu > 0 else float("nan")
                cells += [f"{r.wall / base.wall:>19.2f}x", f"{cpu_ratio:>19.2f}x"]
        lines.append(" ".join(cells))
        if r.error is not None:
            lines.append(f"{'':<{width}} (stopped after {len(r.walls)} rounds: {r.error})")
    return "\n".join(lines)


def write_generated(path: os.PathLike[str] | str, boards: int, seed: int = 7, *, realistic: bool = True) -> int:
    """Write ``boards`` generated boards to ``path`` (``.pbn`` or ``.lin``) as ``handrec
    generate`` does: realistic records by default (note references and suffixes on about a
    tenth of the calls, comments, claims, passed-out and doubled boards:
    :data:`handrec.generate.REALISTIC`), so that a benchmark reads what real files hold.
    Returns the number of boards written."""
    from handrec.generate import generate_boards

    gen = generate_boards(boards, seed, realistic=realistic)
    with open(path, "w", encoding="utf-8", newline="") as f:
        if str(path).lower().endswith(".lin"):
            from handrec.formats.lin.writer import dump as lin_dump

            return lin_dump(gen, f)
        from handrec.formats.pbn.writer import dump as pbn_dump

        return pbn_dump(gen, f, suffixes=realistic)
