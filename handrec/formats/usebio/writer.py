"""USEBIO writer: a results document (:class:`Document`) to XML text.

The document is plain data (what a scored event holds: participants with places and
totals, each board's traveller lines with their figures, teams matches, hand records);
:mod:`handrec.events.usebio` builds it from an event handrec has scored.  Output is
conservative (usebio.md "What consumers check": some validators are sensitive to layout):

* UTF-8, declared in the prolog, with the DOCTYPE real files carry (the EBU's DTD URL for
  the version: consumers that validate read it; handrec itself never loads a DTD);
* elements in the order real files give them (usebio.md), one per line, two-space indent;
* no empty optional element, no mixed content; a void suit is the one empty element
  (``<CLUBS></CLUBS>`` as real HANDSETs write it: the four suits are required);
* ``Version`` 1.2 (old event type names: ``MP_PAIRS``, ``BUTLER_PAIRS``, ``CROSS_IMPS``,
  ``TEAMS_OF_FOUR``; dates ``dd/mm/yyyy``; ``EVENT_IDENTIFIER``) or 1.3 (generic ``PAIRS`` /
  ``TEAMS`` with ``BOARD_SCORING_METHOD``; ISO dates; ``EVENT_ID``).

Teams (``MATCH`` elements) follow usebio.md's description; no real teams file was
available to check them against.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from handrec.model import Card, Contract, Deal, Seat, Suit

from .elements import contract_text, date_text, lead_text

__all__ = ["Document", "Section", "Participant", "Player", "BoardResult", "Line", "Match", "MatchBoard", "dumps"]

#: Old (1.2) EVENT_TYPE and generic (1.3) BOARD_SCORING_METHOD of each method.
_TYPES_12 = {"mp": "MP_PAIRS", "butler": "BUTLER_PAIRS", "cross": "CROSS_IMPS", "imps": "TEAMS_OF_FOUR"}
_METHODS_13 = {"mp": "MATCH_POINTS", "butler": "BUTLER_IMPS", "cross": "CROSS_IMPS", "imps": "IMPS"}
#: The figures of a traveller line, by method.
_LINE_FIGURES = {
    "mp": ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
    "butler": ("NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
    "cross": ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
}
_DTD = "http://www.ebu.co.uk/usebio/usebio_v{}.dtd"


@dataclass
class Player:
    """A player: name and national number (``None`` when not known)."""

    name: str | None
    national: str | None = None


@dataclass
class Participant:
    """A PAIR (or a TEAM: ``team_name`` set): number (the travellers' join key), direction
    (``NS``, ``EW`` or ``None`` for one winner), place (``3=`` for a tie), total and
    percentage as text, boards played, players."""

    number: str
    direction: str | None = None
    place: str | None = None
    total: str | None = None
    percentage: str | None = None
    boards: int | None = None
    players: list[Player] = field(default_factory=list)
    team_name: str | None = None


@dataclass
class Line:
    """A TRAVELLER_LINE: the two pairs, contract (with declarer), lead, tricks, score (N-S
    points, or an adjusted ``A6040``) and the line's figures (text) for each side;
    ``direction`` the team's seats at the table (teams only)."""

    ns: str | None
    ew: str | None
    contract: Contract | None
    lead: Card | None
    tricks: int | None
    score: int | str | None
    ns_points: str | None = None
    ew_points: str | None = None
    direction: str | None = None


@dataclass
class BoardResult:
    """A BOARD of the travellers: its number, lines and (Butler) the datum, BOARD_AVERAGE."""

    number: str
    lines: list[Line] = field(default_factory=list)
    average: str | None = None


@dataclass
class MatchBoard:
    """A board of a teams match: number, IMPs from TEAM's side, the two rooms' lines."""

    number: str
    imps: str | None
    lines: list[Line] = field(default_factory=list)


@dataclass
class Match:
    """A MATCH between TEAM and OPPOSING_TEAM (their numbers), with its round and scores."""

    round: str
    team: str
    opposing: str
    team_score: str | None = None
    opposing_score: str | None = None
    boards: list[MatchBoard] = field(default_factory=list)


@dataclass
class Section:
    """Results of one section (``id`` ``None``: the results stand directly under EVENT)."""

    id: str | None
    participants: list[Participant] = field(default_factory=list)
    boards: list[BoardResult] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)


