"""The PBN writer: boards to export format (PBN 2.1 §2.3, §3), lossless for a Board.

:func:`dumps` writes one board, :func:`dump` a file (with its header); :func:`normalise`
gives a board as the writer writes it (so as the reader reads it back) and
:func:`same_records` compares two boards that way.  Implementer notes in
``shared/specs/pbn.md``; the tag grammar is :mod:`handrec.formats.pbn.tags`, the table
columns :mod:`handrec.formats.pbn.table_cells`, the play lines
:mod:`handrec.formats.pbn.play_layout`.

What the writer guarantees
--------------------------

* **Export format** (PBN 2.1 §2-§3): ``% PBN 2.1`` / ``% EXPORT`` header and a
  ``%Content-type`` line naming the file's character set; CR LF line ends; games separated
  by one empty line; one tag pair per line, ``[Name "value"]`` from column 1; the 15 tags of
  the mandatory tag set first, in their order (a missing one is written ``"?"``, or ``""``
  for Declarer and Result of a passed-out board), then the other tags sorted by name; then
  the Auction section (the dealer's call first, four calls a line, note reference then
  NAGs in ascending order after a call, suffixes written as NAGs, its Note tags), the Play
  section (one trick a line, columns in seat order from the Play tag's seat, its Note
  tags), then the supplemental sections (tables) sorted by name, each row on one line,
  padded to the column widths of its header.  Typed values are written in export spelling:
  Board as a number, Dealer/Declarer upper case (``^`` kept for a declarer/dummy swap),
  Vulnerable ``None NS EW All``, Deal from the dealer with ranks high to low, Contract like
  ``4HX``/``3NT``/``Pass``, Result as declarer's tricks (``^`` kept).  Irregularities
  (``^I`` ``^S`` ``^R`` ``^L``, PBN 2.1 §3.9) and the end markers ``*`` and ``+`` are
  written where the reader reads them back.  Comments are written
  where they stand (:attr:`Board.comment_anchors <handrec.model.Board.comment_anchors>`):
  after a tag on a line of their own, after a call or card with one space before them.
* **Lossless**: every value the model holds comes back when the output is read, and
  ``dumps(read(dumps(b)))`` is byte-identical to ``dumps(b)``.  A tag value, comment or
  table element too long for a 255-character line is still written whole (the only way to
  keep it), and values the reader keeps as written (an unreadable Date, a Deal ``-``...)
  are written as they are, so their diagnostics come back too.
* **What PBN cannot hold** is mapped, and :func:`normalise` applies the same mapping:
  PBN has no alert flag: an alerted call becomes a note reference (its explanation, or an
  empty note); PBN has no claim token: a claim ends the play with ``*`` (the Result tag
  carries the tricks); a play without an opening leader (a LIN record) is led by
  declarer's left-hand opponent, so its cards can go into PBN's seat columns; a board
  with neither a contract nor a Contract tag (LIN without ``rs``) gets the contract (and
  declarer) its finished auction gives; a comment holding both ``}`` and a line break
  (only LIN can give one) has its ``}`` written as ``)``, and one holding ``}`` is a ``;``
  comment (in a play line: at the end of the line); note texts and tag values are written
  on one line; LIN's unknown commands (``Board.extra``) are not written.  A tag value
  ``#`` or starting ``##`` can only be written as a ``##`` header (PBN 2.1 §4.8), which
  also holds for the following games that lack the tag.

The round trip ("the same records")
-----------------------------------

For a board ``b`` read from any file, ``read(dumps(b))`` equals :func:`normalise` ``(b)``
by :class:`~handrec.model.Board` equality, which already ignores origins, positions and
diagnostics.  ``normalise`` is exactly what the writer changes: tags in the order and
spelling above (Auction, Play and Note tags at their sections, table tags after them),
missing mandatory tags added, alerts as notes, a claimed play ended with ``*``, play cards
padded with unknown cards to whole tricks and trailing all-unknown tricks dropped (as the
reader does), and the commentary in the order it is written (with its anchors).  It is
idempotent, so ``read(dumps(read(dumps(b))))`` equals ``read(dumps(b))``:
:func:`same_records` compares two boards this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, TextIO

from handrec.formats.pbn.play_layout import TRUMP_UNKNOWN, _play_slots, best_known, play_trump
from handrec.formats.pbn.table_cells import TABLES
from handrec.formats.pbn.tags import MTS_ORDER, TagValueError, _note, parse_columns
from handrec.model import (
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    CardAnnotation,
    Column,
    Contract,
    Deal,
    Note,
    Play,
    Seat,
    Table,
    Tag,
    Vulnerability,
    trick_winner,
)

__all__ = ["dumps", "dump", "normalise", "same_records"]


_EXPORT_VUL = {
    Vulnerability.NONE: "None",
    Vulnerability.NS: "NS",
    Vulnerability.EW: "EW",
    Vulnerability.BOTH: "All",
}
_MTS_INDEX = {name: i for i, name in enumerate(MTS_ORDER)}
#: Tags whose ``#``/``##`` the reader refuses (PBN 2.1 §4.8): such a value is read as written.
_NO_INHERIT = frozenset(("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"))
#: Characters of a section token (PBN 2.1 §3.2): ASCII 33-126 but [ ] { } ; " %.
_TOKEN_CHARS = frozenset(chr(c) for c in range(33, 127)) - set('[]{};"%')
_MAX_LINE = 253  # printable characters of a 255-character line with its CR LF


def _escape(value: str) -> str:
    """A string token's content (PBN 2.1 §3.2): ``"`` as ``\\"``; a backslash doubled where
    it would otherwise be read as an escape (before ``"`` or ``\\``, or last), else kept
    single as real files write table headers (``Result\\2R``).  Line ends become spaces."""
    if "\\" not in value and '"' not in value and "\n" not in value and "\r" not in value:
        return value
    value = value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    out = []
    n = len(value)
    for i, ch in enumerate(value):
        if ch == '"':
            out.append('\\"')
        elif ch == "\\" and (i + 1 == n or value[i + 1] in '"\\'):
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def _clean_value(name: str, value: str) -> str:
    """A tag value as it reads back: a string holds no line end (each becomes a space)."""
    if "\n" in value or "\r" in value:
        value = value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return value


def _tag_line(name: str, value: str) -> str:
    """A tag pair in export format.  A value the reader would take for inheritance (``#``
    alone, or ``##...``) is written ``##`` + value, the only way PBN has to give it (PBN 2.1
    §4.8); it then also holds for the following games that lack the tag."""
    if name not in _NO_INHERIT and (value == "#" or value[:2] == "##"):
        return f'[{name} "##{_escape(value)}"]'
    return f'[{name} "{_escape(value)}"]'


def _comment_text(text: str) -> str:
    """A comment as it will read back: a text holding ``}`` is written as a ``;`` comment,
    which ends at the line end and loses trailing blanks; one holding both ``}`` and a
    line break, or one too long for a line, has ``}`` written as ``)``; CR LF and CR are line
    breaks (LF); lines over :data:`_COMMENT_WIDTH` are broken at spaces (:func:`_wrap_comment`)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "}" in text:
        if "\n" in text:
            return _wrap_comment(text.replace("}", ")"))
        if len(text) <= _COMMENT_WIDTH:
            return text.rstrip()
        text = text.replace("}", ")")  # a long one: a brace comment, which can span lines
    return _wrap_comment(text)


