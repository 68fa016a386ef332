"""The fuzz harness: mutate real and generated PBN/LIN files and check what the reader makes of them.

Shared by the bounded property tests (``tests/hostile/test_fuzz.py``), the
long pure-hypothesis run (``HANDREC_FUZZ_EXAMPLES``, ``fuzz/fuzz_long.py``)
and the atheris harness (``fuzz/fuzz_read.py``).

:func:`check` reads one input the way ``validate`` and ``convert`` do
(:func:`handrec.formats.dispatch.read_input`, :func:`handrec.rules.validator.analyse`, the
Arrow row buffers) and asserts, for any bytes:

* nothing raises;
* every board read is in the output: one ``boards`` row per board, one
  ``diagnostics`` row per diagnostic (the board's and the file's);
* every diagnostic names the file and points inside it: line 1 to the
  number of lines (line 0 only for a fault of the whole file or board,
  column 0), column >= 0;
* (when the byte ranges of the boards of the original file are known and
  tracked through the mutation) every board of the original that is still
  there, even in part, is read -- a board starts in its range -- or shows in
  a diagnostic: one at a line of its range, one of the board that took in
  its lines (the board read before it), an unclosed brace comment before
  it (F005), or a fault of the whole file (line 0); a PBN board whose
  lines joined the game before it with no clash counts as read when its
  Deal (else Board, else any) tag is in that game, a LIN record when its
  ``md`` is the only one of the record read before it.

A :class:`Mutant` applies byte edits and keeps the boards' byte ranges up
to date, so the last check survives byte flips, truncation, duplicated and
deleted lines, boards spliced in from other files and lines re-encoded.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from handrec.dataset.tables import TableBuffers
from handrec.diagnostics import Diagnostic, Severity
from handrec.formats.dispatch import read_input
from handrec.inputs.limits import Limits
from handrec.inputs.sniff import sniff
from handrec.inputs.sources import Input
from handrec.rules.validator import analyse

#: The shared corpus of real files, beside the repository (may be missing).
CORPUS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

_BOM = b"\xef\xbb\xbf"
_EOL = re.compile(rb"\r\n|\r|\n")

#: Bytes that matter to the PBN and LIN grammars, tried more often than others.
INTERESTING = b'[]"{}%;\\|,\n\r\t \x00\x80\xc3\xff*-=!?.#^$+SHDCNTXAKQJ0123456789pPdDrR'

#: Snippets inserted by the fuzzers: structure, line ends, encodings, control characters.
SNIPPETS = (
    b"{",
    b"}",
    b'"',
    b"[",
    b"]",
    b'[Board "',
    b'[Board "7"]\n',
    b'[Play "N"]\n',
    b'[Auction "E"]\n',
    b"*",
    b"\n\n",
    b"\r",
    b"%",
    b";",
    b"qx|",
    b"md|",
    b"|",
    b"||",
    b"pg||",
    b"mc|14|",
    b"pc|",
    b"mb|",
    b"an|",
    b"%7C",
    b"lin=",
    b"\xef\xbb\xbf",
    b"\x1b[31m",
    b"\x00",
    b"\xff\xfe",
    b"\xe9",
    b"\xc3",
    b"\xf0\x9f\x82\xa1",
)

#: Codecs a line may be re-encoded in (ASCII-compatible: line ends stay where they are).
LINE_CODECS = ("latin-1", "cp1252", "cp437", "mac-roman", "cp1250", "utf-8", "utf-8-sig")
#: Codecs a whole file may be re-encoded in (line ends change bytes: no board tracking).
FILE_CODECS = ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-7", "cp500")


class FuzzFailure(AssertionError):
    """A property did not hold; the message says which and where."""


@dataclass
class Result:
    """What :func:`check` read: boards, their diagnostics, the file's diagnostics, the line count."""

    boards: int
    starts: list[int]
    diagnostics: list[Diagnostic]
    file_diagnostics: list[Diagnostic]
    lines: int
    format: str | None = None
    tags: list[set[tuple[str, str]]] = field(default_factory=list)


