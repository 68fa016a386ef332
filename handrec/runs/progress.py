"""Where a long run is, as the library reports it: :class:`RunProgress`, sent at most every :data:`EVERY` seconds.

``handrec validate`` and ``convert`` (:func:`handrec.runs.validate.validate_paths`,
:func:`handrec.runs.convert.convert`) call an ``on_progress(RunProgress)``
callback; the command line draws the bar (:mod:`handrec.cli.progress`).  This
layer never draws anything (no rich here): a callback gets plain data.

Bytes move inside a big file: read here, board by board, a board's block
offset (:attr:`handrec.model.positions.Origin.offset`) says how far the input is
read; read by workers in parts, each part adds its share of the file's bytes
when its result is taken, and, while the parent waits for a part, what the
parts in flight have read so far (each worker writes it, board by board, to
counters in memory it shares with the parent: :class:`Shared`, for workers
forked from the parent; others report part by part).  ``bytes_done`` never
goes down and ends at the bytes of the inputs read (on disk).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from handrec.diagnostics import Diagnostic

__all__ = ["RunProgress", "Throttle", "EVERY", "Meter", "Shared", "share", "unshare", "note"]

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


# =========================================================================================
# Parts read by workers: how far each has got, in memory the workers share with this process
# =========================================================================================

#: The :class:`Shared` counters of the run in progress, set by the parent before its pool
#: forks (the workers forked then write to the same memory); ``None`` otherwise (no pool, or
#: workers not forked: the progress then moves part by part).
_shared: Shared | None = None


class Shared:
    """Bytes and boards read so far by each task in flight in a worker: ``slots`` pairs of
    64-bit counters in shared memory (:func:`multiprocessing.sharedctypes.RawArray`).

    The parent hands a slot to each part it submits (:meth:`take`, which zeroes it), the
    worker writes into it as it reads (:func:`note`), and the parent adds what the parts in
    flight have read to its reports while it waits for one (:meth:`read`).  A slot is taken
    again only ``slots`` parts later, once its part's result was taken."""

    def __init__(self, slots: int) -> None:
        from multiprocessing.sharedctypes import RawArray

        self.slots = slots
        self.array = RawArray("q", 2 * slots)
        self._next = 0

    def take(self) -> int:
        """A slot for a part about to be submitted, zeroed."""
        slot = self._next
        self._next = (slot + 1) % self.slots
        self.array[2 * slot] = self.array[2 * slot + 1] = 0
        return slot

    def read(self, slot: int) -> tuple[int, int]:
        """``(bytes, boards)`` the part in ``slot`` has read so far."""
        return self.array[2 * slot], self.array[2 * slot + 1]


def share(slots: int) -> Shared:
    """Start sharing the counters of a run (before its pool forks): :data:`_shared`."""
    global _shared
    _shared = Shared(slots)
    return _shared


def unshare() -> None:
    """The run is over: no counters."""
    global _shared
    _shared = None


def note(slot: int | None, nbytes: int, boards: int) -> None:
    """In a worker: the part in ``slot`` has read ``nbytes`` bytes and ``boards`` boards
    (nothing when no counters are shared, or ``slot`` is ``None``)."""
    s = _shared
    if s is not None and slot is not None:
        s.array[2 * slot] = nbytes
        s.array[2 * slot + 1] = boards


class Meter:
    """The progress of a :func:`handrec.runs.validate.validate_paths` run: the units' items
    counted as they are taken (:meth:`watched`), and, while a worker's part is waited for,
    what the parts in flight have read (:meth:`waiting`).

    A unit (``handrec.runs.validate._Unit``) has ``path``, ``size`` (bytes on disk),
    ``items`` (one a board, each with ``read``) and ``where[0]``, how far it is read; an
    entry not read is a :class:`~handrec.diagnostics.Diagnostic`."""

    def __init__(self, report: Throttle, total: int) -> None:
        self.report = report
        self.total = total
        self.files = self.boards = self.bytes = 0  # inputs and entries reported, boards, their bytes
        self.here = 0  # how far the unit being reported is read

    def watched(self, units: Iterator[Any]) -> Iterator[Any]:
        """The units, each one's items reporting the progress as they are taken."""

        def items(unit: Any, inner: Iterator[Any]) -> Iterator[Any]:
            size, where = unit.size, unit.where
            for item in inner:
                self.boards += item.read
                self.here = min(max(where[0], 0), size)
                self.report(self.files, self.boards, self.bytes + self.here, self.total, unit.path)
                yield item

        for unit in units:
            if not isinstance(unit, Diagnostic):
                unit.items = items(unit, unit.items)
            yield unit
            self.files += 1
            self.bytes += 0 if isinstance(unit, Diagnostic) else unit.size
            self.here = 0
            self.report(self.files, self.boards, self.bytes, self.total, unit.path)
        self.report(self.files, self.boards, self.bytes, self.total, force=True)

    def waiting(self, inflight: list[tuple[int, int]]) -> None:
        """Report what the parts in flight (``(slot, share)``) have read besides."""
        shared = _shared
        nbytes = boards = 0
        for slot, part_share in inflight if shared is not None else ():
            b, n = shared.read(slot)  # type: ignore[union-attr]
            nbytes, boards = nbytes + min(b, part_share), boards + n
        self.report(self.files, self.boards + boards, self.bytes + self.here + nbytes, self.total)
