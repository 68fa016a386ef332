"""SIGKILL a conversion at 20 random moments: the folder always holds the old or a readable new dataset,
and ``convert --resume`` finishes the job with the same rows as a clean run (no row twice).

A helper process imports handrec once and forks one conversion per round
(so a round costs the conversion, not Python's start-up); the test kills
the conversion's whole process group (workers too, as a power cut would)
after a random delay spread over the time a full conversion takes.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.query import QueryError
from handrec.dataset.query import run as query
from handrec.dataset.store import WORK_DIR
from handrec.dataset.tables import SCHEMAS
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert

TABLES = ("boards", "calls", "plays", "diagnostics", "supplemental", "files")
ROUNDS = 20

#: Reads "OUT JOBS [PART_BYTES]" lines; for each, forks a conversion of IN into OUT and prints its pid, then "done".
_ZYGOTE = r"""
import io, os, sys
from handrec.formats.dispatch import read
from handrec.runs.convert import convert
src = sys.argv[1]
for text, fmt in (('[Board "1"]', "pbn"), ("md|1S,S,S,S|", "lin")):
    list(read(io.StringIO(text), format=fmt))  # build the parsers once, before forking
print("ready", flush=True)
for line in sys.stdin:
    out, jobs, *part = line.split()
    kw = {"part_bytes": int(part[0])} if part else {}
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        try:
            convert([src], out, jobs=int(jobs), task_bytes=1, batch_boards=2, **kw)
        finally:
            os._exit(0)
    print(pid, flush=True)
    os.waitpid(pid, 0)
    print("done", flush=True)
