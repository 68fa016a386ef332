"""Issue #19.4: each scoring method in SQL, on small events, with exact values and against ``handrec score``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from handrec.dataset.query import run
from handrec.runs.convert import convert

ROOT = Path(__file__).resolve().parents[2]
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def _game(
    event: str, scoring: str, board: int, ns: str, ew: str, contract: str, declarer: str, result: int, **tags: str
) -> str:
    n, s = ns.split("-")
    e, w = ew.split("-")
    lines = [
        f'[Event "{event}"]',
        '[Date "2026.01.05"]',
        f'[Board "{board}"]',
        f'[North "{n}"]',
        f'[East "{e}"]',
        f'[South "{s}"]',
        f'[West "{w}"]',
        '[Dealer "N"]',
        '[Vulnerable "None"]',
        f'[Deal "{DEAL}"]',
        f'[Scoring "{scoring}"]',
        f'[Declarer "{declarer}"]',
        f'[Contract "{contract}"]',
        f'[Result "{result}"]',
    ]
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n\n"


#: Three tables of two boards: N-S A-B, C-D, E-F against E-W G-H, I-J, K-L (a Mitchell).
_RESULTS = {
    1: [("4H", "N", 10), ("4H", "N", 9), ("3NT", "N", 10)],  # +420, -50, +430
    2: [("2S", "E", 8), ("3S", "E", 9), ("2S", "E", 9)],  # -110, -140, -140
}


def _pairs_event(event: str, scoring: str) -> str:
    out = []
    for board, results in _RESULTS.items():
        for (contract, declarer, result), ns, ew in zip(results, ("A-B", "C-D", "E-F"), ("G-H", "I-J", "K-L")):
            out.append(_game(event, scoring, board, ns, ew, contract, declarer, result))
    return "".join(out)


def _teams_event() -> str:
    m = {"HomeTeam": "Reds", "VisitTeam": "Blues", "Round": "1"}
    return "".join(
        [
            _game("Teams", "IMP", 1, "A-B", "C-D", "4H", "N", 10, Room="Open", **m),  # +420
            _game("Teams", "IMP", 1, "C-D", "A-B", "4H", "N", 9, Room="Closed", **m),  # -50: Reds +10
            _game("Teams", "IMP", 2, "A-B", "C-D", "3S", "E", 9, Room="Open", **m),  # -140
            _game("Teams", "IMP", 2, "C-D", "A-B", "2S", "E", 8, Room="Closed", **m),  # -110: Reds -1
        ]
    )


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("methods")
    f = d / "events.pbn"
    f.write_text(
        _pairs_event("Pairs MP1", "MP;MP1")
        + _pairs_event("Pairs Butler", "IMP")
        + _pairs_event("Pairs Cross1", "IMP;Cross1")
        + _pairs_event("Pairs Cross", "IMP;Cross")
        + _teams_event(),
        encoding="utf-8",
    )
    rubber = d / "rubber.pbn"
    rubber.write_text(_game("Home game", "Rubber", 1, "A-B", "G-H", "4H", "N", 10), encoding="utf-8")
    convert([str(f), str(rubber)], d / "ds")
    return f, d / "ds"


def test_method_of_each_session(events: tuple[Path, Path]) -> None:
    _, ds = events
    _, rows = run(ds, "SELECT DISTINCT session, method FROM travellers ORDER BY session")
    # the rubber file is scored by handrec score as a session of its own: in neither view
    assert rows == [
        ("Pairs Butler", "butler"),
        ("Pairs Cross", "cross-imp"),
        ("Pairs Cross1", "cross-imp"),
        ("Pairs MP1", "mp2"),
        ("Teams", "imp"),
    ]


def test_exact_values(events: tuple[Path, Path]) -> None:
    _, ds = events
    q = "SELECT pair, boards, {} FROM rankings WHERE event = '{}' AND direction = 'NS' ORDER BY rank, pair"
    # matchpoints 2/1: board 1 +430 4, +420 2, -50 0; board 2 -110 4, -140 1 and 1
    assert run(ds, q.format("mp, top, pct, rank", "Pairs MP1"))[1] == [
        ("A - B", 2, 6.0, 8, 75.0, 1),
        ("E - F", 2, 5.0, 8, 62.5, 2),
        ("C - D", 2, 1.0, 8, 12.5, 3),
    ]
    # Butler: board 1 datum 420 (the mean without +430 and -50), board 2 datum -140
    assert run(
        ds,
        "SELECT board, score_ns, datum, imp_ns FROM travellers WHERE session = 'Pairs Butler' ORDER BY board, score_ns",
    )[1] == [
        (1, -50, 420.0, -10.0),
        (1, 420, 420.0, 0.0),
        (1, 430, 420.0, 0.0),
        (2, -140, -140.0, 0.0),
        (2, -140, -140.0, 0.0),
        (2, -110, -140.0, 1.0),
    ]
    # cross-IMPs divided by the results (Cross1, 3), not by the comparisons: A-B (10 + 0 + 1 + 1) / 3
    assert run(ds, q.format("round(imps, 4), rank", "Pairs Cross1"))[1] == [
        ("A - B", 2, 4.0, 1),
        ("E - F", 2, 3.0, 2),
        ("C - D", 2, -7.0, 3),
    ]
    assert run(ds, q.format("imps, rank", "Pairs Cross"))[1] == [
        ("A - B", 2, 12.0, 1),
        ("E - F", 2, 9.0, 2),
        ("C - D", 2, -21.0, 3),
    ]
    assert run(ds, "SELECT pair, boards, won, lost, imps, rank FROM rankings WHERE event = 'Teams' ORDER BY rank")[
        1
    ] == [("Reds", 2, 10.0, 1.0, 9.0, 1), ("Blues", 2, 1.0, 10.0, -9.0, 2)]


def test_as_handrec_score_ranks(events: tuple[Path, Path]) -> None:
    f, ds = events
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "score", str(f), "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    expected = {}
    for e in json.loads(p.stdout)["events"]:
        for r in e["rankings"]:
            for row in r["rows"]:
                total = row["net"] if "net" in row else row["mp"] if "mp" in row else row["total"]
                expected[e["event"], r["ranking"], row["name"]] = (
                    e["method"],
                    int(row["rank"].rstrip("=")),
                    row["boards"],
                    round(float(total), 2),
                )
    _, rows = run(ds, "SELECT event, direction, pair, method, rank, boards, round(coalesce(mp, imps), 2) FROM rankings")
    assert {(e, d, p): (m, r, b, float(t)) for e, d, p, m, r, b, t in rows} == expected
    assert len(expected) == 4 * 6 + 2


#: Board 1's traveller as a ScoreTable (PBN 2.1 §5.3): +420, -50, +430, an artificial 60 / 40
#: (Law 12C2) and +420 at 2 tables (Multiplicity 2: scored, not ranked).
_TABLE = (
    '[ScoreTable "Names_NS;Names_EW;Contract;Declarer;Result;Multiplicity;Percentage_NS;Percentage_EW"]\n'
    '"A;B" "G;H" 4H N 10 1 - -\n'
    '"C;D" "I;J" 4H N 9 1 - -\n'
    '"E;F" "K;L" 3NT N 10 1 - -\n'
    '"M;N" "O;P" - - - 1 ^60 ^40\n'
    '"Q;R" "S;T" 4H N 10 2 - -\n'
)


def _table_event(event: str, scoring: str) -> str:
    """Board 1 given as a ScoreTable on its one game; board 2 as three games (-110, -140, -140)."""
    out = [_game(event, scoring, 1, "A-B", "G-H", "4H", "N", 10).rstrip("\n") + "\n" + _TABLE + "\n"]
    for (contract, declarer, result), ns, ew in zip(_RESULTS[2], ("A-B", "C-D", "E-F"), ("G-H", "I-J", "K-L")):
        out.append(_game(event, scoring, 2, ns, ew, contract, declarer, result))
    return "".join(out)


@pytest.fixture(scope="module")
def table_events(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("table")
    f = d / "table.pbn"
    f.write_text(
        _table_event("Table MP", "MP")
        + _table_event("Table Butler", "IMP")
        + _table_event("Table Cross1", "IMP;Cross1"),
        encoding="utf-8",
    )
    convert([str(f)], d / "ds")
    return f, d / "ds"


def test_score_table_rows_artificial_scores_and_multiplicity(table_events: tuple[Path, Path]) -> None:
    """Issue #19.4: a board given as a ScoreTable is scored from its rows, as ``handrec score``
    does (handrec.events.travellers): the artificial score on 60 / 40 % of the top, a row of
    Multiplicity 2 counted twice, and every board on the session's top of 6 results (Neuberg)."""
    _, ds = table_events
    assert run(
        ds,
        "SELECT table_row, multiplicity, pair_ns, score_ns, artificial_ns, artificial_ew, tables, top, mp_ns, mp_ew"
        " FROM travellers WHERE session = 'Table MP' AND board = 1 ORDER BY table_row",
    )[1] == [
        (0, 1, "A - B", 420, None, None, 5, 5, 2.5, 2.5),  # (2 + 1/2) * 6 / 5 - 1/2
        (1, 1, "C - D", -50, None, None, 5, 5, 0.1, 4.9),
        (2, 1, "E - F", 430, None, None, 5, 5, 4.9, 0.1),
        (3, 1, "M - N", None, 60, 40, 5, 5, 3.0, 2.0),
        (4, 2, "Q - R", 420, None, None, 5, 5, 2.5, 2.5),
    ]
    q = "SELECT direction, pair, boards, {} FROM rankings WHERE event = '{}' ORDER BY direction DESC, rank, pair"
    # board 2 on the top of 6 (Neuberg from 3): -110 4.5, -140 1.5; Q - R (2 tables) not ranked
    assert run(ds, q.format("mp, top, pct, rank", "Table MP"))[1] == [
        ("NS", "A - B", 2, 7.0, 10, 70.0, 1),
        ("NS", "E - F", 2, 6.4, 10, 64.0, 2),
        ("NS", "M - N", 1, 3.0, 5, 60.0, 3),
        ("NS", "C - D", 2, 1.6, 10, 16.0, 4),
        ("EW", "I - J", 2, 8.4, 10, 84.0, 1),
        ("EW", "O - P", 1, 2.0, 5, 40.0, 2),
        ("EW", "K - L", 2, 3.6, 10, 36.0, 3),
        ("EW", "G - H", 2, 3.0, 10, 30.0, 4),
    ]
    # Butler: board 1 datum 420 (of 5 scores), the artificial score +3 / -3; board 2 datum -140
    assert run(ds, q.format("imps, rank", "Table Butler"))[1][:4] == [
        ("NS", "M - N", 1, 3.0, 1),
        ("NS", "A - B", 2, 1.0, 2),
        ("NS", "E - F", 2, 0.0, 3),
        ("NS", "C - D", 2, -10.0, 4),
    ]
    # cross-IMPs by the results (Cross1): board 1 / 5, the artificial +3 a comparison: 3 * 4 / 5
    assert run(ds, q.format("round(imps, 4), rank", "Table Cross1"))[1][:4] == [
        ("NS", "A - B", 2, 2.6667, 1),
        ("NS", "M - N", 1, 2.4, 2),
        ("NS", "E - F", 2, 1.6667, 3),
        ("NS", "C - D", 2, -8.3333, 4),
    ]
    _, rows = run(
        ds,
        "SELECT artificial_ns, imp_ns, imp_ew FROM travellers WHERE session = 'Table Cross1' AND board = 1"
        " AND artificial_ns IS NOT NULL",
    )
    assert rows == [(60, 2.4, -2.4)]


def test_score_table_as_handrec_score_ranks(table_events: tuple[Path, Path]) -> None:
    f, ds = table_events
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "score", str(f), "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    expected = {}
    for e in json.loads(p.stdout)["events"]:
        for r in e["rankings"]:
            for row in r["rows"]:
                total = row["mp"] if "mp" in row else row["total"]
                expected[e["event"], r["ranking"], row["name"]] = (
                    int(row["rank"].rstrip("=")),
                    row["boards"],
                    round(float(total), 2),
                )
    _, rows = run(ds, "SELECT event, direction, pair, rank, boards, round(coalesce(mp, imps), 2) FROM rankings")
    assert {(e, d, p): (r, b, float(t)) for e, d, p, r, b, t in rows} == expected
    assert len(expected) == 3 * 8
