"""The plan of ``handrec validate`` and ``convert`` over a process pool: tasks of whole inputs, and big files in parts.

``handrec convert`` (:func:`handrec.runs.convert.convert`) cuts files where
validate does (:func:`_part_bounds`, :func:`_tasks`; never early, and not with
one job) and puts each file's parts together in :mod:`handrec.runs.convert_parts`.

:func:`handrec.runs.validate.validate_paths` asks this module whether a pool is
worth starting (:func:`_plan`: inputs over :data:`POOL_BYTES` in all), which
inputs to split and where (:func:`_part_bounds`), and for the tasks in input
order (:func:`_tasks`: consecutive small inputs grouped up to about
:data:`TASK_BYTES`, each part of a split file a task of its own).  The sizes
are module constants, read when a run starts (the tests patch them here).

**Parts.**  A plain PBN or LIN file on disk (not compressed, not an
archive member) over ``part_bytes`` is read in parts, each by one task, with
the ``part`` parameter of :func:`handrec.formats.pbn.reader.parse_pbn` or
:func:`handrec.formats.lin.reader.parse_lin`: each part's worker frames the file from
its start to reach its part and builds only the boards that start in it.  A
PBN file is read as parts of about ``part_bytes`` (a multiple of ``jobs`` of
them, at most :data:`PARTS_PER_JOB` x ``jobs``), unless its bytes hold
``"#``: the ``#``/``##`` tag inheritance of PBN 2.1 §4.8 copies values from
the previous game, which a part does not see.  A LIN file carries state from
record to record (each segment's header: ``vg``, ``rs``, ``pn`` lists, its
unknown commands for its first record; the record count), which framing
alone rebuilds, so every LIN file is split; but framing LIN is about an
eighth of reading it, so it gets one part per job (more, up to
:data:`PARTS_PER_JOB` a job, only when these would be over
:data:`LIN_PART_BYTES`), of the same length: a later part's worker frames
more of the file, but the parent takes the parts' results in order, and
what a board costs it there is about what framing it costs a worker, so parts
that finish one after the other keep the processes busy.  With
``max_errors`` the PBN parts are at most :data:`EARLY_PART_BYTES`, and the
first part of either is about :data:`EARLY_FIRST_BYTES` (for LIN, one part
more): the parent can stop only once the first part is read.  How the parts'
results are put together again (the boards and file diagnostics of the whole
file) is :class:`handrec.runs.validate._SplitUnit`.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from handrec.diagnostics import Diagnostic
from handrec.inputs.sources import FileSource, Input
from handrec.inputs.streams import CHUNK_BYTES

__all__ = [
    "POOL_BYTES",
    "PART_BYTES",
    "PARTS_PER_JOB",
    "LIN_PART_BYTES",
    "EARLY_PART_BYTES",
    "EARLY_FIRST_BYTES",
    "TASK_BYTES",
]

#: Inputs under this many bytes in all (on disk) are validated in this process: no pool.
POOL_BYTES = 4 << 20
#: A plain PBN file over this many bytes is read in parts of about this size; a plain LIN file
#: over it, in one part per worker process (see :data:`LIN_PART_BYTES`).
PART_BYTES = 4 << 20
#: With ``max_errors`` (a run that may stop early), parts of at most this many bytes: the
#: first part's results, all the parent waits for before it can stop, come sooner.
EARLY_PART_BYTES = 1 << 20
#: With ``max_errors``, the first part of a split file is about this many bytes.
EARLY_FIRST_BYTES = 256 << 10
#: At most this many parts of one file per worker process (each part frames the file up to its start).
PARTS_PER_JOB = 4
#: A LIN file is split into one part per worker process, and into more (up to
#: :data:`PARTS_PER_JOB` a worker) only when such parts would be over this many bytes (what a
#: worker holds and sends back grows with its part).  Framing LIN (tokenising every pair) costs
#: about an eighth of reading it (measured on a generated file: 0.44 s of 3.8 s), and every
#: part frames the file from its start, so each part more costs that much again of what it
#: frames: four parts for two workers read the whole file's worth of work about 1.2 times,
#: two parts about 1.06 times (measured: two parts of a 10 MB file, 2.4 s; four, 2.6 s).
LIN_PART_BYTES = 64 << 20
#: Consecutive inputs grouped into one task for a worker up to about this many bytes.
TASK_BYTES = 1 << 20
_MAX_TASK_INPUTS = 256
#: The ``stop`` of a file's last part: past any offset.
_END = 10**18


class _Task(NamedTuple):
    """``kind``: ``"entry"`` (a diagnostic: not read), ``"here"`` (an input read in this
    process), ``"inputs"`` (whole inputs for a worker), ``"part"`` (part ``index`` of
    ``count`` of one file: character offsets ``part``).  ``strict``: as
    :func:`handrec.runs.validate.validate_paths`.  ``local``: an ``"inputs"`` or ``"part"``
    task read in this process, board by board as it is reported, instead of by a worker
    (the first task of a run that may stop early)."""

    kind: str
    inputs: tuple[Input, ...] = ()
    entry: Diagnostic | None = None
    index: int = 0
    count: int = 1
    part: tuple[int, int] = (0, _END)
    strict: bool = False
    local: bool = False


_CONTINUATION = bytes(range(0x80, 0xC0))


def _scan(path: str, inheritance: bool = True) -> float | None:
    """Characters per byte of a file, estimated on its first block (CR LF and a UTF-8
    character count as one); ``None`` when it cannot be read or (``inheritance``: a PBN
    file) its bytes hold ``"#`` (a ``#``/``##`` inherited tag value may be there)."""
    try:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            if inheritance and m.find(b'"#') >= 0:
                return None
            head = m[:CHUNK_BYTES]
    except (OSError, ValueError):
        return None
    if not head:
        return 1.0
    return (len(head.translate(None, _CONTINUATION)) - head.count(b"\r\n")) / len(head)


