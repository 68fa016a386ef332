"""The engine of ``handrec convert``: every input read, in parallel, into the Parquet dataset.

The dataset itself -- its tables, the work folder and its manifest, the reuse
of an earlier dataset's rows, resume -- is :mod:`handrec.dataset.store`; this
module reads the inputs and hands their rows to it.

**Pipeline.**  The parent process lists the inputs and groups consecutive
ones into tasks of about ``task_bytes``.  Each task is run by a worker
(:class:`concurrent.futures.ProcessPoolExecutor` with ``jobs`` processes,
:func:`handrec.runs.pool.start_pool`; in-process when ``jobs`` is 1; or a Dask
cluster): it reads and analyses its inputs and writes
their rows to a *part* in the work folder (:class:`handrec.dataset.store.PartWriter`:
one Parquet file per table, board ids counted from 0 in the part), flushing every ``batch_boards``
boards, and returns a small summary.  The parent keeps at most
``2 * jobs`` tasks in flight and commits their results in task order, so
memory stays about ``jobs x batch_boards`` boards whatever the size of the
archive (plus, in the parent, a record of a few hundred bytes per input:
path, hash, counts, row ranges).  A tar member too big to hand to a worker (over
:attr:`handrec.inputs.entries.Limits.inline_bytes`) is read in the parent, from the
archive stream.  With ``jobs`` over 1 a big plain PBN or LIN file is read in
parts, one task each, cut as ``handrec validate --jobs`` cuts it
(:mod:`handrec.runs.parts`: a PBN file holding ``"#``, whose ``#`` tags inherit
the previous game's values, is not cut), and put together again in the parent
(:mod:`handrec.runs.convert_parts`): the rows are those of one task reading the
whole file.  When every input is done the parent merges the parts into the
final tables (:func:`handrec.dataset.merge.merge`).

**Claimed figures.**  Besides each board's own faults, an input's claimed
event figures (ScoreMP, ScorePercentage, ScoreIMP, ScoreTable, TotalScoreTable
...: S603-S609) are checked as ``handrec validate`` checks them
(:func:`handrec.events.checks.check_event` over the input's boards), and
land in ``diagnostics`` with the ``board_id`` of the board they are about.
That needs a small record of every board of the input until its end; the
records are kept as validate keeps them (:class:`handrec.events.checks.EventChecker`:
in memory up to 50,000, then on disk, :mod:`handrec.events.spill`), so every input is
checked whole, whatever its size, with the diagnostics validate reports: the claimed
figures, and a pair playing a board twice, a fouled or repeated board (S612-S615,
:func:`handrec.events.checks.check_pairs`) on inputs without claims.

**Stopping early.**  With ``max_errors`` (``handrec convert --max-errors N``,
``--fail-fast`` for 1) the conversion stops reading after the input that
brings the error count to N, counted in input order: the dataset holds the
inputs up to and including that one, every later input has a ``files``
row with status ``not_read`` (no rows elsewhere), and the result does not
depend on ``jobs`` either.  The tasks still running then are interrupted
(:func:`handrec.runs.pool.stop_pool`), not waited for: their parts stay
incomplete in the work folder, which is deleted.  The unit is the input, not the error (unlike
``handrec validate --max-errors N``, which stops at the N-th error itself):
a dataset holds whole inputs, each with one ``files`` row whose counts are
those of its rows, and an input's rows are reused as they are by a later
conversion (its path and SHA-256 match), so an input cut part-way would be
reused cut.  The dataset may then hold more than N errors (all of that
input's), and the counts add up as without a limit: every board read is a
``boards`` row, ``files.boards`` and ``files.errors`` / ``warnings`` of the
inputs read sum to the rows of ``boards`` and the error / warning rows of
``diagnostics``, and ``summary.errors`` counts them all.

**Ctrl-C.**  A :class:`KeyboardInterrupt` (or any other exception) stops the pool the same
way, without waiting for its tasks: the workers still busy after
:data:`handrec.runs.pool.KILL_AFTER` are killed.  The parts committed stay in the work folder
for ``resume``; the dataset there is left as it was (the merge removes its temporary tables).
"""

from __future__ import annotations

