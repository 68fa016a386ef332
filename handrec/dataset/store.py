"""Writing the Parquet dataset that ``handrec convert`` produces: in parallel, incremental, resumable.

**Layout.**  The dataset is a folder with one Parquet file per table of
:data:`handrec.dataset.tables.SCHEMAS` (``boards.parquet``, ``calls.parquet``,
``plays.parquet``, ``diagnostics.parquet``, ``files.parquet``): zstd,
row groups of :data:`ROW_GROUP_ROWS` rows, dictionary encoding on repeated
strings (:data:`DICTIONARY_COLUMNS`), and in each file's metadata the
schema version, the handrec version and the id of the run that wrote it.
Rows are in *input order* -- the order of :func:`handrec.inputs.entries.iter_entries`:
arguments as given, folders sorted, archive members in archive order; a
board's rows in file order -- and ``board_id`` counts the boards from 0 in
that order.  Every input has one ``files`` row with its ``status``: ``ok``,
``unreadable`` (F001, F004: could not be read, or not to the end),
``skipped`` (F008, F009, F010: refused by policy; F014: a FIFO, device or
socket in a folder), ``unchanged`` (rows reused, see below), ``not_read``
(after ``max_errors`` errors, see below).  The tables depend only on the inputs (and the
handrec version), never on ``jobs``, on an earlier dataset or on an
interruption -- except ``files.status``, which says ``unchanged`` for
reused rows.

**Pipeline.**  The parent process lists the inputs and groups consecutive
ones into tasks of about ``task_bytes``.  Each task is run by a worker
(:class:`concurrent.futures.ProcessPoolExecutor` with ``jobs`` processes;
in-process when ``jobs`` is 1): it reads and analyses its inputs and writes
their rows to a *part* in the work folder (one Parquet file per table,
board ids counted from 0 in the part), flushing every ``batch_boards``
boards, and returns a small summary.  The parent keeps at most
``2 * jobs`` tasks in flight and commits their results in task order, so
memory stays about ``jobs x batch_boards`` boards whatever the size of the
archive (plus, in the parent, a record of a few hundred bytes per input:
path, hash, counts, row ranges).  A tar member too big to hand to a worker (over
:attr:`handrec.inputs.limits.Limits.inline_bytes`) is read in the parent, from the
archive stream.  A single big file is one task (it is not split: PBN tag
inheritance runs across its games).

**Claimed figures.**  Besides each board's own faults, an input's claimed
event figures (ScoreMP, ScorePercentage, ScoreIMP, ScoreTable, TotalScoreTable
...: S603-S609) are checked as ``handrec validate`` checks them
(:func:`handrec.events.checks.check_event` over the input's boards), and
land in ``diagnostics`` with the ``board_id`` of the board they are about.
That needs a small record of every board of the input until its end (about
600 bytes each), so memory does not grow with one huge input: once an
input passes :data:`CHECK_BOARDS` boards without any claimed figure, its
records are dropped and its figures are not checked (an input with claims
is checked up to :data:`CHECK_BOARDS_WITH_CLAIMS` boards); an input with claims
that are not checked gets one S610 note in ``diagnostics``.  A pair playing a
board twice (S612, :func:`handrec.events.checks.check_pairs`) is checked on the
same records: on inputs without claims, up to :data:`CHECK_BOARDS` boards.

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

**Work folder and resume.**  ``DIR/.handrec-work/`` holds the parts and
``manifest.jsonl``: a header line (manifest format, schema and handrec
versions, size and mtime of the dataset files present at the start), then
one line per committed task: the part's name and, for each input read to
the end, its path, SHA-256, counts and the row range of each table in the
part.  A part's files are written under temporary names and renamed
before its manifest line is appended (and fsynced), so the manifest names
only complete parts.  When every input is done the parent merges, table by
table, into ``DIR/.NAME.parquet.tmp`` -- assigning the final ``board_id``
values -- and renames each into place with :func:`os.replace`, then deletes
the work folder: a reader never sees a partial table.  (The five renames
are not one atomic step; the run id in every table's metadata lets the
next conversion tell a mixed set and re-read everything.)  Interrupted (Ctrl-C,
SIGKILL, power cut) the work folder stays, and ``resume=True`` (``handrec
convert --resume``) reads its manifest, if the header still matches, and
takes the rows of each input whose path and SHA-256 are in it from its
part: such an input is read once, to hash it, but not parsed.  Without ``resume`` a leftover work folder
is discarded.  One conversion per dataset folder at a time.

**Incremental.**  Converting into a folder that holds a dataset written by
the same handrec version (same schema and handrec versions, all tables from
one run) reuses the rows of every input whose path and SHA-256 match a
``files`` row with status ``ok`` or ``unchanged``: status ``unchanged``,
rows copied from the old tables (streamed by row group, ``board_id``
renumbered) at the input's place in input order -- the same tables as a
conversion from scratch.  ``force=True`` re-reads everything.  The SHA-256
is of the input's bytes (decompressed); an input is hashed before it is
parsed only when its path is known (one extra read); a tar member streamed
from its archive cannot be read twice, so it is always parsed.
"""

