"""``handrec convert --jobs N`` reads a big file in parts (issue #23.1): the same dataset, every table and
row, whatever ``--jobs`` and with the Dask engine; reuse and ``--resume`` know about the parts.

The files are small but cut into many parts (``part_bytes``); a spy on
:func:`handrec.runs.parts._part_bounds` checks that they were.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import handrec.runs.convert as rc
import handrec.runs.parts as vp
from handrec.dataset.store import WORK_DIR
from handrec.dataset.tables import SCHEMAS
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.limits import Limits
from handrec.runs.convert import convert

from .test_validate_jobs import CORPUS_PBN, damaged_lin, damaged_pbn


def _tables(out: Path) -> dict[str, pa.Table]:
    return {t: pq.read_table(out / f"{t}.parquet") for t in SCHEMAS}


def _same(a: dict[str, pa.Table], b: dict[str, pa.Table], status: bool = True) -> None:
    for t in SCHEMAS:
        x, y = a[t], b[t]
        if t == "files" and not status:
            x, y = x.drop_columns(["status"]), y.drop_columns(["status"])
        assert x.num_rows == y.num_rows, t
        assert x.equals(y), t


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    """The files the parent split, and in how many parts."""
    seen: list[tuple[str, int | None]] = []
    bounds = vp._part_bounds

    def part_bounds(inp, jobs, part_bytes, first_bytes=None):
        parts = bounds(inp, jobs, part_bytes, first_bytes)
        seen.append((Path(inp.path).name, None if parts is None else len(parts)))
        return parts

    monkeypatch.setattr(vp, "_part_bounds", part_bounds)
    return seen


def test_damaged_pbn_file_in_parts_same_dataset_jobs_1_2_and_dask(tmp_path: Path, split: list) -> None:
    f = tmp_path / "damaged.pbn"
    f.write_bytes(damaged_pbn(600, seed=3))
    limits = Limits(max_line_bytes=4096)  # F013 beside F002, F005, F020, F021 and the boards' faults
    one = convert([f], tmp_path / "one", jobs=1, limits=limits)
    two = convert([f], tmp_path / "two", jobs=2, limits=limits, part_bytes=20_000)
    assert split == [("damaged.pbn", 8)]  # at most PARTS_PER_JOB a worker
    assert (one.boards, one.errors, one.warnings) == (two.boards, two.errors, two.warnings) == (600, 76, 71)
    assert [str(d) for d in one.diagnostics] == [str(d) for d in two.diagnostics]
    a = _tables(tmp_path / "one")
    _same(a, _tables(tmp_path / "two"))
    codes = set(a["diagnostics"].column("code").to_pylist())
    assert {"C504", "S601", "F003", "S603", "F002", "F005", "F013", "F020", "F021"} <= codes
    assert a["boards"].column("board_id").to_pylist() == list(range(600))
    pytest.importorskip("distributed")
    convert([f], tmp_path / "dask", jobs=2, limits=limits, part_bytes=20_000, engine="dask")
    assert split[-1] == ("damaged.pbn", 8)
    _same(a, _tables(tmp_path / "dask"))


def test_damaged_lin_file_in_parts_same_dataset(tmp_path: Path, split: list, monkeypatch) -> None:
    f = tmp_path / "damaged.lin"
    f.write_bytes(damaged_lin(600, seed=3))
    monkeypatch.setattr(vp, "LIN_PART_BYTES", 20_000)
    limits = Limits(max_board_bytes=8192)  # F016: the boards over it are echoed, as validate does
    one = convert([f], tmp_path / "one", jobs=1, limits=limits)
    two = convert([f], tmp_path / "two", jobs=2, limits=limits, part_bytes=20_000)
    assert split[0][1] >= 6
    assert [str(d) for d in one.diagnostics] == [str(d) for d in two.diagnostics]
    assert [d.code for d in two.diagnostics][:3] == ["F016"] * 3
    _same(_tables(tmp_path / "one"), _tables(tmp_path / "two"))


def test_corpus_files_in_parts_and_folders(corpus_dir: Path, tmp_path: Path, split: list) -> None:
    """Real files, several in one run: split ones, whole ones, ``"#`` files (never split) between them."""
    src = tmp_path / "src"
    src.mkdir()
    for name in [*CORPUS_PBN, "pbn20_reference_score_tables.pbn"]:
        shutil.copy(corpus_dir / "pbn" / name, src / name)
    one = convert([src, corpus_dir / "lin"], tmp_path / "one", jobs=1)
    convert([src, corpus_dir / "lin"], tmp_path / "two", jobs=2, part_bytes=30_000)
    parted = {name for name, n in split if n}
    assert "dealer_v2_500_deals_1N.pbn" in parted and "pbn20_reference_score_tables.pbn" not in parted
    assert one.boards > 500
    _same(_tables(tmp_path / "one"), _tables(tmp_path / "two"))


