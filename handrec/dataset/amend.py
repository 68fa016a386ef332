"""The event checks' diagnostics in the ``boards`` rows they belong to.

The checks of a file's claimed figures against its travellers and score tables (S603-S617,
:class:`handrec.events.checks.EventChecker`) run when the file has been read, after its
boards' rows were written (a big file's rows are in parts by then).  Each such diagnostic is
still its board's: ``boards.errors``, ``warnings``, ``faults`` and ``status`` count every row
of ``diagnostics`` with the board's id (docs/sql.md).  The reading hands the merge an
:data:`Amendment` a board, and :func:`amend_boards` adds them to the rows as they are copied
into ``boards.parquet``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pyarrow as pa

from handrec.diagnostics import STRICT_CODES, Diagnostic, Severity

__all__ = ["Amendment", "amendments", "amend_boards"]

#: ``(board, errors, warnings, codes)``: the board's index in its input (0-based), the errors and
#: warnings the event checks add to its row, and the codes of those errors, each once, in order.
Amendment = tuple[int, int, int, tuple[str, ...]]


def amendments(diagnostics: Iterable[Diagnostic], boards: int) -> tuple[Amendment, ...]:
    """The :data:`Amendment` of each board of an input of ``boards`` boards that ``diagnostics``
    (the input's event checks: :attr:`Diagnostic.board` its index) name, in board order.

    Warnings are counted as ``boards.warnings`` counts them: not those of :data:`STRICT_CODES`."""
    by_board: dict[int, list] = {}
    for d in diagnostics:
        if d.board is None or not 0 <= d.board < boards:
            continue
        a = by_board.setdefault(d.board, [0, 0, []])
        if d.severity is Severity.ERROR:
            a[0] += 1
            if d.code not in a[2]:
                a[2].append(d.code)
        elif d.severity is Severity.WARNING and d.code not in STRICT_CODES:
            a[1] += 1
    return tuple((k, e, w, tuple(codes)) for k, (e, w, codes) in sorted(by_board.items()) if e or w)


def amend_boards(t: pa.Table, by_id: Mapping[int, Amendment]) -> pa.Table:
    """``t`` (rows of ``boards``, ids consecutive) with the amendments ``by_id`` (by ``board_id``)
    that fall in it added: ``errors`` and ``warnings`` summed, ``faults`` extended by the codes it
    lacks, ``status`` ``faulty`` when the row has an error."""
    n = t.num_rows
    if not n or not by_id:
        return t
    first = t.column("board_id")[0].as_py()
    hits = [(i - first, a) for i, a in by_id.items() if 0 <= i - first < n]
    if not hits:
        return t
    cols = {name: t.column(name).to_pylist() for name in ("errors", "warnings", "faults", "status")}
    for i, (_, e, w, codes) in hits:
        cols["errors"][i] += e
        cols["warnings"][i] += w
        cols["faults"][i] = [*cols["faults"][i], *(c for c in codes if c not in cols["faults"][i])]
        if cols["errors"][i]:
            cols["status"][i] = "faulty"
    for name, values in cols.items():
        at = t.schema.get_field_index(name)
        t = t.set_column(at, t.schema.field(at), pa.array(values, t.schema.field(at).type))
    return t
