"""The booklet for every file of the shared corpus that has full deals, as PDF and as HTML.

Each file is rendered once to PDF (Typst) and once to HTML.  From the PDF
text (pypdf) and from the HTML, every board with a complete deal shows its
number, dealer and vulnerability and each of its 52 cards exactly once, in
the right hands.  A board recorded by several games (travellers as games,
LIN rooms) is printed once.  Files with results also get results pages after
the diagrams; their values are checked in tests/unit/test_results_pages.py.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest

from handrec.booklet.html import render_html
from handrec.booklet.pdf import compile_typst, render_typst_source
from handrec.booklet.views import board_view, booklet_sections, diagram_boards, distinct_boards
from handrec.formats.dispatch import read
from handrec.model import Board, Rank, Seat, Suit, Vulnerability

#: Every corpus file with at least one complete deal (MANIFEST.md; test_list_is_complete keeps it so).
FILES = [
    "lin/bbo_acbl_redouble_runout_claim_after_lead.lin",
    "lin/bbo_handviewer_url_encoded.txt",
    "lin/bbo_multi_board_one_per_line.lin",
    "lin/bbo_single_board_alert_mark.lin",
    "lin/bbo_single_board_long_explanations.lin",
    "lin/bbo_single_board_unusual_nt_alert.lin",
    "lin/bbo_tourney_redouble_alert_explained.lin",
    "lin/bbo_tourney_slam_claim_after_trick6.lin",
    "lin/dealconvert_vugraph_handrecord_crlf.lin",
    "pbn/bba_generated_midgame_percent_lines.pbn",
    "pbn/bba_uppercase_ext_P_3N_dashdate.PBN",
    "pbn/bbohelper_daylong_tabs_notes_play.pbn",
    "pbn/ben_hashhash_header_every_call_noted.pbn",
    "pbn/bfc_lin_converted_suffix_annotation.pbn",
    "pbn/bigdeal_v11_nocontract_extreme_voids.pbn",
    "pbn/bigdeal_v12_ability_minimax_crlf.pbn",
    "pbn/bridgecomposer_club_handrecord_dd_crlf.pbn",
    "pbn/bridgecomposer_czech_club_latin1_dd.pbn",
    "pbn/camrose2024_handrecords_bridgecomposer_dd.pbn",
    "pbn/dealconvert_jfr_dd_fields_crlf.pbn",
    "pbn/dealer_v2_500_deals_1N.pbn",
    "pbn/eytc1998_teams_auction_partial_play.pbn",
    "pbn/pbn10_reference_correct_latin1.pbn",
    "pbn/pbn20_reference_errors.pbn",
    "pbn/pbn20_reference_score_tables.pbn",
    "pbn/pbn21_reference_correct_latin1.pbn",
    "pbn/pbntools_bbo_history_time_as_date.pbn",
    "pbn/pbntools_bbo_pairs_play_dashes_dealid.pbn",
    "pbn/pbntools_kops_board01_lowercase_x.pbn",
    "pbn/pbntools_polish_kops_latin1_travellers.pbn",
    "pbn/valet_euro2006_handrecord_minimal_both.pbn",
    "pbn/wbridge5_match_redoubled_full_play.pbn",
    "usebio/cobalt_cross_imp_howell.xml",  # HANDSET hand records
    "usebio/cobalt_mp_pairs_howell.xml",
    "usebio/cobalt_mp_pairs_mitchell_adjusted_02.xml",
]

SUIT_SIGNS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
HAND_LINE = re.compile("([\u2660\u2665\u2666\u2663])((?:10|[AKQJ2-9])+|\u2014)")
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
DEALER = {None: "Dealer ?", Seat.NORTH: "Dealer North", Seat.EAST: "Dealer East"}
DEALER |= {Seat.SOUTH: "Dealer South", Seat.WEST: "Dealer West"}
VUL = {None: "Vul: ?", Vulnerability.NONE: "Vul: None", Vulnerability.NS: "Vul: N-S"}
VUL |= {Vulnerability.EW: "Vul: E-W", Vulnerability.BOTH: "Vul: Both"}


def complete(b: Board) -> bool:
    return b.deal is not None and b.deal.is_complete


def holding(b: Board, seat: Seat, suit: Suit) -> str:
    """How the booklet spells a holding: high to low, 10 for a ten, a dash for a void."""
    ranks = "".join("10" if c.rank is Rank.TEN else str(c.rank) for c in b.deal[seat].suit_cards(suit))
    return ranks or "\u2014"


def check_pdf_board(chunk: str, b: Board) -> None:
    assert chunk.split()[0] == board_view(b)["label"]
    assert DEALER[b.dealer] in chunk and VUL[b.vulnerable] in chunk
    lines = HAND_LINE.findall(chunk)
    cards: Counter[tuple[str, str]] = Counter()
    for sign, ranks in lines:
        if ranks != "\u2014":
            cards.update((SUIT_SIGNS[sign], r) for r in re.findall("10|[AKQJ2-9]", ranks))
    assert sum(cards.values()) == 52 and len(cards) == 52, (b.number, cards.most_common(3))
    shown = Counter(lines)
    for seat in Seat:
        for suit, sign in zip(SUITS, SUIT_SIGNS):
            assert shown[sign, holding(b, seat, suit)] >= 1, (b.number, seat, suit)


class Diagrams(HTMLParser):
    """Per HTML board: number, dealer, vulnerability and the ranks shown per seat and suit."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[dict] = []
        self.seat: str | None = None
        self.suit: str | None = None
        self.in_ranks = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "article" and "board" in cls:
            self.boards.append(
                {"label": a["data-board"], "dealer": a["data-dealer"], "vul": a["data-vul"], "hands": {}}
            )
        elif "hand" in cls and "data-seat" in a:
            self.seat = a["data-seat"]
        elif "suit" in cls and "data-suit" in a:
            self.suit = a["data-suit"]
        elif "ranks" in cls:
            self.in_ranks = True

    def handle_endtag(self, tag: str) -> None:
        self.in_ranks = False

    def handle_data(self, data: str) -> None:
        if self.in_ranks and self.seat and self.suit:
            self.boards[-1]["hands"][self.seat, self.suit] = data


