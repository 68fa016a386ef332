"""LIN reader: ``cmd|value|`` pairs to typed :class:`~handrec.model.Board` records.

Implements shared/specs/lin.md §1-§10 (BBO hand records, one-record-per-line
session files, vugraph match files, hand-viewer URLs).

Pipeline, one pass, streaming:

1. **Lines to pair tokens** (:func:`_tokens`).  Each decoded line is lexed by
   the lexer-only instance of ``grammars/lin.lark``: one Lark token per pair
   (``MD``, ``MB``, ``PC``... or the generic ``PAIR``; ``JUNK`` for text that
   is no pair).  A pair whose value runs over a line end (damaged files, §1)
   is carried over and re-lexed together with the next line, so the value is
   joined.  Hand-viewer URLs and ``hv_popuplin('...')`` carriers are decoded
   first (§2.4).  Token positions are made absolute (file line, column,
   character offset).
2. **Framing** (:func:`parse_lin`), in Python on the token types (§8): pairs
   before the first ``qx`` are the header; each ``qx`` starts a record;
   without ``qx`` each ``md`` starts a record.  The ``pn``/``pw``/``st``
   pairs written just before the ``md`` (or before a ``qx`` that follows a
   record) belong to the new record.  Only the current record's tokens are
   buffered.
3. **Record parse**: the record's tokens go to the LALR instance of the same
   grammar (pass-through lexer, Transformer given to the constructor, so no
   tree is built).  One reduction per pair: its callback turns the value into
   model values (Call, Card, Deal...) and adds them to the record's
   ``_Parts``.
4. **Board**: ``_Parts`` + header (players by room, ``vg`` tags, ``rs``
   results, ``bn`` numbers) + :class:`~handrec.model.Origin` give the Board
   with its PBN-equivalent tags (§9) and diagnostics.

Nothing here raises on bad input: faults become diagnostics (F003 syntax,
T101 bad value, T102 repeated pair, T105 odd spelling, A306 bad call, P406
bad card) and every framed record is yielded.  Unknown commands are kept as
``(cmd, value, span)`` in the record's ``_Parts.unknown`` without a
diagnostic; :class:`~handrec.model.Board` has no field to carry them yet.

Positions: ``Origin.line`` is the file line of the record's first pair,
``Origin.offset`` its character offset (each line end counts as one
character); a ``Span`` line counts from the record's first line and its
column is the column of the pair's command in the file line.  For LIN
decoded out of a URL, columns and offsets count characters of the decoded
text, starting at the column where the encoded LIN starts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

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
)

__all__ = ["parse_lin", "parse_lin_text"]

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
    """The lexer-only instance of lin.lark: ``.lex(text)`` yields pair tokens."""
    return Lark(grammar_text("lin"), parser=None, lexer="basic", start="record")


@functools.cache
def _parser() -> Lark:
    """The LALR instance: ``.parse(tokens_of_one_record)`` returns a ``_Parts``."""
    return Lark(
        grammar_text("lin"),
        parser="lalr",
        lexer=_TokenListLexer,
        transformer=_LinTransformer(),
        start="record",
    )


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
_PBN_PLAYER_ORDER = ((1, "West"), (2, "North"), (3, "East"), (0, "South"))  # index in S,W,N,E
#: Pairs written just before ``md`` (no ``qx``) or ``qx`` that belong to the new record (§8.2).
_LEAD_IN = frozenset({"PN", "PW", "ST"})
#: Pair kinds that make a header-only text a record when no ``md``/``qx`` frames one.
_RECORD_KINDS = frozenset({"SV", "MB", "AN", "PC", "MC", "AH"})

#: A fault found in a pair: (code, span, message arguments); made a Diagnostic once the Origin is known.
_Problem = tuple[str, Span | None, dict[str, object]]
#: What a pair callback returns: (kind, token, span, payload, problems).
_Entry = tuple[str, Token, Span, Any, tuple[_Problem, ...]]


def _int(text: str) -> int | None:
    """``text`` as a small non-negative integer (ASCII digits, at most 9), else ``None``."""
    t = text.strip()
    return int(t) if 0 < len(t) <= 9 and t.isascii() and t.isdigit() else None


def _value(tok: str) -> str:
    """The value of a pair token, closing pipe and line breaks removed (§1)."""
    v = tok[3:-1] if tok[-1] == "|" else tok[3:]
    if "\n" in v:
        v = v.replace("\n", "")
    return v


def _bad(tag: str, value: str, reason: str, span: Span | None) -> _Problem:
    return ("T101", span, {"tag": tag, "value": value, "reason": reason})


def _parse_hand(text: str, seat: Seat, span: Span, problems: list[_Problem]) -> list[int]:
    """One ``md`` hand: suit letters each followed by ranks, any order and case (§4).

    Returns the distinct card indices (:data:`ALL_CARDS` order) high first,
    the order :class:`Hand` keeps; a bad character or a repeated card is T101.
    """
    found: list[int] = []
    base = -1
    t = text.upper()
    if "10" in t:
        t = t.replace("10", "T")
    bad = ""
    for ch in t:
        b = _SUIT_BASE.get(ch)
        if b is not None:
            base = b
            continue
        r = _RANK_OFFSET.get(ch)
        if r is not None and base >= 0:
            found.append(base + r)
        elif not ch.isspace():
            bad += ch
    if bad:
        problems.append(_bad("md", text, f"unexpected {bad!r} in {seat.name.lower()}'s hand", span))
    unique = sorted(set(found), reverse=True)
    if len(unique) != len(found):
        repeated = " ".join(str(ALL_CARDS[i]) for i in unique if found.count(i) > 1)
        problems.append(_bad("md", text, f"{repeated} repeated in {seat.name.lower()}'s hand", span))
    return unique


def _parse_md(value: str, span: Span) -> tuple[Seat | None, Deal, tuple[_Problem, ...]]:
    """``md`` value: ``[dealer digit] S,W,N[,[E]]`` (§4) to (dealer, deal, problems).

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
    for i, text in enumerate(texts):
        if text.strip():
            found[i] = _parse_hand(text, _LIN_SEATS[i], span, problems)
    if found[3] is None:
        s, w, n = found[0], found[1], found[2]
        if s is not None and w is not None and n is not None and len(s) == len(w) == len(n) == 13:
            held = set(s).union(w, n)
            if len(held) == 39:
                found[3] = [i for i in range(51, -1, -1) if i not in held]
    by_seat: list[Hand | None] = [None, None, None, None]
    for seat, idx in zip(_LIN_SEATS, found, strict=True):
        if idx is not None:
            by_seat[seat] = Hand(tuple([ALL_CARDS[i] for i in idx]))
    return dealer, Deal(tuple(by_seat)), tuple(problems)  # type: ignore[arg-type]


