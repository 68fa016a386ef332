"""The merge: a dataset's final Parquet tables written from the parts and the old dataset's rows.

The second half of :mod:`handrec.dataset.store` (its module doc tells the layout, the parts,
the work folder and the reuse of old rows): :func:`merge` reads each table's rows input by
input, in input order -- from the parts (:class:`~handrec.dataset.store.PartWriter`'s Arrow
IPC files) or from the dataset already in the folder -- renumbers ``board_id``, adds the event
checks' verdicts to the ``boards`` rows (:mod:`handrec.dataset.amend`), and writes each table
once, under a temporary name renamed into place at the end.
"""

from __future__ import annotations

import bisect
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from handrec.dataset.amend import amend_boards
from handrec.dataset.coded import CODED, arrow_schema_metadata, coded, part_schema
from handrec.dataset.store import (
    _OLD,
    DICTIONARY_COLUMNS,
    ROW_TABLES,
    InputRows,
    part_file,
    statistics_columns,
)
from handrec.dataset.tables import RENAMED, SCHEMAS, TableBuffers, metadata

__all__ = ["merge"]


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


class _PartSource:
    """Row ranges of one part's file (:class:`PartWriter`), asked for in order: each record batch is
    read once (a range before the last one read starts the file again)."""

    def __init__(self, path: Path) -> None:
        self.file = pa.memory_map(str(path))
        self.reader = pa.ipc.open_file(self.file)
        self.index = -1  # the batch read last, and the row it starts at
        self.start = 0
        self.batch: pa.RecordBatch | None = None

    def rows(self, start: int, count: int) -> Iterator[pa.Table]:
        end = start + count
        if self.batch is None or start < self.start:
            self.index, self.start, self.batch = 0, 0, self.reader.get_batch(0)
        while start < end:
            stop = self.start + self.batch.num_rows
            if start >= stop:
                self.index += 1
                self.start, self.batch = stop, self.reader.get_batch(self.index)
                continue
            hi = min(end, stop)
            yield pa.Table.from_batches([self.batch.slice(start - self.start, hi - start)])
            start = hi

    def close(self) -> None:
        self.batch = None
        self.file.close()


class _TableWriter:
    """A Parquet writer of ``table`` in the dataset's ``schema`` (with its metadata) that cuts row
    groups of exactly ``row_group_rows`` rows (the last may be short).  Rows come in
    :func:`~handrec.dataset.coded.part_schema` (the parts') or the dataset's schema (an older
    dataset's rows); a file of coded columns carries the dataset's schema as ``ARROW:schema``."""

    def __init__(self, path: Path, table: str, schema: pa.Schema, row_group_rows: int, dictionary: list[str]) -> None:
        self.table = table
        self.schema = part_schema(table, schema)
        self.coded = table in CODED
        self.rg = row_group_rows
        self.writer = pq.ParquetWriter(
            path,
            self.schema,
            compression="zstd",
            use_dictionary=dictionary,
            write_statistics=statistics_columns(schema),
            store_schema=not self.coded,
        )
        if self.coded:
            self.writer.add_key_value_metadata(arrow_schema_metadata(schema))
        self.buf: list[pa.Table] = []
        self.n = 0

    def write(self, t: pa.Table | pa.RecordBatch) -> None:
        if t.num_rows:
            if isinstance(t, pa.RecordBatch):
                t = pa.Table.from_batches([t])
            self.buf.append((coded(self.table, t) if self.coded else t).cast(self.schema))
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


