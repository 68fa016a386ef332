"""Pipes, standard input, and what folders and archives hold besides bridge files: exact diagnostics.

A pipe (``-``, ``/dev/stdin``, ``<(command)``, a named FIFO given on the
command line) is read once, into memory; a file named ``.pbn``/``.lin`` in a
folder or an archive that is not PBN or LIN is reported (F004) while other
files stay silent; an archive inside an archive is reported (F009); a file
named twice is read once; the file-size limit reports only bridge files
found in folders.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read, read_input
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.inputs.entries import STDIN, iter_entries, iter_inputs
from handrec.inputs.limits import Limits
from handrec.inputs.sources import Input, MemorySource
from handrec.runs.convert import convert

from .test_bad_inputs import BASE, LIN

runner = CliRunner()

#: BASE with a wrong score: one S601 error at line 9.
FAULTY = BASE.replace('[Score "NS -140"]', '[Score "NS -150"]')
S601 = "{f}:9:1: S601 error: Score NS -150 but 2H by W taking 9 tricks scores NS -140"

#: A PNG header: sniffs as nothing.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256))


def _big_pbn() -> bytes:
    """40 clean generated boards: more than the 16 KiB a sniff reads."""
    s = io.StringIO()
    pbn_dump(generate_boards(40, 7), s)
    data = s.getvalue().encode()
    assert len(data) > 16384
    return data


def run(*args: object, input: bytes | None = None) -> tuple[list[str], int]:
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.stdout.splitlines(), r.exit_code


def shell(script: str, *args: object, input: bytes | None = None, timeout: float = 120) -> tuple[list[str], int]:
    """Run ``script`` under bash, where ``H`` runs ``handrec``: process substitution, real pipes."""
    prelude = 'H() { "$PY" -c \'from handrec.cli import app; app()\' "$@"; }\n'
    env = {**os.environ, "PY": sys.executable}
    r = subprocess.run(
        ["bash", "-c", prelude + script, "bash", *map(str, args)],
        input=input,
        capture_output=True,
        env=env,
        timeout=timeout,
    )
    return r.stdout.decode().splitlines(), r.returncode


# --- 1. pipes are read once ------------------------------------------------------------------


def test_process_substitution_is_read_once() -> None:
    out, status = shell('H validate <(printf %s "$1") | sed "s#/dev/fd/[0-9]*#{f}#"', FAULTY)
    assert out == [S601, "1 files, 1 boards, 1 errors, 0 warnings"]
    assert status == 0  # the status of sed; the findings are what counts here


def test_dev_stdin_on_a_pipe_loses_nothing() -> None:
    out, status = shell("H validate /dev/stdin; echo status=$?", input=_big_pbn())
    assert out == ["1 files, 40 boards, 0 errors, 0 warnings", "status=0"]


def test_dash_is_standard_input() -> None:
    out, status = run("validate", "-", input=FAULTY.encode())
    assert out == [S601.format(f=STDIN), "1 files, 1 boards, 1 errors, 0 warnings"]
    assert status == 1
    out, status = shell("H validate -; echo status=$?", input=_big_pbn())
    assert out == ["1 files, 40 boards, 0 errors, 0 warnings", "status=0"]


def test_dash_twice_reads_standard_input_once(tmp_path: Path) -> None:
    f = tmp_path / "a.pbn"
    f.write_text(FAULTY)
    out, status = run("validate", "-", f, "-", input=FAULTY.encode())
    assert out == [S601.format(f=STDIN), S601.format(f=f), "2 files, 2 boards, 2 errors, 0 warnings"]
    assert status == 1


def test_standard_input_may_be_compressed_or_an_archive(tmp_path: Path) -> None:
    out, _ = run("validate", "-", input=gzip.compress(FAULTY.encode()))
    assert out == [S601.format(f=STDIN), "1 files, 1 boards, 1 errors, 0 warnings"]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in (("in/a.pbn", FAULTY.encode()), ("in/b.lin", LIN.encode()), ("in/notes.txt", b"hi\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    out, _ = run("validate", "-", input=buf.getvalue())
    assert out == [S601.format(f="<stdin>!in/a.pbn"), "2 files, 2 boards, 1 errors, 0 warnings"]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("z/a.pbn", FAULTY)
        zf.writestr("z/pic.png", PNG)
    out, _ = run("validate", "-", input=buf.getvalue())
    assert out == [S601.format(f="<stdin>!z/a.pbn"), "1 files, 1 boards, 1 errors, 0 warnings"]


def test_standard_input_over_the_member_limit_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BASE.encode())))
    items = [str(i) for i in iter_entries(["-"], Limits(member_bytes=100))]
    assert items == ["<stdin>: F010 error: standard input exceeds the size limit of 100 bytes: not read"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BASE.encode())))
    (inp,) = iter_inputs(["-"], limits=Limits(member_bytes=len(BASE)))
    assert isinstance(inp.source, MemorySource) and inp.picklable
    assert (inp.path, inp.format, inp.size) == ("<stdin>", "pbn", len(BASE))
    assert len(list(read_input(inp))) == 1 and len(list(read_input(inp))) == 1  # read again: from memory
    assert inp.content_hash() == inp.sha256


def test_a_named_fifo_with_a_writer_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)
    out, status = shell('(printf %s "$1" > "$2" &); H validate "$2"; echo status=$?', FAULTY, fifo, timeout=60)
    assert out == [S601.format(f=fifo), "1 files, 1 boards, 1 errors, 0 warnings", "status=1"]


def test_a_named_fifo_over_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)

    def write() -> None:
        try:
            with open(fifo, "wb") as w:
                w.write(BASE.encode())
        except BrokenPipeError:
            pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    items = [str(i) for i in iter_entries([fifo], Limits(member_bytes=100))]
    t.join(20)
    assert items == [f"{fifo}: F010 error: FIFO exceeds the size limit of 100 bytes: not read"]


def test_a_character_device_named_explicitly_is_read_once() -> None:
    out, status = run("validate", "/dev/null")
    assert out == [  # empty: an empty input, as an empty file or standard input
        "/dev/null: F018 warning: no board in this PBN file",
        "1 files, 0 boards, 0 errors, 1 warnings",
    ]
    assert status == 0


def test_convert_reads_a_pipe_in_worker_processes(tmp_path: Path) -> None:
    r = runner.invoke(app, ["convert", "-", "-o", str(tmp_path / "ds"), "--jobs", "2"], input=_big_pbn())
    assert r.exit_code == 0, (r.output, r.exception)
    (row,) = pq.read_table(tmp_path / "ds" / "files.parquet").to_pylist()
    assert (row["source_file"], row["format"], row["boards"], row["status"]) == ("<stdin>", "pbn", 40, "ok")
    out, status = shell(
        'H convert - -o "$1" --jobs 2 >/dev/null 2>&1; echo status=$?', tmp_path / "ds2", input=FAULTY.encode()
    )
    assert out == ["status=0"]  # as for a file: the errors are in the dataset
    (row,) = pq.read_table(tmp_path / "ds2" / "files.parquet").to_pylist()
    assert (row["source_file"], row["boards"], row["errors"], row["status"]) == ("<stdin>", 1, 1, "ok")


def test_read_accepts_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FAULTY.encode())))
    (board,) = read("-")
    assert board.number == 1


# --- 2. unreadable bridge files in folders and archives ---------------------------------------


@pytest.fixture
def junk(tmp_path: Path) -> Path:
    """A folder with a good file, a binary .pbn, a UTF-16 .pbn, a broken .lin.gz, a README and a picture."""
    d = tmp_path / "junk"
    d.mkdir()
    (d / "a.pbn").write_text(BASE)
    (d / "garbage.pbn").write_bytes(b"\x00\x01binary\xff" * 50)
    (d / "u16.pbn").write_bytes(BASE.encode("utf-16"))
    (d / "x.lin.gz").write_bytes(gzip.compress(PNG))
    (d / "README").write_text("| not | bridge |\n")
    (d / "pic.png").write_bytes(PNG)
    return d


def test_unreadable_bridge_files_in_a_folder_are_reported(junk: Path) -> None:
    out, status = run("validate", junk)
    f004 = "{}: F004 error: not PBN or LIN: no PBN tag pair or LIN command found"
    assert out == [
        f004.format(junk / "garbage.pbn"),
        f"{junk / 'u16.pbn'}: F004 error: not PBN or LIN: UTF-16 text: save it as UTF-8 (or ISO-8859-1) and "
        "read it again",
        f004.format(junk / "x.lin.gz"),
        "4 files (1 ok, 3 unreadable), 1 boards, 3 errors, 0 warnings",  # the files table's rows
    ]
    assert status == 2
    s = convert([junk], junk.parent / "ds", jobs=1)
    rows = pq.read_table(junk.parent / "ds" / "files.parquet").to_pylist()
    assert [(Path(r["source_file"]).name, r["status"]) for r in rows] == [
        ("a.pbn", "ok"),
        ("garbage.pbn", "unreadable"),
        ("u16.pbn", "unreadable"),
        ("x.lin.gz", "unreadable"),
    ]
    assert s.boards == 1


def test_unreadable_bridge_members_and_nested_archives_are_reported(tmp_path: Path, junk: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("deep.pbn", BASE)
    z = tmp_path / "outer.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(junk.iterdir()):
            zf.write(p, p.name)
        zf.writestr("inner.zip", inner.getvalue())
        zf.writestr("b.pbn.gz", gzip.compress(BASE.encode()))
        zf.writestr("data.csv.gz", gzip.compress(b"a,b\n"))
    t = tmp_path / "outer.tar"
    with tarfile.open(t, "w") as tf:
        tf.add(z, "outer.zip")
        tf.add(junk / "garbage.pbn", "garbage.pbn")
        tf.add(junk / "a.pbn", "a.pbn")
    items = [i.path + f" format={i.format}" if isinstance(i, Input) else str(i) for i in iter_entries([z, t])]
    assert items == [
        f"{z}!a.pbn format=pbn",
        f"{z}!garbage.pbn format=None",
        f"{z}!u16.pbn format=None",
        f"{z}!x.lin.gz: F009 warning: archive entry 'x.lin.gz' skipped: compressed member, not opened",
        f"{z}!inner.zip: F009 warning: archive entry 'inner.zip' skipped: nested archive, not opened",
        f"{z}!b.pbn.gz: F009 warning: archive entry 'b.pbn.gz' skipped: compressed member, not opened",
        f"{t}!outer.zip: F009 warning: archive entry 'outer.zip' skipped: nested archive, not opened",
        f"{t}!garbage.pbn format=None",
        f"{t}!a.pbn format=pbn",
    ]
    out, status = run("validate", t)
    assert out == [
        f"{t}!outer.zip: F009 warning: archive entry 'outer.zip' skipped: nested archive, not opened",
        f"{t}!garbage.pbn: F004 error: not PBN or LIN: no PBN tag pair or LIN command found",
        "3 files (1 ok, 1 unreadable, 1 skipped), 1 boards, 1 errors, 1 warnings",
    ]
    assert status == 2


def test_a_tar_inside_a_zip_is_not_read_as_text(tmp_path: Path) -> None:
    """A tar's header is followed by its first member's text: it must not sniff as PBN."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        info = tarfile.TarInfo("a.pbn")
        info.size = len(BASE)
        tf.addfile(info, io.BytesIO(BASE.encode()))
    z = tmp_path / "x.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("games", buf.getvalue())
    assert [str(i) for i in iter_entries([z])] == [
        f"{z}!games: F009 warning: archive entry 'games' skipped: nested archive, not opened"
    ]


