"""The event pipeline: travellers, event scoring, session totals and rankings.

The pure scorers live in :mod:`handrec.scoring` (one board, or one sequence of
deals); this module builds what they need out of the boards of files and
turns their answers into travellers and rankings.

* :func:`record` reduces a :class:`~handrec.model.Board` and its replay to a
  small :class:`GameRecord` (one table's result of one board), so that a whole
  event can be kept in memory while files are streamed.
* :func:`travellers` groups the results of the same board: same session
  (Event and Date), same board number (or Board text), same deal, dealer and
  vulnerability (Law 87A: a copy that differs is a fouled board, scored apart,
  Law 87B).  A board whose game carries a
  PBN ``ScoreTable`` with scores takes its traveller from the table's rows
  instead (PBN 2.1 §5.3: "the traveller of this board").
* :func:`score_event` scores every session found (:func:`group_sessions`: the
  games of one Event tag and one session date, :func:`dated`: a date starts a
  new session of its event only when at least two board numbers were played with
  other deals on the date before it) with
  a :class:`Method`: matchpoints on the 1 / 0.5 scale (``mp``, top n - 1) or
  the 2 / 1 scale (``mp2``, top 2(n - 1)), with Neuberg's formula for boards
  played fewer times than the most-played board of the event and Law 12C2
  artificial adjusted scores; IMPs between the Open and Closed rooms of a
  teams match (``imp``); Butler IMPs (``butler``); cross-IMPs (``cross-imp``:
  summed, or divided by the results or the comparisons, as the Scoring tag's
  ``Cross``, ``Cross1``, ``Cross2`` say, :class:`Cross`; divided by the comparisons
  when the method is given);
  then session totals and rankings of pairs (PairNS/PairEW tags, else player
  names) or teams (HomeTeam/VisitTeam, else the room).
* Rubber, Chicago and minibridge (``rubber``, ``chicago``, ``minibridge``):
  the boards of one file, in file order, are one session scored with
  :mod:`handrec.scoring.rubber`, :mod:`~handrec.scoring.chicago` and
  :mod:`~handrec.scoring.minibridge`.
* :func:`render` prints an :class:`EventScore` list as text, CSV or JSON.

All arithmetic is exact (:class:`fractions.Fraction`); decimals appear only in
output (percentages with 2 decimals, as PBN files print them).

Sources: bridge-rules.md §5 (rubber), §6 (Chicago), §7 (minibridge), §8
(IMPs, matchpoints, Butler, cross-IMPs); Law 12C2 (artificial adjusted
scores); PBN 2.1 §4.2-4.4 and §5 (Score*, Room, HomeTeam, PairNS, tables).
"""

from __future__ import annotations

import csv
import dataclasses
import enum
import io
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from handrec.model import (
    Board,
    Contract,
    Deal,
    Doubling,
    ModelError,
    Origin,
    Seat,
    Side,
    Span,
    Strain,
    Vulnerability,
)
from handrec.rules.board import check_deal, dealer_for_board, hand_mask, scoring_fields, vulnerability_for_board
from handrec.rules.replay import Replay, replay
from handrec.scoring.chicago import score_chicago
from handrec.scoring.duplicate import score_ns
from handrec.scoring.imps import imps
from handrec.scoring.minibridge import MinibridgeRules, MiniContract, MiniKind, minibridge_score
from handrec.scoring.rubber import DealResult, Scoresheet, format_scoresheet, score_rubber
from handrec.scoring.traveller import (
    MAX_MULTIPLICITY,
    ArtificialScore,
    Scale,
    artificial_mp,
    butler_datum,
    matchpoints,
    rank_totals,
    teams_imps,
    top,
)

__all__ = [
    "Method",
    "Claim",
    "TableView",
    "table_view",
    "GameRecord",
    "record",
    "deal_text",
    "records",
    "Entry",
    "Traveller",
    "travellers",
    "ScoredEntry",
    "ScoredTraveller",
    "RankRow",
    "Ranking",
    "TeamBoard",
    "SessionDeal",
    "Session",
    "EventScore",
    "score_event",
    "group_sessions",
    "dated",
    "session_date",
    "score_matchpoints",
    "score_butler",
    "score_cross",
    "Cross",
    "cross_for",
    "deal_result",
    "table_entries",
    "row_score",
    "scoring_fields",
    "score_pairs",
    "score_teams",
    "score_sessions",
    "artificial_imps",
    "pair_label",
    "fmt_number",
    "fmt_percent",
    "render",
    "method_title",
]


class Method(enum.StrEnum):
    """How an event is scored (``handrec score --method``).

    ``mp``: matchpoints, 1 per pair beaten and 1/2 per tie, top n - 1 (ACBL);
    ``mp2``: 2 and 1, top 2(n - 1) (Europe; PBN's ``MP1``);
    ``imp``: IMPs between the two rooms of a teams match;
    ``butler``: IMPs against the board's datum;
    ``cross-imp``: IMPs against every other result, divided by the comparisons
    (bridge-rules.md §8.5), or as the Scoring tag's modifier says when the method comes
    from the tags (:class:`Cross`);
    ``rubber``, ``chicago``, ``minibridge``: a file's boards as one session.

    Source: bridge-rules.md §5-§8.
    """

    MP = "mp"
    MP2 = "mp2"
    IMP = "imp"
    BUTLER = "butler"
    CROSS_IMP = "cross-imp"
    RUBBER = "rubber"
    CHICAGO = "chicago"
    MINIBRIDGE = "minibridge"

    @property
    def is_session(self) -> bool:
        """Rubber, Chicago and minibridge score a file's boards as one sequence."""
        return self in (Method.RUBBER, Method.CHICAGO, Method.MINIBRIDGE)


class Cross(enum.StrEnum):
    """How cross-IMPs are divided: the PBN Scoring modifiers (PBN 2.1 §3.4.12; bridge-rules.md §8.5).

    ``sum`` (``Cross``): the IMPs against every other result, summed;
    ``scores`` (``Cross1``): that sum divided by the number of results of the board (n);
    ``comparisons`` (``Cross2``): divided by the comparisons (n - 1), bridge-rules.md §8.5's
    average and ``handrec score -m cross-imp``.
    """

    SUM = "sum"
    SCORES = "scores"
    COMPARISONS = "comparisons"


#: The Scoring modifier of each :class:`Cross` variant.
_CROSS_FIELDS = {"CROSS": Cross.SUM, "CROSS1": Cross.SCORES, "CROSS2": Cross.COMPARISONS}


#: Tags whose claimed figures :mod:`handrec.events.checks` compares (PBN 2.1 §4.2).
CLAIM_TAGS = ("ScoreMP", "ScoreIMP", "ScorePercentage", "ScoreRubber")
#: The supplemental tables event checks read (PBN 2.1 §5.3).
SCORE_TABLES = ("ScoreTable", "TotalScoreTable")

_UNKNOWN = ("", "?", "-")


# --- per-board records ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Claim:
    """A figure the file claims: ``tag`` (ScoreMP, ScoreIMP, ...), its raw ``value`` and position."""

    tag: str
    value: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class TableView:
    """A PBN supplemental table as the event checks read it (PBN 2.1 §5; pbn.md §15).

    ``name`` the tag (``ScoreTable``, ``TotalScoreTable``); ``columns`` the
    column names; ``sort`` per column ``"+"`` (descending), ``"-"``
    (ascending) or ``None``; ``rows`` the cells as text (``?`` unknown, ``-``
    irrelevant, a ``^`` prefix an artificial score); ``row_spans`` the
    position of each row when known (its first element); ``span`` the table
    tag's position; ``cell_spans`` per row the position of each element, when
    known.
    """

    name: str
    columns: tuple[str, ...]
    sort: tuple[str | None, ...]
    rows: tuple[tuple[str, ...], ...]
    row_spans: tuple[Span | None, ...] = field(default=(), compare=False)
    span: Span | None = field(default=None, compare=False)
    cell_spans: tuple[tuple[Span | None, ...], ...] = field(default=(), compare=False)

    def index(self, *names: str) -> int | None:
        """The index of the first column called one of ``names`` (case-insensitive), else ``None``."""
        low = [c.lower() for c in self.columns]
        for n in names:
            if n.lower() in low:
                return low.index(n.lower())
        return None

    def row_span(self, i: int) -> Span | None:
        """The position of row ``i`` (0-based): its first element's, else the table tag's
        position (PBN 2.1 §5.2: a row's elements follow the tag)."""
        if i < len(self.row_spans) and self.row_spans[i] is not None:
            return self.row_spans[i]
        if i < len(self.cell_spans):
            first = next((s for s in self.cell_spans[i] if s is not None), None)
            if first is not None:
                return first
        return self.span

    def cell_span(self, i: int, column: str | int | None) -> Span | None:
        """The position of row ``i``'s element in ``column`` (a name, case-insensitive, or an
        index), else the row's position (:meth:`row_span`)."""
        k = self.index(column) if isinstance(column, str) else column
        if k is not None and i < len(self.cell_spans):
            cells = self.cell_spans[i]
            if k < len(cells) and cells[k] is not None:
                return cells[k]
        return self.row_span(i)


_COLUMN_RE = re.compile(r"^\s*([+-]?)\s*([^\\]*?)\s*(?:\\.*)?$")


def _column(definition: object) -> tuple[str, str | None]:
    """(name, sort marker) of a column given as text (``+Score_NS\\5R``) or a column object."""
    if isinstance(definition, str):
        m = _COLUMN_RE.match(definition)
        if m is None:
            return definition.strip(), None
        return m.group(2), m.group(1) or None
    name = getattr(definition, "name", None)
    sort = getattr(definition, "sort", None)
    if sort is None:
        ordering = getattr(definition, "ordering", None) or getattr(definition, "order", None)
        sort = ordering if isinstance(ordering, str) else None
    if isinstance(sort, str):
        sort = {"+": "+", "-": "-", "descending": "+", "desc": "+", "ascending": "-", "asc": "-"}.get(sort.lower())
    elif isinstance(sort, bool | int) and sort:
        sort = "+" if sort > 0 else "-"
    else:
        sort = None
    return str(name if name is not None else definition), sort


def _cell(value: object) -> str:
    if value is None:
        return "?"
    if isinstance(value, str):
        return value
    for attr in ("text", "value", "raw"):
        v = getattr(value, attr, None)
        if isinstance(v, str):
            return v
    return str(value)


