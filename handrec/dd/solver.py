"""The one double-dummy solving layer: every command that needs a table or an opening lead asks it.

:class:`Solver` takes deals in batches of any size and returns their
tables (:meth:`Solver.tables`) or their opening-lead results
(:meth:`Solver.leads`).  Each distinct deal is solved at most once per
run: a memory memo first, then the persistent cache
(:class:`handrec.dd.cache.DDCache`), then DDS (:mod:`handrec.dd.engine`),
fed at most :data:`handrec.dd.engine.BATCH` deals a call and written to the
cache batch by batch, so an interruption (Ctrl-C, ``kill -9``) keeps every
batch finished before it.

All cores: in ``"threads"`` mode DDS's own threads (one per core) share
each batch of 40 deals (DDS hands the 200 deal-and-strain problems of a
batch to its threads as they free up); in ``"pool"`` mode :attr:`Solver.jobs`
worker processes each run DDS with one thread on small tasks of
:data:`POOL_TASK` deals.  Which is faster here is measured by
``benchmarks/bench_dd.py`` (docs/performance.md): :data:`DEFAULT_MODE` is
the winner, and ``$HANDREC_DD_MODE`` overrides it.  Hardest deals first was
tried and does not help: no cheap feature of a deal predicted DDS's time
(the balance of the hands had a rank correlation of -0.2 with the CPU
time over 40 deals, whose times ranged from 0.03 to 1.8 s), and with small
tasks handed out as workers free up the tail is one task anyway.

The module-level functions (:func:`solve_tables`, :func:`set_cache_dir`,
:func:`clear_cache`) work on the process's current solver
(:func:`current`), which the commands set up with :func:`session`.  The
table and par types are re-exported here from :mod:`handrec.dd.table`,
:mod:`handrec.dd.par` and :mod:`handrec.dd.boards` for the callers that
import them from this module.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from handrec.dd import engine
from handrec.dd.cache import CACHE_FILE, DDCache, default_cache_dir
from handrec.dd.par import Par, ParContract, par, parse_optimum_score, parse_par_contracts
from handrec.dd.table import DD_SEATS, DD_STRAINS, DDError, DDTable, parse_optimum_result_table
from handrec.model import Deal, Seat, Strain

__all__ = [
    "BATCH",
    "POOL_TASK",
    "DEFAULT_MODE",
    "UNAVAILABLE_REASON",
    "Solver",
    "current",
    "session",
    "deal_key",
    "solve_tables",
    "solver_available",
    "set_cache_dir",
    "clear_cache",
    "default_cache_dir",
    "CACHE_FILE",
    # re-exported
    "DDError",
    "DDTable",
    "DD_SEATS",
    "DD_STRAINS",
    "Par",
    "ParContract",
    "par",
    "parse_optimum_score",
    "parse_par_contracts",
    "parse_optimum_result_table",
]

log = logging.getLogger(__name__)

BATCH = engine.BATCH
#: Deals per task of a worker process in ``"pool"`` mode (about a second of work: small tasks keep
#: every worker busy to the end and the progress bar moving).
POOL_TASK = 4
#: Fewest deals to solve for which ``"pool"`` mode starts its worker processes (each imports endplay).
POOL_MIN = 16
#: ``"threads"`` or ``"pool"``: the faster here (benchmarks/bench_dd.py, docs/performance.md); ``$HANDREC_DD_MODE`` overrides.
DEFAULT_MODE = "threads"
#: Tables kept in memory beside a disk cache (past it the memo is cleared: the cache still has them).
MEMO_LIMIT = 200_000

#: Said (once) when double-dummy solving is asked for without the extra.
UNAVAILABLE_REASON = (
    "Double-dummy tables omitted: solving needs the optional extra (pip install 'handrec[dd]', which adds endplay)."
)

Progress = Callable[[int, int], None]


def solver_available() -> bool:
    """Whether endplay (the ``handrec[dd]`` extra) is installed (checked without importing it)."""
    return engine.available()


def deal_key(deal: Deal | str) -> str:
    """The canonical text of a complete deal (``str(Deal)``: North first, suits high to low), the cache's key.

    :raises DDError: if the deal is not complete (four hands of 13 cards, 52 distinct cards) or
        the text is not a deal.
    """
    if isinstance(deal, str):
        try:
            deal = Deal.parse(deal)
        except ValueError as e:
            raise DDError(f"not a deal: {deal!r} ({e})") from None
    if not deal.is_complete:
        raise DDError(f"cannot solve an incomplete deal: {deal}")
    return str(deal)


class Solver:
    """Solves deals once per run (see the module doc).

    ``cache``: the persistent cache, or ``None`` (memory only: ``--no-dd-cache``);
    ``jobs``: worker processes in ``"pool"`` mode (default: all cores);
    ``mode``: ``"pool"`` or ``"threads"`` (default :data:`DEFAULT_MODE`, or
    ``$HANDREC_DD_MODE``); ``progress(done, total)``: called before the
    first batch is solved and after each one, counting the deals (or
    leads) to solve in that call.  :attr:`solved` counts the deals DDS
    solved, :attr:`leads_solved` the opening-lead problems.  Close it (or use
    it as a context manager) to stop its worker processes.
    """

    def __init__(
        self,
        cache: DDCache | None = None,
        *,
        jobs: int | None = None,
        mode: str | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.cache = cache
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        mode = mode or os.environ.get("HANDREC_DD_MODE") or DEFAULT_MODE
        if mode not in ("pool", "threads"):
            raise ValueError(f"mode must be 'pool' or 'threads', not {mode!r}")
        self.mode = mode
        self.progress = progress
        self.solved = 0
        self.leads_solved = 0
        self._memo: dict[str, DDTable] = {}
        self._lead_memo: dict[tuple[str, Strain, Seat], str] = {}
        self._pool: Any = None
        self._tmp: str | None = None
        self._lock = threading.RLock()

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tables --------------------------------------------------------------------------

    def tables(self, deals: Iterable[Deal | str]) -> list[DDTable]:
        """The tables of ``deals`` (complete deals, or their PBN text), in order; repeats solved once.

        :raises DDError: if a deal is not complete (checked before anything is solved).
        :raises ImportError: without endplay, when a deal must be solved.
        """
        keys = [deal_key(d) for d in deals]
        with self._lock:
            need = [k for k in dict.fromkeys(keys) if k not in self._memo]
            if need and self.cache is not None:
                self._remember(self.cache.get_tables(need))
                need = [k for k in need if k not in self._memo]
            if need:
                self._solve_tables(need)
            memo = self._memo
            found = [memo.get(k) for k in keys]
            if any(t is None for t in found):  # the memo was cleared while solving: the cache has them
                got = self.cache.get_tables(k for k, t in zip(keys, found) if t is None) if self.cache else {}
                found = [t if t is not None else got[k] for k, t in zip(keys, found)]
            return found  # type: ignore[return-value]

    def cached(self, deals: Iterable[Deal | str]) -> dict[str, DDTable]:
        """The tables of ``deals`` already known (memo or cache), by key, solving nothing."""
        keys = list(dict.fromkeys(deal_key(d) for d in deals))
        with self._lock:
            out = {k: self._memo[k] for k in keys if k in self._memo}
            rest = [k for k in keys if k not in out]
            if rest and self.cache is not None:
                out.update(self.cache.get_tables(rest))
            return out

    def _remember(self, items: dict[str, DDTable]) -> None:
        if self.cache is not None and len(self._memo) + len(items) > MEMO_LIMIT:
            self._memo.clear()
        self._memo.update(items)

    def _solve_tables(self, keys: list[str]) -> None:
        def store(chunk: Sequence[str], hexes: Sequence[str]) -> None:
            items = {k: DDTable.parse_hex(h) for k, h in zip(chunk, hexes)}
            if self.cache is not None:
                self.cache.put_tables(list(items.items()))
            self._remember(items)
            self.solved += len(items)

        self._run(keys, engine.solve_tables, BATCH, POOL_TASK, store)

    # -- opening leads -------------------------------------------------------------------

    def leads(self, items: Iterable[tuple[Deal | str, Strain, Seat]]) -> list[str]:
        """For each ``(deal, strain, declarer)``: declarer's double-dummy tricks after each opening lead,
        as :func:`handrec.dd.engine.solve_leads` gives them (13 hex digits, one per card of the
        leader's hand in the order the deal's text writes it).

        :raises DDError: if a deal is not complete.
        :raises ImportError: without endplay, when something must be solved.
        """
        keys = [(deal_key(d), Strain(st), Seat(dec)) for d, st, dec in items]
        with self._lock:
            need = [k for k in dict.fromkeys(keys) if k not in self._lead_memo]
            if need and self.cache is not None:
                self._lead_memo.update(self.cache.get_leads(need))
                need = [k for k in need if k not in self._lead_memo]
            if need:

                def store(chunk: Sequence[tuple[str, Strain, Seat]], digits: Sequence[str]) -> None:
                    got = list(zip(chunk, digits))
                    if self.cache is not None:
                        self.cache.put_leads(got)
                    self._lead_memo.update(got)
                    self.leads_solved += len(got)

                self._run(need, engine.solve_leads, engine.LEAD_BATCH, 4 * POOL_TASK, store)
            out = [self._lead_memo[k] for k in keys]
            if self.cache is not None and len(self._lead_memo) > MEMO_LIMIT:
                self._lead_memo.clear()
            return out

    # -- running DDS ---------------------------------------------------------------------

    def _run(self, todo: list, fn: Callable[..., list[str]], batch: int, task: int, store: Callable) -> None:
        """Solve ``todo`` with ``fn`` (an :mod:`handrec.dd.engine` function), calling ``store(chunk, results)``
        for each finished chunk: in this process with DDS's threads, or over the worker pool."""
        total = len(todo)
        progress = self.progress
        if progress is not None:
            progress(0, total)
        use_pool = self.mode == "pool" and self.jobs > 1 and total >= POOL_MIN
        if use_pool:
            for chunk, results, done in self._pool_map(fn, todo, task):
                store(chunk, results)
                if progress is not None:
                    progress(done, total)
            return
        engine.set_threads(None)
        done = 0
        with engine.in_temp_dir():
            for start in range(0, total, batch):
                chunk = todo[start : start + batch]
                store(chunk, fn(chunk, in_place=True))
                done += len(chunk)
                if progress is not None:
                    progress(done, total)

    def _start_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # Not fork: DDS's OpenMP threads, once started in this process, do not survive a fork.
            method = "forkserver" if sys.platform.startswith("linux") else "spawn"
            self._tmp = tempfile.mkdtemp(prefix="handrec-dds-")
            _WITH_POOL.add(self)
            self._pool = ProcessPoolExecutor(
                self.jobs,
                mp_context=multiprocessing.get_context(method),
                initializer=engine.worker_init,
                initargs=(self._tmp, 1),
            )
        return self._pool

    def _pool_map(self, fn: Callable[..., list[str]], todo: list, task: int) -> Iterator[tuple[list, list[str], int]]:
        """Yield ``(chunk, results, deals done)`` as the workers finish tasks of ``task`` items; at most
        ``4 * jobs`` tasks in flight.  An interruption stops the workers and re-raises."""
        from concurrent.futures import FIRST_COMPLETED, wait

        pool = self._start_pool()
        chunks = iter([todo[i : i + task] for i in range(0, len(todo), task)])
        pending: dict[Any, list] = {}
        done = 0
        try:
            while True:
                while len(pending) < 4 * self.jobs:
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    pending[pool.submit(fn, chunk, in_place=True)] = chunk
                if not pending:
                    return
                finished: set[Any] = set()
                while not finished:  # in steps: a Ctrl-C taken by another thread wakes no blocked wait
                    finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                for f in finished:
                    chunk = pending.pop(f)
                    done += len(chunk)
                    yield chunk, f.result(), done
        except BaseException:
            self._stop_pool()
            raise

    def _stop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:  # a task in flight is not wanted: its batch is lost, the rest is cached
                if p.is_alive():
                    p.terminate()
            for p in processes:
                p.join()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def close(self) -> None:
        """Stop the worker processes (if any) and close the cache connection."""
        with self._lock:
            pool, self._pool = self._pool, None
            if pool is not None:
                pool.shutdown(wait=True)
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
                self._tmp = None
            if self.cache is not None:
                self.cache.close()

    def clear(self) -> None:
        """Forget what is held in memory (the cache keeps it)."""
        with self._lock:
            self._memo.clear()
            self._lead_memo.clear()


