"""Event scoring: bridge-rules.md §10.7 I06-I09, Neuberg, artificial scores, rankings, properties.

All values are exact (Fractions); floats are refused.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.model import Side
from handrec.scoring.imps import imps
from handrec.scoring.traveller import (
    ArtificialScore,
    Scale,
    artificial_mp,
    board_matchpoints,
    butler,
    butler_datum,
    cross_imps,
    cross_imps_average,
    matchpoints,
    mp,
    mp2,
    mp_percentages,
    neuberg,
    percentage,
    rank_totals,
    session_percentages,
    session_totals,
    teams_imps,
    top,
)

F = Fraction
EW = Side.EW

MP_BOARD = [650, 620, 620, 420, 170, 140, -100]  # §8.3
BUTLER_BOARD = [660, 620, 620, 420, 140, -100]  # §8.4
CROSS_BOARD = [620, 620, 170, -100]  # §8.5


# --- I06, I07: matchpoints ----------------------------------------------------------------------------


def test_i06_top() -> None:
    assert top(7) == 6 and top(7, Scale.MP2) == 12
    assert max(mp(MP_BOARD)) == 6 and max(mp2(MP_BOARD)) == 12


def test_i07_matchpoints() -> None:
    got = mp(MP_BOARD)
    assert got == (6, F(9, 2), F(9, 2), 3, 2, 1, 0)
    assert all(type(x) is Fraction for x in got)
    assert sum(got) == 21 == 7 * 6 // 2
    assert mp2(MP_BOARD) == (12, 9, 9, 6, 4, 2, 0)
    assert mp_percentages(MP_BOARD) == (100, 75, 75, 50, F(100, 3), F(50, 3), 0)


def test_i07_ew_get_top_minus_mp() -> None:
    assert mp(MP_BOARD, side=EW) == tuple(6 - m for m in mp(MP_BOARD))
    assert mp2(MP_BOARD, side=EW) == (0, 3, 3, 6, 8, 10, 12)
    assert mp_percentages(MP_BOARD, side=EW)[0] == 0


def test_single_result() -> None:
    assert mp([420]) == (0,)
    with pytest.raises(ValueError):
        mp_percentages([420])
    with pytest.raises(ValueError):
        mp([])


def test_exact_inputs_only() -> None:
    with pytest.raises(TypeError):
        mp([420.0, 450])
    with pytest.raises(TypeError):
        butler([True, 420, 450])
    assert mp([F(841, 2), 420]) == (1, 0)


# --- Neuberg ---------------------------------------------------------------------------------------------


def test_neuberg_ebu_example() -> None:
    # EBU (Bavin): 10 results where 11 were expected, top 20 on the 2/1 scale.
    assert neuberg(18, 10, 11, scale=Scale.MP2) == F(199, 10)  # the 19.9 of the article
    assert neuberg(0, 10, 11, scale=Scale.MP2) == F(1, 10)
    assert neuberg(9, 10, 11) == F(199, 20)  # same on the 1/0.5 scale: half of it
    # "played 8 times, expected 16": each result counts twice
    assert neuberg(14, 8, 16, scale=Scale.MP2) == 29


def test_neuberg_identity_and_board() -> None:
    assert neuberg(F(9, 2), 7, 7) == F(9, 2)
    scores = [620, 620, 170, -100]
    assert matchpoints(scores, scale=Scale.MP2, expected=5) == tuple(
        neuberg(m, 4, 5, scale=Scale.MP2) for m in mp2(scores)
    )
    with pytest.raises(ValueError):
        neuberg(1, 0, 4)


@given(
    st.lists(st.integers(-30, 30).map(lambda x: 10 * x), min_size=1, max_size=12),
    st.integers(1, 15),
    st.sampled_from(list(Scale)),
)
def test_neuberg_keeps_average_half_the_new_top(scores: list[int], expected: int, scale: Scale) -> None:
    adj = matchpoints(scores, scale=scale, expected=expected)
    assert sum(adj) == F(len(scores) * top(expected, scale), 2)
    assert all(type(x) is Fraction for x in adj)


# --- artificial adjusted scores (Law 12C2) -------------------------------------------------------------


def test_artificial_scores() -> None:
    assert artificial_mp(ArtificialScore.AVERAGE_PLUS, 7) == F(18, 5)
    assert artificial_mp(ArtificialScore.AVERAGE, 7) == 3
    assert artificial_mp(ArtificialScore.AVERAGE_MINUS, 7) == F(12, 5)
    assert artificial_mp(ArtificialScore.AVERAGE_PLUS, 7, scale=Scale.MP2) == F(36, 5)
    assert percentage(artificial_mp(ArtificialScore.AVERAGE_MINUS, 13), top(13)) == 40


# --- teams IMPs ---------------------------------------------------------------------------------------------


def test_teams_imps() -> None:
    assert teams_imps(620, 170) == 10  # §8.2 (I01)
    assert teams_imps(170, 620) == -10
    assert teams_imps(-100, -100) == 0


# --- I08: Butler -----------------------------------------------------------------------------------------------


def test_i08_butler() -> None:
    assert butler_datum(BUTLER_BOARD) == 450
    assert butler(BUTLER_BOARD) == (5, 5, 5, -1, -7, -11)
    assert butler(BUTLER_BOARD, side=EW) == (-5, -5, -5, 1, 7, 11)


def test_butler_removes_one_highest_and_one_lowest_only() -> None:
    assert butler_datum([620, 620, 620, 100]) == 620
    assert butler_datum([100, 100, 100, 700]) == 100
    assert butler_datum([0, 50, 100]) == 50


def test_butler_datum_rounding() -> None:
    board = [660, 620, 600, 420, 140, -100]  # exact datum 445
    assert butler_datum(board) == 445
    assert butler_datum(board, round_datum=True) == 450
    assert butler_datum([0, 0, 443, 1000], round_datum=True) == F(220)  # 221.5 -> 220
    assert butler_datum([-1000, -455, -455, 0], round_datum=True) == -460
    assert butler(board, round_datum=True) == tuple(imps(s - 450) for s in board)
    assert butler(board) == (5, 5, 4, -1, -7, -11)  # 215, 175, 155, -25, -305, -545


def test_butler_needs_three() -> None:
    with pytest.raises(ValueError):
        butler([420, 450])


# --- I09: cross-IMPs --------------------------------------------------------------------------------------------


def test_i09_cross_imps() -> None:
    assert cross_imps(CROSS_BOARD) == (22, 22, -13, -31)
    assert cross_imps_average(CROSS_BOARD) == (F(22, 3), F(22, 3), F(-13, 3), F(-31, 3))
    assert [round(float(x), 2) for x in cross_imps_average(CROSS_BOARD)] == [7.33, 7.33, -4.33, -10.33]
    assert cross_imps(CROSS_BOARD, side=EW) == (-22, -22, 13, 31)
    with pytest.raises(ValueError):
        cross_imps_average([420])


# --- sessions and rankings ------------------------------------------------------------------------------------


def test_board_matchpoints_and_session() -> None:
    b1 = board_matchpoints([("A", "X", 420), ("B", "Y", 450), ("C", "Z", -50)])
    b2 = board_matchpoints([("A", "Y", 100), ("B", "Z", 100), ("C", "X", 110)])
    assert b1 == {"A": 1, "X": 1, "B": 2, "Y": 0, "C": 0, "Z": 2}
    assert b2 == {"A": F(1, 2), "Y": F(3, 2), "B": F(1, 2), "Z": F(3, 2), "C": 2, "X": 0}
    totals = session_totals([b1, b2])
    assert totals == {"A": F(3, 2), "X": 1, "B": F(5, 2), "Y": F(3, 2), "C": 2, "Z": F(7, 2)}
    pct = session_percentages([(b1, top(3)), (b2, top(3))])
    assert pct["Z"] == F(175, 2) and pct["X"] == 25
    assert rank_totals(totals) == [
        ("1", "Z", F(7, 2)),
        ("2", "B", F(5, 2)),
        ("3", "C", 2),
        ("4=", "A", F(3, 2)),
        ("4=", "Y", F(3, 2)),
        ("6", "X", 1),
    ]
    with pytest.raises(ValueError, match="twice"):
        board_matchpoints([("A", "X", 420), ("A", "Y", 450)])


def test_rank_totals_styles() -> None:
    totals = {"T1": 30, "T2": 30, "T3": 30, "T4": 12}
    assert [r[0] for r in rank_totals(totals)] == ["1=", "1=", "1=", "4"]
    assert [r[0] for r in rank_totals(totals, tie_style="-")] == ["1-3", "1-3", "1-3", "4"]
    assert [r[1] for r in rank_totals(totals, descending=False)] == ["T4", "T1", "T2", "T3"]
    assert rank_totals({}) == []
    with pytest.raises(ValueError):
        rank_totals(totals, tie_style="/")


def test_session_percentage_with_neuberg_board() -> None:
    # A board played twice where 3 results were expected is scaled to the top of 3 results (2).
    b = board_matchpoints([("A", "X", 420), ("B", "Y", 450)], expected=3)
    assert b == {"A": F(1, 4), "X": F(7, 4), "B": F(7, 4), "Y": F(1, 4)}
    full = board_matchpoints([("A", "Y", 420), ("B", "X", 450), ("C", "Z", 430)])
    pct = session_percentages([(b, top(3)), (full, top(3))])
    assert pct["B"] == percentage(F(7, 4) + 2, 4)


# --- properties ---------------------------------------------------------------------------------------------------

boards = st.lists(st.integers(-200, 200).map(lambda x: 10 * x), min_size=1, max_size=15)


@given(boards)
def test_mp_sums(scores: list[int]) -> None:
    n = len(scores)
    assert sum(mp(scores)) == F(n * (n - 1), 2)
    assert sum(mp2(scores)) == n * (n - 1)
    assert all(0 <= m <= top(n) for m in mp(scores))
    assert all(a + b == top(n) for a, b in zip(mp(scores), mp(scores, side=EW)))
    assert mp2(scores) == tuple(2 * m for m in mp(scores))


@given(boards)
def test_cross_imps_sum_to_zero(scores: list[int]) -> None:
    assert sum(cross_imps(scores)) == 0
    if len(scores) > 1:
        assert sum(cross_imps_average(scores)) == 0


@given(st.integers(-8000, 8000), st.integers(-8000, 8000))
def test_imps_antisymmetric(a: int, b: int) -> None:
    assert teams_imps(a, b) == -teams_imps(b, a)


@given(st.lists(st.integers(-200, 200).map(lambda x: 10 * x), min_size=3, max_size=15), st.booleans())
def test_butler_datum_between_extremes(scores: list[int], rounding: bool) -> None:
    d = butler_datum(scores, round_datum=rounding)
    s = sorted(scores)
    assert s[0] <= d <= s[-1]
    assert butler(scores, side=EW, round_datum=rounding) == tuple(-x for x in butler(scores, round_datum=rounding))


@given(st.dictionaries(st.integers(0, 30), st.integers(0, 10), max_size=12))
def test_rank_labels(totals: dict[int, int]) -> None:
    ranked = rank_totals(totals)
    assert sorted(r[1] for r in ranked) == sorted(totals)
    for label, _pair, total in ranked:
        better = sum(1 for v in totals.values() if v > total)
        assert label.rstrip("=").split("-")[0] == str(better + 1)


def test_deal_text_is_str_of_the_deal() -> None:
    """``deal_text`` (hands from their card bits) writes what ``str(deal)`` writes: full,
    partial and fragment hands, hands not given, a card repeated in a hand, cards built by hand."""
    import random

    from handrec.events.games import deal_text
    from handrec.model import ALL_CARDS, Card, Deal, Hand, Rank, Suit

    rng = random.Random(7)
    for _ in range(500):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        k = rng.choice([13, 13, 5, 0])
        hands = tuple(Hand(tuple(cards[i * 13 : i * 13 + k])) if rng.random() > 0.1 else None for i in range(4))
        deal = Deal(hands)
        assert deal_text(deal) == str(deal)
    ace = Card(Suit.SPADES, Rank.ACE)  # not the shared instance
    deal = Deal((Hand((ace, ace, Card(Suit.CLUBS, Rank.TWO))), None, None, None))
    assert deal_text(deal) == str(deal) == "N:AA...2 - - -"
