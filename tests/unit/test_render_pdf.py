"""The PDF booklet (handrec.booklet.pdf): Typst source from Jinja2, compiled by the typst package.

The PDF is read back with pypdf: what these tests check is the text a
reader of the page sees (cards, board numbers, dealer, vulnerability, par),
the page count of each layout, and that two renders are byte-identical.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pypdf  # the dev extra
import pytest

from handrec.booklet import pdf as rp
from handrec.booklet.pdf import (
    LAYOUTS,
    booklet_data,
    compile_typst,
    render_typst_source,
    typst_str,
    typst_value,
    write_pdf,
)
from handrec.booklet.views import BookletSummary
from handrec.dd import solver as dd
from handrec.model import ALL_CARDS, Board, Deal, Hand, Origin, Rank, Seat, Suit, Tag, Vulnerability

SEATS = "NESW"
SUIT_SIGNS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
DEALER_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
VUL_LABELS = {
    Vulnerability.NONE: "Vul: None",
    Vulnerability.NS: "Vul: N-S",
    Vulnerability.EW: "Vul: E-W",
    Vulnerability.BOTH: "Vul: Both",
}
# A hand line as extracted: a suit sign immediately followed by ranks (10 for a ten) or a dash.
HAND_LINE = re.compile("([\u2660\u2665\u2666\u2663])((?:10|[AKQJ2-9])+|\u2014)")

# A wild deal: voids and two 13-card suits.
DEAL_C = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

HOSTILE = [
    '#import "x": *',
    "*bold*",
    "$x^2$",
    "@ref",
    "[a]",
    "back\\slash",
    "<lbl>",
    "{{ 7*7 }}",
    "{% if 1 %}x{% endif %}",
    "_under_",
    "`raw`",
    "~tilde~",
    "// not a comment",
    '"quoted"',
    "#{panic()}",
    "= heading",
    "- list",
    "+ enum",
    "/ term: x",
    "))]}",
]


def cycle_board(n: int, deal: Deal, **tags: str) -> Board:
    """Board ``n`` with the dealer and vulnerability of the standard 16-board cycle."""
    dealer = Seat((n - 1) % 4)
    vul = [
        Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH,
        Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE,
        Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS,
        Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW,
    ][(n - 1) % 16]  # fmt: skip
    return Board(
        origin=Origin("t.pbn"),
        tags=tuple(Tag(k, v) for k, v in tags.items()),
        number=n,
        dealer=dealer,
        vulnerable=vul,
        deal=deal,
    )


def deals(count: int, seed: int = 1) -> list[Deal]:
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        out.append(Deal(tuple(Hand(tuple(cards[13 * i : 13 * i + 13])) for i in range(4))))  # type: ignore[arg-type]
    return out


@pytest.fixture(scope="module")
def boards32() -> list[Board]:
    return [cycle_board(i + 1, d) for i, d in enumerate(deals(32))]


def pdf_pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def board_chunks(page_text: str) -> list[str]:
    """A page's text cut at each board's "BOARD" caption (the boards in page order)."""
    parts = page_text.split("BOARD")
    return parts[1:]


def printed_cards(chunk: str) -> Counter[tuple[str, Rank]]:
    """The cards a board's text shows, counted: (suit letter, rank)."""
    cards: Counter[tuple[str, Rank]] = Counter()
    for sign, ranks in HAND_LINE.findall(chunk):
        if ranks == "\u2014":
            continue
        for r in re.findall("10|[AKQJ2-9]", ranks):
            cards[SUIT_SIGNS[sign], Rank.parse(r)] += 1
    return cards


def check_board_text(chunk: str, board: Board) -> None:
    """Number, dealer, vulnerability, and each of the 52 cards exactly once, in the right hands."""
    label = chunk.split()[0]
    assert label == str(board.number)
    assert f"Dealer {DEALER_NAMES[board.dealer]}" in chunk
    assert VUL_LABELS[board.vulnerable] in chunk
    cards = printed_cards(chunk)
    assert sum(cards.values()) == 52 and set(cards.values()) == {1}
    assert {(str(c.suit), c.rank) for c in ALL_CARDS} == set(cards)
    # Each printed hand line is one seat's holding in one suit.
    lines = Counter(HAND_LINE.findall(chunk))
    for seat in Seat:
        hand = board.deal[seat]
        for suit, sign in zip((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS), SUIT_SIGNS):
            ranks = "".join("10" if c.rank is Rank.TEN else str(c.rank) for c in hand.suit_cards(suit)) or "\u2014"
            assert lines[sign, ranks] >= 1, (board.number, seat, suit, ranks)


