"""The replay engine on hand-built boards: one test per fault kind, with exact positions.

Boards start at file line 10 (``Origin(path="t.pbn", line=10)``); spans are
block-relative, so a tag on block line 5 is reported at file line 14.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handrec.diagnostics import CODES
from handrec.model import (
    ALL_CARDS,
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    Origin,
    Play,
    Seat,
    Span,
    Strain,
    Tag,
    Vulnerability,
    trick_winner,
)
from handrec.rules.auction import AuctionState
from handrec.rules.board import dealer_for_board, vulnerability_for_board
from handrec.rules.play import PlayState
from handrec.rules.replay import Replay, Trick, parse_score_tag, replay
from handrec.scoring.duplicate import score_ns

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
ORIGIN = Origin(path="t.pbn", line=10)
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"

# Block layout (block-relative lines):
TAG_LINES = {
    "Event": 1,
    "Board": 2,
    "Dealer": 3,
    "Vulnerable": 4,
    "Deal": 5,
    "Declarer": 6,
    "Contract": 7,
    "Result": 8,
    "Score": 9,
    "Auction": 10,  # calls on lines 11.., four per line at columns 1, 6, 11, 16
    "Play": 20,  # cards on lines 21.., one trick per line, columns 1, 4, 7, 10 by seat from the Play tag
}


def calls_with_spans(text: str) -> tuple[Call, ...]:
    out = []
    for i, t in enumerate(text.split()):
        c = Call.parse(t)
        out.append(replace(c, span=Span(11 + i // 4, 1 + 5 * (i % 4))))
    return tuple(out)


def standard_play() -> tuple[Card, ...]:
    """13 legal tricks of DEAL in 7NT by S (W leads; N wins everything)."""
    state = PlayState(Deal.parse(DEAL), Contract.parse("7NT", declarer=S))
    out = []
    while not state.is_complete:
        legal = state.legal_cards()
        c = legal[0] if state.next_seat == N else legal[-1]
        state.play(c)
        out.append(c)
    return tuple(out)


def play_with_spans(leader: Seat, cards: tuple[Card | None, ...], contract: Contract) -> Play:
    """Play with PBN-like spans: trick k on line 21+k, column by seat relative to ``leader``."""
    spans = []
    lead = leader
    trick: list[Card | None] = []
    for i, c in enumerate(cards):
        seat = Seat((lead + len(trick)) % 4)
        spans.append(Span(21 + i // 4, 1 + 3 * ((seat - leader) % 4)))
        trick.append(c)
        if len(trick) == 4:
            if all(x is not None for x in trick):
                lead = trick_winner(lead, trick, contract.trump)  # type: ignore[arg-type]
            trick = []
    return Play(leader, cards, spans=tuple(spans))


def make_board(
    *,
    number: int | None = 1,
    dealer: Seat | None = N,
    vulnerable: Vulnerability | None = Vulnerability.NONE,
    deal: str | None = DEAL,
    auction: str | None = "P P 7NT P P P",
    auction_dealer: Seat = N,
    ended: str | None = None,
    play: Play | None | str = "standard",
    contract: str | None = "7NT",
    declarer: Seat | None = S,
    result: int | None = 13,
    score: str | None = "NS 1520",
    play_leader: Seat = W,
) -> Board:
    tags = [Tag("Event", "", Span(1, 1))]
    tags.append(Tag("Board", str(number), Span(TAG_LINES["Board"], 1)))
    if dealer is not None:
        tags.append(Tag("Dealer", str(dealer), Span(TAG_LINES["Dealer"], 1)))
    if vulnerable is not None:
        tags.append(Tag("Vulnerable", str(vulnerable), Span(TAG_LINES["Vulnerable"], 1)))
    if deal is not None:
        tags.append(Tag("Deal", deal, Span(TAG_LINES["Deal"], 1)))
    tags.append(Tag("Declarer", "" if declarer is None else str(declarer), Span(TAG_LINES["Declarer"], 1)))
    tags.append(Tag("Contract", contract or "", Span(TAG_LINES["Contract"], 1)))
    tags.append(Tag("Result", "" if result is None else str(result), Span(TAG_LINES["Result"], 1)))
    if score is not None:
        tags.append(Tag("Score", score, Span(TAG_LINES["Score"], 1)))
    auc = None
    if auction is not None:
        tags.append(Tag("Auction", str(auction_dealer), Span(TAG_LINES["Auction"], 1)))
        auc = Auction(auction_dealer, calls_with_spans(auction), ended, span=Span(TAG_LINES["Auction"], 1))
    c = Contract.parse(contract, declarer=declarer) if contract else None
    if play == "standard":
        play = play_with_spans(play_leader, standard_play(), c or Contract.parse("7NT"))
    if play is not None:
        tags.append(Tag("Play", str(play.leader), Span(TAG_LINES["Play"], 1)))  # type: ignore[union-attr]
    return Board(
        origin=ORIGIN,
        tags=tuple(tags),
        number=number,
        dealer=dealer,
        vulnerable=vulnerable,
        deal=None if deal is None else Deal.parse(deal),
        auction=auc,
        play=play,  # type: ignore[arg-type]
        contract=c,
        declarer=declarer,
        result=result,
    )


def where(r: Replay) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in r.diagnostics]


# --- a clean board ---------------------------------------------------------------


def test_clean_board() -> None:
    r = replay(make_board())
    assert r.diagnostics == ()
    assert r.contract == Contract.parse("7NT", declarer=S) and r.contract_source == "auction"
    assert r.result == 13 and r.score_ns == 1520
    assert len(r.tricks) == 13 and all(isinstance(t, Trick) for t in r.tricks)
    assert r.tricks[0].leader == W and r.tricks[0].winner == N


@pytest.mark.parametrize("score", ["1520", "NS 1520", "EW -1520", "NS 1520 EW -1520", "EW -1520 NS +1520", "", "?"])
def test_score_forms_accepted(score: str) -> None:
    assert replay(make_board(score=score)).diagnostics == ()


# --- one test per fault kind, with file line and column -----------------------------


def test_revoke_P401() -> None:
    # trick 2: N leads SA; E (holding ST S9 S8 S7) plays HT instead of S7
    cards = list(standard_play())
    assert [str(c) for c in cards[4:8]] == ["SA", "S7", "S3", "S2"]
    cards[5] = Card.parse("HT")
    r = replay(make_board(play=play_with_spans(W, tuple(cards), Contract.parse("7NT")), result=None, score=None))
    # trick 2 is on block line 22; E sits two seats after the Play tag's W -> column 7
    assert where(r)[0] == ("P401", 10 + 22 - 1, 7)
    assert r.diagnostics[0].message == "E played HT to a spade lead while holding ST S9 S8 S7"


def test_card_not_held_P402() -> None:
    cards = list(standard_play())
    cards[3] = Card.parse("SK")  # S plays N's SK to trick 1
    r = replay(make_board(play=play_with_spans(W, tuple(cards), Contract.parse("7NT"))))
    assert where(r)[0] == ("P402", 10 + 21 - 1, 10)
    assert r.diagnostics[0].message == "S played SK, which is not in that hand"


def test_wrong_leader_P403() -> None:
    b = make_board(play=play_with_spans(N, standard_play(), Contract.parse("7NT")))
    r = replay(b)
    assert where(r)[0] == ("P403", 10 + 20 - 1, 1)
    assert r.diagnostics[0].message == (
        "the play starts with N; the opening leader is W"
        " (read as led by W the cards fit the hands: that reading is not kept)"
    )
    # issue #18: the record's reading (N led) is kept, never the other one; its count is no result
    assert r.tricks[0].leader == N and r.play_status == "from_tags"


def test_play_after_end_P404() -> None:
    cards = standard_play() + (Card.parse("SA"),)
    r = replay(make_board(play=play_with_spans(W, cards, Contract.parse("7NT"))))
    assert where(r) == [("P404", 10 + 34 - 1, 4)]  # N, the last winner, would lead


def test_impossible_claim_P405() -> None:
    cards = standard_play()[:4]
    p = play_with_spans(W, cards, Contract.parse("7NT"))
    r = replay(make_board(play=replace(p, claim=0), result=0, score=None))
    assert [d.code for d in r.diagnostics] == ["P405"]  # the Result repeats the claim: not C507 too
    assert (r.diagnostics[0].line, r.diagnostics[0].column) == (10 + 21 - 1, 10)  # last card
    assert r.result is None  # the impossible claim is not scored
    r = replay(make_board(play=replace(p, claim=0), result=13))
    assert [d.code for d in r.diagnostics] == ["P405"]
    assert r.result == 13 and r.score_ns == 1520  # falls back to a possible Result tag


def test_claim_gives_result() -> None:
    cards = standard_play()[:5]
    p = play_with_spans(W, cards, Contract.parse("7NT"))
    r = replay(make_board(play=replace(p, claim=13)))
    assert r.diagnostics == () and r.result == 13 and r.score_ns == 1520


def test_insufficient_bid_A301() -> None:
    r = replay(make_board(auction="P P 7NT 1C P P P"))
    # call index 3 is on auction line 1 (block line 11), column 16
    assert where(r) == [("A301", 20, 16)]
    assert r.diagnostics[0].message == "1C by W does not outrank 7NT"
    assert r.contract == Contract.parse("7NT", declarer=S)


def test_illegal_double_A302() -> None:
    r = replay(make_board(auction="P P 7NT P X P P"))
    assert where(r) == [("A302", 21, 1)]


def test_illegal_redouble_A303() -> None:
    b = make_board(auction="P P 7NT X P XX P P", contract="7NTX", score="NS 1790")
    r = replay(b)
    assert where(r) == [("A303", 21, 6)]
    assert r.contract == Contract(7, Strain.NOTRUMP, Doubling.DOUBLED, S) and r.score_ns == 1790


def test_call_after_end_A304() -> None:
    r = replay(make_board(auction="P P 7NT P P P P"))
    assert where(r) == [("A304", 21, 11)]


def test_unfinished_auction_A305_and_tags() -> None:
    r = replay(make_board(auction="P P 7NT P"))
    assert where(r) == [("A305", 20, 16)]
    assert r.contract_source == "tags" and r.contract == Contract.parse("7NT", declarer=S)
    r = replay(make_board(auction="P P 7NT P", ended="*"))
    assert r.diagnostics == () and r.contract_source == "tags"


def test_contract_tag_disagrees_C501() -> None:
    r = replay(make_board(contract="6NT"))
    assert where(r) == [("C501", 16, 1)]
    assert r.diagnostics[0].message == "Contract 6NT but the auction ends in 7NT"
    assert r.contract == Contract.parse("7NT", declarer=S)


def test_contract_tag_doubling_C501() -> None:
    r = replay(make_board(contract="7NTX"))
    assert [d.code for d in r.diagnostics] == ["C501"]


def test_declarer_tag_disagrees_C502() -> None:
    r = replay(make_board(declarer=N, play=None))
    assert where(r) == [("C502", 15, 1)]
    assert r.diagnostics[0].message == "Declarer N but S first named NT for the declaring side"


def test_result_disagrees_C503() -> None:
    r = replay(make_board(result=12))
    assert where(r) == [("C503", 17, 1)]
    assert r.result == 13  # the play wins


def test_impossible_result_C504() -> None:
    r = replay(make_board(result=14, play=None))
    assert where(r) == [("C504", 17, 1)]
    assert r.result is None and r.score_ns is None


def test_result_for_passed_out_C505() -> None:
    r = replay(make_board(auction="P P P P", contract="Pass", declarer=None, result=7, score=None, play=None))
    assert where(r) == [("C505", 17, 1)]
    assert r.contract == Contract.passed_out() and r.result is None and r.score_ns == 0


def test_score_disagrees_S601() -> None:
    r = replay(make_board(score="NS 1510"))
    assert where(r) == [("S601", 18, 1)]
    assert r.diagnostics[0].message == "Score NS 1510 but 7NT by S taking 13 tricks scores NS 1520"


def test_score_declarer_view_S601() -> None:
    assert [d.code for d in replay(make_board(score="-1520")).diagnostics] == ["S601"]


def test_score_unreadable_S602() -> None:
    r = replay(make_board(score="NS lots"))
    assert where(r) == [("S602", 18, 1)]


def test_dealer_vs_board_number_T103() -> None:
    r = replay(make_board(number=2, vulnerable=Vulnerability.NS, score="NS 2220"))
    assert where(r) == [("T103", 12, 1)]
    assert r.diagnostics[0].message == "Dealer N but board 2 is dealt by E"
    assert r.diagnostics[0].severity.name == "WARNING"


def test_vulnerable_vs_board_number_T104() -> None:
    r = replay(make_board(vulnerable=Vulnerability.BOTH, score="NS 2220"))
    assert where(r) == [("T104", 13, 1)]
    assert r.score_ns == 2220  # the tag wins over the cycle


def test_T104_speaks_the_files_words() -> None:
    """PBN writes All (PBN 2.1 §3.4.10) where handrec's tables say Both; LIN's sv|b| is Both."""
    import io

    from handrec.formats.dispatch import read

    (b,) = read(io.StringIO('[Board "1"]\n[Vulnerable "All"]\n'))
    assert [d.message for d in replay(b).diagnostics] == ["Vulnerable All but board 1 is None"]
    (b,) = read(io.StringIO('[Board "5"]\n[Vulnerable "none"]\n'))
    assert [d.message for d in replay(b).diagnostics] == ["Vulnerable none but board 5 is NS"]
    (b,) = read(io.StringIO('[Board "2"]\n[Vulnerable "None"]\n[Dealer "E"]\n'))
    assert [d.message for d in replay(b).diagnostics] == ["Vulnerable None but board 2 is NS"]
    (b,) = read(io.StringIO("ah|Board 3|sv|b|\n"), format="lin")
    assert [d.message for d in replay(b).diagnostics] == ["Vulnerable Both but board 3 is EW"]


def test_vulnerability_from_board_number() -> None:
    r = replay(make_board(number=17, vulnerable=None))
    assert r.diagnostics == () and r.score_ns == 1520
    r = replay(make_board(number=4, dealer=W, vulnerable=None, auction=None, score=None))
    assert r.score_ns == 2220 and r.contract_source == "tags"
    r = replay(make_board(number=None, vulnerable=None, score=None))
    assert r.score_ns is None and r.result == 13


def test_duplicate_card_D202() -> None:
    bad = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543A"
    r = replay(make_board(deal=bad, play=None))
    assert where(r) == [("D202", 14, 1), ("D203", 14, 1)]
    assert r.diagnostics[0].message == "CA appears in more than one hand (NW)"


def test_twelve_card_hand_D201() -> None:
    bad = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543"
    r = replay(make_board(deal=bad, play=None))
    assert where(r) == [("D201", 14, 1), ("D203", 14, 1)]
    assert r.diagnostics[0].message == "W holds 12 cards, not 13"
    assert r.diagnostics[1].message == "the deal lacks C2"


def test_bad_deal_skips_holding_checks() -> None:
    bad = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543"
    r = replay(make_board(deal=bad))
    assert [d.code for d in r.diagnostics] == ["D201", "D203"] and r.result == 13


def test_no_deal_D205_and_partial_D204() -> None:
    r = replay(make_board(deal=None))  # a play without a deal
    assert where(r) == [("D205", 10, 0)]
    assert r.result == 13 and len(r.tricks) == 13  # winners still computed
    r = replay(make_board(deal=None, play=None))  # no tag is mandatory in import format
    assert r.diagnostics == ()
    partial = "N:AKQJ.AKQ.AKQ.AKQ - - 2.5432.5432.5432"
    r = replay(make_board(deal=partial))
    assert where(r) == [("D204", 14, 1)] and r.diagnostics[0].severity.name == "INFO"


def test_unreadable_deal_tag_is_not_D205() -> None:
    b = replace(make_board(deal=None), tags=make_board().tags)  # Deal tag present, value unreadable
    assert [d.code for d in replay(b).diagnostics] == []


def test_play_without_contract_P407() -> None:
    b = make_board(auction=None, contract=None, declarer=None, result=None, score=None)
    r = replay(b)
    assert where(r) == [("P407", 29, 1)] and r.contract is None and r.tricks == ()


def test_passed_out_board() -> None:
    r = replay(make_board(auction="P P P P", contract="Pass", declarer=None, result=None, score="0", play=None))
    assert r.diagnostics == () and r.contract == Contract.passed_out() and r.score_ns == 0 and r.result is None


def test_contract_from_tags_without_auction() -> None:
    r = replay(make_board(auction=None))
    assert r.diagnostics == () and r.contract_source == "tags" and r.score_ns == 1520


def test_ew_declarer_score() -> None:
    # Tags only: 3NT by E, 10 tricks, board 1 (none vul) -> NS -430
    b = make_board(auction=None, play=None, contract="3NT", declarer=E, result=10, score="EW 430")
    r = replay(b)
    assert r.diagnostics == () and r.score_ns == -430
    assert [d.code for d in replay(replace(b, tags=b.tags[:-1] + (Tag("Score", "430", Span(9, 1)),))).diagnostics] == []


def test_parse_score_tag() -> None:
    assert parse_score_tag("NS 620 EW -620") == (("NS", 620), ("EW", -620))
    assert parse_score_tag("620") == ((None, 620),)
    assert parse_score_tag("620 EW 3") is None
    assert parse_score_tag("NS") is None


def test_every_code_used_is_registered() -> None:
    for code in ["A301", "A302", "A303", "A304", "A305", "A306", "P401", "P402", "P403", "P404", "P405", "P407"]:
        assert code in CODES
    for code in ["C501", "C502", "C503", "C504", "C505", "S601", "S602", "T103", "T104"]:
        assert code in CODES
    for code in ["D201", "D202", "D203", "D204", "D205"]:
        assert code in CODES


# --- properties ---------------------------------------------------------------------


@st.composite
def random_games(draw: st.DrawFn) -> tuple[Board, int | None, Contract]:
    pack = draw(st.permutations(ALL_CARDS))
    deal = Deal(tuple(Hand(tuple(pack[13 * i : 13 * i + 13])) for i in range(4)))  # type: ignore[arg-type]
    number = draw(st.integers(1, 64))
    dealer = dealer_for_board(number)
    state = AuctionState(dealer)
    calls = []
    while not state.is_complete:
        options = state.legal_calls()
        call = options[0] if draw(st.integers(0, 3)) else draw(st.sampled_from(options))
        state.apply(call)
        calls.append(call)
    contract = state.contract
    assert contract is not None
    play = None
    tricks = None
    if not contract.is_passed_out:
        ps = PlayState(deal, contract)
        cards = []
        while not ps.is_complete:
            c = draw(st.sampled_from(ps.legal_cards()))
            ps.play(c)
            cards.append(c)
        play = Play(contract.declarer.lho, tuple(cards))  # type: ignore[union-attr]
        tricks = ps.declarer_tricks
    board = Board(
        origin=ORIGIN,
        number=number,
        dealer=dealer,
        vulnerable=vulnerability_for_board(number),
        deal=deal,
        auction=Auction(dealer, tuple(calls)),
        play=play,
    )
    return board, tricks, contract


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=100)
@given(random_games())
def test_random_legal_games_replay_cleanly(game: tuple[Board, int | None, Contract]) -> None:
    board, tricks, contract = game
    r = replay(board)
    assert r.diagnostics == ()
    assert r.contract == contract and r.result == tricks
    if contract.is_passed_out:
        assert r.score_ns == 0
    else:
        assert r.score_ns == score_ns(contract, board.vulnerable, tricks)  # type: ignore[arg-type]
        assert len(r.tricks) == 13


seats = st.none() | st.sampled_from(list(Seat))
cards_st = st.none() | st.sampled_from(ALL_CARDS)
calls_st = st.sampled_from([Call.parse(c) for c in ["P", "X", "XX", "1C", "1NT", "3H", "7NT", "2S"]]) | st.builds(
    Call, st.just(CallKind.BID), st.none() | st.integers(-1, 9), st.none() | st.sampled_from(list(Strain))
)
hands_st = st.none() | st.lists(st.sampled_from(ALL_CARDS), max_size=15, unique=True).map(lambda cs: Hand(tuple(cs)))
contracts_st = st.none() | st.builds(
    Contract, st.integers(0, 8), st.none() | st.sampled_from(list(Strain)), st.sampled_from(list(Doubling)), seats
)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(
    number=st.none() | st.integers(-3, 40),
    dealer=seats,
    vul=st.none() | st.sampled_from(list(Vulnerability)),
    hands=st.none() | st.tuples(hands_st, hands_st, hands_st, hands_st),
    auction=st.none()
    | st.builds(
        Auction,
        st.sampled_from(list(Seat)),
        st.lists(calls_st, max_size=12).map(tuple),
        st.sampled_from([None, "*", "+"]),
    ),
    play=st.none()
    | st.builds(
        Play,
        seats,
        st.lists(cards_st, max_size=60).map(tuple),
        st.none() | st.integers(-2, 15),
        st.sampled_from([None, "*"]),
        st.lists(st.none() | st.builds(Span, st.integers(1, 50), st.integers(1, 80)), max_size=5).map(tuple),
    ),
    contract=contracts_st,
    declarer=seats,
    result=st.none() | st.integers(-2, 15),
    score=st.none() | st.sampled_from(["", "?", "NS 100", "x", "-50", "EW 1 NS 1"]),
)
def test_replay_never_raises(number, dealer, vul, hands, auction, play, contract, declarer, result, score) -> None:  # type: ignore[no-untyped-def]
    tags = () if score is None else (Tag("Score", score),)
    board = Board(
        origin=ORIGIN,
        tags=tags,
        number=number,
        dealer=dealer,
        vulnerable=vul,
        deal=None if hands is None else Deal(hands),
        auction=auction,
        play=play,
        contract=contract,
        declarer=declarer,
        result=result,
    )
    r = replay(board)
    assert isinstance(r, Replay)
    assert r.result is None or 0 <= r.result <= 13
    for d in r.diagnostics:
        assert d.code in CODES and d.path == "t.pbn"


def test_declarer_tag_checked_without_contract_tag_C502() -> None:
    b = make_board(declarer=N, play=None)
    r = replay(replace(b, contract=None))
    assert where(r) == [("C502", 15, 1)]
