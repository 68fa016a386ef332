"""Starting the local process pool that ``handrec convert`` and ``handrec validate`` share.

A module of its own so that ``validate`` gets the pool without importing
:mod:`handrec.store` (pyarrow); :func:`handrec.store.convert` uses the same
function.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["start_pool"]


def _ignore_interrupt() -> None:
    """A worker ignores Ctrl-C (SIGINT goes to the whole process group): the parent, which
    gets it too, stops the run and the pool, without a traceback from every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_pool(jobs: int) -> ProcessPoolExecutor:
    """A started process pool of ``jobs`` workers: ``fork`` on Linux when this process has one thread, else the default.

    The workers are started before returning, so the caller may start threads afterwards.
    """
    ctx = None
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        ctx = multiprocessing.get_context("fork")
    ex = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_ignore_interrupt)
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
