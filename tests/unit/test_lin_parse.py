"""Unit tests of the LIN reader (handrec/formats/lin/, grammars/lin.lark).

Small inline inputs, one per command and quirk of shared/specs/lin.md; bad
inputs assert the exact diagnostic code, line and column.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from handrec._resources import grammar_text
from handrec.diagnostics import Diagnostic
from handrec.formats.lin.reader import parse_lin, parse_lin_text
from handrec.formats.lin.records import _LinTransformer, _TokenListLexer
from handrec.model import (
    Call,
    CallKind,
    Card,
    Contract,
    Deal,
    Hand,
    Seat,
    Span,
    Strain,
    Vulnerability,
)

# A complete deal in LIN order S, W, N, E (each hand one suit: easy to check).
S_HAND, W_HAND, N_HAND, E_HAND = "SAKQJT98765432", "HAKQJT98765432", "DAKQJT98765432", "CAKQJT98765432"
MD3 = f"{S_HAND},{W_HAND},{N_HAND},"  # BBO style: three hands and a trailing comma
ALL_SPADES = Hand.parse("AKQJT98765432...")
ALL_HEARTS = Hand.parse(".AKQJT98765432..")
ALL_DIAMONDS = Hand.parse("..AKQJT98765432.")
ALL_CLUBS = Hand.parse("...AKQJT98765432")


def one(text: str) -> object:
    """The single board of ``text``."""
    boards = parse_lin_text(text, "t.lin")
    assert len(boards) == 1, boards
    return boards[0]


def read(lines: list[str]) -> tuple[list, list[Diagnostic]]:
    file_diags: list[Diagnostic] = []
    boards = list(parse_lin(lines, "t.lin", file_diags))
    return boards, file_diags


def codes(board) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in board.diagnostics]


def col(text: str, pair: str) -> int:
    """The 1-based column where ``pair`` starts in one-line ``text``."""
    return text.index(pair) + 1


# --- the grammar ---------------------------------------------------------------


def test_grammar_has_no_lalr_conflicts() -> None:
    # strict=True turns shift/reduce and reduce/reduce conflicts into errors
    Lark(grammar_text("lin"), parser="lalr", lexer=_TokenListLexer, start="record", strict=True)


def test_transformer_default_refuses_to_build_trees() -> None:
    with pytest.raises(TypeError, match="no Transformer callback"):
        _LinTransformer().__default__("mystery", [], None)


# --- md: deal and dealer (lin.md §4) ----------------------------------------------


@pytest.mark.parametrize(
    ("digit", "dealer"), [("1", Seat.SOUTH), ("2", Seat.WEST), ("3", Seat.NORTH), ("4", Seat.EAST)]
)
def test_md_dealer_digit(digit: str, dealer: Seat) -> None:
    b = one(f"md|{digit}{MD3}|")
    assert b.dealer is dealer
    assert b.tag("Dealer") == str(dealer)


def test_md_hands_in_order_south_west_north_east_and_east_derived() -> None:
    b = one(f"md|3{MD3}|")
    assert b.deal[Seat.SOUTH] == ALL_SPADES
    assert b.deal[Seat.WEST] == ALL_HEARTS
    assert b.deal[Seat.NORTH] == ALL_DIAMONDS
    assert b.deal[Seat.EAST] == ALL_CLUBS  # the 13 remaining cards
    assert b.deal.is_complete
    assert b.diagnostics == ()


def test_md_three_hands_without_trailing_comma_also_derives_east() -> None:
    b = one(f"md|3{S_HAND},{W_HAND},{N_HAND}|")
    assert b.deal[Seat.EAST] == ALL_CLUBS


def test_md_east_not_derived_from_partial_hands() -> None:
    b = one("md|1SAK,HAK,DAK,|")
    assert str(b.deal[Seat.SOUTH]) == "AK..."
    assert b.deal[Seat.EAST] is None
    assert b.diagnostics == ()


def test_md_four_hands_given() -> None:
    b = one(f"md|2{S_HAND},{W_HAND},{N_HAND},{E_HAND}|")
    assert b.dealer is Seat.WEST
    assert b.deal[Seat.EAST] == ALL_CLUBS


def test_md_empty_hands_are_not_given() -> None:
    b = one("md|3,,SA,|")
    assert b.deal[Seat.SOUTH] is None and b.deal[Seat.WEST] is None
    assert str(b.deal[Seat.NORTH]) == "A..."
    assert b.tag("Deal") == "N:A... - - -"


def test_md_ranks_any_order_and_case_and_ten() -> None:
    b = one("md|1s2akh10j3dQ9c,,,|")
    assert str(b.deal[Seat.SOUTH]) == "AK2.JT3.Q9."


def test_md_deal_tag_starts_at_dealer_and_round_trips() -> None:
    b = one(f"md|4{MD3}|")
    assert b.tag("Deal") == "E:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."
    assert Deal.parse(b.tag("Deal")) == b.deal


def test_md_bad_character_is_t101_at_the_md_pair() -> None:
    b = one("pn|a,b,c,d|md|3SAKZ,,,|")
    assert codes(b) == [("T101", 1, 12)]
    assert str(b.deal[Seat.SOUTH]) == "AK..."


def test_md_bad_dealer_digit_is_t101() -> None:
    b = one(f"md|7{MD3}|")
    assert codes(b) == [("T101", 1, 1)]
    assert b.dealer is None and b.deal[Seat.EAST] == ALL_CLUBS


# --- sv, numbers, rooms (lin.md §3, §8) -----------------------------------------------


@pytest.mark.parametrize(
    ("value", "vul"),
    [
        ("o", Vulnerability.NONE),
        ("0", Vulnerability.NONE),
        ("n", Vulnerability.NS),
        ("e", Vulnerability.EW),
        ("b", Vulnerability.BOTH),
        ("B", Vulnerability.BOTH),
    ],
)
def test_sv(value: str, vul: Vulnerability) -> None:
    b = one(f"md|1{MD3}|sv|{value}|")
    assert b.vulnerable is vul
    assert b.tag("Vulnerable") == str(vul)


def test_bad_sv_is_t101_at_its_pair() -> None:
    text = f"md|1{MD3}|sv|x|"
    b = one(text)
    assert b.vulnerable is None
    assert codes(b) == [("T101", 1, 51)] == [("T101", 1, col(text, "sv|x|"))]


@pytest.mark.parametrize(
    ("qx", "number", "room"),
    [("o12", 12, "Open"), ("c12", 12, "Closed"), ("o1,board 1", 1, "Open"), ("C7", 7, "Closed")],
)
def test_qx_number_and_room(qx: str, number: int, room: str) -> None:
    b = one(f"qx|{qx}|md|1{MD3}|")
    assert (b.number, b.tag("Board"), b.tag("Room")) == (number, str(number), room)


def test_board_number_from_ah() -> None:
    assert one(f"md|1{MD3}|ah|Board 12|").number == 12


def test_board_number_from_header_bn_list() -> None:
    boards = parse_lin_text(f"bn|5,6|qx|o|md|1{MD3}|qx|o|md|1{MD3}|")
    assert [b.number for b in boards] == [5, 6]


def test_qx_number_wins_over_ah() -> None:
    assert one(f"qx|o3|md|1{MD3}|ah|Board 9|").number == 3


# --- players (lin.md §3, §2.3) ---------------------------------------------------------


def test_pn_four_names_south_west_north_east() -> None:
    b = one(f"pn|Sam,Will,Nick,Ed|st||md|1{MD3}|")
    assert [b.tag(t) for t in ("South", "West", "North", "East")] == ["Sam", "Will", "Nick", "Ed"]
    # PBN tag order: West, North, East, South
    assert [t.name for t in b.tags if t.name in ("South", "West", "North", "East")] == [
        "West",
        "North",
        "East",
        "South",
    ]


def test_header_pn_of_eight_names_gives_open_then_closed_room() -> None:
    text = f"pn|oS,oW,oN,oE,cS,cW,cN,cE|pg||qx|o1|md|1{MD3}|qx|c1|md|1{MD3}|"
    opened, closed = parse_lin_text(text)
    assert [opened.tag(t) for t in ("South", "West", "North", "East")] == ["oS", "oW", "oN", "oE"]
    assert [closed.tag(t) for t in ("South", "West", "North", "East")] == ["cS", "cW", "cN", "cE"]


def test_record_pn_overrides_header_pn() -> None:
    text = f"pn|oS,oW,oN,oE,cS,cW,cN,cE|qx|o1|md|1{MD3}|qx|c1|pn|xS,xW,xN,xE|md|1{MD3}|"
    opened, closed = parse_lin_text(text)
    assert opened.tag("South") == "oS"
    assert closed.tag("South") == "xS"


def test_pw_is_an_alternative_players_list() -> None:
    text = f"pw|aS,aW,aN,aE,bS,bW,bN,bE|qx|o1|md|1{MD3}|qx|c1|md|1{MD3}|"
    opened, closed = parse_lin_text(text)
    assert (opened.tag("North"), closed.tag("North")) == ("aN", "bN")


# --- mb / an: the auction (lin.md §5) ------------------------------------------------


def test_calls_in_order_from_the_dealer_any_case() -> None:
    b = one(f"md|2{MD3}|mb|1c|mb|D|mb|r|mb|2N|mb|P|mb|p|mb|p|")
    assert b.auction.dealer is Seat.WEST
    assert str(b.auction) == "1C X XX 2NT Pass Pass Pass"
    assert b.auction.calls[3] == Call(CallKind.BID, 2, Strain.NOTRUMP)


def test_alert_mark_and_explanation() -> None:
    b = one(f"md|1{MD3}|mb|1N|mb|2D!|an|Jacoby transfer -- 5+ !H |mb|p|mb|2H|an|completed|mb|d!|")
    calls = b.auction.calls
    assert (calls[1].alert, calls[1].annotation) == (True, "Jacoby transfer -- 5+ !H")
    assert (calls[2].alert, calls[2].annotation) == (False, None)
    assert (calls[3].alert, calls[3].annotation) == (False, "completed")  # an after an unalerted call
    assert (calls[4].kind, calls[4].alert, calls[4].annotation) == (CallKind.DOUBLE, True, None)


def test_call_span_is_the_mb_pair() -> None:
    b = one(f"qx|o1|\nmd|1{MD3}|\nmb|1S|mb|p|")
    assert [c.span for c in b.auction.calls] == [Span(3, 1), Span(3, 7)]
    assert b.auction.span == Span(3, 1)


def test_dash_call_is_pass_with_t105_warning() -> None:
    text = f"md|1{MD3}|mb|1S|mb|-|"
    b = one(text)
    assert str(b.auction) == "1S Pass"
    assert codes(b) == [("T105", 1, col(text, "mb|-|"))]


def test_packed_calls_are_split_with_t105() -> None:
    b = one(f"md|1{MD3}|mb|1C-p-1H!|")
    assert str(b.auction) == "1C Pass 1H"
    assert b.auction.calls[2].alert
    assert [d.code for d in b.diagnostics] == ["T105"]


def test_bad_call_is_a306_and_skipped() -> None:
    text = f"pn|a,b,c,d|md|3{MD3}|mb|1S|mb|zz|mb|p|"
    b = one(text)
    assert codes(b) == [("A306", 1, 68)] == [("A306", 1, col(text, "mb|zz|"))]
    assert str(b.auction) == "1S Pass"
    assert "'zz' is not a call" in b.diagnostics[0].message


def test_an_after_a_bad_call_is_not_attached_elsewhere() -> None:
    b = one(f"md|1{MD3}|mb|1S|mb|8S|an|oops|")
    assert b.auction.calls[0].annotation is None


# --- pc / mc: the play (lin.md §6) -----------------------------------------------------


def test_cards_in_play_order_with_spans_and_claim() -> None:
    b = one(f"md|1{MD3}|mb|7S|mb|p|mb|p|mb|p|pg||pc|c2|pc|HA|pc|D10|pc|sa|pg||mc|12|")
    assert b.play.leader is None
    assert b.play.cards == tuple(Card.parse(c) for c in ("C2", "HA", "DT", "SA"))
    assert b.play.spans[0] == Span(1, 76)
    assert b.play.claim == 12


def test_claim_without_cards() -> None:
    b = one(f"md|1{MD3}|mc|13|")
    assert (b.play.cards, b.play.claim) == ((), 13)


def test_bad_card_is_p406_and_kept_as_unknown() -> None:
    text = f"md|1{MD3}|pc|SA|pc|X9|pc|SK|"
    b = one(text)
    assert codes(b) == [("P406", 1, col(text, "pc|X9|"))]
    assert b.play.cards == (Card.parse("SA"), None, Card.parse("SK"))


def test_bad_claim_is_t101() -> None:
    text = f"md|1{MD3}|mc|14|"
    b = one(text)
    assert codes(b) == [("T101", 1, col(text, "mc|14|"))]
    assert b.play is None


# --- other commands ---------------------------------------------------------------------


def test_nt_is_commentary_and_display_commands_are_quiet() -> None:
    b = one(f"st||md|1{MD3}|rh||ah|Board 1|nt|kibitzer: nice @S lead|pg||sk|NS|pf|x|")
    assert b.commentary == ("kibitzer: nice @S lead",)
    assert b.diagnostics == () and b.extra == ()


def test_commands_are_case_insensitive() -> None:
    b = one(f"PN|a,b,c,d|MD|1{MD3}|Sv|B|MB|1s|mB|P|PC|Sa|MC|7|")
    assert (b.tag("South"), b.vulnerable, str(b.auction), str(b.play), b.play.claim) == (
        "a",
        Vulnerability.BOTH,
        "1S Pass",
        "SA",
        7,
    )


# --- vugraph header: vg and rs (lin.md §7) ---------------------------------------------

VG = "vg|2010 USBF SF A,Segment 4 of 8,I,46,47,Nickell,80,Fleisher,99|"


def test_vg_tags() -> None:
    b = parse_lin_text(f"{VG}qx|o46|md|1{MD3}|")[0]
    assert b.tag("Event") == "2010 USBF SF A"
    assert b.tag("Stage") == "Segment 4 of 8"
    assert b.tag("Scoring") == "IMP"
    assert (b.tag("HomeTeam"), b.tag("VisitTeam")) == ("Nickell", "Fleisher")


@pytest.mark.parametrize(("letter", "scoring"), [("I", "IMP"), ("P", "MP"), ("B", "BAM")])
def test_vg_scoring(letter: str, scoring: str) -> None:
    b = parse_lin_text(f"vg|E,S,{letter},1,1,A,0,B,0|qx|o1|md|1{MD3}|")[0]
    assert b.tag("Scoring") == scoring


def test_rs_results_by_board_and_room() -> None:
    text = f"{VG}rs|4HE=,3NW+1,4SWx-4,PASS|qx|o46|md|1{MD3}|qx|c46|md|1{MD3}|qx|o47|md|1{MD3}|qx|c47|md|1{MD3}|"
    o46, c46, o47, c47 = parse_lin_text(text)
    assert (o46.contract, o46.declarer, o46.result) == (Contract.parse("4H", Seat.EAST), Seat.EAST, 10)
    assert [o46.tag(t) for t in ("Contract", "Declarer", "Result")] == ["4H", "E", "10"]
    assert (c46.contract, c46.result) == (Contract.parse("3NT", Seat.WEST), 10)
    assert (o47.contract, o47.result, o47.tag("Contract")) == (Contract.parse("4SX", Seat.WEST), 6, "4SX")
    assert (c47.contract.is_passed_out, c47.declarer, c47.result, c47.tag("Contract")) == (True, None, None, "Pass")


def test_rs_empty_entry_gives_nothing() -> None:
    b = parse_lin_text(f"{VG}rs|,|qx|o46|md|1{MD3}|")[0]
    assert (b.contract, b.tag("Contract")) == (None, None)


def test_bad_rs_entry_is_t101_in_file_diagnostics() -> None:
    boards, file_diags = read([VG, "rs|4HE=,9ZQ|", f"qx|c46|md|1{MD3}|"])
    # positioned at the entry itself: line 2, column of `9ZQ`
    assert [(d.code, d.line, d.column, d.board) for d in file_diags] == [("T101", 2, 9, None)]
    assert "'9ZQ'" in file_diags[0].message
    assert boards[0].contract is None


def test_vg_with_wrong_field_count_is_t101() -> None:
    _, file_diags = read(["vg|only,three,I|", f"qx|o1|md|1{MD3}|"])
    assert [(d.code, d.line, d.column) for d in file_diags] == [("T101", 1, 1)]


# --- framing, origins and spans (lin.md §2, §8) -----------------------------------------


def test_records_framed_by_md_without_qx_pn_and_st_go_with_the_next_md() -> None:
    line = f"pn|a,b,c,d|st||md|1{MD3}|ah|Board 1|mb|p|pg||pn|e,f,g,h|st||md|2{MD3}|ah|Board 2|"
    b1, b2 = parse_lin_text(line)
    assert (b1.number, b1.tag("South"), b2.number, b2.tag("South")) == (1, "a", 2, "e")
    assert b2.origin.offset == line.index("pn|e")
    assert b2.origin.line == 1


def test_origin_and_relative_spans() -> None:
    lines = ["vg|E,S,I,1,2,A,0,B,0|", "pn|,,,,,,,|pg||", f"qx|o1|md|1{MD3}|", f"qx|c1|md|1{MD3}|sv|b|", "mb|p|mb|zz|"]
    boards, file_diags = read(lines)
    assert file_diags == []
    o1, c1 = boards
    assert (o1.origin.path, o1.origin.line, o1.origin.index, o1.origin.format) == ("t.lin", 3, 0, "lin")
    assert o1.origin.offset == len(lines[0]) + 1 + len(lines[1]) + 1
    assert (c1.origin.line, c1.origin.index) == (4, 1)
    assert c1.tag_span("Vulnerable") == Span(1, col(lines[3], "sv|b|"))
    assert codes(c1) == [("A306", 5, 6)]  # file line 5, column of `mb|zz|`
    assert c1.auction.calls[0].span == Span(2, 1)


def test_a_file_with_only_header_pairs_has_no_records() -> None:
    assert read(["vg|E,S,I,1,2,A,0,B,0|rs|,|pn|,,,,,,,|pg||"]) == ([], [])


def test_pairs_without_md_or_qx_still_make_one_record() -> None:
    b = one("pn|a,b,c,d|mb|1S|mb|p|ah|Board 3|")
    assert (b.deal, str(b.auction), b.auction.dealer) == (None, "1S Pass", Seat.SOUTH)  # board 3 dealer


def test_empty_input_has_no_records() -> None:
    assert read(["", "   "]) == ([], [])


def test_streaming_reads_only_as_far_as_the_next_record() -> None:
    seen = []

    def lines() -> Iterator[str]:
        for i in range(1000):
            seen.append(i)
            yield f"qx|o{i + 1}|md|1{MD3}|mb|p|"

    it = parse_lin(lines(), "t.lin", [])
    first = next(it)
    assert first.number == 1
    assert len(seen) == 2  # the second record's qx ends the first


# --- URLs (lin.md §2.4) ------------------------------------------------------------------


def test_handviewer_url_is_decoded() -> None:
    url = (
        "https://www.bridgebase.com/tools/handviewer.html?lin=pn%7CS1%2CW1%2CN1%2CE1%7Cmd%7C3"
        + MD3.replace(",", "%2C")
        + "%7Cah%7CBoard%2012%7Cmb%7C1N%7Can%7C15-17%20%2B%7Cmb%7CP%7C"
    )
    b = one(url)
    assert (b.tag("North"), b.number, b.dealer) == ("N1", 12, Seat.NORTH)
    assert b.auction.calls[0].annotation == "15-17 +"
    assert b.diagnostics == ()


def test_plus_stays_a_plus_unless_the_url_encodes_plus_as_2b() -> None:
    plain = one(f"https://x/handviewer.html?bbo=y&lin=md%7C1{MD3}%7Cmb%7C1S%7Can%7C5+%20!S%7C")
    assert plain.auction.calls[0].annotation == "5+ !S"
    spaced = one(f"https://x/handviewer.html?lin=md%7C1{MD3}%7Cmb%7C1S%7Can%7Cfive+%2B+spades%7C")
    assert spaced.auction.calls[0].annotation == "five + spades"


def test_hv_popuplin_partially_encoded() -> None:
    b = one(f"<a onclick=\"hv_popuplin('pn|a,b,c,d|md|1{MD3}%7Cmb%7C1S%7C')\">")
    assert (b.tag("South"), str(b.auction)) == ("a", "1S")


def test_url_inside_chat_is_left_alone() -> None:
    b = one(f"md|1{MD3}|nt|see https://x/handviewer.html?lin=md%7C1S%7C|")
    assert b.commentary == ("see https://x/handviewer.html?lin=md%7C1S%7C",)


# --- damaged input (lin.md §1, §10) --------------------------------------------------------


def test_truncated_last_pair_is_f003_and_the_value_is_used() -> None:
    text = f"md|1{MD3}|pc|SA|pc|S2|mc|9"
    b = one(text)
    assert codes(b) == [("F003", 1, col(text, "mc|9"))]
    assert b.play.claim == 9
    assert "no closing '|'" in b.diagnostics[0].message


def test_value_broken_over_a_line_is_joined() -> None:
    boards, _ = read([f"md|1{MD3}|mb|1S|an|five card", "s|mb|p|"])
    assert boards[0].auction.calls[0].annotation == "five cards"
    assert str(boards[0].auction) == "1S Pass"
    assert boards[0].diagnostics == ()


def test_garbage_is_f003_at_its_position_and_reading_goes_on() -> None:
    text = f"md|1{MD3}|mb|1S|#garbage# |mb|p|"
    b = one(text)
    assert codes(b) == [("F003", 1, col(text, "#garbage#"))]
    assert str(b.auction) == "1S Pass"


def test_doubled_pipe_is_an_f011_warning() -> None:
    text = f"md|1{MD3}|pc|SA||pc|SK|"
    b = one(text)
    assert codes(b) == [("F011", 1, col(text, "||") + 1)]  # the second of the two pipes
    assert b.diagnostics[0].message == "stray '|' ignored"
    assert str(b.play) == "SA SK"


def test_missing_pipe_between_pairs() -> None:
    text = f"md|1{MD3}|mb|1Smb|p|mb|p|"
    b = one(text)
    # `mb|1Smb|` is read as one pair (bad call), then `p|` is no pair
    assert codes(b) == [("A306", 1, col(text, "mb|1Smb|")), ("F003", 1, col(text, "p|mb|p|"))]
    assert str(b.auction) == "Pass"


def test_junk_in_the_header_goes_to_file_diagnostics() -> None:
    boards, file_diags = read(["%%junk", f"qx|o1|md|1{MD3}|"])
    assert len(boards) == 1
    assert [(d.code, d.line, d.column, d.board) for d in file_diags] == [("F003", 1, 1, None)]


def test_repeated_md_keeps_the_first_with_t102() -> None:
    text = f"qx|o1|md|1{MD3}|md|2{MD3}|"
    b = one(text)
    assert b.dealer is Seat.SOUTH
    assert codes(b) == [("T102", 1, col(text, "md|2"))]


LIN_ALPHABET = "|||||,,\n !mbpcmdqxsvanSHDCAKQJT98765432opnebr+-%7C"
SAMPLE = f"pn|a,b,c,d|st||md|3{MD3}|rh||ah|Board 1|sv|o|mb|1H|mb|2S!|an|x|mb|p|pg||pc|CT|pc|C8|mc|9|"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=LIN_ALPHABET, max_size=200))
def test_random_text_never_raises(text: str) -> None:
    file_diags: list[Diagnostic] = []
    for b in parse_lin(text.split("\n"), "f.lin", file_diags):
        assert b.origin.format == "lin"


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(SAMPLE) - 1), st.integers(0, 20), st.text(alphabet=LIN_ALPHABET, max_size=5))
def test_mutated_record_never_raises_and_is_yielded(at: int, cut: int, insert: str) -> None:
    text = SAMPLE[:at] + insert + SAMPLE[at + cut :]
    boards = parse_lin_text(text)
    assert len(boards) <= 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_arbitrary_unicode_lines_never_raise(lines: list[str]) -> None:
    list(parse_lin(lines, "f.lin", []))


def test_odd_digits_and_huge_numbers_are_bad_values_not_crashes() -> None:
    b = one(f"qx|o{'9' * 5000}|md|²{MD3}|mc|²|ah|Board ²|")
    assert b.number is None and b.dealer is None
    assert [d.code for d in b.diagnostics] == ["T101", "T101", "T101"]  # qx number, md dealer digit, mc


def test_value_over_several_lines_is_joined_up_to_its_pipe() -> None:
    boards, _ = read([f"md|1{MD3}|nt|chat starts", "and goes on", "and on|mb|1S|"])
    assert boards[0].commentary == ("chat startsand goes onand on",)
    assert str(boards[0].auction) == "1S"
    assert boards[0].diagnostics == ()
    # pipes decide: a pair left open swallows the next command (`mb`), and `1S|` is then no pair
    boards, _ = read([f"md|1{MD3}|nt|chat", "mb|1S|"])
    assert boards[0].commentary == ("chatmb",)
    assert codes(boards[0]) == [("F003", 2, 4)]


def test_a_run_of_junk_is_one_f003() -> None:
    text = f"md|1{MD3}|%% ## !!|mb|p|"
    b = one(text)
    assert codes(b) == [("F003", 1, col(text, "%%"))]
    assert "'%% ## !!|'" in b.diagnostics[0].message


def test_md_with_more_than_four_hands_is_t101() -> None:
    b = one(f"md|1{S_HAND},{W_HAND},{N_HAND},{E_HAND},SA|")
    assert [d.code for d in b.diagnostics] == ["T101"]
    assert b.deal.is_complete


def test_md_repeated_card_in_a_hand_is_t101_and_kept_once() -> None:
    b = one("md|1SAKA,,,|")
    assert [d.code for d in b.diagnostics] == ["T101"]
    assert "SA repeated in south's hand" in b.diagnostics[0].message
    assert str(b.deal[Seat.SOUTH]) == "AK..."


def test_md_east_not_derived_when_the_given_hands_overlap() -> None:
    b = one(f"md|1{S_HAND},{S_HAND},{N_HAND},|")
    assert b.deal[Seat.EAST] is None


def test_two_explanations_of_one_call_are_joined() -> None:
    b = one(f"md|1{MD3}|mb|2C!|an|strong|an|artificial|")
    assert b.auction.calls[0].annotation == "strong artificial"


def test_calls_without_dealer_use_the_board_number_else_t101() -> None:
    b = one("ah|Board 2|mb|1S|")
    assert (b.dealer, b.auction.dealer) == (None, Seat.EAST)  # board 2 is dealt by East (Law 2)
    text = "pn|a,b,c,d|mb|1S|"
    b = one(text)
    assert b.auction is None
    assert codes(b) == [("T101", 1, col(text, "mb|1S|"))]


def test_pn_written_before_qx_belongs_to_the_next_table() -> None:
    opened, closed = parse_lin_text(f"qx|o1|pn|a,b,c,d|md|1{MD3}|pg||\npn|e,f,g,h|qx|c1|md|1{MD3}|")
    assert (opened.tag("South"), closed.tag("South")) == ("a", "e")
    assert closed.origin.line == 2


def test_long_header_players_list_is_taken_by_record() -> None:
    names = "pw|a1,a2,a3,a4,b1,b2,b3,b4,c1,c2,c3,c4|"
    boards = parse_lin_text(names + "".join(f"qx|o{n}|md|1{MD3}|" for n in (1, 2, 3)))
    assert [b.tag("South") for b in boards] == ["a1", "b1", "c1"]


def test_vg_unknown_scoring_letter_is_t101() -> None:
    boards, file_diags = read(["vg|E,S,X,1,1,A,0,B,0|", f"qx|o1|md|1{MD3}|"])
    assert [(d.code, d.line, d.column) for d in file_diags] == [("T101", 1, 1)]
    assert boards[0].tag("Scoring") is None


def test_without_qx_the_header_before_the_first_md_still_applies() -> None:
    b1, b2 = parse_lin_text(f"vg|Cup,R1,P,1,2,,,,|rs|4HE=|pn|a,b,c,d|md|1{MD3}|ah|Board 1|md|2{MD3}|ah|Board 2|")
    assert (b1.tag("Event"), b1.tag("Scoring"), b1.tag("Contract"), b1.tag("South")) == ("Cup", "MP", "4H", "a")
    # the pn of one table just before the first md is that record's own (lin.md §8.2)
    assert (b2.tag("Event"), b2.tag("Contract"), b2.tag("South")) == ("Cup", None, None)


def test_without_qx_a_players_list_before_the_first_md_is_a_header() -> None:
    b1, b2 = parse_lin_text(f"pw|a,b,c,d,e,f,g,h|md|1{MD3}|ah|Board 1|md|2{MD3}|ah|Board 2|")
    assert (b1.tag("South"), b2.tag("South")) == ("a", "a")  # no room: the first four names


def test_a_record_without_pn_does_not_take_the_previous_records_players() -> None:
    b1, b2 = parse_lin_text(f"pn|a,b,c,d|st||md|1{MD3}|\nst||md|2{MD3}|")
    assert (b1.tag("South"), b2.tag("South")) == ("a", None)


# --- every command typed: good values, and broken ones with their exact diagnostic ---------


def test_a_run_of_auction_and_play_pairs_is_one_token() -> None:
    from handrec.formats.lin.lexer import _lexer

    toks = list(_lexer().lex("md|1,,,|mb|1S!|an|five|mb|p|pg||pc|SA|pc|S2|mc|9|nt|hi|up||sv|o|"))
    assert [t.type for t in toks] == ["MD", "MOVES", "SV"]


def test_every_call_and_card_of_a_run_keeps_its_own_position() -> None:
    text = f"md|1{MD3}|mb|1S|an|x|mb|p|  mb|p|pg||pc|SA|pc|s2|"
    b = one(text)
    assert [c.span for c in b.auction.calls] == [
        Span(1, col(text, "mb|1S")),
        Span(1, col(text, "mb|p|  ")),
        Span(1, col(text, "mb|p|pg")),
    ]
    assert list(b.play.spans) == [Span(1, col(text, "pc|SA")), Span(1, col(text, "pc|s2"))]


def test_positions_in_a_run_broken_over_lines() -> None:
    # the value of `an` runs over a line end: the run is re-lexed with the next line
    first = f"md|1{MD3}|mb|1S|an|five"
    boards, _ = read([first, "cards|mb|p|pc|SA|"])
    b = boards[0]
    assert b.auction.calls[0].annotation == "fivecards"
    assert [c.span for c in b.auction.calls] == [Span(1, col(first, "mb|1S")), Span(2, 7)]
    assert b.play.spans == (Span(2, 12),)
    assert b.diagnostics == ()


def test_a_value_empty_at_the_end_of_a_line_continues_on_the_next() -> None:
    boards, _ = read([f"md|1{MD3}|nt|", "", "said later|mb|1S|"])
    assert boards[0].commentary == ("said later",)
    assert str(boards[0].auction) == "1S"
    assert boards[0].diagnostics == ()


def test_pn_trailing_comma_is_tolerated() -> None:
    b = one(f"pn|a,b,c,d,|md|1{MD3}|")
    assert (b.tag("South"), b.tag("East"), b.diagnostics) == ("a", "d", ())


def test_pn_with_a_wrong_number_of_names_is_t101_and_the_names_are_used() -> None:
    text = f"pn|a,b,c|md|1{MD3}|"
    b = one(text)
    assert codes(b) == [("T101", 1, 1)]
    assert b.diagnostics[0].message == "pn value 'a,b,c' is not valid: 3 names, not 4 or 8 (S, W, N, E per table)"
    assert (b.tag("South"), b.tag("North"), b.tag("East")) == ("a", "c", None)


def test_pn_of_eight_names_inside_a_table_is_taken_by_room() -> None:
    # deal-convert writes the 8-name list again in every table
    opened, closed = parse_lin_text(f"qx|o1|pn|a,b,c,d,e,f,g,h|md|1{MD3}|qx|c1|pn|a,b,c,d,e,f,g,h|md|1{MD3}|")
    assert (opened.tag("South"), closed.tag("South"), closed.tag("East")) == ("a", "e", "h")


def test_pw_with_a_wrong_number_of_names_is_t101_in_file_diagnostics() -> None:
    boards, file_diags = read(["pw|a,b,c,d,e|", f"qx|o1|md|1{MD3}|"])
    assert [(d.code, d.line, d.column) for d in file_diags] == [("T101", 1, 1)]
    assert boards[0].tag("South") == "a"


def test_md_with_only_a_dealer_digit_has_a_dealer_but_no_deal() -> None:
    b = one("md|3,,,|mb|p|")
    assert (b.dealer, b.deal, b.tag("Deal"), b.tag("Dealer")) == (Seat.NORTH, None, None, "N")
    assert str(b.auction) == "Pass"


def test_ah_with_a_bare_number_and_a_title_without_one() -> None:
    assert one(f"md|1{MD3}|ah|12|").number == 12
    b = one(f"md|1{MD3}|ah|Final, segment 3|")
    assert (b.number, b.diagnostics) == (None, ())


def test_bad_qx_is_t101() -> None:
    text = f"qx|x9|md|1{MD3}|"
    b = one(text)
    assert codes(b) == [("T101", 1, 1)]
    assert b.diagnostics[0].message == "qx value 'x9' is not valid: not o<n> or c<n>"
    assert (b.number, b.tag("Room")) == (None, None)


def test_mc_gives_the_result_tag() -> None:
    b = one(f"md|1{MD3}|mb|7S|mb|p|mb|p|mb|p|pc|HA|mc|12|")
    assert (b.play.claim, b.result, b.tag("Result")) == (12, 12, "12")


def test_the_last_claim_counts() -> None:
    assert one(f"md|1{MD3}|mc|9|mc|10|").play.claim == 10


def test_up_takes_back_the_last_card_with_an_f012_note() -> None:
    text = f"md|1{MD3}|mb|7S|mb|p|mb|p|mb|p|pc|HA|pc|C2|up||pc|C3|"
    b = one(text)
    assert b.play.cards == (Card.parse("HA"), Card.parse("C3"))
    assert b.play.spans == (Span(1, col(text, "pc|HA")), Span(1, col(text, "pc|C3")))
    assert codes(b) == [("F012", 1, col(text, "up||"))]
    d = b.diagnostics[0]
    assert (str(d.severity), d.message) == ("info", "'up||' takes back C2")


def test_up_with_a_count_takes_back_calls() -> None:
    b = one(f"md|1{MD3}|mb|1S|mb|2S|mb|3S|up|2|mb|p|")
    assert str(b.auction) == "1S Pass"
    assert b.diagnostics[0].message == "'up|2|' takes back 2S 3S"


def test_up_takes_back_a_claim_first() -> None:
    b = one(f"md|1{MD3}|mb|7S|mb|p|mb|p|mb|p|pc|HA|mc|13|up|1|")
    assert (b.play.cards, b.play.claim, b.result) == ((Card.parse("HA"),), None, None)
    assert b.diagnostics[0].message == "'up|1|' takes back the claim of 13"


def test_bad_up_values_are_t101() -> None:
    text = f"md|1{MD3}|mb|1S|up|x|"
    b = one(text)
    assert codes(b) == [("T101", 1, col(text, "up|x|"))]
    assert b.diagnostics[0].message == "up value 'x' is not valid: not a number of actions to take back"
    assert str(b.auction) == "1S"
    text = f"md|1{MD3}|mb|1S|up|3|"
    b = one(text)
    assert [(d.code, d.column) for d in b.diagnostics] == [("F012", col(text, "up|3|")), ("T101", col(text, "up|3|"))]
    assert b.diagnostics[1].message == "up value '3' is not valid: only 1 action(s) to take back"
    assert b.auction is None


def test_display_commands_keep_nothing() -> None:
    b = one(f"st||md|1{MD3}|rh||sk|NESW|pf|y|pg||pg||")
    assert (b.extra, b.diagnostics, b.commentary) == ((), (), ())


def test_unknown_command_is_kept_with_an_f007_note() -> None:
    text = f"md|1{MD3}|ZZ|raw value|mb|1S|hc|x|"
    b = one(text)
    assert b.extra == (("ZZ", "raw value"), ("hc", "x"))
    assert codes(b) == [("F007", 1, col(text, "ZZ|")), ("F007", 1, col(text, "hc|"))]
    d = b.diagnostics[0]
    assert (str(d.severity), d.message) == ("info", "unknown LIN command 'ZZ' kept")
    from handrec.diagnostics import CODES

    assert CODES["F007"].strict  # shown by `handrec validate` only under --strict
    assert str(b.auction) == "1S"


def test_unknown_command_in_a_vugraph_header_goes_to_the_first_record() -> None:
    boards, file_diags = read(["vg|E,S,I,1,1,A,0,B,0|xy|1|", f"qx|o1|md|1{MD3}|", f"qx|c1|md|1{MD3}|"])
    assert [b.extra for b in boards] == [(("xy", "1"),), ()]
    assert [(d.code, d.line, d.column) for d in file_diags] == [("F007", 1, 22)]


def test_bn_with_a_bad_entry_is_t101() -> None:
    boards, file_diags = read(["bn|1,x2|", f"qx|o|md|1{MD3}|"])
    assert [(d.code, d.line, d.column) for d in file_diags] == [("T101", 1, 1)]
    assert file_diags[0].message == "bn value '1,x2' is not valid: 'x2' is not a board number"
    assert boards[0].number == 1


def test_mp_scores_are_checked_and_not_kept() -> None:
    boards, file_diags = read(["mp|12.5,-3,,.5|", f"qx|o1|md|1{MD3}|"])
    assert file_diags == [] and boards[0].tag("Score") is None
    _, file_diags = read(["mp|12,abc|", f"qx|o1|md|1{MD3}|"])
    assert [(d.code, d.line, d.column) for d in file_diags] == [("T101", 1, 1)]
    assert file_diags[0].message == "mp value '12,abc' is not valid: 'abc' is not a number"


# --- quirks of real files (lin.md §10) ------------------------------------------------------


def test_trailing_pipe_is_an_f011_warning() -> None:
    text = f"md|1{MD3}|mb|p|pg|||"
    b = one(text)
    assert codes(b) == [("F011", 1, len(text))]
    assert str(b.auction) == "Pass"


def test_a_run_of_stray_pipes_is_one_f011() -> None:
    text = f"md|1{MD3}|pc|SA|||pc|SK|"
    b = one(text)
    assert codes(b) == [("F011", 1, col(text, "|||") + 1)]
    assert b.diagnostics[0].message == "stray '||' ignored"


def test_ten_for_t_and_any_case_in_calls_and_cards() -> None:
    b = one("md|1s10h10d10c10,,,|mb|1n|mb|P|mb|D!|mb|r|pc|s10|pc|H10|pc|d10|pc|Ct|")
    assert str(b.deal[Seat.SOUTH]) == "T.T.T.T"
    assert str(b.auction) == "1NT Pass X XX" and b.auction.calls[2].alert
    assert str(b.play) == "ST HT DT CT"
    assert b.diagnostics == ()


def test_crlf_and_records_split_over_lines() -> None:
    text = f"pn|a,b,c,d|st||\r\nmd|1{MD3}|\r\nsv|b|\r\nmb|p|mb|p|\r\nmb|p|mb|p|pg||\r\n"
    b = one(text)
    assert (b.tag("South"), b.vulnerable, str(b.auction), b.origin.line) == (
        "a",
        Vulnerability.BOTH,
        "Pass " * 3 + "Pass",
        1,
    )
    assert [c.span for c in b.auction.calls] == [Span(4, 1), Span(4, 6), Span(5, 1), Span(5, 6)]


def test_handviewer_url_lower_case_escapes_and_other_parameters() -> None:
    url = f"http://www.bridgebase.com/tools/handviewer.html?lin=md%7c1{MD3.replace(',', '%2c')}%7cmb%7c1S%7C&b=7"
    b = one(url)
    assert (str(b.auction), b.dealer, b.diagnostics) == ("1S", Seat.SOUTH, ())


# --- vugraph: segments and the rs cross-check (lin.md §2.3, §7) ----------------------------------

PLAYED = f"md|1{MD3}|mb|7S|mb|p|mb|p|mb|p|pc|HA|mc|13|"  # South declares 7S and claims all 13


def vugraph(rs: str) -> list[str]:
    return ["vg|Cup,R1,I,1,1,A,0,B,0|", f"rs|{rs}|", f"qx|o1|{PLAYED}", f"qx|c1|{PLAYED}"]


def test_rs_agreeing_with_the_table_gives_contract_and_result() -> None:
    boards, file_diags = read(vugraph("7SS=,7SS="))
    assert file_diags == []
    for b in boards:
        assert (str(b.contract), b.declarer, b.result) == ("7S", Seat.SOUTH, 13)
        assert [d.code for d in b.diagnostics] == []


def test_rs_result_disagreeing_with_the_play_is_c506_at_the_entry() -> None:
    boards, _ = read(vugraph("7SS=,7SS-1"))
    assert boards[0].diagnostics == ()
    closed = boards[1]
    assert [(d.code, d.line, d.column) for d in closed.diagnostics] == [("C506", 2, 9)]
    assert closed.diagnostics[0].message == "rs result '7SS-1' but the auction and play give '7SS='"
    # the tags say what the file says; the typed result is left to the replay (no second report)
    assert (closed.tag("Result"), closed.result, str(closed.contract)) == ("12", None, "7S")


def test_rs_contract_disagreeing_with_the_auction_is_c506() -> None:
    boards, _ = read(vugraph("6SS+1,7HS="))
    assert [(d.code, d.line, d.column) for d in boards[0].diagnostics] == [("C506", 2, 4)]
    assert boards[0].diagnostics[0].message == "rs result '6SS+1' but the auction and play give '7SS='"
    assert [(d.code, d.line, d.column) for d in boards[1].diagnostics] == [("C506", 2, 10)]
    for b in boards:
        assert (b.contract, b.declarer, b.result) == (None, None, None)
        assert b.tag("Contract") in ("6S", "7H")


def test_rs_is_not_checked_without_auction_or_play() -> None:
    boards, _ = read(["vg|Cup,R1,I,1,1,A,0,B,0|", "rs|4HE=,PASS|", f"qx|o1|md|1{MD3}|", f"qx|c1|md|1{MD3}|"])
    assert [(str(b.contract), b.result, b.diagnostics) for b in boards] == [("4H", 10, ()), ("Pass", None, ())]


def test_a_second_vg_starts_a_new_segment_with_its_own_header() -> None:
    lines = [
        "vg|Cup,R1,I,1,1,A,0,B,0|",
        "pn|a1,a2,a3,a4,b1,b2,b3,b4|",
        f"qx|o1|md|1{MD3}|",
        "vg|Cup,R2,I,5,5,C,0,D,0|",
        "rs|PASS,|",
        "pn|c1,c2,c3,c4,d1,d2,d3,d4|",
        f"qx|o5|md|1{MD3}|",
        f"qx|c5|md|1{MD3}|",
    ]
    boards, file_diags = read(lines)
    assert file_diags == []
    assert [(b.number, b.tag("Room"), b.tag("Stage"), b.tag("HomeTeam"), b.tag("South")) for b in boards] == [
        (1, "Open", "R1", "A", "a1"),
        (5, "Open", "R2", "C", "c1"),
        (5, "Closed", "R2", "C", "d1"),
    ]
    assert [b.origin.index for b in boards] == [0, 1, 2]
    assert (str(boards[1].contract), boards[2].contract) == ("Pass", None)


def test_single_deal_records_then_a_vugraph_segment() -> None:
    lines = [f"pn|a,b,c,d|st||md|1{MD3}|ah|Board 3|", "vg|Cup,R1,I,1,1,A,0,B,0|", f"qx|o1|md|1{MD3}|"]
    boards, _ = read(lines)
    assert [(b.number, b.tag("Room"), b.tag("Event")) for b in boards] == [(3, None, None), (1, "Open", "Cup")]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=LIN_ALPHABET + "\n\t xyZ", max_size=200))
def test_the_scanner_lexes_exactly_as_larks_lexer(text: str) -> None:
    from handrec.formats.lin.lexer import _lexer, _scanner

    def tokens(lex) -> list[tuple]:
        return [(t.type, str(t), t.line, t.column, t.start_pos) for t in lex(text)]

    assert tokens(_scanner().lex) == tokens(_lexer().lex)
