"""The PBN writer (handrec.formats.pbn.writer): export format (PBN 2.1 §2-§3), lossless for what the
model holds, and what it does with what PBN cannot hold (alerts, claims); the file-level
rules of reading (escape lines, encodings, line ends, export-format checks)."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.diagnostics import Diagnostic
from handrec.formats.dispatch import read
from handrec.formats.pbn.play_layout import play_lines
from handrec.formats.pbn.reader import parse_pbn, parse_pbn_text
from handrec.formats.pbn.writer import dump, dumps, normalise, same_records
from handrec.generate import generate_boards
from handrec.model import (
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    CardAnnotation,
    Contract,
    Deal,
    Note,
    Origin,
    Play,
    Seat,
    Strain,
    Tag,
    Vulnerability,
)

EXAMPLE_OUT = """\
[Event "International Amsterdam Airport Schiphol Bridgetournament"]
[Site "Amsterdam, The Netherlands NLD"]
[Date "1995.06.10"]
[Board "1"]
[West "Podgor"]
[North "Westra"]
[East "Kalish"]
[South "Leufkens"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]
[Scoring "IMP"]
[Declarer "S"]
[Contract "5HX"]
[Result "9"]
{
                S
                H 6 3
}
[Auction "N"]
1D 1S 3H =1= 4S
4NT =2= X Pass Pass
5C X 5H X
Pass Pass Pass
[Note "1:non-forcing 6-9 points, 6-card"]
[Note "2:two colors: clubs and diamonds"]
[Play "W"]
SK =1= H3 S4 S3
C5 C2 C6 CK
S2 H6 S5 S7
C8 CA CT C4
D2 DA DT D3
D4 DK H5 H7
- - - H2
*
[Note "1:highest of series"]
"""


#: The example game of PBN 2.1 §1.2, as the standard gives it (import format).
EXAMPLE = EXAMPLE_OUT.replace(
    "1D 1S 3H =1= 4S\n4NT =2= X Pass Pass", "1D      1S   3H =1= 4S\n4NT =2= X    Pass   Pass"
)
EXAMPLE = EXAMPLE.replace("- - - H2", "-  -  -  H2")


def one(text: str) -> Board:
    (b,) = parse_pbn_text(text, "t.pbn")
    return b


def back(board: Board) -> Board:
    """The board written and read again."""
    return one(dumps(board))


def export_diags(boards: list[Board]) -> list[Diagnostic]:
    """Every diagnostic of reading ``dump(boards)`` (which says % EXPORT), file level too."""
    buf = io.StringIO()
    dump(boards, buf)
    fd: list[Diagnostic] = []
    got = list(parse_pbn(buf.getvalue().split("\r\n"), "w.pbn", fd))
    return fd + [d for b in got for d in b.diagnostics]


def test_the_standards_example_game_in_export_format() -> None:
    b = one(EXAMPLE.replace("1D      1S   3H =1= 4S", "1D      1S   3H !! =1= $25 4S"))
    text = dumps(b)
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    expected = EXAMPLE_OUT.replace("3H =1= 4S", "3H =1= $3 $25 4S")  # PBN 2.1 §3.5.2: suffix as NAG
    assert text.replace("\r\n", "\n") == expected
    assert back(b) == normalise(b) and dumps(back(b)) == text


def test_dump_writes_the_header_and_separates_games_with_empty_lines() -> None:
    boards = list(generate_boards(2, seed=3))
    buf = io.StringIO()
    assert dump(boards, buf) == 2
    lines = buf.getvalue().split("\r\n")
    assert lines[:3] == ["% PBN 2.1", "% EXPORT", "%Content-type: text/x-pbn; charset=UTF-8"]
    assert lines[3] == '[Event "handrec generated"]' and lines.count("") == 2  # between games, at the end
    assert export_diags(boards) == []


def test_the_charset_line_names_the_files_encoding(tmp_path: Path) -> None:
    with open(tmp_path / "l.pbn", "w", encoding="latin-1", newline="") as f:
        dump([Board(Origin("x"), tags=(Tag("Event", "Café"),))], f)
    data = (tmp_path / "l.pbn").read_bytes()
    assert b"charset=ISO-8859-1\r\n" in data and b'[Event "Caf\xe9"]' in data
    assert [b.tag("Event") for b in read(tmp_path / "l.pbn")] == ["Café"]


def test_mandatory_tags_are_completed_and_values_in_export_spelling() -> None:
    b = one(
        '[Board "01"]\n[Vulnerable "both"]\n[Dealer "North"]\n[Deal "e:- .63.AKQ987.A9732 - -"]\n'
        '[Declarer "^n"]\n[Contract "5cx"]\n[Result "EW 4"]\n[ZTag "z"]\n[ATag "a"]'
    )
    lines = dumps(b).split("\r\n")
    assert lines[:15] == [
        '[Event "?"]',
        '[Site "?"]',
        '[Date "?"]',
        '[Board "1"]',
        '[West "?"]',
        '[North "?"]',
        '[East "?"]',
        '[South "?"]',
        '[Dealer "N"]',
        '[Vulnerable "All"]',
        '[Deal "N:- - .63.AKQ987.A9732 -"]',  # from the dealer: N E S W
        '[Scoring "?"]',
        '[Declarer "^N"]',
        '[Contract "5CX"]',
        '[Result "9"]',
    ]
    assert lines[15:17] == ['[ATag "a"]', '[ZTag "z"]']  # the other tags by name
    again = back(b)
    assert (again.number, again.dealer, again.vulnerable, again.declarer_swapped, again.result) == (
        1,
        Seat.NORTH,
        Vulnerability.BOTH,
        True,
        9,
    )
    passed = dumps(Board(Origin("x"), contract=Contract.passed_out()))
    assert '[Declarer ""]' in passed and '[Result ""]' in passed and '[Contract "Pass"]' in passed


def test_values_are_escaped_and_inheritance_look_alikes_kept() -> None:
    b = one(r'[East "\\\"\\\"\"\\  \a"]' + "\n" + r'[OptimumResultTable "Declarer;Denomination\2R"]')
    text = dumps(b)
    assert r'[OptimumResultTable "Declarer;Denomination\2R"]' in text  # as real files write headers
    assert back(b).tag("East") == b.tag("East") == '\\"\\""\\  \\a'
    odd = Board(Origin("x"), tags=(Tag("Stage", "#"), Tag("Room", "##x"), Tag("Event", "a\nb")))
    again = back(odd)
    assert (again.tag("Stage"), again.tag("Room"), again.tag("Event")) == ("#", "##x", "a b")
    assert again == normalise(odd)


def test_an_alert_has_no_flag_in_pbn_it_becomes_a_note() -> None:
    calls = (
        Call.parse("1NT"),
        Call(CallKind.BID, 2, Strain.DIAMONDS, alert=True, annotation="transfer"),
        Call(CallKind.DOUBLE, alert=True),
        Call(CallKind.BID, 2, Strain.HEARTS, annotation="transfer"),
        Call.parse("P"),
        Call.parse("P"),
        Call.parse("P"),
    )
    b = Board(Origin("x.lin", format="lin"), dealer=Seat.NORTH, auction=Auction(Seat.NORTH, calls))
    text = dumps(b)
    assert "1NT 2D =1= X =2= 2H =1=" in text and '[Note "1:transfer"]\r\n[Note "2:"]' in text
    a = back(b).auction
    assert a is not None and a.notes == (Note(1, "transfer"), Note(2, ""))
    assert [(c.alert, c.note, c.annotation) for c in a.calls[1:4]] == [
        (False, 1, "transfer"),
        (False, 2, ""),
        (False, 1, "transfer"),
    ]
    assert back(b) == normalise(b)
    star = one('[Dealer "W"]\n[Auction "W"]\n2H P 3H 3S\nP 4H* X 4S\nP P P')  # a bidding program's alert mark
    assert star.auction is not None and star.auction.calls[5].alert
    assert "4H =1=" in dumps(star) and back(star) == normalise(star) and not back(star).auction.calls[5].alert  # type: ignore[union-attr]


def test_a_claim_ends_the_play_and_the_result_carries_it() -> None:
    deal = Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T98.T98.T98.JT98 765.765.765.765 432.J432.J432.432")
    auction = Auction(Seat.NORTH, tuple(Call.parse(c) for c in "7NT P P P".split()))
    play = Play(None, tuple(Card.parse(c) for c in "ST S5 S2 SA HA HT H5 H2".split()), claim=13)
    b = Board(Origin("x.lin", format="lin"), dealer=Seat.NORTH, deal=deal, auction=auction, play=play, result=13)
    text = dumps(b)
    assert '[Declarer "N"]\r\n[Contract "7NT"]\r\n[Result "13"]' in text  # from the auction (no rs)
    assert '[Play "E"]\r\nST S5 S2 SA\r\nHT H5 H2 HA\r\n*\r\n' in text  # seat columns from E; N won trick 1
    again = back(b)
    assert again.play is not None and again.play.ended == "*" and again.play.claim is None
    assert str(again.play) == str(play) and again == normalise(b)


def test_play_irregularities_unknown_cards_and_plus() -> None:
    text = '[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]\n'
    text += '[Declarer "S"]\n[Contract "5HX"]\n[Play "W"]\nSK H3 S4 S3\nC5 C2 ^R S5 ^L CK\nS2 H6 ^R C6 S7\n*'
    b = one(text)
    assert "SK H3 S4 S3\r\nC5 C2 ^R S5 ^L CK\r\nS2 H6 ^R C6 S7\r\n*" in dumps(b)
    assert back(b) == normalise(b) and back(b).play == b.play
    plus = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\nS3 +  S7 SA')
    assert "D3 DA S5 D4\r\nS3 + S7 SA\r\n" in dumps(plus) and back(plus).play == plus.play
    done = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\n- - + -')  # West ruffed: the next card is West's
    assert "D3 DA S5 D4\r\n- - + -\r\n" in dumps(done) and back(done).play == done.play
    pads = one('[Contract "4S"]\n[Play "N"]\nHA H2 H3 H4\n-- HK - H5\n- - - -\n*')
    assert "HA H2 H3 H4\r\n- HK - H5\r\n*\r\n" in dumps(pads) and back(pads).play == pads.play


def test_card_annotations_and_play_notes() -> None:
    b = one(
        '[Contract "1NT"]\n[Play "W"]\nSK =1= ! $200 H3?? S4 S3 =2=\n*\n[Note "1:top of sequence"]\n[Note "2:count"]'
    )
    p = b.play
    assert p is not None and p.annotations[:4] == (
        CardAnnotation(1, (7, 200)),
        CardAnnotation(None, (10,)),
        None,
        CardAnnotation(2, ()),
    )
    assert "SK =1= $7 $200 H3 $10 S4 S3 =2=\r\n*\r\n" in dumps(b) and back(b).play == p


def test_comments_stay_where_they_stand() -> None:
    text = (
        "{before the tags}\n"
        '[Board "1"] ; after Board\n'
        '[Dealer "N"]\n[Contract "3NT"]\n[Declarer "S"]\n'
        '[Auction "N"] {start of the auction}\n1C Pass {why pass?}\n1NT Pass 3NT AP\n'
        '[Play "W"]\n{lead}\nS2 {a long\ncomment} SA S5 S3 ; end of trick 1 }\nH2 H3 H4 H5\n*'
    )
    b = one(text)
    expected = [
        ("before the tags", ("game", 0)),
        (" after Board", ("tag", 0)),
        ("start of the auction", ("auction", -1)),
        ("why pass?", ("auction", 1)),
        ("lead", ("play", -1)),
        ("a long\ncomment", ("play", 0)),
        (" end of trick 1 }", ("play", 3)),
    ]
    assert list(zip(b.commentary, b.comment_anchors)) == expected
    assert b.play is not None and str(b.play) == "S2 SA S5 S3 H3 H4 H5 H2"  # the line went on after the comment
    out = dumps(b)
    assert out.startswith("{before the tags}\r\n[Event")
    assert '[Board "1"]\r\n{ after Board}\r\n' in out
    assert '[Auction "N"]\r\n{start of the auction}\r\n1C Pass {why pass?}\r\n1NT Pass 3NT Pass\r\n' in out
    assert "S2 {a long\r\ncomment} SA S5 S3 ; end of trick 1 }\r\nH2 H3 H4 H5\r\n" in out
    again = back(b)
    assert again == normalise(b) and again.comment_anchors == normalise(b).comment_anchors
    assert again.comment_anchors[1] == ("tag", 3)  # Board is the fourth tag written
    # a comment holding "}" is a ';' comment, which ends its line: after the line's last
    # card (H5, South's: play index 6), not after H3
    moved = replace(b, comment_anchors=b.comment_anchors[:-1] + (("play", 4),))
    assert "H2 H3 H4 H5 ; end of trick 1 }\r\n*" in dumps(moved)
    assert back(moved).comment_anchors[-1] == normalise(moved).comment_anchors[-1] == ("play", 6)


def test_lin_commentary_goes_before_the_tags() -> None:
    b = Board(Origin("x.lin", format="lin"), commentary=("one", "two } and\nthree"), extra=(("zz", "1"),))
    out = dumps(b)
    assert out.startswith("{one}\r\n{two ) and\r\nthree}\r\n[Event")
    again = back(b)
    assert again.commentary == ("one", "two ) and\nthree") and again == normalise(b) and again.extra == ()


def test_play_lines_regroup_play_order_into_seat_columns() -> None:
    b = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\nHK D2 H2 HQ')
    assert b.play is not None
    assert play_lines(b.play, Strain.SPADES.suit) == [
        [Card.parse(c) for c in "D3 DA S5 D4".split()],
        [Card.parse(c) for c in "HK D2 H2 HQ".split()],
    ]
    with pytest.raises(ValueError, match="no opening leader"):
        play_lines(Play(None), None)


def test_normalise_is_idempotent_and_same_records_ignores_positions() -> None:
    b = one('[Board "1"]\n[Vulnerable "both"]\n[Dealer "N"]\n[Auction "N"]\n1C! =1= P P P\n[Note "1: short"]')
    n = normalise(b)
    assert normalise(n) == n and dumps(n) == dumps(b)
    assert same_records(b, back(b)) and not same_records(b, one('[Board "2"]'))


# --- reading: file-level rules (PBN 2.1 §2; pbn.md §1, §2, §18) --------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b'\xef\xbb\xbf[Board "1"]\r\n[Event "Caf\xc3\xa9"]\r\n',  # BOM, UTF-8, CR LF
        b'[Board "1"]\r[Event "Caf\xe9"]\r',  # CR alone, ISO-8859-1
        b'%Content-type: text/x-pbn; charset=ISO-8859-1\n[Board "1"]\n[Event "Caf\xe9"]\n',
    ],
)
def test_encodings_and_line_ends(data: bytes, tmp_path: Path) -> None:
    f = tmp_path / "e.pbn"
    f.write_bytes(data)
    (b,) = read(f)
    assert (b.number, b.tag("Event"), b.diagnostics) == (1, "Café", ())


def test_escape_lines_give_the_version_and_the_export_claim() -> None:
    fd: list[Diagnostic] = []
    lines = ["% PBN 1.0", "% EXPORT", '[Event "e"]', '[Site "s"]', '[Date "?"]', '[Board "1"]', '[West "w"]']
    lines += ['[North "n"]', '[East "e"]', '[South "s"]', '[Dealer "N"]', '[Vulnerable "None"]']
    lines += ['[Deal "N:- - - -"]', '[Declarer "?"]', '[Contract "?"]', '[Result "?"]']
    (b,) = parse_pbn(lines, "v.pbn", fd)
    assert b.diagnostics == () and fd == []  # PBN 1.0: 14 mandatory tags, no Scoring
    (b,) = parse_pbn(lines[1:], "v.pbn", fd)
    assert [(d.code, d.message.split(" but ")[1]) for d in b.diagnostics] == [
        ("F020", "the mandatory tag Scoring is missing")
    ]


def test_export_format_violations() -> None:
    fd: list[Diagnostic] = []
    text = (
        '% EXPORT\n[Board "1"] [Event "e"]\n'
        '[Dealer "n"]\n[Vulnerable "Both"]\n[Deal "E:- - - -"]\n[Result "EW 4"]\n[Declarer "S"]\n'
        '[Auction "N"]\n- 1C 1D! 1H 1S 2C\nPass\n'
        '[Play "W"]\nsa S2 S3 S4 S5\n'
        "\t\n" + "x" * 254 + "\n"
    )
    boards = list(parse_pbn(text.split("\n"), "x.pbn", fd))
    got = [(d.code, d.line, d.column, d.message.split(" but ")[-1]) for d in boards[0].diagnostics if d.code == "F020"]
    assert got == [
        ("F020", 2, 0, "the mandatory tag Site is missing"),
        ("F020", 2, 0, "the mandatory tag Date is missing"),
        ("F020", 2, 0, "the mandatory tag West is missing"),
        ("F020", 2, 0, "the mandatory tag North is missing"),
        ("F020", 2, 0, "the mandatory tag East is missing"),
        ("F020", 2, 0, "the mandatory tag South is missing"),
        ("F020", 2, 0, "the mandatory tag Scoring is missing"),
        ("F020", 2, 0, "the mandatory tag Contract is missing"),
        ("F020", 2, 1, 'tag pair Board is not alone on its line as [Board "value"]'),
        ("F020", 2, 13, "tag Event comes after Board"),
        ("F020", 3, 1, "Dealer 'n' is not upper case"),
        ("F020", 4, 1, "Vulnerable 'Both' is not None, NS, EW or All"),
        ("F020", 5, 1, "the Deal does not start with the dealer in upper case with ranks high to low"),
        ("F020", 6, 1, "Result 'EW 4' is not the number of tricks won by declarer"),
        ("F020", 9, 1, "'-' before the dealer's call (the auction starts with the dealer)"),
        ("F020", 9, 1, "5 calls on one auction line (at most 4)"),
        ("F020", 12, 1, "card 'sa' is not written as PBN exports it"),
    ]
    # the x line holds no tag: no game, its F006 is the file's (and no board of 16 missing tags)
    assert len(boards) == 1
    assert [(d.code, d.line, d.column) for d in fd] == [
        ("F020", 13, 1),
        ("F020", 13, 1),
        ("F021", 14, 1),
        ("F006", 14, 1),
    ]
    assert "tab" in fd[0].message and "separator" in fd[1].message
    assert fd[2].message == (
        "line is 256 characters long counting a CR LF line end (as export format ends lines); export format allows 255"
    )


def test_export_call_spelling_reported_once() -> None:
    """``PASS`` is no spelling of the standard (T105): not a second time as F020; ``pass``
    is standard PBN but not as export writes it (F020 alone)."""
    head = '% EXPORT\n[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n'
    for calls, expected in (
        ("PASS Pass Pass Pass", [("T105", 5, 1)]),
        ("pass Pass Pass Pass", [("F020", 5, 1)]),
    ):
        (b,) = parse_pbn((head + calls + "\n").split("\n"), "x.pbn", [])
        got = [(d.code, d.line, d.column) for d in b.diagnostics if d.code in ("F020", "T105") and d.line == 5]
        assert got == expected, calls


# --- the export command ---------------------------------------------------------------------------


def _strict(path: Path) -> dict:
    r = CliRunner().invoke(app, ["validate", "--strict", "--info", "--format", "json", str(path)])
    return json.loads(r.stdout)


@pytest.mark.parametrize("kind", ["--plain", "--realistic"])
def test_export_of_generated_boards_validates_clean_under_strict(tmp_path: Path, kind: str) -> None:
    gen = tmp_path / "g.pbn"
    assert CliRunner().invoke(app, ["generate", "-n", "24", "--seed", "9", kind, "-o", str(gen)]).exit_code == 0
    assert (_strict(gen)["boards"], _strict(gen)["diagnostics"]) == (24, [])
    out = tmp_path / "x.pbn"
    r = CliRunner().invoke(app, ["export", "--to", "pbn", str(gen), "-o", str(out)])
    assert r.exit_code == 0, r.output
    report = _strict(out)
    assert (report["boards"], report["diagnostics"]) == (24, [])
    if kind == "--plain":
        assert out.read_bytes() == gen.read_bytes()  # generate writes with the same writer
    else:  # the realistic file writes suffixes (import format), the export NAGs
        assert b" ! " in gen.read_bytes() or b" !\r\n" in gen.read_bytes()
        assert out.read_bytes() == gen.read_bytes().replace(b" !", b" $1").replace(
            b"% PBN 2.1\r\n", b"% PBN 2.1\r\n% EXPORT\r\n"
        )


def test_export_of_lin_records_validates_clean_under_strict(corpus_dir: Path, tmp_path: Path) -> None:
    lin = corpus_dir / "lin"
    out = tmp_path / "l.pbn"
    names = ["bbo_multi_board_one_per_line.lin", "bbo_tourney_slam_claim_after_trick6.lin"]
    r = CliRunner().invoke(app, ["export", "--to", "pbn", *[str(lin / n) for n in names], "-o", str(out)])
    assert r.exit_code == 0, r.output
    before = [d["code"] for n in names for d in _strict(lin / n)["diagnostics"]]
    after = [d["code"] for d in _strict(out)["diagnostics"]]
    assert after == [c for c in before if c == "D204"]  # nothing new: LIN's notes on alerts are PBN notes
    boards = list(read(out))
    assert len(boards) == 9 and all(b.play is None or b.play.leader is not None for b in boards)


def test_export_lists_what_it_does_not_carry_over_as_written(corpus_dir: Path, tmp_path: Path) -> None:
    """A bad card '--' is written '-' (P406), a stray '}' is dropped (F006): each is listed, with a count; exit 1."""
    src = corpus_dir / "pbn" / "bfc_lin_converted_suffix_annotation.pbn"
    out = tmp_path / "x.pbn"
    r = CliRunner().invoke(app, ["export", "--to", "pbn", str(src), "-o", str(out)])
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines() == [
        f"handrec: {src}: 1 % line not carried (layout or comment line): line 1",  # % PBN created by BFC ...
        f"{src}:78:1: F006 warning: unknown token '}}' ignored: not in the output as written",
        f"{src}:116:1: P406 error: '--' is not a card: not in the output as written",
        f"{src}:116:10: P406 error: '--' is not a card: not in the output as written",
        "handrec: 3 faults above not carried over as written (2 of 3 boards)",
        f"3 boards -> {out}",
    ]
    assert out.exists()


def test_export_lists_the_lines_with_syntax_errors(corpus_dir: Path, tmp_path: Path) -> None:
    src = corpus_dir / "pbn" / "pbn20_reference_errors.pbn"
    out = tmp_path / "y.pbn"
    r = CliRunner().invoke(app, ["export", "--to", "pbn", str(src), "-o", str(out)])
    assert r.exit_code == 1, r.output
    lines = r.stderr.splitlines()
    listed = [line for line in lines if line.endswith(": not in the output as written")]
    assert [line.split(": ")[0].rsplit(":", 2)[1] for line in listed] == [
        "40", "53", "66", "79", "92", "97", "100", "117"
    ]  # fmt: skip
    assert all(" F003 error: syntax error: " in line for line in listed)
    assert lines[-2:] == ["handrec: 8 faults above not carried over as written (8 of 22 boards)", f"22 boards -> {out}"]


def test_export_lists_bad_calls_and_dropped_note_references(tmp_path: Path) -> None:
    src = tmp_path / "a.pbn"
    src.write_text(
        '[Board "1"]\n[Dealer "N"]\n[Note "1:forcing"]\n[Auction "N"]\n1S =1= =1= Pass Foo\n2S Pass Pass Pass\n',
        encoding="utf-8",
    )
    out = tmp_path / "x.lin"
    r = CliRunner().invoke(app, ["export", "--to", "lin", str(src), "-o", str(out)])
    assert r.exit_code == 1, r.output
    listed = [line for line in r.stderr.splitlines() if line.endswith("as written")]
    assert [line.split(": ")[1].split()[0] for line in listed] == ["T128", "A306"]
    r = CliRunner().invoke(app, ["export", "--to", "pbn", str(src), "-o", str(tmp_path / "y.pbn")])
    assert r.stderr.splitlines()[-2] == "handrec: 2 faults above not carried over as written (1 of 1 board)"


def test_export_lists_the_escape_lines_it_drops(tmp_path: Path) -> None:
    """Issue #19 point 7: ``export`` says which ``%`` lines (BridgeComposer's layout lines,
    comment banners) it does not carry: one line with their count and first line numbers; the
    ``% PBN`` and ``% EXPORT`` lines (written anew) and a ``%`` inside a brace comment (text) are
    not among them."""
    from typer.testing import CliRunner

    from handrec.cli import app

    src = tmp_path / "bc.pbn"
    src.write_text(
        "% PBN 2.1\n% EXPORT\n%Creator: BridgeComposer Version 5.107.1\n%BCOptions Center STBorder\n"
        '%BoardsPerPage 18\n\n[Board "1"]\n%HRTitleEvent "Monday"\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '{a note\n%not an escape line}\n\n%center 0\n\n[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n'
    )
    out = tmp_path / "out.pbn"
    r = CliRunner().invoke(app, ["export", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        f"handrec: {src}: 5 % lines not carried (layout or comment lines): lines 3-5, 8, 14",
        f"2 boards -> {out}",
    ]
    assert "%not an escape line" in out.read_text()
