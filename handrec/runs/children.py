"""This process's child processes, ended at once (an interrupted run: Ctrl-C, a fault on its way).

Used by the command line's Ctrl-C handling (:mod:`handrec.cli.interrupt`) and by
:func:`handrec.runs.convert.convert` for a local Dask cluster's workers.
"""

from __future__ import annotations

import contextlib
import os
import signal

__all__ = ["kill_children"]


def kill_children() -> None:
    """SIGKILL the worker processes this process started (multiprocessing's, and any other
    child listed in /proc), without waiting for them."""
    me = os.getpid()
    pids: set[int] = set()
    try:
        import multiprocessing

        pids.update(p.pid for p in multiprocessing.active_children() if p.pid)
    except Exception:  # noqa: BLE001 - a half torn-down module: /proc still tells
        pass
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == me:
                            pids.add(int(entry))
                except (OSError, ValueError, IndexError):
                    continue
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
