"""The HTML hand-record booklet (handrec.booklet.html).

The page is parsed back with the stdlib ``html.parser`` through the stable
hooks the template promises (``article.board``, ``div.hand[data-seat]``,
``span.suit[data-suit] > span.ranks``, ``span.hcp[data-seat]``), so these
tests check what a reader sees, not how the template is written.
"""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from handrec.booklet import html as render
from handrec.booklet import views
from handrec.booklet.html import BOARDS_PER_PAGE, render_html, write_booklet
from handrec.booklet.views import board_view
from handrec.model import ALL_CARDS, Board, Card, Deal, Origin, Seat, Tag, Vulnerability

# North holds KQJ84.A6.KQ5.J73 (16 HCP); East has a ten-heavy hand.
DEAL_A = "N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982"
# North is void in spades (PBN model docstring deal); written from West to check rotation.
DEAL_B = "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4"
# A wild one: every hand has voids, two 13-card suits.
DEAL_C = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

SEATS = "NESW"
SUITS = "SHDC"
HOSTILE = "<script>alert(1)</script> {{ 7*7 }} {% if 1 %}x{% endif %} & \"q\" 'a'"


def make_board(
    number: int | None,
    deal: str | None,
    *,
    dealer: Seat | None = Seat.NORTH,
    vul: Vulnerability | None = Vulnerability.NONE,
    tags: tuple[Tag, ...] = (),
) -> Board:
    return Board(
        origin=Origin("t.pbn"),
        tags=tags,
        number=number,
        dealer=dealer,
        vulnerable=vul,
        deal=None if deal is None else Deal.parse(deal),
    )


# ---------------------------------------------------------------------------
# A small reader for the page.

_VOID_ELEMENTS = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "source", "wbr"}


