"""Output on a terminal narrower than 80 columns is laid out to its width (fresh-user trial: a
40-column pane got ``--help`` at least 50 columns wide and query tables 80 wide, broken
mid-word by the terminal); on a pipe, the layout stays the same whatever runs it."""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from handrec.runs.convert import convert

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = 40


def _on_terminal(args: list[str], columns: int = COLUMNS) -> str:
    """``python -m handrec.cli ARGS`` with stdout on a pseudo-terminal ``columns`` wide: its output."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = dict(os.environ, TERM="xterm", PYTHONPATH=str(ROOT))
    env.pop("COLUMNS", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "handrec.cli", *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    proc.wait(timeout=120)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode()).replace("\r", "")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("narrow") / "ds"
    convert([ROOT / "sample_data"], out, jobs=1)
    return out


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["convert", "--help"]])
def test_help_fits_a_narrow_terminal(args: list[str]) -> None:
    lines = _on_terminal(args).splitlines()
    assert lines[0].startswith("Usage: ")
    assert max(map(len, lines)) <= COLUMNS, [x for x in lines if len(x) > COLUMNS]


def test_a_query_table_fits_a_narrow_terminal(dataset: Path) -> None:
    lines = _on_terminal(["query", str(dataset), "select source_file, status, boards from files"]).splitlines()
    assert "source_file" in lines[0] and "boards" in lines[0]
    assert max(map(len, lines)) <= COLUMNS, lines
    assert "".join(x.strip(" │").split("│")[0].strip() for x in lines[2:]).count("sample_data") == 3


def test_on_a_pipe_the_table_keeps_its_width(dataset: Path) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "query", str(dataset), "select source_file, status from files"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert max(map(len, p.stdout.splitlines())) > COLUMNS  # 80 columns: a path is not folded


def test_too_many_columns_for_the_width_are_shown_a_record_a_block(dataset: Path) -> None:
    # select * from boards (69 columns) drew empty columns only, at any width
    p = subprocess.run(
        [sys.executable, "-m", "handrec.cli", "query", str(dataset), "select * from boards order by board_id limit 2"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    lines = [x.rstrip() for x in p.stdout.splitlines()]
    assert [x for x in lines if x.startswith("record")] == ["record 1", "record 2"]
    assert lines[1].split("│") == [" board_id           ", " 0"]
    assert any(x.split("│")[0].strip() == "contract" and x.split("│")[1].strip() for x in lines)
    lines = _on_terminal(["query", str(dataset), "select * from boards limit 1"]).splitlines()
    assert max(map(len, lines)) <= COLUMNS and any("source_file" in x for x in lines)