#: The longest line of a written comment: room for the calls or cards of its line (export
#: format lines are at most 255 characters with their CR LF, PBN 2.1 §2.3).
_COMMENT_WIDTH = 160


def _wrap_comment(text: str) -> str:
    """A brace comment's lines longer than :data:`_COMMENT_WIDTH` broken at a space (the space
    becomes the line break: a comment's words and their order are kept, PBN 2.1 §3.8; issue
    #18: the export has no line over 255 characters).  A word longer than that stays whole."""
    if len(text) <= _COMMENT_WIDTH or all(len(line) <= _COMMENT_WIDTH for line in text.split("\n")):
        return text
    out = []
    for line in text.split("\n"):
        while len(line) > _COMMENT_WIDTH:
            cut = line.rfind(" ", 1, _COMMENT_WIDTH + 1)
            if cut <= 0:
                cut = line.find(" ", _COMMENT_WIDTH)
                if cut < 0:
                    break
            out.append(line[:cut])
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out)


def _comment_token(text: str) -> tuple[str, bool]:
    """The written comment (text already :func:`_comment_text`) and whether it ends the line."""
    if "}" in text:
        return ";" + text, True
    return "{" + text + "}", False


def _cell(value: str) -> str:
    """A table element: a section token when it can be one, else a string token."""
    if value and all(ch in _TOKEN_CHARS for ch in value):
        return value
    return '"' + _escape(value) + '"'


