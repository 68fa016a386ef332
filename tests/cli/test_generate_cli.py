"""``handrec generate``: standard output (``-o -`` with ``--format``) and an ``--event`` that could
not validate clean (control characters) refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

runner = CliRunner()


def run(*args: object):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_generate_to_standard_output_is_the_file_it_writes(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"g.{fmt}"
    assert run("generate", "-n", "3", "--seed", "5", "-q", "-o", out).exit_code == 0
    args = ["generate", "-n", "3", "--seed", "5", "-o", "-"] + ([] if fmt == "pbn" else ["--format", "lin"])
    r = run(*args)
    assert (r.exit_code, r.stderr) == (0, "3 boards -> standard output\n")
    assert r.stdout == out.read_text(encoding="utf-8").replace(str(out), "-")
    assert r.stdout.startswith("% PBN 2.1" if fmt == "pbn" else "pn|")


def test_generate_format_and_name_must_agree(tmp_path: Path) -> None:
    r = run("generate", "-o", tmp_path / "g.lin", "--format", "pbn")
    assert (r.exit_code, r.stderr) == (2, "handrec: --format pbn but g.lin names LIN: change the name or --format\n")
    r = run("generate", "-o", tmp_path / "g.txt")
    assert (r.exit_code, r.stderr) == (2, "handrec: --output must end in .pbn or .lin (or be - for standard output)\n")
    assert list(tmp_path.iterdir()) == []
    r = run("generate", "-n", "2", "-q", "-o", tmp_path / "g.lin", "--format", "lin")
    assert r.exit_code == 0 and (tmp_path / "g.lin").read_text().startswith("pn|")


@pytest.mark.parametrize(
    ("event", "shown"), [("ev\x1b[31m", "U+001B"), ("a\tb", "U+0009"), ("a\nb", "U+000A"), ("x\x85", "U+0085")]
)
def test_generate_refuses_control_characters_in_the_event(tmp_path: Path, event: str, shown: str) -> None:
    out = tmp_path / "g.pbn"
    r = run("generate", "-o", out, "--event", event)
    assert (r.exit_code, r.stdout) == (2, "")
    assert (
        r.stderr == f"handrec: --event must not hold control characters (it holds {shown}): a PBN tag value has none\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_generate_keeps_a_printable_event(tmp_path: Path) -> None:
    out = tmp_path / "g.pbn"
    assert run("generate", "-n", "2", "-q", "-o", out, "--event", 'Été "cup" 2026').exit_code == 0
    r = run("validate", out)
    assert (r.exit_code, r.stdout.splitlines()[-1]) == (0, "1 files, 2 boards, 0 errors, 0 warnings")
    assert '[Event "Été \\"cup\\" 2026"]' in out.read_text(encoding="utf-8")
