"""Minibridge: HCP, who declares, the contract choice and the score (bridge-rules.md §7).

No auction: each player announces his high-card points (A 4, K 3, Q 2, J 1),
the pair with more declares, its stronger hand is declarer, and after seeing
dummy declarer chooses partscore or game and a strain.  Targets: 7 tricks for a
partscore; game 9 at no trump, 10 in a major, 11 in a minor.  Made: trick
points for every trick above six plus 50 (partscore) or 300 (game).  Failed:
the defenders score 50 per trick short.  No vulnerability, no doubles.

Trick points and the 50 per trick short are the duplicate ones
(:func:`~handrec.scoring.duplicate.trick_score`,
:func:`~handrec.scoring.duplicate.undertrick_penalty`, non-vulnerable,
undoubled); every minibridge score equals the non-vulnerable duplicate score
of the equivalent contract (:meth:`MiniContract.equivalent`, §7.9).

>>> from handrec.model import Strain
>>> minibridge_score(MiniContract(MiniKind.GAME, Strain.SPADES), 10).declarer_points
420
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from handrec.model import Contract, Deal, Seat, Side, Strain
from handrec.scoring.duplicate import trick_score, undertrick_penalty

__all__ = [
    "RecountError",
    "announced_hcp",
    "check_announced",
    "Declaring",
    "Redeal",
    "choose_declarer",
    "MiniKind",
    "MiniContract",
    "MinibridgeRules",
    "MiniScore",
    "target_tricks",
    "minibridge_score",
    "PARTSCORE_BONUS",
    "GAME_BONUS",
    "PACK_HCP",
]

#: Bonus for a made partscore (bridge-rules.md §7.9).
PARTSCORE_BONUS = 50
#: Bonus for a made game (bridge-rules.md §7.9; ACBL: 50 + 250).
GAME_BONUS = 300
#: High-card points in the pack (bridge-rules.md §7.3).
PACK_HCP = 40
_MAX_HAND_HCP = 37  # four aces, four kings, four queens and a jack


class RecountError(ValueError):
    """The four announced HCP totals do not add up to 40: everyone recounts (§7.4).

    A :class:`ValueError`, raised by :func:`check_announced` and :func:`choose_declarer`.

    >>> issubclass(RecountError, ValueError)
    True
    """


def announced_hcp(deal: Deal) -> tuple[int, int, int, int]:
    """The HCP each seat announces, ``(N, E, S, W)``, counted from ``deal``.

    Source: bridge-rules.md §7.3-7.4 (Milton Work count: A 4, K 3, Q 2, J 1).

    :raises ValueError: when a hand is not given.
    :raises RecountError: when the totals do not make 40 (a defective deal).

    >>> announced_hcp(Deal.parse("N:A932.K975..Q8642 5.T432.JT432.AT5 KQJ84.A6.KQ5.J73 T76.QJ8.A9876.K9"))
    (9, 5, 16, 10)
    """
    counts = deal.hcp
    if any(c is None for c in counts):
        raise ValueError("minibridge needs all four hands")
    check_announced(counts)  # type: ignore[arg-type]
    return counts  # type: ignore[return-value]


def _totals(totals: Sequence[int] | Mapping[Seat, int]) -> tuple[int, int, int, int]:
    if isinstance(totals, Mapping):
        if set(totals) != set(Seat):
            raise ValueError("announced totals need exactly the four seats")
        values = tuple(totals[s] for s in Seat)
    else:
        values = tuple(totals)
        if len(values) != 4:
            raise ValueError(f"four announced totals are needed, not {len(values)}")
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= _MAX_HAND_HCP:
            raise ValueError(f"a hand holds 0-{_MAX_HAND_HCP} HCP, not {v!r}")
    return values  # type: ignore[return-value]


def check_announced(totals: Sequence[int] | Mapping[Seat, int]) -> None:
    """Check the four announced HCP totals (``(N, E, S, W)`` or a seat mapping).

    Source: bridge-rules.md §7.4 ("if they do not make 40 ... everyone recounts").

    :raises RecountError: when they do not sum to 40 (message says "recount").
    :raises ValueError: for a total outside 0-37 or not four totals.

    >>> check_announced((16, 9, 10, 5))
    >>> check_announced((16, 9, 10, 6))
    Traceback (most recent call last):
    ...
    handrec.scoring.minibridge.RecountError: recount: the announced HCP make 41, not 40
    """
    values = _totals(totals)
    s = sum(values)
    if s != PACK_HCP:
        raise RecountError(f"recount: the announced HCP make {s}, not {PACK_HCP}")


@dataclass(frozen=True, slots=True)
class Declaring:
    """Who plays: the declaring ``side``, its ``declarer``, and both sides' HCP.

    ``side_hcp`` the declaring pair's combined HCP, ``defenders_hcp`` the
    other pair's.  Dummy is declarer's partner; the opening lead comes from
    declarer's left (§7.8).

    >>> d = choose_declarer((9, 5, 16, 10), Seat.NORTH)
    >>> d.declarer, d.dummy, d.opening_leader, d.side_hcp
    (Seat.SOUTH, Seat.NORTH, Seat.WEST, 25)
    """

    side: Side
    declarer: Seat
    side_hcp: int
    defenders_hcp: int

    @property
    def dummy(self) -> Seat:
        """Declarer's partner, whose hand goes down before the contract is chosen."""
        return self.declarer.partner

    @property
    def opening_leader(self) -> Seat:
        """The defender on declarer's left."""
        return self.declarer.lho


