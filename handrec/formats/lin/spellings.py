"""LIN spellings (lin.md §3-§7): the values of the commands read into model values.

Seats in LIN order, vulnerabilities (``sv``), hands (``md``, with the fast path of the
usual spelling), calls (``mb``, every usual spelling looked up at once, the odd ones read
with a warning), cards (``pc``), the kinds of the MOVES commands, player lists (``pn``,
``pw``), small integers, and the shared :class:`~handrec.model.Span` objects of a
record's positions.  A fault found in a value is a ``_Problem``, made a diagnostic once the
record's origin is known.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from lark import Token

from handrec.model import ALL_CARDS, Call, CallKind, Card, Deal, Hand, ModelError, Seat, Span, Strain, Vulnerability

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
    s, h, di, cl = m.groups()
    runs_s, runs_h, runs_d, runs_c = _MD_RUNS
    a = runs_s.get(s) or _md_run(0, s)
    b = runs_h.get(h) or _md_run(1, h)
    c = runs_d.get(di) or _md_run(2, di)
    d = runs_c.get(cl) or _md_run(3, cl)
    if a is None or b is None or c is None or d is None:
        return None
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
