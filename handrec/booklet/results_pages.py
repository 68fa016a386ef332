"""The results pages of a booklet, as plain data: travellers scored by handrec, and the session rankings.

:func:`booklet_results` computes them with :mod:`handrec.events.games` (never
copied from the file) and flags the rows the file's own figures disagree
with (:func:`handrec.events.checks.check_event`); the HTML and PDF booklets
print them as they are (:func:`handrec.booklet.views.select_boards`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Cross, Method, cross_for, pairs_method_for
from handrec.events.report import fmt_number, fmt_percent
from handrec.events.sessions import group_sessions
from handrec.events.teams import score_teams
from handrec.events.travellers import travellers
from handrec.model import Board, Contract, ModelError

__all__ = ["booklet_results", "no_results_reason"]

#: Law 12C2 artificial adjusted scores as a traveller prints them.
_ARTIFICIAL_TEXT = {"AVERAGE_PLUS": "Avg+", "AVERAGE": "Avg", "AVERAGE_MINUS": "Avg\u2212"}
_MINUS = "\u2212"
#: Codes of the claimed-figure checks (handrec.events.checks) whose rows a results page marks:
#: a figure that differs from handrec's (S611: a ScoreTable percentage by another formula).
_CLAIM_CODES = ("S603", "S604", "S605", "S607", "S608", "S611", "S616")
#: A traveller up to this wide (:func:`_traveller_width`) fits half an A4 or Letter page in the PDF,
#: so that the travellers go two abreast (measured: 69 fits 86 mm, 79 does not).
_HALF_WIDTH = 70
_ROW_RE = re.compile(r"\b(ScoreTable|TotalScoreTable) row (\d+)\b")


def _signed(value: Any) -> str:
    """An exact number as printed on a traveller: at most 2 decimals, a true minus sign."""
    text = fmt_number(value)
    return text.replace("-", _MINUS) if text.startswith("-") else text


def _result_cells(e: Any) -> dict[str, Any]:
    """A traveller row's room, contract, declarer, tricks and score cells (N-S plus, E-W plus, zero)."""
    score = e.score_ns
    return {
        "room": e.room,
        "contract": _contract_view(e.contract, e.tricks),
        "by": e.declarer or "",
        "tricks": "" if e.tricks is None else str(e.tricks),
        "score_ns": str(score) if score is not None and score > 0 else "",
        "score_ew": str(-score) if score is not None and score < 0 else "",
        "zero": score == 0,
    }


def _contract_view(text: str, tricks: int | None) -> dict[str, Any]:
    """A traveller's contract cell: ``level``, ``strain`` (S H D C NT), ``doubling`` (``""``, ``x``,
    ``xx``), ``result`` (``=``, ``+1``, ``-2``) or, when it is not a contract, just ``text``."""
    out: dict[str, Any] = {"text": text, "level": None, "strain": None, "doubling": "", "result": ""}
    if not text:
        return out
    try:
        c = Contract.parse(text)
    except (ModelError, ValueError):
        return out
    if c.is_passed_out:
        out["text"] = "Pass"
        return out
    if c.is_end_position or c.strain is None:
        return out
    out.update(level=str(c.level), strain=str(c.strain), doubling=str(c.doubling).lower(), text="")
    if tricks is not None:
        over = tricks - c.level - 6
        out["result"] = "=" if over == 0 else (f"+{over}" if over > 0 else f"{_MINUS}{-over}")
    return out


_METHOD_LABELS = {
    "mp": "Matchpoints, top n\u22121 (1 per pair beaten, \u00bd per tie)",
    "mp2": "Matchpoints, top 2(n\u22121) (2 per pair beaten, 1 per tie)",
    "butler": "Butler IMPs (datum: mean without top and bottom)",
    "cross-imp": "Cross-IMPs (average over the comparisons)",
    "imp": "Teams: IMPs between the Open and Closed rooms",
}
#: Cross-IMPs as the Scoring tag divides them (handrec.events.games.Cross): ``Cross``, ``Cross1``, ``Cross2``.
_CROSS_LABELS = {
    Cross.SUM: "Cross-IMPs (summed over the comparisons)",
    Cross.SCORES: "Cross-IMPs (divided by the number of results)",
    Cross.COMPARISONS: _METHOD_LABELS["cross-imp"],
}