import itertools
import os
import shutil
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handrec.dataset.lock import DatasetLock
from handrec.dataset.merge import merge
from handrec.dataset.store import (
    ROW_GROUP_ROWS,
    ROW_TABLES,
    InputRows,
    OldDataset,
    PartWriter,
    WorkFolder,
    held_inputs,
    refuse_foreign_tables,
)
from handrec.dataset.tables import TableBuffers
from handrec.diagnostics import Diagnostic, Severity
from handrec.events.games import GameRecord
from handrec.formats.dispatch import read_input
from handrec.inputs.entries import iter_entries, total_bytes
from handrec.inputs.limits import DEFAULT_LIMITS, Limits
from handrec.inputs.sources import Input, close_archives
from handrec.inputs.status import entry_status
from handrec.model import Board
from handrec.runs import parts
from handrec.runs import progress as progress_mod
from handrec.runs.convert_append import EXISTING, Action, WouldDrop, check_inputs, check_paths, combine
from handrec.runs.convert_parts import (
    EventRecords,
    Parted,
    PieceJob,
    PieceResult,
    counts,
    dd_rows,
    dump_piece,
    failure_diagnostic,
    load_piece,
    read_rows,
    run_piece,
)
from handrec.runs.pool import KILL_AFTER, run_stoppable, stop_pool
from handrec.runs.pool import result as wait_result
from handrec.runs.pool import start_pool as _executor  # the pool validate --jobs uses too
from handrec.runs.progress import RunProgress, Throttle

__all__ = [
    "ConvertSummary",
    "ConvertProgress",
    "SchedulerError",
    "WouldDrop",
    "convert",
]

#: Seconds between two looks at the workers' counters while waiting for a part (progress).
_POLL = 0.2