# --- 3. a file named twice is read once --------------------------------------------------------


def test_a_file_named_twice_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.pbn").write_text(FAULTY)
    (d / "b.pbn").write_text(BASE)
    os.link(d / "b.pbn", tmp_path / "hard.pbn")
    os.symlink(d / "a.pbn", tmp_path / "sym.pbn")
    monkeypatch.chdir(tmp_path)
    out, status = run("validate", "d/a.pbn", "d", "./d/a.pbn", "sym.pbn", "hard.pbn", "d/b.pbn")
    assert out == [S601.format(f="d/a.pbn"), "2 files, 2 boards, 1 errors, 0 warnings"]
    assert status == 1
    s = convert(["d/a.pbn", "d", "./d/a.pbn", "sym.pbn", "hard.pbn"], tmp_path / "ds", jobs=1)
    rows = pq.read_table(tmp_path / "ds" / "files.parquet").to_pylist()
    assert [r["source_file"] for r in rows] == ["d/a.pbn", "d/b.pbn"]
    assert (s.boards, s.errors) == (2, 1)


# --- 4. the file-size limit and files that are not bridge files ---------------------------------


def test_the_file_limit_reports_only_bridge_files_in_folders(junk: Path) -> None:
    out, status = run("validate", "--max-file-size", "10", junk)
    f010 = "{}: F010 error: file exceeds the size limit of 10 bytes: not read"
    assert (
        out
        == [
            f010.format(junk / "a.pbn"),
            f010.format(junk / "garbage.pbn"),
            f010.format(junk / "u16.pbn"),
            f"{junk / 'x.lin.gz'}: F004 error: not PBN or LIN: no PBN tag pair or LIN command found",  # compressed:
            "4 files (1 unreadable, 3 skipped), 0 boards, 4 errors, 0 warnings",  # the member limit applies, not the file limit
        ]
    )
    assert status == 2
    out, status = run("validate", "--max-file-size", "10", junk / "pic.png")  # named: reported
    assert out == [f010.format(junk / "pic.png"), "1 files (1 skipped), 0 boards, 1 errors, 0 warnings"]


