"""The PBN reader (handrec.formats.pbn.reader): framing, grammar, typed values, auction, play.

Small inline PBN texts, one feature each, with the exact values and diagnostics
(code, file line, column) expected.  Section numbers are PBN 2.1's.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from lark import Lark

from handrec._resources import grammar_text
from handrec.diagnostics import Diagnostic
from handrec.formats.pbn import builder, framing, parser, tag_values
from handrec.formats.pbn.reader import parse_pbn, parse_pbn_text
from handrec.model import (
    Board,
    Call,
    CallKind,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    Seat,
    Span,
    Strain,
    Vulnerability,
)


def one(text: str) -> Board:
    """The single board of ``text``."""
    boards = parse_pbn_text(text, "t.pbn")
    assert len(boards) == 1, boards
    return boards[0]


def diags(board: Board) -> list[tuple[str, int, int]]:
    """``(code, file line, column)`` of each diagnostic of a board."""
    return [(d.code, d.line, d.column) for d in board.diagnostics]


def calls(board: Board) -> list[str]:
    assert board.auction is not None
    return [str(c) for c in board.auction.calls]


def cards(board: Board) -> list[str]:
    assert board.play is not None
    return ["-" if c is None else str(c) for c in board.play.cards]


# The example game of PBN 2.1 §1.2 (play lines are in seat order from West).
EXAMPLE = """\
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
1D      1S   3H =1= 4S
4NT =2= X    Pass   Pass
5C      X    5H     X
Pass    Pass Pass
[Note "1:non-forcing 6-9 points, 6-card"]
[Note "2:two colors: clubs and diamonds"]
[Play "W"]
SK =1= H3 S4 S3
C5 C2 C6 CK
S2 H6 S5 S7
C8 CA CT C4
D2 DA DT D3
D4 DK H5 H7
-  -  -  H2
*
[Note "1:highest of series"]
"""


# =========================================================================================
# Framing (PBN 2.1 §2.4, §3)
# =========================================================================================


def test_games_are_split_at_semi_empty_lines_with_origins() -> None:
    text = '[Board "1"]\n\n  \t\n[Board "2"]\n[Dealer "E"]\n\n\n[Board "3"]\n'
    boards = parse_pbn_text(text, "f.pbn")
    assert [b.number for b in boards] == [1, 2, 3]
    assert [(b.origin.line, b.origin.offset, b.origin.index) for b in boards] == [(1, 0, 0), (4, 17, 1), (8, 44, 2)]
    assert all(b.origin.path == "f.pbn" and b.origin.format == "pbn" for b in boards)


def test_blank_line_inside_a_brace_comment_does_not_end_the_game() -> None:
    b = one('[Board "1"]\n{first paragraph\n\nsecond paragraph}\n[Dealer "W"]\n')
    assert b.dealer is Seat.WEST
    assert b.commentary == ("first paragraph\n\nsecond paragraph",)


def test_escape_line_between_tags_neither_ends_the_game_nor_shifts_lines() -> None:
    b = one('% PBN 2.1\n[Board "1"]\n%Content-type: text/x-pbn\n\n[Dealer "S"]\n'.replace("\n\n", "\n"))
    assert b.origin.line == 2
    assert b.tag_span("Dealer") == Span(3, 1)  # block line 3 = file line 4
    assert b.dealer is Seat.SOUTH


def test_escape_lines_and_comment_only_blocks_are_not_games() -> None:
    text = '% PBN 2.1\n% EXPORT\n\n{ just a comment\n}\n\n; another\n\n[Board "7"]\n\n%\n'
    boards = parse_pbn_text(text)
    assert [b.number for b in boards] == [7]
    assert boards[0].origin.line == 9


def test_percent_inside_a_brace_comment_is_text() -> None:
    b = one('[Board "1"]\n{\n% not an escape line\n\n}\n')
    assert b.commentary == ("\n% not an escape line\n\n",)


def test_braces_in_strings_and_semicolon_comments_do_not_open_comments() -> None:
    text = '[Event "a { b"] ; c { d\n[Site "x"]\n\n[Board "2"]\n'
    boards = parse_pbn_text(text)
    assert [b.tag("Event") for b in boards] == ["a { b", None]
    assert boards[0].commentary == (" c { d",)


def test_unterminated_brace_comment_is_a_file_diagnostic() -> None:
    fd: list[Diagnostic] = []
    boards = list(parse_pbn(['[Board "1"]', "", '[Board "2"] {never', "closed", "", '[Board "3"]'], "u.pbn", fd))
    assert [b.number for b in boards] == [1, 2]
    assert boards[1].commentary == ('never\nclosed\n\n[Board "3"]',)
    assert [(d.code, d.line, d.column, d.board) for d in fd] == [("F005", 3, 13, None)]


def test_unterminated_comment_alone_at_the_end() -> None:
    fd: list[Diagnostic] = []
    boards = list(parse_pbn(['[Board "1"]', "", "  {never closed", "", "%"], "u.pbn", fd))
    assert [b.number for b in boards] == [1]
    assert [(d.code, d.line, d.column) for d in fd] == [("F005", 3, 3)]


def test_parse_pbn_streams() -> None:
    def lines():
        yield '[Board "1"]'
        yield ""
        raise AssertionError("read too far")

    it = parse_pbn(lines(), "s.pbn", [])
    assert next(it).number == 1


# =========================================================================================
# Grammar and tag pairs (PBN 2.1 §3.2-3.3)
# =========================================================================================


def test_grammar_has_no_lalr_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="lark"):
        Lark(grammar_text("pbn"), parser="lalr", lexer="contextual", debug=True)
    assert "conflict" not in caplog.text.lower()


def test_parser_is_built_once_and_builds_no_tree() -> None:
    assert parser._parser() is parser._parser()
    sections, errors = parser._parse_block(parser._parser(), '[Board "1"]\n[Auction "N"]\nPass\n')
    assert [s.kind for s in sections] == [parser._LEAD, parser._TAGS, parser._AUCTION]
    assert errors == []


def _with_larks_lexer(text: str) -> tuple[list[parser._Section], list[tuple]]:
    """:func:`parser._parse_block` as it was with Lark's contextual lexer (the reference)."""
    lark = _with_larks_lexer.__dict__.get("lark")
    if lark is None:
        lark = Lark(grammar_text("pbn"), parser="lalr", lexer="contextual", transformer=parser._PbnTransformer())
        _with_larks_lexer.lark = lark  # type: ignore[attr-defined]
    errors: list[tuple] = []

    def on_error(e: Any) -> bool:
        state = e.interactive_parser.lexer_thread.state
        src, p = state.text.text, state.line_ctr.char_pos
        eol = src.find("\n", p)
        eol = len(src) if eol < 0 else eol
        errors.append(("F003", parser._span(e.line, e.column), {"detail": parser._cannot_read(src[p:eol])}))
        state.line_ctr.feed(src[p : max(eol, p + 1)])
        return True

    return lark.parse(text, on_error=on_error), errors