@dataclass(slots=True)
class _Out:
    """What the writer emits for one board: the text lines and, for :func:`normalise`,
    the tags, comments (with the anchor the reader will give each) and sections."""

    lines: list[str]
    tags: list[Tag]
    comments: list[str]
    anchors: list[tuple[str, int]]
    auction: Auction | None = None
    play: Play | None = None
    tables: tuple[Table, ...] = ()
    declarer: Seat | None = None
    contract: Contract | None = None


def _contract_and_declarer(b: Board) -> tuple[Seat | None, Contract | None]:
    """The declarer and contract the writer writes: the board's (the Contract's declarer when
    the board gives none); for a board with neither the typed value nor its tag (a LIN
    record without ``rs``), the one its finished auction gives."""
    declarer = b.declarer if b.declarer is not None else (None if b.contract is None else b.contract.declarer)
    contract = b.contract
    if b.auction is not None and (
        (contract is None and b.tag("Contract") is None) or (declarer is None and b.tag("Declarer") is None)
    ):
        from handrec.rules.auction import replay_auction

        r = replay_auction(b.auction)
        if r.contract is not None:
            if contract is None and b.tag("Contract") is None:
                contract = r.contract
            if declarer is None and b.tag("Declarer") is None and contract is not None:
                if contract.level == r.contract.level and contract.strain == r.contract.strain:
                    declarer = r.declarer
    if contract is not None and contract.declarer != declarer:
        contract = replace(contract, declarer=declarer)
    return declarer, contract


def _typed_value(name: str, raw: str | None, b: Board, declarer: Seat | None, contract: Contract | None) -> str | None:
    """The export spelling of a typed tag from the board's typed field, or None to keep
    the raw value (the field is unknown)."""
    if name == "Board":
        return None if b.number is None else str(b.number)
    if name == "Dealer":
        return None if b.dealer is None else str(b.dealer)
    if name == "Vulnerable":
        return None if b.vulnerable is None else _EXPORT_VUL[b.vulnerable]
    if name == "Deal":
        return None if b.deal is None else b.deal.to_pbn(b.dealer if b.dealer is not None else Seat.NORTH)
    if name == "Declarer":
        return None if declarer is None else ("^" if b.declarer_swapped else "") + str(declarer)
    if name == "Contract":
        return None if contract is None else str(contract)
    if name == "Result":
        if b.result is None:
            return None
        return ("^" if b.result_agreed else "") + str(b.result)
    return None


def _missing_value(name: str, contract: Contract | None) -> str:
    """A mandatory tag the board lacks: ``""`` (not applicable) for Declarer and Result of
    a passed-out board, else ``"?"`` (unknown), PBN 2.1 §3.4."""
    if name in ("Declarer", "Result") and contract is not None and contract.is_passed_out:
        return ""
    return "?"


def _note_text(text: str) -> str:
    """A note's text as it reads back: on one line, without spaces around it."""
    return _clean_value("Note", text).strip()


def _export_notes(notes: tuple[Note, ...]) -> tuple[Note, ...]:
    if all(n.text == _note_text(n.text) and n.index >= 0 for n in notes):
        return notes
    return tuple(Note(abs(n.index), _note_text(n.text)) for n in notes)


