"""The engine of ``handrec validate``: every input checked, in one process or over a process pool.

:func:`validate_paths` lists the inputs under some paths (files, folders,
zip and tar archives, compressed files, ``-`` for standard input: see
:func:`handrec.inputs.entries.iter_entries`), reads every board, replays it against the
Laws and the scorer (:func:`handrec.rules.validator.analyse`: deal, auction, play,
contract, result, score), checks the figures each input claims about its
event (:class:`handrec.events.checks.EventChecker`: ScoreMP, ScoreIMP,
ScorePercentage, ScoreRubber, ScoreTable, TotalScoreTable, S603-S609; a pair
playing a board twice, S612 / Law 15A), optionally the double-dummy values
(:func:`handrec.dd.solver.check_boards`, D210-D213), and yields one
:class:`InputReport` per input, in input order: exactly what ``handrec
validate`` prints, the same whatever ``jobs``.

**One process or a pool.**  With ``jobs`` 1, with ``dd``, or when the
inputs are few and small (under ``pool_bytes`` in all, or a single input
that is not split), everything runs here, board by board, as a stream:
stopping early (``max_errors``) reads no further.  Otherwise a process pool
(:func:`handrec.runs.pool.start_pool`, the one ``handrec convert`` starts) reads
the inputs: consecutive small inputs grouped into tasks of about
``task_bytes``, and a big PBN or LIN file split into parts (below).  A
worker sends back, per board, only what this process needs: the board's
diagnostics (as reported: ``strict`` applied by the worker, and each one a plain
tuple, which pickles and unpickles several times faster than the dataclass and
its enum: on a file with a warning on every board, what the parent spent per
diagnostic made two processes slower than one), its board number and its
:class:`~handrec.events.games.GameRecord` (for the event checks, which run here over
all the boards of the input); never the :class:`~handrec.model.Board`.  About ``2 * jobs`` tasks are in flight (once
more than that are waiting, the oldest is waited for) and their results are
consumed in input order, so memory stays bounded on a huge archive (beside
the one record per board of the input being checked, which one process keeps
too).  The stopping point of ``max_errors`` is counted in input order exactly
as in one process; work the workers did past it is dropped.  A run that may
stop early (``max_errors``) reads its first task (whole inputs, or the first
part of a split file) here, board by board, while the workers read the next
ones, so that errors at the start stop it as soon as one process would; once
it has stopped, the workers' tasks are interrupted
(:func:`handrec.runs.pool.stop_pool`; a forked worker also looks at
:data:`_stop_event`), not waited for.  Inputs that
cannot travel to another process (a big member streamed from a tar archive)
are read here as soon as they are listed, and reported in their turn.

**Parts.**  A big plain PBN or LIN file is read in parts, each by one task
(where it is cut, and the sizes: :mod:`handrec.runs.parts`).  The boards and file diagnostics of the parts,
put together in order, are those of the whole file (same lines, offsets and
board indexes); the reading's own diagnostics (F001, F002, F010, F013) come
from the part being reported (the last part reads the whole file), each
parser diagnostic keeps its place among them, a LIN header's faults come
from the part that holds the record after the header, and what the parser
finds after the last game comes from the part that holds that game.

Which diagnostics a report holds, and in which order, per input: each
board's (as it is read), then the input's event checks, then (``dd``) the
double-dummy checks, then the input's file-level faults.  With
``max_errors`` N the reports are those of the whole run cut right after the
N-th error, in that order: nothing after it is reported or counted (not the
rest of that board's diagnostics, nor its input's event checks or file-level
faults, nor any later input), so exactly N errors are reported; the boards
counted are those read up to the one with the N-th error (the last report's
``boards``), whatever ``jobs``.  ``strict``: the
codes that the standard lets readers skip (unknown tags...) are reported, as
warnings at least; without it they are dropped.  A fault that is a bug in
handrec rather than in the input is reported as F015 and the input's
reading ends there.
"""

from __future__ import annotations

import dataclasses
import os
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator

# BrokenExecutor, not concurrent.futures.process.BrokenProcessPool (its only kind here):
# that module imports multiprocessing, which only a run with a pool needs (handrec.runs.pool)
from concurrent.futures import BrokenExecutor, Executor, Future
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

