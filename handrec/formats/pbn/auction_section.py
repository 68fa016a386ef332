"""The Auction section of a PBN game to an :class:`~handrec.model.Auction` (PBN 2.1 §3.5).

:func:`_auction` reads the calls from the dealer, their annotations (note references,
suffixes, NAGs: :mod:`handrec.formats.pbn.annotations`), the irregularities ``^I`` and
``^S`` (PBN 2.1 §3.9) and the end markers; :func:`_fast_calls` is its fast path for an
auction of calls in PBN's spellings with their suffixes, NAGs and note references, and :func:`_call_anchors` places the section's
comments after their calls.  The legality of the calls is the replay's
(:mod:`handrec.rules.auction`).
"""

from __future__ import annotations

from typing import Any

from handrec.formats.pbn.annotations import (
    _NOTEREF_RE,
    _PIECE_RE,
    _SUFFIX_NAG,
    T128_SECOND_NOTE,
    T128_SECOND_SUFFIX,
    _free_notes,
    _nag_issue,
    _Notes,
    _pieces,
    _read_misplaced,
)
from handrec.formats.pbn.parser import _Section, _span
from handrec.formats.pbn.tag_values import _SEATS, _UNKNOWN, _Issue
from handrec.model import Auction, Call, CallKind, ModelError, Note, Seat, Span

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
#: Whether :func:`_auction` takes its fast paths (the tests turn them off to compare).
_FAST = True
#: Calls with a position and no annotation, shared between boards (Call is immutable).
_CALL_OBJS: dict[tuple[int, int, int], Call] = {}


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
      ``sections``: :func:`~handrec.formats.pbn.annotations._read_misplaced`, T128, the
      Note added to ``Auction.notes``).
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
    fast = _fast_calls(elements, notes[0]) if elements and _FAST else None
    if fast is not None:
        # the usual case: calls in PBN's spellings, with or without suffixes, NAGs and note
        # references to the section's Notes (real files' alerts): what the general code gives
        if dealer is not None and seat is not dealer:
            issues.append(("T106", seat_tag.span, {"value": str(seat), "dealer": str(dealer)}))
        return Auction(seat, fast, _fast_end(elements), seat_tag.span, notes[1])
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


#: What an auction element is for :func:`_fast_calls`, by its text: a tuple of pieces
#: ``(kind, value)``, kind 0 a call in PBN's spellings (value its code in :data:`_CALL_OBJS`
#: keys), 1 a suffix or a NAG $0-$6 (value the NAG; ``suffix`` 1 for a suffix), 2 a note
#: reference (value its index); ``None`` for an element the general code must read.
_ELEMENT_PIECES: dict[str, tuple[tuple[int, int, int, int], ...] | None] = {}


def _element_pieces(text: str) -> tuple[tuple[int, int, int, int], ...] | None:
    """The pieces of one auction element, ``(kind, value, suffix, offset)`` each (see
    :data:`_ELEMENT_PIECES`, ``offset`` the piece's column in the element), or None when the
    element holds anything but calls in PBN's spellings, suffixes, NAGs up to $6 and note
    references (an irregularity, an end marker, a ``*`` alert, a filler, another spelling)."""
    got = _ELEMENT_PIECES.get(text, False)
    if got is not False:
        return got  # type: ignore[return-value]
    parts = [text] if text in _STANDARD_CODES else _PIECE_RE.findall(text)
    out: list[tuple[int, int, int, int]] | None = []
    if not parts or "".join(parts) != text:
        out = None
    off = 0
    for p in parts if out is not None else ():
        if p in _STANDARD_CODES:
            out.append((0, _STANDARD_CODES[p], 0, off))
        elif p in _SUFFIX_NAG:
            out.append((1, _SUFFIX_NAG[p], 1, off))
        elif p[0] == "$" and p[1:].isdigit() and int(p[1:]) <= 6:
            out.append((1, int(p[1:]), 0, off))
        elif p[0] == "=" and _NOTEREF_RE.fullmatch(p):
            out.append((2, int(p[1:-1]), 0, off))
        else:
            out = None
            break
        off += len(p)
    pieces = None if out is None else tuple(out)
    if len(_ELEMENT_PIECES) >= 10_000:
        _ELEMENT_PIECES.clear()
    _ELEMENT_PIECES[text] = pieces
    return pieces


