"""LIN reader: ``cmd|value|`` pairs to typed :class:`~handrec.model.Board` records.

Implements shared/specs/lin.md §1-§10 (BBO hand records, one-record-per-line
session files, vugraph match files, hand-viewer URLs).

Pipeline, one pass, streaming:

1. **Lines to tokens** (:func:`_tokens`).  Each decoded line is lexed by the
   lexer-only instance of ``grammars/lin.lark``.  A run of auction and play
   pairs (``mb an pc pg mc up nt``) is ONE ``MOVES`` token; every other
   command is one token (``MD``, ``QX``... or the generic ``PAIR``); text
   that is no pair is ``JUNK``, a stray ``|`` is ``PIPE``.  A pair whose
   value runs over a line end (damaged files, §1) is carried over and
   re-lexed together with the next line, so the value is joined.
   Hand-viewer URLs and ``hv_popuplin('...')`` carriers are decoded first
   (§2.4).  Token positions are made absolute (file line, column, character
   offset).
2. **Framing** (:func:`parse_lin`), in Python on the token types (§8): pairs
   before the first ``qx`` are the header; each ``qx`` starts a record;
   without ``qx`` each ``md`` starts a record; a ``vg`` after records starts
   a new segment (a second match in the same file) with its own header.  The
   ``pn``/``pw``/``st`` pairs written just before the ``md`` (or before a
   ``qx`` that follows a record) belong to the new record.  Only the current
   record's tokens are buffered.  Reading one part of a big file (``part``),
   the framing still runs from the file's start (headers included), and only
   the records that start in the part go on to steps 3 and 4.
3. **Record parse**: the record's tokens go to the LALR instance of the same
   grammar (pass-through lexer, Transformer given to the constructor, so no
   tree is built).  One reduction per token: its callback turns the value(s)
   into model values (Call, Card, Deal...) and adds them to the record's
   ``_Parts``; the ``MOVES`` callback splits its run with a compiled regex
   and gives every call and card the position of its own pair.
4. **Board**: ``_Parts`` + header (players by room, ``vg`` tags, ``rs``
   results, ``bn`` numbers) + :class:`~handrec.model.Origin` give the Board
   with its PBN-equivalent tags (§9) and diagnostics.  A record's ``rs``
   entry is checked against what its own auction and play give (C506).

Every command of lin.md §3 is typed: ``pn`` (4 names, 8 in a vugraph table
or header, longer header lists by block), ``md``, ``sv``, ``ah``, ``mb``
(``!`` alert, ``an`` explanation), ``pc``, ``mc``, ``up`` (undo), ``nt``,
``qx``, and the header's ``vg``, ``rs``, ``pw``, ``bn``, ``mp``; ``pg``,
``st``, ``rh``, ``sk`` and ``pf`` are display commands with nothing to keep.
Any other command is kept on the board as a raw ``(command, value)`` pair in
:attr:`Board.extra <handrec.model.Board.extra>` and noted with F007, a
*strict* code (``handrec validate`` shows it only under ``--strict``).  A
command in the header of a vugraph file that the reader does not know goes
to the segment's first record.

Nothing here raises on bad input: faults become diagnostics (F003 syntax,
F011 stray pipe, T101 bad value, T102 repeated pair, T105 odd spelling, A306
bad call, P406 bad card, C506 ``rs`` disagreeing with the table; F012 notes
an undo) and every framed record is yielded.

Positions: ``Origin.line`` is the file line of the record's first pair,
``Origin.offset`` its character offset (each line end counts as one
character); a ``Span`` line counts from the record's first line and its
column is the column of the pair's command in the file line.  For LIN
decoded out of a URL, columns and offsets count characters of the decoded
text, starting at the column where the encoded LIN starts.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import accumulate
from typing import Any
from urllib.parse import unquote

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from handrec._resources import grammar_text
from handrec.diagnostics import Diagnostic, make
from handrec.formats._lark import feeder
from handrec.model import (
    ALL_CARDS,
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    ModelError,
    Origin,
    Play,
    Seat,
    Span,
    Strain,
    Tag,
    Vulnerability,
    trick_winner,
)

__all__ = ["parse_lin", "parse_lin_text", "rs_text"]

# ---------------------------------------------------------------------------
# Parsers (built once per process)
# ---------------------------------------------------------------------------


class _TokenListLexer(Lexer):
    """Pass-through lexer: the "text" given to ``parse`` is a list of tokens."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: list[Token]) -> Iterator[Token]:  # type: ignore[override]
        return iter(data)


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
        self.ignore = frozenset(lark.ignore_tokens)

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
    return _Scanner(_lexer())


@functools.cache
def _lalr() -> Lark:
    """The LALR instance: ``.parse(tokens_of_one_record)`` returns a ``_Parts``."""
    return Lark(
        grammar_text("lin"),
        parser="lalr",
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


# ---------------------------------------------------------------------------
# LIN spellings (lin.md §3-§7)
# ---------------------------------------------------------------------------

#: LIN lists hands and numbers dealers in the order South, West, North, East (§4).
_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_SUIT_BASE = {"C": 0, "D": 13, "H": 26, "S": 39}  # index of the suit's 2 in ALL_CARDS
_RANK_OFFSET = {ch: i for i, ch in enumerate("23456789TJQKA")}
_SV = {
    "o": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "n": Vulnerability.NS,
    "e": Vulnerability.EW,
    "b": Vulnerability.BOTH,
}
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}
_QX = re.compile(r"\s*([oc])\s*([0-9]*)", re.IGNORECASE)
_AH_BOARD = re.compile(r"board\s*([0-9]+)", re.IGNORECASE)
_RS = re.compile(r"([1-7])(NT|[CDHSN])([NESW])(XX|X)?(=|[+-][0-9]{1,2})", re.IGNORECASE)
_MP = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_PBN_PLAYER_ORDER = ((1, "West"), (2, "North"), (3, "East"), (0, "South"))  # index in S,W,N,E
#: Pairs written just before ``md`` (no ``qx``) or ``qx`` that belong to the new record (§8.2).
_LEAD_IN = frozenset({"PN", "PW", "ST"})

