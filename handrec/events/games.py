"""Game records: one table's result of one board, reduced to what event scoring and the event checks need.

* :func:`record` reduces a :class:`~handrec.model.Board` and its replay to a small
  :class:`GameRecord` (one table's result of one board), so that a whole event can be
  kept in memory while files are streamed; a record pickles as plain values (``validate
  --jobs`` sends one a board from its workers).
* :class:`Claim`: a figure the file claims (ScoreMP, ScoreIMP, ScorePercentage,
  ScoreRubber); :class:`TableView` (:func:`table_view`): a ScoreTable or TotalScoreTable
  as the event checks read it.
* :func:`deal_text` (the deal in PBN notation, the key of a traveller), :func:`pair_label`
  (a partnership's name), :func:`session_date` (a Date tag as the date of a game; the
  session rule that groups games into sessions is :mod:`handrec.events.sessions`).

Sources: PBN 2.1 §3.4 (Event, Date, Board, Deal, Dealer, Vulnerable, Scoring), §4.1.7
(Room), §4.2 (Score* tags), §4.3.2 (PairNS, PairEW), §4.4 (HomeTeam, VisitTeam), §5
(supplemental tables).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from handrec.model import Board, Contract, Deal, Doubling, Origin, Seat, Span, Strain, Vulnerability
from handrec.rules.board import check_deal, dealer_for_board, hand_mask, vulnerability_for_board
from handrec.rules.faults import CLEAN, RANKED, error_codes
from handrec.rules.replay import Replay, replay

__all__ = [
    "Claim",
    "TableView",
    "table_view",
    "GameRecord",
    "record",
    "records",
    "deal_text",
    "pair_label",
    "session_date",
]


#: Tags whose claimed figures :mod:`handrec.events.checks` compares (PBN 2.1 §4.2).
CLAIM_TAGS = ("ScoreMP", "ScoreIMP", "ScorePercentage", "ScoreRubber")
#: The supplemental tables event checks read (PBN 2.1 §5.3).
SCORE_TABLES = ("ScoreTable", "TotalScoreTable")

_UNKNOWN = ("", "?", "-")


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
      number as text, else the Board tag's text (``""`` also for ``?``); ``number``: the
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
    * ``date``: :func:`session_date` of the Date tag (``""`` unknown); :func:`~handrec.events.sessions.dated`
      makes it the session's date: with ``event`` it keys the session (a club's weekly
      "Monday Pairs" files are one session a date; the boards of one session that runs
      past midnight all take its first date).
    * ``spans``: where the Board, Deal, Dealer and Vulnerable tags are (``None``
      each when not known), for the positions of the event diagnostics.
    * ``status``: what ``score_ns`` stands on (the replay's ``score_status``:
      ``clean``, ``by_law``, ``from_tags``, ``unknown``; :mod:`handrec.rules.faults`);
      ``faults``: the codes of the board's error diagnostics, each once.  Event
      scoring ranks a score only when :attr:`ranked` (issue #18).  ``result_status``:
      what ``contract`` and ``tricks`` stand on (the replay's ``result_status``), for the
      scorings that take them rather than ``score_ns`` (rubber, Chicago, minibridge).
    * ``vul_tag``: ``vulnerable`` is the Vulnerable tag's (not the board number's).
    * ``names``: for (N-S, E-W), the players' names (:func:`pair_label` of the seats) when the
      pair's identity is its number (a PairNS / PairEW tag, PBN 2.1 §4.3.2; a USEBIO
      PAIR_NUMBER, whose PLAYERs the reader writes in the seats), else ``None``: the number
      ranks the pair and joins its boards, the names say who it is.
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
    status: str = CLEAN
    faults: tuple[str, ...] = ()
    result_status: str = CLEAN
    vul_tag: bool = False
    names: tuple[str | None, str | None] = (None, None)

    @property
    def ranked(self) -> bool:
        """Whether event scoring ranks this game's score: it has one, and it is clean or what
        the Laws make of a fault (issue #18; :data:`handrec.rules.faults.RANKED`)."""
        return self.score_ns is not None and self.status in RANKED

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
                self.status,
                self.faults,
                self.result_status,
                self.vul_tag,
                self.names,
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
        """The session key: (Event tag, date), the date as :func:`~handrec.events.sessions.dated` sets it (PBN 2.1
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

    @property
    def hand_record(self) -> bool:
        """Whether this game is a hand record only: no contract, no tricks, no score and no
        ScoreTable or TotalScoreTable (PBN 2.1 §5.3) -- a deal to print, nothing to score."""
        return (
            self.contract is None
            and self.tricks is None
            and self.score_ns is None
            and not any(t.name in SCORE_TABLES for t in self.tables)
        )


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
    status: str = CLEAN,
    faults: tuple[str, ...] = (),
    result_status: str = CLEAN,
    vul_tag: bool = False,
    names: tuple[str | None, str | None] = (None, None),
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
        status,
        faults,
        result_status,
        vul_tag,
        names,
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


def _suit_table() -> tuple[str, ...]:
    # The masks below 2**(r+1) are those below 2**r, then the same with rank r in front: one
    # concatenation a mask (about 0.5 ms; a join over 13 ranks a mask took 20 ms of every start).
    table = [""]
    for rank in _RANK_TEXT:
        table += [rank + t for t in table]
    return tuple(table)


#: A suit's ranks as text, high first, by the 13-bit mask of the suit (bit 0 = the 2).
_SUIT_TEXT = _suit_table()


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
            n, e, s, w = dc.masks  # (one f-string: no generator to resume a hand)
            return (
                f"N:{text[n >> 39]}.{text[n >> 26 & 8191]}.{text[n >> 13 & 8191]}.{text[n & 8191]}"  # type: ignore[operator]
                f" {text[e >> 39]}.{text[e >> 26 & 8191]}.{text[e >> 13 & 8191]}.{text[e & 8191]}"  # type: ignore[operator]
                f" {text[s >> 39]}.{text[s >> 26 & 8191]}.{text[s >> 13 & 8191]}.{text[s & 8191]}"  # type: ignore[operator]
                f" {text[w >> 39]}.{text[w >> 26 & 8191]}.{text[w >> 13 & 8191]}.{text[w & 8191]}"  # type: ignore[operator]
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

    Pair identity: the PairNS / PairEW tags when present (PBN 2.1 §4.3.2), the players'
    names then kept beside it (``names``); else the player names (:func:`pair_label`).
    Never raises.
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
    label = str(number) if number is not None else (_clean(tag("Board")) or "")  # "?": unknown (PBN 2.1 §3.4)
    deal = board.deal
    vul = board.vulnerable if isinstance(board.vulnerable, Vulnerability) else None
    dealer = board.dealer if isinstance(board.dealer, Seat) else None
    if number is not None and number >= 1:
        vul = vul if vul is not None else vulnerability_for_board(number)
        dealer = dealer if dealer is not None else dealer_for_board(number)
    # (_clean(v) is None for a tag not given or empty: no call for those, most of these tags)
    home = _clean(v) if (v := tag("HomeTeam")) else None
    visit = _clean(v) if (v := tag("VisitTeam")) else None
    match = (
        (_clean(v) or "") if (v := tag("Section")) else "",
        (_clean(v) or "") if (v := tag("Stage")) else "",
        (_clean(v) or "") if (v := tag("Round")) else "",
        home or "",
        visit or "",
    )
    # pair identity: PairNS / PairEW, else the two names (each cleaned once)
    pair_ns = _clean(v) if (v := tag("PairNS")) else None
    pair_ew = _clean(v) if (v := tag("PairEW")) else None
    north, south = _clean(tag("North")), _clean(tag("South"))
    east, west = _clean(tag("East")), _clean(tag("West"))
    ns_names, ew_names = _pair(north, south), _pair(east, west)
    if pair_ns is None:
        ns, ns_one, ns_names = ns_names, north is not None and north == south, None
    else:
        ns, ns_one = pair_ns, False
    if pair_ew is None:
        ew, ew_one, ew_names = ew_names, east is not None and east == west, None
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
        date=_session_date(tag("Date")),
        spans=tuple([where.get(n) for n in _SPAN_TAGS]) if where else (),
        status=r.score_status,
        faults=tuple(error_codes((*board.diagnostics, *r.diagnostics)))
        if r.score_status not in RANKED or r.result_status not in RANKED
        else (),
        result_status=r.result_status,
        vul_tag=isinstance(board.vulnerable, Vulnerability),
        names=(ns_names, ew_names),
    )


#: Blanks around a Date tag's value: the class of RE2's ``\s``, as in :mod:`handrec.dataset.query`'s SQL.
_BLANKS = " \t\n\f\r"
_DATE_RE = re.compile(r"[ \t\n\f\r]*([0-9]{4})[./-]([0-9]{2})[./-]([0-9]{2})(?:[^0-9]|$)")
_UNKNOWN_DATE_RE = re.compile(r"[ \t\n\f\r?./-]*|[ \t\n\f\r]*[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?[ \t\n\f\r]*")


def session_date(value: str | None) -> str:
    """The date of a game from a Date tag (PBN 2.1 §3.4.3: ``YYYY.MM.DD``), from which
    :func:`~handrec.events.sessions.dated` tells apart the sessions of one Event (a club's weekly "Monday Pairs"; a
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


#: :func:`session_date`, remembered (a file's games share a few Date values).
_session_date = functools.lru_cache(maxsize=4096)(session_date)


def records(boards: Iterable[Board]) -> Iterator[GameRecord]:
    """:func:`record` of each board (one replay each)."""
    for b in boards:
        yield record(b)