#: The Call of each code of :data:`_STANDARD_CODES`.
_CODE_CALLS = {code: _STANDARD_CALLS[t] for t, code in _STANDARD_CODES.items()}


def _fast_calls(elements: list[tuple[str, Span]], lookup: dict[int, str]) -> tuple[Call, ...] | None:
    """The calls of auction elements that hold calls in PBN's spellings with their suffixes,
    NAGs ($0-$6) and note references, written apart or glued (``2C !``, ``2C!``, ``1S =1=``);
    None (the general code of :func:`_auction` reads them) for anything else, or for what
    gives a diagnostic there: an annotation before the first call, a reference to a Note the
    section lacks (``lookup``), a second reference or suffix on one call.  The calls are
    those :func:`_auction` builds: a call without annotation shared through
    :data:`_CALL_OBJS`, an annotated one with its note's text and its NAGs in order.  A last
    ``AP`` gives the passes that end the auction, and an end marker ``*`` or ``+`` after
    everything else ends it (:func:`_fast_end`)."""
    ap: Span | None = None  # the span of a last "AP" (after it, at most an end marker)
    if elements[-1][0] in ("*", "+"):
        elements = elements[:-1]
    if elements and elements[-1][0].upper() == "AP":
        ap = elements[-1][1]
        elements = elements[:-1]
    codes = _STANDARD_CODES
    get_pieces = _ELEMENT_PIECES.get
    get_shared = _CALL_OBJS.get
    built: list[Call] = []  # the calls without annotation (shared), made again at the end for those with one
    pending: dict[int, list[Any]] = {}  # call index -> [nags, note or None, suffixes]
    for text, where in elements:
        code = codes.get(text)
        if code is not None:  # a call alone, the usual element
            call = get_shared((code, where.line, where.column))
            built.append(_shared_call(code, where) if call is None else call)
            continue
        pieces = get_pieces(text, False)
        if pieces is False:
            pieces = _element_pieces(text)
        if pieces is None:
            return None
        for kind, value, suffix, off in pieces:  # type: ignore[union-attr]
            if kind == 0:
                span = where if off == 0 else _span(where.line, where.column + off)
                call = get_shared((value, span.line, span.column))
                built.append(_shared_call(value, span) if call is None else call)
                continue
            if not built:
                return None  # an annotation before any call
            got = pending.get(len(built) - 1)
            if got is None:
                got = pending[len(built) - 1] = [[], None, 0]
            if kind == 1:
                got[0].append(value)
                got[2] += suffix
                if got[2] == 2:
                    return None  # a second suffix: T128
            elif got[1] is not None or value not in lookup:
                return None  # a second reference (T128), or one without its Note (T107, T128)
            else:
                got[1] = value
    if ap is not None:  # the passes that end the auction (PBN 2.1 §3.5), all at the AP
        trailing = 0
        for c in reversed(built):
            if c.kind is not CallKind.PASS:
                break
            trailing += 1
        need = 4 - trailing if trailing == len(built) else 3 - trailing
        if need > 0:
            code = _STANDARD_CODES["Pass"]
            call = get_shared((code, ap.line, ap.column))
            built.extend([_shared_call(code, ap) if call is None else call] * need)
    for i, (nags, note, _) in pending.items():
        c = built[i]
        annotation = None if note is None else lookup.get(note)
        built[i] = Call(c.kind, c.level, c.strain, False, annotation, note, tuple(sorted(nags)), c.span, None)
    return tuple(built)


def _fast_end(elements: list[tuple[str, Span]]) -> str | None:
    """The end marker of an auction read by :func:`_fast_calls`: its last element when that
    is ``*`` or ``+``, else None."""
    last = elements[-1][0]
    return last if last in ("*", "+") else None


def _shared_call(code: int, span: Span) -> Call:
    """The call of ``code`` at ``span`` without annotation, kept in :data:`_CALL_OBJS`."""
    base = _CODE_CALLS[code]
    call = Call(base.kind, base.level, base.strain, span=span)
    if len(_CALL_OBJS) >= 50_000:
        _CALL_OBJS.clear()
    _CALL_OBJS[(code, span.line, span.column)] = call
    return call


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