@pytest.mark.parametrize("name", FILES)
def test_booklet_every_card_once(corpus_dir: Path, name: str) -> None:
    drawn, _ = diagram_boards(list(read(corpus_dir / name)))
    assert any(complete(b) for b in drawn)
    # each event of the file is a part from a new page, its boards in their order
    parts = booklet_sections(drawn)
    boards = [drawn[i] for p in parts for i in p["indexes"]]
    # PDF: the pages with diagrams (results pages, if any, come after them and hold no "BOARD").
    pdf, warnings = compile_typst(render_typst_source(boards, per_page=8, paper="a4"))
    assert warnings == []
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    diagram_pages = [p for p in pages if "BOARD" in p]
    assert len(diagram_pages) == sum(-(-len(p["indexes"]) // 8) for p in parts)
    chunks = [c for p in diagram_pages for c in p.split("BOARD")[1:]]
    assert len(chunks) == len(boards)
    for chunk, b in zip(chunks, boards):
        if complete(b):
            check_pdf_board(chunk, b)
    # HTML: the same boards, by their machine-readable hooks.
    parser = Diagrams()
    parser.feed(render_html(drawn))
    assert len(parser.boards) == len(boards)
    for shown, b in zip(parser.boards, boards):
        assert shown["label"] == board_view(b)["label"]
        assert shown["dealer"] == ("" if b.dealer is None else str(b.dealer))
        assert shown["vul"] == ("" if b.vulnerable is None else str(b.vulnerable))
        if complete(b):
            assert shown["hands"] == {(str(seat), str(suit)): holding(b, seat, suit) for seat in Seat for suit in SUITS}


def test_list_is_complete(corpus_dir: Path) -> None:
    """Every other corpus file has no complete deal (so FILES misses none)."""
    for path in sorted(corpus_dir.glob("*/*")):
        name = f"{path.parent.name}/{path.name}"
        if path.suffix == ".md" or name in FILES:
            continue
        assert not any(complete(b) for b in read(path)), name


def test_travellers_as_games_print_each_board_once(corpus_dir: Path) -> None:
    """570 PbnTools games of 26 boards: 26 diagrams, then the results pages."""
    games = list(read(corpus_dir / "pbn" / "pbntools_kops_board01_lowercase_x.pbn"))
    assert len(games) == 570 and len(distinct_boards(games)) == 26
    pdf, _ = compile_typst(render_typst_source(games, per_page=8))
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    assert sum(p.count("BOARD") for p in pages) == 26
    assert any(p.startswith("Results") or "\nResults" in p for p in pages[4:])