#: Solvers whose worker processes may still run: stopped at exit, before the interpreter's own
#: teardown (which otherwise reports the pools' manager threads as errors).
_WITH_POOL: weakref.WeakSet[Solver] = weakref.WeakSet()


@atexit.register
def _close_pools() -> None:
    for s in list(_WITH_POOL):
        s.close()


# ---------------------------------------------------------------------------
# The process's current solver


_current = Solver()


def current() -> Solver:
    """The solver the library functions use (memory only until :func:`session` or :func:`set_cache_dir`)."""
    return _current


@contextmanager
def session(
    cache_dir: Path | str | None, *, jobs: int | None = None, progress: Progress | None = None
) -> Iterator[Solver]:
    """Make a new :class:`Solver` the current one for the ``with`` block (what a command does):
    ``cache_dir`` the cache folder (``None``: memory only), ``jobs`` its workers, ``progress``
    its callback.  The previous solver is current again after the block; the new one is closed."""
    global _current
    previous = _current
    s = Solver(None if cache_dir is None else DDCache(cache_dir), jobs=jobs, progress=progress)
    _current = s
    try:
        yield s
    finally:
        _current = previous
        s.close()


def set_cache_dir(folder: Path | str | None) -> Path | None:
    """Keep the current solver's tables in the cache in ``folder`` too (created on first write), so that
    a second run costs nothing; ``None`` (the library's default) keeps them in memory only.
    Returns the previous folder.  See :mod:`handrec.dd.cache`."""
    s = _current
    with s._lock:
        previous = None if s.cache is None else s.cache.folder
        if s.cache is not None:
            s.cache.close()
        s.cache = None if folder is None else DDCache(folder)
    return previous