# ---------------------------------------------------------------------------
# Escaping


def test_typst_literals() -> None:
    assert typst_str('a"b\\c') == '"a\\"b\\\\c"'
    assert typst_str("line\nbreak\x7f") == '"line\\u{a}break\\u{7f}"'
    assert typst_value({"k": [1, None, True, 2.5, "s"]}) == '("k": (1, none, true, 2.5, "s",))'
    assert typst_value({}) == "(:)" and typst_value([]) == "()"
    for bad in (object(), {1: 2}, float("nan")):
        with pytest.raises(TypeError):
            typst_value(bad)


def test_template_cannot_print_unescaped_values() -> None:
    env = rp._environment()
    assert env.from_string("{{ x|typst }}").render(x="#x") == '"#x"'
    assert env.from_string("{{ n }}").render(n=3) == "3"
    with pytest.raises(TypeError, match="typst filter"):
        env.from_string("{{ x }}").render(x="#x")


def test_hostile_strings_verbatim(tmp_path: Path) -> None:
    d = deals(len(HOSTILE))
    boards = []
    for i, text in enumerate(HOSTILE):
        tags = {"Event": text, "Site": text, "Date": text, "Board": text}
        b = cycle_board(i + 1, d[i], **tags)
        # Board number not an integer: the raw Board tag is printed as the label.
        boards.append(Board(origin=b.origin, tags=b.tags, dealer=b.dealer, vulnerable=b.vulnerable, deal=b.deal))
    source = render_typst_source(boards, per_page=1)
    pdf, warnings = compile_typst(source)
    assert warnings == []
    pages = pdf_pages(pdf)
    assert len(pages) == len(HOSTILE)
    for text, page in zip(HOSTILE, pages):
        assert text in page, (text, page[:200])  # board label
        # each board has an event of its own: a part each, headed by its event, site and date
        assert page.count(text) >= 4, (text, page[:200])
    # Titles too, and a ParContract the reader cannot parse is printed as given.
    b = cycle_board(1, d[0], OptimumScore="NS 100", ParContract="#par [x] $y$ \\")
    pdf, warnings = compile_typst(render_typst_source([b], title="*Club* #1 @home <a> $5$"))
    assert warnings == []
    (page,) = pdf_pages(pdf)
    assert "*Club* #1 @home <a> $5$" in page
    assert "#par [x] $y$ \\" in page


# ---------------------------------------------------------------------------
# Content


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_number_dealer_vulnerability(boards32: list[Board], paper: str) -> None:
    pdf = rp.render_pdf(boards32, per_page=8, paper=paper)
    pages = pdf_pages(pdf)
    assert len(pages) == 4
    seen = []
    for page in pages:
        chunks = board_chunks(page)
        assert len(chunks) == 8  # boards never split: each page holds exactly its own eight
        seen.extend(chunks)
    for chunk, board in zip(seen, boards32):
        check_board_text(chunk, board)
    assert "Page 1 of 4" in pages[0] and "Page 4 of 4" in pages[3]
    assert "Boards 25\u201332" in pages[3]


def test_wild_deal_and_missing_hands() -> None:
    wild = cycle_board(1, Deal.parse(DEAL_C))
    partial = cycle_board(2, Deal.parse("N:AKQJ.AKQ.AKQ.AKQ - - -"))
    empty = Board(origin=Origin("t.pbn"), number=3)
    no_dealer = Board(origin=Origin("t.pbn"), number=4, deal=Deal.parse("N:- - - AKQJ.AKQ.AKQ.AKQ"))
    summary = BookletSummary()
    source = render_typst_source([wild, partial, empty, no_dealer], per_page=4, summary=summary)
    pdf, warnings = compile_typst(source)
    assert warnings == []
    (page,) = pdf_pages(pdf)
    chunks = board_chunks(page)
    assert len(chunks) == 3  # board 3 has no deal: no diagram
    check_board_text(chunks[0], wild)
    assert chunks[0].count("\u2014") == 12  # twelve void suits
    assert "unknown" in chunks[1] and "Incomplete deal" in chunks[1]
    assert "Incomplete deal" in chunks[2] and "Dealer ?" in chunks[2] and "Vul: ?" in chunks[2]
    assert "Deal not given" not in page and "Boards 1, 2, 4" in page  # the boards drawn (3 has no deal)
    assert (summary.boards, summary.left_out) == (3, 1)