def _sections(sections: list[parser._Section]) -> list[tuple]:
    def tok(t: Any) -> Any:
        return None if t is None else (t.type, str(t), t.line, t.column, t.start_pos, t.end_pos)

    return [
        (s.kind, s.tags, s.elements, s.comments, s.comment_at, s.issues, [tok(r) for r in s.rows], tok(s.raw))
        for s in sections
    ]


def test_every_parser_state_accepts_every_terminal() -> None:
    """What lets one regex of all the terminals (parser._Scanner) stand for the contextual lexer."""
    lark = Lark(grammar_text("pbn"), parser="lalr", lexer="contextual")
    names = {t.name for t in lark.terminals}
    lexers = lark.parser.lexer.lexers  # type: ignore[union-attr]
    assert lexers and all(set(lx.terminals_by_name) == names for lx in lexers.values())


def test_scanner_reads_as_larks_own_lexer() -> None:
    """The scanner gives what Lark's contextual lexer gave, faults and positions included."""
    rng = random.Random(3)
    alphabet = '[]{};"\\%=$!?*+-^ \n\tNSEWP1X'
    texts = [EXAMPLE, '[Board "1"]\n"open\n[Bad tag\n{c}\n;x\nAP', '  x [ "y\n  [A "1"]\n[Play "N"]\nSA {x} H2']
    for _ in range(150):
        chars = list(EXAMPLE)
        for _ in range(rng.randint(1, 12)):
            chars.insert(rng.randrange(len(chars)), rng.choice(alphabet))
        texts.append("".join(chars))
    for text in texts:
        got, got_errors = parser._parse_block(parser._parser(), text)
        want, want_errors = _with_larks_lexer(text)
        assert (_sections(got), got_errors) == (_sections(want), want_errors), text
    with pytest.raises(RuntimeError, match="no callback"):
        parser._PbnTransformer().__default__("stray_rule", [], None)