@dataclass
class ConvertSummary:
    """Counts of one conversion.

    ``files``: inputs whose rows are in the dataset (status ``ok`` or
    ``unchanged``); ``unreadable``, ``skipped``, ``unchanged``, ``not_read``:
    inputs by status; ``statuses``: every ``files`` row counted by status
    (those of :data:`handrec.inputs.entries.STATUSES` that occur); :attr:`total`: the rows of the
    ``files`` table; ``resumed``: inputs taken from an interrupted run's
    work folder (counted under their status); ``stopped``: ``max_errors`` was reached.
    ``boards``, ``errors``, ``warnings``: totals over the whole dataset
    written.  ``written``: False when no input was read (none found, or none
    readable) and ``out_dir`` already held a dataset, which is then left as it
    was (a mistyped or empty path never empties a dataset).  ``diagnostics``: the file-level faults found in this run (F001,
    F002, F004, F008-F010...), and each board's F016 (over the board size limit: not read),
    in input order.  ``discarded_work``: a leftover work folder was
    thrown away (no ``resume``).  ``kept``: inputs of the dataset kept as they were, not
    given again (``existing="append"``: in ``files``, ``statuses`` and the totals, not in
    ``unreadable``, ``skipped``, ``unchanged``, ``not_read``, which count the inputs given);
    ``actions``: with ``existing="append"``, what was
    done with each input of the dataset written, in its order
    (:class:`handrec.runs.convert_append.Action`).
    """

    files: int = 0
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    skipped: int = 0
    unchanged: int = 0
    resumed: int = 0
    not_read: int = 0
    stopped: bool = False
    discarded_work: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    #: False when nothing was read and ``out_dir`` already held a dataset: it is left as it was
    written: bool = True
    kept: int = 0
    actions: list[Action] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Every input and every entry not read: the rows of the ``files`` table."""
        return sum(self.statuses.values())

    def _count(self, status: str) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def _keep(self, d: InputRows) -> None:
        """Count an input of the dataset kept as it was (``existing="append"``, not given again)."""
        self.kept += 1
        self.boards += d.rows["boards"][1] if d.rows is not None else 0
        self.errors += d.errors
        self.warnings += d.warnings
        self.files += d.status in ("ok", "unchanged")
        self._count(d.status)  # (not in ``unreadable`` ...: those are of the inputs given, the exit status's)


#: Where a conversion is: inputs and boards done, bytes done of ``bytes_total`` (on disk, estimated;
#: see :mod:`handrec.runs.progress`).
ConvertProgress = RunProgress


@dataclass
class _Job:
    """A task for a worker: read ``inputs`` and write their rows to the part ``part`` in ``work``.

    ``known[path]``: SHA-256 values whose rows exist already (hash first;
    on a match, read nothing).
    """

    part: str
    work: str
    inputs: list[Input]
    known: dict[str, tuple[str, ...]]
    batch_boards: int
    #: ``convert --dd``: (cache folder or ``None``, D214 margin, opening leads) for :class:`handrec.dd.rows.DDRows`
    dd: tuple[str | None, int | None, bool] | None = None
    #: In a worker: its counters in :data:`handrec.runs.progress._shared` (the bar moves as it reads)
    slot: int | None = None


@dataclass
class _JobResult:
    done: list[InputRows]
    diagnostics: list[Diagnostic]


# =========================================================================================
# Workers
# =========================================================================================


def _status(inp: Input) -> str:
    return entry_status((d.code for d in inp.diagnostics), read=inp.format is not None)


def _run_job(job: _Job, on_board: Callable[[int, int], None] | None = None) -> _JobResult:
    """Read and analyse the job's inputs; write their rows to the part's Parquet files.

    Runs in a worker process (or in the parent).  The part's files appear
    under their final names only when complete (:class:`handrec.dataset.store.PartWriter`).
    ``on_board(boards, nbytes)`` (in the parent only: progress) is called after each board
    with the boards and the bytes (of ``Input.size``) of the job read so far.
    """
    part = PartWriter(Path(job.work), job.part)
    buf = TableBuffers()
    if on_board is None and job.slot is not None:  # in a worker: a file solved for --dd takes minutes

        def on_board(boards: int, nbytes: int, slot: int = job.slot) -> None:
            progress_mod.note(slot, nbytes, boards)

    def rows(t: str) -> int:
        return part.rows[t] + buf.pending(t)

    def flush() -> None:
        for t in ROW_TABLES:
            part.write(t, buf.take(t))

    done: list[InputRows] = []
    diagnostics: list[Diagnostic] = []
    dd = dd_rows(job.dd)
    read = [0, 0]  # the boards, and the bytes of the inputs before this one (on_board)
    with part:
        for inp in job.inputs:
            shas = job.known.get(inp.path)
            if shas:
                h = inp.content_hash()
                if h is not None and h in shas:
                    done.append(InputRows(inp.path, inp.format, "match", 0, 0, 0, h))
                    continue
            start = {t: rows(t) for t in ROW_TABLES}
            lo = buf.next_board_id
            events = EventRecords()  # for the claimed figures (module doc)

            def keep(n: int, board: Board, rec: GameRecord, events: EventRecords = events, inp: Input = inp) -> None:
                events.add(n, rec)
                if on_board is not None:  # the block's offset: how far the input is read
                    on_board(read[0] + n, read[1] + min(max(board.origin.offset, 0), inp.size))

            n, e, w, failure, big = read_rows(read_input(inp), buf, flush, job.batch_boards, dd, keep)
            read[0] += n
            read[1] += inp.size
            diagnostics.extend(big)
            if failure is not None:  # as validate reports it (the boards before it are kept)
                inp.diagnostics.append(failure_diagnostic(inp.path, failure))
                events.drop()
            e, w = (x + y for x, y in zip((e, w), events.finish(inp.path, n, buf, lo)))
            for d in inp.diagnostics:
                buf.add_diagnostic(d, None)
                e, w = e + counts(d)[0], w + counts(d)[1]
            span = {t: (start[t], rows(t) - start[t]) for t in ROW_TABLES}
            nbytes = inp.nbytes if inp.sha256 else None
            done.append(
                InputRows(
                    inp.path, inp.format, _status(inp), n, e, w, inp.sha256, nbytes, job.part, lo, span,
                    amend=events.amend,
                )
            )  # fmt: skip
            diagnostics.extend(inp.diagnostics)
        flush()
    return _JobResult(done, diagnostics)


class SchedulerError(RuntimeError):
    """The Dask scheduler given to :func:`convert` cannot be reached (nothing was written)."""


def _close_client(client: Any, interrupted: bool = False) -> None:
    """Close a client of :func:`_dask_client`, and its local cluster if it started one.

    ``interrupted`` (Ctrl-C, or a fault on its way): a local cluster's worker processes are
    killed at once rather than shut down politely (which takes seconds and prints their log
    lines); the process is ending, and nothing of theirs is wanted.
    """
    cluster = getattr(client, "_handrec_cluster", None)
    if interrupted and cluster is not None:
        from handrec.runs.children import kill_children

        kill_children()
        return
    client.close()
    if cluster is not None:
        cluster.close()


def _dask_client(jobs: int, scheduler: str | None) -> Any:
    """A Dask client: connected to ``scheduler``, or to a new local cluster of ``jobs`` workers.

    :raises SchedulerError: when ``scheduler`` cannot be reached (within Dask's
        ``distributed.comm.timeouts.connect``) or is not an address.

    Dask was chosen over Ray for the distributed path: it is pure Python on
    PyPI (no bundled runtime), its ``Client.get_executor()`` is a
    ``concurrent.futures`` executor, so the conversion code is the same as
    for the local process pool, and ``dask-scheduler``/``dask-worker``
    start a cluster on any machines with Python (README, "Distributed").
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError("the dask engine needs: pip install 'handrec[dask]'") from e
    if scheduler:
        try:
            return Client(scheduler)
        except (OSError, ValueError) as e:  # timed out, refused, or not an address
            raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from e
    import logging
    import signal

    # Ctrl-C goes to the whole process group: the workers start with SIGINT blocked (the mask is
    # inherited by the threads and processes started now, across exec too), so only this
    # process takes it; a Ctrl-C pressed meanwhile is delivered here once the mask is restored.
    blocked = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocked else None
    try:
        cluster = LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    client._handrec_cluster = cluster  # closed with the client
    return client


