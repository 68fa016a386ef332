"""Inputs in archives and compressed files: same rows as plain files, display paths, safety, limits."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import tarfile
import time
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read_input
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.inputs.entries import iter_entries, iter_inputs
from handrec.inputs.limits import Limits, parse_size
from handrec.inputs.sources import Input
from handrec.runs.convert import convert

TABLES = ("boards", "calls", "plays", "diagnostics")


def _pbn(n: int, seed: int) -> bytes:
    s = io.StringIO()
    pbn_dump(generate_boards(n, seed), s)
    return s.getvalue().encode()


def _lin(n: int, seed: int) -> bytes:
    s = io.StringIO()
    lin_dump(generate_boards(n, seed), s)
    return s.getvalue().encode()


@pytest.fixture(scope="module")
def members() -> dict[str, bytes]:
    """Two bridge files and a note, as they would sit in a folder ``inner/``."""
    return {"inner/a.pbn": _pbn(6, 1), "inner/b.lin": _lin(5, 2), "inner/notes.txt": b"not a bridge file\n"}


def _tar(path: Path, files: dict[str, bytes], mode: str, prefix: str = "") -> Path:
    with tarfile.open(path, mode) as t:
        for name, data in files.items():
            info = tarfile.TarInfo(prefix + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return path


def _zip(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def _tables(out: Path) -> dict[str, pa.Table]:
    return {t: pq.read_table(out / f"{t}.parquet") for t in (*TABLES, "files")}


def _without_source(t: pa.Table) -> pa.Table:
    return t.drop_columns(["source_file"])


def test_every_container_gives_the_rows_of_the_plain_files(tmp_path: Path, members: dict[str, bytes]) -> None:
    plain = tmp_path / "plain"
    for name, data in members.items():
        (plain / name).parent.mkdir(parents=True, exist_ok=True)
        (plain / name).write_bytes(data)
    convert([plain], tmp_path / "ds-plain", jobs=1)
    want = _tables(tmp_path / "ds-plain")
    assert want["boards"].num_rows == 11

    bridge = {k: v for k, v in members.items() if not k.endswith(".txt")}
    containers = {
        "x.zip": _zip(tmp_path / "x.zip", members),
        "x.tar": _tar(tmp_path / "x.tar", members, "w", prefix="./"),
        "x.tar.gz": _tar(tmp_path / "x.tar.gz", members, "w:gz"),
        "x.tbz": _tar(tmp_path / "x.tbz", members, "w:bz2"),
        "x.tar.xz": _tar(tmp_path / "x.tar.xz", members, "w:xz"),
    }
    for name, path in containers.items():
        out = tmp_path / f"ds-{name}"
        s = convert([path], out, jobs=1)
        got = _tables(out)
        assert (s.files, s.boards, s.unreadable, s.skipped) == (2, 11, 0, 0), name
        for t in TABLES:
            assert _without_source(got[t]).equals(_without_source(want[t])), (name, t)
        assert got["files"].column("source_file").to_pylist() == [f"{path}!{m}" for m in bridge]
        assert got["files"].column("sha256").to_pylist() == want["files"].column("sha256").to_pylist()

    # single compressed files: one input each, the display path is the file's
    for ext, compress in (("gz", gzip.compress), ("bz2", bz2.compress), ("xz", lzma.compress)):
        pbn, lin = tmp_path / f"a.pbn.{ext}", tmp_path / f"b.lin.{ext}"
        pbn.write_bytes(compress(members["inner/a.pbn"]))
        lin.write_bytes(compress(members["inner/b.lin"]))
        out = tmp_path / f"ds-{ext}"
        convert([pbn, lin], out, jobs=1)
        got = _tables(out)
        for t in TABLES:
            assert _without_source(got[t]).equals(_without_source(want[t])), (ext, t)
        assert got["files"].column("source_file").to_pylist() == [str(pbn), str(lin)]
        assert got["files"].column("format").to_pylist() == ["pbn", "lin"]


def test_archives_inside_folders_are_expanded_in_sorted_order(tmp_path: Path, members: dict[str, bytes]) -> None:
    (tmp_path / "in" / "sub").mkdir(parents=True)
    _zip(tmp_path / "in" / "sub" / "deals.zip", {"z.pbn": members["inner/a.pbn"]})
    (tmp_path / "in" / "a.lin").write_bytes(members["inner/b.lin"])
    (tmp_path / "in" / "z.pbn.gz").write_bytes(gzip.compress(members["inner/a.pbn"]))
    (tmp_path / "in" / ".hidden.pbn").write_bytes(members["inner/a.pbn"])
    paths = [i.path for i in iter_inputs([tmp_path / "in"])]
    root = tmp_path / "in"
    assert paths == [f"{root}/a.lin", f"{root}/z.pbn.gz", f"{root}/sub/deals.zip!z.pbn"]  # os.walk: files first


def test_member_display_paths_and_hidden_members(tmp_path: Path, members: dict[str, bytes]) -> None:
    pbn = members["inner/a.pbn"]
    z = _zip(tmp_path / "m.zip", {"deep/er/x.pbn": pbn, "__MACOSX/._x.pbn": pbn, "dir/.git/y.pbn": pbn, "top.pbn": pbn})
    t = _tar(tmp_path / "m.tgz", {"./deep/er/x.pbn": pbn, "top.pbn": pbn}, "w:gz")
    assert [i.path for i in iter_inputs([z])] == [f"{z}!deep/er/x.pbn", f"{z}!top.pbn"]  # hidden ones skipped
    assert [i.path for i in iter_inputs([t])] == [f"{t}!deep/er/x.pbn", f"{t}!top.pbn"]


def test_traversal_and_absolute_members_are_refused(tmp_path: Path, members: dict[str, bytes]) -> None:
    pbn = members["inner/a.pbn"]
    z = _zip(tmp_path / "evil.zip", {"../../etc/evil.pbn": pbn, "ok.pbn": pbn})
    t = _tar(tmp_path / "evil.tar", {"/abs/evil.pbn": pbn, "a/../../b.pbn": pbn, "ok.pbn": pbn}, "w")
    items = list(iter_entries([z, t]))
    assert [str(i) for i in items if not isinstance(i, Input)] == [
        f"{z}!../../etc/evil.pbn: F008 error: archive member '../../etc/evil.pbn' refused: '..' in path",
        f"{t}!/abs/evil.pbn: F008 error: archive member '/abs/evil.pbn' refused: absolute path",
        f"{t}!a/../../b.pbn: F008 error: archive member 'a/../../b.pbn' refused: '..' in path",
    ]
    assert [i.path for i in items if isinstance(i, Input)] == [f"{z}!ok.pbn", f"{t}!ok.pbn"]

    out = tmp_path / "ds"
    s = convert([z, t], out, jobs=1)
    files = pq.read_table(out / "files.parquet").to_pylist()
    assert [(f["source_file"].split("!")[1], f["status"], f["errors"]) for f in files] == [
        ("../../etc/evil.pbn", "skipped", 1),
        ("ok.pbn", "ok", 0),
        ("/abs/evil.pbn", "skipped", 1),
        ("a/../../b.pbn", "skipped", 1),
        ("ok.pbn", "ok", 0),
    ]
    assert (s.files, s.skipped) == (2, 3)
    codes = pq.read_table(out / "diagnostics.parquet").column("code").to_pylist()
    assert codes == ["F008"] * 3


def test_links_and_devices_are_skipped(tmp_path: Path, members: dict[str, bytes]) -> None:
    t = tmp_path / "links.tar"
    with tarfile.open(t, "w") as tf:
        for name, kind in (("sym.pbn", tarfile.SYMTYPE), ("hard.pbn", tarfile.LNKTYPE), ("dev", tarfile.CHRTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = "/etc/passwd" if kind != tarfile.CHRTYPE else ""
            tf.addfile(info)
    z = tmp_path / "links.zip"
    with zipfile.ZipFile(z, "w") as zf:
        info = zipfile.ZipInfo("link.pbn")
        info.create_system = 3
        info.external_attr = 0o120777 << 16  # a symbolic link, as Info-ZIP stores it
        zf.writestr(info, "/etc/passwd")
        zf.writestr("real.pbn", members["inner/a.pbn"])
    items = list(iter_entries([t, z]))
    assert [str(i) for i in items if not isinstance(i, Input)] == [
        f"{t}!sym.pbn: F009 warning: archive entry 'sym.pbn' skipped: symbolic link",
        f"{t}!hard.pbn: F009 warning: archive entry 'hard.pbn' skipped: hard link",
        f"{t}!dev: F009 warning: archive entry 'dev' skipped: character device",
        f"{z}!link.pbn: F009 warning: archive entry 'link.pbn' skipped: symbolic link",
    ]
    assert [i.path for i in items if isinstance(i, Input)] == [f"{z}!real.pbn"]


def _bomb(path: Path, head: bytes, mib: int) -> Path:
    """A PBN header followed by ``mib`` MiB of zeros: many gzip members of one compressed MiB each."""
    one = gzip.compress(b"\0" * (1 << 20), compresslevel=9)
    with open(path, "wb") as f:
        f.write(gzip.compress(head))
        for _ in range(mib):
            f.write(one)
    return path


def test_a_compression_bomb_stops_at_the_member_limit(tmp_path: Path) -> None:
    bomb = _bomb(tmp_path / "bomb.pbn.gz", b'[Event "boom"]\n[Board "1"]\n', 200)
    assert bomb.stat().st_size < 300_000
    limits = Limits(member_bytes=2 << 20)
    (inp,) = iter_inputs([bomb], limits=limits)
    t0 = time.perf_counter()
    list(read_input(inp))
    assert time.perf_counter() - t0 < 5
    assert [str(d) for d in inp.diagnostics] == [
        f"{bomb}: F010 error: decompressed input exceeds the size limit of 2097152 bytes: reading stopped"
    ]
    assert inp.sha256 is None

    out = tmp_path / "ds"
    s = convert([bomb], out, jobs=1, limits=limits)
    (row,) = pq.read_table(out / "files.parquet").to_pylist()
    assert (row["status"], row["sha256"], s.skipped) == ("skipped", None, 1)
    assert "F010" in pq.read_table(out / "diagnostics.parquet").column("code").to_pylist()


def test_declared_sizes_are_checked_before_reading(tmp_path: Path, members: dict[str, bytes]) -> None:
    pbn = members["inner/a.pbn"]
    big = pbn + b"\n" * 5000
    t = _tar(tmp_path / "big.tar.gz", {"a.pbn": pbn, "big.pbn": big, "c.pbn": pbn, "d.pbn": pbn}, "w:gz")
    limits = Limits(member_bytes=len(pbn) + 100, archive_bytes=len(big) + 2 * len(pbn) + 10)
    items = list(iter_entries([t], limits))
    assert [i.path if isinstance(i, Input) else str(i) for i in items] == [
        f"{t}!a.pbn",
        f"{t}!big.pbn: F010 error: archive member exceeds the size limit of {len(pbn) + 100} bytes: not read",
        f"{t}!c.pbn",
        f"{t}!d.pbn: F010 error: archive {t} exceeds the size limit of {limits.archive_bytes} bytes: "
        "this and later members not read",
    ]


def test_a_big_tar_member_is_streamed_or_reopened(tmp_path: Path, members: dict[str, bytes]) -> None:
    pbn = members["inner/a.pbn"]
    t = _tar(tmp_path / "s.tar.gz", {"a.pbn": pbn, "b.pbn": pbn}, "w:gz")
    limits = Limits(inline_bytes=100)  # nothing is kept in memory
    streamed = []
    for inp in iter_inputs([t], limits=limits):
        assert not inp.picklable
        streamed.append(len(list(read_input(inp))))
    listed = list(iter_inputs([t], limits=limits))  # read after the stream moved on: reopened
    assert streamed == [len(list(read_input(i))) for i in listed] == [6, 6]
    assert {i.sha256 for i in listed} == {Input("x", "pbn", opener=lambda: io.BytesIO(pbn)).content_hash()}
    assert listed[0].sha256 == hashlib.sha256(pbn).hexdigest()


def test_damaged_archives_are_unreadable(tmp_path: Path, members: dict[str, bytes]) -> None:
    good = _tar(tmp_path / "good.tar.gz", members, "w:gz").read_bytes()
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(good[: len(good) // 2])
    z = tmp_path / "bad.zip"
    z.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    out = tmp_path / "ds"
    s = convert([cut, z], out, jobs=1)
    files = pq.read_table(out / "files.parquet").to_pylist()
    assert s.unreadable >= 1
    assert all(f["status"] in ("unreadable", "ok") for f in files)
    assert any(f["status"] == "unreadable" and f["source_file"].startswith(str(cut)) for f in files)
    assert files[-1]["source_file"] == str(z)  # a zip signature, no central directory: a damaged archive
    assert files[-1]["status"] == "unreadable"
    codes = pq.read_table(out / "diagnostics.parquet").to_pylist()
    assert [(d["source_file"], d["code"]) for d in codes][-1] == (str(z), "F001")


def test_validate_reads_archives(tmp_path: Path, members: dict[str, bytes]) -> None:
    z = _zip(tmp_path / "x.zip", {**members, "../up.pbn": members["inner/a.pbn"]})
    r = CliRunner().invoke(app, ["validate", str(z)])
    assert r.exit_code == 2, (r.output, r.exception)  # a refused member could not be read: 2, as convert
    assert r.stdout.splitlines()[-1] == "3 files (2 ok, 1 skipped), 11 boards, 1 errors, 0 warnings"
    r = CliRunner().invoke(app, ["convert", str(z), "-o", str(tmp_path / "ds"), "--jobs", "1"])
    assert r.exit_code == 2
    assert "F008 error: archive member '../up.pbn' refused" in r.output
    r = CliRunner().invoke(app, ["convert", str(z), "-o", str(tmp_path / "ds"), "--max-member-size", "lots"])
    assert r.exit_code == 2


def test_parse_size() -> None:
    assert parse_size("1G") == 1 << 30
    assert parse_size("1.5k") == 1536
    assert parse_size(" 7 ") == 7
    with pytest.raises(ValueError):
        parse_size("-1")


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_lines_split_the_same_whatever_the_chunk_size(tmp_path: Path, chunk: int, monkeypatch) -> None:
    import handrec.inputs.streams as streams

    text = b"\xef\xbb\xbfa\r\nbb\rccc\n\ndd\r\r\ne\xe9\r\n\rlast"
    want = ["a", "bb", "ccc", "", "dd", "", "e\xe9", "", "last"]
    gz = tmp_path / "x.pbn.gz"
    gz.write_bytes(gzip.compress(text))
    monkeypatch.setattr(streams, "CHUNK_BYTES", chunk)
    (inp,) = iter_inputs([gz])
    assert list(inp.lines()) == want
    assert inp.sha256 == hashlib.sha256(text).hexdigest() and inp.nbytes == len(text)
    assert [d.code for d in inp.diagnostics] == ["F002"]


def test_archives_inside_archives_are_reported_not_opened(tmp_path: Path, members: dict[str, bytes]) -> None:
    inner_zip = io.BytesIO()
    with zipfile.ZipFile(inner_zip, "w") as zf:
        zf.writestr("a.pbn", members["inner/a.pbn"])
    inner_tgz = _tar(tmp_path / "in.tgz", members, "w:gz").read_bytes()
    t = _tar(
        tmp_path / "outer.tar",
        {
            "x.zip": inner_zip.getvalue(),
            "y.tgz": inner_tgz,
            "z.pbn.xz": lzma.compress(b"x"),
            "w.bz2": bz2.compress(b"x"),
        },
        "w",
    )
    assert [str(i) for i in iter_entries([t])] == [
        f"{t}!x.zip: F009 warning: archive entry 'x.zip' skipped: nested archive, not opened",
        f"{t}!y.tgz: F009 warning: archive entry 'y.tgz' skipped: nested archive, not opened",
        f"{t}!z.pbn.xz: F009 warning: archive entry 'z.pbn.xz' skipped: compressed member, not opened",
    ]  # w.bz2: compressed, and its name says neither archive nor bridge file: skipped quietly


def test_a_bridge_named_member_that_is_not_bridge_is_an_unknown_input(
    tmp_path: Path, members: dict[str, bytes]
) -> None:
    files = {**members, "inner/bin.lin": b"\x00\x01\x02", "inner/pic.png": b"\x89PNG\r\n\x1a\n\x00"}
    for path in (_zip(tmp_path / "x.zip", files), _tar(tmp_path / "x.tar.gz", files, "w:gz")):
        got = [(i.path, i.format) for i in iter_inputs([path])]
        assert got == [(f"{path}!inner/a.pbn", "pbn"), (f"{path}!inner/b.lin", "lin"), (f"{path}!inner/bin.lin", None)]
        inp = list(iter_inputs([path]))[-1]
        assert list(read_input(inp)) == []
        assert [str(d) for d in inp.diagnostics] == [
            f"{path}!inner/bin.lin: F004 error: not PBN or LIN: no PBN tag pair or LIN command found"
        ]


@pytest.mark.parametrize("mode", ["zip", "w", "w:gz", "w:xz"])
def test_an_archive_on_standard_input_is_spooled_to_a_file(
    tmp_path: Path, members: dict[str, bytes], mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Copied to a temporary file as it comes, then read as that file (issue #22.4: memory)."""
    import pickle
    import sys

    from handrec.inputs.sources import TarSource, ZipSource

    path = _zip(tmp_path / "x", members) if mode == "zip" else _tar(tmp_path / "x", members, mode)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    inputs = list(iter_inputs(["-"]))
    assert [i.path for i in inputs] == ["<stdin>!inner/a.pbn", "<stdin>!inner/b.lin"]
    for inp in inputs:
        assert isinstance(inp.source, ZipSource if mode == "zip" else TarSource) and inp.picklable
        spool = Path(inp.source.archive)  # the copy: open, with no name in the file system
        assert spool.parent == Path(f"/proc/{os.getpid()}/fd") and os.stat(spool).st_nlink == 0
        assert spool.read_bytes() == path.read_bytes()
        again = pickle.loads(pickle.dumps(inp))
        assert len(list(read_input(again))) == (6 if again.format == "pbn" else 5)
        assert again.sha256 == hashlib.sha256(members["inner/" + again.path[-5:]]).hexdigest()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    limit = len(members["inner/a.pbn"]) - 1  # a.pbn is over it, the archive (compressed) maybe not
    items = [str(i) if not isinstance(i, Input) else i.path for i in iter_entries(["-"], Limits(member_bytes=limit))]
    if path.stat().st_size > limit:
        assert items == [f"<stdin>: F010 error: standard input exceeds the size limit of {limit} bytes: not read"]
    else:
        assert items == [
            f"<stdin>!inner/a.pbn: F010 error: archive member exceeds the size limit of {limit} bytes: not read",
            "<stdin>!inner/b.lin",
        ]


def test_lines_without_digest_read_the_same_and_leave_no_hash(tmp_path: Path) -> None:
    """``Input.lines(digest=False)`` (validate keeps no hash): the same lines and byte count, ``sha256`` None."""
    from handrec.inputs.sources import FileSource

    data = b'[Board "1"]\r\n[Event "\xc3\xa9t\xc3\xa9"]\r\n\r\n[Board "2"]\n'
    p = tmp_path / "x.pbn"
    p.write_bytes(data)
    hashed = Input(str(p), "pbn", source=FileSource(str(p)))
    plain = Input(str(p), "pbn", source=FileSource(str(p)))
    assert (
        list(hashed.lines()) == list(plain.lines(digest=False)) == ['[Board "1"]', '[Event "été"]', "", '[Board "2"]']
    )
    assert hashed.sha256 == hashlib.sha256(data).hexdigest() and plain.sha256 is None
    assert hashed.nbytes == plain.nbytes == len(data)
