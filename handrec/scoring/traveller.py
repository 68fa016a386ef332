"""Event scoring: matchpoints, Neuberg, artificial scores, teams IMPs, Butler, cross-IMPs, rankings.

Every function takes the results of *one board* as a sequence of North-South
scores (points, ints; Fractions are accepted, floats are not) and returns
exact values (:class:`fractions.Fraction`, never floats).  East-West results
are the mirror image: pass ``side=Side.EW`` to get them (top - MP for
matchpoints, the negated IMPs for Butler and cross-IMPs).

Source: bridge-rules.md §8 (seed [002]); Law 12C2 for artificial scores;
the EBU's description of the Neuberg formula (M. Bavin, "The Neuberg
formula").

>>> mp([650, 620, 620, 420, 170, 140, -100])
(Fraction(6, 1), Fraction(9, 2), Fraction(9, 2), Fraction(3, 1), Fraction(2, 1), Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from handrec.model import Side
from handrec.scoring.imps import imps

__all__ = [
    "Scale",
    "top",
    "matchpoints",
    "mp",
    "mp2",
    "percentage",
    "mp_percentages",
    "neuberg",
    "ArtificialScore",
    "artificial_mp",
    "teams_imps",
    "butler_datum",
    "butler",
    "cross_imps",
    "cross_imps_average",
    "board_matchpoints",
    "session_totals",
    "session_percentages",
    "rank_totals",
]

K = TypeVar("K", bound=Hashable)
Number = int | Fraction


def _scores(scores: Iterable[Number]) -> list[Number]:
    out = list(scores)
    for s in out:
        if isinstance(s, bool) or not isinstance(s, int | Fraction):
            raise TypeError(f"scores must be ints or Fractions (exact), not {s!r}")
    return out


def _sign(side: Side) -> int:
    if not isinstance(side, Side):
        raise ValueError(f"not a side: {side!r}")
    return 1 if side is Side.NS else -1


# --- matchpoints -------------------------------------------------------------------------


class Scale(enum.Enum):
    """A matchpoint scale; the value is the points for each pair beaten.

    ``MP``: 1 per pair beaten, 1/2 per tie (ACBL), top n - 1.
    ``MP2``: 2 per pair beaten, 1 per tie (Europe), top 2(n - 1).

    Source: bridge-rules.md §8.3.

    >>> Scale.MP2.top(7)
    12
    """

    MP = 1
    MP2 = 2

    def __repr__(self) -> str:
        return f"Scale.{self.name}"

    def top(self, n: int) -> int:
        """The top on a board played ``n`` times (matchpoints)."""
        return top(n, self)


def top(n: int, scale: Scale = Scale.MP) -> int:
    """The top on a board played ``n`` times: n - 1 (MP) or 2(n - 1) (MP2).

    Source: bridge-rules.md §8.3 (seed [002]: 7 results give a top of 6).

    :raises ValueError: for ``n`` below 1.

    >>> top(7), top(7, Scale.MP2)
    (6, 12)
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"a board is played at least once, not {n!r} times")
    return scale.value * (n - 1)


def matchpoints(
    scores: Sequence[Number],
    *,
    scale: Scale = Scale.MP,
    side: Side = Side.NS,
    expected: int | None = None,
) -> tuple[Fraction, ...]:
    """Matchpoints of every result of one board, in input order.

    ``scores`` the N-S score at each table (points); ``scale`` MP (1 per pair
    beaten, 1/2 per tie) or MP2 (2 and 1); ``side`` whose matchpoints: N-S, or
    E-W (top - the N-S matchpoints); ``expected``: the number of times the
    board should have been played, when it was played fewer (or more) times:
    the results are then scaled with :func:`neuberg` to the top of
    ``expected`` results.  The N-S matchpoints of a board sum to
    ``scale * n(n-1)/2``.

    Source: bridge-rules.md §8.3 (seed [002]).

    :raises ValueError: for no scores.
    :raises TypeError: for a score that is not an int or Fraction.

    >>> matchpoints([620, 620, 170, -100], scale=Scale.MP2)
    (Fraction(5, 1), Fraction(5, 1), Fraction(2, 1), Fraction(0, 1))
    >>> matchpoints([620, 620, 170, -100], side=Side.EW)
    (Fraction(1, 2), Fraction(1, 2), Fraction(2, 1), Fraction(3, 1))
    """
    values = _scores(scores)
    n = len(values)
    if n == 0:
        raise ValueError("a board needs at least one result")
    sign = _sign(side)
    ordered = sorted(sign * v for v in values)
    unit = Fraction(scale.value)
    out = []
    for v in values:
        x = sign * v
        below = bisect_left(ordered, x)
        ties = bisect_right(ordered, x) - below - 1
        m = unit * below + unit / 2 * ties
        out.append(m if expected is None else neuberg(m, n, expected, scale=scale))
    return tuple(out)


