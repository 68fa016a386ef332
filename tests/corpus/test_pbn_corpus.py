"""The PBN reader on the real files of shared/corpus/pbn (see MANIFEST.md).

Every file parses without raising, the number of games equals MANIFEST.md's "Games"
column (one documented erratum), the diagnostics per file are exactly the known ones,
and values read from the files by hand come out.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from handrec.diagnostics import Diagnostic
from handrec.formats.pbn.reader import parse_pbn
from handrec.model import Board, Seat, Vulnerability

#: MANIFEST.md, PBN table: file -> Games.
MANIFEST_GAMES = {
    "eytc1998_teams_auction_partial_play.pbn": 2,
    "bfc_lin_converted_suffix_annotation.pbn": 3,
    "pbn21_reference_correct_latin1.pbn": 2,
    "pbn20_reference_score_tables.pbn": 46,
    "pbn20_reference_errors.pbn": 22,
    "pbn10_reference_correct_latin1.pbn": 29,
    "bridgecomposer_quiz_fragments_utf8.pbn": 86,
    "bridgecomposer_exercises_endpositions_empty_scoretable.pbn": 136,
    "bridgecomposer_club_handrecord_dd_crlf.pbn": 36,
    "bridgecomposer_czech_club_latin1_dd.pbn": 15,
    "camrose2024_handrecords_bridgecomposer_dd.pbn": 160,
    "bbohelper_daylong_tabs_notes_play.pbn": 8,
    "bba_generated_midgame_percent_lines.pbn": 5,
    "bba_uppercase_ext_P_3N_dashdate.PBN": 55,
    "ben_hashhash_header_every_call_noted.pbn": 8,
    "wbridge5_match_redoubled_full_play.pbn": 1,
    "bigdeal_v12_ability_minimax_crlf.pbn": 396,
    "bigdeal_v11_nocontract_extreme_voids.pbn": 1,
    "dealer_v2_500_deals_1N.pbn": 500,
    "dealconvert_jfr_dd_fields_crlf.pbn": 16,
    "valet_euro2006_handrecord_minimal_both.pbn": 20,
    "pbntools_polish_kops_latin1_travellers.pbn": 108,
    "pbntools_kops_board01_lowercase_x.pbn": 570,
    "pbntools_bbo_pairs_play_dashes_dealid.pbn": 57,
    "pbntools_bbo_history_time_as_date.pbn": 2,
    "header_only_no_games.pbn": 0,
}

#: Where MANIFEST.md is wrong.  pbn10_reference_correct_latin1.pbn has 31 games: its own
#: "% ==== game N ====" banners run 1..31, and under "game 18" two blocks say they are
#: "not a game" (a %-only block and a {No game} comment) before that game's real tags; 29
#: looks like 31 minus those two, which are not games to start with.  Games 20, 21, 22 and
#: 24 test tag-pair layouts PBN 2.1 §3.3 allows ("zero or more white space characters
#: between any adjacent pair of tokens", a tag pair spanning lines).
MANIFEST_ERRATA = {"pbn10_reference_correct_latin1.pbn": 31}

#: Diagnostics per file, by code (all other files: none).  T121: values not in PBN form
#: (dates like 2024-05-24, "2013-11-23 11:23", "14:12" or "2015.09.?"; sub-boards "1-1");
#: F020: files that say "% EXPORT" and break its rules (checked by hand: tags out of order,
#: a Deal not from the dealer, 8 calls on a line, PASS/3N...).
DIAGNOSTICS = {
    "bba_generated_midgame_percent_lines.pbn": {"T105": 3},  # 4N in auctions
    "bba_uppercase_ext_P_3N_dashdate.PBN": {"T105": 63, "T121": 55},  # P, 3N; 4H* x4; Date
    "ben_hashhash_header_every_call_noted.pbn": {"T105": 24, "F020": 14},  # PASS, 3N (T105 only, not also F020)
    "bfc_lin_converted_suffix_annotation.pbn": {"F006": 1, "P406": 2, "T107": 2, "T121": 1},
    "bridgecomposer_czech_club_latin1_dd.pbn": {"F020": 11},  # Deal "N:..." for every dealer
    "bridgecomposer_exercises_endpositions_empty_scoretable.pbn": {"F020": 17, "T121": 119},
    "bridgecomposer_quiz_fragments_utf8.pbn": {"F020": 40, "T121": 74},
    "eytc1998_teams_auction_partial_play.pbn": {"F020": 2},  # tags after the play section
    "pbn20_reference_errors.pbn": {
        "F003": 8,  # '+' misplaced, unterminated strings, '[' in a table
        "T121": 2,  # Scoring "IMP;??" and ";"
        "T123": 1,  # "Call\\L"
        "T124": 2,  # '%' and ']' in table elements
        "T125": 7,  # comments after table data, short rows, a column marked '-' but descending
        "T127": 4,  # Vulnerable against ScoreRubberHistory
    },
    "pbntools_bbo_history_time_as_date.pbn": {"T121": 2},  # Date "14:12"
    "pbntools_bbo_pairs_play_dashes_dealid.pbn": {"T121": 57},  # Date "2013-11-23 11:22"
    "pbntools_kops_board01_lowercase_x.pbn": {"T105": 101},  # 5Cx
}

_EOL = re.compile(rb"\r\n|\n|\r")


def decode_lines(path: Path) -> list[str]:
    """A stand-in for handrec.inputs.decode: strip a UTF-8 BOM, split on CR LF / LF / CR, and decode
    each line as UTF-8, else Latin-1."""
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


def read(corpus_dir: Path, name: str) -> tuple[list[Board], list[Diagnostic]]:
    file_diags: list[Diagnostic] = []
    boards = list(parse_pbn(decode_lines(corpus_dir / "pbn" / name), name, file_diags))
    return boards, file_diags


def test_manifest_lists_every_pbn_file(corpus_dir: Path) -> None:
    assert sorted(p.name for p in (corpus_dir / "pbn").iterdir()) == sorted(MANIFEST_GAMES)


def test_games_column_matches_manifest(corpus_dir: Path) -> None:
    text = (corpus_dir / "MANIFEST.md").read_text(encoding="utf-8")
    table = dict(
        (m.group(1), int(m.group(2)))
        for m in re.finditer(r"^\| `([^`]+\.(?:pbn|PBN))` \|.*\| (\d+) / \d+ \|$", text, re.M)
    )
    assert table == MANIFEST_GAMES


@pytest.mark.parametrize("name", sorted(MANIFEST_GAMES))
def test_file_parses_with_manifest_game_count(corpus_dir: Path, name: str) -> None:
    boards, file_diags = read(corpus_dir, name)
    assert len(boards) == MANIFEST_ERRATA.get(name, MANIFEST_GAMES[name])
    assert [b.origin.index for b in boards] == list(range(len(boards)))
    assert all(b.origin.path == name and b.origin.format == "pbn" for b in boards)
    codes = Counter(d.code for b in boards for d in b.diagnostics) + Counter(d.code for d in file_diags)
    assert dict(codes) == DIAGNOSTICS.get(name, {})


def test_teams_match_auction_and_partial_play(corpus_dir: Path) -> None:
    (open_room, closed), _ = read(corpus_dir, "eytc1998_teams_auction_partial_play.pbn")
    assert str(open_room.contract) == "5H" and open_room.declarer is Seat.SOUTH and open_room.result == 10
    assert open_room.auction is not None and len(open_room.auction.calls) == 8
    assert str(open_room.auction) == "1C 1S 2H 4S 5H Pass Pass Pass"
    p = open_room.play
    assert p is not None and p.leader is Seat.WEST and p.ended == "*"
    assert str(p) == "DQ D3 D4 D2 SK S2 S4 SJ DJ DT DK D7"
    assert open_room.tag("Score") == "NS -50" and open_room.tag("Room") == "Open"
    # closed room: East wins DA, North wins CA and leads hearts
    assert str(closed.contract) == "4H" and closed.declarer is Seat.NORTH
    assert str(closed.play) == "DA D2 D5 D3 C9 C3 C2 CA HA H3 H2 H6 HK H8 H4 D9"


def test_bbo_helper_tabs_notes_and_full_play(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bbohelper_daylong_tabs_notes_play.pbn")
    b = boards[0]
    assert b.deal is not None and str(b.deal[Seat.WEST]) == "Q862.AKQJ5..QJ65"
    assert b.auction is not None and str(b.auction) == "Pass Pass 1D X Pass 1H 2D 3H Pass 4H Pass Pass Pass"
    assert b.auction.calls[2].annotation == "Minor suit opening -- 3+ !D; 11-21 HCP; 12-22 total points"
    assert b.play is not None and len(b.play.cards) == 52 and b.play.cards[0] is not None
    assert str(b.play.cards[0]) == "DA" and str(b.play.cards[-1]) == "ST"
    assert all(x.play is not None and len(x.play.cards) == 52 for x in boards)


def test_converted_lin_record_faults(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bfc_lin_converted_suffix_annotation.pbn")
    b = boards[0]
    assert b.auction is not None and b.auction.calls[4].nags == (1,)  # "2C !"
    assert (b.auction.calls[2].annotation, b.auction.calls[6].annotation) == ("0-4 !ss", "less than 8 points")
    assert boards[1].commentary[0].startswith("\nIndonesians Franky Karwur")
    got = [(d.code, d.line, d.column) for x in boards for d in x.diagnostics]
    assert got == [
        ("F006", 78, 1),
        ("T121", 93, 1),  # Date "2015.09.?"
        ("T107", 107, 8),
        ("T107", 107, 17),
        ("P406", 116, 1),
        ("P406", 116, 10),
    ]
    assert boards[2].tag("Scoring") == "IMP;Cross"  # "#"


def test_reference_inheritance(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "pbn20_reference_score_tables.pbn")
    assert [b.tag("West") for b in boards[:4]] == ["?", "?", "", ""]
    assert all(b.tag("Event") == "Autumn regional" for b in boards[:15])
    assert [b.tag("Hidden") for b in boards[:15]] == [
        None, "WNE", "WNE", "NES", "NES", "NES", "NES", "NES",
        "ESW", "ESW", "ESW", "ESW", "SWN", "SWN", "SWN",
    ]  # fmt: skip
    assert boards[15].tag("Hidden") is None
    assert boards[15].tag("Event") == "International Amsterdam Airport Schiphol Bridgetournament"


def test_reference_irregularities_and_layouts(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "pbn10_reference_correct_latin1.pbn")
    assert boards[0].play is not None and str(boards[0].play).startswith("SK H3 S4 S3 C2 C6 CK C5")
    illegal = boards[2]
    assert illegal.declarer is Seat.SOUTH and illegal.result == 5 and illegal.declarer_swapped  # ^S
    assert illegal.play is not None and str(illegal.play).split()[4:8] == ["CK", "C5", "C2", "S5"]
    assert illegal.play.irregular[4:8] == ("L", None, None, "R")  # ^L CK, ^R S5
    assert illegal.auction is not None and str(illegal.auction).startswith("^S 1D 1C 4S 3NT ^S ^S X 5H X")
    assert [c.irregular for c in illegal.auction.calls[:5]] == ["S", None, "I", None, "I"]
    assert boards[3].tag("South", "").startswith(" \xa0 \xa1")
    assert boards[3].tag("East") == '\\"\\""\\  \\a'
    assert [b.tag("Event") for b in boards[19:23]] == [
        "No space after 'event'",
        "Spaces after '[' and before ']'",
        "use new lines",
        "my event",
    ]
    assert boards[4].vulnerable is Vulnerability.BOTH and boards[3].vulnerable is Vulnerability.NONE


def test_dealer_output(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "dealer_v2_500_deals_1N.pbn")
    assert [b.number for b in boards] == list(range(1, 501))
    assert all(b.deal is not None and b.deal.is_complete for b in boards)
    assert boards[0].dealer is Seat.NORTH and str(boards[0].deal) == (
        "N:K853.86.T853.KQ6 J976.QT72.J.AT92 AQ42.AJ54.KQ.J53 T.K93.A97642.874"
    )
    assert (boards[0].contract, boards[0].declarer, boards[0].result) == (None, None, None)


def test_big_deal_runs_restart_numbers(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bigdeal_v12_ability_minimax_crlf.pbn")
    assert [b.number for b in boards] == list(range(1, 100)) * 4
    assert all(b.tag("Ability") for b in boards)


def test_quiz_fragments(corpus_dir: Path) -> None:
    boards, _ = read(corpus_dir, "bridgecomposer_quiz_fragments_utf8.pbn")
    assert any(b.tag("Deal") == "" and b.deal is None for b in boards)
    assert any(b.tag("Board") == "1-1" and b.number is None for b in boards)


def test_redoubled_full_play(corpus_dir: Path) -> None:
    (b,), _ = read(corpus_dir, "wbridge5_match_redoubled_full_play.pbn")
    assert str(b.contract) == "5CXX" and b.declarer is Seat.WEST and b.result == 4
    assert b.play is not None and len(b.play.cards) == 52 and b.play.ended is None
