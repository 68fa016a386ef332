"""A Result tag against a partial play (C507), and what follows from an impossible Result.

A play that stops before the thirteenth trick (PBN ``*`` or the record simply ends, a LIN
claim) still bounds the result: declarer keeps the tricks already won, and can add at most
the tricks not yet won by the defenders (Laws 71, 79A).  A Result outside those bounds is one
C507 error at the Result tag, and nothing is scored from it (no S601 on a Score tag computed
from that Result).  The full play keeps C503; end positions (PBN 2.1 §3.10) and claims
mid-play (LIN ``mc``) are checked the same way, without reporting a fault twice.
"""

from __future__ import annotations

import pytest

from handrec.formats.lin.reader import parse_lin_text
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.rules.validator import analyse

#: Board 1 of sample_data/club_pairs.pbn, its play cut after six tricks and ended with ``*``:
#: 2H by W; declarer won tricks 1 (DA), 2 (CA), 4 (HA), 6 (D9), the defenders 3 (SA) and 5 (H5).
PARTIAL = """% PBN 2.1
% EXPORT
%Content-type: text/x-pbn; charset=UTF-8
[Event "handrec generated"]
[Site "Generated"]
[Date "2026.11.29"]
[Board "1"]
[West "Fay"]
[North "Ann"]
[East "Gus"]
[South "Cat"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"]
[Scoring "IMP"]
[Declarer "W"]
[Contract "2H"]
[Result "0"]
[Score "NS 400"]
[Auction "N"]
Pass 1C Pass 1H
Pass 2C Pass 2H
Pass Pass Pass
[Play "N"]
DK DA D4 D3
C3 CA C2 C8
S3 SK SA S2
H3 H9 HK HA
H5 C4 H4 H2
D5 D6 D7 D9
*
"""
RESULT_LINE = 18


def found(text: str, path: str = "t.pbn") -> list[tuple[str, int, int, str]]:
    (board,) = parse_pbn_text(text, path)
    return [(d.code, d.line, d.column, d.message) for d in analyse(board).diagnostics]


def with_result(result: str, score: str) -> str:
    return PARTIAL.replace('[Result "0"]', f'[Result "{result}"]').replace('[Score "NS 400"]', f'[Score "{score}"]')


def c507(value: str, line: int = RESULT_LINE) -> tuple[str, int, int, str]:
    message = (
        f"Result {value} but declarer won 4 and the defenders 2 of the 6 tricks played: the result can only be 4 to 11"
    )
    return ("C507", line, 1, message)


@pytest.mark.parametrize(
    ("result", "score"),
    [
        ("0", "NS 400"),  # the user's file: a Score computed from the impossible Result agrees with it
        ("3", "NS 250"),
        ("12", "NS -230"),
        ("13", "NS 400"),  # a Score that agrees with nothing: still only the one error
        ("13", "NS -260"),
    ],
)
def test_impossible_result_after_partial_play(result: str, score: str) -> None:
    assert found(with_result(result, score)) == [c507(result)]
    (board,) = parse_pbn_text(with_result(result, score), "t.pbn")
    r = analyse(board).replay
    assert r.result is None and r.score_ns is None  # an impossible result is not scored


@pytest.mark.parametrize(("result", "score"), [("4", "NS 200"), ("8", "NS -110"), ("11", "NS -200")])
def test_possible_results_after_partial_play(result: str, score: str) -> None:
    text = with_result(result, score)
    assert found(text) == []
    (board,) = parse_pbn_text(text, "t.pbn")
    r = analyse(board).replay
    assert r.result == int(result) and r.score_ns == int(score.split()[1])


def test_possible_result_with_a_wrong_score_is_s601() -> None:
    text = with_result("9", "NS 400")
    assert found(text) == [("S601", 19, 1, "Score NS 400 but 2H by W taking 9 tricks scores NS -140")]