def test_tag_values_unescape_quote_and_backslash_only() -> None:
    b = one(r'[East "\\\"\\\"\"\\  \a"]' + "\n" + r'[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]')
    assert b.tag("East") == '\\"\\""\\  \\a'
    assert b.tag("OptimumResultTable") == "Declarer;Denomination\\2R;Result\\2R"


def test_tag_value_may_hold_brackets_semicolons_and_braces() -> None:
    b = one('[Event "a ] b ; c { d } e [f]"]\n[Site "x"]')
    assert b.tag("Event") == "a ] b ; c { d } e [f]"
    assert b.tag("Site") == "x"
    assert b.commentary == ()


def test_tag_pair_layouts_of_import_format_and_their_spans() -> None:
    b = one('[Event"no space"]   [Date "1998.03.21"]\n [\n   Site\n   "new lines"\n ]\n[   Board    "4"   ]')
    assert [(t.name, t.value, t.span) for t in b.tags] == [
        ("Event", "no space", Span(1, 1)),
        ("Date", "1998.03.21", Span(1, 21)),
        ("Site", "new lines", Span(2, 2)),
        ("Board", "4", Span(6, 1)),
    ]
    assert b.diagnostics == ()


def test_repeated_tag_first_wins_but_all_are_kept() -> None:
    b = one('[Dealer "N"]\n[Dealer "S"]\n[Note "1:a"]\n[Note "2:b"]')
    assert b.dealer is Seat.NORTH
    assert [t.value for t in b.tags if t.name == "Dealer"] == ["N", "S"]
    assert diags(b) == [("T102", 2, 1)]


def test_unknown_tags_and_their_data_lines_are_kept_with_a_strict_only_note() -> None:
    b = one('[MyTag "x"]\n1 2 3\n[ScoreTable "Rank;Names_NS;Score_NS"]\n1 "A ;{B}" 100\n2 - 50\n[Board "1"]')
    assert [t.name for t in b.tags] == ["MyTag", "ScoreTable", "Board"]
    assert diags(b) == [("T120", 1, 1)] and b.number == 1  # T120 is shown only by validate --strict
    assert [(t.name, t.rows) for t in b.tables] == [
        ("MyTag", (("1", "2", "3"),)),
        ("ScoreTable", (("1", "A ;{B}", "100"), ("2", "-", "50"))),
    ]


def test_data_after_a_plain_tag_is_unknown_tokens() -> None:
    b = one('[Board "1"]\n}\n[Dealer "N"] stray')
    assert diags(b) == [("F006", 2, 1), ("F006", 3, 14)]
    assert b.dealer is Seat.NORTH


def test_text_before_the_first_tag() -> None:
    b = one('{game comment} ; more\noops\n[Board "2"]')
    assert b.commentary == ("game comment", " more")
    assert diags(b) == [("F006", 2, 1)]


def test_commentary_in_order_without_delimiters() -> None:
    b = one('[Board "1"] {after board}\n[Auction "N"] ; auction\n1C {on 1C} Pass Pass Pass')
    assert b.commentary == ("after board", " auction", "on 1C")
    assert calls(b) == ["1C", "Pass", "Pass", "Pass"]


# =========================================================================================
# Inheritance (PBN 2.1 §4.8)
# =========================================================================================


def test_hash_copies_the_previous_games_value() -> None:
    boards = parse_pbn_text('[Event "E1"]\n[West "W1"]\n\n[Board "2"]\n\n[Event "#"]\n[West "#"]\n\n[Site "#"]')
    assert boards[2].tag("Event") == "E1"
    assert boards[2].tag("West") == "W1"
    assert boards[3].tag("Site") == ""  # no earlier value
    assert boards[1].tag("Event") is None


def test_double_hash_sticks_until_redefined() -> None:
    text = (
        '[Event "##Autumn"]\n[Board "1"]\n\n'
        '[Board "2"]\n\n'
        '[Event "Winter"]\n[Board "3"]\n\n'
        '[Board "4"]\n\n'
        '[Hidden "##NES"]\n\n[Board "6"]\n\n[Hidden "#"]\n\n[Board "8"]'
    )
    boards = parse_pbn_text(text)
    assert [b.tag("Event") for b in boards] == ["Autumn", "Autumn", "Winter", None, None, None, None, None]
    assert [b.tag("Hidden") for b in boards] == [None, None, None, None, "NES", "NES", "NES", None]
    inherited = boards[1].tags[0]
    assert (inherited.name, inherited.value, inherited.span) == ("Event", "Autumn", None)


