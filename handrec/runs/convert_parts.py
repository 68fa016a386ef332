"""Big files converted in parts: each worker writes one part of a file, the parent puts the input together.

:func:`handrec.runs.convert.convert` splits a big plain PBN or LIN file as
``handrec validate --jobs`` does (where, and when not: :mod:`handrec.runs.parts`;
a PBN file whose bytes hold ``"#``, the ``#``/``##`` tag inheritance of PBN
2.1 §4.8, is never split).  A worker reads one part (:func:`run_piece`: the
``part`` of :func:`handrec.formats.dispatch.read_input`) and writes its rows to a
part of its own in the work folder (:class:`handrec.dataset.store.PartWriter`,
``board_id`` counted from 0 in the part), the rows built by the loop every
task runs (:func:`read_rows`); it sends back a :class:`PieceResult`: counts,
the game records of its boards (for the input's claimed-figure checks, which
need every board of the input) and the file diagnostics of its reading.

The parent (:class:`Parted`) takes the pieces in order, and after the last
one writes the input's own rows -- its event checks (S603-S616) and its
file diagnostics, in the order one reading of the whole file finds them
(:func:`handrec.runs.validate._merge`) -- to one more small part, the
input's *tail*: the input's rows are then the pieces' rows one after the
other, then the tail's (:attr:`handrec.dataset.store.InputRows.pieces`), and
the merge renumbers ``board_id`` as for any input, so the dataset is the
same, row for row, as one worker reading the whole file.

**Resume.**  Each piece is recorded in the work folder's manifest as it is
taken (:meth:`handrec.dataset.store.WorkFolder.commit_piece`), with the SHA-256
of the file (hashed by the parent before the file is split) and the part's
bounds; its :class:`PieceResult` is kept beside its rows (:func:`dump_piece`,
read back by :func:`load_piece`, which builds only handrec's own data
classes).  ``--resume`` then reads only the parts not recorded (with the same
``--jobs``: the bounds depend on it), and an input whose every piece and tail
were committed is reused whole.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handrec.dataset.amend import Amendment, amendments
from handrec.dataset.store import ROW_TABLES, InputRows, PartWriter
from handrec.dataset.tables import TableBuffers
from handrec.diagnostics import STRICT_CODES, Diagnostic, Severity, make
from handrec.events.checks import EventChecker
from handrec.events.games import GameRecord, record
from handrec.formats.dispatch import read_input
from handrec.inputs.sources import Input
from handrec.inputs.status import entry_status
from handrec.model import Board
from handrec.rules.validator import analyse
from handrec.runs.progress import note
from handrec.runs.validate import _merge, _ParserDiagnostics

__all__ = ["PieceJob", "PieceResult", "Parted", "EventRecords", "read_rows", "run_piece", "dd_rows", "counts"]


def dd_rows(spec: tuple[str | None, int | None, bool] | None) -> Any:
    """The :class:`handrec.dd.rows.DDRows` of a task's ``dd`` (cache folder, D214 margin, leads), or ``None``."""
    if spec is None:
        return None
    from handrec.dd.rows import DDRows

    return DDRows(spec[0], margin=spec[1], leads=spec[2])


