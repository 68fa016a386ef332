"""``handrec booklet`` on the command line: what it draws, what it leaves out and what it says.

Each message on stderr is checked word for word: a director reads them.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.cli.booklet import booklet

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
CLUB_PAIRS = ROOT / "sample_data" / "club_pairs.pbn"

DEAL1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DEAL2 = "N:KQJ84.A6.KQ5.J73 T7.KQ.AJ9832.Q64 A932.T9832.T4.A5 65.J754.76.KT982"
# Two boards, four tables each: board, deal (None: no Deal tag), contracts (N-S pair, E-W pair, contract, tricks).
TABLES = [("1", "5", "4S", 10), ("2", "6", "4S", 11), ("3", "7", "4S", 10), ("4", "8", "5SX", 10)]


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def pbn(boards: list[tuple[int, str | None]], *, results: bool) -> str:
    out = []
    for number, deal in boards:
        for ns, ew, contract, tricks in TABLES if results else [("1", "5", "", 0)]:
            tags = {"Event": "Club", "Board": str(number), "Dealer": "N", "Vulnerable": "None"}
            if deal is not None:
                tags["Deal"] = deal
            if results:
                tags |= {"PairNS": ns, "PairEW": ew, "Declarer": "N", "Contract": contract, "Result": str(tricks)}
            out.extend(f'[{k} "{v}"]' for k, v in tags.items())
            out.append("")
    return "\n".join(out)


def pdf_pages(path: Path) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages]


# ---------------------------------------------------------------------------
# 1. Boards without a deal get no diagram


def test_reference_file_draws_only_the_boards_with_a_deal(corpus_dir: Path, tmp_path: Path) -> None:
    """The PBN 1.0 reference file: 27 boards, 22 of them without a Deal tag (fragments of the standard)."""
    out = tmp_path / "x.pdf"
    r = run("booklet", corpus_dir / "pbn" / "pbn10_reference_correct_latin1.pbn", "-o", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "handrec: 22 boards without a deal left out of the diagrams",
        f"31 boards (5 diagrams) -> {out}",
    ]
    pages = pdf_pages(out)
    # the five boards belong to five events (Event tags) of the file: a page each, headed by it
    assert [p.count("BOARD") for p in pages] == [1] * 5
    assert pages[0].startswith("International Amsterdam Airport Schiphol Bridgetournament")
    page = "".join(pages)
    assert "Deal not given" not in page
    assert page.count("Dealer ?") == 1  # the last board, whose Dealer tag is empty
    assert page.count("Incomplete deal") == 2  # the partial deals are still drawn


def test_board_without_deal_keeps_its_results(tmp_path: Path) -> None:
    src = tmp_path / "club.pbn"
    src.write_text(pbn([(1, DEAL1), (2, None)], results=True), encoding="utf-8")
    out = tmp_path / "b.pdf"
    r = run("booklet", src, "-o", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "handrec: 1 board without a deal left out of the diagrams",
        f"8 boards (1 diagram) -> {out}",
    ]
    diagrams, results = pdf_pages(out)
    assert diagrams.count("BOARD") == 1 and "Board 1" in diagrams
    assert "Board 1" in results and "Board 2" in results


def test_no_deal_but_results_prints_the_results_alone(tmp_path: Path) -> None:
    src = tmp_path / "club.pbn"
    src.write_text(pbn([(1, None), (2, None)], results=True), encoding="utf-8")
    out = tmp_path / "b.pdf"
    r = run("booklet", src, "-o", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "handrec: 2 boards without a deal left out of the diagrams",
        f"8 boards (0 diagrams) -> {out}",
    ]
    (page,) = pdf_pages(out)  # no empty diagram page before the results
    assert page.startswith("Club") and "No boards." not in page and "BOARD" not in page
    assert "Board 1" in page and "Board 2" in page
    html = tmp_path / "b.html"
    r = run("booklet", src, "-o", html)
    assert r.exit_code == 0, r.output
    text = html.read_text(encoding="utf-8")
    assert "No boards." not in text and 'class="board' not in text and 'class="traveller"' in text
    assert '<h1 class="event">Club</h1>' in text


@pytest.mark.parametrize("suffix", [".pdf", ".html"])
def test_nothing_to_print_exits_1_and_writes_nothing(tmp_path: Path, suffix: str) -> None:
    src = tmp_path / "fragments.pbn"
    src.write_text(pbn([(1, None), (2, None)], results=False), encoding="utf-8")
    out = tmp_path / f"b{suffix}"
    r = run("booklet", src, "-o", out)
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines() == [
        "handrec: nothing to print: none of the 2 boards has a deal and there are no results"
    ]
    assert not out.exists()
    out.write_bytes(b"earlier booklet")
    r = run("booklet", src, "-o", out, "--no-results")
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines() == ["handrec: nothing to print: none of the 2 boards has a deal"]
    assert out.read_bytes() == b"earlier booklet"  # left untouched


def test_nothing_to_print_one_board_and_no_board(tmp_path: Path, corpus_dir: Path) -> None:
    src = tmp_path / "one.pbn"
    src.write_text(pbn([(1, None)], results=False), encoding="utf-8")
    r = run("booklet", src, "-o", tmp_path / "b.html")
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines() == ["handrec: nothing to print: the board has no deal and there are no results"]
    r = run("booklet", corpus_dir / "pbn" / "header_only_no_games.pbn", "-o", tmp_path / "b.html")
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines() == ["handrec: nothing to print: the input has no boards"]
    assert not (tmp_path / "b.html").exists()


# ---------------------------------------------------------------------------
# 2. --results on an input without results


def test_explicit_results_without_results_says_why(corpus_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    r = run("booklet", CLUB_PAIRS, "-o", out, "--results")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        "handrec: no results to print: each board has at most one result and there is no ScoreTable",
        f"8 boards (8 diagrams) -> {out}",
    ]
    (valet,) = (corpus_dir / "pbn").glob("valet_euro2006*.pbn")
    r = run("booklet", valet, "-o", out, "--results")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0] == "handrec: no results to print: no board has a result"


def test_default_stays_silent_without_results(tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    for args in ([], ["--no-results"]):
        r = run("booklet", CLUB_PAIRS, "-o", out, *args)
        assert r.exit_code == 0, r.output
        assert r.stderr.splitlines() == [f"8 boards (8 diagrams) -> {out}"]


def test_explicit_results_with_results_is_silent(tmp_path: Path) -> None:
    src = tmp_path / "club.pbn"
    src.write_text(pbn([(1, DEAL1), (2, DEAL2)], results=True), encoding="utf-8")
    out = tmp_path / "b.html"
    r = run("booklet", src, "-o", out, "--results")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [f"8 boards (2 diagrams) -> {out}"]


# ---------------------------------------------------------------------------
# 3, 4. Help


def test_summary_is_one_short_sentence() -> None:
    first, *rest = (booklet.__doc__ or "").split("\n\n")
    assert first == "Print a hand-record booklet: the deals, then the results."
    assert rest  # the details follow in the command's own help
    r = runner.invoke(app, ["--help"], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    (line,) = [ln for ln in r.stdout.splitlines() if " booklet " in ln]
    assert first in line  # on one line of an 80-column terminal, not cut


def test_help_names_the_codes_the_booklet_reports(tmp_path: Path) -> None:
    r = runner.invoke(app, ["booklet", "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    text = " ".join(r.stdout.replace("│", " ").split())
    assert "S603-S608" in text and "S609" in text and "S603-S609" not in text
    assert "exits 1" in text


# --- --dd without the solver -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["b.html", "b.pdf"])
def test_dd_without_endplay_is_refused_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """As validate --dd: exit 2 with one line, nothing written; without --dd the booklet is printed."""

    def missing() -> None:
        raise ImportError("No module named 'endplay'")

    from handrec.dd import engine

    monkeypatch.setattr(engine, "_dds", missing)  # endplay not installed
    monkeypatch.setattr(engine, "available", lambda: False)
    out = tmp_path / name
    r = run("booklet", CLUB_PAIRS, "-o", out, "--dd")
    assert r.exit_code == 2
    assert r.stderr == "handrec: --dd needs the double-dummy solver: pip install 'handrec[dd]' (adds endplay)\n"
    assert not out.exists() and list(tmp_path.iterdir()) == []
    r = run("booklet", CLUB_PAIRS, "-o", tmp_path / "c.html")
    assert r.exit_code == 0, r.output
