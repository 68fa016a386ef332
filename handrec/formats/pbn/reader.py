"""PBN reader: frame a line stream into games and build one typed :class:`Board` per game.

Three stages (PBN 2.1; implementer notes in ``shared/specs/pbn.md``):

1. **Framing** (pure Python, :func:`_frame`): games are separated by semi-empty lines that
   are outside a ``{...}`` comment (PBN 2.1 §3; pbn.md §2.2, §18.3-4).  Escape lines (``%``
   in column 1 outside a brace comment, PBN 2.1 §2.4) belong to no game and never end one:
   inside a game they are blanked so that line numbers stay right.  A block with nothing
   but comments is not a game.  Lines from :meth:`handrec.inputs.entries.Input.lines` are framed a
   decoded block at a time (:func:`_frame_blocks`: games cut at empty lines in the text,
   no line split) while the blocks hold nothing else to look at.
2. **Parsing** (``grammars/pbn.lark``): one tree-less Lark LALR parser per process; the
   Transformer :class:`_PbnTransformer` is passed to the constructor.  The tokens come from
   :class:`_Scanner`, the grammar's terminals as one compiled regex (every parser state
   accepts every terminal, so this is what Lark's contextual lexer does, at a third of
   its cost).  Tokens are large (a run of tag pairs, a run of section lines, a comment)
   because Lark costs microseconds per token; callbacks split them and compute every
   item's position.  The tokens go straight to Lark's LALR parser state (:func:`handrec.formats._lark.feeder`),
   past ``Lark.parse``'s per-call front end.
3. **Building** (:class:`_BoardBuilder`): ``#``/``##`` tag inheritance across the games of
   one file (PBN 2.1 §4.8), typed values (Board, Dealer, Vulnerable, Deal, Contract,
   Declarer, Result), the auction (PBN 2.1 §3.5) and the play turned from PBN's seat order
   into play order (PBN 2.1 §3.6), and the board's diagnostics.

Nothing here raises on bad input: faults become :class:`handrec.diagnostics.Diagnostic`
records on the board, or in ``file_diagnostics`` for file-level faults.  Beyond the typed
Board fields, every tag value is checked against its PBN form (:data:`handrec.formats.pbn.tags.TAGS`:
T121; an unknown tag is T120, shown only by ``validate --strict``; a known tag written in
the wrong case T122), tables (PBN 2.1 §5) are read into :class:`~handrec.model.Table`
rows and checked by column (T123-T125), comments keep where they stand
(``Board.comment_anchors``), and a file that says ``% EXPORT`` is checked against the
export format's rules (F020, F021).

>>> text = '[Board "3"]\\n[Dealer "S"]\\n[Contract "3N"]\\n[Declarer "S"]\\n[Result "NS 9"]'
>>> b = parse_pbn_text(text)[0]
>>> b.number, b.dealer, str(b.contract), b.result, [d.code for d in b.diagnostics]
(3, Seat.SOUTH, '3NT', 9, ['T105'])
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any

from lark import Lark, Token, Transformer
from lark.lexer import Lexer

from handrec._resources import grammar_text
from handrec.diagnostics import Diagnostic, make
from handrec.formats._lark import feeder
from handrec.formats.pbn.play_layout import TRUMP_UNKNOWN, best_known, play_trump
from handrec.formats.pbn.table_cells import TABLES, typed_cell
from handrec.formats.pbn.tags import (
    MTS_ORDER,
    TAG_NAMES_FOLDED,
    TAGS,
    TagValueError,
    parse_columns,
    rubber_vulnerability,
)
from handrec.inputs.entries import LineStream
from handrec.model import (
    ALL_CARDS,
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    CardAnnotation,
    Contract,
    Deal,
    Hand,
    ModelError,
    Note,
    Origin,
    Play,
    Seat,
    Side,
    Span,
    Strain,
    Suit,
    Table,
    Tag,
    Vulnerability,
)

__all__ = ["parse_pbn", "parse_pbn_text"]

#: A pending diagnostic: (code, block-relative span or None, template arguments).
_Issue = tuple[str, Span | None, dict[str, Any]]


# =========================================================================================
# Public API
# =========================================================================================


def parse_pbn(
    lines: Iterable[str],
    path: str,
    file_diagnostics: list[Diagnostic],
    max_board_chars: int | None = None,
    part: tuple[int, int] | None = None,
) -> Iterator[Board]:
    """Read PBN games from decoded text lines, yielding one :class:`Board` per game.

    :param lines: the file's lines, line 1 first, decoded, without line ends (the caller
        has stripped a byte-order mark and normalised CR LF / LF / CR).
    :param path: the file name put in each board's :class:`Origin` and in diagnostics.
    :param file_diagnostics: file-level faults are appended here: F005 for a brace comment
        still open at the end of the file (PBN 2.1 §3.8); after a ``% EXPORT`` line,
        F020 for a tab or a game separator that is not an empty line and F021 for a line
        longer than 255 characters with its CR LF (PBN 2.1 §2.3, §3).
    :returns: boards in file order, streaming (one game's lines are held at a time);
        ``Origin(path, line, offset, index, "pbn")`` gives the block's first file line, its
        character offset (line ends counted as one character) and the 0-based game index.
        ``#``/``##`` inheritance (PBN 2.1 §4.8) carries across the games of one call.

    :param max_board_chars: the largest game read, in characters (its lines joined by line
        ends; :attr:`handrec.inputs.entries.Limits.max_board_bytes`), or None for no limit.  A
        larger game is not kept in memory past the limit nor parsed: it is yielded as a
        Board with only its origin and an F016 error at its first line, and the reading
        goes on at the next game.

    :param part: ``(start, stop)`` character offsets, to read one part of a big file in
        a worker process: only the games whose ``Origin.offset`` is in ``[start, stop)``
        are built and yielded (the games before are framed, so lines, offsets and
        indexes are those of the whole file, but not built), and reading stops at the
        first game at or after ``stop``.  ``file_diagnostics`` receives what is found
        while framing this part's games, and, when the part reaches the end of the
        file, what is found there: the parts ``[0, a), [a, b), ..., [z, inf)`` give
        between them every board and file diagnostic of the whole file, in order (what
        follows the last game goes to the part that holds it).  Only
        for text without ``#``/``##`` inheritance (no ``"#`` in the file): the builder
        never sees the games before the part.

    Never raises on bad input: syntax errors become F003 diagnostics at the fault's
    position, and every framed game is yielded.
    """
    builder = _BoardBuilder()
    parser = _parser()
    index = 0
    state = _FrameState()
    if type(lines) is LineStream and not lines.started:  # frame its decoded blocks (faster)
        frames = _frame_blocks(lines.items, state, max_board_chars)
    else:
        frames = _frame(lines, state, max_board_chars)
    start, stop = (0, -1) if part is None else part
    # what is found after the last frame is the part's that holds that frame (the first
    # part's when there is none)
    owner = start == 0
    for first_line, offset, text, open_comment in frames:
        owner = offset >= start
        if offset < start or offset >= stop >= 0:  # outside the part: an earlier part's, or a later one's
            if offset >= stop:
                return  # what is found from here on is a later part's
            state.events.clear()
            if (text is not None or open_comment is None) and not _no_tag(text):
                index += 1  # (a frame of only an open comment, or without a tag, is no game, as below)
            continue
        if state.events:
            for code, line, column, detail in state.events:
                args = {"detail": detail} if code == "F020" else {"length": detail}
                file_diagnostics.append(make(code, None, Span(line, column), path=path, **args))
            state.events.clear()
        builder.export = state.export
        builder.version = state.version
        if open_comment is not None:
            file_diagnostics.append(make("F005", None, Span(*open_comment), path=path))
            if text is None:  # the open comment is all there is
                continue
            if text is not _TOO_BIG:
                text += "}"  # close it, so the rest of the game reads as one comment
        origin = Origin(path, first_line, offset, index, "pbn")
        if _no_tag(text):
            # Text without a single "[": no tag pair, so no game (stray text, comments):
            # its faults (F006, F003) are the file's, and an input of only that has no board;
            # it has no tags to be missing in export format either
            builder.export = False
            for d in builder.build_safely(parser, text, Origin(path, first_line, offset, None, "pbn")).diagnostics:
                file_diagnostics.append(d)
            continue
        index += 1
        if text is _TOO_BIG:
            d = make("F016", origin, None, line=first_line, limit=max_board_chars)
            yield Board(origin, diagnostics=(d,))
            continue
        yield builder.build_safely(parser, text, origin)
    if not owner:
        return
    for code, line, column, detail in state.events:
        args = {"detail": detail} if code == "F020" else {"length": detail}
        file_diagnostics.append(make(code, None, Span(line, column), path=path, **args))


def _no_tag(text: Any) -> bool:
    """Whether a framed game's text holds no ``[`` at all: no tag pair, so no game (PBN 2.1
    §3: a game is its tag pairs and their sections)."""
    return type(text) is str and text is not _TOO_BIG and "[" not in text


def parse_pbn_text(text: str, path: str = "<string>") -> list[Board]:
    """Parse a whole PBN text (any line ends, optional BOM) into a list of boards.

    File-level diagnostics (F005) are dropped; use :func:`parse_pbn` to receive them.

    >>> [str(b.deal[Seat.NORTH]) for b in parse_pbn_text('[Deal "N:AKQJ.T98.765.432 - - -"]')]
    ['AKQJ.T98.765.432']
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return list(parse_pbn(lines, path, []))


# =========================================================================================
# 1. Framing (PBN 2.1 §2.4, §3; pbn.md §2.1-2.2, §18.3-4)
# =========================================================================================

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