def read_rows(
    boards: Iterator[Board],
    buf: TableBuffers,
    flush: Callable[[], None],
    batch_boards: int,
    dd: Any,
    keep: Callable[[int, Board, GameRecord], None],
) -> tuple[int, int, int, Exception | None, list[Diagnostic]]:
    """Analyse every board of ``boards`` and add its rows to ``buf`` (``flush()`` every ``batch_boards``).

    ``dd``: a :class:`handrec.dd.rows.DDRows` (``convert --dd``) or ``None``; ``keep(n, board,
    record)`` is called for the ``n``-th board (1-based) once its rows are added, with its game
    record (:func:`handrec.events.games.record`, made once: the event checks' and some of
    the ``boards`` row's values).  Returns the
    boards read, the errors and warnings of their rows, the exception that ended the reading
    (a bug in handrec: F015; the boards before it are kept) and the boards' F016 diagnostics
    (over the size limit: echoed by ``handrec convert``, as by ``validate``).
    """
    n = e = w = 0
    big: list[Diagnostic] = []
    failure: Exception | None = None
    held: dict[int, GameRecord] = {}  # with dd: the records of the boards the solver holds, by id(board)
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
        if board.diagnostics:  # a board over the size limit is echoed, and exits 2, as in validate
            big.extend(d for d in board.diagnostics if d.code == "F016")
        rec = record(board, a.replay)
        if dd is None:
            buf.add(a, None, rec)
            if a.diagnostics:
                e += a.errors
                w += a.warnings
        else:
            held[id(board)] = rec
            for a_, dd_row in dd.push(a):
                buf.add(a_, dd_row, held.pop(id(a_.board), None))
                e += a_.errors
                w += a_.warnings
        keep(n, board, rec)
        if buf.pending_boards >= batch_boards:
            flush()
    for a_, dd_row in dd.drain() if dd is not None else ():  # the input's last boards
        buf.add(a_, dd_row, held.pop(id(a_.board), None))
        e += a_.errors
        w += a_.warnings
    return n, e, w, failure, big


def counts(d: Diagnostic) -> tuple[int, int]:
    """``(errors, warnings)`` that one diagnostic row adds to its input's ``files`` row (as validate counts)."""
    return int(d.severity is Severity.ERROR), int(d.severity is Severity.WARNING and d.code not in STRICT_CODES)


def failure_diagnostic(path: str, failure: Exception | str) -> Diagnostic:
    """The F015 of an input whose reading a bug ended (as validate reports it)."""
    text = failure if isinstance(failure, str) else f"{type(failure).__name__}: {failure}"
    return make("F015", None, None, path=path, error=text)


class EventRecords:
    """The game records of one input for its event checks (S603-S616), kept as ``handrec
    validate`` keeps them (:class:`handrec.events.checks.EventChecker`: in memory up to its
    bound, then on disk, so every input is checked whole whatever its size, with the
    diagnostics validate reports)."""

    def __init__(self) -> None:
        self._checker: EventChecker | None = EventChecker()
        #: What the checks add to their boards' rows, once :meth:`finish` has run (:mod:`handrec.dataset.amend`).
        self.amend: tuple[Amendment, ...] = ()

    @property
    def wanted(self) -> bool:
        """Whether the next board's record is wanted (not once the input's reading failed)."""
        return self._checker is not None

    def add(self, n: int, r: GameRecord) -> None:
        """The record of the input's ``n``-th board (1-based)."""
        if self._checker is not None:
            self._checker.add_record(r)

    def drop(self) -> None:
        """Forget the records: the input's reading failed (F015), so it is not checked, as in validate."""
        self._checker = None  # a spill's temporary database goes with it

    def finish(self, path: str, n: int, buf: TableBuffers, lo: int) -> tuple[int, int]:
        """Add the input's event checks (``board_id`` from ``lo``) to ``buf``; their errors, warnings."""
        e = w = 0
        checker, self._checker = self._checker, None
        if checker is not None:
            found = checker.finish()
            for d in found:
                buf.add_diagnostic(d, lo + d.board if d.board is not None and 0 <= d.board < n else None)
                e, w = e + counts(d)[0], w + counts(d)[1]
            self.amend = amendments(found, n)
        return e, w


# =========================================================================================
# A worker: one part of a file
# =========================================================================================


@dataclass
class PieceJob:
    """A part of a big file for a worker: read ``inp``'s characters ``span`` into the part ``part`` in ``work``.

    ``last``: the file's last part (it reads to the end: its reading hashes the bytes);
    ``batch_boards``, ``dd``: as :class:`handrec.runs.convert._Job`; ``slot``: where the
    worker says how far it has read (:func:`handrec.runs.progress.note`), or ``None``.
    """

    part: str
    work: str
    inp: Input
    span: tuple[int, int]
    last: bool
    batch_boards: int
    dd: tuple[str | None, int | None, bool] | None = None
    slot: int | None = None


