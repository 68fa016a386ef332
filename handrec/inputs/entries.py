"""Finding inputs: paths (files, folders, archives, standard input) to :class:`~handrec.inputs.sources.Input` objects.

This module knows nothing of bridge.  :func:`iter_entries` turns paths into inputs whose
:meth:`~handrec.inputs.sources.Input.lines` streams decoded text lines, one at a time, so
that a file is never held whole in memory, and every path or member that cannot be one
into a diagnostic.  Archive members are listed by :mod:`handrec.inputs.archives`, formats
told by :mod:`handrec.inputs.sniff`, limits set by :mod:`handrec.inputs.limits`.

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

**Pipes.**  The path ``-`` (standard input, shown as ``<stdin>``) and a
file named explicitly that is not a regular file (a FIFO, ``/dev/stdin``,
``<(command)``, a device) are opened once and read, up to
:attr:`Limits.member_bytes` (F010 over it): a plain one into memory, like a
decompressed member; an archive or a compressed one to a temporary file, then
listed as that file (see :func:`iter_entries`).

**Which files.**  Inside folders and archives, a file that sniffs as PBN
or LIN is read, and so is one named ``.pbn``/``.lin`` (``.pbn.gz``...)
that does not (reported F004); other files are skipped quietly.  A file
met twice (same device and inode) is read once.  An input named
explicitly (or piped) whose first bytes are blank is an empty PBN file
(F018 warning, as an empty ``.pbn``), whatever its name.
"""

from __future__ import annotations

import atexit
import io
import os
import select
import stat
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from handrec.diagnostics import Diagnostic, make
from handrec.inputs.archives import _KINDS, _not_an_archive, _tar_entries, _zip_entries
from handrec.inputs.limits import DEFAULT_LIMITS, InputError, Limits
from handrec.inputs.sniff import (
    _COMPRESSED_SUFFIXES,
    SNIFF_BYTES,
    _archive_name,
    _blank,
    _bridge_name,
    _is_tar,
    _magic,
    sniff,
)
from handrec.inputs.sources import FileSource, Input, MemorySource
from handrec.inputs.streams import (
    _READ_ERRORS,
    CHUNK_BYTES,
    _decompressor,
    _f001,
    _read_head,
    _read_until_error,
    _Readable,
    _reason,
    _TimedFifo,
    _UntilError,
)

__all__ = ["STDIN", "iter_entries", "iter_inputs", "total_bytes"]


#: The display path of standard input (the path ``-``).
STDIN = "<stdin>"


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


def _stream_entries(
    f: _Readable, display: str, name: str, what: str, limits: Limits, seen: set[Any]
) -> Iterator[Input | Diagnostic]:
    """Read a stream that can be read only once (a pipe, a device), then list it.

    A plain stream is kept in memory (:class:`MemorySource`).  An archive or a compressed
    stream (told by its first bytes) is copied as it comes to a temporary file without a
    name (:class:`_Spool`: nothing is left behind, even by SIGKILL) and listed as that
    file would be, under ``display``: its members are then read from the file as needed,
    never decompressed into memory whole (a zip of a few megabytes can hold gigabytes).  Either way at most
    :attr:`Limits.member_bytes` are read (over it: F010, not read).
    """
    chunks: list[bytes] = []
    n = 0
    spool: _Spool | None = None
    decided = False
    done = False  # the copy is complete and listed: it stays (a worker may read it later)
    try:
        try:
            while chunk := f.read(CHUNK_BYTES):
                n += len(chunk)
                if n > limits.member_bytes:
                    yield make(
                        "F010", None, None, path=display, what=what, limit=limits.member_bytes, action="not read"
                    )
                    return
                if spool is not None:
                    spool.file.write(chunk)
                    continue
                chunks.append(chunk)
                if not decided and n >= SNIFF_BYTES:
                    decided = True
                    if _magic(b"".join(chunks)[:SNIFF_BYTES]) != "plain":
                        spool = _Spool()
                        spool.file.writelines(chunks)
                        chunks.clear()
        except _READ_ERRORS as e:
            yield _f001(display, e)
            return
        if spool is None and not decided and _magic(b"".join(chunks)[:SNIFF_BYTES]) != "plain":
            spool = _Spool()
            spool.file.writelines(chunks)
            chunks.clear()
        if spool is None:
            yield from _memory_entries(b"".join(chunks), display, name, limits)
            return
        spool.file.flush()  # read by its path from here on, in this process or a worker
        done = True
        yield from _file_entries(Path(spool.path), display, limits, True, seen, name)
    finally:
        if spool is not None and not done:
            spool.discard()


