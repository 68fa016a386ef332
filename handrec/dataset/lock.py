"""One writer per dataset folder: an advisory lock held while ``convert`` writes it.

The lock is ``DIR/.handrec-lock`` held with :func:`fcntl.flock`; the kernel releases it when the
process ends, however it ends (kill -9 and the OOM killer included), so a stale lock never
blocks a later run.  The file holds the holder's process id, for the message a second run prints.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

__all__ = ["LOCK_NAME", "DatasetBusy", "DatasetLock"]

LOCK_NAME = ".handrec-lock"


class DatasetBusy(OSError):
    """Another process holds the dataset's lock: ``holder`` is its process id (``None`` if unknown)."""

    def __init__(self, folder: Path, holder: int | None) -> None:
        who = f" (process {holder})" if holder else ""
        super().__init__(f"another convert is writing {folder}{who}")
        self.folder = folder
        self.holder = holder


class DatasetLock:
    """Hold the write lock of dataset folder ``folder`` (created if missing) for a ``with`` block.

    ``wait=False`` raises :class:`DatasetBusy` at once when another process holds it;
    ``wait=True`` blocks until it is free, calling ``on_wait(holder)`` once before it blocks.
    Where ``fcntl`` does not exist (Windows) the lock is a no-op.
    """

    def __init__(self, folder: Path, *, wait: bool = False, on_wait=None) -> None:
        self.folder = Path(folder)
        self.wait = wait
        self.on_wait = on_wait
        self._fd: int | None = None

    def _holder(self) -> int | None:
        try:
            text = (self.folder / LOCK_NAME).read_text().strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def __enter__(self) -> DatasetLock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return self
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not self.wait:
                    raise DatasetBusy(self.folder, self._holder()) from None
                if self.on_wait is not None:
                    self.on_wait(self._holder())
                fcntl.flock(fd, fcntl.LOCK_EX)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock (the file stays: never unlinked)
            self._fd = None
