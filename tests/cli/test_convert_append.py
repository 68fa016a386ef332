"""``handrec convert --append`` and ``--replace`` (issue #19.3): a dataset that grows, row for row
the dataset of converting every input at once, and no input dropped without being asked.

week1 is ``sample_data/club_pairs.pbn`` (8 boards, 2 errors), week2 a file of ``handrec generate``
(12 boards at 2 tables: 24 boards rows).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import handrec.runs.parts as vp
from handrec.dataset.store import WORK_DIR
from handrec.dataset.tables import SCHEMAS
from handrec.runs.convert import WouldDrop, convert

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
runner = CliRunner()


def run(*args: object):
    from handrec.cli import app

    return runner.invoke(app, [str(a) for a in args])


def _tables(out: Path) -> dict[str, pa.Table]:
    return {t: pq.read_table(out / f"{t}.parquet") for t in SCHEMAS}


def _same(a: Path, b: Path, status: bool = True) -> None:
    x, y = _tables(a), _tables(b)
    for t in SCHEMAS:
        p, q = x[t], y[t]
        if t == "files" and not status:
            p, q = p.drop_columns(["status"]), q.drop_columns(["status"])
        assert p.num_rows == q.num_rows, t
        assert p.equals(q), t


def _bytes(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def _files(out: Path) -> list[tuple]:
    t = pq.read_table(out / "files.parquet", columns=["source_file", "status", "boards"])  # in dataset order
    return list(zip(*(c.to_pylist() for c in t.columns)))


@pytest.fixture
def weeks(tmp_path: Path) -> tuple[Path, Path]:
    w1 = tmp_path / "week1.pbn"
    shutil.copy(SAMPLE / "club_pairs.pbn", w1)
    w2 = tmp_path / "week2.pbn"
    r = run("generate", "-o", w2, "-n", 12, "--tables", 2, "--seed", 7)
    assert r.exit_code == 0, r.output
    return w1, w2


def test_append_second_file_same_tables_as_converting_both(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    w1, w2 = weeks
    club, both = tmp_path / "club", tmp_path / "both"
    r = run("convert", w1, "-o", club, "--append")  # into no dataset yet: added
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [f"{w1}: added", f"1 files (1 added), 8 boards, 2 errors, 0 warnings -> {club}"]
    r = run("convert", w2, "-o", club, "--append")
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f"{w1}: kept",
        f"{w2}: added",
        f"2 files (1 kept, 1 added), 32 boards, 2 errors, 0 warnings -> {club}",
    ]
    assert run("convert", w1, w2, "-o", both).exit_code == 0
    _same(club, both)  # every table, row for row, files.status too
    assert _files(club) == [(str(w1), "ok", 8), (str(w2), "ok", 24)]
    ids = duckdb.sql(
        f"select source_file, min(board_id), max(board_id) from '{club / 'boards.parquet'}' group by 1 order by 2"
    ).fetchall()
    assert ids == [(str(w1), 0, 7), (str(w2), 8, 31)]
    assert not (club / WORK_DIR).exists()


def test_append_of_an_unchanged_file_skips_it(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    w1, w2 = weeks
    club, both = tmp_path / "club", tmp_path / "both"
    assert run("convert", w1, w2, "-o", club).exit_code == 0
    assert run("convert", w1, w2, "-o", both).exit_code == 0
    r = run("convert", w2, "-o", club, "--append")
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f"{w1}: kept",
        f"{w2}: skipped (unchanged)",
        f"2 files (1 kept, 1 skipped (unchanged)), 32 boards, 2 errors, 0 warnings -> {club}",
    ]
    assert _files(club) == [(str(w1), "ok", 8), (str(w2), "unchanged", 24)]
    _same(club, both, status=False)


def test_append_of_a_changed_file_replaces_it_at_its_place(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    w1, w2 = weeks
    club, fresh = tmp_path / "club", tmp_path / "fresh"
    assert run("convert", w1, w2, "-o", club).exit_code == 0
    assert run("generate", "-o", w1, "-n", 5, "--seed", 3).exit_code == 0  # week1 corrected: 5 boards
    r = run("convert", w1, "-o", club, "--append")
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f"{w1}: replaced",
        f"{w2}: kept",
        f"2 files (1 kept, 1 replaced), 29 boards, 0 errors, 0 warnings -> {club}",
    ]
    assert run("convert", w1, w2, "-o", fresh).exit_code == 0
    _same(club, fresh)
    assert _files(club) == [(str(w1), "ok", 5), (str(w2), "ok", 24)]


def test_convert_without_append_or_replace_refuses_to_drop(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    w1, w2 = weeks
    club = tmp_path / "club"
    assert run("convert", w1, "-o", club).exit_code == 0
    before = _bytes(club)
    r = run("convert", w2, "-o", club)
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"handrec: {club} holds 1 input (8 boards: {w1}) not given this time; converting would drop it: "
        f"add --append to keep it and add the inputs given, or --replace to rebuild {club} with only the "
        "inputs given"
    ]
    assert _bytes(club) == before
    assert sorted(p.name for p in club.iterdir()) == sorted(before)  # no work folder, no lock left
    # given again with the new one, nothing is dropped: no refusal
    r = run("convert", w1, w2, "-o", club)
    assert r.exit_code == 0
    assert _files(club) == [(str(w1), "unchanged", 8), (str(w2), "ok", 24)]


def test_refusal_counts_a_file_gone_from_a_folder_given(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    # the folder is given again, but one of its files is gone: found only once the folder is listed
    w1, w2 = weeks
    folder = tmp_path / "season"
    folder.mkdir()
    shutil.move(w1, folder / w1.name)
    shutil.move(w2, folder / w2.name)
    club = tmp_path / "club"
    assert run("convert", folder, "-o", club).exit_code == 0
    before = _bytes(club)
    (folder / "week2.pbn").unlink()
    r = run("convert", folder, "-o", club)
    assert r.exit_code == 2
    assert r.stderr.splitlines()[0].startswith(
        f"handrec: {club} holds 1 input (24 boards: {folder / 'week2.pbn'}) not given this time;"
    )
    assert _bytes(club) == before
    assert not (club / WORK_DIR).exists()
    r = run("convert", folder, "-o", club, "--append")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[:2] == [
        f"{folder / 'week1.pbn'}: skipped (unchanged)",
        f"{folder / 'week2.pbn'}: kept",
    ]


def test_replace_rebuilds_with_only_the_inputs_given(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    w1, w2 = weeks
    club, only = tmp_path / "club", tmp_path / "only"
    assert run("convert", w1, "-o", club).exit_code == 0
    r = run("convert", w2, "-o", club, "--replace")
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [f"1 files, 24 boards, 0 errors, 0 warnings -> {club}"]
    assert _files(club) == [(str(w2), "ok", 24)]
    assert run("convert", w2, "-o", only).exit_code == 0
    _same(club, only)
    r = run("convert", w2, "-o", club, "--replace", "--append")
    assert r.exit_code == 2
    assert r.stderr.splitlines() == ["handrec: --append keeps the inputs DIR holds and --replace drops them: give one"]


@pytest.mark.parametrize("mode", [[], ["--append"], ["--replace"]])
def test_mistyped_only_input_writes_nothing(tmp_path: Path, weeks: tuple[Path, Path], mode: list[str]) -> None:
    w1, _ = weeks
    typo = tmp_path / "wek1.pbn"
    club = tmp_path / "club"
    r = run("convert", typo, "-o", club, *mode)
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"{typo}: F001 error: cannot read input: No such file or directory",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        f"handrec: no input was read; nothing was written to {club}",
    ]
    assert not club.exists()  # no folder made
    assert run("convert", w1, "-o", club).exit_code == 0
    before = _bytes(club)
    r = run("convert", typo, "-o", club, *mode)
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"{typo}: F001 error: cannot read input: No such file or directory",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        f"handrec: no input was read; the dataset in {club} is left as it was",
    ]
    assert _bytes(club) == before
    assert sorted(p.name for p in club.iterdir()) == sorted(before)


def test_append_in_the_library_with_jobs_and_parts(
    tmp_path: Path, weeks: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the API: existing="append" with two workers and week2 read in parts gives the same dataset
    w1, w2 = weeks
    club, both = tmp_path / "club", tmp_path / "both"
    convert([w1], club, jobs=1)
    seen: list[int | None] = []
    bounds = vp._part_bounds

    def part_bounds(inp, jobs, part_bytes, first_bytes=None):
        cut = bounds(inp, jobs, part_bytes, first_bytes)
        seen.append(None if cut is None else len(cut))
        return cut

    monkeypatch.setattr(vp, "_part_bounds", part_bounds)
    s = convert([w2], club, jobs=2, part_bytes=4096, existing="append")
    assert seen == [4]  # week2 read in 4 parts
    assert [(a.path, a.action) for a in s.actions] == [(str(w1), "kept"), (str(w2), "added")]
    assert (s.files, s.kept, s.boards, s.errors, s.statuses) == (2, 1, 32, 2, {"ok": 2})
    convert([w1, w2], both, jobs=1)
    _same(club, both)
    with pytest.raises(WouldDrop) as e:
        convert([w2], club, existing="refuse")
    assert (e.value.paths, e.value.boards) == ([str(w1)], 8)


def test_append_keeps_an_unreadable_input_and_its_error_rows(tmp_path: Path, weeks: tuple[Path, Path]) -> None:
    # a kept input with no boards, only its F004 row in diagnostics, stays at its place
    w1, w2 = weeks
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(b"garbage\x00\x01")
    club, both = tmp_path / "club", tmp_path / "both"
    assert run("convert", bad, w1, "-o", club).exit_code == 2  # F004: exit 2, the dataset written
    r = run("convert", w2, "-o", club, "--append")
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f"{bad}: kept",
        f"{w1}: kept",
        f"{w2}: added",
        f"3 files (2 kept, 1 added; 1 unreadable), 32 boards, 3 errors, 0 warnings -> {club}",
    ]
    assert run("convert", bad, w1, w2, "-o", both).exit_code == 2
    _same(club, both)
    codes = duckdb.sql(
        f"select source_file, code from '{club / 'diagnostics.parquet'}' where board_id is null"
    ).fetchall()
    assert codes == [(str(bad), "F004")]
    # --force reads week2 again: replaced, the same rows
    r = run("convert", w2, "-o", club, "--append", "--force")
    assert r.stderr.splitlines()[2] == f"{w2}: replaced"
    _same(club, both)