def _traveller_width(t: dict[str, Any], mp: bool) -> int:
    """A traveller's width in characters (the longest text of each column, header included) plus two
    per column for the cell padding: the PDF's 7-point table is about 1.25 mm per unit."""
    rows = t["rows"]

    def col(header: str, cells: Iterable[str]) -> int:
        return max([len(header), *(len(c) for c in cells)]) + 2

    width = col("", [])  # the flag column
    if t["rooms"]:
        width += col("Room", (r["room"] or "" for r in rows))
    if t["pairs"]:
        width += col("N-S", (r["ns"] or "" for r in rows)) + col("E-W", (r["ew"] or "" for r in rows))
    if t["contracts"]:
        width += col("Contract", []) + col("By", []) + col("Res", [])
    width += col("+N-S", (r["score_ns"] for r in rows)) + col("+E-W", (r["score_ew"] for r in rows))
    if t["times"]:
        width += col("x", (r["times"] for r in rows))
    head = "MP" if mp else "IMP"
    width += col(f"{head} N-S", (r["ns_value"] for r in rows)) + col(f"{head} E-W", (r["ew_value"] for r in rows))
    if mp:
        width += col("% N-S", (r["ns_pct"] for r in rows))
    return width


def _flags(diags: Sequence[Any]) -> tuple[set[tuple[str, int | None]], set[tuple[str, int | None, str, int]]]:
    """Where the file's own figures disagree with handrec's: games ``(path, board index)`` and
    table rows ``(path, board index, table, row index)``."""
    games: set[tuple[str, int | None]] = set()
    rows: set[tuple[str, int | None, str, int]] = set()
    for d in diags:
        if d.code not in _CLAIM_CODES:
            continue
        m = _ROW_RE.search(d.message)
        if m is not None:
            rows.add((d.path, d.board, m.group(1), int(m.group(2)) - 1))
        else:
            games.add((d.path, d.board))
    return games, rows


def _traveller_view(st: Any, method: Any, flagged: Any, holder: tuple[str, int | None] | None) -> dict[str, Any]:
    """One scored traveller as printed: rows sorted by the N-S score, best first.

    ``holder``: (path, board index) of the game whose ScoreTable the traveller comes from.
    """
    games, table_rows = flagged
    t = st.traveller
    mp = method in (Method.MP, Method.MP2)
    rows = []
    for se in st.entries:
        e = se.entry
        rec = e.record
        if rec is not None:
            flag = (rec.origin.path, rec.origin.index) in games
        else:
            flag = holder is not None and (holder[0], holder[1], "ScoreTable", e.row) in table_rows
        artificial = None
        if e.artificial is not None:
            artificial = "/".join(_ARTIFICIAL_TEXT[k.name] for k in e.artificial)
        score = e.score_ns
        rows.append(
            {
                "ns": e.ns,
                "ew": e.ew,
                **_result_cells(e),
                "artificial": artificial,
                "times": str(e.multiplicity) if e.multiplicity != 1 else "",
                "ns_value": "" if se.ns is None else _signed(se.ns),
                "ew_value": "" if se.ew is None else _signed(se.ew),
                "ns_pct": fmt_percent(se.pct_ns) if mp and se.pct_ns is not None else "",
                "flag": flag,
                "_sort": (0 if score is not None else 1 if artificial else 2, -(score or 0)),
            }
        )
    rows.sort(key=lambda r: r["_sort"])  # stable: equal scores keep the file's order
    for r in rows:
        del r["_sort"]
    info = []
    if mp and st.top is not None:
        info.append(f"top {st.top}")
    if st.expected is not None:
        info.append(f"Neuberg to {st.expected} results")
    if st.datum is not None:
        info.append(f"datum {_signed(round(st.datum))}")
    if st.note:
        info.append(st.note)
    return {
        "board": t.board or "?",
        "played": t.played,
        "source": t.source,
        "info": ", ".join(info),
        "rooms": any(e.room for e in t.entries),
        "times": any(e.multiplicity != 1 for e in t.entries),
        "pairs": any(r["ns"] or r["ew"] for r in rows),
        "contracts": any(r["contract"]["level"] or r["contract"]["text"] or r["by"] or r["artificial"] for r in rows),
        "rows": rows,
    }


