"""A zip member whose CRC check fails (handrec/inputs/streams.py): whatever its size, the boards read before
the failure are kept and F001 says where the reading stopped.  zipfile checks the CRC in the
decompression step that reaches the member's end and drops that step's data when it fails: a
member of under a megabyte (one step) lost every board, a bigger one its last megabyte."""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read, read_input
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.entries import iter_entries
from handrec.inputs.sources import Input

runner = CliRunner()


def _pbn(n: int) -> bytes:
    out = io.StringIO()
    dump(generate_boards(n, seed=11), out)
    return out.getvalue().encode()


def _bad_crc_zip(data: bytes, method: int) -> bytes:
    """A zip of ``a.pbn`` holding ``data`` whose stored CRC-32 (local header and central
    directory) is flipped: the data is sound, the check fails at the member's end."""
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", method) as z:
        z.writestr("a.pbn", data)
    raw = bytearray(b.getvalue())
    assert raw[:4] == b"PK\x03\x04"
    raw[14] ^= 0xFF  # local file header: CRC-32 at offset 14
    cd = raw.rfind(b"PK\x01\x02")
    raw[cd + 16] ^= 0xFF  # central directory entry: CRC-32 at offset 16
    return bytes(raw)


def _message(path: str, nbytes: int) -> str:
    return (
        f"{path}: F001 error: cannot read input: damaged zip member: Bad CRC-32 for file 'a.pbn' "
        f"(reading stopped after {nbytes} bytes, decompressed: the boards before are read, the one cut short is not)"
    )


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
@pytest.mark.parametrize("boards", [20, 2000])  # about 11 KB and 1.1 MB
def test_a_member_failing_its_crc_keeps_the_boards_before(tmp_path: Path, method: int, boards: int) -> None:
    data = _pbn(boards)
    assert (len(data) < 1 << 20) == (boards == 20)
    z = tmp_path / "c.zip"
    z.write_bytes(_bad_crc_zip(data, method))
    (inp,) = iter_entries([z])
    assert isinstance(inp, Input) and inp.path == f"{z}!a.pbn"
    got = list(read_input(inp))
    whole = list(read(io.BytesIO(data)))
    assert len(whole) == boards
    # every byte is read; the last game, not closed when the check fails, counts as cut short
    assert [b.deal for b in got] == [b.deal for b in whole[:-1]]
    assert [str(d) for d in inp.diagnostics] == [_message(f"{z}!a.pbn", len(data))]

    r = runner.invoke(app, ["validate", "--jobs", "1", str(z)])
    assert r.exit_code == 2
    assert r.stdout.splitlines() == [
        _message(f"{z}!a.pbn", len(data)),
        f"1 files (1 unreadable), {boards - 1} boards, 1 errors, 0 warnings",
    ]


def test_a_small_member_failing_its_crc_on_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _pbn(20)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_bad_crc_zip(data, zipfile.ZIP_DEFLATED))))
    (inp,) = iter_entries(["-"])
    assert isinstance(inp, Input)
    assert len(list(read_input(inp))) == 19
    assert [d.code for d in inp.diagnostics] == ["F001"]
    assert "Bad CRC-32 for file 'a.pbn'" in inp.diagnostics[0].message


def test_a_sound_member_reads_clean(tmp_path: Path) -> None:
    data = _pbn(20)
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.pbn", data)
    z = tmp_path / "ok.zip"
    z.write_bytes(b.getvalue())
    (inp,) = iter_entries([z])
    assert isinstance(inp, Input)
    assert len(list(read_input(inp))) == 20 and inp.diagnostics == []
