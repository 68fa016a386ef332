"""Results pages of the booklet: travellers and rankings computed by handrec, in the PDF and the HTML.

The values are checked as a reader sees them: the PDF text (pypdf) and the
HTML table cells.  A small club event written here (matchpoints worked out by
hand), and real files of the shared corpus: a ScoreTable with 155 results and
a TotalScoreTable, PbnTools travellers as games, a teams match.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from handrec.booklet import pdf as rp
from handrec.booklet.html import render_html
from handrec.booklet.results_pages import booklet_results
from handrec.booklet.views import distinct_boards
from handrec.cli import app
from handrec.formats.dispatch import read

DEAL1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DEAL2 = "N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982"
EVENT = "Club #1 *Pairs* $x$ <b>"
# board, dealer, vulnerable, deal; results: pair N-S, pair E-W, contract, declarer, tricks, extra tags.
RESULTS = [
    (1, "N", "None", DEAL1, [
        ("1", "5", "4S", "N", 10, {}),
        ("2", "6", "4S", "N", 11, {}),
        ("3", "7", "4S", "N", 10, {"ScoreMP": "NS 0.5"}),  # wrong: 1.5 (or 3 on the 2/1 scale)
        ("4", "8", "5SX", "N", 10, {}),
    ]),
    (2, "E", "NS", DEAL2, [
        ("1", "6", "3NT", "S", 9, {}),
        ("2", "7", "3NT", "S", 8, {}),
        ("3", "8", "2H", "W", 8, {}),
        ("4", "5", "3NT", "S", 10, {}),
    ]),
]  # fmt: skip

# The travellers as a club prints them, best N-S score first:
# N-S, E-W, contract, by, result, +N-S, +E-W, MP N-S, MP E-W, % N-S (top 3 on the 1 / 0.5 scale).
BOARD1 = [
    "2 6 4♠ N +1 450 3 0 100.00",
    "1 5 4♠ N = 420 1.5 1.5 50.00",
    "3 7 4♠ N = 420 1.5 1.5 50.00 †",
    "4 8 5♠x N −1 100 0 3 0.00",
]
BOARD2 = [
    "4 5 3NT S +1 630 3 0 100.00",
    "1 6 3NT S = 600 2 1 66.67",
    "2 7 3NT S −1 100 1 2 33.33",
    "3 8 2♥ W = 110 0 3 0.00",
]
RANK_NS = ["1 2 2 4 6 66.67", "2 1 2 3.5 6 58.33", "3 4 2 3 6 50.00", "4 3 2 1.5 6 25.00"]
RANK_EW = ["1 8 2 6 6 100.00", "2 7 2 3.5 6 58.33", "3 5 2 1.5 6 25.00", "4 6 2 1 6 16.67"]


def event_pbn() -> str:
    out = []
    for board, dealer, vul, deal, results in RESULTS:
        for ns, ew, contract, declarer, tricks, extra in results:
            tags = {
                "Event": EVENT,
                "Site": "Riverside",
                "Date": "2026.11.01",
                "Board": str(board),
                "PairNS": ns,
                "PairEW": ew,
                "Dealer": dealer,
                "Vulnerable": vul,
                "Deal": deal,
                "Declarer": declarer,
                "Contract": contract,
                "Result": str(tricks),
                **extra,
            }
            out.extend(f'[{k} "{v}"]' for k, v in tags.items())
            out.append("")
    return "\n".join(out)


@pytest.fixture
def event_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.pbn"
    path.write_text(event_pbn(), encoding="utf-8")
    return path


def pdf_text(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def lines_after(text: str, marker: str, count: int) -> list[str]:
    """The ``count`` table rows after the header line that follows ``marker``."""
    lines = [ln.strip() for ln in text.splitlines()]
    start = next(i for i, ln in enumerate(lines) if ln.startswith(marker))
    header = next(i for i in range(start, len(lines)) if lines[i].endswith(("% N-S", "%")))
    return lines[header + 1 : header + 1 + count]


class Tables(HTMLParser):
    """Rows of the HTML traveller and ranking tables: {caption: [[cell text, ...], ...]}."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.flags: dict[str, list[bool]] = {}
        self.scores: dict[str, list[str]] = {}
        self._caption: str | None = None
        self._in_caption = False
        self._in_body = False
        self._cell: list[str] | None = None
        self._key = ""
        self._n = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and a.get("class") in ("traveller", "ranking"):
            self._key = ""
            self._n += 1
        elif tag == "caption":
            self._in_caption = True
            self._caption = ""
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.tables[self._key].append([])
            self.flags[self._key].append(a.get("class") == "flagged")
            if "data-score" in a:
                self.scores.setdefault(self._key, []).append(a["data-score"] or "")
        elif tag == "td" and self._in_body:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._in_caption = False
            self._key = f"{self._n}:{self._caption}"
            self.tables[self._key] = []
            self.flags[self._key] = []
        elif tag == "tbody":
            self._in_body = False
        elif tag == "td" and self._cell is not None:
            self.tables[self._key][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self._caption = (self._caption or "") + data
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> Tables:
    t = Tables()
    t.feed(html)
    return t


def by_caption(t: Tables, start: str) -> list[list[str]]:
    (key,) = [k for k in t.tables if k.split(":", 1)[1].startswith(start)]
    return t.tables[key]


# ---------------------------------------------------------------------------
# A club event written here


def test_results_data_by_hand(event_file: Path) -> None:
    boards = list(read(event_file))
    assert len(boards) == 8 and len(distinct_boards(boards)) == 2
    data, diags = booklet_results(boards)
    assert [d.code for d in diags] == ["S603"]
    assert data is not None and data["flagged"]
    (ev,) = data["events"]
    assert ev["name"] == EVENT and ev["method"] == "mp"
    t1, t2 = ev["travellers"]
    assert [(r["ns"], r["ew"], r["score_ns"], r["score_ew"], r["ns_value"], r["ew_value"]) for r in t1["rows"]] == [
        ("2", "6", "450", "", "3", "0"),
        ("1", "5", "420", "", "1.5", "1.5"),
        ("3", "7", "420", "", "1.5", "1.5"),
        ("4", "8", "", "100", "0", "3"),
    ]
    assert [r["flag"] for r in t1["rows"]] == [False, False, True, False]
    assert t1["info"] == "top 3" and t2["rows"][0]["contract"] == {
        "text": "",
        "level": "3",
        "strain": "NT",
        "doubling": "",
        "result": "+1",
    }
    assert [r["title"] for r in ev["rankings"]] == ["Ranking N-S", "Ranking E-W"]


def test_results_in_pdf_text(event_file: Path) -> None:
    diags: list = []
    pdf = rp.render_pdf(read(event_file), diagnostics=diags)
    pages = pdf_text(pdf)
    assert len(pages) == 2  # the two boards' diagrams once each, then the results
    assert pages[0].count("BOARD") == 2
    text = pages[1]
    assert "Results" in text and EVENT in text  # the event name verbatim, never read as Typst markup
    assert "Matchpoints, top n\u22121" in text
    assert lines_after(text, "Board 1", 4) == BOARD1
    assert lines_after(text, "Board 2", 4) == BOARD2
    assert lines_after(text, "Ranking N-S", 4) == RANK_NS
    assert lines_after(text, "Ranking E-W", 4) == RANK_EW
    assert "\u2020 The file\u2019s own figure" in text or "\u2020 The file's own figure" in text
    assert [str(d) for d in diags] == [
        f"{event_file}:39:1: S603 error: ScoreMP NS 0.5 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3"
    ]


def test_results_in_html(event_file: Path) -> None:
    html = render_html(read(event_file))
    assert "Club #1 *Pairs* $x$ &lt;b&gt;" in html and "<b>" not in html
    t = html_tables(html)
    b1 = by_caption(t, "Board 1")
    assert [" ".join(c for c in row if c) for row in b1] == [ln.removesuffix(" †") for ln in BOARD1[:2]] + [
        "3 7 4♠ N = 420 1.5 1.5 50.00 †",
        "4 8 5♠x N −1 100 0 3 0.00",
    ]
    assert [" ".join(c for c in row if c) for row in by_caption(t, "Board 2")] == BOARD2
    assert [" ".join(c for c in row if c) for row in by_caption(t, "Ranking N-S")] == RANK_NS
    assert [" ".join(c for c in row if c) for row in by_caption(t, "Ranking E-W")] == RANK_EW
    key = next(k for k in t.tables if k.endswith("Board 1 top 3"))
    assert t.flags[key] == [False, False, True, False]
    assert t.scores[key] == ["450", "420", "420", "-100"]


def test_no_results_option_and_single_results(event_file: Path) -> None:
    assert "Results" not in pdf_text(rp.render_pdf(read(event_file), results=False))[-1]
    assert 'class="results' not in render_html(read(event_file), results=False)
    # One result per board: nothing to compare, no results pages.
    one = [b for b in read(event_file) if b.tag("PairNS") == "1"]
    data, _ = booklet_results(one)
    assert data is None
    assert len(pdf_text(rp.render_pdf(one))) == 1


def test_cli_results_title_and_diagnostics(event_file: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "b.pdf"
    title = "Thursday #7 [draft] *\\* @x"
    r = runner.invoke(app, ["booklet", str(event_file), "-o", str(out), "--title", title])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        f"{event_file}:39:1: S603 error: ScoreMP NS 0.5 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3",
        f"8 boards (2 diagrams) -> {out}",
    ]
    pages = pdf_text(out.read_bytes())
    assert pages[0].startswith(title) and pages[1].startswith(title)
    assert lines_after(pages[1], "Board 1", 4) == BOARD1
    html = tmp_path / "b.html"
    r = runner.invoke(app, ["booklet", str(event_file), "-o", str(html), "--no-results", "--title", "<i>x</i>"])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [f"8 boards (2 diagrams) -> {html}"]
    text = html.read_text(encoding="utf-8")
    assert "&lt;i&gt;x&lt;/i&gt;" in text and "traveller" not in text.split("<body>")[1]


# ---------------------------------------------------------------------------
# Real files


def test_score_table_and_total_score_table(corpus_dir: Path) -> None:
    """PBN 2.0 reference file: a ScoreTable of 155 results (Multiplicity) and a TotalScoreTable.

    handrec scores the table itself (2 / 1 scale as its Scoring tag says: top 2(155-1) = 308) and
    marks the rows whose Percentage_NS / Percentage_EW the file computed another way (S611).
    """
    path = corpus_dir / "pbn" / "pbn20_reference_score_tables.pbn"
    diags: list = []
    pages = pdf_text(rp.render_pdf(read(path), diagnostics=diags))
    text = "\n".join(pages)
    assert any(d.code == "S611" for d in diags) and any(d.code == "S608" for d in diags)
    i = text.index("Board 1 top 308")
    rows = lines_after(text[i:], "Board 1 top 308", 26)
    # +N-S, +E-W, times, MP N-S, MP E-W, % N-S (no pair or contract columns in this table)
    assert rows[0] == "500 2 307 1 99.68 †"
    assert rows[1] == "470 304 4 98.70 †"
    assert rows[4] == "420 12 279 29 90.58 †"
    assert rows[-1] == "470 0 308 0.00 †"
    # The ranking is the file's TotalScoreTable, names joined.
    assert "1 581 Sergey OSTRIKOV - Oleg ODINTSEV 20 1449.8 72.49" in text
    html = html_tables(render_html(read(path)))
    table = next(rows for k, rows in html.tables.items() if k.endswith("Board 1 top 308"))
    assert [c for c in table[0] if c] == ["500", "2", "307", "1", "99.68", "†"]
    assert sum(1 for k in html.tables if k.endswith("Session ranking")) == 1


def test_travellers_as_games_polish_butler(corpus_dir: Path) -> None:
    """PbnTools: each table's result a game (27 boards x 4), Scoring "IMP" without rooms: Butler."""
    path = corpus_dir / "pbn" / "pbntools_polish_kops_latin1_travellers.pbn"
    boards = list(read(path))
    data, diags = booklet_results(boards)
    assert diags == [] and data is not None
    (ev,) = data["events"]
    assert ev["method"] == "butler" and len(ev["travellers"]) == 27
    pages = pdf_text(rp.render_pdf(boards))
    text = "\n".join(pages)
    assert sum(p.count("BOARD") for p in pages) == 27  # each deal printed once
    assert "Board 1 datum \u2212460" in text
    assert "1 Para-8 24 37" in text  # the computed ranking: Para-8 first with 37 IMPs


def test_teams_match(corpus_dir: Path) -> None:
    path = corpus_dir / "pbn" / "eytc1998_teams_auction_partial_play.pbn"
    text = pdf_text(rp.render_pdf(read(path)))[-1]
    assert "Board 1 J-austria +10 IMPs" in text
    assert re.search(r"Closed Lindermann A - Purstl C Huesken F - Kornek A 4♥ N = 420 10 −10", text)
    assert re.search(r"Open Linde J - Balschun R Saurer B - Gloyer A 5♥ S −1 50 −10 10", text)
    assert "1 J-austria 1 10 0 10" in text
