"""USEBIO as PBN tables: a traveller with an adjusted score, the participants.

A traveller with an adjusted score becomes a ScoreTable (PBN carries artificial scores only
there, PBN 2.1 §5.3), the participants TotalScoreTables (their places, totals and
percentages, checked by :mod:`handrec.events.checks`, S607, S608).
"""

from __future__ import annotations

from handrec.formats.usebio.structure import (
    _METHOD_TAGS,
    Base,
    Game,
    Pair,
    Section,
    law_score,
    same_number,
    table_header,
)
from handrec.formats.usebio.xml import Element
from handrec.model import Column, Span, Table, Tag

__all__ = ["Tables"]


class Tables(Base):
    """Adds the tables to the games read (:meth:`_tables`)."""

    method: str
    winner: str

    def _tables(self, games: list[Game], sections: list[Section]) -> None:
        groups: dict[tuple[object, ...], list[Game]] = {}
        for g in games:
            if not any(t.name == "Room" for t in g.tags):
                groups.setdefault(g.key, []).append(g)
        with_table: set[int] = set()
        for gs in groups.values():
            if any(g.adjusted is not None for g in gs):
                gs[0].tables.append(self._score_table(gs))
                gs[0].tags.append(Tag("ScoreTable", table_header(gs[0].tables[-1]), None))
                with_table.update(id(g) for g in gs)
        for g in games:  # the claims of a board without a ScoreTable go on its games
            if g.claim is not None and id(g) not in with_table:
                tag, value, el = g.claim
                g.tags.append(Tag(tag, value, None if el is None else Span(el.line - g.line.line + 1, el.column)))
        for g, t in self._total_tables(sections, games):
            g.tables.append(t)
            g.tags.append(Tag("TotalScoreTable", table_header(t), t.span))

    def _score_table(self, gs: list[Game]) -> Table:
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
            agrees = g.score is not None and g.score == law_score(g)
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

    def _total_tables(self, sections: list[Section], games: list[Game]) -> list[tuple[Game, Table]]:
        """The participants' TotalScoreTables, each with the game that carries it (the first
        game, and the second for the EW winners), positions relative to that game's line."""
        if not games:
            return []
        everyone = [p for s in sections for p in s.pairs.values()]
        if not everyone:
            return []
        groups: list[list[Pair]]
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
            and same_number(p.element.value("TOTAL_SCORE"), p.element.value("PERCENTAGE"))
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
                    p.label or p.number,
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