def mp(scores: Sequence[Number], *, side: Side = Side.NS, expected: int | None = None) -> tuple[Fraction, ...]:
    """Matchpoints on the 1 / 0.5 scale (ACBL), top n - 1: :func:`matchpoints` with ``Scale.MP``.

    Source: bridge-rules.md §8.3.

    >>> mp([420, 420, 450])
    (Fraction(1, 2), Fraction(1, 2), Fraction(2, 1))
    """
    return matchpoints(scores, scale=Scale.MP, side=side, expected=expected)


def mp2(scores: Sequence[Number], *, side: Side = Side.NS, expected: int | None = None) -> tuple[Fraction, ...]:
    """Matchpoints on the 2 / 1 scale, top 2(n - 1): :func:`matchpoints` with ``Scale.MP2``.

    Source: bridge-rules.md §8.3.

    >>> mp2([420, 420, 450])
    (Fraction(1, 1), Fraction(1, 1), Fraction(4, 1))
    """
    return matchpoints(scores, scale=Scale.MP2, side=side, expected=expected)


def percentage(earned: Number, available: Number) -> Fraction:
    """``100 * earned / available``: a score as a percentage of the matchpoints available.

    Source: bridge-rules.md §8.3 (session result = percentage of the available matchpoints).

    :raises ValueError: when nothing was available.

    >>> percentage(Fraction(9, 2), 6)
    Fraction(75, 1)
    """
    if available == 0:
        raise ValueError("no matchpoints were available (a board played once has a top of 0)")
    return Fraction(earned) * 100 / Fraction(available)


def mp_percentages(scores: Sequence[Number], *, side: Side = Side.NS) -> tuple[Fraction, ...]:
    """Each result's matchpoints as a percentage of the top (the same on either scale).

    Source: bridge-rules.md §8.3.

    :raises ValueError: for a board played fewer than twice (top 0).

    >>> [str(p) for p in mp_percentages([650, 620, 620, 420, 170, 140, -100])]
    ['100', '75', '75', '50', '100/3', '50/3', '0']
    """
    values = _scores(scores)
    t = top(len(values)) if values else 0
    return tuple(percentage(m, t) for m in matchpoints(values, side=side))


def neuberg(value: Number, played: int, expected: int, *, scale: Scale = Scale.MP) -> Fraction:
    """Neuberg's formula: matchpoints on a board played ``played`` times scaled to ``expected``.

    ``value`` the matchpoints earned among ``played`` results; returns the
    matchpoints on the top of ``expected`` results.  On the 2/1 scale
    (where the formula is usually stated): ``(M + 1) * N / n - 1``; on the
    1/0.5 scale each term is halved: ``(M + 1/2) * N / n - 1/2`` (the "+1" is
    the result tying with itself, worth 1 on the 2/1 scale and 1/2 on the 1/0.5
    scale).  With ``N == n`` the value is unchanged; the average stays half the
    new top.

    Source: G. Neuberg; EBU, M. Bavin, "The Neuberg formula" (worked example:
    10 results where 11 were expected, a top of 18 becomes 19.9 out of 20).

    :raises ValueError: for ``played`` or ``expected`` below 1.

    >>> neuberg(18, 10, 11, scale=Scale.MP2)
    Fraction(199, 10)
    >>> neuberg(9, 10, 11)
    Fraction(199, 20)
    """
    for x in (played, expected):
        if not isinstance(x, int) or isinstance(x, bool) or x < 1:
            raise ValueError(f"board counts must be at least 1, not {x!r}")
    half = Fraction(scale.value, 2)
    return (Fraction(value) + half) * expected / played - half


class ArtificialScore(enum.Enum):
    """An artificial adjusted score; the value is its percentage of the top (Law 12C2).

    ``AVERAGE_PLUS`` 60 (a side in no way at fault), ``AVERAGE`` 50
    (partially at fault), ``AVERAGE_MINUS`` 40 (directly at fault).

    Source: Law 12C2(a).

    >>> ArtificialScore.AVERAGE_PLUS.value
    60
    """

    AVERAGE_PLUS = 60
    AVERAGE = 50
    AVERAGE_MINUS = 40

    def __repr__(self) -> str:
        return f"ArtificialScore.{self.name}"


def artificial_mp(kind: ArtificialScore, n: int, *, scale: Scale = Scale.MP) -> Fraction:
    """Matchpoints of an artificial adjusted score on a board whose top is that of ``n`` results.

    Average-plus 60 %, average 50 %, average-minus 40 % of the top.  The
    Laws say "at least 60 %" / "at most 40 %": these are the usual values
    (a pair's session percentage may raise average-plus by regulation; not
    done here).

    Source: Law 12C2(a).

    :raises ValueError: for ``n`` below 1.

    >>> artificial_mp(ArtificialScore.AVERAGE_PLUS, 7), artificial_mp(ArtificialScore.AVERAGE_MINUS, 7, scale=Scale.MP2)
    (Fraction(18, 5), Fraction(24, 5))
    """
    return Fraction(kind.value, 100) * top(n, scale)


