"""The LIN reader on the real files of shared/corpus/lin (see MANIFEST.md).

Every file parses without raising, record counts equal MANIFEST.md's
"Records" column, no file yields a diagnostic, neither when read nor when
validated (none of the nine LIN files is faulty: MANIFEST marks no `[bad]`
LIN file, and each was checked by eye), and values read from the files by
hand come out.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from handrec.diagnostics import Diagnostic
from handrec.formats.lin.reader import parse_lin
from handrec.model import CallKind, Card, Deal, Seat, Vulnerability
from handrec.rules.validator import analyse

#: MANIFEST.md, LIN table: file -> Records.
RECORDS = {
    "bbo_single_board_alert_mark.lin": 1,
    "bbo_single_board_long_explanations.lin": 1,
    "bbo_single_board_unusual_nt_alert.lin": 1,
    "bbo_multi_board_one_per_line.lin": 8,
    "bbo_tourney_slam_claim_after_trick6.lin": 1,
    "bbo_tourney_redouble_alert_explained.lin": 1,
    "bbo_acbl_redouble_runout_claim_after_lead.lin": 1,
    "dealconvert_vugraph_handrecord_crlf.lin": 32,
    "bbo_handviewer_url_encoded.txt": 1,
}

_EOL = re.compile(rb"\r\n|\n|\r")


def decode_lines(path: Path) -> list[str]:
    """A stand-in for handrec.inputs.decode: strip a BOM, split on CR LF / LF / CR, and
    decode each line as UTF-8, else Latin-1."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = []
    for raw in _EOL.split(data):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(raw.decode("latin-1"))
    return lines


def read(corpus_dir: Path, name: str) -> tuple[list, list[Diagnostic]]:
    path = corpus_dir / "lin" / name
    file_diags: list[Diagnostic] = []
    boards = list(parse_lin(decode_lines(path), str(path), file_diags))
    return boards, file_diags


def test_manifest_lists_every_lin_file(corpus_dir: Path) -> None:
    assert sorted(p.name for p in (corpus_dir / "lin").iterdir()) == sorted(RECORDS)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_file_parses_with_manifest_record_count_and_no_diagnostics(corpus_dir: Path, name: str) -> None:
    boards, file_diags = read(corpus_dir, name)
    assert len(boards) == RECORDS[name]
    assert [b.origin.index for b in boards] == list(range(len(boards)))
    found = Counter(d.code for d in file_diags) + Counter(d.code for b in boards for d in b.diagnostics)
    assert found == Counter()
    for b in boards:
        assert b.deal is not None and b.deal.is_complete
        assert b.dealer is not None and b.vulnerable is not None and b.number is not None
        assert Deal.parse(b.tag("Deal")) == b.deal


