"""Imports at start-up without the cyclic garbage collector going over them (#23 item 4).

A command's start imports modules that make some hundred thousand objects (classes,
functions, tables) and hardly any garbage; the collector, run every few hundred allocations,
goes over the growing heap again and again meanwhile, and the interpreter's exit once more:
5-10 % of the start of ``handrec validate`` on a small file.  :func:`imports_without_gc`
pauses it for such a block of imports and then freezes what is there (:func:`gc.freeze`:
left out of later collections, which it would survive anyway), as a process pool does before
it forks (:func:`handrec.runs.pool.start_pool`).  Nothing else changes.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator

__all__ = ["imports_without_gc"]


@contextlib.contextmanager
def imports_without_gc(module: str) -> Iterator[None]:
    """The block with the collector paused, its objects frozen after it, when ``module`` is not
    imported yet (the block imports it: a start); otherwise, or with the collector off, as it is."""
    if module in sys.modules or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