def test_heading_from_tags_or_title(boards32: list[Board]) -> None:
    b = cycle_board(1, deals(1)[0], Event="Autumn Pairs", Site="Riverside BC", Date="2026.11.01")
    (page,) = pdf_pages(rp.render_pdf([b]))
    assert "Autumn Pairs" in page and "Riverside BC \u00b7 1 November 2026" in page
    (page,) = pdf_pages(rp.render_pdf([b], title="Club night"))
    assert "Club night" in page and "Autumn Pairs" not in page
    (page,) = pdf_pages(rp.render_pdf([]))
    assert "Hand records" in page and "No boards." in page


def test_long_heading_and_board_number_stay_in_place() -> None:
    """A 200-character Event and Site are shortened (ellipsis) and shrunk onto their lines:
    nothing is drawn in the top margin (a wrapped heading used to grow up into it); the
    date is kept; a 9-digit board number is printed whole."""
    long_event = "The Annual Interregional Open Teams and Pairs Championship " * 4
    long_site = "Grand Hall of the Municipal Congress Centre, Upper Riverside District " * 3
    b = cycle_board(1, deals(1)[0], Event=long_event.strip(), Site=long_site.strip(), Date="2026.11.01")
    b = Board(b.origin, tags=b.tags, number=123456789, dealer=b.dealer, vulnerable=b.vulnerable, deal=b.deal)
    data = rp.booklet_data([b])
    assert len(data["heading"]) == rp._HEADING_CHARS and data["heading"].endswith("\u2026")
    assert data["meta"].endswith(" \u00b7 1 November 2026") and len(data["meta"]) < 90
    (page,) = pdf_pages(rp.render_pdf([b]))
    assert "123456789" in page and "1 November 2026" in page
    page0 = pypdf.PdfReader(io.BytesIO(rp.render_pdf([b]))).pages[0]
    tops: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            tops.append(cm[5] + tm[5] * cm[3] + size)  # the baseline in page space, plus one size

    page0.extract_text(visitor_text=visit)
    limit = float(page0.mediabox.height) - (rp._MARGIN_TOP - 1.0) / 25.4 * 72
    assert tops and max(tops) < limit, "text in the top margin: the heading overflowed"


