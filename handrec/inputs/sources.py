"""Where an input's bytes are, and :class:`Input`, which opens them and streams their decoded lines.

A source says where the bytes are and travels to a worker process: a file on disk
(:class:`FileSource`, maybe compressed), a member of a zip or tar archive
(:class:`ZipSource`, :class:`TarSource`) or bytes read once into memory
(:class:`MemorySource`: standard input, a pipe).  :meth:`Input.lines` reads them in
blocks, hashed, within the size limits, and decodes them (:mod:`handrec.inputs.decode`).
Zip files are kept open per process (:func:`close_archives`).
"""

from __future__ import annotations

import hashlib
import os
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from handrec.diagnostics import Diagnostic, make
from handrec.inputs.decode import LineStream, _decode_items
from handrec.inputs.limits import DEFAULT_LIMITS, InputError, Limits, SizeLimitError
from handrec.inputs.streams import (
    _NO_HASH,
    _READ_ERRORS,
    CHUNK_BYTES,
    _broken_off,
    _closing,
    _decompressor,
    _member_damage,
    _raw_lines,
    _Readable,
    _reason,
    _Stream,
    _UntilError,
)

__all__ = ["Input", "FileSource", "ZipSource", "TarSource", "MemorySource", "Source", "close_archives"]


@dataclass(frozen=True, slots=True)
class FileSource:
    """A file on disk; ``compression`` is ``None``, ``"gzip"``, ``"bz2"`` or ``"xz"``."""

    path: str
    compression: str | None = None


@dataclass(frozen=True, slots=True)
class ZipSource:
    """A member of a zip archive: archive path on disk, member name as stored, declared size."""

    archive: str
    member: str
    size: int


@dataclass(frozen=True, slots=True)
class TarSource:
    """A member of a tar archive (maybe compressed).

    ``data`` holds the member's bytes when it is at most
    :attr:`Limits.inline_bytes`; otherwise the member is read from the
    archive stream (or, if that has moved on, by reopening the archive).
    """

    archive: str
    member: str
    size: int
    data: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class MemorySource:
    """Bytes read once into memory: standard input, a pipe or a device named explicitly.

    ``data`` is the input's bytes (decompressed when the stream was
    compressed), at most :attr:`Limits.member_bytes`; they travel with the
    input to a worker process.  ``error``: why the bytes end there, when the
    stream broke off (compressed data cut short or corrupt): reading the
    input gives ``data`` and then fails with it, as reading the stream did.
    """

    name: str
    data: bytes = field(repr=False)
    error: str | None = None


Source = FileSource | ZipSource | TarSource | MemorySource


class _TarCursor:
    """Where a streaming tar reader is: ``token`` changes each time it moves to the next member."""

    __slots__ = ("token",)

    def __init__(self) -> None:
        self.token = 0