@dataclass
class Document:
    """A USEBIO results document: the club, the event header, the sections, the hand records.

    ``method``: ``mp`` (2 / 1 scale), ``butler``, ``cross`` or ``imps`` (teams);
    ``winner_type`` 1 (one winner) or 2 (NS and EW winners); ``date`` as PBN writes it
    (``yyyy.mm.dd``); ``handset``: board number -> deal.
    """

    method: str
    club_name: str | None = None
    club_id: str | None = None
    event_id: str | None = None
    description: str | None = None
    title: str | None = None
    venue: str | None = None
    date: str | None = None
    winner_type: int = 1
    boards_played: int | None = None
    program: str = "handrec"
    program_version: str | None = None
    sections: list[Section] = field(default_factory=list)
    handset: dict[int, Deal] = field(default_factory=dict)


#: What XML 1.0 cannot hold at all (its Char production): C0 controls but tab and line ends,
#: surrogates, U+FFFE and U+FFFF.  Written as U+FFFD: the file stays well-formed, the loss shows.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    """``text`` escaped for XML content, each character XML cannot hold as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", text))


class _Out:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def value(self, tag: str, value: object, *, empty_ok: bool = False) -> None:
        if value is None:
            return
        text = str(value).strip()
        if not text and not empty_ok:
            return  # no empty optional element
        self.lines.append(f"{'  ' * self.depth}<{tag}>{_xml(text)}</{tag}>")

    def open(self, tag: str, **attrs: str | None) -> None:
        a = "".join(f" {k}={quoteattr(_NOT_XML.sub(chr(0xFFFD), v))}" for k, v in attrs.items() if v)
        self.lines.append(f"{'  ' * self.depth}<{tag}{a}>")
        self.depth += 1

    def close(self, tag: str) -> None:
        self.depth -= 1
        self.lines.append(f"{'  ' * self.depth}</{tag}>")


def _players(out: _Out, players: Iterable[Player]) -> None:
    for p in players:
        out.open("PLAYER")
        out.value("PLAYER_NAME", p.name)
        out.value("NATIONAL_ID_NUMBER", p.national)
        out.close("PLAYER")


def _line(out: _Out, line: Line, method: str, lead_order: str) -> None:
    out.open("TRAVELLER_LINE")
    out.value("DIRECTION", line.direction)
    out.value("NS_PAIR_NUMBER", line.ns)
    out.value("EW_PAIR_NUMBER", line.ew)
    adjusted = isinstance(line.score, str)
    c = line.contract
    if c is not None and not adjusted:
        out.value("CONTRACT", contract_text(c))
        out.value("PLAYED_BY", "N" if c.is_passed_out else (str(c.declarer) if c.declarer is not None else None))
        if line.lead is not None and not c.is_passed_out:
            out.value("LEAD", lead_text(line.lead, lead_order))
        if not c.is_passed_out:
            out.value("TRICKS", line.tricks)
    out.value("SCORE", line.score)
    if method in _LINE_FIGURES:
        ns_tag, ew_tag = _LINE_FIGURES[method]
        out.value(ns_tag, line.ns_points)
        out.value(ew_tag, line.ew_points)
    out.close("TRAVELLER_LINE")


def _section_body(out: _Out, sec: Section, doc: Document, lead_order: str) -> None:
    if sec.participants:
        out.open("PARTICIPANTS")
        for p in sec.participants:
            if p.team_name is not None:
                out.open("TEAM", TEAM_ID=p.number, TEAM_NAME=p.team_name)
                out.value("PLACE", p.place)
                out.value("TOTAL_SCORE", p.total)
                _players(out, p.players)
                out.close("TEAM")
                continue
            out.open("PAIR")
            out.value("PAIR_NUMBER", p.number)
            out.value("DIRECTION", p.direction)
            out.value("BOARDS_PLAYED", p.boards)
            out.value("TOTAL_SCORE", p.total)
            out.value("PERCENTAGE", p.percentage)
            out.value("PLACE", p.place)
            _players(out, p.players)
            out.close("PAIR")
        out.close("PARTICIPANTS")
    for b in sec.boards:
        out.open("BOARD")
        out.value("BOARD_NUMBER", b.number)
        out.value("BOARD_AVERAGE", b.average)
        for line in b.lines:
            _line(out, line, doc.method, lead_order)
        out.close("BOARD")
    for m in sec.matches:
        out.open("MATCH")
        out.value("ROUND_NUMBER", m.round)
        out.value("TEAM", m.team)
        out.value("OPPOSING_TEAM", m.opposing)
        out.value("TEAM_SCORE", m.team_score)
        out.value("OPPOSING_TEAM_SCORE", m.opposing_score)
        for b in m.boards:
            out.open("BOARD")
            out.value("BOARD_NUMBER", b.number)
            out.value("IMPS", b.imps)
            for line in b.lines:
                _line(out, line, "imps", lead_order)
            out.close("BOARD")
        out.close("MATCH")