@dataclass(frozen=True, slots=True)
class Redeal:
    """The pairs hold 20 HCP each: nobody plays and ``dealer`` deals again (§7.5).

    >>> choose_declarer((10, 10, 10, 10), Seat.EAST)
    Redeal(dealer=Seat.EAST)
    """

    dealer: Seat


def choose_declarer(
    totals: Sequence[int] | Mapping[Seat, int],
    dealer: Seat,
    *,
    tie_choice: Seat | None = None,
) -> Declaring | Redeal:
    """Decide who declares from the announced HCP totals.

    ``totals`` the four announced totals, ``(N, E, S, W)`` or a mapping by
    seat; ``dealer`` who dealt (announcing starts with him, clockwise).  The
    pair with more combined HCP declares and its partner with more HCP is
    declarer.  Ties: 20-20 between the pairs gives :class:`Redeal` (the same
    dealer deals again); partners with equal HCP: the one who announced first
    (earlier clockwise from the dealer) declares (EBU rule), unless
    ``tie_choice`` names the partner the two chose (the EBU's first-lessons
    option; used only when the partners tie).

    Returns :class:`Declaring` or :class:`Redeal`.

    Source: bridge-rules.md §7.4-7.5 (seed [001]).

    :raises RecountError: when the totals do not make 40.
    :raises ValueError: for bad totals, or a ``tie_choice`` that is not one of
        the tied partners.

    >>> choose_declarer((11, 9, 11, 9), Seat.WEST).declarer
    Seat.NORTH
    >>> choose_declarer((11, 9, 11, 9), Seat.EAST).declarer
    Seat.SOUTH
    """
    values = _totals(totals)
    check_announced(values)
    ns = values[Seat.NORTH] + values[Seat.SOUTH]
    ew = values[Seat.EAST] + values[Seat.WEST]
    if ns == ew:
        return Redeal(dealer)
    side = Side.NS if ns > ew else Side.EW
    a, b = side.seats
    if values[a] != values[b]:
        declarer = a if values[a] > values[b] else b
    elif tie_choice is not None:
        if tie_choice not in (a, b):
            raise ValueError(f"{tie_choice} is not a member of the declaring side {side}")
        declarer = tie_choice
    else:
        # The partner nearer the dealer, clockwise, announced first.
        declarer = min((a, b), key=lambda s: (s - dealer) % 4)
    return Declaring(side, declarer, max(ns, ew), min(ns, ew))


class MiniKind(enum.Enum):
    """Declarer's choice: partscore or game (or slam, when the slam variant is on).

    Source: bridge-rules.md §7.7, §7.11.

    >>> MiniKind("game")
    MiniKind.GAME
    """

    PARTSCORE = "partscore"
    GAME = "game"
    SLAM = "slam"

    def __repr__(self) -> str:
        return f"MiniKind.{self.name}"


_STRAIN_WORDS = ("clubs", "diamonds", "hearts", "spades", "no trumps")


def target_tricks(kind: MiniKind, strain: Strain) -> int:
    """Tricks declarer must take: partscore 7; game 9 NT, 10 majors, 11 minors; slam 12.

    Source: bridge-rules.md §7.7 (seed [001]); slam: §7.11.

    >>> [target_tricks(MiniKind.GAME, s) for s in (Strain.NOTRUMP, Strain.HEARTS, Strain.DIAMONDS)]
    [9, 10, 11]
    """
    if kind is MiniKind.PARTSCORE:
        return 7
    if kind is MiniKind.SLAM:
        return 12
    if strain is Strain.NOTRUMP:
        return 9
    return 10 if strain >= Strain.HEARTS else 11


