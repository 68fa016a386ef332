"""Damaged archives and compressed files: each is reported (F001, F009), never read as text nor dropped.

A zip cut short (its central directory, at the end, is gone), a zip with a
corrupt member, a file named ``.zip`` that is no zip, a damaged zip inside an
archive, and a single compressed file cut short: named explicitly, in a
folder, on standard input; ``validate`` and ``convert`` say the same, and
every entry is in the ``files`` table or in the diagnostics.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
import zipfile
import zlib
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read, read_input
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.entries import iter_entries
from handrec.inputs.sources import Input
from handrec.runs.convert import convert

runner = CliRunner()


def _pbn(n: int, seed: int) -> bytes:
    s = io.StringIO()
    dump(generate_boards(n, seed), s)
    return s.getvalue().encode()


@pytest.fixture(scope="module")
def pbn() -> bytes:
    return _pbn(30, 7)


def _zip(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", method) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return b.getvalue()


def _validate(*args: object):
    return runner.invoke(app, ["validate", "--jobs", "1", *map(str, args)])


def _files(out: Path) -> list[tuple[str, str, int]]:
    return [(f["source_file"], f["status"], f["boards"]) for f in pq.read_table(out / "files.parquet").to_pylist()]


# --- a zip cut short ------------------------------------------------------------------------


TRUNCATED = "F001 error: cannot read input: damaged or truncated zip archive: no central directory found"


def test_a_truncated_zip_named_explicitly_is_a_damaged_archive(tmp_path: Path, pbn: bytes) -> None:
    whole = _zip({"a.pbn": pbn, "b.pbn": pbn})
    t = tmp_path / "t.zip"
    t.write_bytes(whole[: len(whole) // 2])
    r = _validate(t)
    assert r.exit_code == 2
    assert r.stdout.splitlines() == [f"{t}: {TRUNCATED}", "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings"]


def test_a_truncated_zip_in_a_folder_is_reported_by_validate_and_convert(tmp_path: Path, pbn: bytes) -> None:
    whole = _zip({"a.pbn": pbn, "b.pbn": pbn})
    d = tmp_path / "in"
    d.mkdir()
    (d / "ok.pbn").write_bytes(pbn)
    (d / "t.zip").write_bytes(whole[: len(whole) // 2])
    r = _validate(d)
    assert r.exit_code == 2
    assert r.stdout.splitlines() == [
        f"{d}/t.zip: {TRUNCATED}",
        "2 files (1 ok, 1 unreadable), 30 boards, 1 errors, 0 warnings",
    ]
    out = tmp_path / "ds"
    c = runner.invoke(app, ["convert", str(d), "-o", str(out), "--jobs", "1"])
    assert c.exit_code == 2
    assert c.stderr.splitlines() == [
        f"2 files (1 ok, 1 unreadable), 30 boards, 1 errors, 0 warnings -> {out}",
        f"{d}/t.zip: {TRUNCATED}",
    ]
    assert _files(out) == [(f"{d}/ok.pbn", "ok", 30), (f"{d}/t.zip", "unreadable", 0)]


def test_a_truncated_zip_on_standard_input(pbn: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _zip({"a.pbn": pbn})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(whole[: len(whole) // 2])))
    assert [str(i) for i in iter_entries(["-"])] == [f"<stdin>: {TRUNCATED}"]


def test_a_zip_whose_directory_is_damaged_says_so(tmp_path: Path, pbn: bytes) -> None:
    whole = _zip({"a.pbn": pbn})
    cd = whole.rfind(b"PK\x01\x02")
    z = tmp_path / "z.zip"
    z.write_bytes(whole[:cd] + b"XX" + whole[cd + 2 :])  # the central directory's signature
    assert [str(d) for d in iter_entries([z])] == [
        f"{z}: F001 error: cannot read input: damaged zip archive: Bad magic number for central directory"
    ]
    b = bytearray(whole)
    eocd = whole.rfind(b"PK\x05\x06")
    b[eocd + 16 : eocd + 20] = (len(whole) * 2).to_bytes(4, "little")  # its offset: past the end
    z.write_bytes(bytes(b))
    (d,) = iter_entries([z])  # zipfile finds the directory, not the member: the member is damaged
    assert not isinstance(d, Input)
    assert d.code == "F001" and d.path == f"{z}!a.pbn"
    assert d.message.startswith("cannot read input: damaged zip member: "), d.message


# --- a file named .zip that is no zip ----------------------------------------------------------


NOT_ZIP = "F001 error: cannot read input: not a zip archive (damaged, or another format), nor PBN or LIN"


def test_a_file_named_zip_that_is_no_zip(tmp_path: Path, pbn: bytes) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / "junk.zip").write_bytes(b"Rar!\x1a\x07\x00" + bytes(range(256)))
    (d / "text.zip").write_bytes(b"just some text\n")
    (d / "deals.zip").write_bytes(pbn)  # a PBN file misnamed: read as what its content says
    (d / "sfx.zip").write_bytes(b"MZ\x90\x00" + b"\0" * 60 + _zip({"a.pbn": pbn}))  # data before the zip
    items = [i.path if isinstance(i, Input) else str(i) for i in iter_entries([d])]
    assert items == [
        f"{d}/deals.zip",
        f"{d}/junk.zip: {NOT_ZIP}",
        f"{d}/sfx.zip!a.pbn",
        f"{d}/text.zip: {NOT_ZIP}",
    ]
    r = _validate(d / "text.zip")
    assert r.exit_code == 2
    assert r.stdout.splitlines() == [
        f"{d}/text.zip: {NOT_ZIP}",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
    ]


def test_other_archive_names_that_are_not_archives(tmp_path: Path) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.tar").write_bytes(b"not a tar\n")
    (d / "b.tar.gz").write_bytes(gzip.compress(b"not a tar either\n"))
    (d / "c.tgz").write_bytes(b"\x1f\x8b")  # a gzip header cut short
    items = [str(i) for i in iter_entries([d])]
    assert (
        items[0]
        == f"{d}/a.tar: F001 error: cannot read input: not a tar archive (damaged, or another format), nor PBN or LIN"
    )
    assert (
        items[1]
        == f"{d}/b.tar.gz: F001 error: cannot read input: not a tar archive (damaged, or another format), nor PBN or LIN"
    )
    assert items[2].startswith(f"{d}/c.tgz: F001 error: cannot read input: ")
    assert len(items) == 3


# --- a corrupt member in a sound zip ---------------------------------------------------------


def _corrupt(data: bytes, member: str, at: float) -> bytes:
    """``data`` (a zip) with one byte of ``member``'s stored data flipped at the fraction ``at`` of it."""
    z = zipfile.ZipFile(io.BytesIO(data))
    info = z.getinfo(member)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    pos = start + int(info.compress_size * at)
    b = bytearray(data)
    b[pos] ^= 0xFF
    return bytes(b)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_a_corrupt_member_is_reported_and_the_others_read(tmp_path: Path, pbn: bytes, method: int) -> None:
    z = tmp_path / "c.zip"
    z.write_bytes(_corrupt(_zip({"a.pbn": pbn, "b.pbn": pbn}, method), "a.pbn", 0.9))
    r = _validate(z)
    assert r.exit_code == 2
    lines = r.stdout.splitlines()
    f001 = [x for x in lines if " F001 " in x]
    assert len(f001) == 1 and f001[0].startswith(f"{z}!a.pbn: F001 error: cannot read input: "), lines
    assert lines[-1].startswith("2 files (1 ok, 1 unreadable), ")
    out = tmp_path / "ds"
    s = convert([z], out, jobs=1)
    files = _files(out)
    assert [(p, st) for p, st, _ in files] == [(f"{z}!a.pbn", "unreadable"), (f"{z}!b.pbn", "ok")]
    assert files[1][2] == 30 and (s.files, s.unreadable) == (1, 1)
    codes = pq.read_table(out / "diagnostics.parquet").column("code").to_pylist()
    assert codes.count("F001") == 1


