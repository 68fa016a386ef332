"""Par: the result of perfect bidding on a double-dummy table, and how files write it.

*Par* is the contract both sides reach when each bids on exactly while it
pays and doubles every contract that fails (:func:`par`).  Files write it
as ``OptimumScore`` (PBN 2.1 §4.2.7), BEN's ``ParScore`` and
``ParContract`` (BridgeComposer, pbn.md §17).

>>> from handrec.dd.table import DDTable
>>> p = par(DDTable.parse_hex("7c5c67c5c61181711817"), Vulnerability.NONE, Seat.NORTH)
>>> p.label, [str(c) for c in p.contracts]
('NS +980', ['NS 6S='])
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from handrec.dd.table import STRAIN_LETTERS, DDError, DDTable
from handrec.model import Contract, Doubling, Seat, Side, Strain, Vulnerability
from handrec.scoring.duplicate import duplicate_score

__all__ = ["ParContract", "Par", "par", "parse_optimum_score", "parse_par_contracts"]


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: ``level`` 1-7, ``strain``, ``doubled`` (a failing
    sacrifice), ``declarers`` (the seats of one side that reach the result,
    N E S W order) and ``result``: tricks relative to the contract (``0``
    made exactly, ``+n`` overtricks, ``-n`` down n).

    ``str()`` is the ``ParContract`` spelling of BridgeComposer (pbn.md §17).

    >>> c = ParContract.parse("EW 5SX-2")
    >>> c.declarers, c.doubled, c.result, str(c)
    ((Seat.EAST, Seat.WEST), True, -2, 'EW 5SX-2')
    """

    level: int
    strain: Strain
    doubled: bool
    declarers: tuple[Seat, ...]
    result: int

    def __str__(self) -> str:
        return f"{self.declarer_text} {self.contract_text}{self.result_text}"

    @property
    def declarer_text(self) -> str:
        """``NS``, ``EW`` or one seat letter."""
        if set(self.declarers) == {Seat.NORTH, Seat.SOUTH}:
            return "NS"
        if set(self.declarers) == {Seat.EAST, Seat.WEST}:
            return "EW"
        return "".join(str(s) for s in self.declarers)

    @property
    def contract_text(self) -> str:
        """``6S``, ``3N``, ``5SX`` (``N`` for no trump, as ParContract writes it)."""
        return f"{self.level}{'N' if self.strain is Strain.NOTRUMP else self.strain}{'X' if self.doubled else ''}"

    @property
    def result_text(self) -> str:
        """``=``, ``+1``, ``-2``."""
        return "=" if self.result == 0 else f"{self.result:+d}"

    @property
    def side(self) -> Side:
        return self.declarers[0].side

    @classmethod
    def parse(cls, text: str) -> ParContract:
        """Parse one ``ParContract`` item: ``NS 6S=``, ``EW 1S+2``, ``W 3N=``, ``NS 5HX-1``.

        :raises DDError: for anything else (including ``NS Pass``: see
            :func:`parse_par_contracts`).
        """
        m = re.fullmatch(r"\s*(NS|EW|[NESW])\s+([1-7])(NT|[CDHSN])(X?)\s*(=|[+-]\d{1,2})\s*", text.upper())
        if m is None:
            raise DDError(f"not a par contract: {text!r}")
        seats = {"NS": (Seat.NORTH, Seat.SOUTH), "EW": (Seat.EAST, Seat.WEST)}.get(m.group(1))
        declarers = seats if seats is not None else (Seat.parse(m.group(1)),)
        result = 0 if m.group(5) == "=" else int(m.group(5))
        level = int(m.group(2))
        if not -(level + 6) <= result <= 7 - level:
            raise DDError(f"impossible result in par contract: {text!r}")
        return cls(level, STRAIN_LETTERS[m.group(3)], m.group(4) == "X", declarers, result)