_HAND_WORDS = ((Seat.NORTH, "North"), (Seat.EAST, "East"), (Seat.SOUTH, "South"), (Seat.WEST, "West"))
_SUITS = (("CLUBS", Suit.CLUBS), ("DIAMONDS", Suit.DIAMONDS), ("HEARTS", Suit.HEARTS), ("SPADES", Suit.SPADES))


def dumps(doc: Document, version: str = "1.2", *, lead_order: str = "suit+rank") -> str:
    """The document as USEBIO XML text (``version`` ``"1.2"`` or ``"1.3"``), ending in a newline.

    :raises ValueError: for another version or an unknown method.

    >>> doc = Document("mp", club_name="Club", description="Monday", date="2026.01.05")
    >>> doc.sections.append(Section(None, [Participant("1", None, "1", "10", "50.00", 1, [Player("A"), Player("B")])]))
    >>> print(dumps(doc).splitlines()[3:7])
    ['  <CLUB>', '    <CLUB_NAME>Club</CLUB_NAME>', '  </CLUB>', '  <EVENT EVENT_TYPE="MP_PAIRS">']
    """
    if version not in ("1.2", "1.3"):
        raise ValueError(f"USEBIO version 1.2 or 1.3, not {version!r}")
    if doc.method not in _TYPES_12:
        raise ValueError(f"no USEBIO event type for the method {doc.method!r}")
    out = _Out()
    out.lines.append('<?xml version="1.0" encoding="UTF-8"?>')
    out.lines.append(f'<!DOCTYPE USEBIO SYSTEM "{_DTD.format(version.replace(".", "_"))}">')
    out.open("USEBIO", Version=version)
    out.open("CLUB")
    out.value("CLUB_NAME", doc.club_name)
    out.value("CLUB_ID_NUMBER", doc.club_id)
    out.close("CLUB")
    teams = doc.method == "imps"
    if version == "1.2":
        out.open("EVENT", EVENT_TYPE=_TYPES_12[doc.method])
    else:
        out.open("EVENT", EVENT_TYPE="TEAMS" if teams else "PAIRS")
    out.value("EVENT_IDENTIFIER" if version == "1.2" else "EVENT_ID", doc.event_id)
    out.value("EVENT_DESCRIPTION", doc.description)
    out.value("PROGRAM_NAME", doc.program)
    out.value("PROGRAM_VERSION", doc.program_version)
    out.value("WINNER_TYPE", doc.winner_type)
    out.value("TITLE", doc.title)
    out.value("DATE", date_text(doc.date or "", version))
    out.value("VENUE", doc.venue)
    out.value("SESSION_COUNT", 1)
    out.value("SECTION_COUNT", max(1, len(doc.sections)))
    if version == "1.3":
        out.value("BOARD_SCORING_METHOD", _METHODS_13[doc.method])
        if teams:
            out.value("MATCH_SCORING_METHOD", "IMPS")
    out.value("BOARDS_PLAYED", doc.boards_played)
    if len(doc.sections) == 1 and doc.sections[0].id is None:
        _section_body(out, doc.sections[0], doc, lead_order)
    else:
        for sec in doc.sections:
            out.open("SECTION", SECTION_ID=sec.id or "A")
            _section_body(out, sec, doc, lead_order)
            out.close("SECTION")
    out.close("EVENT")
    if doc.handset:
        out.open("HANDSET")
        for number in sorted(doc.handset):
            deal = doc.handset[number]
            out.open("BOARD")
            out.value("BOARD_NUMBER", number)
            for seat, word in _HAND_WORDS:
                hand = deal[seat]
                if hand is None:
                    continue
                out.open("HAND")
                out.value("DIRECTION", word)
                for tag, suit in _SUITS:
                    out.value(tag, "".join(str(c.rank) for c in hand.suit_cards(suit)), empty_ok=True)
                out.close("HAND")
            out.close("BOARD")
        out.close("HANDSET")
    out.close("USEBIO")
    return "\n".join(out.lines) + "\n"