@dataclass
class PieceResult:
    """What the parent needs of one part besides its rows (they are in the part ``part``).

    ``boards``, ``errors``, ``warnings``: of its boards' rows; ``rows[table] = (0, count)``;
    ``records``: the game record of each board read (but a failing one); ``reading``: the
    diagnostics of the reading itself up to where this part stopped (F001, F002, F010,
    F013), ``parser`` the parser's file diagnostics of its games and ``marks[i]`` how many
    ``reading`` ones came before ``parser[i]`` (as :class:`handrec.runs.validate._PartResult`);
    ``failure``: the text of an F015 (the file's reading ends there); ``big``: its boards'
    F016; ``sha256``, ``nbytes``: of the file, by the last part's reading.
    """

    part: str
    boards: int
    errors: int
    warnings: int
    rows: dict[str, tuple[int, int]]
    records: list[GameRecord] = field(default_factory=list)
    reading: list[Diagnostic] = field(default_factory=list)
    parser: list[Diagnostic] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    failure: str | None = None
    big: list[Diagnostic] = field(default_factory=list)
    sha256: str | None = None
    nbytes: int = 0


def run_piece(job: PieceJob) -> PieceResult:
    """Read one part of a file and write its rows to the job's part (in a worker, or in the parent)."""
    inp = dataclasses.replace(job.inp, diagnostics=[])  # the task's Input stays as it came
    part = PartWriter(Path(job.work), job.part)
    buf = TableBuffers()
    parser = _ParserDiagnostics(inp.diagnostics)
    records: list[GameRecord] = []

    def flush() -> None:
        for t in ROW_TABLES:
            part.write(t, buf.take(t))

    with part:
        boards = read_input(inp, part=job.span, file_diagnostics=parser, digest=job.last)
        start = job.span[0]

        def keep(n: int, board: Board, rec: GameRecord) -> None:
            records.append(rec)
            note(job.slot, max(board.origin.offset - start, 0), n)  # (characters, about bytes)

        n, e, w, failure, big = read_rows(boards, buf, flush, job.batch_boards, dd_rows(job.dd), keep)
        flush()
    why = None if failure is None else f"{type(failure).__name__}: {failure}"
    rows = {t: (0, part.rows[t]) for t in ROW_TABLES}
    return PieceResult(
        job.part, n, e, w, rows, records, inp.diagnostics, list(parser), parser.marks, why, big, inp.sha256, inp.nbytes
    )


# =========================================================================================
# The parent: the pieces of one input put together
# =========================================================================================


