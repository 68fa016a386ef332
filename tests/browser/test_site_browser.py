"""The results website in a real browser (Debian's Chromium through Playwright).

The site of sample_data/club_session.pbn (8 boards, 4 tables, matchpoints) is built with
``handrec site``; the browser opens its index, follows links to a board and to a pair and
reads the figures on the page, which must be those of ``handrec score --format json`` on
the same file.  Every request the pages make is recorded: each must be a file inside the
site's folder.  A file whose names and event are markup must show them as text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "club_session.pbn"
MINUS = "\u2212"


def _handrec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "handrec.cli", *args], capture_output=True, text=True, check=False, cwd=ROOT
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "club"
    done = _handrec("site", str(SAMPLE), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "1 session, 32 boards (8 deals), 8 score cards" in done.stderr
    return out


@pytest.fixture(scope="module")
def scored() -> dict[str, Any]:
    done = _handrec("score", str(SAMPLE), "--format", "json")
    assert done.returncode == 0, done.stderr
    (event,) = json.loads(done.stdout)["events"]
    return event


def _num(text: str) -> float:
    """A figure as the page prints it (true minus sign, ``+`` on a score) as a number."""
    return float(text.strip().replace(MINUS, "-").lstrip("+"))


def _inside(urls: list[str], folder: Path) -> list[str]:
    """The requests that are not a file inside ``folder``."""
    prefix = folder.resolve().as_uri() + "/"
    return [u for u in urls if not u.startswith(prefix)]


def test_index_to_board_to_pair_shows_handrec_score_figures(recorded: Any, site: Path, scored: dict) -> None:
    page, rec = recorded
    page.goto((site / "index.html").as_uri())
    assert page.title() == "Thursday club pairs"
    assert page.locator("h1").inner_text() == "Thursday club pairs"
    # the index names the winners of each direction, as handrec score ranks them
    winners = {r["ranking"]: r["rows"][0]["name"] for r in scored["rankings"]}
    row = page.locator("table.sessions tbody tr")
    assert row.count() == 1
    assert winners["NS"] in row.inner_text() and winners["EW"] in row.inner_text()

    page.get_by_role("link", name="Thursday club pairs", exact=True).last.click()
    assert page.url.endswith("/s1/index.html")
    # both rankings, every pair with handrec score's matchpoints and percentage
    for want, table in zip(scored["rankings"], page.locator("table.ranking").all()):
        assert table.locator("caption").inner_text() == f"Ranking {want['ranking'][0]}-{want['ranking'][1]}"
        lines = table.locator("tbody tr").all()
        assert len(lines) == len(want["rows"])
        for line, w in zip(lines, want["rows"]):
            cells = [c.inner_text() for c in line.locator("th, td").all()]
            assert cells[0] == w["rank"] and cells[1] == w["name"]
            assert _num(cells[3]) == w["mp"] and _num(cells[5]) == w["pct"]

    page.get_by_role("link", name="Board 2", exact=True).click()
    assert page.url.endswith("/s1/board-2.html")
    assert page.locator("h1").inner_text() == "Board 2"
    fig = page.locator("figure.diagram")
    assert fig.get_attribute("data-dealer") == "E" and fig.get_attribute("data-vul") == "NS"
    assert fig.locator(".hcp[data-seat='N']").inner_text() == "18"
    assert fig.locator(".h-n li[data-suit='S'] .ranks").inner_text() == "AK1098"
    # the traveller: each table's score and matchpoints as handrec score gives them
    want = next(t for t in scored["travellers"] if t["board"] == "2")
    lines = page.locator("table.traveller tbody tr").all()
    assert len(lines) == want["results"] == 4
    shown = {}
    for line in lines:
        ns = line.locator(".ns-pair").inner_text()
        shown[ns] = (
            int(line.get_attribute("data-score")),
            _num(line.locator(".ns-value").inner_text()),
            _num(line.locator(".ew-value").inner_text()),
            _num(line.locator(".ns-pct").inner_text()),
        )
    assert shown == {e["ns"]: (e["score_ns"], e["mp_ns"], e["mp_ew"], e["pct_ns"]) for e in want["entries"]}
    # the next board is one link away, and the BBO hand viewer link carries handrec's LIN
    assert page.locator("a[rel=next]").get_attribute("href") == "board-3.html"
    bbo = page.get_by_role("link", name="Replay in the BBO hand viewer").get_attribute("href")
    assert bbo.startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
    assert "md%7C4" in bbo and "ah%7CBoard%202%7C" in bbo  # dealer East (LIN 4), board 2

    # a traveller line leads to the other pair's score card
    page.locator("table.traveller tbody tr", has_text="N4 - S4").get_by_role("link", name="E4 - W4").click()
    assert page.locator("h1").text_content() == "Score card: E4 - W4"
    card = page.locator("table.card-table tbody tr").all()
    mine = [(t["board"], e) for t in scored["travellers"] for e in t["entries"] if e["ew"] == "E4 - W4"]
    assert len(card) == len(mine) == 8
    for line, (board, e) in zip(card, mine):
        cells = line.locator("th, td")
        assert cells.nth(0).inner_text() == board
        assert _num(line.locator(".score").inner_text()) == -e["score_ns"]
        assert _num(line.locator(".value").inner_text()) == e["mp_ew"]
        assert _num(line.locator(".pct").inner_text()) == e["pct_ew"]
        assert line.locator("td").nth(1).inner_text() == e["declarer"]
    total = next(r for r in scored["rankings"] if r["ranking"] == "EW")
    row = next(r for r in total["rows"] if r["name"] == "E4 - W4")
    standing = page.locator("p.standing").inner_text()
    assert f"Rank {row['rank']}" in standing and f"% {row['pct']}" in standing
    # the lead of board 1 at table 4 (the file's first card: the diamond king)
    assert card[0].locator(".lead").text_content().replace(" ", "") == "\u2666diamondsK"
    # and the board's link goes back to its page
    card[1].get_by_role("link", name="2").click()
    assert page.url.endswith("/s1/board-2.html")
    assert rec.dialogs == [] and rec.errors == []
    assert _inside(rec.urls, site) == []


def test_no_request_leaves_the_folder(recorded: Any, site: Path) -> None:
    """Every page, and all it loads (stylesheet, script, fonts), comes from the site's folder."""
    page, rec = recorded
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 1 + 1 + 8 + 8
    for p in pages:
        page.goto(p.as_uri())
        page.wait_for_load_state("load")
        page.evaluate("document.fonts.ready.then(() => true)")
    assert _inside(rec.urls, site) == []
    loaded = {u.rsplit("/", 1)[-1] for u in rec.urls}
    assert {"site.css", "sort.js", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"} <= loaded
    assert page.evaluate("document.fonts.check('16px \"DejaVu Sans\"')")
    assert rec.errors == []


HOSTILE_NAME = "<script>window.__pwned = 1</script>"
HOSTILE_ATTR = '"><img src=x onerror="window.__pwned = 2">'
HOSTILE_EVENT = "<b>Club</b> & <i>friends</i>"


def _hostile_pbn() -> str:
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    games = []
    for table, (north, result) in enumerate(((HOSTILE_NAME, "10"), (HOSTILE_ATTR, "9"), ("Ann", "11")), 1):
        games.append(
            f'[Event "{HOSTILE_EVENT}"]\n[Date "2026.01.05"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            f'[North "{north.replace(chr(34), chr(92) + chr(34))}"]\n[South "S{table}"]\n[East "E{table}"]\n'
            f'[West "W{table}"]\n[Deal "{deal}"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "{result}"]\n'
        )
    return "\n".join(games)


def test_hostile_names_are_text(recorded: Any, tmp_path: Path) -> None:
    src = tmp_path / "hostile.pbn"
    src.write_text(_hostile_pbn(), encoding="utf-8")
    out = tmp_path / "site"
    done = _handrec("site", str(src), "-o", str(out))
    assert done.returncode == 0, done.stderr
    page, rec = recorded
    page.goto((out / "index.html").as_uri())
    assert page.locator("h1").inner_text() == HOSTILE_EVENT
    page.goto((out / "s1" / "index.html").as_uri())
    names = page.locator("table.ranking tbody th").all_inner_texts()
    assert f"{HOSTILE_NAME} - S1" in names and f"{HOSTILE_ATTR} - S2" in names
    page.goto((out / "s1" / "board-1.html").as_uri())
    assert f"{HOSTILE_ATTR} - S2" in page.locator("table.traveller").inner_text()
    page.get_by_role("link", name=f"{HOSTILE_NAME} - S1").click()
    assert page.locator("h1").text_content() == f"Score card: {HOSTILE_NAME} - S1"
    for p in sorted(out.rglob("*.html")):
        page.goto(p.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("window.__pwned") is None, p
        assert page.locator("img").count() == 0, p
        # the event's markup is not markup (the site itself writes no <i>, and no <b> round a name)
        assert page.locator("i").count() == 0 and page.locator("b", has_text="Club").count() == 0, p
    assert rec.dialogs == [] and rec.errors == []
    assert _inside(rec.urls, out) == []


def test_tables_sort_and_pages_work_without_javascript(browser: Any, site: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto((site / "s1" / "board-6.html").as_uri())
    rows = page.locator("table.traveller tbody tr")
    before = rows.locator(".ns-pair").all_inner_texts()
    header = page.get_by_role("button", name="MP N-S")
    header.click()
    assert header.locator("xpath=..").get_attribute("aria-sort") == "ascending"
    values = [_num(v) for v in rows.locator(".ns-value").all_inner_texts()]
    assert values == sorted(values) and values[0] == 0
    header.press("Enter")  # a button: the keyboard sorts too, now descending
    values = [_num(v) for v in rows.locator(".ns-value").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    ctx.close()
    # without JavaScript: the same traveller, in the site's order, headers as plain text
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto((site / "s1" / "board-6.html").as_uri())
    assert page.locator("table.traveller tbody tr .ns-pair").all_inner_texts() == before
    assert page.locator("button.sort").count() == 0
    assert page.locator("a[rel=next]").get_attribute("href") == "board-7.html"
    ctx.close()


def test_keyboard_screen_reader_and_print(browser: Any, site: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto((site / "s1" / "board-1.html").as_uri())
    # the first Tab reaches the skip link, and it moves to the content
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('rel')") == "next"
    # suits are spoken by name: the accessible text of 2H is "2 hearts"
    contract = page.locator("table.traveller tbody tr", has_text="N1 - S1").locator(".contract")
    assert " ".join(contract.text_content().split()) == "2\u2665 hearts"
    assert contract.locator(".sym").get_attribute("aria-hidden") == "true"
    # tables have captions and header cells with scope
    for table in page.locator("table").all():
        assert table.locator("caption").count() == 1
        assert table.locator("thead th:not([scope=col])").count() == 0
    # a phone: nothing wider than the screen but the scrolling tables
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # paper: the navigation and the BBO link are not printed
    page.emulate_media(media="print")
    assert not page.locator("nav.crumbs").is_visible() and not page.locator("p.bbo").is_visible()
    assert page.locator("table.traveller").is_visible()
    ctx.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_long_unbroken_event_name_wraps_inside_the_page(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path, width: int
) -> None:
    # the corpus file's Event of 255 characters is one word of digits after "characters"
    out = tmp_path_factory.mktemp("long") / "site"
    done = _handrec("site", str(corpus_dir / "pbn" / "pbn10_reference_correct_latin1.pbn"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    for p in sorted(out.rglob("*.html")):
        page.goto(p.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width, p.relative_to(out)
    page.goto((out / "index.html").as_uri())
    heading = page.locator("h2", has_text="An extremely long line of 255 characters")
    assert heading.bounding_box()["x"] + heading.bounding_box()["width"] <= width
    if width == 1280:
        # on a desktop every sessions table fits its box: the Winners column is in sight
        for box in page.locator("div.scroll").all():
            assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.get_attribute("aria-label")
    ctx.close()
