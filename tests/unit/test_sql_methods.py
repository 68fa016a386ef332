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