def table_view(table: object) -> TableView | None:
    """Adapt a model table (``Board.tables`` item) to a :class:`TableView`; ``None`` if unusable.

    Reads ``name`` (or ``tag``), ``columns`` (objects with ``name`` and a sort
    marker, or the column definition text) and ``rows`` (sequences of cells:
    text or objects with ``text``/``value``); positions from ``span``,
    ``row_spans`` (or a ``span`` on each row) and ``cell_spans`` (per row, a
    position per element; or a ``span`` on each cell) when present.
    """
    name = getattr(table, "name", None) or getattr(table, "tag", None)
    columns = getattr(table, "columns", None)
    rows = getattr(table, "rows", None)
    if not isinstance(name, str) or columns is None or rows is None:
        return None
    if isinstance(columns, str):
        columns = columns.split(";")
    cols = [_column(c) for c in columns]
    out_rows: list[tuple[str, ...]] = []
    spans: list[Span | None] = []
    cell_spans: list[tuple[Span | None, ...]] = []
    given_spans = getattr(table, "row_spans", None) or ()
    given_cells = getattr(table, "cell_spans", None) or ()
    for i, row in enumerate(rows):
        cells = getattr(row, "cells", row)
        out_rows.append(tuple(_cell(c) for c in cells))
        s = getattr(row, "span", None)
        if s is None and i < len(given_spans):
            s = given_spans[i]
        spans.append(s if isinstance(s, Span) else None)
        at = given_cells[i] if i < len(given_cells) else tuple(getattr(c, "span", None) for c in cells)
        cell_spans.append(tuple(x if isinstance(x, Span) else None for x in at))
    span = getattr(table, "span", None)
    return TableView(
        name,
        tuple(c[0] for c in cols),
        tuple(c[1] for c in cols),
        tuple(out_rows),
        tuple(spans),
        span if isinstance(span, Span) else None,
        tuple(cell_spans) if any(any(c is not None for c in row) for row in cell_spans) else (),
    )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game (a table's result of one board), reduced to what event scoring needs.

    * ``origin``: where the board is (path, first line, index in the file).
    * ``event``: the Event tag (``""`` when absent); ``board``: the board
      number as text, else the Board tag's text (``""``); ``number``: the
      integer board number or ``None``; ``deal``: PBN deal notation from
      North, ``None`` when not given.
    * ``room``: ``"Open"`` / ``"Closed"`` (Room tag, PBN 2.1 §4.1.7) or
      ``None``; ``match``: the teams match (Section, Stage, Round,
      HomeTeam, VisitTeam); ``home`` / ``visit``: the team names.
    * ``ns`` / ``ew``: pair identities (:func:`pair_label`); ``one_name``: for (N-S,
      E-W), the identity is one player name written in both seats (no PairNS/PairEW
      tag): a robot's name at every table, or a pair id.
    * ``contract`` (with its declarer), ``tricks`` (taken by declarer),
      ``score_ns`` (points for North-South): as the replay resolved them.
    * ``dealer``, ``vulnerable``: the board's (the Vulnerable tag, else the
      board number's).
    * ``scoring``: the Scoring tag; ``competition``: the Competition tag.
    * ``claims``: ScoreMP / ScoreIMP / ScorePercentage / ScoreRubber values.
    * ``tables``: its ScoreTable and TotalScoreTable (:class:`TableView`).
    * ``date``: :func:`session_date` of the Date tag (``""`` unknown); :func:`dated`
      makes it the session's date: with ``event`` it keys the session (a club's weekly
      "Monday Pairs" files are one session a date; the boards of one session that runs
      past midnight all take its first date).
    * ``spans``: where the Board, Deal, Dealer and Vulnerable tags are (``None``
      each when not known), for the positions of the event diagnostics.
    """

    origin: Origin = field(compare=False)
    event: str = ""
    board: str = ""
    number: int | None = None
    deal: str | None = None
    room: str | None = None
    match: tuple[str, ...] = ()
    home: str | None = None
    visit: str | None = None
    ns: str | None = None
    ew: str | None = None
    one_name: tuple[bool, bool] = (False, False)
    contract: Contract | None = None
    tricks: int | None = None
    score_ns: int | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    scoring: str = ""
    competition: str = ""
    claims: tuple[Claim, ...] = ()
    tables: tuple[TableView, ...] = ()
    date: str = ""
    spans: tuple[Span | None, ...] = field(default=(), compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as plain values (``validate --jobs`` sends one record a board from its
        # workers): the origin's fields, the contract as ints, the seats as ints.  About a
        # quarter of the default pickle's time each way.
        o, c = self.origin, self.contract
        if (
            type(o) is not Origin
            or (c is not None and (type(c) is not Contract or type(c.strain) not in _PLAIN_STRAIN))
            or type(c.doubling if c is not None else Doubling.UNDOUBLED) is not Doubling
            or type(c.declarer if c is not None else None) not in _PLAIN_SEAT
            or type(self.dealer) not in _PLAIN_SEAT
            or type(self.vulnerable) not in _PLAIN_VUL
        ):
            return (GameRecord, tuple(getattr(self, f) for f in _RECORD_FIELDS))  # anything else: as it is
        return (
            _game_record,
            (
                o.path,
                o.line,
                o.offset,
                o.index,
                o.format,
                self.event,
                self.board,
                self.number,
                self.deal,
                self.room,
                self.match,
                self.home,
                self.visit,
                self.ns,
                self.ew,
                self.one_name,
                None if c is None else (c.level, _int_or(c.strain), int(c.doubling), _int_or(c.declarer)),
                self.tricks,
                self.score_ns,
                _int_or(self.dealer),
                _int_or(self.vulnerable),
                self.scoring,
                self.competition,
                self.claims,
                self.tables,
                self.date,
                self.spans,
            ),
        )

    @property
    def key(self) -> tuple[object, ...] | None:
        """The traveller key (event, date, board, deal, dealer, vulnerable), ``None`` when
        neither board nor deal is known.

        Results are compared only between tables that played the board in identical form:
        the same cards, dealer and vulnerability (Law 87A; bridge-rules.md §8.3), in the
        same session (Event and Date)."""
        if not self.board and self.deal is None:
            return None
        return (self.event, self.date, self.board, self.deal or "", self.dealer, self.vulnerable)

    @property
    def session(self) -> tuple[str, str]:
        """The session key: (Event tag, date), the date as :func:`dated` sets it (PBN 2.1
        §3.4.1-3.4.3)."""
        return (self.event, self.date)

    def span(self, tag: str) -> Span:
        """The position of this game's ``tag`` (``Board``, ``Deal``, ``Dealer``, ``Vulnerable``),
        else the board's first line, column 1 (diagnostic columns are 1-based)."""
        i = _SPAN_TAGS.index(tag)
        s = self.spans[i] if i < len(self.spans) else None
        return s if s is not None else _BOARD_START

    @property
    def declarer(self) -> Seat | None:
        """The declaring seat, ``None`` when passed out or unknown."""
        return None if self.contract is None else self.contract.declarer

    @property
    def passed_out(self) -> bool:
        return self.contract is not None and self.contract.is_passed_out


_RECORD_FIELDS = tuple(f.name for f in fields(GameRecord))
#: The tags whose positions a :class:`GameRecord` keeps (``spans``), in that order.
_SPAN_TAGS = ("Board", "Deal", "Dealer", "Vulnerable")
#: A board's first line, column 1: where a fault of a whole game is reported.
_BOARD_START = Span(1, 1)
_PLAIN_STRAIN = (Strain, type(None))
_PLAIN_SEAT = (Seat, type(None))
_PLAIN_VUL = (Vulnerability, type(None))
#: Each IntEnum's members by value (values 0, 1, 2...).
_SEAT_OF = tuple(map(Seat, range(len(Seat))))
_STRAIN_OF = tuple(map(Strain, range(len(Strain))))
_DOUBLING_OF = tuple(map(Doubling, range(len(Doubling))))
_VUL_OF = tuple(map(Vulnerability, range(len(Vulnerability))))


def _int_or(value: enum.IntEnum | None) -> int:
    return -1 if value is None else int(value)


def _game_record(
    path: str,
    line: int,
    offset: int,
    index: int,
    fmt: str,
    event: str,
    board: str,
    number: int | None,
    deal: str | None,
    room: str | None,
    match: tuple[str, ...],
    home: str | None,
    visit: str | None,
    ns: str | None,
    ew: str | None,
    one_name: tuple[bool, bool],
    contract: tuple[int, int, int, int] | None,
    tricks: int | None,
    score_ns: int | None,
    dealer: int,
    vulnerable: int,
    scoring: str,
    competition: str,
    claims: tuple[Claim, ...],
    tables: tuple[TableView, ...],
    date: str = "",
    spans: tuple[Span | None, ...] = (),
) -> GameRecord:
    """A :class:`GameRecord` from the values its ``__reduce__`` gives."""
    c = None
    if contract is not None:
        level, strain, doubling, declarer = contract
        c = Contract(
            level,
            None if strain < 0 else _STRAIN_OF[strain],
            _DOUBLING_OF[doubling],
            None if declarer < 0 else _SEAT_OF[declarer],
        )
    return GameRecord(
        Origin(path, line, offset, index, fmt),
        event,
        board,
        number,
        deal,
        room,
        match,
        home,
        visit,
        ns,
        ew,
        one_name,
        c,
        tricks,
        score_ns,
        None if dealer < 0 else _SEAT_OF[dealer],
        None if vulnerable < 0 else _VUL_OF[vulnerable],
        scoring,
        competition,
        claims,
        tables,
        date,
        spans,
    )


def _event_tag(value: str | None) -> str:
    """A game's Event tag as an event key: ``""`` for none, and for ``?`` (PBN 2.1 §3.4.1:
    the event is unknown, as handrec's own LIN-to-PBN export writes it), so that files
    whose event is unknown are never ranked together; the SQL views read it alike."""
    v = (value or "").strip()
    return "" if v == "?" else v


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    v = value.strip()
    return None if v in _UNKNOWN else v


def pair_label(first: str | None, second: str | None) -> str | None:
    """A partnership's label from its two player names: ``"A - B"``; one name when both are the same.

    Unknown names (``""``, ``?``, ``-``) are left out; ``None`` when neither is known.
    Files that list a pair id in both seats (``North "Para-1"``, ``South "Para-1"``)
    give that id.  This is the SQL ``rankings`` view's convention.

    >>> pair_label("Para-1", "Para-1"), pair_label("Linde J", "Balschun R"), pair_label("?", "")
    ('Para-1', 'Linde J - Balschun R', None)
    """
    return _pair(_clean(first), _clean(second))


def _pair(a: str | None, b: str | None) -> str | None:
    """:func:`pair_label` of two names already cleaned (``None`` for unknown)."""
    if a is None or b is None or a == b:
        return a or b
    return f"{a} - {b}"


def _room(value: str | None) -> str | None:
    v = _clean(value)
    if v is None:
        return None
    low = v.lower()
    if low in ("open", "o"):
        return "Open"
    if low in ("closed", "c"):
        return "Closed"
    return v


#: The tags :func:`record` reads (first occurrence of each).
_RECORD_TAGS = frozenset(
    {
        "Board",
        "Event",
        "Date",
        "Deal",
        "Dealer",
        "Vulnerable",
        "HomeTeam",
        "VisitTeam",
        "Section",
        "Stage",
        "Round",
        "Room",
        "PairNS",
        "PairEW",
        "North",
        "South",
        "East",
        "West",
        "Scoring",
        "Competition",
    }
)
_RANK_TEXT = "23456789TJQKA"


#: A suit's ranks as text, high first, by the 13-bit mask of the suit (bit 0 = the 2).
_SUIT_TEXT = tuple("".join(_RANK_TEXT[r] for r in range(12, -1, -1) if m >> r & 1) for m in range(1 << 13))


