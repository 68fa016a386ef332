"""``handrec validate --jobs 1`` against ``--jobs 2`` with the pool forced and small parts (shared by the jobs tests)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import handrec.runs.parts as vp
from handrec.cli import app

runner = CliRunner()


def both(monkeypatch: pytest.MonkeyPatch, args: list, part_bytes: int = 20_000, stdin: bytes | None = None):
    """``validate --jobs 1`` and ``validate --jobs 2`` (pool forced, parts of ``part_bytes``, the first a
    quarter of that with ``--max-errors``/``--fail-fast``): (stdout, stderr, exit)."""
    out = []
    for jobs in (1, 2):
        with monkeypatch.context() as m:
            if jobs == 2:
                m.setattr(vp, "POOL_BYTES", 0)
                m.setattr(vp, "PART_BYTES", part_bytes)
                m.setattr(vp, "EARLY_PART_BYTES", part_bytes)
                m.setattr(vp, "EARLY_FIRST_BYTES", part_bytes // 4)  # --max-errors: a small first part
                m.setattr(vp, "PARTS_PER_JOB", 64)
                m.setattr(vp, "LIN_PART_BYTES", part_bytes)  # a LIN file in parts of part_bytes too
            r = runner.invoke(app, ["validate", "--jobs", str(jobs), *map(str, args)], input=stdin)
        assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
        out.append((r.stdout, r.stderr, r.exit_code))
    return out


def same_output(monkeypatch: pytest.MonkeyPatch, path: object, cases: list[list[str]]) -> dict:
    """:func:`both` for each list of options in ``cases`` on ``path``: the two runs agree;
    ``{tuple(options): (stdout, stderr, exit)}``."""
    runs = {}
    for args in cases:
        one, two = both(monkeypatch, [*args, path])
        assert two == one, args
        runs[tuple(args)] = one
    return runs
