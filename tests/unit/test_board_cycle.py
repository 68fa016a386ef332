"""Board number -> dealer and vulnerability (bridge-rules.md §4.11, §10.8 V01-V02),
HCP, and the deal checks D201-D205."""

from __future__ import annotations

import pytest

from handrec.model import Deal, Hand, Seat, Vulnerability
from handrec.rules.board import FULL_MASK, check_deal, deal_hcp, dealer_for_board, hcp, vulnerability_for_board

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NONE, NS, EW, BOTH = Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH

# §4.11 table
CYCLE = {
    1: (N, NONE), 2: (E, NS), 3: (S, EW), 4: (W, BOTH),
    5: (N, NS), 6: (E, EW), 7: (S, BOTH), 8: (W, NONE),
    9: (N, EW), 10: (E, BOTH), 11: (S, NONE), 12: (W, NS),
    13: (N, BOTH), 14: (E, NONE), 15: (S, NS), 16: (W, EW),
}  # fmt: skip


@pytest.mark.parametrize("board", range(1, 17), ids=[f"V01-{b}" for b in range(1, 17)])
def test_V01_cycle(board: int) -> None:
    assert (dealer_for_board(board), vulnerability_for_board(board)) == CYCLE[board]


@pytest.mark.parametrize(
    ("board", "same_as"),
    [(17, 1), (32, 16), (33, 1)],
    ids=["V02-17", "V02-32", "V02-33"],
)
def test_V02_period_16(board: int, same_as: int) -> None:
    assert (dealer_for_board(board), vulnerability_for_board(board)) == CYCLE[same_as]


def test_V02_values() -> None:
    assert (dealer_for_board(17), vulnerability_for_board(17)) == (N, NONE)
    assert (dealer_for_board(32), vulnerability_for_board(32)) == (W, EW)


def test_seed_002_remark_boards_2_3() -> None:
    # on boards 2 and 3 the non-dealing side is vulnerable
    for b in (2, 3):
        assert not vulnerability_for_board(b).is_vulnerable(dealer_for_board(b))
        assert vulnerability_for_board(b).is_vulnerable(dealer_for_board(b).lho)


@pytest.mark.parametrize("bad", [0, -1])
def test_bad_board_number(bad: int) -> None:
    with pytest.raises(ValueError):
        dealer_for_board(bad)
    with pytest.raises(ValueError):
        vulnerability_for_board(bad)


def test_M01_hcp() -> None:
    assert hcp(Hand.parse("KQJ84.A6.KQ5.J73")) == 16


FULL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


def test_deal_hcp_sums_to_40() -> None:
    d = Deal.parse(FULL)
    assert sum(deal_hcp(d)) == 40  # type: ignore[arg-type]


def codes(deal: Deal | None, **kw: bool) -> list[str]:
    return [f.code for f in check_deal(deal, **kw).faults]


def test_complete_deal_is_clean() -> None:
    dc = check_deal(Deal.parse(FULL))
    assert dc.faults == () and dc.is_complete and dc.cards_per_hand == 13
    assert sum(m.bit_count() for m in dc.masks) == 52  # type: ignore[union-attr]


def test_D205_no_deal() -> None:
    assert codes(None) == ["D205"]
    assert codes(None, required=False) == []
    assert codes(Deal.parse("N:- - - -")) == ["D205"]


def test_D201_D203_twelve_cards() -> None:
    dc = check_deal(Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.8"))
    assert [(f.code, f.kwargs) for f in dc.faults] == [
        ("D201", {"seat": "W", "count": 12}),
        ("D203", {"cards": "C5"}),
    ]
    assert not any(dc.checkable)


def test_D202_duplicate() -> None:
    # West holds East's SA instead of its own C5: 13 cards each, one card twice, one missing
    dc = check_deal(Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 AKQT2.AT.J6542.8"))
    assert [(f.code, f.kwargs) for f in dc.faults] == [
        ("D202", {"card": "SA", "seats": "EW"}),
        ("D203", {"cards": "C5"}),
    ]
    assert not any(dc.checkable)


def test_D204_partial_and_three_hands() -> None:
    # two hands: partial
    assert codes(Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 - -")) == ["D204"]
    # three full hands determine the fourth: no fault, deal completed
    dc = check_deal(Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 -"))
    assert dc.faults == () and dc.is_complete
    assert dc.masks[3] == FULL_MASK & ~(dc.masks[0] | dc.masks[1] | dc.masks[2])  # type: ignore[operator]


def test_D204_end_position() -> None:
    dc = check_deal(Deal.parse("N:AK.2.. Q2.3.. J3.4.. T4.5.."))
    assert [(f.code, f.kwargs) for f in dc.faults] == [("D204", {"given": 12})]
    assert dc.cards_per_hand == 3 and all(dc.checkable)


def test_D204_empty_hands_are_not_given() -> None:
    # quiz files write left-out hands as "..." (BridgeComposer); single-suit fragments likewise
    dc = check_deal(Deal.parse("N:AT2.Q854.K86.974 ... ... ..."))
    assert [(f.code, f.kwargs) for f in dc.faults] == [("D204", {"given": 13})]
    assert dc.checkable == (True, False, False, False)
    dc = check_deal(Deal.parse("N:... KQJT... ... 7642..."))
    assert [(f.code, f.kwargs) for f in dc.faults] == [("D204", {"given": 8})]


def test_D204_single_suit_fragments() -> None:
    # BridgeComposer single-suit exercise: "S:... Q7... ... KJT94..." (W 2 cards, E 5)
    dc = check_deal(Deal.parse("S:... Q7... ... KJT94..."))
    assert [(f.code, f.kwargs) for f in dc.faults] == [("D204", {"given": 7})]
    assert not any(dc.checkable)


def test_D201_too_many_cards_in_partial_deal() -> None:
    dc = check_deal(Deal.parse("N:AKQJT98765432.A.. - - -"))
    assert [f.code for f in dc.faults] == ["D201", "D204"]