def _done_future(value: _JobResult) -> Future[_JobResult]:
    f: Future[_JobResult] = Future()
    f.set_result(value)
    return f


# =========================================================================================
# convert
# =========================================================================================


def _unique(entries: Iterable[Input | Diagnostic]) -> Iterator[Input | Diagnostic]:
    """The entries, those of a path seen before dropped."""
    seen: set[str] = set()
    for e in entries:
        if e.path not in seen:
            seen.add(e.path)
            yield e


def _whole(inp: Input) -> None:
    """No input is split (``jobs`` 1: one process reads them all)."""
    return None


@dataclass
class _Piece:
    """A task that reads one part of a file: the file's :class:`~handrec.runs.convert_parts.Parted`,
    its key in the work folder (path, SHA-256, part; ``None``: not recorded), its share of the
    file's bytes (progress), and whether it was taken from the work folder (``loaded``)."""

    parted: Parted
    resume_key: tuple[str, str, tuple[int, int]] | None
    share: int
    loaded: bool
    slot: int | None = None  # its counters in :data:`handrec.runs.progress._shared`


#: A task in flight: its inputs (``None`` for an entry not read), its part, its result, and for
#: one part of a file, what :class:`_Piece` says.
_Pending = tuple[list[Input] | None, str | None, Future[Any], _Piece | None]


