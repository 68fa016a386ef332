"""The session rule (handrec.events.sessions.dated, the SQL views of handrec.dataset.query): an event's known
dates, in order; a date joins the session of the date just before it unless the two conflict,
at least two board numbers that both dates have played with different deals on the two dates.

(a) a session past midnight with one fouled board after midnight stays one session (the board's
two deals scored apart, S613); (b) a weekly event whose first week crossed midnight is two
sessions, not three.  ``handrec score`` (its JSON output), ``group_sessions`` and the SQL
views give the same session names, dates and percentages.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.dataset.query import connect
from handrec.events.checks import check_event, check_pairs
from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, record
from handrec.events.methods import Method
from handrec.events.sessions import group_sessions
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.runs.convert import convert

_A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
_ROT = _A[2:].split()
#: Eight deals: rotations of the hands of _A, and of the same hands with N and S swapped.
_SWAP = [_ROT[2], _ROT[1], _ROT[0], _ROT[3]]
DEALS = {b: "N:" + " ".join(_ROT[(b + i) % 4] for i in range(4)) for b in range(1, 5)}
DEALS.update({b + 4: "N:" + " ".join(_SWAP[(b + i) % 4] for i in range(4)) for b in range(1, 5)})


def game(table: int, result: int, date: str | None, board: int, deal: int, event: str = "Late") -> str:
    """4S by N taking ``result`` tricks at ``table`` (pairs N<t>-S<t>, E<t>-W<t>), none vulnerable."""
    lines = [f'[Event "{event}"]'] + ([f'[Date "{date}"]'] if date else [])
    lines += [f'[Board "{board}"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{DEALS[deal]}"]']
    lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    lines += ['[Contract "4S"]', '[Declarer "N"]', f'[Result "{result}"]']
    return "\n".join(lines) + "\n"


def recs(t: str, path: str = "t.pbn") -> list[GameRecord]:
    return [record(b) for b in parse_pbn_text(t, path)]


def _score_view(files: dict[str, str], tmp_path: Path) -> list[tuple[object, ...]]:
    """(session, session date, board, score_ns, pct_ns) of each result, as ``handrec score --format
    json`` prints them (dated by group_sessions)."""
    paths = []
    for name, t in files.items():
        (tmp_path / name).write_text(t, encoding="utf-8")
        paths.append(str(tmp_path / name))
    r = CliRunner().invoke(app, ["score", *paths, "-m", "mp", "--format", "json"])
    assert r.exit_code == 0, r.output
    rs = [x for name, t in files.items() for x in recs(t, str(tmp_path / name))]
    dates = {name: {x.date for x in g} for name, g in group_sessions(rs)}
    out = []
    for ev in json.loads(r.stdout)["events"]:
        (date,) = dates[ev["event"]]
        for t in ev["travellers"]:
            for e in t["entries"]:
                out.append((ev["event"], date or None, int(t["board"]), e["score_ns"], f"{e['pct_ns']:.2f}"))
    return sorted(out)


def _sql_view(files: dict[str, str], tmp_path: Path) -> list[tuple[object, ...]]:
    src = tmp_path / "in"
    src.mkdir()
    for name, t in files.items():
        (src / name).write_text(t, encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    rows = (
        connect(tmp_path / "ds")
        .execute("SELECT session, session_date, board, score_ns, pct_ns FROM travellers ORDER BY ALL")
        .fetchall()
    )
    return [(*x[:-1], f"{x[-1]:.2f}") for x in rows]


#: (a) A session past midnight: boards 1-2 on 2026.01.05, boards 3-4 on 2026.01.06, three tables
#: each, but table 3 played board 2 after midnight with another deal (a fouled board).
FOULED = [
    game(
        t, 8 + (b + t) % 4, "2026.01.06" if b > 2 or (b, t) == (2, 3) else "2026.01.05", b, 6 if (b, t) == (2, 3) else b
    )
    for b in (1, 2, 3, 4)
    for t in (1, 2, 3)
]


def test_a_session_past_midnight_with_one_fouled_board_is_one_session(tmp_path: Path) -> None:
    t = "\n".join(FOULED)
    rs = recs(t, "late.pbn")
    assert [(name, sorted({r.date for r in g}), len(g)) for name, g in group_sessions(rs)] == [
        ("Late", ["2026.01.05"], 12)
    ]
    (ev,) = score_event(rs, Method.MP)
    # board 2's two deals are scored apart: two results with its deal, one with the other
    assert sorted((x.traveller.board, x.traveller.size) for x in ev.travellers) == [
        ("1", 3),
        ("2", 1),
        ("2", 2),
        ("3", 3),
        ("4", 3),
    ]
    # validate: the fouled board is S613, at the Deal tag of the game of table 3 (the 6th game)
    got = [(d.code, d.line) for d in check_pairs(rs)]
    assert [(d.code, d.line) for d in check_event(rs)] == got
    assert got == [("S613", 5 * 14 + 6)]
    py = _score_view({"late.pbn": t}, tmp_path)
    assert _sql_view({"late.pbn": t}, tmp_path) == py
    assert {x[:2] for x in py} == {("Late", "2026.01.05")} and len(py) == 12


#: (b) A weekly event: week 1 crossed midnight (boards 1-2 and table 1 of board 3 on 2026.11.29,
#: the rest of boards 3-4 on 2026.11.30, one deal a board), week 2 on 2026.12.06 reuses boards
#: 1-4 with new deals.
WEEK1 = [
    game(t, 8 + (b * t) % 4, "2026.11.29" if b < 3 or (b, t) == (3, 1) else "2026.11.30", b, b, "Weekly")
    for b in (1, 2, 3, 4)
    for t in (1, 2, 3)
]
WEEK2 = [game(t, 7 + (b + 2 * t) % 5, "2026.12.06", b, b + 4, "Weekly") for b in (1, 2, 3, 4) for t in (1, 2, 3)]


def test_a_weekly_event_whose_first_week_crossed_midnight_is_two_sessions(tmp_path: Path) -> None:
    files = {"w1.pbn": "\n".join(WEEK1), "w2.pbn": "\n".join(WEEK2)}
    rs = recs(files["w1.pbn"], "w1.pbn") + recs(files["w2.pbn"], "w2.pbn")
    d1, d2 = "Weekly (2026.11.29)", "Weekly (2026.12.06)"
    assert [(name, sorted({r.date for r in g}), len(g)) for name, g in group_sessions(rs)] == [
        (d1, ["2026.11.29"], 12),
        (d2, ["2026.12.06"], 12),
    ]
    assert [ev.name for ev in score_event(rs, Method.MP)] == [d1, d2]
    assert [ev.name for ev in score_event(rs, None)] == [d1, d2]
    assert check_event(rs) == []  # other sessions: no fouled board
    py = _score_view(files, tmp_path)
    assert _sql_view(files, tmp_path) == py
    assert {x[:2] for x in py} == {(d1, "2026.11.29"), (d2, "2026.12.06")} and len(py) == 24
    # a game without a Date tag: the event has two sessions, so it is one of its own
    rs.append(recs(game(4, 9, None, 1, 1, "Weekly"), "w3.pbn")[0])
    assert [name for name, _ in group_sessions(rs)] == [d1, d2, "Weekly (no Date tag)"]


def test_a_date_joins_the_session_just_before_it() -> None:
    # 01.05 and 01.12 conflict (boards 1-2 new), 01.13 continues 01.12 (board 1 the same deal)
    t = "\n".join(
        [game(1, 10, "2026.01.05", b, b, "W") for b in (1, 2)]
        + [game(1, 10, "2026.01.12", b, b + 4, "W") for b in (1, 2)]
        + [game(2, 10, "2026.01.13", 1, 5, "W"), game(2, 10, "2026.01.13", 3, 3, "W")]
    )
    got = [(name, len(g)) for name, g in group_sessions(recs(t))]
    assert got == [("W (2026.01.05)", 2), ("W (2026.01.12)", 4)]
