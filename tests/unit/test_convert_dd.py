"""``convert --dd``: the deals and leads tables and the boards' double-dummy columns.

Few deals (DDS takes about 0.1-0.4 s a deal): three generated deals played at two tables each,
solved once into a cache shared by the runs of a test; the corpus test fills the cache with the
file's own tables first (they are DDS's: tests/cli/test_validate_dd.py checks them) and alters one.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from handrec.dd import engine
from handrec.dd.boards import board_dd
from handrec.dd.cache import DDCache
from handrec.formats.dispatch import read
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.model import Deal
from handrec.runs.convert import convert

pytest.importorskip("endplay")

DD_COLUMNS = ["dd_tricks", "tricks_vs_dd", "par_score_ns", "score_vs_par_ns", "dd_source"]


def _src(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    boards = list(generate_boards(6, seed=17, tables=2))
    # A seventh game whose deal lacks West's hand: no deals row, null columns, a diagnostic.
    partial = dataclasses.replace(boards[0], deal=Deal((*boards[0].deal.hands[:3], None)), play=None)
    with open(src / "a.pbn", "w", encoding="utf-8") as f:
        dump(boards[:4], f)
    with open(src / "b.pbn", "w", encoding="utf-8") as f:
        dump([*boards[4:], partial], f)
    return src


def _no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*a, **k):
        raise AssertionError("solved again")

    monkeypatch.setattr(engine, "solve_tables", refuse)
    monkeypatch.setattr(engine, "solve_leads", refuse)


def test_convert_dd_jobs_and_dask_identical_and_nothing_solved_twice(tmp_path: Path, monkeypatch) -> None:
    src, cache = _src(tmp_path), tmp_path / "cache"
    convert([src], tmp_path / "one", jobs=1, dd_leads=True, dd_margin=3, dd_cache=cache)
    played = {
        (b["deal"], b["contract"][1], b["declarer"])
        for b in pq.read_table(tmp_path / "one" / "boards.parquet").to_pylist()
        if b["dd_tricks"] is not None
    }
    assert DDCache(cache).stats().tables == 3 and DDCache(cache).stats().leads == len(played) >= 3
    _no_solving(monkeypatch)  # from here on everything must come from the cache (workers fork this process)
    convert([src], tmp_path / "two", jobs=2, dd_leads=True, dd_margin=3, dd_cache=cache, task_bytes=1)
    runs = ["one", "two"]
    try:
        import distributed  # noqa: F401

        monkeypatch.undo()  # dask workers are new processes: the patch would not reach them anyway
        before = DDCache(cache).stats()
        convert([src], tmp_path / "dask", jobs=2, dd_leads=True, dd_margin=3, dd_cache=cache, engine="dask")
        assert DDCache(cache).stats() == before
        runs.append("dask")
    except ImportError:
        pass
    for table in ("boards", "deals", "leads", "diagnostics", "files"):
        first = pq.read_table(tmp_path / "one" / f"{table}.parquet")
        for other in runs[1:]:
            assert first.equals(pq.read_table(tmp_path / other / f"{table}.parquet")), (table, other)
    boards = pq.read_table(tmp_path / "one" / "boards.parquet").to_pylist()
    deals = pq.read_table(tmp_path / "one" / "deals.parquet").to_pylist()
    assert len(boards) == 7 and len(deals) == 3 and [d["boards"] for d in deals] == [2, 2, 2]
    assert all(boards[6][c] is None for c in DD_COLUMNS)  # the partial deal
    diags = pq.read_table(tmp_path / "one" / "diagnostics.parquet").to_pylist()
    assert [(d["code"], d["message"]) for d in diags if d["board_id"] == 6] == [
        ("D216", "no double dummy for this board: the deal gives 39 of 52 cards")
    ]

    # The boards' figures against endplay called directly.
    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    denom = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "N": Denom.nt}
    solved = calc_all_tables([EDeal(d["deal"]) for d in deals])
    by_deal = {d["deal"]: t for d, t in zip(deals, solved)}
    for b in boards[:6]:
        t = by_deal[str(Deal.parse(b["deal"]))]
        assert b["dd_tricks"] == t[denom[b["contract"][1]], Player.find(b["declarer"])]
        assert b["tricks_vs_dd"] == b["result"] - b["dd_tricks"]
        assert b["score_vs_par_ns"] == b["score_ns"] - b["par_score_ns"]
        assert b["dd_source"] == "solver"
    for d, t in zip(deals, solved):
        assert [d[f"dd_{p}_{s}"] for p in "nsew" for s in ("nt", "s", "h", "d", "c")] == [
            t[denom[s[0].upper()], Player.find(p)] for p in "nsew" for s in ("nt", "s", "h", "d", "c")
        ]
    # Leads: 13 rows a board, the best lead takes declarer to the table's tricks, one played lead.
    leads = pq.read_table(tmp_path / "one" / "leads.parquet").to_pylist()
    assert len(leads) == 13 * 6
    for bid in range(6):
        rows = [r for r in leads if r["board_id"] == bid]
        assert min(r["dd_tricks"] for r in rows) == boards[bid]["dd_tricks"]
        assert sum(r["played"] for r in rows) == 1 and {r["cost"] for r in rows if r["best"]} == {0}

    # The SQL views over them.
    from handrec.dataset.query import connect

    con = connect(tmp_path / "one")
    at_par = sum(b["score_ns"] == b["par_score_ns"] for b in boards[:6])
    assert con.execute("select count(*), sum(CAST(at_par AS INTEGER)) from par_reached").fetchone() == (6, at_par)
    made = [b for b in boards[:6]]
    got = con.execute("select board_id, tricks_vs_dd from declarer_play order by board_id").fetchall()
    assert got == [(i, b["tricks_vs_dd"]) for i, b in enumerate(made)]
    lead_rows = con.execute("select board_id, lead, cost from lead_cost order by board_id").fetchall()
    assert lead_rows == [(r["board_id"], r["lead"], r["cost"]) for r in leads if r["played"]]
    far = con.execute("select board_id, distance from dd_outliers order by distance desc, board_id limit 1").fetchone()
    assert far[1] == max(abs(b["tricks_vs_dd"]) for b in made)
    con.close()

    # A second convert --dd into the same folder (every input unchanged) and a --force one solve nothing.
    _no_solving(monkeypatch)
    convert([src], tmp_path / "one", jobs=1, dd_leads=True, dd_margin=3, dd_cache=cache)
    convert([src], tmp_path / "one", jobs=1, dd_leads=True, dd_margin=3, dd_cache=cache, force=True)
    assert pq.read_table(tmp_path / "one" / "deals.parquet").to_pylist() == deals
    # Without --dd the columns are null and the deals and leads tables empty.
    convert([src], tmp_path / "one", jobs=1)
    assert all(r[c] is None for r in pq.read_table(tmp_path / "one" / "boards.parquet").to_pylist() for c in DD_COLUMNS)
    assert pq.read_table(tmp_path / "one" / "deals.parquet").num_rows == 0


def test_convert_dd_on_a_corpus_file_with_dd_tags(corpus_dir: Path, tmp_path: Path) -> None:
    name = "bridgecomposer_czech_club_latin1_dd.pbn"
    original = corpus_dir / "pbn" / name
    boards = list(read(original))
    cache = DDCache(tmp_path / "cache")
    cache.put_tables([(str(b.deal), board_dd(b).table) for b in boards])  # the file's own (right) tables
    cache.close()
    data = original.read_bytes()
    altered = data.replace(b'[DoubleDummyTricks "66477665877785677856"]', b'[DoubleDummyTricks "76477665877785677856"]')
    assert altered != data
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / name).write_bytes(altered)
    s = convert([tmp_path / "src"], tmp_path / "out", jobs=1, dd=True, dd_margin=3, dd_cache=tmp_path / "cache")
    deals = pq.read_table(tmp_path / "out" / "deals.parquet").to_pylist()
    assert len(deals) == 15
    assert [d["source"] for d in deals] == ["solver"] + ["file"] * 14  # board 16, the altered one, is the first
    boards_rows = pq.read_table(tmp_path / "out" / "boards.parquet").to_pylist()
    assert boards_rows[0]["board"] == 16 and boards_rows[0]["dd_source"] == "solver"
    diags = pq.read_table(tmp_path / "out" / "diagnostics.parquet").to_pylist()
    d210 = [d for d in diags if d["code"] == "D210"]
    assert [(d["line"], d["message"]) for d in d210] == [
        (57, "DoubleDummyTricks disagrees with the double-dummy solver: N NT 7 (solver 6)")
    ]
    files = pq.read_table(tmp_path / "out" / "files.parquet").to_pylist()
    assert files[0]["errors"] == 1 == s.errors and boards_rows[0]["errors"] == 1
    # Par for the board's own vulnerability is the file's OptimumScore (BridgeComposer's, right on this file).
    for b, row in zip(boards, boards_rows):
        written = b.tag("OptimumScore")
        if written:
            from handrec.dd.par import parse_optimum_score

            assert row["par_score_ns"] == parse_optimum_score(written)


def test_a_solver_failure_is_a_note_not_a_crash(tmp_path: Path, monkeypatch) -> None:
    def broken(keys, *, in_place=False):
        raise RuntimeError("DDS error -201")

    monkeypatch.setattr(engine, "solve_tables", broken)
    src = tmp_path / "src"
    src.mkdir()
    with open(src / "a.pbn", "w", encoding="utf-8") as f:
        dump(generate_boards(1, seed=3), f)
    convert([src], tmp_path / "out", jobs=1, dd=True, dd_margin=3, dd_cache=tmp_path / "cache")
    diags = pq.read_table(tmp_path / "out" / "diagnostics.parquet").to_pylist()
    assert [(d["code"], d["message"]) for d in diags] == [
        ("D216", "no double dummy for this board: the solver failed (RuntimeError: DDS error -201)")
    ]
    assert pq.read_table(tmp_path / "out" / "boards.parquet").column("dd_tricks").to_pylist() == [None]
    assert not (tmp_path / "out" / "dump.txt").exists() and sorted(p.name for p in tmp_path.iterdir()) == [
        "cache",
        "out",
        "src",
    ]