def convert(
    paths: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    jobs: int | None = None,
    resume: bool = False,
    force: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    batch_boards: int = 4096,
    task_bytes: int = 1 << 20,
    row_group_rows: int = ROW_GROUP_ROWS,
    on_progress: Callable[[ConvertProgress], None] | None = None,
    on_commit: Callable[[int], None] | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    max_errors: int | None = None,
    dd: bool = False,
    dd_leads: bool = False,
    dd_margin: int | None = None,
    dd_cache: str | os.PathLike[str] | None = None,
    dd_progress: Callable[[int, int], None] | None = None,
    wait: bool = False,
    on_wait: Callable[[], None] | None = None,
    part_bytes: int | None = None,
    existing: str = "replace",
) -> ConvertSummary:
    """Read every PBN/LIN input under ``paths`` and write the Parquet dataset to ``out_dir``.

    ``paths``: files, folders, archives (see :func:`handrec.inputs.entries.iter_entries`);
    ``jobs``: worker processes (default ``os.cpu_count()``; 1 = none);
    ``resume``: continue an interrupted run from ``out_dir/.handrec-work``;
    ``force``: re-read inputs unchanged since the dataset in ``out_dir``
    was written; ``limits``: archive size limits; ``batch_boards``: boards
    a worker buffers before writing (bounds memory); ``task_bytes``: input
    bytes per task; ``row_group_rows``: rows per Parquet row group; ``part_bytes``: with
    ``jobs`` over 1, a plain PBN or LIN file over this is read in parts of about this size
    (default :data:`handrec.runs.parts.PART_BYTES`; see :mod:`handrec.runs.parts`).
    ``on_progress`` (:class:`handrec.runs.progress.RunProgress`) is called once the workers
    have started, then as the tasks are taken, board by board for inputs read in this
    process (``jobs`` 1), as the forked workers read while a part of a big file is waited
    for (:class:`handrec.runs.progress.Shared`), at most every
    :data:`handrec.runs.progress.EVERY` seconds, and once when every input is read.
    ``on_commit(n)`` is called after the n-th task is committed (tests use it to simulate
    an interruption).  File-level faults land in the
    ``diagnostics`` table with a null ``board_id``; every input has a
    ``files`` row.  See :mod:`handrec.dataset.store` for the layout, resume and reuse.

    ``engine``: ``"local"`` (a process pool on this machine) or ``"dask"``
    (the same tasks on a Dask cluster: ``scheduler`` is its address, e.g.
    ``tcp://10.0.0.5:8786``; without one a local cluster of ``jobs``
    single-threaded worker processes is started).  Workers write their part
    files into ``out_dir/.handrec-work``, so on a real cluster ``out_dir``
    must be on storage every worker can reach; the rows are identical
    whatever the engine.

    ``max_errors``: stop reading after the input that brings the number of
    errors (diagnostics of severity error, in input order) to this; later
    inputs get a ``files`` row with status ``not_read`` and
    ``summary.stopped`` is set (see the module doc).

    ``dd`` (``convert --dd``): every board with a complete deal gets its
    double-dummy columns and checks (:mod:`handrec.dd.rows`, solved by the
    workers, the cache first), and the ``deals`` table one row per distinct
    complete deal (:func:`handrec.dataset.deals.write_deals`); ``dd_leads`` also
    the ``leads`` table; ``dd_margin`` D214's margin (``None``: no D214);
    ``dd_cache`` the cache folder (``None``: a cache of this run only, in the
    work folder, so ``resume`` keeps what was solved); ``dd_progress`` the
    progress of the deals the ``deals`` table still needs solved.  A dataset
    converted with other ``dd`` options is not reused.

    One conversion per dataset folder: ``out_dir``'s lock
    (:class:`handrec.dataset.lock.DatasetLock`) is held for the whole run.  When
    another process holds it, ``wait=False`` raises
    :class:`~handrec.dataset.lock.DatasetBusy` at once (nothing read or written);
    ``wait=True`` waits for it, calling ``on_wait()`` once before it blocks
    (``handrec convert --wait`` prints its message there).

    ``existing``: what becomes of the inputs the dataset in ``out_dir`` holds that are not
    given this time (:mod:`handrec.runs.convert_append`): ``"replace"`` drops them (the
    dataset holds the inputs given, no others), ``"append"`` keeps them (the inputs given
    are skipped when unchanged, replaced at their place when changed, added at the end when
    new; ``summary.actions`` says which), ``"refuse"`` raises :class:`WouldDrop` when there
    are any.  When no path given exists (a mistyped only input) nothing is written, not even
    the folder: ``summary.written`` is False and ``summary.diagnostics`` holds their F001.

    :raises WouldDrop: with ``existing="refuse"``, when inputs would be dropped, or with
        ``"append"``, when the dataset there cannot be kept (another handrec version, other
        ``dd`` options); nothing is written.
    :raises OSError: when ``out_dir`` cannot be created or written; :class:`FileExistsError`
        when it holds a Parquet file of a table name that handrec did not write (never overwritten).
    :raises ValueError: when ``jobs`` is below 1, ``engine`` or ``existing`` is unknown.
    :raises ImportError: for ``engine="dask"`` without ``handrec[dask]``.
    :raises SchedulerError: when ``scheduler`` cannot be reached (before anything is written).
    """
    if engine not in ("local", "dask"):
        raise ValueError(f"engine must be 'local' or 'dask', not {engine!r}")
    if scheduler is not None and engine != "dask":
        raise ValueError(f"a scheduler goes with engine='dask', not {engine!r}")
    paths = list(paths)
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if max_errors is not None and max_errors < 1:
        raise ValueError(f"max_errors must be at least 1, not {max_errors}")
    if existing not in EXISTING:
        raise ValueError(f"existing must be one of {', '.join(EXISTING)}, not {existing!r}")
    if paths and not any(os.fspath(p) == "-" or os.path.lexists(p) for p in paths):
        return _nothing_there(paths, limits)  # a mistyped only input: no folder made, a dataset there untouched
    out = Path(out_dir)
    dd = dd or dd_leads
    dd_mode = "" if not dd else f"{'leads' if dd_leads else 'tables'}:{dd_margin or 0}"
    with DatasetLock(out, wait=wait, on_wait=on_wait):  # one writer per dataset folder
        return _convert(
            paths, out, jobs, resume, force, limits, batch_boards, task_bytes, row_group_rows, on_progress,
            on_commit, engine, scheduler, max_errors, dd, dd_leads, dd_margin, dd_cache, dd_progress, dd_mode,
            part_bytes, existing,
        )  # fmt: skip


def _nothing_there(paths: list[str | os.PathLike[str]], limits: Limits) -> ConvertSummary:
    """The summary of a conversion none of whose paths exists: their F001, nothing written."""
    summary = ConvertSummary(written=False)
    for d in _unique(iter_entries(paths, limits)):
        assert isinstance(d, Diagnostic)  # no path exists: nothing to read
        summary.diagnostics.append(d)
        summary._count(entry_status([d.code], read=False))
        summary.unreadable += 1
        summary.errors += d.severity is Severity.ERROR
        summary.warnings += d.severity is Severity.WARNING
    return summary