def _parse_calls(value: str, span: Span) -> tuple[list[Call], tuple[_Problem, ...]]:
    """``mb`` value (§5): one call, ``!`` suffix = alerted; ``-`` = pass and
    ``1C-P-1H`` packed calls are read with a T105 warning; a bad call is A306."""
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
# The Transformer: one callback per kind of pair, and the record
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Parts:
    """What one record's pairs say, before the header is applied; built pair
    by pair by the Transformer."""

    has_qx: bool = False
    room: str | None = None  # "Open" / "Closed"
    qx_number: int | None = None
    qx_span: Span | None = None
    has_md: bool = False
    dealer: Seat | None = None
    deal: Deal | None = None
    md_span: Span | None = None
    has_sv: bool = False
    vulnerable: Vulnerability | None = None
    sv_span: Span | None = None
    calls: list[Call] = field(default_factory=list)
    last_call: int = -1  # index in calls that an `an` explains; -1 = none
    cards: list[Card | None] = field(default_factory=list)
    card_spans: list[Span] = field(default_factory=list)
    claim: int | None = None
    names: list[str] | None = None  # pn (or pw) of this record, S,W,N,E[,S,W,N,E...]
    names_span: Span | None = None
    names_kind: str | None = None  # "pn" or "pw"
    ah_number: int | None = None
    ah_span: Span | None = None
    commentary: list[str] = field(default_factory=list)
    vg: list[str] | None = None
    vg_span: Span | None = None
    rs: list[str] | None = None
    rs_span: Span | None = None
    bn: list[str] | None = None
    unknown: list[tuple[str, str, Span]] = field(default_factory=list)
    problems: list[_Problem] = field(default_factory=list)