# --- IMPs --------------------------------------------------------------------------------


def teams_imps(room1_ns: int, room2_ns: int) -> int:
    """IMPs won on a board of a teams match by the team sitting N-S in room 1.

    ``room1_ns`` / ``room2_ns`` the N-S scores (points) in the two rooms; the
    team's pair sits E-W in room 2, so its net score is the difference.
    The other team gets the negative.

    Source: bridge-rules.md §8.2 (seed [002]: +620 against +170 is 10 IMPs).

    >>> teams_imps(620, 170), teams_imps(-100, 420)
    (10, -11)
    """
    return imps(room1_ns - room2_ns)


def butler_datum(scores: Sequence[Number], *, round_datum: bool = False) -> Fraction:
    """The Butler datum of a board: the mean of its N-S scores without one highest and one lowest.

    ``scores`` the N-S scores (at least 3); only one instance of the highest
    and one of the lowest are removed.  ``round_datum``: round to the nearest
    10 (a half, i.e. a remainder of 5, rounds away from zero: 455 -> 460,
    -455 -> -460); default off (exact mean).

    Source: bridge-rules.md §8.4 (seed [002]; rounding [STD], an organiser's option).

    :raises ValueError: for fewer than 3 scores.

    >>> butler_datum([660, 620, 620, 420, 140, -100])
    Fraction(450, 1)
    >>> butler_datum([660, 620, 600, 420, 140, -100]), butler_datum([660, 620, 600, 420, 140, -100], round_datum=True)
    (Fraction(445, 1), Fraction(450, 1))
    """
    values = sorted(_scores(scores))
    if len(values) < 3:
        raise ValueError(f"a Butler datum needs at least 3 scores, not {len(values)}")
    kept = values[1:-1]
    datum = Fraction(sum(kept)) / len(kept)
    if round_datum:
        tens, rest = divmod(abs(datum), 10)
        r = tens + (1 if rest >= 5 else 0)
        datum = Fraction(10 * r) * (1 if datum >= 0 else -1)
    return datum


def butler(scores: Sequence[Number], *, side: Side = Side.NS, round_datum: bool = False) -> tuple[int, ...]:
    """Butler IMPs of each result of a board: ``imps(score - datum)``, in input order.

    ``scores`` the N-S scores (at least 3); ``side`` N-S, or E-W (the
    negatives); ``round_datum`` as :func:`butler_datum`.

    Source: bridge-rules.md §8.4 (seed [002]).

    :raises ValueError: for fewer than 3 scores.

    >>> butler([660, 620, 620, 420, 140, -100])
    (5, 5, 5, -1, -7, -11)
    """
    values = _scores(scores)
    datum = butler_datum(values, round_datum=round_datum)
    sign = _sign(side)
    return tuple(sign * imps(v - datum) for v in values)


def cross_imps(scores: Sequence[Number], *, side: Side = Side.NS) -> tuple[int, ...]:
    """Cross-IMP totals: each result against every other result of the board, in IMPs.

    ``scores`` the N-S scores; ``side`` N-S, or E-W (the negatives).  The
    totals of a board sum to zero.

    Source: bridge-rules.md §8.5 (seed [002]).

    >>> cross_imps([620, 620, 170, -100])
    (22, 22, -13, -31)
    """
    values = _scores(scores)
    sign = _sign(side)
    return tuple(sign * sum(imps(v - w) for j, w in enumerate(values) if j != i) for i, v in enumerate(values))


def cross_imps_average(scores: Sequence[Number], *, side: Side = Side.NS) -> tuple[Fraction, ...]:
    """Cross-IMP totals divided by the number of comparisons, n - 1 (exact Fractions).

    Source: bridge-rules.md §8.5 (seed [002]).

    :raises ValueError: for fewer than 2 scores (no comparison).

    >>> cross_imps_average([620, 620, 170, -100])
    (Fraction(22, 3), Fraction(22, 3), Fraction(-13, 3), Fraction(-31, 3))
    """
    values = _scores(scores)
    if len(values) < 2:
        raise ValueError("cross-IMPs need at least 2 scores")
    return tuple(Fraction(t, len(values) - 1) for t in cross_imps(values, side=side))


# --- sessions ------------------------------------------------------------------------------