class Parted:
    """One input read in ``count`` parts, put together in the parent piece by piece (in order).

    :meth:`add` takes each piece's result; once the last one (or one that failed) is in,
    :meth:`finish` writes the input's tail and gives its :class:`~handrec.dataset.store.InputRows`.
    ``sha256``: the file's, hashed before it was split (the key of its pieces in the manifest);
    """

    def __init__(self, inp: Input, count: int, sha256: str | None) -> None:
        self.inp = inp
        self.count = count
        self.sha256 = sha256
        self.pieces: list[tuple[str, int, dict[str, tuple[int, int]]]] = []
        self.boards = self.errors = self.warnings = 0
        self.events = EventRecords()
        self.reading: list[Diagnostic] = []
        self.parser: list[Diagnostic] = []
        self.marks: list[int] = []
        self.big: list[Diagnostic] = []
        self.failure: str | None = None
        self.last: PieceResult | None = None
        self.complete = False

    def add(self, res: PieceResult) -> bool:
        """Take the next piece; ``True`` when the input is complete (the last piece, or a failure:
        the pieces after one that failed are not taken)."""
        if self.complete:
            return False
        self.pieces.append((res.part, 0, res.rows))
        ev = self.events
        for r in res.records:
            self.boards += 1
            if ev.wanted:
                ev.add(self.boards, r)
        self.boards += res.boards - len(res.records)  # a board whose analysis failed has no record
        self.errors += res.errors
        self.warnings += res.warnings
        self.reading = res.reading  # a later part's reading has read the earlier parts' too
        self.parser.extend(res.parser)
        self.marks.extend(res.marks)
        self.big.extend(res.big)
        self.last = res
        self.complete = res.failure is not None or len(self.pieces) == self.count
        if res.failure is not None:
            self.failure = res.failure
        return self.complete

    def finish(self, work: Path, tail: str) -> tuple[InputRows, list[Diagnostic]]:
        """Write the input's tail (its event checks and file diagnostics) to the part ``tail``;
        the input's rows and the file diagnostics for the run's summary (its F016 first)."""
        inp, n = self.inp, self.boards
        diags = _merge(self.reading, self.parser, self.marks)
        if self.failure is not None:
            diags.append(failure_diagnostic(inp.path, self.failure))
            self.events.drop()
        elif n == 0 and not any(d.severity is Severity.ERROR for d in diags):
            diags.append(make("F018", None, None, path=inp.path, format=(inp.format or "pbn").upper()))  # as read_input
        buf = TableBuffers()
        e, w = self.events.finish(inp.path, n, buf, 0)  # board ids from the input's first: the tail's board_lo is n
        for d in diags:
            buf.add_diagnostic(d, None)
            e, w = e + counts(d)[0], w + counts(d)[1]
        writer = PartWriter(work, tail)
        with writer:
            for t in ROW_TABLES:
                writer.write(t, buf.take(t))
        pieces = (*self.pieces, (tail, n, {t: (0, writer.rows[t]) for t in ROW_TABLES}))
        totals = {t: (0, sum(r[t][1] for _, _, r in pieces)) for t in ROW_TABLES}
        last = self.last
        sha = last.sha256 if last is not None and self.failure is None else None
        status = entry_status((d.code for d in diags), read=True)
        rows = InputRows(
            inp.path,
            inp.format,
            status,
            n,
            self.errors + e,
            self.warnings + w,
            sha,
            last.nbytes if sha else None,  # type: ignore[union-attr]
            tail,
            0,
            totals,
            pieces=pieces,
            amend=self.events.amend,
        )
        return rows, [*self.big, *diags]


# =========================================================================================
# A piece's result in the work folder (resume)
# =========================================================================================

#: The modules whose classes a piece's summary may hold: handrec's own data (records, diagnostics).
_SAFE_MODULES = ("handrec.model", "handrec.events.games", "handrec.diagnostics", "handrec.runs.convert_parts")
_SAFE_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "str", "int", "bool", "bytes", "slice"})


class _Unpickler(pickle.Unpickler):
    """Builds only the classes of :data:`_SAFE_MODULES` (a work folder is data, never code to run)."""

    def find_class(self, module: str, name: str) -> Any:
        safe = module.split(".")[0] == "handrec" and module.startswith(_SAFE_MODULES) and not name.startswith("__")
        if safe or (module == "builtins" and name in _SAFE_BUILTINS):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"not a piece's data: {module}.{name}")


def dump_piece(res: PieceResult) -> bytes:
    """A piece's result as the work folder keeps it (read back by :func:`load_piece`)."""
    return pickle.dumps(res, protocol=pickle.HIGHEST_PROTOCOL)


def load_piece(data: bytes) -> PieceResult | None:
    """:func:`dump_piece` undone; ``None`` when ``data`` is not a piece's result (the part is then read again)."""
    try:
        res = _Unpickler(io.BytesIO(data)).load()
    except Exception:  # damaged, or not ours: the part is read again
        return None
    return res if isinstance(res, PieceResult) else None
