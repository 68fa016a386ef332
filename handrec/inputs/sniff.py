"""What a file is from its first bytes and its name: PBN, LIN or neither, and its container.

:func:`sniff` tells PBN from LIN by content (pbn.md section 18, lin.md section 2), the
extension deciding only when the content says nothing; the container kind (zip, tar,
gzip, bzip2, xz or plain) is told by magic bytes, never by the name alone.  The names
of files help only where the content cannot: a file named ``.pbn``/``.lin`` (also
``.pbn.gz``...) is read even when it does not sniff, and a file named as an archive that
is none is reported as damaged (see :mod:`handrec.inputs.entries`).
"""

from __future__ import annotations

import os
import re

__all__ = ["SNIFF_BYTES", "sniff"]


#: How many bytes :func:`sniff` looks at.
SNIFF_BYTES = 16384


_PBN_TAG = re.compile(rb'^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"', re.M)
_PBN_HEADER = re.compile(rb"^(?:\xef\xbb\xbf)?%[ \t]*PBN[ \t]+\d", re.M)  # "% PBN 2.1" (PBN 2.1 §2)
_LIN_START = re.compile(rb"\A\s*[A-Za-z]{2}\|")
_LIN_URL = re.compile(rb"[?&]lin=\s*[A-Za-z]{2}(?:\||%7C)", re.I)
_USEBIO = re.compile(rb"<USEBIO[\s>/]|<!DOCTYPE\s+USEBIO[\s>\[]")  # the root element (usebio.md), or its DOCTYPE


def sniff(head: bytes, name: str = "") -> str | None:
    """Guess the format of a file from its first bytes: ``"pbn"``, ``"lin"``, ``"usebio"`` or ``None``.

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
    >>> sniff(b'<?xml version="1.0"?>\\n<USEBIO Version="1.2">')
    'usebio'
    >>> sniff(b"", "empty.PBN"), sniff(b"| a | b |", "MANIFEST.md"), sniff(b"\\x89PNG\\r\\n\\x1a\\n\\0", "x.pbn")
    ('pbn', None, None)
    >>> sniff(b'<!DOCTYPE html><a href="https://www.bridgebase.com/tools/handviewer.html?lin=md|3S...|">', "board-1.html")

    A page of markup (HTML, XML other than USEBIO) is neither PBN nor LIN, whatever links it
    holds (handrec's own results website links every board to BBO's hand viewer).
    """
    markup = head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"<"
    if markup and _USEBIO.search(head):
        return "usebio"  # XML whose root is USEBIO (formats/usebio)
    if markup:  # HTML or other XML (a results page with hand-viewer links): no PBN or LIN starts so
        ext = os.path.splitext(name)[1].lower()
        return "pbn" if ext == ".pbn" else "lin" if ext == ".lin" else None
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


def _bridge_name(name: str) -> bool:
    """Whether a file name says PBN or LIN (``.pbn``, ``.lin``, also ``.pbn.gz``, ``.lin.xz``...)."""
    n = name.lower()
    for suffix in _COMPRESSED_SUFFIXES:
        if n.endswith(suffix):
            n = n[: -len(suffix)]
            break
    return n.endswith((".pbn", ".lin"))


_NESTED_ARCHIVE = re.compile(r"\.(?:zip|tar|tgz|tbz2?|txz|tar\.(?:gz|gzip|bz2|xz))\Z", re.I)


def _archive_name(name: str) -> str | None:
    """The archive a file name says (``"zip"``, ``"tar"``: ``.tar.gz``, ``.tgz``...), or ``None``."""
    if not _NESTED_ARCHIVE.search(name):
        return None
    return "zip" if name.lower().endswith(".zip") else "tar"


def _blank(head: bytes) -> bool:
    """Whether the first bytes of an input hold nothing but blanks (maybe after a UTF-8 byte-order mark)."""
    return not head.removeprefix(b"\xef\xbb\xbf").strip()
