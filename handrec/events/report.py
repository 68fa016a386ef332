"""The output of ``handrec score``: scored events as text, CSV or JSON, and exact numbers as decimals.

:func:`render` prints a list of :class:`~handrec.events.results.EventScore`: travellers,
then rankings, per event (text); one table of travellers or rankings (CSV); or one
document (JSON).  :func:`fmt_number` and :func:`fmt_percent` write exact numbers as
decimals (percentages with 2 decimals, as PBN files print them; the event checks' messages
use them too); :func:`method_title` says in words how an event was scored.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from handrec.events.methods import Cross, Method
from handrec.events.results import EventScore, Ranking, ScoredTraveller
from handrec.scoring.rubber import format_scoresheet
from handrec.scoring.traveller import ArtificialScore

__all__ = ["fmt_number", "fmt_percent", "method_title", "render"]


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
    if type(x) is int:
        return str(x)
    n, d = _parts(x)
    if d == 1:
        return str(n)
    return _decimal(n, d, places).rstrip("0").rstrip(".")


def _parts(x: Fraction | int) -> tuple[int, int]:
    """Numerator and denominator of an exact number (a float or a decimal is made exact first)."""
    if not isinstance(x, (int, Fraction)):
        x = Fraction(x)
    return x.numerator, x.denominator


def _decimal(n: int, d: int, places: int) -> str:
    """``n / d`` rounded half away from zero to exactly ``places`` decimals (as :func:`_round`),
    in integers: a site prints some hundred thousand numbers, and Fraction arithmetic is slow."""
    scale = 10**places
    r = (2 * abs(n) * scale + d) // (2 * d)  # floor(|x| * scale + 1/2)
    return f"{'-' if n < 0 and r else ''}{r // scale}.{r % scale:0{places}d}"


def fmt_percent(x: Fraction | None) -> str:
    """A percentage with exactly 2 decimals, as PBN files print them (``75.00``, ``33.33``).

    >>> fmt_percent(Fraction(100, 3)), fmt_percent(Fraction(50))
    ('33.33', '50.00')
    """
    if x is None:
        return ""
    return _decimal(*_parts(x), 2)


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
#: The title of each way of dividing cross-IMPs (:class:`~handrec.events.methods.Cross`).
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
    if any(row.names for row in r.rows):
        # pairs ranked by number (PairNS / PairEW, a USEBIO PAIR_NUMBER): who each is, beside it
        headers.insert(2, "Names")
        for cells, j, row in zip(rows, jrows, r.rows):
            cells.insert(2, row.names or "")
            j["names"] = row.names
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


def render(events: Sequence[EventScore], fmt: str = "text", table: str | None = None) -> str:
    """The scored events as ``text`` (travellers, then rankings, per event; with ``table``
    ``"travellers"`` or ``"rankings"`` only that table, under each event's title line and
    before its notes), ``csv`` (one
    table with its header and an ``event`` column: ``table`` ``"travellers"``, a row per
    result, per deal of a session or per teams board, or ``"rankings"``, a row per pair
    or team of each ranking) or ``json`` (``{"method", "events": [{"event", "method",
    "travellers", "rankings", "notes"}]}``; numbers rounded to 2 decimals; the top-level
    ``method`` is the events' method, ``"mixed"`` when they differ).  The travellers CSV
    has a ``method`` column; events scored by different methods give the union of their
    columns (a row leaves the others empty).

    ``table`` ``None``: both tables in text, travellers in CSV; JSON always holds both.

    :raises ValueError: for another ``fmt`` or ``table``.
    """
    if table not in (None, "travellers", "rankings"):
        raise ValueError(f"unknown table {table!r}")
    if fmt == "json":
        return _render_json(events)
    if fmt == "csv":
        return _render_csv(events, table or "travellers")
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}")
    return _render_text(events, table)


def _render_text(events: Sequence[EventScore], table: str | None = None) -> str:
    out: list[str] = []
    for ev in events:
        if out:
            out.append("")
        title = ev.name
        out.append(f"{title}: {method_title(ev)}")
        if table == "rankings":
            pass  # the rankings only
        elif ev.method.is_session:
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
        for r in ev.rankings if table != "travellers" else ():
            out.append("")
            out.append(f"Ranking {r.title}" if r.title not in ("sides",) else "Totals")
            headers, rows, _ = _ranking_table(r, ev.method)
            first = 3 if "Names" in headers else 2  # the figures, right-aligned: after the pair (and its names)
            out.extend(_grid(headers, rows, set(range(first, len(headers)))))
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
    # names: the players of a pair ranked by its number (empty when the name is the players already)
    w.writerow(["event", "ranking", "rank", "name", "boards", "total", "top", "pct", "against", "names"])
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
                        row.names or "",
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