from __future__ import annotations

import bisect
import itertools
import json
import os
import shutil
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from handrec import __version__
from handrec.dataset.tables import SCHEMA_VERSION, SCHEMAS, TableBuffers, metadata
from handrec.diagnostics import Diagnostic, Severity, make
from handrec.events.checks import check_event, check_pairs
from handrec.events.games import GameRecord, record
from handrec.formats.dispatch import read_input
from handrec.inputs.entries import iter_entries, total_bytes
from handrec.inputs.limits import DEFAULT_LIMITS, Limits
from handrec.inputs.sources import Input, close_archives
from handrec.inputs.status import entry_status
from handrec.rules.validator import analyse
from handrec.runs.pool import run_stoppable, stop_pool
from handrec.runs.pool import start_pool as _executor  # the pool validate --jobs uses too

__all__ = [
    "ConvertSummary",
    "ConvertProgress",
    "convert",
    "ROW_GROUP_ROWS",
    "DICTIONARY_COLUMNS",
    "WORK_DIR",
    "CHECK_BOARDS",
    "CHECK_BOARDS_WITH_CLAIMS",
]

#: Rows per row group in the final tables.
ROW_GROUP_ROWS = 128 * 1024
#: The work folder inside the dataset folder.
WORK_DIR = ".handrec-work"
#: Columns written with Parquet dictionary encoding (repeated strings); others plain.
DICTIONARY_COLUMNS: dict[str, list[str]] = {
    "boards": [
        "source_file",
        "format",
        "event",
        "site",
        "date",
        "scoring",
        "board_label",
        "room",
        "north",
        "east",
        "south",
        "west",
        "dealer",
        "vulnerable",
        "contract",
        "declarer",
        "opening_lead",
    ],
    "calls": ["source_file", "seat", "call", "annotation"],
    "plays": ["source_file", "seat", "card", "winner"],
    "diagnostics": ["source_file", "code", "severity", "message"],
    "tables": ["source_file", "table_name", "column"],
    "files": ["format", "status"],
}

_MANIFEST = "manifest.jsonl"
_MANIFEST_FORMAT = 1
#: Tables whose rows belong to inputs (``files`` is built from the inputs' summaries).
_ROW_TABLES = ("boards", "calls", "plays", "diagnostics", "tables")
_OLD = "<dataset>"  # the source name of rows reused from the existing dataset
_MAX_TASK_INPUTS = 256
#: Boards of one input recorded for its claimed-figure checks while none of them has a claim.
CHECK_BOARDS = 20_000
#: Boards of one input recorded for its claimed-figure checks when it has claims.
CHECK_BOARDS_WITH_CLAIMS = 200_000