#: The temporary copies of :func:`_stream_entries` made by this process, open until it exits.
_SPOOLS: list[_Spool] = []


class _Spool:
    """A new temporary file for a stream's bytes (:func:`_stream_entries`): ``file`` to write
    them, ``path`` to read them by (in this process or a worker it starts).

    On Linux the file has no name in the file system from the start
    (:func:`tempfile.TemporaryFile`), so nothing is left behind however the process
    ends, SIGKILL included: the kernel frees it when the last descriptor closes.  It is
    read by ``/proc/PID/fd/N`` (opening that opens the same file anew, with its own
    offset, from any process of the same user while this one lives); the descriptor stays
    open until this process exits, as an input in it may be read by a worker at any time
    before.  Where there is no ``/proc`` it is a named file ``handrec-stream-*`` in the
    temporary folder (:func:`tempfile.gettempdir`), removed at a normal exit
    (:func:`_remove_spools`); a process killed by SIGKILL leaves that one behind.
    """

    def __init__(self) -> None:
        pid = os.getpid()
        fds = f"/proc/{pid}/fd"
        self.owner = pid
        self.named = not os.path.isdir(fds)
        if self.named:
            f = tempfile.NamedTemporaryFile(prefix="handrec-stream-", delete=False)  # noqa: SIM115 (kept open)
            if not any(s.named for s in _SPOOLS):
                atexit.register(_remove_spools)
            self.path = f.name
        else:
            f = tempfile.TemporaryFile(prefix="handrec-stream-")  # noqa: SIM115 (kept open)
            self.path = f"{fds}/{f.fileno()}"
        self.file: BinaryIO = f  # type: ignore[assignment]
        _SPOOLS.append(self)

    def discard(self) -> None:
        """Close and remove the copy now (nothing was listed from it: a limit or a read error)."""
        self.file.close()
        _SPOOLS.remove(self)
        if self.named:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def _remove_spools() -> None:
    """Remove the named copies this process made (not those of a parent it was forked from)."""
    pid = os.getpid()
    for s in _SPOOLS:
        if s.named and s.owner == pid:
            s.file.close()
            try:
                os.unlink(s.path)
            except OSError:
                pass


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
    yield from _stream_entries(buf, STDIN, "", "standard input", limits, seen)


def _file_entries(
    p: Path, display: str, limits: Limits, explicit: bool, seen: set[Any], name: str | None = None
) -> Iterator[Input | Diagnostic]:
    """The inputs in one file: itself, or its members if it is an archive.

    ``name``: the file name that tells an archive or a format, when not ``p``'s own (a
    stream copied to a temporary file, :func:`_stream_entries`).

    Inside a folder, what is not a regular file (a FIFO, a device, a
    socket, a symbolic link to nothing) is skipped with F014: opening a FIFO
    would wait for a writer.
    Named explicitly, it is read once, into memory (see :func:`iter_entries`);
    a FIFO silent for :attr:`Limits.read_timeout` seconds is given up (F001).
    A plain file over :attr:`Limits.max_file_bytes` is not read (F010);
    inside a folder, only when it is a PBN or LIN candidate.  A file seen
    before (same device and inode) gives nothing.
    """
    try:
        try:
            st = os.stat(p)
        except OSError:
            if explicit or not stat.S_ISLNK(os.lstat(p).st_mode):
                raise
            # a link to nothing (or a loop of links) found in a folder: skipped as a FIFO is
            yield make("F014", None, None, path=display, kind="broken symbolic link")
            return
        mode = st.st_mode
        if not explicit and not stat.S_ISREG(mode):
            yield make("F014", None, None, path=display, kind=_KINDS.get(stat.S_IFMT(mode), "special file"))
            return
        key = (st.st_dev, st.st_ino)
        if key in seen:
            return
        seen.add(key)
        if not stat.S_ISREG(mode):
            timed = stat.S_ISFIFO(mode) and limits.read_timeout > 0 and hasattr(select, "poll")
            with _TimedFifo(p, limits.read_timeout) if timed else open(p, "rb") as f:
                what = _KINDS.get(stat.S_IFMT(mode), "special file")
                yield from _stream_entries(f, display, p.name, what, limits, seen)
            return
        with open(p, "rb") as f:
            head = f.read(SNIFF_BYTES)
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        yield _f001(display, e)
        return
    kind = _magic(head)
    file_name = p.name if name is None else name
    arch = _archive_name(file_name)
    if kind == "zip" or (kind == "plain" and arch == "zip" and zipfile.is_zipfile(p)):
        # (a zip archive starts with a member, or ends with its central directory when
        # something comes before it: a self-extracting archive)
        yield from _zip_entries(p, display, limits)
        return
    if kind == "plain" and size > limits.max_file_bytes:
        if explicit or sniff(head, file_name) is not None or _bridge_name(file_name) or arch is not None:
            yield make("F010", None, None, path=display, what="file", limit=limits.max_file_bytes, action="not read")
        return
    if kind == "tar":
        yield from _tar_entries(p, display, limits)
        return
    compression = None
    name = file_name
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
    if fmt is not None or explicit or _bridge_name(file_name):
        yield Input(display, fmt, source=FileSource(str(p), compression), size=size, limits=limits)