def test_inheritance_is_refused_for_dealer() -> None:
    boards = parse_pbn_text('[Dealer "N"]\n\n[Dealer "#"]')
    assert boards[1].dealer is None
    assert diags(boards[1]) == [("T101", 3, 1)]
    assert "not allowed" in boards[1].diagnostics[0].message


def test_inheritance_is_per_call() -> None:
    assert parse_pbn_text('[Event "##A"]')[0].tag("Event") == "A"
    assert parse_pbn_text('[Board "1"]')[0].tag("Event") is None


# =========================================================================================
# Identification tags (PBN 2.1 §3.4)
# =========================================================================================


@pytest.mark.parametrize(
    ("value", "number", "codes"),
    [("1", 1, []), ("01", 1, []), ("1-1", None, ["T121"]), ("0", 0, ["T121"]), ("", None, []), ("?", None, [])],
)
def test_board_number(value: str, number: int | None, codes: list[str]) -> None:
    b = one(f'[Board "{value}"]')
    assert b.number == number and [d.code for d in b.diagnostics] == codes


@pytest.mark.parametrize(
    ("value", "vul"),
    [
        ("None", Vulnerability.NONE),
        ("Love", Vulnerability.NONE),
        ("-", Vulnerability.NONE),
        ("none", Vulnerability.NONE),
        ("NS", Vulnerability.NS),
        ("ns", Vulnerability.NS),
        ("EW", Vulnerability.EW),
        ("All", Vulnerability.BOTH),
        ("Both", Vulnerability.BOTH),
        ("BOTH", Vulnerability.BOTH),
        ("?", None),
        ("", None),
    ],
)
def test_vulnerable_spellings(value: str, vul: Vulnerability | None) -> None:
    b = one(f'[Vulnerable "{value}"]')
    assert b.vulnerable is vul and b.diagnostics == ()


def test_bad_values_give_t101_at_the_tag() -> None:
    b = one('[Board "1"]\n[Vulnerable "Some"]\n  [Dealer "Q"]\n[Deal "N:AKQ"]')
    assert (b.vulnerable, b.dealer, b.deal) == (None, None, None)
    assert diags(b) == [("T101", 2, 1), ("T101", 3, 3), ("T101", 4, 1)]


def test_dealer_spellings() -> None:
    assert one('[Dealer "e"]').dealer is Seat.EAST
    b = one('[Dealer "North"]')
    assert b.dealer is Seat.NORTH and [d.code for d in b.diagnostics] == ["T105"]
    assert one('[Dealer ""]').dealer is None and one('[Dealer "?"]').diagnostics == ()


def test_deal_any_first_seat_unknown_hands_voids_and_rank_order() -> None:
    b = one('[Deal "w:- .63.AKQ987.A9732 - j973.J98742.3.4k"]')
    d = b.deal
    assert d is not None and b.diagnostics == ()
    assert d[Seat.WEST] is None and d[Seat.EAST] is None
    assert str(d[Seat.NORTH]) == ".63.AKQ987.A9732"
    assert str(d[Seat.SOUTH]) == "J973.J98742.3.K4"


def test_deal_empty_hands_and_empty_value() -> None:
    d = one('[Deal "N:... KQJT... ... 7642..."]').deal
    assert d is not None
    assert [len(d[s]) for s in Seat] == [0, 4, 0, 4]  # type: ignore[arg-type]
    assert one('[Deal ""]').deal is None
    assert one('[Deal "?"]').deal is None


def test_deal_fast_path_agrees_with_the_model() -> None:
    rng = random.Random(7)
    for _ in range(300):
        ranks = [rng.sample("AKQJT98765432", rng.randint(0, 6)) for _ in range(4)]
        text = ".".join("".join(r) for r in ranks)
        if rng.random() < 0.3:
            text = text.lower()
        fast = tag_values._fast_hand(text)
        assert fast == Hand.parse(text)
        assert fast is not None and fast.cards == Hand.parse(text).cards
    assert tag_values._fast_hand("A10.K.Q.J") is None  # the model reads "10"
    assert one('[Deal "N:A10.K.Q.J - - -"]').deal[Seat.NORTH] == Hand.parse("AT.K.Q.J")  # type: ignore[index]


