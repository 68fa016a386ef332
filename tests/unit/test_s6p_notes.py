"""Note tags outside their section (PBN 2.1 §3.5.5, §3.6.5; pbn.md §7-§8): a section's notes
belong after its calls or cards, and may not stand in the identification section.  A reference
whose Note is there is read from it (its text kept) with a T128 warning, not a T107 that says
there is no such Note; a reference whose index no Note outside another section gives stays T107.
"""

from __future__ import annotations

import io

from handrec.formats.pbn.reader import parse_pbn_text
from handrec.formats.pbn.writer import dump
from handrec.model import Board, Note
from handrec.rules.validator import analyse

HEAD = (
    '[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
)
CLOSE = '[Declarer "N"]\n[Contract "7NT"]\n[Result "13"]\n'
AUCTION = '[Auction "N"]\n2C =1= Pass 7NT Pass\nPass Pass\n'
MISPLACED = "refers to a Note tag outside the {} section (its text is read from there)"


def one(text: str) -> Board:
    (b,) = parse_pbn_text(text, "t.pbn")
    return b


def diags(b: Board) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.line, d.column, d.message) for d in b.diagnostics]


def test_a_note_before_the_auction_is_read_with_a_warning_not_t107() -> None:
    b = one(HEAD + '[Note "1:strong"]\n' + CLOSE + AUCTION)
    assert b.auction is not None
    first = b.auction.calls[0]
    assert (str(first), first.note, first.annotation) == ("2C", 1, "strong")
    assert b.auction.notes == (Note(1, "strong"),)
    warning = "'=1=' " + MISPLACED.format("auction")
    assert diags(b) == [("T128", 11, 4, f"{warning}")]
    assert [d.code for d in analyse(b).diagnostics if d.code in ("T107", "T128")] == ["T128"]


def test_each_misplaced_index_is_reported_once() -> None:
    b = one(HEAD + '[Note "1:strong"]\n' + CLOSE + '[Auction "N"]\n2C =1= Pass 2D =1= Pass\n7NT AP\n')
    assert b.auction is not None
    assert [c.annotation for c in b.auction.calls[:4]] == ["strong", None, "strong", None]
    assert [(code, line, col) for code, line, col, _ in diags(b)] == [("T128", 11, 4)]


def test_a_note_after_another_tag_that_follows_the_auction_is_read_too() -> None:
    b = one(HEAD + CLOSE + AUCTION + '[Note "1:strong"]\n[Room "Open"]\n[Note "2:late"]\n')
    assert b.auction is not None and b.auction.calls[0].annotation == "strong"
    assert diags(b) == []  # Note 1 is right after the calls: the auction's own
    late = one(
        HEAD
        + CLOSE
        + AUCTION.replace("Pass 7NT", "Pass =2= 7NT")
        + '[Note "1:strong"]\n[Room "Open"]\n[Note "2:late"]\n'
    )
    assert late.auction is not None
    assert (late.auction.calls[1].note, late.auction.calls[1].annotation) == (2, "late")
    assert late.auction.notes == (Note(1, "strong"), Note(2, "late"))
    assert [(c, line, col) for c, line, col, _ in diags(late)] == [("T128", 10, 13)]


def test_t107_stays_when_no_note_of_that_index_is_outside_another_section() -> None:
    missing = one(HEAD + '[Note "2:other"]\n' + CLOSE + AUCTION)
    assert missing.auction is not None and missing.auction.calls[0].annotation is None
    assert diags(missing) == [("T107", 11, 4, "note =1= has no Note tag")]
    # Note 1 after the play belongs to the play (PBN 2.1 §3.6.5), not to the auction
    play = '[Play "E"]\nS7 S2 SA S3\n*\n[Note "1:lead"]\n'
    of_play = one(HEAD + CLOSE + AUCTION + play)
    assert of_play.auction is not None and of_play.auction.calls[0].annotation is None
    assert of_play.play is not None and of_play.play.notes == (Note(1, "lead"),)
    assert [(c, line, col) for c, line, col, _ in diags(of_play)] == [("T107", 10, 4)]


def test_a_play_reference_finds_a_note_in_the_identification_section() -> None:
    play = '[Play "E"]\nS7 =3= S2 SA S3\n*\n'
    b = one(HEAD + '[Note "3:top of nothing"]\n' + CLOSE + play)
    assert b.play is not None and b.play.notes == (Note(3, "top of nothing"),)
    assert b.play.annotations and b.play.annotations[0] is not None and b.play.annotations[0].note == 3
    warning = "'=3=' " + MISPLACED.format("play")
    assert diags(b) == [("T128", 11, 4, warning)]
    # the auction's own Note 3 does not explain the play's =3=
    auction = '[Auction "N"]\n2C =3= Pass 7NT Pass\nPass Pass\n[Note "3:strong"]\n'
    own = one(HEAD + CLOSE + auction + play)
    assert [(c, line, col) for c, line, col, _ in diags(own)] == [("T107", 14, 4)]


def test_export_moves_the_note_after_the_auction_once() -> None:
    b = one(HEAD + '[Note "1:strong"]\n' + CLOSE + AUCTION)
    out = io.StringIO()
    dump([b], out)
    text = out.getvalue()
    assert text.count('[Note "1:strong"]') == 1
    lines = text.splitlines()
    assert lines[lines.index('[Note "1:strong"]') - 1].startswith("Pass")  # after the calls
    (again,) = parse_pbn_text(text, "u.pbn")
    assert again.auction is not None and again.auction.calls[0].annotation == "strong"
    assert again.diagnostics == ()


def test_many_references_and_tags_read_in_linear_time() -> None:
    # the identification section is looked through once per section, not once per reference
    tags = "".join(f'[X{i} "v"]\n' for i in range(5000))
    refs = "Pass =5= " * 20000
    b = one(f'[Dealer "N"]\n{tags}[Note "1:free"]\n[Auction "N"]\n1C =1= {refs}\n')
    assert b.auction is not None and b.auction.calls[0].annotation == "free"
    assert [d.code for d in b.diagnostics].count("T107") == 20000