def test_play_without_end_marker_and_side_forms_of_result() -> None:
    text = with_result("0", "NS 400").replace("D5 D6 D7 D9\n*\n", "D5 D6 D7 D9\n")
    assert found(text) == [c507("0")]

    # the declaring side's and the defenders' forms (import format), as the file writes them
    def imported(result: str, score: str) -> str:
        return with_result(result, score).replace("% EXPORT\n", "%\n")

    assert found(imported("NS 13", "NS 400")) == [c507("NS 13")]
    assert found(imported("EW 13", "NS -260")) == [c507("EW 13")]
    assert found(imported("^0", "NS 400")) == [c507("^0")]
    assert found(imported("NS 4", "NS -140")) == []  # E-W 9


def test_incomplete_trick_and_unknown_cards() -> None:
    # a seventh trick of one card (W led, N is next: "+") decides nothing
    text = with_result("11", "NS -200").replace("D5 D6 D7 D9\n*", "D5 D6 D7 D9\n+ - - S4")
    assert found(text) == []
    assert found(text.replace('"11"', '"12"').replace('"NS -200"', '"NS -230"')) == [c507("12")]
    # a seventh trick with unknown cards has no known winner
    text = with_result("12", "NS -230").replace("D5 D6 D7 D9\n*", "D5 D6 D7 D9\nSJ - - S4\n*")
    message = "Result 12 but declarer won 4 and the defenders 2 of the 7 tricks played: the result can only be 4 to 11"
    assert found(text) == [("C507", RESULT_LINE, 1, message)]
    unknown = with_result("12", "NS -230").replace("D5 D6 D7 D9", "D5 - D7 D9")
    # declarer won 3 (trick 6's winner is unknown), the defenders 2: 3 to 11
    message = "Result 12 but declarer won 3 and the defenders 2 of the 6 tricks played: the result can only be 3 to 11"
    assert found(unknown) == [("C507", RESULT_LINE, 1, message)]
    assert found(unknown.replace('"12"', '"3"').replace('"NS -230"', '"NS 250"')) == []


#: Tricks 7-13 of the board as sample_data/club_pairs.pbn records them (declarer ends with 9).
REST = "SJ S6 S8 S5\nD2 DT H6 H8\nC6 S7 ST SQ\nCJ CT H7 HQ\nD8 S9 HT S4\nDJ CQ C7 C9\nDQ CK C5 HJ"


def test_full_play_keeps_c503() -> None:
    text = with_result("12", "NS -230").replace("D5 D6 D7 D9\n*", "D5 D6 D7 D9\n" + REST)
    # the full play gives the result: C503, and the Score is checked against the play's 9 tricks
    assert found(text) == [
        ("C503", RESULT_LINE, 1, "Result 12 but declarer took 9 tricks in the play"),
        ("S601", RESULT_LINE + 1, 1, "Score NS -230 but 2H by W taking 9 tricks scores NS -140"),
    ]
    assert found(with_result("9", "NS -140").replace("D5 D6 D7 D9\n*", "D5 D6 D7 D9\n" + REST)) == []


def test_revoke_marked_result_not_bounded() -> None:
    # ^R: an established revoke (Law 64 moves tricks after the play): the Result gives the outcome.
    # E discards CK to trick 6 while holding DT (the card the test marked before, C4 at trick 5,
    # was a legal discard by a hand void in hearts: now P409, issue #18 case 6)
    text = with_result("3", "NS 250").replace("D5 D6 D7 D9", "D5 ^R CK D7 D9")
    assert [c for c, *_ in found(text)] == []
    legal = with_result("3", "NS 250").replace("H5 C4 H4 H2", "H5 ^R C4 H4 H2")
    assert [c for c, *_ in found(legal)] == ["P409"]


# --- end positions (PBN 2.1 §3.10) -----------------------------------------------------------

#: 12 cards a hand, hearts, W on lead; five tricks (2-6) shown: N-S win all five.
END = (
    '[Deal "N:.6.AKQ987.A9732 A865.KQ5.T.QJT6 J97.J98742.3.K4 QT2.AT.J6542.85"]\n[Contract "H"]\n'
    '{declarer}[Play "W"]\nC5 C2 C6 CK\nS2 H6 S5 S7\nC8 CA CT C4\nD2 DA DT D3\nD4 DK H5 H7\n'
)


