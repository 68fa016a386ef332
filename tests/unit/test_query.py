"""The ``travellers`` and ``rankings`` views: the rows ``handrec score -m mp`` gives (Neuberg,
Howell), and matchpoints / IMPs checked against Python on generated pairs events."""

from __future__ import annotations

import dataclasses
import io
import json
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.query import connect
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert
from handrec.scoring.imps import imps


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pairs")
    for i, tables in enumerate((7, 4, 1)):  # two pairs events (many ties) and a set of single games
        s = io.StringIO()
        dump(generate_boards(12 * tables, seed=20 + i, event=f"Event {i}", tables=tables), s)
        (root / "in" / f"e{i}.pbn").parent.mkdir(exist_ok=True)
        (root / "in" / f"e{i}.pbn").write_text(s.getvalue(), encoding="utf-8")
    convert([root / "in"], root / "ds", jobs=1)
    return root / "ds"


def _session(path: Path, event: str, seed: int, *, drop: int | None = None, howell: bool = False) -> None:
    """A generated pairs session of 6 boards at 4 tables; ``drop``: a game left out (that board is
    played 3 times: Neuberg); ``howell``: table 1's pairs change direction on even boards."""
    games = list(generate_boards(24, seed=seed, event=event, tables=4))
    if drop is not None:
        del games[drop]
    if howell:
        swap = {"North": "East", "South": "West", "East": "North", "West": "South"}
        games = [
            dataclasses.replace(g, tags=tuple(dataclasses.replace(t, name=swap.get(t.name, t.name)) for t in g.tags))
            if g.number % 2 == 0 and g.tag("North") == "N1"
            else g
            for g in games
        ]
    s = io.StringIO()
    dump(games, s)
    path.write_text(s.getvalue(), encoding="utf-8")


def test_views_agree_with_handrec_score(tmp_path: Path) -> None:
    """travellers and rankings give what `handrec score -m mp` gives: Neuberg for a board played
    fewer times, and one field when pairs changed direction (Howell)."""
    src = tmp_path / "in"
    src.mkdir()
    _session(src / "neuberg.pbn", "Neuberg night", 31, drop=5)  # board 2 played 3 times, the others 4
    _session(src / "howell.pbn", "Howell night", 32, howell=True)
    convert([src], tmp_path / "ds", jobs=1)
    con = connect(tmp_path / "ds")
    for f in ("neuberg.pbn", "howell.pbn"):
        doc = json.loads(CliRunner().invoke(app, ["score", str(src / f), "-m", "mp", "--format", "json"]).stdout)
        (ev,) = doc["events"]
        expected = sorted(
            (int(t["board"]), e["score_ns"], round(float(e["mp_ns"]), 2), round(float(e["pct_ns"]), 2))
            for t in ev["travellers"]
            for e in t["entries"]
        )
        got = con.execute(
            "SELECT board, score_ns, round(mp_ns, 2), round(pct_ns, 2) FROM travellers WHERE event = ? ORDER BY ALL",
            [ev["event"]],
        ).fetchall()
        assert [tuple(r) for r in got] == expected
        ranked = sorted(
            (g["ranking"], x["name"], round(float(x["mp"]), 2), round(float(x["pct"]), 2))
            for g in ev["rankings"]
            for x in g["rows"]
        )
        got = con.execute(
            "SELECT direction, pair, round(mp, 2), pct FROM rankings WHERE event = ? ORDER BY ALL", [ev["event"]]
        ).fetchall()
        assert [tuple(r) for r in got] == ranked
    directions = con.execute("SELECT event, list(DISTINCT direction ORDER BY direction) FROM rankings GROUP BY ALL")
    assert sorted(directions.fetchall()) == [("Howell night", ["pairs"]), ("Neuberg night", ["EW", "NS"])]
    (top,) = con.execute("SELECT DISTINCT top FROM travellers WHERE event = 'Neuberg night'").fetchall()
    assert top == (3,)  # every board on the top of the most-played one
    row = con.execute(
        "SELECT tables, mp_ns + mp_ew FROM travellers WHERE event = 'Neuberg night' AND board = 2 LIMIT 1"
    ).fetchone()
    assert row == (3, 3.0)


