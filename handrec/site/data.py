"""The results website's content: sessions, board pages, pairs or teams and their score cards.

The sessions of the inputs, their boards, pairs (or teams) and score cards, as plain values
for the templates.

:func:`collect` reads the boards once (one replay each, shared by the record that event
scoring needs and the play the board page shows) and keeps only what the pages need: every
game's small :class:`~handrec.events.games.GameRecord` and opening lead, and the first
game of each board in full (its diagram, auction and play).  :func:`site_sessions` then
builds one :class:`SiteSession` per session found by
:func:`handrec.events.sessions.group_sessions` (an Event tag and a session date):

* the travellers and rankings are the booklet's (:mod:`handrec.site._booklet`), scored by
  :mod:`handrec.events` exactly as ``handrec score`` scores them, with the rows whose
  own figures (ScoreMP, ScorePercentage, ScoreTable...) disagree with handrec's marked;
* a score card per pair or team (:func:`score_cards`): each board it played, its seat, the
  contract, declarer, lead, result, score, matchpoints or IMPs and percentage, and how the
  field scored the board.

File names of pages are made by handrec (``board-3.html``, ``pair-2.html``), never from
the input's text other than a pair's number (``pair-12.html`` for pair 12).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from handrec.dd import solver as ddmod
from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, record
from handrec.events.methods import Method
from handrec.events.report import fmt_percent
from handrec.events.results import EventScore, ScoredTraveller, TeamBoard
from handrec.events.sessions import group_sessions
from handrec.model import Board
from handrec.rules.replay import Replay, replay
from handrec.site import _booklet
from handrec.site.markup import freq_list
from handrec.site.pages import auction_view, bbo_url, lead_text, play_view

__all__ = ["Collected", "SiteBoard", "SitePair", "SiteSession", "collect", "site_sessions", "score_cards"]

_MINUS = "\u2212"
_SAFE_LABEL = re.compile(r"^[0-9]{1,6}$")

Origin2 = tuple[str, int | None]
BoardKey = tuple[object, ...]


def _origin(r: GameRecord) -> Origin2:
    return (r.origin.path, r.origin.index)


def _board_key(r: GameRecord) -> BoardKey:
    """One board of a session: its label, deal, dealer and vulnerability (Law 87A: another
    form of the board is another board); a game with neither label nor deal stands alone."""
    if r.key is None:
        return ("#", r.origin.path, r.origin.index)
    return (r.event, r.board, r.deal or "", r.dealer, r.vulnerable)


@dataclass(slots=True)
class Collected:
    """The inputs as the site needs them: ``records`` (every game, in input order), ``leads``
    (opening lead by game: path and board index), ``first`` (the first game of each board in
    full, with its replay)."""

    records: list[GameRecord] = field(default_factory=list)
    leads: dict[Origin2, str | None] = field(default_factory=dict)
    first: dict[BoardKey, tuple[Board, Replay]] = field(default_factory=dict)


def collect(boards: Iterable[Board]) -> Collected:
    """Read ``boards`` once: records for event scoring, leads, the first game of each board."""
    out = Collected()
    for b in boards:
        rep = replay(b)
        r = record(b, rep)
        out.records.append(r)
        out.leads[_origin(r)] = lead_text(b.play)
        key = _board_key(r)
        if key not in out.first:
            out.first[key] = (b, rep)
    return out


@dataclass(slots=True)
class SiteBoard:
    """One board page: ``page`` (file name), ``label``, the first game (``board``, ``rep``)
    and the travellers of the board (booklet views; several for a teams event whose matches
    played the same deal)."""

    page: str
    label: str
    number: int | None
    board: Board
    rep: Replay
    travellers: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class SitePair:
    """A pair (pairs events) or team: ``name``, its identity as the travellers give it (its
    number: PairNS / PairEW, PBN 2.1 §4.3.2, a ScoreTable's PairId_*, a USEBIO PAIR_NUMBER;
    else its players' names), ``names`` (the players' names beside a number, ``None`` when
    ``name`` is the names), ``page``, ``rank`` rows (the ranking line of each ranking it is
    in) and ``card`` (:func:`score_cards`).  In a Mitchell that numbers its N-S and E-W pairs
    alike (PairNS 1 and PairEW 1: two pairs, ranked apart, :func:`handrec.events.pairs.score_pairs`)
    ``name`` adds the direction (``1 N-S``) and ``ident`` keeps the number."""

    name: str
    page: str
    ranks: list[dict[str, Any]] = field(default_factory=list)
    card: list[dict[str, Any]] = field(default_factory=list)
    link: Any = None  # its name linked to its page, made once (handrec.site.markup.pair_link)
    names: str | None = None
    ident: str | None = None  # the travellers' name for it when ``name`` adds the direction (a Mitchell's "1 N-S")

    @property
    def title(self) -> str:
        """How its page and the lists name it: ``3 (Player 5 - Player 6)``, else ``name``."""
        return f"{self.name} ({self.names})" if self.names else self.name


@dataclass(slots=True)
class SiteSession:
    """One session: ``folder`` (``s1``...), ``name`` (:func:`group_sessions`), ``event`` (the
    Event tag), ``date`` (the session date, ``""`` unknown), ``results`` (the booklet's event
    data: method label, rankings, travellers, notes; ``None`` when nothing can be compared),
    ``boards``, ``pairs`` (by name), ``flagged`` (any row marked), ``diagnostics`` (the checks of
    the file's own figures, S603-S609, S611, as ``handrec validate`` reports them)."""

    folder: str
    name: str
    event: str
    date: str
    results: dict[str, Any] | None
    scores: list[EventScore]
    boards: list[SiteBoard] = field(default_factory=list)
    pairs: dict[str, SitePair] = field(default_factory=dict)
    flagged: bool = False
    games: int = 0
    index: dict[BoardKey, SiteBoard] = field(default_factory=dict)
    diagnostics: list[Any] = field(default_factory=list)

    @property
    def method(self) -> str | None:
        return None if self.results is None else self.results["method"]

    @property
    def teams(self) -> bool:
        return self.method == Method.IMP.value


def site_sessions(
    data: Collected, *, dd: bool | None = None, progress: Any = None
) -> tuple[list[SiteSession], str | None]:
    """The sessions of ``data``, with their board pages, pairs and score cards; and a note to
    show once when double dummy was asked for and cannot be solved (``None`` otherwise).

    ``dd``: ``None`` shows the double-dummy grid and par the tags give, ``True`` also solves
    complete deals (:func:`handrec.dd.solver.boards_dd`), ``False`` shows none."""
    sessions: list[SiteSession] = []
    for n, (name, ev) in enumerate(group_sessions(data.records), 1):
        scores = score_event(ev, None)
        res, diags = _booklet.session_results(ev, scores)
        flagged = _booklet.flagged_games(diags)
        event = res["events"][0] if res is not None and res["events"] else None
        s = SiteSession(
            folder=f"s{n}",
            name=name,
            event=ev[0].event,
            date=ev[0].date,
            results=event,
            scores=scores,
            flagged=bool(res and res["flagged"]),
            games=len(ev),
            diagnostics=list(diags),
        )
        _boards(s, ev, data)
        if event is not None:
            _attach(s, event, scores, data, flagged)
            _name_pair_pages(s)
        sessions.append(s)
    note = _dd_views([b for s in sessions for b in s.boards], dd, progress)
    return sessions, note


def _boards(s: SiteSession, ev: Sequence[GameRecord], data: Collected) -> None:
    """The session's boards in board-number order (then first appearance), one page each."""
    keys: dict[BoardKey, None] = {}
    for r in ev:
        keys.setdefault(_board_key(r), None)
    boards = []
    for key in keys:
        b, rep = data.first[key]
        v = _booklet.board_view(b)
        boards.append((v["number"], v["label"], key, b, rep, v))
    boards.sort(key=lambda x: (x[0] is None, x[0] or 0))
    labels = Counter(x[1] for x in boards)
    for i, (number, label, key, b, rep, v) in enumerate(boards, 1):
        page = f"board-{label}.html" if _SAFE_LABEL.match(label) and labels[label] == 1 else f"board-x{i}.html"
        sb = SiteBoard(page, label, number, b, rep, view=v)
        s.boards.append(sb)
        s.index[key] = sb


def _dd_views(boards: list[SiteBoard], dd: bool | None, progress: Any) -> str | None:
    infos: list[Any] = [None] * len(boards)
    note = None
    if dd is not False and boards:
        infos, note = ddmod.boards_dd([b.board for b in boards], solve=bool(dd), progress=progress)
    for b, info in zip(boards, infos):
        b.view["dd"], b.view["par"] = _booklet.dd_view(info)
    return note


def _find_board(s: SiteSession, st_board: str, deal: str | None, rec: GameRecord | None) -> SiteBoard | None:
    if rec is not None:
        return s.index.get(_board_key(rec))
    for key, sb in s.index.items():  # a ScoreTable's traveller: the board of its label and deal
        if key[0] != "#" and key[1] == st_board and key[2] == (deal or ""):
            return sb
    return None


def _attach(
    s: SiteSession, event: dict[str, Any], scores: list[EventScore], data: Collected, flagged: set[Origin2]
) -> None:
    """Link the booklet's travellers to their boards, make the pairs' score cards and give
    each its ranking lines.

    A pair is one identity on its card and in the rankings: the name the travellers give it
    (its number when the file numbers its pairs, else its players' names).  A ranking from
    the file (a TotalScoreTable, PBN 2.1 §5.3; a USEBIO file's PARTICIPANTS) names a pair by
    its PairId and its Names: the row is the pair whose identity is either; the Names give
    the card its players.  A ranked pair no board of the input names (a TotalScoreTable's
    pair whose ScoreTable rows give no PairId_NS / PairId_EW) gets no card: it would be empty."""
    cards: dict[str, SitePair] = {}
    names: dict[str, str] = {}
    split = _split_numbers(scores)

    def key(who: str | None, is_ns: bool) -> str | None:
        # a number both directions use, in a session ranked by direction: two pairs (a Mitchell)
        return f"{who} {'N-S' if is_ns else 'E-W'}" if who in split else who

    for view in event["travellers"]:
        view.setdefault("page", None)
        view.setdefault("match", None)
    es = next((e for e in scores if e.travellers or e.team_boards), None)
    if es is not None and es.method is Method.IMP:
        for tb, view in zip(es.team_boards, event["travellers"]):
            sb = _find_board(s, tb.board, tb.open.record.deal if tb.open.record else None, tb.open.record)
            if sb is not None:
                view["match"] = _match_name(tb)
                sb.travellers.append(view)
                view["page"] = sb.page
            for team in _teams(tb):
                _pair(cards, team).card.extend(_team_card_rows(tb, team, sb, data, flagged))
    elif es is not None:
        for st, view in zip(es.travellers, event["travellers"]):
            t = st.traveller
            first = next((e.record for e in t.entries if e.record is not None), None)
            sb = _find_board(s, t.board, t.deal, first)
            if sb is not None:
                sb.travellers.append(view)
                view["page"] = sb.page
            for name, row in score_cards(st, es.method, data.leads, flagged):
                row["board"] = sb
                is_ns = row["seat"] == "N-S"
                row["opp_key"] = key(row["opponents"], not is_ns)
                p = _pair(cards, key(name, is_ns) or name)
                p.ident = name
                p.card.append(row)
            for se in st.entries:
                e = se.entry
                for who, players, is_ns in ((e.ns, e.names[0], True), (e.ew, e.names[1], False)):
                    if who is not None and players and players != who:
                        names.setdefault(key(who, is_ns) or who, players)
            if split:
                for r in view["rows"]:
                    r["ns_key"], r["ew_key"] = key(r["ns"], True), key(r["ew"], False)
    for rk in es.rankings if es is not None else ():
        for row in rk.rows:
            if row.names:
                names.setdefault(key(row.name, rk.title != "EW") or row.name, row.names)
    # the pairs in ranking order (their pages are numbered so), then any the rankings leave out
    for rk in event["rankings"]:
        name_col, names_col = _ranking_columns(rk["columns"])
        rk["name_col"], rk["names_col"] = name_col, names_col
        rk["winner"] = _winner(rk)
        for row in rk["rows"]:
            cells = row["cells"]
            ident = cells[name_col] if name_col is not None and name_col < len(cells) else ""
            players = cells[names_col] if names_col is not None and names_col < len(cells) else ""
            if ident in split and rk["title"].endswith(("N-S", "E-W")):  # a Mitchell's ranking of one direction
                ident = f"{ident} {rk['title'][-3:]}"
            key = ident if ident in cards else players if players in cards else None
            row["pair"] = key
            if key is None:
                continue
            p = s.pairs[key] = cards[key]
            p.ranks.append({"ranking": rk, "row": row})
            if players and players != key:
                names.setdefault(key, players)
    for key, p in cards.items():
        s.pairs.setdefault(key, p)
        p.names = names.get(key)


def _split_numbers(scores: list[EventScore]) -> set[str]:
    """The pair numbers that name two pairs, one N-S and one E-W: those the travellers give
    both directions in a pairs session ranked N-S and E-W apart (a Mitchell,
    :func:`handrec.events.pairs.score_pairs`); none in a Howell, where a pair changes direction."""
    es = next((e for e in scores if e.travellers), None)
    if es is None or not es.rankings or any(r.title not in ("NS", "EW") for r in es.rankings):
        return set()
    ns = {se.entry.ns for st in es.travellers for se in st.entries if se.entry.ns}
    ew = {se.entry.ew for st in es.travellers for se in st.entries if se.entry.ew}
    return {x for x in ns & ew if x is not None}


def _winner(rk: dict[str, Any]) -> dict[str, Any] | None:
    """The ranking's first place: its row ranked 1 (``1=`` a tie), else its first row (a
    file's TotalScoreTable may list its pairs by number, PBN 2.1 §5.2: rows in the file's order)."""
    rank = rk["columns"].index("Rank") if "Rank" in rk["columns"] else None
    for row in rk["rows"]:
        if rank is not None and rank < len(row["cells"]) and row["cells"][rank].rstrip("=").strip() == "1":
            return row
    return rk["rows"][0] if rk["rows"] else None


def _ranking_columns(columns: Sequence[str]) -> tuple[int | None, int | None]:
    """The columns of a ranking that name its pairs: the identity (``PairId``, ``TeamId``, a
    computed ranking's ``Pair`` or ``Team``; else ``Names``) and the players' ``Names``."""
    heads = [c.split()[0].lower() if c.split() else "" for c in columns]
    names_col = heads.index("names") if "names" in heads else None
    ident = next((i for i, h in enumerate(heads) if h in ("pairid", "teamid", "pair", "team")), names_col)
    return ident, names_col if names_col != ident else None


def _pair(pairs: dict[str, SitePair], name: str) -> SitePair:
    p = pairs.get(name)
    if p is None:
        p = pairs[name] = SitePair(name, "")  # its page is named when all are known (_name_pair_pages)
    return p


#: A pair or team number as the players know it (PairNS 12, a ScoreTable's PairId): its page's name.
_PAIR_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
#: A Mitchell's pair of one direction (:func:`_split_numbers`): ``12 N-S``, its page ``pair-12ns.html``.
_PAIR_SIDE = re.compile(r"([1-9][0-9]{0,5}) (N-S|E-W)")


def _name_pair_pages(s: SiteSession) -> None:
    """Name each pair's page: ``pair-12.html`` for pair number 12 (a label of digits: PairNS /
    PairEW, a ScoreTable's PairId), so a club can link a card by the number its players
    know; a pair known by its names takes, in ranking order, the lowest number no pair has.
    Names are made from digits alone, never from the input's other text."""
    taken = {int(name) for name in s.pairs if _PAIR_NUMBER.fullmatch(name)}
    free = (n for n in itertools.count(1) if n not in taken)
    for name, p in s.pairs.items():
        side = _PAIR_SIDE.fullmatch(name)
        if side is not None:
            p.page = f"pair-{int(side.group(1))}{'ns' if side.group(2) == 'N-S' else 'ew'}.html"
        else:
            p.page = f"pair-{int(name) if _PAIR_NUMBER.fullmatch(name) else next(free)}.html"


def _plus(score: int | None) -> str:
    if score is None:
        return ""
    return f"+{score}" if score > 0 else (f"{_MINUS}{-score}" if score < 0 else "0")


def _field(st: ScoredTraveller, ns: bool) -> list[dict[str, Any]]:
    """How the field scored the board, from one side: each ``score`` (signed text), with how
    many tables had it (``count``) and the matchpoints or IMPs it earned (``value``), best
    first (a score card marks the line whose score is its own)."""
    counts: Counter[int] = Counter()
    values: dict[int, Any] = {}
    for se in st.entries:
        e = se.entry
        if e.score_ns is not None:
            score = e.score_ns if ns else -e.score_ns
            counts[score] += e.multiplicity
            values.setdefault(score, se.ns if ns else se.ew)
    return [
        {
            "score": _plus(v),
            "count": n,
            "value": "" if values[v] is None else _booklet.signed(values[v]),
        }
        for v, n in sorted(counts.items(), reverse=True)
    ]


_ARTIFICIAL = {"AVERAGE_PLUS": "Avg+", "AVERAGE": "Avg", "AVERAGE_MINUS": f"Avg{_MINUS}"}


def score_cards(
    st: ScoredTraveller,
    method: Method,
    leads: dict[Origin2, str | None],
    flagged: set[Origin2] = frozenset(),  # type: ignore[assignment]
) -> list[tuple[str, dict[str, Any]]]:
    """The score-card lines one scored traveller gives its pairs: ``(pair name, line)`` for the
    N-S and the E-W pair of each result whose pair is known, in the traveller's order.

    Each line: ``label`` (the board), ``seat`` (``N-S`` / ``E-W``), ``opponents``, ``room``,
    ``cells`` (the booklet's contract, declarer and score cells,
    :func:`handrec.site._booklet.result_cells`), ``lead`` (PBN card or ``None``: a ScoreTable
    row records none), ``score`` (the pair's points, signed, or the Law 12C2 artificial
    score), ``value`` (its matchpoints or IMPs), ``pct`` (matchpoints as a percentage of the
    top, ``""`` for IMPs), ``top``, ``field`` (:func:`_field`: the same list for every line
    of a side), ``field_html`` (that list as the card prints it, :func:`handrec.site.markup.freq_list`,
    made once a side and score) and ``flag`` (the file's own figure for this game differs from handrec's)."""
    mp = method in (Method.MP, Method.MP2)
    fields: dict[bool, list[dict[str, Any]]] = {}
    lists: dict[tuple[bool, str | None], Any] = {}
    out = []
    for se in st.entries:
        e = se.entry
        rec = e.record
        cells = None
        for is_ns, who, other, value, pct in (
            (True, e.ns, e.ew, se.ns, se.pct_ns),
            (False, e.ew, e.ns, se.ew, se.pct_ew),
        ):
            if not who:
                continue
            if cells is None:
                cells = _booklet.result_cells(e)
            own = None if e.score_ns is None else (e.score_ns if is_ns else -e.score_ns)
            if is_ns not in fields:
                fields[is_ns] = _field(st, is_ns)
            score = _ARTIFICIAL[e.artificial[0 if is_ns else 1].name] if e.artificial is not None else _plus(own)
            own_text = _plus(own) if own is not None else None
            if (is_ns, own_text) not in lists:
                lists[is_ns, own_text] = freq_list(fields[is_ns], own_text)
            out.append(
                (
                    who,
                    {
                        "label": st.traveller.board or "?",
                        "seat": "N-S" if is_ns else "E-W",
                        "opponents": other,
                        "room": e.room,
                        "cells": cells,
                        "lead": leads.get(_origin(rec)) if rec is not None else None,
                        "score": score,
                        "own": own_text,
                        "value": "" if value is None else _booklet.signed(value),
                        "pct": fmt_percent(pct) if mp and pct is not None else "",
                        "top": st.top,
                        "field": fields[is_ns],
                        "field_html": lists[is_ns, own_text],
                        "flag": rec is not None and _origin(rec) in flagged,
                    },
                )
            )
    return out


def _teams(tb: TeamBoard) -> tuple[str, str]:
    home = tb.match[3] if len(tb.match) > 3 and tb.match[3] else "Home"
    visit = tb.match[4] if len(tb.match) > 4 and tb.match[4] else "Visit"
    return home, visit


def _match_name(tb: TeamBoard) -> str:
    home, visit = _teams(tb)
    return f"{home} v {visit}"


def _team_card_rows(
    tb: TeamBoard, team: str, sb: SiteBoard | None, data: Collected, flagged: set[Origin2]
) -> list[dict[str, Any]]:
    """A team's score card for one board of its match: the Open and Closed room lines (the home
    team sits N-S in the Open room, :class:`~handrec.events.results.TeamBoard`), the IMPs on the
    first."""
    home, visit = _teams(tb)
    is_home = team == home
    imps = tb.imps_home if is_home else -tb.imps_home
    rows = []
    for room, e in (("Open", tb.open), ("Closed", tb.closed)):
        is_ns = is_home == (room == "Open")
        own = None if e.score_ns is None else (e.score_ns if is_ns else -e.score_ns)
        rec = e.record
        rows.append(
            {
                "label": tb.board,
                "board": sb,
                "seat": "N-S" if is_ns else "E-W",
                "opponents": visit if is_home else home,
                "room": room,
                "cells": _booklet.result_cells(e),
                "lead": data.leads.get(_origin(rec)) if rec is not None else None,
                "score": _plus(own),
                "value": _booklet.signed(imps) if room == "Open" else "",
                "pct": "",
                "top": None,
                "field": [],
                "field_html": freq_list([], None),
                "flag": rec is not None and _origin(rec) in flagged,
            }
        )
    return rows


def board_extras(sb: SiteBoard) -> dict[str, Any]:
    """The board page's auction and play (of the first game recorded), the table they come
    from (``N-S v E-W`` names or ``None``), and the hand viewer's address."""
    b = sb.board
    r = record(b, sb.rep)
    table = f"{r.ns or '?'} v {r.ew or '?'}" if (r.ns or r.ew) else None
    return {
        "auction": auction_view(b.auction),
        "play": play_view(sb.rep, b.play),
        "table": table,
        "room": r.room,
        "bbo": bbo_url(b) if b.deal is not None else None,
    }