# --- archives inside archives ----------------------------------------------------------------


def test_a_damaged_zip_inside_a_zip_is_reported(tmp_path: Path, pbn: bytes) -> None:
    inner = _zip({"a.pbn": pbn})
    z = tmp_path / "outer.zip"
    z.write_bytes(
        _zip({"cut.zip": inner[: len(inner) // 2], "junk.zip": b"garbage, no zip\n", "ok.pbn": pbn, "x.txt": b"x"})
    )
    items = [i.path if isinstance(i, Input) else str(i) for i in iter_entries([z])]
    assert items == [
        f"{z}!cut.zip: F009 warning: archive entry 'cut.zip' skipped: nested archive, not opened",
        f"{z}!junk.zip: F009 warning: archive entry 'junk.zip' skipped: "
        "named as an archive, but not one (damaged?) nor PBN or LIN: not opened",
        f"{z}!ok.pbn",
    ]


# --- a single compressed file cut short --------------------------------------------------------


def _complete_boards(prefix: bytes) -> int:
    """The boards of a PBN text cut at the end of ``prefix``: those before the last game's start."""
    start = prefix.rfind(b"\n[Event ")
    return len(list(read(io.BytesIO(prefix[: start + 1])))) if start > 0 else 0


@pytest.mark.parametrize(("ext", "compress"), [("gz", gzip.compress), ("bz2", bz2.compress), ("xz", lzma.compress)])
@pytest.mark.parametrize("at", [0.3, 0.75])
def test_a_compressed_file_cut_short_keeps_the_boards_before_the_cut(
    tmp_path: Path, pbn: bytes, ext: str, compress, at: float
) -> None:
    whole = compress(pbn)
    f = tmp_path / f"cut.pbn.{ext}"
    f.write_bytes(whole[: int(len(whole) * at)])
    if ext == "gz":
        prefix = zlib.decompressobj(31).decompress(f.read_bytes())
    elif ext == "bz2":
        prefix = bz2.BZ2Decompressor().decompress(f.read_bytes())
    else:
        prefix = lzma.LZMADecompressor().decompress(f.read_bytes())
    want = _complete_boards(prefix)
    assert want < 30
    if want == 0:  # nothing could be decompressed (bzip2 gives nothing before the end of a block)
        assert prefix == b""
        (d,) = iter_entries([f])
        assert not isinstance(d, Input) and d.code == "F001" and d.path == str(f)
        return

    (inp,) = iter_entries([f])
    assert isinstance(inp, Input)
    boards = list(read_input(inp))
    assert len(boards) == want
    full = list(read(io.BytesIO(pbn)))
    assert [b.deal for b in boards] == [b.deal for b in full[:want]]
    (d,) = inp.diagnostics
    assert d.code == "F001" and d.path == str(f)
    assert "the boards before are read, the one cut short is not" in d.message, d.message

    r = _validate(f)
    assert r.exit_code == 2
    lines = r.stdout.splitlines()
    assert lines[-1] == f"1 files (1 unreadable), {want} boards, 1 errors, 0 warnings"
    assert lines[0] == str(d)
    out = tmp_path / "ds"
    s = convert([f], out, jobs=1)
    assert _files(out) == [(str(f), "unreadable", want)]
    assert pq.read_table(out / "boards.parquet").num_rows == s.boards == want


def test_a_gzip_cut_short_on_standard_input(pbn: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = gzip.compress(pbn)
    cut = whole[: len(whole) // 2]
    want = _complete_boards(zlib.decompressobj(31).decompress(cut))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(cut)))
    (inp,) = iter_entries(["-"])
    assert isinstance(inp, Input)
    assert len(list(read_input(inp))) == want > 0
    assert [d.code for d in inp.diagnostics] == ["F001"]
    assert "the boards before are read, the one cut short is not" in inp.diagnostics[0].message


def test_a_gzip_cut_in_its_header_is_unreadable(tmp_path: Path, pbn: bytes) -> None:
    f = tmp_path / "h.pbn.gz"
    f.write_bytes(gzip.compress(pbn)[:5])
    (d,) = iter_entries([f])
    assert not isinstance(d, Input) and d.code == "F001" and d.path == str(f)


def test_an_encrypted_or_unsupported_member_is_not_called_damaged(tmp_path: Path, pbn: bytes) -> None:
    whole = bytearray(_zip({"a.pbn": pbn, "b.pbn": pbn}, zipfile.ZIP_STORED))
    cd = whole.find(b"PK\x01\x02")
    whole[cd + 8] |= 1  # a.pbn: "encrypted" (general purpose flag bit 0), in the central directory
    whole[8] |= 1  # and in its local header
    b = bytes(whole)
    cd2 = b.find(b"PK\x01\x02", cd + 4)
    whole[cd2 + 10 : cd2 + 12] = (99).to_bytes(2, "little")  # b.pbn: compression method 99 (AES)
    z = tmp_path / "e.zip"
    z.write_bytes(bytes(whole))
    items = [str(i) for i in iter_entries([z])]
    assert items == [
        f"{z}!a.pbn: F001 error: cannot read input: encrypted zip member: a password is needed to read it",
        f"{z}!b.pbn: F001 error: cannot read input: zip member cannot be read: "
        "That compression method is not supported",
    ]