@dataclass(frozen=True, slots=True)
class Par:
    """A par result: ``score_ns`` (points, North-South's view; 0 = passed
    out) and the ``contracts`` that reach it (empty when passed out).

    ``label`` is what a hand record prints: ``NS +980``, ``EW +100``, ``0``.
    """

    score_ns: int
    contracts: tuple[ParContract, ...] = ()

    @property
    def label(self) -> str:
        if self.score_ns == 0:
            return "0"
        side = "NS" if self.score_ns > 0 else "EW"
        return f"{side} +{abs(self.score_ns)}"

    @property
    def passed_out(self) -> bool:
        return self.score_ns == 0 and not self.contracts


def par(table: DDTable, vulnerability: Vulnerability, dealer: Seat | None = None) -> Par:
    """The par score and par contracts of a double-dummy table.

    ``vulnerability`` is the board's; ``dealer`` decides which side may bid
    first (it matters only when both sides can make the same top contract;
    ``None`` counts as North).  Returns a :class:`Par` with the score from
    North-South's view.

    Method: perfect-information bidding solved by backward induction over
    the 35 bids 1C..7NT.  A side that has the last bid scores its contract
    undoubled when its better declarer makes it (overtricks included) and
    doubled when it fails (defenders always double a failing contract and
    never a making one; redoubles never pay).  After a bid, the other side
    passes or bids any higher contract, whichever is best for it; the
    opening passes follow the auction (dealer's side, the other, dealer's
    side, the other: four passes pass the deal out).  Scores are Law 77
    (:func:`handrec.scoring.duplicate.duplicate_score`).  This is the usual
    definition of par (e.g. the DDS library's ``DealerPar``; bridge-rules.md
    §4 for the scores).

    Par contracts are the final contracts that score the par, that the
    other side cannot improve on by bidding on, and above which the other
    side has no contract that would score better for it as it stands (so
    ``4D=``, not ``3D+1``, when the opponents would sacrifice in ``3H``
    over ``3D``); the lowest such level per side, strain and doubling.
    Declarers are the seats of the side that take the most tricks.  This
    reproduces what BridgeComposer writes (``OptimumScore`` on all 83 and
    ``ParContract`` on all 68 boards of the shared corpus that carry them)
    and the scores of Big Deal's and deal-convert's ``Minimax`` (412
    boards); ``tests/unit/test_dd.py`` checks it.

    >>> t = DDTable.parse_hex("00082000827cc5a7cc5a")
    >>> p = par(t, Vulnerability.NS, Seat.EAST)
    >>> p.score_ns, [str(c) for c in p.contracts]
    (-980, ['EW 6S=', 'EW 6H='])
    """
    sides = (Side.NS, Side.EW)
    # payoff[side][rank]: the side's own score when it plays bid ``rank`` (0 = 1C .. 34 = 7NT).
    payoff = [[0] * 35 for _ in sides]
    makes = [[False] * 35 for _ in sides]
    for side in sides:
        vul = vulnerability.is_vulnerable(side)
        for rank in range(35):
            level, strain = rank // 5 + 1, Strain(rank % 5)
            tricks = table.side_tricks(side, strain)
            made = tricks >= level + 6
            doubling = Doubling.UNDOUBLED if made else Doubling.DOUBLED
            payoff[side][rank] = duplicate_score(Contract(level, strain, doubling), vul, tricks)
            makes[side][rank] = made

    def ns(side: Side, points: int) -> int:
        return points if side is Side.NS else -points

    def better(side: Side, a: int, b: int) -> int:
        """The NS-view value ``side`` prefers."""
        return max(a, b) if side is Side.NS else min(a, b)

    # value[rank][side]: NS-view outcome once ``side`` has bid ``rank`` and the other side is to act.
    # best_from[rank][side]: the best outcome for ``side`` of bidding any rank >= ``rank``.
    value = [[0, 0] for _ in range(36)]
    best_from: list[list[int | None]] = [[None, None] for _ in range(36)]
    for rank in range(34, -1, -1):
        for side in sides:
            other = side.other
            v = ns(side, payoff[side][rank])
            higher = best_from[rank + 1][other]
            value[rank][side] = v if higher is None else better(other, v, higher)
        for side in sides:
            b = best_from[rank + 1][side]
            best_from[rank][side] = value[rank][side] if b is None else better(side, value[rank][side], b)

    first = (Seat.NORTH if dealer is None else dealer).side
    second = first.other
    opening = {s: best_from[0][s] for s in sides}
    # Passes: first, second, first, second; the fourth pass ends it at 0.
    outcome = 0
    for s in (second, first, second, first):
        outcome = better(s, opening[s], outcome)  # type: ignore[arg-type]

    if outcome == 0:  # every contract scores for one side or the other: 0 is the pass-out
        return Par(0, ())

    contracts = _par_contracts(table, payoff, makes, value, outcome, strict=True)
    if not contracts:  # never seen; kept so that a par always names a contract
        contracts = _par_contracts(table, payoff, makes, value, outcome, strict=False)
    return Par(outcome, tuple(contracts))


