"""LIN lines to tokens: the lexer of ``grammars/lin.lark``, pairs cut by line ends, LIN carried in URLs.

Step 1 of the LIN reader (:mod:`handrec.formats.lin.reader`, lin.md §1, §2.4).  Each
decoded line is lexed by the lexer-only instance of ``grammars/lin.lark`` (as one compiled
regex, :class:`_Scanner`).  A run of auction and play pairs (``mb an pc pg mc up nt``) is
ONE ``MOVES`` token; every other command is one token (``MD``, ``QX``... or the generic
``PAIR``); text that is no pair is ``JUNK``, a stray ``|`` is ``PIPE``.  A pair whose
value runs over a line end (damaged files, §1) is carried over and re-lexed together with
the next line, so the value is joined.  Hand-viewer URLs and ``hv_popuplin('...')``
carriers are decoded first (§2.4).  Token positions are made absolute (file line, column,
character offset).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from urllib.parse import unquote

from lark import Lark, Token

from handrec._resources import grammar_text


@functools.cache
def _lexer() -> Lark:
    """The lexer-only instance of lin.lark: ``.lex(text)`` yields tokens."""
    return Lark(grammar_text("lin"), parser=None, lexer="basic", start="record")


class _Scanner:
    """The lexer of lin.lark's terminals as one compiled regex.

    It matches exactly as Lark's basic lexer does (the same alternation of
    the terminals in the same order: priority, then width; the first that
    matches wins; ``%ignore`` terminals are skipped) and yields the same
    tokens with the same positions, in about half the time: a record is only
    a few tokens, so the per-token cost of the lexer matters.  Every
    character is matched by some terminal (JUNK, PIPE or WS), so the scan
    never stops short.
    """

    def __init__(self, lark: Lark) -> None:
        terms = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self.match = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)).match
        self.ignore = frozenset(lark.lexer_conf.ignore)

    def lex(self, text: str) -> Iterator[Token]:
        match, ignore = self.match, self.ignore
        pos, end = 0, len(text)
        line, line_start = 1, 0
        multiline = "\n" in text
        while pos < end:
            m = match(text, pos)
            if m is None:  # pragma: no cover - JUNK, PIPE and WS match any character
                m = re.compile(r"(?P<JUNK>.)", re.DOTALL).match(text, pos)
                assert m is not None
            stop = m.end()
            kind = m.lastgroup
            if kind not in ignore:
                yield Token(kind, m.group(), pos, line, pos - line_start + 1)  # type: ignore[arg-type]
            if multiline and "\n" in text[pos:stop]:
                line += text.count("\n", pos, stop)
                line_start = text.rindex("\n", pos, stop) + 1
            pos = stop


@functools.cache
def _scanner() -> _Scanner:
    # the terminals of the record parser (the same grammar's, Lark's analysis cached on disk):
    # the lexer-only instance, :func:`_lexer`, is not built on the way
    from handrec.formats.lin.records import _lalr

    return _Scanner(_lalr())


_STARTS_WITH_PAIR = re.compile(r"\s*[A-Za-z]{2}\|")
_URL_LIN = re.compile(r"(?:^|[?&;])lin=([^&\s\"'<>#]*)", re.IGNORECASE)
_POPUP_LIN = re.compile(r"hv_popuplin\(\s*(['\"])(.*?)\1", re.IGNORECASE)


def _decode_lin(encoded: str) -> str:
    """Percent-decode LIN from a URL (§2.4).  ``+`` becomes a space only when
    the writer encoded real plus signs as ``%2B``; otherwise it stays a ``+``
    (alert texts such as ``5+ !S``)."""
    if "%2B" in encoded or "%2b" in encoded:
        encoded = encoded.replace("+", " ")
    return unquote(encoded, errors="replace")


def _carrier(line: str) -> tuple[str, int] | None:
    """If ``line`` carries LIN in a URL or ``hv_popuplin('...')`` rather than
    being LIN itself, return (decoded LIN, 1-based column where it starts)."""
    if _STARTS_WITH_PAIR.match(line) or "lin" not in line.lower():
        return None
    found = [(m.group(1), m.start(1)) for m in _URL_LIN.finditer(line)]
    found += [(m.group(2), m.start(2)) for m in _POPUP_LIN.finditer(line)]
    found = [f for f in found if f[0]]
    if not found:
        return None
    found.sort(key=lambda f: f[1])
    return " ".join(_decode_lin(text) for text, _ in found), found[0][1] + 1


#: The type of the token :func:`_tokens` yields when a pair cut by line ends grows past the
#: size limit (its text is dropped): the record holding it is over the limit.
_TOO_BIG = "TOO_BIG"


def _tokens(lines: Iterable[str], max_chars: int | None = None) -> Iterator[Token]:
    """Tokens of the whole input, lazily, with absolute positions.

    ``line``/``column`` are file positions (1-based), ``start_pos`` the
    character offset (each line end counts one).  A pair cut by a line end
    (no closing ``|`` yet) is re-lexed joined with the next line; at the end
    of input it is yielded as it is (the record reports F003).  A run of
    JUNK and PIPE tokens with nothing between is one token (JUNK if it has
    any text, else PIPE).

    A cut pair whose lines come to more than ``max_chars`` characters is not
    held further: its first line's token is yielded as it is, then an empty
    :data:`_TOO_BIG` token at its position; the lines up to its closing
    ``|`` are dropped and the lexing goes on after that pipe.
    """
    lex = _scanner().lex
    limit = max_chars if max_chars is not None else 1 << 62
    carry: Token | None = None  # a pair still waiting for its closing pipe
    junk: Token | None = None  # a run of JUNK/PIPE tokens not yet yielded
    pending: list[str] = []  # its text: the token, then the lines that followed it
    held = 0  # characters in ``pending``
    dropping = False  # a cut pair went over the limit: skip to its closing pipe
    offset = 0
    for line_no, line in enumerate(lines, 1):
        if dropping:
            j = line.find("|")
            if j < 0:
                offset += len(line) + 1
                continue
            dropping = False
            text, base_line, base_col, base_off = line[j + 1 :], line_no, j + 2, offset + j + 1
        elif carry is None:
            if not line or line.isspace():
                offset += len(line) + 1
                continue
            text, base_line, base_col, base_off = line, line_no, 1, offset
            decoded = _carrier(line)
            if decoded is not None:
                text, base_col = decoded
                base_off += base_col - 1
        elif "|" not in line:  # cannot close the pair: keep it without re-lexing (stays linear)
            pending.append(line)
            held += len(line) + 1
            offset += len(line) + 1
            if held > limit:
                yield carry
                yield Token.new_borrow_pos(_TOO_BIG, "", carry)
                carry, pending, dropping = None, [], True
            continue
        else:
            pending.append(line)
            text = "\n".join(pending)
            base_line, base_col, base_off = carry.line, carry.column, carry.start_pos
            carry, pending = None, []
        offset += len(line) + 1
        for tok in lex(text):
            if tok.line == 1:
                tok.column += base_col - 1
            tok.line += base_line - 1
            tok.start_pos += base_off
            kind = tok.type
            if kind == "JUNK" or kind == "PIPE":
                if junk is None:
                    junk = tok
                else:
                    merged = "JUNK" if "JUNK" in (kind, junk.type) else "PIPE"
                    sep = "" if merged == "PIPE" else " "
                    junk = Token.new_borrow_pos(merged, f"{junk}{sep}{tok}", junk)
                continue
            if junk is not None:
                yield junk
                junk = None
            if tok.count("|") & 1:  # its last pair has no closing pipe (only the text's last token can)
                carry, pending, held = tok, [tok], len(tok)
            else:
                yield tok
    if junk is not None:
        yield junk
    if carry is not None:
        yield Token.new_borrow_pos(carry.type, "\n".join(pending), carry) if len(pending) > 1 else carry
