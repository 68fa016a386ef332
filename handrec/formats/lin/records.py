"""One LIN record's tokens to its parts: the LALR parse of ``grammars/lin.lark`` with its Transformer.

Step 3 of the LIN reader (:mod:`handrec.formats.lin.reader`): the record's tokens go to the
LALR instance of the grammar (pass-through lexer, Transformer given to the constructor, so
no tree is built).  One reduction per token: its callback turns the value(s) into model
values (Call, Card, Deal...) and adds them to the record's :class:`_Parts`; the ``MOVES``
callback splits its run and gives every call and card the position of its own pair
(lin.md §3-§6; ``up`` undo, ``mc`` claim).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from handrec._resources import grammar_text
from handrec.formats._lark import feeder, lalr_parser
from handrec.formats.lin.spellings import (
    _AN,
    _CALL_TEXT,
    _CARD_TEXT,
    _MB,
    _MC,
    _MOVE_KIND,
    _NT,
    _PC,
    _PG,
    _SPANS,
    _SV,
    _WIDE,
    _bad,
    _int,
    _make_call,
    _names,
    _parse_calls,
    _parse_md,
    _Problem,
    _span,
    _span_at,
    _value,
)
from handrec.model import Call, Card, Deal, ModelError, Seat, Span, Vulnerability


class _TokenListLexer(Lexer):
    """Pass-through lexer: the "text" given to ``parse`` is a list of tokens."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: list[Token]) -> Iterator[Token]:  # type: ignore[override]
        return iter(data)


@functools.cache
def _lalr() -> Lark:
    """The LALR instance: ``.parse(tokens_of_one_record)`` returns a ``_Parts``."""
    return lalr_parser(
        grammar_text("lin"),
        lexer=_TokenListLexer,
        transformer=_LinTransformer(),
        start="record",
    )


@functools.cache
def _parser() -> Callable[[list[Token]], Any]:
    """``parse(tokens_of_one_record)`` giving a ``_Parts``: :func:`_lalr`'s parse, with
    Lark's parser fed the tokens directly (:func:`handrec.formats._lark.feeder`) when it can be."""
    lalr = _lalr()
    return feeder(lalr) or lalr.parse


#: A ``qx`` value: ``o`` (open room) or ``c`` (closed room), then the board number (§3).
_QX = re.compile(r"\s*([oc])\s*([0-9]*)", re.IGNORECASE)
#: The board number in an ``ah`` title (``Board 12``).
_AH_BOARD = re.compile(r"board\s*([0-9]+)", re.IGNORECASE)
#: One ``mp`` score (§3).
_MP = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


@dataclass(slots=True)
class _Parts:
    """What one record's pairs say, before the header is applied; built token
    by token by the Transformer."""

    has_qx: bool = False
    room: str | None = None  # "Open" / "Closed"
    qx_number: int | None = None
    qx_span: Span | None = None
    has_md: bool = False
    dealer: Seat | None = None
    deal: Deal | None = None
    deal_pbn: list[str] | None = None  # PBN text of each hand, by seat
    md_span: Span | None = None
    has_sv: bool = False
    vulnerable: Vulnerability | None = None
    sv_span: Span | None = None
    calls: list[Call] = field(default_factory=list)
    last_call: int = -1  # index in calls that an `an` explains; -1 = none
    cards: list[Card | None] = field(default_factory=list)
    card_spans: list[Span] = field(default_factory=list)
    claim: int | None = None
    claim_span: Span | None = None  # the mc pair that gives the claim
    claim_last: bool = False  # the claim is the last action (what an `up` takes back first)
    after_claim: list[Span] = field(default_factory=list)  # cards given after the claim (P404)
    names: list[str] | None = None  # pn (or pw) of this record, S,W,N,E[,S,W,N,E...]
    names_span: Span | None = None
    names_kind: str | None = None  # "pn" or "pw"
    ah_number: int | None = None
    ah_span: Span | None = None
    commentary: list[str] = field(default_factory=list)
    vg: list[str] | None = None
    vg_span: Span | None = None
    rs: list[str] | None = None
    rs_spans: list[Span] | None = None  # absolute position of each rs entry (header only)
    bn: list[str] | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)
    problems: list[_Problem] = field(default_factory=list)


