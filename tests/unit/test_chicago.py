"""Chicago scoring: bridge-rules.md §10.3 (C01-C07) and the §6.4 worked round."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import Contract, Doubling, Seat, Side, Strain, Vulnerability
from handrec.scoring.chicago import ChicagoScheme, DealResult, chicago_vulnerability, score_chicago
from handrec.scoring.duplicate import duplicate_score
from handrec.scoring.rubber import Honors

NS, EW = Side.NS, Side.EW
N, E, S, W = Seat


def r(contract: str, side: Side, tricks: int, **kw: object) -> DealResult:
    return DealResult(Contract.parse(contract), tricks, side, **kw)  # type: ignore[arg-type]


# --- C01, C02: vulnerability ----------------------------------------------------------------------

VUL_ROWS = [
    # (id, scheme, first dealer, expected deals 1-4)
    ("C01-N", ChicagoScheme.STANDARD, N, ["None", "EW", "NS", "Both"]),
    ("C01-E", ChicagoScheme.STANDARD, E, ["None", "NS", "EW", "Both"]),
    ("C02-N", ChicagoScheme.CLUB, N, ["None", "NS", "EW", "Both"]),
    ("C02-E", ChicagoScheme.CLUB, E, ["None", "EW", "NS", "Both"]),
]


@pytest.mark.parametrize(("scheme", "first", "expected"), [v[1:] for v in VUL_ROWS], ids=[v[0] for v in VUL_ROWS])
def test_vulnerability(scheme: ChicagoScheme, first: Seat, expected: list[str]) -> None:
    got = [str(chicago_vulnerability(k, first.offset(k - 1), scheme)) for k in range(1, 5)]
    assert got == expected
    # the scorer uses the same vulnerability
    res = score_chicago([r("1C", NS, 7)] * 4, first_dealer=first, scheme=scheme)
    assert [str(d.vulnerability) for d in res.deals] == expected


def test_c01_dealers_side_means_dealer() -> None:
    for k, dealer in ((2, E), (3, S), (2, W), (3, N)):
        v = chicago_vulnerability(k, dealer)
        assert v.is_vulnerable(dealer) and not v.is_vulnerable(dealer.lho)


def test_c02_club_variant_is_duplicate_boards_1_to_4() -> None:
    from handrec.rules.board import vulnerability_for_board

    for k in range(1, 5):
        assert chicago_vulnerability(k, N.offset(k - 1), ChicagoScheme.CLUB) == vulnerability_for_board(k)


def test_vulnerability_cycles_and_rejects_zero() -> None:
    assert chicago_vulnerability(6, E) == chicago_vulnerability(2, E)
    with pytest.raises(ValueError):
        chicago_vulnerability(0, N)


# --- C03, C04: bonuses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "side", "expected"),
    [(1, NS, 420), (2, EW, 620), (2, NS, 420), (3, NS, 620), (3, EW, 420), (4, NS, 620), (4, EW, 620)],
    ids=["C03-1", "C03-2-dealer", "C03-2-other", "C03-3-dealer", "C03-3-other", "C03-4-NS", "C03-4-EW"],
)
def test_c03_game_bonus_on_that_deal(deal: int, side: Side, expected: int) -> None:
    deals = [r("1C", side.other, 6)] * (deal - 1) + [r("4S", side, 10)]  # earlier deals: 1 down
    res = score_chicago(deals)
    assert res.deals[-1].points[side] == expected
    assert res.deals[-1].game is side


def test_c04_fourth_deal_partscore() -> None:
    res = score_chicago([r("1C", NS, 6)] * 3 + [r("2S", EW, 8)])
    last = res.deals[-1]
    assert last.points == (0, 60 + 100) and last.fourth_deal_bonus and last.game is None


def test_no_partscore_bonus_on_deals_1_to_3() -> None:
    res = score_chicago([r("2S", NS, 8), r("2S", EW, 8), r("1C", NS, 7)])
    assert [d.points for d in res.deals] == [(60, 0), (0, 60), (20, 0)]
    assert res.deals[-1].partscores == (80, 60)


def test_fourth_deal_bonus_even_with_open_partscores() -> None:
    res = score_chicago([r("2S", NS, 8), r("2S", EW, 8), r("1C", NS, 7), r("1C", EW, 7)])
    assert res.deals[-1].points == (0, 20 + 100)  # E-W now 80 toward game: no game
    assert res.deals[-1].partscores == (80, 80)


def test_fourth_deal_game_gets_game_bonus_not_100() -> None:
    res = score_chicago([r("1C", NS, 6)] * 3 + [r("3NT", EW, 9)])
    assert res.deals[-1].points == (0, 600) and not res.deals[-1].fourth_deal_bonus


def test_defeated_contract_uses_deal_vulnerability() -> None:
    res = score_chicago([r("1C", NS, 6), r("4SX", EW, 8)])  # deal 2, E dealer, E-W vulnerable
    assert res.deals[1].points == (500, 0)


def test_doubled_partscore_is_game() -> None:
    res = score_chicago([r("2SX", NS, 8)])
    assert res.deals[0].points == (120 + 50 + 300, 0) and res.deals[0].game is NS


def test_every_game_on_its_own_matches_duplicate() -> None:
    """A contract made with nothing carried scores exactly its duplicate score, except partscores (no 50)."""
    for level in range(1, 8):
        for strain in Strain:
            for dbl in Doubling:
                c = Contract(level, strain, dbl)
                for tricks in range(14):
                    res = score_chicago([DealResult(c, tricks, NS)])
                    dup = duplicate_score(c, False, tricks)
                    got = res.deals[0].points
                    if dup < 0:
                        assert got == (0, -dup)
                    elif res.deals[0].game is NS:
                        assert got == (dup, 0)
                    else:
                        assert got == (dup - 50, 0)


# --- C05: passed-out deal ---------------------------------------------------------------------------


def test_c05_passed_out_redealt_by_same_dealer() -> None:
    res = score_chicago([DealResult.passed_out(), r("4S", EW, 10), DealResult.passed_out(), r("1NT", NS, 7)])
    assert [(d.number, d.dealer, d.counted) for d in res.deals] == [
        (1, N, False),
        (1, N, True),
        (2, E, False),
        (2, E, True),
    ]
    assert res.deals[1].vulnerability is Vulnerability.NONE
    assert res.deals[3].vulnerability is Vulnerability.EW
    assert res.deals[0].points == res.deals[2].points == (0, 0)
    assert res.points == (40, 420)
    assert (res.next_dealer, res.next_number) == (S, 3)


# --- C06, C07: the §6.4 round -------------------------------------------------------------------------

ROUND = [r("2H", NS, 8), r("3NT", EW, 10), r("2S", NS, 9), r("2C", NS, 8)]


def test_c06_worked_round() -> None:
    res = score_chicago(ROUND)
    assert [d.points for d in res.deals] == [(60, 0), (0, 630), (90, 0), (540, 0)]
    assert [d.partscores for d in res.deals] == [(60, 0), (0, 0), (60, 0), (0, 0)]
    assert [str(d.vulnerability) for d in res.deals] == ["None", "EW", "NS", "Both"]
    assert [d.game for d in res.deals] == [None, EW, None, NS]
    assert res.points == (690, 630) and res.winner is NS
    assert res.rounds_completed == 1 and (res.next_dealer, res.next_number) == (N, 1)


def test_c07_alternative_deal_4() -> None:
    res = score_chicago([*ROUND[:3], r("1NT", EW, 7)])
    assert res.deals[-1].points == (0, 140) and res.deals[-1].fourth_deal_bonus
    assert res.points == (150, 770) and res.winner is EW


def test_partscores_do_not_carry_into_next_round() -> None:
    res = score_chicago([r("2S", NS, 8), r("1C", EW, 6), r("1C", EW, 6), r("1C", EW, 6), r("2S", NS, 8)])
    # deal 4: E-W 1C down 1 (both vul) = 100 to N-S; the 60 of deal 1 does not help deal 5
    assert res.deals[4].round == 2 and res.deals[4].number == 1
    assert res.deals[4].points == (60, 0) and res.deals[4].game is None


def test_honors_option() -> None:
    deals = [r("4S", NS, 10, honors=Honors(EW, 100))]
    assert score_chicago(deals).points == (420, 0)
    assert score_chicago(deals, honors=True).points == (420, 100)


# --- properties ---------------------------------------------------------------------------------------

results = st.one_of(
    st.just(DealResult.passed_out()),
    st.builds(
        lambda level, strain, dbl, side, tricks: DealResult(Contract(level, strain, dbl), tricks, side),
        st.integers(1, 7),
        st.sampled_from(list(Strain)),
        st.sampled_from(list(Doubling)),
        st.sampled_from(list(Side)),
        st.integers(0, 13),
    ),
)


@given(st.lists(results, max_size=12))
def test_totals_and_counting(deals: list[DealResult]) -> None:
    res = score_chicago(deals)
    assert res.points == (sum(d.points[0] for d in res.deals), sum(d.points[1] for d in res.deals))
    counted = [d for d in res.deals if d.counted]
    assert [d.number for d in counted] == [(i % 4) + 1 for i in range(len(counted))]
    assert all(d.partscores[0] < 100 and d.partscores[1] < 100 for d in res.deals)
    assert all(min(d.points) == 0 for d in res.deals)
