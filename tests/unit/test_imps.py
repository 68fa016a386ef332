"""IMP scale: bridge-rules.md §10.7 I01-I05 and the §8.1 table."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handrec.scoring.imps import IMP_THRESHOLDS, imps

ROWS = [
    ("I01", 620 - 170, 10),
    ("I02", 30, 1),
    ("I03-20", 20, 1),
    ("I03-40", 40, 1),
    ("I04-4000", 4000, 24),
    ("I04-5000", 5000, 24),
    ("I05-10", 10, 0),
    ("I05-19", 19, 0),
    ("I05-49", 49, 1),
    ("I05-50", 50, 2),
    ("I05-minus450", -450, -10),
]


@pytest.mark.parametrize(("difference", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_imp_rows(difference: int, expected: int) -> None:
    assert imps(difference) == expected


# §8.1 table: (lowest difference, highest difference, IMPs)
TABLE = [
    (0, 19, 0), (20, 49, 1), (50, 89, 2), (90, 129, 3), (130, 169, 4), (170, 219, 5),
    (220, 269, 6), (270, 319, 7), (320, 369, 8), (370, 429, 9), (430, 499, 10), (500, 599, 11),
    (600, 749, 12), (750, 899, 13), (900, 1099, 14), (1100, 1299, 15), (1300, 1499, 16),
    (1500, 1749, 17), (1750, 1999, 18), (2000, 2249, 19), (2250, 2499, 20), (2500, 2999, 21),
    (3000, 3499, 22), (3500, 3999, 23), (4000, 100000, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), TABLE, ids=[f"8.1-{t[2]}imps" for t in TABLE])
def test_imp_table_bands(low: int, high: int, expected: int) -> None:
    assert imps(low) == imps(high) == expected
    assert imps(-low) == imps(-high) == -expected


def test_thresholds_match_table() -> None:
    assert list(IMP_THRESHOLDS) == [t[0] for t in TABLE[1:]]


def test_fractional_differences() -> None:
    assert imps(19.5) == 0
    assert imps(Fraction(39, 2)) == 0
    assert imps(20.0) == 1
    assert imps(Fraction(-8999, 2)) == -24


def test_nan_rejected() -> None:
    with pytest.raises(ValueError):
        imps(float("nan"))


@given(st.integers(-10000, 10000))
def test_antisymmetric(d: int) -> None:
    assert imps(-d) == -imps(d)


@given(st.fractions(min_value=-10000, max_value=10000))
def test_antisymmetric_fractions(d: Fraction) -> None:
    assert imps(-d) == -imps(d)


@given(st.integers(0, 10000), st.integers(0, 10000))
def test_monotonic(a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    assert 0 <= imps(lo) <= imps(hi) <= 24
