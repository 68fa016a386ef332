"""The Parquet dataset that ``handrec convert`` writes: its tables, its work folder, its reuse of old rows.

This module is the store; :mod:`handrec.runs.convert` reads the inputs (over a
process pool or a Dask cluster) and hands their rows here.

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
(after ``max_errors`` errors, see :mod:`handrec.runs.convert`).  The tables depend only on the inputs (and the
handrec version), never on ``jobs``, on an earlier dataset or on an
interruption -- except ``files.status``, which says ``unchanged`` for
reused rows.

**Parts.**  Each task of a conversion writes the rows of its inputs to a
*part* in the work folder (:class:`PartWriter`: one lz4 Arrow IPC file per table,
board ids counted from 0 in the part); :class:`InputRows` says, for one
input, where its rows are: in one part, or, for a big file read in parts
(:mod:`handrec.runs.convert_parts`), in its *pieces*, one part each, and a last
small part with the file's own rows (event checks, file diagnostics).

**Work folder and resume.**  ``DIR/.handrec-work/`` holds the parts and
``manifest.jsonl``: a header line (manifest format, schema and handrec
versions, size and mtime of the dataset files present at the start), then
one line per committed task: the part's name and, for each input read to
the end, its path, SHA-256, counts and the row range of each table in the
part (and its pieces); and one line per piece of a file read in parts,
taken by the parent: its name, the file's path and SHA-256, the part's
character offsets, with the piece's summary in ``{piece}.piece``
(:meth:`WorkFolder.commit_piece`).  A part's files are written under temporary names and renamed
before its manifest line is appended (and fsynced), so the manifest names
only complete parts.  When every input is done the parent merges
(:func:`merge`), table by table, into ``DIR/.NAME.parquet.tmp`` -- assigning the final ``board_id``
values -- and renames each into place with :func:`os.replace`, then deletes
the work folder: a reader never sees a partial table.  (The five renames
are not one atomic step; the run id in every table's metadata lets the
next conversion tell a mixed set and re-read everything.)  Interrupted (Ctrl-C,
SIGKILL, power cut) the work folder stays, and ``resume=True`` (``handrec
convert --resume``) reads its manifest (:class:`WorkFolder`), if the header still matches, and
takes the rows of each input whose path and SHA-256 are in it from its
part: such an input is read once, to hash it, but not parsed; of a file read
in parts, only the parts not recorded are read again.  Without ``resume`` a leftover work folder
is discarded.  One conversion per dataset folder at a time.

**Incremental.**  Converting into a folder that holds a dataset written by
the same handrec version (same schema and handrec versions, all tables from
one run) reuses the rows of every input whose path and SHA-256 match a
``files`` row with status ``ok`` or ``unchanged`` (:class:`OldDataset`): status ``unchanged``,
rows copied from the old tables (streamed by row group, ``board_id``
renumbered) at the input's place in input order -- the same tables as a
conversion from scratch.  ``force=True`` re-reads everything.  The SHA-256
is of the input's bytes (decompressed); an input is hashed before it is
parsed only when its path is known (one extra read); a tar member streamed
from its archive cannot be read twice, so it is always parsed.

**Append.**  ``convert --append`` (:mod:`handrec.runs.convert_append`) also keeps
the inputs the dataset holds that are not given again: :attr:`OldDataset.held`
lists every ``files`` row with where its rows are, and the merge copies them
like reused ones (``files.status`` as it was written), the inputs in the order
they were first added; so a dataset of ``A`` with ``B`` appended has the
tables of ``convert A B``.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from handrec import __version__
from handrec.dataset.amend import Amendment
from handrec.dataset.coded import part_schema
from handrec.dataset.tables import SCHEMA_VERSION, SCHEMAS
from handrec.diagnostics import Diagnostic

__all__ = [
    "ROW_GROUP_ROWS",
    "DICTIONARY_COLUMNS",
    "STATISTICS_STRINGS",
    "statistics_columns",
    "WORK_DIR",
    "ROW_TABLES",
    "InputRows",
    "PartWriter",
    "OldDataset",
    "WorkFolder",
    "refuse_foreign_tables",
    "held_inputs",
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
        "section",
        "round",
        "north",
        "east",
        "south",
        "west",
        "pair_ns",
        "pair_ew",
        "dealer",
        "vulnerable",
        "contract",
        "declarer",
        "strain",
        "doubled",
        "opening_lead",
    ],
    "calls": ["source_file", "seat", "call", "annotation"],
    "plays": ["source_file", "seat", "card", "winner"],
    "diagnostics": ["source_file", "code", "severity", "message"],
    "supplemental": ["source_file", "table_name", "column"],
    "files": ["format", "status"],
    "leads": ["source_file", "lead"],
    "deals": ["dealer", "source"],
}

#: The string columns whose row-group min/max statistics are written, beside every column
#: that is not a string: the ones a query filters on (a file, an event, a date, a code),
#: where DuckDB can skip row groups by them.  The statistics of a deal, an auction, a name
#: or a card prune nothing and cost more to write than the column's own encoding.
STATISTICS_STRINGS = frozenset(
    {"source_file", "format", "event", "date", "scoring", "contract", "code", "severity", "status", "table_name"}
)


def statistics_columns(schema: pa.Schema) -> list[str]:
    """The columns of ``schema`` written with Parquet statistics: the non-string ones and
    :data:`STATISTICS_STRINGS`."""
    out = []
    for f in schema:
        t = f.type.value_type if pa.types.is_dictionary(f.type) else f.type
        if not (pa.types.is_string(t) or pa.types.is_large_string(t)) or f.name in STATISTICS_STRINGS:
            out.append(f.name)
    return out


_MANIFEST = "manifest.jsonl"
_MANIFEST_FORMAT = 2  # 2: inputs read in pieces (``pieces``), and the piece lines
#: Tables whose rows belong to inputs (``files`` is built from the inputs' summaries).
ROW_TABLES = ("boards", "calls", "plays", "diagnostics", "supplemental", "leads")
_OLD = "<dataset>"  # the source name of rows reused from the existing dataset
#: The suffix of a part's files (:func:`part_file`).
PART_SUFFIX = ".arrow"
_IPC_OPTIONS = pa.ipc.IpcWriteOptions(compression="lz4")
#: The file of a piece's summary in the work folder (:meth:`WorkFolder.commit_piece`).
PIECE_SUFFIX = ".piece"


@dataclass(slots=True)
class InputRows:
    """One input as the merge sees it: its ``files`` row and where its rows are.

    ``path``, ``format``, ``status``, ``boards``, ``errors``, ``warnings``,
    ``sha256``, ``nbytes``: the input's ``files`` row (``status`` one of
    :data:`handrec.inputs.entries.STATUSES`).  ``source``: a part's name, the
    old dataset's (:data:`_OLD`), or ``None`` (no rows but ``diagnostics``);
    ``rows[table] = (first row, count)`` in the source, for each of
    :data:`ROW_TABLES`; ``board_lo``: the ``board_id`` of its first board
    there.  ``status`` is ``"match"`` in a worker's answer when the input's
    hash matched a known one (the parent then finds its rows).

    ``amend``: what its event checks add to its boards' rows (:mod:`handrec.dataset.amend`).

    ``pieces``: an input read in parts (a big file split over the workers,
    :mod:`handrec.runs.parts`) has its rows in several sources, one after the
    other: ``(source, board_lo, rows)`` each, as above (the last one, its
    event checks and file diagnostics, has no boards, and its ``board_id``
    values count from the input's first board: its ``board_lo`` is the
    input's board count); ``source``, ``board_lo`` and ``rows`` then give the
    last piece's source and the totals (first rows 0).  :meth:`segments` gives
    the sources of either kind.
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
    pieces: tuple[tuple[str, int, dict[str, tuple[int, int]]], ...] = ()
    amend: tuple[Amendment, ...] = ()

    def segments(self) -> tuple[tuple[str, int, dict[str, tuple[int, int]]], ...]:
        """``(source, board_lo, rows)`` of each source of the input's rows, in order (none without rows)."""
        if self.pieces:
            return self.pieces
        if self.source is None or self.rows is None:
            return ()
        return ((self.source, self.board_lo, self.rows),)

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
            "pieces": [list(p) for p in self.pieces],
            "amend": [[k, e, w, list(codes)] for k, e, w, codes in self.amend],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], source: str) -> InputRows:
        rows = {t: (int(a), int(b)) for t, (a, b) in d["rows"].items()}
        pieces = tuple(
            (str(name), int(lo), {t: (int(a), int(b)) for t, (a, b) in r.items()})
            for name, lo, r in d.get("pieces", ())
        )
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
            pieces=pieces,
            amend=tuple((int(k), int(e), int(w), tuple(codes)) for k, e, w, codes in d.get("amend", ())),
        )


