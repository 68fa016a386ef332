"""Positions of the tags a LIN record's Board gets from its items (lin.md §7, §9): the Result,
Contract and Declarer of an ``rs`` entry are at that entry, a Result from a claim at its ``mc``
pair, so that C503/C507 point at the item (1-based columns), never at column 0."""

from __future__ import annotations

from handrec.formats.lin.reader import parse_lin_text
from handrec.model import Span
from handrec.rules.validator import analyse

DEAL = "3S85HKJ6DKQ2CT9872,ST9742H95DJ54CQ53,SAKQJ63HAQ3DA7CKJ,SHT8742DT9863CA64"
AUCTION = "mb|1S|mb|p|mb|2C|mb|p|mb|3N|mb|p|mb|p|mb|p|"
#: the first 7 tricks: declarer (North, 3NT) wins 6, the defenders 1
PLAY7 = (
    "pc|H4|pc|H6|pc|H9|pc|HQ|pc|SA|pc|H8|pc|S5|pc|S2|pc|SK|pc|C4|pc|S8|pc|S7|pc|S3|pc|C6|pc|C2|pc|S4|"
    "pc|DJ|pc|DA|pc|D3|pc|D2|pc|SQ|pc|CA|pc|C7|pc|S9|pc|SJ|pc|D6|pc|C8|pc|ST|"
)
PLAY13 = PLAY7 + (
    "pc|HA|pc|HT|pc|HJ|pc|H5|pc|CK|pc|D8|pc|C9|pc|C3|pc|D7|pc|D9|pc|DK|pc|D4|"
    "pc|HK|pc|C5|pc|H3|pc|H2|pc|DQ|pc|D5|pc|CJ|pc|DT|pc|CT|pc|CQ|pc|S6|pc|H7|"
)
VUGRAPH = (
    "vg|Test match,Round 1,I,1,2,Home,0,Visit,0|\n"
    "rs|3NN-6,3NN+2,|\n"
    "pn|Eve,Fay,Ann,Hal,Gus,Eve,Ann,Bob|\n"
    f"qx|o1|md|{DEAL}|sv|o|{AUCTION}\n"
    f"{PLAY7}\n"
    f"qx|c1|md|{DEAL}|sv|o|{AUCTION}{PLAY13}\n"
)


def codes(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for b in parse_lin_text(text, "t.lin") for d in analyse(b).diagnostics]


def test_c507_points_at_the_rs_entry_that_gives_the_result() -> None:
    # "rs|3NN-6,...": 3 tricks, but declarer has won 6 of the 7 tricks played
    assert codes(VUGRAPH) == [("C507", 2, 4)]
    open_room, closed = parse_lin_text(VUGRAPH, "t.lin")
    assert open_room.origin.line == 4
    rel = Span(2 - 4 + 1, 4)  # block-relative: the header is before the record
    assert [open_room.tag_span(t) for t in ("Declarer", "Contract", "Result")] == [rel, rel, rel]
    assert closed.origin.line == 6
    assert closed.tag_span("Result") == Span(2 - 6 + 1, 10)  # "3NN+2"


def test_a_result_from_a_claim_is_at_the_mc_pair() -> None:
    record = f"pn|Eve,Fay,Ann,Hal|st||md|{DEAL}|rh||ah|Board 1|sv|o|{AUCTION}{PLAY13}mc|10|\n"
    col = record.index("mc|10|") + 1
    (b,) = parse_lin_text("\n" + record, "t.lin")
    assert b.tag_span("Result") == Span(1, col)
    got = codes("\n" + record)
    assert ("C503", 2, col) in got  # Result 10 but declarer took 11 tricks in the play
    assert all(c > 0 for _, _, c in got), got


def test_an_undone_claim_leaves_the_result_of_the_later_claim() -> None:
    record = f"qx|o1|md|{DEAL}|sv|o|{AUCTION}{PLAY13}mc|10|up||mc|12|\n"
    (b,) = parse_lin_text(record, "t.lin")
    assert b.result == 12
    assert b.tag_span("Result") == Span(1, record.index("mc|12|") + 1)


def test_p407_on_a_lin_record_is_at_its_first_card() -> None:

    text = "\nqx|o1|md|3S85HKJ6DKQ2CT9872,ST9742H95DJ54CQ53,SAKQJ63HAQ3DA7CKJ,SHT8742DT9863CA64|sv|o|mb|1S|mb|p|pc|H4|pc|H6|\n"
    (b,) = parse_lin_text(text, "t.lin")
    got = [(d.code, d.line, d.column) for d in analyse(b).diagnostics if d.code == "P407"]
    assert got == [("P407", 2, text.index("pc|H4"))]


def test_p405_on_a_lin_claim_is_at_its_mc_pair() -> None:
    text = (
        "qx|o1|md|3S85HKJ6DKQ2CT9872,ST9742H95DJ54CQ53,SAKQJ63HAQ3DA7CKJ,SHT8742DT9863CA64|sv|o|"
        "mb|1S|mb|p|mb|p|mb|p|pc|H4|pc|H6|pc|H5|pc|HA|mc|0|\n"
    )
    (b,) = parse_lin_text(text, "t.lin")
    got = [(d.code, d.line, d.column, d.message) for d in analyse(b).diagnostics if d.code == "P405"]
    assert got == [("P405", 1, text.index("mc|0") + 1, "claim of 0 tricks is impossible: declarer has already won 1")]