def _cuts(lo: int, hi: int, count: int) -> list[int]:
    """``count + 1`` offsets from ``lo`` to ``hi``: the bounds of ``count`` parts of the same length."""
    return [lo + (hi - lo) * j // count for j in range(count + 1)]


def _part_bounds(
    inp: Input, jobs: int, part_bytes: int, first_bytes: int | None = None
) -> list[tuple[int, int]] | None:
    """The parts ``(start, stop)`` (character offsets) of an input to split, or ``None``.

    A plain PBN or LIN file on disk over ``part_bytes`` is split (see the
    module doc: PBN in parts of about ``part_bytes``, LIN in one part per job,
    more when over :data:`LIN_PART_BYTES`); ``None`` for any other input, a
    PBN file whose bytes hold ``"#``, a file that cannot be read.  The first
    part starts at 0, each part stops where the next starts, the last at
    :data:`_END`.  ``first_bytes``: make the first part about this size when
    that is smaller (for a run that may stop at its first errors): the other
    parts of a PBN file share the rest; a LIN file gets it as one part more."""
    src = inp.source
    if inp.format not in ("pbn", "lin") or inp.opener is not None or not isinstance(src, FileSource):
        return None
    if src.compression:
        return None
    lin = inp.format == "lin"
    size = inp.size
    n = min(-(-size // part_bytes), PARTS_PER_JOB * jobs)
    if lin and n > 1:
        n = min(-(-size // (LIN_PART_BYTES * jobs)), PARTS_PER_JOB) * jobs
    if n < 2:
        return None
    n = -(-n // jobs) * jobs  # a multiple of jobs: the workers finish together
    ratio = _scan(src.path, inheritance=not lin)
    if ratio is None:
        return None
    chars = int(size * ratio)  # offsets count characters: parts of about the same number of games
    cuts = _cuts(0, chars, n)
    if first_bytes is not None and first_bytes * ratio < chars / n:
        head = int(first_bytes * ratio)
        cuts = [0] + _cuts(head, chars, n if lin else n - 1)
    return list(zip(cuts[:-1], [*cuts[1:-1], _END]))


def _cost(inp: Input) -> int:
    """What an input weighs in a task (bytes, at least 1): its bytes on disk, or the bytes it carries
    when more (a tar member or a stream held in memory, decompressed: a tar.gz of 8 MiB members
    compressed to 8 KB each would otherwise put hundreds of them, gigabytes, in one task)."""
    data = getattr(inp.source, "data", None)
    return max(inp.size, len(data) if data is not None else 0, 1)


def _tasks(
    entries: Iterable[Input | Diagnostic],
    bounds: Callable[[Input], list[tuple[int, int]] | None],
    task_bytes: int,
    strict: bool = False,
    early: bool = False,
) -> Iterator[_Task]:
    """The tasks, in input order: consecutive whole inputs grouped up to about ``task_bytes`` (by :func:`_cost`).

    ``early`` (a run that may stop early): the first task for a worker is read in this
    process instead (``local``), so that its first errors stop the run as soon as one
    process would, while the workers read the next tasks.
    """
    first = early

    def task(kind: str, inputs: tuple[Input, ...], **kw: Any) -> _Task:
        nonlocal first
        local, first = first, False
        return _Task(kind, inputs, strict=strict, local=local, **kw)

    group: list[Input] = []
    size = 0
    for e in entries:
        if isinstance(e, Input) and e.picklable:
            parts = bounds(e)
            if parts is None:
                cost = _cost(e)
                if group and (size + cost > task_bytes or len(group) >= _MAX_TASK_INPUTS):
                    yield task("inputs", tuple(group))
                    group, size = [], 0
                group.append(e)
                size += cost
                continue
        if group:
            yield task("inputs", tuple(group))
            group, size = [], 0
        if isinstance(e, Diagnostic):
            yield _Task("entry", entry=e)
        elif not e.picklable:
            yield _Task("here", (e,), strict=strict)
        else:
            for i, p in enumerate(parts):  # type: ignore[arg-type]
                yield task("part", (e,), index=i, count=len(parts), part=p)  # type: ignore[arg-type]
    if group:
        yield task("inputs", tuple(group))


def _plan(
    entries: Iterator[Input | Diagnostic],
    pool_bytes: int,
    bounds: Callable[[Input], list[tuple[int, int]] | None],
) -> tuple[bool, list[Input | Diagnostic]]:
    """Whether a pool is worth starting, and the entries listed to decide it.

    Yes when the inputs are over ``pool_bytes`` in all, unless they are one
    input that is not split.  Listing stops as soon as it is known (and at an
    input that must be read before the next entry is listed).
    """
    head: list[Input | Diagnostic] = []
    total = inputs = 0
    for e in entries:
        head.append(e)
        if not isinstance(e, Input):
            continue
        inputs += 1
        total += _cost(e)
        if not e.picklable:
            return total > pool_bytes, head
        if total > pool_bytes and (inputs > 1 or bounds(e) is not None):
            return True, head
    return False, head


def _bounds(jobs: int, part_bytes: int, early: bool) -> Callable[[Input], list[tuple[int, int]] | None]:
    """:func:`_part_bounds` for a run of ``jobs`` workers, remembered for the last input asked about.

    ``early`` (a run that may stop early, ``max_errors``): the first results sooner -- parts
    of at most :data:`EARLY_PART_BYTES`, the first about :data:`EARLY_FIRST_BYTES`.
    """
    last: list[Any] = [None, None]  # the last input asked about, and its parts
    size = min(part_bytes, EARLY_PART_BYTES) if early else part_bytes
    first = EARLY_FIRST_BYTES if early else None

    def bounds(inp: Input) -> list[tuple[int, int]] | None:
        if last[0] is not inp:
            last[:] = [inp, _part_bounds(inp, jobs, size, first)]
        return last[1]

    return bounds
