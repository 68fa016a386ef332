"""The SQL ``rankings`` view leaves out teams sessions (an Open and a Closed room of a teams match,
as ``handrec score`` finds them: handrec.events.methods.method_for /
handrec.events.teams.score_teams), which ``handrec score`` scores with teams IMPs, not
matchpoints; pairs sessions are ranked as before."""

from __future__ import annotations

from pathlib import Path

from handrec.dataset.query import connect
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Method
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.runs.convert import convert

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def game(event: str, n: int, tricks: int, **tags: str) -> str:
    """Board 1, 4S by N (none vulnerable), players N<n>, S<n>, E<n>, W<n>."""
    lines = [f'[Event "{event}"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{A}"]']
    lines += [f'[North "N{n}"]', f'[South "S{n}"]', f'[East "E{n}"]', f'[West "W{n}"]']
    lines += ['[Contract "4S"]', '[Declarer "N"]', f'[Result "{tricks}"]']
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


TEAMS = "\n".join(
    [
        game("Match", 1, 10, Room="Open", HomeTeam="Germany", VisitTeam="Austria"),  # +420
        game("Match", 2, 9, Room="closed", HomeTeam="Germany", VisitTeam="Austria"),  # -50
    ]
)
PAIRS = "\n".join([game("Pairs", 1, 10), game("Pairs", 2, 9), game("Pairs", 3, 11)])  # 420, -50, 450
#: Two tables that name their rooms but are no teams match: two Open rooms
OPEN_TWICE = "\n".join([game("Rooms", 1, 10, Room="Open"), game("Rooms", 2, 9, Room="Open")])


def test_rankings_score_each_session_by_its_method(tmp_path: Path) -> None:
    """The teams match ranked by IMPs, the pairs sessions by matchpoints, as handrec score
    decides (issue #19.4: once the teams sessions were left out of the rankings)."""
    src = tmp_path / "in"
    src.mkdir()
    for name, t in (("match.pbn", TEAMS), ("pairs.pbn", PAIRS), ("rooms.pbn", OPEN_TWICE)):
        (src / name).write_text(t, encoding="utf-8")
    # handrec score: teams IMPs for the match, matchpoints for the others
    methods = {
        ev.name: ev.method
        for name, t in (("match.pbn", TEAMS), ("pairs.pbn", PAIRS), ("rooms.pbn", OPEN_TWICE))
        for ev in score_event([record(b) for b in parse_pbn_text(t, name)], None)
    }
    assert methods == {"Match": Method.IMP, "Pairs": Method.MP, "Rooms": Method.MP}
    convert([src], tmp_path / "ds", jobs=1)
    con = connect(tmp_path / "ds")
    # the match's games stay in travellers (one comparison each way)
    assert con.execute("SELECT event, count(*) FROM travellers GROUP BY ALL ORDER BY ALL").fetchall() == [
        ("Match", 2),
        ("Pairs", 3),
        ("Rooms", 2),
    ]
    got = con.execute(
        "SELECT event, method, direction, pair, boards, mp, top, pct, imps, won, lost, rank FROM rankings ORDER BY ALL"
    )
    n = None
    assert got.fetchall() == [
        ("Match", "imp", "teams", "Austria", 1, n, n, n, -10.0, 0.0, 10.0, 2),
        ("Match", "imp", "teams", "Germany", 1, n, n, n, 10.0, 10.0, 0.0, 1),
        ("Pairs", "mp", "EW", "E1 - W1", 1, 1.0, 2, 50.0, n, n, n, 2),
        ("Pairs", "mp", "EW", "E2 - W2", 1, 2.0, 2, 100.0, n, n, n, 1),
        ("Pairs", "mp", "EW", "E3 - W3", 1, 0.0, 2, 0.0, n, n, n, 3),
        ("Pairs", "mp", "NS", "N1 - S1", 1, 1.0, 2, 50.0, n, n, n, 2),
        ("Pairs", "mp", "NS", "N2 - S2", 1, 0.0, 2, 0.0, n, n, n, 3),
        ("Pairs", "mp", "NS", "N3 - S3", 1, 2.0, 2, 100.0, n, n, n, 1),
        ("Rooms", "mp", "EW", "E1 - W1", 1, 0.0, 1, 0.0, n, n, n, 2),
        ("Rooms", "mp", "EW", "E2 - W2", 1, 1.0, 1, 100.0, n, n, n, 1),
        ("Rooms", "mp", "NS", "N1 - S1", 1, 1.0, 1, 100.0, n, n, n, 1),
        ("Rooms", "mp", "NS", "N2 - S2", 1, 0.0, 1, 0.0, n, n, n, 2),
    ]
    cols = [c[0] for c in con.execute("SELECT * FROM rankings LIMIT 0").description]
    assert cols[:3] == ["event", "method", "direction"]
