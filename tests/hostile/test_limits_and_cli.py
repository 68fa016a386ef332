"""Resource limits, the CLI's behaviour on faults, and that nothing in an input is used as a path to write to."""

from __future__ import annotations

import errno
import io
import itertools
import os
import subprocess
import sys
import threading
import tracemalloc
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read_input
from handrec.inputs.entries import iter_entries, iter_inputs
from handrec.inputs.limits import Limits
from handrec.inputs.sources import Input
from handrec.runs.convert import convert

from .test_bad_inputs import BASE, LIN

runner = CliRunner()


def run(*args: object):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _faulty(n: int) -> str:
    """BASE as event ``En`` with a wrong score (one S601 error)."""
    return BASE.replace('[Event "Club"]', f'[Event "E{n}"]').replace('[Score "NS -140"]', '[Score "NS -150"]')


# --- file and line limits ----------------------------------------------------------------------


def test_a_file_over_the_file_limit_is_not_read(tmp_path: Path) -> None:
    f = tmp_path / "big.pbn"
    f.write_text(BASE * 3)
    size = f.stat().st_size
    r = run("validate", "--max-file-size", "1k", f)
    assert r.stdout.replace(str(f), "{f}").splitlines() == [
        "{f}: F010 error: file exceeds the size limit of 1024 bytes: not read",
        "1 files (1 skipped), 0 boards, 1 errors, 0 warnings",
    ]
    assert r.exit_code == 2
    assert run("validate", "--max-file-size", str(size), f).exit_code == 0
    assert run("validate", "--max-file-size", "lots", f).exit_code == 2  # usage
    s = convert([f], tmp_path / "ds", jobs=1, limits=Limits(max_file_bytes=1024))
    (row,) = pq.read_table(tmp_path / "ds" / "files.parquet").to_pylist()
    assert (row["status"], s.skipped, s.boards) == ("skipped", 1, 0)


def test_a_file_that_grows_past_the_limit_stops_being_read(tmp_path: Path) -> None:
    """The size is checked when listed and again while reading (a file that grows, a device)."""
    f = tmp_path / "grows.pbn"
    f.write_text(BASE)
    (inp,) = iter_inputs([f], limits=Limits(max_file_bytes=len(BASE) + 10))
    f.write_text(BASE + "\n" + BASE)
    assert len(list(read_input(inp))) <= 1
    assert [str(d) for d in inp.diagnostics] == [
        f"{f}: F010 error: file exceeds the size limit of {len(BASE) + 10} bytes: reading stopped"
    ]


def test_a_long_line_is_streamed_not_held(tmp_path: Path) -> None:
    """64 MiB on one line, from a stream that never holds it: memory stays near the line limit."""

    class Endless(io.RawIOBase):
        def __init__(self) -> None:
            mib = b"y" * (1 << 20)  # one object, handed out 64 times: only what the reader keeps adds up
            self.chunks = itertools.chain([b'[Board "1"]\n[Event "'], [mib] * 64, [b'"]\n[Dealer "E"]\n'])

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return next(self.chunks, b"")

    inp = Input("long.pbn", "pbn", opener=Endless)
    tracemalloc.start()
    try:
        (board,) = read_input(inp)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak  # a few copies of the 1 MiB kept, never the 64 MiB
    assert [d.code for d in inp.diagnostics] == ["F013"]
    assert board.tag("Dealer") == "E"  # the line after the long one is read


def test_line_limit_cuts_at_a_character_boundary() -> None:
    data = ('[Event "' + "é" * 10 + '"]\n').encode()
    inp = Input("x.pbn", "pbn", opener=lambda: io.BytesIO(data), limits=Limits(max_line_bytes=12))
    assert list(inp.lines()) == ['[Event "éé']  # 8 + 2x2 bytes: the third é would be cut in two
    assert [str(d) for d in inp.diagnostics] == [
        "x.pbn:1:11: F013 error: line 1 is longer than the limit of 12 bytes: the rest of it is skipped"
    ]


def test_a_fifo_in_a_folder_is_skipped_not_waited_for(tmp_path: Path) -> None:
    (tmp_path / "a.pbn").write_text(BASE)
    os.mkfifo(tmp_path / "pipe.pbn")
    items: list = []
    t = threading.Thread(target=lambda: items.extend(iter_entries([tmp_path])), daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), "listing the folder waited on the FIFO"
    assert [i.path if isinstance(i, Input) else str(i) for i in items] == [
        str(tmp_path / "a.pbn"),
        f"{tmp_path / 'pipe.pbn'}: F014 warning: FIFO skipped: not a regular file",
    ]


# --- validate: --fail-fast, --max-errors, internal errors ----------------------------------------


