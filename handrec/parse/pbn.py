"""PBN reader: frame a line stream into games and build one typed :class:`Board` per game.

Three stages (PBN 2.1; implementer notes in ``shared/specs/pbn.md``):

1. **Framing** (pure Python, :func:`_frame`): games are separated by semi-empty lines that
   are outside a ``{...}`` comment (PBN 2.1 §3; pbn.md §2.2, §18.3-4).  Escape lines (``%``
   in column 1 outside a brace comment, PBN 2.1 §2.4) belong to no game and never end one:
   inside a game they are blanked so that line numbers stay right.  A block with nothing
   but comments is not a game.
2. **Parsing** (``grammars/pbn.lark``): one tree-less Lark LALR parser per process with the
   contextual lexer; the Transformer :class:`_PbnTransformer` is passed to the constructor.
   Tokens are large (a run of tag pairs, a run of section lines, a comment) because Lark
   costs microseconds per token; callbacks split them and compute every item's position.
3. **Building** (:class:`_BoardBuilder`): ``#``/``##`` tag inheritance across the games of
   one file (PBN 2.1 §4.8), typed values (Board, Dealer, Vulnerable, Deal, Contract,
   Declarer, Result), the auction (PBN 2.1 §3.5) and the play turned from PBN's seat order
   into play order (PBN 2.1 §3.6), and the board's diagnostics.

Nothing here raises on bad input: faults become :class:`handrec.diagnostics.Diagnostic`
records on the board, or in ``file_diagnostics`` for file-level faults.  Table data
(ScoreTable, OptimumResultTable, ... PBN 2.1 §5) is read without error but not kept yet.

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

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from handrec._resources import grammar_text
from handrec.diagnostics import Diagnostic, make
from handrec.model import (
    ALL_CARDS,
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    Contract,
    Deal,
    Hand,
    ModelError,
    Origin,
    Play,
    Seat,
    Side,
    Span,
    Strain,
    Suit,
    Tag,
    Vulnerability,
    trick_winner,
)

__all__ = ["parse_pbn", "parse_pbn_text"]

#: A pending diagnostic: (code, block-relative span or None, template arguments).
_Issue = tuple[str, Span | None, dict[str, Any]]


# =========================================================================================
# Public API
# =========================================================================================


def parse_pbn(lines: Iterable[str], path: str, file_diagnostics: list[Diagnostic]) -> Iterator[Board]:
    """Read PBN games from decoded text lines, yielding one :class:`Board` per game.

    :param lines: the file's lines, line 1 first, decoded, without line ends (the caller
        has stripped a byte-order mark and normalised CR LF / LF / CR).
    :param path: the file name put in each board's :class:`Origin` and in diagnostics.
    :param file_diagnostics: file-level faults are appended here: F005 for a brace comment
        still open at the end of the file (PBN 2.1 §3.8).
    :returns: boards in file order, streaming (one game's lines are held at a time);
        ``Origin(path, line, offset, index, "pbn")`` gives the block's first file line, its
        character offset (line ends counted as one character) and the 0-based game index.
        ``#``/``##`` inheritance (PBN 2.1 §4.8) carries across the games of one call.

    Never raises on bad input: syntax errors become F003 diagnostics at the fault's
    position, and every framed game is yielded.
    """
    builder = _BoardBuilder()
    parser = _parser()
    index = 0
    for first_line, offset, text, open_comment in _frame(lines):
        if open_comment is not None:
            file_diagnostics.append(make("F005", None, Span(*open_comment), path=path))
            if text is None:  # the open comment is all there is
                continue
            text += "}"  # close it, so the rest of the game reads as one comment
        origin = Origin(path, first_line, offset, index, "pbn")
        index += 1
        yield builder.build_safely(parser, text, origin)


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


def _frame(lines: Iterable[str]) -> Iterator[tuple[int, int, str | None, tuple[int, int] | None]]:
    """Split a line stream into game blocks.

    :yields: ``(first_line, offset, text, open_comment)`` per game: the 1-based file line of
        the block's first line, that line's character offset, the block's text (its lines
        joined by ``\\n``, escape lines blanked), and for a block ending inside a brace
        comment (only possible at the end of the file) the file ``(line, column)`` of its
        ``{``, else None.  A last block that is only an unclosed comment is yielded with
        ``text`` None (no game, but the fault must be reported).
    """
    buf: list[str] = []
    first_line = 0
    first_offset = 0
    content = False  # the block has something besides comments (so it is a game)
    in_comment = False
    comment_at = (0, 0)
    lineno = 0
    offset = 0
    for line in lines:
        lineno += 1
        here = offset
        offset += len(line) + 1
        if in_comment:
            buf.append(line)
            j = line.find("}")
            if j < 0:
                continue
            in_comment = False
            k, c = _scan(line, j + 1)
            content = content or c
            if k >= 0:
                in_comment, comment_at = True, (lineno, k + 1)
            continue
        if line[:1] == "%":  # escape line (PBN 2.1 §2.4)
            if buf:
                buf.append("")
            continue
        if not line or line.isspace():  # semi-empty line: end of a game
            if buf:
                if content:
                    yield first_line, first_offset, "\n".join(buf), None
                buf = []
                content = False
            continue
        if not buf:
            first_line, first_offset = lineno, here
        buf.append(line)
        if "{" in line:
            k, c = _scan(line, 0)
            content = content or c
            if k >= 0:
                in_comment, comment_at = True, (lineno, k + 1)
        elif not content:
            content = line.lstrip()[:1] != ";"
    if buf and content:
        yield first_line, first_offset, "\n".join(buf), comment_at if in_comment else None
    elif in_comment:
        yield first_line, first_offset, None, comment_at


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


def _rows(tok: Token) -> list[tuple[list[str], list[Span]]]:
    """Split a ROWS token into its non-blank lines, each as the whitespace-separated
    texts and their spans (two parallel lists)."""
    spans = _SPANS
    line = tok.line
    col = tok.column
    out = []
    for row in tok.split("\n"):
        words = row.split()
        if words:
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
        line += 1
        col = 1
    return out


def _elements(tok: Token) -> list[tuple[str, Span]]:
    """Split a ROWS token into whitespace-separated ``(text, span)`` elements."""
    return [item for words, where in _rows(tok) for item in zip(words, where)]


#: Section kinds.
_LEAD, _TAGS, _AUCTION, _PLAY = 0, 1, 2, 3

#: Tags of the standard (PBN 2.1 §3.4, §4) and common extensions (pbn.md §17) that are not
#: tables: data after them is unknown tokens (F006).  Any other tag may be followed by data
#: (tables and unknown supplemental sections, PBN 2.1 §4.9, §5).
_PLAIN_TAGS = frozenset(
    """Event Site Date Board West North East South Dealer Vulnerable Deal Scoring Declarer
    Contract Result Competition DealId Description FrenchMP Generator Hidden Room Termination
    Score ScoreIMP ScoreMP ScorePercentage ScoreRubber ScoreRubberHistory OptimumScore
    BidSystemEW BidSystemNS PairEW PairNS WestNA NorthNA EastNA SouthNA WestType NorthType
    EastType SouthType EventDate EventSponsor HomeTeam VisitTeam Round Section Stage Table
    Time UTCTime UTCDate TimeControl TimeCall TimeCard Annotator AnnotatorNA Application Mode
    Note DoubleDummyTricks ParContract OptimumContract ParScore Ability Minimax
    BCFlags""".split()
)


class _Section:
    """The parse of one section: tag pairs and what follows them up to the next section.

    * ``kind``: ``_LEAD`` (text before the first tag), ``_TAGS``, ``_AUCTION`` or ``_PLAY``;
    * ``tags``: a :class:`Tag` per tag pair in order (``#``/``##`` not yet resolved);
    * ``elements``: Auction: ``(text, span)`` items; Play: ``(texts, spans)`` per line;
    * ``comments``: comment texts without delimiters; ``issues``: pending diagnostics.
    """

    __slots__ = ("kind", "tags", "elements", "comments", "issues")

    def __init__(self, kind: int, tags: list[Tag]) -> None:
        self.kind = kind
        self.tags = tags
        self.elements: list[Any] = []
        self.comments: list[str] = []
        self.issues: list[_Issue] = []


#: Tags with their span, shared between boards (Tag is immutable): most tag pairs of a file
#: recur at the same place in every game (``[Site "-"]``, ``[Declarer "?"]``...).
_TAG_OBJS: dict[tuple[str, int], Tag] = {}


def _tag_pairs(tok: Token) -> list[Tag]:
    """The :class:`Tag` of each tag pair in a TAGS, AUCTION_TAG or PLAY_TAG token, with its
    span (PBN 2.1 §3.3).  ``\\"`` and ``\\\\`` in values are unescaped; any other ``\\x`` is
    kept as written.  ``#``/``##`` are resolved later, by the board builder."""
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
        c[0].comments.append(_comment(c[1]))
        return c[0]

    def lead_rows(self, c: list[Any]) -> _Section:
        return _unknown(c[0], c[1])

    def tags_head(self, c: list[Any]) -> _Section:
        return _Section(_TAGS, _tag_pairs(c[0]))

    def tags_rows(self, c: list[Any]) -> _Section:
        sec = c[0]
        if sec.tags[-1].name in _PLAIN_TAGS:
            return _unknown(sec, c[1])
        return sec  # table or unknown section data (PBN 2.1 §5): not kept yet

    def tags_comment(self, c: list[Any]) -> _Section:
        c[0].comments.append(_comment(c[1]))
        return c[0]

    def auction_head(self, c: list[Any]) -> _Section:
        t = _tag_pairs(c[0])[0]
        return _Section(_AUCTION, [Tag("Auction", t.value, t.span)])  # name in any case

    def auction_rows(self, c: list[Any]) -> _Section:
        c[0].elements.extend(_elements(c[1]))
        return c[0]

    def auction_comment(self, c: list[Any]) -> _Section:
        c[0].comments.append(_comment(c[1]))
        return c[0]

    def play_head(self, c: list[Any]) -> _Section:
        t = _tag_pairs(c[0])[0]
        return _Section(_PLAY, [Tag("Play", t.value, t.span)])

    def play_rows(self, c: list[Any]) -> _Section:
        sec = c[0]
        rows = _rows(c[1])
        if rows and sec.elements and sec.elements[-1][1][-1].line == rows[0][1][0].line:
            words, where = rows.pop(0)  # a line continued after a comment
            sec.elements[-1][0].extend(words)
            sec.elements[-1][1].extend(where)
        sec.elements.extend(rows)
        return sec

    def play_comment(self, c: list[Any]) -> _Section:
        c[0].comments.append(_comment(c[1]))
        return c[0]


_PARSER: Lark | None = None


def _parser() -> Lark:
    """The process-wide PBN game parser, built on first use."""
    global _PARSER
    if _PARSER is None:
        _PARSER = Lark(
            grammar_text("pbn"),
            parser="lalr",
            lexer="contextual",
            transformer=_PbnTransformer(),
        )
    return _PARSER


def _parse_block(parser: Lark, text: str) -> tuple[list[_Section], list[_Issue]]:
    """Run the parser over one game's text.

    :returns: the sections and the syntax errors found: F003 at the block-relative
        position of a character no token can start with; the rest of that line is skipped
        and parsing goes on.
    """
    errors: list[_Issue] = []

    def on_error(e: UnexpectedInput) -> bool:
        if isinstance(e, UnexpectedCharacters):
            state = e.interactive_parser.lexer_thread.state
            src = state.text.text
            p = state.line_ctr.char_pos
            eol = src.find("\n", p)
            if eol < 0:
                eol = len(src)
            bad = src[p:eol].rstrip()
            if bad[:1] == "[":
                what = "a tag pair (unterminated string or missing ']')"
            elif '"' in bad:
                what = "an unterminated string"
            else:
                what = repr(bad[:30])
            errors.append(("F003", _span(e.line, e.column), {"detail": f"cannot read {what}; rest of line skipped"}))
            state.line_ctr.feed(src[p : max(eol, p + 1)])
            return True
        if isinstance(e, UnexpectedToken):  # pragma: no cover - the grammar accepts any order
            errors.append(("F003", _span(e.line, e.column), {"detail": f"unexpected {e.token!r}"}))
            return True
        return False  # pragma: no cover

    return parser.parse(text, on_error=on_error), errors


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

_TRUMP_UNKNOWN: Any = object()  # no contract strain known: play order cannot be worked out
_PLUS: Any = object()  # the "+" slot of a play: the next card goes here


class _BoardBuilder:
    """Builds Boards from the parsed games of one file, keeping ``#``/``##`` state.

    ``last``: tag name to the Tag it had in the latest game giving it (for ``#``);
    ``sticky``: tag name to a ``##`` value that later games omitting the tag take over
    (PBN 2.1 §4.8).
    """

    def __init__(self) -> None:
        self.last: dict[str, Tag] = {}
        self.sticky: dict[str, str] = {}

    def build_safely(self, parser: Lark, text: str, origin: Origin) -> Board:
        """Parse and build one board; an unexpected failure becomes an F003 diagnostic."""
        try:
            sections, errors = _parse_block(parser, text)
        except Exception as exc:  # never let a fault escape parse_pbn
            d = make("F003", origin, None, detail=f"game could not be read ({type(exc).__name__}: {exc})")
            return Board(origin, diagnostics=(d,))
        try:
            return self.build(sections, errors, origin)
        except Exception as exc:
            tags = tuple(t for sec in sections for t in sec.tags)
            d = make("F003", origin, None, detail=f"game could not be built ({type(exc).__name__}: {exc})")
            return Board(origin, tags=tags, diagnostics=(d,))

    def build(self, sections: list[_Section], errors: list[_Issue], origin: Origin) -> Board:
        """One Board from a game's parsed sections (field meanings: :class:`Board`)."""
        issues: list[_Issue] = errors
        comments: list[str] = []
        tags: list[Tag] = []
        first: dict[str, Tag] = {}
        refused: list[str] = []
        sticky = self.sticky
        for sec in sections:
            if sec.issues:
                issues.extend(sec.issues)
            if sec.comments:
                comments.extend(sec.comments)
            for tag in sec.tags:
                name = tag.name
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
        if sticky:  # ## values for the tags this game omits, placed first like a header
            extra = [Tag(n, v) for n, v in sticky.items() if n not in first]
            if extra:
                for t in extra:
                    first[t.name] = t
                tags[:0] = extra
        self.last.update(first)
        for name in refused:  # reported by _inherit: no typed value, no second diagnostic
            if first[name].value[:1] == "#":
                del first[name]

        number = None
        t = first.get("Board")
        if t is not None:
            v = t.value.strip()
            if v.isascii() and v.isdigit():
                number = int(v)
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
        for i, sec in enumerate(sections):
            kind = sec.kind
            if kind == _AUCTION and auction is None:
                auction = _auction(sec, _notes(sections, i, issues), dealer, issues)
            elif kind == _PLAY and play is None:
                play = _play(sec, _notes(sections, i, issues), _trump(contract, auction), issues)

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
            commentary=tuple(comments),
            diagnostics=tuple(diags),
            declarer_swapped=swapped,
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


def _fast_hand(text: str) -> Hand | None:
    """PBN hand notation to a Hand, or None when the model's :meth:`Hand.parse` must read
    it (``10``, bad ranks, repeated cards: it then gives the error message)."""
    suits = text.split(".")
    if len(suits) != 4:
        return None
    rank_index = _RANK_INDEX
    idx: list[int] = []
    for base, ranks in zip(_SUIT_BASE, suits):
        for ch in ranks:
            r = rank_index.get(ch)
            if r is None:
                return None
            idx.append(base + r)
    if len(set(idx)) != len(idx):
        return None
    idx.sort(reverse=True)  # Card.index descending = spades first, high to low
    cards = tuple(map(_card_at, idx))
    if not _HAND_FIELDS_OK:  # pragma: no cover - only if model.Hand changes
        return Hand(cards)
    hand = object.__new__(Hand)
    object.__setattr__(hand, "cards", cards)
    return hand


#: Recently read deals by their text (travellers repeat a deal in every game).
_DEALS: dict[str, Deal] = {}


def _parse_deal(v: str) -> Deal:
    """PBN deal notation to a Deal (PBN 2.1 §3.4.11), fast for the usual forms.

    :raises ModelError: as :meth:`Deal.parse`.
    """
    d = _DEALS.get(v)
    if d is not None:
        return d
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
    d = Deal(tuple(hands))  # type: ignore[arg-type]
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
        issues.append(("T101", t.span, {"tag": "Deal", "value": t.value, "reason": str(exc)}))
        return None


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
    try:
        c = Contract.parse(v, declarer)
    except ModelError:
        issues.append(("T101", t.span, {"tag": "Contract", "value": t.value, "reason": "not Pass or like 4HX"}))
        return None
    if c.strain is not None and ("x" in v or (c.strain is Strain.NOTRUMP and "NT" not in v.upper())):
        issues.append(("T105", t.span, {"tag": "Contract", "value": t.value, "read": str(c)}))
    return c


def _result_value(t: Tag | None, declarer: Seat | None, issues: list[_Issue]) -> int | None:
    """Result value to the tricks taken by declarer (PBN 2.1 §3.4.15).

    ``9``; ``NS 9``, ``EW 4``, ``NS 9 EW 4`` are read for the declarer's side (13 minus
    the other side's tricks when only that is given); a leading ``^`` (result agreed by
    the players) is accepted.  None when ``?``/``""`` or side-specific without a declarer.
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
    if declarer is None:
        return None
    mine = declarer.side
    if mine in sides:
        return sides[mine]
    return 13 - sides[mine.other]


def _notes(sections: list[_Section], i: int, issues: list[_Issue]) -> dict[int, str]:
    """The Note tags right after section ``i``, which belong to it (PBN 2.1 §3.5):
    index to text (spaces after the colon dropped).  A malformed Note is T101."""
    notes: dict[int, str] = {}
    for sec in sections[i + 1 :]:
        if sec.kind != _TAGS:
            break
        for tag in sec.tags:
            if tag.name != "Note":
                return notes
            m = _NOTE_RE.match(tag.value)
            if m is None:
                issues.append(("T101", tag.span, {"tag": "Note", "value": tag.value, "reason": "not <index>:<text>"}))
                continue
            notes.setdefault(int(m.group(1)), m.group(2).strip())
    return notes


def _trump(contract: Contract | None, auction: Auction | None) -> Any:
    """The trump suit for the play (None at no trump), or ``_TRUMP_UNKNOWN``.

    A finished auction (a bid followed by three passes) decides: it is the
    record of what was bid, and a Contract tag that disagrees with it is the
    validator's C501, not a reason to misread the play.  Otherwise the
    Contract tag (a contract, or an end position's strain), else the last bid
    made.  ``^S`` placeholders (no call) are left out.
    """
    last_bid = None
    if auction is not None:
        calls = auction.calls
        if any(c.irregular == "S" for c in calls):
            calls = tuple(c for c in calls if c.irregular != "S")
        for call in reversed(calls):
            if call.strain is not None:
                last_bid = call
                break
        if (
            last_bid is not None
            and len(calls) >= 4
            and all(c.kind is CallKind.PASS for c in calls[-3:])
            and last_bid.strain is not None
        ):
            return last_bid.strain.suit
    if contract is not None:
        return _TRUMP_UNKNOWN if contract.strain is None else contract.trump
    if last_bid is not None and last_bid.strain is not None:
        return last_bid.strain.suit
    return _TRUMP_UNKNOWN


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


def _auction(sec: _Section, notes: dict[int, str], dealer: Seat | None, issues: list[_Issue]) -> Auction | None:
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
      Note tag n follows the section).  A ``*`` glued to a call (``4H*``, bidding-program
      output) marks an alert: T105.
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
    calls: list[list[Any]] = []  # [base Call, nags, note, span, alert, irregular]
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
            calls.append([base, [], None, span, False, None])
            last_was_call = True
            continue
        was_call, last_was_call = last_was_call, False
        c0 = text[0]
        if c0 == "$" and text[1:].isdigit():
            if calls and ended is None:
                calls[-1][1].append(int(text[1:]))
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
            if n not in notes:
                issues.append(("T107", span, {"index": n}))
            if calls:
                calls[-1][2] = n
            continue
        nag = _SUFFIX_NAG.get(text)
        if nag is not None:
            if calls:
                calls[-1][1].append(nag)
            continue
        if c0 == "^" and len(text) == 2:
            irregular = text[1].upper()
            if insufficient is not None and irregular in "IS":  # a ^I with no call after it
                issues.append(("A306", insufficient, {"token": "^I"}))
                insufficient = None
            if irregular == "S":
                calls.append([_PASS, [], None, span, False, "S"])
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
                calls.append([_PASS, [], None, span, False, None])
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
        calls.append([base, [], None, span, False, mark])
        last_was_call = True
    if insufficient is not None:
        issues.append(("A306", insufficient, {"token": "^I"}))
    start = seat.offset(fillers)
    if dealer is not None and start is not dealer:
        issues.append(("T106", seat_tag.span, {"value": str(start), "dealer": str(dealer)}))
    built = []
    shared = _CALL_OBJS
    for base, nags, note, span, alert, irregular in calls:
        if nags or note is not None or alert or irregular is not None:
            annotation = None if note is None else notes.get(note)
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
    return Auction(start, tuple(built), ended, seat_tag.span)


# --- play (PBN 2.1 §3.6) ----------------------------------------------------------------------


def _play(sec: _Section, notes: dict[int, str], trump: Any, issues: list[_Issue]) -> Play | None:
    """The Play section to a :class:`Play` whose cards are in play order.

    PBN writes one trick per line in fixed seat order: column 1 is the Play tag's seat,
    then clockwise.  Trick 1 is led by that seat, each later trick by the winner of the
    previous one (:func:`trick_winner` with ``trump``) or by a card marked ``^L`` (lead out
    of turn accepted); the trick's cards in play order are read from the line starting at
    the leader's column.  Without a known trump the seat order is kept (P407).

    ``-`` = unknown card (None); trailing tricks of only ``-`` (padding after a claim) are
    dropped; a bad card is P406 and None.  ``+`` marks the next card to play: the play
    stops there (known cards after it: F003); ``*`` ends the play (cards after it: F003).
    ``Play.ended`` keeps the marker.  Irregularities (PBN 2.1 §3.9) are kept in
    ``Play.irregular``: ``"R"`` for a card after ``^R`` (revoke not corrected, Law 63-64)
    and ``"L"`` for a card after ``^L`` (the first card of its trick in play order).
    Suffixes and NAGs are accepted and not kept; note references are checked (T107).  A
    line that does not hold 4 cards is padded with unknown cards.
    """
    lead_tag = sec.tags[0]
    v = lead_tag.value.strip()
    leader = _SEATS.get(v)
    if leader is None and v not in _UNKNOWN:
        issues.append(("T101", lead_tag.span, {"tag": "Play", "value": lead_tag.value, "reason": "not a seat"}))
    # slots in seat order, 4 per trick: card (or None, or _PLUS) and span; ^R/^L by slot
    slot_cards: list[Any] = []
    slot_spans: list[Span | None] = []
    marks: dict[int, str] = {}
    ended: str | None = None
    after_star = False
    cards_by_text = _CARDS
    for words, where in sec.elements:
        trick_start = len(slot_cards)
        row_cards = [cards_by_text.get(w) for w in words]
        if ended is None and all(row_cards):  # the usual case: a line of plain cards
            slot_cards += row_cards
            slot_spans += where
            if len(row_cards) % 4:  # a short line: pad the trick with unknown cards
                slot_cards.extend([None] * (4 - len(row_cards) % 4))
                slot_spans.extend([None] * (4 - len(row_cards) % 4))
            continue
        mark: str | None = None
        mark_at: Span | None = None
        for element in zip(words, where):
            for text, span, _glued in _pieces((element,), cards_by_text):
                card = cards_by_text.get(text)
                if card is None:
                    c0 = text[0]
                    if c0 == "$" or text in _SUFFIX_NAG:
                        continue
                    if c0 == "=" and _NOTEREF_RE.fullmatch(text):
                        if int(text[1:-1]) not in notes:
                            issues.append(("T107", span, {"index": int(text[1:-1])}))
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
                    elif text != "-":
                        issues.append(("P406", span, {"token": text}))
                if mark is not None:
                    marks[len(slot_cards)] = mark
                    mark = None
                slot_cards.append(card)
                slot_spans.append(span)
        if mark is not None:  # ^R/^L with no card after it on the line
            issues.append(("P406", mark_at, {"token": f"^{mark}"}))
        n = (len(slot_cards) - trick_start) % 4
        if n:  # a short line: pad the trick with unknown cards
            slot_cards.extend([None] * (4 - n))
            slot_spans.extend([None] * (4 - n))
    # drop trailing tricks that are all "-" (converters pad the tricks after a claim)
    n = len(slot_cards)
    while n and slot_cards[n - 4 : n] == [None, None, None, None]:
        n -= 4
    del slot_cards[n:], slot_spans[n:]
    plus_at = next((k for k, c in enumerate(slot_cards) if c is _PLUS), -1)
    if leader is None or trump is _TRUMP_UNKNOWN:
        if n and leader is not None:
            issues.append(("P407", lead_tag.span, {}))
        cut = n if plus_at < 0 else plus_at
        irregular = tuple(marks.get(k) for k in range(cut)) if marks else ()
        if irregular and not any(irregular):
            irregular = ()
        return Play(leader, tuple(slot_cards[:cut]), None, ended, tuple(slot_spans[:cut]), irregular)
    cards: list[Card | None] = []
    spans: list[Span | None] = []
    order_slots: list[int] = []  # the slot of each card in play order (only with marks)
    to_lead = leader  # the seat to lead the trick
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
            if marks:
                order_slots += [*range(start, t + 4), *range(t, start)]
            if played[0] is None or played[1] is None or played[2] is None or played[3] is None:
                to_lead = to_lead.offset(_best_known(played, trump))
            else:
                to_lead = trick_winner(to_lead, played, trump)
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
                if marks:
                    order_slots.append(k)
    irregular = tuple(marks.get(k) for k in order_slots) if marks else ()
    if irregular and not any(irregular):
        irregular = ()
    return Play(leader, tuple(cards), None, ended, tuple(spans), irregular)


def _best_known(played: list[Card | None], trump: Suit | None) -> int:
    """For a trick in play order with unknown cards (None): the position (0-3) of the best
    known card by the rule of :func:`handrec.model.trick_winner` (Law 44), a best guess
    at who leads next.  With the led card unknown the leader keeps the lead (0)."""
    led = played[0]
    if led is None:
        return 0
    best = 0
    best_suit = led.suit
    best_rank = led.rank
    for k in (1, 2, 3):
        c = played[k]
        if c is None:
            continue
        if c.suit is best_suit:
            if c.rank > best_rank:
                best, best_rank = k, c.rank
        elif c.suit is trump:
            best, best_suit, best_rank = k, c.suit, c.rank
    return best