@dataclass
class ConvertSummary:
    """Counts of one conversion.

    ``files``: inputs whose rows are in the dataset (status ``ok`` or
    ``unchanged``); ``unreadable``, ``skipped``, ``unchanged``, ``not_read``:
    inputs by status; ``statuses``: every ``files`` row counted by status
    (those of :data:`handrec.inputs.status.STATUSES` that occur); :attr:`total`: the rows of the
    ``files`` table; ``resumed``: inputs taken from an interrupted run's
    work folder (counted under their status); ``stopped``: ``max_errors`` was reached.
    ``boards``, ``errors``, ``warnings``: totals over the whole dataset
    written.  ``written``: False when no input was read (none found, or none
    readable) and ``out_dir`` already held a dataset, which is then left as it
    was (a mistyped or empty path never empties a dataset).  ``diagnostics``: the file-level faults found in this run (F001,
    F002, F004, F008-F010...).  ``discarded_work``: a leftover work folder was
    thrown away (no ``resume``).
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

    @property
    def total(self) -> int:
        """Every input and every entry not read: the rows of the ``files`` table."""
        return sum(self.statuses.values())

    def _count(self, status: str) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


@dataclass(frozen=True, slots=True)
class ConvertProgress:
    """Where a conversion is: inputs and boards done, bytes done of ``bytes_total`` (on disk, estimated)."""

    files: int
    boards: int
    bytes_done: int
    bytes_total: int
    path: str | None = None


@dataclass(slots=True)
class _Done:
    """One input as the merge sees it: its ``files`` row and where its rows are.

    ``source``: a part's name, :data:`_OLD`, or ``None`` (no rows but
    ``diagnostics``); ``rows[table] = (first row, count)`` in the source;
    ``board_lo``: the ``board_id`` of its first board there.  ``status`` is
    ``"match"`` in a worker's answer when the input's hash matched a known
    one (the parent then finds its rows).
    """

    path: str
    format: str | None
    status: str
    boards: int
    errors: int
    warnings: int
    sha256: str | None = None
    nbytes: int | None = None
    source: str | None = None
    board_lo: int = 0
    rows: dict[str, tuple[int, int]] | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "status": self.status,
            "boards": self.boards,
            "errors": self.errors,
            "warnings": self.warnings,
            "sha256": self.sha256,
            "nbytes": self.nbytes,
            "board_lo": self.board_lo,
            "rows": self.rows,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], source: str) -> _Done:
        rows = {t: (int(a), int(b)) for t, (a, b) in d["rows"].items()}
        return cls(
            d["path"],
            d["format"],
            d["status"],
            d["boards"],
            d["errors"],
            d["warnings"],
            d["sha256"],
            d["nbytes"],
            source,
            d["board_lo"],
            rows,
        )


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


@dataclass
class _JobResult:
    done: list[_Done]
    diagnostics: list[Diagnostic]


# =========================================================================================
# Workers
# =========================================================================================


def _status(inp: Input) -> str:
    return entry_status((d.code for d in inp.diagnostics), read=inp.format is not None)


def _run_job(job: _Job) -> _JobResult:
    """Read and analyse the job's inputs; write their rows to the part's Parquet files.

    Runs in a worker process (or in the parent).  The part's files appear
    under their final names only when complete.
    """
    work = Path(job.work)
    buf = TableBuffers()
    flushed = dict.fromkeys(_ROW_TABLES, 0)
    writers: dict[str, pq.ParquetWriter] = {}

    def rows(t: str) -> int:
        return flushed[t] + len(buf.rows[t]["source_file"])

    def flush() -> None:
        for t in _ROW_TABLES:
            batch = buf.take(t)
            if batch.num_rows:
                if t not in writers:
                    writers[t] = pq.ParquetWriter(work / f"{job.part}.{t}.parquet.tmp", SCHEMAS[t], compression="lz4")
                writers[t].write_batch(batch)
                flushed[t] += batch.num_rows

    done: list[_Done] = []
    diagnostics: list[Diagnostic] = []
    try:
        for inp in job.inputs:
            shas = job.known.get(inp.path)
            if shas:
                h = inp.content_hash()
                if h is not None and h in shas:
                    done.append(_Done(inp.path, inp.format, "match", 0, 0, 0, h))
                    continue
            start = {t: rows(t) for t in _ROW_TABLES}
            lo = buf.next_board_id
            n = e = w = 0
            recs: list[GameRecord] | None = []  # for the claimed figures (see the module doc)
            claims = False
            unchecked = 0  # the record limit, once passed
            boards = read_input(inp)
            failure: Exception | None = None
            while True:
                try:
                    board = next(boards)
                except StopIteration:
                    break
                except Exception as ex:  # a bug in handrec, not an input fault: F015, the input ends here
                    failure = ex
                    break
                n += 1  # read: in the output, or (a failure) in the F015
                try:
                    a = analyse(board)
                except Exception as ex:
                    failure = ex
                    break
                buf.add(a)
                e += a.errors
                w += a.warnings
                if recs is not None or not claims:  # past the limit: only look for a first claim
                    r = record(board, a.replay)
                    claims = claims or bool(r.claims or r.tables)
                    if recs is not None:
                        recs.append(r)
                        limit = CHECK_BOARDS_WITH_CLAIMS if claims else CHECK_BOARDS
                        if n >= limit:
                            recs, unchecked = None, limit
                if buf.pending_boards >= job.batch_boards:
                    flush()
            if failure is not None:  # as validate reports it (the boards before it are kept)
                inp.diagnostics.append(
                    make("F015", None, None, path=inp.path, error=f"{type(failure).__name__}: {failure}")
                )
                recs = None
            if recs:
                for d in check_event(recs) if claims else check_pairs(recs):
                    bid = lo + d.board if d.board is not None and 0 <= d.board < n else None
                    buf.add_diagnostic(d, bid)
                    e += d.severity is Severity.ERROR
                    w += d.severity is Severity.WARNING
            recs = None
            if unchecked and claims:  # said, not dropped silently
                buf.add_diagnostic(make("S610", None, None, path=inp.path, limit=unchecked), None)
            for d in inp.diagnostics:
                buf.add_diagnostic(d, None)
                e += d.severity is Severity.ERROR
                w += d.severity is Severity.WARNING
            span = {t: (start[t], rows(t) - start[t]) for t in _ROW_TABLES}
            nbytes = inp.nbytes if inp.sha256 else None
            done.append(_Done(inp.path, inp.format, _status(inp), n, e, w, inp.sha256, nbytes, job.part, lo, span))
            diagnostics.extend(inp.diagnostics)
        flush()
    finally:
        for wr in writers.values():
            wr.close()
    for t in writers:
        os.replace(work / f"{job.part}.{t}.parquet.tmp", work / f"{job.part}.{t}.parquet")
    return _JobResult(done, diagnostics)


class SchedulerError(RuntimeError):
    """The Dask scheduler given to :func:`convert` cannot be reached (nothing was written)."""


def _close_client(client: Any) -> None:
    """Close a client of :func:`_dask_client`, and its local cluster if it started one."""
    client.close()
    cluster = getattr(client, "_handrec_cluster", None)
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
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    client._handrec_cluster = cluster  # closed with the client
    return client


def _done_future(value: _JobResult) -> Future[_JobResult]:
    f: Future[_JobResult] = Future()
    f.set_result(value)
    return f


# =========================================================================================
# The dataset already in the folder, and the work folder
# =========================================================================================


def _fingerprint(out: Path) -> dict[str, list[int]]:
    fp = {}
    for t in SCHEMAS:
        try:
            st = (out / f"{t}.parquet").stat()
        except OSError:
            continue
        fp[t] = [st.st_size, st.st_mtime_ns]
    return fp


def _scan_ranges(path: Path, first_board: bool) -> tuple[dict[str, tuple[int, int]], dict[str, int], set[str]]:
    """Per ``source_file``: (first row, row count) of its run of rows; its first ``board_id``; paths in several runs."""
    pf = pq.ParquetFile(path, read_dictionary=["source_file"])
    ranges: dict[str, tuple[int, int]] = {}
    firsts: dict[str, int] = {}
    broken: set[str] = set()
    cols = ["source_file", "board_id"] if first_board else ["source_file"]
    pos = 0
    cur: str | None = None
    cur_start = 0
    try:
        for batch in pf.iter_batches(batch_size=ROW_GROUP_ROWS, columns=cols):
            col = batch.column(0)
            if not isinstance(col, pa.DictionaryArray):
                col = col.dictionary_encode()
            idx = col.indices.to_numpy(zero_copy_only=False)
            values = col.dictionary.to_pylist()
            starts = np.concatenate(([0], np.flatnonzero(idx[1:] != idx[:-1]) + 1)) if len(idx) else []
            ids = batch.column(1) if first_board else None
            for s in starts:
                name = values[idx[s]]
                if name == cur:
                    continue
                if cur is not None:
                    ranges[cur] = (cur_start, pos + int(s) - cur_start)
                if name in ranges:
                    broken.add(name)
                cur, cur_start = name, pos + int(s)
                if ids is not None:
                    firsts[name] = ids[int(s)].as_py()
            pos += len(idx)
    finally:
        pf.close()
    if cur is not None:
        ranges[cur] = (cur_start, pos - cur_start)
    return ranges, firsts, broken


class _OldDataset:
    """The dataset already in the output folder, when its rows can be reused (see the module doc)."""

    def __init__(self, by_path: dict[str, _Done]) -> None:
        self.by_path = by_path

    @classmethod
    def open(cls, out: Path) -> _OldDataset | None:
        """The reusable inputs of the dataset in ``out``, or ``None`` (no dataset, other version, mixed runs)."""
        runs = set()
        try:
            for t in SCHEMAS:
                meta = pq.read_schema(out / f"{t}.parquet").metadata or {}
                if meta.get(b"handrec.schema_version") != SCHEMA_VERSION.encode():
                    return None
                if meta.get(b"handrec.version") != __version__.encode():
                    return None
                runs.add(meta.get(b"handrec.run"))
            if len(runs) != 1 or None in runs:
                return None
            files = pq.read_table(out / "files.parquet").to_pylist()
            scans = {t: _scan_ranges(out / f"{t}.parquet", t == "boards") for t in _ROW_TABLES}
        except (OSError, pa.ArrowException, KeyError):
            return None
        by_path: dict[str, _Done] = {}
        for f in files:
            path = f["source_file"]
            if f["status"] not in ("ok", "unchanged") or f["sha256"] is None:
                continue
            if any(path in scans[t][2] for t in _ROW_TABLES):
                continue  # its rows are not in one run: do not trust them
            rows = {t: scans[t][0].get(path, (0, 0)) for t in _ROW_TABLES}
            if rows["boards"][1] != f["boards_written"]:
                continue
            by_path[path] = _Done(
                path,
                f["format"],
                "unchanged",
                f["boards"],
                f["errors"],
                f["warnings"],
                f["sha256"],
                f["bytes"],
                _OLD,
                scans["boards"][1].get(path, 0),
                rows,
            )
        return cls(by_path)


class _Work:
    """The work folder: parts and the manifest (see the module doc)."""

    def __init__(self, root: Path, header: dict[str, Any], resume: bool) -> None:
        self.root = root
        self.by_path: dict[str, list[_Done]] = {}
        self.discarded = False
        if root.exists():
            if resume and self._load(header):
                for tmp in root.glob("*.tmp"):
                    tmp.unlink()
            else:
                self.discarded = True
                shutil.rmtree(root)
        if not root.exists():
            root.mkdir()
            self._append(header, new=True)

    def _load(self, header: dict[str, Any]) -> bool:
        """Read the manifest; ``False`` if it is missing or its header differs."""
        try:
            with open(self.root / _MANIFEST, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except OSError:
            return False
        try:
            if json.loads(lines[0]) != header:
                return False
        except ValueError:
            return False
        for line in lines[1:]:
            try:
                rec = json.loads(line)
            except ValueError:
                break  # a line cut short by the interruption: the task was not committed
            part = rec["part"]
            if not all((self.root / f"{part}.{t}.parquet").is_file() for t in rec["tables"]):
                continue
            for d in rec["inputs"]:
                self.by_path.setdefault(d["path"], []).append(_Done.from_json(d, part))
        return True

    def _append(self, record: dict[str, Any], new: bool = False) -> None:
        with open(self.root / _MANIFEST, "w" if new else "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def commit(self, part: str, done: list[_Done]) -> None:
        """Record the inputs of a finished part that a resumed run could reuse."""
        keep = [d for d in done if d.source == part and d.sha256 is not None and d.status != "match"]
        if keep:
            tables = [t for t in _ROW_TABLES if (self.root / f"{part}.{t}.parquet").is_file()]
            self._append({"part": part, "tables": tables, "inputs": [d.to_json() for d in keep]})

    def find(self, path: str, sha256: str) -> _Done | None:
        for d in reversed(self.by_path.get(path, ())):
            if d.sha256 == sha256:
                return d
        return None


# =========================================================================================
# Writing the final tables
# =========================================================================================


class _RowSource:
    """Row ranges of one Parquet file, read a row group at a time (the last one cached)."""

    def __init__(self, path: Path) -> None:
        self.pf = pq.ParquetFile(path)
        md = self.pf.metadata
        self.starts = list(
            itertools.accumulate((md.row_group(i).num_rows for i in range(md.num_row_groups)), initial=0)
        )
        self.cached: tuple[int, pa.Table] | None = None

    def rows(self, start: int, count: int) -> Iterator[pa.Table]:
        end = start + count
        i = bisect.bisect_right(self.starts, start) - 1
        while start < end:
            if self.cached is None or self.cached[0] != i:
                self.cached = (i, self.pf.read_row_group(i))
            hi = min(end, self.starts[i + 1])
            yield self.cached[1].slice(start - self.starts[i], hi - start)
            start = hi
            i += 1

    def close(self) -> None:
        self.cached = None
        self.pf.close()


class _TableWriter:
    """A Parquet writer that cuts row groups of exactly ``row_group_rows`` rows (the last may be short)."""

    def __init__(self, path: Path, schema: pa.Schema, row_group_rows: int, dictionary: list[str]) -> None:
        self.schema = schema
        self.rg = row_group_rows
        self.writer = pq.ParquetWriter(path, schema, compression="zstd", use_dictionary=dictionary)
        self.buf: list[pa.Table] = []
        self.n = 0

    def write(self, t: pa.Table | pa.RecordBatch) -> None:
        if t.num_rows:
            if isinstance(t, pa.RecordBatch):
                t = pa.Table.from_batches([t])
            self.buf.append(t.cast(self.schema))
            self.n += t.num_rows
            if self.n >= self.rg:
                self._flush(final=False)

    def _flush(self, final: bool) -> None:
        if not self.buf:
            return
        t = pa.concat_tables(self.buf)
        k = t.num_rows if final else t.num_rows - t.num_rows % self.rg
        if k:
            self.writer.write_table(t.slice(0, k), row_group_size=self.rg)
        rest = t.slice(k)
        self.buf = [rest] if rest.num_rows else []
        self.n = rest.num_rows

    def close(self) -> None:
        try:
            self._flush(final=True)
        finally:
            self.writer.close()


def _shift(t: pa.Table, offset: int) -> pa.Table:
    """``t`` with ``offset`` added to ``board_id`` (nulls stay null)."""
    if offset == 0:
        return t
    i = t.schema.get_field_index("board_id")
    return t.set_column(i, "board_id", pc.add(t.column(i), pa.scalar(offset, pa.int64())))


def _fsync(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _merge(out: Path, work: Path, order: list[_Done], run_id: str, row_group_rows: int) -> None:
    """Write the final tables from the parts and the old dataset, in input order; rename them into place."""
    meta = {**metadata(), b"handrec.run": run_id.encode()}
    tmp = {t: out / f".{t}.parquet.tmp" for t in SCHEMAS}
    for t in _ROW_TABLES:
        writer = _TableWriter(tmp[t], SCHEMAS[t].with_metadata(meta), row_group_rows, DICTIONARY_COLUMNS[t])
        sources: dict[str, _RowSource] = {}
        try:
            base = 0
            for d in order:
                if d.source is not None and d.rows is not None:
                    start, count = d.rows[t]
                    if count:
                        src = sources.get(d.source)
                        if src is None:
                            for name in [n for n in sources if n != _OLD]:
                                sources.pop(name).close()  # parts are read in order: one open at a time
                            path = out / f"{t}.parquet" if d.source == _OLD else work / f"{d.source}.{t}.parquet"
                            src = sources[d.source] = _RowSource(path)
                        for chunk in src.rows(start, count):
                            writer.write(_shift(chunk, base - d.board_lo))
                    base += d.rows["boards"][1]
                elif t == "diagnostics" and d.diagnostics:
                    buf = TableBuffers()
                    for diag in d.diagnostics:
                        buf.add_diagnostic(diag, None)
                    writer.write(buf.take("diagnostics"))
        finally:
            writer.close()
            for src in sources.values():
                src.close()
    writer = _TableWriter(
        tmp["files"], SCHEMAS["files"].with_metadata(meta), row_group_rows, DICTIONARY_COLUMNS["files"]
    )
    try:
        buf = TableBuffers()
        for i, d in enumerate(order, 1):
            written = d.rows["boards"][1] if d.rows is not None else 0
            buf.add_file(
                d.path,
                d.format,
                d.boards,
                d.errors,
                d.warnings,
                boards_written=written,
                status=d.status,
                sha256=d.sha256,
                nbytes=d.nbytes,
            )
            if i % row_group_rows == 0:
                writer.write(buf.take("files"))
        writer.write(buf.take("files"))
    finally:
        writer.close()
    for t in SCHEMAS:
        _fsync(tmp[t])
    for t in SCHEMAS:
        os.replace(tmp[t], out / f"{t}.parquet")
    _fsync(out)


# =========================================================================================
# convert
# =========================================================================================


def _tasks(entries: Iterable[Input | Diagnostic], task_bytes: int) -> Iterator[list[Input] | Diagnostic | tuple[Input]]:
    """Group consecutive inputs into tasks of about ``task_bytes``.

    Yields a list (a task for a worker), a diagnostic (an entry not read),
    or a 1-tuple (an input to read in this process: it holds an open
    archive stream, read before the next entry is listed).  Paths seen
    before are dropped.
    """
    group: list[Input] = []
    size = 0
    seen: set[str] = set()
    for e in entries:
        if e.path in seen:
            continue
        seen.add(e.path)
        if isinstance(e, Input) and e.picklable:
            cost = max(e.size, 1)
            if group and (size + cost > task_bytes or len(group) >= _MAX_TASK_INPUTS):
                yield group
                group, size = [], 0
            group.append(e)
            size += cost
            continue
        if group:
            yield group
            group, size = [], 0
        yield (e,) if isinstance(e, Input) else e
    if group:
        yield group


def _refuse_foreign_tables(out: Path) -> None:
    """Refuse to write into ``out`` when it holds a ``{table}.parquet`` (a name of :data:`SCHEMAS`)
    that handrec did not write: not a regular Parquet file, or without ``handrec.schema_version``
    in its schema metadata (see :func:`handrec.dataset.tables.metadata`).  An empty folder, a handrec
    dataset (of any version) and other files are fine.

    :raises FileExistsError: naming the first such file.
    """
    for t in SCHEMAS:
        f = out / f"{t}.parquet"
        if not os.path.lexists(f):
            continue
        meta: dict = {}
        if f.is_file():
            try:
                meta = pq.read_schema(f).metadata or {}
            except (OSError, pa.ArrowException):
                pass  # not Parquet: not handrec's
        if b"handrec.schema_version" not in meta:
            raise FileExistsError(
                f"{f} was not written by handrec convert (no handrec metadata); refusing to overwrite it"
            )


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
) -> ConvertSummary:
    """Read every PBN/LIN input under ``paths`` and write the Parquet dataset to ``out_dir``.

    ``paths``: files, folders, archives (see :func:`handrec.inputs.entries.iter_entries`);
    ``jobs``: worker processes (default ``os.cpu_count()``; 1 = none);
    ``resume``: continue an interrupted run from ``out_dir/.handrec-work``;
    ``force``: re-read inputs unchanged since the dataset in ``out_dir``
    was written; ``limits``: archive size limits; ``batch_boards``: boards
    a worker buffers before writing (bounds memory); ``task_bytes``: input
    bytes per task; ``row_group_rows``: rows per Parquet row group.
    ``on_progress`` is called once the workers have started, then after
    each task; ``on_commit(n)`` after the n-th task is committed (tests
    use it to simulate an interruption).  File-level faults land in the
    ``diagnostics`` table with a null ``board_id``; every input has a
    ``files`` row.  See the module doc for the layout, resume and reuse.

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

    :raises OSError: when ``out_dir`` cannot be created or written; :class:`FileExistsError`
        when it holds a Parquet file of a table name that handrec did not write (never overwritten).
    :raises ValueError: when ``jobs`` is below 1 or ``engine`` is unknown.
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
    out = Path(out_dir)
    _refuse_foreign_tables(out)
    client = _dask_client(jobs, scheduler) if engine == "dask" else None  # first: an unreachable one writes nothing
    try:
        out.mkdir(parents=True, exist_ok=True)
        old = None if force else _OldDataset.open(out)
        header = {
            "handrec_work": _MANIFEST_FORMAT,
            "schema_version": SCHEMA_VERSION,
            "handrec_version": __version__,
            "dataset": _fingerprint(out),
        }
        work = _Work(out / WORK_DIR, header, resume)
    except BaseException:
        if client is not None:
            _close_client(client)
        raise
    summary = ConvertSummary(discarded_work=work.discarded)
    known: dict[str, set[str]] = {}
    if old is not None:
        for p, d in old.by_path.items():
            known.setdefault(p, set()).add(d.sha256)  # type: ignore[arg-type]
    for p, ds in work.by_path.items():
        known.setdefault(p, set()).update(d.sha256 for d in ds if d.sha256)  # type: ignore[misc]

    order: list[_Done] = []
    token = uuid.uuid4().hex[:8]
    seq = itertools.count()
    bytes_total = total_bytes(paths)
    progress = {"files": 0, "boards": 0, "bytes": 0}
    committed = 0

    def resolve(d: _Done) -> _Done:
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
        order.append(_Done(path, fmt, "not_read", 0, 0, 0))
        summary.not_read += 1
        summary._count("not_read")

    def commit(inputs: list[Input] | None, part: str | None, result: _JobResult) -> None:
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
        committed += 1
        if on_progress is not None:
            last = result.done[-1].path if result.done else None
            on_progress(ConvertProgress(progress["files"], progress["boards"], progress["bytes"], bytes_total, last))
        if on_commit is not None:
            on_commit(committed)

    def job(inputs: list[Input]) -> _Job:
        part = f"p{token}-{next(seq):06d}"
        k = {i.path: tuple(sorted(known[i.path])) for i in inputs if i.path in known}
        return _Job(part, str(work.root), inputs, k, batch_boards)

    def drop(tasks: deque[tuple[list[Input] | None, str | None, Future[_JobResult]]]) -> None:
        """After the stop: the tasks in flight are cancelled (or their results ignored); their inputs not read."""
        while tasks:
            inputs_, _, fut = tasks.popleft()
            fut.cancel()
            if inputs_ is None:  # an entry not read anyway (a diagnostic)
                for d in fut.result().done:
                    not_read(d.path, None)
            else:
                for inp in inputs_:
                    not_read(inp.path, inp.format)

    if client is not None:
        executor: Any = client.get_executor()
    else:
        executor = _executor(jobs) if jobs > 1 else None
    pending: deque[tuple[list[Input] | None, str | None, Future[_JobResult]]] = deque()
    try:
        if on_progress is not None:
            on_progress(ConvertProgress(0, 0, 0, bytes_total))
        for task in _tasks(iter_entries(paths, limits), task_bytes):
            if summary.stopped:  # list the rest, read nothing
                if isinstance(task, Diagnostic):
                    not_read(task.path, None)
                else:
                    for inp in task:
                        not_read(inp.path, inp.format)
                continue
            if isinstance(task, Diagnostic):
                d = task
                status = entry_status([d.code], read=False)
                e, w = int(d.severity is Severity.ERROR), int(d.severity is Severity.WARNING)
                r = _JobResult([_Done(d.path, None, status, 0, e, w, diagnostics=(d,))], [d])
                pending.append((None, None, _done_future(r)))
            else:
                inputs = list(task)
                j = job(inputs)
                if executor is None or isinstance(task, tuple):
                    pending.append((inputs, j.part, _done_future(_run_job(j))))
                elif client is not None:
                    pending.append((inputs, j.part, executor.submit(_run_job, j)))
                else:  # a task that stop_pool can interrupt
                    pending.append((inputs, j.part, executor.submit(run_stoppable, _run_job, j)))
            while pending and (len(pending) > 2 * jobs or pending[0][2].done()):
                inputs_, part_, fut = pending.popleft()
                commit(inputs_, part_, fut.result())
                if summary.stopped:
                    drop(pending)
        while pending:
            inputs_, part_, fut = pending.popleft()
            commit(inputs_, part_, fut.result())
            if summary.stopped:
                drop(pending)
    finally:
        if client is not None:
            _close_client(client)
        elif executor is not None:
            if summary.stopped:  # the tasks running are not wanted: interrupted (their parts never complete)
                stop_pool(executor)
            else:
                executor.shutdown(wait=True, cancel_futures=True)
        close_archives()
    if summary.files == 0 and summary.boards == 0 and (out / "files.parquet").exists():
        summary.written = False  # nothing read: the dataset there stays as it was
    else:
        _merge(out, work.root, order, token, row_group_rows)
    shutil.rmtree(work.root, ignore_errors=True)
    return summary
