"""What the parts of the USEBIO reader share: element and method tables, records, diagnostics.

The records read (participants, sections, games) and the diagnostics helper (:class:`Base`).
"""

from __future__ import annotations

import lzma
import tarfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from handrec.diagnostics import Diagnostic, make
from handrec.formats.usebio.elements import format_decimal, parse_decimal
from handrec.formats.usebio.xml import Element
from handrec.model import Contract, Deal, Origin, Play, Seat, Span, Suit, Table, Tag
from handrec.rules.board import vulnerability_for_board
from handrec.scoring.duplicate import score_ns

__all__ = ["EVENT_TYPES", "SCORING_METHODS", "Base"]

#: EVENT_TYPE values (old and generic names, usebio.md): (competition, method or None = as BOARD_SCORING_METHOD).
EVENT_TYPES: dict[str, tuple[str, str | None]] = {
    "MP_PAIRS": ("Pairs", "mp"),
    "BUTLER_PAIRS": ("Pairs", "butler"),
    "CROSS_IMP": ("Pairs", "cross"),
    "CROSS_IMPS": ("Pairs", "cross"),
    "AGGREGATE": ("Pairs", "aggregate"),
    "SWISS_PAIRS": ("Pairs", "mp"),
    "SWISS_PAIRS_CROSS_IMPS": ("Pairs", "cross"),
    "SWISS_PAIRS_BUTLER_IMPS": ("Pairs", "butler"),
    "SWISS_TEAMS": ("Teams", "imps"),
    "TEAMS_OF_FOUR": ("Teams", "imps"),
    "INDIVIDUAL": ("Individuals", "mp"),
    "PAIRS": ("Pairs", None),
    "TEAMS": ("Teams", None),
}
#: BOARD_SCORING_METHOD values and the method each gives.
SCORING_METHODS = {
    "MATCH_POINTS": "mp",
    "MATCHPOINTS": "mp",
    "BUTLER_IMPS": "butler",
    "CROSS_IMPS": "cross",
    "CROSS_IMP": "cross",
    "AGGREGATE": "aggregate",
    "IMPS": "imps",
}
#: Method -> (PBN Scoring tag, claim tag, NS element, EW element) of the traveller lines.
_METHOD_TAGS = {
    "mp": ("MP1", "ScoreMP", "NS_MATCH_POINTS", "EW_MATCH_POINTS"),
    "butler": ("IMP;Butler", "ScoreIMP", "NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
    "cross": ("IMP;Cross2", "ScoreIMP", "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "imps": ("IMP", "ScoreIMP", "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "aggregate": ("Total", "", "", ""),
}
_LINE_ELEMENTS = frozenset(
    {
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "LEAD",
        "TRICKS",
        "SCORE",
        "NS_MATCH_POINTS",
        "EW_MATCH_POINTS",
        "NS_BUTLER_POINTS",
        "EW_BUTLER_POINTS",
        "NS_CROSS_IMP_POINTS",
        "EW_CROSS_IMP_POINTS",
        "DIRECTION",
        "TABLE_NUMBER",
        "ROUND_NUMBER",
        "NS_SCORE",
        "EW_SCORE",
    }
)
_EVENT_HEADER = frozenset(
    {
        "EVENT_IDENTIFIER",
        "EVENT_ID",
        "EVENT_DESCRIPTION",
        "PROGRAM_NAME",
        "PROGRAM_VERSION",
        "WINNER_TYPE",
        "TITLE",
        "VENUE",
        "DATE",
        "MASTER_POINT_SCALE",
        "MASTER_POINT_TYPE",
        "MPS_AWARDED_FLAG",
        "SESSION_COUNT",
        "SECTION_COUNT",
        "P2P_CHARGE_RATE",
        "EBU_CHARGE_CODE",
        "SCORING_METHOD",
        "BOARD_SCORING_METHOD",
        "MATCH_SCORING_METHOD",
        "BOARDS_PLAYED",
        "CONTACT",
        "PARTICIPANTS",
        "BOARD",
        "MATCH",
        "SECTION",
        "SESSION",
        "HANDSET",
        "STRATIFICATION",
        "EVENT_STATUS",
        "CHARGE_CODE",
        "TOTAL_TABLES",
    }
)
_PBN_VUL = ("None", "NS", "EW", "All")
_SEAT_WORDS = {"NORTH": Seat.NORTH, "EAST": Seat.EAST, "SOUTH": Seat.SOUTH, "WEST": Seat.WEST}
_SUIT_ELEMENTS = (("SPADES", Suit.SPADES), ("HEARTS", Suit.HEARTS), ("DIAMONDS", Suit.DIAMONDS), ("CLUBS", Suit.CLUBS))
_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    zipfile.BadZipFile,
    tarfile.TarError,
    RuntimeError,
    NotImplementedError,
    ValueError,
)


@dataclass
class Player:
    """A PLAYER: name and national number (``None`` when empty or 0: unknown), its element."""

    name: str | None
    national: str | None
    element: Element


@dataclass
class Pair:
    """One PAIR (or TEAM) of the participants."""

    number: str
    element: Element
    section: str
    direction: str | None
    players: list[Player] = field(default_factory=list)
    team_name: str | None = None
    label: str = ""  # the pair as its games name it (PairNS / PairEW): the number, or "A:1" (see _labels)


@dataclass
class Section:
    """One block of results: its id, session, participants and BOARD / MATCH elements."""

    id: str | None
    session: str | None
    element: Element
    pairs: dict[str, Pair] = field(default_factory=dict)
    boards: list[Element] = field(default_factory=list)
    matches: list[Element] = field(default_factory=list)


@dataclass
class Game:
    """A traveller line read: its board, tags and what the tables need (before the Board is made)."""

    origin: Origin
    number: int | None
    label: str
    tags: list[Tag]
    deal: Deal | None
    play: Play | None
    contract: Contract | None
    result: int | None
    problems: list[Diagnostic]
    line: Element
    ns: str | None
    ew: str | None
    adjusted: tuple[int, int] | None
    score: int | None
    claim: tuple[str, str, Element | None] | None  # (tag, value, NS element)
    key: tuple[object, ...]
    tables: list[Table] = field(default_factory=list)


class Base:
    """The diagnostics of a reading (file-level, at the element)."""

    def __init__(self, path: str, out: list[Diagnostic], *, partial: bool = False) -> None:
        self.path = path
        self.out = out
        self.index = 0
        self.partial = partial  # a document cut short (F022): what is missing may be past the cut

    # --- diagnostics ---------------------------------------------------------------------
    def file(self, code: str, el: Element | None, **args: object) -> None:
        """A file-level diagnostic ``code`` at element ``el`` (the file's start when ``None``)."""
        if self.partial and code in ("U703", "U711"):
            return  # not said of a document cut short: F022 says why it ends there
        self.out.append(make(code, None, el.span if el is not None else None, path=self.path, **args))

    def unknown(self, el: Element, known: Iterable[str]) -> None:
        """U715 (strict) for each child of ``el`` not in ``known``."""
        names = set(known)
        for c in el.children:
            if c.tag not in names:
                self.file("U715", c, element=c.tag, parent=el.tag)


class At:
    """A stand-in element at a header tag's absolute position (to make it relative to a game)."""

    def __init__(self, span: Span) -> None:
        self.line, self.column = span.line, span.column


class Wrap:
    """An individual's PLAYER element seen as the owner of one player (for :meth:`_Reader._players`)."""

    def __init__(self, el: Element) -> None:
        self.el = el

    def iter(self, tag: str) -> Iterator[Element]:
        yield self.el


def law_score(g: Game) -> int | None:
    """The N-S score of a game's contract, declarer and tricks (Law 77), ``None`` when not known."""
    c = g.contract
    if c is None or g.number is None:
        return None
    if c.is_passed_out:
        return 0
    if c.declarer is None or g.result is None:
        return None
    return score_ns(c, vulnerability_for_board(g.number), g.result)


def table_header(t: Table) -> str:
    return ";".join(str(c) for c in t.columns)


def num_text(x: Fraction) -> str:
    """A figure as USEBIO writes it (:func:`handrec.formats.usebio.elements.format_decimal`)."""
    return format_decimal(x)


def same_number(a: str | None, b: str | None) -> bool:
    try:
        return parse_decimal(a or "") == parse_decimal(b or "")
    except ValueError:
        return False


def board_number(el: Element | None) -> int | None:
    if el is None:
        return None
    t = el.text.strip()
    return int(t) if t.isdigit() and int(t) >= 1 else None
