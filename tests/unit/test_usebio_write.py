"""``handrec export --to usebio``: a PBN event written as USEBIO and read back (by handrec, and
by ElementTree with usebio.md's element names and nesting)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Method
from handrec.events.travellers import travellers
from handrec.formats.dispatch import read

SAMPLE = Path(__file__).parents[2] / "sample_data" / "club_session.pbn"
runner = CliRunner()


def export(src: Path, out: Path, *extra: str) -> str:
    res = runner.invoke(app, ["export", str(src), "--to", "usebio", "-o", str(out), *extra])
    assert res.exit_code == 0, res.output
    return res.output


def rankings(path: Path, method: Method | None = None) -> list[tuple[str, list[tuple[str, str, Fraction | None]]]]:
    recs = [record(b) for b in read(path)]
    return [
        (rk.title, [(row.rank, row.name, row.pct) for row in rk.rows])
        for ev in score_event(recs, method)
        for rk in ev.rankings
    ]


def _names(path: Path) -> dict[str, str]:
    """Pair number -> 'first - second' player names, from the exported file (ElementTree)."""
    root = ET.parse(path).getroot()
    return {
        p.findtext("PAIR_NUMBER"): " - ".join(x.findtext("PLAYER_NAME") for x in p.findall("PLAYER"))
        for p in root.iter("PAIR")
    }


def test_club_session_reads_back_to_the_same_rankings(tmp_path: Path) -> None:
    out = tmp_path / "club.xml"
    said = export(SAMPLE, out)
    assert "pairs numbered from their names (1NS = N1 - S1;" in said  # no PairNS/PairEW tags
    names = _names(out)
    before = rankings(SAMPLE)
    after = [(t, [(rank, names[n], pct) for rank, n, pct in rows]) for t, rows in rankings(out)]
    assert before == after and [t for t, _ in before] == ["NS", "EW"]
    # the same match points: 2/1 in USEBIO, twice the 1/0.5 figures of the PBN event (Scoring "MP")
    (ev1,) = score_event([record(b) for b in read(SAMPLE)], None)
    (ev2,) = score_event([record(b) for b in read(out)], None)
    assert ev1.method is Method.MP and ev2.method is Method.MP2
    one = sorted((s.traveller.board, e.entry.score_ns, 2 * e.ns, 2 * e.ew) for s in ev1.travellers for e in s.entries)
    two = sorted((s.traveller.board, e.entry.score_ns, e.ns, e.ew) for s in ev2.travellers for e in s.entries)
    assert one == two
    # the same travellers (contract, declarer, tricks, score, opening lead) and no claim handrec disputes
    boards1, boards2 = list(read(SAMPLE)), list(read(out))
    t1 = sorted(
        (b.number, str(b.contract), str(b.declarer), b.result, b.tag("Score"), str(b.play.cards[0])) for b in boards1
    )
    t2 = sorted(
        (b.number, str(b.contract), str(b.declarer), b.result, b.tag("Score"), str(b.play.cards[0])) for b in boards2
    )
    assert t1 == t2
    assert check_event([record(b) for b in boards2]) == []


def test_the_exported_file_has_usebio_names_and_nesting(tmp_path: Path) -> None:
    out = tmp_path / "club.xml"
    export(SAMPLE, out)
    text = out.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM')
    root = ET.fromstring(text.encode())  # a second, independent XML reader
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    assert [c.tag for c in root] == ["CLUB", "EVENT", "HANDSET"]
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "MP_PAIRS"
    head = [c.tag for c in event][: [c.tag for c in event].index("PARTICIPANTS")]
    assert head == [
        "EVENT_DESCRIPTION",
        "PROGRAM_NAME",
        "PROGRAM_VERSION",
        "WINNER_TYPE",
        "DATE",
        "SESSION_COUNT",
        "SECTION_COUNT",
    ]
    assert event.findtext("WINNER_TYPE") == "2" and event.findtext("DATE") == "29/11/2026"
    pairs = event.find("PARTICIPANTS").findall("PAIR")
    assert len(pairs) == 8
    assert [c.tag for c in pairs[0]] == [
        "PAIR_NUMBER",
        "DIRECTION",
        "BOARDS_PLAYED",
        "TOTAL_SCORE",
        "PERCENTAGE",
        "PLACE",
        "PLAYER",
        "PLAYER",
    ]
    assert [c.tag for c in pairs[0].find("PLAYER")] == ["PLAYER_NAME"]  # no empty NATIONAL_ID_NUMBER
    boards = event.findall("BOARD")
    assert len(boards) == 8 and all(len(b.findall("TRAVELLER_LINE")) == 4 for b in boards)
    assert [c.tag for c in boards[0].find("TRAVELLER_LINE")] == [
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "LEAD",
        "TRICKS",
        "SCORE",
        "NS_MATCH_POINTS",
        "EW_MATCH_POINTS",
    ]
    hs = root.find("HANDSET").findall("BOARD")
    assert len(hs) == 8 and [h.findtext("DIRECTION") for h in hs[0].findall("HAND")] == [
        "North",
        "East",
        "South",
        "West",
    ]
    assert [c.tag for c in hs[0].find("HAND")] == ["DIRECTION", "CLUBS", "DIAMONDS", "HEARTS", "SPADES"]
    # no empty element but a void suit
    for e in root.iter():
        if not len(e) and not (e.text or "").strip():
            assert e.tag in ("CLUBS", "DIAMONDS", "HEARTS", "SPADES"), e.tag
    # every line's pair numbers are participants
    numbers = {p.findtext("PAIR_NUMBER") for p in pairs}
    assert {ln.findtext("NS_PAIR_NUMBER") for ln in root.iter("TRAVELLER_LINE")} <= numbers


def test_version_1_3(tmp_path: Path) -> None:
    out = tmp_path / "v13.xml"
    export(SAMPLE, out, "--usebio-version", "1.3")
    event = ET.parse(out).getroot().find("EVENT")
    assert ET.parse(out).getroot().get("Version") == "1.3"
    assert (event.get("EVENT_TYPE"), event.findtext("BOARD_SCORING_METHOD"), event.findtext("DATE")) == (
        "PAIRS",
        "MATCH_POINTS",
        "2026-11-29",
    )
    names = _names(out)
    assert [(t, [(r, names[n], p) for r, n, p in rows]) for t, rows in rankings(out)] == rankings(SAMPLE)


@pytest.mark.parametrize(
    "scoring,event_type,figure",
    [("IMP;Butler", "BUTLER_PAIRS", "NS_BUTLER_POINTS"), ("IMP;Cross2", "CROSS_IMPS", "NS_CROSS_IMP_POINTS")],
)
def test_butler_and_cross_imps(tmp_path: Path, scoring: str, event_type: str, figure: str) -> None:
    src = tmp_path / "imp.pbn"
    src.write_text(SAMPLE.read_text().replace('[Scoring "MP"]', f'[Scoring "{scoring}"]'))
    out = tmp_path / "imp.xml"
    export(src, out)
    root = ET.parse(out).getroot()
    assert root.find("EVENT").get("EVENT_TYPE") == event_type
    assert sum(1 for _ in root.iter(figure)) == 32
    assert sum(1 for _ in root.iter("BOARD_AVERAGE")) == (8 if event_type == "BUTLER_PAIRS" else 0)  # the datum
    names = _names(out)
    before = rankings(src)
    after = [(t, [(rank, names[n], pct) for rank, n, pct in rows]) for t, rows in rankings(out)]
    assert before == after
    assert check_event([record(b) for b in read(out)]) == []  # the IMPs written are handrec's


def test_several_sections(tmp_path: Path) -> None:
    text = SAMPLE.read_text()
    # tables 1 and 2 in section A, 3 and 4 in section B (the same boards: scored across the field)
    text = re.sub(r'(\[North "N([12])"\])', r'[Section "A"]\n\1', text)
    text = re.sub(r'(\[North "N([34])"\])', r'[Section "B"]\n\1', text)
    src = tmp_path / "sections.pbn"
    src.write_text(text)
    out = tmp_path / "sections.xml"
    export(src, out)
    event = ET.parse(out).getroot().find("EVENT")
    sections = event.findall("SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"]
    assert event.find("PARTICIPANTS") is None and event.find("BOARD") is None
    for s in sections:
        assert len(s.find("PARTICIPANTS").findall("PAIR")) == 4
        assert sum(len(b.findall("TRAVELLER_LINE")) for b in s.findall("BOARD")) == 16
    assert event.findtext("SECTION_COUNT") == "2"
    names = _names(out)
    assert [(t, [(r, names[n], p) for r, n, p in rows]) for t, rows in rankings(out)] == rankings(src)
    assert {b.tag("Section") for b in read(out)} == {"A", "B"}


TEAMS = """[Event "Teams"]
[Date "2026.03.01"]
[Board "{n}"]
[Room "{room}"]
[HomeTeam "Lions"]
[VisitTeam "Tigers"]
[North "{north}"]
[South "{south}"]
[East "{east}"]
[West "{west}"]
[Dealer "{dealer}"]
[Vulnerable "{vul}"]
[Contract "{contract}"]
[Declarer "{declarer}"]
[Result "{result}"]

