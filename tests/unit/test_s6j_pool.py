"""handrec.runs.validate over the pool: diagnostics sent packed by the workers, and a prompt early stop.

* A worker sends each board's diagnostics as plain tuples, ``--strict`` already
  applied (the parent's cost per diagnostic is what made ``validate -j2`` slower than
  ``-j1`` on files with a warning on every board); the parent makes the same
  diagnostics again.
* With ``max_errors`` the first task of the run is read in the parent, board by
  board, while the workers read the next ones; once stopped, the workers' tasks
  are interrupted (:func:`handrec.runs.pool.stop_pool`) instead of waited for.
"""

from __future__ import annotations

import io
import os
import re
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from _reports import summary

import handrec.runs.pool as pool
import handrec.runs.validate as vr
from handrec.diagnostics import Diagnostic, Severity
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.limits import Limits
from handrec.inputs.sources import FileSource, Input
from handrec.runs.pool import Stopped, run_stoppable, start_pool, stop_pool

#: How long the slowed-down worker tasks below wait before reading: far longer than any test here.
SLOW = 60.0
_REAL_READ_PART = vr._read_part
_REAL_READ_INPUTS = vr._read_inputs


def slow_read_part(*args):
    time.sleep(SLOW)
    return _REAL_READ_PART(*args)


def slow_read_inputs(*args):
    time.sleep(SLOW)
    return _REAL_READ_INPUTS(*args)


def deaf_sleep(seconds: float) -> str:
    """A task that does not see the pool's stop signal (as one inside a long C call)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    time.sleep(seconds)
    return "slept"


def sleep_then(seconds: float, value: str) -> str:
    time.sleep(seconds)
    return value


def unknown_tags_pbn(games: int, seed: int = 4, score_from: int | None = None) -> str:
    """Generated games with three unknown tags each (T120, reported with ``strict``) and a
    repeated Board tag (T102); with ``score_from``, every game from that one on has a wrong Score (S601)."""
    buf = io.StringIO()
    dump(generate_boards(games, seed=seed), buf)
    text = re.sub(
        r"^(\[Board [^\]]*\])(\r?\n)", r'\1\2\1\2[Zz1 "a"]\2[Zz2 "b"]\2[Zz3 "c"]\2', buf.getvalue(), flags=re.M
    )
    if score_from is not None:
        games_text = text.split("\r\n\r\n")
        for i in range(score_from, len(games_text)):
            games_text[i] = re.sub(r'(\[Score "NS -?\d+)', r"\g<1>7", games_text[i])
        text = "\r\n\r\n".join(games_text)
    return text


@pytest.fixture
def tagged(tmp_path: Path) -> Path:
    p = tmp_path / "tagged.pbn"
    p.write_text(unknown_tags_pbn(120), newline="")
    return p


def file_input(p: Path) -> Input:
    return Input(str(p), "pbn", source=FileSource(str(p)), size=p.stat().st_size, limits=Limits())


@pytest.mark.parametrize("strict", [False, True])
def test_a_worker_sends_each_boards_diagnostics_packed_and_prepared(tagged: Path, strict: bool) -> None:
    size = tagged.stat().st_size
    part = (size // 3, 2 * size // 3)
    res = vr._read_part(file_input(tagged), part, strict)
    assert len(res.items) > 30
    packed = [d for it in res.items for d in it.diagnostics]
    assert packed and all(type(d) is tuple for d in packed)  # no dataclass, no enum to pickle
    items = list(vr._unpack(res.items))
    here = list(vr._items(file_input(tagged), part=part, parser=vr._ParserDiagnostics([]), strict=strict))
    assert [(it.mark, it.number, it.diagnostics, it.record) for it in items] == [
        (it.mark, it.number, it.diagnostics, it.record) for it in here
    ]
    first = items[0].diagnostics
    assert all(type(d) is Diagnostic and type(d.severity) is Severity for d in first)
    if strict:  # T120 raised to a warning by the worker, as the parent reports it
        t120 = [("T120", Severity.WARNING)] * 3
        assert [(d.code, d.severity) for d in first] == [("T102", Severity.WARNING), *t120, ("F020", Severity.WARNING)]
    else:  # dropped there
        assert [d.code for d in first] == ["T102", "F020"]


@pytest.mark.parametrize("kw", [{}, {"strict": True}, {"strict": True, "max_errors": 1}])
def test_same_reports_with_one_job_and_two_on_a_warning_on_every_board(tagged: Path, kw: dict) -> None:
    one = summary(list(vr.validate_paths([tagged], jobs=1, **kw)))
    two = summary(list(vr.validate_paths([tagged], jobs=2, pool_bytes=0, part_bytes=8_000, **kw)))
    assert two == one
    (path, is_input, boards, errors, warnings, stopped, findings) = one[0]
    assert (boards, errors, warnings) == (120, 0, 600 if kw.get("strict") else 240)
    expected = [(f"{tagged}:8:1: T102 warning: tag Board repeated; the first value is kept", 1)]
    if kw.get("strict"):
        expected += [(f"{tagged}:{8 + k}:1: T120 warning: unknown tag 'Zz{k}' kept", 1) for k in (1, 2, 3)]
    assert findings[: len(expected)] == expected
    assert findings[len(expected)] == (
        f"{tagged}:12:1: F020 warning: file says '% EXPORT' but tag West comes after Zz3",
        1,
    )


def test_stop_pool_interrupts_the_running_tasks() -> None:
    """Two workers, each running a task of a minute, more tasks queued: all stopped at once."""
    ex = start_pool(2)
    processes = list(ex._processes.values())
    futures = [ex.submit(run_stoppable, sleep_then, SLOW, "slept") for _ in range(5)]
    time.sleep(0.5)  # the first two running, one more handed to the workers already
    t = time.monotonic()
    stop_pool(ex)
    assert time.monotonic() - t < SLOW / 4
    assert [f.result() for f in futures[:2]] == [None, None]  # interrupted: no result
    assert all(f.cancelled() or f.result() is None for f in futures[2:])  # not started, or stopped as it started
    assert not any(p.is_alive() for p in processes)


def test_early_stop_reads_the_first_part_here_and_does_not_wait_for_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers take a minute to start any part: the run stops at the third board's error
    (in the first part, read here) without waiting for them."""
    p = tmp_path / "late.pbn"
    p.write_text(unknown_tags_pbn(400, score_from=2), newline="")
    one = summary(list(vr.validate_paths([p], jobs=1, max_errors=2)))
    monkeypatch.setattr(vr, "_read_part", slow_read_part)  # before the pool forks: the workers have it
    t = time.monotonic()
    two = summary(list(vr.validate_paths([p], jobs=2, pool_bytes=0, part_bytes=20_000, max_errors=2)))
    assert time.monotonic() - t < SLOW / 4
    assert two == one
    assert [x[2:6] for x in one] == [(4, 2, 8, True)]  # boards, errors, warnings, stopped
    codes = [line.split(": ")[1].split()[0] for line, _ in one[0][6]]
    assert codes == ["T102", "F020"] * 3 + ["S601", "T102", "F020", "S601"]


