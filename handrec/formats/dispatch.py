"""The streaming reader: paths or file objects in, typed :class:`Board` records out.

One reader feeds every job (validate, convert, booklet): each input is
decoded line by line (:mod:`handrec.inputs`), sniffed as PBN or LIN, and handed
to the matching Lark parser (:mod:`handrec.formats.pbn.reader`,
:mod:`handrec.formats.lin.reader`), which yields one board at a time; a USEBIO file
(XML) is read as bytes by :mod:`handrec.formats.usebio.reader`, one board per traveller line.  Memory stays
constant per board whatever the size of the archive.
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from handrec.diagnostics import Diagnostic, Severity, make
from handrec.inputs.decode import decode_lines
from handrec.inputs.entries import iter_inputs
from handrec.inputs.limits import DEFAULT_LIMITS, InputError
from handrec.inputs.sniff import sniff
from handrec.inputs.sources import Input
from handrec.model import Board

__all__ = ["read", "read_input", "iter_inputs", "Input", "InputError"]


def _unknown_reason(inp: Input) -> str:
    """Why an input is neither PBN nor LIN, with a hint for text in UTF-16 or UTF-32 (Windows
    editors save "Unicode" so), which handrec does not read: PBN is ASCII / ISO-8859-1 / UTF-8."""
    try:
        stream = inp.open()
        try:
            head = stream.read(64)
        finally:
            stream.close()
    except Exception:  # the reason is a courtesy: never a second fault
        head = b""
    wide = (
        head[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
        and "UTF-32"
        or (head[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(head) >= 8 and head[1::2].count(0) >= len(head) // 2 - 1))
        and "UTF-16"
    )
    if wide:
        return f"{wide} text: save it as UTF-8 (or ISO-8859-1) and read it again"
    return "no PBN tag pair or LIN command found"


def read_input(
    inp: Input,
    *,
    part: tuple[int, int] | None = None,
    file_diagnostics: list[Diagnostic] | None = None,
    digest: bool = True,
    escape_lines: list[int] | None = None,
) -> Iterator[Board]:
    """Yield the boards of one input, appending file-level faults to ``inp.diagnostics``.

    An input whose format is unknown yields nothing and gets one F004
    error.  A read failure part-way (I/O error) becomes an F001 error after
    the boards already read.  A board larger than the input's
    :attr:`Limits.max_board_bytes <handrec.inputs.limits.Limits.max_board_bytes>` is
    yielded with only an F016 error (see :func:`handrec.formats.pbn.reader.parse_pbn`).
    A file read to its end without a single board (empty, or headers and
    comments only) gets an F018 warning.

    ``file_diagnostics``: where the parser's own file-level faults go (F005,
    F020, F021...); by default ``inp.diagnostics``, beside the reading's
    (F001, F002, F010, F013).  ``part`` (PBN or LIN): ``(start, stop)``
    character offsets, to read one part of a big file (the ``part`` of
    :func:`handrec.formats.pbn.reader.parse_pbn`, only for a file without ``#``
    inheritance, and of :func:`handrec.formats.lin.reader.parse_lin`); no F018 then,
    since a part may hold no game (the caller judges the whole file).  ``digest=False``: the bytes are not hashed
    (``inp.sha256`` stays ``None``; see :meth:`handrec.inputs.sources.Input.lines`).
    ``escape_lines`` (PBN): a list the file lines of its escape lines other than ``% PBN``,
    ``% EXPORT`` and ``%Content-type:`` are appended to (see :func:`handrec.formats.pbn.reader.parse_pbn`).

    :raises ValueError: for a ``part`` of an input that is neither PBN nor LIN.
    """
    if part is not None and inp.format not in ("pbn", "lin"):
        raise ValueError(f"only a PBN or LIN file is read in parts, not {inp.format!r}")
    if inp.format is None:
        inp.diagnostics.append(make("F004", None, None, path=inp.path, reason=_unknown_reason(inp)))
        return
    found = inp.diagnostics if file_diagnostics is None else file_diagnostics
    n = 0
    try:
        where: dict[str, object] = {} if part is None else {"part": part}  # (PBN or LIN, checked above)
        if escape_lines is not None and inp.format == "pbn":
            where["escape_lines"] = escape_lines
        if inp.format == "usebio":  # XML: read as bytes, it names its own encoding
            from handrec.formats.usebio.reader import read_usebio_input

            boards = read_usebio_input(inp, found, digest=digest)
        else:
            boards = _parser(inp.format)(inp.lines(digest=digest), inp.path, found, inp.limits.max_board_bytes, **where)
        for board in boards:
            n += 1
            yield board
    except InputError as e:
        inp.diagnostics.append(make("F001", None, None, path=inp.path, reason=str(e)))
        return
    if part is None and n == 0 and not any(d.severity is Severity.ERROR for d in (*inp.diagnostics, *found)):
        inp.diagnostics.append(make("F018", None, None, path=inp.path, format=inp.format.upper()))


def _parser(fmt: str):
    if fmt == "pbn":
        from handrec.formats.pbn.reader import parse_pbn

        return parse_pbn
    from handrec.formats.lin.reader import parse_lin

    return parse_lin


def read(source: str | os.PathLike[str] | BinaryIO | TextIO, *, format: str | None = None) -> Iterator[Board]:
    """Read boards from a path (file, folder, archive; ``-`` is standard input) or an open file, PBN, LIN or USEBIO by content.

    Yields :class:`handrec.model.Board` records one at a time; faults found
    while reading are on each board's ``diagnostics`` (file-level faults,
    such as an undecodable byte, are dropped here: use
    :func:`read_input` to get them).

    :raises InputError: when a path cannot be read.

    >>> boards = list(read(io.StringIO('[Board "1"]\\n[Dealer "N"]\\n[Contract "3NT"]\\n')))
    >>> boards[0].number, str(boards[0].contract)
    (1, '3NT')
    """
    if isinstance(source, (str, os.PathLike)):
        for inp in iter_inputs([source]):
            yield from read_input(inp)
        return
    name = getattr(source, "name", "<stream>")
    name = name if isinstance(name, str) else "<stream>"
    if isinstance(source, io.TextIOBase):
        raw_lines: Iterator[bytes] = (line.encode("utf-8") for line in source)
    else:
        raw_lines = iter(source)  # type: ignore[arg-type]
    head: list[bytes] = []
    size = 0
    for line in raw_lines:
        head.append(line)
        size += len(line)
        if size >= 16384:
            break
    fmt = format or sniff(b"".join(head), name) or "pbn"
    diags: list[Diagnostic] = []
    if fmt == "usebio":
        from handrec.formats.usebio.reader import parse_usebio

        yield from parse_usebio(
            itertools.chain(head, raw_lines), name, diags, max_document=DEFAULT_LIMITS.max_board_bytes
        )
        return
    lines = decode_lines(itertools.chain(head, raw_lines), name, diags)  # type: ignore[arg-type]
    yield from _parser(fmt)(lines, name, diags, DEFAULT_LIMITS.max_board_bytes)


def read_inputs(
    paths: Iterable[str | os.PathLike[str]], errors: list[Diagnostic]
) -> Iterator[tuple[Input, Iterator[Board]]]:
    """For each input under ``paths``: the input and the iterator of its boards."""
    for inp in iter_inputs(paths, errors):
        yield inp, read_input(inp)