def _export_auction(a: Auction) -> Auction:
    """The auction as written: alerts as note references (PBN has no alert flag), a call's
    explanation without a note index given one (reusing the index of the same text),
    NAGs in ascending order, ``^I`` kept on bids only, note texts on one line.  A call's
    note index and text add a Note the section lacks; a reference to an index no Note
    gives stays a reference without text (as the reader reads it: T107)."""
    notes = list(_export_notes(a.notes))
    note_text: dict[int, str] = {}
    by_text: dict[str, int] = {}
    for n in notes:
        note_text.setdefault(n.index, n.text)
        by_text.setdefault(n.text, n.index)
    for c in a.calls:  # an index with its text: the Note of it, when the section lacks it
        if c.note is not None and c.note not in note_text and c.annotation is not None:
            text = _note_text(c.annotation)
            notes.append(Note(c.note, text))
            note_text[c.note] = text
            by_text.setdefault(text, c.note)
    taken = set(note_text) | {c.note for c in a.calls if c.note is not None}
    calls = []
    changed = False
    for c in a.calls:
        note, text = c.note, c.annotation
        if note is not None:
            text = note_text.get(note)
        else:
            if c.alert and text is None:
                text = ""
            if text is not None:
                text = _note_text(text)
                note = by_text.get(text)
                if note is None:
                    note = 1
                    while note in taken:
                        note += 1
                    taken.add(note)
                    notes.append(Note(note, text))
                    note_text[note] = text
                    by_text[text] = note
        nags = tuple(sorted(c.nags))
        irregular = c.irregular
        if irregular == "I" and c.kind is not CallKind.BID:
            irregular = None
        if (note, text, nags, irregular, False) != (c.note, c.annotation, c.nags, c.irregular, c.alert):
            c = Call(c.kind, c.level, c.strain, False, text, note, nags, c.span, irregular)
            changed = True
        calls.append(c)
    if not changed and tuple(notes) == a.notes:
        return a
    return replace(a, calls=tuple(calls), notes=tuple(notes))


def _opening_leader(b: Board, declarer: Seat | None) -> Seat | None:
    """Declarer's left-hand opponent (Law 41), declarer from the board or, when it has none,
    from its finished auction (:func:`handrec.rules.auction.replay_auction`)."""
    if declarer is None and b.auction is not None:
        from handrec.rules.auction import replay_auction

        declarer = replay_auction(b.auction).declarer
    return None if declarer is None else declarer.lho


def _export_play(p: Play, trump: Any, leader: Seat | None = None) -> Play:
    """The play as written and read back: without an opening leader (a LIN record) the
    play is led by ``leader`` (:func:`_opening_leader`), so that its cards, in play order,
    can be written in PBN's seat columns; a claim (no PBN token) ends the play with ``*``;
    cards padded with unknown ones to whole tricks (unless the play stops at ``+``) and
    trailing all-unknown tricks dropped, as the reader does; an ``"L"`` mark kept only on
    the first card of a trick (a trick has one leader); annotations and marks ``()`` when
    there are none."""
    if p.leader is None and leader is not None and p.cards:
        p = replace(p, leader=leader)
    cards = list(p.cards)
    n = len(cards)
    irr = list(p.irregular) + [None] * (n - len(p.irregular)) if p.irregular else [None] * n
    ann = list(p.annotations) + [None] * (n - len(p.annotations)) if p.annotations else [None] * n
    irr, ann = irr[:n], ann[:n]
    spans = list(p.spans) + [None] * (n - len(p.spans))
    ended = p.ended
    padded = p.padded  # trailing tricks of unknown cards: written back as '- - - -' (Play.padded)
    if p.claim is not None and ended is None:
        ended = "*"
    if ended != "+":
        while len(cards) % 4:
            cards.append(None)
            irr.append(None)
            ann.append(None)
            spans.append(None)
        while cards and cards[-4:] == [None, None, None, None]:
            del cards[-4:], irr[-4:], ann[-4:], spans[-4:]
            padded += 1
    if p.leader is not None and trump is not TRUMP_UNKNOWN:
        for i, mark in enumerate(irr):
            if mark == "L" and i % 4:
                irr[i] = None
    for i, a in enumerate(ann):
        if a is not None:
            if a.note is None and not a.nags:
                ann[i] = None
            elif list(a.nags) != sorted(a.nags):
                ann[i] = CardAnnotation(a.note, tuple(sorted(a.nags)))
    irregular = tuple(irr) if any(irr) else ()
    annotations = tuple(ann) if any(a is not None for a in ann) else ()
    notes = _export_notes(p.notes)
    lead = p.leader if p.leader is not None or not cards else leader
    return Play(
        lead, tuple(cards), None, ended, tuple(spans[: len(cards)]), irregular, notes, annotations, None, padded
    )