def clear_cache() -> None:
    """Forget every solved table held in memory by the current solver (the disk cache keeps them)."""
    _current.clear()


def solve_tables(deals: Sequence[Deal], *, progress: Progress | None = None) -> list[DDTable]:
    """Double-dummy tables for complete deals, by the current solver (:meth:`Solver.tables`).

    ``progress(done, total)`` is called before the first batch and after
    each one, counting the deals to solve (none when all are known).

    :raises ImportError: without endplay (install ``handrec[dd]``).
    :raises DDError: if a deal is not complete (four hands, 52 cards).
    """
    s = _current
    if progress is None:
        return s.tables(deals)
    with s._lock:
        previous, s.progress = s.progress, progress
        try:
            return s.tables(deals)
        finally:
            s.progress = previous


_MOVED = {
    "BoardDD": "handrec.dd.boards",
    "board_dd": "handrec.dd.boards",
    "boards_dd": "handrec.dd.boards",
    "CHECKED_TAGS": "handrec.dd.director",
    "check_board": "handrec.dd.director",
    "check_boards": "handrec.dd.director",
    "has_dd_values": "handrec.dd.director",
}


def __getattr__(name: str) -> Any:
    """The board-level functions, now in :mod:`handrec.dd.boards` and :mod:`handrec.dd.director`
    (which import this module), still reachable as ``handrec.dd.solver.NAME``."""
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(where), name)
