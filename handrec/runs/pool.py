"""Starting the local process pool that ``handrec convert`` and ``handrec validate`` share.

A module of its own so that ``validate`` gets the pool without importing pyarrow (which
:mod:`handrec.runs.convert` does, for the Parquet store); :func:`handrec.runs.convert.convert`
uses the same function.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["start_pool", "stop_pool", "run_stoppable", "result", "Stopped", "KILL_AFTER"]


#: How often a worker looks whether its parent is still there (seconds).
PARENT_POLL = 0.5
#: Seconds between two looks for a signal (Ctrl-C) while this process waits for a task.
WAIT_STEP = 0.1


def result(fut: Future[Any]) -> Any:
    """``fut.result()``, waited for in steps of :data:`WAIT_STEP`: the kernel may hand a Ctrl-C
    to any of the process's threads (the pool's own), and a blocked wait in the main thread
    then never wakes to raise :class:`KeyboardInterrupt` until the task ends (seconds)."""
    while True:
        try:
            return fut.result(WAIT_STEP)
        except FutureTimeout:
            if fut.done():  # the task's own TimeoutError
                raise


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that started it dies (kill -9, the OOM killer): its pool
    is gone, and a worker blocked on the pool's queue would otherwise wait for good.

    On Linux the kernel sends SIGKILL at the parent's death (``PR_SET_PDEATHSIG``, prctl(2)),
    which works even in a task that holds the GIL; elsewhere, and as a second net, a daemon
    thread sees the worker re-parented (``os.getppid()`` changes) and exits.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="handrec-parent-watch", daemon=True).start()


def _init_worker(parent: int) -> None:
    """A worker ignores Ctrl-C (SIGINT goes to the whole process group): the parent, which
    gets it too, stops the run and the pool, without a traceback from every worker.  It
    stops its task on ``SIGUSR1`` (:func:`stop_pool`), and ends when its parent dies
    (:func:`_die_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, _on_stop)
    sys.unraisablehook = _unraisable
    _die_with_parent(parent)


def _unraisable(u: Any) -> None:
    """A worker's hook for exceptions Python cannot raise (``Exception ignored in ...``): a
    :class:`Stopped` that lands in a finalizer (a generator closed by the garbage collector,
    whose ``finally`` closes a stream) is not printed as a traceback on the user's terminal,
    and the task can be stopped again at the next signal; anything else is printed as ever."""
    global _in_task
    if isinstance(u.exc_value, Stopped):
        _in_task = _running  # the stop was swallowed: stop_pool signals again, and this time it lands
        return
    sys.__unraisablehook__(u)


def start_pool(jobs: int) -> ProcessPoolExecutor:
    """A started process pool of ``jobs`` workers: ``fork`` on Linux when this process has one thread, else the default.

    The workers are started before returning, so the caller may start threads afterwards.
    """
    # imported here, by the runs that start a pool: a small validate run is read in one process
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = None
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        ctx = multiprocessing.get_context("fork")
    ex = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker, initargs=(os.getpid(),))
    # Forked workers inherit this process's objects (modules, the parsers' tables and
    # caches): frozen (gc.freeze) while they start, those stay out of the workers' garbage
    # collections, which otherwise go over all of them again and again as a worker's
    # results grow (a quarter of a worker's time on a big part).  This process unfreezes.
    gc.freeze()
    try:
        ex.submit(int).result()  # start the workers now, before the caller starts any thread
    finally:
        gc.unfreeze()
    return ex


class Stopped(BaseException):
    """Raised in a worker's task by :func:`stop_pool` (a BaseException: no ``except Exception``
    in the task takes it for a fault of the input)."""


_in_task = False  # a SIGUSR1 now raises Stopped
_running = False  # a task of run_stoppable runs


def _on_stop(signum: int, frame: object) -> None:
    """Stop the task running, once: :func:`stop_pool` signals again and again, and a second
    :class:`Stopped` raised while :func:`run_stoppable` handles the first would escape it (a
    traceback of the worker's, sent to the parent as the task's exception)."""
    global _in_task
    if _in_task:
        _in_task = False
        raise Stopped


def run_stoppable(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` as a task of a pool of :func:`start_pool`: ``None`` when :func:`stop_pool`
    interrupts it (its result is not wanted any more)."""
    global _in_task, _running
    try:
        _in_task = _running = True
        return fn(*args)
    except Stopped:
        return None
    finally:
        _in_task = _running = False


#: How long :func:`stop_pool` lets the workers stop their tasks themselves on an interruption
#: (Ctrl-C) before it kills them: a task inside a long C call (DDS, a Parquet write) sees the
#: signal only when the call returns.
KILL_AFTER = 0.5


def stop_pool(ex: ProcessPoolExecutor, kill_after: float | None = None) -> None:
    """Shut down a pool whose work is no longer wanted, without waiting for the tasks running to end.

    The tasks not started are cancelled, and the workers get ``SIGUSR1`` until they are
    gone: a task run by :func:`run_stoppable` stops where it is (its result, ``None``, is
    thrown away), a task already handed to a worker is stopped as it starts, and each
    worker exits as after any task (a worker between tasks ignores the signal).
    (Terminating the workers instead makes the pool "broken", which Python 3.11's executor
    does not always survive: a cancelled task then fails its manager thread.)  Returns
    once the workers are gone.

    ``kill_after`` (seconds; an interruption passes :data:`KILL_AFTER`): the workers still
    running then are killed (``SIGKILL``), so that the call returns within about that time
    whatever the tasks are doing; the futures of the tasks they ran get
    :class:`~concurrent.futures.process.BrokenProcessPool`.  A worker writes nothing under
    a final name before it is complete (parts are written under temporary names), so a kill
    leaves nothing half-written.
    """
    manager = getattr(ex, "_executor_manager_thread", None)  # ProcessPoolExecutor's own
    processes = list((getattr(ex, "_processes", None) or {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    if manager is None or not hasattr(signal, "SIGUSR1"):
        ex.shutdown(wait=True)
        return
    deadline = None if kill_after is None else time.monotonic() + kill_after
    while manager.is_alive():
        # Killed only once the manager has dropped the cancelled tasks (it clears
        # _cancel_pending_futures then): Python 3.11's manager fails on a cancelled future
        # when it finds the pool broken.
        now = time.monotonic()
        kill = deadline is not None and now > deadline and not ex._cancel_pending_futures
        if deadline is not None and now > deadline + 2:
            break  # the workers are killed; a manager thread stuck past that is not waited for
        for p in processes:
            if p.is_alive():
                try:
                    os.kill(p.pid, signal.SIGKILL if kill else signal.SIGUSR1)  # type: ignore[arg-type]
                except OSError:  # gone already
                    pass
        manager.join(0.05)
    for p in processes:
        p.join(None if deadline is None else 1)
