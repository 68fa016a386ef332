"""Every tag PBN knows and the grammar of its value (PBN 2.1 §3.4, §4, §5; pbn.md §6, §13, §17).

:data:`TAGS` holds every tag of PBN 2.1 §3.4 and §4, the section tags (Auction, Play,
Note), the tables of §5 and the de-facto extensions of pbn.md §17, each with its group,
its source and a parser from the value string to a typed value (:class:`TagValueError`
when the value is not in PBN form); :func:`typed_tag` and :func:`tag_value` give typed
values, and :func:`parse_columns` reads a table tag's value, its column header
``[+|-]name[\\width[L|R]]`` (PBN 2.1 §5.2).  :data:`MTS_ORDER` is the mandatory tag set
in export order.

Shared by the reader (its checks of tag values, T121: :mod:`handrec.formats.pbn.tag_values`)
and the writer (:mod:`handrec.formats.pbn.writer`); the grammar of table elements is
:mod:`handrec.formats.pbn.table_cells`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from handrec.dd.table import DD_SEATS, DD_STRAINS, DDError, DDTable
from handrec.model import (
    Board,
    Column,
    Contract,
    Deal,
    ModelError,
    Note,
    Seat,
    Side,
    Strain,
    Vulnerability,
    sided_parts,
)

__all__ = [
    "MTS_ORDER",
    "TAGS",
    "TagSpec",
    "TagValueError",
    "typed_tag",
    "tag_value",
    "typed_value",
    "parse_columns",
    "rubber_vulnerability",
]


class TagValueError(ValueError):
    """A tag value or table element not in the form PBN gives it; ``str()`` says the form."""


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
    return typed_value(name, board.tag(name))


def typed_value(name: str, value: str | None) -> Any:
    """:func:`typed_tag` of a tag's ``value``, ``None`` when there is no value or it is not in PBN form."""
    if value is None:
        return None
    try:
        return typed_tag(name, value)
    except TagValueError:
        return None


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
