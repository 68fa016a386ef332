"""The ``travellers`` and ``rankings`` views: the same rows as the plain window-function definitions
they replace, and matchpoints / IMPs checked against Python on a generated pairs event."""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import pytest

from handrec.generate import generate_boards
from handrec.pbn import dump
from handrec.query import connect
from handrec.scoring.imps import imps
from handrec.store import convert

#: The views as first written: three window passes over every game and the imps() Python function.
REFERENCE = """
CREATE TEMP VIEW ref_travellers AS
WITH scored AS (
    SELECT *, coalesce(event, '') || '|' || coalesce(CAST(board AS VARCHAR), board_label, '') || '|' || deal AS board_key
    FROM boards
    WHERE score_ns IS NOT NULL AND deal IS NOT NULL
), compared AS (
    SELECT *,
        count(*) OVER (PARTITION BY board_key) AS tables,
        rank() OVER (PARTITION BY board_key ORDER BY score_ns) - 1 AS beaten_ns,
        count(*) OVER (PARTITION BY board_key, score_ns) - 1 AS tied_ns,
        avg(score_ns) OVER (PARTITION BY board_key) AS average_ns
    FROM scored
)
SELECT board_id, source_file, event, board, board_key, room, north, east, south, west,
       contract, declarer, result, score_ns, tables,
       beaten_ns + tied_ns / 2.0 AS mp_ns,
       tables - 1 - (beaten_ns + tied_ns / 2.0) AS mp_ew,
       2 * beaten_ns + tied_ns AS mp2_ns,
       2 * (tables - 1) - (2 * beaten_ns + tied_ns) AS mp2_ew,
       CASE WHEN tables > 1 THEN 100.0 * (beaten_ns + tied_ns / 2.0) / (tables - 1) END AS pct_ns,
       CASE WHEN tables > 1 THEN 100.0 - 100.0 * (beaten_ns + tied_ns / 2.0) / (tables - 1) END AS pct_ew,
       imps(score_ns - average_ns) AS imps_vs_avg_ns
FROM compared;
CREATE TEMP VIEW ref_rankings AS
WITH per_pair AS (
    SELECT event, 'NS' AS direction, CASE WHEN north = south THEN north ELSE north || ' - ' || south END AS pair,
           mp_ns AS mp, tables - 1 AS top
    FROM ref_travellers WHERE north IS NOT NULL AND south IS NOT NULL AND tables > 1
    UNION ALL
    SELECT event, 'EW', CASE WHEN east = west THEN east ELSE east || ' - ' || west END, mp_ew, tables - 1
    FROM ref_travellers WHERE east IS NOT NULL AND west IS NOT NULL AND tables > 1
)
SELECT event, direction, pair, count(*) AS boards, sum(mp) AS mp, sum(top) AS top,
       round(100.0 * sum(mp) / sum(top), 2) AS pct,
       rank() OVER (PARTITION BY event, direction ORDER BY sum(mp) / sum(top) DESC) AS rank
FROM per_pair
GROUP BY event, direction, pair;
"""


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


def test_views_equal_the_reference_definitions(dataset: Path) -> None:
    con = connect(dataset)
    for stmt in REFERENCE.split(";"):
        if stmt.strip():
            con.execute(stmt)
    for view in ("travellers", "rankings"):
        n = con.execute(f"SELECT count(*) FROM {view}").fetchone()[0]
        assert n > 0
        assert con.execute(f"SELECT count(*) FROM ref_{view}").fetchone()[0] == n
        for a, b in ((view, f"ref_{view}"), (f"ref_{view}", view)):
            extra = con.execute(f"SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b}").fetchall()
            assert extra == [], (a, b, extra[:3])


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
