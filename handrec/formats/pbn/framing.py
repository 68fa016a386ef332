"""PBN framing: a line stream split into games (PBN 2.1 §2.4, §3; pbn.md §2.1-2.2, §18.3-4).

Games are separated by semi-empty lines that are outside a ``{...}`` comment.  Escape
lines (``%`` in column 1 outside a brace comment, PBN 2.1 §2.4) belong to no game and
never end one: inside a game they are blanked so that line numbers stay right.  A block
with nothing but comments is not a game.  :func:`_frame` reads lines one by one;
:func:`_frame_blocks` frames the decoded blocks of :meth:`handrec.inputs.sources.Input.lines`
a block at a time (games cut at empty lines in the text, no line split) while the blocks
hold nothing else to look at.  After ``% EXPORT`` each line is checked for tabs and
length (F020, F021).  The first stage of :func:`handrec.formats.pbn.reader.parse_pbn`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

# Outside a comment: a string (maybe unterminated), a ; comment, a { comment (maybe not
# closed on this line), whitespace, or other text.  Only used on lines holding a "{".
_SCAN_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|;.*|\{[^}]*\}?|\s+|[^\s";{]+')


def _scan(line: str, pos: int) -> tuple[int, bool]:
    """Scan ``line[pos:]``, which starts outside a brace comment.

    :returns: ``(open_at, content)``: the 0-based index of a ``{`` still open at the end of
        the line (or -1), and whether anything but whitespace and comments was seen.
    """
    content = False
    n = len(line)
    while pos < n:
        m = _SCAN_RE.match(line, pos)
        if m is None:  # pragma: no cover - the alternatives cover every character
            return -1, True
        t = m.group()
        c = t[0]
        if c == "{":
            if len(t) == 1 or t[-1] != "}":
                return pos, content
        elif c != ";" and not t.isspace():
            content = True
        pos = m.end()
    return -1, content


_VERSION_RE = re.compile(r"%\s*PBN\s+(\d+)\.(\d+)\s*")
_EXPORT_RE = re.compile(r"%\s*EXPORT\s*", re.IGNORECASE)
#: The escape line that names the file's encoding (pbn.md §2): about the file, as the two above.
_CONTENT_TYPE_RE = re.compile(r"%\s*Content-type:", re.IGNORECASE)


class _FrameState:
    """What the escape lines said so far (PBN 2.1 §2.4): ``export`` after ``% EXPORT``,
    ``version`` from ``% PBN <major>.<minor>``; ``events``: file-level export-format faults
    found while framing, ``(code, line, column, detail)``; ``escapes``: when a list, the file
    lines of the other escape lines (BridgeComposer's layout lines, comment banners; not
    ``%Content-type:``, which names the encoding) are appended to it."""

    __slots__ = ("export", "version", "events", "escapes")

    def __init__(self, escapes: list[int] | None = None) -> None:
        self.export = False
        self.version: tuple[int, int] | None = None
        self.events: list[tuple[str, int, int, Any]] = []
        self.escapes = escapes


#: The ``text`` :func:`_frame` gives for a game over the size limit (its text was dropped).
_TOO_BIG: Any = "<game over the size limit>"


class _Dropped:
    """Stands in for the line buffer of a game over the size limit: counts the lines given
    to :meth:`append` and keeps none (after ``% EXPORT`` it checks each one as it goes)."""

    __slots__ = ("lineno", "state")

    def __init__(self, lineno: int, state: _FrameState) -> None:
        self.lineno = lineno  # the file line of the next line appended
        self.state = state

    def append(self, line: str) -> None:
        if self.state.export:
            _line_faults([line], self.lineno, self.state.events)
        self.lineno += 1

    def __bool__(self) -> bool:
        return True  # a game is open


def _frame(
    lines: Iterable[str],
    state: _FrameState | None = None,
    max_chars: int | None = None,
    lineno: int = 0,
    offset: int = 0,
) -> Iterator[tuple[int, int, str | None, tuple[int, int] | None]]:
    """Split a line stream into game blocks.

    :yields: ``(first_line, offset, text, open_comment)`` per game: the 1-based file line of
        the block's first line, that line's character offset, the block's text (its lines
        joined by ``\\n``, escape lines blanked), and for a block ending inside a brace
        comment (only possible at the end of the file) the file ``(line, column)`` of its
        ``{``, else None.  A last block that is only an unclosed comment is yielded with
        ``text`` None (no game, but the fault must be reported).

    A game whose text (its lines joined by line ends) comes to more than ``max_chars``
    characters is not kept: its lines are dropped as they come (the framing still follows
    them, to find where the game ends) and it is yielded with ``text`` :data:`_TOO_BIG`.

    With ``state``, escape lines ``% PBN x.y`` and ``% EXPORT`` are noted in it, and after
    ``% EXPORT`` each line is checked for tabs, length (255 with CR LF) and separators
    that are not empty (export format, PBN 2.1 §2.3, §3).

    ``lineno`` and ``offset``: the lines and characters (line ends counted) before
    ``lines`` in the file, when the framing starts at a game boundary past its beginning.
    """
    if state is None:
        state = _FrameState()
    events = state.events
    export = state.export
    limit = max_chars + 1 if max_chars is not None else 1 << 62  # the text and one line end
    buf: list[str] | _Dropped = []
    first_line = 0
    first_offset = 0
    content = False  # the block has something besides comments (so it is a game)
    in_comment = False
    comment_at = (0, 0)
    for line in lines:
        lineno += 1
        here = offset
        offset += len(line) + 1
        if in_comment:
            buf.append(line)
            if offset - first_offset > limit and type(buf) is list:
                buf = _drop(buf, first_line, lineno, state)
            j = line.find("}")
            if j < 0:
                continue
            in_comment = False
            k, c = _scan(line, j + 1)
            content = content or c
            if k >= 0:
                in_comment, comment_at = True, (lineno, k + 1)
            continue
        c0 = line[:1]
        if c0 == "%":  # escape line (PBN 2.1 §2.4)
            if export:
                _line_faults([line], lineno, events)
            if buf:
                buf.append("")
            if _EXPORT_RE.fullmatch(line):
                state.export = export = True
            else:
                m = _VERSION_RE.fullmatch(line)
                if m is not None:
                    state.version = (int(m.group(1)), int(m.group(2)))
                elif state.escapes is not None and not _CONTENT_TYPE_RE.match(line):
                    state.escapes.append(lineno)
            continue
        # semi-empty line: end of a game (a line starting with printable ASCII is none)
        if (c0 < "!" or c0 > "~") and (not line or line.isspace()):
            if buf and export and type(buf) is list:
                _line_faults(buf, first_line, events)
            if line and export:
                _line_faults([line], lineno, events)
                events.append(("F020", lineno, 1, "a game separator line holds spaces or tabs (not empty)"))
            if buf:
                if content:
                    yield first_line, first_offset, "\n".join(buf) if type(buf) is list else _TOO_BIG, None
                buf = []
                content = False
            continue
        if not buf:
            first_line, first_offset = lineno, here
        buf.append(line)
        if offset - first_offset > limit and type(buf) is list:
            buf = _drop(buf, first_line, lineno, state)
        if "{" in line:
            k, c = _scan(line, 0)
            content = content or c
            if k >= 0:
                in_comment, comment_at = True, (lineno, k + 1)
        elif not content:
            content = line.lstrip()[:1] != ";"
    if buf and export and type(buf) is list:
        _line_faults(buf, first_line, events)
    if buf and content:
        text = "\n".join(buf) if type(buf) is list else _TOO_BIG
        yield first_line, first_offset, text, comment_at if in_comment else None
    elif in_comment:
        yield first_line, first_offset, None, comment_at


#: What makes the framing of a block need the general code: a brace comment, an escape
#: line, and white space that could start a semi-empty line (other than the line end).
_NOT_PLAIN = ("{", "\t", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "\n ", "\n%")
#: Non-ASCII white space (``str.isspace``): a line of it is semi-empty, a line starting
#: with it may be a ``;`` comment.
_UNICODE_SPACE_RE = re.compile(r"[^\S\x00-\x7f]")
#: A game larger than this (in characters) carried from one block to the next is left to
#: the general code (it drops the lines of a game over the size limit as they come).
_CARRY_MAX = 1 << 16


def _lines_of(item: str | Iterator[str]) -> Iterable[str]:
    """The lines of an item of :attr:`handrec.inputs.decode.LineStream.items`."""
    return item.split("\n") if type(item) is str else item


def _plain_block(text: str) -> bool:
    """Whether :func:`_frame` would find nothing in ``text`` (whole lines joined by ``\\n``)
    but tag pairs, data, ``;`` comments and empty lines: no brace comment, no escape line,
    no line starting with white space (the semi-empty lines are the empty ones)."""
    if text[:1] in (" ", "%"):
        return False
    for s in _NOT_PLAIN:
        if s in text:
            return False
    return text.isascii() or _UNICODE_SPACE_RE.search(text) is None


def _frame_blocks(
    items: Iterator[str | Iterator[str]], state: _FrameState, max_chars: int | None = None
) -> Iterator[tuple[int, int, str | None, tuple[int, int] | None]]:
    """:func:`_frame` for the items of a :class:`handrec.inputs.decode.LineStream` (a decoded block of
    whole lines as one text, or an iterator of lines): the same games, found in the text
    of a plain block (:func:`_plain_block`) at once, without splitting it into lines.

    The escape lines and empty lines that begin the file are read first (as :func:`_frame`
    reads them); the games of a block are cut at empty lines (a game that goes on into the
    next block is carried over), a plain one (:func:`_plain_block`) yielded as it is, any
    other framed by :func:`_frame` alone (:func:`_frames_of`: a comment, an escape line,
    separators of spaces); from a brace comment open at an empty line, an item that is not
    text, or a carried game over :data:`_CARRY_MAX` on, :func:`_frame` reads the lines.
    """
    events = state.events
    limit = max_chars if max_chars is not None else 1 << 62
    lineno = 0  # the file lines before ``text``
    offset = 0  # the characters before ``text`` (line ends counted)
    carry: str | None = None  # the lines of a game going on into the next item
    head = True  # still at the beginning of the file (escape lines are read there)
    for item in items:
        if type(item) is not str:
            text = None
        elif carry is None:
            text = item
        else:
            text = carry + "\n" + item
        if text is not None and head:
            pos = 0
            n = len(text)
            while pos < n and text[pos] in "%\n":  # escape lines and empty lines first
                end = text.find("\n", pos)
                if end < 0:
                    end = n
                line = text[pos:end]
                lineno += 1
                if line:  # an escape line outside a game (as in _frame)
                    if state.export:
                        _line_faults([line], lineno, events)
                    if _EXPORT_RE.fullmatch(line):
                        state.export = True
                    else:
                        m = _VERSION_RE.fullmatch(line)
                        if m is not None:
                            state.version = (int(m.group(1)), int(m.group(2)))
                        elif state.escapes is not None and not _CONTENT_TYPE_RE.match(line):
                            state.escapes.append(lineno)
                offset += end - pos + 1
                pos = end + 1
            if pos > n:  # the last line was read: nothing is left of this item
                continue
            text = text[pos:]
            head = False
        if text is None or (carry is not None and len(carry) > _CARRY_MAX):
            rest = chain.from_iterable(map(_lines_of, items))
            if text is not None:
                lines: Iterable[str] = chain(text.split("\n"), rest)
            else:
                lines = chain(() if carry is None else carry.split("\n"), item, rest)
            yield from _frame(lines, state, max_chars, lineno, offset)
            return
        carry = None
        export = state.export
        pos = 0
        n = len(text)
        while True:
            while pos < n and text[pos] == "\n":  # empty lines: game separators
                pos += 1
                lineno += 1
                offset += 1
            if pos >= n:  # the item's last line is empty (a separator too)
                lineno += 1
                offset += 1
                break
            end = text.find("\n\n", pos)
            if end < 0:
                if text[-1] != "\n":  # the game goes on in the next item
                    carry = text[pos:]
                    break
                end = n - 1
            game = text[pos:end]
            if not _plain_block(game):
                frames = _frames_of(game, state, max_chars, lineno, offset)
                if frames is None:  # a brace comment open at the empty line: the lines from here
                    rest = chain.from_iterable(map(_lines_of, items))
                    yield from _frame(chain(text[pos:].split("\n"), rest), state, max_chars, lineno, offset)
                    return
                yield from frames
                export = state.export
                lineno += game.count("\n") + 1
                offset += len(game) + 1
                pos = end + 1
                continue
            first_line = lineno + 1
            if export:
                game_lines = game.split("\n")
                if max(map(len, game_lines)) > 253:
                    _line_faults(game_lines, first_line, events)
            if game[0] != ";" or any(line[:1] != ";" for line in game.split("\n")):  # not only comments
                yield first_line, offset, game if len(game) <= limit else _TOO_BIG, None
            lineno += game.count("\n") + 1
            offset += len(game) + 1
            pos = end + 1
    if carry is not None and not _plain_block(carry):  # the last game: what the lines give
        yield from _frame(carry.split("\n"), state, max_chars, lineno, offset)
    elif carry is not None:  # the last game, with no separator after it
        first_line = lineno + 1
        if state.export:
            game_lines = carry.split("\n")
            if max(map(len, game_lines)) > 253:
                _line_faults(game_lines, first_line, events)
        if carry[0] != ";" or any(line[:1] != ";" for line in carry.split("\n")):
            yield first_line, offset, carry if len(carry) <= limit else _TOO_BIG, None


def _frames_of(
    game: str, state: _FrameState, max_chars: int | None, lineno: int, offset: int
) -> list[tuple[int, int, str | None, tuple[int, int] | None]] | None:
    """:func:`_frame` of the lines of ``game`` (whole lines up to an empty line, starting after
    one), or ``None`` when a brace comment is still open at their end (an empty line inside a
    comment ends no game, so the lines must be framed on from there), ``state`` then as it was.

    Framing restarts at any empty line outside a comment (no game is open there), so the
    games of such a block are those that :func:`_frame` finds over the whole file."""
    escapes = state.escapes
    before = (state.export, state.version, len(state.events), len(escapes) if escapes is not None else 0)
    frames = list(_frame(game.split("\n"), state, max_chars, lineno, offset))
    if not frames or frames[-1][3] is None:
        return frames
    state.export, state.version = before[0], before[1]
    del state.events[before[2] :]
    if escapes is not None:
        del escapes[before[3] :]
    return None


def _drop(buf: list[str], first_line: int, lineno: int, state: _FrameState) -> _Dropped:
    """Give up the lines of a game that went over the size limit at file line ``lineno``
    (after checking them for the export format, as at the end of a game)."""
    if state.export:
        _line_faults(buf, first_line, state.events)
    return _Dropped(lineno + 1, state)


def _line_faults(lines: list[str], first: int, events: list[tuple[str, int, int, Any]]) -> None:
    """Export format (PBN 2.1 §2.3): F021 for a line over 255 characters with its CR LF,
    F020 for a tab; ``lines`` start at file line ``first``."""
    if max(map(len, lines)) <= 253 and "\t" not in "".join(lines):
        return
    for k, line in enumerate(lines):
        if len(line) > 253:
            events.append(("F021", first + k, 1, len(line) + 2))
        if "\t" in line:
            events.append(("F020", first + k, line.index("\t") + 1, "a line holds a tab character"))
