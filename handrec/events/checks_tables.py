"""The claimed supplemental tables checked: each ScoreTable row (S607, S611) and TotalScoreTable row (S608).

A ScoreTable's Score_NS / Score_EW against the row's contract and result (Law 77), its
Rank, MP_*, Percentage_* and IMP_* columns against the table's own results (or the
board's larger table); a TotalScoreTable's means, ranks and common top, and its pairs'
totals against the event scored as ``handrec score`` does.  Part of
:func:`handrec.events.checks.check_event` (the module doc there says what each code checks).

Sources: PBN 2.1 §5.3; bridge-rules.md §8; Law 12C2; Law 77.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from handrec.diagnostics import make
from handrec.events.checks_tags import _at, _Context, _imp_methods
from handrec.events.claims import _NUM, _decimals, agrees
from handrec.events.games import GameRecord, TableView
from handrec.events.methods import Method, cross_for
from handrec.events.pairs import score_matchpoints, score_pairs
from handrec.events.report import fmt_number, fmt_percent
from handrec.events.travellers import Entry, Traveller, row_score, table_entries, travellers
from handrec.rules.board import scoring_fields
from handrec.scoring import MAX_MULTIPLICITY
from handrec.scoring.traveller import Scale, artificial_mp, top


def _num(text: str) -> tuple[Fraction, int, bool] | None:
    """(value, decimals, artificial) of a numeric cell (``^`` prefix = artificial; quotes allowed)."""
    t = text.strip().strip('"').strip()
    art = t.startswith("^")
    t = t.lstrip("^").strip()
    if not re.fullmatch(_NUM, t):
        return None
    return Fraction(t), _decimals(t), art


def _rank(text: str) -> int | None:
    m = re.match(r"\s*(\d+)", text)
    return int(m.group(1)) if m else None


def _cell(_view: TableView, row: tuple[str, ...], i: int | None) -> str:
    return row[i] if i is not None and i < len(row) else "?"


def _check_tables(ctx: _Context) -> None:
    """S607 / S608 for every ScoreTable and TotalScoreTable of the input."""
    reference: dict[object, tuple[TableView, list[Entry], GameRecord]] = {}
    tables: list[tuple[GameRecord, TableView, list[Entry]]] = []
    for r in ctx.recs:
        for v in r.tables:
            if v.name != "ScoreTable" or not v.rows:
                continue
            es = table_entries(v, r.vulnerable)
            tables.append((r, v, es))
            key = r.key
            size = sum(e.multiplicity for e in es)
            if key is not None and (key not in reference or size > sum(e.multiplicity for e in reference[key][1])):
                reference[key] = (v, es, r)
    for r, v, es in tables:
        ref = reference.get(r.key) if r.key is not None else None
        base = es
        if ref is not None and ref[0] is not v and _subset(es, ref[1]):
            base = ref[1]
        _check_score_table(ctx, r, v, es, base)
    for r in ctx.recs:
        for v in r.tables:
            if v.name == "TotalScoreTable" and v.rows:
                _check_total_table(ctx, r, v)


def _subset(small: list[Entry], big: list[Entry]) -> bool:
    count: dict[int, int] = {}
    for e in big:
        if e.score_ns is not None:
            count[e.score_ns] = count.get(e.score_ns, 0) + e.multiplicity
    for e in small:
        if e.score_ns is None:
            return False
        count[e.score_ns] = count.get(e.score_ns, 0) - e.multiplicity
        if count[e.score_ns] < 0:
            return False
    return True


def _row_fault(
    ctx: _Context,
    code: str,
    r: GameRecord,
    v: TableView,
    i: int,
    column: str,
    value: str,
    detail: str,
    expected: str,
    note: str = "",
) -> None:
    """S607 (a ScoreTable row), S608 (a TotalScoreTable row) or S611: a claimed element that
    disagrees, at the element (``column`` of row ``i``) when its position is known, else at
    the row, else at the table tag (PBN 2.1 §5.3)."""
    ctx.out.append(
        make(
            code,
            r.origin,
            _at(r, v.cell_span(i, column)),
            row=i + 1,
            column=column,
            value=value.strip(),
            detail=detail,
            expected=expected,
            note=note,
        )
    )


def _check_score_table(ctx: _Context, r: GameRecord, v: TableView, es: list[Entry], base: list[Entry]) -> None:
    """One ScoreTable: its rows against the Laws and against the traveller ``base`` (its own rows or a larger table)."""
    ix = v.index
    i_sns, i_sew = ix("Score_NS"), ix("Score_EW")
    i_c, i_d, i_r = ix("Contract"), ix("Declarer"), ix("Result")
    # --- scores against contract and result (Law 77) ------------------------------------------
    for n, row in enumerate(v.rows):
        sns = _num(_cell(v, row, i_sns))
        sew = _num(_cell(v, row, i_sew))
        contract, decl = _cell(v, row, i_c).strip(), _cell(v, row, i_d).strip()
        res = _num(_cell(v, row, i_r))
        tricks = int(res[0]) if res is not None and res[0].denominator == 1 else None
        computed = row_score(contract, decl, tricks, r.vulnerable)
        ns_value = sns[0] if sns is not None and not sns[2] else None
        if ns_value is not None and computed is not None and ns_value != computed:
            _row_fault(
                ctx,
                "S607",
                r,
                v,
                n,
                "Score_NS",
                _cell(v, row, i_sns),
                f"{contract} by {decl} taking {tricks} tricks ({r.vulnerable} vulnerable)",
                str(computed),
            )
        ref_ns = computed if computed is not None else ns_value
        if sew is not None and not sew[2] and ref_ns is not None and sew[0] != -ref_ns:
            _row_fault(ctx, "S607", r, v, n, "Score_EW", _cell(v, row, i_sew), "the N-S score", str(-ref_ns))
    # --- comparisons with the other results --------------------------------------------------
    trav = Traveller(r.event, r.board, r.deal, tuple(base), "ScoreTable", r.date)
    n_all = trav.size
    i_rank = ix("Rank")
    if i_rank is not None:
        for row, e in zip(v.rows, es):
            rk = _rank(_cell(v, row, i_rank))
            if rk is not None and rk + e.multiplicity - 1 > n_all:
                return  # an incomplete traveller: its rows cannot be compared
    scores = trav.scores()
    if len(scores) < 2:
        return
    by_score = _score_index(base)
    place = "the table" if base is es else "the board's larger table"
    what = f"the {n_all} results of {place}"
    # Rank: 1 + the results with a better N-S score
    if i_rank is not None:
        for n, (row, e) in enumerate(zip(v.rows, es)):
            rk = _rank(_cell(v, row, i_rank))
            if rk is None or e.score_ns is None:
                continue
            exp = 1 + sum(1 for s in scores if s > e.score_ns)
            if rk != exp:
                _row_fault(
                    ctx, "S607", r, v, n, "Rank", _cell(v, row, i_rank), f"N-S {e.score_ns} among {what}", str(exp)
                )
    _check_table_mp(ctx, r, v, es, trav, by_score, what)
    _check_table_imps(ctx, r, v, es, trav, place)


def _score_index(base: list[Entry]) -> dict[int, int]:
    """N-S score -> index of its first entry in ``base``."""
    out: dict[int, int] = {}
    for i, e in enumerate(base):
        if e.score_ns is not None and e.score_ns not in out:
            out[e.score_ns] = i
    return out


def _check_table_mp(
    ctx: _Context,
    r: GameRecord,
    v: TableView,
    es: list[Entry],
    trav: Traveller,
    by_score: dict[int, int],
    what: str,
) -> None:
    """MP_* and Percentage_* columns of a ScoreTable (bridge-rules.md §8.3; Law 12C2)."""
    cols = {c: v.index(c) for c in ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW")}
    if all(i is None for i in cols.values()):
        return
    scored = {scale: score_matchpoints(trav, scale) for scale in (Scale.MP, Scale.MP2)}
    n = trav.size

    def values(e: Entry, scale: Scale) -> tuple[Fraction, Fraction, Fraction | None, Fraction | None] | None:
        if e.score_ns is not None:
            j = by_score.get(e.score_ns)
            if j is None:
                return None
            se = scored[scale].entries[j]
        elif e.artificial is not None:
            a = artificial_mp(e.artificial[0], n, scale=scale)
            b = artificial_mp(e.artificial[1], n, scale=scale)
            t = top(n, scale)
            return a, b, (100 * a / t if t else None), (100 * b / t if t else None)
        else:
            return None
        if se.ns is None or se.ew is None:
            return None
        return se.ns, se.ew, se.pct_ns, se.pct_ew

    # the scale of the MP columns: declared by Scoring, else the one most rows agree with
    f = scoring_fields(r.scoring)
    scales = [Scale.MP] if "MP2" in f else [Scale.MP2] if "MP1" in f else [Scale.MP2, Scale.MP]
    if len(scales) > 1:
        fits = {s: 0 for s in scales}
        for row, e in zip(v.rows, es):
            for s in scales:
                vals = values(e, s)
                for k, col in enumerate(("MP_NS", "MP_EW")):
                    c = _num(_cell(v, row, cols[col]))
                    if vals is not None and c is not None and agrees(c[0], c[1], vals[k]):
                        fits[s] += 1
        scales = [max(scales, key=lambda s: fits[s])]
    scale = scales[0]
    scale_text = "2/1" if scale is Scale.MP2 else "1/0.5"
    for n_row, (row, e) in enumerate(zip(v.rows, es)):
        vals = values(e, scale)
        if vals is None:
            continue
        for k, col in enumerate(("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW")):
            cell = _cell(v, row, cols[col])
            c = _num(cell)
            exact = vals[k]
            if c is None or exact is None or agrees(c[0], c[1], exact):
                continue
            detail = f"matchpointing {what} on the {scale_text} scale" if k < 2 else f"100 * MP / top over {what}"
            shown = fmt_number(exact) if k < 2 else fmt_percent(exact)
            if k < 2 and c[0] == _cut(exact, c[1]):
                # a writer's convention (Scorer), not a wrong figure: a warning (S617)
                _row_fault(ctx, "S617", r, v, n_row, col, cell, detail, shown)
                continue
            if k >= 2 and e.score_ns is not None:
                # a known non-standard formula, each result also compared with itself: a warning (S611)
                own = vals[0] if col == "Percentage_NS" else vals[1]
                alt = 100 * (own / scale.value + Fraction(1, 2)) / n
                if agrees(c[0], c[1], alt):
                    note = f"100 * (MP + 1/2) / n = {fmt_percent(alt)}"
                    _row_fault(ctx, "S611", r, v, n_row, col, cell, what, shown, note)
                    continue
            _row_fault(ctx, "S607", r, v, n_row, col, cell, detail, shown)


def _cut(exact: Fraction, decimals: int) -> Fraction:
    """``exact`` cut (truncated toward zero) to ``decimals`` digits: 20.29 -> 20.2 at one."""
    scale = 10**decimals
    return Fraction(math.trunc(exact * scale), scale)


def _check_table_imps(ctx: _Context, r: GameRecord, v: TableView, es: list[Entry], trav: Traveller, place: str) -> None:
    """IMP_NS / IMP_EW columns by the Scoring modifiers (Butler, Cross*); ``place``: the table's
    words in the messages (``the table``)."""
    cols = {c: v.index(c) for c in ("IMP_NS", "IMP_EW")}
    if all(i is None for i in cols.values()):
        return
    scores = trav.scores()
    for n_row, (row, e) in enumerate(zip(v.rows, es)):
        if e.score_ns is None:
            continue
        m = _imp_methods(r, scores, e.score_ns, place)
        if m is None:
            return
        desc, options = m
        for sign, col in ((1, "IMP_NS"), (-1, "IMP_EW")):
            cell = _cell(v, row, cols[col])
            c = _num(cell)
            if c is None or any(agrees(c[0], c[1], sign * o) for o in options):
                continue
            _row_fault(ctx, "S607", r, v, n_row, col, cell, desc, fmt_number(sign * options[-1]))


# --- TotalScoreTable -----------------------------------------------------------------------

_TOTAL_ALIASES = {
    "TotalMP": ("TotalMP", "MP"),
    "TotalPercentage": ("TotalPercentage", "Percentage"),
    "TotalIMP": ("TotalIMP", "IMP"),
    "TotalScore": ("TotalScore", "Score"),
}


def _check_total_table(ctx: _Context, r: GameRecord, v: TableView) -> None:
    """One TotalScoreTable: internal consistency, then against the event when its boards are here."""
    ix = v.index
    cols = {k: ix(*names) for k, names in _TOTAL_ALIASES.items()}
    names = {k: (v.columns[i] if i is not None else k) for k, i in cols.items()}
    i_nb = ix("NrBoards")
    rows = v.rows
    # Mean* = Total* / NrBoards
    if i_nb is not None:
        for mean, total in (
            ("MeanMP", "TotalMP"),
            ("MeanPercentage", "TotalPercentage"),
            ("MeanIMP", "TotalIMP"),
            ("MeanScore", "TotalScore"),
        ):
            i_mean, i_tot = ix(mean), cols[total]
            if i_mean is None or i_tot is None:
                continue
            for n, row in enumerate(rows):
                m, t, nb = _num(_cell(v, row, i_mean)), _num(_cell(v, row, i_tot)), _num(_cell(v, row, i_nb))
                if m is None or t is None or nb is None or nb[0] <= 0:
                    continue
                exact = t[0] / nb[0]
                if not agrees(m[0], m[1], exact):
                    _row_fault(
                        ctx,
                        "S608",
                        r,
                        v,
                        n,
                        mean,
                        _cell(v, row, i_mean),
                        f"{names[total]} {_cell(v, row, i_tot).strip()} / NrBoards {_cell(v, row, i_nb).strip()}",
                        fmt_number(exact),
                    )
    # a common top per board: Percentage = 100 * MP / (NrBoards * top)
    i_mp, i_pct = cols["TotalMP"], cols["TotalPercentage"]
    if i_mp is not None and i_pct is not None and i_nb is not None and len(rows) >= 3:
        implied: list[tuple[int, Fraction, Fraction, Fraction, int, int] | None] = []
        for row in rows:
            mp, pct, nb = _num(_cell(v, row, i_mp)), _num(_cell(v, row, i_pct)), _num(_cell(v, row, i_nb))
            if mp is None or pct is None or nb is None or nb[0] <= 0 or pct[0] <= 0:
                implied.append(None)
                continue
            t = 100 * mp[0] / (nb[0] * pct[0])
            implied.append((round(t), mp[0], nb[0], pct[0], pct[1], mp[1]))
        tops = [x[0] for x in implied if x is not None]
        if tops:
            common = max(set(tops), key=tops.count)
            if 2 * tops.count(common) > len(tops) and common > 0:
                for n, x in enumerate(implied):
                    if x is None:
                        continue
                    _, mp, nb, pct, dec, mp_dec = x
                    exact = 100 * mp / (nb * common)
                    # the total is itself rounded: its half unit moves the percentage too
                    slack = 100 * Fraction(1, 2 * 10**mp_dec) / (nb * common)
                    if not (agrees(pct, dec, exact) or abs(pct - exact) <= Fraction(1, 2 * 10**dec) + slack):
                        row = rows[n]
                        mp_text, nb_text = _cell(v, row, i_mp).strip(), _cell(v, row, i_nb).strip()
                        if exact > 100:
                            # no percentage: the row's MP and NrBoards disagree (NrBoards, likely)
                            detail = (
                                f"100 * {names['TotalMP']} {mp_text} / (NrBoards {nb_text} * a top of {common}"
                                " per board, as the other rows)"
                            )
                            note = f", more than 100: NrBoards or {names['TotalMP']} is wrong"
                        else:
                            detail = (
                                f"{names['TotalMP']} {mp_text} over NrBoards {nb_text} on a top of {common}"
                                " per board (as the other rows)"
                            )
                            note = ""
                        _row_fault(
                            ctx,
                            "S608",
                            r,
                            v,
                            n,
                            names["TotalPercentage"],
                            _cell(v, row, i_pct),
                            detail,
                            fmt_percent(exact),
                            note,
                        )
    _check_total_ranks(ctx, r, v, cols)
    _check_total_against_event(ctx, r, v, cols, i_nb)


def _check_total_ranks(ctx: _Context, r: GameRecord, v: TableView, cols: dict[str, int | None]) -> None:
    """Rank = 1 + the rows with a better value in the sorted column (the first with a ``+``/``-``
    marker other than Rank, else the percentage, MP, IMP or score column, descending)."""
    i_rank = v.index("Rank")
    if i_rank is None:
        return
    key_i, descending = None, True
    for i, (c, s) in enumerate(zip(v.columns, v.sort)):
        if s is not None and c.lower() != "rank":
            # a score, matchpoint, IMP or percentage total ranks higher-is-better whatever the
            # marker says (a wrong marker is T125's business); another column follows its marker
            key_i = i
            descending = s == "+" or any(w in c.lower() for w in ("percentage", "mp", "imp", "score"))
            break
    if key_i is None:
        key_i = next(
            (cols[k] for k in ("TotalPercentage", "TotalMP", "TotalIMP", "TotalScore") if cols[k] is not None), None
        )
    if key_i is None:
        return
    values = [_num(_cell(v, row, key_i)) for row in v.rows]
    i_m = v.index("Multiplicity")
    mult = [(_num(_cell(v, row, i_m)) if i_m is not None else None) for row in v.rows]
    weights = [int(m[0]) if m is not None and 1 <= m[0] <= MAX_MULTIPLICITY else 1 for m in mult]
    for n, row in enumerate(v.rows):
        rk = _rank(_cell(v, row, i_rank))
        x = values[n]
        if rk is None or x is None:
            continue
        better = sum(
            w for y, w in zip(values, weights) if y is not None and ((y[0] > x[0]) if descending else (y[0] < x[0]))
        )
        if rk != better + 1:
            _row_fault(
                ctx,
                "S608",
                r,
                v,
                n,
                "Rank",
                _cell(v, row, i_rank),
                f"the order of {v.columns[key_i]} {_cell(v, row, key_i).strip()}",
                str(better + 1),
            )


def _check_total_against_event(
    ctx: _Context, r: GameRecord, v: TableView, cols: dict[str, int | None], i_nb: int | None
) -> None:
    """NrBoards, TotalMP, TotalPercentage, TotalIMP of pairs whose boards are in the input."""
    session = r.session
    recs = [x for x in ctx.recs if x.session == session]
    trs = [t for t in travellers(recs) if t.size > 1]
    if not trs:
        return
    f = scoring_fields(r.scoring)
    methods: list[Method] = []
    if cols["TotalMP"] is not None or cols["TotalPercentage"] is not None:
        methods += [Method.MP] if "MP2" in f else [Method.MP2] if "MP1" in f else [Method.MP2, Method.MP]
    if cols["TotalIMP"] is not None:
        if any(x.startswith("BUTLER") for x in f):
            methods.append(Method.BUTLER)
        elif any(x.startswith("CROSS") for x in f):
            methods.append(Method.CROSS_IMP)
    if not methods and i_nb is None:
        return
    # name: (total, top, percentage, boards, the most boards a pair of its ranking played)
    totals: dict[Method, dict[str, tuple[Fraction, Fraction | None, Fraction | None, int, int]]] = {}
    cross = cross_for([r])  # TotalIMP of cross-IMPs: summed or divided as the table's Scoring says
    for m in methods or [Method.MP]:
        _, rankings, _ = score_pairs(trs, m, neuberg=True, cross=cross)
        t: dict[str, tuple[Fraction, Fraction | None, Fraction | None, int, int]] = {}
        for rk in rankings:
            most = max((row.boards for row in rk.rows), default=0)
            for row in rk.rows:
                t[row.name] = (row.total, row.top, row.pct, row.boards, most)
        totals[m] = t
    i_pid, i_names = v.index("PairId"), v.index("Names")
    for n, row in enumerate(v.rows):
        pid = _cell(v, row, i_pid).strip().strip('"') if i_pid is not None else ""
        nm = _cell(v, row, i_names).strip().strip('"') if i_names is not None else ""
        label = " - ".join(p.strip() for p in nm.split(";") if p.strip())
        found = {m: t.get(pid) or t.get(label) for m, t in totals.items()}
        anyf = next((x for x in found.values() if x is not None), None)
        if anyf is None:
            continue
        if i_nb is not None:
            nb = _num(_cell(v, row, i_nb))
            if nb is not None and nb[0] != anyf[3]:
                _row_fault(
                    ctx,
                    "S608",
                    r,
                    v,
                    n,
                    "NrBoards",
                    _cell(v, row, i_nb),
                    "counting the pair's results in the file",
                    str(anyf[3]),
                )
        for col, k, fmt in (
            ("TotalMP", 0, fmt_number),
            ("TotalPercentage", 2, fmt_percent),
            ("TotalIMP", 0, fmt_number),
        ):
            i = cols[col]
            c = _num(_cell(v, row, i)) if i is not None else None
            if c is None:
                continue
            ms = [m for m in found if (m in (Method.MP, Method.MP2)) == (col != "TotalIMP")]
            options = [found[m][k] for m in ms if found[m] is not None and found[m][k] is not None]
            if not options or any(agrees(c[0], c[1], o) for o in options):
                continue
            if col == "TotalMP" and _factored(ctx, r, v, n, v.columns[i], _cell(v, row, i), c, ms, found):
                continue
            _row_fault(
                ctx,
                "S608",
                r,
                v,
                n,
                v.columns[i],
                _cell(v, row, i),
                f"scoring the pair's {anyf[3]} board{'s' if anyf[3] != 1 else ''} in the file",
                fmt(options[0]),
            )


def _factored(
    ctx: _Context,
    r: GameRecord,
    v: TableView,
    n: int,
    column: str,
    cell: str,
    c: tuple[Fraction, int],
    ms: list[Method],
    found: dict[Method, Any],
) -> bool:
    """Whether the claimed ``TotalMP`` ``c`` is the pair's match points factored to the boards of
    its field: scored on ``b`` boards where the most a pair of its ranking played is ``B``,
    times ``B / b`` (a pair that missed a board or sat out, as Compscore writes it; matchpoints:
    bridge-rules.md §8.3).  Then an S618 note is added, and no S608."""
    for m in ms:
        f = found[m]
        if f is None or not 0 < f[3] < f[4]:
            continue
        total, played, most = f[0], f[3], f[4]
        if agrees(c[0], c[1], total * most / played):
            ctx.out.append(
                make(
                    "S618",
                    r.origin,
                    _at(r, v.cell_span(n, column)),
                    row=n + 1,
                    column=column,
                    value=cell.strip(),
                    total=fmt_number(total),
                    boards=played,
                    field=most,
                )
            )
            return True
    return False
