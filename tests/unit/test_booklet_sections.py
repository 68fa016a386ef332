"""A booklet of several inputs: each event of each input file is a part of its own, with its
heading (event, date, file) and, in PDF and on the HTML's printed sheets, its own first page;
a page's footer names the boards the page holds."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf

from handrec.booklet.html import render_html
from handrec.booklet.pdf import render_pdf
from handrec.booklet.views import board_range, booklet_sections
from handrec.formats.dispatch import read
from handrec.model import Board

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"


def _read(folder: Path) -> list[Board]:
    return [b for f in sorted(folder.iterdir()) if f.is_file() for b in read(f)]


def test_board_range_names_the_boards_it_covers() -> None:
    assert board_range([str(n) for n in range(1, 9)]) == "Boards 1\u20138"
    assert board_range(["5"]) == "Board 5"
    assert board_range(["2", "2", "1", "2", "3"]) == "Boards 2, 2, 1, 2, 3"
    assert board_range(["7", "8", "1"]) == "Boards 7, 8, 1"
    assert board_range(["9", "10"]) == "Boards 9\u201310"
    assert board_range([]) == ""


def test_sections_one_per_event_of_each_file_in_order() -> None:
    boards = _read(SAMPLE)
    parts = booklet_sections(boards)
    assert [(p["file"], p["event"], p["date"], len(p["indexes"])) for p in parts] == [
        ("bbo_hands.lin", None, None, 4),
        ("club_pairs.pbn", "Sunday Afternoon Pairs", "29 November 2026", 8),
        ("club_session.pbn", "Thursday club pairs", "29 November 2026", 32),
    ]


class _Sheets:
    """Per printed sheet of the HTML booklet: its heading text, meta text, boards and footer."""

    def __init__(self, page: str) -> None:
        self.sheets = []
        for sheet in re.findall(r'<section class="sheet".*?</section>', page, flags=re.S):
            head = re.search(r'<header class="sheet-head">(.*?)</header>', sheet, flags=re.S).group(1)
            self.sheets.append(
                {
                    "event": _text(re.search(r'class="event">(.*?)</(?:h1|h2|p)>', head, flags=re.S).group(1)),
                    "meta": _text(re.search(r'<p class="meta[^"]*">(.*?)</p>', head, flags=re.S).group(1)),
                    "boards": re.findall(r'<article class="board[^"]*" data-board="([^"]*)"', sheet),
                    "foot": _text(re.search(r'<footer class="sheet-foot">(.*?)</footer>', sheet, flags=re.S).group(1)),
                }
            )


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_html_booklet_of_a_folder_heads_each_file_and_event() -> None:
    page = render_html(_read(SAMPLE), results=False)
    sheets = _Sheets(page).sheets
    assert [(s["event"], s["meta"], s["boards"], s["foot"]) for s in sheets] == [
        ("bbo_hands.lin", "", ["1", "2", "3", "4"], "Boards 1\u20134 Page 1 of 3"),
        (
            "Sunday Afternoon Pairs",
            "Riverside Bridge Club, Reading GBR 29 November 2026 club_pairs.pbn",
            [str(n) for n in range(1, 9)],
            "Boards 1\u20138 Page 2 of 3",
        ),
        (
            "Thursday club pairs",
            "Generated 29 November 2026 club_session.pbn",
            [str(n) for n in range(1, 9)],
            "Boards 1\u20138 Page 3 of 3",
        ),
    ]
    # the booklet's own heading, for the whole (the sheets carry the events)
    assert page.count("<h1") == 1 and "<title>Hand records</title>" in page


def test_html_booklet_of_one_event_keeps_one_heading() -> None:
    page = render_html(list(read(SAMPLE / "club_session.pbn")), results=False)
    sheets = _Sheets(page).sheets
    assert [(s["event"], s["foot"]) for s in sheets] == [("Thursday club pairs", "Boards 1\u20138 Page 1 of 1")]
    assert '<h1 class="event">Thursday club pairs</h1>' in page


def test_pdf_of_the_lin_corpus_starts_each_file_on_a_page_and_footers_name_its_boards(corpus_dir: Path) -> None:
    boards = _read(corpus_dir / "lin")
    pdf = pypdf.PdfReader(io.BytesIO(render_pdf(boards, results=False)))
    seen = []
    for p in pdf.pages:
        text = p.extract_text()
        labels = re.findall(r"BOARD\n(\S+)\n", text)
        foot = re.search(r"(Boards? [^\n]*?) ?Page \d+ of \d+", text).group(1).strip()
        assert foot == board_range(labels), text[-80:]
        file = re.search(r"\b(\w+\.(?:lin|txt))\b", text).group(1)
        seen.append((file, labels))
    files = [f.name for f in sorted((corpus_dir / "lin").iterdir())]
    # every file's boards start a page headed by its name, in the order read; none shares a page
    names = [f for f, _ in seen]
    assert names == sorted(names, key=files.index) and set(names) == set(files)
    assert seen[2] == ("bbo_multi_board_one_per_line.lin", [str(n) for n in range(1, 9)])
    assert seen[-2:] == [
        ("dealconvert_vugraph_handrecord_crlf.lin", [str(n) for n in range(1, 9)]),
        ("dealconvert_vugraph_handrecord_crlf.lin", [str(n) for n in range(9, 17)]),
    ]