"""


def test_teams_as_match_elements(tmp_path: Path) -> None:
    games = []
    for n, dealer, vul, plays in (
        (1, "N", "None", (("4S", "S", 10), ("4S", "S", 9))),
        (2, "E", "NS", (("3NT", "N", 9), ("3NT", "N", 9))),
    ):
        for room, (contract, declarer, result) in zip(("Open", "Closed"), plays):
            home = room == "Open"
            seats = dict(
                zip(
                    ("north", "south", "east", "west"),
                    ("Ann", "Bob", "Cid", "Dee") if home else ("Cid", "Dee", "Ann", "Bob"),
                )
            )
            games.append(
                TEAMS.format(
                    n=n, room=room, dealer=dealer, vul=vul, contract=contract, declarer=declarer, result=result, **seats
                )
            )
    src = tmp_path / "teams.pbn"
    src.write_text("".join(games))
    out = tmp_path / "teams.xml"
    said = export(src, out)
    assert "no real teams file was available" in said
    root = ET.parse(out).getroot()
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "TEAMS_OF_FOUR"
    teams = event.find("PARTICIPANTS").findall("TEAM")
    assert [(t.get("TEAM_ID"), t.get("TEAM_NAME"), t.findtext("PLACE")) for t in teams] == [
        ("1", "Lions", "1"),
        ("2", "Tigers", "2"),
    ]
    (m,) = event.findall("MATCH")
    assert [(b.findtext("BOARD_NUMBER"), b.findtext("IMPS")) for b in m.findall("BOARD")] == [("1", "10"), ("2", "0")]
    assert [ln.findtext("DIRECTION") for ln in m.find("BOARD").findall("TRAVELLER_LINE")] == ["NS", "EW"]
    # read back: the same match
    recs = [record(b) for b in read(out)]
    (ev,) = score_event(recs, None)
    assert ev.method is Method.IMP
    assert [(tb.board, tb.imps_home) for tb in ev.team_boards] == [("1", 10), ("2", 0)]
    assert check_event(recs) == []


def test_one_event_only(tmp_path: Path) -> None:
    a = SAMPLE.read_text()
    src = tmp_path / "two.pbn"
    src.write_text(a + "\n" + a.replace("Thursday club pairs", "Friday club pairs"))
    res = runner.invoke(app, ["export", str(src), "--to", "usebio", "-o", str(tmp_path / "x.xml")])
    assert res.exit_code == 2
    assert "USEBIO holds one event, the inputs hold 2 ('Thursday club pairs', 'Friday club pairs')" in res.output
    assert not (tmp_path / "x.xml").exists()


def test_an_artificial_score_is_written_as_an_adjusted_score(tmp_path: Path) -> None:
    # the last table's board 1 not played: an average-plus to N-S, average-minus to E-W in a ScoreTable
    text = SAMPLE.read_text()
    table = (
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Percentage_NS;Percentage_EW"]\n'
        "1 1 2H W 9 - -\n2 2 2D N 12 - -\n3 3 2H W 9 - -\n4 4 - - - ^60 ^40\n"
    )
    first = text.index("[Auction")
    src = tmp_path / "adj.pbn"
    src.write_text(text[:first] + table + text[first:])
    out = tmp_path / "adj.xml"
    export(src, out)
    lines = [
        ln
        for b in ET.parse(out).getroot().iter("BOARD")
        if b.findtext("BOARD_NUMBER") == "1"
        for ln in b.findall("TRAVELLER_LINE")
    ]
    adjusted = [ln for ln in lines if ln.findtext("SCORE").startswith("A")]
    assert [(a.findtext("SCORE"), a.find("CONTRACT")) for a in adjusted] == [("A6040", None)]
    recs = [record(b) for b in read(out)]
    (t,) = [t for t in travellers(recs) if t.board == "1"]
    assert sorted(str(e.artificial) for e in t.entries if e.artificial) == [
        "(ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS)"
    ]
    assert [d for d in check_event(recs) if d.code != "S608"] == []


def test_cross_imps_are_written_divided_by_the_comparisons(tmp_path: Path) -> None:
    src = tmp_path / "sum.pbn"
    src.write_text(SAMPLE.read_text().replace('[Scoring "MP"]', '[Scoring "IMP;Cross"]'))  # summed (PBN Cross)
    out = tmp_path / "sum.xml"
    said = export(src, out)
    assert "cross-IMPs written divided by the comparisons" in said
    recs = [record(b) for b in read(out)]
    assert check_event(recs) == []  # read back as USEBIO's (Cross2): the figures agree
    summed = {(r.board, r.ns): r for r in (record(b) for b in read(src))}
    (ev,) = score_event([record(b) for b in read(src)], Method.CROSS_IMP)  # divided by the comparisons
    mine = sorted((s.traveller.board, e.entry.ns, e.ns) for s in ev.travellers for e in s.entries)
    (ev2,) = score_event(recs, None)
    names = _names(out)
    theirs = sorted((s.traveller.board, names[e.entry.ns], e.ns) for s in ev2.travellers for e in s.entries)
    assert mine == theirs and len(summed) == 32


def test_a_session_that_ranks_no_pair_is_refused_not_written(tmp_path: Path) -> None:
    # sample club_pairs.pbn: each board played once: traveller lines named by players, no
    # PARTICIPANTS; handrec's own validate then found 16 U713 errors in a file exported with exit 0
    out = tmp_path / "cp.xml"
    res = runner.invoke(app, ["export", str(SAMPLE.parent / "club_pairs.pbn"), "--to", "usebio", "-o", str(out)])
    assert (res.stderr.splitlines(), res.exit_code) == (
        [
            "handrec: no board of 'Sunday Afternoon Pairs' has two results or more: no pair is ranked, "
            "and USEBIO's PARTICIPANTS need each pair's place and total"
        ],
        2,
    )
    assert not out.exists()


def test_control_characters_become_u_fffd_and_the_file_stays_well_formed(tmp_path: Path) -> None:
    src = tmp_path / "esc.pbn"
    src.write_text(SAMPLE.read_text(encoding="utf-8").replace("Thursday club pairs", "Thursday\x1b[31m club\x07"))
    out = tmp_path / "esc.xml"
    export(src, out)
    root = ET.parse(out).getroot()  # well-formed: it parses
    assert root.find("EVENT").findtext("EVENT_DESCRIPTION") == "Thursday\ufffd[31m club\ufffd"
    r = runner.invoke(app, ["validate", str(out)])
    assert r.exit_code == 0, r.stdout