@pytest.fixture
def faulty(tmp_path: Path) -> Path:
    """Four files of two games each, every game with one error, and an unreadable archive member."""
    root = tmp_path / "in"
    root.mkdir()
    for i in range(4):
        (root / f"f{i}.pbn").write_text(_faulty(2 * i + 1) + "\n" + _faulty(2 * i + 2))
    with zipfile.ZipFile(root / "z.zip", "w") as z:
        z.writestr("../up.pbn", BASE)
    return root


def test_fail_fast_stops_at_the_first_error(faulty: Path) -> None:
    r = run("validate", "--fail-fast", faulty)
    out = r.stdout.replace(str(faulty), "{d}").splitlines()
    assert out == [
        "{d}/f0.pbn:9:1: S601 error: Score NS -150 but 2H by W taking 9 tricks scores NS -140",
        "1 files, 1 boards, 1 errors, 0 warnings",
    ]
    assert r.exit_code == 1
    assert "handrec: stopped after 1 error (--fail-fast)" in r.output


def test_max_errors_stops_after_n_errors(faulty: Path) -> None:
    r = run("validate", "--max-errors", "3", "--format", "json", faulty)
    import json

    doc = json.loads(r.stdout)
    assert (doc["files"], doc["boards"], doc["errors"], doc["stopped"]) == (2, 3, 3, True)
    assert r.exit_code == 1
    full = run("validate", faulty)
    assert full.stdout.splitlines()[-1] == "5 files (4 ok, 1 skipped), 8 boards, 9 errors, 0 warnings"
    assert full.exit_code == 2  # the refused member
    lines = full.stdout.replace(str(faulty), "{d}").splitlines()
    assert lines[-2] == "{d}/z.zip!../up.pbn: F008 error: archive member '../up.pbn' refused: '..' in path"
    assert run("validate", "--max-errors", "0", faulty).exit_code == 2  # usage


def test_an_internal_error_is_a_diagnostic_not_a_traceback(faulty: Path, monkeypatch) -> None:
    import handrec.rules.validator

    real = handrec.rules.validator.analyse

    def analyse(board):
        if board.tag("Event") == "E3":
            raise RuntimeError("boom")
        return real(board)

    monkeypatch.setattr(handrec.rules.validator, "analyse", analyse)
    r = run("validate", faulty)
    lines = r.stdout.replace(str(faulty), "{d}").splitlines()
    assert (
        "{d}/f1.pbn: F015 error: handrec failed on this input (RuntimeError: boom); the rest of it is not read: "
        "please report it"
    ) in lines
    assert lines[-1] == "5 files (3 ok, 1 unreadable, 1 skipped), 7 boards, 8 errors, 0 warnings"  # f1.pbn stopped
    assert r.exit_code == 2


# --- convert: output not writable, disk full -----------------------------------------------------


def test_convert_into_a_read_only_folder(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "a.pbn"
    src.write_text(BASE)
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)
    if os.geteuid() == 0:  # root writes anyway: refuse as the kernel would for anyone else

        def mkdir(path, *args, **kwargs):
            if Path(path).parent == out:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real_mkdir(path, *args, **kwargs)

        real_mkdir = os.mkdir
        monkeypatch.setattr(os, "mkdir", mkdir)
    try:
        r = run("convert", src, "-o", out, "--jobs", "1")
    finally:
        out.chmod(0o755)
    assert r.exit_code == 2
    assert r.output.replace(str(out), "{o}").splitlines() == ["handrec: cannot write {o}: Permission denied"]
    assert list(out.iterdir()) == []


def test_convert_on_a_full_disk_keeps_the_old_dataset(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "a.pbn"
    src.write_text(BASE)
    out = tmp_path / "ds"
    assert run("convert", src, "-o", out, "--jobs", "1").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    src.write_text(BASE + "\n" + _faulty(2))
    import pyarrow.parquet

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pyarrow.parquet.ParquetWriter, "write_table", full)
    r = run("convert", src, "-o", out, "--jobs", "1")
    assert r.exit_code == 2
    assert r.output.replace(str(out), "{o}").splitlines() == ["handrec: cannot write {o}: No space left on device"]
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".parquet"} == before
    monkeypatch.undo()
    r = run("convert", src, "-o", out, "--jobs", "1", "--resume")
    assert r.exit_code == 0, r.output
    assert pq.read_table(out / "boards.parquet").num_rows == 2


# --- nothing from an input is a path to write to -----------------------------------------------


