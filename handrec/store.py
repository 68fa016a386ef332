"""Writing the Parquet dataset that ``handrec convert`` produces.

The dataset is a folder with one Parquet file per table of
:data:`handrec.arrow.SCHEMAS` (``boards.parquet``, ``calls.parquet``,
``plays.parquet``, ``diagnostics.parquet``, ``files.parquet``).  Each file
is written under a temporary name and renamed into place only when
complete, so a reader never sees a half-written table.  Rows are flushed
every ``batch_boards`` boards: memory stays bounded whatever the archive
size.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from handrec.arrow import SCHEMAS, TableBuffers, metadata
from handrec.diagnostics import Diagnostic, Severity
from handrec.reader import iter_inputs, read_input
from handrec.validator import analyse

__all__ = ["ConvertSummary", "convert"]


@dataclass
class ConvertSummary:
    """Counts of one conversion: every board read is in ``boards`` (and its
    faults in ``diagnostics``); ``files`` counts inputs read."""

    files: int = 0
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def convert(
    paths: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    batch_boards: int = 20000,
    on_progress: Callable[[str, int], None] | None = None,
) -> ConvertSummary:
    """Read every PBN/LIN input under ``paths`` and write the Parquet dataset to ``out_dir``.

    ``on_progress(path, boards_so_far)`` is called after each input.
    File-level faults (unreadable paths F001, unknown formats F004,
    encoding F002) land in the ``diagnostics`` table with a null
    ``board_id``.

    :raises OSError: when ``out_dir`` cannot be created or written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meta = metadata()
    tmp = {name: out / f".{name}.parquet.tmp" for name in SCHEMAS}
    writers = {
        name: pq.ParquetWriter(tmp[name], schema.with_metadata(meta), compression="zstd")
        for name, schema in SCHEMAS.items()
    }
    summary = ConvertSummary()
    buf = TableBuffers()
    errors: list[Diagnostic] = []
    try:

        def flush() -> None:
            for name in SCHEMAS:
                batch = buf.take(name)
                if batch.num_rows:
                    writers[name].write_batch(batch)

        for inp in iter_inputs(paths, errors):
            n = e = w = 0
            for board in read_input(inp):
                a = analyse(board)
                buf.add(a)
                n += 1
                e += a.errors
                w += a.warnings
                if buf.pending_boards >= batch_boards:
                    flush()
            for d in inp.diagnostics:
                buf.add_diagnostic(d, None)
                e += d.severity is Severity.ERROR
                w += d.severity is Severity.WARNING
            buf.add_file(inp.path, inp.format, n, e, w)
            summary.files += 1
            summary.boards += n
            summary.errors += e
            summary.warnings += w
            summary.diagnostics.extend(inp.diagnostics)
            if on_progress:
                on_progress(inp.path, summary.boards)
        for d in errors:
            buf.add_diagnostic(d, None)
            summary.unreadable += 1
            summary.diagnostics.append(d)
        flush()
    finally:
        for w_ in writers.values():
            w_.close()
    for name, t in tmp.items():
        os.replace(t, out / f"{name}.parquet")
    return summary
