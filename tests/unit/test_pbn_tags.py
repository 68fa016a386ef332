"""Every tag PBN knows (PBN 2.1 §3.4, §4; pbn.md §6, §13, §17): a real value reads clean
and typed, an invalid one gives its exact diagnostic code at the tag's position.

Real values come from the standard's examples and the corpus files (shared/corpus/pbn).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.formats.pbn.tags import TAGS, TagValueError, tag_value, typed_tag
from handrec.model import Board, Column, Contract, Deal, Doubling, Note, Seat, Side, Strain, Vulnerability
from handrec.rules.validator import analyse

SPECS = Path(__file__).parents[2].parent / "shared" / "specs" / "pbn.md"


def one(text: str) -> Board:
    (b,) = parse_pbn_text(text, "t.pbn")
    return b


def diags(board: Board) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in board.diagnostics]


NS, EW = Side.NS, Side.EW
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
TAB = "a\tb"  # no string may hold a tab (PBN 2.1 §2.3)
SPOT = object()  # a typed value checked spot by spot (test_typed_values_of_the_rest)

#: (tag, a real value, its typed value, an invalid value, the code it gives).  The codes:
#: T121 (not in PBN form), T101 (a value a typed Board field needs, unreadable).
CASES = [
    # --- the mandatory tag set (PBN 2.1 §3.4) ---
    ("Event", "International Amsterdam Airport Schiphol Bridgetournament", None, TAB, "T121"),
    ("Site", "Amsterdam, The Netherlands NLD", None, TAB, "T121"),
    ("Date", "1995.06.10", (1995, 6, 10), "2013-11-23 11:22", "T121"),
    ("Date", "2012.08.??", (2012, 8, None), "2015.09.?", "T121"),
    ("Date", "????.??.??", (None, None, None), "1999.13.01", "T121"),
    ("Board", "16", 16, "1-1", "T121"),
    ("West", "Podgor", ("Podgor",), TAB, "T121"),
    ("North", "Westra", ("Westra",), TAB, "T121"),
    ("East", "Kalish", ("Kalish",), TAB, "T121"),
    ("South", "Alan MARR;Victor SEIFERT", ("Alan MARR", "Victor SEIFERT"), TAB, "T121"),
    ("Dealer", "W", W, "Q", "T101"),
    ("Vulnerable", "All", Vulnerability.BOTH, "Some", "T101"),
    (
        "Deal",
        "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85",
        Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"),
        "N:AKQ",
        "T101",
    ),
    ("Scoring", "MP;MP1", ("MP", "MP1"), "IMP;??", "T121"),
    ("Declarer", "^S", (True, S), "Q", "T101"),
    ("Contract", "5HX", Contract(5, Strain.HEARTS, Doubling.DOUBLED), "8H", "T101"),
    ("Result", "NS 9 EW 4", (False, ((NS, 9), (EW, 4))), "nine", "T101"),
    # --- game related (PBN 2.1 §4.1) ---
    ("Competition", "Teams", None, TAB, "T121"),
    ("DealId", "11178594.lin", None, TAB, "T121"),
    ("Description", "Exercise 3", None, TAB, "T121"),
    ("FrenchMP", "Yes", True, "Oui", "T121"),
    ("Generator", "Big Deal version 1.2", None, TAB, "T121"),
    ("Hidden", "NESW", (N, E, S, W), "NEN", "T121"),
    ("Room", "Closed", "Closed", "Lounge", "T121"),
    ("Termination", "unterminated", None, TAB, "T121"),
    # --- scores (PBN 2.1 §4.2); the Score tags' faults are the scorer's: see below ---
    ("ScoreRubberHistory", "NS 0 0 / 100 0 EW 0 0 / 0 0", {NS: (0, 0, (100, 0)), EW: (0, 0, (0, 0))}, "NS 0", "T121"),
    ("OptimumScore", "NS -100", ((NS, -100),), "NS 600 EW 500", "T121"),
    # --- players (PBN 2.1 §4.3) ---
    ("BidSystemEW", "2/1", None, TAB, "T121"),
    ("BidSystemNS", "Precision", None, TAB, "T121"),
    ("PairEW", "A1", None, TAB, "T121"),
    ("PairNS", "B2", None, TAB, "T121"),
    ("WestNA", "west@example.org", None, TAB, "T121"),
    ("NorthNA", "north@example.org", None, TAB, "T121"),
    ("EastNA", "east@example.org", None, TAB, "T121"),
    ("SouthNA", "south@example.org", None, TAB, "T121"),
    ("WestType", "human", None, TAB, "T121"),
    ("NorthType", "program", None, TAB, "T121"),
    ("EastType", "human", None, TAB, "T121"),
    ("SouthType", "human", None, TAB, "T121"),
    # --- event (PBN 2.1 §4.4) ---
    ("EventDate", "1997.10.12", (1997, 10, 12), "12/10/1997", "T121"),
    ("EventSponsor", "Cap Gemini", None, TAB, "T121"),
    ("HomeTeam", "Poland", None, TAB, "T121"),
    ("Round", "1.A.2", ("1", "A", "2"), "Round 4", "T121"),
    ("Section", "Junior Teams", None, TAB, "T121"),
    ("Stage", "Semifinal", None, TAB, "T121"),
    ("Table", "7", 7, "seven", "T121"),
    ("VisitTeam", "Sweden", None, TAB, "T121"),
    # --- time (PBN 2.1 §4.5-4.6) ---
    ("Time", "02:41:00", (2, 41, 0), "2:41", "T121"),
    ("UTCDate", "2024.06.03", (2024, 6, 3), "2024-06-03", "T121"),
    ("UTCTime", "23:59:59", (23, 59, 59), "24:00:00", "T121"),
    ("TimeControl", "4/30", (4, 30), "30 minutes", "T121"),
    ("TimeCall", "10", 10, "ten", "T121"),
    ("TimeCard", "10", 10, "-1", "T121"),
    # --- miscellaneous (PBN 2.1 §4.7) ---
    ("Annotator", "Veugen, T.;Backas, K.", ("Veugen, T.", "Backas, K."), TAB, "T121"),
    ("AnnotatorNA", "tis.veugen@example.org", None, TAB, "T121"),
    ("Application", "PbnViewer", None, TAB, "T121"),
    ("Mode", "TABLE", None, TAB, "T121"),
    # --- de-facto extensions (pbn.md §17) ---
    ("DoubleDummyTricks", "79118791181171111711", SPOT, "7911879118117111171", "T121"),
    ("ParContract", "EW 5C=; EW 5D=", ("EW 5C=", "EW 5D="), "EW 5C", "T121"),
    ("OptimumContract", "5S N 11", ("5S", N, 11), "5S N", "T121"),
    ("ParScore", "-430", -430, "430 NS", "T121"),
    ("Ability", "N:D9B9D E:04230 S:D9B9D W:04230", SPOT, "N:D9B9D E:04230", "T121"),
    ("Minimax", "4SDE300", (4, Strain.SPADES, "D", E, 300), "4SX300", "T121"),
    ("BCFlags", "60001b", 0x60001B, "0x1f", "T121"),
]


@pytest.mark.parametrize(("tag", "good", "typed", "bad", "code"), CASES)
def test_a_real_value_reads_clean_and_typed(tag: str, good: str, typed: object, bad: str, code: str) -> None:
    b = one(f'[{tag} "{good}"]')
    assert b.diagnostics == ()
    assert b.tag(tag) == good
    if typed is SPOT:
        assert tag_value(b, tag) not in (None, good)
    else:
        assert tag_value(b, tag) == (good if typed is None else typed)


@pytest.mark.parametrize(("tag", "good", "typed", "bad", "code"), CASES)
def test_an_invalid_value_gives_its_code_at_the_tag(tag: str, good: str, typed: object, bad: str, code: str) -> None:
    b = one(f'{{a comment on line 1}}\n  [{tag} "{bad}"]')
    assert diags(b) == [(code, 2, 3)]
    assert tag_value(b, tag) is None or bad == TAB  # free text stays text


def test_every_tag_has_a_case_and_every_tag_of_the_notes_is_known() -> None:
    covered = {c[0] for c in CASES} | {"Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "ScoreRubber"}
    covered |= {"Auction", "Play", "Note"}  # sections: below; tables: test_pbn_tables.py
    tables = {name for name, spec in TAGS.items() if spec.group == "table"}
    assert set(TAGS) - tables == covered
    if SPECS.is_file():  # every tag named in the tables of pbn.md §5.1, §13 and §17 is known
        text = SPECS.read_text(encoding="utf-8")
        named = set()
        for start, end, cell in (("### 5.1", "## 6.", 1), ("## 13.", "## 14.", 0), ("## 17.", "## 18.", 0)):
            part = text[text.index(start) : text.index(end)]
            for row in re.findall(r"^\|(.*)\|$", part, re.M):
                words = re.findall(r"\b[A-Z][A-Za-z]+\b", row.split("|")[cell])
                named.update(words)
                if "…" in row:  # "WestNA … SouthNA": the four seats
                    named.update(s + w[4:] for w in words if w.startswith("West") for s in ("North", "East"))
        named -= {"Tag", "Others"}
        assert named == set(TAGS) - {"Auction", "Play", "Note"} - tables


@pytest.mark.parametrize("value", ["?", ""])
def test_unknown_and_not_applicable_are_never_faults(value: str) -> None:
    names = [n for n, spec in TAGS.items() if spec.group not in ("section", "table")]
    b = one("\n".join(f'[{n} "{value}"]' for n in names))
    assert b.diagnostics == ()
    assert all(typed_tag(n, value) in (None, value) for n in names)


# --- the Score tags (PBN 2.1 §4.2): typed here, faults from the scorer -----------------------

SCORES = [
    ("Score", "NS -200", ((NS, -200),), "NS lots", "S602"),
    ("ScoreIMP", "EW -2.5", ((EW, -2.5),), "NS lots", "S609"),
    ("ScoreMP", "NS 400", ((NS, 400),), "many", "S609"),
    ("ScorePercentage", "NS 97.3", ((NS, 97.3),), "NS lots", "S609"),
    ("ScoreRubber", "EW 300/40 NS 50 / 70  ", ((EW, (300, 40)), (NS, (50, 70))), "NS 30", "S609"),
]


@pytest.mark.parametrize(("tag", "good", "typed", "bad", "code"), SCORES)
def test_score_tags(tmp_path: Path, tag: str, good: str, typed: object, bad: str, code: str) -> None:
    assert typed_tag(tag, good) == typed
    with pytest.raises(TagValueError):
        typed_tag(tag, bad)
    head = '[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "N"]\n[Contract "4S"]\n'
    f = tmp_path / "s.pbn"
    f.write_text(head + f'[Result "10"]\n  [{tag} "{bad}"]\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(f), "--format", "json"])
    got = [(d["code"], d["line"], d["column"]) for d in json.loads(r.stdout)["diagnostics"]]
    assert (code, 8, 3) in got


def test_a_score_variant_in_a_clean_board_reads_clean() -> None:
    b = one('[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n[Vulnerable "None"]\n[Score "NS 420"]')
    assert analyse(b).diagnostics == ()


# --- section tags (PBN 2.1 §3.5-3.6) ------------------------------------------------------------


def test_auction_play_and_note_tags() -> None:
    text = '[Dealer "N"]\n[Contract "1NT"]\n[Auction "N"]\n1NT =1= Pass Pass Pass\n[Note "1:15-17"]\n'
    b = one(text + '[Play "E"]\nS2 =1= S3 S4 S5\n*\n[Note "1:fourth best"]')
    assert b.diagnostics == ()
    assert b.auction is not None and b.auction.notes == (Note(1, "15-17"),)
    assert b.play is not None and b.play.leader is E and b.play.notes == (Note(1, "fourth best"),)
    assert typed_tag("Auction", "n") is N and typed_tag("Note", "2: two  colors ") == Note(2, "two  colors")
    bad = one('[Dealer "N"]\n[Auction "Q"]\nPass\n[Note "one"]\n[Play "X"]')
    assert diags(bad) == [("T101", 2, 1), ("T101", 4, 1), ("T101", 5, 1)]


def test_note_index_given_twice_in_a_section_is_t126() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\n1C =1= AP\n[Note "1:clubs"]\n[Note "1:again"]')
    assert diags(b) == [("T126", 5, 1)]
    assert b.auction is not None and b.auction.calls[0].annotation == "clubs"
    assert b.auction.notes == (Note(1, "clubs"), Note(1, "again"))


# --- names --------------------------------------------------------------------------------------


def test_an_unknown_tag_is_kept_and_reported_only_under_strict(tmp_path: Path) -> None:
    b = one('[Board "1"]\n[MyProgramData "x y"]')
    assert b.tag("MyProgramData") == "x y" and diags(b) == [("T120", 2, 1)]
    f = tmp_path / "u.pbn"
    f.write_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[MyProgramData "x"]\n', encoding="utf-8")
    plain = CliRunner().invoke(app, ["validate", str(f)])
    assert plain.exit_code == 0 and "T120" not in plain.stdout
    strict = CliRunner().invoke(app, ["validate", "--strict", str(f)])
    assert f"{f}:4:1: T120 warning: unknown tag 'MyProgramData' kept" in strict.stdout


def test_a_known_tag_in_the_wrong_case_is_read_as_it_with_t122() -> None:
    b = one('[dealer "E"]\n[ScoreTABLE "Rank;Score_NS"]\n1 100\n[auction "E"]\nPass')
    assert b.dealer is E and [t.name for t in b.tags] == ["Dealer", "ScoreTable", "Auction"]
    assert b.tables[0].rows == (("1", "100"),)
    assert diags(b) == [("T122", 1, 1), ("T122", 2, 1), ("T122", 4, 1)]


def test_typed_values_of_the_rest() -> None:
    assert typed_tag("Deal", "w:- .63.AKQ987.A9732 - -")[N] is not None  # type: ignore[index]
    assert typed_tag("Vulnerable", "love") is Vulnerability.NONE
    assert typed_tag("Result", "^EW 4") == (True, ((EW, 4),))
    assert typed_tag("Contract", "NT") == Contract(0, Strain.NOTRUMP)  # an end position
    assert typed_tag("Score", "620") == ((None, 620),)
    assert typed_tag("OptimumScore", "NS 600 EW -600") == ((NS, 600), (EW, -600))
    dd = typed_tag("Ability", "N:D9B9D E:04230 S:D9B9D W:04230")
    assert dd[(N, Strain.NOTRUMP)] == 13 and dd[(E, Strain.HEARTS)] == 2
    assert typed_tag("ScoreTable", "-Rank\\3R;Names_NS") == (Column("Rank", "-", 3, "R"), Column("Names_NS"))
    assert typed_tag("MyTag", "anything") == "anything"
    with pytest.raises(TagValueError, match="W, N, E or S"):
        typed_tag("Dealer", "North")
