"""The results of scoring an event: scored travellers, rankings, teams boards, rubber sessions.

What :func:`handrec.events.event_score.score_event` returns (one :class:`EventScore` a
session or file), what :mod:`handrec.events.report` prints and the booklet's results pages
show.  Frozen records only; all numbers exact (:class:`fractions.Fraction`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from handrec.events.methods import Cross, Method
from handrec.events.travellers import Entry, Traveller
from handrec.scoring.rubber import Scoresheet

__all__ = [
    "ScoredEntry",
    "ScoredTraveller",
    "RankRow",
    "Ranking",
    "TeamBoard",
    "SessionDeal",
    "Session",
    "EventScore",
]


@dataclass(frozen=True, slots=True)
class ScoredEntry:
    """An entry with its comparison score: ``ns`` / ``ew`` matchpoints or IMPs (exact).

    ``pct_ns`` / ``pct_ew``: matchpoints as a percentage of the top (``None``
    for IMPs or a top of 0); ``total_ns``: cross-IMPs before dividing by the
    comparisons (``None`` otherwise).
    """

    entry: Entry
    ns: Fraction | None
    ew: Fraction | None
    pct_ns: Fraction | None = None
    pct_ew: Fraction | None = None
    total_ns: Fraction | None = None


@dataclass(frozen=True, slots=True)
class ScoredTraveller:
    """A traveller scored: ``top`` (matchpoints, ``None`` for IMPs), ``expected`` (Neuberg's
    target number of results when it differs from the board's own), ``datum`` (Butler),
    ``entries`` and a ``note`` when the board could not be scored."""

    traveller: Traveller
    entries: tuple[ScoredEntry, ...]
    top: int | None = None
    expected: int | None = None
    datum: Fraction | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class RankRow:
    """One line of a ranking: ``rank`` label (``"2="`` for a tie), ``name``, boards played,
    ``total`` (matchpoints, IMPs or points), ``top`` (matchpoints available), ``pct``,
    for teams ``against`` (IMPs conceded), and ``names``: the players' names when ``name``
    is the pair's number (PairNS / PairEW, PBN 2.1 §4.3.2; a USEBIO PAIR_NUMBER), else ``None``."""

    rank: str
    name: str
    boards: int
    total: Fraction
    top: Fraction | None = None
    pct: Fraction | None = None
    against: Fraction | None = None
    names: str | None = None


@dataclass(frozen=True, slots=True)
class Ranking:
    """A ranking: ``title`` (``"NS"``, ``"EW"``, ``"pairs"``, ``"teams"``, ``"sides"``) and its rows."""

    title: str
    rows: tuple[RankRow, ...]


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a teams match: the Open and Closed room results and the IMPs of the home team.

    The home team sits N-S in the Open room and E-W in the Closed room
    (the vugraph convention of LIN ``vg``; PBN 2.1 §4.4.3 names the teams
    but not their seats), so its IMPs are ``imps(open N-S - closed N-S)``
    (bridge-rules.md §8.2).
    """

    match: tuple[str, ...]
    board: str
    open: Entry
    closed: Entry
    imps_home: int


@dataclass(frozen=True, slots=True)
class SessionDeal:
    """One deal of a rubber, Chicago or minibridge session.

    ``sequence`` the session (rubber number for rubber, round for Chicago,
    1 for minibridge); ``number`` the deal's number in it; ``board`` label;
    ``contract`` / ``declarer`` / ``tricks``; ``vulnerable`` as scored (text);
    ``ns`` / ``ew`` points scored (below + above the line); ``below_ns`` /
    ``below_ew`` the trick score below the line; ``note`` (a game won, a
    skipped board, a minibridge contract).
    """

    sequence: int
    number: int
    board: str
    contract: str
    declarer: str
    tricks: int | None
    vulnerable: str
    ns: int
    ew: int
    below_ns: int = 0
    below_ew: int = 0
    note: str = ""


@dataclass(frozen=True, slots=True)
class Session:
    """A rubber, Chicago or minibridge session: one file's boards in order.

    ``deals``; ``sheets`` the rubber scoresheets (rubber only); totals in points.
    """

    path: str
    deals: tuple[SessionDeal, ...]
    total_ns: int
    total_ew: int
    sheets: tuple[Scoresheet, ...] = ()
    ns_name: str | None = None
    ew_name: str | None = None


@dataclass(frozen=True, slots=True)
class EventScore:
    """The scoring of one event (or one session file) with one method.

    ``name`` the Event tag (or file path for sessions); ``travellers`` for
    pairs methods; ``team_boards`` for ``imp``; ``session`` for rubber,
    Chicago, minibridge; ``rankings``; ``notes`` (boards skipped and why,
    Neuberg applied ...); ``cross`` how the cross-IMPs were divided (``cross-imp``
    only, else ``None``); ``no_result``: the boards of a pairs session without any
    result (labels, in order of first appearance; ``"2 (another deal)"`` for a copy of a
    board with results), listed as such and scored nowhere.
    """

    method: Method
    name: str
    travellers: tuple[ScoredTraveller, ...] = ()
    team_boards: tuple[TeamBoard, ...] = ()
    session: Session | None = None
    rankings: tuple[Ranking, ...] = ()
    notes: tuple[str, ...] = ()
    cross: Cross | None = None
    no_result: tuple[str, ...] = ()
