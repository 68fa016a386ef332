"""Reading the inputs of ``handrec site`` on several cores: a big PBN or LIN file in parts, one a worker.

:func:`collect_inputs` gives what :func:`handrec.site.data.collect` gives for the boards
of the inputs, in input order, with the input diagnostics on each input (as
:func:`handrec.formats.dispatch.read_input` leaves them).  A plain PBN or LIN file big
enough to cut (:func:`handrec.runs.parts._part_bounds`, where ``handrec validate`` cuts
it) is read in parts by the workers of a pool (:func:`handrec.runs.pool.start_pool`,
started at the first such file): each worker reads, replays and records the games of
its part and sends back the records, the leads and the first game of each board (the
board only: its replay is made again here, one a board, cheaper than sending it).  The
parts, in order, are the whole file (the same games, lines and board indexes:
:mod:`handrec.runs.validate` relies on it); so the site is the same whatever ``jobs``.
The other inputs are read here.

Diagnostics of a file read in parts: those of the reading (F001, F002, F013) come from
the last part, whose worker has read the whole file, then the parser's of each part in
order (one reading of the file gives the same diagnostics; the two kinds may come in
another order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from handrec.diagnostics import Diagnostic
from handrec.formats.dispatch import iter_inputs, read_input
from handrec.inputs.sources import Input
from handrec.rules.replay import replay
from handrec.runs import parts
from handrec.runs.pool import start_pool, stop_pool
from handrec.site.data import Collected, collect

__all__ = ["collect_inputs"]

_Part = tuple[list[Any], dict[Any, Any], dict[Any, Any], list[Diagnostic], list[Diagnostic]]


def _collect_part(inp: Input, part: tuple[int, int]) -> _Part:
    """A worker's task: the records, leads and first boards of one part of ``inp``, the
    diagnostics of the reading so far and the parser's of this part."""
    found: list[Diagnostic] = []
    data = collect(read_input(inp, part=part, file_diagnostics=found, digest=False))
    firsts = {key: board for key, (board, _) in data.first.items()}
    return data.records, data.leads, firsts, list(inp.diagnostics), found


def collect_inputs(
    paths: Iterable[str | Path],
    input_errors: list[Diagnostic],
    jobs: int,
    on_input: Callable[[Input], None] | None = None,
) -> Collected:
    """The inputs under ``paths`` read as :func:`handrec.site.data.collect` reads their boards;
    ``input_errors``: the paths not read, as :func:`handrec.formats.dispatch.iter_inputs` lists
    them; ``on_input(inp)`` once each input is read (its ``diagnostics`` filled); ``jobs``
    workers for the files cut in parts, none with ``jobs`` 1."""
    out = Collected()
    ex: ProcessPoolExecutor | None = None
    try:
        for inp in iter_inputs(paths, input_errors):
            cuts = parts._part_bounds(inp, jobs, parts.PART_BYTES) if jobs > 1 else None
            if cuts is None:
                _merge(out, collect(read_input(inp)))
                if on_input is not None:
                    on_input(inp)
                continue
            if ex is None:
                ex = start_pool(jobs)
            futures: list[Future[_Part]] = [ex.submit(_collect_part, inp, cut) for cut in cuts]
            parser: list[Diagnostic] = []
            reading: list[Diagnostic] = []
            for f in futures:
                records, leads, firsts, reading, found = f.result()
                out.records.extend(records)
                out.leads.update(leads)
                for key, board in firsts.items():
                    if key not in out.first:
                        out.first[key] = (board, replay(board))
                parser.extend(found)
            inp.diagnostics[:] = reading + parser  # the workers' copies began as this list
            if on_input is not None:
                on_input(inp)
    except BaseException:
        if ex is not None:
            stop_pool(ex)
            ex = None
        raise
    finally:
        if ex is not None:
            ex.shutdown()
    return out


def _merge(out: Collected, more: Collected) -> None:
    out.records.extend(more.records)
    out.leads.update(more.leads)
    for key, first in more.first.items():
        out.first.setdefault(key, first)
