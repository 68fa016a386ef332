"""The console examples of README.md and docs/ are run: each ``$ handrec ...`` line of a
```` ```console ```` block, in a folder where ``sample_data`` is the repository's, must print
exactly the lines that follow it (standard output and error, as a terminal shows them).

The commands of one page run in order in one folder, so a page can convert a dataset and then
query it.  Other commands (``pip``, ``dask``) go in ```` ```sh ```` blocks, which are not run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)


def examples(text: str) -> list[tuple[str, list[str]]]:
    """The ``(command, expected output lines)`` of every console block of ``text``, in order."""
    out: list[tuple[str, list[str]]] = []
    for block in _BLOCK.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
            else:
                raise ValueError(f"console block that does not start with a command: {line!r}")
    return out


def test_examples_are_parsed() -> None:
    text = "x\n```console\n$ handrec a\none\ntwo\n$ handrec b\n```\n```sh\n$ pip x\n```\n"
    assert examples(text) == [("handrec a", ["one", "two"]), ("handrec b", [])]


PAGES_WITH_EXAMPLES = [p for p in PAGES if examples(p.read_text(encoding="utf-8"))]


def test_the_pages_with_examples() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES_WITH_EXAMPLES}
    assert {"README.md", "docs/commands/validate.md", "docs/commands/codes.md", "docs/sql.md"} <= names


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_console_examples(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()
    for command, expected in examples(page.read_text(encoding="utf-8")):
        words = shlex.split(command)
        assert words[0] == "handrec", f"{page.name}: only handrec commands are run: {command}"
        r = runner.invoke(app, words[1:])
        assert r.exception is None or isinstance(r.exception, SystemExit), (command, r.exception)
        assert r.output.splitlines() == expected, f"{page.relative_to(ROOT)}: $ {command}"
