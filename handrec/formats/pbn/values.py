"""PBN notation: the value grammar of every tag and table, the play layout, and the writer.

Four parts (PBN 2.1; implementer notes in ``shared/specs/pbn.md``):

1. **Tags** (:data:`TAGS`, :func:`typed_tag`, :func:`tag_value`): every tag of PBN 2.1 §3.4
   and §4, the section tags (Auction, Play, Note), the tables of §5 and the de-facto
   extensions of pbn.md §17, each with its group, its source and a parser from the value
   string to a typed value (:class:`TagValueError` when the value is not in PBN form).
   The reader (:mod:`handrec.formats.pbn.reader`) uses them to check values (T121).
2. **Tables** (:data:`TABLES`, :func:`parse_columns`, :func:`typed_cell`,
   :func:`table_records`): the predefined columns of the eight tables of PBN 2.1 §5 with
   a converter for each, and the header grammar ``[+|-]name[\\width[L|R]]``.
3. **Play layout** (:func:`play_trump`, :func:`best_known`, :func:`play_lines`): how play
   order maps to PBN's seat-ordered play lines (PBN 2.1 §3.6), shared by reader and writer.
4. **Writer** (:func:`dumps`, :func:`dump`, :func:`normalise`, :func:`same_records`):
   boards to export format (PBN 2.1 §2.3, §3), lossless for everything a
   :class:`~handrec.model.Board` holds.

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

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, NamedTuple, TextIO

from handrec.dd.solver import DD_SEATS, DD_STRAINS, DDError, DDTable
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
    ModelError,
    Note,
    Play,
    Seat,
    Side,
    Strain,
    Suit,
    Table,
    Tag,
    Vulnerability,
    sided_parts,
    trick_winner,
)
from handrec.scoring.traveller import MAX_MULTIPLICITY

__all__ = [
    "MTS_ORDER",
    "TAGS",
    "TABLES",
    "TagSpec",
    "TableSpec",
    "TagValueError",
    "Artificial",
    "typed_tag",
    "tag_value",
    "parse_columns",
    "typed_cell",
    "table_records",
    "TRUMP_UNKNOWN",
    "play_trump",
    "best_known",
    "play_lines",
    "rubber_vulnerability",
    "dumps",
    "dump",
    "normalise",
    "same_records",
]


class TagValueError(ValueError):
    """A tag value or table element not in the form PBN gives it; ``str()`` says the form."""


# =========================================================================================
# 1. Tags (PBN 2.1 §3.4, §4, §5; pbn.md §6, §13, §17)
# =========================================================================================

#: The mandatory tag set in export order (PBN 2.1 §3.4; PBN 1.0 has no Scoring).
MTS_ORDER = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)

_SEAT_LETTERS = {ch: Seat.parse(ch) for ch in "NESWnesw"}
_SIDE_WORDS = {"NS": Side.NS, "EW": Side.EW}


def _bad(expected: str) -> TagValueError:
    return TagValueError(expected)


def _text(v: str) -> str:
    return v


def _names(v: str) -> tuple[str, ...]:
    """Several people or items separated by ``;`` (PBN 2.1 §3.3)."""
    return tuple(p.strip() for p in v.split(";"))


_DATE_RE = re.compile(r"([\d?]{4})\.([\d?]{2})\.([\d?]{2})")
_TIME_RE = re.compile(r"([\d?]{2}):([\d?]{2}):([\d?]{2})")


def _digits(g: str) -> int | None:
    return int(g) if g.isdigit() else None


def _date(v: str) -> tuple[int | None, int | None, int | None]:
    """``YYYY.MM.DD``, any digit may be ``?`` (PBN 2.1 §3.4.3): (year, month, day), None
    for a part not fully known."""
    m = _DATE_RE.fullmatch(v)
    if m is None:
        raise _bad("YYYY.MM.DD (? for an unknown digit)")
    y, mo, d = (_digits(g) for g in m.groups())
    if (mo is not None and not 1 <= mo <= 12) or (d is not None and not 1 <= d <= 31):
        raise _bad("YYYY.MM.DD with a month 01-12 and a day 01-31")
    return y, mo, d


def _time(v: str) -> tuple[int | None, int | None, int | None]:
    """``HH:MM:SS`` (PBN 2.1 §4.5.1): (hours, minutes, seconds)."""
    m = _TIME_RE.fullmatch(v)
    if m is None:
        raise _bad("HH:MM:SS")
    h, mi, s = (_digits(g) for g in m.groups())
    if (h is not None and h > 23) or (mi is not None and mi > 59) or (s is not None and s > 59):
        raise _bad("HH:MM:SS with hours 00-23 and minutes and seconds 00-59")
    return h, mi, s


def _positive(v: str) -> int:
    if not (v.isascii() and v.isdigit()) or int(v) < 1:
        raise _bad("a positive integer")
    return int(v)


def _count(v: str) -> int:
    if not (v.isascii() and v.isdigit()):
        raise _bad("a number of seconds")
    return int(v)


def _seat(v: str) -> Seat:
    seat = _SEAT_LETTERS.get(v.strip())
    if seat is None:
        raise _bad("W, N, E or S")
    return seat


def _vulnerable(v: str) -> Vulnerability:
    try:
        return Vulnerability.parse(v)
    except ModelError:
        raise _bad("None, Love, -, NS, EW, All or Both") from None


def _deal(v: str) -> Deal:
    try:
        return Deal.parse(v)
    except ModelError as e:
        raise _bad(f"<first>:<hand> <hand> <hand> <hand> ({e})") from None


def _declarer(v: str) -> tuple[bool, Seat]:
    """``W N E S``, ``^`` first for a declarer/dummy swap (PBN 2.1 §3.4.13): (swapped, seat)."""
    t = v.strip()
    swapped = t[:1] == "^"
    return swapped, _seat(t[1:] if swapped else t)


def _contract(v: str) -> Contract:
    try:
        return Contract.parse(v)
    except ModelError:
        raise _bad("Pass or <level><denomination><risk> like 4HX (a denomination alone for an end position)") from None


_RESULT_RE = re.compile(r"(\d+)|(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+(\d+))?")


def _result(v: str) -> tuple[bool, tuple[tuple[Side | None, int], ...]]:
    """Result (PBN 2.1 §3.4.15): (agreed with ``^``, ((side or None for declarer, tricks), ...))."""
    t = v.strip()
    agreed = t[:1] == "^"
    m = _RESULT_RE.fullmatch(t[1:].strip() if agreed else t)
    if m is None:
        raise _bad("tricks 0-13, or NS <tricks>, EW <tricks> or both")
    if m.group(1) is not None:
        pairs: tuple[tuple[Side | None, int], ...] = ((None, int(m.group(1))),)
    else:
        pairs = ((_SIDE_WORDS[m.group(2)], int(m.group(3))),)
        if m.group(4) is not None:
            if m.group(4) == m.group(2):
                raise _bad("NS and EW each at most once")
            pairs += ((_SIDE_WORDS[m.group(4)], int(m.group(5))),)
    if any(n > 13 for _, n in pairs):
        raise _bad("tricks 0-13")
    return agreed, pairs


_FIELD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*")


def _scoring(v: str) -> tuple[str, ...]:
    """Scoring (PBN 2.1 §3.4.12): fields separated by ``;``, an open list (MP, IMP, Butler...)."""
    fields = tuple(f.strip() for f in v.split(";"))
    if not all(_FIELD_RE.fullmatch(f) for f in fields):
        raise _bad("names like IMP or MP;MP1 separated by ';'")
    return fields


_INT = r"[+-]?\d+"
_DEC = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_RUBBER = r"\d+\s*/\s*\d+"


def _number(text: str) -> int | float:
    return int(text) if re.fullmatch(_INT, text) else float(text)


def _sided(number: str, convert: Callable[[str], Any], expected: str) -> Callable[[str], Any]:
    """A parser of the five forms of the Score tags (PBN 2.1 §4.2.1): ``<n>`` (declarer's),
    ``NS <n>``, ``EW <n>``, ``NS <n> EW <n>``, ``EW <n> NS <n>``."""

    def parse(v: str) -> tuple[tuple[Side | None, Any], ...]:
        parts = sided_parts(v, number)  # NS and EW in upper case, as the standard writes them
        if parts is None:
            raise _bad(expected)
        return tuple((None if side is None else _SIDE_WORDS[side], convert(text)) for side, text in parts)

    return parse


def _rubber_score(text: str) -> tuple[int, int]:
    above, below = text.split("/")
    return int(above), int(below)


def _percentage(text: str) -> float | int:
    n = _number(text)
    if not 0 <= n <= 100:
        raise _bad("a percentage 0-100")
    return n


def _optimum_score(v: str) -> tuple[tuple[Side, int], ...]:
    """OptimumScore (PBN 2.1 §4.2.7): ``NS <s>``, ``EW <s>`` or both with NS = -EW."""
    pairs = _sided(_INT, int, "NS <score>, EW <score> or both")(v)
    if any(side is None for side, _ in pairs):
        raise _bad("NS <score>, EW <score> or both (a side is needed)")
    if len(pairs) == 2 and pairs[0][1] != -pairs[1][1]:
        raise _bad("NS <score> EW <score> with the EW score the NS score negated")
    return pairs  # type: ignore[return-value]


_HISTORY_RE = re.compile(r"(\d+)\s+(\d+)\s*/\s*(\d+)(?:\s+(\d+))?(?:\s+(\d+))?")


def _rubber_history(v: str) -> dict[Side, tuple[int, int, tuple[int, ...]]]:
    """ScoreRubberHistory (PBN 2.1 §4.2.6): ``NS <h> EW <h>``, ``<h>`` =
    ``<above_previous> <above_current>/<below-1> [<below-2> [<below-3>]]``; per side
    (above previous rubbers, above this rubber, below the line per game)."""
    m = re.fullmatch(r"\s*(NS|EW)\s+(.*?)\s+(NS|EW)\s+(.*?)\s*", v)
    expected = "NS <above> <above>/<below> [<below> [<below>]] EW <the same>"
    if m is None or m.group(1) == m.group(3):
        raise _bad(expected)
    out: dict[Side, tuple[int, int, tuple[int, ...]]] = {}
    for side, h in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
        hm = _HISTORY_RE.fullmatch(h)
        if hm is None:
            raise _bad(expected)
        below = tuple(int(g) for g in hm.groups()[2:] if g is not None)
        out[_SIDE_WORDS[side]] = (int(hm.group(1)), int(hm.group(2)), below)
    if len(out[Side.NS][2]) != len(out[Side.EW][2]):
        raise _bad("the same number of games below the line for NS and EW")
    return out


def rubber_vulnerability(history: dict[Side, tuple[int, int, tuple[int, ...]]]) -> Vulnerability:
    """The vulnerability a ScoreRubberHistory implies: a side that has won a game of the
    rubber (100 or more below the line in a finished game) is vulnerable (PBN 2.1 §4.2.6)."""
    games = len(history[Side.NS][2]) - 1  # the last entry is the game in progress
    won = {Side.NS: False, Side.EW: False}
    for g in range(games):
        for side in won:
            if history[side][2][g] >= 100:
                won[side] = True
    return Vulnerability(int(won[Side.NS]) + 2 * int(won[Side.EW]))


def _yes_no(v: str) -> bool:
    if v not in ("Yes", "No"):
        raise _bad("Yes or No")
    return v == "Yes"


def _hidden(v: str) -> tuple[Seat, ...]:
    if not v or any(ch not in "WNES" for ch in v) or len(set(v)) != len(v):
        raise _bad("seat letters from WNES, each at most once")
    return tuple(Seat.parse(ch) for ch in v)


def _room(v: str) -> str:
    if v not in ("Open", "Closed"):
        raise _bad("Open or Closed")
    return v


_ROUND_RE = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")


def _round(v: str) -> tuple[str, ...]:
    if _ROUND_RE.fullmatch(v) is None:
        raise _bad("indicators of letters, digits and _ separated by '.', like 2 or 1.A.2")
    return tuple(v.split("."))


def _time_control(v: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)/(\d+)", v)
    if m is None:
        raise _bad("<games>/<minutes>, or empty for no limit")
    return int(m.group(1)), int(m.group(2))


def _note(v: str) -> Note:
    m = re.fullmatch(r"\s*(\d+)\s*:(.*)", v, re.S)
    if m is None:
        raise _bad("<index>:<text>")
    return Note(int(m.group(1)), m.group(2).strip())


def _dd_mapping(table: DDTable) -> dict[tuple[Seat, Strain], int]:
    return {(seat, strain): table[seat, strain] for seat in DD_SEATS for strain in DD_STRAINS}


#: The (declarer, strain) of each digit of a DoubleDummyTricks value, in order.
_DD_KEYS = tuple((seat, strain) for seat in DD_SEATS for strain in DD_STRAINS)
_DD_DIGITS = {ch: int(ch, 16) for ch in "0123456789abcdABCD"}


def _double_dummy(v: str) -> dict[tuple[Seat, Strain], int]:
    """DoubleDummyTricks (pbn.md §17), read by :meth:`handrec.dd.solver.DDTable.parse_hex`
    (20 digits 0-d are read here directly, to the same mapping: a hand record has one)."""
    t = v.strip()
    if len(t) == 20:
        try:
            return dict(zip(_DD_KEYS, map(_DD_DIGITS.__getitem__, t)))
        except KeyError:
            pass  # not a digit 0-d: DDTable.parse_hex gives the error
    try:
        return _dd_mapping(DDTable.parse_hex(v))
    except DDError:
        raise _bad("20 hexadecimal digits 0-d (declarers N, S, E, W; strains NT, S, H, D, C)") from None


def _ability(v: str) -> dict[tuple[Seat, Strain], int]:
    """Ability (Big Deal, pbn.md §17), read by :meth:`handrec.dd.solver.DDTable.parse_ability`."""
    try:
        return _dd_mapping(DDTable.parse_ability(v))
    except DDError:
        raise _bad("N:xxxxx E:xxxxx S:xxxxx W:xxxxx (hexadecimal tricks 0-d for NT, S, H, D, C)") from None


_PAR_RE = re.compile(r"(NS|EW|[NESW]) (Pass|[1-7](?:NT|[CDHSN])(?:XX|X)?(?:=|[+-]\d{1,2}))")


def _par_contract(v: str) -> tuple[str, ...]:
    """ParContract (BridgeComposer, pbn.md §17): ``NS 6S=``, ``EW 1S+2``, several joined by ``;``."""
    parts = tuple(p.strip() for p in v.split(";"))
    if not all(_PAR_RE.fullmatch(p) for p in parts):
        raise _bad("<side> <contract><=|+n|-n> like NS 4S= or EW 5DX-1, several separated by ';'")
    return parts


def _optimum_contract(v: str) -> tuple[str, Seat, int]:
    m = re.fullmatch(r"([1-7](?:NT|[CDHSN])(?:XX|X)?)\s+([NESW])\s+(\d{1,2})", v.strip())
    if m is None or int(m.group(3)) > 13:
        raise _bad("<contract> <declarer> <tricks> like 5S N 11")
    return m.group(1), Seat.parse(m.group(2)), int(m.group(3))


def _integer(v: str) -> int:
    if re.fullmatch(_INT, v.strip()) is None:
        raise _bad("an integer like -430")
    return int(v)


_MINIMAX_RE = re.compile(r"([1-7])([CDHSN])([DR]?)([NESW])([+-]?\d+)")


def _minimax(v: str) -> tuple[int, Strain, str, Seat, int]:
    """Minimax (Big Deal, pbn.md §17): ``<level><strain>[D]<declarer><score>`` like 4SDE300."""
    m = _MINIMAX_RE.fullmatch(v)
    if m is None:
        raise _bad("<level><strain>[D]<declarer><score> like 3NS400 or 4SDE300")
    return int(m.group(1)), Strain.parse(m.group(2)), m.group(3), Seat.parse(m.group(4)), int(m.group(5))


def _hex(v: str) -> int:
    if not v or any(ch not in "0123456789abcdefABCDEF" for ch in v):
        raise _bad("a hexadecimal number like 1f")
    return int(v, 16)


def _columns(v: str) -> tuple[Column, ...]:
    cols, problems = parse_columns(v)
    if problems:
        raise _bad(problems[0][1])
    return cols


class TagSpec(NamedTuple):
    """A tag known to PBN: ``group`` is ``"mts"`` (PBN 2.1 §3.4), ``"supplemental"`` (§4),
    ``"section"`` (Auction, Play, Note: §3.5-3.6), ``"table"`` (§5) or ``"extension"``
    (pbn.md §17); ``parse`` turns a value into a typed value or raises
    :class:`TagValueError`; ``checked`` says whether the reader reports a value not in
    form as T121 (the typed Board fields have their own codes, the Score tags are the
    scorer's)."""

    name: str
    group: str
    source: str
    parse: Callable[[str], Any]
    checked: bool = False


def _spec(name: str, group: str, source: str, parse: Callable[[str], Any] = _text, checked: bool = False) -> TagSpec:
    return TagSpec(name, group, source, parse, checked)


_PLAYER = "PBN 2.1 §3.4.5-3.4.8"
#: Every tag PBN knows, by name.
TAGS: dict[str, TagSpec] = {
    s.name: s
    for s in [
        # the mandatory tag set (PBN 2.1 §3.4)
        _spec("Event", "mts", "PBN 2.1 §3.4.1"),
        _spec("Site", "mts", "PBN 2.1 §3.4.2"),
        _spec("Date", "mts", "PBN 2.1 §3.4.3", _date, True),
        _spec("Board", "mts", "PBN 2.1 §3.4.4", _positive, True),
        _spec("West", "mts", _PLAYER, _names),
        _spec("North", "mts", _PLAYER, _names),
        _spec("East", "mts", _PLAYER, _names),
        _spec("South", "mts", _PLAYER, _names),
        _spec("Dealer", "mts", "PBN 2.1 §3.4.9", _seat),
        _spec("Vulnerable", "mts", "PBN 2.1 §3.4.10", _vulnerable),
        _spec("Deal", "mts", "PBN 2.1 §3.4.11", _deal),
        _spec("Scoring", "mts", "PBN 2.1 §3.4.12", _scoring, True),
        _spec("Declarer", "mts", "PBN 2.1 §3.4.13", _declarer),
        _spec("Contract", "mts", "PBN 2.1 §3.4.14", _contract),
        _spec("Result", "mts", "PBN 2.1 §3.4.15", _result),
        # sections (PBN 2.1 §3.5-3.6)
        _spec("Auction", "section", "PBN 2.1 §3.5", _seat),
        _spec("Play", "section", "PBN 2.1 §3.6", _seat),
        _spec("Note", "section", "PBN 2.1 §3.5.5, §3.6.5", _note),
        # supplemental tags (PBN 2.1 §4)
        _spec("Competition", "supplemental", "PBN 2.1 §4.1.1"),
        _spec("DealId", "supplemental", "PBN 2.1 §4.1.2"),
        _spec("Description", "supplemental", "PBN 2.1 §4.1.3"),
        _spec("FrenchMP", "supplemental", "PBN 2.1 §4.1.4", _yes_no, True),
        _spec("Generator", "supplemental", "PBN 2.1 §4.1.5"),
        _spec("Hidden", "supplemental", "PBN 2.1 §4.1.6", _hidden, True),
        _spec("Room", "supplemental", "PBN 2.1 §4.1.7", _room, True),
        _spec("Termination", "supplemental", "PBN 2.1 §4.1.8"),
        _spec("Score", "supplemental", "PBN 2.1 §4.2.1", _sided(_INT, int, "<score>, NS <score>, EW <score> or both")),
        _spec("ScoreIMP", "supplemental", "PBN 2.1 §4.2.2", _sided(_DEC, _number, "IMPs in a Score form")),
        _spec("ScoreMP", "supplemental", "PBN 2.1 §4.2.3", _sided(_DEC, _number, "matchpoints in a Score form")),
        _spec(
            "ScorePercentage",
            "supplemental",
            "PBN 2.1 §4.2.4",
            _sided(_DEC, _percentage, "a percentage 0-100 in a Score form"),
        ),
        _spec(
            "ScoreRubber",
            "supplemental",
            "PBN 2.1 §4.2.5",
            _sided(_RUBBER, _rubber_score, "<above>/<below> in a Score form"),
        ),
        _spec("ScoreRubberHistory", "supplemental", "PBN 2.1 §4.2.6", _rubber_history, True),
        _spec("OptimumScore", "supplemental", "PBN 2.1 §4.2.7", _optimum_score, True),
        _spec("BidSystemEW", "supplemental", "PBN 2.1 §4.3.1"),
        _spec("BidSystemNS", "supplemental", "PBN 2.1 §4.3.1"),
        _spec("PairEW", "supplemental", "PBN 2.1 §4.3.2"),
        _spec("PairNS", "supplemental", "PBN 2.1 §4.3.2"),
        _spec("WestNA", "supplemental", "PBN 2.1 §4.3.3"),
        _spec("NorthNA", "supplemental", "PBN 2.1 §4.3.3"),
        _spec("EastNA", "supplemental", "PBN 2.1 §4.3.3"),
        _spec("SouthNA", "supplemental", "PBN 2.1 §4.3.3"),
        _spec("WestType", "supplemental", "PBN 2.1 §4.3.4"),
        _spec("NorthType", "supplemental", "PBN 2.1 §4.3.4"),
        _spec("EastType", "supplemental", "PBN 2.1 §4.3.4"),
        _spec("SouthType", "supplemental", "PBN 2.1 §4.3.4"),
        _spec("EventDate", "supplemental", "PBN 2.1 §4.4.1", _date, True),
        _spec("EventSponsor", "supplemental", "PBN 2.1 §4.4.2"),
        _spec("HomeTeam", "supplemental", "PBN 2.1 §4.4.3"),
        _spec("Round", "supplemental", "PBN 2.1 §4.4.4", _round, True),
        _spec("Section", "supplemental", "PBN 2.1 §4.4.5"),
        _spec("Stage", "supplemental", "PBN 2.1 §4.4.6"),
        _spec("Table", "supplemental", "PBN 2.1 §4.4.7", _positive, True),
        _spec("VisitTeam", "supplemental", "PBN 2.1 §4.4.8"),
        _spec("Time", "supplemental", "PBN 2.1 §4.5.1", _time, True),
        _spec("UTCDate", "supplemental", "PBN 2.1 §4.5.2", _date, True),
        _spec("UTCTime", "supplemental", "PBN 2.1 §4.5.3", _time, True),
        _spec("TimeControl", "supplemental", "PBN 2.1 §4.6.1", _time_control, True),
        _spec("TimeCall", "supplemental", "PBN 2.1 §4.6.2", _count, True),
        _spec("TimeCard", "supplemental", "PBN 2.1 §4.6.3", _count, True),
        _spec("Annotator", "supplemental", "PBN 2.1 §4.7.1", _names),
        _spec("AnnotatorNA", "supplemental", "PBN 2.1 §4.7.2"),
        _spec("Application", "supplemental", "PBN 2.1 §4.7.3"),
        _spec("Mode", "supplemental", "PBN 2.1 §4.7.4"),
        # tables (PBN 2.1 §5): the value is the column header
        _spec("ActionTable", "table", "PBN 2.1 §5.3", _columns),
        _spec("AuctionTimeTable", "table", "PBN 2.1 §5.4", _columns),
        _spec("InstantScoreTable", "table", "PBN 2.1 §5.5", _columns),
        _spec("OptimumPlayTable", "table", "PBN 2.1 §5.6", _columns),
        _spec("OptimumResultTable", "table", "PBN 2.1 §5.7", _columns),
        _spec("PlayTimeTable", "table", "PBN 2.1 §5.8", _columns),
        _spec("ScoreTable", "table", "PBN 2.1 §5.9", _columns),
        _spec("TotalScoreTable", "table", "PBN 2.1 §5.10", _columns),
        # de-facto extensions (pbn.md §17)
        _spec("DoubleDummyTricks", "extension", "pbn.md §17 (BridgeComposer)", _double_dummy, True),
        _spec("ParContract", "extension", "pbn.md §17 (BridgeComposer)", _par_contract, True),
        _spec("OptimumContract", "extension", "pbn.md §17 (Ruter)", _optimum_contract, True),
        _spec("ParScore", "extension", "pbn.md §17 (BEN)", _integer, True),
        _spec("Ability", "extension", "pbn.md §17 (Big Deal)", _ability, True),
        _spec("Minimax", "extension", "pbn.md §17 (Big Deal)", _minimax, True),
        _spec("BCFlags", "extension", "pbn.md §17 (BridgeComposer)", _hex, True),
    ]
}

#: Known tag names by their lower-case spelling (a wrong-case name is read as the known tag, T122).
TAG_NAMES_FOLDED = {name.lower(): name for name in TAGS}


def typed_tag(name: str, value: str) -> Any:
    """The typed value of a tag pair: ``None`` for ``?`` (unknown) and ``""`` (not
    applicable) of a tag with a format; the string itself for free-text and unknown tags.

    :raises TagValueError: when the value is not in the tag's PBN form.

    >>> typed_tag("Date", "2012.08.??"), typed_tag("ScoreIMP", "NS 4 EW -4")
    ((2012, 8, None), ((Side.NS, 4), (Side.EW, -4)))
    >>> dd = typed_tag("DoubleDummyTricks", "79118791181171111711")
    >>> dd[(Seat.NORTH, Strain.SPADES)], dd[(Seat.EAST, Strain.HEARTS)]
    (9, 7)
    """
    spec = TAGS.get(name)
    if spec is None or spec.parse is _text:
        return value
    if value.strip() in ("", "?"):
        return None
    return spec.parse(value)


def tag_value(board: Board, name: str) -> Any:
    """The typed value of the board's first tag called ``name`` (see :func:`typed_tag`),
    ``None`` when the tag is missing or its value is not in PBN form."""
    v = board.tag(name)
    if v is None:
        return None
    try:
        return typed_tag(name, v)
    except TagValueError:
        return None


# =========================================================================================
# 2. Tables (PBN 2.1 §5)
# =========================================================================================

_COLUMN_RE = re.compile(r"([+-]?)([^\\]*)(?:\\(\d+)([LR]?))?")


def parse_columns(value: str) -> tuple[tuple[Column, ...], list[tuple[str, str]]]:
    """A table tag's value to its columns (PBN 2.1 §3.2, §5.2): ``[+|-]name[\\width[L|R]]``
    separated by ``;``.  Returns the columns read and ``(column text, reason)`` for each
    that is not valid (left out of the columns).

    >>> parse_columns("Declarer;Denomination\\\\2R;-Rank")[0][1:]
    (Column(name='Denomination', sort=None, width=2, align='R'), Column(name='Rank', sort='-', width=None, align=None))
    >>> parse_columns("Rank;Call\\\\L")[1]
    [('Call\\\\L', "'\\\\' must be followed by a width like \\\\2 or \\\\2R")]
    """
    cols: list[Column] = []
    problems: list[tuple[str, str]] = []
    if value == "":
        return (), [("", "a table needs at least one column")]
    for text in value.split(";"):
        m = _COLUMN_RE.fullmatch(text)
        if m is None:
            problems.append((text, "'\\' must be followed by a width like \\2 or \\2R"))
            continue
        sort, name, width, align = m.groups()
        if not name:
            problems.append((text, "no column name"))
            continue
        cols.append(Column(name, sort or None, None if width is None else int(width), align or None))
    return tuple(cols), problems


class Artificial(NamedTuple):
    """A table element written with ``^``: an artificial score (PBN 2.1 §5.2)."""

    value: int | float


def _cell_number(pattern: str, what: str, low: float | None = None, high: float | None = None) -> Callable[[str], Any]:
    rx = re.compile(pattern)

    def convert(v: str) -> Any:
        artificial = v[:1] == "^"
        t = v[1:] if artificial else v
        if rx.fullmatch(t) is None:
            raise _bad(what)
        n = _number(t)
        if (low is not None and n < low) or (high is not None and n > high):
            raise _bad(what)
        return Artificial(n) if artificial else n

    return convert


_cell_int = _cell_number(_INT, "an integer score")
_cell_decimal = _cell_number(_DEC, "a number")
_cell_percent = _cell_number(_DEC, "a percentage 0-100", 0, 100)
_cell_count = _cell_number(r"\d+", "a positive integer", 1)
_cell_multiplicity = _cell_number(r"\d+", f"a count of tables from 1 to {MAX_MULTIPLICITY:,}", 1, MAX_MULTIPLICITY)
_cell_tricks = _cell_number(r"\d+", "tricks 0-13", 0, 13)


def _cell_rank(v: str) -> int:
    if not (v.isascii() and v.isdigit()) or int(v) < 1:
        raise _bad("a rank 1, 2, ... ('-' for a tie)")
    return int(v)


def _cell_seat(v: str) -> Seat:
    seat = _SEAT_LETTERS.get(v)
    if seat is None:
        raise _bad("W, N, E or S")
    return seat


def _cell_strain(v: str) -> Strain:
    if v not in ("S", "H", "D", "C", "NT", "s", "h", "d", "c", "nt"):
        raise _bad("S, H, D, C or NT")
    return Strain.parse(v)


def _cell_contract(v: str) -> Contract:
    return _contract(v)


def _cell_call(v: str) -> Call | None:
    """An ActionTable Call: a call of the auction section (``0`` = any other call, as in
    the PBN 2.0 reference files)."""
    if v == "0":
        return None
    try:
        return Call.parse(v)
    except ModelError:
        raise _bad("a call like 1H, X or Pass") from None


def _cell_card(v: str) -> Card | Suit | None:
    """An ActionTable Card: a card, or a suit letter for any card of the suit (``0`` = any
    other card, as in the PBN 2.0 reference files)."""
    if v == "0":
        return None
    if len(v) == 1 and v.upper() in "SHDC":
        return Suit.parse(v)
    try:
        return Card.parse(v)
    except ModelError:
        raise _bad("a card like SA or a suit letter") from None


_DURATION_RE = re.compile(r"(?:(?:(\d+):)?(\d{1,2}):)?(\d{1,2})")


def _cell_duration(v: str) -> int:
    """``HH:MM:SS``, ``MM:SS`` or ``SS`` (PBN 2.1 §5.4): seconds."""
    m = _DURATION_RE.fullmatch(v)
    if m is None:
        raise _bad("a time HH:MM:SS, MM:SS or SS")
    h, mi, s = (int(g) if g else 0 for g in m.groups())
    if (m.group(1) is not None or m.group(2) is not None) and s > 59 or (m.group(1) is not None and mi > 59):
        raise _bad("a time HH:MM:SS, MM:SS or SS")
    return h * 3600 + mi * 60 + s


_SCORE_RANGE_RE = re.compile(rf"({_INT})|({_INT}),\*|({_INT}),({_INT})|\*,({_INT})")


def _cell_score_range(v: str) -> tuple[int | None, int | None]:
    """InstantScoreTable ``<score>``, ``<s1>,*``, ``<s1>,<s2>``, ``*,<s2>`` (PBN 2.1 §5.5):
    (low, high) bounds, ``None`` when open; a single score gives (s, s)."""
    m = _SCORE_RANGE_RE.fullmatch(v)
    if m is None:
        raise _bad("a score range s, s1,*, s1,s2 or *,s2")
    g = m.groups()
    if g[0] is not None:
        return int(g[0]), int(g[0])
    if g[1] is not None:
        return int(g[1]), None
    if g[2] is not None:
        return int(g[2]), int(g[3])
    return None, int(g[4])


def _cell_ranks(v: str) -> str:
    """OptimumPlayTable: ranks of a suit (PBN 2.1 §5.6)."""
    if not v or any(ch not in "AKQJT98765432" for ch in v.upper()) or len(set(v.upper())) != len(v):
        raise _bad("ranks like AKQ or '-' for none")
    return v.upper()


def _cell_names(v: str) -> tuple[str, ...]:
    return _names(v)


class TableSpec(NamedTuple):
    """A table of PBN 2.1 §5: its predefined columns, each with a converter from an
    element to a typed value (:class:`TagValueError` when not valid)."""

    name: str
    source: str
    columns: dict[str, Callable[[str], Any]]


#: The eight tables of PBN 2.1 §5 and their predefined columns (other columns are free text).
TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in [
        TableSpec(
            "ActionTable",
            "PBN 2.1 §5.3",
            {
                "Rank": _cell_rank,
                "Call": _cell_call,
                "Card": _cell_card,
                "Declarer": _cell_seat,
                "Contract": _cell_contract,
                "Percentage": _cell_percent,
            },
        ),
        TableSpec("AuctionTimeTable", "PBN 2.1 §5.4", {"Time": _cell_duration, "TotalTime": _cell_duration}),
        TableSpec(
            "InstantScoreTable",
            "PBN 2.1 §5.5",
            {
                "Rank": _cell_rank,
                "ScoreRange_NS": _cell_score_range,
                "ScoreRange_EW": _cell_score_range,
                "IMP_NS": _cell_decimal,
                "IMP_EW": _cell_decimal,
                "Percentage_NS": _cell_percent,
                "Percentage_EW": _cell_percent,
            },
        ),
        TableSpec(
            "OptimumPlayTable",
            "PBN 2.1 §5.6",
            {"S": _cell_ranks, "H": _cell_ranks, "D": _cell_ranks, "C": _cell_ranks},
        ),
        TableSpec(
            "OptimumResultTable",
            "PBN 2.1 §5.7",
            {"Declarer": _cell_seat, "Denomination": _cell_strain, "Result": _cell_tricks},
        ),
        TableSpec("PlayTimeTable", "PBN 2.1 §5.8", {"Time": _cell_duration, "TotalTime": _cell_duration}),
        TableSpec(
            "ScoreTable",
            "PBN 2.1 §5.9",
            {
                "Rank": _cell_rank,
                "PairId_NS": _text,
                "PairId_EW": _text,
                "Names_NS": _cell_names,
                "Names_EW": _cell_names,
                "Contract": _cell_contract,
                "Declarer": _cell_seat,
                "Result": _cell_tricks,
                "Score_NS": _cell_int,
                "Score_EW": _cell_int,
                "IMP_NS": _cell_decimal,
                "IMP_EW": _cell_decimal,
                "MP_NS": _cell_decimal,
                "MP_EW": _cell_decimal,
                "Percentage_NS": _cell_percent,
                "Percentage_EW": _cell_percent,
                "Multiplicity": _cell_multiplicity,
            },
        ),
        TableSpec(
            "TotalScoreTable",
            "PBN 2.1 §5.10",
            {
                "Rank": _cell_rank,
                "PairId": _text,
                "Names": _cell_names,
                "TotalScore": _cell_decimal,
                "TotalIMP": _cell_decimal,
                "TotalMP": _cell_decimal,
                "TotalPercentage": _cell_percent,
                "MeanScore": _cell_decimal,
                "MeanIMP": _cell_decimal,
                "MeanMP": _cell_decimal,
                "MeanPercentage": _cell_percent,
                "NrBoards": _cell_count,
                "Multiplicity": _cell_multiplicity,
            },
        ),
    ]
}


def typed_cell(table: str, column: str, value: str) -> Any:
    """The typed value of one table element: ``None`` for ``?`` (unknown) and ``-``
    (irrelevant), :class:`Artificial` for a ``^`` score, the string itself in a column
    that is not predefined.

    :raises TagValueError: when the element is not valid for its predefined column.

    >>> typed_cell("OptimumResultTable", "Denomination", "NT"), typed_cell("ScoreTable", "Score_NS", "^-50")
    (Strain.NOTRUMP, Artificial(value=-50))
    """
    if value in ("?", "-"):
        return None
    spec = TABLES.get(table)
    convert = None if spec is None else spec.columns.get(column)
    if convert is None:
        return value
    return convert(value)


def table_records(table: Table) -> list[dict[str, Any]]:
    """The rows of a table as ``{column name: typed value}`` (:func:`typed_cell`); an
    element that is not valid gives ``None``, a missing one (short last row) is left out.
    An unknown section (no columns) gives ``{"0": ..., "1": ...}`` by position.

    >>> t = Table("OptimumResultTable", parse_columns("Declarer;Denomination\\\\2R;Result\\\\2R")[0], (("N", "NT", "9"),))
    >>> table_records(t)
    [{'Declarer': Seat.NORTH, 'Denomination': Strain.NOTRUMP, 'Result': 9}]
    """
    names = [c.name for c in table.columns]
    out = []
    for row in table.rows:
        rec: dict[str, Any] = {}
        for i, v in enumerate(row):
            key = names[i] if i < len(names) else str(i)
            try:
                rec[key] = typed_cell(table.name, key, v)
            except TagValueError:
                rec[key] = None
        out.append(rec)
    return out


# =========================================================================================
# 3. Play layout (PBN 2.1 §3.6)
# =========================================================================================

#: :func:`play_trump` when neither the contract nor the auction names a strain: the play
#: order cannot be worked out, and play lines are kept in seat order (P407).
TRUMP_UNKNOWN: Any = object()


def _illegal_call(auction: Auction) -> bool:
    """Whether the auction's replay finds an illegal call (A301-A304, A306; Laws 18-22, 27)."""
    from handrec.rules.auction import ILLEGAL_CALL_CODES, replay_auction  # for the rare disagreement only

    return any(f.code in ILLEGAL_CALL_CODES for f in replay_auction(auction).faults)


def play_trump(contract: Contract | None, auction: Auction | None, *, bad_call: bool = False) -> Any:
    """The trump suit for reading and writing play lines (None at no trump), or
    :data:`TRUMP_UNKNOWN`.

    A finished auction (a bid followed by three passes) decides: it is the record of what
    was bid, and a Contract tag that disagrees with it is the validator's C501, not a
    reason to misread the play.  Except when the auction holds an illegal call (A301-A304,
    A306; ``bad_call``: the reader dropped a token that is no call) and the Contract tag,
    with its declarer, names another strain: the replay then takes the contract from the
    tags (:func:`handrec.rules.replay.replay`), and so does the play's order.  Otherwise
    the Contract tag (a contract, or an end position's strain), else the last bid made.
    ``^S`` placeholders (no call) are left out.
    """
    last_bid = None
    if auction is not None:
        calls = auction.calls
        if any(c.irregular == "S" for c in calls):
            calls = tuple(c for c in calls if c.irregular != "S")
        for call in reversed(calls):
            if call.strain is not None:
                last_bid = call
                break
        if (
            last_bid is not None
            and len(calls) >= 4
            and all(c.kind is CallKind.PASS for c in calls[-3:])
            and last_bid.strain is not None
        ):
            trump = last_bid.strain.suit
            if (
                contract is not None
                and contract.level
                and contract.strain is not None
                and contract.declarer is not None
                and contract.trump != trump
                and (bad_call or _illegal_call(auction))
            ):
                return contract.trump
            return trump
    if contract is not None:
        return TRUMP_UNKNOWN if contract.strain is None else contract.trump
    if last_bid is not None and last_bid.strain is not None:
        return last_bid.strain.suit
    return TRUMP_UNKNOWN


def best_known(played: list[Card | None], trump: Suit | None) -> int:
    """For a trick in play order with unknown cards (None): the position (0-3) of the best
    known card by the rule of :func:`handrec.model.trick_winner` (Law 44), a best guess
    at who leads next.  With the led card unknown the leader keeps the lead (0)."""
    led = played[0]
    if led is None:
        return 0
    best = 0
    best_suit = led.suit
    best_rank = led.rank
    k = 0
    for c in played:  # the led card itself changes nothing
        if c is not None:
            suit = c.suit
            if suit is best_suit:
                if c.rank > best_rank:
                    best, best_rank = k, c.rank
            elif suit is trump:
                best, best_suit, best_rank = k, suit, c.rank
        k += 1
    return best


def _play_slots(play: Play, trump: Any, deal: Deal | None) -> list[int]:
    """The seat-order slot (4 per trick line, column 0 = the Play tag's seat) of each card
    of ``play`` (play order): the inverse of the reader's mapping.

    Each trick is led by the winner of the previous one (:func:`trick_winner`, or
    :func:`best_known` when a card is unknown), or, for a trick whose first card is marked
    ``"L"`` (lead out of turn), by the seat holding that card by the deal (else by the
    seat that should have led).  Without a leader or a known trump the cards keep their
    order (the reader keeps seat order then)."""
    n = len(play.cards)
    leader = play.leader
    if leader is None or trump is TRUMP_UNKNOWN:
        return list(range(n))
    irr = play.irregular
    slots = [0] * n
    to_lead = leader
    cards = play.cards
    for t in range(0, n, 4):
        chunk = list(cards[t : t + 4])
        if irr and irr[t] == "L" and deal is not None:
            for j, c in enumerate(chunk):
                if c is not None:
                    holder = deal.holder(c)
                    if holder is not None:
                        to_lead = holder.offset(-j)
                    break
        col = (to_lead - leader) % 4
        for j in range(len(chunk)):
            slots[t + j] = t + (col + j) % 4
        if len(chunk) == 4:
            if None in chunk:
                to_lead = to_lead.offset(best_known(chunk, trump))
            else:
                to_lead = trick_winner(to_lead, chunk, trump)  # type: ignore[arg-type]
    return slots


def play_lines(play: Play, trump: Any, deal: Deal | None = None) -> list[list[Card | None]]:
    """Play-order cards regrouped into PBN play lines (one trick a line).

    Column ``j`` of every line is the card of seat ``play.leader + j`` (PBN 2.1 §3.6);
    missing cards are ``None`` (written ``-``).

    :raises ValueError: when ``play.leader`` is ``None``.
    """
    if play.leader is None:
        raise ValueError("play has no opening leader")
    slots = _play_slots(play, trump, deal)
    size = -(-len(play.cards) // 4) * 4
    flat: list[Card | None] = [None] * size
    for i, s in enumerate(slots):
        flat[s] = play.cards[i]
    return [flat[k : k + 4] for k in range(0, size, 4)]


# =========================================================================================
# 4. Writer (PBN 2.1 §2.3, §3; export format)
# =========================================================================================

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
    line break has ``}`` written as ``)``; CR LF and CR are line breaks (LF)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "}" in text:
        if "\n" in text:
            return text.replace("}", ")")
        return text.rstrip()
    return text


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
    return Play(lead, tuple(cards), None, ended, tuple(spans[: len(cards)]), irregular, notes, annotations)


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
            self.by_anchor.setdefault(anchor_of(anchor), []).append(_comment_text(text))

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


