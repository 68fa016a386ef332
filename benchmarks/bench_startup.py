"""Start-up of the quick commands against importing lark, typer and rich alone (issue #23 item 4).

Run from the repository root:

    python benchmarks/bench_startup.py [--rounds 5] [--no-bytecode]

Every task is a fresh ``python`` process: the baseline ``python -c "import lark, typer, rich"``,
then ``handrec --help``, ``handrec codes``, ``handrec validate`` of a small PBN file and of a
small LIN file (the command line as its console script runs it: ``from handrec.cli import main;
main()``).  The tasks are interleaved (``benchmarks/_interleave.py``): each round runs every
task once, in an order rotated by one each round, so a change of load lands on every row alike;
a figure is the best of ``--rounds`` rounds.  ``wall`` is the elapsed time of the process;
``cpu`` its user + system time (``resource.getrusage`` of the children); ``x base`` is the
ratio of the wall time to the baseline's, ``cpu x base`` of the CPU time, measured in the same
run (the target: at most 2).

Bytecode: the processes read compiled modules from a temporary ``PYTHONPYCACHEPREFIX`` written
by one untimed warm-up round, as an installed package starts; ``--no-bytecode`` keeps the
environment as it is (with ``PYTHONDONTWRITEBYTECODE`` set, every start compiles handrec's
sources again).  Lark's analysed grammars are cached (:func:`handrec.formats._lark.lalr_parser`)
in a temporary folder, written by the warm-up round too; the two ``no Lark cache`` rows build
them in the process (``HANDREC_LARK_CACHE=""``), measured in the same rounds; ``--no-lark-cache``
turns the cache off for every row.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from _interleave import add_rounds_argument, interleave

ROOT = Path(__file__).parents[1]

_CLI = "import sys; sys.argv[0] = 'handrec'; from handrec.cli import main; main()"

#: (label, python arguments); the first is the baseline.
TASKS: list[tuple[str, list[str]]] = [
    ("import lark, typer, rich", ["-c", "import lark, typer, rich"]),
    ("handrec --help", ["-c", _CLI, "--help"]),
    ("handrec codes", ["-c", _CLI, "codes"]),
    ("handrec validate club_pairs.pbn", ["-c", _CLI, "validate", "sample_data/club_pairs.pbn"]),
    ("handrec validate bbo_hands.lin", ["-c", _CLI, "validate", "sample_data/bbo_hands.lin"]),
    # the same two, Lark's parsers built in the process (what the Lark cache saves, same run)
    ("validate club_pairs.pbn, no Lark cache", ["-c", _CLI, "validate", "sample_data/club_pairs.pbn"]),
    ("validate bbo_hands.lin, no Lark cache", ["-c", _CLI, "validate", "sample_data/bbo_hands.lin"]),
]


def run_once(label: str, args: list[str], env: dict[str, str]) -> int:
    """One fresh process (timed by :func:`_interleave.interleave`): its exit status, 0 or 1
    (errors found) only.

    :raises RuntimeError: when the command fails otherwise.
    """
    if "no Lark cache" in label:
        env = {**env, "HANDREC_LARK_CACHE": ""}
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{args}: exit {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return done.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_rounds_argument(ap)
    ap.add_argument(
        "--no-bytecode", action="store_true", help="keep PYTHONDONTWRITEBYTECODE and the pycache as they are"
    )
    ap.add_argument("--no-lark-cache", action="store_true", help="build the Lark parsers in every process")
    a = ap.parse_args()

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="handrec-bench-pyc-") as pyc:
        if not a.no_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pyc
        env["HANDREC_LARK_CACHE"] = "" if a.no_lark_cache else os.path.join(pyc, "lark")
        # warm-up round (untimed): writes the bytecode and the Lark cache
        res = interleave(
            [(label, lambda label=label, args=args: run_once(label, args, env)) for label, args in TASKS],
            a.rounds,
            warmup=True,
        )
    for r in res.values():
        if r.error is not None:
            raise RuntimeError(f"{r.name}: {r.error}")

    load = os.getloadavg()
    print(
        f"handrec start-up; Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; best of {a.rounds} interleaved rounds; "
        f"bytecode {'as the environment has it' if a.no_bytecode else 'compiled (warm-up round)'}; "
        f"Lark cache {'off' if a.no_lark_cache else 'on'}"
    )
    base = res[TASKS[0][0]]
    print(f"{'task':<40} {'wall s':>7} {'cpu s':>7} {'x base':>7} {'cpu x base':>10}")
    for label, _ in TASKS:
        r = res[label]
        print(f"{label:<40} {r.wall:>7.3f} {r.cpu:>7.3f} {r.wall / base.wall:>7.2f} {r.cpu / base.cpu:>10.2f}")


if __name__ == "__main__":
    main()
