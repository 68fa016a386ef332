"""The one progress bar of every long command (rich, on stderr, only on a terminal).

``validate``, ``convert``, ``generate`` and the double-dummy solving of
``--dd`` (validate, convert, booklet, site) draw the same bar: what is done
(bytes, or a count), the boards read, boards per second and the time left.
:func:`shown` says whether a bar is drawn at all: never when stderr is not a
terminal (a pipe, a file), with ``--format json``, or with ``--quiet``.

Neither figure jumps: the time left is rich's own estimate, from the speed over
its last 30 seconds of updates (``speed_estimate_period``), and the boards per
second are counted over the same window (:class:`_Rate`).  The library reports
through plain callbacks (:class:`handrec.runs.progress.RunProgress`, a solver's
``progress(done, total)``); only this module imports rich.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from typing import Any, TextIO

__all__ = ["Bar", "shown", "WINDOW"]

#: Seconds of updates the speeds are measured over (rich's default ``speed_estimate_period``).
WINDOW = 30.0


def shown(quiet: bool = False, json: bool = False) -> bool:
    """Whether a command draws its bar: not ``quiet``, not JSON output, and stderr a terminal."""
    return not quiet and not json and sys.stderr.isatty()


_CONSOLE: Any = None


def _console() -> Any:
    """The one rich console on stderr every bar shares: a bar started while another is drawn
    (the solver's, while validate reads) is drawn below it, not over it."""
    global _CONSOLE
    if _CONSOLE is None:
        from rich.console import Console

        _CONSOLE = Console(stderr=True)
    return _CONSOLE


class _Rate:
    """Items per second over the last :data:`WINDOW` seconds of samples (``None`` before half a second of them)."""

    def __init__(self) -> None:
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, count: int) -> float | None:
        now = time.monotonic()
        s = self._samples
        s.append((now, count))
        while len(s) > 2 and now - s[1][0] > WINDOW:
            s.popleft()
        t0, c0 = s[0]
        if now - t0 < 0.5:
            return None
        return (count - c0) / (now - t0)


class Bar:
    """A rich bar on stderr: ``label``, the bar, what is done (``unit``: ``"bytes"``, shown as
    MB, or ``"count"``: done/total of ``what``), the boards read and ``what`` per second, the
    time left.

    :meth:`update` draws it (started at the first update: a command starts it once its
    worker processes exist, so the refresh thread is never forked); :meth:`close` removes
    it.  Nothing is drawn when ``enabled`` is false (see :func:`shown`).
    """

    def __init__(self, label: str, *, unit: str = "bytes", what: str = "boards", enabled: bool = True) -> None:
        if unit not in ("bytes", "count"):
            raise ValueError(f"unit must be 'bytes' or 'count', not {unit!r}")
        self.label = label
        self.unit = unit
        self.what = what
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None
        self._rate = _Rate()
        self._tty: bool | None = None

    def _start(self, total: int | None) -> None:
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        done = DownloadColumn() if self.unit == "bytes" else MofNCompleteColumn()
        self._progress = Progress(
            TextColumn(f"[bold]{self.label}"),
            BarColumn(),
            done,
            TextColumn("{task.fields[info]}"),
            TimeRemainingColumn(),
            console=_console(),
            transient=True,
            speed_estimate_period=WINDOW,
            redirect_stdout=False,  # standard output stays the command's output (a pipe, a file)
        )
        self._progress.start()
        self._task = self._progress.add_task(self.label, total=total, info="")

    def update(
        self, done: int, total: int | None = None, *, boards: int | None = None, files: int | None = None
    ) -> None:
        """Show ``done`` of ``total`` (``None``: not known) and, with ``unit="bytes"``, the
        ``boards`` read and the ``files`` done; the rate is of ``boards`` (or of ``done``, a count)."""
        if not self.enabled:
            return
        total = None if total is None or total <= 0 else max(total, done)
        if self._progress is None:
            self._start(total)
        count = done if boards is None else boards
        rate = self._rate.add(count)
        per_s = "-" if rate is None else f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"
        parts = []
        if files is not None:
            parts.append(f"{files:,} files")
        if boards is not None:
            parts.append(f"{boards:,} boards")
        parts.append(f"{per_s} {self.what}/s")
        self._progress.update(self._task, completed=done, total=total, info=", ".join(parts))

    def write(self, out: TextIO, text: str) -> None:
        """Write ``text`` to ``out``; when a bar is drawn and ``out`` is a terminal too (the one the
        bar is on, as a rule), above the bar, which is drawn again below it (else they would mix)."""
        if self._progress is not None:
            if self._tty is None:
                self._tty = out.isatty()
            if self._tty:
                self._progress.console.print(text, end="", markup=False, highlight=False, emoji=False, soft_wrap=True)
                return
        out.write(text)

    def close(self) -> None:
        """Remove the bar (it may be drawn again by a later :meth:`update`)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
            self._rate = _Rate()

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