# ---------------------------------------------------------------------------
# Layouts


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("per_page", sorted(LAYOUTS))
def test_page_counts(boards32: list[Board], per_page: int, paper: str) -> None:
    boards = boards32[:13]
    pages = pdf_pages(rp.render_pdf(boards, per_page=per_page, paper=paper))
    assert len(pages) == -(-13 // per_page)
    labels = [c.split()[0] for p in pages for c in board_chunks(p)]
    assert labels == [str(i) for i in range(1, 14)]
    for i, page in enumerate(pages):
        assert len(board_chunks(page)) == min(per_page, 13 - i * per_page)
        assert f"Page {i + 1} of {len(pages)}" in page


def test_page_sizes(boards32: list[Board]) -> None:
    for paper, (w, h) in (("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))):
        reader = pypdf.PdfReader(io.BytesIO(rp.render_pdf(boards32[:1], paper=paper)))
        box = reader.pages[0].mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((w, h), abs=0.5)


def test_bad_layout() -> None:
    with pytest.raises(ValueError, match="per page"):
        render_typst_source([], per_page=3)
    with pytest.raises(ValueError, match="paper"):
        render_typst_source([], paper="a5")
    assert booklet_data([], paper="US-Letter")["paper"] == "us-letter"


# ---------------------------------------------------------------------------
# Double dummy


def test_dd_grid_and_par_from_tags(boards32: list[Board]) -> None:
    tagged = cycle_board(1, boards32[0].deal, DoubleDummyTricks="7c5c67c5c61181711817")
    given = cycle_board(2, boards32[1].deal, OptimumScore="EW 980", ParContract="EW 6H=; EW 6S=")
    plain = boards32[2]
    pages = pdf_pages(rp.render_pdf([tagged, given, plain]))
    c1, c2, c3 = board_chunks(pages[0])
    assert "Par NS +980" in c1 and "6\u2660 NS =" in c1
    # The grid prints the level each declarer makes: N makes 1NT, 6S, 6D; E 2H and 1C.
    assert "N 1 6 \u2013 6 \u2013" in c1 and "E \u2013 \u2013 2 \u2013 1" in c1
    assert "Par EW +980" in c2 and "6\u2665 EW =" in c2 and "6\u2660 EW =" in c2
    assert "Par" not in c3
    check_board_text(c1, tagged)
    # dd=False shows none of it.
    (page,) = pdf_pages(rp.render_pdf([tagged], dd=False))
    assert "Par" not in page and "NT" not in page


def test_dd_requested_without_endplay(boards32: list[Board], monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'endplay'")

    from handrec.dd import engine

    monkeypatch.setattr(engine, "_dds", missing)  # endplay not installed
    monkeypatch.setattr(engine, "available", lambda: False)
    dd.clear_cache()
    pages = pdf_pages(rp.render_pdf(boards32[:16], dd=True))
    assert len(pages) == 2
    text = "".join(pages)
    assert text.count("handrec[dd]") == 1 and "handrec[dd]" in pages[0]
    assert "Par" not in text
    for chunk, board in zip(board_chunks(pages[0]) + board_chunks(pages[1]), boards32):
        check_board_text(chunk, board)


def test_dd_solved_with_endplay(corpus_dir: Path) -> None:
    """Two deals solved for real (skipped without endplay), compared with the file's own table."""
    pytest.importorskip("endplay")
    from handrec.formats.dispatch import read

    dd.clear_cache()
    src = list(read(corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"))[:2]
    bare = [Board(origin=b.origin, number=b.number, dealer=b.dealer, vulnerable=b.vulnerable, deal=b.deal) for b in src]
    with_tags, _ = dd.boards_dd(src)
    solved, note = dd.boards_dd(bare, solve=True)
    assert note is None
    for a, b in zip(with_tags, solved):
        assert b.source == "solver" and a.table == b.table
        assert a.par.score_ns == b.par.score_ns
    (page,) = pdf_pages(rp.render_pdf(bare, dd=True))
    assert "Par NS +980" in page and "Par EW +980" in page
    dd.clear_cache()


# ---------------------------------------------------------------------------
# Reproducible output


def test_byte_identical(boards32: list[Board], tmp_path: Path) -> None:
    a = rp.render_pdf(boards32, per_page=8)
    b = rp.render_pdf(boards32, per_page=8)
    assert a == b
    # In a fresh process too (no state carried between compiles).
    code = (
        "import sys, pickle; from handrec.booklet.pdf import render_pdf;"
        "boards = pickle.loads(sys.stdin.buffer.read()); sys.stdout.buffer.write(render_pdf(boards))"
    )
    import pickle

    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(boards32), capture_output=True, check=True, timeout=120
    )
    assert out.stdout == a


def test_fonts_are_only_dejavu(boards32: list[Board]) -> None:
    reader = pypdf.PdfReader(io.BytesIO(rp.render_pdf(boards32[:8])))
    fonts = set()
    for page in reader.pages:
        for f in page["/Resources"]["/Font"].values():
            fonts.add(str(f.get_object()["/BaseFont"]))
    assert fonts and all("DejaVuSans" in f for f in fonts), fonts


def test_write_pdf_atomic(boards32: list[Board], tmp_path: Path) -> None:
    out = tmp_path / "booklet.pdf"
    out.write_bytes(b"old")
    out.chmod(0o640)
    assert write_pdf(boards32[:9], out, paper="letter", per_page=6) == 9
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and len(pdf_pages(data)) == 2
    assert out.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["booklet.pdf"]
    with pytest.raises(OSError):
        write_pdf(boards32[:1], tmp_path / "missing" / "x.pdf")
    with pytest.raises(ValueError):
        write_pdf(boards32[:1], out, per_page=5)
    assert out.read_bytes() == data


def test_corpus_booklet(corpus_dir: Path) -> None:
    """A real BridgeComposer file: 36 boards, DD from its tags, every board's cards once."""
    from handrec.formats.dispatch import read

    boards = list(read(corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"))
    pdf, warnings = compile_typst(render_typst_source(boards, per_page=8, paper="letter"))
    assert warnings == []
    pages = pdf_pages(pdf)
    assert len(pages) == 5
    chunks = [c for p in pages for c in board_chunks(p)]
    assert len(chunks) == 36
    for chunk, board in zip(chunks, boards):
        check_board_text(chunk, board)
        par = dd.Par(dd.parse_optimum_score(board.tag("OptimumScore")))
        assert f"Par {par.label}" in chunk