def test_deal_with_repeated_card_in_a_hand_is_t101() -> None:
    b = one('[Deal "N:AA.K.Q.J - - -"]')
    assert b.deal is None and [d.code for d in b.diagnostics] == ["T101"]


def test_contract_and_declarer() -> None:
    b = one('[Declarer "S"]\n[Contract "4HX"]')
    assert b.contract == Contract(4, Strain.HEARTS, Doubling.DOUBLED, Seat.SOUTH)
    assert b.declarer is Seat.SOUTH and b.diagnostics == ()
    passed = one('[Contract "Pass"]\n[Declarer ""]').contract
    assert passed is not None and passed.is_passed_out
    end = one('[Contract "H"]\n[Declarer "S"]')  # an end position's denomination (PBN 2.1 §3.10)
    assert end.contract == Contract(0, Strain.HEARTS, Doubling.UNDOUBLED, Seat.SOUTH) and end.diagnostics == ()
    assert end.contract.is_end_position and not end.contract.is_passed_out  # type: ignore[union-attr]
    assert not end.declarer_swapped and one('[Declarer "^S"]').declarer_swapped


@pytest.mark.parametrize(("value", "read"), [("3N", "3NT"), ("5Cx", "5CX"), ("4Sxx", "4SXX")])
def test_non_standard_contract_spellings_warn(value: str, read: str) -> None:
    b = one(f'[Contract "{value}"]')
    assert str(b.contract) == read
    assert diags(b) == [("T105", 1, 1)]


@pytest.mark.parametrize("value", ["?", ""])
def test_unknown_contract_declarer_result(value: str) -> None:
    b = one(f'[Contract "{value}"]\n[Declarer "{value}"]\n[Result "{value}"]')
    assert (b.contract, b.declarer, b.result, b.diagnostics) == (None, None, None, ())


def test_irregular_declarer_keeps_the_seat() -> None:
    b = one('[Declarer "^N"]\n[Contract "1C"]')
    assert b.declarer is Seat.NORTH and b.contract.declarer is Seat.NORTH  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("declarer", "value", "result"),
    [
        ("S", "9", 9),
        ("S", "NS 9", 9),
        ("N", "EW 4", 9),
        ("E", "NS 9 EW 4", 4),
        ("W", "EW 4 NS 9", 4),
        ("S", "^5", 5),
        ("S", "^NS 8", 8),
        ("", "NS 9", None),
    ],
)
def test_result_forms(declarer: str, value: str, result: int | None) -> None:
    b = one(f'[Declarer "{declarer}"]\n[Result "{value}"]')
    assert b.result == result and b.diagnostics == ()


def test_bad_result_is_t101() -> None:
    b = one('[Declarer "S"]\n[Result "nine"]')
    assert b.result is None and diags(b) == [("T101", 2, 1)]


# =========================================================================================
# Auction (PBN 2.1 §3.5)
# =========================================================================================


def test_example_auction_with_notes() -> None:
    b = one(EXAMPLE)
    a = b.auction
    assert a is not None and a.dealer is Seat.NORTH and a.ended is None
    assert calls(b) == "1D 1S 3H 4S 4NT X Pass Pass 5C X 5H X Pass Pass Pass".split()
    assert (a.calls[2].note, a.calls[2].annotation) == (1, "non-forcing 6-9 points, 6-card")
    assert (a.calls[4].note, a.calls[4].annotation) == (2, "two colors: clubs and diamonds")
    assert a.span == Span(20, 1)
    assert [c.span for c in a.calls[:5]] == [Span(21, 1), Span(21, 9), Span(21, 14), Span(21, 21), Span(22, 1)]
    assert b.diagnostics == ()


def test_auction_starting_before_the_dealer_drops_fillers() -> None:
    b = one('[Dealer "N"]\n[Auction "W"]\n- 1D 1S 3H\nAP')
    assert b.auction is not None and b.auction.dealer is Seat.NORTH
    assert calls(b) == ["1D", "1S", "3H", "Pass", "Pass", "Pass"]
    assert b.diagnostics == ()


