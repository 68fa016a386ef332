"""Fouled boards (S613), boards given twice (S614) and impossible results after a partial play
(C507) in a big generated file: ``handrec validate --jobs 2`` over many small parts reports
exactly what ``--jobs 1`` does (the event checks run in the parent over every record).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import handrec.runs.parts as vp
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards

from ._jobs import both

runner = CliRunner()


def fouled_session(games: int) -> tuple[bytes, int, int]:
    """A pairs session (4 tables a board) where tables 3 and 4 of every ninth board played
    another deal, with hand records of boards 1-5 listed twice at the end and some plays cut
    after six tricks with an impossible Result.  Returns (bytes, fouled boards, repeats)."""
    a = list(generate_boards(games, seed=11, tables=4))
    b = list(generate_boards(games, seed=12, tables=4))
    mixed = []
    fouled = 0
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        number, table = divmod(i, 4)
        if (number + 1) % 9 == 4:
            fouled += table == 2
            mixed.append(y if table >= 2 else x)
        else:
            mixed.append(x)
    buf = io.StringIO()
    dump(mixed, buf)
    blocks = buf.getvalue().replace("\r\n", "\n").split("\n\n")
    out = []
    for i, g in enumerate(blocks):
        if i % 53 == 7 and "[Play " in g:
            head, play = g.split("[Play ", 1)
            lines = play.split("\n")
            g = head.replace('[Result "', '[Result "1', 1) + "[Play " + "\n".join(lines[:7]) + "\n*"
            g = re.sub(r'\[Result "1(\d+)"\]', lambda m: '[Result "13"]' if int(m.group(1)) < 13 else m.group(0), g)
        out.append(g)
    records = []
    for n in range(1, 6):
        deal = re.search(r'\[Deal "([^"]+)"\]', out[4 * (n - 1)]).group(1)  # type: ignore[union-attr]
        listing = f'[Event "handrec generated"]\n[Board "{n}"]\n[Deal "{deal}"]'
        records += [listing, listing]
    data = "\n\n".join([*out, *records]) + "\n"
    return data.encode(), fouled, 5


def test_fouled_boards_same_output_in_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, fouled, repeats = fouled_session(800)
    f = tmp_path / "fouled.pbn"
    f.write_bytes(data)
    parts: list[int] = []
    bounds = vp._part_bounds

    def part_bounds(inp, jobs, part_bytes, first_bytes=None):  # type: ignore[no-untyped-def]
        found = bounds(inp, jobs, part_bytes, first_bytes)
        parts.append(0 if found is None else len(found))
        return found

    monkeypatch.setattr(vp, "_part_bounds", part_bounds)
    for args in ([], ["--format", "json"], ["--max-errors", "2"]):
        one, two = both(monkeypatch, [*args, f], part_bytes=30_000)
        assert two == one, args
    assert parts and parts[0] >= 8  # the file was read in many parts
    out = both(monkeypatch, [f], part_bytes=30_000)[0][0].splitlines()
    s613 = [x for x in out if " S613 warning: " in x]
    s614 = [x for x in out if " S614 warning: " in x]
    assert len(s613) == fouled == 22  # boards 4, 13, ... 193
    assert len(s614) == repeats
    assert all(re.search(r"board \d+ was played with a different deal from the game at line \d+", x) for x in s613)
    assert any(" C507 error: " in x for x in out)
    assert out[-1].startswith("1 files, 810 boards, ")