def _walk(root: Path, seen: set[Any]) -> Iterator[Path | Diagnostic]:
    """The files under the folder ``root``, sorted, hidden entries skipped; a folder that cannot be
    listed (its own F001: its boards are not read, and the run says so) in its place.

    Links to folders are followed (their boards are inputs like any other); a folder met again,
    through a link or a loop of links, gives nothing the second time, as a file met again does."""
    failed: list[OSError] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=failed.append, followlinks=True):
        while failed:  # (os.walk reports a folder it cannot list when it comes to it: in order)
            e = failed.pop(0)
            yield _f001(str(e.filename) if e.filename is not None else dirpath, e)
        try:
            st = os.stat(dirpath)
        except OSError as e:
            yield _f001(dirpath, e)
            dirnames[:] = []
            continue
        key = ("folder", st.st_dev, st.st_ino)
        if key in seen:
            dirnames[:] = []
            continue
        seen.add(key)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith("."):
                yield Path(dirpath) / name
    for e in failed:
        yield _f001(str(e.filename) if e.filename is not None else str(root), e)


def iter_entries(
    paths: Iterable[str | os.PathLike[str]], limits: Limits = DEFAULT_LIMITS
) -> Iterator[Input | Diagnostic]:
    """Every input under ``paths``, in order, and every entry that cannot be one, as a diagnostic.

    Yields an :class:`Input` per file to read and a :class:`Diagnostic`
    for each path or member that is not read: F001 (unreadable path, a
    folder that cannot be listed, damaged archive or member, a file named
    as an archive that is none),
    F008 (unsafe member name), F009 (link or device member, an
    archive inside an archive), F010 (size limit), F014 (FIFO, device or
    broken symbolic link in a folder; one named explicitly is F001).

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

    Links to folders are followed.  Each file and folder is read once: a
    file or folder met again (same device and inode, by
    another path, a folder holding it, a link) gives nothing the second
    time, nor does a path that cannot be read named again; archive members
    are not compared.

    Pipes: the path ``-`` is standard input, shown as ``<stdin>``
    (:data:`STDIN`; a file named ``-`` is ``./-``).  It, and any file
    named explicitly that is not a regular file (a FIFO, ``/dev/stdin``,
    ``<(command)``, a character device), is opened once and read, up to
    :attr:`Limits.member_bytes` (over it: F010, not read), then listed like
    a file: a plain one is held in memory (its input carries its bytes,
    :class:`MemorySource`, so it can be read again or in another process);
    an archive or a compressed one is copied to a temporary file that has no
    name on Linux (freed when the process exits, however it ends), and its
    inputs are read from there (a small zip may hold gigabytes: nothing is
    decompressed into memory whole).

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
                for fp in _walk(p, seen):
                    if isinstance(fp, Diagnostic):
                        yield fp
                    else:
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


def total_bytes(paths: Iterable[str | os.PathLike[str]]) -> int:
    """The bytes on disk of the files under ``paths`` (hidden entries skipped; unreadable ones count 0).

    A cheap estimate of the work ahead, for an ETA: archives count their
    compressed size, non-bridge files count too.
    """
    n = 0
    seen: set[Any] = set()
    for raw in paths:
        p = Path(raw)
        try:
            files = _walk(p, seen) if p.is_dir() else iter((p,))
            for fp in files:
                if isinstance(fp, Diagnostic):
                    continue
                try:
                    n += fp.stat().st_size
                except OSError:
                    pass
        except OSError:
            pass
    return n