def line_starts(data: bytes) -> list[int]:
    """Byte offset of the start of every line (line 1 first), the way handrec splits lines.

    A UTF-8 byte-order mark belongs to line 1; CR LF, LF and CR end a line;
    a last line without an end counts; an empty input has no line.
    """
    body = data[3:] if data.startswith(_BOM) else data
    skip = len(data) - len(body)
    if not body:
        return []
    starts = [0]
    for m in _EOL.finditer(body):
        if m.end() < len(body):
            starts.append(m.end() + skip)
    return starts


def count_lines(data: bytes) -> int:
    return len(line_starts(data))


def line_of(starts: list[int], offset: int) -> int:
    """The 1-based line holding byte ``offset``."""
    lo, hi = 0, len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return max(lo, 1)


def make_input(data: bytes, name: str, limits: Limits | None = None) -> Input:
    """An :class:`Input` over ``data`` (format sniffed by content, then by ``name``)."""
    fmt = sniff(data[:16384], name)
    return Input(name, fmt, opener=lambda: io.BytesIO(data), limits=limits or Limits())


def check(
    data: bytes,
    name: str = "fuzz.pbn",
    ranges: list[tuple[int, int]] | None = None,
    limits: Limits | None = None,
) -> Result:
    """Read ``data`` as the file ``name`` and assert the properties of the module doc.

    ``ranges``: byte ranges ``[start, end)`` of boards known to be in
    ``data`` (see :class:`Mutant`); each must be read or diagnosed.

    :raises FuzzFailure: when a property does not hold (any other exception
        is a crash of handrec itself).
    """
    inp = make_input(data, name, limits)
    buf = TableBuffers()
    n = 0
    starts: list[int] = []
    tags: list[set[tuple[str, str]]] = []
    diags: list[Diagnostic] = []
    for board in read_input(inp):
        a = analyse(board)
        buf.add(a)
        n += 1
        starts.append(board.origin.line)
        tags.append({(t.name, t.value) for t in board.tags})
        diags.extend(a.diagnostics)
    for d in inp.diagnostics:
        buf.add_diagnostic(d, None)
    nboards = buf.take("boards").num_rows
    ndiags = buf.take("diagnostics").num_rows
    if nboards != n:
        raise FuzzFailure(f"{n} boards read but {nboards} rows in the boards table")
    if ndiags != len(diags) + len(inp.diagnostics):
        raise FuzzFailure(f"{len(diags) + len(inp.diagnostics)} diagnostics but {ndiags} rows in the table")
    nlines = count_lines(data)
    for d in [*diags, *inp.diagnostics]:
        _check_position(d, name, nlines)
    for i, s in enumerate(starts):
        if not 1 <= s <= max(nlines, 1):
            raise FuzzFailure(f"board {i} starts at line {s}, outside lines 1..{nlines}")
    result = Result(n, starts, diags, list(inp.diagnostics), nlines, inp.format, tags)
    if ranges is not None:
        _check_accounted(data, ranges, result)
    return result


def _check_position(d: Diagnostic, name: str, nlines: int) -> None:
    if d.path != name:
        raise FuzzFailure(f"diagnostic names {d.path!r}, not {name!r}: {d}")
    if d.column < 0:
        raise FuzzFailure(f"negative column: {d}")
    if d.line == 0:
        if d.column != 0:
            raise FuzzFailure(f"line 0 with a column: {d}")
        return
    if not 1 <= d.line <= nlines:
        raise FuzzFailure(f"line {d.line} outside the file's lines 1..{nlines}: {d}")


