"""Archive members: zip and tar archives listed member by member, screened and sniffed, never unpacked.

Members are streamed with :mod:`zipfile` and :mod:`tarfile` (``mode="r|*"``, one pass)
and never written to disk; archives inside archives are not opened (F009).  A member's
display path is ``archive.zip!inner/path.pbn`` (the archive's display path, ``!``, the
member name without a leading ``./``); diagnostics and the ``files`` table key on it.

**Archive safety.**  A member whose name is absolute or contains ``..`` is
refused (F008) -- handrec never writes members anywhere, but such a name is a
sign of a hostile archive; links, devices and FIFOs are skipped (F009); size
limits (:class:`Limits`: 1 GiB per member or compressed file decompressed,
4 GiB per archive by default) stop a compression bomb (F010): a member
whose declared size is over the member limit is not read, an archive whose
members add up to more than the archive limit is not read further, and a
compressed file (which declares no size) stops being read at the member
limit.

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
"""

from __future__ import annotations

import io
import re
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from handrec.diagnostics import Diagnostic, make
from handrec.inputs.limits import Limits
from handrec.inputs.sniff import _NESTED_ARCHIVE, SNIFF_BYTES, _bridge_name, _magic, sniff
from handrec.inputs.sources import Input, MemorySource, Source, TarSource, ZipSource, _TarCursor, _zipfile
from handrec.inputs.streams import (
    _READ_ERRORS,
    _f001,
    _member_damage,
    _read_head,
    _read_until_error,
    _UntilError,
    _zip_damage,
)


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


def _not_an_archive(display: str, kind: str) -> Diagnostic:
    """F001 for a file named as a ``kind`` archive that is none, nor PBN or LIN: damaged, or misnamed."""
    return _f001(display, f"not a {kind} archive (damaged, or another format), nor PBN or LIN")


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