def board_matchpoints(
    results: Sequence[tuple[K, K, Number]],
    *,
    scale: Scale = Scale.MP,
    expected: int | None = None,
) -> dict[K, Fraction]:
    """Matchpoints per pair on one board of a pairs event.

    ``results`` one ``(ns_pair, ew_pair, ns_score)`` per table (any hashable
    pair ids, points); ``scale`` and ``expected`` as :func:`matchpoints`.
    Returns each pair's matchpoints: N-S pairs theirs, E-W pairs top - N-S.

    Source: bridge-rules.md §8.3.

    :raises ValueError: for no results or a pair appearing twice.

    >>> board_matchpoints([(1, 11, 420), (2, 12, 450), (3, 13, 420)])
    {1: Fraction(1, 2), 11: Fraction(3, 2), 2: Fraction(2, 1), 12: Fraction(0, 1), 3: Fraction(1, 2), 13: Fraction(3, 2)}
    """
    scores = [r[2] for r in results]
    ns = matchpoints(scores, scale=scale, expected=expected)
    ew = matchpoints(scores, scale=scale, expected=expected, side=Side.EW)
    out: dict[K, Fraction] = {}
    for (a, b, _), m, n in zip(results, ns, ew):
        for pair, v in ((a, m), (b, n)):
            if pair in out:
                raise ValueError(f"pair {pair!r} appears twice on the board")
            out[pair] = v
    return out


def session_totals(boards: Iterable[Mapping[K, Number]]) -> dict[K, Number]:
    """Sum each pair's (or team's) score over the boards it played.

    ``boards`` one mapping ``{pair: score}`` per board (matchpoints, IMPs or
    points).  Returns ``{pair: total}`` in order of first appearance.

    Source: bridge-rules.md §8.3 (a session result adds the boards).

    >>> session_totals([{"A": Fraction(3), "B": 1}, {"A": Fraction(1, 2), "C": 2}])
    {'A': Fraction(7, 2), 'B': 1, 'C': 2}
    """
    out: dict[K, Number] = {}
    for board in boards:
        for pair, v in board.items():
            out[pair] = out.get(pair, 0) + v
    return out


def session_percentages(boards: Iterable[tuple[Mapping[K, Number], Number]]) -> dict[K, Fraction]:
    """Each pair's session percentage: 100 * matchpoints earned / tops of the boards it played.

    ``boards`` one ``({pair: matchpoints}, top)`` per board.

    Source: bridge-rules.md §8.3.

    :raises ValueError: for a pair whose boards all have a top of 0.

    >>> session_percentages([({"A": 3, "B": 1}, 4), ({"A": 1, "B": 3}, 4)])
    {'A': Fraction(50, 1), 'B': Fraction(50, 1)}
    """
    earned: dict[K, Number] = {}
    available: dict[K, Number] = {}
    for board, t in boards:
        for pair, v in board.items():
            earned[pair] = earned.get(pair, 0) + v
            available[pair] = available.get(pair, 0) + t
    return {pair: percentage(earned[pair], available[pair]) for pair in earned}


def rank_totals(
    totals: Mapping[K, Number],
    *,
    tie_style: str = "=",
    descending: bool = True,
) -> list[tuple[str, K, Number]]:
    """Rank pairs (or teams) by total; tied totals share a rank.

    ``totals`` ``{pair: total}``; ``descending`` True when more is better.
    Returns ``(rank_label, pair, total)`` best first; tied entries keep their
    input order.  Rank labels: a single rank is ``"1"``; tied pairs share the
    label of the places they occupy, ``"2="`` with ``tie_style="="`` (the
    default, as EBU result sheets print it) or ``"2-3"`` with ``tie_style="-"``
    (ACBL style).  The next rank after a tie skips the shared places.

    Source: a presentation choice ([IMPL]); the Laws do not fix the notation.

    :raises ValueError: for an unknown ``tie_style``.

    >>> rank_totals({"A": 55, "B": 61, "C": 55, "D": 40})
    [('1', 'B', 61), ('2=', 'A', 55), ('2=', 'C', 55), ('4', 'D', 40)]
    >>> [r[0] for r in rank_totals({"A": 55, "B": 61, "C": 55, "D": 40}, tie_style="-")]
    ['1', '2-3', '2-3', '4']
    """
    if tie_style not in ("=", "-"):
        raise ValueError(f"tie_style is '=' or '-', not {tie_style!r}")
    items = sorted(totals.items(), key=lambda kv: kv[1], reverse=descending)
    out: list[tuple[str, K, Number]] = []
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and items[j + 1][1] == items[i][1]:
            j += 1
        if i == j:
            label = str(i + 1)
        elif tie_style == "=":
            label = f"{i + 1}="
        else:
            label = f"{i + 1}-{j + 1}"
        out.extend((label, k, v) for k, v in items[i : j + 1])
        i = j + 1
    return out