def test_end_position_bounds_the_result_when_declarer_is_known() -> None:
    text = END.format(declarer='[Declarer "S"]\n[Result "4"]\n')
    message = "Result 4 but declarer won 5 and the defenders 0 of the 5 tricks played: the result can only be 5 to 13"
    assert found(text) == [
        ("D204", 1, 1, "the deal gives 48 of 52 cards; rules checks that need the full deal are skipped"),
        ("C507", 4, 1, message),
    ]
    assert [c for c, *_ in found(END.format(declarer='[Declarer "S"]\n[Result "9"]\n'))] == ["D204"]
    # E declares: E-W won none of the five tricks, so E-W can take at most 8
    text = END.format(declarer='[Declarer "E"]\n[Result "9"]\n')
    message = "Result 9 but declarer won 0 and the defenders 5 of the 5 tricks played: the result can only be 0 to 8"
    assert found(text)[1:] == [("C507", 4, 1, message)]


def test_end_position_without_declarer_is_not_bounded() -> None:
    assert [c for c, *_ in found(END.format(declarer='[Result "1"]\n'))] == ["D204"]


def test_end_position_player_on_lead_is_not_the_opening_leader() -> None:
    # PBN 2.1 §3.10: the Play tag names the player on lead, whoever declares: no P403
    for seat in "NESW":
        text = END.format(declarer=f'[Declarer "{seat}"]\n')
        assert [c for c, *_ in found(text)] == ["D204"], seat


# --- LIN: claims mid-play and rs results -----------------------------------------------------

MD = "md|3SKT64HDAQ983CJ874,SAQ932HKJ8654DCAK,SJHAT7DK7642CQT65,S875HQ932DJT5C932|"
AUCTION = "mb|p|mb|p|mb|p|mb|1H|mb|p|mb|p|mb|p|"
#: 1H by W: trick 1 N DK, E D5, S D3, W ruffs H4; trick 2 W SA, N SJ, E S5, S S4: declarer won both.
PLAY = "pc|DK|pc|D5|pc|D3|pc|H4|pc|SA|pc|SJ|pc|S5|pc|S4|"


def lin_found(text: str) -> list[tuple[str, int, int, str]]:
    (board,) = parse_lin_text(text, "t.lin")
    return [(d.code, d.line, d.column, d.message) for d in analyse(board).diagnostics]


def test_lin_impossible_claim_is_reported_once() -> None:
    text = f"pn|a,b,c,d|{MD}sv|o|{AUCTION}{PLAY}mc|0|"
    col = text.index("mc|0|") + 1  # at the claim (its mc pair)
    assert lin_found(text) == [("P405", 1, col, "claim of 0 tricks is impossible: declarer has already won 2")]
    (board,) = parse_lin_text(text, "t.lin")
    r = analyse(board).replay
    assert r.result is None and r.score_ns is None  # the claim (and the Result it gives) is not scored


def test_lin_claim_mid_play() -> None:
    text = f"pn|a,b,c,d|{MD}sv|o|{AUCTION}{PLAY}mc|9|"
    assert lin_found(text) == []
    (board,) = parse_lin_text(text, "t.lin")
    r = analyse(board).replay
    assert r.result == 9 and r.score_ns == -140


def test_lin_rs_result_against_partial_play() -> None:
    vg = "vg|Cup,R1,P,1,1,A,0,B,0|"
    ok = f"{vg}rs|1HW=,|pn|a,b,c,d|qx|o1|{MD}sv|o|{AUCTION}{PLAY}"
    assert lin_found(ok) == []
    bad = f"{vg}rs|1HW-6,|pn|a,b,c,d|qx|o1|{MD}sv|o|{AUCTION}{PLAY}"
    message = "Result 1 but declarer won 2 and the defenders 0 of the 2 tricks played: the result can only be 2 to 13"
    assert lin_found(bad) == [("C507", 1, 28, message)]  # at the rs entry "1HW-6" (1-based column)
