"""USEBIO reader: a results file (XML) to one :class:`~handrec.model.Board` per traveller line.

USEBIO (usebio.md) is the file club scoring programs send to national bodies: the
participants with their places and totals, then each board's traveller, then (optionally)
the hand records.  Each ``TRAVELLER_LINE`` becomes a game, a Board with the PBN tags a
PBN traveller game would carry, so that ``validate``, ``convert``, ``score``, ``query``
and ``booklet`` treat it as they treat PBN:

* ``Board`` (BOARD_NUMBER); ``Dealer`` and ``Vulnerable`` from the board number (Law 2:
  USEBIO gives neither); ``Deal`` from the ``HANDSET`` when the file has one;
* ``PairNS`` / ``PairEW`` (the pair numbers, the join key of the travellers: ``1``,
  ``1NS``, ``(A) 1 NS``), ``North`` / ``South`` and ``East`` / ``West`` the names of the
  pair's two PLAYERs in file order (USEBIO does not say who sat where);
* ``Contract``, ``Declarer`` (PLAYED_BY), ``Result`` (TRICKS), ``Score`` (``NS <points>``:
  SCORE is signed from North-South's side, checked against the contract by the replay,
  S601); the opening lead (LEAD, in either order) as the Play section's first card when
  the deal is known (the replay checks it, P402/P403), else as a ``Lead`` tag (a play
  needs the deal, PBN 2.1 §3.6);
* the file's own figures as the claims PBN's tags carry: ``ScoreMP`` (NS_/EW_MATCH_POINTS,
  on the 2 / 1 scale, ``Scoring "MP1"``), ``ScoreIMP`` (Butler: ``Scoring "IMP;Butler"``;
  cross-IMPs divided by the comparisons: ``Scoring "IMP;Cross2"``), checked by
  :mod:`handrec.events.checks` (S603, S604);
* ``Event`` (EVENT_DESCRIPTION, else TITLE), ``Site`` (VENUE, else CLUB_NAME), ``Date``
  (``yyyy.mm.dd``), ``Section`` (SECTION_ID), ``Stage`` (``Session <SESSION_ID>``),
  ``Competition`` (Pairs, Teams, Individuals), and the USEBIO-only values as tags of their
  own: ``UsebioClub``, ``UsebioClubId``, ``UsebioEventId``, ``UsebioEventType``,
  ``UsebioWinnerType``, ``UsebioProgram``.

An adjusted score (``A6040``: 60 % to N-S, 40 % to E-W, Law 12C2) has no PBN tag of its
own: PBN carries artificial scores only in a ScoreTable (``^60``, PBN 2.1 §5.3).  So a
board with an adjusted line gets its whole traveller (every line of that board and deal,
all sections) as a ScoreTable on its first game, with the file's figures in
MP_NS/MP_EW (or IMP_NS/IMP_EW) at each element's position; handrec's scorers take that
board's traveller from the table (the artificial scores included) and its figures are
checked there (S607), not on the games.

The participants become a TotalScoreTable on the first game (Rank = PLACE, PairId,
Names, NationalIds, Direction, TotalMP / TotalIMP / TotalScore, TotalPercentage,
NrBoards = BOARDS_PLAYED), two for NS and EW winners (WINNER_TYPE 2, the EW one on the
second game): the totals and percentages are checked against handrec's scoring of the
travellers and the places against their order (S608).

The three nestings are read: results directly under ``EVENT``, ``SECTION`` elements, and
``SESSION`` > ``SECTION``; teams ``MATCH`` elements give an Open-room game (TEAM sitting
N-S) and a Closed-room game per board, with HomeTeam / VisitTeam and the board's IMPS as
ScoreIMP (no real teams file was available to check this against).

The consumers' rules (usebio.md "What consumers check") are file diagnostics at the
element: U701 version, U702 root, U703 not one CLUB / EVENT, U704 unknown event type or
scoring method, U705 no scoring method given, U706 participant without a number, U707
a number given twice, U708 a national number given twice, U709 a place outside the
field, U710 a pair without two players, U711 a missing element (a score), U712 counts, U713
a traveller line naming no participant, U714 an element given twice, U715 (strict) an
unknown element.  Element values that cannot be read are T101 at the element.  Nothing
raises on bad input; the XML itself is read by :mod:`handrec.formats.usebio.xml`.
"""

from __future__ import annotations

import lzma
import tarfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from handrec.diagnostics import Diagnostic, make
from handrec.formats.usebio.values import (
    parse_contract,
    parse_date,
    parse_decimal,
    parse_lead,
    parse_score,
    parse_seat,
    parse_suit_cards,
    parse_tricks,
)
from handrec.formats.usebio.xml import CHUNK, Element, parse_xml
from handrec.model import Board, Card, Column, Contract, Deal, Hand, Origin, Play, Seat, Span, Suit, Table, Tag
from handrec.rules.board import dealer_for_board, vulnerability_for_board
from handrec.scoring.duplicate import score_ns

__all__ = ["parse_usebio", "read_usebio_input", "parse_usebio_bytes", "EVENT_TYPES", "SCORING_METHODS"]