def deal_text(deal: Deal) -> str:
    """PBN deal notation from North (``str(deal)``): each hand from the bits of its cards
    (``1 << Card.index``: clubs in bits 0-12 ... spades in 39-51), four look-ups a hand.
    A full deal takes the masks :func:`~handrec.rules.board.check_deal` keeps for the deal
    it checked last (the replay's, when called after it).

    >>> d = Deal.parse("E:AKQJT98765432... - - -")
    >>> deal_text(d) == str(d)
    True
    """
    text = _SUIT_TEXT
    hands = deal.hands
    if None not in hands:
        dc = check_deal(deal, required=False)
        if dc.cards_per_hand == 13 and not dc.faults:  # four given hands of 13 distinct cards
            return "N:" + " ".join(
                f"{text[m >> 39]}.{text[m >> 26 & 8191]}.{text[m >> 13 & 8191]}.{text[m & 8191]}"
                for m in dc.masks  # type: ignore[operator]
            )
    parts = []
    for h in hands:
        if h is None:
            parts.append("-")
            continue
        m = hand_mask(h)
        if m.bit_count() == len(h.cards):  # no card repeated (else written as it is, below)
            parts.append(f"{text[m >> 39]}.{text[m >> 26 & 8191]}.{text[m >> 13 & 8191]}.{text[m & 8191]}")
            continue
        out: list[str] = []
        suit = 3  # hands are sorted spades first, high to low
        for c in h.cards:
            s = int(c.suit)
            while s < suit:
                out.append(".")
                suit -= 1
            out.append(_RANK_TEXT[c.rank - 2])
        out.append("." * suit)
        parts.append("".join(out))
    return "N:" + " ".join(parts)


def record(board: Board, rep: Replay | None = None) -> GameRecord:
    """Reduce ``board`` (and its replay; computed when not given) to a :class:`GameRecord`.

    Pair identity: the PairNS / PairEW tags when present (PBN 2.1 §4.3.2),
    else the player names (:func:`pair_label`).  Never raises.
    """
    r = rep if rep is not None else replay(board)
    tags: dict[str, str] = {}
    claims: list[Claim] = []
    where: dict[str, Span | None] = {}
    for t in board.tags:
        name = t.name
        if name in _RECORD_TAGS:
            if name not in tags:
                tags[name] = t.value
                where[name] = t.span
        elif name in CLAIM_TAGS and t.value.strip() not in ("", "?", "#"):
            claims.append(Claim(name, t.value, t.span))
    tag = tags.get
    number = board.number if type(board.number) is int else None
    label = str(number) if number is not None else (tag("Board") or "").strip()
    deal = board.deal
    vul = board.vulnerable if isinstance(board.vulnerable, Vulnerability) else None
    dealer = board.dealer if isinstance(board.dealer, Seat) else None
    if number is not None and number >= 1:
        vul = vul if vul is not None else vulnerability_for_board(number)
        dealer = dealer if dealer is not None else dealer_for_board(number)
    home, visit = _clean(tag("HomeTeam")), _clean(tag("VisitTeam"))
    match = (
        _clean(tag("Section")) or "",
        _clean(tag("Stage")) or "",
        _clean(tag("Round")) or "",
        home or "",
        visit or "",
    )
    # pair identity: PairNS / PairEW, else the two names (each cleaned once)
    pair_ns, pair_ew = _clean(tag("PairNS")), _clean(tag("PairEW"))
    if pair_ns is None:
        north, south = _clean(tag("North")), _clean(tag("South"))
        ns, ns_one = _pair(north, south), north is not None and north == south
    else:
        ns, ns_one = pair_ns, False
    if pair_ew is None:
        east, west = _clean(tag("East")), _clean(tag("West"))
        ew, ew_one = _pair(east, west), east is not None and east == west
    else:
        ew, ew_one = pair_ew, False
    views: list[TableView] = []
    for t in getattr(board, "tables", ()) or ():
        if getattr(t, "name", None) in SCORE_TABLES:
            v = table_view(t)
            if v is not None:
                views.append(v)
    contract = r.contract
    return GameRecord(
        origin=board.origin,
        event=_event_tag(tag("Event")),
        board=label,
        number=number,
        deal=deal_text(deal) if isinstance(deal, Deal) else None,
        room=_room(tag("Room")),
        match=match,
        home=home,
        visit=visit,
        ns=ns,
        ew=ew,
        one_name=(ns_one, ew_one),
        contract=contract if contract is not None and not contract.is_end_position else None,
        tricks=r.result,
        score_ns=r.score_ns,
        dealer=dealer,
        vulnerable=vul,
        scoring=(tag("Scoring") or "").strip(),
        competition=(tag("Competition") or "").strip(),
        claims=tuple(claims),
        tables=tuple(views),
        date=session_date(tag("Date")),
        spans=tuple([where.get(n) for n in _SPAN_TAGS]) if where else (),
    )


#: Blanks around a Date tag's value: the class of RE2's ``\s``, as in :mod:`handrec.dataset.query`'s SQL.
_BLANKS = " \t\n\f\r"
_DATE_RE = re.compile(r"[ \t\n\f\r]*([0-9]{4})[./-]([0-9]{2})[./-]([0-9]{2})(?:[^0-9]|$)")
_UNKNOWN_DATE_RE = re.compile(r"[ \t\n\f\r?./-]*|[ \t\n\f\r]*[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?[ \t\n\f\r]*")


def session_date(value: str | None) -> str:
    """The date of a game from a Date tag (PBN 2.1 §3.4.3: ``YYYY.MM.DD``), from which
    :func:`dated` tells apart the sessions of one Event (a club's weekly "Monday Pairs"; a
    session that runs past midnight stays one).

    A date written ``YYYY.MM.DD``, ``YYYY-MM-DD`` or ``YYYY/MM/DD``, with or without a time
    after it (BBO exports write the time of each board), gives ``YYYY.MM.DD``; an unknown
    date (``""``, ``?``, ``????.??.??``) or a time alone gives ``""``; any other text is kept
    as written (stripped).  The SQL views of :mod:`handrec.dataset.query` compute the same key.

    >>> session_date("2013-11-23 11:22"), session_date("????.??.??"), session_date("2015.09.?")
    ('2013.11.23', '', '2015.09.?')
    """
    if value is None:
        return ""
    m = _DATE_RE.match(value)
    if m is not None:
        return f"{m.group(1)}.{m.group(2)}.{m.group(3)}"
    if _UNKNOWN_DATE_RE.fullmatch(value) is not None:
        return ""
    return value.strip(_BLANKS)


def records(boards: Iterable[Board]) -> Iterator[GameRecord]:
    """:func:`record` of each board (one replay each)."""
    for b in boards:
        yield record(b)


# --- travellers -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a traveller: a result of the board at one table.

    ``ns`` / ``ew`` the pairs (``None`` when unknown); ``score_ns`` points for
    North-South (``None`` for an artificial adjusted score); ``artificial``
    the Law 12C2 scores of (N-S, E-W) when the board was not played;
    ``multiplicity`` how many tables had this result (a ScoreTable's
    Multiplicity column); ``contract`` / ``declarer`` / ``tricks`` as text /
    seat / tricks taken; ``room``; ``record`` the game it comes from (``None``
    for a table row); ``row`` the table row index (``None`` for a game).
    """

    ns: str | None
    ew: str | None
    score_ns: int | None
    artificial: tuple[ArtificialScore, ArtificialScore] | None = None
    multiplicity: int = 1
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    room: str | None = None
    record: GameRecord | None = field(default=None, compare=False)
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Traveller:
    """All results of one board: ``event``, ``board`` label, ``deal``, and the ``entries``.

    ``source`` is ``"games"`` (one game per table) or ``"ScoreTable"``; ``date`` the
    session's date (:func:`session_date`, ``""`` unknown).
    """

    event: str
    board: str
    deal: str | None
    entries: tuple[Entry, ...]
    source: str = "games"
    date: str = ""

    @property
    def played(self) -> int:
        """Results with a score (multiplicities counted)."""
        return sum(e.multiplicity for e in self.entries if e.score_ns is not None)

    @property
    def size(self) -> int:
        """Results with a score or an artificial score (multiplicities counted); games
        without a result do not count."""
        return sum(e.multiplicity for e in self.entries if e.score_ns is not None or e.artificial is not None)

    def scores(self) -> list[int]:
        """The N-S scores of the played results, each repeated by its multiplicity."""
        out: list[int] = []
        for e in self.entries:
            if e.score_ns is not None:
                out.extend([e.score_ns] * e.multiplicity)
        return out


def _game_entry(r: GameRecord) -> Entry:
    c = r.contract
    return Entry(
        ns=r.ns,
        ew=r.ew,
        score_ns=r.score_ns,
        contract="" if c is None else str(c),
        declarer="" if c is None or c.declarer is None else str(c.declarer),
        tricks=None if r.passed_out else r.tricks,
        room=r.room,
        record=r,
    )


_NUM_RE = re.compile(r"^[+-]?\d+$")


def _int_cell(text: str) -> int | None:
    t = text.strip().strip('"')
    return int(t) if _NUM_RE.match(t) else None


def _artificial_kind(text: str) -> ArtificialScore | None:
    """A ``^``-marked percentage as a Law 12C2 kind: >= 55 plus, <= 45 minus, else average."""
    t = text.strip().lstrip("^").strip()
    try:
        p = Fraction(t)
    except (ValueError, ZeroDivisionError):
        return ArtificialScore.AVERAGE
    if p >= 55:
        return ArtificialScore.AVERAGE_PLUS
    if p <= 45:
        return ArtificialScore.AVERAGE_MINUS
    return ArtificialScore.AVERAGE


def table_entries(view: TableView, vulnerable: Vulnerability | None) -> list[Entry]:
    """The traveller lines of a ScoreTable: one :class:`Entry` per row.

    The N-S score is computed by handrec from the Contract / Declarer / Result
    columns and the board's ``vulnerable`` (Law 77, :func:`row_score`), never
    copied from the file: a wrong Score_NS (S607) is not matchpointed.  Only a
    row that cannot be computed takes Score_NS, else minus Score_EW.  A row whose cells carry ``^`` (artificial score, PBN 2.1 §5)
    and no score is an artificial adjusted score: its kind comes from
    Percentage_NS / Percentage_EW (Law 12C2: 60 / 50 / 40 %).  Pairs from
    PairId_* else Names_*; Multiplicity gives repeated results.
    """
    ix = view.index
    i_sns, i_sew = ix("Score_NS"), ix("Score_EW")
    i_c, i_d, i_r = ix("Contract"), ix("Declarer"), ix("Result")
    i_pns, i_pew = ix("PairId_NS"), ix("PairId_EW")
    i_nns, i_new = ix("Names_NS"), ix("Names_EW")
    i_m = ix("Multiplicity")
    i_pcns, i_pcew = ix("Percentage_NS"), ix("Percentage_EW")
    out: list[Entry] = []
    for n, row in enumerate(view.rows):

        def cell(i: int | None, row: tuple[str, ...] = row) -> str:
            return row[i] if i is not None and i < len(row) else "?"

        contract_text = cell(i_c).strip()
        declarer_text = cell(i_d).strip()
        tricks = _int_cell(cell(i_r))
        score = row_score(contract_text, declarer_text, tricks, vulnerable)
        if score is None:  # not computable: the file's Score_NS, else minus its Score_EW
            score = _int_cell(cell(i_sns))
            if score is None:
                ew = _int_cell(cell(i_sew))
                score = None if ew is None else -ew
        artificial = None
        if score is None and any(c.strip().startswith("^") for c in row):
            artificial = (_artificial_kind(cell(i_pcns)), _artificial_kind(cell(i_pcew)))
            if i_pcns is None and i_pcew is not None:
                artificial = (_mirror(artificial[1]), artificial[1])
            elif i_pcew is None:
                artificial = (artificial[0], _mirror(artificial[0]))
        mult = _int_cell(cell(i_m)) if i_m is not None else 1
        ns = _clean(cell(i_pns)) or _names(cell(i_nns))
        ew = _clean(cell(i_pew)) or _names(cell(i_new))
        out.append(
            Entry(
                ns=ns,
                ew=ew,
                score_ns=score,
                artificial=artificial,
                multiplicity=mult if mult is not None and 1 <= mult <= MAX_MULTIPLICITY else 1,  # else T124
                contract="" if contract_text in _UNKNOWN else contract_text,
                declarer="" if declarer_text in _UNKNOWN else declarer_text,
                tricks=tricks,
                row=n,
            )
        )
    return out


def _mirror(kind: ArtificialScore) -> ArtificialScore:
    return {
        ArtificialScore.AVERAGE_PLUS: ArtificialScore.AVERAGE_MINUS,
        ArtificialScore.AVERAGE_MINUS: ArtificialScore.AVERAGE_PLUS,
    }.get(kind, ArtificialScore.AVERAGE)


def _names(text: str) -> str | None:
    t = _clean(text.strip('"'))
    if t is None:
        return None
    parts = [p.strip() for p in t.split(";") if p.strip()]
    return " - ".join(parts) if parts else None


def row_score(contract: str, declarer: str, tricks: int | None, vulnerable: Vulnerability | None) -> int | None:
    """N-S points of a table row's Contract / Declarer / Result (Law 77); ``None`` when not computable.

    >>> row_score("4S", "N", 10, Vulnerability.NONE), row_score("3NTX", "W", 7, Vulnerability.EW)
    (420, 500)
    """
    if contract in _UNKNOWN or vulnerable is None:
        return None
    try:
        c = Contract.parse(contract)
        if c.is_passed_out:
            return 0
        if c.is_end_position or tricks is None or declarer in _UNKNOWN:
            return None
        return score_ns(Contract(c.level, c.strain, c.doubling, Seat.parse(declarer)), vulnerable, tricks)
    except (ModelError, ValueError):
        return None


def travellers(recs: Iterable[GameRecord], *, tables: bool = True) -> list[Traveller]:
    """Group results of the same board into travellers, in order of first appearance.

    Key: Event + date (the session, as :func:`dated` sets it) + board (number, else Board
    text) + deal + dealer + vulnerability (bridge-rules.md §8.3: results are compared
    between tables that played the same cards; Law 87: a board played with other cards,
    another dealer or another vulnerability is fouled, and Law 87B scores each form of it
    apart).  Games
    with neither board nor deal stand alone.  With ``tables`` (default), a
    board one of whose games has a ScoreTable with at least one score or
    artificial score takes its traveller from the first such table, and its
    games' own results are not added again (the table lists them).
    """
    games: dict[object, list[GameRecord]] = {}
    from_table: dict[object, Traveller] = {}
    for n, r in enumerate(recs):
        key: object = r.key if r.key is not None else ("#", r.origin.path, n)
        games.setdefault(key, []).append(r)
        if tables and key not in from_table:
            for v in r.tables:
                if v.name != "ScoreTable":
                    continue
                entries = table_entries(v, r.vulnerable)
                if any(e.score_ns is not None or e.artificial is not None for e in entries):
                    from_table[key] = Traveller(r.event, r.board, r.deal, tuple(entries), "ScoreTable", r.date)
                    break
    out: list[Traveller] = []
    for key, rs in games.items():
        if key in from_table:
            out.append(from_table[key])
        else:
            first = rs[0]
            out.append(
                Traveller(first.event, first.board, first.deal, tuple(_game_entry(r) for r in rs), date=first.date)
            )
    return out


# --- scored results ------------------------------------------------------------------------


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
    and for teams ``against`` (IMPs conceded)."""

    rank: str
    name: str
    boards: int
    total: Fraction
    top: Fraction | None = None
    pct: Fraction | None = None
    against: Fraction | None = None


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


