"""Small command-line behaviours of issue #19.7: generate never leaves half a file, and the SQL
lock's error says how to lift it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import handrec.formats.pbn.writer as pbn_writer
from handrec.cli import app

runner = CliRunner()
SAMPLE = Path(__file__).parents[2] / "sample_data" / "club_session.pbn"


def test_generate_interrupted_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.pbn"
    out.write_text("old\n")

    def dump_then_stop(boards, f, **kw):  # kw: suffixes=True (realistic files)
        f.write('% PBN 2.1\n[Event "half"]\n')
        raise KeyboardInterrupt

    monkeypatch.setattr(pbn_writer, "dump", dump_then_stop)
    r = runner.invoke(app, ["generate", "-n", "2", "-o", str(out)])
    assert r.exit_code == 130  # Ctrl-C
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pbn"]  # no temporary file left


def test_generate_writes_the_whole_file(tmp_path: Path) -> None:
    out = tmp_path / "g.pbn"
    r = runner.invoke(app, ["generate", "-n", "3", "--seed", "2", "-o", str(out)])
    assert r.exit_code == 0 and r.stderr == f"3 boards -> {out}\n"
    assert out.read_text().count("[Board ") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pbn"]


def test_sql_file_access_names_allow_external(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out), "-q"]).exit_code == 0
    r = runner.invoke(app, ["query", str(out), "select * from read_csv('/etc/passwd')"])
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        'handrec: Permission Error: Cannot access file "/etc/passwd" - file system operations are disabled by '
        "configuration",
        "",
        "LINE 1: select * from read_csv('/etc/passwd')",
        "                      ^^^^^^^^^^^^^^^^^^^^^^^",
        "(the SQL may read only the dataset's tables: --allow-external lets it reach other files)",
    ]


# --- formats from the name (#19.6) -----------------------------------------------------------


def test_export_format_from_the_extension(tmp_path: Path) -> None:
    out = tmp_path / "x.lin"
    r = runner.invoke(app, ["export", str(SAMPLE), "-o", str(out)])
    assert r.exit_code in (0, 1), r.output
    assert out.read_text().startswith(("pn|", "vg|", "st|", "md|", "qx|")), out.read_text()[:40]
    out = tmp_path / "x.PBN"
    assert runner.invoke(app, ["export", str(SAMPLE), "-o", str(out)]).exit_code in (0, 1)
    assert out.read_text().startswith("% PBN")


def test_export_refuses_a_name_that_contradicts_to(tmp_path: Path) -> None:
    r = runner.invoke(app, ["export", str(SAMPLE), "--to", "pbn", "-o", str(tmp_path / "x.lin")])
    assert r.exit_code == 2
    assert r.stderr == "handrec: --to pbn but x.lin names LIN: change the name or --to\n"
    assert not (tmp_path / "x.lin").exists()


def test_export_needs_to_for_an_unknown_extension(tmp_path: Path) -> None:
    r = runner.invoke(app, ["export", str(SAMPLE), "-o", str(tmp_path / "x.txt")])
    assert r.exit_code == 2
    assert r.stderr == "handrec: cannot tell the format from x.txt (.pbn, .lin, .xml): add --to\n"
    assert runner.invoke(app, ["export", str(SAMPLE), "--to", "lin", "-o", str(tmp_path / "x.txt")]).exit_code in (0, 1)


def test_booklet_paper_in_any_case_and_per_page_only_for_pdf(tmp_path: Path) -> None:
    r = runner.invoke(app, ["booklet", str(SAMPLE), "-o", str(tmp_path / "b.pdf"), "--paper", "A4", "--per-page", "4"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["booklet", str(SAMPLE), "-o", str(tmp_path / "b.pdf"), "--paper", "Letter"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["booklet", str(SAMPLE), "-o", str(tmp_path / "b.html"), "--per-page", "4"])
    assert r.exit_code == 2
    assert r.stderr == "handrec: --per-page is for the PDF booklet (the HTML one reflows to the page)\n"