def _span(tok: Token) -> Span:
    return Span(tok.line, tok.column)


class _LinTransformer(Transformer):
    """Callbacks of lin.lark, run during the LALR parse (no tree is built).

    ``begin`` creates the record's ``_Parts``; each pair callback gets
    ``[parts, token]`` (token line relative to the record, column absolute),
    reads the value and returns the updated parts; ``record`` returns them.
    The instance itself holds no state, so one serves every parse.
    """

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        raise TypeError(f"lin.lark rule {data!r} has no Transformer callback")

    def begin(self, c: list[Any]) -> _Parts:
        return _Parts()

    def record(self, c: list[_Parts]) -> _Parts:
        return c[0]

    # --- the play and the auction (most pairs) ---------------------------------

    def card(self, c: list[Any]) -> _Parts:
        """``pc``: one card in play order (§6); a bad card is P406 and kept as ``None``."""
        p, tok = c
        span = _span(tok)
        v = _value(tok)
        try:
            p.cards.append(Card.parse(v))
        except ModelError:
            p.cards.append(None)
            p.problems.append(("P406", span, {"token": v}))
        p.card_spans.append(span)
        p.last_call = -1
        return p

    def call(self, c: list[Any]) -> _Parts:
        """``mb``: one call (§5)."""
        p, tok = c
        calls, problems = _parse_calls(_value(tok), _span(tok))
        if problems:
            p.problems.extend(problems)
        p.calls.extend(calls)
        p.last_call = len(p.calls) - 1 if calls else -1
        return p

    def explanation(self, c: list[Any]) -> _Parts:
        """``an``: explanation of the call just before it (§5); otherwise ignored."""
        p, tok = c
        text = _value(tok).strip()
        if p.last_call >= 0 and text:
            prev = p.calls[p.last_call]
            joined = text if prev.annotation is None else f"{prev.annotation} {text}"
            p.calls[p.last_call] = replace(prev, annotation=joined)
        return p

    def quiet(self, c: list[Any]) -> _Parts:
        """``pg``, ``st``, ``rh``, ``mp``, ``pf``: display commands, nothing to keep (§3)."""
        return c[0]

    def claim(self, c: list[Any]) -> _Parts:
        """``mc``: total tricks for declarer after a claim (§3); the last one counts."""
        p, tok = c
        v = _value(tok).strip()
        tricks = _int(v)
        if tricks is not None and tricks <= 13:
            p.claim = tricks
        else:
            p.problems.append(_bad("mc", v, "not a number of tricks from 0 to 13", _span(tok)))
        return p

    def chat(self, c: list[Any]) -> _Parts:
        """``nt``: commentary / chat (§2.3)."""
        p, tok = c
        p.commentary.append(_value(tok))
        return p

    # --- the deal and the table ------------------------------------------------

    def deal(self, c: list[Any]) -> _Parts:
        """``md`` (§4); a second one is T102 and ignored."""
        p, tok = c
        span = _span(tok)
        dealer, deal, problems = _parse_md(_value(tok), span)
        if p.has_md:
            p.problems.append(("T102", span, {"tag": "md"}))
            return p
        p.problems.extend(problems)
        p.has_md, p.dealer, p.deal, p.md_span = True, dealer, deal, span
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
        """``pn``: names S,W,N,E (8 in a vugraph header); the first ``pn`` wins (§3)."""
        p, tok = c
        if p.names_kind != "pn":
            p.names, p.names_span, p.names_kind = [n.strip() for n in _value(tok).split(",")], _span(tok), "pn"
        return p

    def player_list(self, c: list[Any]) -> _Parts:
        """``pw``: players list, used only when there is no ``pn`` (§3)."""
        p, tok = c
        if p.names_kind is None:
            p.names, p.names_span, p.names_kind = [n.strip() for n in _value(tok).split(",")], _span(tok), "pw"
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

    # --- header pairs (read by _read_header) -----------------------------------

    def vugraph(self, c: list[Any]) -> _Parts:
        p, tok = c
        if p.vg is None:
            p.vg, p.vg_span = _value(tok).split(","), _span(tok)
        return p

    def results(self, c: list[Any]) -> _Parts:
        p, tok = c
        if p.rs is None:
            p.rs, p.rs_span = _value(tok).split(","), _span(tok)
        return p

    def board_numbers(self, c: list[Any]) -> _Parts:
        p, tok = c
        if p.bn is None:
            p.bn = _value(tok).split(",")
        return p

    # --- anything else -----------------------------------------------------------

    def unknown(self, c: list[Any]) -> _Parts:
        """Another command: kept as (cmd, value), no diagnostic (lin.md §3 rule)."""
        p, tok = c
        p.unknown.append((tok[:2].lower(), _value(tok), _span(tok)))
        return p

    def junk(self, c: list[Any]) -> _Parts:
        """Text that is no pair (one token per run, see :func:`_tokens`): F003."""
        p, tok = c
        text = " ".join(str(tok).split())
        if len(text) > 40:
            text = text[:37] + "..."
        p.problems.append(("F003", _span(tok), {"detail": f"{text!r} is not a cmd|value| pair"}))
        return p


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
    names: list[str] | None = None
    boards: list[str] = field(default_factory=list)


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