def _note_tags(notes: tuple[Note, ...]) -> list[Tag]:
    return [Tag("Note", f"{n.index}:{n.text}") for n in notes]


class _Emitter:
    """Writes one board's lines, recording each tag, comment and anchor as it goes."""

    def __init__(self, board: Board, anchor_of: Callable[[tuple[str, int]], tuple[str, int]]) -> None:
        self.b = board
        self.out = _Out([], [], [], [])
        c = board.commentary
        anchors = board.comment_anchors if len(board.comment_anchors) == len(c) else (("game", 0),) * len(c)
        self.by_anchor: dict[tuple[str, int], list[str]] = {}
        for text, anchor in zip(c, anchors):
            texts = self.by_anchor.setdefault(anchor_of(anchor), [])
            text = _comment_text(text)
            if texts and "}" in texts[-1] and "}" in text:
                # two ; comments in a row would read back as one (a run of ; lines is one
                # comment): this one is written as a brace comment, } as )
                text = _wrap_comment(text.replace("}", ")"))
            texts.append(text)

    def comments(self, anchor: tuple[str, int]) -> list[str]:
        return self.by_anchor.pop(anchor, [])

    def comment_lines(self, texts: list[str], anchor: tuple[str, int]) -> None:
        """Comments on lines of their own (after a tag, or before the first tag)."""
        for t in texts:
            self.out.lines.extend(_comment_token(t)[0].split("\n"))
            self.out.comments.append(t)
            self.out.anchors.append(anchor)

    def tag(self, tag: Tag, source: int | None) -> None:
        out = self.out
        out.lines.append(_tag_line(tag.name, tag.value))
        out.tags.append(Tag(tag.name, _clean_value(tag.name, tag.value)))
        if source is not None:
            self.comment_lines(self.comments(("tag", source)), ("tag", len(out.tags) - 1))