class BookletReader(HTMLParser):
    """Collects boards, hands, suits, HCP and every start tag seen."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.start_tags: list[str] = []
        self.boards: list[dict] = []
        self.text: list[str] = []
        self.title = ""
        self.style = ""
        self.h1 = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.start_tags.append(tag)
        classes = a.get("class", "").split()
        if tag == "article" and "board" in classes:
            self.boards.append(
                {
                    "attrs": a,
                    "hands": {},
                    "unknown": set(),
                    "hcp": {},
                    "vul_edges": set(),
                    "dealer_edges": set(),
                    "text": [],
                }
            )
        elif "hand" in classes and self.boards:
            self.boards[-1]["hands"][a["data-seat"]] = {}
            if "unknown" in classes:
                self.boards[-1]["unknown"].add(a["data-seat"])
        elif "edge" in classes and self.boards:
            seat = next(c[2:].upper() for c in classes if c.startswith("e-"))
            if "vul" in classes:
                self.boards[-1]["vul_edges"].add(seat)
            if "dealer" in classes:
                self.boards[-1]["dealer_edges"].add(seat)
        if tag not in _VOID_ELEMENTS:
            self.stack.append((tag, a))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def _inside(self, cls: str) -> dict[str, str] | None:
        for _, a in reversed(self.stack):
            if cls in a.get("class", "").split():
                return a
        return None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        tags = [t for t, _ in self.stack]
        if "title" in tags:
            self.title += data
        if "style" in tags:
            self.style += data
        if "h1" in tags:
            self.h1 += data
        if not self.boards or self._inside("board") is None:
            return
        board = self.boards[-1]
        board["text"].append(data)
        hand, suit, hcp = self._inside("hand"), self._inside("suit"), self._inside("hcp")
        if hand is not None and suit is not None and self._inside("ranks") is not None:
            ranks = board["hands"][hand["data-seat"]]
            ranks[suit["data-suit"]] = ranks.get(suit["data-suit"], "") + data
        if hcp is not None:
            board["hcp"][hcp["data-seat"]] = board["hcp"].get(hcp["data-seat"], "") + data


def read(html: str) -> BookletReader:
    r = BookletReader()
    r.feed(html)
    r.close()
    return r


def cards_of(ranks_text: str, suit: str) -> list[Card]:
    """Cards named by a printed suit string ("AK1098", or a dash for a void)."""
    text = ranks_text.strip()
    if text in ("\u2014", "-", "\u2013"):
        return []
    assert "T" not in text, f"ten printed as T: {text!r}"
    out = []
    i = 0
    while i < len(text):
        if text.startswith("10", i):
            out.append(Card.parse(suit + "10"))
            i += 2
        else:
            out.append(Card.parse(suit + text[i]))
            i += 1
    return out


def seen_cards(board: dict) -> dict[Card, list[str]]:
    """Card to the seats it was printed in."""
    seen: dict[Card, list[str]] = {}
    for seat, suits in board["hands"].items():
        for suit, text in suits.items():
            for card in cards_of(text, suit):
                seen.setdefault(card, []).append(seat)
    return seen


# ---------------------------------------------------------------------------
# The page.


@pytest.fixture
def three_boards() -> list[Board]:
    tags = (Tag("Event", "Riverside Pairs"), Tag("Site", "Riverside Hall"), Tag("Date", "2026.11.01"))
    return [
        make_board(1, DEAL_A, dealer=Seat.NORTH, vul=Vulnerability.NONE, tags=tags),
        make_board(2, DEAL_B, dealer=Seat.EAST, vul=Vulnerability.NS, tags=tags),
        make_board(3, DEAL_C, dealer=Seat.SOUTH, vul=Vulnerability.EW, tags=tags),
    ]


def test_every_card_once_in_the_right_seat(three_boards: list[Board]) -> None:
    page = read(render_html(three_boards))
    assert len(page.boards) == 3
    for board, shown in zip(three_boards, page.boards, strict=True):
        assert set(shown["hands"]) == set(SEATS)
        assert all(set(suits) == set(SUITS) for suits in shown["hands"].values())
        seen = seen_cards(shown)
        assert set(seen) == set(ALL_CARDS)
        for card, seats in seen.items():
            assert seats == [str(board.deal.holder(card))], card


def test_suits_high_to_low_with_10_and_dash(three_boards: list[Board]) -> None:
    page = read(render_html(three_boards))
    a, b, c = (p["hands"] for p in page.boards)
    assert a["N"] == {"S": "KQJ84", "H": "A6", "D": "KQ5", "C": "J73"}
    assert a["E"]["S"] == "107" and a["S"]["H"] == "109832" and a["W"]["C"] == "K10982"
    assert b["N"]["S"] == "\u2014"  # void
    assert b["W"]["S"] == "KQ102"
    assert c["N"] == {"S": "AKQJ1098765432", "H": "\u2014", "D": "\u2014", "C": "\u2014"}
    for hands in (a, b, c):
        for suits in hands.values():
            for text in suits.values():
                assert "T" not in text


def test_number_dealer_and_vulnerability_shown(three_boards: list[Board]) -> None:
    page = read(render_html(three_boards))
    expected = [("1", "N", "None", "North deals", "None vul"), ("2", "E", "NS", "East deals", "N-S vul")]
    expected.append(("3", "S", "EW", "South deals", "E-W vul"))
    for shown, (num, dealer, vul, dealer_text, vul_text) in zip(page.boards, expected, strict=True):
        assert shown["attrs"]["data-board"] == num
        assert shown["attrs"]["data-dealer"] == dealer
        assert shown["attrs"]["data-vul"] == vul
        text = " ".join(shown["text"])
        assert num in text and dealer_text in text and vul_text in text
        assert shown["dealer_edges"] == {dealer}
    assert [p["vul_edges"] for p in page.boards] == [set(), {"N", "S"}, {"E", "W"}]


def test_both_vulnerable_marks_all_four_seats() -> None:
    page = read(render_html([make_board(4, DEAL_A, dealer=Seat.WEST, vul=Vulnerability.BOTH)]))
    assert page.boards[0]["vul_edges"] == set(SEATS)
    assert "Both vul" in " ".join(page.boards[0]["text"])


def test_hcp_per_seat(three_boards: list[Board]) -> None:
    page = read(render_html(three_boards))
    assert page.boards[0]["hcp"] == {"N": "16", "E": "12", "S": "8", "W": "4"}
    for board, shown in zip(three_boards, page.boards, strict=True):
        for seat in Seat:
            assert shown["hcp"][str(seat)] == str(board.deal[seat].hcp)
    assert page.boards[2]["hcp"] == {"N": "10", "E": "10", "S": "10", "W": "10"}


def test_header_from_first_board_tags(three_boards: list[Board]) -> None:
    html = render_html(three_boards)
    page = read(html)
    assert page.h1 == "Riverside Pairs"
    text = "".join(page.text)
    assert "Riverside Hall" in text and "1 November 2026" in text
    assert "Riverside Pairs" in page.title


def test_title_overrides_event(three_boards: list[Board]) -> None:
    page = read(render_html(three_boards, title="Club night"))
    assert page.h1 == "Club night"
    assert "Riverside Hall" in "".join(page.text)


def test_hostile_text_is_escaped_not_run() -> None:
    tags = (Tag("Event", HOSTILE), Tag("Site", "<img src=x onerror=alert(1)>"), Tag("Date", "{{ 6*7 }}"))
    board = make_board(None, DEAL_A, tags=tags + (Tag("Board", "<b>1</b>"),))
    for html in (render_html([board]), render_html([board], title=HOSTILE)):
        page = read(html)
        assert "script" not in page.start_tags and "img" not in page.start_tags and "b" not in page.start_tags
        assert "<script>" not in html and "<img" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert page.h1 == HOSTILE
        text = "".join(page.text)
        assert "{{ 6*7 }}" in text and ">42<" not in html and ">49<" not in html
        assert page.boards[0]["attrs"]["data-board"] == "<b>1</b>"


def test_board_without_deal_gets_no_diagram() -> None:
    boards = [make_board(5, None, dealer=None, vul=None), make_board(6, DEAL_A), make_board(7, None)]
    summary = views.BookletSummary()
    html = render_html(boards, summary=summary)
    page = read(html)
    assert [b["attrs"]["data-board"] for b in page.boards] == ["6"]
    assert "Deal not given" not in html and "No boards." not in html
    assert (summary.boards, summary.left_out, summary.total, summary.results) == (1, 2, 3, False)
    assert summary.no_results == "no board has a result" and not summary.empty


def test_no_deal_at_all_is_a_sheet_saying_so_or_nothing_to_print(tmp_path: Path) -> None:
    boards = [make_board(5, None), make_board(6, None)]
    page = read(render_html(boards))
    assert page.boards == [] and "No boards." in "".join(page.text)
    out = tmp_path / "b.html"
    summary = views.BookletSummary()
    with pytest.raises(views.NothingToPrint):
        write_booklet(boards, out, summary=summary, allow_empty=False)
    assert not out.exists() and summary.empty and summary.left_out == 2
    assert write_booklet(boards, out) == 0 and out.exists()  # allowed by default


def test_diagram_boards_counts_each_board_left_out_once() -> None:
    games = [
        make_board(1, DEAL_A),
        make_board(1, None),  # another table of board 1, drawn from the first game
        make_board(2, None),
        make_board(2, None),  # board 2, two tables, no deal anywhere: one board left out
        make_board(None, None),  # no label: counted on its own
        make_board(None, None),
        make_board(3, "N:KQJ84.A6.KQ5.J73 - - -"),  # part of a deal: drawn
    ]
    shown, left_out = views.diagram_boards(games)
    assert [b.number for b in shown] == [1, 3] and left_out == 3
    assert not views.has_deal(make_board(4, "N:- - - -"))


def test_partial_deal_shows_known_hands() -> None:
    page = read(render_html([make_board(6, "N:KQJ84.A6.KQ5.J73 - - 65.J754.76.KT982")]))
    (shown,) = page.boards
    assert shown["unknown"] == {"E", "S"}
    assert shown["hands"]["N"]["S"] == "KQJ84" and shown["hcp"]["N"] == "16"
    assert "Incomplete deal" in " ".join(shown["text"])
    assert len(seen_cards(shown)) == 26


def test_eight_boards_to_a_sheet() -> None:
    boards = [make_board(n, DEAL_A) for n in range(1, 2 * BOARDS_PER_PAGE + 2)]
    html = render_html(boards)
    page = read(html)
    assert len(page.boards) == 2 * BOARDS_PER_PAGE + 1
    assert page.start_tags.count("section") == 3
    assert "Page 3 of 3" in "".join(page.text)


def test_no_boards_still_a_page() -> None:
    page = read(render_html([]))
    assert page.boards == [] and page.h1 == "Hand records"
    assert "No boards." in "".join(page.text)


def test_page_stands_alone_and_prints() -> None:
    html = render_html([make_board(1, DEAL_A)])
    page = read(html)
    assert "link" not in page.start_tags and "script" not in page.start_tags
    assert "@page" in page.style and "margin: 12mm" in page.style
    assert "break-inside: avoid" in page.style
    assert "\u2660" in html and "\u2665" in html and "\u2666" in html and "\u2663" in html


def test_environment_is_strict_and_autoescaped() -> None:
    env = render._environment()
    assert env.autoescape is True
    assert env.undefined.__name__ == "StrictUndefined"


# ---------------------------------------------------------------------------
# The view model.


def test_board_view_plain_values() -> None:
    tags = (Tag("Event", " Club "), Tag("Site", "?"), Tag("Date", "2026.03.??"))
    v = board_view(make_board(7, DEAL_B, dealer=Seat.SOUTH, vul=Vulnerability.BOTH, tags=tags))
    assert v["number"] == 7 and v["label"] == "7"
    assert v["dealer"] == "S" and v["dealer_name"] == "South"
    assert v["vulnerable"] == "Both" and v["vulnerable_seats"] == ["N", "E", "S", "W"]
    assert v["hands"]["N"] == {"S": "\u2014", "H": "63", "D": "AKQ987", "C": "A9732"}
    assert v["hcp"] == {"N": 13, "E": 12, "S": 5, "W": 10}
    assert (v["event"], v["site"], v["date"]) == ("Club", None, "March 2026")
    assert v["incomplete"] is False and v["deal_given"] is True and v["crowded"] == []


def test_board_view_long_suit_is_crowded() -> None:
    v = board_view(make_board(8, DEAL_C))
    assert v["crowded"] == ["N", "E", "S", "W"]


# ---------------------------------------------------------------------------
# Writing.


def test_write_booklet_writes_file_and_counts(tmp_path: Path, three_boards: list[Board]) -> None:
    out = tmp_path / "booklet.html"
    out.write_text("old", encoding="utf-8")
    n = write_booklet(iter(three_boards), out, title="Club night")
    assert n == 3
    assert out.read_text(encoding="utf-8") == render_html(three_boards, title="Club night")
    assert sorted(os.listdir(tmp_path)) == ["booklet.html"]


def test_write_booklet_accepts_str_path(tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    assert write_booklet([make_board(1, DEAL_A)], str(out)) == 1
    assert len(read(out.read_text(encoding="utf-8")).boards) == 1


def test_write_booklet_missing_folder_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        write_booklet([make_board(1, DEAL_A)], tmp_path / "nope" / "b.html")
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------
# Double dummy and par in the HTML booklet; a board recorded by several games


def test_dd_grid_and_par_from_tags() -> None:
    deal = Deal.parse("N:AQT94.T53.KQ8.T9 63.J98.J53.K8654 K72.6.AT9762.AJ7 J85.AKQ742.4.Q32")
    tags = {"DoubleDummyTricks": "7c5c67c5c61181711817", "OptimumScore": "NS 980", "ParContract": "NS 6S="}
    board = Board(
        origin=Origin("t.pbn"),
        tags=tuple(Tag(k, v) for k, v in tags.items()),
        number=1,
        dealer=Seat.NORTH,
        vulnerable=Vulnerability.NONE,
        deal=deal,
    )
    html = render_html([board])
    rows = {}
    for seat in "NSEW":
        i = html.index(f'<tr data-seat="{seat}">')
        rows[seat] = [c.split("<")[0] for c in html[i : html.index("</tr>", i)].split("<td>")[1:]]
    # N and S make 1NT, 6S, 6D; E and W 2H and 1C; a dash below seven tricks.
    assert rows == {
        "N": ["1", "6", "\u2013", "6", "\u2013"],
        "S": ["1", "6", "\u2013", "6", "\u2013"],
        "E": ["\u2013", "\u2013", "2", "\u2013", "1"],
        "W": ["\u2013", "\u2013", "2", "\u2013", "1"],
    }
    assert '<b class="par-score">NS +980</b>' in html
    assert 'class="par-contract">6<span class="sym">\u2660</span> NS =</span>' in html
    assert 'class="dd"' not in render_html([board], dd=False)


def test_games_of_one_board_shown_once() -> None:
    deal = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    games = [Board(origin=Origin("t.pbn", index=i), tags=(Tag("Event", "E"),), number=1, deal=deal) for i in range(3)]
    other = Board(origin=Origin("t.pbn", index=3), tags=(Tag("Event", "F"),), number=1, deal=deal)
    assert views.distinct_boards([*games, other]) == [games[0], other]
    assert render_html([*games, other]).count('<article class="board') == 2
