"""Accepted irregularities (PBN 2.1 §3.9) and end positions (PBN 2.1 §3.10), read and replayed.

Small inline PBN texts, one marker each: the accepted irregularity gives no diagnostic, and
a real, unmarked fault next to it is still reported at its exact file line and column.
Then the reference files of ``../shared/corpus`` that use them.

* ``^I`` before a bid: insufficient bid accepted (Law 27A1);
* ``^S`` in place of a call: the turn of a player skipped by an accepted call out of
  rotation (Law 29A): no call;
* ``^R`` before a card: a revoke not corrected in time (Laws 63-64): the card stands;
* ``^L`` before a card: a lead out of turn accepted (Laws 53-55): its holder led the trick;
* ``[Declarer "^S"]``: declarer and dummy swapped: S played the hand;
* ``[Contract "H"]``: an end position's denomination.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

import handrec
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.model import Board, Call, CallKind, Contract, ModelError, Play, Seat, Strain, Suit
from handrec.rules.auction import AuctionState, is_legal, replay_auction
from handrec.rules.replay import Replay, replay
from handrec.rules.validator import analyse

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

#: The deal of the PBN reference games with irregularities (W first: W N E S).
DEAL = '[Deal "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4"]'


def board(text: str) -> Board:
    boards = parse_pbn_text(text, "t.pbn")
    assert len(boards) == 1
    return boards[0]


def diags(text: str) -> list[tuple[str, int, int]]:
    """Every diagnostic of the one game of ``text`` (reader and replay): (code, line, column)."""
    return [(d.code, d.line, d.column) for d in analyse(board(text)).diagnostics]


def line_of(text: str, start: str) -> int:
    """The 1-based number of the first line of ``text`` that starts with ``start``."""
    return next(i for i, row in enumerate(text.split("\n"), 1) if row.startswith(start))


def at(text: str, line: int, token: str, nth: int = 0) -> tuple[int, int]:
    """(line, column) of the ``nth`` occurrence of ``token`` on 1-based ``line`` of ``text``."""
    row = text.split("\n")[line - 1]
    col = -1
    for _ in range(nth + 1):
        col = row.index(token, col + 1)
    return line, col + 1


def rep(text: str) -> Replay:
    return replay(board(text))


# --- model ---------------------------------------------------------------------------------


def test_call_irregular_field_and_notation() -> None:
    skipped = Call.parse("^S")
    assert skipped.kind is CallKind.PASS and skipped.irregular == "S" and skipped.is_skipped
    assert str(skipped) == "^S" and eval(repr(skipped)) == skipped  # noqa: S307
    accepted = Call.parse("1c", irregular="I")
    assert str(accepted) == "1C" and accepted.irregular == "I" and not accepted.is_skipped
    assert repr(accepted) == "Call.parse('1C', irregular='I')" and eval(repr(accepted)) == accepted  # noqa: S307
    assert accepted != Call.parse("1C") and Call.parse("Pass").irregular is None
    assert not Call.parse("Pass").is_skipped


def test_play_irregular_defaults_to_empty() -> None:
    assert Play(W).irregular == () and Play(W) == Play(W, (), None, None, (), ())


def test_end_position_contract() -> None:
    c = Contract.parse("h")
    assert (c.level, c.strain, c.is_end_position, c.is_passed_out) == (0, Strain.HEARTS, True, False)
    assert str(c) == "H" and c.trump is Suit.HEARTS and c.tricks_needed == 0
    assert c == Contract.end_position(Strain.HEARTS) and repr(c) == "Contract.parse('H')"
    nt = Contract.parse("NT", declarer=S)
    assert str(nt) == "NT" and nt.trump is None and nt.declarer is S and Contract.parse("N") == Contract.parse("NT")
    p = Contract.parse("Pass")
    assert p.is_passed_out and not p.is_end_position and str(p) == "Pass"
    assert not Contract.parse("4H").is_end_position and not Contract.parse("4H").is_passed_out
    for bad in ("HX", "HXX", "NX", "X", "8H"):
        with pytest.raises(ModelError):
            Contract.parse(bad)


# --- auction: ^I and ^S --------------------------------------------------------------------


def test_accepted_insufficient_bid_and_an_unmarked_one() -> None:
    text = '[Dealer "N"]\n[Auction "N"]\n1D ^I 1C 1S 1H\nPass Pass Pass'
    b = board(text)
    assert b.auction is not None and [c.irregular for c in b.auction.calls][:2] == [None, "I"]
    # E's 1C was accepted (no A301); W's 1H is insufficient and unmarked: A301 there, but
    # N called over it, so it stands too (Law 27A1) and ends the auction
    assert diags(text) == [("A301", *at(text, 3, "1H"))]
    r = rep(text)
    assert str(r.contract) == "1H" and r.contract.declarer is W  # type: ignore[union-attr]


def test_accepted_insufficient_bid_stands_as_the_last_bid() -> None:
    # Law 27A1: later bids must outrank the accepted 1C, not the 1D it failed to outrank
    ok = '[Dealer "N"]\n[Auction "N"]\n1D ^I 1C 1D Pass\nPass Pass'
    assert diags(ok) == []
    r = rep(ok)
    assert str(r.contract) == "1D" and r.contract.declarer is N  # type: ignore[union-attr]
    bad = '[Dealer "N"]\n[Auction "N"]\n1D ^I 1C 1C Pass\nPass Pass'
    assert diags(bad) == [("A301", *at(bad, 3, "1C", 1))]
    assert rep(bad).diagnostics[0].message == "1C by S does not outrank 1C"
    # S's unmarked 1C was called over: it stands too, and N-S first named clubs (S)
    assert str(rep(bad).contract) == "1C" and rep(bad).contract.declarer is S  # type: ignore[union-attr]


def test_skipped_turn_is_no_call() -> None:
    text = '[Dealer "N"]\n[Auction "N"]\n1H ^S Pass Pass\nPass'
    b = board(text)
    assert b.auction is not None and [str(c) for c in b.auction.calls] == ["1H", "^S", "Pass", "Pass", "Pass"]
    assert b.auction.seat_of(2) is S
    # three real passes after 1H end the auction: the ^S placeholder is not one of them
    assert diags(text) == []
    r = replay_auction(b.auction)
    assert r.complete and str(r.contract) == "1H" and r.declarer is N
    early = '[Dealer "N"]\n[Auction "N"]\n1H ^S Pass Pass\n*'
    assert diags(early) == []  # "*": no more calls known; 2 passes, not 3
    assert not replay_auction(board(early).auction).complete  # type: ignore[arg-type]


def test_skipped_turns_and_ap() -> None:
    # AP = the passes that end the auction; ^S placeholders are not passes
    b = board('[Dealer "N"]\n[Auction "N"]\n1H X ^S AP')
    assert b.auction is not None and [str(c) for c in b.auction.calls] == ["1H", "X", "^S", "Pass", "Pass", "Pass"]
    assert str(replay_auction(b.auction).contract) == "1HX"
    b = board('[Dealer "N"]\n[Auction "N"]\n^S AP')
    assert b.auction is not None and len(b.auction.calls) == 5
    assert replay_auction(b.auction).contract == Contract.passed_out()


def test_skipped_turns_shift_the_rotation() -> None:
    # W doubled out of rotation (E and S skipped): the X is W's
    good = '[Dealer "N"]\n[Auction "N"]\n3NT ^S ^S X\nPass Pass Pass'
    assert diags(good) == []
    r = rep(good)
    assert str(r.contract) == "3NTX" and r.contract.declarer is N  # type: ignore[union-attr]
    # after one ^S the X is S's, over its partner's 1H: a real A302 next to the ^S
    bad = '[Dealer "N"]\n[Auction "N"]\n1H ^S X Pass\nPass Pass'
    assert diags(bad) == [("A302", *at(bad, 3, "X"))]
    assert rep(bad).diagnostics[0].message == "double by S is not allowed: 1H was bid by the doubler's own side"


def test_bad_insufficient_marks_are_a306() -> None:
    text = '[Dealer "N"]\n[Auction "N"]\n1D ^I Pass ^Q 1H\nPass Pass Pass ^I'
    assert diags(text) == [("A306", *at(text, 3, "^I")), ("A306", *at(text, 3, "^Q")), ("A306", *at(text, 4, "^I"))]


def test_auction_state_honours_marks() -> None:
    s = AuctionState(N)
    s.apply(Call.parse("1D"))
    s.apply(Call.parse("^S"))  # E skipped
    assert s.next_seat is S and s.passes == 0
    s.apply(Call.parse("1C", irregular="I"))
    assert s.last_bid == Call.parse("1C", irregular="I") and s.last_bid_seat is S
    with pytest.raises(Exception, match="A301"):
        s.apply(Call.parse("1C"))
    assert is_legal([Call.parse("1D"), Call.parse("1C", irregular="I")], W, Call.parse("1D"))
    # an unmarked 1C that W calls over is accepted by that call (Law 27A1): 1D outranks it
    assert is_legal([Call.parse("1D"), Call.parse("1C")], W, Call.parse("1D"))
    assert not is_legal([Call.parse("1D"), Call.parse("1C")], W, Call.parse("1C"))


# --- play: ^R and ^L -----------------------------------------------------------------------

PLAY_HEAD = f'[Dealer "N"]\n{DEAL}\n[Declarer "S"]\n[Contract "5HX"]\n[Play "W"]\n'


def test_revoke_not_corrected_and_lead_out_of_turn() -> None:
    text = PLAY_HEAD + "SK H3 S4 S3\nC5 C2 ^R S5 ^L CK\nS2 H6 ^R C6 S7\n*"
    assert diags(text) == []
    b = board(text)
    assert b.play is not None and b.play.irregular[:12] == (None,) * 4 + ("L", None, None, "R") + (None,) * 3 + ("R",)
    r = replay(b)
    assert [t.leader for t in r.tricks] == [W, S, S]  # S led trick 2 out of turn (N had won trick 1)
    assert [t.winner for t in r.tricks] == [N, S, N]


def test_unmarked_revoke_next_to_a_marked_one() -> None:
    text = PLAY_HEAD + "SK H3 S4 S3\nC5 C2 ^R S5 ^L CK\nS2 H6 C6 S7\n*"
    # E still holds A86 of spades when it plays C6 to S's S7 lead: a real revoke
    assert diags(text) == [("P401", *at(text, 8, "C6"))]
    r = rep(text)
    assert [d.message for d in r.diagnostics] == ["E played C6 to a spade lead while holding SA S8 S6"]


def test_opening_lead_out_of_turn_accepted() -> None:
    text = PLAY_HEAD + "SK H3 ^L S4 S3\n*"
    assert diags(text) == []
    r = rep(text)
    assert r.tricks[0].leader is E and [str(c) for c in r.tricks[0].cards] == ["S4", "S3", "SK", "H3"]
    assert r.tricks[0].winner is N
    wrong = PLAY_HEAD.replace('[Play "W"]', '[Play "E"]') + "S4 S3 SK H3\n*"
    assert diags(wrong) == [("P403", 5, 1)]  # unmarked: E is not declarer's LHO


def test_revoke_lets_the_result_tag_include_law_64_transfers() -> None:
    # 7NT by S; the whole play; W revokes on trick 1 (Law 64A: tricks transferred after play)
    deal = '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]'
    head = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n{deal}\n[Declarer "N"]\n[Contract "7NT"]\n'
    # E leads (LHO of N); columns E S W N; W discards H5 on the spade lead holding S2
    plays = [
        "ST S3 ^R H5 SA",
        "S9 S4 S2 SK",
        "S8 S5 H4 SQ",
        "S7 S6 H3 SJ",
        "H9 H6 H2 HA",
        "HT H7 D2 HK",
        "HJ H8 D3 HQ",
        "D9 D6 D4 DA",
        "DT D7 D5 DK",
        "DJ D8 C2 DQ",
        "C9 C6 C3 CA",
        "CT C7 C4 CK",
        "CJ C8 C5 CQ",
    ]
    text = head + '[Result "13"]\n[Play "E"]\n' + "\n".join(plays)
    assert diags(text) == []
    r = rep(text)
    assert r.result == 13 and r.score_ns == 1520
    # the same revoke unmarked is P401 (W held S2)
    unmarked = text.replace("^R ", "")
    assert diags(unmarked) == [("P401", *at(unmarked, line_of(unmarked, "ST S3"), "H5"))]
    # with ^R, a Result other than the tricks won in play is not C503 (Law 64 transfers)
    assert [c for c, *_ in diags(text.replace('[Result "13"]', '[Result "12"]'))] == []


# --- declarer/dummy swap -------------------------------------------------------------------

SWAP = '[Dealer "N"]\n[Auction "N"]\n1H Pass 4H Pass\nPass Pass\n'


def test_declarer_swapped() -> None:
    text = SWAP + '[Declarer "^S"]\n[Contract "4H"]'
    b = board(text)
    assert b.declarer is S and b.declarer_swapped
    assert diags(text) == []
    r = rep(text)
    assert str(r.contract) == "4H" and r.contract.declarer is S  # type: ignore[union-attr]
    assert not board(SWAP + '[Declarer "S"]').declarer_swapped
    assert not board(SWAP + '[Declarer "^?"]').declarer_swapped


def test_declarer_swapped_faults() -> None:
    plain = SWAP + '[Declarer "S"]'
    assert diags(plain) == [("C502", 5, 1)]  # no ^: N declares by the auction
    wrong = SWAP + '[Declarer "^E"]'
    assert diags(wrong) == [("C502", 5, 1)]  # ^: the partner of N, so S
    assert rep(wrong).diagnostics[0].message == "Declarer ^E but N first named H for the declaring side"
    assert rep(wrong).contract.declarer is N  # type: ignore[union-attr]
    same = SWAP + '[Declarer "^N"]'  # a swap, yet N is the auction's declarer
    assert diags(same) == [("C502", 5, 1)]


def test_declarer_swapped_opening_leader_and_score() -> None:
    deal = '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]'
    head = (
        f'[Board "1"]\n[Vulnerable "None"]\n{deal}\n'
        + SWAP
        + '[Declarer "^S"]\n[Contract "4H"]\n[Result "10"]\n[Score "NS 420"]\n'
    )
    assert diags(head + '[Play "W"]\nS2 SA ST S3\n*') == []  # W = LHO of the actual declarer S
    text = head + '[Play "E"]\nST S3 S2 SA\n*'
    assert diags(text) == [("P403", line_of(text, "[Play"), 1)]  # E: LHO of N, who did not play
    r = rep(head)
    assert r.contract.declarer is S and r.score_ns == 420  # type: ignore[union-attr]


def test_declarer_swapped_from_tags_only() -> None:
    b = board('[Declarer "^N"]\n[Contract "1C"]')
    assert b.declarer_swapped and b.contract is not None and b.contract.declarer is N
    assert rep('[Declarer "^N"]\n[Contract "1C"]').contract.declarer is N  # type: ignore[union-attr]


# --- end positions -------------------------------------------------------------------------

END = (
    '[Deal "N:.6.AKQ987.A9732 A865.KQ5.T.QJT6 J97.J98742.3.K4 QT2.AT.J6542.85"]\n[Contract "H"]\n[Play "W"]\n'
    "C5 C2 C6 CK\nS2 H6 S5 S7\nC8 CA CT C4\nD2 DA DT D3\nD4 DK H5 H7"
)


def test_end_position() -> None:
    b = board(END)
    assert b.contract == Contract.end_position(Strain.HEARTS) and b.diagnostics == ()
    assert diags(END) == [("D204", 1, 1)]  # info: 48 of 52 cards; no P407
    r = replay(b)
    assert r.contract is not None and r.contract.is_end_position and r.contract_source == "tags"
    assert [t.number for t in r.tricks] == [2, 3, 4, 5, 6]
    assert [t.leader for t in r.tricks] == [W, S, N, N, N]
    assert [t.winner for t in r.tricks] == [S, N, N, N, S]
    assert r.score_ns is None and r.result is None


def test_end_position_with_a_revoke_and_a_score_tag() -> None:
    # E holds spades when it ruffs trick 2 (H5 on S7): a real revoke in the partial hands
    text = END.replace("S2 H6 S5 S7", "S2 H6 H5 S7").replace("D4 DK H5 H7", "D4 DK S5 H7")
    assert diags(text) == [("D204", 1, 1), ("P401", *at(text, 5, "H5"))]
    # no level, so no score to compare a Score tag with; a Result in range is kept
    scored = END.replace('[Contract "H"]', '[Contract "H"]\n[Declarer "S"]\n[Result "9"]\n[Score "NS 100"]')
    assert diags(scored) == [("D204", 1, 1)]
    r = rep(scored)
    assert r.score_ns is None and r.result == 9 and r.contract.declarer is S  # type: ignore[union-attr]
    # N-S won the five tricks shown: a Result under 5 is impossible (C507)
    assert diags(scored.replace('[Result "9"]', '[Result "4"]')) == [("D204", 1, 1), ("C507", 4, 1)]


def test_end_position_nt_spellings() -> None:
    assert board(END.replace('"H"', '"NT"')).diagnostics == ()
    b = board(END.replace('"H"', '"N"'))
    assert [d.code for d in b.diagnostics] == ["T105"] and str(b.contract) == "NT"


# --- the reference files -------------------------------------------------------------------


def read(corpus_dir: Path, name: str) -> list[Board]:
    return list(handrec.read(corpus_dir / "pbn" / name))


def test_pbn10_game_3_all_irregularities(corpus_dir: Path) -> None:
    boards = read(corpus_dir, "pbn10_reference_correct_latin1.pbn")
    b = boards[2]
    assert b.tag("Event") == "Test illegals" and b.origin.line == 106
    assert b.declarer is S and b.declarer_swapped and b.result == 5
    assert b.auction is not None
    assert [(str(c), c.irregular) for c in b.auction.calls[:8]] == [
        ("^S", "S"), ("1D", None), ("1C", "I"), ("4S", None),
        ("3NT", "I"), ("^S", "S"), ("^S", "S"), ("X", None),
    ]  # fmt: skip
    a = analyse(b)
    assert a.diagnostics == ()
    r = a.replay
    assert str(r.contract) == "5HX" and r.contract_source == "auction"
    assert r.contract.declarer is S  # type: ignore[union-attr]  # the actual declarer (^S)
    assert replay_auction(b.auction).declarer is N  # by the auction
    assert [t.leader for t in r.tricks] == [W, S, S, N, N, N, S]
    assert [t.winner for t in r.tricks] == [N, S, N, N, N, S, None]
    assert [str(t.cards[0]) for t in r.tricks] == ["SK", "CK", "S7", "CA", "DA", "DK", "H2"]
    assert r.score_ns == -1400  # 5HX down 6, not vulnerable


def test_pbn10_declarer_swap_without_deal(corpus_dir: Path) -> None:
    boards = read(corpus_dir, "pbn10_reference_correct_latin1.pbn")
    (b,) = [x for x in boards if x.origin.line == 259]
    assert b.declarer is N and b.declarer_swapped
    a = analyse(b)
    assert a.diagnostics == () and a.replay.contract.declarer is N  # type: ignore[union-attr]


def test_pbn10_no_errors_left(corpus_dir: Path) -> None:
    boards = read(corpus_dir, "pbn10_reference_correct_latin1.pbn")
    codes = [d.code for x in boards for d in analyse(x).diagnostics if d.severity.name == "ERROR"]
    assert codes == []


def test_pbn20_end_position(corpus_dir: Path) -> None:
    boards = read(corpus_dir, "pbn20_reference_score_tables.pbn")
    (b,) = [x for x in boards if x.tag("Contract") == "H"]
    a = analyse(b)
    assert [d.code for d in a.diagnostics] == ["D204"]  # info: the end position's 48 cards
    assert a.replay.contract is not None and a.replay.contract.is_end_position
    assert [t.number for t in a.replay.tricks] == [2, 3, 4, 5, 6] and a.replay.score_ns is None
    codes = [d.code for x in boards for d in analyse(x).diagnostics if d.severity.name == "ERROR"]
    assert codes == []


def test_pbn20_errors_still_reported(corpus_dir: Path) -> None:
    boards = read(corpus_dir, "pbn20_reference_errors.pbn")
    codes = collections.Counter(d.code for x in boards for d in analyse(x).diagnostics)
    # the 8 syntax errors, plus the table, tag-form and rubber-history faults the file announces
    assert codes == {"F003": 8, "T125": 7, "T127": 4, "T121": 2, "T124": 2, "T123": 1}