def test_files_without_event_are_events_of_their_own(tmp_path: Path) -> None:
    """Games without an Event tag are compared within their file only, as `handrec score` does
    (it names such an event "<path> (no Event tag)"): two sessions of 4 tables and a file of
    single games, all without Event, are not one event of 9 results a board."""
    src = tmp_path / "in"
    src.mkdir()
    for name, seed, tables in (("a.pbn", 41, 4), ("b.pbn", 42, 4), ("c.pbn", 43, 1)):
        s = io.StringIO()
        dump(generate_boards(6 * tables, seed=seed, event="", tables=tables), s)
        text = "\n".join(line for line in s.getvalue().splitlines() if not line.startswith("[Event "))
        (src / name).write_text(text + "\n", encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    con = connect(tmp_path / "ds")
    assert con.execute("SELECT count(*) FROM boards WHERE event IS NOT NULL AND event <> ''").fetchone() == (0,)
    got = con.execute(
        "SELECT event_name, max(tables), max(top) FROM travellers GROUP BY event_name ORDER BY event_name"
    ).fetchall()
    names = [f"{src / f} (no Event tag)" for f in ("a.pbn", "b.pbn", "c.pbn")]
    assert [tuple(r) for r in got] == [(names[0], 4, 3), (names[1], 4, 3), (names[2], 1, 0)]
    for f, name in zip(("a.pbn", "b.pbn"), names):
        doc = json.loads(CliRunner().invoke(app, ["score", str(src / f), "-m", "mp", "--format", "json"]).stdout)
        (ev,) = doc["events"]
        assert ev["event"] == name
        expected = sorted((x["name"], round(float(x["pct"]), 2)) for g in ev["rankings"] for x in g["rows"])
        rows = con.execute("SELECT pair, pct FROM rankings WHERE event = ? ORDER BY ALL", [name]).fetchall()
        assert [tuple(r) for r in rows] == expected
    assert con.execute("SELECT count(*) FROM rankings WHERE event = ?", [names[2]]).fetchone() == (0,)  # top 0


def test_matchpoints_and_imps_against_python(dataset: Path) -> None:
    con = connect(dataset)
    rows = con.execute(
        "SELECT board_key, score_ns, tables, mp_ns, mp_ew, mp2_ns, imps_vs_avg_ns FROM travellers"
    ).fetchall()
    by_board: dict[str, list[int]] = defaultdict(list)
    for key, score, *_ in rows:
        by_board[key].append(score)
    assert max(len(v) for v in by_board.values()) == 7
    for key, score, tables, mp_ns, mp_ew, mp2_ns, imp in rows:
        others = by_board[key]
        beaten = sum(s < score for s in others)
        tied = sum(s == score for s in others) - 1
        assert tables == len(others)
        assert mp_ns == beaten + tied / 2
        assert mp_ew == tables - 1 - mp_ns
        assert mp2_ns == 2 * beaten + tied
        assert imp == imps(score - sum(others) / len(others))


@pytest.mark.parametrize("sql", ["", "  \n", ";", ";;", "/* nothing */", "-- nothing\n", "-- a\n/* b */ ;"])
def test_run_without_a_statement_raises_query_error(dataset: Path, sql: str) -> None:
    from handrec.dataset.query import QueryError, run

    with pytest.raises(QueryError, match="no SQL statement to run"):
        run(dataset, sql)


def test_run_accepts_sql_after_a_comment(dataset: Path) -> None:
    from handrec.dataset.query import run

    cols, rows = run(dataset, "-- count them\nselect count(*) as n from files; ")
    assert cols == ["n"] and rows == [(3,)]
