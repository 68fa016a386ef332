"""Bytes to text lines: finding inputs in files, folders and archives; decoding; sniffing PBN vs LIN.

This module knows nothing of bridge.  It turns paths into :class:`Input`
objects whose :meth:`Input.lines` streams decoded text lines, one at a time,
so that a file is never held whole in memory.

**Inputs.**  A path may be a file, a folder (searched recursively, sorted,
hidden entries skipped) or an archive: zip, tar, tar.gz / tar.bz2 / tar.xz,
and a single file compressed with gzip, bzip2 or xz.  Archives and
compression are recognised by content (magic bytes; a file named ``.zip``
is also looked for a zip central directory at its end, as a
self-extracting archive has), PBN and LIN by
:func:`sniff`, never by extension alone.  Archive members are streamed with
:mod:`zipfile` and :mod:`tarfile` (``mode="r|*"``, one pass) and never
unpacked to disk; archives inside archives are not opened (F009).  A member's
display path is ``archive.zip!inner/path.pbn`` (the archive's display path,
``!``, the member name without a leading ``./``); diagnostics and the
``files`` table key on it.

**Archive safety.**  A member whose name is absolute or contains ``..`` is
refused (F008) -- handrec never writes members anywhere, but such a name is a
sign of a hostile archive; links, devices and FIFOs are skipped (F009); size
limits (:class:`Limits`: 1 GiB per member or compressed file decompressed,
4 GiB per archive by default) stop a compression bomb (F010): a member
whose declared size is over the member limit is not read, an archive whose
members add up to more than the archive limit is not read further, and a
compressed file (which declares no size) stops being read at the member
limit.

**Other limits.**  A plain file over :attr:`Limits.max_file_bytes` (4 GiB
by default) is not read (F010); a line over :attr:`Limits.max_line_bytes`
(1 MiB by default) is cut there and the rest of it is skipped without
being held in memory (F013), the following lines keep their numbers; a
board (a PBN game, a LIN record) over :attr:`Limits.max_board_bytes` is not
parsed: the parsers keep none of its text past the limit, report it (F016)
and go on at the next board (the limit reaches them through
:func:`handrec.formats.dispatch.read_input`).  Inside folders, FIFOs, devices and
sockets are skipped (F014).  Nothing read from an input is ever used as a
path to write to.

**Pipes.**  The path ``-`` (standard input, shown as ``<stdin>``) and a
file named explicitly that is not a regular file (a FIFO, ``/dev/stdin``,
``<(command)``, a device) are opened once and read into memory, up to
:attr:`Limits.member_bytes` (F010 over it), like a decompressed member
(see :func:`iter_entries`).

**Which files.**  Inside folders and archives, a file that sniffs as PBN
or LIN is read, and so is one named ``.pbn``/``.lin`` (``.pbn.gz``...)
that does not (reported F004); other files are skipped quietly.  A file
met twice (same device and inode) is read once.  An input named
explicitly (or piped) whose first bytes are blank is an empty PBN file
(F018 warning, as an empty ``.pbn``), whatever its name.

**Damaged archives and compressed files.**  Nothing damaged is read as
text, nor dropped without a word: a zip whose central directory is cut
off or broken, a file named as an archive (``.zip``, ``.tar``,
``.tar.gz``...) that is none nor PBN or LIN, a compressed file whose
data cannot be decompressed at all: F001 for the archive or file (such a
member of an archive is not opened, F009, as a sound one is not); a zip
member that cannot be read: F001 for the member, the other members are
read; a truncated tar: F001 after the members before the cut.  A
compressed file or member whose data breaks off part-way (cut short,
corrupt) is read up to there: its whole lines before the failure are
given, then the reading fails (:meth:`Input.lines`, F001 from the
reader): the boards before the cut are kept, the one it cuts is not.

**Decoding** follows pbn.md §1 and §18: a UTF-8 byte-order mark is stripped;
each line is decoded as UTF-8, and a line that is not valid UTF-8 is decoded
as ISO-8859-1 (PBN's own character set) with one F002 warning per file.
The bytes are read in blocks of :data:`CHUNK_BYTES` and a block of whole
lines that is valid UTF-8 is decoded and split in one go (see
:func:`decode_lines`).
Line ends CR LF, LF and a lone CR are all accepted.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import re
import stat
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from handrec.diagnostics import Diagnostic, make
from handrec.model import Span

__all__ = [
    "Input",
    "InputError",
    "Limits",
    "FileSource",
    "ZipSource",
    "TarSource",
    "MemorySource",
    "STDIN",
    "iter_inputs",
    "iter_entries",
    "sniff",
    "decode_lines",
    "total_bytes",
    "parse_size",
    "STATUSES",
    "SKIP_CODES",
    "entry_status",
]

#: How many bytes :func:`sniff` looks at.
SNIFF_BYTES = 16384
#: Read size when streaming an input (bytes).
CHUNK_BYTES = 1 << 20

_PBN_TAG = re.compile(rb'^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"', re.M)
_PBN_HEADER = re.compile(rb"^(?:\xef\xbb\xbf)?%[ \t]*PBN[ \t]+\d", re.M)  # "% PBN 2.1" (PBN 2.1 §2)
_LIN_START = re.compile(rb"\A\s*[A-Za-z]{2}\|")
_LIN_URL = re.compile(rb"[?&]lin=\s*[A-Za-z]{2}(?:\||%7C)", re.I)

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


class InputError(OSError):
    """An input path cannot be read (missing, a folder given as a file, no permission, damaged)."""


class SizeLimitError(InputError):
    """Reading an input went over :attr:`Limits.member_bytes` (reported as F010)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Size limits on inputs, in bytes (decompressed).

    ``member_bytes``: one archive member or one compressed file;
    ``archive_bytes``: all regular members of one archive together;
    ``inline_bytes``: tar members up to this size are read into memory when
    listed (so they can be read again, or sent to a worker process); larger
    ones are read from the archive stream;
    ``max_file_bytes``: one plain (not compressed) file: a larger one is not
    read (F010);
    ``max_line_bytes``: one line of any input: a longer line is cut at the
    limit, the rest of it is dropped and never held in memory (F013);
    ``max_board_bytes``: the text of one board (a PBN game, a LIN deal),
    counted in characters as decoded: a larger board is not parsed; it is
    reported (F016, at its first line) as a board of its own and the
    reading goes on at the next board.
    """

    member_bytes: int = 1 << 30
    archive_bytes: int = 4 << 30
    inline_bytes: int = 8 << 20
    max_file_bytes: int = 4 << 30
    max_line_bytes: int = 1 << 20
    max_board_bytes: int = 16 << 20


DEFAULT_LIMITS = Limits()


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


def sniff(head: bytes, name: str = "") -> str | None:
    """Guess the format of a file from its first bytes: ``"pbn"``, ``"lin"`` or ``None``.

    Content decides first (a PBN tag pair or a ``% PBN 2.1`` header line at
    the start of a line; a LIN
    ``xx|`` command pair at the start of the file, or a hand-viewer
    ``?lin=`` link); the extension
    ``.pbn``/``.lin`` decides only when the content says nothing (an empty
    or comment-only file) and is text (no NUL byte).

    >>> sniff(b'% PBN 2.1\\n[Event "x"]\\n')
    'pbn'
    >>> sniff(b"pn|a,b,c,d|st||md|3S...|")
    'lin'
    >>> sniff(b"", "empty.PBN"), sniff(b"| a | b |", "MANIFEST.md"), sniff(b"\\x89PNG\\r\\n\\x1a\\n\\0", "x.pbn")
    ('pbn', None, None)
    """
    if _PBN_TAG.search(head) or _PBN_HEADER.search(head):
        return "pbn"
    if _LIN_START.match(head.removeprefix(b"\xef\xbb\xbf")) or _LIN_URL.search(head):
        return "lin"
    if b"\0" in head:
        return None  # binary (or UTF-16/32) data: PBN and LIN are text, whatever the name says
    ext = os.path.splitext(name)[1].lower()
    if ext == ".pbn":
        return "pbn"
    if ext == ".lin":
        return "lin"
    return None


def decode_lines(
    stream: Iterable[bytes], path: str, diagnostics: list[Diagnostic], max_line_bytes: int | None = None
) -> Iterator[str]:
    """Yield the decoded lines of a binary stream, without line ends.

    ``stream`` gives one or more whole lines at a time, with their line ends
    (a file object gives one; :meth:`Input.lines` gives blocks of up to
    :data:`CHUNK_BYTES`); its last item may lack the line end, and a CR LF
    may be split between two items.

    Strips a UTF-8 byte-order mark; splits on CR LF, LF and lone CR;
    decodes each line as UTF-8, falling back to ISO-8859-1 (PBN 2.1 §2)
    and appending one F002 warning to ``diagnostics`` for the first such
    line.  A line longer than ``max_line_bytes`` is cut there (at a UTF-8
    character boundary) and gets an F013 error at the column where it was
    cut; the line numbers of the lines after it do not change.

    An item that is valid UTF-8 as a whole, holds no lone CR (but for a
    last CR, maybe the first half of a CR LF) and is no longer than
    ``max_line_bytes`` (so none of its lines is) is decoded and split in one
    go; any other item is read line by line as above.

    >>> diags = []
    >>> list(decode_lines([b'[Event "abcdefgh"]\\n', b"x"], "f.pbn", diags, max_line_bytes=10))
    ['[Event "ab', 'x']
    >>> [str(d) for d in diags]
    ['f.pbn:1:11: F013 error: line 1 is longer than the limit of 10 bytes: the rest of it is skipped']
    >>> list(decode_lines([b"a\\r\\nb\\nc\\r", b"\\nd\\re"], "f.pbn", []))
    ['a', 'b', 'c', 'd', 'e']
    """
    return chain.from_iterable(map(_item_lines, _decode_items(stream, path, diagnostics, max_line_bytes)))


def _item_lines(item: str | Iterator[str]) -> Iterable[str]:
    """The lines of one :func:`_decode_items` item."""
    return item.split("\n") if type(item) is str else item


def _decode_items(
    stream: Iterable[bytes], path: str, diagnostics: list[Diagnostic], max_line_bytes: int | None = None
) -> Iterator[str | Iterator[str]]:
    """:func:`decode_lines` item by item of ``stream``: for an item decoded in one go, its
    text (its lines joined by ``\\n``: ``text.split("\\n")`` are the lines); for any
    other item, an iterator of its lines, which decodes them (and reports F002, F013) as
    they are taken.  Each item's lines must all be taken before the next item is asked for.

    >>> [x if type(x) is str else list(x) for x in _decode_items([b"a\\r\\nb\\n", b"c\\rd"], "f", [])]
    ['a\\nb', ['c', 'd']]
    """
    # state shared with the line-by-line reader of an item: [lineno, warned, pending_cr]
    st = [0, False, False]
    first = True
    for item in stream:
        if first:
            first = False
            if item.startswith(b"\xef\xbb\xbf"):
                item = item[3:]
        if st[2] and item.startswith(b"\n"):
            item = item[1:]
            if not item:
                st[2] = False
                continue
        st[2] = False
        # fast path: the whole item at once
        cr = item.count(b"\r")
        # a last CR may be the first half of a CR LF split between two items
        split_crlf = cr and item[-1:] == b"\r" and cr - 1 == item.count(b"\r\n")
        if (max_line_bytes is None or len(item) <= max_line_bytes) and (split_crlf or cr == item.count(b"\r\n")):
            try:
                text = (item[:-1] if split_crlf else item).decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                st[2] = bool(split_crlf)
                if cr:
                    text = text.replace("\r\n", "\n")
                if text[-1:] == "\n" and not split_crlf:  # (a last CR, cut off, ended the last line)
                    text = text[:-1]  # the item's last line end
                st[0] += text.count("\n") + 1
                yield text
                continue
        yield _item_by_line(item, path, diagnostics, max_line_bytes, st)


def _item_by_line(
    item: bytes, path: str, diagnostics: list[Diagnostic], max_line_bytes: int | None, st: list[Any]
) -> Iterator[str]:
    """The lines of one item of :func:`_decode_items`, read line by line (``st``: its state)."""
    for raw in io.BytesIO(item) if b"\n" in item[:-1] else (item,):
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        elif raw.endswith(b"\r"):  # the item's last line, or a CR-only file
            st[2] = True
            raw = raw[:-1]
        parts = raw.split(b"\r") if b"\r" in raw else (raw,)
        for part in parts:
            st[0] += 1
            lineno = st[0]
            cut = max_line_bytes is not None and len(part) > max_line_bytes
            if cut:
                part = _cut(part, max_line_bytes)  # type: ignore[arg-type]
            try:
                text = part.decode("utf-8")
            except UnicodeDecodeError:
                if not st[1]:
                    st[1] = True
                    diagnostics.append(
                        make("F002", None, Span(lineno, 1), path=path, encoding="UTF-8", fallback="ISO-8859-1")
                    )
                text = part.decode("latin-1")
            if cut:
                diagnostics.append(
                    make("F013", None, Span(lineno, len(text) + 1), path=path, line=lineno, limit=max_line_bytes)
                )
            yield text


class LineStream:
    """An iterator of decoded lines (:meth:`Input.lines`) that also offers them block by
    block: ``items`` gives the :func:`_decode_items` of the input (decoded blocks of whole
    lines, for a reader that frames a whole block at once).  Read one or the other."""

    __slots__ = ("items", "_lines")

    def __init__(self, items: Iterator[str | Iterator[str]]) -> None:
        self.items = items
        self._lines: Iterator[str] | None = None

    def __iter__(self) -> Iterator[str]:
        if self._lines is None:
            self._lines = chain.from_iterable(map(_item_lines, self.items))
        return self._lines

    def __next__(self) -> str:
        return next(iter(self))

    @property
    def started(self) -> bool:
        """Whether the lines were asked for (``items`` may then be partly read)."""
        return self._lines is not None

    def close(self) -> None:
        """Stop reading (closes the input's stream)."""
        close = getattr(self.items, "close", None)
        if close is not None:
            close()


def _cut(line: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes of ``line`` (``len(line) > limit``), less a UTF-8 character cut in two."""
    end = limit
    for _ in range(3):
        if end > 0 and 0x80 <= line[end] < 0xC0:  # continues a character that starts before ``end``
            end -= 1
        else:
            return line[:end]
    return line[:limit]  # not UTF-8 there: cut at the byte


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


def _broken_off(n: int, decompressed: bool) -> str:
    """What an :class:`InputError` adds when the reading failed after ``n`` bytes."""
    if n <= 0:
        return ""
    return (
        f" (reading stopped after {n} bytes{', decompressed' if decompressed else ''}: "
        "the boards before are read, the one cut short is not)"
    )


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
        return gzip.open(path, "rb")
    if kind == "bz2":
        return bz2.open(path, "rb")
    return lzma.open(path, "rb")


# --- zip files, cached per process -------------------------------------------------------

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


# --- finding inputs ------------------------------------------------------------------------


def _magic(head: bytes) -> str:
    """The container kind of a file from its first bytes: zip, tar, gzip, bz2, xz or plain."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"BZh") and len(head) > 3 and head[3:4].isdigit():
        return "bz2"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if _is_tar(head):
        return "tar"
    return "plain"


def _is_tar(head: bytes) -> bool:
    return head[257:262] == b"ustar"


_COMPRESSED_SUFFIXES = (".gz", ".gzip", ".bz2", ".xz")


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


def _f001(path: str, e: BaseException | str) -> Diagnostic:
    return make("F001", None, None, path=path, reason=e if isinstance(e, str) else _reason(e))


def _member_name(name: str) -> str:
    """A member name for display: ``/`` separators, no ``./`` components."""
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


def _unsafe(name: str) -> str | None:
    """Why a member name is refused (absolute, drive letter, ``..``), or ``None``."""
    n = name.replace("\\", "/")
    if n.startswith("/") or re.match(r"[A-Za-z]:", n):
        return "absolute path"
    if ".." in n.split("/"):
        return "'..' in path"
    return None


def _hidden(name: str) -> bool:
    return any(p.startswith(".") for p in _member_name(name).split("/"))


_KINDS = {
    stat.S_IFLNK: "symbolic link",
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
    stat.S_IFIFO: "FIFO",
    stat.S_IFSOCK: "socket",
}


def _zip_kind(info: zipfile.ZipInfo) -> str | None:
    """``None`` for a regular member, else what it is (from the Unix mode bits, when stored)."""
    mode = info.external_attr >> 16
    if info.create_system == 3 and mode and stat.S_IFMT(mode) not in (stat.S_IFREG, 0):
        return _KINDS.get(stat.S_IFMT(mode), "special file")
    return None


def _tar_kind(info: tarfile.TarInfo) -> str | None:
    if info.isreg():
        return None
    if info.issym():
        return "symbolic link"
    if info.islnk():
        return "hard link"
    if info.ischr():
        return "character device"
    if info.isblk():
        return "block device"
    if info.isfifo():
        return "FIFO"
    return "special entry"


class _ArchiveBudget:
    """Checks each member's declared size against :class:`Limits`; returns the diagnostic to report."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0

    def check(self, display: str, archive: str, size: int) -> tuple[Diagnostic | None, bool]:
        """(diagnostic or None, stop the archive?) for a member of ``size`` bytes."""
        self.total += size
        if self.total > self.limits.archive_bytes:
            d = make(
                "F010",
                None,
                None,
                path=display,
                what=f"archive {archive}",
                limit=self.limits.archive_bytes,
                action="this and later members not read",
            )
            return d, True
        if size > self.limits.member_bytes:
            d = make(
                "F010",
                None,
                None,
                path=display,
                what="archive member",
                limit=self.limits.member_bytes,
                action="not read",
            )
            return d, False
        return None, False


def _screen(
    display: str, name: str, kind: str | None, size: int, budget: _ArchiveBudget
) -> tuple[Diagnostic | None, str]:
    """The policy checks every archive member goes through (zip and tar alike).

    Returns a diagnostic (or ``None``) and what to do: ``"read"`` the member,
    ``"skip"`` it, or ``"stop"`` reading the archive.  In order: an absolute
    path or ``..`` is refused (F008); hidden entries are skipped quietly;
    links, devices and FIFOs are skipped (F009, ``kind`` names them); a member
    over the size budget is skipped, or stops the archive (F010).
    """
    why = _unsafe(name)
    if why is not None:
        return make("F008", None, None, path=f"{display}!{name}", member=name, reason=why), "skip"
    if _hidden(name):
        return None, "skip"
    shown = f"{display}!{_member_name(name)}"
    if kind is not None:
        return make("F009", None, None, path=shown, member=name, reason=kind), "skip"
    d, stop = budget.check(shown, display, size)
    if d is not None:
        return d, "stop" if stop else "skip"
    return None, "read"


_NESTED_ARCHIVE = re.compile(r"\.(?:zip|tar|tgz|tbz2?|txz|tar\.(?:gz|gzip|bz2|xz))\Z", re.I)


def _archive_name(name: str) -> str | None:
    """The archive a file name says (``"zip"``, ``"tar"``: ``.tar.gz``, ``.tgz``...), or ``None``."""
    if not _NESTED_ARCHIVE.search(name):
        return None
    return "zip" if name.lower().endswith(".zip") else "tar"


def _not_an_archive(display: str, kind: str) -> Diagnostic:
    """F001 for a file named as a ``kind`` archive that is none, nor PBN or LIN: damaged, or misnamed."""
    return _f001(display, f"not a {kind} archive (damaged, or another format), nor PBN or LIN")


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


def _blank(head: bytes) -> bool:
    """Whether the first bytes of an input hold nothing but blanks (maybe after a UTF-8 byte-order mark)."""
    return not head.removeprefix(b"\xef\xbb\xbf").strip()


def _plain_verdict(
    display: str, head: bytes, name: str, arch: str | None, explicit: bool
) -> tuple[str | None, Diagnostic | None]:
    """The format of a file that is no archive (maybe decompressed) from its first bytes, or why it is not read.

    As :func:`sniff` says; a file whose name says archive (``arch``) but that
    is none, nor PBN or LIN, is a damaged archive (F001).  Named explicitly
    (or piped), an input whose first bytes are blank is an empty PBN file,
    whatever its name or source: it gets the F018 warning of an empty
    ``.pbn`` file (:func:`handrec.formats.dispatch.read` also takes a stream it
    cannot tell as PBN).
    """
    fmt = sniff(head, name)
    if fmt is None and arch is not None:
        return None, _not_an_archive(display, arch)
    if fmt is None and explicit and _blank(head):
        fmt = "pbn"
    return fmt, None


def _bridge_name(name: str) -> bool:
    """Whether a file name says PBN or LIN (``.pbn``, ``.lin``, also ``.pbn.gz``, ``.lin.xz``...)."""
    n = name.lower()
    for suffix in _COMPRESSED_SUFFIXES:
        if n.endswith(suffix):
            n = n[: -len(suffix)]
            break
    return n.endswith((".pbn", ".lin"))


def _member_verdict(shown: str, name: str, head: bytes) -> tuple[Diagnostic | None, str | None, bool]:
    """What to do with an archive member from its first bytes: (diagnostic, format, yield an input?).

    An archive inside the archive (zip or tar, or a compressed file whose
    name says archive) is not opened (F009), nor is a compressed member
    whose name says PBN or LIN; other compressed members are skipped
    quietly.  A member whose name says archive but that is neither an
    archive nor PBN or LIN (a damaged one) is not opened either (F009).  A
    member that sniffs as PBN or LIN is an input, and so is one
    whose name says PBN or LIN (its ``format`` is ``None``: the reader
    reports it, F004); the rest are skipped quietly.
    """
    kind = _magic(head)
    if kind in ("zip", "tar") or (kind != "plain" and _NESTED_ARCHIVE.search(name)):
        return make("F009", None, None, path=shown, member=name, reason="nested archive, not opened"), None, False
    if kind != "plain":
        if _bridge_name(name):
            return (
                make("F009", None, None, path=shown, member=name, reason="compressed member, not opened"),
                None,
                False,
            )
        return None, None, False
    fmt = sniff(head, name)
    if fmt is None and _NESTED_ARCHIVE.search(name):  # a damaged archive: said, as a sound one would be
        why = "named as an archive, but not one (damaged?) nor PBN or LIN: not opened"
        return make("F009", None, None, path=shown, member=name, reason=why), None, False
    return None, fmt, fmt is not None or _bridge_name(name)


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


def _zip_entries(
    p: Path | None, display: str, limits: Limits, data: bytes | None = None
) -> Iterator[Input | Diagnostic]:
    """The members of a zip file on disk at ``p``, or held in ``data`` (read from a pipe: members kept in memory)."""
    try:
        zf = _zipfile(str(p)) if data is None else zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except _READ_ERRORS as e:
        yield _f001(display, _zip_damage(e))
        return
    budget = _ArchiveBudget(limits)
    for info in infos:
        if info.is_dir():
            continue
        name = info.filename
        d, action = _screen(display, name, _zip_kind(info), info.file_size, budget)
        if d is not None:
            yield d
        if action == "stop":
            return
        if action == "skip":
            continue
        shown = f"{display}!{_member_name(name)}"
        content: bytes | None = None
        broken: BaseException | None = None  # a member in memory read up to a failure
        try:
            with _UntilError(zf.open(info)) as m:
                if data is None:
                    head, failed = _read_head(m)
                    if failed is not None:
                        raise failed
                else:
                    content, broken = _read_until_error(m, limits.member_bytes)
                    if broken is not None and not content:
                        raise broken
                    if content is None:
                        yield make(
                            "F010",
                            None,
                            None,
                            path=shown,
                            what="archive member",
                            limit=limits.member_bytes,
                            action="not read",
                        )
                        continue
                    head = content[:SNIFF_BYTES]
        except _READ_ERRORS as e:
            yield _f001(shown, _member_damage(e))
            continue
        d, fmt, keep = _member_verdict(shown, name, head)
        if d is not None:
            yield d
        if keep:
            src: Source = (
                ZipSource(str(p), name, info.file_size)
                if content is None
                else MemorySource(shown, content, None if broken is None else _member_damage(broken))
            )
            yield Input(shown, fmt, source=src, size=info.compress_size, limits=limits)


def _tar_entries(
    p: Path | None, display: str, limits: Limits, data: bytes | None = None
) -> Iterator[Input | Diagnostic]:
    """The members of a tar file (maybe compressed) on disk at ``p``, or held in ``data`` (all members inline)."""
    try:
        raw: BinaryIO = open(p, "rb") if data is None else io.BytesIO(data)  # type: ignore[arg-type]
    except OSError as e:
        yield _f001(display, e)
        return
    inline_bytes = limits.inline_bytes if data is None else limits.member_bytes
    with raw:
        try:
            tf = tarfile.open(fileobj=raw, mode="r|*")
        except _READ_ERRORS as e:
            yield _f001(display, e)
            return
        with tf:
            cursor = _TarCursor()
            budget = _ArchiveBudget(limits)
            done = 0
            while True:
                cursor.token += 1
                try:
                    info = tf.next()
                except _READ_ERRORS as e:
                    yield _f001(display, e)
                    return
                if info is None:
                    return
                tf.members.clear()  # a stream needs no index; keeps memory flat on huge archives
                if info.isdir():
                    continue
                name = info.name
                d, action = _screen(display, name, _tar_kind(info), info.size, budget)
                if d is not None:
                    yield d
                if action == "stop":
                    return
                if action == "skip":
                    continue
                shown = f"{display}!{_member_name(name)}"
                try:
                    f = tf.extractfile(info)
                    assert f is not None
                    if info.size <= inline_bytes:
                        content = f.read()
                        head = content[:SNIFF_BYTES]
                    else:
                        content = None
                        head = f.read(SNIFF_BYTES)
                except _READ_ERRORS as e:
                    yield _f001(shown, e)
                    return  # the stream is broken: nothing after this member can be read
                d, fmt, keep = _member_verdict(shown, name, head)
                if d is not None:
                    yield d
                if not keep:
                    continue
                pos = raw.tell()
                src = TarSource(str(p if p is not None else display), name, info.size, content)
                inp = Input(shown, fmt, source=src, size=max(0, pos - done), limits=limits)
                done = pos
                if content is None:
                    inp._live = (cursor, cursor.token, head, f)
                yield inp


#: The display path of standard input (the path ``-``).
STDIN = "<stdin>"


def _memory_entries(data: bytes, display: str, name: str, limits: Limits) -> Iterator[Input | Diagnostic]:
    """The inputs in bytes read once (standard input, a pipe, a device): itself, or its members if an archive."""
    kind = _magic(data[:SNIFF_BYTES])
    arch = _archive_name(name)
    if kind == "zip":
        yield from _zip_entries(None, display, limits, data)
        return
    if kind == "tar":
        yield from _tar_entries(None, display, limits, data)
        return
    error: BaseException | None = None  # the decompressed bytes end there (data cut short or corrupt)
    if kind in ("gzip", "bz2", "xz"):
        try:
            with _UntilError(_decompressor(kind, io.BytesIO(data))) as z:
                head, error = _read_head(z)
                if error is not None or _is_tar(head):
                    whole: bytes | None = None
                else:
                    rest, error = _read_until_error(z, limits.member_bytes - len(head))
                    whole = None if rest is None else head + rest
        except _READ_ERRORS as e:
            yield _f001(display, e)
            return
        if _is_tar(head):
            yield from _tar_entries(None, display, limits, data)
            return
        if error is not None and not whole:
            yield _f001(display, error)
            return
        if whole is None:
            what = "decompressed input"
            yield make("F010", None, None, path=display, what=what, limit=limits.member_bytes, action="not read")
            return
        data = whole
        stem, ext = os.path.splitext(name)
        name = stem if ext.lower() in _COMPRESSED_SUFFIXES else name
    fmt, d = _plain_verdict(display, data[:SNIFF_BYTES], name, arch, True)
    if d is not None:
        yield d
        return
    src = MemorySource(display, data, None if error is None else _reason(error))
    yield Input(display, fmt, source=src, size=len(data), limits=limits)


def _stream_entries(f: _Readable, display: str, name: str, what: str, limits: Limits) -> Iterator[Input | Diagnostic]:
    """Read a stream that can be read only once (a pipe, a device) into memory, then list it."""
    try:
        data = _read_all(f, limits.member_bytes)
    except _READ_ERRORS as e:
        yield _f001(display, e)
        return
    if data is None:
        yield make("F010", None, None, path=display, what=what, limit=limits.member_bytes, action="not read")
        return
    yield from _memory_entries(data, display, name, limits)


def _stdin_entries(limits: Limits, seen: set[Any]) -> Iterator[Input | Diagnostic]:
    """Standard input (the path ``-``), read once, shown as :data:`STDIN`; a second ``-`` gives nothing."""
    keys: list[Any] = [STDIN]
    stdin = sys.stdin
    try:
        st = os.fstat(stdin.fileno())
        keys.append((st.st_dev, st.st_ino))
    except (AttributeError, OSError, ValueError):
        pass
    if any(k in seen for k in keys):
        return
    seen.update(keys)
    buf = getattr(stdin, "buffer", None)
    if buf is None:
        yield _f001(STDIN, "no standard input")
        return
    yield from _stream_entries(buf, STDIN, "", "standard input", limits)


def _file_entries(
    p: Path, display: str, limits: Limits, explicit: bool, seen: set[Any]
) -> Iterator[Input | Diagnostic]:
    """The inputs in one file: itself, or its members if it is an archive.

    Inside a folder, what is not a regular file (a FIFO, a device, a
    socket) is skipped with F014: opening a FIFO would wait for a writer.
    Named explicitly, it is read once, into memory (see :func:`iter_entries`).
    A plain file over :attr:`Limits.max_file_bytes` is not read (F010);
    inside a folder, only when it is a PBN or LIN candidate.  A file seen
    before (same device and inode) gives nothing.
    """
    try:
        st = os.stat(p)
        mode = st.st_mode
        if not explicit and not stat.S_ISREG(mode):
            yield make("F014", None, None, path=display, kind=_KINDS.get(stat.S_IFMT(mode), "special file"))
            return
        key = (st.st_dev, st.st_ino)
        if key in seen:
            return
        seen.add(key)
        if not stat.S_ISREG(mode):
            with open(p, "rb") as f:
                what = _KINDS.get(stat.S_IFMT(mode), "special file")
                yield from _stream_entries(f, display, p.name, what, limits)
            return
        with open(p, "rb") as f:
            head = f.read(SNIFF_BYTES)
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        yield _f001(display, e)
        return
    kind = _magic(head)
    arch = _archive_name(p.name)
    if kind == "zip" or (kind == "plain" and arch == "zip" and zipfile.is_zipfile(p)):
        # (a zip archive starts with a member, or ends with its central directory when
        # something comes before it: a self-extracting archive)
        yield from _zip_entries(p, display, limits)
        return
    if kind == "plain" and size > limits.max_file_bytes:
        if explicit or sniff(head, p.name) is not None or _bridge_name(p.name) or arch is not None:
            yield make("F010", None, None, path=display, what="file", limit=limits.max_file_bytes, action="not read")
        return
    if kind == "tar":
        yield from _tar_entries(p, display, limits)
        return
    compression = None
    name = p.name
    if kind in ("gzip", "bz2", "xz"):
        try:
            with _UntilError(_decompressor(kind, str(p))) as z:
                head, error = _read_head(z)
        except _READ_ERRORS as e:
            error = e
        if error is not None:  # not a byte could be decompressed
            yield _f001(display, error)
            return
        if _is_tar(head):
            yield from _tar_entries(p, display, limits)
            return
        compression = kind
        stem, ext = os.path.splitext(name)
        name = stem if ext.lower() in _COMPRESSED_SUFFIXES else name
    fmt, d = _plain_verdict(display, head, name, arch, explicit)
    if d is not None:
        yield d
        return
    if fmt is not None or explicit or _bridge_name(p.name):
        yield Input(display, fmt, source=FileSource(str(p), compression), size=size, limits=limits)


def _walk(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith("."):
                yield Path(dirpath) / name


def iter_entries(
    paths: Iterable[str | os.PathLike[str]], limits: Limits = DEFAULT_LIMITS
) -> Iterator[Input | Diagnostic]:
    """Every input under ``paths``, in order, and every entry that cannot be one, as a diagnostic.

    Yields an :class:`Input` per file to read and a :class:`Diagnostic`
    for each path or member that is not read: F001 (unreadable path,
    damaged archive or member, a file named as an archive that is none),
    F008 (unsafe member name), F009 (link or device member, an
    archive inside an archive), F010 (size limit), F014 (FIFO or device
    in a folder).

    Which files are inputs: a file named explicitly, always (its
    ``format`` is ``None`` when it is not PBN or LIN: the reader reports
    F004; ``"pbn"`` when its first bytes are blank: an empty input), but
    for one named as an archive that is none (F001); inside folders and
    archives, a file that sniffs as PBN or LIN,
    or whose name ends in ``.pbn`` or ``.lin`` (also ``.pbn.gz``...: when
    it does not sniff as PBN or LIN its ``format`` is ``None`` too); other
    files (a README, a picture) are skipped quietly.  A file over
    :attr:`Limits.max_file_bytes` found in a folder is reported (F010)
    only when it would be an input.

    Each file is read once: a file met again (same device and inode, by
    another path, a folder holding it, a link) gives nothing the second
    time, nor does a path that cannot be read named again; archive members
    are not compared.

    Pipes: the path ``-`` is standard input, shown as ``<stdin>``
    (:data:`STDIN`; a file named ``-`` is ``./-``).  It, and any file
    named explicitly that is not a regular file (a FIFO, ``/dev/stdin``,
    ``<(command)``, a character device), is opened once and read into
    memory, up to :attr:`Limits.member_bytes` (over it: F010, not read),
    then listed like a file (plain, compressed, zip or tar: members are
    held in memory): its inputs carry their bytes
    (:class:`MemorySource`), so they can be read again or in another
    process.

    Order: the arguments in order, folders sorted, archive members in
    archive order; a member of a streamed tar archive must be read before
    the next item is asked for, or it is read again by reopening the
    archive.
    """
    seen: set[Any] = set()
    for raw in paths:
        if os.fspath(raw) == "-":
            yield from _stdin_entries(limits, seen)
            continue
        p = Path(raw)
        try:
            if p.is_dir():
                for fp in _walk(p):
                    yield from _file_entries(fp, str(fp), limits, False, seen)
            elif p.exists():
                yield from _file_entries(p, str(raw), limits, True, seen)
            else:
                raise FileNotFoundError(2, "No such file or directory")
        except OSError as e:
            key = ("unreadable", str(raw))  # named again: reported once, as a file is read once
            if key not in seen:
                seen.add(key)
                yield _f001(str(raw), e)


def iter_inputs(
    paths: Iterable[str | os.PathLike[str]],
    errors: list[Diagnostic] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[Input]:
    """Expand files, folders and archives (recursively, sorted, hidden entries skipped) into inputs.

    A file named explicitly is always yielded (its ``format`` may be
    ``None``: the caller reports it); inside folders and archives, files
    that sniff as PBN or LIN or are named ``.pbn``/``.lin`` (see
    :func:`iter_entries`).  A path or member that is
    not read (F001, F008, F009, F010; see :func:`iter_entries`) becomes a
    diagnostic appended to ``errors``; when ``errors`` is ``None`` an
    unreadable path raises :class:`InputError` and the others are dropped.
    """
    for item in iter_entries(paths, limits):
        if isinstance(item, Input):
            yield item
        elif errors is not None:
            errors.append(item)
        elif item.code == "F001":
            raise InputError(f"{item.path}: {item.message.removeprefix('cannot read input: ')}")


#: The status of an entry (an input, or a path or member not read), in the order summaries list
#: them: the ``status`` column of ``handrec convert``'s ``files`` table (see :mod:`handrec.dataset.store`).
STATUSES = ("ok", "unchanged", "unreadable", "skipped", "not_read")
#: Codes that mean an entry was refused by policy (status ``skipped``): an unsafe, linked, nested or
#: too large archive member, a file over a size limit (F008-F010), a FIFO or device in a folder (F014).
SKIP_CODES = frozenset({"F008", "F009", "F010", "F014"})
_UNREAD_CODES = frozenset({"F001", "F004", "F015"})


def entry_status(codes: Iterable[str], read: bool = True) -> str:
    """The status of an entry from the codes of its diagnostics: ``"skipped"``, ``"unreadable"`` or ``"ok"``.

    ``read``: the entry is an input that was read (an :class:`Input` with a
    ``format``), not a path or member listed as a diagnostic.  Refused by
    policy (:data:`SKIP_CODES`): skipped; not read, or not to its end (F001;
    F015, a failure of handrec itself), or not PBN or LIN (F004): unreadable;
    else ok.  ``handrec convert`` writes
    it in the ``files`` table and ``handrec validate`` counts by it, so their
    summaries agree.

    >>> entry_status(["T104", "F002"]), entry_status(["F001"]), entry_status(["F009"], read=False)
    ('ok', 'unreadable', 'skipped')
    """
    codes = set(codes)
    if codes & SKIP_CODES:
        return "skipped"
    if not read or codes & _UNREAD_CODES:
        return "unreadable"
    return "ok"


def total_bytes(paths: Iterable[str | os.PathLike[str]]) -> int:
    """The bytes on disk of the files under ``paths`` (hidden entries skipped; unreadable ones count 0).

    A cheap estimate of the work ahead, for an ETA: archives count their
    compressed size, non-bridge files count too.
    """
    n = 0
    for raw in paths:
        p = Path(raw)
        try:
            files = _walk(p) if p.is_dir() else iter((p,))
            for fp in files:
                try:
                    n += fp.stat().st_size
                except OSError:
                    pass
        except OSError:
            pass
    return n


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.I)


def parse_size(text: str) -> int:
    """Bytes from a size such as ``"1G"``, ``"512MiB"``, ``"4096"`` (K/M/G/T are powers of 1024).

    :raises ValueError: when ``text`` is not a size.

    >>> parse_size("1G"), parse_size("512MiB"), parse_size("4096")
    (1073741824, 536870912, 4096)
    """
    m = _SIZE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a size: {text!r} (examples: 4096, 512M, 1G)")
    scale = 1024 ** " kmgt".index((m.group(2) or " ").lower())
    return int(float(m.group(1)) * scale)
