"""Byte streams of an input: blocks of whole lines, decompression that loses nothing, read errors.

:func:`_raw_lines` reads a stream in blocks of :data:`CHUNK_BYTES` and gives them as
blocks of whole lines, hashing and counting the bytes, with the size limit of the input
and the line limit (a longer line is never held in memory).  :class:`_UntilError` reads a
decompressing stream (gzip, bzip2, xz, a zip or tar member) so that every byte
decompressed before the data turns out damaged is given before the error.  The reasons
given when a read fails (F001, :class:`~handrec.inputs.limits.InputError`) are made here.
"""

from __future__ import annotations

import bz2
import lzma
import os
import re
import select
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO, Protocol

from handrec.diagnostics import Diagnostic, make
from handrec.inputs.limits import SizeLimitError
from handrec.inputs.sniff import SNIFF_BYTES

__all__ = ["CHUNK_BYTES"]


#: Read size when streaming an input (bytes).
CHUNK_BYTES = 1 << 20


#: Exceptions that reading a damaged file, compressed stream or archive can raise.
_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    zipfile.BadZipFile,
    tarfile.TarError,
    RuntimeError,  # zipfile: encrypted member
    NotImplementedError,  # zipfile: unsupported compression method
    ValueError,  # zipfile/tarfile: malformed headers
)


class _Readable(Protocol):
    def read(self, n: int = -1, /) -> bytes: ...

    def close(self) -> None: ...


class _Stream:
    """A readable made of some bytes already read (``head``) and the rest of a stream.

    Closing it closes ``rest`` and every object in ``owners`` (an archive
    reopened just for this member).  Without ``rest``, ``error`` (when given)
    is raised (:class:`EOFError`) once ``head`` is read: bytes kept from a
    stream that broke off (:attr:`MemorySource.error`).  A read gives
    ``head`` (or part of it) alone, then the rest: a failure of ``rest``
    never loses ``head``.
    """

    def __init__(
        self, head: bytes, rest: _Readable | None, owners: tuple[Any, ...] = (), error: str | None = None
    ) -> None:
        self._head = memoryview(head)
        self._rest = rest
        self._owners = owners
        self._error = error

    def read(self, n: int = -1, /) -> bytes:
        if self._head:
            if n < 0 or n >= len(self._head):
                out = bytes(self._head)
                self._head = memoryview(b"")
                return out
            out = bytes(self._head[:n])
            self._head = self._head[n:]
            return out
        if self._rest is not None:
            return self._rest.read(n)
        if self._error is not None:
            raise EOFError(self._error)
        return b""

    def close(self) -> None:
        if self._rest is not None:
            self._rest.close()
        for o in self._owners:
            o.close()

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _UntilError:
    """A decompressing stream (gzip, bz2, xz; a zip or tar member) read so that nothing is lost
    before a failure: every byte decompressed before the data turns out cut short or corrupt is
    given, and the error is raised by the next read (and every later one).

    The stream's own ``read(n)`` drops what it decompressed in that call when it fails; this one
    gathers ``read1`` calls, each giving what one step of decompression yields.

    A zip member's CRC-32 is checked here rather than by zipfile, which checks it in the step
    that reaches the member's end and then drops that step's data (all of a member of under
    :data:`CHUNK_BYTES`): the data is given, then the same ``BadZipFile`` is raised at its end.
    """

    __slots__ = ("_f", "_error", "_crc", "_expected_crc")

    def __init__(self, f: Any) -> None:
        self._f = f
        self._error: BaseException | None = None
        self._crc = 0
        self._expected_crc: int | None = None
        if isinstance(f, zipfile.ZipExtFile) and getattr(f, "_expected_crc", None) is not None:
            self._expected_crc, f._expected_crc = f._expected_crc, None  # zipfile then skips its check

    def read(self, n: int = -1, /) -> bytes:
        if self._error is not None:
            raise self._error
        chunks: list[bytes] = []
        got = 0
        expected = self._expected_crc
        try:
            while n < 0 or got < n:
                chunk = self._f.read1(CHUNK_BYTES if n < 0 else n - got)
                if not chunk:
                    if expected is not None and self._crc != expected:  # the member's end
                        raise zipfile.BadZipFile(f"Bad CRC-32 for file {self._f.name!r}")
                    break
                if expected is not None:
                    self._crc = zlib.crc32(chunk, self._crc)
                chunks.append(chunk)
                got += len(chunk)
        except _READ_ERRORS as e:
            self._error = e
            if not chunks:
                raise
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> _UntilError:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _TimedFifo:
    """A FIFO opened without waiting for a writer, whose reads give up after ``timeout`` seconds of silence.

    ``open()`` of a FIFO blocks until some process opens it to write, for ever if none
    does; opened with ``O_NONBLOCK`` it returns at once, and each read first polls for
    data (Linux reports no hang-up on a FIFO that never had a writer, so the poll waits
    for one).  A read that waits longer than ``timeout`` seconds raises
    :class:`TimeoutError` naming ``--read-timeout``.

    :raises OSError: when the FIFO cannot be opened.
    """

    __slots__ = ("_fd", "_timeout")

    def __init__(self, path: str | os.PathLike[str], timeout: float) -> None:
        self._fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self._timeout = timeout

    def read(self, n: int = -1, /) -> bytes:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        while True:
            if not poller.poll(self._timeout * 1000):
                raise TimeoutError(f"nothing written to it for {self._timeout:g} s (--read-timeout)")
            try:
                return os.read(self._fd, CHUNK_BYTES if n < 0 else n)
            except BlockingIOError:  # woken without data (another reader took it): wait again
                continue

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> _TimedFifo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _closing:
    def __init__(self, f: _Readable) -> None:
        self.f = f

    def __enter__(self) -> _Readable:
        return self.f

    def __exit__(self, *exc: object) -> None:
        self.f.close()