def _read_header(p: _Parts, path: str, file_diagnostics: list[Diagnostic]) -> _Header:
    """Header values from the pairs before the first record; bad ``vg`` and
    ``rs`` values go to ``file_diagnostics`` (T101, file positions)."""
    h = _Header(names=p.names, boards=p.bn or [])
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
        for entry in p.rs:
            r = _parse_rs(entry)
            if isinstance(r, str):
                file_diagnostics.append(make("T101", None, p.rs_span, path=path, tag="rs", value=entry, reason=r))
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

    contract: Contract | None = None
    result: int | None = None
    if number is not None and h.results:
        first = h.first_board if h.first_board is not None else 1
        i = 2 * (number - first) + (1 if p.room == "Closed" else 0)
        if 0 <= i < len(h.results) and h.results[i] is not None:
            contract, result = h.results[i]  # type: ignore[misc]

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
    if p.deal is not None:
        tags.append(Tag("Deal", p.deal.to_pbn(p.dealer or Seat.NORTH), p.md_span))
    if h.scoring is not None:
        tags.append(Tag("Scoring", h.scoring))
    if contract is not None:
        if contract.declarer is not None:
            tags.append(Tag("Declarer", str(contract.declarer)))
        tags.append(Tag("Contract", str(contract)))
        if result is not None:
            tags.append(Tag("Result", str(result)))
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
        play = Play(None, tuple(p.cards), p.claim, None, tuple(p.card_spans))

    return Board(
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
        diagnostics=tuple(make(code, origin, span, **args) for code, span, args in problems),
    )


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


