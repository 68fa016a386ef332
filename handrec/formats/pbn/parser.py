"""The parse of one PBN game (``grammars/pbn.lark``): tokens to sections, with every position.

One tree-less Lark LALR parser per process (:func:`_parser`); the Transformer
:class:`_PbnTransformer` is passed to the constructor.  The tokens come from
:class:`_Scanner`, the grammar's terminals as one compiled regex (every parser state
accepts every terminal, so this is what Lark's contextual lexer does, at a third of its
cost).  Tokens are large (a run of tag pairs, a run of section lines, a comment) because
Lark costs microseconds per token; callbacks split them and compute every item's
position.  The tokens go straight to Lark's LALR parser state
(:func:`handrec.formats._lark.feeder`), past ``Lark.parse``'s per-call front end.  A game
parses to a list of :class:`_Section` (:func:`_parse_block`), which the board builder
(:mod:`handrec.formats.pbn.builder`) reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from operator import attrgetter, itemgetter
from typing import Any

from lark import Lark, Token, Transformer
from lark.lexer import Lexer

from handrec._resources import grammar_text
from handrec.formats._lark import feeder, lalr_parser
from handrec.formats.pbn.tag_values import _Issue, _plain_tag
from handrec.formats.pbn.tags import TAGS
from handrec.model import Span, Tag

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


#: The empty list attributes of a :class:`_Section` (never added to: a list replaces it).
_NONE: Any = ()


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
    ``table_rows``: the :func:`~handrec.formats.pbn.table_section._table_rows` of ``rows``
    once read (by :func:`~handrec.formats.pbn.table_section._section_rows`);
    * ``flat``: Play whose data is one ROWS token of four words a line (the usual case):
      its words and their spans, all in order, while ``elements`` is not yet made (the
      plain play needs only these; :func:`_play_elements` makes ``elements``);
    * ``plain_tags``: every tag is plain for the builder
      (:func:`~handrec.formats.pbn.tag_values._plain_tag`);
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
        # empty until something is added: the shared empty tuple, a list once added to (most
        # sections have no comment, no issue, and a tags section no rows: no list made)
        self.elements: list[Any] = _NONE
        self.comments: list[str] = _NONE
        self.comment_at: list[tuple[int, int]] = _NONE
        self.issues: list[_Issue] = _NONE
        self.rows: list[Token] = _NONE
        self.rows_comment = False
        self.raw = raw
        self.row_open = False
        self.plain = False
        self.table_rows: list[Any] | None = None
        self.flat: tuple[list[str], list[Span]] | None = None
        self.plain_tags = False
        self.export_tags = False


#: The text (the texts) and the span (the spans) of an auction element (a play line) of
#: :attr:`_Section.elements`; a Tag's name.
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_NAME = attrgetter("name")


#: Tags with their span, shared between boards (Tag is immutable): most tag pairs of a file
#: recur at the same place in every game (``[Site "-"]``, ``[Declarer "?"]``...).
_TAG_OBJS: dict[tuple[str, int], Tag] = {}


#: Tags by (line text, line, column): a line holding exactly one tag pair (the usual
#: layout, and what the export format writes) is looked up whole.  With each Tag, whether
#: it is plain for the board builder (:func:`~handrec.formats.pbn.tag_values._plain_tag`).
_TAG_LINES: dict[tuple[str, int, int], tuple[Tag, bool]] = {}


def _tag_pairs(tok: Token) -> list[Tag]:
    """The :class:`Tag` of each tag pair in a TAGS, AUCTION_TAG or PLAY_TAG token, with its
    span (PBN 2.1 §3.3).  ``\\"`` and ``\\\\`` in values are unescaped; any other ``\\x`` is
    kept as written.  ``#``/``##`` are resolved later, by the board builder."""
    return _tag_pairs_plain(tok)[0]