# --- pairs: matchpoints, Butler, cross-IMPs ------------------------------------------------

#: Law 12C2: in IMP scoring an average-plus is +3 IMPs, average 0, average-minus -3.
_ARTIFICIAL_IMPS = {ArtificialScore.AVERAGE_PLUS: 3, ArtificialScore.AVERAGE: 0, ArtificialScore.AVERAGE_MINUS: -3}


def artificial_imps(kind: ArtificialScore) -> int:
    """IMPs of an artificial adjusted score: +3 / 0 / -3 (Law 12C2, IMP scoring).

    >>> artificial_imps(ArtificialScore.AVERAGE_MINUS)
    -3
    """
    return _ARTIFICIAL_IMPS[kind]


def score_matchpoints(trav: Traveller, scale: Scale, expected: int | None = None) -> ScoredTraveller:
    """Matchpoints of every entry of ``trav`` on ``scale``.

    The board's results are compared with each other (bridge-rules.md §8.3).
    When the board is to be scored on the top of ``expected`` results (the
    most-played board of the event) or some results are artificial (Law
    12C2), the played results are scaled with Neuberg's formula to the top of
    ``expected`` (default: all results of the board, artificial ones
    included) and artificial scores get 60 / 50 / 40 % of that top.
    Percentages are of the top.
    """
    scores = trav.scores()
    k = len(scores)
    n = max(trav.size, expected or 0)
    t = top(n, scale) if n else 0
    ns_mp = matchpoints(scores, scale=scale, expected=n if k != n else None) if k else ()
    ew_mp = matchpoints(scores, scale=scale, side=Side.EW, expected=n if k != n else None) if k else ()
    out: list[ScoredEntry] = []
    i = 0
    for e in trav.entries:
        if e.score_ns is not None:
            a, b = ns_mp[i], ew_mp[i]
            i += e.multiplicity
        elif e.artificial is not None and n:
            a, b = artificial_mp(e.artificial[0], n, scale=scale), artificial_mp(e.artificial[1], n, scale=scale)
        else:
            out.append(ScoredEntry(e, None, None))
            continue
        pa = Fraction(100) * a / t if t else None
        pb = Fraction(100) * b / t if t else None
        out.append(ScoredEntry(e, a, b, pa, pb))
    note = "" if k else "no result with a score"
    return ScoredTraveller(trav, tuple(out), t, n if n != trav.size else None, note=note)


def score_butler(trav: Traveller) -> ScoredTraveller:
    """Butler IMPs of every entry: ``imps(score - datum)``; the datum is the mean without one top and one bottom.

    Needs at least 3 played results; artificial scores get +3 / 0 / -3 IMPs
    (Law 12C2).  Source: bridge-rules.md §8.4.
    """
    scores = trav.scores()
    if len(scores) < 3:
        return ScoredTraveller(
            trav, tuple(ScoredEntry(e, None, None) for e in trav.entries), note="fewer than 3 results"
        )
    datum = butler_datum(scores)
    out = []
    for e in trav.entries:
        if e.score_ns is not None:
            v = Fraction(imps(e.score_ns - datum))
            out.append(ScoredEntry(e, v, -v))
        elif e.artificial is not None:
            out.append(
                ScoredEntry(e, Fraction(artificial_imps(e.artificial[0])), Fraction(artificial_imps(e.artificial[1])))
            )
        else:
            out.append(ScoredEntry(e, None, None))
    return ScoredTraveller(trav, tuple(out), datum=datum)


def score_cross(trav: Traveller, cross: Cross = Cross.COMPARISONS) -> ScoredTraveller:
    """Cross-IMPs of every entry: the IMPs against every other result, divided by the comparisons
    (n - 1, the default), or summed, or divided by the number of results (n), as ``cross`` says.

    ``total_ns`` keeps the undivided sum.  Needs at least 2 played results;
    artificial scores get +3 / 0 / -3 IMPs a comparison (Law 12C2): +3 / 0 / -3 averaged
    over the comparisons, (n - 1) times that summed, (n - 1) / n times that divided by the
    results.  Source: bridge-rules.md §8.5; PBN 2.1 §3.4.12 (Cross, Cross1, Cross2).
    """
    scores = trav.scores()
    k = len(scores)
    if k < 2:
        return ScoredTraveller(
            trav, tuple(ScoredEntry(e, None, None) for e in trav.entries), note="fewer than 2 results"
        )
    divisor = {Cross.SUM: 1, Cross.SCORES: k, Cross.COMPARISONS: k - 1}[Cross(cross)]
    per = Fraction(k - 1, divisor)  # an artificial score's IMPs a comparison, on this scale
    out = []
    for e in trav.entries:
        if e.score_ns is not None:
            # every other result: all scores, minus this one's own comparison with itself (0 IMPs)
            total = Fraction(sum(imps(e.score_ns - s) for s in scores))
            v = total / divisor
            out.append(ScoredEntry(e, v, -v, total_ns=total))
        elif e.artificial is not None:
            a, b = (artificial_imps(x) * per for x in e.artificial)
            out.append(ScoredEntry(e, a, b))
        else:
            out.append(ScoredEntry(e, None, None))
    return ScoredTraveller(trav, tuple(out))


def _rank_rows(
    totals: dict[str, Fraction],
    boards: dict[str, int],
    tops: dict[str, Fraction] | None,
) -> tuple[RankRow, ...]:
    # a pair whose boards all had a top of 0 (each played once: nothing to compare) has no
    # percentage and no rank: listed after the ranked pairs, rank "-"
    unranked = [] if tops is None else [p for p in totals if not tops[p]]
    if tops is not None:
        keyed = {p: Fraction(100) * totals[p] / tops[p] for p in totals if tops[p]}
    else:
        keyed = dict(totals)
    rows = []
    for label, pair, _ in rank_totals(keyed):
        rows.append(
            RankRow(
                label,
                pair,
                boards[pair],
                totals[pair],
                None if tops is None else tops[pair],
                None if tops is None else keyed[pair],
            )
        )
    for pair in sorted(unranked):
        rows.append(RankRow("-", pair, boards[pair], totals[pair], tops[pair] if tops is not None else None, None))
    return tuple(rows)