def _check_accounted(data: bytes, ranges: list[tuple[int, int]], r: Result) -> None:
    """Every tracked board range is read (a board starts there) or diagnosed."""
    if any(d.line == 0 and d.severity is Severity.ERROR for d in r.file_diagnostics):
        return  # the file as a whole was refused, and said so
    if r.format is None:
        return
    starts = line_starts(data)
    board_lines = set(r.starts)
    noted = {d.line for d in r.diagnostics + r.file_diagnostics if d.severity >= Severity.WARNING}
    unclosed = [d.line for d in r.file_diagnostics if d.code == "F005"]
    flagged = {d.board for d in r.diagnostics if d.severity >= Severity.WARNING}
    quiet = _pbn_comment_lines(data, starts) if r.format == "pbn" else set()
    for a, b in ranges:
        if a >= b or a >= len(data):
            continue  # the board was cut away entirely
        first, last = line_of(starts, a), line_of(starts, b - 1)
        if r.format == "pbn" and all(x in quiet for x in range(first, last + 1)):
            continue  # only comments, escape and empty lines are left of it: not a game (PBN 2.1 §3)
        if r.format == "lin" and not _LIN_RECORD.search(data[a:b]):
            continue  # only header pairs (pn, st, vg...) are left of it: not a record (lin.md §2)
        span = range(first, last + 1)
        if any(x in board_lines for x in span) or any(x in noted for x in span):
            continue
        if any(u <= last for u in unclosed):
            continue
        before = [i for i, s in enumerate(r.starts) if s < first]
        if before and before[-1] in flagged:
            continue  # read as part of the board before it, which is flagged
        if r.format == "pbn" and before:
            own = _pbn_tags(data, starts, span, quiet)
            key = [t for t in own if t[0] == "Deal"] or [t for t in own if t[0] == "Board"] or own
            if any(t in r.tags[before[-1]] for t in key):
                continue  # its tags are in the board before it (no clash: nothing to report)
        if r.format == "lin" and before:
            k = before[-1]
            lo = starts[r.starts[k] - 1]
            hi = starts[r.starts[k + 1] - 1] if k + 1 < len(r.starts) else len(data)
            if len(_LIN_DEAL.findall(data[lo:hi])) == 1 and _LIN_DEAL.search(data[a:b]):
                continue  # the one deal of the record read before it (header pairs lead into it)
        raise FuzzFailure(
            f"the board in lines {first}-{last} (bytes {a}-{b}) is neither read nor in a diagnostic: "
            f"boards start at {sorted(board_lines)}, diagnostics at {sorted(noted)}"
        )


#: A LIN pair that makes a record (lin.md §2: md, qx; or sv, mb, an, pc, mc, ah without them); a
#: command starts the text or follows a pipe or a line end (``Dan|`` in ``pn|Cat,Gus,Eve,Dan|`` is a name).
_LIN_RECORD = re.compile(rb"(?i)(?:^|(?<=[|\s]))(?:md|qx|sv|mb|an|pc|mc|ah)\s*(?:\||%7c)")
_LIN_QX = re.compile(rb"(?i)qx\s*(?:\||%7c)")


_LIN_DEAL = re.compile(rb"(?i)md\s*(?:\||%7c)")
_PBN_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|;.*|\{[^}]*\}?|\s+|[^\s";{]+')


_PBN_TAG_LINE = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"([^"\\]*)"\s*\]')


def _pbn_tags(data: bytes, starts: list[int], span: range, quiet: set[int]) -> list[tuple[str, str]]:
    """The plain tag pairs at the start of the lines ``span`` (not in comments)."""
    out = []
    for ln in span:
        if ln in quiet:
            continue
        a = starts[ln - 1]
        b = starts[ln] if ln < len(starts) else len(data)
        raw = data[a:b]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = raw.decode("latin-1")
        m = _PBN_TAG_LINE.match(line.removeprefix("\ufeff"))
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def _pbn_comment_lines(data: bytes, starts: list[int]) -> set[int]:
    """Lines of a PBN text with nothing but brace or ``;`` comments, escape lines (``%``) or blanks.

    Scans like PBN 2.1 §3.8: a ``{`` outside a string opens a comment that the
    first ``}`` closes, over as many lines as it takes.
    """
    text = data.decode("latin-1")
    quiet: set[int] = set()
    open_comment = False
    for i, a in enumerate(starts):
        b = starts[i + 1] if i + 1 < len(starts) else len(text)
        line = text[a:b].rstrip("\r\n").removeprefix("\xef\xbb\xbf" if i == 0 else "")
        pos, content = 0, False
        if open_comment:
            j = line.find("}")
            if j < 0:
                quiet.add(i + 1)
                continue
            open_comment, pos = False, j + 1
        elif line.startswith("%"):
            quiet.add(i + 1)
            continue
        while pos < len(line):
            m = _PBN_TOKEN.match(line, pos)
            if m is None:  # pragma: no cover - the alternatives match every character
                content = True
                break
            t = m.group()
            if t[0] == "{" and (len(t) == 1 or t[-1] != "}"):
                open_comment = True
                break
            if t[0] not in ";{" and not t.isspace():
                content = True
            pos = m.end()
        if not content:
            quiet.add(i + 1)
    return quiet


