"""One writer per dataset folder: an advisory lock held while ``convert`` writes it.

The lock is :func:`fcntl.flock` on the dataset folder itself (a directory can be locked like a
file on Linux and the BSDs), so nothing is written for it, and the kernel releases it when the
process ends, however it ends (kill -9 and the OOM killer included): a stale lock never blocks
a later run.

A process forked while it holds a lock (the workers of ``convert --jobs``'s pool) would
share it, and keep the folder locked for a moment after the holder itself was killed: a
forked child closes its copies of the locks held (:func:`os.register_at_fork`), so the lock
is the taking process's alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

__all__ = ["DatasetBusy", "DatasetLock"]

#: The descriptors of the locks this process holds.
_HELD: set[int] = set()


def _drop_in_child() -> None:
    """In a forked child: close the copies of the parent's locks (the parent keeps them)."""
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_in_child)


class DatasetBusy(OSError):
    """Another process holds the lock of dataset folder ``folder``."""

    def __init__(self, folder: Path) -> None:
        super().__init__(f"another convert is writing {folder}")
        self.folder = folder


class DatasetLock:
    """Hold the write lock of dataset folder ``folder`` (created if missing) for a ``with`` block.

    ``wait=False`` raises :class:`DatasetBusy` at once when another process holds it;
    ``wait=True`` blocks until it is free, calling ``on_wait()`` once before it blocks.
    Where ``fcntl`` does not exist (Windows) the lock is a no-op.

    :raises OSError: when the folder cannot be made or opened.
    """

    def __init__(self, folder: Path, *, wait: bool = False, on_wait: Callable[[], None] | None = None) -> None:
        self.folder = Path(folder)
        self.wait = wait
        self.on_wait = on_wait
        self._fd: int | None = None
        self._created = False

    def __enter__(self) -> DatasetLock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return self
        while True:
            created = not self.folder.exists()
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if not self.wait:
                        raise DatasetBusy(self.folder) from None
                    if self.on_wait is not None:
                        self.on_wait()
                        self.on_wait = None
                    fcntl.flock(fd, fcntl.LOCK_EX)
                # The holder may have removed the folder it made and never wrote (see __exit__):
                # then the lock is on a folder that is gone, and the one to lock is made anew.
                try:
                    same = os.stat(self.folder).st_ino == os.fstat(fd).st_ino
                except FileNotFoundError:
                    same = False
            except BaseException:
                os.close(fd)
                raise
            if same:
                break
            os.close(fd)
        self._fd, self._created = fd, created
        _HELD.add(fd)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._fd is None:
            return
        try:
            if self._created:
                self.folder.rmdir()  # a folder this run made and never wrote is not left behind (only if empty)
        except OSError:
            pass
        finally:
            _HELD.discard(self._fd)
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None
