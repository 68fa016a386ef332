"""Bytes to text lines: finding input files, decoding, sniffing PBN vs LIN.

This module knows nothing of bridge.  It turns paths into :class:`Input`
objects whose :meth:`Input.lines` streams decoded text lines, one at a time,
so that a file is never held whole in memory.

Decoding follows pbn.md §1 and §18: a UTF-8 byte-order mark is stripped;
each line is decoded as UTF-8, and a line that is not valid UTF-8 is decoded
as ISO-8859-1 (PBN's own character set) with one F002 warning per file.
Line ends CR LF, LF and a lone CR are all accepted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from handrec.diagnostics import Diagnostic, make
from handrec.model import Span

__all__ = ["Input", "iter_inputs", "sniff", "decode_lines", "InputError"]

#: How many bytes :func:`sniff` looks at.
SNIFF_BYTES = 16384

_PBN_TAG = re.compile(rb'^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"', re.M)
_LIN_START = re.compile(rb"\A\s*[A-Za-z]{2}\|")
_LIN_URL = re.compile(rb"[?&]lin=\s*[A-Za-z]{2}(?:\||%7C)", re.I)


class InputError(OSError):
    """An input path cannot be read (missing, a folder given as a file, no permission)."""


def sniff(head: bytes, name: str = "") -> str | None:
    """Guess the format of a file from its first bytes: ``"pbn"``, ``"lin"`` or ``None``.

    Content decides first (a PBN tag pair at the start of a line; a LIN
    ``xx|`` command pair at the start of the file, or a hand-viewer
    ``?lin=`` link); the extension
    ``.pbn``/``.lin`` decides only when the content says nothing (an empty
    or comment-only file).

    >>> sniff(b'% PBN 2.1\\n[Event "x"]\\n')
    'pbn'
    >>> sniff(b"pn|a,b,c,d|st||md|3S...|")
    'lin'
    >>> sniff(b"", "empty.PBN"), sniff(b"| a | b |", "MANIFEST.md")
    ('pbn', None)
    """
    if _PBN_TAG.search(head):
        return "pbn"
    if _LIN_START.match(head.removeprefix(b"\xef\xbb\xbf")) or _LIN_URL.search(head):
        return "lin"
    ext = os.path.splitext(name)[1].lower()
    if ext == ".pbn":
        return "pbn"
    if ext == ".lin":
        return "lin"
    return None


def decode_lines(stream: Iterable[bytes], path: str, diagnostics: list[Diagnostic]) -> Iterator[str]:
    """Yield the decoded lines of a binary stream, without line ends.

    Strips a UTF-8 byte-order mark; splits on CR LF, LF and lone CR;
    decodes each line as UTF-8, falling back to ISO-8859-1 (PBN 2.1 §2)
    and appending one F002 warning to ``diagnostics`` for the first such
    line.
    """
    first = True
    warned = False
    lineno = 0
    pending_cr = False
    for raw in stream:
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
        if pending_cr and raw.startswith(b"\n"):
            raw = raw[1:]
            if not raw:
                pending_cr = False
                continue
        pending_cr = False
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            parts = raw.split(b"\r") if b"\r" in raw else (raw,)
        else:
            # last line without a newline, or a CR-only file
            if raw.endswith(b"\r"):
                pending_cr = True
                raw = raw[:-1]
            parts = raw.split(b"\r") if b"\r" in raw else (raw,)
        for part in parts:
            lineno += 1
            try:
                yield part.decode("utf-8")
            except UnicodeDecodeError:
                if not warned:
                    warned = True
                    diagnostics.append(
                        make("F002", None, Span(lineno, 1), path=path, encoding="UTF-8", fallback="ISO-8859-1")
                    )
                yield part.decode("latin-1")


@dataclass
class Input:
    """One input file to read.

    ``path`` is shown in diagnostics; ``format`` is ``"pbn"``, ``"lin"`` or
    ``None`` (not a bridge file); ``diagnostics`` collects file-level
    faults found while reading (decoding, unreadable file).
    """

    path: str
    format: str | None
    opener: object = field(repr=False, default=None)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def lines(self) -> Iterator[str]:
        """Stream the decoded lines (see :func:`decode_lines`).

        :raises InputError: when the file cannot be opened or read.
        """
        try:
            stream = self.opener()  # type: ignore[operator]
        except OSError as e:
            raise InputError(f"{self.path}: {e.strerror or e}") from e
        with stream:
            try:
                yield from decode_lines(stream, self.path, self.diagnostics)
            except OSError as e:
                raise InputError(f"{self.path}: {e.strerror or e}") from e


def _file_input(p: Path, display: str) -> Input:
    with open(p, "rb") as f:
        head = f.read(SNIFF_BYTES)
    return Input(display, sniff(head, p.name), opener=lambda: open(p, "rb"))


def iter_inputs(paths: Iterable[str | os.PathLike[str]], errors: list[Diagnostic] | None = None) -> Iterator[Input]:
    """Expand files and folders (recursively, sorted, hidden entries skipped) into inputs.

    A file named explicitly is always yielded (its ``format`` may be
    ``None``: the caller reports it); inside folders only files that sniff
    as PBN or LIN are yielded.  A path that cannot be read becomes an F001
    diagnostic appended to ``errors`` (or raises :class:`InputError` when
    ``errors`` is ``None``).
    """
    for raw in paths:
        p = Path(raw)
        try:
            if p.is_dir():
                for dirpath, dirnames, filenames in os.walk(p):
                    dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                    for name in sorted(filenames):
                        if name.startswith("."):
                            continue
                        fp = Path(dirpath) / name
                        try:
                            inp = _file_input(fp, str(fp))
                        except OSError as e:
                            _fail(errors, str(fp), e)
                            continue
                        if inp.format is not None:
                            yield inp
            elif p.exists():
                yield _file_input(p, str(raw))
            else:
                raise FileNotFoundError(2, "No such file or directory")
        except OSError as e:
            _fail(errors, str(raw), e)


def _fail(errors: list[Diagnostic] | None, path: str, e: OSError) -> None:
    reason = e.strerror or str(e)
    if errors is None:
        raise InputError(f"{path}: {reason}") from e
    errors.append(make("F001", None, None, path=path, reason=reason))
