"""The progress bar of every long command (issue #19.2): the library's reports move inside a big
file and end at its size; the bar is drawn on a terminal only, never on a pipe, with
``--format json`` or with ``--quiet``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import handrec.runs.progress as rp
from handrec.formats.dispatch import read
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.runs.convert import convert
from handrec.runs.progress import RunProgress
from handrec.runs.validate import validate_paths

ROOT = Path(__file__).resolve().parents[2]
BOARDS = 600
PARTS = 8  # 2 jobs, parts of 40,000 bytes of a file of about 340,000: PARTS_PER_JOB x 2


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PBN file (no ``#`` inheritance: it is split for --jobs 2) of :data:`BOARDS` boards."""
    f = tmp_path_factory.mktemp("progress") / "big.pbn"
    with open(f, "w", encoding="utf-8", newline="") as out:
        dump(generate_boards(BOARDS, 7, path=str(f)), out)
    return f


def _reports(
    run: str, f: Path, jobs: int, tmp: Path, monkeypatch: pytest.MonkeyPatch, part_bytes: int = 40_000
) -> list[RunProgress]:
    seen: list[RunProgress] = []
    monkeypatch.setattr(rp, "EVERY", 0.0)  # every report sent: the test sees each step
    if run == "convert":
        convert([f], tmp / "ds", jobs=jobs, part_bytes=part_bytes, on_progress=seen.append)
    else:
        reports = validate_paths([f], jobs=jobs, pool_bytes=0, part_bytes=part_bytes, on_progress=seen.append)
        assert [(r.boards, r.errors) for r in reports] == [(BOARDS, 0)]
    return seen


@pytest.mark.parametrize("run", ["convert", "validate"])
def test_bytes_move_board_by_board_with_one_job(run: str, big: Path, tmp_path: Path, monkeypatch) -> None:
    size = big.stat().st_size
    seen = _reports(run, big, 1, tmp_path, monkeypatch)
    done = [p.bytes_done for p in seen]
    assert done == sorted(done)  # never back
    assert done[-1] == size and seen[-1].bytes_total == size
    assert (seen[-1].boards, seen[-1].files) == (BOARDS, 1)
    offsets = [b.origin.offset for b in read(big)]
    assert len(set(offsets)) == BOARDS and 0 < offsets[0]
    # the n-th board read moves the bar to its block's offset: inside the file, not only at its end
    inside = [p for p in seen if 0 < p.bytes_done < size]
    assert [p.bytes_done for p in inside] == offsets
    assert [p.boards for p in inside] == list(range(1, BOARDS + 1))