class _NoHash:
    """A stand-in for a hashlib object that hashes nothing (``Input.lines(digest=False)``)."""

    def update(self, data: bytes, /) -> None:
        pass


_NO_HASH = _NoHash()


def _raw_lines(
    stream: _Readable, limit: int | None, hasher: Any, counter: list[int], line_limit: int | None = None
) -> Iterator[bytes]:
    """Split a binary stream into blocks of whole lines, reading in chunks.

    Each block is the whole lines of one chunk read (a line that began in an
    earlier chunk is a block of its own).  A line ends in ``\\n`` or, when
    the chunk read has no later ``\\n``, in ``\\r`` (the last line may have
    no end; a line may hold more ``\\r``: :func:`decode_lines` splits it).  A line still open when more than
    ``line_limit`` bytes of it were read is kept to ``line_limit + 1``
    bytes and the rest of it is dropped as it is read, so memory stays
    bounded whatever the line (``decode_lines`` cuts and reports it).
    Hashes every byte into ``hasher`` and counts them in ``counter[0]`` (as
    they are read: when the stream fails, it holds the bytes read before).

    :raises SizeLimitError: once more than ``limit`` bytes were read.
    """
    pending: list[bytes] = []
    held = 0  # bytes in ``pending``: the line still open
    dropping = False  # the open line went over ``line_limit``: drop the rest of it
    total = 0
    while chunk := stream.read(CHUNK_BYTES):
        total += len(chunk)
        if limit is not None and total > limit:
            raise SizeLimitError(f"more than {limit} bytes")
        hasher.update(chunk)
        counter[0] = total
        if dropping:
            m = _LINE_END.search(chunk)
            if m is None:
                continue
            chunk = chunk[m.start() :]
            dropping = False
        last = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
        if last < 0:
            pending.append(chunk)  # a long line: keep the pieces, join once
            held += len(chunk)
        else:
            start = 0
            if pending:  # the open line ends in this chunk: it goes alone
                start = _LINE_END.search(chunk).end()  # type: ignore[union-attr]
                pending.append(chunk[:start])
                yield b"".join(pending)
                pending.clear()
            if start <= last:
                yield chunk[start : last + 1] if start or last + 1 < len(chunk) else chunk
            held = len(chunk) - last - 1
            if held:
                pending.append(chunk[last + 1 :])
        if line_limit is not None and held > line_limit:
            keep = b"".join(pending)[: line_limit + 1]
            pending[:] = [keep]
            held = len(keep)
            dropping = True
    counter[0] = total
    if pending:
        yield b"".join(pending)