# =========================================================================================
# Sources: real corpus files and generated boards, with their boards' byte ranges
# =========================================================================================


@dataclass
class Sample:
    """An input to mutate: its name, bytes and the byte ranges of its boards."""

    name: str
    data: bytes
    ranges: list[tuple[int, int]] = field(default_factory=list)


def board_ranges(data: bytes, name: str) -> list[tuple[int, int]]:
    """The byte ranges of the boards of a (sane) input: from a board's first line to the next board's."""
    r = check(data, name)
    starts = line_starts(data)
    lines = sorted(set(r.starts))
    out = []
    for i, ln in enumerate(lines):
        a = starts[ln - 1]
        b = starts[lines[i + 1] - 1] if i + 1 < len(lines) else len(data)
        out.append((a, b))
    return out


def corpus_files() -> list[Path]:
    if not CORPUS_DIR.is_dir():
        return []
    return sorted(p for sub in ("pbn", "lin") for p in (CORPUS_DIR / sub).iterdir() if p.is_file())


@lru_cache(maxsize=64)
def _corpus_sample(path: str) -> Sample:
    data = Path(path).read_bytes()
    return Sample(Path(path).name, data, board_ranges(data, Path(path).name))


def corpus_sample(path: Path, first: int = 0, most: int = 6) -> Sample:
    """A corpus file cut to its header and ``most`` boards from board ``first`` (wrapping round)."""
    s = _corpus_sample(str(path))
    if len(s.ranges) <= most:
        return s
    first %= len(s.ranges) - most + 1
    head = s.data[: s.ranges[0][0]]
    lo, hi = s.ranges[first][0], s.ranges[first + most - 1][1]
    data = head + s.data[lo:hi]
    shift = len(head) - lo
    ranges = [(a + shift, b + shift) for a, b in s.ranges[first : first + most]]
    return Sample(s.name, data, ranges)


@lru_cache(maxsize=256)
def generated_sample(n: int, seed: int, fmt: str) -> Sample:
    """``n`` generated boards written as PBN or LIN."""
    from handrec.generate import generate_boards

    text = io.StringIO()
    if fmt == "pbn":
        from handrec.formats.pbn.writer import dump
    else:
        from handrec.formats.lin.writer import dump  # type: ignore[assignment]
    dump(generate_boards(n, seed), text)
    data = text.getvalue().encode("utf-8")
    name = f"gen{n}-{seed}.{fmt}"
    return Sample(name, data, board_ranges(data, name))


# =========================================================================================
# Mutations that keep track of the boards' byte ranges
# =========================================================================================