def test_input_never_names_a_file_to_write(tmp_path: Path) -> None:
    """Member names and tag values that look like paths are data: only the output paths are written."""
    target = tmp_path / "pwned"
    evil = BASE.replace('[Event "Club"]', f'[Event "{target}"]\n[Site "../../../{target.name}"]')
    root = tmp_path / "in"
    root.mkdir()
    (root / "a.pbn").write_text(evil)
    with zipfile.ZipFile(root / "z.zip", "w") as z:
        z.writestr(f"../../{target.name}", evil)
        z.writestr(str(target), evil)
        z.writestr("ok.pbn", evil)
        z.writestr("lin.lin", LIN.replace("ah|Board 1|", f"ah|{target}|"))
    out = tmp_path / "out"
    out.mkdir()

    def listing() -> set[Path]:
        return {p for p in tmp_path.rglob("*") if out not in p.parents}

    before = listing()
    run("validate", root)
    run("convert", root, "-o", out / "ds", "--jobs", "1")
    run("export", root, "-o", out / "x.pbn")
    run("export", root, "--to", "lin", "-o", out / "x.lin")
    run("booklet", root, "-o", out / "b.html")
    assert listing() == before | {out}
    assert not target.exists()
    assert {p.name for p in out.iterdir()} == {"ds", "x.pbn", "x.lin", "b.html"}


# --- no traceback, whatever the input ---------------------------------------------------------------