def test_an_unchanged_file_read_in_parts_is_reused(tmp_path: Path, split: list) -> None:
    f = tmp_path / "big.pbn"
    with open(f, "w", encoding="utf-8", newline="") as out:
        dump(generate_boards(300, seed=8, tables=2), out)
    g = tmp_path / "small.pbn"
    with open(g, "w", encoding="utf-8", newline="") as out:
        dump(generate_boards(3, seed=9), out)
    ds = tmp_path / "ds"
    convert([g, f, g], ds, jobs=2, part_bytes=20_000)
    first = _tables(ds)
    s = convert([g, f], ds, jobs=2, part_bytes=20_000)
    assert (s.unchanged, s.files, s.boards) == (2, 2, 303)
    _same(_tables(ds), first, status=False)
    assert _tables(ds)["files"].column("status").to_pylist() == ["unchanged", "unchanged"]
    with open(f, "w", encoding="utf-8", newline="") as out:
        dump(generate_boards(302, seed=8, tables=2), out)
    s = convert([g, f], ds, jobs=2, part_bytes=20_000)
    assert (s.unchanged, s.boards) == (1, 305)
    clean = tmp_path / "clean"
    convert([g, f], clean, jobs=1)
    _same(_tables(ds), _tables(clean), status=False)


class Interrupt(Exception):
    pass


def _interrupt_after(n: int):
    def hook(committed: int) -> None:
        if committed == n:
            raise Interrupt

    return hook


