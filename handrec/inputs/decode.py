"""Bytes to text lines: decoding, byte-order mark and line ends (:func:`decode_lines`, :class:`LineStream`).

**Decoding** follows pbn.md §1 and §18: a UTF-8 byte-order mark is stripped;
each line is decoded as UTF-8, and a line that is not valid UTF-8 is decoded
as ISO-8859-1 (PBN's own character set) with one F002 warning per file.
The bytes are read in blocks of :data:`CHUNK_BYTES` and a block of whole
lines that is valid UTF-8 is decoded and split in one go (see
:func:`decode_lines`).
Line ends CR LF, LF and a lone CR are all accepted.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from handrec.diagnostics import Diagnostic, make
from handrec.model import Span

__all__ = ["decode_lines", "LineStream"]


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