def _teams_view(boards: Sequence[Any], flagged: Any) -> list[dict[str, Any]]:
    """Teams: per board, the Open and Closed room results (sorted by N-S score) and the IMPs."""
    games, _ = flagged
    out = []
    for tb in boards:
        home = tb.match[3] if len(tb.match) > 3 and tb.match[3] else "Home"
        visit = tb.match[4] if len(tb.match) > 4 and tb.match[4] else "Visit"
        rows = []
        for e, sign in ((tb.open, 1), (tb.closed, -1)):
            imps_ns = sign * tb.imps_home  # the home team sits N-S in the Open room
            rec = e.record
            score = e.score_ns
            rows.append(
                {
                    "ns": e.ns or (home if sign > 0 else visit),
                    "ew": e.ew or (visit if sign > 0 else home),
                    **_result_cells(e),
                    "artificial": None,
                    "times": "",
                    "ns_value": _signed(imps_ns),
                    "ew_value": _signed(-imps_ns),
                    "ns_pct": "",
                    "flag": rec is not None and (rec.origin.path, rec.origin.index) in games,
                    "_score": score or 0,
                }
            )
        rows.sort(key=lambda r: -r["_score"])
        for r in rows:
            del r["_score"]
        v = tb.imps_home
        info = f"{home if v > 0 else visit} +{abs(v)} IMPs" if v else "no swing"
        out.append(
            {
                "board": tb.board or "?",
                "played": 2,
                "source": "games",
                "info": info,
                "rooms": True,
                "times": False,
                "pairs": True,
                "contracts": True,
                "rows": rows,
            }
        )
    return out


def _ranking_from_table(view: Any, row_flags: set[int]) -> dict[str, Any]:
    """A TotalScoreTable as the file gives it (names joined with " - ")."""
    columns = []
    keep = []
    for i, name in enumerate(view.columns):
        if name.lower() in ("center", "countrycode", "club"):
            continue
        keep.append(i)
        columns.append(name.replace("_", " "))
    rows = []
    for n, row in enumerate(view.rows):
        cells = []
        for i in keep:
            cell = row[i].strip().strip('"') if i < len(row) else ""
            if ";" in cell:
                cell = " - ".join(p.strip() for p in cell.split(";") if p.strip())
            cells.append("" if cell in ("?", "-") else cell)
        rows.append({"cells": cells, "flag": n in row_flags})
    i_rank = view.index("Rank")
    if i_rank is not None and i_rank in keep:  # in rank order (a USEBIO file lists its pairs by number)
        at = keep.index(i_rank)
        rows.sort(key=lambda r: _rank_key(r["cells"][at]))
    right = [
        i for i, c in enumerate(columns) if c.split()[0].lower() not in ("pairid", "names", "teamid", "name", "team")
    ]
    title = "Session ranking"
    d = view.index("Direction")
    sides = {row[d].strip().upper() for row in view.rows if d is not None and d < len(row)}
    if len(sides) == 1 and sides <= {"NS", "EW"}:  # one direction's field (a Mitchell's): say which
        title += " N-S" if sides == {"NS"} else " E-W"
    return {"title": title, "source": "TotalScoreTable", "columns": columns, "right": right, "rows": rows}


def _rank_key(cell: str) -> tuple[int, int]:
    """A Rank cell's place for sorting (``3=`` is 3, a tie); a cell without one after all the others."""
    digits = "".join(itertools.takewhile(str.isdigit, cell.strip()))
    return (0, int(digits)) if digits else (1, 0)