def _tag_pairs_plain(tok: Token) -> tuple[list[Tag], bool, bool]:
    """:func:`_tag_pairs`, whether every tag is plain
    (:func:`~handrec.formats.pbn.tag_values._plain_tag`), and whether every tag pair is
    alone on its line as the export format writes it, ``[Name "value"]`` (False also when
    not known: the export check then reads the token)."""
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


#: The ``;`` comment lines that follow one (each with the blanks after it): taken into its token.
_SEMI_RUN_RE = re.compile(r"(?:;[^\n]*+\s*+)*+")

#: Where one ``;`` comment line of a run ends and the next begins: the first's trailing
#: blanks, the line end, the next's indentation and its ``;``.
_NEXT_SEMI_RE = re.compile(r"[^\S\n]*\n\s*;")


def _comment(tok: Token) -> str:
    """The text of a ``;`` or ``{}`` comment token, delimiters and trailing space removed.

    A run of ``;`` comment lines with nothing else between them is one token
    (:meth:`_Scanner.scan` takes them together) and one comment: its lines, each without its ``;`` and
    trailing blanks, joined by ``\n``.  So a board of millions of ``;`` lines costs a few
    objects, not a token, a text and a position per line (issue #22.4: four million lines,
    8 MB, took 1.65 GiB).
    """
    if tok[0] == "{":
        return tok[1 : tok.rindex("}")]
    text = tok[1:].rstrip()
    return _NEXT_SEMI_RE.sub("\n", text) if "\n" in text else text


def _unknown(sec: _Section, tok: Token) -> _Section:
    if not sec.issues:
        sec.issues = []
    for text, span in _elements(tok):
        sec.issues.append(("F006", span, {"token": text}))
    return sec


def _add_comment(sec: _Section, tok: Token) -> _Section:
    if not sec.comments:
        sec.comments = []
        sec.comment_at = []
    sec.comments.append(_comment(tok))
    sec.comment_at.append((tok.line, tok.column))
    return sec


def _section_head(kind: int, name: str, tok: Token) -> _Section:
    """An Auction or Play section from its tag token (the name in any case: T122)."""
    tags, plain, export = _tag_pairs_plain(tok)
    t = tags[0]
    sec = _Section(kind, [Tag(name, t.value, t.span)], tok)
    if t.name != name:
        sec.issues = [("T122", t.span, {"name": t.name, "read": name})]
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
        if not sec.rows:
            sec.rows = []
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
        sec = c[0]
        if sec.rows:
            sec.elements.extend(_elements(c[1]))
            sec.rows.append(c[1])
        else:
            sec.elements = _elements(c[1])  # (a new list)
            sec.rows = [c[1]]
        return sec

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
                sec.rows = [tok]
                sec.row_open = "\n" not in tok[len(tok.rstrip()) :]
                return sec
        rows = _rows(tok)
        _play_elements(sec)
        if rows and sec.elements and (sec.row_open or sec.elements[-1][1][-1].line == rows[0][1][0].line):
            words, where = rows.pop(0)  # a line continued after a comment
            last_words, last_where = sec.elements[-1]
            last_words.extend(words)
            sec.elements[-1] = (last_words, last_where + where)  # span lists are shared
        if sec.elements:
            sec.elements.extend(rows)
        else:
            sec.elements = rows
        if not sec.rows:
            sec.rows = []
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

    def __init__(self, lark: Lark) -> None:
        # the game parser's own terminals (the grammar's): no second Lark instance to build
        terms = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self.match = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)).match
        self.ignore = frozenset(lark.lexer_conf.ignore)
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
                value = m.group()
                if kind == "COMMENT" and value[0] == ";" and text.startswith(";", stop):
                    stop = _SEMI_RUN_RE.match(text, stop).end()  # type: ignore[union-attr]
                    value = text[pos:stop]  # a run of ; lines: one token (see _comment)
                out.append(new_token(kind, value, pos, line, pos - line_start + 1, None, None, stop))
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
        lalr = lalr_parser(grammar, lexer=_TokenListLexer, transformer=_PbnTransformer(), start="game")
        scanner = _Scanner(lalr)
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