from handrec.diagnostics import CODES, Diagnostic, Severity, make
from handrec.events.checks import EventChecker
from handrec.events.games import GameRecord, record
from handrec.formats.dispatch import read_input
from handrec.inputs.entries import iter_entries, total_bytes
from handrec.inputs.limits import DEFAULT_LIMITS, Limits
from handrec.inputs.sources import Input, close_archives
from handrec.rules import validator
from handrec.runs import parts, progress
from handrec.runs.parts import _Task
from handrec.runs.pool import result as wait_result
from handrec.runs.pool import run_stoppable
from handrec.runs.progress import RunProgress, Throttle, note

__all__ = ["Finding", "InputReport", "validate_paths"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic as ``handrec validate`` reports it.

    ``diagnostic``: with its severity as reported (``--strict`` raises the
    codes the standard lets readers skip to warnings); ``board_number``: the
    Board number of the board at ``diagnostic.board`` in its input (JSON
    ``board_number``), ``None`` for a fault of a whole input or when the
    board has no number.
    """

    diagnostic: Diagnostic
    board_number: Any = None


@dataclass(slots=True)
class InputReport:
    """What ``handrec validate`` reports for one input, or for one entry that is not read.

    ``path``: as shown in diagnostics (``archive.zip!inner/x.pbn`` for a
    member).  ``is_input``: ``True`` for an input read (``handrec validate``
    counts it among the files), ``False`` for a path or archive member that
    is not read (missing, refused by a limit or as unsafe: F001, F008-F010,
    F014), whose one finding says why.  ``boards``: the boards read.
    ``findings``: every diagnostic, in output order (see the module doc),
    shown or not (``--no-warnings`` and ``--info`` only filter what is
    printed).  ``errors``, ``warnings``: the findings of those severities.
    ``stopped``: ``max_errors`` was reached with this report, the last one.
    """

    path: str
    is_input: bool
    boards: int = 0
    findings: list[Finding] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    stopped: bool = False


# =========================================================================================
# Reading (in a worker or in this process)
# =========================================================================================


class _Item(NamedTuple):
    """One board read (what the parent needs of it), or a failure that ends the input's reading.

    ``mark``: how many of the input's diagnostics existed when the board was
    read (for a part: of the reading's own, see :class:`_PartResult`; ``pmark``:
    the part's parser diagnostics so far): where one reading of the input
    found its file-level faults (the tests check the parts against it).
    ``read``: a board was read (and counted).  ``diagnostics``: the board's,
    as reported (:func:`_prepare`: ``strict`` applied); on their way from a
    worker, packed (:func:`_pack`).  ``failure``: the text of an F015 (a bug,
    not an input fault): the input's reading ends here.  ``board``: the board
    itself, only in this process (``--dd``).
    """

    mark: int
    read: bool
    number: Any = None
    diagnostics: tuple[Any, ...] = ()
    record: GameRecord | None = None
    failure: str | None = None
    board: Any = None
    pmark: int = 0


class _InputResult(NamedTuple):
    """A whole input read by a worker: its items and then its diagnostics (``Input.diagnostics``)."""

    items: list[_Item]
    diagnostics: list[Diagnostic]


class _PartResult(NamedTuple):
    """One part of a split PBN or LIN file read by a worker.

    ``reading``: the diagnostics of the reading itself (F001, F002, F010,
    F013) up to where this part stopped reading; ``parser``: the parser's
    file diagnostics of this part's games, in order, and ``marks[i]`` how many
    ``reading`` diagnostics came before ``parser[i]``.
    """

    items: list[_Item]
    reading: list[Diagnostic]
    parser: list[Diagnostic]
    marks: list[int]


class _ParserDiagnostics(list):
    """The ``file_diagnostics`` list given to the parser for one part: remembers, for each
    diagnostic appended, how many of the reading's own (``reading``) came before it."""

    def __init__(self, reading: list[Diagnostic]) -> None:
        super().__init__()
        self.reading = reading
        self.marks: list[int] = []

    def append(self, d: Diagnostic) -> None:
        self.marks.append(len(self.reading))
        super().append(d)

    def extend(self, ds: Iterable[Diagnostic]) -> None:
        for d in ds:
            self.append(d)


#: ``(event, pid)``: the event :func:`_run` sets when it stops early, in the process ``pid`` that
#: runs the pool, and in the workers forked from it, which drop their task (its result is not wanted
#: any more); ``None`` when no pool runs, and in a worker not forked (a pool of spawned workers just
#: finishes its tasks).  The process that runs the pool never stops a reading for it.
_stop_event: tuple[Any, int] | None = None
#: Seconds between two looks at the workers' counters while a result is waited for (progress).
_POLL = 0.2
#: Boards between two looks at :data:`_stop_event`.
_STOP_EVERY = 32


def _stopping() -> bool:
    s = _stop_event
    return s is not None and s[1] != os.getpid() and s[0].is_set()


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


#: The codes that the standard lets readers skip (reported only with ``strict``, as warnings at least).
_STRICT_CODES = frozenset(code for code, c in CODES.items() if c.strict)
#: Severity by value (``Severity(value)`` is a slow call on an enum).
_SEVERITY = tuple(sorted(Severity))


def _prepare(ds: tuple[Diagnostic, ...] | list[Diagnostic], strict: bool) -> tuple[Diagnostic, ...]:
    """A board's diagnostics as reported: without ``strict``, the codes the standard lets
    readers skip dropped; with it, those raised to warnings at least."""
    if not any(d.code in _STRICT_CODES for d in ds):
        return tuple(ds)
    out = []
    for d in ds:
        if d.code in _STRICT_CODES:
            if not strict:
                continue
            if d.severity < Severity.WARNING:
                d = Diagnostic(d.code, Severity.WARNING, d.message, d.path, d.line, d.column, d.board)
        out.append(d)
    return tuple(out)


def _pack(items: list[_Item]) -> list[_Item]:
    """The items as a worker sends them: each diagnostic a plain tuple, which pickles in a tenth
    of the time of the dataclass (with its enum); :func:`_unpack` makes the diagnostics again."""
    return [
        it._replace(
            diagnostics=tuple(
                (d.code, d.severity._value_, d.message, d.path, d.line, d.column, d.board) for d in it.diagnostics
            )
        )
        if it.diagnostics
        else it
        for it in items
    ]


def _unpack(items: Iterable[_Item]) -> Iterator[_Item]:
    """:func:`_pack` undone, item by item (in the parent, as they are reported)."""
    sev = _SEVERITY
    for it in items:
        if it.diagnostics:
            it = it._replace(
                diagnostics=tuple(Diagnostic(c, sev[s], m, p, ln, col, b) for c, s, m, p, ln, col, b in it.diagnostics)
            )
        yield it


def _items(
    inp: Input,
    keep: bool = False,
    part: tuple[int, int] | None = None,
    parser: _ParserDiagnostics | None = None,
    strict: bool = False,
    where: list[int] | None = None,
    slot: int | None = None,
) -> Iterator[_Item]:
    """The items of ``inp`` (or of one ``part`` of it, its parser diagnostics into ``parser``), one per board.

    ``keep``: put the Board in each item (``--dd``, in this process only).
    ``strict``: as :func:`validate_paths` (see :func:`_prepare`).  ``where[0]``: set to
    each board's block offset as it is read (progress); ``slot``: in a worker, where it says
    how far its part is read (:func:`handrec.runs.progress.note`).  An exception (a bug) ends the items with a failure.
    """
    diags = inp.diagnostics
    boards = read_input(inp, part=part, file_diagnostics=parser, digest=False)  # validate keeps no hash
    n = 0
    while True:
        try:
            board = next(boards)
        except StopIteration:
            return
        except Exception as e:  # a bug in the reader: F015
            yield _Item(len(diags), False, failure=_error(e), pmark=len(parser or ()))
            return
        mark, pmark, number = len(diags), len(parser or ()), board.number
        if where is not None:
            where[0] = board.origin.offset
        if slot is not None:
            note(slot, max(board.origin.offset - part[0], 0) if part else board.origin.offset, n + 1)
        try:
            a = validator.analyse(board)
        except Exception as e:
            yield _Item(mark, True, number, failure=_error(e), pmark=pmark)
            return
        diagnostics = _prepare(a.diagnostics, strict)
        try:
            rec = record(board, a.replay)
        except Exception as e:
            yield _Item(mark, True, number, diagnostics, failure=_error(e), pmark=pmark)
            return
        yield _Item(mark, True, number, diagnostics, rec, None, board if keep else None, pmark)
        n += 1
        if n % _STOP_EVERY == 0 and _stopping():
            return  # in a worker whose results are not wanted: they are dropped, complete or not


def _read_inputs(inputs: list[Input], strict: bool = False) -> list[_InputResult] | None:
    """A worker's task: whole inputs (``None`` once the run has stopped)."""
    if _stopping():
        return None
    return [_InputResult(_pack(list(_items(inp, strict=strict))), inp.diagnostics) for inp in inputs]


def _read_part(inp: Input, part: tuple[int, int], strict: bool = False, slot: int | None = None) -> _PartResult | None:
    """A worker's task: one part of a plain PBN or LIN file (``None`` once the run has stopped)."""
    if _stopping():
        return None
    parser = _ParserDiagnostics(inp.diagnostics)
    items = _pack(list(_items(inp, part=part, parser=parser, strict=strict, slot=slot)))
    return _PartResult(items, inp.diagnostics, list(parser), parser.marks)


# =========================================================================================
# Inputs as the parent consumes them
# =========================================================================================


class _LocalUnit:
    """An input read here, board by board (its diagnostics: the live ``Input.diagnostics``)."""

    def __init__(self, inp: Input, keep: bool, strict: bool) -> None:
        self.path = inp.path
        self.size = inp.size
        self.where = [0]  # how far the input is read (progress)
        self.items: Iterator[_Item] = _items(inp, keep, strict=strict, where=self.where)
        self._inp = inp

    def diagnostics(self) -> list[Diagnostic]:
        return self._inp.diagnostics


class _DoneUnit:
    """An input read whole (by a worker, or here ahead of its turn)."""

    def __init__(self, path: str, result: _InputResult, size: int = 0) -> None:
        self.path = path
        self.size = size
        self.where = [0]
        self.items: Iterator[_Item] = _unpack(result.items)
        self._diagnostics = result.diagnostics

    def diagnostics(self) -> list[Diagnostic]:
        return self._diagnostics


class _LocalPart:
    """The first part of a split file read here, board by board, when the run may stop early
    (its first errors come as soon as one process finds them).  ``reading`` and ``parser``
    (with its ``marks``) fill as :attr:`items` are taken, as a :class:`_PartResult`'s."""

    def __init__(self, inp: Input, part: tuple[int, int], strict: bool) -> None:
        inp = dataclasses.replace(inp, diagnostics=[])  # the task's Input goes on to the workers as it is
        self.reading = inp.diagnostics
        self.parser = _ParserDiagnostics(self.reading)
        self.items: Iterator[_Item] = _items(inp, part=part, parser=self.parser, strict=strict)


def _merge(reading: list[Diagnostic], parser: list[Diagnostic], marks: list[int]) -> list[Diagnostic]:
    """The input's diagnostics in the order one reading appends them: ``parser[i]`` after ``marks[i]`` of ``reading``."""
    out: list[Diagnostic] = []
    j = 0
    for i, d in enumerate(reading):
        while j < len(parser) and marks[j] <= i:
            out.append(parser[j])
            j += 1
        out.append(d)
    out.extend(parser[j:])
    return out


class _SplitUnit:
    """A PBN or LIN file read in parts: the parts' items in order, then the diagnostics of one reading of the file.

    ``first``: the result of part 0 (or that part read here: :class:`_LocalPart`);
    ``next_part()`` gives the result of the next part (in order) when asked.
    """

    def __init__(
        self, inp: Input, count: int, first: _PartResult | _LocalPart, next_part: Callable[[], _PartResult]
    ) -> None:
        self.path = inp.path
        self.size = inp.size
        self.where = [0]  # the bytes of the parts before the one being reported (progress)
        self._format = inp.format or "pbn"
        self._reading: list[Diagnostic] = []
        self._parts: list[tuple[list[Diagnostic], list[int]]] = []  # each part's parser diagnostics, marks
        self._boards = 0
        self._complete = False
        self.items: Iterator[_Item] = self._walk(count, first, next_part)

    def _walk(
        self, count: int, first: _PartResult | _LocalPart, next_part: Callable[[], _PartResult]
    ) -> Iterator[_Item]:
        for k in range(count):
            res = first if k == 0 else next_part()
            done = k + (not isinstance(res, _LocalPart))  # a worker's part is read whole when it comes
            self.where[0] = self.size * done // count
            base = sum(len(p) for p, _ in self._parts)  # the parser diagnostics of the parts before
            self._reading = res.reading  # a later part's reading has read the earlier parts' too
            if isinstance(res, _LocalPart):
                self._parts.append((res.parser, res.parser.marks))  # filled as its items are taken
                items: Iterable[_Item] = res.items
            else:
                self._parts.append((res.parser, res.marks))
                items = _unpack(res.items)
            for item in items:
                self._boards += item.read
                yield item._replace(mark=item.mark + base + item.pmark, pmark=0)
                if item.failure is not None:
                    return
        self._complete = True

    def diagnostics(self) -> list[Diagnostic]:
        parser = [d for p, _ in self._parts for d in p]
        marks = [m for _, ms in self._parts for m in ms]
        out = _merge(self._reading, parser, marks)
        if self._complete and self._boards == 0 and not any(d.severity is Severity.ERROR for d in out):
            out.append(make("F018", None, None, path=self.path, format=self._format.upper()))  # as read_input
        return out


_Unit = _LocalUnit | _DoneUnit | _SplitUnit


def _local_units(entries: Iterable[Input | Diagnostic], keep: bool, strict: bool) -> Iterator[_Unit | Diagnostic]:
    for e in entries:
        yield _LocalUnit(e, keep, strict) if isinstance(e, Input) else e


# =========================================================================================
# The pool: tasks, in order
# =========================================================================================


def _done(value: Any) -> Future[Any]:
    f: Future[Any] = Future()
    f.set_result(value)
    return f


def _submit(executor: Executor, task: _Task, slot: int | None = None) -> Future[Any]:
    if task.kind == "entry" or task.local:  # a local task is read when its turn comes (_pool_units)
        return _done(None)
    if task.kind == "here":  # read now: the next entry may move its archive stream on
        inp = task.inputs[0]
        return _done(_InputResult(_pack(list(_items(inp, strict=task.strict))), inp.diagnostics))
    if task.kind == "part":
        return executor.submit(run_stoppable, _read_part, task.inputs[0], task.part, task.strict, slot)
    return executor.submit(run_stoppable, _read_inputs, list(task.inputs), task.strict)


def _in_order(
    tasks: Iterable[_Task],
    executor: Executor,
    jobs: int,
    waiting: Callable[[list[tuple[int, int]]], None] | None = None,
) -> Iterator[tuple[_Task, Any]]:
    """Run the tasks, at most ``2 * jobs`` in flight; yield ``(task, result)`` in task order.

    A ``local`` task is yielded only once ``2 * jobs`` tasks after it are in flight (or there
    are no more): the workers read those while this process reads it.  ``waiting(parts)``:
    called every :data:`_POLL` seconds while a result is waited for, with the slot and the
    share of the file's bytes of each part in flight (:data:`handrec.runs.progress._shared`).
    """
    pending: deque[tuple[_Task, Future[Any]]] = deque()
    slots: dict[Future[Any], tuple[int, int]] = {}  # a part's future: its slot, its share of the bytes
    shared = progress._shared if waiting is not None else None

    def submit(task: _Task) -> Future[Any]:
        slot = shared.take() if shared is not None and task.kind == "part" and not task.local else None
        f = _submit(executor, task, slot)
        if slot is not None:
            size = task.inputs[0].size
            slots[f] = (slot, size * (task.index + 1) // task.count - size * task.index // task.count)
        return f

    def result(f: Future[Any]) -> Any:
        while waiting is not None and slots and not f.done():
            futures_wait([f], timeout=_POLL)
            waiting([slots[g] for g in chain([f], (g for _, g in pending)) if g in slots])
        slots.pop(f, None)
        return wait_result(f)

    try:
        for task in tasks:
            pending.append((task, submit(task)))
            while pending and (len(pending) > 2 * jobs or (pending[0][1].done() and not pending[0][0].local)):
                t, f = pending.popleft()
                yield t, result(f)
        while pending:
            t, f = pending.popleft()
            yield t, result(f)
    finally:
        for _, f in pending:
            f.cancel()


def _pool_units(results: Iterator[tuple[_Task, Any]]) -> Iterator[_Unit | Diagnostic]:
    def next_part() -> _PartResult:
        task, result = next(results)
        assert task.kind == "part" and task.index > 0, task
        return result

    for task, result in results:
        if task.kind == "entry":
            yield task.entry  # type: ignore[misc]
        elif task.kind == "part":
            if task.index == 0:  # the unit asks for the next parts itself
                first = _LocalPart(task.inputs[0], task.part, task.strict) if task.local else result
                yield _SplitUnit(task.inputs[0], task.count, first, next_part)
            # a later part seen here is one left after its file's reading ended (F015): dropped
        elif task.local:
            for inp in task.inputs:
                yield _LocalUnit(inp, False, task.strict)
        else:
            for inp, res in zip(task.inputs, result if task.kind == "inputs" else [result]):
                yield _DoneUnit(inp.path, res, inp.size)


# =========================================================================================
# The consumer: findings, counts, stopping
# =========================================================================================


class _Failed(Exception):
    """An F015 sent back by a worker."""


class _Numbers:
    """The board numbers of an input by board index, 8 bytes a board while they are ints (a
    list of Python ints is 36 bytes a board: issue #22.4); any other value turns it into a list."""

    _NONE = -(2**63)

    def __init__(self) -> None:
        self._a: Any = array("q")

    def append(self, n: Any) -> None:
        a = self._a
        if type(a) is array:
            if n is None:
                a.append(self._NONE)
                return
            if type(n) is int and self._NONE < n < 2**63:
                a.append(n)
                return
            self._a = a = [None if x == self._NONE else x for x in a]
        a.append(n)

    def __len__(self) -> int:
        return len(self._a)

    def __getitem__(self, i: int) -> Any:
        n = self._a[i]
        return None if n == self._NONE and type(self._a) is array else n


class _Reporter:
    """Turns units into reports, counting errors and stopping at the ``max_errors``-th.

    With ``max_errors`` N, what is reported is what would be reported without it, up to
    and including the N-th error: nothing after it (not the rest of its board's
    diagnostics, nor its input's event checks or file-level faults).
    """

    def __init__(
        self, strict: bool, max_errors: int | None, dd: bool, dd_progress: Any, dd_margin: int | None = None
    ) -> None:
        self.strict = strict
        self.max_errors = max_errors
        self.dd = None
        if dd:
            from handrec.dd import director as ddchecks

            self.dd = ddchecks
        self.dd_progress = dd_progress
        self.dd_margin = dd_margin
        self.errors = 0

    @property
    def stopped(self) -> bool:
        return self.max_errors is not None and self.errors >= self.max_errors

    def _add(self, rep: InputReport, ds: Iterable[Diagnostic], numbers: _Numbers | list[Any]) -> bool:
        """Report ``ds`` (as reported: :func:`_prepare` applied) until the ``max_errors``-th error; ``True`` once there."""
        for d in ds:
            severity = d.severity
            if severity is Severity.ERROR:
                rep.errors += 1
                self.errors += 1
            elif severity is Severity.WARNING:
                rep.warnings += 1
            i = d.board
            rep.findings.append(Finding(d, numbers[i] if i is not None and 0 <= i < len(numbers) else None))
            if severity is Severity.ERROR and self.errors == self.max_errors:
                return True
        return False

    def _emit(self, rep: InputReport, ds: Iterable[Diagnostic], numbers: _Numbers | list[Any]) -> bool:
        """:meth:`_add` of diagnostics not yet prepared (``strict``)."""
        return self._add(rep, _prepare(list(ds), self.strict), numbers)

    def entry(self, d: Diagnostic) -> InputReport:
        rep = InputReport(d.path, False)
        self._emit(rep, [d], [])
        rep.stopped = self.stopped
        return rep

    def input(self, unit: _Unit) -> InputReport:
        rep = InputReport(unit.path, True)
        numbers = _Numbers()  # the board numbers read so far, by index (JSON board_number)
        checker = EventChecker()
        dd_boards: list[Any] = []
        try:
            for item in unit.items:
                if item.read:
                    rep.boards += 1
                    numbers.append(item.number)
                    if item.diagnostics and self._add(rep, item.diagnostics, numbers):
                        rep.stopped = True
                        return rep  # the rest of the input is not reported: see the class doc
                if item.failure is not None:
                    raise _Failed(item.failure)
                checker.add_record(item.record)  # type: ignore[arg-type]
                if self.dd is not None and item.board is not None:
                    rec = item.record
                    dd_boards.append((item.board, getattr(rec, "contract", None), getattr(rec, "tricks", None)))
            if self._emit(rep, checker.finish(), numbers):
                rep.stopped = True
                return rep
            if dd_boards:
                ds = self.dd.check_games(dd_boards, margin=self.dd_margin, progress=self.dd_progress)  # type: ignore[union-attr]
                if self._emit(rep, ds, numbers):
                    rep.stopped = True
                    return rep
        except BrokenExecutor:  # the pool is broken (BrokenProcessPool): not a fault of this input
            raise
        except Exception as e:  # a bug, not an input fault: reported as one
            text = str(e) if isinstance(e, _Failed) else _error(e)
            if self._emit(rep, [make("F015", None, None, path=unit.path, error=text)], numbers):
                rep.stopped = True
                return rep
        self._emit(rep, unit.diagnostics(), numbers)
        rep.stopped = self.stopped
        return rep


# =========================================================================================
# validate_paths
# =========================================================================================


def validate_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
    strict: bool = False,
    max_errors: int | None = None,
    dd: bool = False,
    dd_progress: Callable[[int, int], None] | None = None,
    dd_margin: int | None = None,
    pool_bytes: int | None = None,
    part_bytes: int | None = None,
    task_bytes: int | None = None,
    on_progress: Callable[[RunProgress], None] | None = None,
) -> Iterator[InputReport]:
    """Validate every PBN and LIN input under ``paths``; yield one :class:`InputReport` per input, in input order.

    ``paths``: files, folders (searched recursively, sorted), zip and tar
    archives, compressed files, ``"-"`` for standard input
    (:func:`handrec.inputs.entries.iter_entries`); an entry that cannot be read is a
    report with ``is_input=False``.  ``jobs``: worker processes (default: all
    cores; 1: none); the reports are the same whatever ``jobs``.  ``limits``:
    the size limits (:class:`handrec.inputs.limits.Limits`).  ``strict``: also report
    what the standard lets readers skip, as warnings at least.
    ``max_errors``: stop at the error that brings the errors to this many,
    counted in input order: its report is the last (its ``stopped`` is set)
    and ends with it, so exactly ``max_errors`` errors are reported: what
    the run without the limit reports, cut right after that error (not the
    rest of its board's diagnostics, nor its input's event checks and
    file-level faults); ``boards`` counts the boards read up to that one.  ``dd``: also check the
    double-dummy tables and par the files write (D210-D213; the inputs are
    then read in this process whatever ``jobs``: the solver is the long
    part, and :func:`handrec.dd.solver.check_boards` runs on the boards of each input);
    ``dd_progress(done, total)`` is given to the solver; ``dd_margin``: with ``dd``, also warn
    of each result that many tricks or more from double dummy (D214,
    :func:`handrec.dd.director.check_games`; ``None``: not checked).  ``pool_bytes``,
    ``part_bytes``, ``task_bytes``: when to use the pool, the size of a
    part of a split PBN file (a PBN or LIN file over it is split) and of a
    task of whole inputs (default :data:`handrec.runs.parts.POOL_BYTES`,
    :data:`~handrec.runs.parts.PART_BYTES`, :data:`~handrec.runs.parts.TASK_BYTES`;
    see :mod:`handrec.runs.parts`).  ``on_progress``: called with a
    :class:`handrec.runs.progress.RunProgress` as the boards are reported (at most every
    :data:`handrec.runs.progress.EVERY` seconds; inside a big file too) and once at the end.

    What is checked: every board against the Laws and the scorer
    (:func:`handrec.rules.validator.analyse`), each input's claimed event figures
    (:class:`handrec.events.checks.EventChecker`), its file-level faults
    (reading, decoding, limits, format: the F codes of
    :mod:`handrec.diagnostics`).  Closing the generator early stops the
    workers.

    :raises ValueError: when ``jobs``, ``max_errors``, ``pool_bytes``,
        ``part_bytes`` or ``task_bytes`` is out of range.
    :raises ImportError: with ``dd`` when the solver (``handrec[dd]``) is not installed.
    :raises concurrent.futures.process.BrokenProcessPool: when a worker process died (killed, out of memory).

    >>> [(r.path, r.boards, r.errors) for r in validate_paths(["sample_data/club_session.pbn"], jobs=1)]
    [('sample_data/club_session.pbn', 32, 0)]
    """
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    pool_bytes = parts.POOL_BYTES if pool_bytes is None else pool_bytes  # read now: the tests patch them
    part_bytes = parts.PART_BYTES if part_bytes is None else part_bytes
    task_bytes = parts.TASK_BYTES if task_bytes is None else task_bytes
    for name, value, least in (
        ("jobs", jobs, 1),
        ("max_errors", max_errors, 1),
        ("pool_bytes", pool_bytes, 0),
        ("part_bytes", part_bytes, 1),
        ("task_bytes", task_bytes, 1),
    ):
        if value is not None and value < least:
            raise ValueError(f"{name} must be at least {least}, not {value}")
    if dd:
        from handrec.dd import solver as ddmod

        if not ddmod.solver_available():
            raise ImportError(ddmod.UNAVAILABLE_REASON)
    if dd_margin is not None and dd_margin < 1:
        raise ValueError(f"dd_margin must be at least 1, not {dd_margin}")
    return _run(
        paths, jobs, limits, strict, max_errors, dd, dd_progress, pool_bytes, part_bytes, task_bytes, dd_margin,
        on_progress,
    )  # fmt: skip


def _run(
    paths: Iterable[str | os.PathLike[str]],
    jobs: int,
    limits: Limits,
    strict: bool,
    max_errors: int | None,
    dd: bool,
    dd_progress: Callable[[int, int], None] | None,
    pool_bytes: int,
    part_bytes: int,
    task_bytes: int,
    dd_margin: int | None = None,
    on_progress: Callable[[RunProgress], None] | None = None,
) -> Iterator[InputReport]:
    global _stop_event
    reporter = _Reporter(strict, max_errors, dd, dd_progress, dd_margin)
    paths = list(paths)
    entries = iter_entries(paths, limits)
    executor = None
    results: Iterator[tuple[_Task, Any]] | None = None
    complete = False  # every input reported: the pool has nothing left to do
    units: Iterator[_Unit | Diagnostic]
    meter = None if on_progress is None else progress.Meter(Throttle(on_progress), total_bytes(paths))
    shared = None
    try:
        if dd or jobs == 1:
            units = _local_units(entries, dd, strict)
        else:
            bounds = parts._bounds(jobs, part_bytes, early=max_errors is not None)
            parallel, head = parts._plan(entries, pool_bytes, bounds)
            if parallel:
                import multiprocessing  # a pool's run only (see BrokenExecutor above)

                from handrec.runs.pool import start_pool

                stop = multiprocessing.Event()
                _stop_event = (stop, os.getpid())  # the workers forked now see it
                if meter is not None:  # and the counters of how far their parts are read
                    shared = progress.share(4 * jobs + 4)
                executor = start_pool(jobs)
                tasks = parts._tasks(chain(head, entries), bounds, task_bytes, strict, early=max_errors is not None)
                results = _in_order(tasks, executor, jobs, meter.waiting if meter is not None else None)
                units = _pool_units(results)
            else:
                units = _local_units(chain(head, entries), False, strict)
        if meter is not None:
            units = meter.watched(units)
        for unit in units:
            rep = reporter.entry(unit) if isinstance(unit, Diagnostic) else reporter.input(unit)
            yield rep
            if rep.stopped:
                break
        else:
            complete = True
    finally:
        if results is not None:
            results.close()  # type: ignore[attr-defined]  # cancels the tasks not started
        if executor is not None:
            if complete:
                executor.shutdown(wait=True)
            else:  # stopped early, or closed: what the workers are reading is not wanted
                from handrec.runs.pool import stop_pool

                stop.set()  # a forked worker drops its task at its next look (and does not start one)
                stop_pool(executor)  # and every worker is interrupted now
            _stop_event = None
        if shared is not None:
            progress.unshare()
        close_archives()