def _ranking_computed(r: Any, method: Any) -> dict[str, Any]:
    mp = method in (Method.MP, Method.MP2)
    title = {"NS": "N-S", "EW": "E-W", "pairs": "Pairs", "teams": "Teams"}.get(r.title, r.title)
    if method is Method.IMP:
        columns = ["Rank", "Team", "Boards", "IMPs won", "IMPs lost", "Net"]
    elif mp:
        columns = ["Rank", "Pair", "Boards", "MP", "Top", "%"]
    else:
        columns = ["Rank", "Pair", "Boards", "IMPs"]
    rows = []
    for row in r.rows:
        if method is Method.IMP:
            net = row.total - (row.against or 0)
            cells = [row.rank, row.name, str(row.boards), _signed(row.total), _signed(row.against), _signed(net)]
        elif mp:
            cells = [row.rank, row.name, str(row.boards), _signed(row.total), _signed(row.top), fmt_percent(row.pct)]
        else:
            cells = [row.rank, row.name, str(row.boards), _signed(row.total)]
        rows.append({"cells": cells, "flag": False})
    left = (0, 1)
    if any(row.names for row in r.rows):  # pairs ranked by number: who each is, beside it
        columns.insert(2, "Names")
        for view, row in zip(rows, r.rows):
            view["cells"].insert(2, row.names or "")
        left = (0, 1, 2)
    right = [i for i in range(len(columns)) if i not in left]
    return {"title": f"Ranking {title}", "source": "computed", "columns": columns, "right": right, "rows": rows}


def _total_tables(ev: Sequence[Any]) -> list[tuple[Any, Any]]:
    """The session's rankings as the file gives them: its first TotalScoreTable with rows, and
    each later one whose pairs (PairId) none before lists -- another field's: a Mitchell's
    E-W pairs, which a USEBIO file of NS and EW winners ranks apart (usebio.md WINNER_TYPE 2;
    its reader writes their table on the second game).  A later table of the same pairs (a
    copy, PBN 2.1 §5.2 ``#``) is not a ranking of its own."""
    out: list[tuple[Any, Any]] = []
    seen: set[str] = set()
    for r in ev:
        for v in r.tables:
            if v.name != "TotalScoreTable" or not v.rows:
                continue
            k = v.index("PairId", "TeamId")
            ids = {row[k].strip().strip('"') for row in v.rows if k is not None and k < len(row)}
            if not out or (ids and not ids & seen):
                out.append((r, v))
                seen |= ids
            if k is None:  # no ids to tell another field's table from a copy: the first one only
                return out
    return out


