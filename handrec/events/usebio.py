"""An event handrec has scored, as a USEBIO results document (``handrec export --to usebio``).

:func:`usebio_document` scores the boards read (:func:`handrec.events.games.score_event`,
each event with the method its tags ask for, as ``handrec score`` does) and lays the one
event out as :class:`handrec.formats.usebio.writer.Document`:

* pairs in matchpoints as ``MP_PAIRS`` on the 2 / 1 scale (a 1 / 0.5 event's figures
  doubled: 2 per pair beaten, 1 per tie, exactly), Neuberg's factored figures as decimals;
  Butler (``BUTLER_PAIRS``) and cross-IMPs (``CROSS_IMPS``) as handrec divides them;
  one winner (``WINNER_TYPE`` 1, a Howell: one ranking) or NS and EW winners (2, a
  Mitchell: the two rankings); an adjusted score (Law 12C2) as ``A6040``...;
* several sections when the games carry a Section tag: each section's participants and
  traveller lines (the figures are handrec's, over the whole traveller, as it scores a
  board played in several sections with the same deal: across the field);
* teams of four as ``MATCH`` elements (the home team sits N-S in the Open room);
* ``HANDSET`` for the boards whose deal is known (one deal per board number);
* pair numbers from the PairNS / PairEW tags; without them, pairs are numbered from their
  names (``1NS``... for NS and EW winners, ``1``... for one winner) and :attr:`Built.notes`
  says so; national numbers from a TotalScoreTable's NationalIds column (a file read from
  USEBIO), the USEBIO header values from the ``Usebio*`` tags the reader writes.

Source: usebio.md; bridge-rules.md §8 (the scorers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, record
from handrec.events.methods import Cross, Method
from handrec.events.results import EventScore
from handrec.formats.usebio.elements import artificial_text, format_decimal
from handrec.formats.usebio.writer import (
    BoardResult,
    Document,
    Line,
    Match,
    MatchBoard,
    Participant,
    Player,
    Section,
)
from handrec.model import Board, Card, Contract, Deal, Seat

__all__ = ["Built", "usebio_document", "UsebioExportError"]

_METHODS = {Method.MP: "mp", Method.MP2: "mp", Method.BUTLER: "butler", Method.CROSS_IMP: "cross", Method.IMP: "imps"}


class UsebioExportError(ValueError):
    """The boards cannot be written as one USEBIO event (the message says why)."""


@dataclass
class Built:
    """The document and what the export has to say about it (``notes``, for stderr)."""

    document: Document
    notes: list[str] = field(default_factory=list)


def _lead(b: Board) -> Card | None:
    if b.play is not None and b.play.cards and b.play.cards[0] is not None:
        return b.play.cards[0]
    t = b.tag("Lead")
    if t:
        try:
            return Card.parse(t)
        except ValueError:
            return None
    return None


def _contract(text: str, declarer: str) -> Contract | None:
    if not text:
        return None
    try:
        c = Contract.parse(text)
    except ValueError:
        return None
    if c.is_passed_out or c.is_end_position:
        return c if c.is_passed_out else None
    try:
        return Contract(c.level, c.strain, c.doubling, Seat.parse(declarer) if declarer else None)
    except ValueError:
        return Contract(c.level, c.strain, c.doubling, None)


def _number(x: Fraction | None, scale: int = 1) -> str | None:
    return None if x is None else format_decimal(Fraction(x) * scale)


def usebio_document(boards: Sequence[Board]) -> Built:
    """Score ``boards`` and lay the event out as a USEBIO :class:`Document`.

    :raises UsebioExportError: when the boards hold no event, more than one (USEBIO holds
        exactly one EVENT: export each on its own), one scored by a method USEBIO has no
        event type for (rubber, Chicago, minibridge), or a pairs event that ranks no pair (no
        board with two results: a total would be a guess).
    """
    recs: list[GameRecord] = [record(b) for b in boards]
    events = score_event(recs, None, every_result=True)  # a line for each result, as the file's figures
    events = [e for e in events if e.travellers or e.team_boards or e.session is not None]
    if not events:
        raise UsebioExportError("no board with a result: nothing to write as USEBIO")
    if len(events) > 1:
        names = ", ".join(repr(e.name) for e in events[:5])
        raise UsebioExportError(
            f"USEBIO holds one event, the inputs hold {len(events)} ({names}): export each event on its own"
        )
    ev = events[0]
    notes: list[str] = []
    if ev.method is Method.CROSS_IMP and ev.cross is not Cross.COMPARISONS:
        # USEBIO's cross-IMP points are divided by the comparisons (what real files write)
        (ev,) = [
            e
            for e in score_event(recs, Method.CROSS_IMP, cross=Cross.COMPARISONS, every_result=True)
            if e.name == ev.name
        ]
        notes.append("cross-IMPs written divided by the comparisons (USEBIO's), not as the Scoring tag divides them")
    if ev.method not in _METHODS:
        raise UsebioExportError(f"USEBIO has no event type for {ev.method.value} scoring")
    if ev.method is not Method.IMP and not any(rk.rows for rk in ev.rankings):
        # every PAIR of PARTICIPANTS has a place and a TOTAL_SCORE (usebio.md: U711 without):
        # a session where no board was played twice ranks no pair, and a total would be a guess
        raise UsebioExportError(
            f"no board of {ev.name!r} has two results or more: no pair is ranked, and USEBIO's "
            "PARTICIPANTS need each pair's place and total"
        )
    method = _METHODS[ev.method]
    by_origin = {(b.origin.path, b.origin.index): b for b in boards}
    first = boards[0]

    def tag(name: str) -> str | None:
        v = (first.tag(name) or "").strip()
        return None if v in ("", "?", "-") else v  # unknown (PBN 2.1 §3.4): no element

    club, site = tag("UsebioClub"), tag("Site")
    doc = Document(
        method,
        club_name=club or site,
        club_id=tag("UsebioClubId"),
        event_id=tag("UsebioEventId"),
        description=tag("Event"),
        title=tag("UsebioTitle"),
        venue=site if club and site != club else None,
        date=tag("Date"),
    )
    from handrec import __version__

    doc.program_version = __version__
    if method == "imps":
        _teams(doc, ev, recs, by_origin, notes)
    else:
        _pairs(doc, ev, recs, boards, by_origin, notes)
    # hand records: one deal per board number
    deals: dict[int, set[str]] = {}
    deal_of: dict[int, Deal] = {}
    for b in boards:
        if b.number is not None and b.deal is not None and b.deal.is_complete:
            deals.setdefault(b.number, set()).add(str(b.deal))
            deal_of.setdefault(b.number, b.deal)
    several = sorted(n for n, d in deals.items() if len(d) > 1)
    doc.handset = {n: d for n, d in deal_of.items() if n not in several}
    if several:
        notes.append(f"boards {', '.join(map(str, several))} were played with more than one deal: not in the HANDSET")
    return Built(doc, notes)


def _pairs(
    doc: Document,
    ev: EventScore,
    recs: list[GameRecord],
    boards: Sequence[Board],
    by_origin: dict[tuple[str, int], Board],
    notes: list[str],
) -> None:
    scale = 2 if ev.method is Method.MP else 1  # USEBIO's match points are on the 2 / 1 scale
    doc.winner_type = 2 if any(r.title in ("NS", "EW") for r in ev.rankings) and len(ev.rankings) > 1 else 1
    # the boards of each (board label, N-S label, E-W label): names, section, lead
    by_line: dict[tuple[str, str | None, str | None], Board] = {}
    for b, r in zip(boards, recs):
        by_line.setdefault((r.board, r.ns, r.ew), b)
    tagged = any(b.tag("PairNS") for b in boards) or any(b.tag("PairEW") for b in boards)
    # pair numbers
    numbers: dict[tuple[str, str], str] = {}  # (direction or "", label) -> number
    directions = {r.title for r in ev.rankings}
    for rk in ev.rankings:
        for i, row in enumerate(sorted(rk.rows, key=lambda x: _first_seen(x.name, recs, rk.title)), 1):
            d = rk.title if rk.title in ("NS", "EW") else ""
            numbers[(d, row.name)] = row.name if tagged else (f"{i}{d}" if d else str(i))
    if not tagged and numbers:
        shown = "; ".join(f"{n} = {label}" for (_, label), n in list(numbers.items())[:12])
        more = "" if len(numbers) <= 12 else f"; and {len(numbers) - 12} more"
        notes.append(f"no PairNS/PairEW tags: pairs numbered from their names ({shown}{more})")

    def number(direction: str, label: str | None, section: str | None = None) -> str | None:
        if label is None:
            return None
        if "NS" in directions or "EW" in directions:
            n = numbers.get((direction, label), label)
        else:
            n = numbers.get(("", label), label)
        # a pair label "A:1" (the reader's, for sections that number their pairs alike) is pair 1 of section A
        return n[len(section) + 1 :] if section and n.startswith(f"{section}:") else n

    # national numbers from a TotalScoreTable (a file read from USEBIO)
    nationals: dict[str, list[str | None]] = {}
    for b in boards:
        for t in b.tables:
            if t.name == "TotalScoreTable" and "NationalIds" in t.column_names and "PairId" in t.column_names:
                for pid, ids in zip(t.column("PairId"), t.column("NationalIds")):
                    nationals[pid] = [None if x in ("?", "") else x for x in ids.split(";")]
    # sections
    section_of: dict[tuple[str, str], str | None] = {}
    sections: dict[str | None, Section] = {}
    for b in boards:  # the sections in the order the games give them
        if b.tag("Section") not in sections:
            sections[b.tag("Section")] = Section(b.tag("Section"))
    players: dict[tuple[str, str], list[Player]] = {}
    for (_board, ns, ew), b in by_line.items():
        sec = b.tag("Section")
        for d, label, seats in (("NS", ns, ("North", "South")), ("EW", ew, ("East", "West"))):
            if label is None:
                continue
            key = (d, label)
            section_of.setdefault(key, sec)
            if key not in players:
                names = [b.tag(s) for s in seats]
                ids = nationals.get(label) or []
                players[key] = [
                    Player(n if n and n not in ("?", "-") else None, ids[i] if i < len(ids) else None)
                    for i, n in enumerate(names)
                ]
    for rk in ev.rankings:
        for row in rk.rows:
            d = rk.title if rk.title in ("NS", "EW") else ""
            keys = [(d, row.name)] if d else [("NS", row.name), ("EW", row.name)]
            key = next((k for k in keys if k in section_of), keys[0])
            sec_id = section_of.get(key)
            sec = sections.setdefault(sec_id, Section(sec_id))
            sec.participants.append(
                Participant(
                    number(d, row.name, sec_id) or row.name,
                    d or None,
                    row.rank if row.rank != "-" else None,
                    _two(row.total * scale),
                    None if row.pct is None else _two(row.pct),
                    row.boards,
                    players.get(key, []),
                )
            )
    # traveller lines, section by section
    for st in ev.travellers:
        t = st.traveller
        per_section: dict[str | None, list[Line]] = {}
        for se in st.entries:
            e = se.entry
            b = by_line.get((t.board, e.ns, e.ew))
            if e.record is not None:
                b = by_origin.get((e.record.origin.path, e.record.origin.index), b)
            sec_id = b.tag("Section") if b is not None else None
            if e.artificial is not None:
                score: int | str | None = artificial_text(*e.artificial)
            else:
                score = e.score_ns
                if score is None and e.record is not None:
                    # a score left out of the ranking (issue #18: it stands on a faulty record) is
                    # still the line's: written, without match points
                    score = e.record.score_ns
            if score is None:
                continue
            line = Line(
                number("NS", e.ns, sec_id),
                number("EW", e.ew, sec_id),
                _contract(e.contract, e.declarer),
                _lead(b) if b is not None else None,
                e.tricks,
                score,
                _number(se.ns, scale),
                _number(se.ew, scale),
            )
            per_section.setdefault(sec_id, []).append(line)
        for sec_id, lines in per_section.items():
            sec = sections.setdefault(sec_id, Section(sec_id))
            sec.boards.append(BoardResult(t.board, lines, _number(st.datum) if doc.method == "butler" else None))
    doc.sections = [s for s in sections.values() if s.participants or s.boards]
    if len(doc.sections) == 1 and doc.sections[0].id is None:
        pass
    elif any(s.id is None for s in doc.sections):
        for s in doc.sections:
            if s.id is None:
                s.id = "A" if all(x.id != "A" for x in doc.sections) else "?"


def _two(x: Fraction) -> str:
    """A total or percentage with two decimals, as real files write them (``128.77``, ``1.00``)."""
    x = Fraction(x)
    return format_decimal(x) if x.denominator != 1 else f"{x.numerator}.00"


def _first_seen(label: str, recs: list[GameRecord], direction: str) -> int:
    for i, r in enumerate(recs):
        if (direction != "EW" and r.ns == label) or (direction != "NS" and r.ew == label):
            return i
    return len(recs)


def _teams(
    doc: Document, ev: EventScore, recs: list[GameRecord], by_origin: dict[tuple[str, int], Board], notes: list[str]
) -> None:
    names: list[str] = []
    for tb in ev.team_boards:
        for n in tb.match[3:5]:
            if n and n not in names:
                names.append(n)
    ids = {n: str(i) for i, n in enumerate(names, 1)}
    sec = Section(None)
    places = {row.name: row for rk in ev.rankings for row in rk.rows}
    team_players: dict[str, list[Player]] = {n: [] for n in names}
    matches: dict[tuple[str, ...], Match] = {}
    for tb in ev.team_boards:
        home, visit = tb.match[3] or "Home", tb.match[4] or "Visit"
        for n in (home, visit):
            if n not in ids:
                ids[n] = str(len(ids) + 1)
                team_players.setdefault(n, [])
        m = matches.setdefault(tb.match, Match(tb.match[2] or "1", ids[home], ids[visit]))
        lines = []
        for direction, e in (("NS", tb.open), ("EW", tb.closed)):
            b = by_origin.get((e.record.origin.path, e.record.origin.index)) if e.record is not None else None
            if b is not None:
                home_seats = ("North", "South") if direction == "NS" else ("East", "West")
                visit_seats = ("East", "West") if direction == "NS" else ("North", "South")
                for team, seats in ((home, home_seats), (visit, visit_seats)):
                    for s in seats:
                        name = b.tag(s)
                        if name and name not in ("?", "-") and all(p.name != name for p in team_players[team]):
                            team_players[team].append(Player(name))
            lines.append(
                Line(
                    None,
                    None,
                    _contract(e.contract, e.declarer),
                    _lead(b) if b else None,
                    e.tricks,
                    e.score_ns,
                    direction=direction,
                )
            )
        m.boards.append(MatchBoard(tb.board, str(tb.imps_home), lines))
    for m in matches.values():
        won = sum(int(b.imps or 0) for b in m.boards if int(b.imps or 0) > 0)
        lost = -sum(int(b.imps or 0) for b in m.boards if int(b.imps or 0) < 0)
        m.team_score, m.opposing_score = str(won), str(lost)
    for n, i in sorted(ids.items(), key=lambda x: int(x[1])):
        row = places.get(n)
        sec.participants.append(
            Participant(
                i,
                None,
                row.rank if row else None,
                None if row is None else _two(row.total),
                players=team_players.get(n, []),
                team_name=n,
            )
        )
    sec.matches = list(matches.values())
    doc.sections = [sec]
    notes.append("teams written as MATCH elements (usebio.md: no real teams file was available to check them against)")