def _tokens(lines: Iterable[str]) -> Iterator[Token]:
    """Pair tokens of the whole input, lazily, with absolute positions.

    ``line``/``column`` are file positions (1-based), ``start_pos`` the
    character offset (each line end counts one).  A pair cut by a line end
    (no closing ``|`` yet) is re-lexed joined with the next line; at the end
    of input it is yielded as it is (the record reports F003).
    """
    lex = _lexer().lex
    carry: Token | None = None  # a pair still waiting for its closing pipe
    junk: Token | None = None  # a run of JUNK tokens not yet yielded
    pending: list[str] = []  # its text: the token, then the lines that followed it
    offset = 0
    for line_no, line in enumerate(lines, 1):
        if carry is None:
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
            offset += len(line) + 1
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
            if tok.type == "JUNK":  # a run of junk with no pair between is one token
                junk = tok if junk is None else Token.new_borrow_pos("JUNK", f"{junk} {tok}", junk)
                continue
            if junk is not None:
                yield junk
                junk = None
            if tok[-1] != "|":
                carry, pending = tok, [tok]  # only the last token of a text can lack its pipe
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
        p: _Parts = _parser().parse(tokens)  # type: ignore[arg-type,assignment]
    except UnexpectedInput as e:  # pragma: no cover - the grammar accepts every token sequence
        p = _Parts()
        p.problems.append(("F003", Span(getattr(e, "line", 1), getattr(e, "column", 0)), {"detail": str(e)}))
    last = tokens[-1]
    if last[-1] != "|" and last.type != "JUNK":  # only the input's last pair can be cut short
        text = str(last).strip()
        p.problems.append(("F003", _span(last), {"detail": f"pair {text[:40]!r} has no closing '|'"}))
    return p


def _lead_in_start(tokens: list[Token]) -> int:
    """Index where the trailing run of pn/pw/st pairs starts (len if none)."""
    i = len(tokens)
    while i > 0 and tokens[i - 1].type in _LEAD_IN:
        i -= 1
    return i


def parse_lin(lines: Iterable[str], path: str, file_diagnostics: list[Diagnostic]) -> Iterator[Board]:
    """Read LIN records (lin.md §1-§10), one Board per record, streaming.

    :param lines: decoded text lines WITHOUT line ends, line 1 first (the
        caller has decoded bytes and normalised CR/LF).  A line may also be a
        hand-viewer URL or ``hv_popuplin('...')`` call carrying LIN (§2.4).
    :param path: the file name put in every Origin and Diagnostic.
    :param file_diagnostics: receives faults that belong to no record: junk
        in the header, bad ``vg`` fields, unreadable ``rs`` entries (F003,
        T101; positions are file line and column).
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

    def build(tokens: list[Token]) -> Board:
        first = tokens[0]
        origin = Origin(path, line=first.line, offset=first.start_pos, index=index, format="lin")
        return _board(_parse_tokens(tokens, first.line), header, origin)

    for tok in _tokens(lines):
        kind = tok.type
        if kind == "QX":
            if cur is None:
                if preamble:  # the header: everything before the first qx (§2.3)
                    parts = _parse_tokens(preamble, 1)
                    header = _read_header(parts, path, file_diagnostics)
                    file_diagnostics.extend(make(c, None, s, path=path, **a) for c, s, a in parts.problems)
                    preamble = []
                cur = [tok]
            else:
                split = _lead_in_start(cur) if qx_mode else len(cur)
                lead_in = cur[split:]
                del cur[split:]
                if cur:
                    yield build(cur)
                    index += 1
                cur = lead_in + [tok]
            qx_mode = True
        elif kind == "MD" and not qx_mode:
            if cur is None:
                # no qx: the preamble gives the header values AND is record 1's start
                if preamble:
                    header = _read_header(_parse_tokens(preamble, 1), path, file_diagnostics)
                cur = preamble + [tok]
                preamble = []
            elif cur_has_md:
                split = _lead_in_start(cur)
                lead_in = cur[split:]
                del cur[split:]
                yield build(cur)
                index += 1
                cur = lead_in + [tok]
            else:
                cur.append(tok)
            cur_has_md = True
        elif cur is not None:
            cur.append(tok)
        else:
            preamble.append(tok)

    if cur is not None:
        yield build(cur)
    elif preamble:
        if any(t.type in _RECORD_KINDS for t in preamble):
            yield build(preamble)  # a record with no md/qx: still a record
        else:
            parts = _parse_tokens(preamble, 1)
            _read_header(parts, path, file_diagnostics)
            file_diagnostics.extend(make(c, None, s, path=path, **a) for c, s, a in parts.problems)


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