def booklet_results(boards: Iterable[Board]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The results pages of a booklet, as plain data, and the claimed-figure diagnostics.

    Results exist when a board has a ScoreTable with scores, several scored
    games (same Event, board and deal: PBN travellers as games, LIN rooms),
    or an Open and a Closed room of a teams match.  Everything is computed by
    :mod:`handrec.events.games` (travellers, matchpoints with Neuberg, Butler or
    cross-IMPs as the Scoring tag says, teams IMPs, rankings), never copied
    from the file; the file's own figures are checked with
    :func:`handrec.events.checks.check_event` (S603-S609, S611) and a traveller
    or ranking row they disagree with is flagged.  The ranking is the
    TotalScoreTable when the file has one, else computed.

    Returns ``(None, diagnostics)`` when there are no results.  The data:
    ``events``: list of ``name``, ``method`` (Method value), ``method_label``,
    ``value_head`` (``MP`` / ``IMP``), ``pct`` (bool), ``columns`` (2 when every traveller fits
    half a page, else 1), ``travellers`` (``board``,
    ``played``, ``source``, ``info``, ``rooms``, ``times``, ``pairs``, ``contracts`` (bools: which
    columns to show), ``rows``:
    ``ns``, ``ew``, ``room``, ``contract`` (``level``, ``strain``, ``doubling``,
    ``result``, ``text``), ``by``, ``tricks``, ``artificial``, ``score_ns``,
    ``score_ew``, ``zero``, ``times``, ``ns_value``, ``ew_value``, ``ns_pct``,
    ``flag``), ``rankings`` (``title``, ``source``, ``columns``, ``right``,
    ``rows``: ``cells``, ``flag``), ``notes``; ``flagged`` (bool: any row flagged).
    """
    return _results([record(b) for b in boards])


def no_results_reason(recs: Sequence[Any]) -> str:
    """Why records (:func:`handrec.events.games.record`) give no results pages, for a director.

    >>> from handrec.model import Origin
    >>> no_results_reason([record(Board(origin=Origin("t.pbn"), number=1))])
    'no board has a result'
    """
    if not any(t.size > 0 for t in travellers(recs)):
        return "no board has a result"
    if any(v.name == "ScoreTable" for r in recs for v in r.tables):
        return "each board has at most one result and no ScoreTable holds a score"
    return "each board has at most one result and there is no ScoreTable"


def _results(recs: list[Any], known: Sequence[Any] = ()) -> tuple[dict[str, Any] | None, list[Any]]:
    """:func:`booklet_results` of the records of the boards.

    ``known``: :class:`~handrec.events.results.EventScore` values the caller has already
    computed for these records (the site scores each session once); one of the same session,
    method and cross-IMP division is used instead of scoring the session again."""
    by_path: dict[str, list[Any]] = {}
    for r in recs:
        by_path.setdefault(r.origin.path, []).append(r)
    diags: list[Any] = []
    for rs in by_path.values():
        if any(r.claims or r.tables for r in rs):
            diags.extend(check_event(rs))
    flagged = _flags(diags)
    games_flags, row_flags = flagged

    events = []
    for name, ev in group_sessions(recs):  # the sessions handrec.events.games.score_event scores
        done = next((k for k in known if k.name == name and k.method is Method.IMP and k.team_boards), None)
        if done is not None:
            team_boards, team_rankings, team_notes = list(done.team_boards), list(done.rankings), list(done.notes)
        else:
            team_boards, team_rankings, team_notes = score_teams(ev)
        if team_boards:
            method = Method.IMP
            label = _METHOD_LABELS[method.value]
            travs = _teams_view(team_boards, flagged)
            rankings = [_ranking_computed(r, method) for r in team_rankings]
            notes = [n for n in team_notes if not n.startswith("no teams")]
        else:
            trs = [t for t in travellers(ev) if t.size > 0]
            if not any(t.played >= 2 or (t.source == "ScoreTable" and t.size > 0) for t in trs):
                continue
            holders = {
                (r.event, r.board, r.deal or ""): (r.origin.path, r.origin.index)
                for r in reversed(ev)
                if any(v.name == "ScoreTable" for v in r.tables)
            }
            method = pairs_method_for(ev)
            # cross-IMPs divided as the Scoring tag says, as handrec score does without -m
            cross = (cross_for(ev) or Cross.COMPARISONS) if method is Method.CROSS_IMP else None
            scored = next(
                (k for k in known if k.name == name and k.method is method and k.cross == cross and k.travellers),
                None,
            )
            if scored is None:
                (scored,) = score_event(ev, method, cross=cross)
            label = _METHOD_LABELS[method.value] if scored.cross is None else _CROSS_LABELS[scored.cross]
            travs = [
                _traveller_view(
                    st,
                    method,
                    flagged,
                    holders.get((st.traveller.event, st.traveller.board, st.traveller.deal or ""))
                    if st.traveller.source == "ScoreTable"
                    else None,
                )
                for st in scored.travellers
            ]
            rankings = []
            for holder, view in _total_tables(ev):
                flags = {
                    i
                    for (p, b, tname, i) in row_flags
                    if tname == "TotalScoreTable" and (p, b) == (holder.origin.path, holder.origin.index)
                }
                rankings.append(_ranking_from_table(view, flags))
            if not rankings:
                rankings = [_ranking_computed(r, method) for r in scored.rankings]
            notes = list(scored.notes)
        mp = method in (Method.MP, Method.MP2)
        events.append(
            {
                "name": name if ev[0].event else "",
                "method": method.value,
                "method_label": label,
                "value_head": "MP" if mp else "IMP",
                "pct": mp,
                "columns": 2 if all(_traveller_width(t, mp) <= _HALF_WIDTH for t in travs) else 1,
                "travellers": travs,
                "rankings": rankings,
                "notes": notes,
            }
        )
    if not events:
        return None, diags
    any_flag = any(r["flag"] for ev in events for t in ev["travellers"] for r in t["rows"]) or any(
        r["flag"] for ev in events for rk in ev["rankings"] for r in rk["rows"]
    )
    return {"events": events, "flagged": any_flag}, diags