#: EVENT_TYPE values (old and generic names, usebio.md): (competition, method or None = as BOARD_SCORING_METHOD).
EVENT_TYPES: dict[str, tuple[str, str | None]] = {
    "MP_PAIRS": ("Pairs", "mp"),
    "BUTLER_PAIRS": ("Pairs", "butler"),
    "CROSS_IMP": ("Pairs", "cross"),
    "CROSS_IMPS": ("Pairs", "cross"),
    "AGGREGATE": ("Pairs", "aggregate"),
    "SWISS_PAIRS": ("Pairs", "mp"),
    "SWISS_PAIRS_CROSS_IMPS": ("Pairs", "cross"),
    "SWISS_PAIRS_BUTLER_IMPS": ("Pairs", "butler"),
    "SWISS_TEAMS": ("Teams", "imps"),
    "TEAMS_OF_FOUR": ("Teams", "imps"),
    "INDIVIDUAL": ("Individuals", "mp"),
    "PAIRS": ("Pairs", None),
    "TEAMS": ("Teams", None),
}
#: BOARD_SCORING_METHOD values and the method each gives.
SCORING_METHODS = {
    "MATCH_POINTS": "mp",
    "MATCHPOINTS": "mp",
    "BUTLER_IMPS": "butler",
    "CROSS_IMPS": "cross",
    "CROSS_IMP": "cross",
    "AGGREGATE": "aggregate",
    "IMPS": "imps",
}
#: Method -> (PBN Scoring tag, claim tag, NS element, EW element) of the traveller lines.
_METHOD_TAGS = {
    "mp": ("MP1", "ScoreMP", "NS_MATCH_POINTS", "EW_MATCH_POINTS"),
    "butler": ("IMP;Butler", "ScoreIMP", "NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
    "cross": ("IMP;Cross2", "ScoreIMP", "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "imps": ("IMP", "ScoreIMP", "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "aggregate": ("Total", "", "", ""),
}
_LINE_ELEMENTS = frozenset(
    {
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "LEAD",
        "TRICKS",
        "SCORE",
        "NS_MATCH_POINTS",
        "EW_MATCH_POINTS",
        "NS_BUTLER_POINTS",
        "EW_BUTLER_POINTS",
        "NS_CROSS_IMP_POINTS",
        "EW_CROSS_IMP_POINTS",
        "DIRECTION",
        "TABLE_NUMBER",
        "ROUND_NUMBER",
        "NS_SCORE",
        "EW_SCORE",
    }
)
_EVENT_HEADER = frozenset(
    {
        "EVENT_IDENTIFIER",
        "EVENT_ID",
        "EVENT_DESCRIPTION",
        "PROGRAM_NAME",
        "PROGRAM_VERSION",
        "WINNER_TYPE",
        "TITLE",
        "VENUE",
        "DATE",
        "MASTER_POINT_SCALE",
        "MASTER_POINT_TYPE",
        "MPS_AWARDED_FLAG",
        "SESSION_COUNT",
        "SECTION_COUNT",
        "P2P_CHARGE_RATE",
        "EBU_CHARGE_CODE",
        "SCORING_METHOD",
        "BOARD_SCORING_METHOD",
        "MATCH_SCORING_METHOD",
        "BOARDS_PLAYED",
        "CONTACT",
        "PARTICIPANTS",
        "BOARD",
        "MATCH",
        "SECTION",
        "SESSION",
        "HANDSET",
        "STRATIFICATION",
        "EVENT_STATUS",
        "CHARGE_CODE",
        "TOTAL_TABLES",
    }
)
_PBN_VUL = ("None", "NS", "EW", "All")
_SEAT_WORDS = {"NORTH": Seat.NORTH, "EAST": Seat.EAST, "SOUTH": Seat.SOUTH, "WEST": Seat.WEST}
_SUIT_ELEMENTS = (("SPADES", Suit.SPADES), ("HEARTS", Suit.HEARTS), ("DIAMONDS", Suit.DIAMONDS), ("CLUBS", Suit.CLUBS))
_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    zipfile.BadZipFile,
    tarfile.TarError,
    RuntimeError,
    NotImplementedError,
    ValueError,
)


@dataclass
class _Player:
    name: str | None
    national: str | None
    element: Element


@dataclass
class _Pair:
    """One PAIR (or TEAM) of the participants."""

    number: str
    element: Element
    section: str
    direction: str | None
    players: list[_Player] = field(default_factory=list)
    team_name: str | None = None


@dataclass
class _Section:
    """One block of results: its id, session, participants and BOARD / MATCH elements."""

    id: str | None
    session: str | None
    element: Element
    pairs: dict[str, _Pair] = field(default_factory=dict)
    boards: list[Element] = field(default_factory=list)
    matches: list[Element] = field(default_factory=list)


@dataclass
class _Game:
    """A traveller line read: its board, tags and what the tables need (before the Board is made)."""

    origin: Origin
    number: int | None
    label: str
    tags: list[Tag]
    deal: Deal | None
    play: Play | None
    contract: Contract | None
    result: int | None
    problems: list[Diagnostic]
    line: Element
    ns: str | None
    ew: str | None
    adjusted: tuple[int, int] | None
    score: int | None
    claim: tuple[str, str, Element | None] | None  # (tag, value, NS element)
    key: tuple[object, ...]
    tables: list[Table] = field(default_factory=list)


class _Reader:
    def __init__(self, path: str, out: list[Diagnostic], *, partial: bool = False) -> None:
        self.path = path
        self.out = out
        self.index = 0
        self.partial = partial  # a document cut short (F022): what is missing may be past the cut

    # --- diagnostics ---------------------------------------------------------------------
    def file(self, code: str, el: Element | None, **args: object) -> None:
        if self.partial and code in ("U703", "U711"):
            return  # not said of a document cut short: F022 says why it ends there
        self.out.append(make(code, None, el.span if el is not None else None, path=self.path, **args))

    def unknown(self, el: Element, known: Iterable[str]) -> None:
        names = set(known)
        for c in el.children:
            if c.tag not in names:
                self.file("U715", c, element=c.tag, parent=el.tag)

    # --- the document ----------------------------------------------------------------------
    def read(self, root: Element) -> Iterator[Board]:
        if root.tag != "USEBIO":
            self.file("U702", root, tag=root.tag)
            return
        version = root.attrs.get("Version", root.attrs.get("VERSION"))
        if version is None:
            self.file("U711", root, parent="USEBIO", name="", element="Version attribute", consequence="")
        elif version.strip() not in ("1.0", "1.1", "1.2", "1.3"):
            self.file("U701", root, value=version)
        self.unknown(root, ("CLUB", "EVENT", "HANDSET"))
        clubs, events = root.findall("CLUB"), root.findall("EVENT")
        for what, els in (("CLUB", clubs), ("EVENT", events)):
            if len(els) != 1:
                self.file("U703", els[1] if len(els) > 1 else root, count=len(els), element=what)
        club = clubs[0] if clubs else None
        if club is not None:
            self.unknown(club, ("CLUB_NAME", "CLUB_ID_NUMBER", "CLUB_ID", "COUNTRY"))
        if not events:
            return
        event = events[0]
        self.handsets = self._handsets([h for h in root.iter("HANDSET")])
        yield from self._event(event, club)

    def _handsets(self, sets: list[Element]) -> dict[int, tuple[Deal, Element]]:
        """Board number -> (deal, its HANDSET BOARD element); the first copy of a board wins."""
        out: dict[int, tuple[Deal, Element]] = {}
        for hs in sets:
            for b in hs.findall("BOARD"):
                n_el = b.find("BOARD_NUMBER")
                number = _board_number(n_el)
                if number is None:
                    self.file(
                        "T101",
                        n_el or b,
                        tag="BOARD_NUMBER",
                        value=n_el.text if n_el else "",
                        reason="not a board number",
                    )
                    continue
                if number in out:
                    self.file("U714", b, element=f"BOARD {number}", parent="HANDSET")
                    continue
                hands: list[Hand | None] = [None, None, None, None]
                for h in b.findall("HAND"):
                    seat = _SEAT_WORDS.get((h.value("DIRECTION") or "").strip().upper())
                    if seat is None:
                        d = h.find("DIRECTION")
                        self.file(
                            "T101",
                            d or h,
                            tag="DIRECTION",
                            value=h.value("DIRECTION") or "",
                            reason="not North, East, South or West",
                        )
                        continue
                    cards: list[Card] = []
                    for name, suit in _SUIT_ELEMENTS:
                        s = h.find(name)
                        if s is None:
                            continue
                        try:
                            cards.extend(parse_suit_cards(s.text, suit))
                        except ValueError as e:
                            self.file("T101", s, tag=name, value=s.text, reason=str(e))
                    if hands[seat] is not None:
                        self.file("U714", h, element=f"HAND {seat}", parent=f"HANDSET BOARD {number}")
                        continue
                    hands[seat] = Hand(tuple(cards))
                if any(x is not None for x in hands):
                    out[number] = (Deal(tuple(hands)), b)  # type: ignore[arg-type]
        return out

    def _event(self, event: Element, club: Element | None) -> Iterator[Board]:
        self.unknown(event, _EVENT_HEADER)
        etype = event.attrs.get("EVENT_TYPE")
        competition, method = "Pairs", None
        if etype is None:
            self.file("U711", event, parent="EVENT", name="", element="EVENT_TYPE attribute", consequence="")
        elif etype.strip().upper() not in EVENT_TYPES:
            self.file("U704", event, element="EVENT_TYPE", value=etype, what="event type")
        else:
            competition, method = EVENT_TYPES[etype.strip().upper()]
        bsm = event.find("BOARD_SCORING_METHOD")
        if bsm is not None:
            if bsm.text.strip().upper() in SCORING_METHODS:
                method = (
                    SCORING_METHODS[bsm.text.strip().upper()]
                    if method is None or etype in ("PAIRS", "TEAMS")
                    else method
                )
            else:
                self.file("U704", bsm, element="BOARD_SCORING_METHOD", value=bsm.text, what="board scoring method")
        winner = (event.value("WINNER_TYPE") or "").strip()
        if winner == "2" and competition != "Pairs":
            self.file(
                "U712",
                event.find("WINNER_TYPE"),
                element="WINNER_TYPE",
                value=2,
                reason=f"NS and EW winners in a {competition.lower()} event (a consumer rejects the file)",
            )
        for name, reason in (("SESSION_COUNT", "not one session"), ("SECTION_COUNT", "not one section")):
            el = event.find(name)
            if el is not None and el.text.strip() not in ("", "1"):
                self.file("U712", el, element=name, value=el.text, reason=f"{reason} (a consumer warns)")
        bp = event.find("BOARDS_PLAYED")
        if bp is not None and bp.text.strip() == "0":
            self.file("U712", bp, element="BOARDS_PLAYED", value=0, reason="no board played (a consumer warns)")
        sections = self._sections(event)
        if method is None:  # generic PAIRS / TEAMS without a method: as the lines' elements say
            known = etype is not None and etype.strip().upper() in EVENT_TYPES
            method = self._inferred(etype or "", sections, competition, warn=known)
        self.method = method
        self.competition = competition
        self.winner = winner
        header = self._header(event, club, competition, method, etype)
        self._participants(sections)
        games: list[_Game] = []
        for sec in sections:
            games.extend(self._section_games(sec, header))
        self._tables(games, sections)
        for g in games:
            yield Board(
                origin=g.origin,
                tags=tuple(g.tags),
                number=g.number,
                dealer=dealer_for_board(g.number) if g.number else None,
                vulnerable=vulnerability_for_board(g.number) if g.number else None,
                deal=g.deal,
                play=g.play,
                contract=g.contract,
                declarer=g.contract.declarer if g.contract is not None else None,
                result=g.result,
                diagnostics=tuple(g.problems),
                tables=tuple(g.tables),
            )

    def _inferred(self, etype: str, sections: list[_Section], competition: str, *, warn: bool = True) -> str:
        """The method of an event whose type does not give one: from its lines' figures (U705
        when the type is a known generic one; an unknown type was reported already)."""
        found = None
        for sec in sections:
            for b in sec.boards:
                for line in b.findall("TRAVELLER_LINE"):
                    for m in ("mp", "butler", "cross"):
                        if line.find(_METHOD_TAGS[m][2]) is not None:
                            found = m
                            break
                    if found:
                        break
                if found:
                    break
            if found:
                break
        method = found or ("imps" if competition == "Teams" else "mp")
        element = _METHOD_TAGS[method][2] or "traveller line"
        names = {"mp": "matchpoints", "butler": "Butler IMPs", "cross": "cross-IMPs", "imps": "IMPs"}
        if not warn:
            return method
        self.file(
            "U705",
            None if not sections else sections[0].element,
            value=etype,
            method=names.get(method, method),
            element=element,
        )
        return method

    def _header(
        self, event: Element, club: Element | None, competition: str, method: str, etype: str | None
    ) -> list[Tag]:
        tags: list[Tag] = []

        def tag(name: str, value: str | None, el: Element | None) -> None:
            if value is not None and value.strip():
                tags.append(Tag(name, value.strip(), el.span if el is not None else None))

        desc = event.find("EVENT_DESCRIPTION") or event.find("TITLE")
        tag("Event", desc.text if desc is not None else None, desc)
        venue = event.find("VENUE")
        club_name = club.find("CLUB_NAME") if club is not None else None
        site = venue if venue is not None and venue.text else club_name
        tag("Site", site.text if site is not None else None, site)
        date = event.find("DATE")
        if date is not None and date.text:
            try:
                tag("Date", parse_date(date.text), date)
            except ValueError as e:
                self.file("T121", date, tag="DATE", value=date.text, expected=str(e))
        tag("Scoring", _METHOD_TAGS[method][0], None)
        tag("Competition", competition, None)
        tag("UsebioEventType", etype, event)
        tag("UsebioClub", club_name.text if club_name is not None else None, club_name)
        cid = club.find("CLUB_ID_NUMBER") if club is not None else None
        tag("UsebioClubId", cid.text if cid is not None else None, cid)
        eid = event.find("EVENT_IDENTIFIER") or event.find("EVENT_ID")
        tag("UsebioEventId", eid.text if eid is not None else None, eid)
        title = event.find("TITLE")
        if desc is not title:
            tag("UsebioTitle", title.text if title is not None else None, title)
        w = event.find("WINNER_TYPE")
        tag("UsebioWinnerType", w.text if w is not None else None, w)
        prog = event.find("PROGRAM_NAME")
        tag("UsebioProgram", prog.text if prog is not None else None, prog)
        # header positions are absolute here; each game makes them relative to its own line
        return tags

    def _sections(self, event: Element) -> list[_Section]:
        out: list[_Section] = []
        sessions = event.findall("SESSION")
        if sessions:
            for s in sessions:
                sid = s.attrs.get("SESSION_ID") or s.value("SESSION_ID")
                secs = s.findall("SECTION")
                for sec in secs or [s]:
                    out.append(self._section(sec, sec.attrs.get("SECTION_ID") if sec is not s else None, sid))
        for sec in event.findall("SECTION"):
            out.append(self._section(sec, sec.attrs.get("SECTION_ID") or sec.value("SECTION_ID"), None))
        if not out or event.find("PARTICIPANTS") is not None or event.find("BOARD") is not None:
            out.insert(0, self._section(event, None, None))
        return out

    def _section(self, el: Element, sid: str | None, session: str | None) -> _Section:
        sec = _Section(sid, session, el)
        sec.boards = el.findall("BOARD")
        sec.matches = el.findall("MATCH")
        if el.tag in ("SECTION", "SESSION"):
            self.unknown(
                el,
                (
                    "PARTICIPANTS",
                    "BOARD",
                    "MATCH",
                    "SECTION",
                    "SECTION_ID",
                    "SESSION_ID",
                    "HANDSET",
                    "BOARDS_PLAYED",
                    "WINNER_TYPE",
                    "TOTAL_TABLES",
                    "DATE",
                ),
            )
        return sec

    # --- participants ----------------------------------------------------------------------
    def _participants(self, sections: list[_Section]) -> None:
        nationals: dict[str, Element] = {}
        for sec in sections:
            for parts in sec.element.findall("PARTICIPANTS"):
                for el in parts.children:
                    if el.tag == "PAIR":
                        self._pair(sec, el, nationals)
                    elif el.tag == "TEAM":
                        self._team(sec, el, nationals)
                    elif el.tag == "PLAYER":
                        self._individual(sec, el, nationals)
                    else:
                        self.file("U715", el, element=el.tag, parent="PARTICIPANTS")
        self._places(sections)

    def _players(self, owner: Element, nationals: dict[str, Element]) -> list[_Player]:
        out = []
        for p in owner.iter("PLAYER"):
            name = (p.value("PLAYER_NAME") or "").strip() or None
            nid_el = p.find("NATIONAL_ID_NUMBER")
            nid = nid_el.text.strip() if nid_el is not None else ""
            if nid and nid.strip("0"):  # empty or 0: unknown (usebio.md)
                first = nationals.setdefault(nid, nid_el)  # type: ignore[arg-type]
                if first is not nid_el:
                    self.file("U708", nid_el, value=nid, other=first.line)
            else:
                nid = ""
            out.append(_Player(name, nid or None, p))
        return out

    def _pair(self, sec: _Section, el: Element, nationals: dict[str, Element]) -> None:
        n_el = el.find("PAIR_NUMBER")
        number = n_el.text.strip() if n_el is not None else ""
        if not number:
            self.file("U706", el, element="PAIR", number="PAIR_NUMBER")
            return
        players = self._players(el, nationals)
        if len(players) != 2:
            self.file("U710", el, pair=number, count=len(players), s="" if len(players) == 1 else "s")
        if el.find("TOTAL_SCORE") is None:
            self.file(
                "U711", el, parent="PAIR", name=f" {number}", element="TOTAL_SCORE", consequence=" (a missing score)"
            )
        d = (el.value("DIRECTION") or "").strip().upper() or None
        pair = _Pair(number, el, sec.id or "", d if d in ("NS", "EW") else None, players)
        if number in sec.pairs:
            self.file("U707", n_el, element="PAIR_NUMBER", value=number, other=sec.pairs[number].element.line)
            return
        sec.pairs[number] = pair

    def _team(self, sec: _Section, el: Element, nationals: dict[str, Element]) -> None:
        number = (el.attrs.get("TEAM_ID") or el.value("TEAM_ID") or el.value("TEAM_NUMBER") or "").strip()
        if not number:
            self.file("U706", el, element="TEAM", number="TEAM_ID")
            return
        name = (el.attrs.get("TEAM_NAME") or el.value("TEAM_NAME") or "").strip() or None
        pair = _Pair(number, el, sec.id or "", None, self._players(el, nationals), name)
        if number in sec.pairs:
            self.file("U707", el, element="TEAM_ID", value=number, other=sec.pairs[number].element.line)
            return
        sec.pairs[number] = pair

    def _individual(self, sec: _Section, el: Element, nationals: dict[str, Element]) -> None:
        number = (el.value("PLAYER_NUMBER") or el.value("PAIR_NUMBER") or "").strip()
        if not number:
            self.file("U706", el, element="PLAYER", number="PLAYER_NUMBER")
            return
        if number in sec.pairs:
            self.file("U707", el, element="PLAYER_NUMBER", value=number, other=sec.pairs[number].element.line)
            return
        p = self._players(_Wrap(el), nationals)
        sec.pairs[number] = _Pair(number, el, sec.id or "", None, p)

    def _places(self, sections: list[_Section]) -> None:
        """U709: a PLACE from 1 to the size of its field (the pairs of its direction for NS and
        EW winners, else every participant of the event)."""
        everyone = [p for s in sections for p in s.pairs.values()]
        for p in everyone:
            el = p.element.find("PLACE")
            if el is None:
                continue
            text = el.text.strip().rstrip("=").strip()
            if self.winner == "2" and p.direction is not None:
                size = sum(1 for q in everyone if q.direction == p.direction)
                what = f"the {size} {p.direction} pairs"
            else:
                size = len(everyone)
                what = f"the {size} participants"
            if not text.isdigit() or not 1 <= int(text) <= size:
                self.file("U709", el, value=el.text, pair=p.number, size=size, field=what)

    # --- traveller lines -------------------------------------------------------------------
    def _section_games(self, sec: _Section, header: list[Tag]) -> Iterator[_Game]:
        for b in sec.boards:
            self.unknown(b, ("BOARD_NUMBER", "BOARD_AVERAGE", "TRAVELLER_LINE", "HANDSET"))
            n_el = b.find("BOARD_NUMBER")
            number = _board_number(n_el)
            label = n_el.text.strip() if n_el is not None else ""
            if n_el is None:
                self.file("U711", b, parent="BOARD", name="", element="BOARD_NUMBER", consequence="")
            elif number is None:
                self.file("T101", n_el, tag="BOARD_NUMBER", value=n_el.text, reason="not a board number from 1")
            for line in b.findall("TRAVELLER_LINE"):
                yield self._game(sec, header, number, label, n_el or b, line, None)
        for m in sec.matches:
            yield from self._match(sec, header, m)

    def _match(self, sec: _Section, header: list[Tag], m: Element) -> Iterator[_Game]:
        team, other = (m.value("TEAM") or "").strip(), (m.value("OPPOSING_TEAM") or "").strip()
        names = []
        for t in (team, other):
            p = sec.pairs.get(t)
            if p is None and t:
                el = m.find("TEAM") if t == team else m.find("OPPOSING_TEAM")
                self.file("U713", el, element=el.tag, value=t, where="teams' participants")  # type: ignore[union-attr]
            names.append((p.team_name if p is not None and p.team_name else t) or None)
        rnd = (m.value("ROUND_NUMBER") or "").strip() or None
        for b in m.findall("BOARD"):
            n_el = b.find("BOARD_NUMBER")
            number = _board_number(n_el)
            label = n_el.text.strip() if n_el is not None else ""
            imps_el = b.find("IMPS")
            for line in b.findall("TRAVELLER_LINE"):
                d = (line.value("DIRECTION") or "").strip().upper()
                room = "Open" if d == "NS" else "Closed" if d == "EW" else None
                if room is None:
                    self.file(
                        "U711",
                        line,
                        parent="TRAVELLER_LINE",
                        name="",
                        element="DIRECTION (NS or EW)",
                        consequence=": the room is not known",
                    )
                teams = (room, names[0], names[1], rnd, imps_el)
                yield self._game(sec, header, number, label, n_el or b, line, teams)

    def _game(
        self,
        sec: _Section,
        header: list[Tag],
        number: int | None,
        label: str,
        n_el: Element,
        line: Element,
        teams: tuple[Any, ...] | None,
    ) -> _Game:
        origin = Origin(self.path, line.line, line.offset, self.index, "usebio")
        self.index += 1
        problems: list[Diagnostic] = []

        def rel(el: Element | None) -> Span | None:
            return None if el is None else Span(el.line - line.line + 1, el.column)

        def bad(el: Element, reason: str) -> None:
            problems.append(make("T101", origin, rel(el), tag=el.tag, value=el.text, reason=reason))

        seen: set[str] = set()
        for c in line.children:
            if c.tag not in _LINE_ELEMENTS:
                self.file("U715", c, element=c.tag, parent="TRAVELLER_LINE")
            elif c.tag in seen:
                problems.append(make("U714", origin, rel(c), element=c.tag, parent="TRAVELLER_LINE"))
            seen.add(c.tag)
        tags = [Tag(t.name, t.value, rel(_At(t.span)) if t.span is not None else None) for t in header]
        if sec.id:
            tags.append(Tag("Section", sec.id, rel(sec.element)))
        if sec.session:
            tags.append(Tag("Stage", f"Session {sec.session}", None))
        tags.append(Tag("Board", label or "?", rel(n_el)))
        # pairs and players
        ns_el, ew_el = line.find("NS_PAIR_NUMBER"), line.find("EW_PAIR_NUMBER")
        ns = ns_el.text.strip() if ns_el is not None and ns_el.text.strip() else None
        ew = ew_el.text.strip() if ew_el is not None and ew_el.text.strip() else None
        if teams is None:
            for side, el, number_ in (("NS", ns_el, ns), ("EW", ew_el, ew)):
                if el is None or number_ is None:
                    problems.append(
                        make(
                            "U711",
                            origin,
                            rel(line),
                            parent="TRAVELLER_LINE",
                            name="",
                            element=f"{side}_PAIR_NUMBER",
                            consequence=": the pair is not known",
                        )
                    )
                    continue
                pair = sec.pairs.get(number_)
                if pair is None:
                    where = f"section {sec.id}" if sec.id else "event"
                    problems.append(make("U713", origin, rel(el), element=el.tag, value=number_, where=where))
                    continue
                seats = ("North", "South") if side == "NS" else ("East", "West")
                for seat, player in zip(seats, pair.players):
                    if player.name:
                        tags.append(Tag(seat, player.name, rel(player.element)))
            if ns is not None:
                tags.append(Tag("PairNS", ns, rel(ns_el)))
            if ew is not None:
                tags.append(Tag("PairEW", ew, rel(ew_el)))
        else:
            room, home, visit, rnd, _ = teams
            if room:
                tags.append(Tag("Room", room, rel(line.find("DIRECTION"))))
            if home:
                tags.append(Tag("HomeTeam", home, None))
            if visit:
                tags.append(Tag("VisitTeam", visit, None))
            if rnd:
                tags.append(Tag("Round", rnd, None))
        # the deal
        deal: Deal | None = None
        if number is not None and number in self.handsets:
            deal, hs_el = self.handsets[number]
            tags.append(Tag("Dealer", str(dealer_for_board(number)), rel(n_el)))
            tags.append(Tag("Vulnerable", _PBN_VUL[vulnerability_for_board(number)], rel(n_el)))
            tags.append(Tag("Deal", deal.to_pbn(dealer_for_board(number)), rel(hs_el)))
        elif number is not None:
            tags.append(Tag("Dealer", str(dealer_for_board(number)), rel(n_el)))
            tags.append(Tag("Vulnerable", _PBN_VUL[vulnerability_for_board(number)], rel(n_el)))
        # the result
        score_el = line.find("SCORE")
        score: int | tuple[int, int] | None = None
        if score_el is None:
            problems.append(
                make(
                    "U711",
                    origin,
                    rel(line),
                    parent="TRAVELLER_LINE",
                    name="",
                    element="SCORE",
                    consequence=" (a missing score)",
                )
            )
        else:
            try:
                score = parse_score(score_el.text)
            except ValueError as e:
                bad(score_el, str(e))
        adjusted = score if isinstance(score, tuple) else None
        contract: Contract | None = None
        declarer: Seat | None = None
        result: int | None = None
        c_el, d_el, t_el, l_el = line.find("CONTRACT"), line.find("PLAYED_BY"), line.find("TRICKS"), line.find("LEAD")
        if c_el is not None and c_el.text.strip():
            try:
                contract = parse_contract(c_el.text)
            except ValueError as e:
                bad(c_el, str(e))
        if d_el is not None and d_el.text.strip() and not (contract is not None and contract.is_passed_out):
            try:
                declarer = parse_seat(d_el.text)
            except ValueError as e:
                bad(d_el, str(e))
        if t_el is not None and t_el.text.strip() and not (contract is not None and contract.is_passed_out):
            try:
                result = parse_tricks(t_el.text)
            except ValueError as e:
                bad(t_el, str(e))
        if adjusted is None and score is not None:
            for name, el, value in (
                ("CONTRACT", c_el, contract),
                ("PLAYED_BY", d_el, declarer),
                ("TRICKS", t_el, result),
            ):
                if value is None and el is None and not (contract is not None and contract.is_passed_out):
                    problems.append(
                        make(
                            "U711",
                            origin,
                            rel(line),
                            parent="TRAVELLER_LINE",
                            name="",
                            element=name,
                            consequence=": the score is not checked",
                        )
                    )
        if contract is not None and not contract.is_passed_out:
            contract = Contract(contract.level, contract.strain, contract.doubling, declarer)
        if contract is not None:
            if contract.is_passed_out:
                tags.append(Tag("Declarer", "", rel(d_el or c_el)))
            elif declarer is not None:
                tags.append(Tag("Declarer", str(declarer), rel(d_el)))
            tags.append(Tag("Contract", str(contract), rel(c_el)))
            tags.append(
                Tag(
                    "Result", "" if contract.is_passed_out else "" if result is None else str(result), rel(t_el or c_el)
                )
            )
        elif result is not None:
            tags.append(Tag("Result", str(result), rel(t_el)))
        if isinstance(score, int):
            tags.append(Tag("Score", f"NS {score}", rel(score_el)))
        play: Play | None = None
        if l_el is not None and l_el.text.strip():
            try:
                card, _ = parse_lead(l_el.text)
            except ValueError as e:
                bad(l_el, str(e))
            else:
                if deal is not None and declarer is not None:
                    play = Play(declarer.lho, (card,), None, "*", (rel(l_el),))
                    tags.append(Tag("Play", str(declarer.lho), rel(l_el)))
                else:
                    tags.append(Tag("Lead", str(card), rel(l_el)))
        # the file's own figures
        claim = None
        m = self.method
        ctag, ns_name, ew_name = _METHOD_TAGS[m][1], _METHOD_TAGS[m][2], _METHOD_TAGS[m][3]
        if teams is not None:
            imps_el = teams[4]
            if imps_el is not None and teams[0] in ("Open", "Closed"):
                try:
                    v = parse_decimal(imps_el.text)
                except ValueError as e:
                    problems.append(make("T101", origin, rel(imps_el), tag="IMPS", value=imps_el.text, reason=str(e)))
                else:
                    ns_v = v if teams[0] == "Open" else -v
                    claim = ("ScoreIMP", f"NS {_num(ns_v)} EW {_num(-ns_v)}", imps_el)
        elif ctag:
            ns_v_el, ew_v_el = line.find(ns_name), line.find(ew_name)
            parts = []
            for side, el in (("NS", ns_v_el), ("EW", ew_v_el)):
                if el is None or not el.text.strip():
                    continue
                try:
                    parse_decimal(el.text)
                except ValueError as e:
                    bad(el, str(e))
                    continue
                parts.append(f"{side} {el.text.strip()}")
            if parts:
                claim = (ctag, " ".join(parts), ns_v_el if ns_v_el is not None else ew_v_el)
        key = (number if number is not None else label, None if deal is None else str(deal))
        return _Game(
            origin,
            number,
            label,
            tags,
            deal,
            play,
            contract,
            result,
            problems,
            line,
            ns,
            ew,
            adjusted,
            score if isinstance(score, int) else None,
            claim,
            key,
        )

    # --- tables: travellers with adjusted scores, participants --------------------------------
    def _tables(self, games: list[_Game], sections: list[_Section]) -> None:
        groups: dict[tuple[object, ...], list[_Game]] = {}
        for g in games:
            if not any(t.name == "Room" for t in g.tags):
                groups.setdefault(g.key, []).append(g)
        with_table: set[int] = set()
        for gs in groups.values():
            if any(g.adjusted is not None for g in gs):
                gs[0].tables.append(self._score_table(gs))
                gs[0].tags.append(Tag("ScoreTable", _header(gs[0].tables[-1]), None))
                with_table.update(id(g) for g in gs)
        for g in games:  # the claims of a board without a ScoreTable go on its games
            if g.claim is not None and id(g) not in with_table:
                tag, value, el = g.claim
                g.tags.append(Tag(tag, value, None if el is None else Span(el.line - g.line.line + 1, el.column)))
        for g, t in self._total_tables(sections, games):
            g.tables.append(t)
            g.tags.append(Tag("TotalScoreTable", _header(t), t.span))

    def _score_table(self, gs: list[_Game]) -> Table:
        imp = self.method in ("butler", "cross", "imps")
        ns_name, ew_name = _METHOD_TAGS[self.method][2], _METHOD_TAGS[self.method][3]
        cols = [
            "PairId_NS",
            "PairId_EW",
            "Contract",
            "Declarer",
            "Result",
            "Score_NS",
            "IMP_NS" if imp else "MP_NS",
            "IMP_EW" if imp else "MP_EW",
            "Percentage_NS",
            "Percentage_EW",
        ]
        first = gs[0]
        rows, spans = [], []

        def rel(el: Element | None) -> Span:
            el = el or first.line
            return Span(el.line - first.line.line + 1, el.column)

        for g in gs:
            line = g.line
            c = g.contract
            mark = "^" if g.adjusted is not None else ""
            ns_el, ew_el = line.find(ns_name) if ns_name else None, line.find(ew_name) if ew_name else None
            # the table is scored on the file's SCORE (as the games are, see handrec.rules.replay):
            # a line whose contract and tricks give another score (S601 on its game) shows
            # them as unknown here, so that the table's traveller takes Score_NS
            agrees = g.score is not None and g.score == _law_score(g)
            row = [
                g.ns or "?",
                g.ew or "?",
                "-" if g.adjusted is not None else "?" if c is None or not agrees else str(c),
                "-"
                if g.adjusted is not None
                else "?"
                if c is None or not agrees or c.declarer is None
                else "-"
                if c.is_passed_out
                else str(c.declarer),
                "-"
                if g.adjusted is not None
                else "?"
                if c is None or not agrees or g.result is None
                else "-"
                if c.is_passed_out
                else str(g.result),
                "-" if g.adjusted is not None else "?" if g.score is None else str(g.score),
                mark + ns_el.text.strip() if ns_el is not None and ns_el.text.strip() else "?",
                mark + ew_el.text.strip() if ew_el is not None and ew_el.text.strip() else "?",
                f"^{g.adjusted[0]}" if g.adjusted is not None else "-",
                f"^{g.adjusted[1]}" if g.adjusted is not None else "-",
            ]
            score_el = line.find("SCORE")
            rows.append(tuple(row))
            spans.append(
                tuple(
                    rel(e)
                    for e in (
                        line.find("NS_PAIR_NUMBER"),
                        line.find("EW_PAIR_NUMBER"),
                        line.find("CONTRACT"),
                        line.find("PLAYED_BY"),
                        line.find("TRICKS"),
                        score_el,
                        ns_el,
                        ew_el,
                        score_el,
                        score_el,
                    )
                )
            )
        return Table("ScoreTable", tuple(Column(c) for c in cols), tuple(rows), rel(first.line), tuple(spans))

    def _total_tables(self, sections: list[_Section], games: list[_Game]) -> list[tuple[_Game, Table]]:
        """The participants' TotalScoreTables, each with the game that carries it (the first
        game, and the second for the EW winners), positions relative to that game's line."""
        if not games:
            return []
        everyone = [p for s in sections for p in s.pairs.values()]
        if not everyone:
            return []
        groups: list[list[_Pair]]
        if self.winner == "2" and any(p.direction for p in everyone):
            groups = [[p for p in everyone if p.direction == d] for d in ("NS", "EW")]
            groups = [g for g in groups if g]
            rest = [p for p in everyone if p.direction is None]
            if rest:
                groups.append(rest)
        else:
            groups = [everyone]
        imp = self.method in ("butler", "cross", "imps")
        pct_is_total = all(
            p.element.find("TOTAL_SCORE") is not None
            and p.element.find("PERCENTAGE") is not None
            and _same_number(p.element.value("TOTAL_SCORE"), p.element.value("PERCENTAGE"))
            for p in everyone
        )
        total_col = "TotalScore" if self.method == "aggregate" or pct_is_total else "TotalIMP" if imp else "TotalMP"
        has_pct = any(p.element.find("PERCENTAGE") is not None and p.element.value("PERCENTAGE") for p in everyone)
        has_boards = any(p.element.find("BOARDS_PLAYED") is not None for p in everyone)
        has_ids = any(pl.national for p in everyone for pl in p.players)
        cols = [Column("Rank"), Column("PairId"), Column("Names")]
        if has_ids:
            cols.append(Column("NationalIds"))
        cols.append(Column("Direction"))
        # no sort marker: the rows are in the file's order (PBN 2.1 §5.2); the ranks are
        # checked against the percentage (else the total) column all the same
        cols.append(Column(total_col))
        if has_pct:
            cols.append(Column("TotalPercentage"))
        if has_boards:
            cols.append(Column("NrBoards"))
        tables = []
        for i, group in enumerate(groups[: len(games)]):
            carrier = games[i]
            carrier_line = carrier.line.line  # the table sits on game i; positions relative to its line
            rows, spans = [], []
            for p in group:
                el = p.element

                def rel(e: Element | None, el: Element = el, carrier_line: int = carrier_line) -> Span:
                    e = e or el
                    return Span(e.line - carrier_line + 1, e.column)

                names = ";".join(pl.name or "?" for pl in p.players) or "?"
                row = [
                    (el.value("PLACE") or "").strip() or "?",
                    p.number,
                    p.team_name or names,
                ]
                sp = [
                    rel(el.find("PLACE")),
                    rel(el.find("PAIR_NUMBER")),
                    rel(p.players[0].element if p.players else None),
                ]
                if has_ids:
                    row.append(";".join(pl.national or "?" for pl in p.players) or "?")
                    sp.append(rel(p.players[0].element.find("NATIONAL_ID_NUMBER") if p.players else None))
                row.append(p.direction or "-")
                sp.append(rel(el.find("DIRECTION")))
                row.append((el.value("TOTAL_SCORE") or "").strip() or "?")
                sp.append(rel(el.find("TOTAL_SCORE")))
                if has_pct:
                    row.append((el.value("PERCENTAGE") or "").strip() or "?")
                    sp.append(rel(el.find("PERCENTAGE")))
                if has_boards:
                    row.append((el.value("BOARDS_PLAYED") or "").strip() or "?")
                    sp.append(rel(el.find("BOARDS_PLAYED")))
                rows.append(tuple(row))
                spans.append(tuple(sp))
            parts = group[0].element
            table = Table(
                "TotalScoreTable",
                tuple(cols),
                tuple(rows),
                Span(parts.line - carrier_line + 1, parts.column),
                tuple(spans),
            )
            tables.append((carrier, table))
        return tables


class _At:
    """A stand-in element at a header tag's absolute position (to make it relative to a game)."""

    def __init__(self, span: Span) -> None:
        self.line, self.column = span.line, span.column


class _Wrap:
    """An individual's PLAYER element seen as the owner of one player (for :meth:`_Reader._players`)."""

    def __init__(self, el: Element) -> None:
        self.el = el

    def iter(self, tag: str) -> Iterator[Element]:
        yield self.el


def _law_score(g: _Game) -> int | None:
    """The N-S score of a game's contract, declarer and tricks (Law 77), ``None`` when not known."""
    c = g.contract
    if c is None or g.number is None:
        return None
    if c.is_passed_out:
        return 0
    if c.declarer is None or g.result is None:
        return None
    return score_ns(c, vulnerability_for_board(g.number), g.result)


def _header(t: Table) -> str:
    return ";".join(str(c) for c in t.columns)


def _num(x: Fraction) -> str:
    from handrec.formats.usebio.values import format_decimal

    return format_decimal(x)


def _same_number(a: str | None, b: str | None) -> bool:
    try:
        return parse_decimal(a or "") == parse_decimal(b or "")
    except ValueError:
        return False


def _board_number(el: Element | None) -> int | None:
    if el is None:
        return None
    t = el.text.strip()
    return int(t) if t.isdigit() and int(t) >= 1 else None


def parse_usebio(
    chunks: Iterable[bytes],
    path: str,
    file_diagnostics: list[Diagnostic],
    *,
    max_document: int = 16 << 20,
    max_text: int = 1 << 20,
) -> Iterator[Board]:
    """Read a USEBIO document given as blocks of bytes: one Board per traveller line, in
    document order (sections, then boards, then lines; teams matches after a section's
    boards).

    ``file_diagnostics`` receives the faults of the XML (F022-F025) and of the file's
    structure and participants (U701-U715, T101 for a header value); each board carries
    its own (T101, U711, U713).  ``max_document``: the largest document read (bytes);
    ``max_text``: the longest text of one element (characters).
    """
    res = parse_xml(iter(chunks), path, max_document=max_document, max_text=max_text)
    file_diagnostics.extend(res.diagnostics)
    if res.root is not None:
        yield from _Reader(path, file_diagnostics, partial=not res.complete).read(res.root)


def parse_usebio_bytes(data: bytes, path: str = "<string>") -> tuple[list[Board], list[Diagnostic]]:
    """Every game of a USEBIO document in memory, and the file diagnostics.

    >>> doc = (b'<USEBIO Version="1.2"><CLUB><CLUB_NAME>C</CLUB_NAME></CLUB><EVENT EVENT_TYPE="MP_PAIRS">'
    ...        b'<PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER><TOTAL_SCORE>2</TOTAL_SCORE></PAIR></PARTICIPANTS>'
    ...        b'</EVENT></USEBIO>')
    >>> boards, diags = parse_usebio_bytes(doc, "x.xml")
    >>> boards, [d.code for d in diags]
    ([], ['U710'])
    """
    out: list[Diagnostic] = []
    boards = list(parse_usebio([data[i : i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""], path, out))
    return boards, out


def read_usebio_input(inp: Any, file_diagnostics: list[Diagnostic], *, digest: bool = True) -> Iterator[Board]:
    """The games of one USEBIO :class:`~handrec.inputs.entries.Input`, read as bytes (XML
    decodes itself: its declaration names the encoding).

    The limits of the other readers apply (:class:`~handrec.inputs.entries.Limits`): the
    file or member size, the board size (the document is held whole, since its hand records
    come after the travellers: it is read up to ``max_board_bytes``, F024 over it), the line
    size as the longest text of one element.  Sets ``inp.sha256`` (when ``digest``) and
    ``inp.nbytes`` after a complete read.

    :raises handrec.inputs.entries.InputError: when the input cannot be opened or read.
    """
    from handrec.inputs.entries import FileSource, InputError

    lim = inp.limits
    src = inp.source
    plain = isinstance(src, FileSource) and src.compression is None and inp.opener is None
    limit = min(lim.max_file_bytes if plain else lim.member_bytes, lim.max_board_bytes)
    try:
        stream = inp.open()
    except _READ_ERRORS as e:
        raise InputError(str(e) or type(e).__name__) from e

    def chunks() -> Iterator[bytes]:
        try:
            while chunk := stream.read(CHUNK):
                yield chunk
        except _READ_ERRORS as e:
            raise InputError(str(e) or type(e).__name__) from e
        finally:
            stream.close()

    inp.sha256 = None
    res = parse_xml(chunks(), inp.path, max_document=limit, max_text=lim.max_line_bytes)
    stream.close()
    file_diagnostics.extend(res.diagnostics)
    if res.complete:
        inp.sha256 = res.sha256 if digest else None
        inp.nbytes = res.nbytes
    if res.root is None:
        return
    yield from _Reader(inp.path, file_diagnostics, partial=not res.complete).read(res.root)
