"""International Match Points: the IMP scale (bridge-rules.md §8.1).

>>> imps(620 - 170), imps(-450), imps(19.5)
(10, -10, 0)
"""

from __future__ import annotations

import math
from bisect import bisect_right
from fractions import Fraction

__all__ = ["IMP_THRESHOLDS", "imps"]

#: Lower bounds (points) for 1..24 IMPs (bridge-rules.md §8.1 [IMPL]).
IMP_THRESHOLDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def imps(difference: int | float | Fraction) -> int:
    """Convert a score difference (points) to IMPs, keeping its sign.

    ``difference`` may be an int, float or Fraction (Butler and cross-IMP
    averages are not whole numbers).  Returns -24..24: the number of
    thresholds of the IMP scale not above ``abs(difference)``, so 19.5 gives 0
    and 20 gives 1; 4000 and more give 24.  ``imps(-d) == -imps(d)``.

    Source: bridge-rules.md §8.1-8.2 (seed [002]'s table; §12 item 12).

    :raises ValueError: for NaN.

    >>> imps(30), imps(40), imps(4000), imps(Fraction(-1001, 2))
    (1, 1, 24, -11)
    """
    if isinstance(difference, float) and math.isnan(difference):
        raise ValueError("IMP difference is NaN")
    n = bisect_right(IMP_THRESHOLDS, abs(difference))
    return -n if difference < 0 else n