def merge(
    out: Path,
    work: Path,
    order: list[InputRows],
    run_id: str,
    row_group_rows: int,
    dd_mode: str = "",
    finish: Callable[[dict[str, Path], dict[bytes, bytes]], None] | None = None,
) -> None:
    """Write the final tables of the dataset in ``out`` from the parts in ``work`` and the old dataset, in input order.

    ``order``: every input, in input order (its ``files`` row, and where its rows are);
    ``run_id``: written to every table's metadata (``handrec.run``); ``row_group_rows``:
    rows per row group.  ``board_id`` is renumbered from 0 in that order.  Each table is
    written to ``out/.NAME.parquet.tmp``, fsynced, and renamed into place (see the module doc).
    The tables built from the others (``deals``) are written empty, then ``finish(tmp_paths,
    metadata)`` may write them (``convert --dd``: :func:`handrec.dataset.deals.write_deals`)
    before the renames; ``dd_mode`` (the double-dummy options) goes into the metadata
    (``handrec.dd``), so that a conversion with other options does not reuse the rows.

    :raises OSError: when a table cannot be written.
    """
    tmp = {t: out / f".{t}.parquet.tmp" for t in SCHEMAS}
    try:
        _write_tables(out, work, order, run_id, row_group_rows, dd_mode, finish, tmp)
    except BaseException:  # Ctrl-C or a fault before the renames: no temporary table is left behind
        for p in tmp.values():
            p.unlink(missing_ok=True)
        raise
    for t in SCHEMAS:
        os.replace(tmp[t], out / f"{t}.parquet")
    _drop_renamed(out)
    _fsync(out)


def _write_tables(
    out: Path,
    work: Path,
    order: list[InputRows],
    run_id: str,
    row_group_rows: int,
    dd_mode: str,
    finish: Callable[[dict[str, Path], dict[bytes, bytes]], None] | None,
    tmp: dict[str, Path],
) -> None:
    """:func:`merge`'s tables, written (and fsynced) under their temporary names ``tmp``."""
    meta = {**metadata(), b"handrec.run": run_id.encode(), b"handrec.dd": dd_mode.encode()}
    for t in ROW_TABLES:
        writer = _TableWriter(tmp[t], t, SCHEMAS[t].with_metadata(meta), row_group_rows, DICTIONARY_COLUMNS[t])
        sources: dict[str, _RowSource | _PartSource] = {}
        try:
            base = 0
            for d in order:
                if d.source is not None and d.rows is not None:
                    at = base  # the board_id of the piece's first board
                    amend = {base + a[0]: a for a in d.amend} if t == "boards" else {}
                    for source, board_lo, rows in d.segments():
                        start, count = rows[t]
                        if count:
                            src = sources.get(source)
                            if src is None:
                                for name in [n for n in sources if n != _OLD]:
                                    sources.pop(name).close()  # parts are read in order: one open at a time
                                if source == _OLD:
                                    src = sources[source] = _RowSource(out / f"{t}.parquet")
                                else:
                                    src = sources[source] = _PartSource(part_file(work, source, t))
                            for chunk in src.rows(start, count):
                                chunk = _shift(chunk, at - board_lo)
                                writer.write(amend_boards(chunk, amend) if amend and source != _OLD else chunk)
                        at += rows["boards"][1]
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
        tmp["files"], "files", SCHEMAS["files"].with_metadata(meta), row_group_rows, DICTIONARY_COLUMNS["files"]
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
        if t not in ROW_TABLES and t != "files":
            pq.write_table(SCHEMAS[t].empty_table().replace_schema_metadata(meta), tmp[t])
    if finish is not None:
        finish(tmp, meta)
    for t in SCHEMAS:
        _fsync(tmp[t])


def _drop_renamed(out: Path) -> None:
    """Remove an older dataset's file of a table renamed since (:data:`~handrec.dataset.tables.RENAMED`:
    ``tables.parquet``, now ``supplemental.parquet``), so the folder holds one dataset; only a file
    handrec wrote (its ``handrec.schema_version`` metadata), never another one of that name."""
    for old in RENAMED.values():
        f = out / f"{old}.parquet"
        try:
            if f.is_file() and not f.is_symlink() and b"handrec.schema_version" in (pq.read_schema(f).metadata or {}):
                f.unlink()
        except (OSError, pa.ArrowException):
            pass  # not Parquet, or gone: not handrec's to remove