def _positions(tok: Token, offsets: list[int]) -> list[Span]:
    """The positions of characters ``offsets`` of a token (its line and column
    plus the offset; counted across line ends when the token spans lines)."""
    text = str(tok)
    line, column = tok.line, tok.column
    if "\n" not in text:
        return [_span_at(line, column + o) for o in offsets]  # type: ignore[operator]
    out = []
    for o in offsets:
        nl = text.count("\n", 0, o)
        out.append(_span_at(line + nl, o - text.rfind("\n", 0, o)) if nl else _span_at(line, column + o))  # type: ignore[operator]
    return out


class _LinTransformer(Transformer):
    """Callbacks of lin.lark, run during the LALR parse (no tree is built).

    ``begin`` creates the record's ``_Parts``; each token callback gets
    ``[parts, token]`` (token line relative to the record, column absolute),
    reads the value(s) and returns the updated parts; ``record`` returns them.
    The instance itself holds no state, so one serves every parse.
    """

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        raise TypeError(f"lin.lark rule {data!r} has no Transformer callback")

    def begin(self, c: list[Any]) -> _Parts:
        return _Parts()

    def record(self, c: list[_Parts]) -> _Parts:
        return c[0]

    # --- the auction and the play: one run of pairs ------------------------------

    def moves(self, c: list[Any]) -> _Parts:
        """A run of ``mb an pc pg mc up nt`` pairs, in order (§3, §5, §6).

        * ``mb``: one call; ``!`` = alerted; odd spellings see :func:`_parse_calls`;
        * ``an``: explanation of the call just before it (a card in between
          ends that); two are joined;
        * ``pc``: one card in play order; a bad card is P406 and kept as ``None``;
        * ``pg``: page break, nothing to keep;
        * ``mc``: total tricks for declarer after a claim; the last one counts;
        * ``up``: undo (see :func:`_undo`);
        * ``nt``: commentary / chat (§2.3).

        The run is split on its pipes (values hold none): ``cmd, value, cmd,
        value...``, each command maybe after white space; the position of a
        pair is the token's plus the length of what comes before it.
        """
        p, tok = c
        text = str(tok)
        line, col = tok.line, tok.column
        multiline = "\n" in text
        calls, cards, card_spans = p.calls, p.cards, p.card_spans
        card_text, call_text, move_kind, spans, make_call = _CARD_TEXT, _CALL_TEXT, _MOVE_KIND, _SPANS, _make_call
        key0 = line * _WIDE + col if line < _WIDE and col < _WIDE // 2 and len(text) < _WIDE // 2 else -1
        last_call, claim_last = p.last_call, p.claim_last
        claimed = p.claim is not None  # a claim ends the play (Law 68): later cards are reported
        pairs = iter(text.split("|"))
        pos = 0
        for cmd, v in zip(pairs, pairs):  # a trailing "" (after the last pipe) pairs with nothing
            at = pos
            pos += len(cmd) + len(v) + 2
            kind = move_kind.get(cmd)
            if kind is None:  # white space between pairs (the lexer lets only these commands in)
                at += len(cmd) - 2
                kind = move_kind[cmd[-2:]]
            if kind == _PG:
                continue
            if multiline:
                span = _positions(tok, [at])[0]
                if "\n" in v:
                    v = v.replace("\n", "")
            elif key0 >= 0:
                span = spans.get(key0 + at)  # type: ignore[assignment]
                if span is None:
                    span = _span_at(line, col + at)
            else:
                span = Span(line, col + at)
            if kind == _PC:
                if claimed:  # Law 68: a claim ends the play; a card after it is reported, not played
                    p.after_claim.append(span)
                    claim_last = False
                    continue
                card = card_text.get(v)
                if card is None:
                    try:
                        card = Card.parse(v)
                    except ModelError:
                        p.problems.append(("P406", span, {"token": v}))
                cards.append(card)
                card_spans.append(span)
                last_call = -1
                claim_last = False
            elif kind == _MB:
                known = call_text.get(v)
                if known is not None:
                    calls.append(make_call(known[0], known[1], known[2], known[3], None, span))
                    last_call = len(calls) - 1
                else:
                    more, problems = _parse_calls(v, span)
                    if problems:
                        p.problems.extend(problems)
                    calls.extend(more)
                    last_call = len(calls) - 1 if more else -1
                claim_last = False
            elif kind == _AN:
                t = v.strip()
                if last_call >= 0 and t:
                    prev = calls[last_call]
                    if prev.annotation is not None:
                        t = f"{prev.annotation} {t}"
                    if type(prev.span) is Span and prev.note is None and not prev.nags and prev.irregular is None:
                        calls[last_call] = make_call(prev.kind, prev.level, prev.strain, prev.alert, t, prev.span)
                    else:
                        calls[last_call] = replace(prev, annotation=t)
            elif kind == _MC:
                tricks = _int(v)
                if tricks is not None and tricks <= 13:
                    p.claim, p.claim_span = tricks, span
                    claimed = claim_last = True
                else:
                    p.problems.append(_bad("mc", v.strip(), "not a number of tricks from 0 to 13", span))
            elif kind == _NT:
                p.commentary.append(v)
            else:  # _UP
                p.claim_last = claim_last
                _undo(p, v, span)
                last_call, claim_last = p.last_call, p.claim_last
                claimed = p.claim is not None
        p.last_call, p.claim_last = last_call, claim_last
        return p

    # --- the deal and the table ------------------------------------------------

    def deal(self, c: list[Any]) -> _Parts:
        """``md`` (§4); a second one is T102 and ignored."""
        p, tok = c
        span = _span(tok)
        if p.has_md:
            p.problems.append(("T102", span, {"tag": "md"}))
            return p
        dealer, deal, pbn, problems = _parse_md(_value(tok), span)
        if problems:
            p.problems.extend(problems)
        p.has_md, p.dealer, p.deal, p.deal_pbn, p.md_span = True, dealer, deal, pbn, span
        return p

    def vulnerability(self, c: list[Any]) -> _Parts:
        """``sv``: o/0, n, e, b (§3); a second one is T102 and ignored."""
        p, tok = c
        span = _span(tok)
        if p.has_sv:
            p.problems.append(("T102", span, {"tag": "sv"}))
            return p
        v = _value(tok)
        p.has_sv, p.sv_span = True, span
        p.vulnerable = _SV.get(v.strip().lower())
        if p.vulnerable is None:
            p.problems.append(_bad("sv", v, "not o, 0, n, e or b", span))
        return p

    def table(self, c: list[Any]) -> _Parts:
        """``qx``: o<n> / c<n>, maybe followed by text after a comma (§3)."""
        p, tok = c
        if p.has_qx:  # cannot happen: the reader starts a record at each qx
            return p
        span = _span(tok)
        v = _value(tok)
        p.has_qx, p.qx_span = True, span
        m = _QX.match(v)
        if m is None:
            p.problems.append(_bad("qx", v, "not o<n> or c<n>", span))
            return p
        p.room = "Open" if m.group(1) in "oO" else "Closed"
        p.qx_number = _int(m.group(2))
        if p.qx_number is None and m.group(2):
            p.problems.append(_bad("qx", v, "board number too long", span))
        return p

    def players(self, c: list[Any]) -> _Parts:
        """``pn``: names S,W,N,E (8 in a vugraph table or header: open then
        closed room; longer header lists by block); the first ``pn`` wins (§3)."""
        p, tok = c
        span = _span(tok)
        names = _names(_value(tok), span, "pn", p.problems)
        if p.names_kind != "pn":
            p.names, p.names_span, p.names_kind = names, span, "pn"
        return p

    def player_list(self, c: list[Any]) -> _Parts:
        """``pw``: players list, 4 per table; used only when there is no ``pn`` (§3)."""
        p, tok = c
        span = _span(tok)
        names = _names(_value(tok), span, "pw", p.problems)
        if p.names_kind is None:
            p.names, p.names_span, p.names_kind = names, span, "pw"
        return p

    def heading(self, c: list[Any]) -> _Parts:
        """``ah``: the title, usually ``Board <n>`` (§3)."""
        p, tok = c
        if p.ah_span is None:
            v = _value(tok).strip()
            m = _AH_BOARD.search(v)
            p.ah_number = _int(m.group(1) if m else v)
            p.ah_span = _span(tok)
        return p

    def display(self, c: list[Any]) -> _Parts:
        """``st``, ``rh``, ``sk``, ``pf``: display commands of the viewer, nothing to keep (§3)."""
        return c[0]

    # --- header pairs (read by _read_header) -----------------------------------

    def vugraph(self, c: list[Any]) -> _Parts:
        """``vg``: 9 fields (§7); the first one counts."""
        p, tok = c
        if p.vg is None:
            p.vg, p.vg_span = _value(tok).split(","), _span(tok)
        return p

    def results(self, c: list[Any]) -> _Parts:
        """``rs``: two results per board, open then closed room (§7); the
        position of each entry is kept for C506."""
        p, tok = c
        if p.rs is None:
            text = str(tok)
            offsets = [3]
            for i, ch in enumerate(text):
                if ch == "," and i >= 3:
                    offsets.append(i + 1)
            p.rs = _value(tok).split(",")
            p.rs_spans = _positions(tok, offsets)
        return p

    def board_numbers(self, c: list[Any]) -> _Parts:
        """``bn``: the board numbers of the records, in order (§3)."""
        p, tok = c
        if p.bn is None:
            v = _value(tok)
            p.bn = v.split(",")
            bad = [n for n in p.bn if n.strip() and _int(n) is None]
            if bad:
                p.problems.append(_bad("bn", v, f"{bad[0].strip()!r} is not a board number", _span(tok)))
        return p

    def scores(self, c: list[Any]) -> _Parts:
        """``mp``: scores, two per board (§3; their meaning depends on the
        event, so they are checked but not kept)."""
        p, tok = c
        v = _value(tok)
        bad = [s for s in v.split(",") if s.strip() and not _MP.fullmatch(s.strip())]
        if bad:
            p.problems.append(_bad("mp", v, f"{bad[0].strip()!r} is not a number", _span(tok)))
        return p

    # --- anything else -----------------------------------------------------------

    def unknown(self, c: list[Any]) -> _Parts:
        """Another command: kept as (command, value) with an F007 note (lin.md §3 rule)."""
        p, tok = c
        cmd = tok[:2]
        p.extra.append((cmd, _value(tok)))
        p.problems.append(("F007", _span(tok), {"command": cmd}))
        return p

    def stray_pipe(self, c: list[Any]) -> _Parts:
        """A doubled or trailing ``|`` (one token per run, see :func:`_tokens`): F011."""
        p, tok = c
        p.problems.append(("F011", _span(tok), {"token": str(tok)}))
        return p

    def junk(self, c: list[Any]) -> _Parts:
        """Text that is no pair (one token per run, see :func:`_tokens`): F003."""
        p, tok = c
        text = " ".join(str(tok).split())
        if len(text) > 40:
            text = text[:37] + "..."
        p.problems.append(("F003", _span(tok), {"detail": f"{text!r} is not a cmd|value| pair"}))
        return p