def score_pairs(
    trs: Sequence[Traveller], method: Method, *, neuberg: bool = True, cross: Cross = Cross.COMPARISONS
) -> tuple[list[ScoredTraveller], list[Ranking], list[str]]:
    """Score the travellers of one pairs event and rank the pairs.

    ``method`` ``mp`` / ``mp2`` / ``butler`` / ``cross-imp``; ``neuberg``:
    score every board on the top of the most-played board of the event
    (Neuberg's formula for the others; default on), else each board on its
    own top.  Rankings: by session percentage (100 * matchpoints / tops of
    the boards played, bridge-rules.md §8.3) for matchpoints, by total IMPs
    otherwise (cross-IMPs divided as ``cross`` says: :func:`score_cross`).  N-S
    and E-W are ranked together when a pair id sits N-S on some boards and E-W
    on others and no board has one id in both directions (a Howell movement);
    else separately (a Mitchell movement, where N-S 1 and E-W 1 are two
    pairs).  Entries with a Multiplicity above 1 or without pairs are not ranked.

    Returns (scored travellers, rankings, notes).
    """
    notes: list[str] = []
    scored: list[ScoredTraveller] = []
    if method in (Method.MP, Method.MP2):
        scale = Scale.MP if method is Method.MP else Scale.MP2
        most = max((t.size for t in trs), default=0)
        for t in trs:
            s = score_matchpoints(t, scale, most if neuberg else None)
            if s.expected is not None and t.played < s.expected and t.played == t.size:
                notes.append(
                    f"board {t.board or '?'}: {t.played} result{'s' if t.played != 1 else ''}"
                    f" scored on the top of {s.expected} (Neuberg)"
                )
            scored.append(s)
    elif method is Method.BUTLER:
        scored = [score_butler(t) for t in trs]
    elif method is Method.CROSS_IMP:
        scored = [score_cross(t, cross) for t in trs]
    else:
        raise ValueError(f"{method} is not a pairs method")
    for s in scored:
        if s.note:
            notes.append(f"board {s.traveller.board}: not scored ({s.note})")
    # session totals
    totals: dict[tuple[str, str], Fraction] = {}
    tops: dict[tuple[str, str], Fraction] = {}
    boards: dict[tuple[str, str], int] = {}
    ns_pairs: set[str] = set()
    ew_pairs: set[str] = set()
    both_ways = False  # a board has one id both N-S and E-W: two pairs (a Mitchell), not one
    for s in scored:
        ids = [(se.entry.ns, se.entry.ew) for se in s.entries]
        both_ways = both_ways or bool({ns for ns, _ in ids if ns} & {ew for _, ew in ids if ew})
        for se in s.entries:
            e = se.entry
            if e.multiplicity != 1 or se.ns is None or se.ew is None:
                continue
            for direction, pair, value in (("NS", e.ns, se.ns), ("EW", e.ew, se.ew)):
                if pair is None:
                    continue
                (ns_pairs if direction == "NS" else ew_pairs).add(pair)
                k = (direction, pair)
                totals[k] = totals.get(k, Fraction(0)) + value
                tops[k] = tops.get(k, Fraction(0)) + (s.top or 0)
                boards[k] = boards.get(k, 0) + 1
    is_mp = method in (Method.MP, Method.MP2)
    rankings: list[Ranking] = []
    if ns_pairs & ew_pairs and not both_ways:  # pairs changed direction (a Howell): one field
        t2: dict[str, Fraction] = {}
        p2: dict[str, Fraction] = {}
        b2: dict[str, int] = {}
        for (_, pair), v in totals.items():
            t2[pair] = t2.get(pair, Fraction(0)) + v
        for (_, pair), v in tops.items():
            p2[pair] = p2.get(pair, Fraction(0)) + v
        for (_, pair), v in boards.items():
            b2[pair] = b2.get(pair, 0) + v
        rankings.append(Ranking("pairs", _rank_rows(t2, b2, p2 if is_mp else None)))
    else:
        for direction in ("NS", "EW"):
            t1 = {p: v for (d, p), v in totals.items() if d == direction}
            if not t1:
                continue
            p1 = {p: v for (d, p), v in tops.items() if d == direction}
            b1 = {p: v for (d, p), v in boards.items() if d == direction}
            rankings.append(Ranking(direction, _rank_rows(t1, b1, p1 if is_mp else None)))
    return scored, rankings, notes


def _split_board_notes(trs: Sequence[Traveller]) -> list[str]:
    """Why a board number has several travellers (one a deal, :func:`travellers`): a fouled
    board (Law 87, :mod:`handrec.events.checks` S613: different deals in one section, stage and
    round; S615: the same deal with another dealer or vulnerability; Law 87B scores each form
    of the board apart), or sections, stages or rounds that reuse the number, or games that
    give no deal."""
    by_board: dict[str, list[Traveller]] = {}
    for t in trs:
        if t.board:
            by_board.setdefault(t.board, []).append(t)
    notes: list[str] = []
    for board, ts in by_board.items():
        if len(ts) < 2:
            continue
        groups: dict[tuple[str, ...], set[str | None]] = {}
        forms: dict[tuple[str, ...], set[tuple[object, ...]]] = {}
        for t in ts:
            for e in t.entries:
                r = e.record
                if r is not None:
                    groups.setdefault(r.match[:3], set()).add(t.deal)
                    forms.setdefault(r.match[:3], set()).add((t.deal, r.dealer, r.vulnerable))
        each = "deal"
        if any(len(d - {None}) > 1 for d in groups.values()):
            why = (
                "the board was played with different deals (a fouled board, Law 87),"
                " the results of each deal are scored apart"
            )
        elif any(len(f) > len(groups[k]) for k, f in forms.items()):
            each = "dealer and vulnerability"
            why = (
                "the board was played with a different dealer or vulnerability (a fouled board, Law 87A),"
                " the results of each are scored apart"
            )
        elif len(groups) > 1:
            why = "sections, stages or rounds reuse the board number"
        elif any(t.deal is None for t in ts):
            why = "some games give no deal"
        else:
            why = "its results come from different sources"
        notes.append(f"board {board}: {len(ts)} travellers, one for each {each}: {why}")
    return notes


# --- teams ---------------------------------------------------------------------------------


def score_teams(recs: Sequence[GameRecord]) -> tuple[list[TeamBoard], list[Ranking], list[str]]:
    """IMPs between the Open and Closed rooms of each teams match, and team totals.

    A match is Section + Stage + Round + HomeTeam + VisitTeam; a board of it
    is scored when exactly one Open-room and one Closed-room result with a
    score exist.  The home team sits N-S in the Open room (see
    :class:`TeamBoard`); without team names the teams are ``Home`` (N-S in
    the Open room) and ``Visit``.  Ranking: by net IMPs (won - lost).

    Source: bridge-rules.md §8.2; PBN 2.1 §4.1.7 (Room), §4.4 (HomeTeam, VisitTeam).
    """
    rooms: dict[tuple[tuple[str, ...], tuple[object, ...] | None], dict[str, list[GameRecord]]] = {}
    deals: dict[tuple[object, ...], set[tuple[object, ...]]] = {}  # the forms of each board of a match
    for r in recs:
        if r.room not in ("Open", "Closed") or r.key is None:
            continue
        rooms.setdefault((r.match, r.key), {}).setdefault(r.room, []).append(r)
        if r.deal is not None:
            deals.setdefault((r.match, r.event, r.date, r.board), set()).add((r.deal, r.dealer, r.vulnerable))
    out: list[TeamBoard] = []
    notes: list[str] = []
    won: dict[str, Fraction] = {}
    lost: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for (match, key), by_room in rooms.items():
        o, c = by_room.get("Open", []), by_room.get("Closed", [])
        board = str(key[2]) if key else "?"
        if len(o) != 1 or len(c) != 1:
            why = ""
            forms = deals.get((match, key[0], key[1], key[2]), set()) if key is not None else set()
            if len({f[0] for f in forms}) > 1:
                why = " (the rooms played different deals: a fouled board, Law 87)"
            elif len(forms) > 1:
                why = " (the rooms played another dealer or vulnerability: a fouled board, Law 87A)"
            notes.append(f"board {board}: {len(o)} Open and {len(c)} Closed results, not a pair of rooms{why}")
            continue
        if o[0].score_ns is None or c[0].score_ns is None:
            notes.append(f"board {board}: no score in {'the Open' if o[0].score_ns is None else 'the Closed'} room")
            continue
        v = teams_imps(o[0].score_ns, c[0].score_ns)
        out.append(TeamBoard(match, board, _game_entry(o[0]), _game_entry(c[0]), v))
        home = match[3] if len(match) > 3 and match[3] else "Home"
        visit = match[4] if len(match) > 4 and match[4] else "Visit"
        for team, plus in ((home, v), (visit, -v)):
            won[team] = won.get(team, Fraction(0)) + max(plus, 0)
            lost[team] = lost.get(team, Fraction(0)) + max(-plus, 0)
            played[team] = played.get(team, 0) + 1
    if not out and not notes:
        notes.append("no teams match found (games with Room Open and Closed)")
    net = {t: won[t] - lost[t] for t in won}
    rows = tuple(RankRow(lab, t, played[t], won[t], against=lost[t]) for lab, t, _ in rank_totals(net))
    return out, ([Ranking("teams", rows)] if rows else []), notes


# --- rubber, Chicago, minibridge -----------------------------------------------------------


def deal_result(r: GameRecord) -> DealResult | None:
    """The rubber / Chicago :class:`DealResult` of a game; ``None`` without a contract and result.

    Honors are taken from the deal when it is complete (bridge-rules.md §5.9).
    """
    c = r.contract
    if c is None:
        return None
    if c.is_passed_out:
        return DealResult.passed_out()
    if c.declarer is None or r.tricks is None:
        return None
    deal: Deal | None = None
    if r.deal is not None:
        try:
            d = Deal.parse(r.deal)
            deal = d if d.is_complete else None
        except ModelError:
            deal = None
    return DealResult(c, r.tricks, deal=deal)


def _mini_contract(c: Contract) -> MiniContract | None:
    """The minibridge contract a bridge contract stands for: level 1 a partscore, the game
    level of its strain (3NT, 4H/4S, 5C/5D) a game, level 6 a slam; else ``None``."""
    if c.doubling or c.strain is None or not c.level:
        return None
    if c.level == 1:
        return MiniContract(MiniKind.PARTSCORE, c.strain)
    game = 3 if c.strain is Strain.NOTRUMP else 4 if c.strain >= Strain.HEARTS else 5
    if c.level == game:
        return MiniContract(MiniKind.GAME, c.strain)
    if c.level == 6:
        return MiniContract(MiniKind.SLAM, c.strain)
    return None


def _same(names: Iterable[str | None]) -> str | None:
    s = {n for n in names}
    return next(iter(s)) if len(s) == 1 else None