def test_no_command_shows_a_traceback_for_bad_input(tmp_path: Path) -> None:
    """Every bad input of the suite and mutated real files, through every command that reads inputs."""
    from .fuzzing import Mutant, corpus_files, corpus_sample, generated_sample
    from .test_bad_inputs import CASES

    root = tmp_path / "in"
    root.mkdir()
    for i, c in enumerate(CASES):
        name, data = (c.values if hasattr(c, "marks") else c[1:])[:2]
        (root / f"{i:02d}-{name}").write_bytes(data)
    samples = [generated_sample(3, 5, "pbn"), generated_sample(3, 6, "lin")]
    samples += [corpus_sample(p, 0, 3) for p in corpus_files()[::4]]
    for i, s in enumerate(samples):
        m = Mutant(s)
        m.flip(97 * i + 13, ord("{") if i % 2 else ord("|"))
        m.delete_line(7 * i + 3)
        m.truncate(len(m.data) * 4 // 5)
        (root / f"mut{i:02d}-{s.name}").write_bytes(m.data)
    with zipfile.ZipFile(root / "all.zip", "w") as z:
        for p in sorted(root.iterdir()):
            if p.suffix != ".zip":
                z.write(p, p.name)
    out = tmp_path / "out"
    for args in (
        ["validate", root],
        ["validate", "--format", "json", "--strict", root],
        ["convert", root, "-o", out / "ds", "--jobs", "2"],
        ["export", root, "-o", out / "x.pbn"],
        ["export", root, "--to", "lin", "-o", out / "x.lin"],
        ["booklet", root, "-o", out / "b.html"],
    ):
        r = run(*args)  # asserts no exception but SystemExit
        assert r.exit_code in (0, 1, 2), (args, r.output)
        assert "Traceback" not in r.output


# --- archives: what the archive tests in tests/unit do not cover yet ------------------------------


def test_windows_style_member_names_fifos_and_block_devices(tmp_path: Path) -> None:
    import tarfile

    z = tmp_path / "win.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for name in ("C:\\evil.pbn", "..\\..\\evil.pbn", "a\\..\\..\\b.pbn", "\\\\server\\share\\x.pbn", "ok.pbn"):
            zf.writestr(name, BASE)
    t = tmp_path / "dev.tar"
    with tarfile.open(t, "w") as tf:
        for name, kind in (("fifo.pbn", tarfile.FIFOTYPE), ("disk", tarfile.BLKTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            tf.addfile(info)
        info = tarfile.TarInfo("ok.pbn")
        info.size = len(BASE)
        tf.addfile(info, io.BytesIO(BASE.encode()))
    items = [i.path if isinstance(i, Input) else str(i) for i in iter_entries([z, t])]
    assert items == [
        f"{z}!C:\\evil.pbn: F008 error: archive member 'C:\\\\evil.pbn' refused: absolute path",
        f"{z}!..\\..\\evil.pbn: F008 error: archive member '..\\\\..\\\\evil.pbn' refused: '..' in path",
        f"{z}!a\\..\\..\\b.pbn: F008 error: archive member 'a\\\\..\\\\..\\\\b.pbn' refused: '..' in path",
        f"{z}!\\\\server\\share\\x.pbn: F008 error: archive member '\\\\\\\\server\\\\share\\\\x.pbn' refused: "
        "absolute path",
        f"{z}!ok.pbn",
        f"{t}!fifo.pbn: F009 warning: archive entry 'fifo.pbn' skipped: FIFO",
        f"{t}!disk: F009 warning: archive entry 'disk' skipped: block device",
        f"{t}!ok.pbn",
    ]


def test_a_zip_bomb_member_is_not_read(tmp_path: Path) -> None:
    """A member of 64 MiB of zeros (a few KiB compressed) over a 1 MiB member limit: refused on its declared size."""
    z = tmp_path / "bomb.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("ok.pbn", BASE)
        with zf.open("bomb.pbn", "w") as m:
            m.write(b'[Board "1"]\n')
            for _ in range(64):
                m.write(bytes(1 << 20))
    assert z.stat().st_size < 200_000
    r = run("validate", z)
    assert r.stdout.replace(str(z), "{z}").splitlines() == [  # under the default 1 GiB member limit: read, and
        "{z}!bomb.pbn:2:1: F006 warning: unknown token '" + "\\x00" * 170 + "... (1048576 chars)' ignored",
        "{z}!bomb.pbn:2:1048577: F013 error: line 2 is longer than the limit of 1048576 bytes: the rest of it is "
        "skipped",  # the line limit keeps memory and messages small
        "2 files, 2 boards, 1 errors, 1 warnings",
    ]
    assert r.exit_code == 2
    items = [i.path if isinstance(i, Input) else str(i) for i in iter_entries([z], Limits(member_bytes=1 << 20))]
    assert items == [
        f"{z}!ok.pbn",
        f"{z}!bomb.pbn: F010 error: archive member exceeds the size limit of 1048576 bytes: not read",
    ]


def test_validate_takes_the_archive_limits_as_convert_does(tmp_path: Path) -> None:
    z = tmp_path / "two.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("small.pbn", BASE)
        zf.writestr("large.pbn", BASE + "\n" + BASE.replace('[Board "1"]', '[Board "2"]') + "{" + "x" * 4000 + "}\n")
    r = run("validate", z, "--max-member-size", "3K")
    assert r.stdout.replace(str(z), "{z}").splitlines() == [
        "{z}!large.pbn: F010 error: archive member exceeds the size limit of 3072 bytes: not read",
        "2 files (1 ok, 1 skipped), 1 boards, 1 errors, 0 warnings",
    ]
    assert r.exit_code == 2
    r = run("validate", z, "--max-archive-size", "1K")
    assert r.stdout.replace(str(z), "{z}").splitlines() == [
        "{z}!large.pbn: F010 error: archive {z} exceeds the size limit of 1024 bytes: this and later members not read",
        "2 files (1 ok, 1 skipped), 1 boards, 1 errors, 0 warnings",
    ]


@pytest.mark.parametrize("command", ["validate", "convert"])
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--max-line-size", "0", "handrec: --max-line-size must be at least 1 byte, not '0'"),
        ("--max-board-size", "0K", "handrec: --max-board-size must be at least 1 byte, not '0K'"),
        ("--max-file-size", "lots", "handrec: --max-file-size: not a size: 'lots' (examples: 4096, 512M, 1G)"),
    ],
)
def test_a_zero_or_bad_size_is_a_usage_error(
    tmp_path: Path, command: str, option: str, value: str, message: str
) -> None:
    f = tmp_path / "a.pbn"
    f.write_text(BASE)
    extra = ["-o", str(tmp_path / "out")] if command == "convert" else []
    r = run(command, f, option, value, *extra)
    assert r.exit_code == 2
    assert r.stderr == message + "\n"


def test_json_output_honours_no_warnings_and_info(tmp_path: Path) -> None:
    f = tmp_path / "w.pbn"
    f.write_text(BASE.replace('[Dealer "N"]', '[Dealer "E"]'))  # T103 warning (board 1: N), T106 error (Auction N)
    import json

    doc = json.loads(run("validate", f, "--format", "json").stdout)
    assert [d["code"] for d in doc["diagnostics"]] == ["T103", "T106"] and doc["warnings"] == 1
    doc = json.loads(run("validate", f, "--format", "json", "--no-warnings").stdout)
    assert [d["code"] for d in doc["diagnostics"]] == ["T106"] and doc["warnings"] == 1  # counted, not listed


def test_convert_into_a_file_says_it_is_not_a_folder(tmp_path: Path) -> None:
    src = tmp_path / "a.pbn"
    src.write_text(BASE)
    target = tmp_path / "afile"
    target.write_text("keep me")
    r = run("convert", src, "-o", target)
    assert r.exit_code == 2
    assert r.stderr == f"handrec: cannot write {target}: it is a file, not a folder\n"
    assert target.read_text() == "keep me"


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full (every write: no space left)")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "sample_data/club_pairs.pbn"],
        ["generate", "-n", "3", "-o", "-"],
        ["score", "sample_data/club_session.pbn"],
    ],
)
def test_standard_output_without_room_is_one_line_and_status_2(args: list[str]) -> None:
    # a traceback (OSError: No space left on device), or status 0 with the output lost
    root = Path(__file__).resolve().parents[2]
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "handrec.cli", *args], cwd=root, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert (r.stderr.splitlines()[-1:], r.returncode) == (
        ["handrec: cannot write standard output: No space left on device"],
        2,
    )
    assert "Traceback" not in r.stderr