@pytest.mark.parametrize("run", ["convert", "validate"])
def test_bytes_move_part_by_part_with_two_jobs(run: str, big: Path, tmp_path: Path, monkeypatch) -> None:
    """Without the workers' counters (workers not forked), the bar moves part by part."""
    monkeypatch.setattr(rp, "share", lambda slots: None)
    size = big.stat().st_size
    seen = _reports(run, big, 2, tmp_path, monkeypatch)
    done = [p.bytes_done for p in seen]
    assert done == sorted(done)
    assert done[-1] == size and seen[-1].boards == BOARDS
    # each of the 8 parts adds its share of the file's bytes as its result is taken
    assert set(done) - {0} == {size * k // PARTS for k in range(1, PARTS + 1)}


@pytest.mark.parametrize("run", ["convert", "validate"])
def test_bytes_move_inside_a_part_read_by_a_worker(run: str, big: Path, tmp_path: Path, monkeypatch) -> None:
    """Two parts of 300 boards, one a worker: the workers say how far they have read (shared
    counters), so the bar moves before the first part ends."""
    import handrec.runs.convert as rc
    import handrec.runs.validate as rv

    monkeypatch.setattr(rc, "_POLL", 0.005)
    monkeypatch.setattr(rv, "_POLL", 0.005)
    size = big.stat().st_size
    seen = _reports(run, big, 2, tmp_path, monkeypatch, part_bytes=size // 2 + 1)
    done = [p.bytes_done for p in seen]
    assert done == sorted(done) and done[-1] == size and seen[-1].boards == BOARDS
    inside = [p for p in seen if 0 < p.bytes_done < size // 2]
    assert len(inside) >= 5, done  # polled 200 times a second over the 0.3 s a part takes at least
    assert all(0 < p.boards < BOARDS for p in inside)
    assert rp._shared is None  # the run is over: the counters are gone


def test_convert_bar_moves_inside_a_whole_file_read_by_a_worker(big: Path, tmp_path: Path, monkeypatch) -> None:
    """Files not split (here: parts bigger than the files) are each one worker's task: the
    worker says how far it has read, so the bar moves before the file ends (it stood at 0
    until the end of each file: with --dd, minutes)."""
    import shutil

    import handrec.runs.convert as rc

    monkeypatch.setattr(rc, "_POLL", 0.005)
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.pbn", "b.pbn"):
        shutil.copy(big, folder / name)
    seen: list[RunProgress] = []
    monkeypatch.setattr(rp, "EVERY", 0.0)
    convert([folder], tmp_path / "ds", jobs=2, part_bytes=1 << 30, task_bytes=1, on_progress=seen.append)
    size = big.stat().st_size
    done = [p.bytes_done for p in seen]
    assert done == sorted(done) and done[-1] == 2 * size and seen[-1].boards == 2 * BOARDS
    inside = [p for p in seen if 0 < p.bytes_done < size and p.files == 0]
    assert len(inside) >= 5, done
    assert all(0 < p.boards < 2 * BOARDS for p in inside)


# =========================================================================================
# The bar on a terminal, and nowhere else
# =========================================================================================


def _run(args: list[str], terminal: bool) -> tuple[int, str, str]:
    """``python -m handrec.cli ARGS`` with stderr on a pseudo-terminal 100 columns wide (or a pipe):
    exit status, stdout, stderr."""
    env = dict(os.environ, COLUMNS="100", LINES="30", TERM="xterm", PYTHONPATH=str(ROOT))
    env.pop("NO_COLOR", None)
    cmd = [sys.executable, "-m", "handrec.cli", *args]
    if not terminal:
        p = subprocess.run(cmd, capture_output=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode()
    master, slave = os.openpty()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    out = proc.stdout.read().decode()  # type: ignore[union-attr]
    proc.stdout.close()  # type: ignore[union-attr]
    return proc.wait(timeout=120), out, err.decode()


def _plain(text: str) -> str:
    """``text`` without its terminal control sequences (colours, cursor moves)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def _commands(f: Path, tmp: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", "--jobs", "1", str(f)],
        "convert": ["convert", "--jobs", "1", str(f), "-o", str(tmp / "ds")],
        "generate": ["generate", "-n", "300", "-o", str(tmp / "g.pbn")],
    }


@pytest.mark.parametrize(
    ("name", "label", "done"),
    [
        ("validate", "validating", "{kb}/{kb} kB 1 files, 600 boards, "),
        ("convert", "converting", "{kb}/{kb} kB 1 files, 600 boards, "),
        ("generate", "generating", "━ 300/300 "),
    ],
)
def test_bar_on_a_terminal(name: str, label: str, done: str, big: Path, tmp_path: Path) -> None:
    code, out, err = _run(_commands(big, tmp_path)[name], terminal=True)
    assert code == 0
    assert label in err and "boards/s" in err
    frames = [_plain(f) for f in err.split("\r") if "boards/s" in f]
    assert done.format(kb=f"{big.stat().st_size / 1000:.1f}") in frames[-1]  # the last frame: everything done
    assert "boards/s" not in out and "\x1b" not in out  # the bar is on stderr only
    if name == "validate":
        assert out == f"1 files, {BOARDS} boards, 0 errors, 0 warnings\n"


@pytest.mark.parametrize("name", ["validate", "convert", "generate"])
def test_no_bar_on_a_pipe(name: str, big: Path, tmp_path: Path) -> None:
    code, _, err = _run(_commands(big, tmp_path)[name], terminal=False)
    assert code == 0
    assert "boards/s" not in err and "\x1b" not in err


@pytest.mark.parametrize("name", ["validate", "convert", "generate"])
def test_no_bar_with_quiet(name: str, big: Path, tmp_path: Path) -> None:
    code, _, err = _run([*_commands(big, tmp_path)[name], "--quiet"], terminal=True)
    assert code == 0
    assert "boards/s" not in err and "\x1b" not in err


def test_no_bar_with_json(big: Path, tmp_path: Path) -> None:
    code, out, err = _run(["validate", "--jobs", "1", "--format", "json", str(big)], terminal=True)
    assert code == 0
    assert '"boards": 600' in out
    assert "boards/s" not in err and "\x1b" not in err


def test_double_dummy_bar_only_when_enabled() -> None:
    """The solver's callback (:class:`handrec.cli.dd.DDProgress`) draws the same bar, in deals."""
    code = "from handrec.cli.dd import DDProgress; p = DDProgress(enabled={}); p(0, 40); p(40, 40); p.close()"
    for enabled, shown in ((True, True), (False, False)):
        master, slave = os.openpty()
        env = dict(os.environ, COLUMNS="100", TERM="xterm", PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-c", code.format(enabled)], stderr=slave, env=env)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        os.close(master)
        assert proc.wait(timeout=60) == 0
        text = err.decode()
        assert ("40/40" in text and "deals/s" in text) is shown, text


def test_boards_per_second_over_the_last_30_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate shown does not jump: it is counted over a window, so one burst of boards moves it
    by that burst's share of 30 seconds, not to the burst's own speed."""
    import handrec.cli.progress as cp

    now = [0.0]
    monkeypatch.setattr(cp.time, "monotonic", lambda: now[0])
    rate = cp._Rate()
    assert rate.add(0) is None
    now[0] = 0.2
    assert rate.add(20) is None  # under half a second of samples: not known yet
    for t in range(1, 61):  # 100 boards a second for a minute
        now[0] = float(t)
        steady = rate.add(100 * t)
    assert steady == 100.0
    now[0] = 61.0
    # 3,000 boards in one second: over the window (samples from t=30 on), about 197 a second
    assert rate.add(6_100 + 3_000) == pytest.approx((9_100 - 3_000) / 31)
