"""Chicago (four-deal bridge) scoring (bridge-rules.md §6).

A round ("chukker") is four deals, each player dealing once.  Vulnerability
is fixed by the deal's number in the round; each deal is scored as in
duplicate except for the bonuses: a game earns 300 (NV) / 500 (V) on the deal
on which it is made, partscores of both sides carry over within the round and
add up toward game until either side makes a game, a partscore made on the
fourth deal that does not complete a game earns 100, and there is no other
partscore bonus.  A passed-out deal is redealt by the same dealer and does not
count.  Trick scores, overtricks, penalties and slam bonuses come from
:mod:`handrec.scoring.duplicate` (via :func:`handrec.scoring.rubber.contract_points`).

>>> from handrec.model import Contract, Side
>>> r = score_chicago([DealResult(Contract.parse("3NT"), 10, Side.EW)])
>>> r.total(Side.EW), r.deals[0].vulnerability
(430, Vulnerability.NONE)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from handrec.model import Seat, Side, Vulnerability
from handrec.scoring.rubber import DealResult, contract_points

__all__ = [
    "ChicagoScheme",
    "chicago_vulnerability",
    "ChicagoDeal",
    "ChicagoScore",
    "score_chicago",
    "DealResult",
    "GAME_BONUS_NV",
    "GAME_BONUS_V",
    "FOURTH_DEAL_PARTSCORE_BONUS",
]

#: Game bonus, not vulnerable (bridge-rules.md §6.3).
GAME_BONUS_NV = 300
#: Game bonus, vulnerable (bridge-rules.md §6.3).
GAME_BONUS_V = 500
#: A partscore made on deal 4 that does not complete a game (bridge-rules.md §6.3).
FOURTH_DEAL_PARTSCORE_BONUS = 100

_GAME = 100


class ChicagoScheme(enum.Enum):
    """Which side is vulnerable on deals 2 and 3 (bridge-rules.md §6.2).

    ``STANDARD``: deal 1 none, 2 and 3 the dealer's side, 4 both.
    ``CLUB``: deal 1 none, 2 and 3 the non-dealer's side, 4 both (the club
    variant; with North dealing first it reproduces duplicate boards 1-4).

    >>> str(chicago_vulnerability(3, Seat.SOUTH, ChicagoScheme.CLUB))
    'EW'
    """

    STANDARD = "standard"
    CLUB = "club"

    def __repr__(self) -> str:
        return f"ChicagoScheme.{self.name}"


def chicago_vulnerability(number: int, dealer: Seat, scheme: ChicagoScheme = ChicagoScheme.STANDARD) -> Vulnerability:
    """The vulnerability of Chicago deal ``number`` dealt by ``dealer``.

    ``number`` is the deal's number in the session, 1, 2, ...; deals 5-8 are
    deals 1-4 of the next round, and so on.  ``scheme`` chooses the standard
    or the club variant (:class:`ChicagoScheme`).

    Source: bridge-rules.md §6.2 (seed [002]; ACBL).

    :raises ValueError: for a number below 1.

    >>> [str(chicago_vulnerability(n, d)) for n, d in zip(range(1, 5), (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST))]
    ['None', 'EW', 'NS', 'Both']
    >>> str(chicago_vulnerability(2, Seat.EAST, ChicagoScheme.CLUB))
    'NS'
    """
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ValueError(f"deal numbers start at 1, not {number!r}")
    k = (number - 1) % 4 + 1
    if k == 1:
        return Vulnerability.NONE
    if k == 4:
        return Vulnerability.BOTH
    side = dealer.side if scheme is ChicagoScheme.STANDARD else dealer.side.other
    return Vulnerability.NS if side is Side.NS else Vulnerability.EW


@dataclass(frozen=True, slots=True)
class ChicagoDeal:
    """The score of one deal of a Chicago session.

    * ``round``: 1-based round number; ``number``: the deal's number in the
      round, 1-4 (a passed-out deal has the number of the deal that is then
      redealt, and ``counted`` False).
    * ``dealer``, ``vulnerability``: as the deal was played.
    * ``result``: the input.
    * ``points``: points scored on this deal, ``(N-S, E-W)``.
    * ``game``: the side that completed a game on this deal, or ``None``;
      ``fourth_deal_bonus``: the deal-4 partscore bonus of 100 was scored.
    * ``partscores``: trick score toward game after the deal, ``(N-S, E-W)``.

    >>> r = score_chicago([DealResult.passed_out()])
    >>> d = r.deals[0]
    >>> d.number, d.counted, d.points, r.next_dealer
    (1, False, (0, 0), Seat.NORTH)
    """

    round: int
    number: int
    dealer: Seat
    vulnerability: Vulnerability
    result: DealResult
    counted: bool
    points: tuple[int, int]
    game: Side | None
    fourth_deal_bonus: bool
    partscores: tuple[int, int]

    @property
    def below(self) -> tuple[int, int]:
        """Points scored below the line on this deal, ``(N-S, E-W)``: the trick score of a made
        contract (Law 77); the rest of :attr:`points` is above the line."""
        side = self.result.declaring_side
        if side is None or not self.counted:
            return (0, 0)
        pts = contract_points(self.result.contract, self.vulnerability.is_vulnerable(side), self.result.tricks)
        below = [0, 0]
        if pts.made:
            below[side] = pts.trick_score
        return (below[0], below[1])


@dataclass(frozen=True, slots=True)
class ChicagoScore:
    """A Chicago session's score: its deals and the totals.

    ``deals`` one :class:`ChicagoDeal` per input deal; ``next_dealer`` and
    ``next_number`` (1-4) describe the next deal; ``rounds_completed`` counts
    complete four-deal rounds.  :meth:`total` gives a side's points;
    :attr:`winner` the side with more (``None`` if equal).

    Source: bridge-rules.md §6.

    >>> from handrec.model import Contract
    >>> score_chicago([DealResult(Contract.parse("1NT"), 7, Side.NS)]).points
    (40, 0)
    """

    deals: tuple[ChicagoDeal, ...]
    next_dealer: Seat
    next_number: int
    rounds_completed: int

    def total(self, side: Side) -> int:
        """Points scored by ``side`` over all deals."""
        return sum(d.points[side] for d in self.deals)

    @property
    def points(self) -> tuple[int, int]:
        """The totals ``(N-S, E-W)`` in points."""
        return (self.total(Side.NS), self.total(Side.EW))

    @property
    def winner(self) -> Side | None:
        """The side with the higher total, ``None`` when equal."""
        ns, ew = self.points
        return None if ns == ew else Side.NS if ns > ew else Side.EW


def score_chicago(
    deals: Iterable[DealResult],
    *,
    first_dealer: Seat = Seat.NORTH,
    scheme: ChicagoScheme = ChicagoScheme.STANDARD,
    honors: bool = False,
) -> ChicagoScore:
    """Score a Chicago session from its deals, in the order played.

    ``deals`` the :class:`~handrec.scoring.rubber.DealResult` of each deal,
    passed-out deals included (the same dealer redeals, with the same
    vulnerability; the deal does not count toward the four); ``first_dealer``
    the dealer of the first deal; ``scheme`` the vulnerability scheme;
    ``honors`` whether honors are scored as in rubber (default off: the seeds
    are silent and ACBL scores Chicago duplicate-style, §6.3, §12 item 16).

    Per deal: a defeated contract gives the defenders the duplicate penalty
    (declaring side's vulnerability on that deal).  A made contract gives the
    declaring side trick score + overtricks + slam bonus + insult, and its trick
    score is added to the side's running partscore of the round; when that
    reaches 100 the side scores 300 (NV) / 500 (V) on this deal and both running
    partscores go back to 0 (earlier partscores stop counting toward game but
    stay in the totals); otherwise, on deal 4 only, it scores 100.  After four
    counted deals a new round starts with no partscores.

    Returns a :class:`ChicagoScore` (points).

    Source: bridge-rules.md §6.1-6.4 (seed [002]; ACBL).

    :raises ValueError: as :class:`DealResult`.

    >>> from handrec.model import Contract
    >>> r = score_chicago([
    ...     DealResult(Contract.parse("2H"), 8, Side.NS),
    ...     DealResult(Contract.parse("3NT"), 10, Side.EW),
    ...     DealResult(Contract.parse("2S"), 9, Side.NS),
    ...     DealResult(Contract.parse("2C"), 8, Side.NS),
    ... ])
    >>> r.points, [d.points for d in r.deals]
    ((690, 630), [(60, 0), (0, 630), (90, 0), (540, 0)])
    """
    out: list[ChicagoDeal] = []
    dealer = first_dealer
    number = 1  # deal number in the round, 1-4
    rnd = 1
    running = [0, 0]
    for result in deals:
        vul = chicago_vulnerability(number, dealer, scheme)
        side = result.declaring_side
        if side is None:
            out.append(
                ChicagoDeal(rnd, number, dealer, vul, result, False, (0, 0), None, False, (running[0], running[1]))
            )
            continue  # same dealer redeals the same deal number
        v = vul.is_vulnerable(side)
        pts = contract_points(result.contract, v, result.tricks)
        score = [0, 0]
        game: Side | None = None
        fourth = False
        if pts.made:
            score[side] += pts.declarer_points
            running[side] += pts.trick_score
            if running[side] >= _GAME:
                score[side] += GAME_BONUS_V if v else GAME_BONUS_NV
                game = side
                running = [0, 0]
            elif number == 4:
                score[side] += FOURTH_DEAL_PARTSCORE_BONUS
                fourth = True
        else:
            score[side.other] += pts.undertricks
        held = result.honors_held() if honors else None
        if held is not None:
            score[held.side] += held.points
        out.append(
            ChicagoDeal(
                rnd, number, dealer, vul, result, True, (score[0], score[1]), game, fourth, (running[0], running[1])
            )
        )
        dealer = dealer.lho
        if number == 4:
            number, rnd, running = 1, rnd + 1, [0, 0]
        else:
            number += 1
    return ChicagoScore(tuple(out), dealer, number, rnd - 1)
