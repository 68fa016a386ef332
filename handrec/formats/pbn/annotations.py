"""Notes, suffixes and NAGs: the annotations of calls and cards (PBN 2.1 §3.5.5, §3.6.5, §3.7).

Shared by the auction and the play sections: :func:`_notes` gives the Note tags that
follow a section (they belong to it), :func:`_free_notes` and :func:`_read_misplaced`
read a reference whose Note stands in the identification section (T128), :func:`_pieces`
splits an element written without spaces (``2C!``, ``1S=1=``) into its tokens, and
:func:`_nag_issue` checks a NAG's range and section.  :data:`T128_DROPPED` names the
T128 reasons of an annotation that is dropped (``handrec export`` lists them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from handrec.formats.pbn.parser import _AUCTION, _PLAY, _TAGS, _Section, _span
from handrec.formats.pbn.tag_values import _Issue
from handrec.model import Note, Span

__all__ = ["T128_SECOND_NOTE", "T128_SECOND_SUFFIX", "T128_DROPPED"]

#: A Note tag's value ``<index>:<text>``, and a note reference ``=<index>=`` (PBN 2.1 §3.5.5).
_NOTE_RE = re.compile(r"\s*(\d+)\s*:(.*)", re.S)
_NOTEREF_RE = re.compile(r"=(\d+)=")


#: Suffixes (PBN 2.1 §3.7): the NAG for a call; a card's NAG is 6 more.
_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: Splits a glued auction/play element into PBN tokens (PBN 2.1 §3.2): irregularity,
#: note reference, NAG, suffix, "*", "+", call/card.
_PIECE_RE = re.compile(r"\^[A-Za-z]|=\d+=|\$\d+|[!?]{1,2}|[*+]|[A-Za-z0-9-]+")


#: Notes of a section: index to text (the first Note of an index), and every Note in order.
_Notes = tuple[dict[int, str], tuple[Note, ...]]


def _notes(sections: list[_Section], i: int, issues: list[_Issue], section: str = "auction") -> _Notes:
    """The Note tags right after section ``i``, which belong to it (PBN 2.1 §3.5.5,
    §3.6.5): index to text (spaces after the colon dropped), and the notes in order.  A
    malformed Note is T101; an index out of 1-32 T121 (kept); an index given twice T126 (the first is used)."""
    lookup: dict[int, str] = {}
    notes: list[Note] = []
    for sec in sections[i + 1 :]:
        if sec.kind != _TAGS:
            break
        for tag in sec.tags:
            if tag.name != "Note":
                return lookup, tuple(notes)
            m = _NOTE_RE.match(tag.value)
            if m is None:
                issues.append(("T101", tag.span, {"tag": "Note", "value": tag.value, "reason": "not <index>:<text>"}))
                continue
            index = int(m.group(1))
            text = m.group(2).strip()
            if not 1 <= index <= 32:  # PBN 2.1 §3.5.5: notes are numbered 1 to 32 (kept all the same)
                issues.append(
                    ("T121", tag.span, {"tag": "Note", "value": tag.value, "expected": "notes are numbered 1 to 32"})
                )
            if index in lookup:
                issues.append(("T126", tag.span, {"index": index, "section": section}))
            else:
                lookup[index] = text
            notes.append(Note(index, text))
    return lookup, tuple(notes)


def _free_notes(sections: list[_Section] | None) -> dict[int, Note]:
    """The Note tags of the identification section, by index (the first of each): those not
    among the Note tags right after an Auction or Play section (:func:`_notes`), which belong
    to that section.  PBN 2.1 §3.5.5 and §3.6.5 place a section's notes after its calls or
    cards, never in the identification section; a reference whose section lacks its Note is
    read from there all the same (:func:`_read_misplaced`)."""
    free: dict[int, Note] = {}
    owned = False  # the tags right after an Auction or Play section: its notes
    for sec in sections or ():
        kind = sec.kind
        if kind == _AUCTION or kind == _PLAY:
            owned = True
            continue
        if kind != _TAGS:
            continue
        for tag in sec.tags:
            if tag.name != "Note":
                owned = False
            elif not owned:
                m = _NOTE_RE.match(tag.value)
                if m is not None and int(m.group(1)) not in free:
                    free[int(m.group(1))] = Note(int(m.group(1)), m.group(2).strip())
    return free


def _read_misplaced(free: dict[int, Note], index: int, span: Span, issues: list[_Issue], section: str) -> Note | None:
    """For a reference ``=index=`` of the ``section`` ("auction" or "play") whose own Note tags
    lack it: the Note of the identification section (``free``, :func:`_free_notes`), with a
    T128 warning; ``None`` and T107 when there is none (another section's notes are its own)."""
    note = free.get(index)
    if note is None:
        issues.append(("T107", span, {"index": index}))
    else:
        reason = f"refers to a Note tag outside the {section} section (its text is read from there)"
        issues.append(("T128", span, {"token": f"={index}=", "reason": reason}))
    return note


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


#: T128 reasons (the ``reason`` argument) of an annotation that is dropped, one of two being kept:
#: its text is not in an exported file as written (``handrec export`` lists it).  The other T128
#: reasons (a NAG out of range or of the other section, a misplaced Note) keep the text.
T128_SECOND_NOTE = "is a second note reference (one is kept)"
T128_SECOND_SUFFIX = "is a second suffix (at most one)"
T128_SECOND_MARK = "repeats an irregularity mark before the same card (one a card)"
T128_DROPPED = frozenset((T128_SECOND_NOTE, T128_SECOND_SUFFIX))


def _nag_issue(n: int, span: Span, what: str, issues: list[_Issue]) -> None:
    """T128 for a NAG out of 0-255 or of the other section (PBN 2.1 §3.7: $1-$6 and $13 for
    calls only, $7-$12 and $14 for cards only)."""
    if n > 255:
        issues.append(("T128", span, {"token": f"${n}", "reason": "is not a NAG (0-255)"}))
    elif what == "call" and (7 <= n <= 12 or n == 14):
        issues.append(("T128", span, {"token": f"${n}", "reason": "is a NAG for cards, not calls"}))
    elif what == "card" and (1 <= n <= 6 or n == 13):
        issues.append(("T128", span, {"token": f"${n}", "reason": "is a NAG for calls, not cards"}))