#: One pair inside a MOVES run: command, value (the closing pipe follows, or the text ends).
_MOVE_PAIR = re.compile(r"([A-Za-z]{2})\|([^|]*)")
_PC, _MB, _AN, _PG, _MC, _UP, _NT = range(7)
#: MOVES commands in every case spelling -> kind.
_MOVE_KIND = {
    a + b: kind
    for kind, cmd in enumerate(("pc", "mb", "an", "pg", "mc", "up", "nt"))
    for a in (cmd[0], cmd[0].upper())
    for b in (cmd[1], cmd[1].upper())
}

#: ``pc`` values in every spelling seen (case, ``10`` for ``T``) -> the shared Card.
_CARD_TEXT: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _s in {str(_card.suit), str(_card.suit).lower()}:
        for _r in {str(_card.rank), str(_card.rank).lower()} | ({"10"} if _card.rank == 10 else set()):
            _CARD_TEXT[_s + _r] = _card


def _call_spellings() -> dict[str, tuple[CallKind, int | None, Strain | None, bool]]:
    """``mb`` values in the usual spellings (any case, ``!`` alert) -> (kind, level, strain, alert)."""
    base: dict[str, tuple[CallKind, int | None, Strain | None]] = {
        "p": (CallKind.PASS, None, None),
        "d": (CallKind.DOUBLE, None, None),
        "r": (CallKind.REDOUBLE, None, None),
    }
    for level in range(1, 8):
        for letter, strain in zip("cdhsn", Strain, strict=True):
            base[f"{level}{letter}"] = (CallKind.BID, level, strain)
    out = {}
    for text, (kind, level, strain) in base.items():
        for spelling in {text, text.upper()}:
            out[spelling] = (kind, level, strain, False)
            out[spelling + "!"] = (kind, level, strain, True)
    return out


_CALL_TEXT = _call_spellings()


def _call_factory() -> Any:
    """``make(kind, level, strain, alert, annotation, span)``: a :class:`Call`
    built without the dataclass ``__init__`` (a third of the time; a record
    has a dozen calls).  It sets every slot of ``Call``; should ``Call`` ever
    gain a field or a ``__post_init__``, the plain constructor is used."""
    names = tuple(f.name for f in dataclasses.fields(Call))
    expected = ("kind", "level", "strain", "alert", "annotation", "note", "nags", "span", "irregular")
    if names != expected or hasattr(Call, "__post_init__"):  # pragma: no cover - model changed

        def plain(kind: Any, level: Any, strain: Any, alert: bool, annotation: str | None, span: Span) -> Call:
            return Call(kind, level, strain, alert, annotation, span=span)

        return plain
    new = object.__new__
    s_kind, s_level, s_strain, s_alert, s_annotation, s_note, s_nags, s_span, s_irregular = (
        getattr(Call, n).__set__ for n in names
    )

    def make(kind: Any, level: Any, strain: Any, alert: bool, annotation: str | None, span: Span) -> Call:
        call = new(Call)
        s_kind(call, kind)
        s_level(call, level)
        s_strain(call, strain)
        s_alert(call, alert)
        s_annotation(call, annotation)
        s_note(call, None)
        s_nags(call, ())
        s_span(call, span)
        s_irregular(call, None)
        return call

    return make


_make_call = _call_factory()

#: A fault found in a pair: (code, span, message arguments); made a Diagnostic once the Origin is known.
_Problem = tuple[str, Span | None, dict[str, object]]

#: Shared Span objects by position (line * _WIDE + column): a record has ~70 of them.
_SPANS: dict[int, Span] = {}
_WIDE = 1 << 24


def _span_at(line: int, column: int) -> Span:
    if column < _WIDE and 0 < line < _WIDE:
        key = line * _WIDE + column
        s = _SPANS.get(key)
        if s is None:
            if len(_SPANS) >= 200_000:
                _SPANS.clear()
            s = _SPANS[key] = Span(line, column)
        return s
    return Span(line, column)


def _span(tok: Token) -> Span:
    return _span_at(tok.line, tok.column)  # type: ignore[arg-type]


def _int(text: str) -> int | None:
    """``text`` as a small non-negative integer (ASCII digits, at most 9), else ``None``."""
    t = text.strip()
    return int(t) if 0 < len(t) <= 9 and t.isascii() and t.isdigit() else None


def _value(tok: str) -> str:
    """The value of a one-pair token, closing pipe and line breaks removed (§1)."""
    v = tok[3:-1] if tok[-1] == "|" else tok[3:]
    if "\n" in v:
        v = v.replace("\n", "")
    return v


def _bad(tag: str, value: str, reason: str, span: Span | None) -> _Problem:
    return ("T101", span, {"tag": tag, "value": value, "reason": reason})


def _names(value: str, span: Span, cmd: str, problems: list[_Problem]) -> list[str]:
    """A ``pn``/``pw`` list: names in blocks of 4 (S, W, N, E); a trailing
    comma is tolerated; any other count is T101 (the names are still used)."""
    names = [n.strip() for n in value.split(",")]
    while len(names) % 4 and len(names) > 1 and names[-1] == "":
        names.pop()
    if len(names) % 4:
        problems.append(_bad(cmd, value, f"{len(names)} names, not 4 or 8 (S, W, N, E per table)", span))
    return names


#: ``md`` characters: a suit letter -> 100 + index of its 2 in ALL_CARDS; a rank -> its offset (2 = 0).
_MD_CODE: dict[str, int] = {}
for _ch, _base in _SUIT_BASE.items():
    _MD_CODE[_ch] = _MD_CODE[_ch.lower()] = 100 + _base