@dataclass(frozen=True, slots=True)
class MiniContract:
    """Declarer's announced contract: ``kind`` (partscore/game/slam) in ``strain``.

    ``str()`` reads as announced, e.g. ``game in spades``.

    >>> c = MiniContract(MiniKind.GAME, Strain.SPADES)
    >>> str(c), c.target, str(c.equivalent)
    ('game in spades', 10, '4S')
    """

    kind: MiniKind
    strain: Strain

    def __str__(self) -> str:
        return f"{self.kind.value} in {_STRAIN_WORDS[self.strain]}"

    @property
    def target(self) -> int:
        """Tricks needed (:func:`target_tricks`)."""
        return target_tricks(self.kind, self.strain)

    @property
    def equivalent(self) -> Contract:
        """The undoubled bridge contract with the same target (1x, game, or 6x).

        Its non-vulnerable duplicate score equals the minibridge score
        (bridge-rules.md §7.9 [DER]; for a slam only with the bonus 800).
        """
        return Contract(self.target - 6, self.strain)


@dataclass(frozen=True, slots=True)
class MinibridgeRules:
    """Options agreed before play (bridge-rules.md §7.11).

    ``slam_bonus``: ``None`` (standard EBU/ACBL: no slam contract) or the bonus
    for a made slam, which *replaces* the game bonus (§12 item 15; the EBU
    suggests 800, making a slam score like a non-vulnerable duplicate slam).

    :raises ValueError: for a negative bonus.

    >>> MinibridgeRules(slam_bonus=800)
    MinibridgeRules(slam_bonus=800)
    """

    slam_bonus: int | None = None

    def __post_init__(self) -> None:
        b = self.slam_bonus
        if b is not None and (not isinstance(b, int) or isinstance(b, bool) or b < 0):
            raise ValueError(f"slam bonus must be a non-negative int, not {b!r}")


@dataclass(frozen=True, slots=True)
class MiniScore:
    """The score of a minibridge deal.

    ``made`` whether declarer reached the target; ``trick_points`` the
    points for every trick above six (made only); ``bonus`` 50 / 300 / the
    slam bonus (made only); ``undertricks`` the defenders' 50 per trick short
    (failed only).  All in points.

    >>> s = minibridge_score(MiniContract(MiniKind.PARTSCORE, Strain.SPADES), 10)
    >>> s.trick_points, s.bonus, s.declarer_points, s.defender_points
    (120, 50, 170, 0)
    """

    made: bool
    trick_points: int = 0
    bonus: int = 0
    undertricks: int = 0

    @property
    def declarer_points(self) -> int:
        """Points for the declaring side."""
        return self.trick_points + self.bonus

    @property
    def defender_points(self) -> int:
        """Points for the defending side."""
        return self.undertricks

    def points_for(self, declaring: Side) -> tuple[int, int]:
        """The score as ``(N-S, E-W)`` points when ``declaring`` is the declaring side.

        >>> minibridge_score(MiniContract(MiniKind.GAME, Strain.SPADES), 9).points_for(Side.NS)
        (0, 50)
        """
        d, o = self.declarer_points, self.defender_points
        return (d, o) if declaring is Side.NS else (o, d)


def minibridge_score(contract: MiniContract, tricks: int, rules: MinibridgeRules = MinibridgeRules()) -> MiniScore:
    """Score one minibridge deal.

    ``contract`` declarer's choice; ``tricks`` tricks taken by declarer,
    0-13; ``rules`` the agreed options (slam variant).  Made (tricks >=
    target): trick points for every trick above six (20 minors, 30 majors, NT
    40 + 30 each further) plus 50 for a partscore, 300 for a game, the slam
    bonus for a slam.  Failed: the defenders score 50 per trick short of the
    target.  No vulnerability, no doubling.

    Source: bridge-rules.md §7.9, §7.11 (seed [001]; EBU and ACBL).

    :raises ValueError: for tricks outside 0-13, or a slam when ``rules`` has
        no slam bonus.

    >>> minibridge_score(MiniContract(MiniKind.GAME, Strain.CLUBS), 11)
    MiniScore(made=True, trick_points=100, bonus=300, undertricks=0)
    >>> minibridge_score(MiniContract(MiniKind.PARTSCORE, Strain.HEARTS), 5).defender_points
    100
    """
    if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0-13, not {tricks!r}")
    if contract.kind is MiniKind.SLAM and rules.slam_bonus is None:
        raise ValueError("no slam contract without the slam variant (MinibridgeRules(slam_bonus=...))")
    target = contract.target
    if tricks < target:
        return MiniScore(False, undertricks=undertrick_penalty(target - tricks, 0, False))
    if contract.kind is MiniKind.PARTSCORE:
        bonus = PARTSCORE_BONUS
    elif contract.kind is MiniKind.GAME:
        bonus = GAME_BONUS
    else:
        bonus = rules.slam_bonus  # type: ignore[assignment]
    return MiniScore(True, trick_score(tricks - 6, contract.strain), bonus)
