"""Rubber bridge scoring: the We/They scoresheet (bridge-rules.md §5).

We are North-South, They are East-West.  Trick score of the odd tricks bid
goes *below* the line and counts toward game; everything else (overtricks,
undertricks, slam bonuses, the 50/100 for making a doubled/redoubled
contract, honors, the rubber bonus) goes *above* the line.  A side that
reaches 100 below the line in the current game wins it; both sides then start
the next game from zero; a side with a game is vulnerable; the first side to
win two games wins the rubber and scores 700 (2-0) or 500 (2-1).

Trick scores, overtricks, undertrick penalties and slam bonuses are those of
duplicate (bridge-rules.md §4, §5.4: "the same in every form of bridge"), taken
from :mod:`handrec.scoring.duplicate`; rubber has no 50/300/500 game or
partscore bonus (§5.6).

This module also holds the pieces Chicago reuses: :class:`DealResult` (one
played deal), :class:`ContractPoints` (a result split into its parts) and
:class:`Honors`.

>>> from handrec.model import Contract, Side
>>> sheet = score_rubber([
...     DealResult(Contract.parse("3NT"), 9, Side.NS),
...     DealResult(Contract.parse("4S"), 10, Side.NS),
... ])
>>> sheet.winner, sheet.total(Side.NS), sheet.total(Side.EW)
(Side.NS, 920, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import zip_longest

from handrec.model import Contract, Deal, Rank, Seat, Side, Strain
from handrec.scoring.duplicate import duplicate_score, trick_score, undertrick_penalty

__all__ = [
    "ContractPoints",
    "contract_points",
    "Honors",
    "honors_from_deal",
    "DealResult",
    "EntryKind",
    "SheetEntry",
    "GameLine",
    "RubberDeal",
    "Scoresheet",
    "score_rubber",
    "format_scoresheet",
    "RUBBER_BONUS_TWO_NIL",
    "RUBBER_BONUS_TWO_ONE",
    "UNFINISHED_GAME_BONUS",
    "UNFINISHED_PARTSCORE_BONUS",
]

#: Rubber won two games to none (bridge-rules.md §5.7).
RUBBER_BONUS_TWO_NIL = 700
#: Rubber won two games to one (bridge-rules.md §5.7).
RUBBER_BONUS_TWO_ONE = 500
#: Unfinished rubber: to each side that has won a game (§5.8, §12 item 9).
UNFINISHED_GAME_BONUS = 300
#: Unfinished rubber: to a side with a partscore in the unfinished game (§5.8).
UNFINISHED_PARTSCORE_BONUS = 100

_GAME = 100  # trick score below the line that wins a game (>= 100, §12 item 4)


# --- one contract, split into its parts ----------------------------------------------


@dataclass(frozen=True, slots=True)
class ContractPoints:
    """The points of one played contract, split the way a scoresheet needs them.

    All values are points (non-negative).  For a made contract: ``trick_score``
    (odd tricks bid, doubling included: below the line in rubber),
    ``overtricks``, ``slam`` (small/grand slam bonus) and ``insult`` (50 doubled /
    100 redoubled) go to the declaring side; ``undertricks`` is 0.  For a
    defeated contract only ``undertricks`` (the defenders' penalty) is non-zero.
    A passed-out deal has every value 0 and ``made`` False.  No game or
    partscore bonus appears: rubber has none (§5.6) and Chicago adds its own.

    Source: Law 77; bridge-rules.md §4.2-4.6, §5.3-5.4.

    >>> p = contract_points(Contract.parse("6H"), True, 12)
    >>> p.trick_score, p.slam, p.declarer_points
    (180, 750, 930)
    """

    made: bool = False
    trick_score: int = 0
    overtricks: int = 0
    slam: int = 0
    insult: int = 0
    undertricks: int = 0

    @property
    def declarer_points(self) -> int:
        """Points for the declaring side: trick score + overtricks + slam + insult."""
        return self.trick_score + self.overtricks + self.slam + self.insult

    @property
    def above_line(self) -> int:
        """Points the declaring side writes above the line (all but the trick score)."""
        return self.overtricks + self.slam + self.insult


def contract_points(contract: Contract, vulnerable: bool, tricks: int) -> ContractPoints:
    """Split one contract's result into trick score, overtricks, slam, insult, undertricks.

    ``contract`` level/strain/doubling (its declarer is ignored; ``Pass`` gives
    all zeros); ``vulnerable`` the declaring side's vulnerability; ``tricks``
    the tricks taken by declarer, 0-13.  Trick score, overtricks and penalties
    come from :mod:`handrec.scoring.duplicate` (overtricks = the duplicate score
    with these tricks minus the duplicate score made exactly).  Slam bonus:
    500/750 small, 1000/1500 grand (NV/V); insult 50 doubled, 100 redoubled.

    Source: Law 77; bridge-rules.md §4.4-4.6, §5.4.

    :raises ValueError: for tricks outside 0-13 (as :func:`duplicate_score`).

    >>> contract_points(Contract.parse("2C"), False, 11)
    ContractPoints(made=True, trick_score=40, overtricks=60, slam=0, insult=0, undertricks=0)
    >>> contract_points(Contract.parse("5NTX"), False, 8).undertricks
    500
    """
    full = duplicate_score(contract, vulnerable, tricks)  # validates tricks and contract
    if contract.level == 0:
        return ContractPoints()
    level, strain, dbl = contract.level, contract.strain, contract.doubling
    need = level + 6
    if tricks < need:
        return ContractPoints(made=False, undertricks=undertrick_penalty(need - tricks, dbl, vulnerable))
    slam = 0
    if level == 6:
        slam = 750 if vulnerable else 500
    elif level == 7:
        slam = 1500 if vulnerable else 1000
    return ContractPoints(
        made=True,
        trick_score=trick_score(level, strain, dbl),  # type: ignore[arg-type]
        overtricks=full - duplicate_score(contract, vulnerable, need),
        slam=slam,
        insult=(0, 50, 100)[dbl],
    )


# --- honors ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Honors:
    """An honors bonus: ``points`` (100 or 150) scored above the line by ``side``.

    100 for four of the five top trumps (A K Q J 10) in one hand; 150 for all
    five, or for the four aces in one hand at no trump.  Scored by the side
    holding them (declarer, dummy or a defender), whether or not the contract is
    made; not affected by vulnerability or doubling.

    Source: Laws of Rubber Bridge (honors); bridge-rules.md §5.9.

    :raises ValueError: for points other than 100/150 or a side that is not a :class:`Side`.

    >>> Honors(Side.EW, 100)
    Honors(side=Side.EW, points=100)
    """

    side: Side
    points: int

    def __post_init__(self) -> None:
        if not isinstance(self.side, Side):
            raise ValueError(f"honors need a Side, not {self.side!r}")
        if self.points not in (100, 150) or isinstance(self.points, bool):
            raise ValueError(f"honors are worth 100 or 150, not {self.points!r}")


_TOP_RANKS = frozenset((Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN))


def honors_from_deal(deal: Deal, strain: Strain) -> Honors | None:
    """The honors held in ``deal`` for a contract in ``strain``, or ``None``.

    ``deal`` gives each player's original 13 cards.  In a suit contract: a
    hand with all five of A K Q J 10 of trumps gives its side 150, with four of
    them 100; at no trump a hand with the four aces gives 150 (aces do not count
    in a suit contract).  At most one hand can qualify.

    Source: Laws of Rubber Bridge (honors); bridge-rules.md §5.9.

    :raises ValueError: when no given hand holds honors but some hand is not
        given (the answer is unknown).

    >>> d = Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    >>> honors_from_deal(d, Strain.SPADES), honors_from_deal(d, Strain.NOTRUMP)
    (Honors(side=Side.NS, points=100), Honors(side=Side.NS, points=150))
    >>> honors_from_deal(d, Strain.CLUBS) is None
    True
    """
    for seat in Seat:
        hand = deal[seat]
        if hand is None:
            continue
        if strain is Strain.NOTRUMP:
            if sum(1 for c in hand.cards if c.rank is Rank.ACE) == 4:
                return Honors(seat.side, 150)
        else:
            n = sum(1 for c in hand.cards if c.suit is strain.suit and c.rank in _TOP_RANKS)
            if n == 5:
                return Honors(seat.side, 150)
            if n == 4:
                return Honors(seat.side, 100)
    if any(h is None for h in deal.hands):
        raise ValueError("cannot tell the honors: a hand of the deal is not given")
    return None


# --- one played deal -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealResult:
    """One played deal as a rubber or Chicago scorer takes it.

    * ``contract``: the final contract (:meth:`Contract.passed_out` when all
      four passed).
    * ``tricks``: tricks taken by declarer, 0-13 (ignored when passed out).
    * ``declarer``: the declaring :class:`Seat` or :class:`Side`; when ``None``
      the contract's own declarer is used.
    * ``honors``: the honors bonus, given explicitly; when ``None`` and
      ``deal`` is given they are computed from the deal
      (:func:`honors_from_deal`); otherwise there are none.
    * ``deal``: the four original hands, used only for honors.

    Source: bridge-rules.md §5.10 (what is written after each hand).

    :raises ValueError: for tricks outside 0-13, a contract without a declaring
        side, a declarer that disagrees with the contract's, honors on a
        passed-out deal, or 100 for honors at no trump.

    >>> r = DealResult(Contract.parse("4S", declarer=Seat.WEST), 10)
    >>> r.declaring_side, r.is_passed_out
    (Side.EW, False)
    """

    contract: Contract
    tricks: int = 0
    declarer: Seat | Side | None = None
    honors: Honors | None = None
    deal: Deal | None = None

    def __post_init__(self) -> None:
        t = self.tricks
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= 13:
            raise ValueError(f"tricks must be 0-13, not {t!r}")
        if self.contract.level == 0:
            if self.honors is not None:
                raise ValueError("a passed-out deal has no honors")
            return
        if self.declarer is None and self.contract.declarer is None:
            raise ValueError(f"contract {self.contract} has no declarer")
        if self.declarer is not None and self.contract.declarer is not None:
            if _side_of(self.declarer) is not self.contract.declarer.side:
                raise ValueError(f"declarer {self.declarer} disagrees with the contract's {self.contract.declarer}")
        if self.honors is not None and self.contract.strain is Strain.NOTRUMP and self.honors.points != 150:
            raise ValueError("at no trump only the four aces count (150)")

    @classmethod
    def passed_out(cls) -> DealResult:
        """A deal passed out by four passes: it scores nothing (§5.10, §6.1).

        >>> DealResult.passed_out().is_passed_out
        True
        """
        return cls(Contract.passed_out())

    @property
    def is_passed_out(self) -> bool:
        """True when all four players passed."""
        return self.contract.level == 0

    @property
    def declaring_side(self) -> Side | None:
        """The declaring side, ``None`` when passed out."""
        if self.is_passed_out:
            return None
        return _side_of(self.declarer if self.declarer is not None else self.contract.declarer)  # type: ignore[arg-type]

    def honors_held(self) -> Honors | None:
        """The honors scored on this deal: explicit ones, else from ``deal``, else ``None``.

        :raises ValueError: as :func:`honors_from_deal`.

        >>> DealResult(Contract.parse("4H"), 10, Side.EW, Honors(Side.NS, 100)).honors_held()
        Honors(side=Side.NS, points=100)
        """
        if self.is_passed_out:
            return None
        if self.honors is not None:
            return self.honors
        if self.deal is not None:
            return honors_from_deal(self.deal, self.contract.strain)  # type: ignore[arg-type]
        return None


def _side_of(x: Seat | Side) -> Side:
    if isinstance(x, Side):
        return x
    if isinstance(x, Seat):
        return x.side
    raise ValueError(f"not a seat or side: {x!r}")


# --- the scoresheet ----------------------------------------------------------------------


class EntryKind(enum.Enum):
    """What a scoresheet entry is for.  Only ``TRICKS`` is written below the line.

    Source: bridge-rules.md §5.2 (below: trick score; above: everything else).

    >>> [k.value for k in EntryKind][:3]
    ['tricks', 'overtricks', 'slam']
    """

    TRICKS = "tricks"
    OVERTRICKS = "overtricks"
    SLAM = "slam"
    INSULT = "insult"
    UNDERTRICKS = "undertricks"
    HONORS = "honors"
    RUBBER = "rubber"
    UNFINISHED_GAME = "unfinished game"
    UNFINISHED_PARTSCORE = "unfinished partscore"

    def __repr__(self) -> str:
        return f"EntryKind.{self.name}"


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One number written on the scoresheet.

    ``side`` the column (NS = We, EW = They); ``points`` (positive); ``kind``;
    ``deal`` the 1-based number of the deal that produced it (``None`` for the
    unfinished-rubber bonuses written when play stops); ``game`` the 1-based
    number of the game in progress when it was written.

    >>> SheetEntry(Side.NS, 90, EntryKind.TRICKS, 1, 1).below
    True
    """

    side: Side
    points: int
    kind: EntryKind
    deal: int | None
    game: int

    @property
    def below(self) -> bool:
        """True for trick score (below the line), False for everything else."""
        return self.kind is EntryKind.TRICKS


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game won: game ``number`` (1-3) won by ``winner`` on deal ``deal`` (1-based).

    A line is drawn under the below-the-line scores after it (§5.2).

    >>> GameLine(1, Side.EW, 3)
    GameLine(number=1, winner=Side.EW, deal=3)
    """

    number: int
    winner: Side
    deal: int


@dataclass(frozen=True, slots=True)
class RubberDeal:
    """The score of one deal of a rubber.

    ``number`` 1-based position in the sequence; ``dealer``; ``result`` the
    input; ``vulnerable`` the declaring side's vulnerability (``None`` when
    passed out); ``entries`` what the deal wrote on the sheet (rubber bonus
    included when this deal ended the rubber); ``game`` the side that won a game
    on this deal, or ``None``.

    >>> sheet = score_rubber([DealResult.passed_out()])
    >>> sheet.deals[0].dealer, sheet.deals[0].entries, sheet.next_dealer
    (Seat.NORTH, (), Seat.EAST)
    """

    number: int
    dealer: Seat
    result: DealResult
    vulnerable: bool | None
    entries: tuple[SheetEntry, ...]
    game: Side | None


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """A rubber's We/They scoresheet (We = N-S, They = E-W).

    * ``entries``: every number written, in order (per-deal entries, then the
      unfinished-rubber bonuses when play stopped).
    * ``deals``: one :class:`RubberDeal` per input deal.
    * ``games``: the games won so far, each a :class:`GameLine`.
    * ``finished``: a side has won two games.
    * ``stopped``: play was declared over (unfinished-rubber bonuses written
      when not ``finished``).
    * ``next_dealer``: who deals next.
    * ``winner``: the side with the higher total once the rubber is finished
      or stopped, else ``None``; ``None`` on equal totals (unless the site rule
      breaking ties on games was asked for, §12 item 14).

    Totals are in points: :meth:`above`, :meth:`below`, :meth:`total`.

    Source: bridge-rules.md §5.2, §5.11.

    >>> sheet = score_rubber([DealResult(Contract.parse("2H"), 9, Side.NS)], stopped=True)
    >>> sheet.below(Side.NS), sheet.above(Side.NS), sheet.total(Side.NS), sheet.winner
    (60, 130, 190, Side.NS)
    """

    entries: tuple[SheetEntry, ...]
    deals: tuple[RubberDeal, ...]
    games: tuple[GameLine, ...]
    finished: bool
    stopped: bool
    next_dealer: Seat
    winner: Side | None

    def above(self, side: Side) -> int:
        """Points ``side`` has above the line."""
        return sum(e.points for e in self.entries if e.side is side and not e.below)

    def below(self, side: Side) -> int:
        """Points ``side`` has below the line (all games, old partscores included)."""
        return sum(e.points for e in self.entries if e.side is side and e.below)

    def total(self, side: Side) -> int:
        """Above + below for ``side``: its rubber total in points."""
        return self.above(side) + self.below(side)

    def games_won(self, side: Side) -> int:
        """How many games ``side`` has won (0-2)."""
        return sum(1 for g in self.games if g.winner is side)

    def vulnerable(self, side: Side) -> bool:
        """Whether ``side`` is vulnerable now (it has won a game, §5.5)."""
        return self.games_won(side) > 0

    def part_score(self, side: Side) -> int:
        """``side``'s trick score below the line in the game in progress (points)."""
        current = len(self.games) + 1
        return sum(e.points for e in self.entries if e.side is side and e.below and e.game == current)

    @property
    def margin(self) -> int:
        """The difference between the two totals (points, >= 0)."""
        return abs(self.total(Side.NS) - self.total(Side.EW))


