"""Issue #19.4, one answer to "who won": the SQL ``rankings`` view ranks every session as
``handrec score`` does, with the same method, on every corpus file with results and on
sample_data.

For each file: ``handrec score FILE --format json`` (the command line), and the file converted
(:func:`handrec.runs.convert.convert`, what ``handrec convert`` runs) then queried.  Each event of
``score`` is a session of the views (``rankings.event``); its method, and each ranking row's
direction, pair, rank, boards and total (matchpoints, IMPs or a team's net IMPs, as ``score``
prints them: 2 decimals) must be the same; a board given as a ScoreTable (USEBIO's adjusted
boards, with Law 12C2 artificial scores) is read from its rows in ``supplemental`` by both.
"""

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
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = sorted((ROOT / "sample_data").iterdir())
CORPUS_FILES = sorted(p for p in CORPUS.glob("*/*") if p.is_file() and p.suffix != ".md") if CORPUS.is_dir() else []
_MISSING = Path("<corpus missing>")


def _score(path: Path) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "score", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    if not p.stdout.strip():
        return []
    return json.loads(p.stdout)["events"]


def _rank(label: str) -> int | None:
    return None if label == "-" else int(label.rstrip("=").split("-")[0])


def _expected(events: list[dict]) -> dict[str, tuple[str, list[tuple]]]:
    """Per session with a ranking: (method, sorted rows (direction, pair, rank, boards, total))."""
    out: dict[str, tuple[str, list[tuple]]] = {}
    for e in events:
        rows = []
        for r in e.get("rankings") or []:
            for row in r["rows"]:
                total = row["net"] if "net" in row else row["mp"] if "mp" in row else row["total"]
                rows.append((r["ranking"], row["name"], _rank(row["rank"]), row["boards"], round(float(total), 2)))
        if rows:
            out[e["event"]] = (e["method"], sorted(rows, key=repr))
    return out


def _views(path: Path, tmp: Path) -> dict[str, tuple[str, list[tuple]]]:
    convert([str(path)], tmp)
    _, rows = run(
        tmp,
        "SELECT event, method, direction, pair, rank, boards, round(CASE WHEN method IN ('mp', 'mp2') THEN mp"
        " ELSE imps END, 2) FROM rankings",
    )
    out: dict[str, tuple[str, list[tuple]]] = {}
    for event, method, direction, pair, rank, boards, total in rows:
        m, rs = out.setdefault(event, (method, []))
        assert m == method, f"{event}: several methods in rankings ({m}, {method})"
        rs.append((direction, pair, rank, boards, float(total)))
    return {e: (m, sorted(rs, key=repr)) for e, (m, rs) in out.items()}


@pytest.mark.parametrize("path", [*SAMPLES, *(CORPUS_FILES or [_MISSING])], ids=lambda p: p.name)
def test_rankings_view_ranks_as_score_does(path: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if path is _MISSING:
        request.getfixturevalue("corpus_dir")  # skipped locally, fails under CI=true
    events = _score(path)
    expected = _expected(events)
    if not expected and not any(e.get("travellers") or e.get("team_boards") for e in events):
        pytest.skip(f"{path.name}: no result to rank")
    got = _views(path, tmp_path / "ds")
    assert {e: m for e, (m, _) in got.items()} == {e: m for e, (m, _) in expected.items()}
    for event, (_, rows) in expected.items():
        assert got[event][1] == rows, event


def test_methods_of_the_sample_sessions(tmp_path: Path) -> None:
    """The method column names each session's method, Butler for the pairs event scored in IMPs."""
    convert([str(p) for p in SAMPLES], tmp_path)
    _, rows = run(tmp_path, "SELECT DISTINCT session, method FROM travellers ORDER BY session")
    assert rows == [
        (f"{ROOT / 'sample_data' / 'bbo_hands.lin'} (no Event tag)", "mp"),
        ("Sunday Afternoon Pairs", "butler"),
        ("Thursday club pairs", "mp"),
    ]