def test_early_stop_reads_the_first_task_of_whole_inputs_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(6):
        (folder / f"f{i}.pbn").write_text(unknown_tags_pbn(30, seed=i, score_from=25 if i == 1 else None), newline="")
    one = summary(list(vr.validate_paths([folder], jobs=1, max_errors=3)))
    monkeypatch.setattr(vr, "_read_inputs", slow_read_inputs)
    t = time.monotonic()
    two = summary(list(vr.validate_paths([folder], jobs=2, pool_bytes=0, task_bytes=40_000, max_errors=3)))
    assert time.monotonic() - t < SLOW / 4
    assert two == one
    assert [(Path(x[0]).name, *x[2:6]) for x in one] == [("f0.pbn", 30, 0, 60, False), ("f1.pbn", 28, 3, 56, True)]


def test_stop_pool_kills_the_workers_that_do_not_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """An interruption (``kill_after``): workers deaf to the stop signal are killed after that
    time; the pool's manager thread ends without an error (Python 3.11's fails on a cancelled
    future when it finds its pool broken, unless the cancelled tasks were dropped first)."""
    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: errors.append(a.exc_value))
    ex = start_pool(2)
    processes = list(ex._processes.values())
    futures = [ex.submit(run_stoppable, deaf_sleep, SLOW) for _ in range(5)]
    time.sleep(0.5)  # the first two running
    for f in futures[2:]:
        f.cancel()  # as convert's drop() and validate's _in_order do
    t = time.monotonic()
    stop_pool(ex, kill_after=0.3)
    assert 0.3 <= time.monotonic() - t < 3
    assert not any(p.is_alive() for p in processes)
    for f in futures[:2]:
        with pytest.raises(BrokenProcessPool):
            f.result(timeout=5)
    assert errors == []


def _stopped_then_signalled() -> str:
    try:
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(5)
    except Stopped:
        pass  # the first stop, taken inside the task
    os.kill(os.getpid(), signal.SIGUSR1)  # stop_pool signals again and again
    time.sleep(0.05)
    return "went on"


def test_a_task_is_stopped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stop signal raises :class:`Stopped` once a task: the signals that follow (stop_pool
    repeats them until the workers are gone) raise no second one, which could escape
    run_stoppable while it handles the first (a worker's traceback in the parent)."""
    old = signal.signal(signal.SIGUSR1, pool._on_stop)
    try:
        assert run_stoppable(_stopped_then_signalled) == "went on"
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_a_stop_landing_in_a_finalizer_prints_nothing_and_can_land_again(monkeypatch, capsys) -> None:
    """Ctrl-C during validate --jobs 2 printed 'Exception ignored in: <generator object
    Input._items>' and a traceback of Stopped (issue #19.1): the stop signal landed in a
    generator's finally, run by the garbage collector, where Python cannot raise it."""
    import gc
    import sys

    from handrec.runs import pool

    monkeypatch.setattr(sys, "unraisablehook", pool._unraisable)
    monkeypatch.setattr(pool, "_running", True)
    monkeypatch.setattr(pool, "_in_task", False)

    def reading():
        try:
            yield 1
        finally:
            raise pool.Stopped  # as _on_stop raises it when SIGUSR1 arrives here

    g = reading()
    next(g)
    del g
    gc.collect()
    assert capsys.readouterr().err == ""
    assert pool._in_task is True  # the next signal stops the task