def _convert(
    paths: list[str | os.PathLike[str]],
    out: Path,
    jobs: int,
    resume: bool,
    force: bool,
    limits: Limits,
    batch_boards: int,
    task_bytes: int,
    row_group_rows: int,
    on_progress: Callable[[ConvertProgress], None] | None,
    on_commit: Callable[[int], None] | None,
    engine: str,
    scheduler: str | None,
    max_errors: int | None,
    dd: bool,
    dd_leads: bool,
    dd_margin: int | None,
    dd_cache: str | os.PathLike[str] | None,
    dd_progress: Callable[[int, int], None] | None,
    dd_mode: str,
    part_bytes: int | None,
    existing: str,
) -> ConvertSummary:
    """:func:`convert`, its arguments checked, with the lock of ``out`` held."""
    refuse_foreign_tables(out)
    held = held_inputs(out) if existing != "replace" else []
    if existing == "refuse" and held:
        check_paths(str(out), held, paths)  # before reading: the inputs as given
    kept = OldDataset.open(out, dd_mode) if held and existing == "append" else None
    if held and existing == "append" and (kept is None or not kept.whole):
        why = "its tables were written by another handrec version, with other --dd options, or are mixed"
        raise WouldDrop(str(out), [p for p, _ in held], sum(n or 0 for _, n in held), why)
    client = _dask_client(jobs, scheduler) if engine == "dask" else None  # first: an unreachable one writes nothing
    try:
        out.mkdir(parents=True, exist_ok=True)
        old = None if force else kept or OldDataset.open(out, dd_mode)
        work = WorkFolder(out, resume, dd_mode)
    except BaseException:
        if client is not None:
            _close_client(client)
        raise
    summary = ConvertSummary(discarded_work=work.discarded)
    dd_dir = None if not dd else str(dd_cache) if dd_cache is not None else str(work.root / "dd-cache")
    dd_job = None if not dd else (dd_dir, dd_margin, dd_leads)
    known: dict[str, set[str]] = {}
    if old is not None:
        for p, d in old.by_path.items():
            known.setdefault(p, set()).add(d.sha256)  # type: ignore[arg-type]
    for p, ds in work.by_path.items():
        known.setdefault(p, set()).update(d.sha256 for d in ds if d.sha256)  # type: ignore[misc]

    order: list[InputRows] = []
    token = uuid.uuid4().hex[:8]
    seq = itertools.count()
    bytes_total = total_bytes(paths)
    progress = {"files": 0, "boards": 0, "bytes": 0}
    report = Throttle(on_progress)
    committed = 0

    def tick(boards: int, nbytes: int) -> None:
        """A board read here (``jobs`` 1, or an input read in this process): the bar moves inside the file."""
        report(progress["files"], progress["boards"] + boards, progress["bytes"] + nbytes, bytes_total)

    def resolve(d: InputRows) -> InputRows:
        if d.status != "match":
            return d
        assert d.sha256 is not None
        r = work.find(d.path, d.sha256)
        if r is not None:
            summary.resumed += 1
            return r
        assert old is not None
        return old.by_path[d.path]

    def not_read(path: str, fmt: str | None) -> None:
        order.append(InputRows(path, fmt, "not_read", 0, 0, 0))
        summary.not_read += 1
        summary._count("not_read")

    def commit(inputs: list[Input] | None, part: str | None, result: _JobResult, counted: int = 0) -> None:
        """Commit a task's result (``counted``: its boards already in the progress, a file read in parts)."""
        nonlocal committed
        if part is not None:
            work.commit(part, result.done)
        for d in map(resolve, result.done):
            if summary.stopped:
                not_read(d.path, d.format)
                continue
            if max_errors is not None and summary.errors + d.errors >= max_errors:
                summary.stopped = True
            order.append(d)
            summary.boards += d.rows["boards"][1] if d.rows is not None else 0
            summary.errors += d.errors
            summary.warnings += d.warnings
            if d.status in ("ok", "unchanged"):
                summary.files += 1
            summary.unchanged += d.status == "unchanged"
            summary.unreadable += d.status == "unreadable"
            summary.skipped += d.status == "skipped"
            summary._count(d.status)
            progress["files"] += 1
            progress["boards"] += d.rows["boards"][1] if d.rows is not None else 0
        stop = {d.path for d in order[-len(result.done) :] if d.status == "not_read"} if summary.stopped else set()
        summary.diagnostics.extend(x for x in result.diagnostics if x.path not in stop)
        progress["bytes"] += sum(i.size for i in inputs or ())
        progress["boards"] -= counted
        committed += 1
        last = result.done[-1].path if result.done else None
        report(progress["files"], progress["boards"], progress["bytes"], bytes_total, last)
        if on_commit is not None:
            on_commit(committed)

    def job(inputs: list[Input]) -> _Job:
        part = f"p{token}-{next(seq):06d}"
        k = {i.path: tuple(sorted(known[i.path])) for i in inputs if i.path in known}
        return _Job(part, str(work.root), inputs, k, batch_boards, dd_job)

    def drop(tasks: deque[_Pending]) -> None:
        """After the stop: the tasks in flight are cancelled (or their results ignored); their inputs not read."""
        while tasks:
            inputs_, _, fut, _ = tasks.popleft()
            fut.cancel()
            if inputs_ is None:  # an entry not read anyway (a diagnostic)
                for d in fut.result().done:
                    not_read(d.path, None)
            else:  # (a file read in parts is listed with its first part)
                for inp in inputs_:
                    not_read(inp.path, inp.format)

    def submit(fn: Callable[[Any], Any], j: Any) -> Future[Any]:
        if executor is None:  # jobs 1: read here, the progress board by board
            return _done_future(fn(j, tick) if fn is _run_job else fn(j))
        if client is not None:
            return executor.submit(fn, j)
        return executor.submit(run_stoppable, fn, j)  # a task that stop_pool can interrupt

    def take(entry: _Pending) -> None:
        """Commit a task's result: an input's (whole, or its last piece), or one piece of a file."""
        nonlocal committed
        inputs_, part_, fut, piece = entry
        if piece is None:
            if id(fut) in job_slots:  # whole inputs read by a worker: the bar moves as it reads
                while not fut.done():
                    futures_wait([fut], timeout=_POLL)
                    nbytes, boards = reading([p for *_, p in pending if p is not None])
                    report(progress["files"], progress["boards"] + boards, progress["bytes"] + nbytes, bytes_total)
                job_slots.pop(id(fut))
            commit(inputs_, part_, wait_result(fut))
            return
        if piece.slot is not None:  # a part read by a worker: the bar moves as the workers read
            while not fut.done():
                futures_wait([fut], timeout=_POLL)
                nbytes, boards = reading([piece, *(p for *_, p in pending if p is not None)])
                report(progress["files"], progress["boards"] + boards, progress["bytes"] + nbytes, bytes_total)
        res: PieceResult = wait_result(fut)
        acc = piece.parted
        if piece.resume_key is not None and not piece.loaded:
            work.commit_piece(res.part, *piece.resume_key, dump_piece(res))
        progress["bytes"] += piece.share  # a big file's bytes move part by part
        progress["boards"] += res.boards
        if acc.add(res):
            rows, diags = acc.finish(work.root, f"p{token}-{next(seq):06d}")
            commit(None, rows.source, _JobResult([rows], diags), counted=acc.boards)
        else:
            committed += 1
            report(progress["files"], progress["boards"], progress["bytes"], bytes_total)
            if on_commit is not None:
                on_commit(committed)

    def pieces(task: parts._Task) -> Iterator[_Pending]:
        """The tasks of one part of a file (for its first part, the file is hashed: its earlier rows, or
        pieces an interrupted run committed, are taken as they are)."""
        inp = task.inputs[0]
        if task.index == 0:
            sha = inp.content_hash()
            if sha is not None and sha in known.get(inp.path, ()):
                skip[0] = inp  # its rows exist: its other parts are not read
                r = _JobResult([InputRows(inp.path, inp.format, "match", 0, 0, 0, sha)], [])
                yield ([inp], None, _done_future(r), None)
                return
            skip[0] = None
            parted[0] = Parted(inp, task.count, sha)
        elif skip[0] is inp:
            return
        acc = parted[0]
        assert acc is not None and acc.inp is inp
        key = (inp.path, acc.sha256, task.part) if acc.sha256 is not None else None
        share = inp.size * (task.index + 1) // task.count - inp.size * task.index // task.count
        name = work.pieces.get((inp.path, acc.sha256, *task.part)) if key is not None else None
        res = load_piece(work.piece_summary(name)) if name is not None else None
        first = [inp] if task.index == 0 else []
        if res is not None:
            yield (first, None, _done_future(res), _Piece(acc, key, share, True))
            return
        last = task.index == task.count - 1
        slot = shared.take() if shared is not None and client is None else None
        j = PieceJob(f"p{token}-{next(seq):06d}", str(work.root), inp, task.part, last, batch_boards, dd_job, slot)
        yield (first, None, submit(run_piece, j), _Piece(acc, key, share, False, slot))

    def reading(inflight: Iterable[_Piece]) -> tuple[int, int]:
        """The bytes and boards the tasks in flight have read so far (each at most its share): the
        parts ``inflight``, and every whole-input job not yet taken (:data:`job_slots`)."""
        nbytes = boards = 0
        for p in inflight:
            if p.slot is not None:
                b, n = shared.read(p.slot)  # type: ignore[union-attr]
                nbytes, boards = nbytes + min(b, p.share), boards + n
        for slot, size in job_slots.values():
            b, n = shared.read(slot)  # type: ignore[union-attr]
            nbytes, boards = nbytes + min(b, size), boards + n
        return nbytes, boards

    # Counters the forked workers share with this process (before the pool forks): how far each
    # part in flight is read, so that one big file moves the bar before its parts end.
    shared = progress_mod.share(4 * jobs + 4) if on_progress is not None and jobs > 1 and client is None else None
    if client is not None:
        executor: Any = client.get_executor()
    else:
        executor = _executor(jobs) if jobs > 1 else None
    pending: deque[_Pending] = deque()
    job_slots: dict[int, tuple[int, int]] = {}  # id of a whole-input job's future: (its slot, its inputs' bytes)
    skip: list[Input | None] = [None]  # a file split in parts whose rows exist already
    parted: list[Parted | None] = [None]  # the file whose parts are being read
    bounds = parts._bounds(jobs, parts.PART_BYTES if part_bytes is None else part_bytes, early=False)
    finished = False  # every task taken: else an exception (Ctrl-C) is on its way, and the pool is stopped
    try:
        report(0, 0, 0, bytes_total, force=True)
        for task in parts._tasks(_unique(iter_entries(paths, limits)), bounds if jobs > 1 else _whole, task_bytes):
            if summary.stopped:  # list the rest, read nothing
                if task.kind == "entry":
                    not_read(task.entry.path, None)  # type: ignore[union-attr]
                elif task.kind != "part" or task.index == 0:
                    for inp in task.inputs:
                        not_read(inp.path, inp.format)
                continue
            if task.kind == "entry":
                d = task.entry
                assert d is not None
                status = entry_status([d.code], read=False)
                e, w = int(d.severity is Severity.ERROR), int(d.severity is Severity.WARNING)
                r = _JobResult([InputRows(d.path, None, status, 0, e, w, diagnostics=(d,))], [d])
                pending.append((None, None, _done_future(r), None))
            elif task.kind == "part":
                pending.extend(pieces(task))
            else:
                inputs = list(task.inputs)
                j = job(inputs)
                if task.kind == "here":  # read now: the next entry may move its archive stream on
                    pending.append((inputs, j.part, _done_future(_run_job(j, tick)), None))
                else:
                    if shared is not None and executor is not None:
                        j.slot = shared.take()
                    fut = submit(_run_job, j)
                    if j.slot is not None:
                        job_slots[id(fut)] = (j.slot, sum(max(i.size, 0) for i in inputs))
                    pending.append((inputs, j.part, fut, None))
            while pending and (len(pending) > 2 * jobs or pending[0][2].done()):
                take(pending.popleft())
                if summary.stopped:
                    drop(pending)
        while pending:
            take(pending.popleft())
            if summary.stopped:
                drop(pending)
        report(progress["files"], progress["boards"], progress["bytes"], bytes_total, force=True)
        finished = True
    finally:
        if client is not None:
            _close_client(client, interrupted=not finished)
        elif executor is not None:
            if summary.stopped:  # the tasks running are not wanted: interrupted (their parts never complete)
                stop_pool(executor)
            elif not finished:  # Ctrl-C or a fault here: stopped now, not waited for (the work folder stays)
                stop_pool(executor, KILL_AFTER)
            else:
                executor.shutdown(wait=True, cancel_futures=True)
        close_archives()
        if shared is not None:
            progress_mod.unshare()
    # nothing read into a folder holding a dataset: that dataset stays as it was (nothing dropped)
    nothing = summary.files == 0 and summary.boards == 0 and (out / "files.parquet").exists()
    if existing == "refuse" and held and not nothing:
        try:
            check_inputs(str(out), held, order)  # after reading: a file gone from a folder given
        except WouldDrop:
            shutil.rmtree(work.root, ignore_errors=True)
            raise
    if existing == "append" and not nothing:  # (into no dataset: every input added)
        order, summary.actions = combine(kept or OldDataset({}), order)
        for d, a in zip(order, summary.actions):
            if a.action == "kept":
                summary._keep(d)
    if nothing:
        summary.written = False
    else:
        finish = None
        if dd:
            from handrec.dataset.deals import write_deals

            def finish(tmp: dict[str, Path], meta: dict[bytes, bytes]) -> None:
                write_deals(tmp["boards"], tmp["deals"], meta, dd_dir, jobs=jobs, progress=dd_progress)

        merge(out, work.root, order, token, row_group_rows, dd_mode, finish)
    if dd:
        from handrec.dd.rows import release_worker_solver

        release_worker_solver(dd_dir)  # the in-process one (jobs 1), before its run cache may go
    shutil.rmtree(work.root, ignore_errors=True)
    return summary