# --- empty inputs: the F018 warning whatever the source ----------------------------------------


@pytest.mark.parametrize("data", [b"", b"\n", b" \r\n\t\n", b"\xef\xbb\xbf", b"% PBN 2.1\r\n% EXPORT\r\n"])
def test_an_empty_input_is_the_same_warning_from_a_pipe_or_a_file(tmp_path: Path, data: bytes) -> None:
    want = ["{f}: F018 warning: no board in this PBN file", "1 files, 0 boards, 0 errors, 1 warnings"]
    out, status = run("validate", "-", input=data)
    assert (out, status) == ([w.format(f=STDIN) for w in want], 0)
    for name in ("empty.pbn", "empty"):
        f = tmp_path / name
        f.write_bytes(data)
        out, status = run("validate", f)
        assert (out, status) == ([w.format(f=f) for w in want], 0), name
    out, status = run("validate", "-", input=gzip.compress(data))
    assert (out, status) == ([w.format(f=STDIN) for w in want], 0)
    out, status = shell("H validate <(printf %s \"$1\") | sed 's#/dev/fd/[0-9]*#{f}#'", data.decode())
    assert out == [w.format(f="{f}") for w in want]
    ds = tmp_path / "ds"
    r = runner.invoke(app, ["convert", "-", "-o", str(ds), "--jobs", "1"], input=data)
    assert r.exit_code == 0, r.output
    (row,) = pq.read_table(ds / "files.parquet").to_pylist()
    assert (row["source_file"], row["format"], row["boards"], row["warnings"], row["status"]) == (
        STDIN,
        "pbn",
        0,
        1,
        "ok",
    )


def test_an_empty_file_in_a_folder_is_read_only_when_named_as_bridge(tmp_path: Path) -> None:
    (tmp_path / "a.pbn").write_bytes(b"")
    (tmp_path / "notes.txt").write_bytes(b"")  # not an input: skipped quietly, as before
    out, status = run("validate", tmp_path)
    assert out == [
        f"{tmp_path}/a.pbn: F018 warning: no board in this PBN file",
        "1 files, 0 boards, 0 errors, 1 warnings",
    ]


def test_a_missing_path_named_twice_is_reported_once(tmp_path: Path) -> None:
    """As a file named twice is read once: validate and convert count the same entries."""
    missing = tmp_path / "nope.pbn"
    out, status = run("validate", missing, missing)
    assert out == [
        f"{missing}: F001 error: cannot read input: No such file or directory",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
    ]
    assert status == 2
    s = convert([missing, missing], tmp_path / "ds", jobs=1)
    assert (s.total, s.unreadable, s.errors) == (1, 1, 1)