def score_sessions(recs: Sequence[GameRecord], method: Method) -> list[EventScore]:
    """Score each file's boards, in file order, as one rubber / Chicago / minibridge session.

    Rubber: consecutive rubbers (a new one starts after a side wins two
    games); the last one, if unfinished when the file ends, gets the
    unfinished-rubber bonuses (bridge-rules.md §5.8); honors from the deal
    when it is complete; vulnerability from games won, not the Vulnerable
    tag (§5.5).  Chicago: rounds of four counted deals, standard
    vulnerability (§6.2), no honors.  Minibridge: a contract at level 1 is a
    partscore, at the game level of its strain a game, at level 6 a slam
    (bonus 800, §7.11); other contracts are skipped (§7.7-7.9).  The first
    dealer is the first board's.  Boards without a contract and result are
    skipped with a note.
    """
    by_path: dict[str, list[GameRecord]] = {}
    for r in recs:
        by_path.setdefault(r.origin.path, []).append(r)
    out: list[EventScore] = []
    for path, rs in by_path.items():
        notes: list[str] = []
        usable: list[tuple[GameRecord, DealResult]] = []
        for r in rs:
            dr = deal_result(r)
            if dr is None:
                notes.append(f"board {r.board or '?'} (line {r.origin.line}): no contract and result, skipped")
            else:
                usable.append((r, dr))
        first_dealer = next((r.dealer for r, _ in usable if r.dealer is not None), Seat.NORTH)
        deals: list[SessionDeal] = []
        sheets: list[Scoresheet] = []
        if method is Method.RUBBER:
            _rubbers(usable, first_dealer, deals, sheets)
            total_ns = sum(s.total(Side.NS) for s in sheets)
            total_ew = sum(s.total(Side.EW) for s in sheets)
        elif method is Method.CHICAGO:
            res = score_chicago([dr for _, dr in usable], first_dealer=first_dealer)
            for (r, dr), d in zip(usable, res.deals):
                below = d.below
                note = "" if d.counted else "passed out: redealt"
                if d.game is not None:
                    note = f"game {d.game}"
                elif d.fourth_deal_bonus:
                    note = "deal-4 partscore bonus"
                deals.append(
                    SessionDeal(
                        d.round,
                        d.number,
                        r.board,
                        str(dr.contract),
                        "" if dr.contract.declarer is None else str(dr.contract.declarer),
                        None if dr.is_passed_out else dr.tricks,
                        str(d.vulnerability),
                        d.points[0],
                        d.points[1],
                        below[0],
                        below[1],
                        note,
                    )
                )
            total_ns, total_ew = res.points
        else:
            total_ns = total_ew = 0
            rules = MinibridgeRules(slam_bonus=800)
            for r, dr in usable:
                c = dr.contract
                mini = None if c.is_passed_out else _mini_contract(c)
                side = dr.declaring_side
                if mini is None or side is None:
                    notes.append(f"board {r.board or '?'}: {c} is not a minibridge contract, skipped")
                    continue
                s = minibridge_score(mini, dr.tricks, rules)
                ns, ew = s.points_for(side)
                total_ns += ns
                total_ew += ew
                deals.append(
                    SessionDeal(
                        1,
                        len(deals) + 1,
                        r.board,
                        str(c),
                        str(c.declarer),
                        dr.tricks,
                        "-",
                        ns,
                        ew,
                        note=f"{mini}: target {mini.target}",
                    )
                )
        session = Session(
            path,
            tuple(deals),
            total_ns,
            total_ew,
            tuple(sheets),
            _same(r.ns for r, _ in usable),
            _same(r.ew for r, _ in usable),
        )
        rows = []
        for lab, side, v in rank_totals({"NS": Fraction(total_ns), "EW": Fraction(total_ew)}):
            name = session.ns_name if side == "NS" else session.ew_name
            rows.append(RankRow(lab, side if not name else f"{side} ({name})", len(deals), v))
        out.append(
            EventScore(method, path, session=session, rankings=(Ranking("sides", tuple(rows)),), notes=tuple(notes))
        )
    return out


def _rubbers(
    usable: list[tuple[GameRecord, DealResult]],
    first_dealer: Seat,
    deals: list[SessionDeal],
    sheets: list[Scoresheet],
) -> None:
    """Split the deals into consecutive rubbers and score each (bridge-rules.md §5)."""
    dealer = first_dealer
    i = 0
    number = 0
    while i < len(usable):
        number += 1
        chunk: list[tuple[GameRecord, DealResult]] = []
        sheet = score_rubber([], first_dealer=dealer)
        while i < len(usable):
            chunk.append(usable[i])
            i += 1
            sheet = score_rubber([d for _, d in chunk], first_dealer=dealer)
            if sheet.finished:
                break
        if not sheet.finished:
            sheet = score_rubber([d for _, d in chunk], first_dealer=dealer, stopped=True)
        sheets.append(sheet)
        for (r, dr), rd in zip(chunk, sheet.deals):
            pts = [0, 0]
            below = [0, 0]
            for e in rd.entries:
                pts[e.side] += e.points
                if e.below:
                    below[e.side] += e.points
            vul = "-" if rd.vulnerable is None else ("V" if rd.vulnerable else "NV")
            deals.append(
                SessionDeal(
                    number,
                    rd.number,
                    r.board,
                    str(dr.contract),
                    "" if dr.contract.declarer is None else str(dr.contract.declarer),
                    None if dr.is_passed_out else dr.tricks,
                    vul,
                    pts[0],
                    pts[1],
                    below[0],
                    below[1],
                    "" if rd.game is None else f"game {rd.game}",
                )
            )
        dealer = sheet.next_dealer


# --- all events ----------------------------------------------------------------------------


def method_for(recs: Sequence[GameRecord]) -> Method:
    """The method an event's own tags ask for (``handrec score`` without ``--method``).

    ``Rubber`` / ``Chicago`` in the Scoring tag of every record -> that session
    scoring (PBN 2.1 §3.4.12); else teams IMPs when the records hold an Open and a
    Closed room of a board (PBN 2.1 §4.1.7), with results or not (a vugraph match
    without any result is still a teams match); else :func:`pairs_method_for`.
    """
    every = set.intersection(*(scoring_fields(r.scoring) for r in recs)) if recs else set()
    if "RUBBER" in every:
        return Method.RUBBER
    if "CHICAGO" in every:
        return Method.CHICAGO
    if _two_rooms(recs):  # (every board score_teams scores has both rooms)
        return Method.IMP
    return pairs_method_for(recs)


def _two_rooms(recs: Sequence[GameRecord]) -> bool:
    """Whether some board of a teams match was given in both its Open and its Closed room."""
    seen: dict[tuple[object, ...], str] = {}
    for r in recs:
        if r.room not in ("Open", "Closed") or r.key is None:
            continue
        other = seen.setdefault((r.match, r.key), r.room)
        if other != r.room:
            return True
    return False


def cross_for(recs: Sequence[GameRecord]) -> Cross:
    """How the Scoring tags of an event divide its cross-IMPs (PBN 2.1 §3.4.12): ``Cross`` summed,
    ``Cross1`` by the number of results, ``Cross2`` by the comparisons; the modifier of the most
    games when they differ (in this order on a tie); by the comparisons (bridge-rules.md §8.5)
    when none says."""
    counts = dict.fromkeys(_CROSS_FIELDS, 0)
    for r in recs:
        for f in scoring_fields(r.scoring) & counts.keys():
            counts[f] += 1
    best = max(counts, key=lambda f: counts[f])
    return _CROSS_FIELDS[best] if counts[best] else Cross.COMPARISONS


def pairs_method_for(recs: Sequence[GameRecord]) -> Method:
    """The pairs method the Scoring tags ask for (PBN 2.1 §3.4.12; the booklet's results
    pages of a pairs event): ``Butler`` -> Butler, ``Cross...`` -> cross-IMPs, ``MP1`` ->
    matchpoints 2/1, ``IMP`` without ``MP`` -> Butler (a pairs event scored in IMPs);
    otherwise matchpoints 1/0.5 (top n - 1)."""
    fields: set[str] = set().union(*(scoring_fields(r.scoring) for r in recs))
    if "BUTLER" in fields:
        return Method.BUTLER
    if any(f.startswith("CROSS") for f in fields):
        return Method.CROSS_IMP
    if "MP1" in fields:
        return Method.MP2
    if "IMP" in fields and "MP" not in fields:
        return Method.BUTLER
    return Method.MP


def _event_name(r: GameRecord) -> str:
    """The event of a game: its Event tag, else its file (``<path> (no Event tag)``)."""
    return r.event or f"{r.origin.path} (no Event tag)"


def dated(recs: Iterable[GameRecord]) -> list[GameRecord]:
    """The records, each game given its session's date (PBN 2.1 §3.4.3 Date; bridge-rules.md
    §8.3: results are compared within a session).

    Within one event (its Event tag, else its file), take the event's distinct known dates
    in order: a date joins the session of the date just before it unless the two conflict,
    that is at least two board numbers (the number, else the Board tag's text) that both
    dates have were played with different deals on the two dates.  A fouled board is one
    board: a session that runs past midnight, its Date written on each board (BBO exports),
    stays one even when a board of it was played with another deal after midnight; a new
    week of a club's weekly "Monday Pairs" reuses all the board numbers with new deals: a
    session of its own.  Sessions are numbered by the running count of conflicts in date
    order; a session's date is its first date.  A game without a Date tag takes the date of
    its event's session when the event has exactly one, else it stays undated (an unknown
    date says nothing): a session of its own (:func:`group_sessions`).  The SQL views of
    :mod:`handrec.dataset.query` apply the same rule.  Records are copied only when their date
    changes, so the function is idempotent and keeps the order.
    """
    rs = list(recs)
    known: dict[str, set[str]] = {}
    undated = False
    for r in rs:
        if r.date:
            known.setdefault(_event_name(r), set()).add(r.date)
        else:
            undated = True
    several = {name for name, d in known.items() if len(d) > 1}
    if not known or (not undated and not several):
        return rs
    # per event of several dates, per date and per board: its deals
    deals: dict[str, dict[str, dict[str, set[str]]]] = {}
    for r in rs:
        if r.board and r.date and r.deal is not None and (name := _event_name(r)) in several:
            deals.setdefault(name, {}).setdefault(r.date, {}).setdefault(r.board, set()).add(r.deal)
    # the session date of each known date of each event, and the events of one session
    date_of: dict[tuple[str, str], str] = {}
    one: dict[str, str] = {}
    for name, ds in known.items():
        order = sorted(ds)
        boards = deals.get(name, {})
        first = order[0]
        split = False
        for prev, date in zip([None, *order], order):
            if prev is not None and _conflict(boards.get(prev, {}), boards.get(date, {})):
                first, split = date, True
            date_of[name, date] = first
        if not split:
            one[name] = order[0]
    out: list[GameRecord] = []
    for r in rs:
        name = _event_name(r)
        date = date_of.get((name, r.date), r.date) if r.date else one.get(name, r.date)
        out.append(r if date == r.date else dataclasses.replace(r, date=date))
    return out


def _conflict(before: dict[str, set[str]], after: dict[str, set[str]]) -> bool:
    """Whether two dates of an event are sessions apart (:func:`dated`): at least two board
    numbers that both dates have were played with different deals on the two dates (some deal
    of one date differs from some deal of the other)."""
    n = 0
    for board, ds in after.items():
        other = before.get(board)
        if other and any(a != b for a in ds for b in other):
            n += 1
            if n >= 2:
                return True
    return False