def test_auction_seat_disagreeing_with_dealer_is_t106() -> None:
    b = one('[Dealer "S"]\n[Auction "E"]\n1C Pass Pass Pass')
    assert b.auction is not None and b.auction.dealer is Seat.EAST
    assert diags(b) == [("T106", 2, 1)]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("AP", ["Pass"] * 4),
        ("Pass AP", ["Pass"] * 4),
        ("1S AP", ["1S", "Pass", "Pass", "Pass"]),
        ("1S Pass AP", ["1S", "Pass", "Pass", "Pass"]),
        ("1S X AP", ["1S", "X", "Pass", "Pass", "Pass"]),
        ("1S X XX ap", ["1S", "X", "XX", "Pass", "Pass", "Pass"]),
    ],
)
def test_ap_closes_the_auction(row: str, expected: list[str]) -> None:
    assert calls(one(f'[Dealer "N"]\n[Auction "N"]\n{row}')) == expected


def test_call_spellings() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\npass 1d x xx\n2nt P PASS 3N\nP')
    assert calls(b) == ["Pass", "1D", "X", "XX", "2NT", "Pass", "Pass", "3NT", "Pass"]
    assert diags(b) == [("T105", 4, 5), ("T105", 4, 7), ("T105", 4, 12)]  # P, PASS, 3N: once each


def test_suffixes_nags_and_glued_tokens() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\n1C ! 1D? 1H $13 $7 1S=1= !? 2C ?!\n[Note "1:spades"]')
    a = b.auction
    assert a is not None
    assert calls(b) == ["1C", "1D", "1H", "1S", "2C"]
    assert [c.nags for c in a.calls] == [(1,), (2,), (7, 13), (5,), (6,)]
    assert (a.calls[3].note, a.calls[3].annotation) == (1, "spades")
    assert a.calls[1].span == Span(3, 6)
    assert diags(b) == [("T128", 3, 17)]  # $7 is a NAG for cards


def test_note_reference_without_note_is_t107() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\n1C =1= 1D =2=\n[Note "1: club"]\n[Board "3"]\n[Note "3:other"]')
    a = b.auction
    assert a is not None
    assert (a.calls[0].annotation, a.calls[1].note, a.calls[1].annotation) == ("club", 2, None)
    assert diags(b) == [("T107", 3, 11)]
    # a Note 2 in the identification section (after another tag): read, with a T128 warning
    # (PBN 2.1 §3.5.5 puts it after the calls); see test_s6p_notes.py
    late = one('[Dealer "N"]\n[Auction "N"]\n1C =1= 1D =2=\n[Note "1: club"]\n[Board "3"]\n[Note "2:late"]')
    assert late.auction is not None and late.auction.calls[1].annotation == "late"
    assert diags(late) == [("T128", 3, 11)]


def test_end_markers() -> None:
    star = one('[Dealer "N"]\n[Auction "N"]\n1C Pass\n*')
    assert star.auction is not None and star.auction.ended == "*" and calls(star) == ["1C", "Pass"]
    plus = one('[Dealer "N"]\n[Auction "N"]\n1D + $2')
    assert plus.auction is not None and plus.auction.ended == "+" and plus.diagnostics == ()
    late = one('[Dealer "N"]\n[Auction "N"]\n1S Pass + Pass\n2S')
    assert calls(late) == ["1S", "Pass"]
    assert diags(late) == [("F003", 3, 11)]


def test_bad_call_is_a306_and_skipped() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\n1C 8H Pass\nfoo Pass Pass')
    assert calls(b) == ["1C", "Pass", "Pass", "Pass"]
    assert diags(b) == [("A306", 3, 4), ("A306", 4, 1)]


def test_irregularities_in_the_auction() -> None:
    b = one('[Dealer "N"]\n[Auction "W"]\n- ^S 1D ^I 1C\nAP')
    # ^S is kept as a placeholder (no call) so that the rotation stays right; ^I marks 1C
    assert calls(b) == ["^S", "1D", "1C", "Pass", "Pass", "Pass"]
    assert b.auction is not None and [c.irregular for c in b.auction.calls] == ["S", None, "I", None, None, None]
    assert b.auction.calls[0].is_skipped and b.auction.calls[0].span == Span(3, 3)
    assert b.diagnostics == ()


