"""Duplicate (per-deal) scoring: Law 77 as restated in bridge-rules.md §4.

All scores are points for the *declaring side*; a negative score means the
defenders score its absolute value.  :func:`score_ns` turns that into the
North-South view used in travellers and PBN ``Score "NS ..."``.

>>> from handrec.model import Contract, Seat, Vulnerability
>>> duplicate_score(Contract.parse("4HX"), True, 10)
790
>>> score_ns(Contract.parse("3NT", declarer=Seat.EAST), Vulnerability.NONE, 10)
-430
"""

from __future__ import annotations

from handrec.model import Contract, Doubling, Strain, Vulnerability

__all__ = ["trick_score", "undertrick_penalty", "duplicate_score", "score_ns"]


def _check(level: object, strain: object, doubling: object) -> None:
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 7:
        raise ValueError(f"level must be 1-7, not {level!r}")
    if not isinstance(strain, int) or isinstance(strain, bool) or not 0 <= strain <= 4:
        raise ValueError(f"not a strain: {strain!r}")
    if not isinstance(doubling, int) or isinstance(doubling, bool) or not 0 <= doubling <= 2:
        raise ValueError(f"not a doubling: {doubling!r}")


def trick_score(level: int, strain: Strain, doubling: Doubling | int = Doubling.UNDOUBLED) -> int:
    """Trick score of a contract bid and made: points for the odd tricks bid.

    ``level`` 1-7; ``strain`` a :class:`~handrec.model.Strain`; ``doubling``
    0/1/2 (undoubled, doubled, redoubled).  Returns points: 20 per odd trick
    in clubs/diamonds, 30 in hearts/spades, 40 for the first and 30 for each
    further odd trick at no trump; doubled x2, redoubled x4.  A trick score of
    100 or more is a game (bridge-rules.md §4.3).

    Source: Law 77; bridge-rules.md §4.2.

    :raises ValueError: for a level, strain or doubling out of range.

    >>> trick_score(3, Strain.NOTRUMP), trick_score(4, Strain.CLUBS), trick_score(2, Strain.SPADES, Doubling.DOUBLED)
    (100, 80, 120)
    """
    _check(level, strain, doubling)
    if strain <= Strain.DIAMONDS:
        base = 20 * level
    elif strain <= Strain.SPADES:
        base = 30 * level
    else:
        base = 40 + 30 * (level - 1)
    return base * (1, 2, 4)[doubling]


def undertrick_penalty(n: int, doubling: Doubling | int, vulnerable: bool) -> int:
    """Points the defenders score when declarer goes ``n`` down.

    ``n`` undertricks, 0-13 (0 gives 0); ``doubling`` 0/1/2; ``vulnerable``
    is the declaring side's vulnerability.  Undoubled 50 (NV) / 100 (V) each;
    doubled NV 100, 200, 200, then 300 each; doubled V 200, then 300 each;
    redoubled twice the doubled amounts.  Returns a positive number of points.

    Source: Law 77; bridge-rules.md §4.6 (the post-1987 scale; bridge-rules.md
    §12 items 1-2 explain why seed [000]'s older figures are not used).

    :raises ValueError: for ``n`` outside 0-13 or a bad doubling.

    >>> undertrick_penalty(3, Doubling.DOUBLED, False), undertrick_penalty(3, Doubling.DOUBLED, True)
    (500, 800)
    """
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 13:
        raise ValueError(f"undertricks must be 0-13, not {n!r}")
    if not isinstance(doubling, int) or isinstance(doubling, bool) or not 0 <= doubling <= 2:
        raise ValueError(f"not a doubling: {doubling!r}")
    if n == 0:
        return 0
    if doubling == 0:
        return (100 if vulnerable else 50) * n
    if vulnerable:
        doubled = 300 * n - 100
    else:
        doubled = 100 if n == 1 else 300 if n == 2 else 300 * n - 400
    return doubled * doubling  # redoubled = 2 x doubled


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Duplicate score of one deal for the declaring side.

    ``contract`` gives level, strain and doubling (its declarer is ignored);
    ``vulnerable`` is the declaring side's vulnerability; ``tricks`` the tricks
    taken by declarer, 0-13.  Returns points for the declaring side: positive
    when the contract is made (trick score, game/partscore bonus, slam bonus,
    insult, overtricks), negative (the defenders' penalty) when it fails; 0 for
    a passed-out deal.

    Source: Law 77; bridge-rules.md §4.7.

    :raises ValueError: for tricks outside 0-13, a malformed contract, or an
        end position (PBN 2.1 §3.10: no score).

    >>> duplicate_score(Contract.parse("4HX"), True, 10)
    790
    >>> duplicate_score(Contract.parse("5NTX"), False, 8)
    -500
    >>> duplicate_score(Contract.parse("Pass"), True, 0)
    0
    """
    if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0-13, not {tricks!r}")
    level = contract.level
    if contract.is_end_position:
        raise ValueError(f"an end position ({contract}) has no duplicate score")
    if level == 0:
        return 0
    strain, dbl = contract.strain, contract.doubling
    ts = trick_score(level, strain, dbl)  # type: ignore[arg-type]
    need = level + 6
    if tricks < need:
        return -undertrick_penalty(need - tricks, dbl, vulnerable)
    score = ts + ((500 if vulnerable else 300) if ts >= 100 else 50)
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    over = tricks - need
    if dbl == 0:
        score += over * (20 if strain <= Strain.DIAMONDS else 30)  # type: ignore[operator]
    else:
        score += 50 * dbl + over * (100 * dbl) * (2 if vulnerable else 1)
    return score


def score_ns(contract: Contract, vulnerability: Vulnerability, tricks: int) -> int:
    """Duplicate score from North-South's point of view.

    ``contract`` must carry its declarer (unless passed out);
    ``vulnerability`` is the board's; ``tricks`` the tricks taken by
    declarer, 0-13.  Returns points for North-South: the declaring side's
    score, negated when East or West declares; 0 when passed out.

    Source: Law 77; bridge-rules.md §4.7 ("N-S and E-W scores are equal and
    opposite").

    :raises ValueError: when the declarer is missing, for an end position
        (PBN 2.1 §3.10), or as :func:`duplicate_score`.

    >>> from handrec.model import Seat
    >>> score_ns(Contract.parse("4S", declarer=Seat.NORTH), Vulnerability.EW, 10)
    420
    >>> score_ns(Contract.parse("4S", declarer=Seat.WEST), Vulnerability.EW, 9)
    100
    """
    if contract.is_passed_out:
        return 0
    if contract.is_end_position:
        raise ValueError(f"an end position ({contract}) has no duplicate score")
    declarer = contract.declarer
    if declarer is None:
        raise ValueError(f"contract {contract} has no declarer")
    score = duplicate_score(contract, vulnerability.is_vulnerable(declarer), tricks)
    return score if declarer % 2 == 0 else -score