# =========================================================================================
# Parts
# =========================================================================================


def part_file(work: Path, part: str, table: str) -> Path:
    """The file of ``table``'s rows in the part ``part`` of the work folder ``work``."""
    return work / f"{part}.{table}{PART_SUFFIX}"


class PartWriter:
    """The files of one part in the work folder: :func:`part_file` for each of :data:`ROW_TABLES`
    that gets rows, in the Arrow IPC file format, lz4-compressed: a part is read once, by
    :func:`merge`, and the dataset's Parquet is written once, there (a part in Parquet cost
    about five times as much to write and to read back: issue #23.2; it takes about six times
    the disk, about 1.2 KB a board of generated files while the conversion runs).

    A context manager: the files are written under temporary names (``.tmp``) and renamed to
    their final ones when the ``with`` block ends without an exception, so a part's files
    exist only complete; after an exception they stay temporary (a resumed run deletes them).
    ``rows[table]``: the rows written so far.

    :raises OSError: when a file cannot be written.
    """

    def __init__(self, work: Path, part: str) -> None:
        self.work = work
        self.part = part
        self.rows = dict.fromkeys(ROW_TABLES, 0)
        self._writers: dict[str, tuple[Any, Any]] = {}  # table: (IPC writer, file)

    def write(self, table: str, batch: pa.RecordBatch) -> None:
        """Append ``batch`` (rows of ``table``, in its schema of :data:`SCHEMAS`); an empty one writes nothing."""
        if batch.num_rows:
            if table not in self._writers:
                sink = pa.OSFile(str(part_file(self.work, self.part, table)) + ".tmp", "wb")
                try:
                    writer = pa.ipc.new_file(sink, part_schema(table, SCHEMAS[table]), options=_IPC_OPTIONS)
                except BaseException:
                    sink.close()
                    raise
                self._writers[table] = (writer, sink)
            self._writers[table][0].write_batch(batch)
            self.rows[table] += batch.num_rows

    def __enter__(self) -> PartWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        for wr, sink in self._writers.values():
            try:
                wr.close()
            finally:
                sink.close()
        if exc_type is None:
            for t in self._writers:
                path = part_file(self.work, self.part, t)
                os.replace(str(path) + ".tmp", path)


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


