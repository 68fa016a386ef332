"""Auction replay: bridge-rules.md §10.5 (A01-A19) and the fault codes A301-A306."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import Auction, Call, CallKind, Contract, Seat
from handrec.rules.auction import ALL_BIDS, AuctionState, IllegalCallError, is_legal, replay_auction

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def auction(dealer: Seat, text: str, ended: str | None = None) -> Auction:
    return Auction(dealer, tuple(Call.parse(c) for c in text.split()), ended)


# --- complete auctions: contract, declarer, dummy, opening leader -------------------

COMPLETE = [
    # id, dealer, calls, contract, declarer, dummy, leader, tricks needed
    ("A01", N, "1C 1H 1S 2D P 3H P P P", "3H", E, W, S, 9),
    ("A02", N, "1C 1H 1S 2D P 3H P 4H P P P", "4H", E, W, S, 10),
    ("A03", N, "1C 1H 1S 2D P 4D P P P", "4D", W, E, N, 10),
    ("A06", E, "1S P 2S P P P", "2S", E, W, S, 8),
    ("A09", N, "1S P 4S P P P", "4S", N, S, E, 10),
    ("A11", N, "1S P P X P P P", "1SX", N, S, E, 7),
    ("A12", N, "1H X 1S P P P", "1S", S, N, W, 7),
    ("A19-1S", N, "1S P P P", "1S", N, S, E, 7),
    ("A19-3NT", N, "3NT P P P", "3NT", N, S, E, 9),
    ("A19-4S", N, "4S P P P", "4S", N, S, E, 10),
    ("A19-7NT", N, "7NT P P P", "7NT", N, S, E, 13),
]


@pytest.mark.parametrize(
    ("dealer", "calls", "contract", "declarer", "dummy", "leader", "need"),
    [r[1:] for r in COMPLETE],
    ids=[r[0] for r in COMPLETE],
)
def test_complete_auctions(
    dealer: Seat, calls: str, contract: str, declarer: Seat, dummy: Seat, leader: Seat, need: int
) -> None:
    r = replay_auction(auction(dealer, calls))
    assert r.complete and r.faults == ()
    assert r.contract == Contract.parse(contract, declarer=declarer)
    assert (r.declarer, r.dummy, r.opening_leader) == (declarer, dummy, leader)
    assert r.contract is not None and r.contract.tricks_needed == need


def test_A03_first_namer_index() -> None:
    r = replay_auction(auction(N, "1C 1H 1S 2D P 4D P P P"))
    assert r.first_call == 3  # W's 2D


@pytest.mark.parametrize("dealer", list(Seat), ids=[f"A10-{s}" for s in Seat])
def test_A10_passed_out(dealer: Seat) -> None:
    r = replay_auction(auction(dealer, "P P P P"))
    assert r.complete and r.passed_out and r.contract == Contract.passed_out()
    assert r.declarer is None and r.faults == ()


def test_A11_double_restarts_the_pass_count() -> None:
    r = replay_auction(auction(N, "1S P P X P P", ended="*"))
    assert not r.complete and r.contract is None and r.faults == ()
    state = AuctionState(N)
    for c in "1S P P X P P".split():
        state.apply(Call.parse(c))
    assert not state.is_complete and state.next_seat == S
    state.apply(Call.parse("P"))
    assert state.contract == Contract.parse("1SX", declarer=N)


# --- legality of one call ---------------------------------------------------------

LEGALITY = [
    # id, dealer, calls so far, seat, call, legal
    ("A04-1D", N, "1S", E, "1D", False),
    ("A04-2D", N, "1S", E, "2D", True),
    ("A05-3C", N, "3H", E, "3C", False),
    ("A05-3D", N, "3H", E, "3D", False),
    ("A05-3H", N, "3H", E, "3H", False),
    ("A05-3S", N, "3H", E, "3S", True),
    ("A05-3NT", N, "3H", E, "3NT", True),
    ("A05-4C", N, "3H", E, "4C", True),
    ("A05-7NT", N, "3H", E, "7NT", True),
    ("A05-X", N, "3H", E, "X", True),
    ("A07-1S", N, "1H", E, "1S", True),
    ("A07-1C", N, "1H", E, "1C", False),
    ("A07-2C", N, "1H", E, "2C", True),
    ("A08", N, "2H X", S, "2S", True),
    ("A13", N, "1H P", S, "X", False),
    ("A14", N, "1H X P", W, "X", False),
    ("A15", N, "1H X", S, "XX", True),
    ("A15b", N, "1H X P", W, "XX", False),
    ("A16", N, "1H X P P", N, "XX", True),
    ("A17", N, "1H P P", W, "X", True),
    ("A18", N, "P P P 1C", N, "1D", True),
]


@pytest.mark.parametrize(
    ("dealer", "before", "seat", "call", "legal"), [r[1:] for r in LEGALITY], ids=[r[0] for r in LEGALITY]
)
def test_legality(dealer: Seat, before: str, seat: Seat, call: str, legal: bool) -> None:
    calls = [Call.parse(c) for c in before.split()]
    assert is_legal(calls, seat, Call.parse(call), dealer=dealer) is legal
    assert is_legal(calls, seat, Call.parse(call)) is legal  # dealer inferred from rotation
    state = AuctionState(dealer)
    for c in calls:
        state.apply(c)
    assert state.next_seat == seat
    assert state.is_legal(Call.parse(call)) is legal
    assert (Call.parse(call) in state.legal_calls()) is legal


def test_A05_all_bids_above_3H() -> None:
    state = AuctionState(N)
    state.apply(Call.parse("3H"))
    bids = [c for c in state.legal_calls() if c.is_bid]
    assert [str(b) for b in bids[:3]] == ["3S", "3NT", "4C"] and str(bids[-1]) == "7NT"
    assert len(bids) == 35 - 13


LEGAL_FAULTS = [
    ("A301", N, "1S 1D", "A301", 1),
    ("A302-partner", N, "1H P X", "A302", 2),
    ("A302-nobid", N, "X", "A302", 0),
    ("A302-doubled", N, "1H X P X", "A302", 3),
    ("A303-own-side", N, "1H X P XX", "A303", 3),
    ("A303-no-double", N, "1H XX", "A303", 1),
    ("A303-twice", N, "1H X XX P P XX", "A303", 5),
]


@pytest.mark.parametrize(
    ("dealer", "calls", "code", "index"), [r[1:] for r in LEGAL_FAULTS], ids=[r[0] for r in LEGAL_FAULTS]
)
def test_illegal_call_reported_and_skipped(dealer: Seat, calls: str, code: str, index: int) -> None:
    r = replay_auction(auction(dealer, calls, ended="*"))
    assert [(f.code, f.index) for f in r.faults] == [(code, index)]


def test_A301_message_args_and_acceptance() -> None:
    # E's 1D is reported, but S called over it: accepted, it stands (Law 27A1), and the
    # auction ends on 1D by E
    r = replay_auction(auction(N, "1S 1D P P P"))
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [
        ("A301", 1, {"call": "1D", "seat": "E", "previous": "1S"})
    ]
    assert r.complete and r.contract == Contract.parse("1D", declarer=E)


def test_A301_last_call_is_skipped() -> None:
    # nobody called over W's 1D: not accepted, so not made; the record stops short (A305)
    r = replay_auction(auction(N, "1S P P 1D"))
    assert [(f.code, f.index) for f in r.faults] == [("A301", 3), ("A305", 3)]
    assert not r.complete and r.contract is None


def test_A302_reason() -> None:
    r = replay_auction(auction(N, "1H P X P P P"))
    f = r.faults[0]
    assert f.code == "A302" and f.kwargs["seat"] == "S" and "own side" in str(f.kwargs["reason"])
    assert r.contract == Contract.parse("1H", declarer=N)


def test_A304_calls_after_end() -> None:
    r = replay_auction(auction(N, "1S P P P P 2H"))
    assert [(f.code, f.index, f.kwargs) for f in r.faults] == [
        ("A304", 4, {"call": "Pass", "seat": "N"}),
        ("A304", 5, {"call": "2H", "seat": "E"}),
    ]
    assert r.contract == Contract.parse("1S", declarer=N)


def test_A304_after_pass_out() -> None:
    r = replay_auction(auction(N, "P P P P 1C"))
    assert [(f.code, f.index) for f in r.faults] == [("A304", 4)] and r.passed_out


@pytest.mark.parametrize(("ended", "codes"), [(None, ["A305"]), ("*", []), ("+", [])], ids=["none", "star", "plus"])
def test_A305_unfinished(ended: str | None, codes: list[str]) -> None:
    r = replay_auction(auction(N, "1S P 2S", ended=ended))
    assert not r.complete and r.contract is None
    assert [f.code for f in r.faults] == codes
    if codes:
        assert r.faults[0].index == 2 and r.faults[0].kwargs == {"count": 3, "s": "s"}


def test_A305_message_counts_one_call() -> None:
    from handrec.diagnostics import make

    (f,) = replay_auction(auction(N, "1S")).faults
    assert str(make(f.code, None, None, path="x.pbn", **f.kwargs)) == (
        "x.pbn: A305 warning: the auction is not finished (1 call)"
    )


def test_A305_empty_auction() -> None:
    r = replay_auction(Auction(N, ()))
    assert [(f.code, f.index) for f in r.faults] == [("A305", None)]


def test_A306_malformed_bid() -> None:
    r = replay_auction(Auction(N, (Call(CallKind.BID, 8, None), Call.parse("P")), "*"))
    assert [f.code for f in r.faults] == ["A306"]


def test_apply_raises() -> None:
    state = AuctionState(N)
    state.apply(Call.parse("1S"))
    with pytest.raises(IllegalCallError) as e:
        state.apply(Call.parse("1D"))
    assert e.value.code == "A301"
    assert state.next_seat == E and state.last_bid_rank == Call.parse("1S").rank


def test_new_bid_cancels_double() -> None:
    r = replay_auction(auction(N, "1H X XX 2C P P P"))
    assert r.contract == Contract.parse("2C", declarer=W)  # undoubled


def test_redoubled_contract() -> None:
    r = replay_auction(auction(W, "1NT X XX P P P"))
    assert r.contract == Contract.parse("1NTXX", declarer=W)


def test_all_bids_ranked() -> None:
    assert [b.rank for b in ALL_BIDS] == list(range(35))


# --- property: random legal auctions replay without faults -------------------------


@st.composite
def legal_auctions(draw: st.DrawFn) -> tuple[Auction, Contract]:
    dealer = draw(st.sampled_from(list(Seat)))
    state = AuctionState(dealer)
    calls = []
    while not state.is_complete:
        options = state.legal_calls()
        # bias towards passing so auctions end
        if draw(st.integers(0, 3)) > 0:
            call = options[0]
        else:
            call = draw(st.sampled_from(options))
        state.apply(call)
        calls.append(call)
    return Auction(dealer, tuple(calls)), state.contract  # type: ignore[return-value]


@given(legal_auctions())
def test_random_legal_auctions(data: tuple[Auction, Contract]) -> None:
    a, contract = data
    r = replay_auction(a)
    assert r.faults == () and r.complete and r.contract == contract
    if not contract.is_passed_out:
        assert r.declarer is not None and r.first_call is not None
        first = a.calls[r.first_call]
        assert first.strain == contract.strain and a.seat_of(r.first_call) == r.declarer
        # nobody of the declaring side named the strain earlier
        for i in range(r.first_call):
            c = a.calls[i]
            assert not (c.is_bid and c.strain == contract.strain and a.seat_of(i).side == r.declarer.side)


def test_inadmissible_double_counted_as_the_record_counts_it() -> None:
    # Law 36: S's double of partner's 1D is cancelled.  This record counts three passes after
    # it (W, N, E): no A304 for E's pass
    r = replay_auction(auction(N, "1D P X P P P"))
    assert [(f.code, f.index) for f in r.faults] == [("A302", 2)]
    assert r.complete and r.contract == Contract.parse("1D", declarer=N)
    # W's redouble of its own side's double, then three passes
    r = replay_auction(auction(N, "1D X P XX P P P"))
    assert [(f.code, f.index) for f in r.faults] == [("A303", 3)]
    assert r.complete and r.contract == Contract.parse("1DX", declarer=N)
    # this one counts its passes without the double (7NT by S, then W, E, S): also one fault
    r = replay_auction(auction(N, "P P 7NT P X P P"))
    assert [(f.code, f.index) for f in r.faults] == [("A302", 4)]
    assert r.complete


def test_redouble_of_an_inadmissible_double_is_the_same_fault() -> None:
    # E's double of partner's 1H is cancelled (Law 36); S's redouble of it is no second fault
    r = replay_auction(auction(N, "P 1C P 1H P X XX 2H P P P"))
    assert [(f.code, f.index) for f in r.faults] == [("A302", 5)]
    assert r.complete and r.contract == Contract.parse("2H", declarer=W)
    # a redouble that is wrong on its own is still reported
    r = replay_auction(auction(N, "1D X X XX P P P"))
    assert [(f.code, f.index) for f in r.faults] == [("A302", 2), ("A303", 3)]


def test_the_text_of_every_bid_and_of_a_hand_built_one() -> None:
    """``str()`` of the 35 bids is level then strain (1C ... 7NT), by look-up; a bid built by hand
    with a level outside 1-7 (no auction holds one) still prints as written."""
    from handrec.model import Strain

    texts = [str(Call(CallKind.BID, level, strain)) for level in range(1, 8) for strain in Strain]
    assert texts[:5] == ["1C", "1D", "1H", "1S", "1NT"] and texts[-1] == "7NT" and len(set(texts)) == 35
    assert [str(b) for b in ALL_BIDS] == texts
    assert str(Call(CallKind.BID, 9, Strain.SPADES)) == "9S"
