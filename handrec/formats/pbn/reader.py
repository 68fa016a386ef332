"""PBN reader: frame a line stream into games and build one typed :class:`Board` per game.

Three stages (PBN 2.1; implementer notes in ``shared/specs/pbn.md``):

1. **Framing** (:mod:`handrec.formats.pbn.framing`): games are separated by semi-empty
   lines that are outside a ``{...}`` comment (PBN 2.1 §3; pbn.md §2.2, §18.3-4); escape
   lines belong to no game.  Lines from :meth:`handrec.inputs.sources.Input.lines` are
   framed a decoded block at a time.
2. **Parsing** (:mod:`handrec.formats.pbn.parser`, ``grammars/pbn.lark``): one tree-less
   Lark LALR parser per process, fed large tokens by a one-regex scanner; its callbacks
   split them into sections and compute every item's position.
3. **Building** (:mod:`handrec.formats.pbn.builder`): ``#``/``##`` tag inheritance across
   the games of one file (PBN 2.1 §4.8), typed values (Board, Dealer, Vulnerable, Deal,
   Contract, Declarer, Result: :mod:`~handrec.formats.pbn.tag_values`), the auction
   (PBN 2.1 §3.5: :mod:`~handrec.formats.pbn.auction_section`) and the play turned from
   PBN's seat order into play order (PBN 2.1 §3.6: :mod:`~handrec.formats.pbn.play_section`),
   the tables (:mod:`~handrec.formats.pbn.table_section`), and the board's diagnostics.

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
from typing import Any

from handrec.diagnostics import Diagnostic, make
from handrec.formats.pbn.builder import _BoardBuilder
from handrec.formats.pbn.framing import _TOO_BIG, _frame, _frame_blocks, _FrameState
from handrec.formats.pbn.parser import _parser
from handrec.inputs.decode import LineStream
from handrec.model import Board, Origin, Span

__all__ = ["parse_pbn", "parse_pbn_text"]


def parse_pbn(
    lines: Iterable[str],
    path: str,
    file_diagnostics: list[Diagnostic],
    max_board_chars: int | None = None,
    part: tuple[int, int] | None = None,
    escape_lines: list[int] | None = None,
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
        ends; :attr:`handrec.inputs.limits.Limits.max_board_bytes`), or None for no limit.  A
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

    :param escape_lines: when a list, the 1-based file lines of the escape lines (PBN 2.1
        §2.4) other than ``% PBN x.y``, ``% EXPORT`` and ``%Content-type:`` (the lines about
        the file, which the PBN writer writes anew) are appended to it as they are read:
        BridgeComposer's layout lines (``%BCOptions``, ``%Font:...``), ``%Creator``, comment
        banners, which no board holds (``handrec export`` says it drops them).

    Never raises on bad input: syntax errors become F003 diagnostics at the fault's
    position, and every framed game is yielded.
    """
    builder = _BoardBuilder()
    parser = _parser()
    index = 0
    state = _FrameState(escape_lines)
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
            swallowed = _swallowed_tags(text, open_comment[0] - first_line) if isinstance(text, str) else ""
            file_diagnostics.append(make("F005", None, Span(*open_comment), path=path, swallowed=swallowed))
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
        board = builder.build_safely(parser, text, origin)
        if not state.export and len(text) > _MAX_IMPORT_LINE:
            long = _import_line_faults(text, origin, file_diagnostics)
            if long:
                board = dataclasses.replace(board, diagnostics=(*board.diagnostics, *long))
        yield board
    if not owner:
        return
    for code, line, column, detail in state.events:
        args = {"detail": detail} if code == "F020" else {"length": detail}
        file_diagnostics.append(make(code, None, Span(line, column), path=path, **args))


_TAG_NAME_RE = re.compile(r"\s*\[\s*([A-Za-z0-9_]+)")


def _swallowed_tags(text: str, at: int) -> str:
    """For F005: the tag pairs an open brace comment (opened on line ``at`` of ``text``, 0-based)
    turns into comment, as ``": the 3 tags after it (A, B and C) are read as comment"``, or ``""``."""
    names = [m.group(1) for line in text.split("\n")[at + 1 :] if (m := _TAG_NAME_RE.match(line))]
    if not names:
        return ""
    shown = names[:6] + (["..."] if len(names) > 6 else [])
    listed = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
    many = len(names) > 1
    return f": the {len(names)} tag{'s' if many else ''} after it ({listed}) {'are' if many else 'is'} read as comment"


#: The longest line of import format without its line end (PBN 2.1 §2.3: 255 characters with
#: it; the shortest line end, LF, counted).
_MAX_IMPORT_LINE = 254
#: Anchored at line starts: unanchored, the search tries every character of every line.
_LONG_LINE_RE = re.compile(r"(?m)^[^\n]{" + str(_MAX_IMPORT_LINE + 1) + ",}")


def _import_line_faults(text: str, origin: Origin, file_diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Import format: F026 (warning, shown under ``--strict``) for each line of a game longer
    than 255 characters with a line end of one character (PBN 2.1 §2.3 limits every line, not
    only export format's; long lines are common in the wild and readers cope), but a line the
    reading cut at its limit (F013 said so).  The game's diagnostics, at ``origin``."""
    out: list[Diagnostic] = []
    cut = None  # lines the reading cut at its limit (F013): reported already
    for m in _LONG_LINE_RE.finditer(text):
        k = text.count("\n", 0, m.start())
        if cut is None:
            cut = {d.line for d in file_diagnostics if d.code == "F013"}
        if origin.line + k not in cut:
            out.append(make("F026", origin, Span(k + 1, 1), length=len(m.group()) + 1))
    return out


def _no_tag(text: Any) -> bool:
    """Whether a framed game's text holds no ``[`` at all: no tag pair, so no game (PBN 2.1
    §3: a game is its tag pairs and their sections)."""
    return type(text) is str and text is not _TOO_BIG and "[" not in text


def parse_pbn_text(text: str, path: str = "<string>") -> list[Board]:
    """Parse a whole PBN text (any line ends, optional BOM) into a list of boards.

    File-level diagnostics (F005) are dropped; use :func:`parse_pbn` to receive them.

    >>> from handrec.model import Seat
    >>> [str(b.deal[Seat.NORTH]) for b in parse_pbn_text('[Deal "N:AKQJ.T98.765.432 - - -"]')]
    ['AKQJ.T98.765.432']
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return list(parse_pbn(lines, path, []))