def group_sessions(recs: Iterable[GameRecord]) -> list[tuple[str, list[GameRecord]]]:
    """The sessions of the records, in order of first appearance, each with its name.

    A session is the games of one Event tag and one session date (:func:`dated`; PBN 2.1
    §3.4.1-3.4.3, bridge-rules.md §8.3): an event's dates, in order, are one session until a
    date conflicts with the date just before it (at least two board numbers that both dates
    have were played with different deals).  A club's weekly "Monday Pairs" files, new deals
    each week, are as many sessions, each scored and ranked on its own; a session that runs
    past midnight with a Date on each board is one, even with one fouled board after
    midnight.  Games without an Event tag form one event per file, named ``<path> (no Event
    tag)`` (they are never compared across files).  The name is the event's when the event
    has one session; else each session's name adds its (first) date: ``Monday Pairs
    (2026.01.05)`` (``(no Date tag)`` for games without one, when :func:`dated` cannot tell
    their date).
    Sections, stages and rounds stay within a session: their boards are told apart by
    their deals (:func:`travellers`), teams matches by Section, Stage and Round
    (:func:`score_teams`).
    """
    groups: dict[tuple[str, str], list[GameRecord]] = {}
    for r in dated(recs):
        groups.setdefault((_event_name(r), r.date), []).append(r)
    dates: dict[str, int] = {}
    for name, _ in groups:
        dates[name] = dates.get(name, 0) + 1
    return [
        (name if dates[name] == 1 else f"{name} ({date or 'no Date tag'})", group)
        for (name, date), group in groups.items()
    ]


def score_event(
    recs: Iterable[GameRecord], method: Method | None, *, neuberg: bool = True, cross: Cross | None = None
) -> list[EventScore]:
    """Score all records with ``method``: one :class:`EventScore` per session (pairs and teams,
    grouped by Event and session date as :func:`group_sessions` names them, in order of
    first appearance; games without an Event tag form one event per file, named by its
    path) or per file (rubber, Chicago, minibridge).

    ``method`` None: each event (each file for a session scoring) with the method its
    tags ask for (:func:`method_for`), cross-IMPs divided as its Scoring tags say
    (:func:`cross_for`).  ``cross``: how cross-IMPs are divided; ``None``: as the tags say
    when ``method`` is None, else by the comparisons (bridge-rules.md §8.5)."""
    rs = list(recs)
    if method is None:
        by_file: dict[str, list[GameRecord]] = {}
        for r in rs:
            by_file.setdefault(r.origin.path, []).append(r)
        sessions = {path: m for path, f in by_file.items() if (m := method_for(f)).is_session}
        # in order of first appearance: each file scored as a rubber / Chicago / minibridge
        # session, and each session of the other games (teams or pairs, as its tags say)
        played = [i for i, r in enumerate(rs) if r.origin.path not in sessions]
        ds = dated([rs[i] for i in played])
        at = {id(r): i for r, i in zip(ds, played)}
        order: list[tuple[int, str, str, list[GameRecord]]] = [
            (at[id(group[0])], "event", name, group) for name, group in group_sessions(ds)
        ]
        files: dict[str, tuple[int, list[GameRecord]]] = {}
        for i, r in enumerate(rs):
            if r.origin.path in sessions:
                files.setdefault(r.origin.path, (i, []))[1].append(r)
        order += [(i, "file", path, group) for path, (i, group) in files.items()]
        out: list[EventScore] = []
        for _, kind, name, group in sorted(order, key=lambda x: x[0]):
            if kind == "file":
                out.extend(score_sessions(group, sessions[name]))
            else:
                m = method_for(group)
                c = cross if cross is not None else cross_for(group) if m is Method.CROSS_IMP else None
                out.extend(_score_session(name, group, m, neuberg, c))
        return out
    method = Method(method)
    if method.is_session:
        return score_sessions(rs, method)
    out = []
    for name, ev in group_sessions(rs):
        out.extend(_score_session(name, ev, method, neuberg, cross))
    return out


def _score_session(
    name: str, ev: list[GameRecord], method: Method, neuberg: bool, cross: Cross | None = None
) -> list[EventScore]:
    """One session (:func:`group_sessions`) scored with a pairs or teams ``method`` (cross-IMPs
    divided as ``cross`` says, by the comparisons when ``None``)."""
    if method is Method.IMP:
        boards, rankings, notes = score_teams(ev)
        return [EventScore(method, name, team_boards=tuple(boards), rankings=tuple(rankings), notes=tuple(notes))]
    every = travellers(ev)
    trs = [t for t in every if t.size > 0]
    scored_boards = {t.board for t in trs}
    no_result = tuple(
        dict.fromkeys(
            f"{t.board or '?'}{' (another deal)' if t.board in scored_boards else ''}" for t in every if t.size == 0
        )
    )
    c = (cross or Cross.COMPARISONS) if method is Method.CROSS_IMP else None
    scored, rankings, notes = score_pairs(trs, method, neuberg=neuberg, cross=c or Cross.COMPARISONS)
    notes[:0] = _split_board_notes(trs)  # why a board number has several travellers
    if not trs:
        notes.append("no board with a result")
    return [
        EventScore(
            method,
            name,
            travellers=tuple(scored),
            rankings=tuple(rankings),
            notes=tuple(notes),
            cross=c,
            no_result=no_result,
        )
    ]


# --- output --------------------------------------------------------------------------------


def _round(x: Fraction, places: int) -> Fraction:
    """Round half away from zero to ``places`` decimals (exact)."""
    q = abs(x) * 10**places
    n = int(q + Fraction(1, 2))
    return Fraction(n if x >= 0 else -n, 10**places)


def fmt_number(x: Fraction | int | None, places: int = 2) -> str:
    """An exact number for output: integers as is, else at most ``places`` decimals (rounded half up).

    >>> fmt_number(Fraction(9, 2)), fmt_number(Fraction(22, 3)), fmt_number(Fraction(199, 10)), fmt_number(None)
    ('4.5', '7.33', '19.9', '')
    """
    if x is None:
        return ""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    r = _round(x, places)
    text = f"{'-' if r < 0 else ''}{abs(r.numerator) // r.denominator}.{_frac_digits(abs(r), places)}"
    return text.rstrip("0").rstrip(".")


