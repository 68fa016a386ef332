"""Where a long run is, as the library reports it: :class:`RunProgress`, sent at most every :data:`EVERY` seconds.

``handrec validate`` and ``convert`` (:func:`handrec.runs.validate.validate_paths`,
:func:`handrec.runs.convert.convert`) call an ``on_progress(RunProgress)``
callback; the command line draws the bar (:mod:`handrec.cli.progress`).  This
layer never draws anything (no rich here): a callback gets plain data.

Bytes move inside a big file: read here, board by board, a board's block
offset (:attr:`handrec.model.positions.Origin.offset`) says how far the input is
read; read by workers in parts, each part adds its share of the file's bytes
when its result is taken.  ``bytes_done`` never goes down and ends at the
bytes of the inputs read (on disk).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RunProgress", "Throttle", "EVERY"]

#: Seconds between two reports while boards are read (a report is cheap, a redraw is not free).
EVERY = 0.1


@dataclass(frozen=True, slots=True)
class RunProgress:
    """Where a run is: inputs done, boards read, bytes read of ``bytes_total``
    (on disk: an estimate of the work, see :func:`handrec.inputs.entries.total_bytes`);
    ``path``: the last input done, when known."""

    files: int
    boards: int
    bytes_done: int
    bytes_total: int
    path: str | None = None


class Throttle:
    """Calls ``on_progress`` at most every :data:`EVERY` seconds (unless ``force``), with
    ``bytes_done`` never below the last one sent."""

    def __init__(self, on_progress: Callable[[RunProgress], None] | None) -> None:
        self.on_progress = on_progress
        self._last = -1.0
        self._bytes = 0

    def __call__(self, files: int, boards: int, bytes_done: int, bytes_total: int, path: str | None = None, *,
                 force: bool = False) -> None:  # fmt: skip
        """Report, if a report is due (``force``: always)."""
        if self.on_progress is None:
            return
        now = time.monotonic()
        if not force and now - self._last < EVERY:
            return
        self._last = now
        self._bytes = max(self._bytes, bytes_done)
        self.on_progress(RunProgress(files, boards, self._bytes, bytes_total, path))