def test_star_glued_to_a_call_is_an_alert() -> None:
    b = one('[Dealer "W"]\n[Auction "W"]\n2H P 3H 3S\nP 4H* X 4S\nP P P')
    a = b.auction
    assert a is not None and a.ended is None
    assert len(a.calls) == 11 and a.calls[5] == Call(CallKind.BID, 4, Strain.HEARTS, alert=True)
    assert ("T105", 4, 5) in diags(b)


def test_auction_with_comments_between_calls() -> None:
    b = one('[Dealer "N"]\n[Auction "W"]\n- 1D 1S 3H {A1} {A2} ! {B1} $13 {C1} =1= {D1}\n4S AP\n[Note "1:x"]')
    a = b.auction
    assert a is not None
    assert (a.calls[2].nags, a.calls[2].note) == ((1, 13), 1)
    assert b.commentary == ("A1", "A2", "B1", "C1", "D1")


# =========================================================================================
# Play (PBN 2.1 §3.6)
# =========================================================================================


def test_play_lines_become_play_order() -> None:
    b = one(EXAMPLE)
    p = b.play
    assert p is not None and p.leader is Seat.WEST and p.ended == "*"
    # trick 1: West leads SK and North ruffs with H3; North then leads trick 2 (C2),
    # although line 2 still starts with West's C5.
    assert cards(b) == (
        "SK H3 S4 S3  C2 C6 CK C5  S7 S2 H6 S5  CA CT C4 C8  DA DT D3 D2  DK H5 H7 D4  H2 - - -".split()
    )
    assert p.spans[:6] == (Span(28, 1), Span(28, 8), Span(28, 11), Span(28, 14), Span(29, 4), Span(29, 7))
    assert b.diagnostics == ()


def test_lead_out_of_turn_sets_the_trick_leader() -> None:
    text = '[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]\n'
    text += '[Declarer "S"]\n[Contract "5HX"]\n[Play "W"]\nSK H3 S4 S3\nC5 C2 ^R S5 ^L CK\nS2 H6 ^R C6 S7\n*'
    b = one(text)
    assert cards(b) == "SK H3 S4 S3 CK C5 C2 S5 S7 S2 H6 C6".split()
    assert b.play is not None and b.play.irregular == (None,) * 4 + ("L", None, None, "R", None, None, None, "R")
    plain = one(text.replace("^R ", "").replace("^L ", ""))
    assert plain.play is not None and plain.play.irregular == ()  # no marks: ()
    dangling = one('[Contract "5HX"]\n[Play "W"]\nSK H3 S4 S3 ^L\n*')
    assert diags(dangling) == [("P406", 3, 13)]  # a mark with no card after it


def test_trump_from_the_auction_when_there_is_no_contract() -> None:
    text = '[Dealer "N"]\n[Auction "N"]\n1H Pass Pass Pass\n[Play "E"]\nS2 SA S3 H2\nD2 D3 D4 D5'
    b = one(text)
    # hearts are trumps: North (column 4; the columns are E, S, W, N) ruffs trick 1 and leads D5
    assert cards(b) == "S2 SA S3 H2 D5 D2 D3 D4".split()
    assert b.diagnostics == ()


def test_no_trump_and_passed_out_contract() -> None:
    b = one('[Contract "3NT"]\n[Play "W"]\nS2 H2 SA S3\nD2 D3 D4 D5')
    assert cards(b) == "S2 H2 SA S3 D4 D5 D2 D3".split()  # East won with SA
    unknown = one('[Play "W"]\nS2 H2 SA S3\nD2 D3 D4 D5')
    assert cards(unknown) == "S2 H2 SA S3 D2 D3 D4 D5".split()  # seat order kept
    assert diags(unknown) == [("P407", 1, 1)]


def test_unknown_cards_trailing_dashes_and_bad_cards() -> None:
    b = one('[Contract "4S"]\n[Play "N"]\nHA H2 H3 H4\n-- HK - H5\n- - - -\n-  -  -  -\n*')
    assert cards(b) == ["HA", "H2", "H3", "H4", "-", "HK", "-", "H5"]
    assert b.play is not None and len(b.play.spans) == 8
    assert diags(b) == [("P406", 4, 1)]