def score_rubber(
    deals: Iterable[DealResult],
    *,
    first_dealer: Seat = Seat.NORTH,
    honors: bool = True,
    stopped: bool = False,
    games_break_ties: bool = False,
) -> Scoresheet:
    """Score a rubber from its deals, in the order played.

    ``deals`` the :class:`DealResult` of each deal (passed-out deals included:
    they score nothing and the next dealer deals); ``first_dealer`` the dealer
    of the first deal; ``honors`` whether honors are scored (default on,
    §5.9); ``stopped`` True when play stops here: if the rubber is unfinished,
    300 goes to each side that has won a game and 100 to each side with a
    partscore in the unfinished game (Laws, §12 item 9); ``games_break_ties``
    applies the site rule of seed [000] (equal totals: more games wins).

    Per deal (§5.10): a made contract writes its trick score below the line
    and overtricks, slam bonus and insult above; a defeated one writes the
    penalty above the line for the defenders (declaring side's
    vulnerability); honors go above for the side holding them, made or not.
    A side reaching 100 below the line in the current game wins the game
    (several deals may add up; exactly 100 is enough); a line is drawn and both
    sides start again from zero; a side with a game is vulnerable.  Two games
    win the rubber: 700 (2-0) or 500 (2-1) above the line.

    Returns a :class:`Scoresheet` (points).

    Source: Laws of Rubber Bridge; bridge-rules.md §5 (§5.14 worked rubber).

    :raises ValueError: for a deal after the rubber is over, or as
        :class:`DealResult`/:func:`honors_from_deal`.

    >>> sheet = score_rubber([
    ...     DealResult(Contract.parse("2H"), 9, Side.NS),
    ...     DealResult(Contract.parse("1NT"), 7, Side.EW),
    ...     DealResult(Contract.parse("2S"), 8, Side.NS),
    ... ])
    >>> sheet.games, sheet.vulnerable(Side.NS), sheet.part_score(Side.EW)
    ((GameLine(number=1, winner=Side.NS, deal=3),), True, 0)
    """
    entries: list[SheetEntry] = []
    played: list[RubberDeal] = []
    games: list[GameLine] = []
    won = [0, 0]
    part = [0, 0]  # below the line in the game in progress
    dealer = first_dealer
    finished = False
    for number, result in enumerate(deals, 1):
        if finished:
            raise ValueError(f"deal {number} comes after the end of the rubber")
        game_no = len(games) + 1
        side = result.declaring_side
        if side is None:
            played.append(RubberDeal(number, dealer, result, None, (), None))
            dealer = dealer.lho
            continue
        vul = won[side] > 0
        pts = contract_points(result.contract, vul, result.tricks)
        here: list[SheetEntry] = []
        if pts.made:
            _write(here, side, pts.trick_score, EntryKind.TRICKS, number, game_no)
            _write(here, side, pts.overtricks, EntryKind.OVERTRICKS, number, game_no)
            _write(here, side, pts.slam, EntryKind.SLAM, number, game_no)
            _write(here, side, pts.insult, EntryKind.INSULT, number, game_no)
        else:
            _write(here, side.other, pts.undertricks, EntryKind.UNDERTRICKS, number, game_no)
        held = result.honors_held() if honors else None
        if held is not None:
            _write(here, held.side, held.points, EntryKind.HONORS, number, game_no)
        game_side: Side | None = None
        if pts.made:
            part[side] += pts.trick_score
            if part[side] >= _GAME:
                game_side = side
                won[side] += 1
                games.append(GameLine(game_no, side, number))
                part = [0, 0]
                if won[side] == 2:
                    finished = True
                    bonus = RUBBER_BONUS_TWO_NIL if won[side.other] == 0 else RUBBER_BONUS_TWO_ONE
                    _write(here, side, bonus, EntryKind.RUBBER, number, game_no)
        entries.extend(here)
        played.append(RubberDeal(number, dealer, result, vul, tuple(here), game_side))
        dealer = dealer.lho
    if stopped and not finished:
        for s in Side:
            if won[s]:
                entries.append(SheetEntry(s, UNFINISHED_GAME_BONUS, EntryKind.UNFINISHED_GAME, None, len(games) + 1))
            if part[s]:
                entries.append(
                    SheetEntry(s, UNFINISHED_PARTSCORE_BONUS, EntryKind.UNFINISHED_PARTSCORE, None, len(games) + 1)
                )
    winner: Side | None = None
    if finished or stopped:
        ns = sum(e.points for e in entries if e.side is Side.NS)
        ew = sum(e.points for e in entries if e.side is Side.EW)
        if ns != ew:
            winner = Side.NS if ns > ew else Side.EW
        elif games_break_ties and won[0] != won[1]:
            winner = Side.NS if won[0] > won[1] else Side.EW
    return Scoresheet(tuple(entries), tuple(played), tuple(games), finished, stopped, dealer, winner)


