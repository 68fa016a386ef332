"""The Play section of a PBN game to a :class:`~handrec.model.Play` in play order (PBN 2.1 §3.6).

PBN writes one trick a line in fixed seat order; :func:`_play` reads the lines and puts
the cards in play order (each trick led by the winner of the previous one, or by a card
marked ``^L``; :mod:`handrec.formats.pbn.play_layout` is the same mapping for the
writer), with the cards' annotations (:mod:`handrec.formats.pbn.annotations`), the
irregularities ``^R`` and ``^L`` (PBN 2.1 §3.9) and the end markers ``*`` and ``+``.
The legality of the play is the replay's (:mod:`handrec.rules.play`).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from handrec.formats.pbn.annotations import (
    _NOTEREF_RE,
    _SUFFIX_NAG,
    T128_SECOND_MARK,
    T128_SECOND_NOTE,
    T128_SECOND_SUFFIX,
    _free_notes,
    _nag_issue,
    _Notes,
    _pieces,
    _read_misplaced,
)
from handrec.formats.pbn.parser import _FIRST, _SECOND, _play_elements, _Section
from handrec.formats.pbn.play_layout import TRUMP_UNKNOWN, best_known
from handrec.formats.pbn.tag_values import _SEATS, _UNKNOWN, _Issue
from handrec.model import ALL_CARDS, Auction, CallKind, Card, CardAnnotation, Note, Play, Seat, Span, Suit

#: Card spellings (any case, ``10`` for ``T``) to the shared Card instances.
_CARDS: dict[str, Card] = {}
for _c in ALL_CARDS:
    for _txt in {str(_c), str(_c).replace("T", "10")}:
        for _v in (_txt, _txt.lower(), _txt[0] + _txt[1:].lower(), _txt[0].lower() + _txt[1:]):
            _CARDS[_v] = _c

_UPPER_CARDS: dict[str, Card] = {str(c): c for c in ALL_CARDS}  # the export spelling
#: ``_OFFSET[seat][k]`` = the seat ``k`` places clockwise from ``seat`` (Seat.offset, faster).
_OFFSET = [[Seat((s + k) % 4) for k in range(4)] for s in range(4)]
#: ``_TRICK_SLOTS[k][r]``: the slots of trick ``k`` (0-12) in play order when its leader sits
#: ``r`` seats after the Play tag's (PBN 2.1 §3.6: a trick's line is in seat order from it).
_TRICK_SLOTS = tuple(tuple(tuple(4 * k + (r + j) % 4 for j in range(4)) for r in range(4)) for k in range(13))
_PLUS: Any = object()  # the "+" slot of a play: the next card goes here


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
    section of ``sections`` for a reference:
    :func:`~handrec.formats.pbn.annotations._read_misplaced`).  A line that does not hold 4
    cards is padded with unknown cards.  ``anchors`` receives ``("play", i)`` for each comment
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
        elif (
            len(lines_words) > 1
            and lines_words[-1] == ["*"]
            and all(slot_cards[:-1])
            and set(map(len, lines_words[:-1])) == {4}
        ):
            # a claim (four tenths of real plays): whole tricks in export spelling, then "*"
            # alone on the last line; what the loop gives ("*" ends the play, and is no card:
            # the section is not plain)
            del slot_cards[-1]
            slot_spans = list(chain.from_iterable(map(_SECOND, elements[:-1])))
            elements = []
            known = True
            ended = "*"
            plain = False
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
                        if mark is not None:  # a second mark before one card (PBN 2.1 §3.9: one a card)
                            issues.append(("T128", span, {"token": text, "reason": T128_SECOND_MARK}))
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
    padded = (len(slot_cards) - n) // 4
    del slot_cards[n:], slot_spans[n:]
    plus_at = next((k for k, c in enumerate(slot_cards) if c is _PLUS), -1) if plus_seen else -1
    track = bool(marks or slot_ann or comment_at)
    if leader is None or trump is TRUMP_UNKNOWN:
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
        if known and n <= 52 and not marks and plus_at < 0 and not track:
            # the usual case, every card known: the slots of each trick in play order from a
            # table (no list made a trick), Law 44 as _winner, the cards taken at the end
            offsets, slots = _OFFSET, _TRICK_SLOTS
            order: list[int] = []
            get = slot_cards.__getitem__
            for k in range(n >> 2):
                at = slots[k][(to_lead - leader) & 3]
                order += at
                i0, i1, i2, i3 = at
                c = get(i0)
                suit = c.suit
                rank = c.rank
                best = 0
                c = get(i1)
                if c.suit is suit:
                    if c.rank > rank:
                        best, rank = 1, c.rank
                elif c.suit is trump:
                    best, suit, rank = 1, trump, c.rank
                c = get(i2)
                if c.suit is suit:
                    if c.rank > rank:
                        best, rank = 2, c.rank
                elif c.suit is trump:
                    best, suit, rank = 2, trump, c.rank
                c = get(i3)
                if c.suit is suit:
                    if c.rank > rank:
                        best = 3
                elif c.suit is trump:
                    best = 3
                to_lead = offsets[to_lead][best]
            cards = tuple(map(get, order))  # type: ignore[assignment]  # (tuple(cards) below: the same object)
            spans = tuple(map(slot_spans.__getitem__, order))  # type: ignore[assignment]
        elif not marks and plus_at < 0 and not track:
            # the usual case (no ^L, no "+", no annotation or comment): as the loop below
            offsets, best = _OFFSET, _winner if known else best_known
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
                    to_lead = _OFFSET[to_lead][best_known(played, trump)]
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
    return Play(leader, tuple(cards), None, ended, tuple(spans), irregular, play_notes, annotations, None, padded)


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