def test_alert_mark_without_explanation(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_single_board_alert_mark.lin")
    assert b.tag("Deal") == "N:A.AKT53.J2.AQ532 KJ9742.964.Q6.T6 T853.82.97543.98 Q6.QJ7.AKT8.KJ74"
    assert (b.number, b.dealer, b.vulnerable) == (1, Seat.NORTH, Vulnerability.NONE)
    assert str(b.auction) == "1H 2S Pass 2NT 3C Pass Pass Pass"
    two_spades = b.auction.calls[1]
    assert (two_spades.alert, two_spades.annotation) == (True, None)
    assert [c.alert for c in b.auction.calls].count(True) == 1
    assert len(b.play.cards) == 52 and b.play.claim is None
    assert b.tag("South") == "jdr9999"


def test_slam_claim_after_six_tricks(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_tourney_slam_claim_after_trick6.lin")
    assert str(b.auction) == "Pass 2NT 3D X Pass 3NT Pass 6NT Pass Pass Pass"
    assert b.play.claim == 12
    assert len(b.play.cards) == 24
    assert b.play.cards[0] == Card.parse("DK")


def test_redouble_alert_explained(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_tourney_redouble_alert_explained.lin")
    assert len(b.auction.calls) == 15
    redouble = b.auction.calls[4]
    assert (redouble.kind, redouble.alert, redouble.annotation) == (CallKind.REDOUBLE, True, "3 piki")


def test_claim_after_the_lead_of_trick_twelve(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_acbl_redouble_runout_claim_after_lead.lin")
    assert (b.number, b.dealer, b.vulnerable) == (2, Seat.EAST, Vulnerability.NS)
    assert str(b.auction) == "1S Pass 2S X XX 3D Pass Pass 3S Pass Pass Pass"
    assert (len(b.play.cards), b.play.claim) == (45, 9)


def test_explanations_on_unalerted_calls(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_single_board_unusual_nt_alert.lin")
    two_nt = b.auction.calls[2]
    assert (str(two_nt), two_nt.alert, two_nt.annotation) == ("2NT", False, "Unusual No Trump: 2 5card minors")
    (b,), _ = read(corpus_dir, "bbo_single_board_long_explanations.lin")
    assert len(b.auction.calls) == 23
    # trailing spaces inside `an` are dropped
    assert b.auction.calls[1].annotation == "Major suit opening -- 5+ !S; 11-21 HCP; 12-22 total points"


def test_multi_board_file(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bbo_multi_board_one_per_line.lin")
    assert [b.number for b in boards] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [b.origin.line for b in boards] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [len(b.auction.calls) for b in boards] == [10, 10, 8, 11, 8, 11, 10, 17]
    assert [b.play.claim for b in boards] == [None, None, 9, None, None, None, 11, None]
    assert boards[0].auction.calls[3].alert and boards[0].auction.calls[3].annotation.startswith("Michaels")
    assert all(b.tag("South") == "domtp" for b in boards)


def test_handviewer_url(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "bbo_handviewer_url_encoded.txt")
    assert [b.tag(t) for t in ("South", "West", "North", "East")] == ["~~M11740c6", "player1", "~~M30744jn", "player2"]
    assert (b.number, b.dealer, b.vulnerable) == (2, Seat.EAST, Vulnerability.NS)
    assert str(b.deal[Seat.EAST]) == "J.QT53.K.KJT9843"
    assert str(b.auction) == "2C Pass Pass Pass"
    assert len(b.play.cards) == 52


def test_vugraph_hand_record_file(corpus_dir: Path) -> None:
    boards, file_diags = read(corpus_dir, "dealconvert_vugraph_handrecord_crlf.lin")
    assert file_diags == []
    assert [(b.number, b.tag("Room")) for b in boards] == [(n, r) for n in range(1, 17) for r in ("Open", "Closed")]
    assert [b.origin.line for b in boards] == list(range(4, 36))
    first = boards[0]
    assert first.tag("Deal") == "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4"
    assert boards[0].deal == boards[1].deal  # open and closed room play the same cards
    assert [b.vulnerable for b in boards[0:8:2]] == [
        Vulnerability.NONE,
        Vulnerability.NS,
        Vulnerability.EW,
        Vulnerability.BOTH,
    ]
    assert [b.dealer for b in boards[0:8:2]] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert (first.tag("Event"), first.tag("Stage"), first.tag("Scoring")) == ("", "SEGMENT 1", "IMP")
    assert (first.tag("HomeTeam"), first.tag("VisitTeam")) == ("HOME", "AWAY")
    assert first.tag("North") == ""  # the file gives empty names
    assert all(b.auction is None and b.play is None and b.contract is None for b in boards)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_file_validates_clean_even_with_notes(corpus_dir: Path, name: str) -> None:
    boards, _ = read(corpus_dir, name)
    assert [str(d) for b in boards for d in analyse(b).diagnostics] == []
    assert all(b.extra == () for b in boards)  # no command unknown to the reader


def test_session_file_contracts_results_and_scores(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bbo_multi_board_one_per_line.lin")
    # a claim gives the Result tag (lin.md §9); 13 tricks give the result through the replay
    assert [b.tag("Result") for b in boards] == [None, None, "9", None, None, None, "11", None]
    found = []
    for b in boards:
        r = analyse(b).replay
        found.append((str(r.contract), str(r.contract.declarer), r.result, r.score_ns))
    assert found == [
        ("5H", "S", 12, 480),
        ("2S", "W", 10, -170),
        ("2H", "S", 9, 140),
        ("4H", "S", 10, 620),
        ("3NT", "S", 10, 630),
        ("3H", "S", 9, 140),
        ("4S", "S", 11, 650),
        ("3NT", "S", 8, -50),
    ]


def test_vugraph_file_players_and_empty_rs(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "dealconvert_vugraph_handrecord_crlf.lin")
    # `rs|,,,,,,,,,,,|`: 12 empty entries, fewer than 2 x 16 boards -- no result, no diagnostic (lin.md §7)
    assert all(b.tag("Contract") is None and b.result is None for b in boards)
    # each table repeats the 8-name `pn`; every seat is named (empty) in both rooms
    assert all([b.tag(s) for s in ("North", "East", "South", "West")] == ["", "", "", ""] for b in boards)