for _ch, _off in _RANK_OFFSET.items():
    _MD_CODE[_ch] = _MD_CODE[_ch.lower()] = _off
_RANK_CHARS = "23456789TJQKA"


def _parse_hand(text: str, seat: Seat, span: Span, problems: list[_Problem]) -> list[int]:
    """One ``md`` hand: suit letters each followed by ranks, any order and case (§4).

    Returns the distinct card indices (:data:`ALL_CARDS` order) high first,
    the order :class:`Hand` keeps; a bad character or a repeated card is T101.
    """
    found: list[int] = []
    base = -1
    t = text.replace("10", "T") if "10" in text else text
    bad = ""
    code = _MD_CODE
    for ch in t:
        k = code.get(ch)
        if k is None or (k < 100 and base < 0):
            if not ch.isspace():
                bad += ch.upper()
        elif k >= 100:
            base = k - 100
        else:
            found.append(base + k)
    if bad:
        problems.append(_bad("md", text, f"unexpected {bad!r} in {seat.name.lower()}'s hand", span))
    unique = sorted(set(found), reverse=True)
    if len(unique) != len(found):
        repeated = " ".join(str(ALL_CARDS[i]) for i in unique if found.count(i) > 1)
        problems.append(_bad("md", text, f"{repeated} repeated in {seat.name.lower()}'s hand", span))
    return unique


#: An ``md`` hand written the usual way: the four suit letters in order S H D C, upper case,
#: each followed by its ranks (maybe none).
_MD_HAND = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)")
#: Per suit (S, H, D, C): ranks text -> (card indices high first, PBN ranks, cards), for the
#: texts already read.
_MD_RUNS: tuple[dict[str, tuple[tuple[int, ...], str, tuple[Card, ...]]], ...] = ({}, {}, {}, {})


def _md_run(k: int, ranks: str) -> tuple[tuple[int, ...], str, tuple[Card, ...]] | None:
    """The cards of ``ranks`` in suit ``k`` (0 = spades .. 3 = clubs), or None for a
    repeated rank; remembered in :data:`_MD_RUNS`."""
    base = 39 - 13 * k
    idx = sorted({base + _RANK_OFFSET[ch] for ch in ranks}, reverse=True)
    if len(idx) != len(ranks):
        return None
    run = (tuple(idx), "".join(_RANK_CHARS[i - base] for i in idx), tuple(ALL_CARDS[i] for i in idx))
    runs = _MD_RUNS[k]
    if len(runs) >= 20_000:
        runs.clear()
    runs[ranks] = run
    return run


def _fast_md_hand(text: str) -> tuple[list[int], str, tuple[Card, ...]] | None:
    """An ``md`` hand in the usual form (:data:`_MD_HAND`, no repeated card) to its card
    indices high first (as :func:`_parse_hand`), its PBN text and its cards; None for any
    other form (then :func:`_parse_hand` reads it and reports what is wrong)."""
    m = _MD_HAND.fullmatch(text)
    if m is None:
        return None
    runs = []
    for k, ranks in enumerate(m.groups()):
        run = _MD_RUNS[k].get(ranks) or _md_run(k, ranks)
        if run is None:
            return None
        runs.append(run)
    a, b, c, d = runs
    return list(a[0] + b[0] + c[0] + d[0]), f"{a[1]}.{b[1]}.{c[1]}.{d[1]}", a[2] + b[2] + c[2] + d[2]


def _hand_factory() -> Any:
    """``make(cards)``: a :class:`Hand` from cards already in hand order
    (spades first, high to low), without re-sorting them in ``__post_init__``.
    Should ``Hand`` ever gain a field, the plain constructor is used."""
    if tuple(f.name for f in dataclasses.fields(Hand)) != ("cards",):  # pragma: no cover - model changed
        return Hand
    new, set_cards = object.__new__, Hand.cards.__set__  # type: ignore[attr-defined]

    def make(cards: tuple[Card, ...]) -> Hand:
        hand = new(Hand)
        set_cards(hand, cards)
        return hand

    return make


_make_hand = _hand_factory()