def _write(out: list[SheetEntry], side: Side, points: int, kind: EntryKind, deal: int, game: int) -> None:
    if points:
        out.append(SheetEntry(side, points, kind, deal, game))


# --- printing ----------------------------------------------------------------------------

_W = 9  # width of a column's numbers


def format_scoresheet(sheet: Scoresheet) -> str:
    """The scoresheet as plain text: We and They columns, above and below the line.

    Above the double line (``=``) each column lists its above-the-line entries
    upward from the line, as on a score pad: the latest entry is at the top.
    Below it each game's trick scores appear in order, closed by a game line
    (``-``) naming the game's winner; the game in progress has no closing line.
    Then the totals (``total``) and a one-line verdict.  Lines carry no trailing spaces.

    Source: bridge-rules.md §5.2 (the scoresheet).

    >>> sheet = score_rubber([
    ...     DealResult(Contract.parse("2H"), 9, Side.NS),
    ...     DealResult(Contract.parse("4SX"), 8, Side.NS),
    ...     DealResult(Contract.parse("3NT"), 9, Side.EW),
    ... ])
    >>> print(format_scoresheet(sheet))
           We |      They
    ----------+----------
           30 |       300
    ==========+==========
           60 |       100
    ----------+----------  game 1: They
           90 |       400  total
    In progress: games We 0, They 1.
    """
    rows: list[str] = []
    rule = "-" * (_W + 1) + "+" + "-" * (_W + 1)
    rows.append(f"{'We':>{_W}} | {'They':>{_W}}")
    rows.append(rule)
    above = [[e.points for e in sheet.entries if e.side is s and not e.below][::-1] for s in Side]
    height = max(len(above[0]), len(above[1]))
    cols = [[None] * (height - len(a)) + a for a in above]
    for ns, ew in zip(*cols):
        rows.append(_row(ns, ew))
    rows.append("=" * (_W + 1) + "+" + "=" * (_W + 1))
    n_games = len(sheet.games)
    for g in range(1, n_games + 2):
        below = [[e.points for e in sheet.entries if e.side is s and e.below and e.game == g] for s in Side]
        for ns, ew in zip_longest(*below):
            rows.append(_row(ns, ew))
        if g <= n_games:
            winner = sheet.games[g - 1].winner
            rows.append(f"{rule}  game {g}: {_name(winner)}")
    rows.append(_row(sheet.total(Side.NS), sheet.total(Side.EW)) + "  total")
    won = f"games We {sheet.games_won(Side.NS)}, They {sheet.games_won(Side.EW)}"
    if not (sheet.finished or sheet.stopped):
        verdict = f"In progress: {won}."
    else:
        what = "rubber" if sheet.finished else "unfinished rubber"
        if sheet.winner is None:
            verdict = f"The {what} is tied ({won})."
        else:
            verdict = f"{_name(sheet.winner)} win the {what} by {sheet.margin} ({won})."
    rows.append(verdict)
    return "\n".join(r.rstrip() for r in rows)


def _row(ns: int | None, ew: int | None) -> str:
    a = "" if ns is None else str(ns)
    b = "" if ew is None else str(ew)
    return f"{a:>{_W}} | {b:>{_W}}"


def _name(side: Side) -> str:
    return "We" if side is Side.NS else "They"