class Mutant:
    """Bytes being mutated and the byte ranges of the boards in them (``None``: no longer known)."""

    def __init__(self, sample: Sample) -> None:
        self.name = sample.name
        self.data = sample.data
        self.ranges: list[tuple[int, int]] | None = list(sample.ranges)
        self.log: list[str] = []

    def edit(self, pos: int, delete: int, insert: bytes, tracked: bool = False) -> None:
        """Replace ``delete`` bytes at ``pos`` by ``insert``; ``tracked``: the insert is a board to account for."""
        pos = max(0, min(pos, len(self.data)))
        delete = max(0, min(delete, len(self.data) - pos))
        self.data = self.data[:pos] + insert + self.data[pos + delete :]
        if self.ranges is None:
            return
        n = len(insert)

        def start(a: int) -> int:
            if a < pos:
                return a
            return a - delete + n if a >= pos + delete else pos

        def end(b: int) -> int:
            if b <= pos:
                return b
            return b - delete + n if b >= pos + delete else pos

        self.ranges = [(start(a), end(b)) for a, b in self.ranges]
        if tracked and n:
            self.ranges.append((pos, pos + n))

    # --- the operations (each picks its position from a number in [0, 2**32)) --------------

    def _at(self, k: int, extra: int = 0) -> int:
        return k % (len(self.data) + extra) if self.data or extra else 0

    def _line(self, k: int) -> tuple[int, int, int] | None:
        """(start, end of text, end with line end) of line ``k`` mod the line count."""
        starts = line_starts(self.data)
        if not starts:
            return None
        i = k % len(starts)
        a = starts[i]
        b = starts[i + 1] if i + 1 < len(starts) else len(self.data)
        text = self.data[a:b].rstrip(b"\r\n")
        return a, a + len(text), b

    def flip(self, k: int, byte: int) -> None:
        if self.data:
            p = self._at(k)
            self.log.append(f"flip {p} {self.data[p : p + 1]!r}->{bytes([byte])!r}")
            self.edit(p, 1, bytes([byte]))

    def insert(self, k: int, junk: bytes) -> None:
        p = self._at(k, 1)
        self.log.append(f"insert {p} {junk!r}")
        self.edit(p, 0, junk)

    def delete(self, k: int, length: int) -> None:
        if self.data:
            p = self._at(k)
            self.log.append(f"delete {p} +{length}")
            self.edit(p, length, b"")

    def truncate(self, k: int) -> None:
        p = self._at(k, 1)
        self.log.append(f"truncate {p}")
        self.edit(p, len(self.data), b"")

    def delete_line(self, k: int) -> None:
        ln = self._line(k)
        if ln:
            self.log.append(f"delete line at {ln[0]}")
            self.edit(ln[0], ln[2] - ln[0], b"")

    def duplicate_line(self, k: int) -> None:
        ln = self._line(k)
        if ln:
            line = self.data[ln[0] : ln[2]]
            if not line.endswith((b"\n", b"\r")):
                line += b"\n"
            self.log.append(f"duplicate line at {ln[0]}")
            self.edit(ln[0], 0, line)

    def splice(self, k: int, other: Sample, which: int) -> None:
        """Insert a board of ``other`` at the start of a line (it must be read or diagnosed too)."""
        if not other.ranges:
            return
        a, b = other.ranges[which % len(other.ranges)]
        board = other.data[a:b]
        if not board.endswith((b"\n", b"\r")):
            board += b"\n"
        ln = self._line(k)
        p = ln[0] if ln else 0
        self.log.append(f"splice {other.name} board {which % len(other.ranges)} at {p}")
        self.edit(p, 0, board, tracked=True)

    def reencode_line(self, k: int, codec: str) -> None:
        """Re-encode one line's text (read as UTF-8, else Latin-1) in another codec: mixed encodings."""
        ln = self._line(k)
        if not ln:
            return
        raw = self.data[ln[0] : ln[1]]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        new = text.encode(codec, errors="replace")
        self.log.append(f"re-encode line at {ln[0]} as {codec}")
        self.edit(ln[0], len(raw), new)

    def line_ends(self, style: bytes) -> None:
        """Write every line end as ``style`` (CR LF, LF or CR)."""
        self.log.append(f"line ends {style!r}")
        for m in reversed(list(_EOL.finditer(self.data))):
            self.edit(m.start(), m.end() - m.start(), style)

    def add_bom(self) -> None:
        if not self.data.startswith(_BOM):
            self.log.append("add BOM")
            self.edit(0, 0, _BOM)

    def reencode_file(self, codec: str) -> None:
        """The whole file in another encoding (UTF-16, UTF-32...): board ranges no longer known."""
        try:
            text = self.data.decode("utf-8")
        except UnicodeDecodeError:
            text = self.data.decode("latin-1")
        self.log.append(f"re-encode file as {codec}")
        self.data = codecs.encode(text, codec, errors="replace")
        self.ranges = None


def apply(m: Mutant, ops: Iterable[tuple], others: list[Sample]) -> Mutant:
    """Apply operations given as tuples ``(name, *args)`` (see :func:`handrec_ops` in the tests)."""
    for op in ops:
        name, *args = op
        if name == "splice":
            k, i, which = args
            if others:
                m.splice(k, others[i % len(others)], which)
        else:
            getattr(m, name)(*args)
    return m