def _emit(board: Board) -> _Out:
    """The writer proper: the lines of one board in export format (see the module doc)."""
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

    trump = play_trump(b.contract, b.auction, bad_call=any(d.code == "A306" for d in b.diagnostics))
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
            _emit_auction(em, auction)
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


def _emit_auction(em: _Emitter, a: Auction) -> None:
    """Auction lines (PBN 2.1 §3.5): four calls a line from the dealer; after a call its
    note reference and NAGs; a comment after a call ends the line."""
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


def dumps(board: Board) -> str:
    """One board as PBN export format (CR LF line ends, no separating empty line).

    >>> from handrec.model import Origin
    >>> b = Board(Origin("x"), tags=(Tag("Board", "1"), Tag("Dealer", "N")), number=1, dealer=Seat.NORTH)
    >>> dumps(b).splitlines()[2:5]
    ['[Date "?"]', '[Board "1"]', '[West "?"]']
    """
    return "\r\n".join(_emit(board).lines) + "\r\n"


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


def dump(boards: Iterable[Board], file: TextIO, *, header: bool = True) -> int:
    """Write boards as a PBN file in export format: the header ``% PBN 2.1``, ``% EXPORT``
    and ``%Content-type: text/x-pbn; charset=...`` (the file's encoding, UTF-8 when it
    has none), then the games separated by empty lines.  Open the file with
    ``newline=""``: the lines end in CR LF already.

    Returns the number of boards written.
    """
    n = 0
    if header:
        charset = _charset(getattr(file, "encoding", None))
        file.write(f"% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset={charset}\r\n")
    for b in boards:
        file.write("\r\n" if n else "")
        file.write(dumps(b))
        n += 1
    return n
