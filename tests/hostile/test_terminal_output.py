"""Input never drives the terminal (issue #22.1): rich markup and ESC/OSC/CSI sequences in tag values
and file names come out of every command as plain text, with control characters escaped."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

runner = CliRunner()

MARKUP = ["[/]", "[bold red]x[/bold red]", "[link=file:///etc/passwd]x[/link]"]
OSC_TITLE = "\x1b]0;pwned\x07"  # sets the terminal title
CSI_RED = "\x1b[31m"
C1_CSI = "\x9b2J"  # the 8-bit CSI: clears the screen on terminals that take C1 controls
#: What must never reach the terminal raw.
RAW = ("\x1b", "\x07", "\x9b")

PLAYERS = {"North": MARKUP[0], "South": MARKUP[1], "East": MARKUP[2], "West": f"{OSC_TITLE}W{CSI_RED}"}


def _game(board: int, ns: str, ew: str, contract: str, result: int, score: str) -> str:
    names = dict(PLAYERS, North=f"{PLAYERS['North']}{ns}", East=f"{PLAYERS['East']}{ew}")
    tags = "".join(f'[{k} "{v}"]\n' for k, v in names.items())
    return (
        f'[Event "{MARKUP[1]} {C1_CSI}"]\n[Site "Club"]\n[Date "2026.01.01"]\n[Board "{board}"]\n{tags}'
        '[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:J.AT7.K7642.QT65 875.Q932.JT5.932 KT64..AQ983.J874 AQ932.KJ8654..AK"]\n'
        f'[Scoring "MP"]\n[Declarer "W"]\n[Contract "{contract}"]\n[Result "{result}"]\n[Score "{score}"]\n\n'
    )


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a PBN file and a zip whose member name carries markup and an OSC sequence."""
    root = tmp_path_factory.mktemp("hostile-names")
    text = _game(1, "1", "1", "2H", 9, "NS -140") + _game(1, "2", "2", "2H", 8, "NS -110")
    text += _game(1, "3", "3", "3H", 9, "NS -140")
    (root / f"club[bold red]{OSC_TITLE}.pbn").write_text(text, encoding="utf-8")
    with zipfile.ZipFile(root / "week.zip", "w") as z:
        z.writestr(f"{MARKUP[2]}{OSC_TITLE}.pbn", text)
    return root


def _check(result, *, expect_codes: tuple[int, ...] = (0, 1, 2)) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in expect_codes, result.output
    for stream in (result.stdout, result.stderr):
        for raw in RAW:
            assert raw not in stream, (raw, stream)
    return result.stdout


def test_validate_and_convert_escape_names(inputs: Path, tmp_path: Path) -> None:
    _check(runner.invoke(app, ["validate", str(inputs)]))
    _check(runner.invoke(app, ["validate", str(inputs), "--format", "json"]))
    _check(runner.invoke(app, ["convert", str(inputs), "-o", str(tmp_path / "out")]), expect_codes=(0,))


@pytest.fixture(scope="module")
def dataset(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "out"
    assert runner.invoke(app, ["convert", str(inputs), "-o", str(out)]).exit_code == 0
    return out


SQL = "select source_file, north, east, event from boards order by source_file, board_id"


def test_query_table_prints_markup_as_text(dataset: Path) -> None:
    _check(runner.invoke(app, ["query", str(dataset), SQL]), expect_codes=(0,))  # long values fold, never cut
    out = ""
    for column in ("north", "south", "east"):
        sql = f"select distinct {column} from boards"
        out += _check(runner.invoke(app, ["query", str(dataset), sql]), expect_codes=(0,))
    out += _check(runner.invoke(app, ["query", str(dataset), "select distinct source_file from files"]))
    assert "[/]" in out  # shown, not read as a closing tag (rich.errors.MarkupError before)
    assert "[bold red]x[/bold red]" in out
    assert "[link=file:///etc/passwd]x[/link]" in out
    assert "\\x1b]0;pwned\\x07" in out  # the zip member's OSC sequence, escaped


def test_query_column_names_are_not_markup(dataset: Path) -> None:
    out = _check(runner.invoke(app, ["query", str(dataset), 'select 1 as "[/]", \'\x1b[2J\' as "[bold]b"']))
    assert "[/]" in out and "[bold]b" in out and "\\x1b[2J" in out


def test_query_csv_and_json_escape_controls(dataset: Path) -> None:
    csv_out = _check(runner.invoke(app, ["query", str(dataset), SQL, "--format", "csv"]), expect_codes=(0,))
    assert "\\x1b]0;pwned\\x07" in csv_out
    json_out = _check(runner.invoke(app, ["query", str(dataset), SQL, "--format", "json"]), expect_codes=(0,))
    rows = json.loads(json_out)  # still JSON, and the values are the input's
    assert any(OSC_TITLE in r["source_file"] for r in rows)
    assert any(C1_CSI in r["event"] for r in rows)


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_score_escapes_names(inputs: Path, fmt: str) -> None:
    out = _check(runner.invoke(app, ["score", str(inputs), "--format", fmt]), expect_codes=(0,))
    if fmt == "json":
        assert C1_CSI in json.dumps(json.loads(out), ensure_ascii=False)
    else:
        assert "[bold red]x[/bold red]" in out
        assert "\\x1b]0;pwned\\x07" in out or "\\x1b[31m" in out


def test_booklet_export_and_outputs_named_with_escapes(inputs: Path, tmp_path: Path) -> None:
    evil = tmp_path / f"b{OSC_TITLE}.html"
    _check(runner.invoke(app, ["booklet", str(inputs), "-o", str(evil)]))
    _check(runner.invoke(app, ["export", str(inputs), "--to", "lin", "-o", str(tmp_path / f"e{CSI_RED}.lin")]))
    _check(runner.invoke(app, ["generate", "-n", "1", "--seed", "1", "-o", str(tmp_path / f"g{OSC_TITLE}.pbn")]))
