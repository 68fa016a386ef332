"""Rubber scoring: bridge-rules.md §10.2 (R01-R16), the §5.12 seed examples and §5.14.

Where the seeds contradict the Laws the spec's corrected value is used
(R06/R12: NV doubled penalties on the post-1987 scale, §5.13, §12 items 1-2;
unfinished rubber per the Laws, §12 item 9).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from handrec.model import ALL_CARDS, Card, Contract, Deal, Doubling, Hand, Seat, Side, Strain
from handrec.scoring.duplicate import duplicate_score
from handrec.scoring.rubber import (
    ContractPoints,
    DealResult,
    EntryKind,
    GameLine,
    Honors,
    contract_points,
    format_scoresheet,
    honors_from_deal,
    score_rubber,
)

NS, EW = Side.NS, Side.EW


def made(contract: str, side: Side, tricks: int, **kw: object) -> DealResult:
    return DealResult(Contract.parse(contract), tricks, side, **kw)  # type: ignore[arg-type]


def rub(contract: str, vulnerable: bool, tricks: int) -> tuple[int, int, int]:
    """(declarer below, declarer above, defenders above) for one deal, as §10 defines ``rub``.

    Vulnerability comes from the rubber: when ``vulnerable`` the declaring side
    (N-S) first wins a game with 3NT.  The rubber bonus, if the deal ends the
    rubber, is not part of the deal's own score and is left out.
    """
    deals = [made("3NT", NS, 9)] if vulnerable else []
    deals.append(made(contract, NS, tricks))
    sheet = score_rubber(deals)
    last = sheet.deals[-1]
    assert last.vulnerable is vulnerable
    es = [e for e in last.entries if e.kind is not EntryKind.RUBBER]
    below = sum(e.points for e in es if e.side is NS and e.below)
    above = sum(e.points for e in es if e.side is NS and not e.below)
    defenders = sum(e.points for e in es if e.side is EW)
    return below, above, defenders


# --- R01-R06, R12: single deals (§5.12 R1-R6 are the same seed examples) ---------------------

DEAL_ROWS = [
    ("R01-NV", "3S", False, 10, (90, 30, 0)),
    ("R01-V", "3S", True, 10, (90, 30, 0)),
    ("R02", "2C", False, 11, (40, 60, 0)),
    ("R03", "6H", True, 12, (180, 750, 0)),
    ("R04-NV", "3NT", False, 13, (100, 120, 0)),
    ("R04-V", "3NT", True, 13, (100, 120, 0)),
    ("R05", "3D", True, 7, (0, 0, 200)),
    ("R06", "5NTX", False, 8, (0, 0, 500)),  # seed [000] prints 800: its error (§5.13)
    ("R06-V", "5NTX", True, 8, (0, 0, 800)),
    ("R12", "4SX", False, 6, (0, 0, 800)),  # not 700 (seed [000]'s pre-1987 table)
    ("R12-redoubled", "4SXX", False, 6, (0, 0, 1600)),
    ("insult-doubled", "2SX", False, 8, (120, 50, 0)),
    ("insult-redoubled-overtrick-V", "1NTXX", True, 8, (160, 100 + 400, 0)),
    ("grand-slam-NV", "7NT", False, 13, (220, 1000, 0)),
    ("grand-slam-V", "7C", True, 13, (140, 1500, 0)),
    ("doubled-overtricks-NV", "2HX", False, 10, (120, 50 + 200, 0)),
]


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "expected"), [r[1:] for r in DEAL_ROWS], ids=[r[0] for r in DEAL_ROWS]
)
def test_single_deal_rows(contract: str, vul: bool, tricks: int, expected: tuple[int, int, int]) -> None:
    assert rub(contract, vul, tricks) == expected


def test_contract_points_match_duplicate() -> None:
    """The parts add up to the duplicate score minus its 50/300/500 bonus, for every result."""
    for level in range(1, 8):
        for strain in Strain:
            for dbl in Doubling:
                c = Contract(level, strain, dbl)
                for vul in (False, True):
                    for tricks in range(14):
                        p = contract_points(c, vul, tricks)
                        dup = duplicate_score(c, vul, tricks)
                        if p.made:
                            bonus = (500 if vul else 300) if p.trick_score >= 100 else 50
                            assert p.declarer_points + bonus == dup
                        else:
                            assert p.undertricks == -dup and p.declarer_points == 0


def test_contract_points_passed_out() -> None:
    assert contract_points(Contract.passed_out(), True, 0) == ContractPoints()


# --- R07, R15: rubber bonus, no game bonus -----------------------------------------------------


def test_r07_two_nil() -> None:
    sheet = score_rubber([made("3NT", NS, 9), made("4S", NS, 10)])
    assert sheet.finished and sheet.winner is NS
    assert [e.points for e in sheet.entries if e.kind is EntryKind.RUBBER] == [700]
    assert sheet.total(NS) == 100 + 120 + 700


def test_r07_two_one() -> None:
    sheet = score_rubber([made("3NT", NS, 9), made("5D", EW, 11), made("4H", NS, 10)])
    assert sheet.finished and sheet.winner is NS
    rubber = [e for e in sheet.entries if e.kind is EntryKind.RUBBER]
    assert [(e.side, e.points, e.deal) for e in rubber] == [(NS, 500, 3)]
    assert (sheet.games_won(NS), sheet.games_won(EW)) == (2, 1)


def test_r15_no_game_or_partscore_bonus() -> None:
    sheet = score_rubber([made("4S", NS, 10), made("2C", EW, 8)])
    assert sheet.total(NS) == 120  # no 300/500
    assert sheet.total(EW) == 40  # no 50
    assert {e.kind for e in sheet.entries} == {EntryKind.TRICKS}


# --- R08, R14: unfinished rubber ---------------------------------------------------------------


def test_r08_unfinished_game_and_partscore() -> None:
    sheet = score_rubber([made("3NT", NS, 9), made("2H", EW, 8)], stopped=True)
    assert not sheet.finished
    extra = [(e.side, e.points, e.kind) for e in sheet.entries if e.deal is None]
    assert extra == [(NS, 300, EntryKind.UNFINISHED_GAME), (EW, 100, EntryKind.UNFINISHED_PARTSCORE)]
    assert sheet.total(NS) == 400 and sheet.total(EW) == 160
    assert sheet.winner is NS


def test_r08_game_and_partscore_same_side_and_both_games() -> None:
    sheet = score_rubber([made("3NT", NS, 9), made("4S", EW, 10), made("1S", NS, 7)], stopped=True)
    extra = sorted((e.side, e.points) for e in sheet.entries if e.deal is None)
    assert extra == [(NS, 100), (NS, 300), (EW, 300)]  # both games: the 300s cancel (§12 item 9)


def test_unfinished_bonus_needs_stopped() -> None:
    sheet = score_rubber([made("3NT", NS, 9), made("2H", EW, 8)])
    assert not any(e.deal is None for e in sheet.entries)
    assert sheet.winner is None


def test_old_partscore_earns_no_unfinished_bonus() -> None:
    # They's 40 was written in game 1; We then won game 1, so They have no partscore in game 2.
    sheet = score_rubber([made("1NT", EW, 7), made("3NT", NS, 9)], stopped=True)
    assert [(e.side, e.points) for e in sheet.entries if e.deal is None] == [(NS, 300)]


# --- R09: honors ---------------------------------------------------------------------------------


def deal_with(seat: Seat, hand: str) -> Deal:
    """A complete deal giving ``seat`` the hand ``hand``; the other 39 cards are dealt round one at a time."""
    h = Hand.parse(hand)
    rest = [c for c in ALL_CARDS if c not in h.cards]
    hands: list[Hand | None] = [None] * 4
    hands[seat] = h
    others = [s for s in Seat if s is not seat]
    for i, s in enumerate(others):
        hands[s] = Hand(tuple(rest[i::3]))
    d = Deal(tuple(hands))  # type: ignore[arg-type]
    assert d.is_complete
    return d


HONOR_ROWS = [
    ("R09-four-trumps", "AKQJ2.432.432.32", Strain.SPADES, 100),
    ("R09-four-trumps-with-ten", "AKJT2.432.432.32", Strain.SPADES, 100),
    ("R09-five-trumps", "AKQJT.432.432.32", Strain.SPADES, 150),
    ("R09-four-aces-NT", "A32.A32.A32.A432", Strain.NOTRUMP, 150),
    ("R09-four-aces-suit", "A32.A32.A32.A432", Strain.SPADES, None),
    ("R09-three-trumps", "AKQ32.432.432.32", Strain.SPADES, None),
]


@pytest.mark.parametrize(("hand", "strain", "points"), [r[1:] for r in HONOR_ROWS], ids=[r[0] for r in HONOR_ROWS])
def test_r09_honors_from_deal(hand: str, strain: Strain, points: int | None) -> None:
    h = honors_from_deal(deal_with(Seat.EAST, hand), strain)
    assert h == (None if points is None else Honors(EW, points))


def test_r09_honors_to_defenders_made_or_not() -> None:
    deal = deal_with(Seat.WEST, "AKQJT.432.432.32")
    made_sheet = score_rubber([made("4S", NS, 10, deal=deal)])
    assert [(e.side, e.points, e.kind) for e in made_sheet.entries if e.kind is EntryKind.HONORS] == [
        (EW, 150, EntryKind.HONORS)
    ]
    down = score_rubber([made("4S", NS, 9, deal=deal)])
    assert down.total(EW) == 50 + 150 and down.total(NS) == 0


def test_r09_honors_not_affected_by_vulnerability_or_doubling() -> None:
    h = Honors(NS, 100)
    a = score_rubber([made("3NT", NS, 9), made("4SXX", NS, 10, honors=h)])
    b = score_rubber([made("4S", NS, 10, honors=h)])
    assert [e.points for e in a.deals[1].entries if e.kind is EntryKind.HONORS] == [100]
    assert [e.points for e in b.deals[0].entries if e.kind is EntryKind.HONORS] == [100]


def test_honors_option_off() -> None:
    sheet = score_rubber([made("4S", NS, 10, honors=Honors(EW, 100))], honors=False)
    assert sheet.total(EW) == 0


def test_honors_need_the_hands() -> None:
    partial = Deal.parse("N:5432.432.432.432 - - -")
    with pytest.raises(ValueError, match="not given"):
        honors_from_deal(partial, Strain.SPADES)
    partial_with = Deal.parse("N:AKQJ2.432.432.32 - - -")
    assert honors_from_deal(partial_with, Strain.SPADES) == Honors(NS, 100)


def test_honors_validation() -> None:
    with pytest.raises(ValueError):
        Honors(NS, 120)
    with pytest.raises(ValueError, match="four aces"):
        made("3NT", NS, 9, honors=Honors(NS, 100))
    with pytest.raises(ValueError):
        DealResult(Contract.passed_out(), honors=Honors(NS, 100))


# --- R10, R11: game over several deals, exactly 100 ---------------------------------------------


def test_r10_game_across_deals() -> None:
    sheet = score_rubber([made("2H", NS, 8), made("2S", NS, 8)])
    assert sheet.games == (GameLine(1, NS, 2),)
    assert sheet.deals[0].game is None and sheet.deals[1].game is NS
    assert sheet.vulnerable(NS) and not sheet.vulnerable(EW)


def test_r11_exactly_100_is_game() -> None:
    sheet = score_rubber([made("3NT", NS, 9)])
    assert sheet.games == (GameLine(1, NS, 1),)


def test_partscore_under_100_is_not_game() -> None:
    sheet = score_rubber([made("4C", NS, 13)])  # 80 below, overtricks do not count
    assert sheet.games == () and sheet.part_score(NS) == 80


def test_doubled_partscore_makes_game() -> None:
    sheet = score_rubber([made("2SX", NS, 8)])
    assert sheet.games == (GameLine(1, NS, 1),)


def test_new_line_wipes_opponents_partscore_toward_game() -> None:
    # They 60 + We game, then They 60 again: 60 in game 2 only, not 120.
    sheet = score_rubber([made("2S", EW, 8), made("3NT", NS, 9), made("2S", EW, 8)])
    assert sheet.games == (GameLine(1, NS, 2),)
    assert sheet.part_score(EW) == 60
    assert sheet.below(EW) == 120  # both still count in the total


# --- R16: passed out -------------------------------------------------------------------------------


def test_r16_passed_out_next_dealer() -> None:
    sheet = score_rubber([DealResult.passed_out(), made("1NT", NS, 7)], first_dealer=Seat.WEST)
    assert [d.dealer for d in sheet.deals] == [Seat.WEST, Seat.NORTH]
    assert sheet.deals[0].entries == () and sheet.deals[0].vulnerable is None
    assert sheet.next_dealer is Seat.EAST
    assert sheet.total(NS) == 40 and sheet.total(EW) == 0


# --- R13, R14: the §5.14 walk-through --------------------------------------------------------------

WALK = [
    made("2H", NS, 9),
    made("1NT", EW, 7),
    made("2S", NS, 8),
    made("4SX", NS, 8),
    made("4H", EW, 10, honors=Honors(EW, 100)),
    made("3NT", NS, 10),
]


def test_r13_full_rubber() -> None:
    sheet = score_rubber(WALK)
    assert (sheet.below(NS), sheet.above(NS), sheet.total(NS)) == (220, 560, 780)
    assert (sheet.below(EW), sheet.above(EW), sheet.total(EW)) == (160, 600, 760)
    assert sheet.games == (GameLine(1, NS, 3), GameLine(2, EW, 5), GameLine(3, NS, 6))
    assert sheet.finished and sheet.winner is NS and sheet.margin == 20
    assert [d.vulnerable for d in sheet.deals] == [False, False, False, True, False, True]
    # per-deal entries as in the §5.14 table
    per_deal = [[(e.side, e.points, e.below) for e in d.entries] for d in sheet.deals]
    assert per_deal == [
        [(NS, 60, True), (NS, 30, False)],
        [(EW, 40, True)],
        [(NS, 60, True)],
        [(EW, 500, False)],
        [(EW, 120, True), (EW, 100, False)],
        [(NS, 100, True), (NS, 30, False), (NS, 500, False)],
    ]


def test_r13_with_honors_from_the_deal() -> None:
    deal = deal_with(Seat.EAST, "2.AKQJ2.AKQ32.AK")
    walk = [*WALK[:4], made("4H", EW, 10, deal=deal), WALK[5]]
    sheet = score_rubber(walk)
    assert (sheet.total(NS), sheet.total(EW)) == (780, 760)


def test_r14_unfinished_after_deal_4() -> None:
    sheet = score_rubber(WALK[:4], stopped=True)
    assert sheet.total(NS) == 450 and sheet.total(EW) == 540
    assert sheet.winner is EW and not sheet.finished


def test_deal_after_end_of_rubber() -> None:
    with pytest.raises(ValueError, match="after the end"):
        score_rubber([*WALK, made("1C", NS, 7)])


def test_winner_ties() -> None:
    # Each side has a partscore of 20 in the unfinished game: 20 + 100 each.
    sheet = score_rubber([made("1C", NS, 7), made("1C", EW, 7)], stopped=True)
    assert sheet.total(NS) == sheet.total(EW) == 120 and sheet.winner is None
    # Games 1-1, N-S partscore: N-S 100 + 20 + 20 + 300 + 100 = 540; E-W 120 + 90 + 300 = 510.
    sheet = score_rubber([made("3NT", NS, 9), made("4H", EW, 13), made("1C", NS, 8)], stopped=True)
    assert (sheet.total(NS), sheet.total(EW)) == (540, 510) and sheet.winner is NS


def test_games_break_ties_site_rule() -> None:
    # N-S 3NT= (100 + 300 for the game) ; N-S then 1C with 3 tricks, 4 down vulnerable: 400 to E-W.
    deals = [made("3NT", NS, 9), made("1C", NS, 3)]
    plain = score_rubber(deals, stopped=True)
    assert plain.total(NS) == plain.total(EW) == 400 and plain.winner is None
    assert score_rubber(deals, stopped=True, games_break_ties=True).winner is NS  # seed [000], §12 item 14
    assert "is tied" in format_scoresheet(plain)


def test_dealer_rotation() -> None:
    sheet = score_rubber(WALK, first_dealer=Seat.SOUTH)
    assert [d.dealer for d in sheet.deals] == [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]


def test_declarer_forms() -> None:
    a = score_rubber([DealResult(Contract.parse("4S", declarer=Seat.EAST), 10)])
    b = score_rubber([DealResult(Contract.parse("4S"), 10, Seat.WEST)])
    c = score_rubber([DealResult(Contract.parse("4S"), 10, EW)])
    assert a.entries == b.entries == c.entries
    with pytest.raises(ValueError, match="no declarer"):
        DealResult(Contract.parse("4S"), 10)
    with pytest.raises(ValueError, match="disagrees"):
        DealResult(Contract.parse("4S", declarer=Seat.EAST), 10, NS)
    with pytest.raises(ValueError, match="tricks"):
        DealResult(Contract.parse("4S"), 14, NS)


def test_format_scoresheet_full_rubber() -> None:
    text = format_scoresheet(score_rubber(WALK))
    assert text.splitlines() == [
        "       We |      They",
        "----------+----------",
        "      500 |",
        "       30 |       100",
        "       30 |       500",
        "==========+==========",
        "       60 |        40",
        "       60 |",
        "----------+----------  game 1: We",
        "          |       120",
        "----------+----------  game 2: They",
        "      100 |",
        "----------+----------  game 3: We",
        "      780 |       760  total",
        "We win the rubber by 20 (games We 2, They 1).",
    ]


def test_format_scoresheet_unfinished() -> None:
    text = format_scoresheet(score_rubber(WALK[:4], stopped=True))
    assert text.splitlines()[-1] == "They win the unfinished rubber by 90 (games We 1, They 0)."
    assert text.splitlines()[:6] == [
        "       We |      They",
        "----------+----------",
        "      300 |",
        "       30 |       500",
        "==========+==========",
        "       60 |        40",
    ]


# --- properties --------------------------------------------------------------------------------

results = st.builds(
    lambda level, strain, dbl, side, tricks: DealResult(Contract(level, strain, dbl), tricks, side),
    st.integers(1, 7),
    st.sampled_from(list(Strain)),
    st.sampled_from(list(Doubling)),
    st.sampled_from(list(Side)),
    st.integers(0, 13),
)


def unfinished_prefix(deals: list[DealResult]) -> list[DealResult]:
    """The deals up to (not including) the one that would follow the end of the rubber."""
    out: list[DealResult] = []
    for d in deals:
        if score_rubber(out).finished:
            break
        out.append(d)
    return out


@given(st.lists(results, max_size=12), st.booleans())
def test_totals_are_both_columns(deals: list[DealResult], stopped: bool) -> None:
    sheet = score_rubber(unfinished_prefix(deals), stopped=stopped)
    for side in Side:
        assert sheet.total(side) == sheet.above(side) + sheet.below(side)
        assert sheet.total(side) == sum(e.points for e in sheet.entries if e.side is side)
    assert all(e.points > 0 for e in sheet.entries)
    assert sum(len(d.entries) for d in sheet.deals) + sum(1 for e in sheet.entries if e.deal is None) == len(
        sheet.entries
    )


@given(st.lists(results, max_size=8), results, st.booleans())
def test_more_tricks_never_lower_declarers_total(prefix: list[DealResult], last: DealResult, stopped: bool) -> None:
    assume(last.tricks < 13)
    before = unfinished_prefix(prefix)
    assume(not score_rubber(before).finished)
    side = last.declaring_side
    assert side is not None
    more = DealResult(last.contract, last.tricks + 1, side)
    a = score_rubber([*before, last], stopped=stopped)
    b = score_rubber([*before, more], stopped=stopped)
    deal_a = sum(e.points for e in a.deals[-1].entries if e.side is side)
    deal_b = sum(e.points for e in b.deals[-1].entries if e.side is side)
    assert deal_b >= deal_a
    assert b.total(side) >= a.total(side)


def test_card_sanity() -> None:
    # deal_with puts the named cards where asked
    d = deal_with(Seat.SOUTH, "AKQJT.432.432.32")
    assert d.holder(Card.parse("ST")) is Seat.SOUTH
