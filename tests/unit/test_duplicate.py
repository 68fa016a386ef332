"""Duplicate scoring: every row of bridge-rules.md §10.1 (D01-D33) and §4.10.

Values are the ones printed in the spec.  Where the seeds contradict the Laws
the spec's corrected value is used (D23: 5NTX NV 3 down = -500, §12 item 1).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import Contract, Doubling, Seat, Strain, Vulnerability
from handrec.scoring.duplicate import duplicate_score, score_ns, trick_score, undertrick_penalty

NV, V = False, True


def dup(contract: str, vulnerable: bool, tricks: int) -> int:
    return duplicate_score(Contract.parse(contract), vulnerable, tricks)


# --- D01-D08, D11-D32 (single rows) -----------------------------------------------

ROWS = [
    ("D01", "4S", NV, 10, 420),
    ("D02", "4S", V, 10, 620),
    ("D03", "6S", V, 12, 1430),
    ("D04-NV", "2S", NV, 8, 110),
    ("D04-V", "2S", V, 8, 110),
    ("D05", "2S", NV, 10, 170),
    ("D06", "2SX", NV, 8, 470),
    ("D07", "2SX", V, 8, 670),
    ("D08", "2SX", NV, 9, 570),
    # D11: doubled NV down 1/2/3/4 (any contract; 4S X here)
    ("D11-1", "4SX", NV, 9, -100),
    ("D11-2", "4SX", NV, 8, -300),
    ("D11-3", "4SX", NV, 7, -500),
    ("D11-4", "4SX", NV, 6, -800),
    ("D12-1", "4SX", V, 9, -200),
    ("D12-2", "4SX", V, 8, -500),
    ("D12-3", "4SX", V, 7, -800),
    ("D13", "4SXX", V, 9, -400),
    ("D15-3NT-NV", "3NT", NV, 9, 400),
    ("D15-3NT-V", "3NT", V, 9, 600),
    ("D15-4H-NV", "4H", NV, 10, 420),
    ("D15-4H-V", "4H", V, 10, 620),
    ("D15-4S-NV", "4S", NV, 10, 420),
    ("D15-4S-V", "4S", V, 10, 620),
    ("D15-5C-NV", "5C", NV, 11, 400),
    ("D15-5C-V", "5C", V, 11, 600),
    ("D15-5D-NV", "5D", NV, 11, 400),
    ("D15-5D-V", "5D", V, 11, 600),
    ("D16-NV", "3S", NV, 10, 170),
    ("D16-V", "3S", V, 10, 170),
    ("D17-3NT", "3NT", NV, 10, 430),
    ("D17-4H", "4H", NV, 10, 420),
    ("D18", "4S", NV, 11, 450),
    ("D19", "4S", NV, 9, -50),
    ("D20", "3S", NV, 11, 200),
    ("D21-NV", "3NTX", NV, 6, -500),
    ("D21-V", "3NTX", V, 6, -800),
    ("D22-NV", "4S", NV, 12, 480),
    ("D22-V", "4S", V, 12, 680),
    ("D23", "5NTX", NV, 8, -500),
    ("D24", "5NTX", V, 8, -800),
    ("D25", "3D", V, 7, -200),
    ("D28", "1NTXX", V, 7, 760),
    ("D29", "7NTXX", V, 13, 2980),
    ("D30", "7NTXX", V, 0, -7600),
    ("D31-NV", "7C", NV, 6, -350),
    ("D31-V", "7C", V, 6, -700),
    ("D32", "1CXX", NV, 7, 230),
]


@pytest.mark.parametrize(("contract", "vul", "tricks", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_duplicate_rows(contract: str, vul: bool, tricks: int, expected: int) -> None:
    assert dup(contract, vul, tricks) == expected


def test_D17_matchpoint_remark() -> None:
    assert dup("3NT", NV, 10) > dup("4H", NV, 10)


# --- D14: trick scores of the cheapest games ---------------------------------------

TRICK_SCORES = [("3NT", 100), ("4H", 120), ("4S", 120), ("5C", 100), ("5D", 100), ("4C", 80)]


@pytest.mark.parametrize(("contract", "expected"), TRICK_SCORES, ids=[f"D14-{c}" for c, _ in TRICK_SCORES])
def test_D14_trick_score(contract: str, expected: int) -> None:
    c = Contract.parse(contract)
    assert trick_score(c.level, c.strain, c.doubling) == expected


# --- D09: §4.9 every contract made exactly (undoubled = [002]; doubled/redoubled [DER]) ----

MADE_EXACTLY = [
    ("1C", [70, 70, 140, 140, 230, 230]),
    ("1D", [70, 70, 140, 140, 230, 230]),
    ("1H", [80, 80, 160, 160, 520, 720]),
    ("1S", [80, 80, 160, 160, 520, 720]),
    ("1NT", [90, 90, 180, 180, 560, 760]),
    ("2C", [90, 90, 180, 180, 560, 760]),
    ("2D", [90, 90, 180, 180, 560, 760]),
    ("2H", [110, 110, 470, 670, 640, 840]),
    ("2S", [110, 110, 470, 670, 640, 840]),
    ("2NT", [120, 120, 490, 690, 680, 880]),
    ("3C", [110, 110, 470, 670, 640, 840]),
    ("3D", [110, 110, 470, 670, 640, 840]),
    ("3H", [140, 140, 530, 730, 760, 960]),
    ("3S", [140, 140, 530, 730, 760, 960]),
    ("3NT", [400, 600, 550, 750, 800, 1000]),
    ("4C", [130, 130, 510, 710, 720, 920]),
    ("4D", [130, 130, 510, 710, 720, 920]),
    ("4H", [420, 620, 590, 790, 880, 1080]),
    ("4S", [420, 620, 590, 790, 880, 1080]),
    ("4NT", [430, 630, 610, 810, 920, 1120]),
    ("5C", [400, 600, 550, 750, 800, 1000]),
    ("5D", [400, 600, 550, 750, 800, 1000]),
    ("5H", [450, 650, 650, 850, 1000, 1200]),
    ("5S", [450, 650, 650, 850, 1000, 1200]),
    ("5NT", [460, 660, 670, 870, 1040, 1240]),
    ("6C", [920, 1370, 1090, 1540, 1380, 1830]),
    ("6D", [920, 1370, 1090, 1540, 1380, 1830]),
    ("6H", [980, 1430, 1210, 1660, 1620, 2070]),
    ("6S", [980, 1430, 1210, 1660, 1620, 2070]),
    ("6NT", [990, 1440, 1230, 1680, 1660, 2110]),
    ("7C", [1440, 2140, 1630, 2330, 1960, 2660]),
    ("7D", [1440, 2140, 1630, 2330, 1960, 2660]),
    ("7H", [1510, 2210, 1770, 2470, 2240, 2940]),
    ("7S", [1510, 2210, 1770, 2470, 2240, 2940]),
    ("7NT", [1520, 2220, 1790, 2490, 2280, 2980]),
]
COLUMNS = [("", NV, "NV"), ("", V, "V"), ("X", NV, "XNV"), ("X", V, "XV"), ("XX", NV, "XXNV"), ("XX", V, "XXV")]
MADE_CASES = [
    pytest.param(f"{name}{dbl}", vul, expected, id=f"D09-{name}-{col}")
    for name, values in MADE_EXACTLY
    for (dbl, vul, col), expected in zip(COLUMNS, values)
]


@pytest.mark.parametrize(("contract", "vul", "expected"), MADE_CASES)
def test_D09_made_exactly(contract: str, vul: bool, expected: int) -> None:
    c = Contract.parse(contract)
    assert duplicate_score(c, vul, c.level + 6) == expected


def test_D09_count() -> None:
    # the printed table: 21 rows (35 contracts) x 6 columns; its undoubled NV/V columns are [002]'s 42 values
    assert len(MADE_EXACTLY) == 35 and len(MADE_CASES) == 210


# --- D10 / D33: §4.6 undertricks (rows 1-7 [002], rows 8-13 [DER]) ------------------

UNDERTRICKS = [
    (1, [50, 100, 100, 200, 200, 400]),
    (2, [100, 200, 300, 500, 600, 1000]),
    (3, [150, 300, 500, 800, 1000, 1600]),
    (4, [200, 400, 800, 1100, 1600, 2200]),
    (5, [250, 500, 1100, 1400, 2200, 2800]),
    (6, [300, 600, 1400, 1700, 2800, 3400]),
    (7, [350, 700, 1700, 2000, 3400, 4000]),
    (8, [400, 800, 2000, 2300, 4000, 4600]),
    (9, [450, 900, 2300, 2600, 4600, 5200]),
    (10, [500, 1000, 2600, 2900, 5200, 5800]),
    (11, [550, 1100, 2900, 3200, 5800, 6400]),
    (12, [600, 1200, 3200, 3500, 6400, 7000]),
    (13, [650, 1300, 3500, 3800, 7000, 7600]),
]
PEN_COLUMNS = [(0, NV, "NV"), (0, V, "V"), (1, NV, "XNV"), (1, V, "XV"), (2, NV, "XXNV"), (2, V, "XXV")]
UNDER_CASES = [
    pytest.param(n, dbl, vul, expected, id=f"{'D10' if n <= 7 else 'D33'}-{n}down-{col}")
    for n, values in UNDERTRICKS
    for (dbl, vul, col), expected in zip(PEN_COLUMNS, values)
]


@pytest.mark.parametrize(("n", "dbl", "vul", "expected"), UNDER_CASES)
def test_D10_D33_undertricks(n: int, dbl: int, vul: bool, expected: int) -> None:
    assert len(UNDER_CASES) == 78
    assert undertrick_penalty(n, Doubling(dbl), vul) == expected
    # the same through a contract: 7NT (13 tricks needed) with 13 - n tricks
    assert duplicate_score(Contract(7, Strain.NOTRUMP, Doubling(dbl)), vul, 13 - n) == -expected


# --- D26, D27: passed out; equal and opposite -----------------------------------


@pytest.mark.parametrize("vul", list(Vulnerability), ids=[f"D26-{v}" for v in Vulnerability])
def test_D26_passed_out(vul: Vulnerability) -> None:
    assert duplicate_score(Contract.passed_out(), True, 0) == 0
    assert score_ns(Contract.passed_out(), vul, 0) == 0


@pytest.mark.parametrize(
    ("declarer", "expected_ns"),
    [(Seat.NORTH, 420), (Seat.SOUTH, 420), (Seat.EAST, -420), (Seat.WEST, -420)],
    ids=["D27-N", "D27-S", "D27-E", "D27-W"],
)
def test_D27_equal_and_opposite(declarer: Seat, expected_ns: int) -> None:
    c = Contract.parse("4S", declarer=declarer)
    assert score_ns(c, Vulnerability.NONE, 10) == expected_ns


# --- §4.10 worked examples ---------------------------------------------------------

EXAMPLES = [
    ("4.10-4S=NV", "4S", NV, 10, 420),
    ("4.10-4S=V", "4S", V, 10, 620),
    ("4.10-6S=V", "6S", V, 12, 1430),
    ("4.10-2S=NV", "2S", NV, 8, 110),
    ("4.10-2S=V", "2S", V, 8, 110),
    ("4.10-2S+2", "2S", NV, 10, 170),
    ("4.10-2SX=NV", "2SX", NV, 8, 470),
    ("4.10-2SX=V", "2SX", V, 8, 670),
    ("4.10-2SX+1NV", "2SX", NV, 9, 570),
    ("4.10-XNV-1", "3HX", NV, 8, -100),
    ("4.10-XNV-2", "3HX", NV, 7, -300),
    ("4.10-XNV-3", "3HX", NV, 6, -500),
    ("4.10-XNV-4", "3HX", NV, 5, -800),
    ("4.10-XV-1", "3HX", V, 8, -200),
    ("4.10-XV-2", "3HX", V, 7, -500),
    ("4.10-XV-3", "3HX", V, 6, -800),
    ("4.10-XXV-1", "3HXX", V, 8, -400),
    ("4.10-3XNV", "2CX", NV, 5, -500),
    ("4.10-3XV", "2CX", V, 5, -800),
    ("4.10-P2-4S+1", "4S", NV, 11, 450),
    ("4.10-4S-1", "4S", NV, 9, -50),
    ("4.10-3S+2", "3S", NV, 11, 200),
    ("4.10-4S+2NV", "4S", NV, 12, 480),
    ("4.10-4S+2V", "4S", V, 12, 680),
    ("4.10-3S+1NV", "3S", NV, 10, 170),
    ("4.10-3S+1V", "3S", V, 10, 170),
    ("4.10-3NT+1", "3NT", NV, 10, 430),
    ("4.10-4H=", "4H", NV, 10, 420),
]


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "expected"), [r[1:] for r in EXAMPLES], ids=[r[0] for r in EXAMPLES]
)
def test_4_10_examples(contract: str, vul: bool, tricks: int, expected: int) -> None:
    assert dup(contract, vul, tricks) == expected


def test_4_10_2SX_is_game() -> None:
    assert trick_score(2, Strain.SPADES, Doubling.DOUBLED) == 120 >= 100


# --- errors -----------------------------------------------------------------------


@pytest.mark.parametrize("tricks", [-1, 14, 2.0, True])
def test_bad_tricks(tricks: object) -> None:
    with pytest.raises(ValueError):
        duplicate_score(Contract.parse("1C"), False, tricks)  # type: ignore[arg-type]


def test_bad_level_and_missing_declarer() -> None:
    with pytest.raises(ValueError):
        trick_score(8, Strain.CLUBS)
    with pytest.raises(ValueError):
        undertrick_penalty(14, Doubling.DOUBLED, True)
    with pytest.raises(ValueError):
        score_ns(Contract.parse("1C"), Vulnerability.NONE, 7)


# --- properties ---------------------------------------------------------------------

contracts = st.builds(
    Contract,
    level=st.integers(1, 7),
    strain=st.sampled_from(list(Strain)),
    doubling=st.sampled_from(list(Doubling)),
)


@given(contracts, st.booleans(), st.integers(0, 12))
def test_more_tricks_never_lower(contract: Contract, vul: bool, tricks: int) -> None:
    assert duplicate_score(contract, vul, tricks + 1) > duplicate_score(contract, vul, tricks)


@given(contracts, st.integers(0, 13))
def test_vulnerability_raises_the_stakes(contract: Contract, tricks: int) -> None:
    nv, v = duplicate_score(contract, False, tricks), duplicate_score(contract, True, tricks)
    assert (v >= nv) if tricks >= contract.level + 6 else (v <= nv)


@given(contracts, st.sampled_from(list(Vulnerability)), st.sampled_from(list(Seat)), st.integers(0, 13))
def test_score_ns_is_declarer_score_from_ns_view(
    contract: Contract, vul: Vulnerability, seat: Seat, tricks: int
) -> None:
    c = Contract(contract.level, contract.strain, contract.doubling, seat)
    partner = Contract(contract.level, contract.strain, contract.doubling, seat.partner)
    assert score_ns(c, vul, tricks) == score_ns(partner, vul, tricks)
    sign = 1 if seat in (Seat.NORTH, Seat.SOUTH) else -1
    assert score_ns(c, vul, tricks) == sign * duplicate_score(c, vul.is_vulnerable(seat), tricks)