def test_plus_marks_the_next_card() -> None:
    # pbn.md §8's example: columns W N E S; South won trick 1, led CQ, West is next
    b = one('[Contract "6NT"]\n[Play "W"]\nD3 D4 D5 DA\n+  -  -  CQ')
    assert b.play is not None and b.play.ended == "+"
    assert cards(b) == ["D3", "D4", "D5", "DA", "CQ"]
    assert b.diagnostics == ()
    # columns E S W N: West ruffs trick 1 (spades are trumps) and leads trick 2
    b2 = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\nHK +  H2 HQ')
    assert cards(b2) == ["D3", "DA", "S5", "D4", "H2", "HQ", "HK"]
    b3 = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\nS3 +  S7 SA')
    assert cards(b3) == ["D3", "DA", "S5", "D4", "S7", "SA", "S3"]
    assert diags(b3) == []
    b4 = one('[Contract "6S"]\n[Play "E"]\nD3 DA S5 D4\n+  S3  S7 SA')
    assert cards(b4) == ["D3", "DA", "S5", "D4", "S7", "SA"]
    assert diags(b4) == [("F003", 4, 4)]  # South's S3 comes after the "+"


def test_play_notes_nags_and_suffixes_are_accepted() -> None:
    b = one('[Contract "1NT"]\n[Play "W"]\nSK =1= ! $7 H3? S4 S3 =2=\n*\n[Note "1:top of sequence"]')
    assert cards(b) == ["SK", "H3", "S4", "S3"]
    assert diags(b) == [("T107", 3, 23)]


def test_card_after_star_is_f003() -> None:
    b = one('[Contract "1NT"]\n[Play "W"]\nSK H3 S4 S3\n*\nC2')
    assert cards(b) == ["SK", "H3", "S4", "S3"]
    assert diags(b) == [("F003", 5, 1)]


def test_play_followed_only_by_star() -> None:
    b = one('[Contract "4H"]\n[Play "E"]\n*')
    assert b.play is not None and b.play.cards == () and b.play.ended == "*"


def test_tab_separated_play_and_ten_written_10() -> None:
    b = one('[Contract "2C"]\n[Play "N"]\nDA\tD10\td2\tD8')
    assert cards(b) == ["DA", "DT", "D2", "D8"]
    assert b.play is not None and b.play.cards[1] == Card.parse("DT")


# =========================================================================================
# Syntax errors and robustness
# =========================================================================================


def test_unterminated_string_is_f003_at_its_position_and_reading_goes_on() -> None:
    b = one('[Board "1"]\n[Event "oops]\n[Dealer "E"]')
    assert b.dealer is Seat.EAST and b.number == 1
    assert diags(b) == [("F003", 2, 1)]


def test_stray_bracket_in_a_section() -> None:
    b = one('[Dealer "N"]\n[Auction "N"]\n1C [ Pass\nPass Pass Pass')
    assert diags(b) == [("F003", 3, 4)]
    assert calls(b) == ["1C", "Pass", "Pass", "Pass"]


def test_positions_are_file_lines() -> None:
    boards = parse_pbn_text('[Board "1"]\n\n\n[Board "2"]\n[Vulnerable "X"]', "p.pbn")
    d = boards[1].diagnostics[0]
    assert (d.path, d.line, d.column, d.board) == ("p.pbn", 5, 1, 1)
    assert str(d).startswith("p.pbn:5:1: T101 error:")


def test_a_failing_callback_does_not_escape(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(builder, "_auction", boom)
    boards = parse_pbn_text('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\nAP\n\n[Board "2"]')
    assert [b.number for b in boards] == [None, 2]
    assert [t.name for t in boards[0].tags] == ["Board", "Dealer", "Auction"]
    assert [d.code for d in boards[0].diagnostics] == ["F003"]
    assert "boom" in boards[0].diagnostics[0].message


def test_mutated_input_never_raises_and_every_game_is_yielded() -> None:
    rng = random.Random(1)
    alphabet = '[]{};"\\%=$!?*+-^ \n\tNSEWP1X'
    for _ in range(200):
        chars = list(EXAMPLE)
        for _ in range(rng.randint(1, 12)):
            chars.insert(rng.randrange(len(chars)), rng.choice(alphabet))
        text = "".join(chars)
        frames = [f for f in framing._frame(text.split("\n")) if f[2] is not None]
        boards = parse_pbn_text(text)
        assert len(boards) == len(frames)
        assert all(isinstance(b, Board) for b in boards)


def test_deal_object_is_a_full_deal() -> None:
    d = one(EXAMPLE).deal
    assert d == Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")
    assert d is not None and d.is_complete
