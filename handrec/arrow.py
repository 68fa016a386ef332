"""Boards and diagnostics to Arrow tables: the schema of everything ``convert`` writes.

Tables (one Arrow schema each, :data:`SCHEMAS`):

* ``boards``: one row per game (a table's result of one board),
* ``calls``: one row per call, ``plays``: one row per card played,
* ``diagnostics``: one row per diagnostic (file-level ones have a null
  ``board_id``),
* ``files``: one row per input (file, compressed file or archive member,
  including those not read), with the counts that must add up:
  ``boards`` read from it and ``boards_written`` to ``boards`` (equal),
  ``errors``/``warnings`` (its rows in ``diagnostics``), ``status``
  (``ok``, ``unreadable``, ``skipped``, ``unchanged``), ``sha256`` of its
  bytes (decompressed; null when not read to the end) and ``bytes``.

Rows of one board share ``board_id`` (0-based, in reading order).  The
schema version is :data:`SCHEMA_VERSION`, written into each Parquet
file's metadata with the handrec version.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from handrec import __version__
from handrec.diagnostics import Diagnostic
from handrec.model import Board, Seat
from handrec.validator import Analysis, analyse

__all__ = ["SCHEMAS", "SCHEMA_VERSION", "TableBuffers", "to_arrow", "board_row"]

SCHEMA_VERSION = "2"

_str = pa.string()
_i16 = pa.int16()
_i32 = pa.int32()
_i64 = pa.int64()

SCHEMAS: dict[str, pa.Schema] = {
    "boards": pa.schema(
        [
            ("board_id", _i64),
            ("source_file", _str),
            ("source_line", _i32),
            ("board_index", _i32),
            ("format", pa.dictionary(pa.int8(), _str)),
            ("event", _str),
            ("site", _str),
            ("date", _str),
            ("scoring", _str),
            ("board", _i32),
            ("board_label", _str),
            ("room", _str),
            ("north", _str),
            ("east", _str),
            ("south", _str),
            ("west", _str),
            ("dealer", _str),
            ("vulnerable", _str),
            ("deal", _str),
            ("hcp_n", _i16),
            ("hcp_e", _i16),
            ("hcp_s", _i16),
            ("hcp_w", _i16),
            ("auction", _str),
            ("contract", _str),
            ("declarer", _str),
            ("result", _i16),
            ("score_ns", _i32),
            ("opening_lead", _str),
            ("cards_played", _i16),
            ("errors", _i16),
            ("warnings", _i16),
        ]
    ),
    "calls": pa.schema(
        [
            ("board_id", _i64),
            ("source_file", _str),
            ("call_index", _i16),
            ("seat", _str),
            ("call", _str),
            ("alert", pa.bool_()),
            ("annotation", _str),
        ]
    ),
    "plays": pa.schema(
        [
            ("board_id", _i64),
            ("source_file", _str),
            ("card_index", _i16),
            ("trick", _i16),
            ("position", _i16),
            ("seat", _str),
            ("card", _str),
            ("winner", _str),
        ]
    ),
    "diagnostics": pa.schema(
        [
            ("board_id", _i64),
            ("source_file", _str),
            ("line", _i32),
            ("column", _i32),
            ("code", _str),
            ("severity", _str),
            ("message", _str),
        ]
    ),
    "files": pa.schema(
        [
            ("source_file", _str),
            ("format", _str),
            ("boards", _i32),
            ("errors", _i32),
            ("warnings", _i32),
            ("boards_written", _i32),
            ("status", _str),
            ("sha256", _str),
            ("bytes", _i64),
        ]
    ),
}


def _s(v: object) -> str | None:
    return None if v is None else str(v)


def board_row(board_id: int, a: Analysis) -> dict[str, Any]:
    """The ``boards`` row of one analysed board (see :data:`SCHEMAS`).

    Contract, declarer and result are the replay's resolved values (the
    auction and play when complete, else the file's tags); an unknown value
    is null, never a guess.  A passed-out board has contract ``Pass``, null
    declarer and result, and ``score_ns`` 0.
    """
    b = a.board
    r = a.replay
    c = r.contract
    hcp: list[int | None] = [None] * 4
    if b.deal is not None:
        for seat in Seat:
            h = b.deal[seat]
            hcp[seat] = None if h is None else h.hcp
    lead = None
    if r.tricks and r.tricks[0].cards and r.tricks[0].cards[0] is not None:
        lead = str(r.tricks[0].cards[0])
    return {
        "board_id": board_id,
        "source_file": b.origin.path,
        "source_line": b.origin.line,
        "board_index": b.origin.index,
        "format": b.origin.format,
        "event": _blank(b.tag("Event")),
        "site": _blank(b.tag("Site")),
        "date": _blank(b.tag("Date")),
        "scoring": _blank(b.tag("Scoring")),
        "board": b.number,
        "board_label": b.tag("Board"),
        "room": _blank(b.tag("Room")),
        "north": _blank(b.tag("North")),
        "east": _blank(b.tag("East")),
        "south": _blank(b.tag("South")),
        "west": _blank(b.tag("West")),
        "dealer": _s(b.dealer),
        "vulnerable": _s(b.vulnerable),
        "deal": None if b.deal is None else str(b.deal),
        "hcp_n": hcp[0],
        "hcp_e": hcp[1],
        "hcp_s": hcp[2],
        "hcp_w": hcp[3],
        "auction": None if b.auction is None else str(b.auction),
        "contract": _s(c),
        "declarer": None if c is None or c.is_passed_out else _s(c.declarer),
        "result": None if c is not None and c.is_passed_out else r.result,
        "score_ns": r.score_ns,
        "opening_lead": lead,
        "cards_played": sum(1 for t in r.tricks for x in t.cards if x is not None),
        "errors": a.errors,
        "warnings": a.warnings,
    }


def _blank(v: str | None) -> str | None:
    """Tag values ``""`` and ``"?"`` (not applicable / unknown) become null."""
    return None if v is None or v in ("", "?") else v


class TableBuffers:
    """Column buffers for every table, flushed as Arrow record batches.

    ``add(analysis)`` appends the rows of one board; ``add_file_diagnostics``
    the file-level faults; ``take(name)`` returns and clears a table's
    buffered rows as a RecordBatch.  Memory is bounded by the caller
    flushing every ``batch_rows`` boards.
    """

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in SCHEMAS.items()
        }
        self.next_board_id = 0
        self.pending_boards = 0

    def _append(self, table: str, row: dict[str, Any]) -> None:
        cols = self.rows[table]
        for k, v in row.items():
            cols[k].append(v)

    def add(self, a: Analysis) -> int:
        """Append one analysed board's rows; returns its ``board_id``."""
        bid = self.next_board_id
        self.next_board_id += 1
        self.pending_boards += 1
        b = a.board
        path = b.origin.path
        self._append("boards", board_row(bid, a))
        if b.auction is not None:
            calls = self.rows["calls"]
            for i, call in enumerate(b.auction.calls):
                calls["board_id"].append(bid)
                calls["source_file"].append(path)
                calls["call_index"].append(i)
                calls["seat"].append(str(b.auction.seat_of(i)))
                calls["call"].append(str(call))
                calls["alert"].append(call.alert)
                calls["annotation"].append(call.annotation)
        plays = self.rows["plays"]
        k = 0
        for t in a.replay.tricks:
            for pos, card in enumerate(t.cards):
                plays["board_id"].append(bid)
                plays["source_file"].append(path)
                plays["card_index"].append(k)
                plays["trick"].append(t.number)
                plays["position"].append(pos + 1)
                plays["seat"].append(str(t.leader.offset(pos)))
                plays["card"].append(_s(card))
                plays["winner"].append(_s(t.winner))
                k += 1
        for d in a.diagnostics:
            self.add_diagnostic(d, bid)
        return bid

    def add_diagnostic(self, d: Diagnostic, board_id: int | None) -> None:
        """Append one diagnostic row."""
        self._append(
            "diagnostics",
            {
                "board_id": board_id,
                "source_file": d.path,
                "line": d.line,
                "column": d.column,
                "code": d.code,
                "severity": str(d.severity),
                "message": d.message,
            },
        )

    def add_file(
        self,
        path: str,
        fmt: str | None,
        boards: int,
        errors: int,
        warnings: int,
        *,
        boards_written: int | None = None,
        status: str = "ok",
        sha256: str | None = None,
        nbytes: int | None = None,
    ) -> None:
        """Append one ``files`` row (``boards_written`` defaults to ``boards``)."""
        self._append(
            "files",
            {
                "source_file": path,
                "format": fmt,
                "boards": boards,
                "errors": errors,
                "warnings": warnings,
                "boards_written": boards if boards_written is None else boards_written,
                "status": status,
                "sha256": sha256,
                "bytes": nbytes,
            },
        )

    def take(self, table: str) -> pa.RecordBatch:
        """The buffered rows of ``table`` as a RecordBatch; the buffer is cleared."""
        cols = self.rows[table]
        schema = SCHEMAS[table]
        batch = pa.RecordBatch.from_arrays([pa.array(cols[f.name], type=f.type) for f in schema], schema=schema)
        for v in cols.values():
            v.clear()
        if table == "boards":
            self.pending_boards = 0
        return batch


def metadata() -> dict[bytes, bytes]:
    """Parquet key-value metadata: schema and handrec versions."""
    return {b"handrec.schema_version": SCHEMA_VERSION.encode(), b"handrec.version": __version__.encode()}


def to_arrow(boards: Iterable[Board]) -> dict[str, pa.Table]:
    """The Arrow tables that ``handrec convert`` writes, for an iterable of boards.

    Returns ``{"boards", "calls", "plays", "diagnostics"}`` tables (see
    :data:`SCHEMAS`); each board is replayed once.

    >>> import io
    >>> from handrec.reader import read
    >>> t = to_arrow(read(io.StringIO('[Board "2"]\\n[Dealer "E"]\\n[Vulnerable "NS"]\\n[Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n')))
    >>> t["boards"].select(["board", "contract", "declarer", "result", "score_ns"]).to_pylist()
    [{'board': 2, 'contract': '4S', 'declarer': 'N', 'result': 10, 'score_ns': 620}]
    """
    buf = TableBuffers()
    for b in boards:
        buf.add(analyse(b))
    return {name: pa.Table.from_batches([buf.take(name)]) for name in ("boards", "calls", "plays", "diagnostics")}