def _pbn_hand(idx: list[int]) -> str:
    """PBN hand notation (spades.hearts.diamonds.clubs) of card indices, high first."""
    suits = ["", "", "", ""]
    for i in idx:
        suits[3 - i // 13] += _RANK_CHARS[i % 13]
    return ".".join(suits)


def _parse_md(value: str, span: Span) -> tuple[Seat | None, Deal | None, list[str] | None, tuple[_Problem, ...]]:
    """``md`` value: ``[dealer digit] S,W,N[,[E]]`` (§4) to (dealer, deal,
    PBN text of each hand by seat (``-`` when not given), problems); no deal
    (``None``, ``None``) when no hand at all is given.

    Dealer digit 1 = S, 2 = W, 3 = N, 4 = E.  An empty hand is "not given"
    (``None``).  East, when missing, is derived as the 13 remaining cards only
    if South, West and North are complete and disjoint.
    """
    problems: list[_Problem] = []
    v = value.strip()
    dealer: Seat | None = None
    if v[:1].isdigit():
        if v[0] in "1234":
            dealer = _LIN_SEATS[int(v[0]) - 1]
        else:
            problems.append(_bad("md", value, f"dealer digit {v[0]!r} is not 1-4", span))
        v = v[1:]
    texts = v.split(",")
    if len(texts) > 4:
        if any(t.strip() for t in texts[4:]):
            problems.append(_bad("md", value, f"{len(texts)} hands, not 4", span))
        texts = texts[:4]
    found: list[list[int] | None] = [None, None, None, None]  # LIN order S, W, N, E
    known: list[tuple[list[int], str, tuple[Card, ...]] | None] = [None, None, None, None]
    for i, text in enumerate(texts):
        if text and not text.isspace():
            fast = known[i] = _fast_md_hand(text)
            found[i] = fast[0] if fast is not None else _parse_hand(text, _LIN_SEATS[i], span, problems)
    if found[3] is None:
        s, w, n = found[0], found[1], found[2]
        if s is not None and w is not None and n is not None and len(s) == len(w) == len(n) == 13:
            held = set(s).union(w, n)
            if len(held) == 39:
                found[3] = [i for i in range(51, -1, -1) if i not in held]
    if found == [None, None, None, None]:
        return dealer, None, None, tuple(problems)  # only a dealer digit: no deal given
    by_seat: list[Hand | None] = [None, None, None, None]
    pbn = ["-", "-", "-", "-"]
    cards = ALL_CARDS
    for seat, idx, fast in zip(_LIN_SEATS, found, known, strict=True):
        if fast is not None:
            by_seat[seat] = _make_hand(fast[2])
            pbn[seat] = fast[1]
        elif idx is not None:
            by_seat[seat] = _make_hand(tuple([cards[i] for i in idx]))
            pbn[seat] = _pbn_hand(idx)
    return dealer, Deal(tuple(by_seat)), pbn, tuple(problems)  # type: ignore[arg-type]


def _parse_calls(value: str, span: Span) -> tuple[list[Call], tuple[_Problem, ...]]:
    """An unusual ``mb`` value (§5): ``-`` = pass and ``1C-P-1H`` packed calls
    are read with a T105 warning; other spellings ``Call.parse`` reads; a bad
    call is A306.  (The usual spellings never get here: see ``_CALL_TEXT``.)"""
    v = value.strip()
    problems: list[_Problem] = []
    if v == "-":
        problems.append(("T105", span, {"tag": "mb", "value": value, "read": "Pass"}))
        return [Call(CallKind.PASS, span=span)], tuple(problems)
    pieces = [v]
    if "-" in v:
        pieces = [p for p in v.split("-") if p.strip()]
    calls: list[Call] = []
    for piece in pieces:
        text = piece.strip()
        alert = text.endswith("!")
        if alert:
            text = text.rstrip("!").rstrip()
        try:
            calls.append(Call.parse(text, alert=alert, span=span) if alert else Call.parse(text, span=span))
        except ModelError:
            problems.append(("A306", span, {"token": piece if len(pieces) > 1 else value}))
    if len(pieces) > 1 and calls:
        problems.append(("T105", span, {"tag": "mb", "value": value, "read": " ".join(map(str, calls))}))
    return calls, tuple(problems)


# ---------------------------------------------------------------------------
# The Transformer: one callback per kind of token, and the record
# ---------------------------------------------------------------------------


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


#: A MOVES run of the usual kind: only ``mb``, ``pc`` and ``pg`` pairs, lower case, each
#: closed by its pipe, nothing between them (:func:`_plain_moves` reads it).
_PLAIN_MOVES = re.compile(r"(?:(?:mb|pc|pg)\|[^|\s]*\|)+")


def _plain_moves(p: _Parts, text: str, line: int, col: int) -> bool:
    """Add a plain MOVES run (see :data:`_PLAIN_MOVES`) to ``p`` as the general loop of
    ``_LinTransformer.moves`` would, a list at a time; False (``p`` untouched) when a
    call or card is not in its usual spelling, which the general loop then reads.
    The caller has checked that no claim came before (cards after a claim are faults)."""
    parts = text.split("|")  # cmd, value, cmd, value, ..., "" (after the last pipe)
    cmds = parts[0:-1:2]
    vals = parts[1::2]
    card_text, call_text = _CARD_TEXT, _CALL_TEXT
    pc = [i for i, cmd in enumerate(cmds) if cmd == "pc"]
    mb = [i for i, cmd in enumerate(cmds) if cmd == "mb"]
    new_cards = [card_text.get(vals[i]) for i in pc]
    if not all(new_cards):  # (not "None in": that calls Card.__eq__ on every card)
        return False
    known = [call_text.get(vals[i]) for i in mb]
    if not all(known):
        return False
    starts = list(accumulate(map(len, parts[:-1]), initial=0))  # the start of each part, less its pipes
    get, key0, span_at = _SPANS.get, line * _WIDE + col, _span_at
    # pair i starts at starts[2i] plus the 2i pipes before it
    if pc:
        p.cards.extend(new_cards)
        ats = [starts[2 * i] + 2 * i for i in pc]
        p.card_spans.extend([get(key0 + at) or span_at(line, col + at) for at in ats])
    if mb:
        make_call = _make_call
        ats = [starts[2 * i] + 2 * i for i in mb]
        spans = [get(key0 + at) or span_at(line, col + at) for at in ats]
        p.calls.extend([make_call(k[0], k[1], k[2], k[3], None, sp) for k, sp in zip(known, spans)])
    if pc or mb:
        p.last_call = len(p.calls) - 1 if mb and (not pc or mb[-1] > pc[-1]) else -1
        p.claim_last = False
    return True


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
        if p.claim is None and line < _WIDE and col < _WIDE // 2 and len(text) < _WIDE // 2:
            if _PLAIN_MOVES.fullmatch(text) is not None and _plain_moves(p, text, line, col):
                return p
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
            if len(cmd) != 2:  # white space between pairs
                at += len(cmd) - 2
                cmd = cmd[-2:]
            kind = move_kind[cmd]
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


# ---------------------------------------------------------------------------
# Header (lin.md §2.3, §7) and Board building (§8, §9)
# ---------------------------------------------------------------------------

#: A parsed ``rs`` entry: (contract with declarer, tricks taken by declarer or None).
_RsResult = tuple[Contract, int | None]


@dataclass(slots=True)
class _Header:
    """File-level values that records inherit: ``vg``, ``rs``, ``pn``/``pw``, ``bn``."""

    event: str | None = None
    stage: str | None = None
    scoring: str | None = None
    home: str | None = None
    visit: str | None = None
    first_board: int | None = None
    results: list[_RsResult | None] = field(default_factory=list)
    result_texts: list[str] = field(default_factory=list)
    result_spans: list[Span] = field(default_factory=list)  # absolute file positions
    names: list[str] | None = None
    boards: list[str] = field(default_factory=list)
    extra: list[tuple[str, str]] = field(default_factory=list)  # unknown commands, for the first record


def _parse_rs(entry: str) -> _RsResult | str | None:
    """One ``rs`` entry (§7): ``4HE=``, ``3NW+1``, ``4SWx-4``, ``PASS`` or empty.

    Returns ``None`` for an empty entry, the result, or a reason string when
    the entry cannot be read.

    >>> _parse_rs("4SWx-4")
    (Contract.parse('4SX', declarer=Seat.WEST), 6)
    """
    t = entry.strip()
    if not t:
        return None
    if t.upper() in ("PASS", "P"):
        return (Contract.passed_out(), None)
    m = _RS.fullmatch(t)
    if m is None:
        return "not <level><strain><declarer>[x|xx](=|+n|-n) or PASS"
    level = int(m.group(1))
    x = (m.group(4) or "").upper()
    doubling = Doubling.REDOUBLED if x == "XX" else Doubling.DOUBLED if x == "X" else Doubling.UNDOUBLED
    outcome = m.group(5)
    tricks = level + 6 + (0 if outcome == "=" else int(outcome))
    if not 0 <= tricks <= 13:
        return f"{tricks} tricks is not 0 to 13"
    declarer = Seat.parse(m.group(3))
    return (Contract(level, Strain.parse(m.group(2)), doubling, declarer), tricks)


def rs_text(contract: Contract | None, tricks: int | None) -> str:
    """A table's result as an ``rs`` entry (lin.md §7), the inverse of reading one.

    ``PASS`` for a passed-out deal; ``""`` when the contract (with its
    declarer) is unknown or an end position; without ``tricks`` only the
    contract part (not a complete entry).

    >>> rs_text(Contract.parse("4SX", Seat.WEST), 6), rs_text(Contract.parse("3NT", Seat.NORTH), 10)
    ('4SWx-4', '3NN+1')
    """
    if contract is None:
        return ""
    if contract.is_passed_out:
        return "PASS"
    if contract.level == 0 or contract.strain is None or contract.declarer is None:
        return ""
    strain = "N" if contract.strain is Strain.NOTRUMP else str(contract.strain)
    text = f"{contract.level}{strain}{contract.declarer}{str(contract.doubling).lower()}"
    if tricks is None:
        return text
    over = tricks - contract.level - 6
    return text + ("=" if over == 0 else f"{over:+d}")


def _read_header(p: _Parts, path: str, file_diagnostics: list[Diagnostic]) -> _Header:
    """Header values from the pairs before the first record; bad ``vg`` and
    ``rs`` values go to ``file_diagnostics`` (T101, file positions)."""
    h = _Header(names=p.names, boards=p.bn or [], extra=list(p.extra))
    if p.calls or p.cards or p.claim is not None or p.vulnerable is not None or p.deal is not None:
        # lin.md §8: pairs before the first qx are the header; record pairs there belong to no board
        spans = [c.span for c in p.calls if c.span is not None] + [x for x in p.card_spans if x is not None]
        if p.sv_span is not None:
            spans.append(p.sv_span)
        first = min(spans, key=lambda x: (x.line, x.column)) if spans else None
        file_diagnostics.append(
            make(
                "F003",
                None,
                first,
                path=path,
                detail="record pairs (sv, mb, pc, mc) before the first qx belong to no board and are not read",
            )
        )
    if p.vg is not None:
        f = [x.strip() for x in p.vg]
        if len(f) != 9:
            file_diagnostics.append(
                make(
                    "T101", None, p.vg_span, path=path, tag="vg", value=",".join(p.vg), reason=f"{len(f)} fields, not 9"
                )
            )
        f += [""] * (9 - len(f))
        h.event, h.stage, h.home, h.visit = f[0], f[1], f[5], f[7]
        if f[2]:
            h.scoring = _SCORING.get(f[2].upper())
            if h.scoring is None:
                file_diagnostics.append(
                    make("T101", None, p.vg_span, path=path, tag="vg", value=f[2], reason="scoring is not I, P or B")
                )
        h.first_board = _int(f[3])
    if p.rs is not None:
        h.result_texts = [e.strip() for e in p.rs]
        h.result_spans = p.rs_spans or []
        for i, entry in enumerate(p.rs):
            r = _parse_rs(entry)
            if isinstance(r, str):
                span = h.result_spans[i] if i < len(h.result_spans) else None
                file_diagnostics.append(make("T101", None, span, path=path, tag="rs", value=entry, reason=r))
                r = None
            h.results.append(r)
    return h


def _select_names(names: list[str], room: str | None, block: int | None) -> list[str]:
    """The S,W,N,E names of one table from a ``pn``/``pw`` list (§2.3, §8.3).

    Up to 8 names: open room (or no room) the first 4, closed room names 5-8.
    Longer header lists (players changing, ``pw`` with 4 names per board) are
    taken by block: the record's ordinal in the file selects names
    ``4*block .. 4*block+3`` when the list is that long.
    """
    if block is not None and len(names) > 8 and len(names) >= 4 * block + 4:
        return names[4 * block : 4 * block + 4]
    if room == "Closed" and len(names) >= 8:
        return names[4:8]
    return names[:4]


def _board(p: _Parts, h: _Header, origin: Origin) -> Board:
    """Combine one record's parts with the header into a Board (§8, §9)."""
    problems = p.problems
    if p.after_claim:
        problems.append(("P404", p.after_claim[0], {"count": len(p.after_claim)}))
    index = origin.index

    number = p.qx_number
    number_span = p.qx_span
    if number is None and p.ah_number is not None:
        number, number_span = p.ah_number, p.ah_span
    if number is None and index < len(h.boards):
        number, number_span = _int(h.boards[index]), None

    names: list[str] | None = None
    names_span: Span | None = None
    if p.names is not None:
        names, names_span = _select_names(p.names, p.room, None), p.names_span
    elif h.names is not None:
        names = _select_names(h.names, p.room, index)

    rs: _RsResult | None = None
    rs_index = -1
    if number is not None and h.results:
        first = h.first_board if h.first_board is not None else 1
        rs_index = 2 * (number - first) + (1 if p.room == "Closed" else 0)
        if 0 <= rs_index < len(h.results):
            rs = h.results[rs_index]
    contract: Contract | None = None
    result: int | None = None
    rs_span: Span | None = None  # the rs entry's position, block-relative (the header may come before)
    result_span: Span | None = None
    if rs is not None:
        contract, result = rs
        if rs_index < len(h.result_spans):
            at = h.result_spans[rs_index]
            rs_span = result_span = _span_at(at.line - origin.line + 1, at.column)
    elif p.claim is not None:
        result, result_span = p.claim, p.claim_span  # lin.md §9: mc -> Result

    tags: list[Tag] = []
    if h.event is not None:
        tags.append(Tag("Event", h.event))
    if number is not None:
        tags.append(Tag("Board", str(number), number_span))
    if names is not None:
        for i, tag in _PBN_PLAYER_ORDER:
            if i < len(names):
                tags.append(Tag(tag, names[i], names_span))
    if p.dealer is not None:
        tags.append(Tag("Dealer", str(p.dealer), p.md_span))
    if p.vulnerable is not None:
        tags.append(Tag("Vulnerable", str(p.vulnerable), p.sv_span))
    if p.deal_pbn is not None:
        first = p.dealer or Seat.NORTH
        hands = p.deal_pbn
        deal_text = f"{first}:{hands[first]} {hands[(first + 1) % 4]} {hands[(first + 2) % 4]} {hands[(first + 3) % 4]}"
        tags.append(Tag("Deal", deal_text, p.md_span))
    if h.scoring is not None:
        tags.append(Tag("Scoring", h.scoring))
    if contract is not None:
        if contract.declarer is not None:
            tags.append(Tag("Declarer", str(contract.declarer), rs_span))
        tags.append(Tag("Contract", str(contract), rs_span))
    if result is not None:
        tags.append(Tag("Result", str(result), result_span))
    if p.room is not None:
        tags.append(Tag("Room", p.room, p.qx_span))
    if h.stage is not None:
        tags.append(Tag("Stage", h.stage))
    if h.home is not None:
        tags.append(Tag("HomeTeam", h.home))
    if h.visit is not None:
        tags.append(Tag("VisitTeam", h.visit))

    auction: Auction | None = None
    if p.calls:
        first_span = p.calls[0].span
        # the dealer digit of md starts the auction; without it, the board number's dealer (Law 2)
        dealer = p.dealer if p.dealer is not None else Seat((number - 1) % 4) if number is not None else None
        if dealer is None:
            problems.append(
                _bad("mb", str(p.calls[0]), "calls but no dealer (no md dealer digit, no board number)", first_span)
            )
        else:
            auction = Auction(dealer, tuple(p.calls), span=first_span)

    play: Play | None = None
    if p.cards or p.claim is not None:
        play = Play(None, tuple(p.cards), p.claim, None, tuple(p.card_spans), claim_span=p.claim_span)

    extra = p.extra
    if h.extra:  # unknown commands of the header go to the segment's first record
        extra = h.extra + extra
        h.extra = []

    board = Board(
        origin=origin,
        tags=tuple(tags),
        number=number,
        dealer=p.dealer,
        vulnerable=p.vulnerable,
        deal=p.deal,
        auction=auction,
        play=play,
        contract=contract,
        declarer=contract.declarer if contract is not None else None,
        result=result,
        commentary=tuple(p.commentary),
        diagnostics=tuple([make(code, origin, span, **args) for code, span, args in problems]),
        extra=tuple(extra),
    )
    if rs is not None and (auction is not None or play is not None):
        board = _check_rs(board, h, rs_index)
    return board


def _table_result(board: Board) -> tuple[Contract | None, bool, int | None]:
    """What a record's own auction and play give: (contract, whether the
    auction gave it, declarer's tricks).

    The contract is the auction's when it is complete (the rules' auction
    replay), else the record's ``rs`` contract; the tricks are counted from
    13 complete tricks (Law 44, :func:`~handrec.model.trick_winner`), else
    taken from the claim, else unknown -- the same precedence as the replay
    engine, without its checks (the validator reports faults of the play).
    """
    from handrec.rules.auction import replay_auction  # rules depend on the model only

    contract, from_auction = board.contract, False
    if board.auction is not None:
        ar = replay_auction(board.auction)
        if ar.complete and ar.contract is not None:
            contract, from_auction = ar.contract, True
    play = board.play
    if contract is None or contract.level == 0 or contract.declarer is None or play is None:
        return contract, from_auction, None
    cards = play.cards
    if len(cards) == 52 and None not in cards:
        trump, declarer = contract.trump, contract.declarer
        leader, won = declarer.lho, 0
        for i in range(0, 52, 4):
            leader = trick_winner(leader, cards[i : i + 4], trump)  # type: ignore[arg-type]
            won += (leader - declarer) % 2 == 0
        return contract, from_auction, won
    return contract, from_auction, play.claim


def _check_rs(board: Board, h: _Header, i: int) -> Board:
    """C506 when the record's ``rs`` entry disagrees with its own auction and
    play (see :func:`_table_result`).

    On a disagreement the board keeps the entry's Contract, Declarer and
    Result *tags* (what the file says) but not the typed values, so that the
    replay reports nothing twice.
    """
    rs_contract, rs_tricks = board.contract, board.result
    contract, from_auction, tricks = _table_result(board)
    contract_bad = (
        from_auction
        and contract is not None
        and rs_contract is not None
        and (
            (contract.level, contract.strain, contract.doubling, contract.declarer)
            != (rs_contract.level, rs_contract.strain, rs_contract.doubling, rs_contract.declarer)
        )
    )
    result_bad = tricks is not None and rs_tricks is not None and tricks != rs_tricks
    if not (contract_bad or result_bad):
        return board
    span = h.result_spans[i] if i < len(h.result_spans) else None
    rel = None if span is None else Span(span.line - board.origin.line + 1, span.column)
    value = h.result_texts[i] if i < len(h.result_texts) else rs_text(rs_contract, rs_tricks)
    diag = make("C506", board.origin, rel, value=value, expected=rs_text(contract, tricks))
    if contract_bad:
        return replace(board, contract=None, declarer=None, result=None, diagnostics=(*board.diagnostics, diag))
    return replace(board, result=None, diagnostics=(*board.diagnostics, diag))


# ---------------------------------------------------------------------------
# Lines to tokens (§1, §2.4)
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Framing and the public API (§8)
# ---------------------------------------------------------------------------


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


def _lead_in_start(tokens: list[Token]) -> int:
    """Index where the trailing run of pn/pw/st pairs starts (len if none)."""
    i = len(tokens)
    while i > 0 and tokens[i - 1].type in _LEAD_IN:
        i -= 1
    return i


def _makes_a_record(tokens: list[Token]) -> bool:
    """Whether pairs framed by neither ``md`` nor ``qx`` still describe a table
    (``sv``, ``ah``, a call, a card, a claim or an undo) rather than a header."""
    for t in tokens:
        if t.type in ("SV", "AH"):
            return True
        if t.type == "MOVES" and any(_MOVE_KIND[m.group(1)] not in (_PG, _NT) for m in _MOVE_PAIR.finditer(t)):
            return True
    return False


def parse_lin(
    lines: Iterable[str],
    path: str,
    file_diagnostics: list[Diagnostic],
    max_board_chars: int | None = None,
    part: tuple[int, int] | None = None,
) -> Iterator[Board]:
    """Read LIN records (lin.md §1-§10), one Board per record, streaming.

    :param lines: decoded text lines WITHOUT line ends, line 1 first (the
        caller has decoded bytes and normalised CR/LF).  A line may also be a
        hand-viewer URL or ``hv_popuplin('...')`` call carrying LIN (§2.4).
    :param path: the file name put in every Origin and Diagnostic.
    :param file_diagnostics: receives faults that belong to no record: junk
        in the header, bad ``vg`` fields, unreadable ``rs`` entries, unknown
        header commands (F003, T101, F007; positions are file line and
        column), a header over the size limit (F016), ``pn``/``pw``/``st``
        after the last deal (F017).
    :param max_board_chars: the largest record read, in characters from the
        start of its first pair to the end of its last one
        (:attr:`handrec.inputs.limits.Limits.max_board_bytes`), or None for no limit.
        A larger record is not held past the limit nor parsed: its pairs are
        dropped as they come (the framing still follows them) and it is
        yielded as a Board with only its origin and an F016 error at its
        first line.  Pairs before the first ``md`` count with record 1 in a
        file without ``qx``; a header (pairs before the first ``qx``) over
        the limit is not read and gets a file-level F016.
    :param part: ``(start, stop)`` character offsets, to read one part of a big
        file in a worker process: only the records whose ``Origin.offset`` is
        in ``[start, stop)`` are built and yielded.  The whole file up to the
        part is still tokenised and framed (every header read, the segments,
        the record indexes and the size limit followed), so lines, offsets,
        indexes and the header values each record inherits are those of the
        whole file; reading stops at the first record at or after ``stop``.
        ``file_diagnostics`` receives the faults of the headers read just
        before this part's records (a header's faults go with the record that
        follows it) and, when the part holds the last record (or ``start`` is
        0 and the file has none), what is found after it (F017, a header
        that no record follows): the parts ``[0, a), [a, b), ..., [z, inf)``
        give between them every board and file diagnostic of the whole file,
        in order, each once.
    :returns: an iterator of Boards in file order; ``Origin.index`` is the
        0-based record ordinal.  Only the current record's pairs are held.

    Never raises on bad input: faults are diagnostics, and every framed
    record is yielded with what could be read.

    >>> b = next(parse_lin(["pn|S1,W1,N1,E1|md|3SAKQJT98765432H,HAKQJT98765432D,DAKQJT98765432C,|sv|b|mb|7S|"], "x.lin", []))
    >>> b.tag("Deal"), b.tag("North"), str(b.auction)
    ('N:..AKQJT98765432. ...AKQJT98765432 AKQJT98765432... .AKQJT98765432..', 'N1', '7S')
    """
    preamble: list[Token] = []
    cur: list[Token] | None = None
    cur_has_md = False
    qx_mode = False
    header = _Header()
    index = 0

    limit = max_board_chars if max_board_chars is not None else 1 << 62
    start, stop = (0, 1 << 62) if part is None else part
    # whether the record being read is this part's (then so is what is found after it, when it
    # is the last; before any record: the first part's)
    mine = start == 0

    def enter(at: int) -> bool:
        """A record starts at offset ``at`` (offsets only grow along the file): whether the
        reading goes on (it stops before a later part's record, its header's faults and what
        follows); ``mine``: whether the record is this part's."""
        nonlocal mine
        mine = at >= start
        return at < stop

    def build(tokens: list[Token]) -> Board | None:
        """The record's Board, or None for a record outside the part (not built)."""
        first = tokens[0]
        if not mine:
            if first.type != _TOO_BIG and header.extra:  # as _board: the segment's first record takes them
                header.extra = []
            return None
        origin = Origin(path, line=first.line, offset=first.start_pos, index=index, format="lin")
        if first.type == _TOO_BIG:
            return Board(origin, diagnostics=(make("F016", origin, None, line=first.line, limit=max_board_chars),))
        return _board(_parse_tokens(tokens, first.line), header, origin)

    def read_header(tokens: list[Token], found: list[Diagnostic]) -> _Header:
        first = tokens[0]
        if first.type == _TOO_BIG:
            found.append(make("F016", None, Span(first.line, 0), path=path, line=first.line, limit=max_board_chars))
            return _Header()
        parts = _parse_tokens(tokens, 1)
        h = _read_header(parts, path, found)
        found.extend(make(c, None, s, path=path, **a) for c, s, a in parts.problems)
        return h

    for tok in _tokens(lines, max_board_chars):
        kind = tok.type
        if kind == _TOO_BIG:  # a pair cut by line ends went over the limit
            if cur is not None:
                cur = _too_big(cur)
            else:
                preamble = _too_big(preamble)
            continue
        if kind == "VG" and cur is not None:
            # a vugraph header after records: a new segment with its own header (§2.3)
            split = _lead_in_start(cur)
            lead_in = cur[split:]
            del cur[split:]
            if cur:
                if (b := build(cur)) is not None:
                    yield b
                index += 1
            cur, cur_has_md, qx_mode, header = None, False, False, _Header()
            preamble = lead_in + [tok]
        elif kind == "QX":
            if cur is None:
                if not enter(tok.start_pos):  # a record starts at this qx
                    return
                if preamble:  # the header: everything before the first qx (§2.3)
                    header = read_header(preamble, file_diagnostics if mine else [])
                    preamble = []
                cur = [tok]
            else:
                split = _lead_in_start(cur) if qx_mode else len(cur)
                lead_in = cur[split:]
                del cur[split:]
                if cur:
                    if (b := build(cur)) is not None:
                        yield b
                    index += 1
                cur = lead_in + [tok]
                if not enter(cur[0].start_pos):
                    return
            qx_mode = True
        elif kind == "MD" and not qx_mode:
            if cur is None:
                if not enter((preamble[0] if preamble else tok).start_pos):  # record 1 (of its segment)
                    return
                # no qx: the preamble gives the header values AND is record 1's start; a
                # pn/pw of one table written just before the md is record 1's own (§8.2)
                if preamble and preamble[0].type != _TOO_BIG:
                    split = _lead_in_start(preamble)
                    lists = [t for t in preamble[split:] if t.type in ("PN", "PW") and t.count(",") > 3]
                    header_tokens = preamble[:split] + lists
                    if header_tokens:
                        found = file_diagnostics if mine else []
                        header = _read_header(_parse_tokens(header_tokens, 1), path, found)
                        header.extra = []  # the preamble's unknown commands are record 1's own
                cur = preamble + [tok]
                preamble = []
            elif cur_has_md:
                split = _lead_in_start(cur)
                lead_in = cur[split:]
                del cur[split:]
                if (b := build(cur)) is not None:
                    yield b
                index += 1
                cur = lead_in + [tok]
                if not enter(cur[0].start_pos):
                    return
            else:
                cur.append(tok)
            cur_has_md = True
        elif cur is not None:
            cur.append(tok)
        else:
            preamble.append(tok)
        # the size limit: a record over it is held as a _TOO_BIG token standing for its
        # first pair, then only the pn/pw/st pairs that may open the next record (once
        # these go over the limit, the next record will too: its first pair is enough)
        held = cur if cur is not None else preamble
        first = held[0]
        if first.type == _TOO_BIG:
            if kind not in _LEAD_IN:
                del held[1:]
            elif tok.start_pos + len(tok) - held[1].start_pos > limit:
                del held[2:]
        elif tok.start_pos + len(tok) - first.start_pos > limit:
            if cur is not None:
                cur = _too_big(cur)
            else:
                preamble = _too_big(preamble)

    found = file_diagnostics if mine else []  # what follows the last record is its part's
    if cur is not None:
        split = _lead_in_start(cur) if cur_has_md and not qx_mode else len(cur)
        if 0 < split < len(cur) and cur[0].type != _TOO_BIG:
            # pn/pw/st after the last deal open the next record, which never came (lin.md §8.2):
            # said, and not read as the last record's players
            tail = cur[split:]
            del cur[split:]
            commands = "|".join(dict.fromkeys(t.type.lower() for t in tail)) + "|"
            found.append(make("F017", None, Span(tail[0].line, tail[0].column), path=path, commands=commands))
        if (b := build(cur)) is not None:
            yield b
    elif preamble:
        if _makes_a_record(preamble):  # a record with no md/qx: still a record
            if not enter(preamble[0].start_pos):
                return
            if (b := build(preamble)) is not None:
                yield b
        else:
            read_header(preamble, found)


def _too_big(held: list[Token]) -> list[Token]:
    """The record being read (or the pairs before the first record) went over the size
    limit: a one-token list standing for it, at its first pair's position."""
    return [Token.new_borrow_pos(_TOO_BIG, "", held[0])]


_LINE_END = re.compile(r"\r\n|\r|\n")


def parse_lin_text(text: str, path: str = "<string>") -> list[Board]:
    """Read every LIN record of ``text`` (a BOM and any line ends allowed).

    File-level diagnostics are dropped; use :func:`parse_lin` to get them.

    >>> [b.number for b in parse_lin_text("qx|o7|md|1S,S,S,S|qx|c7|md|1S,S,S,S|")]
    [7, 7]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return list(parse_lin(_LINE_END.split(text), path, []))