"""


def _write(path: Path, n: int, seed: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    s = io.StringIO()
    (pbn_dump if path.suffix == ".pbn" else lin_dump)(generate_boards(n, seed), s)
    path.write_text(s.getvalue(), encoding="utf-8", newline="")


def _tables(out: Path) -> dict[str, pa.Table]:
    return {t: pq.read_table(out / f"{t}.parquet") for t in TABLES}


def _rows(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """The tables without ``files.status`` (``unchanged`` for reused rows, ``ok`` for read ones)."""
    return {t: (v.drop_columns(["status"]) if t == "files" else v) for t, v in tables.items()}


def _same(a: dict[str, pa.Table], b: dict[str, pa.Table]) -> bool:
    a, b = _rows(a), _rows(b)
    return all(a[t].equals(b[t]) for t in TABLES)


def _run_id(path: Path) -> bytes | None:
    return (pq.read_schema(path).metadata or {}).get(b"handrec.run")


class Zygote:
    def __init__(self, src: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE, str(src)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout.readline().strip() == "ready"

    def start(self, out: Path, jobs: int, part_bytes: int | None = None) -> int:
        self.proc.stdin.write(f"{out} {jobs}{'' if part_bytes is None else f' {part_bytes}'}\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def wait(self) -> None:
        assert self.proc.stdout.readline().strip() == "done"

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


def test_kill_at_random_points_then_resume(tmp_path: Path) -> None:
    src = tmp_path / "in"
    for i in range(6):
        _write(src / f"d{i % 2}" / f"f{i}.{'lin' if i % 3 == 0 else 'pbn'}", 3 + i % 3, seed=i)
    # the dataset already there in half the rounds: the same inputs before one changed and one was added
    old = tmp_path / "old"
    _write(src / "d0" / "f0.lin", 2, seed=99)
    (src / "d1" / "f5.pbn").rename(tmp_path / "f5.pbn")
    convert([src], old, jobs=1)
    _write(src / "d0" / "f0.lin", 3, seed=0)
    (tmp_path / "f5.pbn").rename(src / "d1" / "f5.pbn")
    clean = tmp_path / "clean"
    convert([src], clean, jobs=1)
    want, was = _tables(clean), _tables(old)

    seed = int(os.environ.get("HANDREC_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    zygote = Zygote(src)
    try:
        times = []
        for k in range(2):
            t0 = time.monotonic()
            zygote.start(tmp_path / f"timing{k}", 1)
            zygote.wait()
            times.append(time.monotonic() - t0)
        full = max(times)
        seen = {"nothing": 0, "old": 0, "new": 0, "mixed": 0}
        slots = rng.sample(range(ROUNDS), ROUNDS)
        for i in range(ROUNDS):
            out = tmp_path / f"r{i}"
            had_old = i % 2 == 1
            if had_old:
                shutil.copytree(old, out)
            jobs = 2 if i % 4 == 3 else 1
            pid = zygote.start(out, jobs)
            delay = full * 1.15 * (slots[i] + rng.random()) / ROUNDS  # one kill in each 20th of the run
            time.sleep(delay)
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # finished before the kill
            zygote.wait()
            where = f"round {i} (seed {seed}, kill after {delay:.3f}s of ~{full:.3f}s, jobs {jobs})"

            # every table file there is complete and readable
            present = sorted(p.name for p in out.glob("*.parquet"))
            for name in present:
                pq.read_table(out / name)
            if not present:
                assert not had_old, where
                seen["nothing"] += 1
            else:
                runs = {_run_id(out / n) for n in present}
                if len(present) == len(SCHEMAS) and len(runs) == 1:
                    now = _tables(out)
                    if had_old and _same(now, was):
                        seen["old"] += 1
                    else:
                        assert _same(now, want), where
                        seen["new"] += 1
                else:
                    # killed between the five renames (microseconds): each file is whole, and the run ids
                    # in their metadata tell the next conversion to read everything again
                    seen["mixed"] += 1
                    if "boards.parquet" in present:  # and query refuses the mixture
                        with pytest.raises(QueryError, match="interrupted 'handrec convert'"):
                            query(out, "select count(*) from boards")

            # --resume finishes the job: the rows of a clean run, none twice
            if i % 5 == 4:
                r = CliRunner().invoke(app, ["convert", str(src), "-o", str(out), "--resume", "--jobs", "1", "-q"])
                assert r.exit_code == 0, (where, r.output)
            else:
                convert([src], out, jobs=1 + i % 2, resume=True)
            now = _tables(out)
            assert _same(now, want), where
            assert now["boards"].column("board_id").to_pylist() == list(range(want["boards"].num_rows)), where
            assert not (out / WORK_DIR).exists(), where
            assert sorted(p.name for p in out.iterdir()) == [f"{t}.parquet" for t in sorted(SCHEMAS)], where
            shutil.rmtree(out)
    finally:
        zygote.close()
    print(f"kill points (seed {seed}): {seen}")
    assert sum(seen.values()) == ROUNDS


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_zygote_conversion_equals_in_process(tmp_path: Path) -> None:
    """The forked conversion the kill test relies on writes what an in-process one does."""
    src = tmp_path / "in"
    _write(src / "a.pbn", 3, seed=1)
    z = Zygote(src)
    try:
        z.start(tmp_path / "forked", 2)
        z.wait()
    finally:
        z.close()
    convert([src], tmp_path / "direct", jobs=1)
    assert _same(_tables(tmp_path / "forked"), _tables(tmp_path / "direct"))


@pytest.mark.parametrize("had_old", [False, True])
def test_query_refuses_a_dataset_cut_between_the_renames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, had_old: bool
) -> None:
    """The final renames are not one atomic step: a kill after some of them leaves tables of two runs (or
    some tables missing); ``handrec query`` then refuses (with ``--db`` too) until a conversion mends it."""
    import handrec.dataset.store as store

    src = tmp_path / "in"
    for i in range(3):
        _write(src / f"f{i}.pbn", 4 + i, seed=i)
    out = tmp_path / "ds"
    if had_old:
        convert([src], out, jobs=1)
        _write(src / "f1.pbn", 3, seed=42)
    real = os.replace
    calls = {"n": 0}

    def replace(a, b):  # the third final rename "fails", as a kill there would
        if str(b).endswith(".parquet") and Path(b).parent == out:
            calls["n"] += 1
            if calls["n"] == 3:
                raise KeyboardInterrupt
        return real(a, b)

    monkeypatch.setattr(store.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        convert([src], out, jobs=1)
    monkeypatch.setattr(store.os, "replace", real)
    present = sorted(p.name for p in out.glob("*.parquet"))
    assert "boards.parquet" in present
    why = "different conversions" if had_old else "incomplete dataset"
    with pytest.raises(QueryError, match=why):
        query(out, "select count(*) from boards")
    r = CliRunner().invoke(app, ["query", str(out), "select 1", "--db", str(tmp_path / "q.duckdb")])
    assert r.exit_code == 2 and why in r.stderr
    assert not (tmp_path / "q.duckdb").exists()
    convert([src], out, jobs=1)  # a new conversion reads everything again and mends it
    clean = tmp_path / "clean"
    convert([src], clean, jobs=1)
    assert query(out, "select * from boards order by board_id") == query(
        clean, "select * from boards order by board_id"
    )


def test_kill_a_conversion_in_parts_then_resume(tmp_path: Path) -> None:
    """Issue #23.1: one big file read in parts by two workers, killed at random moments: ``--resume``
    (with the same ``--jobs``, taking the parts committed, or another) gives the rows of a clean run."""
    from tests.cli.test_validate_jobs import damaged_pbn

    src = tmp_path / "big.pbn"
    src.write_bytes(damaged_pbn(240, seed=11))
    clean = tmp_path / "clean"
    convert([src], clean, jobs=1)
    want = _tables(clean)
    part_bytes = src.stat().st_size // 8 + 1  # eight parts, four a worker
    seed = int(os.environ.get("HANDREC_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    zygote = Zygote(src)
    rounds = 8
    try:
        t0 = time.monotonic()
        zygote.start(tmp_path / "timing", 2, part_bytes)
        zygote.wait()
        full = time.monotonic() - t0
        assert _same(_tables(tmp_path / "timing"), want)
        for i in range(rounds):
            out = tmp_path / f"r{i}"
            pid = zygote.start(out, 2, part_bytes)
            delay = full * (i + rng.random()) / rounds
            time.sleep(delay)
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            zygote.wait()
            where = f"round {i} (seed {seed}, kill after {delay:.3f}s of ~{full:.3f}s)"
            convert([src], out, jobs=2 if i % 3 else 1, resume=True, part_bytes=part_bytes)
            now = _tables(out)
            assert _same(now, want), where
            assert now["boards"].column("board_id").to_pylist() == list(range(240)), where
            assert not (out / WORK_DIR).exists(), where
            shutil.rmtree(out)
    finally:
        zygote.close()
