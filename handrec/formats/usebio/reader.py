"""USEBIO reader: a results file (XML) to one :class:`~handrec.model.Board` per traveller line.

USEBIO (usebio.md) is the file club scoring programs send to national bodies: the
participants with their places and totals, then each board's traveller, then (optionally)
the hand records.  Each ``TRAVELLER_LINE`` becomes a game, a Board with the PBN tags a
PBN traveller game would carry, so that ``validate``, ``convert``, ``score``, ``query``
and ``booklet`` treat it as they treat PBN:

* ``Board`` (BOARD_NUMBER); ``Dealer`` and ``Vulnerable`` from the board number (Law 2:
  USEBIO gives neither); ``Deal`` from the ``HANDSET`` when the file has one;
* ``PairNS`` / ``PairEW`` (the pair numbers, the join key of the travellers: ``1``,
  ``1NS``, ``(A) 1 NS``; ``A:1`` when two sections number their pairs alike, since the same
  boards of two sections are scored together), ``North`` / ``South`` and ``East`` / ``West`` the names of the
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
raises on bad input; the XML itself is read by :mod:`handrec.formats.usebio.xml`, the
participants by :mod:`~handrec.formats.usebio.participants`, the tables built by
:mod:`~handrec.formats.usebio.pbn_tables` (what they share: :mod:`~handrec.formats.usebio.structure`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from handrec.diagnostics import Diagnostic, make
from handrec.formats.usebio.elements import (
    parse_contract,
    parse_date,
    parse_decimal,
    parse_lead,
    parse_score,
    parse_seat,
    parse_suit_cards,
    parse_tricks,
)
from handrec.formats.usebio.participants import Participants
from handrec.formats.usebio.pbn_tables import Tables
from handrec.formats.usebio.structure import (
    _EVENT_HEADER,
    _LINE_ELEMENTS,
    _METHOD_TAGS,
    _PBN_VUL,
    _READ_ERRORS,
    _SEAT_WORDS,
    _SUIT_ELEMENTS,
    EVENT_TYPES,
    SCORING_METHODS,
    At,
    Game,
    Section,
    board_number,
    num_text,
)
from handrec.formats.usebio.xml import CHUNK, Element, parse_xml
from handrec.model import Board, Card, Contract, Deal, Hand, Origin, Play, Seat, Span, Tag
from handrec.rules.board import dealer_for_board, vulnerability_for_board

__all__ = ["parse_usebio", "read_usebio_input", "parse_usebio_bytes", "EVENT_TYPES", "SCORING_METHODS"]


class _Reader(Participants, Tables):
    """One document read: its structure, participants, games and tables (see the module doc)."""

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
                number = board_number(n_el)
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
        header = self._event_header(event, club, competition, method, etype)
        self._participants(sections)
        games: list[Game] = []
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

    def _inferred(self, etype: str, sections: list[Section], competition: str, *, warn: bool = True) -> str:
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

    def _event_header(
        self, event: Element, club: Element | None, competition: str, method: str, etype: str | None
    ) -> list[Tag]:
        """The tags every game of the event carries (positions absolute: each game makes them
        relative to its own line)."""
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

    def _sections(self, event: Element) -> list[Section]:
        out: list[Section] = []
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

    def _section(self, el: Element, sid: str | None, session: str | None) -> Section:
        sec = Section(sid, session, el)
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

    def _section_games(self, sec: Section, header: list[Tag]) -> Iterator[Game]:
        for b in sec.boards:
            self.unknown(b, ("BOARD_NUMBER", "BOARD_AVERAGE", "TRAVELLER_LINE", "HANDSET"))
            n_el = b.find("BOARD_NUMBER")
            number = board_number(n_el)
            label = n_el.text.strip() if n_el is not None else ""
            if n_el is None:
                self.file("U711", b, parent="BOARD", name="", element="BOARD_NUMBER", consequence="")
            elif number is None:
                self.file("T101", n_el, tag="BOARD_NUMBER", value=n_el.text, reason="not a board number from 1")
            for line in b.findall("TRAVELLER_LINE"):
                yield self._game(sec, header, number, label, n_el or b, line, None)
        for m in sec.matches:
            yield from self._match(sec, header, m)

    def _match(self, sec: Section, header: list[Tag], m: Element) -> Iterator[Game]:
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
            number = board_number(n_el)
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
        sec: Section,
        header: list[Tag],
        number: int | None,
        label: str,
        n_el: Element,
        line: Element,
        teams: tuple[Any, ...] | None,
    ) -> Game:
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
        tags = [Tag(t.name, t.value, rel(At(t.span)) if t.span is not None else None) for t in header]
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
                if side == "NS":
                    ns = pair.label or ns
                else:
                    ew = pair.label or ew
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
                    claim = ("ScoreIMP", f"NS {num_text(ns_v)} EW {num_text(-ns_v)}", imps_el)
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
        return Game(
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
