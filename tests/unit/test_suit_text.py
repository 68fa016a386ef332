"""Suit codes in text from the input (BBO's ``!S !H !D !C`` in alert explanations, LIN §3;
BridgeComposer's ``\\S \\H \\D \\C`` in notes, comments and tags, PBN §3.8 [wild]) are drawn as
suit symbols on the site and in the booklets, with the classes and colours of the diagrams;
the text around them stays escaped."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
from typer.testing import CliRunner

from handrec.booklet.html import render_html
from handrec.booklet.pdf import booklet_data, render_pdf, render_typst_source
from handrec.booklet.suit_codes import suit_plain, suit_text
from handrec.cli import app
from handrec.formats.dispatch import read

runner = CliRunner()

CLUB = '<span class="sym" aria-hidden="true">♣</span><span class="vh"> clubs</span>'
DIAMOND = '<span class="sym red" aria-hidden="true">♦</span><span class="vh"> diamonds</span>'
HEART = '<span class="sym red" aria-hidden="true">♥</span><span class="vh"> hearts</span>'
SPADE = '<span class="sym" aria-hidden="true">♠</span><span class="vh"> spades</span>'

PBN = r"""[Event "Opener's Rebid after 2\C"]
[Site "<b>Club</b> \H"]
[Date "2026.12.01"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982"]
[Declarer "N"]
[Contract "2C"]
[Result "8"]
[Auction "N"]
2C =1= Pass 2D Pass
2S Pass Pass Pass
[Note "1:Strong, 22+ or 9 tricks in \S or \H; <script>x</script> !Spades"]
"""


def test_suit_text_draws_both_codes_and_escapes_the_rest() -> None:
    assert str(suit_text("3+ !D; 11-21 HCP")) == f"3+ {DIAMOND}; 11-21 HCP"
    assert str(suit_text(r"Rebid after 2\C")) == f"Rebid after 2{CLUB}"
    # a card after the suit code (BBO's "no !CA") is the suit and the rank
    assert str(suit_text("no !CA; !HK")) == f"no {CLUB}A; {HEART}K"
    assert str(suit_text('<b>!S</b> & "q"')) == f"&lt;b&gt;{SPADE}&lt;/b&gt; &amp; &#34;q&#34;"
    # a word after the mark is no suit code: "!Spades", a Windows path
    assert str(suit_text(r"!Spades C:\Data\Clubs")) == r"!Spades C:\Data\Clubs"
    assert str(suit_text(None)) == ""
    assert suit_plain(r"2\C, 3+ !D") == "2♣, 3+ ♦"


def _site(tmp_path: Path, *inputs: Path) -> Path:
    out = tmp_path / "site"
    r = runner.invoke(app, ["site", *map(str, inputs), "-o", str(out)])
    assert r.exit_code == 0, r.stderr
    return out


def test_site_draws_suit_codes_of_alerts_notes_and_event(tmp_path: Path, corpus_dir: Path) -> None:
    pbn = tmp_path / "rebid.pbn"
    pbn.write_text(PBN, encoding="utf-8")
    out = _site(tmp_path, pbn)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f"<h1>Opener&#39;s Rebid after 2{CLUB}</h1>" in index
    assert "<title>Opener&#39;s Rebid after 2♣</title>" in index
    board = (out / "s1" / "board-1.html").read_text(encoding="utf-8")
    assert f"Strong, 22+ or 9 tricks in {SPADE} or {HEART}; &lt;script&gt;x&lt;/script&gt; !Spades" in board
    assert "\\S" not in board and "<script>" not in board

    lin = _site(tmp_path / "lin", corpus_dir / "lin" / "bbo_single_board_long_explanations.lin")
    page = next((lin / "s1").glob("board-*.html")).read_text(encoding="utf-8")
    assert f"Cue bid -- 1+ {CLUB}; 3+ {HEART}; 5+ {SPADE}; 21- HCP; no {CLUB}A; {DIAMOND}A; 16-22 total points" in page
    for code in ("!S", "!H", "!D", "!C"):
        assert code not in page.replace("<!DOCTYPE", "")


def test_booklet_html_draws_suit_codes_of_event_and_site(tmp_path: Path) -> None:
    pbn = tmp_path / "rebid.pbn"
    pbn.write_text(PBN, encoding="utf-8")
    page = render_html(list(read(pbn)))
    assert f'<h1 class="event">Opener&#39;s Rebid after 2{CLUB}</h1>' in page
    assert f'<span class="site">&lt;b&gt;Club&lt;/b&gt; {HEART}</span>' in page
    assert "<title>Opener&#39;s Rebid after 2♣ · 1 December 2026</title>" in page
    assert "\\C" not in page and "\\H" not in page


def test_booklet_pdf_prints_suit_symbols_and_colours_red_ones(tmp_path: Path) -> None:
    pbn = tmp_path / "rebid.pbn"
    pbn.write_text(PBN, encoding="utf-8")
    boards = list(read(pbn))
    data = booklet_data(boards)
    assert data["heading"] == "Opener's Rebid after 2♣"
    assert data["meta"] == "<b>Club</b> ♥ · 1 December 2026"
    # the template colours every heart and diamond of the text as the diagrams do
    assert 'show regex("[♥♦]")' in render_typst_source(boards)
    text = pypdf.PdfReader(io.BytesIO(render_pdf(boards))).pages[0].extract_text()
    assert "Opener's Rebid after 2♣" in text and "\\C" not in text