def _emit(board: Board, suffixes: bool = False) -> _Out:
    """The writer proper: the lines of one board in export format (see the module doc);
    ``suffixes``: a call's NAG 1-6 written as its suffix (:func:`dumps`)."""
    b = board
    declarer, contract = _contract_and_declarer(b)

    # --- classify the tags: identification, section tags, notes, tables ---------------
    tags = b.tags
    used = [False] * len(tags)
    auction_at = next((i for i, t in enumerate(tags) if t.name == "Auction"), None)
    play_at = next((i for i, t in enumerate(tags) if t.name == "Play"), None)
    dup_auction = [i for i, t in enumerate(tags) if t.name == "Auction" and i != auction_at]
    dup_play = [i for i, t in enumerate(tags) if t.name == "Play" and i != play_at]
    for i in (auction_at, play_at, *dup_auction, *dup_play):
        if i is not None:
            used[i] = True

    def take_notes(notes: tuple[Note, ...], start: int | None) -> list[int | None]:
        """The tag index of each note (the Note tags after ``start`` that read as it, else one
        before it: a Note the reader took from the identification section, written once, in
        its section)."""
        found: list[int | None] = []
        for n in notes:
            hit = None
            first = 0 if start is None else start + 1
            for i in chain(range(first, len(tags)), range(first)):
                t = tags[i]
                if not used[i] and t.name == "Note":
                    try:
                        if _note(t.value) == n:
                            hit = i
                            break
                    except TagValueError:
                        continue
            if hit is not None:
                used[hit] = True
            found.append(hit)
        return found

    trump = play_trump(b.contract, b.auction, bad_call=any(d.code in ("A306", "T106") for d in b.diagnostics))
    auction = None if b.auction is None else _export_auction(b.auction)
    play = None
    if b.play is not None:
        leader = _opening_leader(b, declarer) if b.play.leader is None and b.play.cards else None
        play = _export_play(b.play, trump, leader)
    auction_notes = take_notes(auction.notes, auction_at) if auction is not None else []
    play_notes = take_notes(play.notes, play_at) if play is not None else []

    tables: list[tuple[Table, int | None]] = []
    for table in b.tables:
        hit = None
        for i, t in enumerate(tags):
            if not used[i] and t.name == table.name:
                hit = i
                used[i] = True
                break
        tables.append((table, hit))
    for i, t in enumerate(tags):  # a known table's tag is a table, with rows or not
        if not used[i] and t.name in TABLES:
            used[i] = True
            tables.append((Table(t.name), i))

    def anchor_of(anchor: tuple[str, int]) -> tuple[str, int]:
        """Where a comment can stand in the output (see Board.comment_anchors)."""
        kind, i = anchor
        if kind == "tag" and 0 <= i < len(tags):
            if i == auction_at and auction is not None:
                return ("auction", -1)
            if i == play_at and play is not None:
                return ("play", -1)
            return anchor
        if kind == "auction" and auction is not None and -1 <= i < len(auction.calls):
            return anchor
        if kind == "play" and play is not None and -1 <= i < len(play.cards):
            return anchor
        return ("game", 0)

    em = _Emitter(b, anchor_of)
    out = em.out
    em.comment_lines(em.comments(("game", 0)), ("game", 0))

    # --- identification section: the MTS in order, then the rest by name ---------------
    first: dict[str, int] = {}
    for i, t in enumerate(tags):
        if not used[i] and t.name in _MTS_INDEX and t.name not in first:
            first[t.name] = i
    for name in MTS_ORDER:
        i = first.get(name)
        raw = None if i is None else tags[i].value
        value = _typed_value(name, raw, b, declarer, contract)
        if value is None:
            value = raw if raw is not None else _missing_value(name, contract)
        em.tag(Tag(name, value), i)
        if i is not None:
            used[i] = True
    rest = sorted((t.name, i) for i, t in enumerate(tags) if not used[i])
    for _, i in rest:
        em.tag(tags[i], i)

    # --- auction section ------------------------------------------------------------------
    if auction is not None or auction_at is not None:
        value = str(auction.dealer) if auction is not None else tags[auction_at].value  # type: ignore[index]
        em.tag(Tag("Auction", value), None)
        if auction is None:
            em.comment_lines(em.comments(("tag", auction_at)), ("tag", len(out.tags) - 1))  # type: ignore[arg-type]
        else:
            _emit_auction(em, auction, suffixes)
            for note_tag, src in zip(_note_tags(auction.notes), auction_notes):
                em.tag(note_tag, src)
        for i in dup_auction:
            em.tag(tags[i], i)

    # --- play section -----------------------------------------------------------------------
    if play is not None or play_at is not None:
        if play is not None and play.leader is not None:
            value = str(play.leader)
        else:
            value = "?" if play_at is None else tags[play_at].value
        em.tag(Tag("Play", value), None)
        if play is None:
            em.comment_lines(em.comments(("tag", play_at)), ("tag", len(out.tags) - 1))  # type: ignore[arg-type]
        else:
            _emit_play(em, play, trump, b.deal)
            for note_tag, src in zip(_note_tags(play.notes), play_notes):
                em.tag(note_tag, src)
        for i in dup_play:
            em.tag(tags[i], i)

    # --- supplemental sections, by name -------------------------------------------------------
    written = []
    for table, src in sorted(tables, key=lambda x: x[0].name):
        header = tags[src].value if src is not None else ";".join(str(c) for c in table.columns)
        em.tag(Tag(table.name, header), src)
        rows = tuple(r for r in table.rows if r)
        out.lines.extend(_table_lines(table.columns, rows))
        if table.name in TABLES:  # as the reader reads it back: columns from the header
            written.append(Table(table.name, parse_columns(_clean_value(table.name, header))[0], rows))
        elif rows:  # an unknown section: its data lines (no data, no section)
            written.append(Table(table.name, (), rows))
    out.tables = tuple(written)
    out.auction = auction
    out.declarer, out.contract = declarer, contract
    out.play = play
    return out


_SUFFIXES = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}