@dataclass
class Input:
    """One input to read: a file, a compressed file, or an archive member.

    ``path`` is shown in diagnostics (``archive.zip!inner/x.pbn`` for a
    member); ``format`` is ``"pbn"``, ``"lin"`` or ``None`` (not a bridge
    file); ``diagnostics`` collects file-level faults found while reading
    (decoding F002, size limit F010).  ``source`` says where the bytes are
    (picklable: an input can be read in another process); ``opener``, when
    given, overrides it.  ``size`` is the input's share of the bytes on disk
    (file size; compressed size of a member), for progress.  After a
    complete read by :meth:`lines`, ``sha256`` is the hex SHA-256 of the
    input's bytes (decompressed) and ``nbytes`` their count; ``sha256``
    stays ``None`` when the read stopped early.
    """

    path: str
    format: str | None
    opener: Callable[[], BinaryIO] | None = field(repr=False, default=None)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: Source | None = None
    size: int = 0
    limits: Limits = DEFAULT_LIMITS
    sha256: str | None = None
    nbytes: int = 0
    _live: tuple[_TarCursor, int, bytes, _Readable] | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_live"] = None  # an open archive stream stays in its process
        return state

    @property
    def picklable(self) -> bool:
        """Whether this input can be read in another process (no open stream, no custom opener)."""
        if self.opener is not None:
            return False
        return not (isinstance(self.source, TarSource) and self.source.data is None)

    def open(self) -> _Readable:
        """A binary stream of the input's bytes, decompressed.

        :raises OSError: (or another of the archive modules' errors) when it
            cannot be opened.
        """
        if self.opener is not None:
            return self.opener()
        src = self.source
        if isinstance(src, FileSource):
            if src.compression is None:
                return open(src.path, "rb")
            return _UntilError(_decompressor(src.compression, src.path))
        if isinstance(src, ZipSource):
            return _UntilError(_zipfile(src.archive).open(src.member))
        if isinstance(src, MemorySource):
            return _Stream(src.data, None, error=src.error)
        if isinstance(src, TarSource):
            if src.data is not None:
                return _Stream(src.data, None)
            live, self._live = self._live, None
            if live is not None and live[0].token == live[1]:
                return _Stream(live[2], _UntilError(live[3]))
            tf = tarfile.open(src.archive, "r:*")  # the stream has moved on: reopen (random access)
            try:
                f = tf.extractfile(src.member)
                if f is None:
                    raise InputError("no longer a regular file")
            except BaseException:
                tf.close()
                raise
            return _Stream(b"", _UntilError(f), (tf,))
        raise InputError(f"{self.path}: nothing to read")

    def lines(self, *, digest: bool = True) -> LineStream:
        """Stream the decoded lines (see :func:`decode_lines`); set ``sha256`` and ``nbytes`` at the end.

        With ``digest=False`` the bytes are not hashed (``sha256`` stays ``None``): for a
        reader that does not keep the hash (``handrec validate``), a few per cent faster.

        Going over :attr:`Limits.member_bytes` (a compressed file or
        member) or :attr:`Limits.max_file_bytes` (a plain file that grew
        since it was listed, a device) stops the reading with an F010
        error in ``diagnostics``; a line over :attr:`Limits.max_line_bytes`
        is cut with an F013 error.

        :raises InputError: when the input cannot be opened or read; its message
            is the reason (the caller knows the path).  When the reading fails
            part-way (compressed data cut short or corrupt, an I/O error), every
            whole line before the failure is given first (the line it cuts is
            not) and the message says after how many bytes it stopped.

        The lines come as a :class:`LineStream`, which also gives them block by block.
        """
        return LineStream(self._items(digest))

    def _items(self, digest: bool = True) -> Iterator[str | Iterator[str]]:
        """The body of :meth:`lines`: the decoded text item by item (:func:`_decode_items`)."""
        self.sha256 = None
        try:
            stream = self.open()
        except _READ_ERRORS as e:
            raise InputError(_reason(e)) from e
        hasher = hashlib.sha256() if digest else _NO_HASH
        counter = [0]
        limit = self._byte_limit
        line_limit = self.limits.max_line_bytes
        try:
            raw = _raw_lines(stream, limit, hasher, counter, line_limit)
            yield from _decode_items(raw, self.path, self.diagnostics, line_limit)
        except SizeLimitError:
            what = "decompressed input" if self._limited else "file"
            self.diagnostics.append(
                make("F010", None, None, path=self.path, what=what, limit=limit, action="reading stopped")
            )
            return
        except _READ_ERRORS as e:
            why = _member_damage(e) if isinstance(self.source, ZipSource) else _reason(e)
            raise InputError(why + _broken_off(counter[0], self._limited)) from e
        finally:
            stream.close()
        self.sha256 = hasher.hexdigest() if digest else None
        self.nbytes = counter[0]

    def content_hash(self) -> str | None:
        """The hex SHA-256 of the input's bytes (decompressed), by one extra read; ``None`` if unreadable.

        Reads at most :attr:`Limits.member_bytes` for a compressed file or
        member, :attr:`Limits.max_file_bytes` for a plain file (over it: ``None``).
        """
        src = self.source
        if isinstance(src, MemorySource) and src.error is not None:
            return None  # the bytes that could be read are not the input
        if isinstance(src, (TarSource, MemorySource)) and src.data is not None:
            return hashlib.sha256(src.data).hexdigest()
        if self._live is not None:
            return None  # an archive stream can be read only once: keep it for the parse
        limit = self._byte_limit
        hasher = hashlib.sha256()
        try:
            with _closing(self.open()) as f:
                n = 0
                while chunk := f.read(CHUNK_BYTES):
                    n += len(chunk)
                    if limit is not None and n > limit:
                        return None
                    hasher.update(chunk)
        except _READ_ERRORS:
            return None
        return hasher.hexdigest()

    @property
    def _limited(self) -> bool:
        """Whether the bytes are decompressed (an archive member, a compressed file)."""
        src = self.source
        return isinstance(src, (ZipSource, TarSource, MemorySource)) or (
            isinstance(src, FileSource) and src.compression is not None
        )

    @property
    def _byte_limit(self) -> int:
        return self.limits.member_bytes if self._limited else self.limits.max_file_bytes


# Zip files, cached per process.
_ZIPS: dict[str, tuple[int, tuple[int, int], zipfile.ZipFile]] = {}


def _zipfile(path: str) -> zipfile.ZipFile:
    """An open :class:`zipfile.ZipFile`, kept per process (its central directory is read once).

    Keyed on the file's size and mtime; a copy inherited across ``fork`` is
    never used (it would share the file offset with the parent).
    """
    st = os.stat(path)
    key = (st.st_size, st.st_mtime_ns)
    pid = os.getpid()
    hit = _ZIPS.get(path)
    if hit is not None:
        if hit[0] == pid and hit[1] == key:
            return hit[2]
        del _ZIPS[path]
        if hit[0] == pid:
            hit[2].close()
    while len(_ZIPS) >= 4:  # keep a few: the oldest goes
        oldest = next(iter(_ZIPS))
        opid, _, ozf = _ZIPS.pop(oldest)
        if opid == pid:
            ozf.close()
    zf = zipfile.ZipFile(path)
    _ZIPS[path] = (pid, key, zf)
    return zf


def close_archives() -> None:
    """Close the zip files this process keeps open (see :func:`_zipfile`)."""
    pid = os.getpid()
    for opid, _, zf in _ZIPS.values():
        if opid == pid:
            zf.close()
    _ZIPS.clear()
