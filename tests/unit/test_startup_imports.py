"""Issue #23 item 4: the quick commands start without the heavy libraries.

``handrec validate`` of a small file, ``handrec --help`` and ``handrec codes`` run in a fresh
interpreter; after the command has finished, its ``sys.modules`` must not hold pyarrow or duckdb
(nor the other libraries only some commands need).  The time itself is a benchmark
(``benchmarks/bench_startup.py``), not a test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

#: Imported only inside the commands that need them (issue #23 item 4).
HEAVY = ("pyarrow", "duckdb", "jinja2", "typst", "numpy", "endplay", "dask", "pandas")


def _loaded_after(args: list[str]) -> tuple[int, list[str], str]:
    """Run ``handrec ARGS`` in a fresh interpreter: its exit status (1, errors found, counts as 0),
    the HEAVY modules it left in ``sys.modules`` and its output."""
    code = (
        "import json, sys\n"
        "argv, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])\n"
        "sys.argv = ['handrec', *argv]\n"
        "from handrec.cli import main\n"
        "status = 0\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as e:\n"
        "    status = e.code or 0\n"
        "sys.stdout.flush()\n"
        "print('\\nLOADED ' + json.dumps([m for m in heavy if m in sys.modules]))\n"
        "sys.exit(0 if status in (0, 1) else status)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args), json.dumps(HEAVY)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    last = out.stdout.rstrip().rsplit("\n", 1)[-1]
    assert last.startswith("LOADED "), out.stderr
    return out.returncode, json.loads(last.removeprefix("LOADED ")), out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "sample_data/club_pairs.pbn"],
        ["validate", "sample_data/bbo_hands.lin"],
        ["--help"],
        ["codes"],
        ["codes", "S601"],
    ],
    ids=" ".join,
)
def test_quick_commands_import_no_heavy_library(args: list[str]) -> None:
    status, loaded, stdout = _loaded_after(args)
    assert status == 0
    assert loaded == []
    if args[0] == "validate":  # the command did its work: the summary line is there
        assert " boards, " in stdout


def test_the_check_sees_a_heavy_import() -> None:
    # handrec schema prints the Parquet schema from pyarrow: the wrapper must report it.
    status, loaded, _ = _loaded_after(["schema"])
    assert status == 0
    assert "pyarrow" in loaded