@pytest.mark.parametrize("jobs_again", [2, 1])
def test_resume_reads_only_the_parts_not_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: list, jobs_again: int
) -> None:
    """Interrupted after three parts: ``resume`` takes them from the work folder (with the same
    ``jobs``: the parts are where they were) and reads the others; the dataset is a clean run's."""
    f = tmp_path / "big.pbn"
    f.write_bytes(damaged_pbn(400, seed=6))
    clean = tmp_path / "clean"
    convert([f], clean, jobs=1)
    out = tmp_path / "ds"
    with pytest.raises(Interrupt):
        convert([f], out, jobs=2, part_bytes=20_000, on_commit=_interrupt_after(3))
    assert not (out / "boards.parquet").exists()
    lines = (out / WORK_DIR / "manifest.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all('"piece"' in x for x in lines[1:])  # header + three pieces
    loaded = []
    load = rc.load_piece

    def spy(data: bytes):
        loaded.append(load(data))
        return loaded[-1]

    monkeypatch.setattr(rc, "load_piece", spy)
    s = convert([f], out, jobs=jobs_again, part_bytes=20_000, resume=True)
    assert len(loaded) == (3 if jobs_again == 2 else 0) and all(x is not None for x in loaded)
    assert s.boards == 400
    _same(_tables(out), _tables(clean))
    assert not (out / WORK_DIR).exists()


def test_a_damaged_piece_summary_is_read_again(tmp_path: Path) -> None:
    """The work folder is data: a piece's summary that is not one (here: a pickle that would run
    code) is not loaded, and its part is read again."""
    import pickle

    f = tmp_path / "big.pbn"
    f.write_bytes(damaged_pbn(200, seed=2))
    out = tmp_path / "ds"
    with pytest.raises(Interrupt):
        convert([f], out, jobs=2, part_bytes=20_000, on_commit=_interrupt_after(2))
    evil = pickle.dumps(shutil.rmtree.__call__)  # a builtin method: not handrec's data
    for p in (out / WORK_DIR).glob("*.piece"):
        p.write_bytes(evil)
    assert rc.load_piece(evil) is None
    assert rc.load_piece(b"not a pickle") is None
    s = convert([f], out, jobs=2, part_bytes=20_000, resume=True)
    clean = tmp_path / "clean"
    convert([f], clean, jobs=1)
    assert s.boards == 200
    _same(_tables(out), _tables(clean))


def test_max_errors_stops_after_a_file_in_parts(tmp_path: Path, split: list) -> None:
    """The unit of ``--max-errors`` stays the input: a file in parts is kept whole, the next not read."""
    f = tmp_path / "a.pbn"
    f.write_bytes(damaged_pbn(300, seed=1))
    g = tmp_path / "b.pbn"
    g.write_bytes(damaged_pbn(300, seed=2))
    one = convert([f, g], tmp_path / "one", jobs=1, max_errors=3)
    two = convert([f, g], tmp_path / "two", jobs=2, max_errors=3, part_bytes=20_000)
    assert one.stopped and two.stopped and one.not_read == two.not_read == 1
    assert split[0][1] and split[0][1] > 2
    _same(_tables(tmp_path / "one"), _tables(tmp_path / "two"))


def test_generate_a_file_of_one_board_per_part(tmp_path: Path, split: list) -> None:
    """Parts smaller than a game: most hold no game start; the file still has every board once."""
    buf = io.StringIO()
    dump(generate_boards(30, seed=4), buf)
    f = tmp_path / "g.pbn"
    f.write_text(buf.getvalue(), encoding="utf-8", newline="")
    one = convert([f], tmp_path / "one", jobs=1)
    convert([f], tmp_path / "two", jobs=2, part_bytes=200)
    assert split[0][1] == 8 and one.boards == 30
    _same(_tables(tmp_path / "one"), _tables(tmp_path / "two"))


def _board_counts_match_the_diagnostics(tables: dict[str, pa.Table]) -> None:
    """Each boards row's ``errors``, ``warnings``, ``faults`` and ``status`` are its rows of
    ``diagnostics`` (the schema's word), the event checks' (S603, S607 ...) among them."""
    want: dict[int, tuple[int, int, list[str]]] = {}
    for d in tables["diagnostics"].to_pylist():
        if d["board_id"] is None:
            continue
        e, w, codes = want.get(d["board_id"], (0, 0, []))
        if d["severity"] == "error":
            e += 1
            if d["code"] not in codes:
                codes = [*codes, d["code"]]
        elif d["severity"] == "warning" and not d["strict"]:
            w += 1
        want[d["board_id"]] = (e, w, codes)
    rows = tables["boards"].select(["board_id", "errors", "warnings", "faults", "status"]).to_pylist()
    for r in rows:
        e, w, codes = want.get(r["board_id"], (0, 0, []))
        assert (r["errors"], r["warnings"], sorted(r["faults"]), r["status"]) == (
            e,
            w,
            sorted(codes),
            "faulty" if e else "clean",
        ), r


def test_the_event_checks_count_in_their_boards_rows(tmp_path: Path, split: list) -> None:
    """An S603 (the file's ScoreMP against the traveller, checked when the file ends) is an error
    of its board: its row's ``errors``, ``faults`` and ``status`` say so, with ``--jobs 1`` and for
    a file read in parts (the boards' rows are written before the event checks run)."""
    f = tmp_path / "damaged.pbn"
    f.write_bytes(damaged_pbn(600, seed=3))
    convert([f], tmp_path / "one", jobs=1)
    convert([f], tmp_path / "two", jobs=2, part_bytes=20_000)
    assert split == [("damaged.pbn", 8)]
    a = _tables(tmp_path / "one")
    s603 = [d["board_id"] for d in a["diagnostics"].to_pylist() if d["code"] == "S603"]
    assert s603
    row = a["boards"].filter(pa.compute.equal(a["boards"]["board_id"], s603[0])).to_pylist()[0]
    assert "S603" in row["faults"] and row["status"] == "faulty"
    _board_counts_match_the_diagnostics(a)
    _same(a, _tables(tmp_path / "two"))
