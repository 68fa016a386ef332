"""A claimed figure read and compared: ScoreMP, ScoreIMP, ScorePercentage, ScoreRubber values.

:func:`parse_claim` reads the five forms of PBN 2.1 §4.2.1 (``12``, ``NS 12``, ``EW -3``,
``NS 4 EW -4``, ``EW -4 NS 4``; ScoreRubber ``above/below``); :func:`agrees` says whether
a claimed decimal is an exact value rounded (within half a unit of its last digit, either
rounding rule); :func:`impossible_claim` says why a figure no scoring can give is
impossible (S616).  The checks that compare claims with the board's results are
:mod:`handrec.events.checks` and its ``checks_*`` siblings.

Sources: PBN 2.1 §4.2; bridge-rules.md §8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from handrec.events.report import fmt_number
from handrec.model import sided_parts

__all__ = ["parse_claim", "agrees", "impossible_claim"]


_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_RUB = r"\d+\s*/\s*\d+"


@dataclass(frozen=True, slots=True)
class _Part:
    side: str | None  # "NS", "EW", or None (declarer's side)
    value: Fraction
    decimals: int
    below: int | None = None  # ScoreRubber: the second number (below the line)


def _decimals(text: str) -> int:
    t = text.strip()
    return len(t.split(".", 1)[1]) if "." in t else 0


def parse_claim(tag: str, value: str) -> tuple[_Part, ...] | None:
    """Read a claimed figure in the five forms of PBN 2.1 §4.2.1 (``12``, ``NS 12``, ``EW -3``,
    ``NS 4 EW -4``, ``EW -4 NS 4``); ScoreRubber values are ``above/below``.  ``None`` if unreadable.

    >>> [(p.side, str(p.value), p.decimals) for p in parse_claim("ScorePercentage", "NS 26.32")]
    [('NS', '658/25', 2)]
    >>> [(p.side, int(p.value), p.below) for p in parse_claim("ScoreRubber", "EW 300/40 NS 50 / 70")]
    [('EW', 300, 40), ('NS', 50, 70)]
    """
    rubber = tag == "ScoreRubber"
    parts = sided_parts(value, _RUB if rubber else _NUM, any_case=True)
    if parts is None:
        return None
    out = []
    for side, v in parts:
        if rubber:
            a, b = (int(x) for x in v.split("/"))
            out.append(_Part(side, Fraction(a), 0, b))
        else:
            out.append(_Part(side, Fraction(v.strip()), _decimals(v)))
    return tuple(out)


def agrees(claimed: Fraction, decimals: int, exact: Fraction) -> bool:
    """Whether a claimed decimal with ``decimals`` digits is ``exact`` rounded (either rounding rule).

    >>> agrees(Fraction("26.32"), 2, Fraction(500, 19)), agrees(Fraction(4), 0, Fraction(9, 2))
    (True, True)
    >>> agrees(Fraction(10), 0, Fraction(11))
    False
    """
    return abs(claimed - exact) <= Fraction(1, 2 * 10**decimals)


def _half(p: _Part) -> Fraction:
    """Half a unit of the last digit of a claimed value: how far it may be from the exact one."""
    return Fraction(1, 2 * 10**p.decimals)


def impossible_claim(tag: str, parts: Sequence[_Part], *, played: bool = True) -> str | None:
    """Why a claimed ScorePercentage, ScoreIMP or ScoreMP (:func:`parse_claim`) is impossible
    whatever the other results of its board, else ``None``.  Needs no other result: checked
    for every game, a board played once included.

    * a percentage is 0 to 100 (PBN 2.1 §4.2.4); matchpoints are never negative (§4.2.3,
      bridge-rules.md §8.3);
    * for a played result (a score, ``played``), N-S and E-W given both: the percentages add
      up to 100 (100 * (MP_NS + MP_EW) / top, MP_NS + MP_EW = top, Neuberg's formula
      included) and the IMPs to 0 (what one side wins the other loses: teams, Butler and
      cross-IMPs, §8.2-8.5).  An unplayed board's Law 12C2 artificial scores need not
      (40 % to both sides at fault), so they are not checked.

    Decimals: a value within half a unit of its last digit of a possible one is possible
    (as :func:`agrees`).

    >>> impossible_claim("ScorePercentage", parse_claim("ScorePercentage", "NS 126.32"))
    'a percentage is from 0 to 100'
    >>> impossible_claim("ScoreIMP", parse_claim("ScoreIMP", "NS 4 EW 4"))
    'the N-S and E-W IMPs add up to 8, not 0 (what one side wins, the other loses)'
    >>> impossible_claim("ScorePercentage", parse_claim("ScorePercentage", "NS 33.33 EW 66.67")) is None
    True
    """
    if tag == "ScorePercentage":
        for p in parts:
            if p.value < -_half(p) or p.value > 100 + _half(p):
                return "a percentage is from 0 to 100"
    elif tag == "ScoreMP":
        for p in parts:
            if p.value < -_half(p):
                return "matchpoints are never negative"
    if len(parts) != 2 or not played:
        return None
    total = parts[0].value + parts[1].value
    slack = _half(parts[0]) + _half(parts[1])
    if tag == "ScorePercentage" and abs(total - 100) > slack:
        return f"the N-S and E-W percentages add up to {fmt_number(total)}, not 100"
    if tag == "ScoreIMP" and abs(total) > slack:
        return f"the N-S and E-W IMPs add up to {fmt_number(total)}, not 0 (what one side wins, the other loses)"
    return None
