"""The distributed path: the same conversion on a local two-worker Dask cluster gives the same rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert

pytest.importorskip("distributed")


def _inputs(root: Path) -> Path:
    src = root / "src"
    (src / "a").mkdir(parents=True)
    for i in range(4):
        with open(src / "a" / f"s{i}.pbn", "w", encoding="utf-8", newline="") as f:
            pbn_dump(generate_boards(30, seed=i, path="x"), f)
    with open(src / "m.lin", "w", encoding="utf-8") as f:
        lin_dump(generate_boards(25, seed=99), f)
    return src


def test_dask_local_cluster_matches_single_process(tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    one = tmp_path / "one"
    dist = tmp_path / "dist"
    s1 = convert([src], one, jobs=1, task_bytes=1)
    s2 = convert([src], dist, jobs=2, engine="dask", task_bytes=1)
    assert (s1.files, s1.boards) == (s2.files, s2.boards) == (5, 145)
    for table in ("boards", "calls", "plays", "diagnostics", "files"):
        a = pq.read_table(one / f"{table}.parquet")
        b = pq.read_table(dist / f"{table}.parquet")
        assert a.num_rows == b.num_rows
        assert a.equals(b), table
    assert pq.read_table(one / "files.parquet").equals(pq.read_table(dist / "files.parquet"))


def test_unknown_engine_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="engine"):
        convert([tmp_path], tmp_path / "o", engine="ray")


def test_scheduler_without_the_dask_engine_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="scheduler"):
        convert([_inputs(tmp_path)], tmp_path / "out", scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "out").exists()


def test_cli_scheduler_without_the_dask_engine_is_a_usage_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from handrec.cli import app

    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["convert", str(_inputs(tmp_path)), "-o", str(out), "--scheduler", "tcp://127.0.0.1:9"])
    assert r.exit_code == 2
    assert r.stderr == "handrec: --scheduler goes with --engine dask (it names the Dask cluster to run on)\n"
    assert not out.exists()


def test_unreachable_scheduler_is_named_not_the_output_folder(tmp_path: Path) -> None:
    import time

    import dask
    from typer.testing import CliRunner

    from handrec.cli import app

    src, out = _inputs(tmp_path), tmp_path / "out"
    started = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        r = CliRunner().invoke(
            app, ["convert", str(src), "-o", str(out), "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"]
        )
    assert time.monotonic() - started < 10
    assert r.exit_code == 2
    assert r.stderr.startswith("handrec: cannot reach the Dask scheduler at tcp://127.0.0.1:9: "), r.stderr
    assert "cannot write" not in r.stderr and len(r.stderr.splitlines()) == 1
    assert not out.exists()  # nothing written