def _par_contracts(
    table: DDTable,
    payoff: list[list[int]],
    makes: list[list[bool]],
    value: list[list[int]],
    outcome: int,
    *,
    strict: bool,
) -> list[ParContract]:
    """The final contracts that score ``outcome`` and that the other side leaves alone (see :func:`par`).

    ``strict``: also require that no higher contract of the other side, played
    as it stands, would score better for that side.
    """

    def ns(side: Side, points: int) -> int:
        return points if side is Side.NS else -points

    def gains(side: Side, points_ns: int) -> bool:
        return points_ns > outcome if side is Side.NS else points_ns < outcome

    contracts: list[ParContract] = []
    seen: set[tuple[Side, Strain, bool]] = set()
    for rank in range(35):
        level, strain = rank // 5 + 1, Strain(rank % 5)
        for side in (Side.NS, Side.EW):
            if ns(side, payoff[side][rank]) != outcome or value[rank][side] != outcome:
                continue
            made = makes[side][rank]
            other = side.other
            if strict and any(gains(other, ns(other, payoff[other][r])) for r in range(rank + 1, 35)):
                continue
            key = (side, strain, not made)
            if key in seen:
                continue
            seen.add(key)
            tricks = table.side_tricks(side, strain)
            declarers = tuple(s for s in Seat if s.side is side and table[s, strain] == tricks)
            contracts.append(ParContract(level, strain, not made, declarers, tricks - level - 6))
    # Highest strain first within a level, as hand records list them.
    contracts.sort(key=lambda c: (c.level, -c.strain, c.side))
    return contracts


def parse_optimum_score(text: str) -> int:
    """Read an ``OptimumScore`` value (PBN 2.1 §4) as points for North-South.

    Forms: ``NS 980``, ``EW -100``, ``NS 400 EW -400``, ``EW 430 NS -430``,
    a bare signed number (BEN's ``ParScore``, North-South's view), and
    ``0``.

    :raises DDError: for anything else, or two halves that disagree.

    >>> parse_optimum_score("EW 980"), parse_optimum_score("NS +400"), parse_optimum_score("-430")
    (-980, 400, -430)
    """
    t = text.strip().upper()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    found: dict[str, int] = {}
    for m in re.finditer(r"(NS|EW)\s*([+-]?\d+)", t):
        found[m.group(1)] = int(m.group(2))
    rest = re.sub(r"(NS|EW)\s*([+-]?\d+)", "", t).strip()
    if not found or rest:
        raise DDError(f"not an optimum score: {text!r}")
    ns_score = found.get("NS")
    ew_score = found.get("EW")
    if ns_score is not None and ew_score is not None and ns_score != -ew_score:
        raise DDError(f"optimum score halves disagree: {text!r}")
    return ns_score if ns_score is not None else -ew_score  # type: ignore[operator]


def parse_par_contracts(text: str) -> tuple[ParContract, ...]:
    """Read a ``ParContract`` value: items joined by ``;`` (``NS Pass`` or
    ``Pass`` = passed out, giving ``()``).

    :raises DDError: if an item cannot be read.

    >>> [str(c) for c in parse_par_contracts("EW 6H=; EW 6S=")]
    ['EW 6H=', 'EW 6S=']
    """
    items = [p.strip() for p in text.split(";") if p.strip()]
    if len(items) == 1 and re.fullmatch(r"((NS|EW)\s+)?PASS", items[0].upper()):
        return ()
    return tuple(ParContract.parse(p) for p in items)
