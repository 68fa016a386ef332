"""``handrec validate --max-errors N`` prints exactly N errors: what ``validate`` prints without it, cut
right after the N-th error line, then the summary of what was printed; the same with ``--jobs 2``
(pool forced, the file in parts) as with ``--jobs 1``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import handrec.runs.validate as vr
from handrec.cli import app
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.limits import Limits

from ._jobs import both

runner = CliRunner()


def faulty_pbn(games: int, seed: int, tail: str = "") -> str:
    """Generated games, each with one warning and then two errors: the Board tag given twice
    (T102), a Result one trick too many (C503) and a Score that is not the contract's (S601)."""
    buf = io.StringIO()
    dump(generate_boards(games, seed=seed), buf)
    t = buf.getvalue()
    t = re.sub(r'^(\[Score "NS -?\d+)', r"\g<1>7", t, flags=re.M)
    t = re.sub(r'^\[Result "(\d+)"\]', lambda m: f'[Result "{int(m[1]) % 13 + 1}"]', t, flags=re.M)
    t = re.sub(r"^(\[Board [^\]]*\])(\r?\n)", r"\1\2\1\2", t, flags=re.M)
    return t + tail


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """300 games of ``faulty_pbn`` (about 170 kB: many parts of 20 kB), with a brace comment open at
    the end (F005, an error of the file, reported after its games)."""
    f = tmp_path / "big.pbn"
    f.write_text(faulty_pbn(300, seed=3, tail="\r\n{ open comment at the end\r\n"), newline="")
    return f


def full_run(path: Path) -> tuple[list[str], list[dict]]:
    """``validate --jobs 1`` without a limit: the lines printed, and the JSON diagnostics."""
    lines = runner.invoke(app, ["validate", "--jobs", "1", str(path)]).stdout.splitlines()
    doc = json.loads(runner.invoke(app, ["validate", "--jobs", "1", "--format", "json", str(path)]).stdout)
    return lines, doc["diagnostics"]


def cut_after(items: list, n: int, is_error) -> list:
    """``items`` up to and including the ``n``-th error."""
    seen = 0
    for i, x in enumerate(items):
        seen += is_error(x)
        if seen == n:
            return items[: i + 1]
    raise AssertionError(f"fewer than {n} errors")


def text_error(line: str) -> bool:
    return " error: " in line


def json_error(d: dict) -> bool:
    return d["severity"] == "error"


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 41, 597, 598])
def test_max_errors_prints_the_output_up_to_the_nth_error(big: Path, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    lines, diags = full_run(big)
    assert lines[-1] == "1 files, 300 boards, 598 errors, 300 warnings"  # C503 and S601 a game (but 3), F005
    assert " F005 error: " in lines[-2]
    one, two = both(monkeypatch, ["--max-errors", n, big])
    assert two == one
    out, err, status = one
    shown = cut_after(diags, n, json_error)
    boards = 300 if n == 598 else shown[-1]["board_index"] + 1
    warnings = len([d for d in shown if d["severity"] == "warning"])
    assert out.splitlines() == [
        *cut_after(lines[:-1], n, text_error),
        f"1 files, {boards} boards, {n} errors, {warnings} warnings",
    ]
    assert len([x for x in out.splitlines() if " error: " in x]) == n
    assert err == f"handrec: stopped after {n} error{'s' if n > 1 else ''} (--max-errors {n})\n"
    assert status == 1
    if n in (1, 3, 5):  # the n-th error is a game's C503: its S601 is not printed
        assert (shown[-1]["code"], shown[-1]["board_index"]) == ("C503", n // 2)
        assert out.splitlines()[-1] == f"1 files, {n // 2 + 1} boards, {n} errors, {n // 2 + 1} warnings"
    if n == 597:  # the last game's last error: the file's F005 after it is not printed
        assert " S601 error: " in out.splitlines()[-2]


@pytest.mark.parametrize("n", [1, 3, 598])
def test_max_errors_json_is_the_full_list_cut_after_the_nth_error(
    big: Path, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, diags = full_run(big)
    one, two = both(monkeypatch, ["--format", "json", "--max-errors", n, big])
    assert two == one
    doc = json.loads(one[0])
    assert doc["diagnostics"] == cut_after(diags, n, json_error)
    assert (doc["files"], doc["errors"], doc["stopped"]) == (1, n, True)
    assert doc["warnings"] == len([d for d in doc["diagnostics"] if d["severity"] == "warning"])
    assert doc["boards"] == (300 if n == 598 else n // 2 + 1)
    if n == 598:  # the 598th error is the file's F005, after its games
        assert doc["diagnostics"][-1]["code"] == "F005"


def test_max_errors_over_several_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three files of 40 games: the stop falls in the second, the third is not read."""
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        (folder / f"f{i}.pbn").write_text(faulty_pbn(40, seed=10 + i), newline="")
    lines, diags = full_run(folder)
    assert lines[-1].startswith("3 files, 120 boards, ")
    first = len([d for d in diags if json_error(d) and d["path"].endswith("f0.pbn")])
    n = first + 7
    one, two = both(monkeypatch, ["--max-errors", n, folder], part_bytes=8_000)
    assert two == one
    out = one[0].splitlines()
    shown = cut_after(diags, n, json_error)
    assert shown[-1]["path"] == str(folder / "f1.pbn") and shown[-1]["code"] == "C503"
    boards = 40 + shown[-1]["board_index"] + 1
    warnings = len([d for d in shown if d["severity"] == "warning"])
    assert out == [*cut_after(lines[:-1], n, text_error), f"2 files, {boards} boards, {n} errors, {warnings} warnings"]


def test_validate_paths_reports_are_cut_at_the_nth_error(big: Path) -> None:
    limits = Limits()
    full = list(vr.validate_paths([big], jobs=1, limits=limits))
    assert [(r.boards, r.errors, r.warnings, r.stopped) for r in full] == [(300, 598, 300, False)]
    codes = [f.diagnostic.code for f in full[0].findings[:9]]
    assert codes == ["T102", "C503", "S601"] * 3
    for jobs, kw in ((1, {}), (2, {"pool_bytes": 0, "part_bytes": 30_000})):
        (rep,) = vr.validate_paths([big], jobs=jobs, limits=limits, max_errors=5, **kw)
        assert (rep.boards, rep.errors, rep.warnings, rep.stopped) == (3, 5, 3, True)
        assert rep.findings == full[0].findings[:8]  # W E E, W E E, W E
        assert [f.board_number for f in rep.findings] == [1, 1, 1, 2, 2, 2, 3, 3]