def _undo(p: _Parts, value: str, span: Span) -> None:
    """``up|n|``: take back the last ``n`` actions (1 when empty): the claim
    when it was the last action, else cards, else calls (lin.md §3, BBO
    undo).  Noted with F012; a value that is not a count, or more than was
    done, is T101."""
    t = value.strip()
    n = 1 if not t else _int(t)
    if n is None:
        p.problems.append(_bad("up", value, "not a number of actions to take back", span))
        return
    taken: list[str] = []
    for _ in range(n):
        if p.claim_last and p.claim is not None:
            taken.append(f"the claim of {p.claim}")
            p.claim, p.claim_span, p.claim_last = None, None, False
        elif p.cards:
            card = p.cards.pop()
            p.card_spans.pop()
            taken.append("-" if card is None else str(card))
        elif p.calls:
            taken.append(str(p.calls.pop()))
        else:
            break
    p.last_call = -1
    if taken:
        p.problems.append(("F012", span, {"command": f"up|{value}|", "what": " ".join(reversed(taken))}))
    if len(taken) < n:
        p.problems.append(_bad("up", value, f"only {len(taken)} action(s) to take back", span))


def _parse_tokens(tokens: list[Token], first_line: int) -> _Parts:
    """Run the LALR parse over one record's tokens, lines made relative to ``first_line``."""
    if first_line != 1:
        shift = first_line - 1
        for t in tokens:
            t.line -= shift
    try:
        p: _Parts = _parser()(tokens)
    except UnexpectedInput as e:  # pragma: no cover - the grammar accepts every token sequence
        p = _Parts()
        p.problems.append(("F003", Span(getattr(e, "line", 1), getattr(e, "column", 0)), {"detail": str(e)}))
    last = tokens[-1]
    if last.count("|") & 1 and last.type not in ("JUNK", "PIPE"):  # only the input's last pair can be cut short
        text = str(last).strip()
        start = text.rfind("|") - 2  # the last pair's command
        p.problems.append(
            ("F003", _positions(last, [start])[0], {"detail": f"pair {text[start:][:40]!r} has no closing '|'"})
        )
    return p