class OldDataset:
    """The dataset already in the output folder, when its rows can be reused (see the module doc).

    ``by_path[path]``: the rows of each input that a conversion may take as they are
    (status ``unchanged``) when the input's SHA-256 still matches.  ``held``: every
    ``files`` row, in the dataset's order, with its status as written and where its rows
    are (``convert --append`` keeps those not given again); ``whole``: every one of them
    has its rows in one run of each table (else they cannot be kept).
    """

    def __init__(self, by_path: dict[str, InputRows], held: list[InputRows] | None = None, whole: bool = True) -> None:
        self.by_path = by_path
        self.held = held or []
        self.whole = whole

    @classmethod
    def open(cls, out: Path, dd_mode: str = "") -> OldDataset | None:
        """The reusable inputs of the dataset in ``out``, or ``None`` (no dataset, other version, mixed runs,
        converted with other double-dummy options: ``dd_mode``, as :func:`merge` records it)."""
        runs = set()
        try:
            for t in SCHEMAS:
                meta = pq.read_schema(out / f"{t}.parquet").metadata or {}
                if meta.get(b"handrec.dd", b"") != dd_mode.encode():
                    return None
                if meta.get(b"handrec.schema_version") != SCHEMA_VERSION.encode():
                    return None
                if meta.get(b"handrec.version") != __version__.encode():
                    return None
                runs.add(meta.get(b"handrec.run"))
            if len(runs) != 1 or None in runs:
                return None
            files = pq.read_table(out / "files.parquet").to_pylist()
            scans = {t: _scan_ranges(out / f"{t}.parquet", t == "boards") for t in ROW_TABLES}
        except (OSError, pa.ArrowException, KeyError):
            return None
        by_path: dict[str, InputRows] = {}
        held: list[InputRows] = []
        whole = True
        for f in files:
            path = f["source_file"]
            rows = {t: scans[t][0].get(path, (0, 0)) for t in ROW_TABLES}
            broken = any(path in scans[t][2] for t in ROW_TABLES) or rows["boards"][1] != f["boards_written"]
            whole = whole and not broken
            held.append(
                InputRows(
                    path, f["format"], f["status"], f["boards"], f["errors"], f["warnings"], f["sha256"],
                    f["bytes"], _OLD, scans["boards"][1].get(path, 0), rows,
                )
            )  # fmt: skip
            if f["status"] not in ("ok", "unchanged") or f["sha256"] is None:
                continue
            if broken:
                continue  # its rows are not in one run: do not trust them
            by_path[path] = InputRows(
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
        return cls(by_path, held, whole)


def held_inputs(out: Path) -> list[tuple[str, int]]:
    """``(path, boards written)`` of every ``files`` row of the dataset in ``out``, in its order
    (any handrec version); empty when there is none.

    :raises OSError: when ``files.parquet`` is there but cannot be read.
    """
    f = out / "files.parquet"
    if not f.is_file():
        return []
    try:
        t = pq.read_table(f, columns=["source_file", "boards_written"])
    except pa.ArrowException as e:
        raise OSError(f"cannot read {f}: {e}") from e
    return list(zip(t.column(0).to_pylist(), t.column(1).to_pylist()))


class WorkFolder:
    """The work folder ``out/.handrec-work`` (:data:`WORK_DIR`): parts and the manifest (see the module doc).

    Opened, it holds the inputs of the parts an interrupted run committed (``resume``
    and a manifest whose header matches this handrec and the dataset in ``out``), or
    nothing: a leftover folder is then deleted (``discarded``) and a new one made.

    :raises OSError: when the folder cannot be made or written.
    """

    def __init__(self, out: Path, resume: bool, dd_mode: str = "") -> None:
        header = {
            "handrec_work": _MANIFEST_FORMAT,
            "schema_version": SCHEMA_VERSION,
            "handrec_version": __version__,
            "dataset": _fingerprint(out),
            "dd": dd_mode,
        }
        root = out / WORK_DIR
        self.root = root
        self.by_path: dict[str, list[InputRows]] = {}
        #: ``pieces[(path, sha256, start, stop)]``: the name of a committed piece (:meth:`commit_piece`)
        self.pieces: dict[tuple[str, str, int, int], str] = {}
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
            if "piece" in rec:
                name = rec["piece"]
                files = [part_file(self.root, name, t) for t in rec["tables"]] + [self.root / f"{name}{PIECE_SUFFIX}"]
                if all(f.is_file() for f in files):
                    self.pieces[(rec["path"], rec["sha256"], *rec["span"])] = name
                continue
            part = rec["part"]
            if not all(part_file(self.root, part, t).is_file() for t in rec["tables"]):
                continue
            for d in rec["inputs"]:
                rows = InputRows.from_json(d, part)
                if all(
                    part_file(self.root, src, t).is_file()
                    for src, _, r in rows.pieces
                    for t, (_, count) in r.items()
                    if count
                ):
                    self.by_path.setdefault(d["path"], []).append(rows)
        return True

    def _append(self, record: dict[str, Any], new: bool = False) -> None:
        with open(self.root / _MANIFEST, "w" if new else "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def commit(self, part: str, done: list[InputRows]) -> None:
        """Record the inputs of a finished part that a resumed run could reuse."""
        keep = [d for d in done if d.source == part and d.sha256 is not None and d.status != "match"]
        if keep:
            tables = [t for t in ROW_TABLES if part_file(self.root, part, t).is_file()]
            self._append({"part": part, "tables": tables, "inputs": [d.to_json() for d in keep]})

    def commit_piece(self, name: str, path: str, sha256: str, span: tuple[int, int], summary: bytes) -> None:
        """Record a finished piece (one part of the input ``path`` with this SHA-256, character
        offsets ``span``), its ``summary`` (what the parent needs of it besides its rows,
        serialised by the caller) written to ``{name}.piece`` first: a resumed run reads that
        part no more (:attr:`pieces`, :meth:`piece_summary`)."""
        tmp = self.root / f"{name}{PIECE_SUFFIX}.tmp"
        with open(tmp, "wb") as f:
            f.write(summary)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.root / f"{name}{PIECE_SUFFIX}")
        tables = [t for t in ROW_TABLES if part_file(self.root, name, t).is_file()]
        self._append({"piece": name, "tables": tables, "path": path, "sha256": sha256, "span": list(span)})

    def piece_summary(self, name: str) -> bytes:
        """The ``summary`` given to :meth:`commit_piece` for the piece ``name``.

        :raises OSError: when it cannot be read.
        """
        return (self.root / f"{name}{PIECE_SUFFIX}").read_bytes()

    def find(self, path: str, sha256: str) -> InputRows | None:
        """The rows of the input ``path`` with this SHA-256 in a committed part, or ``None``."""
        for d in reversed(self.by_path.get(path, ())):
            if d.sha256 == sha256:
                return d
        return None


def refuse_foreign_tables(out: Path) -> None:
    """Refuse to write into ``out`` when it holds a ``{table}.parquet`` (a name of :data:`SCHEMAS`)
    that handrec did not write: not a regular Parquet file, or without ``handrec.schema_version``
    in its schema metadata (see :func:`handrec.dataset.tables.metadata`).  An empty folder, a handrec
    dataset (of any version) and other files are fine.

    Such a file is never overwritten, whatever the options (``--force``, ``--replace``): one that
    cannot be read (a handrec table cut short by a full disk, or another program's file) shows
    nothing of who wrote it, and handrec deletes only what it can tell it wrote.  The message
    names the way out, which is the user's to take: delete it or move it away.

    :raises FileExistsError: naming the first such file.
    """
    never = "not overwritten, even with --force or --replace"
    for t in SCHEMAS:
        f = out / f"{t}.parquet"
        if not os.path.lexists(f):
            continue
        meta: dict = {}
        if f.is_file():
            try:
                meta = pq.read_schema(f).metadata or {}
            except PermissionError:
                raise  # the folder's or file's permissions, not its content: said as such
            except (OSError, pa.ArrowException):
                raise FileExistsError(
                    f"{f} cannot be read as Parquet (damaged?), so nothing shows handrec wrote it: {never}; "
                    "delete it and convert again, or convert into another folder"
                ) from None
        if b"handrec.schema_version" not in meta:
            raise FileExistsError(
                f"{f} was not written by handrec convert (no handrec metadata): {never}; move it away, "
                "or convert into another folder"
            )