_LINE_END = re.compile(rb"\r\n?|\n")  # a CR LF is one line end (so a line read in two chunks ends whole)


def _decompressor(kind: str, path: str | BinaryIO) -> _Readable:
    if kind == "gzip":
        import gzip  # here: a plain file needs none (bz2 and lzma: shutil imports them anyway)

        return gzip.open(path, "rb")
    if kind == "bz2":
        return bz2.open(path, "rb")
    return lzma.open(path, "rb")


def _read_all(f: _Readable, limit: int) -> bytes | None:
    """All the bytes of a stream, or ``None`` once more than ``limit`` were read.

    :raises: what reading ``f`` raises.
    """
    data, error = _read_until_error(f, limit)
    if error is not None:
        raise error
    return data


def _read_until_error(f: _Readable, limit: int) -> tuple[bytes | None, BaseException | None]:
    """All the bytes of a stream: ``(data, None)``; ``(None, None)`` once more than ``limit``
    were read; ``(the bytes read before, error)`` when reading failed part-way (``f`` an
    :class:`_UntilError`: every byte decompressed before the failure)."""
    if limit < 0:
        return None, None
    chunks: list[bytes] = []
    n = 0
    try:
        while chunk := f.read(min(CHUNK_BYTES, limit + 1 - n)):
            n += len(chunk)
            if n > limit:
                return None, None
            chunks.append(chunk)
    except _READ_ERRORS as e:
        return b"".join(chunks), e
    return b"".join(chunks), None


def _read_head(f: _Readable) -> tuple[bytes, BaseException | None]:
    """The first :data:`SNIFF_BYTES` of a stream, or as many as it gives before a read error:
    ``(head, None)``, or ``(b"", error)`` when not a byte could be read.  ``f`` is an
    :class:`_UntilError`: a failure after some bytes comes again at the next read."""
    try:
        return f.read(SNIFF_BYTES), None
    except _READ_ERRORS as e:
        return b"", e


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


def _f001(path: str, e: BaseException | str) -> Diagnostic:
    return make("F001", None, None, path=path, reason=e if isinstance(e, str) else _reason(e))


def _broken_off(n: int, decompressed: bool) -> str:
    """What an :class:`InputError` adds when the reading failed after ``n`` bytes."""
    if n <= 0:
        return ""
    return (
        f" (reading stopped after {n} bytes{', decompressed' if decompressed else ''}: "
        "the boards before are read, the one cut short is not)"
    )


def _zip_damage(e: BaseException) -> str:
    """The reason a zip archive cannot be opened (its central directory, at its end, is read first)."""
    if isinstance(e, OSError):
        return _reason(e)  # the file itself: permission, I/O error
    text = _reason(e)
    if text == "File is not a zip file":  # no end-of-central-directory record: cut short, most often
        return "damaged or truncated zip archive: no central directory found"
    return f"damaged zip archive: {text}"


def _member_damage(e: BaseException) -> str:
    """The reason a member of a zip archive (whose central directory was read) cannot be read."""
    if isinstance(e, NotImplementedError):  # zipfile: "That compression method is not supported"
        return f"zip member cannot be read: {_reason(e)}"
    if isinstance(e, RuntimeError):  # zipfile: "File <ZipInfo ...> is encrypted, password required..."
        return "encrypted zip member: a password is needed to read it"
    return f"damaged zip member: {_reason(e)}"
