"""Minibridge: bridge-rules.md §10.4 (M01-M19) and the §7.13 full deal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import Card, Contract, Deal, Hand, Seat, Side, Strain, trick_winner
from handrec.rules.board import hcp
from handrec.scoring.duplicate import duplicate_score
from handrec.scoring.minibridge import (
    Declaring,
    MinibridgeRules,
    MiniContract,
    MiniKind,
    MiniScore,
    RecountError,
    Redeal,
    announced_hcp,
    check_announced,
    choose_declarer,
    minibridge_score,
    target_tricks,
)

N, E, S, W = Seat
PART, GAME, SLAM = MiniKind.PARTSCORE, MiniKind.GAME, MiniKind.SLAM


def mini(kind: MiniKind, strain: str, tricks: int, rules: MinibridgeRules = MinibridgeRules()) -> MiniScore:
    return minibridge_score(MiniContract(kind, Strain.parse(strain)), tricks, rules)


# --- M01: HCP --------------------------------------------------------------------------------------


def test_m01_hcp() -> None:
    h = Hand.parse("KQJ84.A6.KQ5.J73")
    assert hcp(h) == 16
    per_suit = [sum(c.rank.hcp for c in h.cards if str(c.suit) == s) for s in "SHDC"]
    assert per_suit == [6, 4, 5, 1]


# --- M02: the 40 check ----------------------------------------------------------------------------


@pytest.mark.parametrize("totals", [(16, 9, 10, 6), (10, 10, 10, 9), (0, 0, 0, 0)], ids=["41", "39", "0"])
def test_m02_recount(totals: tuple[int, int, int, int]) -> None:
    with pytest.raises(RecountError, match="recount"):
        check_announced(totals)
    with pytest.raises(RecountError):
        choose_declarer(totals, N)


def test_announced_validation() -> None:
    with pytest.raises(ValueError):
        check_announced((40, 0, 0, 0))  # no hand holds more than 37
    with pytest.raises(ValueError):
        check_announced((20, 20))
    check_announced({N: 10, E: 10, S: 10, W: 10})
    with pytest.raises(ValueError):
        check_announced({N: 20, E: 20})


# --- M03-M05: who declares -----------------------------------------------------------------------------


def test_m03_declarer_dummy_lead() -> None:
    d = choose_declarer((9, 5, 16, 10), N)  # N+S 25, E+W 15, S > N
    assert d == Declaring(Side.NS, S, 25, 15)
    assert (d.declarer, d.dummy, d.opening_leader) == (S, N, W)


def test_m03_ew_declare() -> None:
    d = choose_declarer({N: 5, E: 14, S: 6, W: 15}, S)
    assert isinstance(d, Declaring)
    assert (d.side, d.declarer, d.dummy, d.opening_leader) == (Side.EW, W, E, N)


@pytest.mark.parametrize("dealer", list(Seat))
def test_m04_twenty_twenty_redeal(dealer: Seat) -> None:
    assert choose_declarer((12, 8, 8, 12), dealer) == Redeal(dealer)


@pytest.mark.parametrize(
    ("dealer", "expected"), [(N, N), (E, S), (S, S), (W, N)], ids=["dealer-N", "dealer-E", "dealer-S", "dealer-W"]
)
def test_m05_tied_partners_first_to_announce(dealer: Seat, expected: Seat) -> None:
    d = choose_declarer((11, 9, 11, 9), dealer)
    assert isinstance(d, Declaring) and d.declarer is expected


def test_m05_tied_partners_choose_option() -> None:
    d = choose_declarer((11, 9, 11, 9), N, tie_choice=S)
    assert isinstance(d, Declaring) and d.declarer is S
    with pytest.raises(ValueError):
        choose_declarer((11, 9, 11, 9), N, tie_choice=E)
    # not tied: the choice does not override the stronger hand
    d = choose_declarer((12, 9, 10, 9), N, tie_choice=S)
    assert isinstance(d, Declaring) and d.declarer is N


# --- M06-M19: scores ---------------------------------------------------------------------------------

SCORE_ROWS = [
    ("M06", PART, "S", 10, (170, 0)),
    ("M07", GAME, "S", 10, (420, 0)),
    ("M08-C", PART, "C", 5, (0, 100)),
    ("M08-NT", PART, "NT", 5, (0, 100)),
    ("M09", GAME, "S", 9, (0, 50)),
    ("M10", PART, "C", 8, (90, 0)),
    ("M11", PART, "H", 8, (110, 0)),
    ("M12", PART, "NT", 9, (150, 0)),
    ("M13", GAME, "NT", 9, (400, 0)),
    ("M14", GAME, "C", 11, (400, 0)),
    ("M17", GAME, "D", 12, (420, 0)),
    ("M18", GAME, "C", 10, (0, 50)),
    ("part-7-exactly", PART, "D", 7, (70, 0)),
    ("game-NT-13", GAME, "NT", 13, (520, 0)),
    ("game-H-0", GAME, "H", 0, (0, 500)),
]


@pytest.mark.parametrize(
    ("kind", "strain", "tricks", "expected"), [r[1:] for r in SCORE_ROWS], ids=[r[0] for r in SCORE_ROWS]
)
def test_score_rows(kind: MiniKind, strain: str, tricks: int, expected: tuple[int, int]) -> None:
    s = mini(kind, strain, tricks)
    assert (s.declarer_points, s.defender_points) == expected
    assert s.made == (expected[0] > 0)


def test_m15_acbl_route() -> None:
    s = mini(GAME, "S", 10)
    assert s.trick_points == 120 and s.bonus == 50 + 250
    assert s.declarer_points == 420


def test_m19_slam_variant() -> None:
    rules = MinibridgeRules(slam_bonus=800)
    assert mini(SLAM, "S", 12, rules).declarer_points == 980
    assert mini(SLAM, "S", 12, rules).declarer_points == duplicate_score(Contract.parse("6S"), False, 12)
    assert mini(SLAM, "NT", 13, rules).declarer_points == 220 + 800
    assert mini(SLAM, "S", 11, rules).defender_points == 50
    assert mini(SLAM, "C", 12, MinibridgeRules(slam_bonus=1000)).declarer_points == 120 + 1000


def test_slam_needs_the_variant() -> None:
    with pytest.raises(ValueError, match="slam"):
        mini(SLAM, "S", 12)
    with pytest.raises(ValueError):
        MinibridgeRules(slam_bonus=-1)


def test_targets() -> None:
    assert [target_tricks(PART, s) for s in Strain] == [7] * 5
    assert [target_tricks(GAME, s) for s in Strain] == [11, 11, 10, 10, 9]
    assert [target_tricks(SLAM, s) for s in Strain] == [12] * 5
    assert str(MiniContract(PART, Strain.NOTRUMP)) == "partscore in no trumps"


def test_tricks_validation() -> None:
    with pytest.raises(ValueError):
        mini(PART, "S", 14)


# --- M16: the §7.13 full deal -----------------------------------------------------------------------------
# The spec describes the deal but does not print the hands; these hands are built to match
# every stated fact: South holds the §7.3 example hand (16 HCP), N+S 25 / E+W 15, nine
# spades and six hearts between declarer and dummy, West holds the ♦A and leads the ♥Q,
# dummy has ♥K and ♠A, the defenders' only tricks are the ♦A, ♣A and ♣K.

DEAL_713 = Deal.parse("N:A932.K975..Q8642 5.T432.JT432.AT5 KQJ84.A6.KQ5.J73 T76.QJ8.A9876.K9")

# Each trick: leader's card first, then clockwise.
TRICKS_713 = [
    "HQ HK H2 H6",  # 1  W leads ♥Q, dummy's ♥K wins
    "S2 S5 SK S6",  # 2  trumps: ♠K
    "SQ S7 S3 H3",  # 3  ♠Q
    "SJ ST S9 H4",  # 4  ♠J; the defenders have no spades left
    "DK DA C2 D2",  # 5  ♦K, West wins ♦A
    "HJ H5 HT HA",  # 6  heart back to declarer's ♥A
    "DQ D6 C4 D3",  # 7  ♦Q
    "D5 D7 SA D4",  # 8  last diamond ruffed with dummy's ♠A
    "C6 CA C3 C9",  # 9  defenders' ♣A
    "C5 C7 CK C8",  # 10 defenders' ♣K
    "H8 H7 DJ S4",  # 11 declarer ruffs
    "S8 D8 H9 DT",  # 12 last trump
    "CJ D9 CQ CT",  # 13 the third club
]


def test_m16_full_deal() -> None:
    totals = announced_hcp(DEAL_713)
    assert totals == (9, 5, 16, 10)
    declaring = choose_declarer(totals, N)
    assert isinstance(declaring, Declaring)
    assert (declaring.declarer, declaring.dummy, declaring.opening_leader) == (S, N, W)
    assert (declaring.side_hcp, declaring.defenders_hcp) == (25, 15)
    dummy_hand, declarer_hand = DEAL_713[N], DEAL_713[S]
    assert dummy_hand is not None and declarer_hand is not None
    spades = sum(1 for h in (dummy_hand, declarer_hand) for c in h.cards if str(c.suit) == "S")
    hearts = sum(1 for h in (dummy_hand, declarer_hand) for c in h.cards if str(c.suit) == "H")
    assert (spades, hearts) == (9, 6)

    contract = MiniContract(GAME, Strain.SPADES)
    assert contract.target == 10
    # Play the 13 tricks: every card from its holder, suit followed when able, winner leads.
    remaining = {seat: set(DEAL_713[seat].cards) for seat in Seat}  # type: ignore[union-attr]
    leader = declaring.opening_leader
    won = {Side.NS: 0, Side.EW: 0}
    for text in TRICKS_713:
        cards = [Card.parse(t) for t in text.split()]
        led = cards[0].suit
        for i, card in enumerate(cards):
            seat = leader.offset(i)
            assert card in remaining[seat], f"{seat} does not hold {card}"
            if card.suit is not led:
                assert not any(c.suit is led for c in remaining[seat]), f"{seat} revoked with {card}"
            remaining[seat].remove(card)
        leader = trick_winner(leader, cards, Strain.SPADES.suit)
        won[leader.side] += 1
    assert won == {Side.NS: 10, Side.EW: 3}

    score = minibridge_score(contract, won[Side.NS])
    assert score.points_for(declaring.side) == (420, 0)
    assert minibridge_score(MiniContract(PART, Strain.SPADES), won[Side.NS]).declarer_points == 170


# --- properties ------------------------------------------------------------------------------------------


@given(st.sampled_from([PART, GAME]), st.sampled_from(list(Strain)), st.integers(0, 13))
def test_equals_duplicate_nv(kind: MiniKind, strain: Strain, tricks: int) -> None:
    """Every minibridge score equals the NV undoubled duplicate score of the equivalent contract (§7.9 [DER])."""
    c = MiniContract(kind, strain)
    s = minibridge_score(c, tricks)
    assert s.declarer_points - s.defender_points == duplicate_score(c.equivalent, False, tricks)


@given(st.integers(0, 13), st.sampled_from(list(Strain)))
def test_slam_800_equals_duplicate_six(tricks: int, strain: Strain) -> None:
    c = MiniContract(SLAM, strain)
    s = minibridge_score(c, tricks, MinibridgeRules(slam_bonus=800))
    assert s.declarer_points - s.defender_points == duplicate_score(c.equivalent, False, tricks)


@given(st.lists(st.integers(0, 37), min_size=4, max_size=4), st.sampled_from(list(Seat)))
def test_choose_declarer_total(totals: list[int], dealer: Seat) -> None:
    if sum(totals) != 40:
        with pytest.raises(RecountError):
            choose_declarer(totals, dealer)
        return
    d = choose_declarer(totals, dealer)
    if isinstance(d, Redeal):
        assert totals[0] + totals[2] == 20 and d.dealer is dealer
    else:
        a, b = d.side.seats
        assert d.declarer in (a, b) and totals[d.declarer] == max(totals[a], totals[b])
        assert d.side_hcp > 20 and d.side_hcp + d.defenders_hcp == 40