def _frac_digits(x: Fraction, places: int) -> str:
    rest = x - (x.numerator // x.denominator)
    return f"{int(rest * 10**places):0{places}d}"


def fmt_percent(x: Fraction | None) -> str:
    """A percentage with exactly 2 decimals, as PBN files print them (``75.00``, ``33.33``).

    >>> fmt_percent(Fraction(100, 3)), fmt_percent(Fraction(50))
    ('33.33', '50.00')
    """
    if x is None:
        return ""
    r = _round(Fraction(x), 2)
    return f"{'-' if r < 0 else ''}{abs(r.numerator) // r.denominator}.{_frac_digits(abs(r), 2)}"


def _json_number(x: Fraction | int | None, places: int = 2) -> float | int | None:
    if x is None:
        return None
    x = Fraction(x)
    if x.denominator == 1:
        return x.numerator
    return float(_round(x, places))


_METHOD_TITLES = {
    Method.MP: "matchpoints, 1 / 0.5 scale (top = n - 1)",
    Method.MP2: "matchpoints, 2 / 1 scale (top = 2(n - 1))",
    Method.IMP: "teams IMPs (Open v Closed room)",
    Method.BUTLER: "Butler IMPs (datum = mean without the top and bottom score)",
    Method.CROSS_IMP: "cross-IMPs (divided by the comparisons, n - 1)",
    Method.RUBBER: "rubber bridge",
    Method.CHICAGO: "Chicago",
    Method.MINIBRIDGE: "minibridge",
}
#: The title of each way of dividing cross-IMPs (:class:`Cross`).
_CROSS_TITLES = {
    Cross.SUM: "cross-IMPs (summed over the comparisons)",
    Cross.SCORES: "cross-IMPs (divided by the results, n)",
    Cross.COMPARISONS: _METHOD_TITLES[Method.CROSS_IMP],
}


def method_title(ev: EventScore) -> str:
    """How an event was scored, in words (``handrec score``'s title line): the method, and for
    cross-IMPs how they were divided.

    >>> method_title(EventScore(Method.CROSS_IMP, "Club", cross=Cross.SUM))
    'cross-IMPs (summed over the comparisons)'
    """
    if ev.method is Method.CROSS_IMP and ev.cross is not None:
        return _CROSS_TITLES[ev.cross]
    return _METHOD_TITLES[ev.method]


def _grid(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int] | None = None) -> list[str]:
    """Left-aligned text columns (``right`` = indices of right-aligned columns), no trailing spaces."""
    right = right or set()
    widths = [len(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    lines = []
    for r in (headers, *rows):
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _traveller_table(s: ScoredTraveller, method: Method) -> tuple[list[str], list[list[str]], list[dict[str, object]]]:
    """Headers, text rows and JSON rows of one scored traveller."""
    es = s.traveller.entries
    rooms = any(e.room for e in es)
    mult = any(e.multiplicity != 1 for e in es)
    mp = method in (Method.MP, Method.MP2)
    headers = (["Room"] if rooms else []) + ["NS", "EW", "Contract", "By", "Tricks", "Score NS"]
    headers += ["x"] if mult else []
    if mp:
        headers += ["MP NS", "MP EW", "% NS", "% EW"]
    elif method is Method.BUTLER:
        headers += ["IMP NS", "IMP EW"]
    else:
        headers += ["XIMP NS", "XIMP EW", "Total NS"]
    rows: list[list[str]] = []
    jrows: list[dict[str, object]] = []
    for se in s.entries:
        e = se.entry
        score = "" if e.score_ns is None else str(e.score_ns)
        if e.artificial is not None:
            score = "/".join(_ARTIFICIAL_SHORT[k] for k in e.artificial)
        row = ([e.room or ""] if rooms else []) + [
            e.ns or "",
            e.ew or "",
            e.contract,
            e.declarer,
            "" if e.tricks is None else str(e.tricks),
            score,
        ]
        row += [str(e.multiplicity)] if mult else []
        jrow: dict[str, object] = {
            "room": e.room,
            "ns": e.ns,
            "ew": e.ew,
            "contract": e.contract or None,
            "declarer": e.declarer or None,
            "tricks": e.tricks,
            "score_ns": e.score_ns,
            "artificial": None if e.artificial is None else [k.name.lower() for k in e.artificial],
            "multiplicity": e.multiplicity,
        }
        if mp:
            row += [fmt_number(se.ns), fmt_number(se.ew), fmt_percent(se.pct_ns), fmt_percent(se.pct_ew)]
            jrow.update(
                mp_ns=se.ns,
                mp_ew=se.ew,
                pct_ns=se.pct_ns,
                pct_ew=se.pct_ew,
            )
        elif method is Method.BUTLER:
            row += [fmt_number(se.ns), fmt_number(se.ew)]
            jrow.update(imp_ns=se.ns, imp_ew=se.ew)
        else:
            row += [fmt_number(se.ns), fmt_number(se.ew), fmt_number(se.total_ns)]
            jrow.update(ximp_ns=se.ns, ximp_ew=se.ew, ximp_total_ns=se.total_ns)
        rows.append(row)
        jrows.append(jrow)
    return headers, rows, jrows


_ARTIFICIAL_SHORT = {
    ArtificialScore.AVERAGE_PLUS: "A+",
    ArtificialScore.AVERAGE: "A",
    ArtificialScore.AVERAGE_MINUS: "A-",
}


def _ranking_table(r: Ranking, method: Method) -> tuple[list[str], list[list[str]], list[dict[str, object]]]:
    mp = method in (Method.MP, Method.MP2)
    if method is Method.IMP:
        headers = ["Rank", "Team", "Boards", "IMPs won", "IMPs lost", "Net"]
    elif mp:
        headers = ["Rank", "Pair", "Boards", "MP", "Top", "%"]
    elif method.is_session:
        headers = ["Rank", "Side", "Deals", "Points"]
    else:
        headers = ["Rank", "Pair", "Boards", "IMPs"]
    rows: list[list[str]] = []
    jrows: list[dict[str, object]] = []
    for row in r.rows:
        j: dict[str, object] = {"rank": row.rank, "name": row.name, "boards": row.boards}
        if method is Method.IMP:
            against = row.against or Fraction(0)
            rows.append(
                [
                    row.rank,
                    row.name,
                    str(row.boards),
                    fmt_number(row.total),
                    fmt_number(against),
                    fmt_number(row.total - against),
                ]
            )
            j.update(won=_json_number(row.total), lost=_json_number(against), net=_json_number(row.total - against))
        elif mp:
            rows.append(
                [row.rank, row.name, str(row.boards), fmt_number(row.total), fmt_number(row.top), fmt_percent(row.pct)]
            )
            j.update(mp=_json_number(row.total), top=_json_number(row.top), pct=_json_number(row.pct))
        else:
            rows.append([row.rank, row.name, str(row.boards), fmt_number(row.total)])
            j.update(total=_json_number(row.total))
        jrows.append(j)
    return headers, rows, jrows


def _teams_table(ev: EventScore) -> tuple[list[str], list[list[str]], list[dict[str, object]]]:
    headers = ["Match", "Board", "Open NS", "Closed NS", "Diff", "IMPs home", "IMPs visit"]
    rows: list[list[str]] = []
    jrows: list[dict[str, object]] = []
    for tb in ev.team_boards:
        home = tb.match[3] if len(tb.match) > 3 and tb.match[3] else "Home"
        visit = tb.match[4] if len(tb.match) > 4 and tb.match[4] else "Visit"
        label = f"{home} v {visit}"
        o, c = tb.open.score_ns or 0, tb.closed.score_ns or 0
        rows.append(
            [label, tb.board, str(o), str(c), str(o - c), str(max(tb.imps_home, 0)), str(max(-tb.imps_home, 0))]
        )
        jrows.append(
            {
                "home": home,
                "visit": visit,
                "section": tb.match[0] if tb.match else "",
                "stage": tb.match[1] if len(tb.match) > 1 else "",
                "round": tb.match[2] if len(tb.match) > 2 else "",
                "board": tb.board,
                "open_ns": o,
                "closed_ns": c,
                "open_contract": tb.open.contract,
                "closed_contract": tb.closed.contract,
                "imps_home": tb.imps_home,
            }
        )
    return headers, rows, jrows


def _session_table(ev: EventScore) -> tuple[list[str], list[list[str]], list[dict[str, object]]]:
    s = ev.session
    assert s is not None
    seq = {Method.RUBBER: "Rubber", Method.CHICAGO: "Round", Method.MINIBRIDGE: "Session"}[ev.method]
    headers = [seq, "Deal", "Board", "Contract", "By", "Tricks", "Vul", "NS", "EW", "Note"]
    rows: list[list[str]] = []
    jrows: list[dict[str, object]] = []
    for d in s.deals:
        rows.append(
            [
                str(d.sequence),
                str(d.number),
                d.board,
                d.contract,
                d.declarer,
                "" if d.tricks is None else str(d.tricks),
                d.vulnerable,
                str(d.ns),
                str(d.ew),
                d.note,
            ]
        )
        jrows.append(
            {
                seq.lower(): d.sequence,
                "deal": d.number,
                "board": d.board,
                "contract": d.contract,
                "declarer": d.declarer or None,
                "tricks": d.tricks,
                "vulnerable": d.vulnerable,
                "ns": d.ns,
                "ew": d.ew,
                "below_ns": d.below_ns,
                "below_ew": d.below_ew,
                "note": d.note or None,
            }
        )
    return headers, rows, jrows


def render(events: Sequence[EventScore], fmt: str = "text", table: str = "travellers") -> str:
    """The scored events as ``text`` (travellers, then rankings, per event), ``csv`` (one
    table with its header and an ``event`` column: ``table`` ``"travellers"``, a row per
    result, per deal of a session or per teams board, or ``"rankings"``, a row per pair
    or team of each ranking) or ``json`` (``{"method", "events": [{"event", "method",
    "travellers", "rankings", "notes"}]}``; numbers rounded to 2 decimals; the top-level
    ``method`` is the events' method, ``"mixed"`` when they differ).  The travellers CSV
    has a ``method`` column; events scored by different methods give the union of their
    columns (a row leaves the others empty).

    :raises ValueError: for another ``fmt`` or ``table``.
    """
    if fmt == "json":
        return _render_json(events)
    if fmt == "csv":
        if table not in ("travellers", "rankings"):
            raise ValueError(f"unknown table {table!r}")
        return _render_csv(events, table)
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}")
    return _render_text(events)


def _render_text(events: Sequence[EventScore]) -> str:
    out: list[str] = []
    for ev in events:
        if out:
            out.append("")
        title = ev.name
        out.append(f"{title}: {method_title(ev)}")
        if ev.method.is_session:
            s = ev.session
            assert s is not None
            headers, rows, _ = _session_table(ev)
            out.append("")
            out.extend(_grid(headers, rows, {1, 5, 7, 8}))
            for n, sheet in enumerate(s.sheets, 1):
                out.append("")
                out.append(f"Rubber {n}")
                out.extend(format_scoresheet(sheet).splitlines())
        elif ev.method is Method.IMP:
            headers, rows, _ = _teams_table(ev)
            if rows:
                out.append("")
                out.extend(_grid(headers, rows, {2, 3, 4, 5, 6}))
        else:
            for s in ev.travellers:
                t = s.traveller
                out.append("")
                head = f"Board {t.board or '?'}: {t.size} result{'s' if t.size != 1 else ''}"
                if s.top is not None:
                    head += f", top {s.top}"
                if s.expected is not None:
                    head += f" (scored as {s.expected} results)"
                if s.datum is not None:
                    head += f", datum {fmt_number(s.datum)}"
                if t.source != "games":
                    head += f" (from its {t.source})"
                out.append(head)
                headers, rows, _ = _traveller_table(s, ev.method)
                right = {i for i, h in enumerate(headers) if h not in ("Room", "NS", "EW", "Contract", "By")}
                out.extend(_grid(headers, rows, right))
            for board in ev.no_result:  # listed as such, scored nowhere
                out.append("")
                out.append(f"Board {board}: no result")
        for r in ev.rankings:
            out.append("")
            out.append(f"Ranking {r.title}" if r.title not in ("sides",) else "Totals")
            headers, rows, _ = _ranking_table(r, ev.method)
            out.extend(_grid(headers, rows, set(range(2, len(headers)))))
        if ev.notes:
            out.append("")
            out.extend(f"note: {n}" for n in ev.notes)
    return "\n".join(out) + ("\n" if out else "")


def _render_csv(events: Sequence[EventScore], table: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if table == "rankings":
        _csv_rankings(events, w)
        return buf.getvalue()
    # travellers (or teams boards, or session deals): one table; events scored by different
    # methods have different columns, so the header is the union of them, in order of first
    # appearance, and a row leaves the others empty; the method column says which it is
    rows: list[dict[str, object]] = []
    for ev in events:
        if ev.method.is_session or ev.method is Method.IMP:
            headers, cells, _ = _session_table(ev) if ev.method.is_session else _teams_table(ev)
            names = [h.lower().replace(" ", "_") for h in headers]
            rows += [{"event": ev.name, "method": str(ev.method), **dict(zip(names, r))} for r in cells]
        else:
            for sc in ev.travellers:
                for j in _traveller_table(sc, ev.method)[2]:
                    row: dict[str, object] = {"event": ev.name, "method": str(ev.method)}
                    row.update(board=sc.traveller.board, top=sc.top)
                    row.update((k.lower().replace(" ", "_"), _csv_value(v, k)) for k, v in j.items())
                    rows.append(row)
    keys: dict[str, None] = {"event": None, "method": None}
    if not rows and events and (events[0].method.is_session or events[0].method is Method.IMP):
        ev = events[0]  # no rows: still the header of the event's table
        headers = (_session_table(ev) if ev.method.is_session else _teams_table(ev))[0]
        keys.update((h.lower().replace(" ", "_"), None) for h in headers)
    elif not rows:
        keys.update(board=None, top=None)
    for row in rows:
        keys.update(dict.fromkeys(row))
    w.writerow(list(keys))
    w.writerows([["" if row.get(k) is None else row.get(k) for k in keys] for row in rows])
    return buf.getvalue()


def _csv_rankings(events: Sequence[EventScore], w: Any) -> None:  # w: a csv.writer
    w.writerow(["event", "ranking", "rank", "name", "boards", "total", "top", "pct", "against"])
    for ev in events:
        for r in ev.rankings:
            for row in r.rows:
                w.writerow(
                    [
                        ev.name,
                        r.title,
                        row.rank,
                        row.name,
                        row.boards,
                        fmt_number(row.total),
                        fmt_number(row.top),
                        fmt_percent(row.pct),
                        fmt_number(row.against),
                    ]
                )


def _csv_value(v: object, key: str = "") -> object:
    """A traveller cell for CSV: exact numbers as decimals (percentages with 2 places)."""
    if v is None:
        return ""
    if isinstance(v, list):
        return "/".join(str(x) for x in v)
    if isinstance(v, Fraction):
        return fmt_percent(v) if key.startswith("pct") else fmt_number(v)
    return v


def _json_row(row: dict[str, object]) -> dict[str, object]:
    return {k: (_json_number(v) if isinstance(v, Fraction) else v) for k, v in row.items()}


def _render_json(events: Sequence[EventScore]) -> str:
    methods = {str(ev.method) for ev in events}
    method = methods.pop() if len(methods) == 1 else ("mixed" if methods else None)
    doc: dict[str, object] = {"method": method, "events": []}
    evs: list[dict[str, object]] = []
    for ev in events:
        e: dict[str, object] = {"event": ev.name, "method": str(ev.method)}
        if ev.cross is not None:
            e["cross"] = str(ev.cross)  # how the cross-IMPs are divided (Cross)
        if ev.method.is_session:
            s = ev.session
            assert s is not None
            e["deals"] = _session_table(ev)[2]
            e["totals"] = {"ns": s.total_ns, "ew": s.total_ew}
        elif ev.method is Method.IMP:
            e["boards"] = _teams_table(ev)[2]
        else:
            e["travellers"] = [
                {
                    "board": s.traveller.board,
                    "results": s.traveller.size,
                    "top": s.top,
                    "expected": s.expected,
                    "datum": _json_number(s.datum),
                    "source": s.traveller.source,
                    "entries": [_json_row(j) for j in _traveller_table(s, ev.method)[2]],
                }
                for s in ev.travellers
            ]
            e["no_result"] = list(ev.no_result)  # boards without any result, scored nowhere
        e["rankings"] = [{"ranking": r.title, "rows": _ranking_table(r, ev.method)[2]} for r in ev.rankings]
        e["notes"] = list(ev.notes)
        evs.append(e)
    doc["events"] = evs
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
