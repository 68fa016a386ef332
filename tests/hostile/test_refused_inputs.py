"""Inputs refused or empty as score, site, export and booklet see them: the input's own
diagnostic (as validate prints it), then one line saying nothing was made, the documented
exit status, and no empty output left behind.

An XML file with DTD declarations (a billion-laughs bomb) is refused whole (F023, an
error: exit status 1 as with validate); a file with no board is F018; a binary file named
.pbn is F004 (unreadable: exit status 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

from .test_bad_inputs import BASE

runner = CliRunner()

#: Entities of entities: 10**4 "a"s from a few lines (a real bomb nests deeper; the DTD is refused before any).
BOMB = """<?xml version="1.0"?>
<!DOCTYPE USEBIO [
 <!ENTITY a "aaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
]>
<USEBIO Version="1.2"><EVENT><EVENT_DESCRIPTION>&d;</EVENT_DESCRIPTION></EVENT></USEBIO>
"""
F023 = (
    "bomb.xml:2:18: F023 error: DOCTYPE internal subset refused: USEBIO needs no DTD declarations "
    "(entity bombs and attribute defaults hide there)"
)
F018 = "empty.pbn: F018 warning: no board in this PBN file"
F004 = "binary.pbn: F004 error: not PBN or LIN: no PBN tag pair or LIN command found"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as the current folder, with bomb.xml, empty.pbn, binary.pbn and a.pbn (one board)."""
    (tmp_path / "bomb.xml").write_text(BOMB)
    (tmp_path / "empty.pbn").write_text("% PBN 2.1\n")
    (tmp_path / "binary.pbn").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "a.pbn").write_text(BASE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    r = runner.invoke(app, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_validate_names_the_bomb_as_the_others_must(here: Path) -> None:
    r = run("validate", "bomb.xml")
    assert (r.stdout.splitlines(), r.exit_code) == ([F023, "1 files, 0 boards, 1 errors, 0 warnings"], 1)


@pytest.mark.parametrize(
    ("args", "lines", "status"),
    [
        (["score", "bomb.xml"], [F023, "handrec: no boards found"], 1),
        (["score", "empty.pbn"], [F018, "handrec: no boards found"], 1),
        (["score", "binary.pbn"], [F004, "handrec: no boards found"], 2),
        (["site", "bomb.xml", "-o", "out"], [F023, "handrec: no boards found; nothing written to out"], 1),
        (["site", "empty.pbn", "-o", "out"], [F018, "handrec: no boards found; nothing written to out"], 1),
        (["site", "binary.pbn", "-o", "out"], [F004, "handrec: no boards found; nothing written to out"], 2),
        (["export", "bomb.xml", "-o", "out.pbn"], [F023, "handrec: no boards found; nothing written to out.pbn"], 1),
        (["export", "bomb.xml", "-o", "out.xml"], [F023, "handrec: no boards found; nothing written to out.xml"], 1),
        (["export", "empty.pbn", "-o", "out.pbn"], [F018, "handrec: no boards found; nothing written to out.pbn"], 1),
        (["export", "binary.pbn", "-o", "out.lin"], [F004, "handrec: no boards found; nothing written to out.lin"], 2),
        (["booklet", "bomb.xml", "-o", "out.html"], [F023, "handrec: nothing to print: no board was read"], 1),
        (["booklet", "binary.pbn", "-o", "out.html"], [F004, "handrec: nothing to print: no board was read"], 2),
    ],
)
def test_nothing_read_says_why_and_writes_nothing(here: Path, args: list[str], lines: list[str], status: int) -> None:
    r = run(*args)
    assert (r.stderr.splitlines(), r.stdout, r.exit_code) == (lines, "", status)
    assert sorted(p.name for p in here.iterdir()) == ["a.pbn", "binary.pbn", "bomb.xml", "empty.pbn"]


def test_export_to_standard_output_of_nothing_prints_nothing(here: Path) -> None:
    r = run("export", "bomb.xml", "-o", "-")
    assert (r.stderr.splitlines(), r.stdout, r.exit_code) == (
        [F023, "handrec: no boards found; nothing written to standard output"],
        "",
        1,
    )


def test_a_refused_input_beside_a_good_one_is_said_and_exits_1(here: Path) -> None:
    # the good input's boards are written, scored, printed; the refused one is not passed over in silence
    r = run("export", "a.pbn", "bomb.xml", "-o", "out.pbn")
    assert (r.stderr.splitlines(), r.exit_code) == ([F023, "1 boards -> out.pbn"], 1)
    assert run("validate", "out.pbn").exit_code == 0
    r = run("score", "a.pbn", "bomb.xml", "-f", "csv")
    assert (r.stderr.splitlines(), r.exit_code) == ([F023], 1)
    assert r.stdout.splitlines()[1].startswith("Club,")
    r = run("site", "a.pbn", "bomb.xml", "-o", "s", "-j", "1")
    assert (r.stderr.splitlines(), r.exit_code) == (
        [F023, "1 session, 1 boards (1 deal), 0 score cards -> s/index.html"],
        1,
    )
    r = run("booklet", "a.pbn", "bomb.xml", "-o", "b.html")
    assert (r.stderr.splitlines(), r.exit_code) == ([F023, "1 boards (1 diagram) -> b.html"], 1)


def test_an_empty_file_beside_a_good_one_is_no_news(here: Path) -> None:
    # F018 explains a run that found nothing; beside boards it is a warning validate shows
    r = run("export", "a.pbn", "empty.pbn", "-o", "out.pbn")
    assert (r.stderr.splitlines(), r.exit_code) == (["1 boards -> out.pbn"], 0)


def test_an_empty_folder_is_still_no_input_found(here: Path) -> None:
    (here / "none").mkdir()
    why = "(inside folders and archives, files that are neither, by content or by a .pbn/.lin name, are skipped)"
    r = run("site", "none", "-o", "out")
    assert (r.stderr.splitlines(), r.exit_code) == (
        [f"handrec: no PBN or LIN input found in none {why}", "handrec: no boards found; nothing written to out"],
        1,
    )
    assert not (here / "out").exists()


def test_convert_says_why_a_refused_input_has_no_rows(here: Path) -> None:
    # the dataset is written (its files and diagnostics rows say it); the refusal is echoed, as F010's is
    r = run("convert", "bomb.xml", "a.pbn", "-o", "ds", "-j", "1")
    assert (r.stderr.splitlines(), r.exit_code) == (["2 files, 1 boards, 1 errors, 0 warnings -> ds", F023], 0)