def _emit_auction(em: _Emitter, a: Auction, suffixes: bool = False) -> None:
    """Auction lines (PBN 2.1 §3.5): four calls a line from the dealer; after a call its
    note reference and NAGs (with ``suffixes``, a call's one NAG 1-6 as its suffix, PBN 2.1
    §3.7, as import-format files write it); a comment after a call ends the line."""
    out = em.out
    em.comment_lines(em.comments(("auction", -1)), ("auction", -1))
    line: list[str] = []
    count = 0
    width = 0

    def flush() -> None:
        nonlocal line, count, width
        if line:
            out.lines.extend(" ".join(line).split("\n"))
        line, count, width = [], 0, 0

    for i, c in enumerate(a.calls):
        item = ("^I " if c.irregular == "I" else "") + str(c)
        if c.note is not None:
            item += f" ={c.note}="
        if suffixes and len(c.nags) == 1 and c.nags[0] in _SUFFIXES:
            item += " " + _SUFFIXES[c.nags[0]]
        else:
            for nag in c.nags:
                item += f" ${nag}"
        if line and width + 1 + len(item) > _MAX_LINE:
            flush()
        line.append(item)
        width += len(item) + (1 if count else 0)
        count += 1
        texts = em.comments(("auction", i))
        for t in texts:
            token, ends_line = _comment_token(t)
            line.append(token)
            out.comments.append(t)
            out.anchors.append(("auction", i))
            if ends_line:  # a ';' comment runs to the end of its line
                flush()
        if texts or count == 4:
            flush()
    if a.ended in ("*", "+"):
        if count == 4 or width + 2 > _MAX_LINE:
            flush()
        line.append(a.ended)
        count += 1
    flush()


def _card_item(card: Card | None, mark: str | None, ann: CardAnnotation | None) -> str:
    item = ("" if mark is None else f"^{mark} ") + ("-" if card is None else str(card))
    if ann is not None:
        if ann.note is not None:
            item += f" ={ann.note}="
        for nag in ann.nags:
            item += f" ${nag}"
    return item