class _FrameState:
    """What the escape lines said so far (PBN 2.1 §2.4): ``export`` after ``% EXPORT``,
    ``version`` from ``% PBN <major>.<minor>``; ``events``: file-level export-format faults
    found while framing, ``(code, line, column, detail)``."""

    __slots__ = ("export", "version", "events")

    def __init__(self) -> None:
        self.export = False
        self.version: tuple[int, int] | None = None
        self.events: list[tuple[str, int, int, Any]] = []


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
    """The lines of an item of :attr:`handrec.inputs.entries.LineStream.items`."""
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
    """:func:`_frame` for the items of a :class:`handrec.inputs.entries.LineStream` (a decoded block of
    whole lines as one text, or an iterator of lines): the same games, found in the text
    of a plain block (:func:`_plain_block`) at once, without splitting it into lines.

    The escape lines and empty lines that begin the file are read first (as :func:`_frame`
    reads them); the games of plain blocks are cut at empty lines (a game that goes on into
    the next block is carried over); from the first block that is not plain (or not text)
    on, or a carried game over :data:`_CARRY_MAX`, :func:`_frame` reads the lines.
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
                offset += end - pos + 1
                pos = end + 1
            if pos > n:  # the last line was read: nothing is left of this item
                continue
            text = text[pos:]
            head = False
        if text is None or not _plain_block(text) or (carry is not None and len(carry) > _CARRY_MAX):
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
    if carry is not None:  # the last game, with no separator after it
        first_line = lineno + 1
        if state.export:
            game_lines = carry.split("\n")
            if max(map(len, game_lines)) > 253:
                _line_faults(game_lines, first_line, events)
        if carry[0] != ";" or any(line[:1] != ";" for line in carry.split("\n")):
            yield first_line, offset, carry if len(carry) <= limit else _TOO_BIG, None


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


# =========================================================================================
# 2. Parsing: the grammar's callbacks (tree-less LALR)
# =========================================================================================

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"\s*\]')
_UNESCAPE_RE = re.compile(r'\\(["\\])')

#: Shared block-relative spans (Span is immutable; boards of one file share a layout).
_SPANS: dict[int, Span] = {}


def _span(line: int, column: int) -> Span:
    """A shared :class:`Span` for a 1-based line and column."""
    if column >= 4096 or line >= 1 << 19:
        return Span(line, column)
    key = (line << 12) | column
    s = _SPANS.get(key)
    if s is None:
        s = Span(line, column)
        if len(_SPANS) < 100_000:
            _SPANS[key] = s
    return s


#: The spans of a row of single-spaced words by (line, column, word lengths): rows of the
#: same layout recur in every game of a file (four cards a line, four calls a line).
_ROW_SPANS: dict[tuple[int, int, tuple[int, ...]], list[Span]] = {}


def _rows(tok: Token) -> list[tuple[list[str], list[Span]]]:
    """Split a ROWS token into its non-blank lines, each as the whitespace-separated
    texts and their spans (two parallel lists; the span lists are shared through
    :data:`_ROW_SPANS` and :data:`_TOKEN_SPANS`: not to be changed)."""
    spans = _token_spans(tok)
    if spans is None:
        return _rows_general(tok)
    return list(zip([words for words in map(str.split, tok.split("\n")) if words], spans[0]))


def _elements(tok: Token) -> list[tuple[str, Span]]:
    """Split a ROWS token into whitespace-separated ``(text, span)`` elements."""
    spans = _token_spans(tok)
    if spans is None:
        return [item for words, where in _rows_general(tok) for item in zip(words, where)]
    return list(zip(tok.split(), spans[1]))


def _play_elements(sec: _Section) -> list[tuple[list[str], list[Span]]]:
    """A Play section's ``elements`` (per line: texts and spans), made from ``flat``
    (see :class:`_Section`) when not yet made."""
    if sec.flat is not None:
        sec.elements = _rows(sec.rows[0])
        sec.flat = None
    return sec.elements


#: ASCII to the token's shape: white space (as ``str.split`` sees it) kept, any other
#: character made ``x``.  A token's shape, line and column fix where its words are.
_SHAPE = bytes(b if b < 128 and chr(b).isspace() else 120 for b in range(256))
#: Spans of a ROWS token's words by (line, column, shape): per non-blank line (shared with
#: :data:`_ROW_SPANS`), all in order, and whether every non-blank line holds four words.
#: Auction and play tokens of one file take a few layouts (four calls or cards a line), so
#: a token's spans are one look-up.
_TOKEN_SPANS: dict[tuple[int, int, bytes], tuple[list[list[Span]], list[Span], bool]] = {}


def _token_spans(tok: Token) -> tuple[list[list[Span]], list[Span], bool] | None:
    """The spans of a ROWS token's words, per non-blank line and all in order, and whether
    every non-blank line holds four words (see :data:`_TOKEN_SPANS`); None for a token that
    is long or not ASCII (read by :func:`_rows_general`)."""
    if len(tok) > 4000 or not tok.isascii():
        return None
    key = (tok.line, tok.column, tok.encode().translate(_SHAPE))
    got = _TOKEN_SPANS.get(key)
    if got is None:
        per_line = [where for _, where in _rows_general(tok)]
        fours = bool(per_line) and all(len(where) == 4 for where in per_line)
        got = (per_line, [span for where in per_line for span in where], fours)
        if len(_TOKEN_SPANS) >= 10_000:
            _TOKEN_SPANS.clear()
        _TOKEN_SPANS[key] = got
    return got


def _rows_general(tok: Token) -> list[tuple[list[str], list[Span]]]:
    """:func:`_rows` for any token, line by line (the span lists are shared through
    :data:`_ROW_SPANS`: not to be changed)."""
    spans = _SPANS
    layouts = _ROW_SPANS
    line = tok.line
    col = tok.column
    out = []
    for row in tok.split("\n"):
        words = row.split()
        if words:
            lengths = tuple(map(len, words))
            single = len(row.rstrip()) == sum(lengths) + len(lengths) - 1  # one blank between words
            where = layouts.get((line, col, lengths)) if single else None
            if where is not None:
                out.append((words, where))
            else:
                where = []
                pos = 0
                base = (line << 12) | col
                room = 4096 - col
                for w in words:
                    i = row.find(w, pos)
                    pos = i + len(w)
                    span = spans.get(base + i) if i < room else None
                    where.append(span or _span(line, col + i))
                out.append((words, where))
                if single and len(layouts) < 20_000:
                    layouts[(line, col, lengths)] = where
        line += 1
        col = 1
    return out


#: Section kinds.
_LEAD, _TAGS, _AUCTION, _PLAY = 0, 1, 2, 3

#: Tags of the standard (PBN 2.1 §3.4, §4) and common extensions (pbn.md §17) that are not
#: tables, by lower-case name: data after them is unknown tokens (F006).  Any other tag may
#: be followed by data (tables and unknown supplemental sections, PBN 2.1 §4.9, §5).
_PLAIN_FOLDED = frozenset(n.lower() for n, spec in TAGS.items() if spec.group != "table")


class _Section:
    """The parse of one section: tag pairs and what follows them up to the next section.

    * ``kind``: ``_LEAD`` (text before the first tag), ``_TAGS``, ``_AUCTION`` or ``_PLAY``;
    * ``tags``: a :class:`Tag` per tag pair in order (``#``/``##`` not yet resolved);
    * ``elements``: Auction: ``(text, span)`` items; Play: ``(texts, spans)`` per line;
    * ``comments``: comment texts without delimiters, ``comment_at`` their positions
      (line, column); ``issues``: pending diagnostics;
    * ``rows``: the ROWS tokens (the data of a table, unknown section, auction or play);
      ``rows_comment``: a comment came after table data (PBN 2.1 §5.1 forbids it);
    * ``raw``: the TAGS (or Auction/Play tag) token, for the export-format check;
    * ``row_open``: Play: the last play line goes on (no line end since its last card);
      ``plain``: Play: every line held at most four cards in export spelling;
    ``table_rows``: the :func:`_table_rows` of ``rows`` once read (by :func:`_section_rows`);
    * ``flat``: Play whose data is one ROWS token of four words a line (the usual case):
      its words and their spans, all in order, while ``elements`` is not yet made (the
      plain play needs only these; :func:`_play_elements` makes ``elements``);
    * ``plain_tags``: every tag is plain for the builder (:func:`_plain_tag`);
    * ``export_tags``: every tag pair of ``raw`` is alone on its line as ``[Name "value"]``
      (the export check then looks no further at them; False: not known).
    """

    __slots__ = (
        "kind",
        "tags",
        "elements",
        "comments",
        "comment_at",
        "issues",
        "rows",
        "rows_comment",
        "raw",
        "row_open",
        "plain",
        "table_rows",
        "flat",
        "plain_tags",
        "export_tags",
    )

    def __init__(self, kind: int, tags: list[Tag], raw: Token | None = None) -> None:
        self.kind = kind
        self.tags = tags
        self.elements: list[Any] = []
        self.comments: list[str] = []
        self.comment_at: list[tuple[int, int]] = []
        self.issues: list[_Issue] = []
        self.rows: list[Token] = []
        self.rows_comment = False
        self.raw = raw
        self.row_open = False
        self.plain = False
        self.table_rows: list[Any] | None = None
        self.flat: tuple[list[str], list[Span]] | None = None
        self.plain_tags = False
        self.export_tags = False


#: Tags with their span, shared between boards (Tag is immutable): most tag pairs of a file
#: recur at the same place in every game (``[Site "-"]``, ``[Declarer "?"]``...).
_TAG_OBJS: dict[tuple[str, int], Tag] = {}


#: Tags by (line text, line, column): a line holding exactly one tag pair (the usual
#: layout, and what the export format writes) is looked up whole.  With each Tag, whether
#: it is plain for the board builder (:func:`_plain_tag`).
_TAG_LINES: dict[tuple[str, int, int], tuple[Tag, bool]] = {}


def _tag_pairs(tok: Token) -> list[Tag]:
    """The :class:`Tag` of each tag pair in a TAGS, AUCTION_TAG or PLAY_TAG token, with its
    span (PBN 2.1 §3.3).  ``\\"`` and ``\\\\`` in values are unescaped; any other ``\\x`` is
    kept as written.  ``#``/``##`` are resolved later, by the board builder."""
    return _tag_pairs_plain(tok)[0]


def _tag_pairs_plain(tok: Token) -> tuple[list[Tag], bool, bool]:
    """:func:`_tag_pairs`, whether every tag is plain (:func:`_plain_tag`), and whether
    every tag pair is alone on its line as the export format writes it, ``[Name "value"]``
    (False also when not known: the export check then reads the token)."""
    # Fast path: every line of the token is one whole tag pair or blank (a tag pair
    # cannot end inside a line that _TAG_RE matches whole, so this is what finditer finds).
    lines = _TAG_LINES
    out = []
    plain = export = True
    line = tok.line
    col = tok.column
    for row in tok.split("\n"):
        got = lines.get((row, line, col))
        if got is None:
            if not row or row.isspace():
                line += 1
                col = 1
                continue
            m = _TAG_RE.fullmatch(row)
            if m is None or len(row) > 300:
                return _tag_pairs_general(tok), False, False
            name, value = m.groups()
            # the export form: from column 1, one space between name and value, no other
            exported = col == 1 and len(row) == len(name) + len(value) + 5 and row.startswith(f'[{name} "')
            if "\\" in value:
                value = _UNESCAPE_RE.sub(r"\1", value)
            tag = Tag(name, value, _span(line, col))
            got = (tag, _plain_tag(tag), exported)
            if len(lines) >= 20_000:
                lines.clear()
            lines[(row, line, col)] = got
        out.append(got[0])
        plain = plain and got[1]
        export = export and got[2]
        line += 1
        col = 1
    return out, plain, export and bool(out)


def _tag_pairs_general(tok: Token) -> list[Tag]:
    """:func:`_tag_pairs` for any layout (tag pairs sharing a line or over several lines)."""
    line = tok.line
    line_start = 1 - tok.column  # index of the (virtual) start of the token's first line
    scanned = 0
    shared = _TAG_OBJS
    out = []
    for m in _TAG_RE.finditer(tok):
        st = m.start()
        nl = tok.count("\n", scanned, st)
        if nl:
            line += nl
            line_start = tok.rfind("\n", scanned, st) + 1
        scanned = st
        col = st - line_start + 1
        key = (m.group(), (line << 12) | col)
        tag = shared.get(key)
        if tag is None:
            name, value = m.groups()
            if "\\" in value:
                value = _UNESCAPE_RE.sub(r"\1", value)
            tag = Tag(name, value, _span(line, col))
            if col < 4096 and len(value) < 200:
                if len(shared) >= 20_000:
                    shared.clear()
                shared[key] = tag
        out.append(tag)
    return out


def _comment(tok: Token) -> str:
    """The text of a ``;`` or ``{}`` comment token, delimiters and trailing space removed."""
    if tok[0] == "{":
        return tok[1 : tok.rindex("}")]
    return tok[1:].rstrip()


def _unknown(sec: _Section, tok: Token) -> _Section:
    for text, span in _elements(tok):
        sec.issues.append(("F006", span, {"token": text}))
    return sec


def _add_comment(sec: _Section, tok: Token) -> _Section:
    sec.comments.append(_comment(tok))
    sec.comment_at.append((tok.line, tok.column))
    return sec


def _section_head(kind: int, name: str, tok: Token) -> _Section:
    """An Auction or Play section from its tag token (the name in any case: T122)."""
    tags, plain, export = _tag_pairs_plain(tok)
    t = tags[0]
    sec = _Section(kind, [Tag(name, t.value, t.span)], tok)
    if t.name != name:
        sec.issues.append(("T122", t.span, {"name": t.name, "read": name}))
    else:
        sec.plain_tags = plain
        sec.export_tags = export
    return sec


class _PbnTransformer(Transformer):
    """Callbacks of ``grammars/pbn.lark``; the parse result is ``list[_Section]``.

    The first section is the lead (text before the first tag), then one per run of tag
    pairs, Auction or Play tag.  Stateless: one instance serves every parse.
    """

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        raise RuntimeError(f"pbn.lark rule {data!r} has no callback in _PbnTransformer")

    def game_start(self, c: list[Any]) -> list[_Section]:
        return [c[0]]

    def game_add(self, c: list[Any]) -> list[_Section]:
        c[0].append(c[1])
        return c[0]

    def lead_empty(self, c: list[Any]) -> _Section:
        return _Section(_LEAD, [])

    def lead_comment(self, c: list[Any]) -> _Section:
        return _add_comment(c[0], c[1])

    def lead_rows(self, c: list[Any]) -> _Section:
        return _unknown(c[0], c[1])

    def tags_head(self, c: list[Any]) -> _Section:
        tags, plain, export = _tag_pairs_plain(c[0])
        sec = _Section(_TAGS, tags, c[0])
        sec.plain_tags = plain
        sec.export_tags = export
        return sec

    def tags_rows(self, c: list[Any]) -> _Section:
        sec = c[0]
        if sec.tags[-1].name.lower() in _PLAIN_FOLDED:
            return _unknown(sec, c[1])
        sec.rows.append(c[1])  # table or unknown section data (PBN 2.1 §5)
        return sec

    def tags_comment(self, c: list[Any]) -> _Section:
        sec = c[0]
        if sec.rows:
            sec.rows_comment = True
        return _add_comment(sec, c[1])

    def auction_head(self, c: list[Any]) -> _Section:
        return _section_head(_AUCTION, "Auction", c[0])

    def auction_rows(self, c: list[Any]) -> _Section:
        c[0].elements.extend(_elements(c[1]))
        c[0].rows.append(c[1])
        return c[0]

    def auction_comment(self, c: list[Any]) -> _Section:
        return _add_comment(c[0], c[1])

    def play_head(self, c: list[Any]) -> _Section:
        return _section_head(_PLAY, "Play", c[0])

    def play_rows(self, c: list[Any]) -> _Section:
        sec = c[0]
        tok = c[1]
        if not sec.rows:
            spans = _token_spans(tok)
            if spans is not None and spans[2]:  # four words a line: elements made if needed
                sec.flat = (tok.split(), spans[1])
                sec.rows.append(tok)
                sec.row_open = "\n" not in tok[len(tok.rstrip()) :]
                return sec
        rows = _rows(tok)
        _play_elements(sec)
        if rows and sec.elements and (sec.row_open or sec.elements[-1][1][-1].line == rows[0][1][0].line):
            words, where = rows.pop(0)  # a line continued after a comment
            last_words, last_where = sec.elements[-1]
            last_words.extend(words)
            sec.elements[-1] = (last_words, last_where + where)  # span lists are shared
        sec.elements.extend(rows)
        sec.rows.append(tok)
        sec.row_open = "\n" not in tok[len(tok.rstrip()) :]
        return sec

    def play_comment(self, c: list[Any]) -> _Section:
        sec = c[0]
        tok = c[1]
        if sec.row_open and (tok[0] == ";" or "\n" in tok[tok.rindex("}") + 1 :]):
            sec.row_open = False  # the comment ends the play line
        return _add_comment(sec, tok)


class _TokenListLexer(Lexer):
    """Pass-through lexer: the "text" given to ``parse`` is the list of a game's tokens."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: list[Token]) -> Iterator[Token]:  # type: ignore[override]
        return iter(data)


#: ``Token(type, value, start_pos, line, column, end_line, end_column, end_pos)``: Lark's
#: constructor less its handling of a deprecated keyword (one Python call instead of two).
_new_token = getattr(Token, "_future_new", Token)


class _Scanner:
    """The lexer of ``grammars/pbn.lark``: its terminals as one compiled regex.

    It matches as Lark's lexer does (the terminals in Lark's order: priority, then width;
    the first alternative that matches wins; ``%ignore`` terminals are skipped) and gives
    the same tokens with the same positions (``line``, ``column``, ``start_pos``,
    ``end_pos``).  Every state of the grammar's parser accepts every terminal, so Lark's
    contextual lexer would use this same set everywhere.
    """

    def __init__(self, grammar: str) -> None:
        lark = Lark(grammar, parser=None, lexer="basic")
        terms = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self.match = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)).match
        self.ignore = frozenset(lark.ignore_tokens)
        #: the game parser, run on the tokens :meth:`scan` gives (set by :func:`_parser`)
        self.parse: Any = None

    def scan(self, text: str, errors: list[_Issue]) -> list[Token]:
        """The tokens of one game.  Where no terminal matches (an unterminated string, a
        ``[`` that starts no tag pair), an F003 goes to ``errors`` at that position and the
        rest of the line is skipped."""
        match, ignore = self.match, self.ignore
        new_token = _new_token
        out = []
        pos, end = 0, len(text)
        line, line_start = 1, 0
        while pos < end:
            m = match(text, pos)
            if m is None:
                eol = text.find("\n", pos)
                if eol < 0:
                    eol = end
                errors.append(("F003", _span(line, pos - line_start + 1), {"detail": _cannot_read(text[pos:eol])}))
                pos = max(eol, pos + 1)
                continue
            stop = m.end()
            kind = m.lastgroup
            if kind not in ignore:
                out.append(new_token(kind, m.group(), pos, line, pos - line_start + 1, None, None, stop))
            nl = text.count("\n", pos, stop)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, stop) + 1
            pos = stop
        return out


def _cannot_read(bad: str) -> str:
    """The F003 detail for text where no token starts (up to the end of its line)."""
    bad = bad.rstrip()
    if bad[:1] == "[":
        what = "a tag pair (unterminated string or missing ']')"
    elif '"' in bad:
        what = "an unterminated string"
    else:
        what = repr(bad[:30])
    return f"cannot read {what}; rest of line skipped"


_PARSER: tuple[Lark, _Scanner] | None = None


def _parser() -> tuple[Lark, _Scanner]:
    """The process-wide PBN game parser and its scanner, built on first use; the scanner's
    ``parse`` runs that parser on the tokens it gives (see :func:`handrec.formats._lark.feeder`)."""
    global _PARSER
    if _PARSER is None:
        grammar = grammar_text("pbn")
        # start at "game" itself: "?start: game" would cost a reduce step per game
        lalr = Lark(grammar, parser="lalr", lexer=_TokenListLexer, transformer=_PbnTransformer(), start="game")
        scanner = _Scanner(grammar)
        scanner.parse = feeder(lalr) or lalr.parse
        _PARSER = (lalr, scanner)
    return _PARSER


def _parse_block(parser: tuple[Lark, _Scanner], text: str) -> tuple[list[_Section], list[_Issue]]:
    """Run the parser over one game's text.

    :returns: the sections and the syntax errors found: F003 at the block-relative
        position of a character no token can start with; the rest of that line is skipped
        and parsing goes on.
    """
    scanner = parser[1]
    errors: list[_Issue] = []
    tokens = scanner.scan(text, errors)
    return scanner.parse(tokens), errors


# =========================================================================================
# 3. Building the Board
# =========================================================================================

#: Tags that may not use # / ## (PBN 2.1 §4.8).
_NO_INHERIT = frozenset(("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"))
#: "?" = unknown, "" = not applicable (PBN 2.1 §3.4): both give a None typed value.
_UNKNOWN = ("", "?")

_SEATS = {ch: Seat.parse(ch) for ch in "NESWnesw"}
_NOTE_RE = re.compile(r"\s*(\d+)\s*:(.*)", re.S)
_NOTEREF_RE = re.compile(r"=(\d+)=")
_SIDES = {"NS": Side.NS, "EW": Side.EW}

#: Suffixes (PBN 2.1 §3.7): the NAG for a call; a card's NAG is 6 more.
_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: Splits a glued auction/play element into PBN tokens (PBN 2.1 §3.2): irregularity,
#: note reference, NAG, suffix, "*", "+", call/card.
_PIECE_RE = re.compile(r"\^[A-Za-z]|=\d+=|\$\d+|[!?]{1,2}|[*+]|[A-Za-z0-9-]+")

#: Call spellings read (upper-cased) to a Call without position.
_CALLS: dict[str, Call] = {}
for _t in ("P", "PASS", "X", "XX", "D", "R", "DBL", "RDBL"):
    _CALLS[_t] = Call.parse(_t)
for _lv in range(1, 8):
    for _st in ("C", "D", "H", "S", "N", "NT"):
        _CALLS[f"{_lv}{_st}"] = Call.parse(f"{_lv}{_st}")
_PASS = _CALLS["PASS"]
#: Spellings the standard allows (PBN 2.1 §3.5, §3.11) to the Call; others give T105.
_STANDARD_CALLS: dict[str, Call] = {
    t: _CALLS[t.upper()]
    for t in ["Pass", "pass", "X", "x", "XX", "xx"]
    + [f"{lv}{st}" for lv in range(1, 8) for st in ("C", "D", "H", "S", "NT", "c", "d", "h", "s", "nt")]
}
#: Calls with a position and no annotation, shared between boards (Call is immutable).
_CALL_OBJS: dict[tuple[int, int, int], Call] = {}

#: Card spellings (any case, ``10`` for ``T``) to the shared Card instances.
_CARDS: dict[str, Card] = {}
for _c in ALL_CARDS:
    for _txt in {str(_c), str(_c).replace("T", "10")}:
        for _v in (_txt, _txt.lower(), _txt[0] + _txt[1:].lower(), _txt[0].lower() + _txt[1:]):
            _CARDS[_v] = _c

_UPPER_CARDS: dict[str, Card] = {str(c): c for c in ALL_CARDS}  # the export spelling
#: ``_OFFSET[seat][k]`` = the seat ``k`` places clockwise from ``seat`` (Seat.offset, faster).
_OFFSET = [[Seat((s + k) % 4) for k in range(4)] for s in range(4)]
_PLUS: Any = object()  # the "+" slot of a play: the next card goes here
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_ELEMENTS = attrgetter("elements")
_NAME = attrgetter("name")


class _BoardBuilder:
    """Builds Boards from the parsed games of one file, keeping ``#``/``##`` state.

    ``last``: tag name to the Tag it had in the latest game giving it (for ``#``);
    ``sticky``: tag name to a ``##`` value that later games omitting the tag take over
    (PBN 2.1 §4.8).
    """

    def __init__(self) -> None:
        self.last: dict[str, Tag] = {}
        self.sticky: dict[str, str] = {}
        self.export = False  # the file said "% EXPORT" (PBN 2.1 §2.4): check export rules
        self.version: tuple[int, int] | None = None  # from "% PBN <major>.<minor>"

    def build_safely(self, parser: tuple[Lark, _Scanner], text: str, origin: Origin) -> Board:
        """Parse and build one board; an unexpected failure becomes an F003 diagnostic."""
        try:
            sections, errors = _parse_block(parser, text)
        except Exception as exc:  # never let a fault escape parse_pbn
            d = make("F003", origin, None, detail=f"game could not be read ({type(exc).__name__}: {exc})")
            return Board(origin, diagnostics=(d,))
        try:
            return self.build(sections, errors, origin, text)
        except Exception as exc:
            tags = tuple(t for sec in sections for t in sec.tags)
            d = make("F003", origin, None, detail=f"game could not be built ({type(exc).__name__}: {exc})")
            return Board(origin, tags=tags, diagnostics=(d,))

    def build(self, sections: list[_Section], errors: list[_Issue], origin: Origin, text: str = "") -> Board:
        """One Board from a game's parsed sections (field meanings: :class:`Board`)."""
        issues: list[_Issue] = errors
        tags: list[Tag] = []
        first: dict[str, Tag] = {}
        refused: list[str] = []
        sticky = self.sticky
        kind_of = _TAG_KIND.get
        value_checks = _VALUE_CHECKS
        last_tag: list[int] = []  # per section: index in ``tags`` of its last tag (-1: none)
        table_at: list[tuple[int, int]] = []  # (section, index in ``tags``) of each table
        controls = _has_controls(text)  # a tab or control character somewhere
        has_comments = False
        for si, sec in enumerate(sections):
            if sec.issues:
                issues.extend(sec.issues)
            if sec.comments:
                has_comments = True
            if controls and sec.raw is not None and _CONTROL_RE.search(sec.raw):
                _check_chars(sec, issues)
            stags = sec.tags
            if sec.plain_tags and not sticky:
                # every tag known, no table, its value in form and not "#": only a name
                # given twice needs the loop below (T102, or a Note kept twice)
                named = dict(zip(map(_NAME, stags), stags))
                if len(named) == len(stags) and first.keys().isdisjoint(named):
                    first.update(named)
                    tags += stags
                    last_tag.append(len(tags) - 1)
                    if sec.rows and sec.kind == _TAGS and (not table_at or table_at[-1][1] != len(tags) - 1):
                        table_at.append((si, len(tags) - 1))  # an unknown section's data
                    continue
            for tag in stags:
                name = tag.name
                kind = kind_of(name)
                if kind is None:
                    known = TAG_NAMES_FOLDED.get(name.lower())
                    if known is None:
                        issues.append(("T120", tag.span, {"tag": name}))
                    else:
                        issues.append(("T122", tag.span, {"name": name, "read": known}))
                        name = known
                        kind = _TAG_KIND[name]
                        tag = Tag(name, tag.value, tag.span)
                if tag.value[:1] == "#" or (sticky and name in sticky):
                    if tag.value[:1] == "#" and name in _NO_INHERIT:
                        refused.append(name)
                    tag = self._inherit(tag, issues)
                tags.append(tag)
                if name in first:
                    if name != "Note":
                        issues.append(("T102", tag.span, {"tag": name}))
                else:
                    first[name] = tag
                    # a value already found in form (None) needs no call
                    if kind == 1 and tag.span is not None and value_checks.get((name, tag.value), "") is not None:
                        _check_value(tag, issues)
                if kind == 2:
                    table_at.append((si, len(tags) - 1))
            last_tag.append(len(tags) - 1)
            if sec.rows and sec.kind == _TAGS and (not table_at or table_at[-1][1] != len(tags) - 1):
                table_at.append((si, len(tags) - 1))  # an unknown section's data
        shift = 0
        if sticky:  # ## values for the tags this game omits, placed first like a header
            extra = [Tag(n, v) for n, v in sticky.items() if n not in first]
            if extra:
                for t in extra:
                    first[t.name] = t
                tags[:0] = extra
                shift = len(extra)
        self.last.update(first)
        for name in refused:  # reported by _inherit: no typed value, no second diagnostic
            if first[name].value[:1] == "#":
                del first[name]

        number = None
        t = first.get("Board")
        if t is not None:
            v = t.value.strip()
            if v.isascii() and v.isdigit() and len(v) <= 9:  # 999,999,999 at most: the int32 of Parquet
                number = int(v)
            if (number is None or number < 1) and v not in _UNKNOWN and t.span is not None:
                expected = "a positive integer of at most 9 digits"
                issues.append(("T121", t.span, {"tag": "Board", "value": t.value, "expected": expected}))
        dealer = _seat_value(first.get("Dealer"), issues)
        vulnerable = None
        t = first.get("Vulnerable")
        if t is not None and t.value.strip() not in _UNKNOWN:
            try:
                vulnerable = Vulnerability.parse(t.value)
            except ModelError:
                issues.append(("T101", t.span, {"tag": "Vulnerable", "value": t.value, "reason": "not None/NS/EW/All"}))
        deal = _deal_value(first.get("Deal"), issues)
        declarer_tag = first.get("Declarer")
        declarer = _seat_value(declarer_tag, issues, caret=True)
        swapped = declarer is not None and declarer_tag.value.lstrip()[:1] == "^"  # type: ignore[union-attr]
        contract = _contract_value(first.get("Contract"), declarer, issues)
        result = _result_value(first.get("Result"), declarer, issues)

        auction = None
        play = None
        auction_sec = play_sec = -1
        anchors: dict[int, list[tuple[str, int]]] = {}  # section index -> anchor per comment
        tables: list[Table] = []
        for i, sec in enumerate(sections):
            kind = sec.kind
            if kind == _AUCTION and auction_sec < 0:
                auction_sec = i
                auction = _auction(sec, _notes(sections, i, issues, "auction"), dealer, issues, sections)
                if sec.comments and auction is not None:
                    anchors[i] = _call_anchors(auction, sec.comment_at)
            elif kind == _PLAY and play_sec < 0:
                play_sec = i
                at: list[tuple[str, int]] = []
                notes = _notes(sections, i, issues, "play")
                trump = play_trump(contract, auction, bad_call=any(i[0] == "A306" for i in issues))
                play = _play(
                    sec,
                    notes,
                    trump,
                    issues,
                    sec.comment_at,
                    at,
                    sections,
                    _no_trump_why(contract, auction) if trump is _TRUMP_UNKNOWN else "",
                )
                if sec.comments and play is not None:
                    anchors[i] = at
        for i, g in table_at:
            tables.append(_table(tags[g + shift], sections[i] if g == last_tag[i] else None, issues))

        comments: list[str] = []
        comment_anchors: list[tuple[str, int]] = []
        for i, sec in enumerate(sections if has_comments else ()):
            if not sec.comments:
                continue
            comments.extend(sec.comments)
            at = anchors.get(i)
            if at is None:
                anchor = ("game", 0) if sec.kind == _LEAD or last_tag[i] < 0 else ("tag", last_tag[i] + shift)
                at = [anchor] * len(sec.comments)
            comment_anchors.extend(at)

        if "ScoreRubberHistory" in first or "DoubleDummyTricks" in first or "Ability" in first:
            _cross_checks(first, vulnerable, tables, issues)
        for table in tables:
            if table.name in ("AuctionTimeTable", "PlayTimeTable") and (
                (table.name == "AuctionTimeTable" and auction_sec < 0)
                or (table.name == "PlayTimeTable" and play_sec < 0)
            ):
                section = "Auction" if table.name == "AuctionTimeTable" else "Play"
                issues.append(("T125", table.span, {"table": table.name, "detail": f"no {section} section before it"}))
        if self.export:
            unknown_sections = frozenset(g + shift for _, g in table_at if tags[g + shift].name not in TABLES)
            _export_check(
                sections,
                tags,
                first,
                shift,
                text,
                dealer,
                deal,
                auction_sec,
                play_sec,
                self.version,
                issues,
                unknown_sections,
            )

        if issues:
            diags = sorted(
                (make(code, origin, span, **args) for code, span, args in issues), key=lambda d: (d.line, d.column)
            )
        else:
            diags = []
        return Board(
            origin=origin,
            tags=tuple(tags),
            number=number,
            dealer=dealer,
            vulnerable=vulnerable,
            deal=deal,
            auction=auction,
            play=play,
            contract=contract,
            declarer=declarer,
            result=result,
            commentary=tuple(comments) if comments else (),
            diagnostics=tuple(diags),
            declarer_swapped=swapped,
            tables=tuple(tables) if tables else (),
            comment_anchors=tuple(comment_anchors) if comment_anchors else (),
        )

    def _inherit(self, tag: Tag, issues: list[_Issue]) -> Tag:
        """The Tag with ``#``/``##`` resolved (PBN 2.1 §4.8); updates ``sticky``.

        ``#`` takes the value of the nearest earlier game that had the tag (``""`` if
        none); ``##text`` gives ``text`` now and in later games that omit the tag.  Any
        explicit value ends an earlier ``##``.  Not allowed for ``_NO_INHERIT`` (T101;
        the value is kept as written).
        """
        name, value, span = tag.name, tag.value, tag.span
        if value[:1] == "#":
            if name in _NO_INHERIT:
                issues.append(
                    (
                        "T101",
                        span,
                        {"tag": name, "value": value, "reason": "'#' inheritance is not allowed for this tag"},
                    )
                )
                return tag
            if value[:2] == "##":
                self.sticky[name] = value[2:]
                return Tag(name, value[2:], span)
            if value == "#":
                self.sticky.pop(name, None)
                prev = self.last.get(name)
                return Tag(name, "" if prev is None else prev.value, span)
        self.sticky.pop(name, None)
        return tag


# --- typed tag values (PBN 2.1 §3.4) ---------------------------------------------------------


def _seat_value(t: Tag | None, issues: list[_Issue], caret: bool = False) -> Seat | None:
    """Dealer/Declarer value to a Seat (PBN 2.1 §3.4.9, §3.4.13); ``?``/``""`` give None.

    With ``caret``, a leading ``^`` (declarer and dummy swapped, §3.9) is accepted and the
    seat kept (the builder sets ``Board.declarer_swapped``).  ``North`` etc. are read with
    T105; anything else is T101.
    """
    if t is None:
        return None
    v = t.value
    seat = _SEATS.get(v)
    if seat is not None:
        return seat
    v = v.strip()
    if caret and v[:1] == "^":
        v = v[1:]
    if v in _UNKNOWN:
        return None
    try:
        seat = Seat.parse(v)
    except ModelError:
        issues.append(("T101", t.span, {"tag": t.name, "value": t.value, "reason": "not a seat N/E/S/W"}))
        return None
    if len(v) != 1:
        issues.append(("T105", t.span, {"tag": t.name, "value": t.value, "read": str(seat)}))
    return seat


#: Rank characters to 0..12 (2..A), any case.
_RANK_INDEX = {ch: i for i, ch in enumerate("23456789TJQKA")} | {ch: i for i, ch in enumerate("23456789tjqka")}
#: Card.index of the 2 of each suit, in hand order: spades, hearts, diamonds, clubs.
_SUIT_BASE = (3 * 13, 2 * 13, 1 * 13, 0)
_card_at = ALL_CARDS.__getitem__
#: Hand has the single field ``cards``, kept in hand order by its __post_init__: cards
#: already in that order may skip the sort.  Checked so a model change cannot break this.
_HAND_FIELDS_OK = [f.name for f in dataclasses.fields(Hand)] == ["cards"]


#: Per suit in hand order (spades, hearts, diamonds, clubs): the text of a suit's ranks to
#: its cards high to low, for texts already read (a file repeats the same holdings).
_RUNS: tuple[dict[str, tuple[Card, ...]], ...] = ({}, {}, {}, {})


def _suit_run(k: int, ranks: str) -> tuple[Card, ...] | None:
    """The cards of ranks text ``ranks`` in suit ``k`` of hand order, high to low; None for
    a character that is no rank, or a repeated rank.  Remembered in :data:`_RUNS`."""
    base = _SUIT_BASE[k]
    idx = []
    for ch in ranks:
        r = _RANK_INDEX.get(ch)
        if r is None:
            return None
        idx.append(base + r)
    if len(set(idx)) != len(idx):
        return None
    idx.sort(reverse=True)  # Card.index descending = high to low
    run = tuple(map(_card_at, idx))
    runs = _RUNS[k]
    if len(runs) >= 20_000:
        runs.clear()
    runs[ranks] = run
    return run


def _fast_hand(text: str) -> Hand | None:
    """PBN hand notation to a Hand, or None when the model's :meth:`Hand.parse` must read
    it (``10``, bad ranks, repeated cards: it then gives the error message)."""
    suits = text.split(".")
    if len(suits) != 4:
        return None
    s, h, d, c = suits
    r0, r1, r2, r3 = _RUNS
    try:
        cards = r0[s] + r1[h] + r2[d] + r3[c]
    except KeyError:
        runs = [r0.get(s) or _suit_run(0, s), r1.get(h) or _suit_run(1, h), r2.get(d) or _suit_run(2, d)]
        runs.append(r3.get(c) or _suit_run(3, c))
        if None in runs:
            return None
        cards = runs[0] + runs[1] + runs[2] + runs[3]  # type: ignore[operator]
    if not _HAND_FIELDS_OK:  # pragma: no cover - only if model.Hand changes
        return Hand(cards)
    hand = object.__new__(Hand)
    object.__setattr__(hand, "cards", cards)
    return hand


#: Recently read deals by their text (travellers repeat a deal in every game).
_DEALS: dict[str, Deal] = {}
#: A deal of four hands given in full, one space between them: first seat and 16 suits.
_DEAL_SUITS_RE = re.compile(r"([NESWnesw]):" + " ".join([r"\.".join([r"([^\s.]*+)"] * 4)] * 4))


def _parse_deal(v: str) -> Deal:
    """PBN deal notation to a Deal (PBN 2.1 §3.4.11), fast for the usual forms.

    :raises ModelError: as :meth:`Deal.parse`.
    """
    d = _DEALS.get(v)
    if d is not None:
        return d
    m = _DEAL_SUITS_RE.fullmatch(v)
    if m is not None and _HAND_FIELDS_OK:
        # the usual form (four hands, one space between them): the 16 suits in one match
        g = m.groups()
        r0, r1, r2, r3 = _RUNS
        try:
            runs = [r0[g[k]] + r1[g[k + 1]] + r2[g[k + 2]] + r3[g[k + 3]] for k in (1, 5, 9, 13)]
        except KeyError:
            pass  # a suit not read yet (or not valid): read below
        else:
            hands: list[Hand | None] = [None, None, None, None]
            first = _SEATS[g[0]]
            for i, cards in enumerate(runs):
                hand = object.__new__(Hand)
                object.__setattr__(hand, "cards", cards)
                hands[(first + i) % 4] = hand
            return _remember_deal(v, Deal(tuple(hands)))  # type: ignore[arg-type]
    first = _SEATS.get(v[:1]) if v[1:2] == ":" else None
    parts = v[2:].split()
    if first is None or len(parts) != 4:
        return Deal.parse(v)
    hands: list[Hand | None] = [None, None, None, None]
    for i, p in enumerate(parts):
        if p != "-":
            h = _fast_hand(p)
            if h is None:
                return Deal.parse(v)
            hands[(first + i) % 4] = h
    return _remember_deal(v, Deal(tuple(hands)))  # type: ignore[arg-type]


def _remember_deal(v: str, d: Deal) -> Deal:
    """Keep ``d`` in :data:`_DEALS` as the deal of text ``v``."""
    if len(_DEALS) >= 2048:
        _DEALS.clear()
    _DEALS[v] = d
    return d


def _deal_value(t: Tag | None, issues: list[_Issue]) -> Deal | None:
    """Deal value to a Deal: any first seat, ``-`` = hand not given (None), voids, ranks
    in any order and case; ``...`` = a hand known to be empty; ``?``/``""`` give None."""
    if t is None:
        return None
    v = t.value.strip()
    if v in _UNKNOWN:
        return None
    try:
        return _parse_deal(v)
    except ModelError as exc:
        reason = str(exc).removesuffix(f": {v!r}")  # the message shows the value once
        issues.append(("T101", t.span, {"tag": "Deal", "value": t.value, "reason": reason}))
        return None


#: Contract values read, by (value, declarer): the (immutable) Contract, None if not valid.
_CONTRACTS: dict[tuple[str, Seat | None], Contract | None] = {}


def _contract_value(t: Tag | None, declarer: Seat | None, issues: list[_Issue]) -> Contract | None:
    """Contract value (PBN 2.1 §3.4.14) to a :class:`Contract` with ``declarer``.

    ``?``/``""`` give None without diagnostics; ``3N`` and a lower-case ``x`` are read with
    T105 (pbn.md §18.9); an end position's contract is only a denomination (PBN 2.1 §3.10,
    ``H`` or ``NT``; ``N``: T105): a contract of level 0 with that strain
    (:attr:`Contract.is_end_position`); anything else is T101.
    """
    if t is None:
        return None
    v = t.value.strip()
    if v in _UNKNOWN:
        return None
    key = (v, declarer)
    c = _CONTRACTS.get(key, False)
    if c is False:
        try:
            c = Contract.parse(v, declarer)
        except ModelError:
            c = None
        if len(_CONTRACTS) >= 2_000:
            _CONTRACTS.clear()
        _CONTRACTS[key] = c
    if c is None:
        issues.append(("T101", t.span, {"tag": "Contract", "value": t.value, "reason": "not Pass or like 4HX"}))
        return None
    if c.strain is not None and ("x" in v or (c.strain is Strain.NOTRUMP and "NT" not in v.upper())):
        issues.append(("T105", t.span, {"tag": "Contract", "value": t.value, "read": str(c)}))
    return c


def _result_value(t: Tag | None, declarer: Seat | None, issues: list[_Issue]) -> int | None:
    """Result value to the tricks taken by declarer (PBN 2.1 §3.4.15).

    ``9``; ``NS 9``, ``EW 4``, ``NS 9 EW 4`` are read for the declarer's side (13 minus
    the other side's tricks when only that is given; both must add up to 13, else T101); a
    leading ``^`` (result agreed by the players) is accepted.  None when ``?``/``""`` or side-specific without a declarer.
    Range checks are the validator's (C504).
    """
    if t is None:
        return None
    v = t.value.strip()
    if v[:1] == "^":
        v = v[1:].strip()
    if v in _UNKNOWN:
        return None
    if v.isascii() and v.isdigit():
        return int(v)
    parts = v.split()
    sides: dict[Side, int] = {}
    ok = len(parts) in (2, 4)
    if ok:
        for k in range(0, len(parts), 2):
            side = _SIDES.get(parts[k].upper())
            n = parts[k + 1]
            if side is None or side in sides or not (n.isascii() and n.isdigit()):
                ok = False
                break
            sides[side] = int(n)
    if not ok:
        issues.append(("T101", t.span, {"tag": "Result", "value": t.value, "reason": "not tricks like 9 or NS 9"}))
        return None
    if len(sides) == 2 and sum(sides.values()) != 13:
        total = sum(sides.values())
        issues.append(
            (
                "T101",
                t.span,
                {"tag": "Result", "value": t.value, "reason": f"the sides' tricks add up to {total}, not 13"},
            )
        )
        return None
    if declarer is None:
        return None
    mine = declarer.side
    if mine in sides:
        return sides[mine]
    return 13 - sides[mine.other]


#: Notes of a section: index to text (the first Note of an index), and every Note in order.
_Notes = tuple[dict[int, str], tuple[Note, ...]]


def _notes(sections: list[_Section], i: int, issues: list[_Issue], section: str = "auction") -> _Notes:
    """The Note tags right after section ``i``, which belong to it (PBN 2.1 §3.5.5,
    §3.6.5): index to text (spaces after the colon dropped), and the notes in order.  A
    malformed Note is T101; an index given twice T126 (the first is used)."""
    lookup: dict[int, str] = {}
    notes: list[Note] = []
    for sec in sections[i + 1 :]:
        if sec.kind != _TAGS:
            break
        for tag in sec.tags:
            if tag.name != "Note":
                return lookup, tuple(notes)
            m = _NOTE_RE.match(tag.value)
            if m is None:
                issues.append(("T101", tag.span, {"tag": "Note", "value": tag.value, "reason": "not <index>:<text>"}))
                continue
            index = int(m.group(1))
            text = m.group(2).strip()
            if index in lookup:
                issues.append(("T126", tag.span, {"index": index, "section": section}))
            else:
                lookup[index] = text
            notes.append(Note(index, text))
    return lookup, tuple(notes)


def _free_notes(sections: list[_Section] | None) -> dict[int, Note]:
    """The Note tags of the identification section, by index (the first of each): those not
    among the Note tags right after an Auction or Play section (:func:`_notes`), which belong
    to that section.  PBN 2.1 §3.5.5 and §3.6.5 place a section's notes after its calls or
    cards, never in the identification section; a reference whose section lacks its Note is
    read from there all the same (:func:`_read_misplaced`)."""
    free: dict[int, Note] = {}
    owned = False  # the tags right after an Auction or Play section: its notes
    for sec in sections or ():
        kind = sec.kind
        if kind == _AUCTION or kind == _PLAY:
            owned = True
            continue
        if kind != _TAGS:
            continue
        for tag in sec.tags:
            if tag.name != "Note":
                owned = False
            elif not owned:
                m = _NOTE_RE.match(tag.value)
                if m is not None and int(m.group(1)) not in free:
                    free[int(m.group(1))] = Note(int(m.group(1)), m.group(2).strip())
    return free


def _read_misplaced(free: dict[int, Note], index: int, span: Span, issues: list[_Issue], section: str) -> Note | None:
    """For a reference ``=index=`` of the ``section`` ("auction" or "play") whose own Note tags
    lack it: the Note of the identification section (``free``, :func:`_free_notes`), with a
    T128 warning; ``None`` and T107 when there is none (another section's notes are its own)."""
    note = free.get(index)
    if note is None:
        issues.append(("T107", span, {"index": index}))
    else:
        reason = f"refers to a Note tag outside the {section} section (its text is read from there)"
        issues.append(("T128", span, {"token": f"={index}=", "reason": reason}))
    return note


#: The trump for the play lines (shared with the writer: :func:`handrec.formats.pbn.play_layout.play_trump`).
_trump = play_trump
_TRUMP_UNKNOWN = TRUMP_UNKNOWN
_best_known = best_known


def _call_anchors(auction: Auction, comment_at: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """``("auction", i)`` for each comment: ``i`` the last call written before it (-1: none)."""
    where = [(-1, -1) if c.span is None else (c.span.line, c.span.column) for c in auction.calls]
    out = []
    for pos in comment_at:
        k = len(where) - 1
        while k >= 0 and where[k] >= pos:
            k -= 1
        out.append(("auction", k))
    return out


# --- other tags' values (PBN 2.1 §3.4, §4; pbn.md §17) -------------------------------------

#: Tags whose value the reader checks against their PBN form (T121; Board is checked with
#: its number).
_CHECKED = frozenset(n for n, spec in TAGS.items() if spec.checked and n != "Board")
#: Tag name -> 0 (a tag), 1 (a tag whose value the reader checks: T121), 2 (a table).
_TAG_KIND = {n: 2 if spec.group == "table" else 1 if n in _CHECKED else 0 for n, spec in TAGS.items()}
#: (name, value) -> None when in form, else what the form is.
_VALUE_CHECKS: dict[tuple[str, str], str | None] = {}


#: Characters a string may not hold (PBN 2.1 §2.2-§2.3): tabs and control characters (line
#: ends cannot be in a string; between tag pairs a tab is white space, so a hit in a token
#: is looked at tag by tag).
_CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


#: The ASCII characters of :data:`_CONTROL_RE`.
_CONTROL_BYTES = bytes(c for c in range(128) if _CONTROL_RE.match(chr(c)))


def _has_controls(text: str) -> bool:
    """Whether :data:`_CONTROL_RE` finds something in ``text`` (for ASCII text by deleting
    those bytes from its encoding, a few times faster than the regex)."""
    if text.isascii():
        data = text.encode()
        return len(data.translate(None, _CONTROL_BYTES)) != len(data)
    return _CONTROL_RE.search(text) is not None


def _check_chars(sec: _Section, issues: list[_Issue]) -> None:
    """T121 for a tag value holding a tab or a control character."""
    for tag in sec.tags:
        m = _CONTROL_RE.search(tag.value)
        if m is not None:
            what = "a tab" if m.group() == "\t" else f"the control character U+{ord(m.group()):04X}"
            expected = f"text without tabs or control characters (it holds {what})"
            issues.append(("T121", tag.span, {"tag": tag.name, "value": tag.value, "expected": expected}))


def _check_value(tag: Tag, issues: list[_Issue]) -> None:
    """T121 when a checked tag's value is not in its PBN form (``?`` and ``""`` always are)."""
    key = (tag.name, tag.value)
    expected = _VALUE_CHECKS.get(key, "")
    if expected == "":
        expected = None
        if tag.value.strip() not in _UNKNOWN:
            try:
                TAGS[tag.name].parse(tag.value)
            except TagValueError as e:
                expected = str(e)
        if len(_VALUE_CHECKS) >= 20_000:
            _VALUE_CHECKS.clear()
        _VALUE_CHECKS[key] = expected
    if expected is not None:
        issues.append(("T121", tag.span, {"tag": tag.name, "value": tag.value, "expected": expected}))


def _plain_tag(tag: Tag) -> bool:
    """Whether the board builder has nothing to do for ``tag`` but keep it: its name is
    known (in its case), not a table, its value not ``#``/``##`` and in form (no T121)."""
    kind = _TAG_KIND.get(tag.name)
    if kind is None or kind == 2 or tag.value[:1] == "#":
        return False
    if kind == 1:
        found: list[_Issue] = []
        _check_value(tag, found)
        return not found
    return True


#: OptimumResultTable (Declarer, Denomination, Result) elements -> :func:`_ort_entry`.
_ORT_ENTRIES: dict[tuple[str, str, str], Any] = {}


def _ort_entry(declarer: str, strain: str, result: str) -> tuple[tuple[Seat, Strain], int] | None:
    """``((seat, strain), tricks)`` for an OptimumResultTable row, or None when an element
    is unknown or not valid or the result is not a plain number of tricks."""
    name = "OptimumResultTable"
    try:
        seat = typed_cell(name, "Declarer", declarer)
        denomination = typed_cell(name, "Denomination", strain)
        tricks = typed_cell(name, "Result", result)
    except TagValueError:
        return None
    if seat is not None and denomination is not None and isinstance(tricks, int):
        return (seat, denomination), tricks
    return None


def _cross_checks(first: dict[str, Tag], vulnerable: Any, tables: list[Table], issues: list[_Issue]) -> None:
    """T127: ScoreRubberHistory against Vulnerable (PBN 2.1 §4.2.6); DoubleDummyTricks and
    Ability against the OptimumResultTable (pbn.md §17)."""
    t = first.get("ScoreRubberHistory")
    if t is not None and vulnerable is not None and t.value.strip() not in _UNKNOWN:
        try:
            implied = rubber_vulnerability(TAGS["ScoreRubberHistory"].parse(t.value))
        except TagValueError:
            implied = None
        if implied is not None and implied is not vulnerable:
            names = ("None", "NS", "EW", "All")
            detail = f"the games won make the vulnerability {names[implied]}, not {names[vulnerable]}"
            issues.append(("T127", t.span, {"tag": t.name, "value": t.value, "other": "Vulnerable", "detail": detail}))
    ort = next((x for x in tables if x.name == "OptimumResultTable"), None)
    if ort is None:
        return
    dd: dict[tuple[Seat, Strain], int] = {}
    # each row read as dict(zip(column names, row)): the last column of a name counts
    where = {name: k for k, name in enumerate(ort.column_names)}
    d_at, s_at, r_at = where.get("Declarer"), where.get("Denomination"), where.get("Result")
    if d_at is not None and s_at is not None and r_at is not None:  # else no row counts
        n = len(ort.columns)
        cache = _ORT_ENTRIES
        for row in ort.rows:
            if len(row) < n:
                continue
            key = (row[d_at], row[s_at], row[r_at])
            entry = cache.get(key, False)
            if entry is False:
                entry = _ort_entry(*key)
                if len(cache) >= 5_000:
                    cache.clear()
                cache[key] = entry
            if entry is not None:
                dd[entry[0]] = entry[1]
    if not dd:
        return
    for name in ("DoubleDummyTricks", "Ability"):
        t = first.get(name)
        if t is None or t.value.strip() in _UNKNOWN:
            continue
        try:
            given = TAGS[name].parse(t.value)
        except TagValueError:
            continue
        for key, tricks in given.items():
            if key in dd and dd[key] != tricks:
                seat, strain = key
                detail = f"{seat} {strain}: {tricks} tricks, the table {dd[key]}"
                issues.append(
                    ("T127", t.span, {"tag": name, "value": t.value, "other": "OptimumResultTable", "detail": detail})
                )
                break


# --- tables (PBN 2.1 §5) -------------------------------------------------------------------

#: A table element: a string token (group 1, escapes \" and \\) or a section token.
_ELEMENT_RE = re.compile(r'"([^"\\\n]*(?:\\.[^"\\\n]*)*)"|[^\s"]+')
_TOKEN_OK = frozenset(chr(c) for c in range(33, 127)) - set('[]{};"%')
#: A character a section token may not hold (the complement of :data:`_TOKEN_OK`).
_TOKEN_BAD_RE = re.compile("[^" + re.escape("".join(sorted(_TOKEN_OK))) + "]")
#: (table, column, element) -> None when valid, else why not.
_CELL_CHECKS: dict[tuple[str, str, str], str | None] = {}


class _TableRow:
    """The elements of one line of table data at a given place, shared between games:
    ``elements`` (text, was a string, span) and ``texts``; ``checked_for`` and ``issues``
    remember the cell diagnostics of the latest (table, columns) it was checked for."""

    __slots__ = ("elements", "texts", "spans", "checked_for", "issues")

    def __init__(self, elements: tuple[tuple[str, bool, Span], ...]) -> None:
        self.elements = elements
        self.texts = tuple([e[0] for e in elements])
        self.spans = tuple([e[2] for e in elements])
        self.checked_for: Any = None
        self.issues: tuple[_Issue, ...] = ()


#: Lines of table data by (text, line, column of its first character): table rows recur
#: at the same place in every game of a file (hand records: one OptimumResultTable each).
_TABLE_ROWS: dict[tuple[str, int, int], _TableRow | None] = {}


def _table_row(row: str, line: int, col: int) -> _TableRow | None:
    """The elements of one line of a ROWS token (no line end in it) whose first character
    is at ``(line, col)``; None when it holds none.  No element spans a line end, so a
    line read alone gives what :data:`_ELEMENT_RE` finds in the whole token."""
    out = []
    if '"' not in row:  # no strings: the elements are the whitespace-separated words
        pos = 0
        for w in row.split():
            i = row.find(w, pos)
            pos = i + len(w)
            out.append((w, False, _span(line, col + i)))
    else:
        for m in _ELEMENT_RE.finditer(row):
            quoted = m.group(1) is not None
            text = m.group(1) if quoted else m.group()
            if quoted and "\\" in text:
                text = _UNESCAPE_RE.sub(r"\1", text)
            out.append((text, quoted, _span(line, col + m.start())))
    return _TableRow(tuple(out)) if out else None


def _table_rows(tokens: list[Token]) -> list[_TableRow]:
    """The lines of a section's ROWS tokens that hold elements, in order (a line split by
    a comment gives two); shared :class:`_TableRow` objects from :data:`_TABLE_ROWS`."""
    cache = _TABLE_ROWS
    out = []
    for tok in tokens:
        line = tok.line
        col = tok.column
        for row in tok.split("\n"):
            key = (row, line, col)
            r = cache.get(key, False)
            if r is False:
                r = _table_row(row, line, col)
                if len(row) < 1000:
                    if len(cache) >= 20_000:
                        cache.clear()
                    cache[key] = r
            if r is not None:
                out.append(r)
            line += 1
            col = 1
    return out


def _section_rows(sec: _Section) -> list[_TableRow]:
    """:func:`_table_rows` of a section's ROWS tokens, read once (the table and the export
    check both read them)."""
    rows = sec.table_rows
    if rows is None:
        rows = sec.table_rows = _table_rows(sec.rows)
    return rows


def _table_lines(tokens: list[Token]) -> list[tuple[tuple[str, bool, Span], ...]]:
    """The elements of a section's ROWS tokens, per line: (text, was a string, span)."""
    return [r.elements for r in _table_rows(tokens)]


#: parse_columns results by tag value (the same header recurs in every game).
_COLUMNS: dict[str, tuple[tuple[Any, ...], list[tuple[str, str]]]] = {}


def _columns(value: str) -> tuple[tuple[Any, ...], list[tuple[str, str]]]:
    """:func:`handrec.formats.pbn.tags.parse_columns`, remembered (its results are not changed)."""
    got = _COLUMNS.get(value)
    if got is None:
        got = parse_columns(value)
        if len(_COLUMNS) >= 2_000:
            _COLUMNS.clear()
        _COLUMNS[value] = got
    return got


def _cell_issues(name: str, columns: tuple[Any, ...], row: Any, issues: list[_Issue]) -> None:
    """T124 for each element of ``row`` ((text, was a string, span) items) that is not valid
    in its column of table ``name``."""
    n = len(columns)
    convert = TABLES[name].columns
    checks = _CELL_CHECKS
    for k, (text, quoted, span) in enumerate(row):
        column = columns[k].name if k < n else "?"
        if not quoted and _TOKEN_BAD_RE.search(text) is not None:
            bad = next(ch for ch in text if ch not in _TOKEN_OK)
            reason = f"{bad!r} is not allowed in a section token (write a string)"
            issues.append(("T124", span, {"table": name, "column": column, "value": text, "reason": reason}))
            continue
        if column not in convert or text in ("?", "-"):
            continue
        key = (name, column, text)
        why = checks.get(key, "")
        if why == "":
            why = None
            try:
                typed_cell(name, column, text)
            except TagValueError as e:
                why = str(e)
            if len(checks) >= 20_000:
                checks.clear()
            checks[key] = why
        if why is not None:
            issues.append(("T124", span, {"table": name, "column": column, "value": text, "reason": why}))


def _table(tag: Tag, sec: _Section | None, issues: list[_Issue]) -> Table:
    """A table or unknown supplemental section (PBN 2.1 §5) from its tag and data.

    A known table's header gives its columns (T123 for one that is not valid); its rows
    are one per line when every line holds one row, else the element stream cut into rows
    of the column count (import format may wrap rows, §5.2), a short last row T125.  Each
    element of a predefined column is checked (T124), as is a character a section token
    may not hold; a column marked ``+``/``-`` must be sorted (T125); a comment after table
    data is T125 (§5.1).  An unknown section keeps its data lines as rows.
    """
    name = tag.name
    lines = _section_rows(sec) if sec is not None and sec.rows else []
    spec = TABLES.get(name)
    if spec is None:
        return Table(name, (), tuple([r.texts for r in lines]), tag.span, tuple([r.spans for r in lines]))
    columns, problems = _columns(tag.value)
    for text, reason in problems:
        issues.append(("T123", tag.span, {"table": name, "column": text, "reason": reason}))
    n = len(columns)
    if n and not set(map(len, map(_ELEMENTS, lines))) <= {n}:  # some line is not one row
        flat = [e for r in lines for e in r.elements]
        grouped = [flat[k : k + n] for k in range(0, len(flat), n)]
        if grouped and len(grouped[-1]) < n:
            detail = f"the last row has {len(grouped[-1])} of {n} elements"
            issues.append(("T125", grouped[-1][0][2], {"table": name, "detail": detail}))
        for row in grouped:
            _cell_issues(name, columns, row, issues)
        rows = tuple(tuple([e[0] for e in row]) for row in grouped)
        cells = tuple(tuple([e[2] for e in row]) for row in grouped)
    else:
        # one row per line (the usual case): a line's cell diagnostics are remembered on
        # its shared _TableRow, for the (table, columns) they were found for
        key = (name, columns)
        for r in lines:
            if r.checked_for != key:
                found: list[_Issue] = []
                _cell_issues(name, columns, r.elements, found)
                r.issues = tuple(found)
                r.checked_for = key
            if r.issues:
                issues.extend(r.issues)
        rows = tuple([r.texts for r in lines])
        cells = tuple([r.spans for r in lines])
    for k, col in enumerate(columns):
        if col.sort is not None:
            _check_sorted(name, col, [r[k] for r in rows if k < len(r)], tag.span, issues)
    if sec is not None and sec.rows_comment:
        issues.append(
            ("T125", tag.span, {"table": name, "detail": "a comment after table data (only the tag may have one)"})
        )
    return Table(name, columns, rows, tag.span, cells)


def _check_sorted(table: str, col: Any, values: list[str], span: Span | None, issues: list[_Issue]) -> None:
    """T125 when a column marked ``+`` (descending) or ``-`` (ascending) is not in that order;
    only numeric elements count (``-``, ``?`` are skipped, ``^`` is dropped)."""
    nums = []
    for v in values:
        if v in ("-", "?"):
            continue
        try:
            nums.append(float(v.lstrip("^")))
        except ValueError:
            return  # not a numeric column: nothing to check
    pairs = zip(nums, nums[1:])
    ok = all(a >= b for a, b in pairs) if col.sort == "+" else all(a <= b for a, b in pairs)
    if not ok:
        order = "descending ('+')" if col.sort == "+" else "ascending ('-')"
        issues.append(("T125", span, {"table": table, "detail": f"column {col.name} is marked {order} but is not"}))


# --- export format (PBN 2.1 §2.3, §3.3-§3.6, §3.11) -----------------------------------------

#: Possessive quantifiers (as in grammars/pbn.lark): the parts they repeat are disjoint
#: from what follows, so they match what the greedy forms match, without backtracking.
_EXPORT_TAG_RUN = re.compile(
    r'\[[A-Za-z0-9_]++ "[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"\](?:\n\[[A-Za-z0-9_]++ "[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"\])*+'
)
_EXPORT_TAG = re.compile(r'\[[A-Za-z0-9_]+ "[^"\\\n]*(?:\\.[^"\\\n]*)*"\]')
_EXPORT_VUL = frozenset(("None", "NS", "EW", "All"))
_EXPORT_RESULT = re.compile(r"\^?\d+")
_EXPORT_CALL_TOKENS = frozenset(
    ["Pass", "X", "XX", "*", "+", "^I", "^S"] + [f"{lv}{st}" for lv in range(1, 8) for st in ("C", "D", "H", "S", "NT")]
)
_EXPORT_CARD_TOKENS = frozenset([str(c) for c in ALL_CARDS] + ["-", "*", "+", "^R", "^L"])
#: Export order (PBN 2.1 §3.1, §3.4): the mandatory tags in order, other tags by name, the
#: Auction and Play sections, the tables by name.  Scoring is left out for PBN 1.0 files.
_ORDER_KEYS: dict[str, tuple[Any, ...]] = (
    {name: (0, 0, i) for i, name in enumerate(MTS_ORDER)}
    | {"Auction": (1, 0, ""), "Play": (2, 0, "")}
    | {name: (3, 0, name) for name in TABLES}
)
_EXPORT_SUIT = "A?+K?+Q?+J?+T?+9?+8?+7?+6?+5?+4?+3?+2?+"  # possessive: a rank is never given back
_EXPORT_HAND = rf"(?:-|{_EXPORT_SUIT}\.{_EXPORT_SUIT}\.{_EXPORT_SUIT}\.{_EXPORT_SUIT})"
_EXPORT_DEAL = re.compile(rf"[NESW]:{_EXPORT_HAND}(?: {_EXPORT_HAND}){{3}}")
#: A plain auction (calls only, four a line) and a plain play (cards, four a line), as PBN
#: exports them: the usual case, checked with one match.
_EXPORT_CALL = r"(?:Pass|XX?|[1-7](?:NT|[CDHS]))"
_EXPORT_AUCTION = re.compile(
    rf"(?:{_EXPORT_CALL}(?: {_EXPORT_CALL}){{3}}\n)*(?:{_EXPORT_CALL}(?: {_EXPORT_CALL}){{0,3}})?(?: ?[*+])?\s*"
)
_EXPORT_CARD = r"(?:[SHDC][2-9TJQKA]|-)"
_EXPORT_PLAY = re.compile(
    rf"(?:{_EXPORT_CARD}(?: {_EXPORT_CARD}){{0,3}}\n)*(?:{_EXPORT_CARD}(?: {_EXPORT_CARD}){{0,3}}\n?)?\*?\s*"
)


_ORDER_CHECKS: dict[tuple[Any, ...], list[tuple[int, str]]] = {}


def _order_check(names: tuple[str, ...], shift: int, version: tuple[int, int] | None) -> list[tuple[int, str]]:
    """Export-order faults of a game's tag names: (index of the tag or -1, detail)."""
    out: list[tuple[int, str]] = []
    mts = MTS_ORDER if version is None or version >= (2, 0) else tuple(n for n in MTS_ORDER if n != "Scoring")
    present = set(names)
    for name in mts:
        if name not in present:
            out.append((-1, f"the mandatory tag {name} is missing"))
    prev: tuple[Any, ...] = (0, 0, -1)
    prev_name = ""
    for k in range(shift, len(names)):
        name = names[k]
        key = _ORDER_KEYS.get(name)
        if key is None:
            if name == "Note":
                continue
            if name[-1:] == "\x00":  # an unknown supplemental section: with the tables
                name = name[:-1]
                key = (3, 0, name)
            else:
                key = (0, 1, name)
        if key < prev:
            out.append((k, f"tag {name} comes after {prev_name}"))
            break
        prev, prev_name = key, name
    return out


def _export_check(
    sections: list[_Section],
    tags: list[Tag],
    first: dict[str, Tag],
    shift: int,
    text: str,
    dealer: Seat | None,
    deal: Deal | None,
    auction_sec: int,
    play_sec: int,
    version: tuple[int, int] | None,
    issues: list[_Issue],
    sections_at: frozenset[int] = frozenset(),
) -> None:
    """F020 for what a file that says ``% EXPORT`` may not do in one game: tag pairs not
    alone on their line as ``[Name "value"]`` from column 1 (§3.3); a tag of the mandatory
    set missing (14 tags for PBN 1.0, §3.4); tags out of export order (mandatory set in
    order, other tags by name, Auction, Play, tables by name; §3.1, §3.4); Vulnerable not
    None/NS/EW/All; a Deal not from the dealer, upper case, ranks high to low (§3.4.11); a
    Result other than declarer's tricks (§3.4.15); an auction with ``-`` before the dealer,
    more than four calls a line, lower case or suffixes (§3.5); a play line of more than
    four cards, lower case or suffixes (§3.6); a table row over several lines (§5.2)."""

    def add(span: Span | None, detail: str) -> None:
        issues.append(("F020", span, {"detail": detail}))

    lines: list[str] | None = None
    # tag pairs: alone on their line, [Name "value"], from column 1
    for sec in sections:
        tok = sec.raw
        if tok is None:
            continue
        if sec.export_tags:  # every tag pair alone on its line as [Name "value"] (_tag_pairs_plain)
            m_end = len(tok.rstrip()) if tok.column == 1 else -1
        elif sec.kind != _TAGS:  # an Auction or Play tag: one tag pair
            t = sec.tags[0]
            end = len(t.name) + len(t.value) + 5
            m_end = end if tok.column == 1 and tok[:end] == f'[{t.name} "{t.value}"]' else -1
        else:
            m = _EXPORT_TAG_RUN.match(tok) if tok.column == 1 else None
            m_end = -1 if m is None else m.end()
        if m_end >= 0:
            rest = tok[m_end:]
            if (rest[:1] == "\n" and rest.isspace()) or (not rest and tok.end_pos >= len(text)):
                continue
        if lines is None:
            lines = text.split("\n")
        for t in sec.tags:
            line = lines[t.span.line - 1] if t.span is not None and t.span.line <= len(lines) else ""
            if t.span is not None and (t.span.column != 1 or _EXPORT_TAG.fullmatch(line) is None):
                add(t.span, f'tag pair {t.name} is not alone on its line as [{t.name} "value"]')
                break
    # the mandatory tag set and the export order (by the sequence of names: it recurs)
    if sections_at:  # an unknown tag with data is a supplemental section (PBN 2.1 §5)
        names = tuple([t.name + "\x00" if k in sections_at else t.name for k, t in enumerate(tags)])
    elif not shift and len(first) == len(tags):
        names = tuple(first)  # every name once, in tag order: the names of ``tags``
    else:
        names = tuple(map(_NAME, tags))
    found = _ORDER_CHECKS.get((names, shift, version))
    if found is None:
        found = _order_check(names, shift, version)
        if len(_ORDER_CHECKS) >= 2_000:
            _ORDER_CHECKS.clear()
        _ORDER_CHECKS[(names, shift, version)] = found
    for k, detail in found:
        add(None if k < 0 else tags[k].span, detail)
    # values in export spelling
    t = first.get("Vulnerable")
    if t is not None and t.value not in _EXPORT_VUL and t.value.strip() not in _UNKNOWN:
        add(t.span, f"Vulnerable {t.value!r} is not None, NS, EW or All")
    t = first.get("Deal")
    if (
        t is not None
        and deal is not None
        and ((dealer is not None and t.value[:1] != "NESW"[dealer]) or _EXPORT_DEAL.fullmatch(t.value) is None)
    ):
        add(t.span, "the Deal does not start with the dealer in upper case with ranks high to low")
    t = first.get("Result")
    d = first.get("Declarer")
    has_declarer = d is not None and d.value.lstrip("^").strip() in _SEATS
    if t is not None and has_declarer and t.value not in _UNKNOWN and _EXPORT_RESULT.fullmatch(t.value) is None:
        add(t.span, f"Result {t.value!r} is not the number of tricks won by declarer")
    for name in ("Dealer", "Declarer", "Contract"):
        t = first.get(name)
        if t is not None and t.value != t.value.upper() and t.value != "Pass":
            add(t.span, f"{name} {t.value!r} is not upper case")
    # the auction: from the dealer, four calls a line, NAGs not suffixes, upper case
    if auction_sec >= 0 and not (
        len(sections[auction_sec].rows) == 1 and _EXPORT_AUCTION.fullmatch(sections[auction_sec].rows[0])
    ):
        sec = sections[auction_sec]
        per_line: dict[int, int] = {}
        call_tokens = _EXPORT_CALL_TOKENS
        reported = False  # one token fault per auction is enough
        for word, span in sec.elements:
            if word in call_tokens:
                if word[0] not in "*+^":
                    per_line[span.line] = per_line.get(span.line, 0) + 1
                continue
            for piece, sp, _ in _pieces([(word, span)], _EXPORT_CALL_TOKENS):
                if piece in _EXPORT_CALL_TOKENS or piece[0] in "=$":
                    if piece not in ("*", "+") and piece[0] not in "=$^":
                        per_line[sp.line] = per_line.get(sp.line, 0) + 1
                    continue
                if reported or (piece not in _STANDARD_CALLS and piece.upper() in _CALLS):
                    continue  # (a call in a spelling the standard does not know is T105 already)
                reported = True
                if piece == "-":
                    add(sp, "'-' before the dealer's call (the auction starts with the dealer)")
                elif piece in _SUFFIX_NAG:
                    add(sp, f"suffix {piece!r} (export format writes NAGs)")
                else:
                    add(sp, f"call {piece!r} is not written as PBN exports it")
                    per_line[sp.line] = per_line.get(sp.line, 0) + 1
        for line, count in per_line.items():
            if count > 4:
                add(_span(line, 1), f"{count} calls on one auction line (at most 4)")
                break
    if play_sec >= 0:
        card_tokens = _EXPORT_CARD_TOKENS
        tokens = sections[play_sec].rows
        if sections[play_sec].plain or (len(tokens) == 1 and _EXPORT_PLAY.fullmatch(tokens[0])):
            rows = []  # the usual case: plain cards, at most four a line
        else:
            rows = _play_elements(sections[play_sec])
        for words, where in rows:
            if len(words) <= 4 and card_tokens.issuperset(words):
                continue
            count = 0
            for word, span in zip(words, where):
                for piece, sp, _ in _pieces([(word, span)], _EXPORT_CARD_TOKENS):
                    if piece in _EXPORT_CARD_TOKENS or piece[0] in "=$":
                        count += piece not in ("*", "^R", "^L") and piece[0] not in "=$"
                        continue
                    what = f"suffix {piece!r} (export format writes NAGs)" if piece in _SUFFIX_NAG else None
                    add(sp, what or f"card {piece!r} is not written as PBN exports it")
                    return
            if count > 4:
                add(where[0], f"{count} cards on one play line (at most 4)")
                return
    for sec in sections:
        if sec.rows and sec.kind == _TAGS and sec.tags[-1].name in TABLES:
            cols = len(_columns(sec.tags[-1].value)[0])
            data = [r.elements for r in _section_rows(sec)]
            if not cols or set(map(len, data)) <= {cols}:
                continue  # every row on one line (the usual case: no need to look row by row)
            for k, line in enumerate(data):
                if cols and (len(line) > cols or (len(line) < cols and k < len(data) - 1)):
                    add(line[0][2], f"a {sec.tags[-1].name} row not on one line")
                    break


def _pieces(elements: list[tuple[str, Span]], simple: dict[str, Any]) -> Iterator[tuple[str, Span, bool]]:
    """The PBN tokens of auction/play elements: ``(text, span, glued)``.

    Elements written without spaces (``2C!``, ``^I1C``, ``1S=1=``, ``4H*``) are split
    into their tokens (PBN 2.1 §3.2); ``glued`` is True for a token that directly follows
    another one.  An element that does not split cleanly is yielded whole.
    """
    for text, span in elements:
        if text in simple or text.isalnum():
            yield text, span, False
            continue
        parts = _PIECE_RE.findall(text)
        if len(parts) < 2 or "".join(parts) != text:
            yield text, span, False
            continue
        off = 0
        for k, p in enumerate(parts):
            yield p, (span if off == 0 else _span(span.line, span.column + off)), k > 0
            off += len(p)


# --- auction (PBN 2.1 §3.5) -------------------------------------------------------------------


#: T128 reasons (the ``reason`` argument) of an annotation that is dropped, one of two being kept:
#: its text is not in an exported file as written (``handrec export`` lists it).  The other T128
#: reasons (a NAG out of range or of the other section, a misplaced Note) keep the text.
T128_SECOND_NOTE = "is a second note reference (one is kept)"
T128_SECOND_SUFFIX = "is a second suffix (at most one)"
T128_DROPPED = frozenset((T128_SECOND_NOTE, T128_SECOND_SUFFIX))


def _nag_issue(n: int, span: Span, what: str, issues: list[_Issue]) -> None:
    """T128 for a NAG out of 0-255 or of the other section (PBN 2.1 §3.7: $1-$6 and $13 for
    calls only, $7-$12 and $14 for cards only)."""
    if n > 255:
        issues.append(("T128", span, {"token": f"${n}", "reason": "is not a NAG (0-255)"}))
    elif what == "call" and (7 <= n <= 12 or n == 14):
        issues.append(("T128", span, {"token": f"${n}", "reason": "is a NAG for cards, not calls"}))
    elif what == "card" and (1 <= n <= 6 or n == 13):
        issues.append(("T128", span, {"token": f"${n}", "reason": "is a NAG for calls, not cards"}))


def _auction(
    sec: _Section, notes: _Notes, dealer: Seat | None, issues: list[_Issue], sections: list[_Section] | None = None
) -> Auction | None:
    """The Auction section to an :class:`Auction` that starts with the dealer.

    * The Auction tag names the seat of the first call written; leading ``-`` fillers
      (seats before the dealer) are dropped and move the start on; T106 if the start
      is not the Dealer tag's seat.  A bad Auction seat is T101 (the dealer is used).
    * Calls: ``Pass``/``P``/``PASS``, ``X``/``XX``, ``1C``..``7NT``/``3N``, any case
      (other than PBN's spellings: T105, once per spelling); ``AP`` = the passes that end
      the auction (placeholders do not count as passes).
    * Irregularities (PBN 2.1 §3.9): ``^I`` marks the next call, which must be a bid, as an
      insufficient bid accepted (``Call.irregular == "I"``, Law 27A1; before anything
      else, or with no call after it: A306 on the ``^I``).  ``^S`` stands in place of the
      call of a player skipped by an accepted call out of rotation (Law 29A): it is kept as
      a placeholder, ``Call.irregular == "S"`` (see :class:`handrec.model.Call`), so the
      rotation of the calls after it stays right.  Other ``^x``: A306.
    * Annotations on the previous call: suffixes ``! ? !! ?? !? ?!`` = NAG $1-$6, ``$n``,
      ``=n=`` (``Call.note`` = n, ``Call.annotation`` = the note's text; T107 when no
      Note tag n follows the section, nor stands in the identification section of
      ``sections``: :func:`_read_misplaced`, T128, the Note added to ``Auction.notes``).
      A second note reference or suffix on one call, a NAG over 255 or one for cards
      ($7-$12, $14) is T128.  A ``*`` glued to a call
      (``4H*``, bidding-program output) marks an alert: T105.  ``Auction.notes`` keeps
      the section's Note tags.
    * ``*``/``+`` end the auction (``Auction.ended``); a call after them is F003 (once).
    * Anything else is A306 and skipped.
    """
    seat_tag = sec.tags[0]
    v = seat_tag.value.strip()
    seat = _SEATS.get(v)
    if seat is None:
        if v not in _UNKNOWN:
            issues.append(("T101", seat_tag.span, {"tag": "Auction", "value": seat_tag.value, "reason": "not a seat"}))
        seat = dealer
        if seat is None:
            return None
    elements = sec.elements
    if elements and all(map(_STANDARD_CALLS.__contains__, map(_FIRST, elements))):
        # the usual case, only calls in PBN's spellings: what the general code gives
        if dealer is not None and seat is not dealer:
            issues.append(("T106", seat_tag.span, {"value": str(seat), "dealer": str(dealer)}))
        return Auction(seat, _plain_calls(elements), None, seat_tag.span, notes[1])
    calls: list[list[Any]] = []  # [base Call, nags, note, span, alert, irregular, suffixes]
    lookup = notes[0]
    found: list[Note] = []  # Notes read from the identification section (_read_misplaced)
    free: dict[int, Note] | None = None  # _free_notes(sections), made at the first need
    fillers = 0
    ended: str | None = None
    after_end = False
    warned: set[str] = set()
    last_was_call = False
    standard = _STANDARD_CALLS
    insufficient: Span | None = None  # the span of a pending ^I
    for text, span, glued in _pieces(sec.elements, standard):
        base = standard.get(text)
        if base is not None and ended is None and insufficient is None:  # the usual case
            calls.append([base, [], None, span, False, None, 0])
            last_was_call = True
            continue
        was_call, last_was_call = last_was_call, False
        c0 = text[0]
        if c0 == "$" and text[1:].isdigit():
            if calls and ended is None:
                n = int(text[1:])
                calls[-1][1].append(n)
                if n > 6:
                    _nag_issue(n, span, "call", issues)
            continue  # a NAG after the end marker (e.g. "+ $2") annotates nothing
        if text == "*" and glued and was_call and ended is None:
            calls[-1][4] = True  # "4H*": an alert mark
            if text not in warned:
                warned.add(text)
                read = f"{calls[-1][0]} (alerted)"
                issues.append(("T105", span, {"tag": "Auction", "value": f"{calls[-1][0]}*", "read": read}))
            continue
        if ended is not None:
            if not after_end:
                after_end = True
                issues.append(("F003", span, {"detail": f"{text!r} after the auction's end marker {ended!r}"}))
            continue
        if text == "-":
            if calls:
                issues.append(("A306", span, {"token": text}))
            else:
                fillers += 1
            continue
        if text == "*" or text == "+":
            ended = text
            continue
        if c0 == "=" and _NOTEREF_RE.fullmatch(text):
            n = int(text[1:-1])
            if n not in lookup:
                if free is None:
                    free = _free_notes(sections)
                note = _read_misplaced(free, n, span, issues, "auction")
                if note is not None:
                    lookup[n] = note.text
                    found.append(note)
            if calls:
                if calls[-1][2] is None:
                    calls[-1][2] = n
                else:
                    issues.append(("T128", span, {"token": text, "reason": T128_SECOND_NOTE}))
            continue
        nag = _SUFFIX_NAG.get(text)
        if nag is not None:
            if calls:
                calls[-1][1].append(nag)
                calls[-1][6] += 1
                if calls[-1][6] == 2:
                    issues.append(("T128", span, {"token": text, "reason": T128_SECOND_SUFFIX}))
            continue
        if c0 == "^" and len(text) == 2:
            irregular = text[1].upper()
            if insufficient is not None and irregular in "IS":  # a ^I with no call after it
                issues.append(("A306", insufficient, {"token": "^I"}))
                insufficient = None
            if irregular == "S":
                calls.append([_PASS, [], None, span, False, "S", 0])
                last_was_call = True
            elif irregular == "I":
                insufficient = span
            else:
                issues.append(("A306", span, {"token": text}))
            continue
        up = text.upper()
        if insufficient is not None and up == "AP":
            issues.append(("A306", insufficient, {"token": "^I"}))
            insufficient = None
        if up == "AP":
            # the passes that end the auction; ^S placeholders are no calls (not passes)
            if any(c[0].kind is not CallKind.PASS for c in calls):
                trailing = 0
                for c in reversed(calls):
                    if c[0].kind is not CallKind.PASS:
                        break
                    trailing += c[5] is None
                need = 3 - trailing
            else:
                need = 4 - sum(c[5] is None for c in calls)
            for _ in range(need):
                calls.append([_PASS, [], None, span, False, None, 0])
            continue
        base = _CALLS.get(up)
        if base is None:
            try:
                base = Call.parse(text)
            except ModelError:
                issues.append(("A306", span, {"token": text}))
                continue
        if text not in _STANDARD_CALLS and text not in warned:
            warned.add(text)
            issues.append(("T105", span, {"tag": "Auction", "value": text, "read": str(base)}))
        mark = None
        if insufficient is not None:
            if base.kind is CallKind.BID:
                mark = "I"
            else:  # ^I stands before a bid only
                issues.append(("A306", insufficient, {"token": "^I"}))
            insufficient = None
        calls.append([base, [], None, span, False, mark, 0])
        last_was_call = True
    if insufficient is not None:
        issues.append(("A306", insufficient, {"token": "^I"}))
    start = seat.offset(fillers)
    if dealer is not None and start is not dealer:
        issues.append(("T106", seat_tag.span, {"value": str(start), "dealer": str(dealer)}))
    built = []
    shared = _CALL_OBJS
    for base, nags, note, span, alert, irregular, _ in calls:
        if nags or note is not None or alert or irregular is not None:
            annotation = None if note is None else lookup.get(note)
            nag_tuple = tuple(sorted(nags)) if nags else ()
            built.append(Call(base.kind, base.level, base.strain, alert, annotation, note, nag_tuple, span, irregular))
            continue
        code = base.rank if base.kind is CallKind.BID else -1 - base.kind  # 0..34; -1 -2 -3
        key = (code, span.line, span.column)
        call = shared.get(key)
        if call is None:
            call = Call(base.kind, base.level, base.strain, span=span)
            if len(shared) >= 50_000:
                shared.clear()
            shared[key] = call
        built.append(call)
    return Auction(start, tuple(built), ended, seat_tag.span, notes[1] + tuple(found) if found else notes[1])


#: The code of each of PBN's call spellings in :data:`_CALL_OBJS` keys.
_STANDARD_CODES = {t: c.rank if c.kind is CallKind.BID else -1 - c.kind for t, c in _STANDARD_CALLS.items()}


def _plain_calls(elements: list[tuple[str, Span]]) -> tuple[Call, ...]:
    """The calls of auction elements that are all in :data:`_STANDARD_CALLS`, with their
    spans, shared through :data:`_CALL_OBJS`."""
    shared = _CALL_OBJS
    codes = _STANDARD_CODES
    built = []
    for text, span in elements:
        key = (codes[text], span.line, span.column)
        call = shared.get(key)
        if call is None:
            base = _STANDARD_CALLS[text]
            call = Call(base.kind, base.level, base.strain, span=span)
            if len(shared) >= 50_000:
                shared.clear()
            shared[key] = call
        built.append(call)
    return tuple(built)


# --- play (PBN 2.1 §3.6) ----------------------------------------------------------------------


def _no_trump_why(contract: Any, auction: Auction | None) -> str:
    """Why a play's trump is unknown, for P407: the board was passed out (a Contract tag
    ``Pass``, or an auction of four passes), else no contract is known."""
    if contract is not None and contract.level == 0 and contract.strain is None:
        return "the board was passed out"
    if auction is not None:
        calls = auction.calls
        if len(calls) >= 4 and all(c.kind is CallKind.PASS for c in calls):
            return "the board was passed out"
    return "no contract is known"


def _play(
    sec: _Section,
    notes: _Notes,
    trump: Any,
    issues: list[_Issue],
    comment_at: list[tuple[int, int]] | None = None,
    anchors: list[tuple[str, int]] | None = None,
    sections: list[_Section] | None = None,
    no_trump_why: str = "",
) -> Play | None:
    """The Play section to a :class:`Play` whose cards are in play order.

    PBN writes one trick per line in fixed seat order: column 1 is the Play tag's seat,
    then clockwise.  Trick 1 is led by that seat, each later trick by the winner of the
    previous one (:func:`handrec.model.trick_winner` with ``trump``) or by a card marked ``^L`` (lead out
    of turn accepted); the trick's cards in play order are read from the line starting at
    the leader's column.  Without a known trump the seat order is kept (P407).  A line
    goes on after a comment that does not end it (``SK {long...} H3 S4 S3``).

    ``-`` = unknown card (None); trailing tricks of only ``-`` (padding after a claim) are
    dropped; a bad card is P406 and None.  ``+`` marks the next card to play: the play
    stops there (known cards after it: F003); ``*`` ends the play (cards after it: F003).
    ``Play.ended`` keeps the marker.  Irregularities (PBN 2.1 §3.9) are kept in
    ``Play.irregular``: ``"R"`` for a card after ``^R`` (revoke not corrected, Law 63-64)
    and ``"L"`` for a card after ``^L`` (the first card of its trick in play order).
    Note references, suffixes (NAG + 6) and NAGs after a card are kept in
    ``Play.annotations`` (T107 for a reference without its Note, T128 as for calls) and
    the section's Note tags in ``Play.notes`` (with a Note found in the identification
    section of ``sections`` for a reference: :func:`_read_misplaced`).  A line that does
    not hold 4 cards is padded with unknown cards.  ``anchors`` receives ``("play", i)`` for each comment
    position in ``comment_at``: ``i`` the last card in play order written before it.
    """
    lead_tag = sec.tags[0]
    v = lead_tag.value.strip()
    leader = _SEATS.get(v)
    if leader is None and v not in _UNKNOWN:
        issues.append(("T101", lead_tag.span, {"tag": "Play", "value": lead_tag.value, "reason": "not a seat"}))
    lookup = notes[0]
    found: list[Note] = []  # Notes read from the identification section (_read_misplaced)
    free: dict[int, Note] | None = None  # _free_notes(sections), made at the first need
    # slots in seat order, 4 per trick: card (or None, or _PLUS) and span; ^R/^L by slot
    slot_cards: list[Any]
    slot_spans: list[Span | None]
    marks: dict[int, str] = {}
    slot_ann: dict[int, list[Any]] = {}  # slot -> [note, nags, suffixes]
    ended: str | None = None
    after_star = False
    cards_by_text = _CARDS
    upper_get = _UPPER_CARDS.get
    plain = True  # every line holds at most four cards in export spelling (for F020)
    plus_seen = False  # a "+" is in slot_cards
    flat = sec.flat
    slot_cards = list(map(upper_get, flat[0])) if flat is not None else []
    if flat is not None and all(slot_cards):
        # one token of four cards a line (_Section.flat), all in export spelling: the
        # usual case below, without making the lines
        slot_spans = list(flat[1])
        elements = []
        known = True  # every slot holds a card
    else:
        elements = _play_elements(sec)
        lines_words = list(map(_FIRST, elements))
        slot_cards = list(map(upper_get, chain.from_iterable(lines_words)))
        if elements and all(slot_cards) and set(map(len, lines_words)) == {4}:
            # the usual case, every line four cards in export spelling: what the loop gives
            slot_spans = list(chain.from_iterable(map(_SECOND, elements)))
            elements = []
            known = True  # every slot holds a card
        else:
            known = False
            slot_cards = []
            slot_spans = []
    for words, where in elements:
        trick_start = len(slot_cards)
        row_cards = list(map(upper_get, words))
        ok = all(row_cards)
        if not ok:
            plain = False
            row_cards = list(map(cards_by_text.get, words))
            ok = all(row_cards)
        elif len(row_cards) > 4:
            plain = False
        if ended is None and ok:  # the usual case: a line of plain cards
            slot_cards += row_cards
            slot_spans += where
            if len(row_cards) % 4:  # a short line: pad the trick with unknown cards
                slot_cards.extend([None] * (4 - len(row_cards) % 4))
                slot_spans.extend([None] * (4 - len(row_cards) % 4))
            continue
        mark: str | None = None
        mark_at: Span | None = None
        last_slot = len(slot_cards) - 1
        while last_slot >= 0 and slot_spans[last_slot] is None:  # padding of a short line
            last_slot -= 1
        for element in zip(words, where):
            for text, span, _glued in _pieces((element,), cards_by_text):
                card = cards_by_text.get(text)
                if card is None:
                    c0 = text[0]
                    nag = _SUFFIX_NAG.get(text)
                    is_nag = c0 == "$" and text[1:].isdigit()
                    is_ref = c0 == "=" and _NOTEREF_RE.fullmatch(text) is not None
                    if is_nag or nag is not None or is_ref:
                        if is_ref and int(text[1:-1]) not in lookup:
                            if free is None:
                                free = _free_notes(sections)
                            note = _read_misplaced(free, int(text[1:-1]), span, issues, "play")
                            if note is not None:
                                lookup[note.index] = note.text
                                found.append(note)
                        if last_slot < 0 or ended == "*" or slot_cards[last_slot] is _PLUS:
                            continue  # annotates nothing
                        ann = slot_ann.get(last_slot)
                        if ann is None:
                            ann = slot_ann[last_slot] = [None, [], 0]
                        if is_ref:
                            if ann[0] is None:
                                ann[0] = int(text[1:-1])
                            else:
                                issues.append(("T128", span, {"token": text, "reason": T128_SECOND_NOTE}))
                        elif is_nag:
                            ann[1].append(int(text[1:]))
                            _nag_issue(int(text[1:]), span, "card", issues)
                        else:
                            ann[1].append(nag + 6)  # type: ignore[operator]
                            ann[2] += 1
                            if ann[2] == 2:
                                issues.append(("T128", span, {"token": text, "reason": T128_SECOND_SUFFIX}))
                        continue
                    if c0 == "^" and len(text) == 2 and text[1] in "LRlr" and ended != "*":
                        mark = "L" if mark == "L" else text[1].upper()
                        mark_at = span
                        continue
                    if text == "*":
                        ended = ended or "*"
                        continue
                if ended == "*":
                    if not after_star:
                        after_star = True
                        issues.append(("F003", span, {"detail": f"{text!r} after the play's end marker '*'"}))
                    continue
                if card is None:
                    if text == "+":
                        if ended == "+":
                            issues.append(("F003", span, {"detail": "a second '+' in the play"}))
                        else:
                            ended = "+"
                            card = _PLUS
                            plus_seen = True
                    elif text != "-":
                        issues.append(("P406", span, {"token": text}))
                if mark is not None:
                    marks[len(slot_cards)] = mark
                    mark = None
                last_slot = len(slot_cards)
                slot_cards.append(card)
                slot_spans.append(span)
        if mark is not None:  # ^R/^L with no card after it on the line
            issues.append(("P406", mark_at, {"token": f"^{mark}"}))
        n = (len(slot_cards) - trick_start) % 4
        if n:  # a short line: pad the trick with unknown cards
            slot_cards.extend([None] * (4 - n))
            slot_spans.extend([None] * (4 - n))
    sec.plain = plain
    # drop trailing tricks that are all "-" (converters pad the tricks after a claim)
    n = len(slot_cards)
    while n and slot_cards[n - 4 : n] == [None, None, None, None]:
        n -= 4
    del slot_cards[n:], slot_spans[n:]
    plus_at = next((k for k, c in enumerate(slot_cards) if c is _PLUS), -1) if plus_seen else -1
    track = bool(marks or slot_ann or comment_at)
    if leader is None or trump is _TRUMP_UNKNOWN:
        if n and leader is not None:
            issues.append(("P407", lead_tag.span, {"reason": no_trump_why or "no contract is known"}))
        cut = n if plus_at < 0 else plus_at
        cards: list[Card | None] = slot_cards[:cut]
        spans: list[Span | None] = slot_spans[:cut]
        order_slots: list[int] = list(range(cut)) if track else []
    else:
        cards = []
        spans = []
        order_slots = []  # the slot of each card in play order (only with marks/notes/comments)
        to_lead = leader  # the seat to lead the trick
        if not marks and plus_at < 0 and not track:
            # the usual case (no ^L, no "+", no annotation or comment): as the loop below
            offsets, best = _OFFSET, _winner if known else _best_known
            for t in range(0, n, 4):
                start = t + (to_lead - leader) % 4
                played = slot_cards[start : t + 4] + slot_cards[t:start]
                cards += played
                spans += slot_spans[start : t + 4] + slot_spans[t:start]
                to_lead = offsets[to_lead][best(played, trump)]
        else:
            for t in range(0, n, 4):
                if marks:
                    for k in range(t, t + 4):
                        if marks.get(k) == "L":
                            to_lead = leader.offset(k - t)  # ^L: this seat led out of turn
                start = t + (to_lead - leader) % 4
                played = slot_cards[start : t + 4] + slot_cards[t:start]
                if t + 4 <= plus_at or plus_at < 0:
                    cards += played
                    spans += slot_spans[start : t + 4] + slot_spans[t:start]
                    if track:
                        order_slots += [*range(start, t + 4), *range(t, start)]
                    # Law 44, as model.trick_winner (a best guess when a card is unknown)
                    to_lead = _OFFSET[to_lead][_best_known(played, trump)]
                    continue
                # the trick with the "+" (the play stops there) and any after it
                order = list(range(start, t + 4)) + list(range(t, start))
                for k in order:
                    c = slot_cards[k]
                    if plus_at < t or (plus_at in order and order.index(k) > order.index(plus_at)):
                        if c is not None and c is not _PLUS:
                            issues.append(("F003", slot_spans[k], {"detail": "a card after '+'"}))
                    elif c is not _PLUS:
                        cards.append(c)
                        spans.append(slot_spans[k])
                        if track:
                            order_slots.append(k)
    irregular: tuple[str | None, ...] = tuple(marks.get(k) for k in order_slots) if marks else ()
    if irregular and not any(irregular):
        irregular = ()
    annotations: tuple[CardAnnotation | None, ...] = ()
    if slot_ann:
        annotations = tuple(_card_annotation(slot_ann.get(k)) for k in order_slots)
        if not any(annotations):
            annotations = ()
    if comment_at and anchors is not None:
        index_of = {k: i for i, k in enumerate(order_slots)}
        for pos in comment_at:
            i = -1
            for k in range(len(slot_spans) - 1, -1, -1):
                sp = slot_spans[k]
                if sp is not None and (sp.line, sp.column) < pos and k in index_of:
                    i = index_of[k]
                    break
            anchors.append(("play", i))
    play_notes = notes[1] + tuple(found) if found else notes[1]
    return Play(leader, tuple(cards), None, ended, tuple(spans), irregular, play_notes, annotations)


def _winner(played: list[Card], trump: Suit | None) -> int:
    """:func:`handrec.formats.pbn.play_layout.best_known` for a trick of four known cards, unrolled."""
    c0, c1, c2, c3 = played
    best = 0
    suit = c0.suit
    rank = c0.rank
    s = c1.suit
    if s is suit:
        if c1.rank > rank:
            best, rank = 1, c1.rank
    elif s is trump:
        best, suit, rank = 1, s, c1.rank
    s = c2.suit
    if s is suit:
        if c2.rank > rank:
            best, rank = 2, c2.rank
    elif s is trump:
        best, suit, rank = 2, s, c2.rank
    s = c3.suit
    if s is suit:
        if c3.rank > rank:
            best = 3
    elif s is trump:
        best = 3
    return best


def _card_annotation(ann: list[Any] | None) -> CardAnnotation | None:
    if ann is None or (ann[0] is None and not ann[1]):
        return None
    return CardAnnotation(ann[0], tuple(sorted(ann[1])))
