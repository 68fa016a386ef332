"""Starting the local process pool that ``handrec convert`` and ``handrec validate`` share.

A module of its own so that ``validate`` gets the pool without importing
:mod:`handrec.store` (pyarrow); :func:`handrec.store.convert` uses the same
function.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["start_pool"]


def start_pool(jobs: int) -> ProcessPoolExecutor:
    """A started process pool of ``jobs`` workers: ``fork`` on Linux when this process has one thread, else the default.

    The workers are started before returning, so the caller may start threads afterwards.
    """
    ctx = None
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        ctx = multiprocessing.get_context("fork")
    ex = ProcessPoolExecutor(jobs, mp_context=ctx)
    ex.submit(int).result()  # start the workers now, before the caller starts any thread
    return ex