def _emit_play(em: _Emitter, p: Play, trump: Any, deal: Deal | None) -> None:
    """Play lines (PBN 2.1 §3.6): one trick a line, column ``j`` the seat ``leader + j``;
    ``-`` for an unknown card, ``+`` where the next card goes, ``*`` after a play the record
    ends; a comment after its card (a ``;`` comment, which ends the line, after the line's
    last card instead)."""
    out = em.out
    em.comment_lines(em.comments(("play", -1)), ("play", -1))
    cards = p.cards
    n = len(cards)
    slots = _play_slots(p, trump, deal)
    size = -(-n // 4) * 4
    if p.ended == "+":
        size = (n // 4 + 1) * 4
    order: list[int | None] = [None] * size  # slot -> play index
    for i, s in enumerate(slots):
        order[s] = i
    plus_slot = -1
    if p.ended == "+":
        if p.leader is None or trump is TRUMP_UNKNOWN:
            plus_slot = n
        else:
            t = (n // 4) * 4
            done = n - t
            if done == 0:  # the next trick: led by the winner of the last one
                if n:
                    last = list(cards[n - 4 : n])
                    lead_col = (slots[n - 4] - (n - 4)) % 4
                    lead_seat = p.leader.offset(lead_col)
                    if None in last:
                        nxt = lead_seat.offset(best_known(last, trump))
                    else:
                        nxt = trick_winner(lead_seat, last, trump)  # type: ignore[arg-type]
                    plus_slot = t + (nxt - p.leader) % 4
                else:
                    plus_slot = 0
            else:
                first_col = slots[t] - t
                plus_slot = t + (first_col + done) % 4
    irr = p.irregular
    ann = p.annotations
    last_in_play = -1
    for start in range(0, size, 4):
        items: list[str] = []
        tail: list[str] = []
        for s in range(start, start + 4):
            i = order[s]
            if s == plus_slot:
                items.append("+")
                continue
            if i is None:
                items.append("-")
                continue
            items.append(_card_item(cards[i], irr[i] if irr else None, ann[i] if ann else None))
            last_in_play = i
            for t in em.comments(("play", i)):
                token, ends_line = _comment_token(t)
                if ends_line:
                    tail.append(t)
                else:
                    items.append(token)
                    out.comments.append(t)
                    out.anchors.append(("play", i))
        for k, t in enumerate(tail):  # ';' comments: each ends a line, the first this one
            if k == 0:
                items.append(_comment_token(t)[0])
            out.comments.append(t)
            out.anchors.append(("play", last_in_play))
        out.lines.extend(" ".join(items).split("\n"))
        out.lines.extend(_comment_token(t)[0] for t in tail[1:])
    if p.padded and p.ended is None:
        # the record's '- - - -' tricks after the last card (Play.padded): written back, so
        # that the play reads again as padded, not as one that stops short (issue #18)
        out.lines.extend(["- - - -"] * p.padded)
    if p.ended == "*":
        out.lines.append("*")


def _table_lines(cols: tuple[Column, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """A table's rows, one a line (PBN 2.1 §5.2): elements separated by one space and
    padded to their column's minimum width (``R``: spaces before, else after)."""
    lines = []
    for row in rows:
        parts = []
        for k, v in enumerate(row):
            text = _cell(v)
            col = cols[k] if k < len(cols) else None
            if col is not None and col.width is not None and len(text) < col.width:
                text = text.rjust(col.width) if col.align == "R" else text.ljust(col.width)
            parts.append(text)
        lines.append(" ".join(parts).rstrip())
    return lines


def dumps(board: Board, *, suffixes: bool = False) -> str:
    """One board as PBN export format (CR LF line ends, no separating empty line).
    ``suffixes``: a call's single NAG 1-6 is written as its suffix (``!`` for $1, PBN 2.1
    §3.7), as files in import format write it (the reader reads both the same).

    >>> from handrec.model import Origin
    >>> b = Board(Origin("x"), tags=(Tag("Board", "1"), Tag("Dealer", "N")), number=1, dealer=Seat.NORTH)
    >>> dumps(b).splitlines()[2:5]
    ['[Date "?"]', '[Board "1"]', '[West "?"]']
    """
    return "\r\n".join(_emit(board, suffixes).lines) + "\r\n"


def normalise(board: Board) -> Board:
    """The board as the writer writes it, so as the reader reads it back (see the module
    doc, "The round trip"): ``read(dumps(b)) == normalise(b)``.  Idempotent."""
    out = _emit(board)
    b = board
    declarer, contract = out.declarer, out.contract
    return replace(
        b,
        tags=tuple(out.tags),
        auction=out.auction,
        play=out.play,
        tables=out.tables,
        contract=contract,
        declarer=declarer,
        commentary=tuple(out.comments),
        comment_anchors=tuple(out.anchors),
        extra=(),
    )


def same_records(a: Board, b: Board) -> bool:
    """Whether two boards hold the same records as PBN can write them:
    ``normalise(a) == normalise(b)`` (origins, positions and diagnostics never count)."""
    return normalise(a) == normalise(b)


def _charset(encoding: str | None) -> str:
    e = (encoding or "utf-8").lower().replace("_", "-")
    if e in ("utf-8", "utf8", "utf-8-sig"):
        return "UTF-8"
    if e in ("latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1"):
        return "ISO-8859-1"
    return e.upper()


def dump(boards: Iterable[Board], file: TextIO, *, header: bool = True, suffixes: bool = False) -> int:
    """Write boards as a PBN file in export format: the header ``% PBN 2.1``, ``% EXPORT``
    and ``%Content-type: text/x-pbn; charset=...`` (the file's encoding, UTF-8 when it
    has none), then the games separated by empty lines.  Open the file with
    ``newline=""``: the lines end in CR LF already.

    ``suffixes`` as in :func:`dumps`; the file is then in import format, without the
    ``% EXPORT`` line (export format writes NAGs, PBN 2.1 §3.7).  Returns the number of
    boards written.
    """
    n = 0
    if header:
        charset = _charset(getattr(file, "encoding", None))
        export = "" if suffixes else "% EXPORT\r\n"
        file.write(f"% PBN 2.1\r\n{export}%Content-type: text/x-pbn; charset={charset}\r\n")
    for b in boards:
        file.write("\r\n" if n else "")
        file.write(dumps(b, suffixes=suffixes))
        n += 1
    return n
