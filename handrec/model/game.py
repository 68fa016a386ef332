"""A board as a file records it: :class:`Board` with its tags, vulnerability, play and tables.

:class:`Board` holds what the file *says* (the validator compares it with what the
auction and play *imply*); :class:`Play` the cards in play order; :class:`Tag` one PBN
tag pair; :class:`Table` a PBN supplemental section (PBN 2.1 §5); :class:`Vulnerability`
and :func:`sided_parts` read the Vulnerable and Score tags (PBN 2.1 §3.4.10, §4.2.1).
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, field

from handrec.model.calls import Auction, Contract, Note
from handrec.model.cards import Card, Deal, ModelError, Seat, Side
from handrec.model.positions import Origin, Span

__all__ = ["Vulnerability", "sided_parts", "Play", "CardAnnotation", "Tag", "Board", "Column", "Table"]


class Vulnerability(enum.IntEnum):
    """Which sides are vulnerable.  ``str()`` gives None, NS, EW or Both (the
    spelling of handrec's tables; the PBN writer writes ``All`` for Both, PBN 2.1 §3.4.10).

    >>> Vulnerability.parse("All"), Vulnerability.parse("love")
    (Vulnerability.BOTH, Vulnerability.NONE)
    >>> Vulnerability.EW.is_vulnerable(Seat.WEST)
    True
    """

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def __str__(self) -> str:
        return ("None", "NS", "EW", "Both")[self]

    def __repr__(self) -> str:
        return f"Vulnerability.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """Parse every PBN spelling: None/Love/-, NS, EW, All/Both (any case).

        :raises ModelError: for anything else.
        """
        v = _VUL_WORDS.get(text.strip().upper())
        if v is None:
            raise ModelError(f"not a vulnerability: {text!r}")
        return v

    def is_vulnerable(self, seat_or_side: Seat | Side) -> bool:
        """Whether the seat's (or side's) partnership is vulnerable."""
        side = seat_or_side.side if isinstance(seat_or_side, Seat) else seat_or_side
        return (
            self is Vulnerability.BOTH
            or (self is Vulnerability.NS and side is Side.NS)
            or (self is Vulnerability.EW and side is Side.EW)
        )


_VUL_WORDS = {
    "NONE": Vulnerability.NONE,
    "LOVE": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "NS": Vulnerability.NS,
    "EW": Vulnerability.EW,
    "ALL": Vulnerability.BOTH,
    "BOTH": Vulnerability.BOTH,
}


@functools.cache
def _sided_re(number: str, any_case: bool) -> re.Pattern[str]:
    return re.compile(rf"\s*(?:(NS|EW)\s+)?({number})(?:\s+(NS|EW)\s+({number}))?\s*", re.I if any_case else 0)


def sided_parts(value: str, number: str, *, any_case: bool = False) -> tuple[tuple[str | None, str], ...] | None:
    r"""Split a value in the five forms of the Score tags (PBN 2.1 §4.2.1): ``<n>`` (for
    declarer's side), ``NS <n>``, ``EW <n>``, ``NS <n> EW <n>``, ``EW <n> NS <n>``.

    ``number`` is the regex of one ``<n>`` (without groups); ``any_case`` also reads
    ``ns``/``ew``.  :returns: the ``(side, text)`` parts in order, side ``"NS"``, ``"EW"``
    or None (declarer's side), text as written; None when ``value`` is in none of the
    forms (also for the same side twice).  Each reader of these tags converts the texts.

    >>> sided_parts(" NS 620 EW -620 ", r"[+-]?\d+"), sided_parts("ew 3", r"\d+", any_case=True)
    ((('NS', '620'), ('EW', '-620')), (('EW', '3'),))
    >>> sided_parts("NS 1 NS 2", r"\d+"), sided_parts("ns 1", r"\d+")
    (None, None)
    """
    m = _sided_re(number, any_case).fullmatch(value)
    if m is None:
        return None
    s1, v1, s2, v2 = m.groups()
    if s2 is None:
        return ((None if s1 is None else s1.upper(), v1),)
    if s1 is None or s1.upper() == s2.upper():
        return None
    return ((s1.upper(), v1), (s2.upper(), v2))


@dataclass(frozen=True, slots=True)
class Play:
    """The cards played, in the order they were played.

    ``leader`` is the opening leader as the record states it (PBN ``Play``
    tag); ``cards`` are in play order, trick after trick (``None`` = a card
    the record does not know, PBN ``-``); ``spans`` give the position of
    each card (parallel to ``cards``, not part of equality); ``claim`` is
    the total number of tricks declarer takes after a claim or concession
    (LIN ``mc``), ``None`` when there was none, and ``claim_span`` the position
    of the claim where the record gives one (LIN: its ``mc`` pair); ``ended``
    the writer's end marker (``"*"``, ``"+"`` or ``None``).

    ``irregular`` records PBN irregularities (PBN 2.1 §3.9; pbn.md §10):
    ``()`` when there are none (the usual case), else a tuple parallel to
    ``cards`` holding, per card, ``None`` or

    * ``"R"``: a revoke not corrected in time (``^R``, Laws 62-64): the
      card stands and is not a fault;
    * ``"L"``: a lead out of turn that was accepted (``^L``, Laws 53-55):
      the card is the first of its trick and its holder led the trick; the
      other three cards follow clockwise from that seat.

    PBN writes play seat by seat (PBN 2.1 §3.6); the PBN reader turns
    those lines into play order with :func:`trick_winner` (and ``^L``).

    ``notes`` are the PBN Note tags of the play section (:class:`Note`);
    ``annotations`` is ``()`` when no card is annotated, else a tuple
    parallel to ``cards`` holding, per card, ``None`` or its
    :class:`CardAnnotation` (note reference and NAGs, PBN 2.1 §3.6.2).
    """

    leader: Seat | None
    cards: tuple[Card | None, ...] = ()
    claim: int | None = None
    ended: str | None = None
    spans: tuple[Span | None, ...] = field(default=(), compare=False)
    irregular: tuple[str | None, ...] = ()
    notes: tuple[Note, ...] = ()
    annotations: tuple[CardAnnotation | None, ...] = ()
    claim_span: Span | None = field(default=None, compare=False)
    #: Tricks of unknown cards only (``- - - -``) the record writes after the last card given
    #: (a converter's padding after a claim, pbn.md §8): not in ``cards``; the play does not
    #: stop short there (its Result is final, not a partial result).
    padded: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return " ".join("-" if c is None else str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class CardAnnotation:
    """The annotations of one played card (PBN 2.1 §3.6.2): a note reference
    (``note``, or ``None``) and NAGs in ascending order (suffixes are NAGs 7-12)."""

    note: int | None = None
    nags: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tag:
    """One PBN tag pair (or a LIN value mapped to its PBN tag name).

    ``value`` is the raw string with PBN escapes resolved; ``#``/``##``
    inheritance (PBN 2.1 §4.8) is already applied.
    """

    name: str
    value: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Board:
    """One game: a table's record of one board, as the file gives it.

    Fields hold what the file *says*; :mod:`handrec.rules` works out what
    the auction and play *imply* and the validator compares the two.

    * ``tags``: every tag pair in file order (LIN records carry the PBN
      equivalents: Event, Board, North..West, Dealer, Vulnerable, Deal,
      Room, Contract/Declarer/Result from ``rs``...).
    * ``number``: the board number when it is an integer, else ``None``.
    * ``dealer``, ``vulnerable``, ``deal``, ``auction``, ``play``: typed
      values, ``None`` when absent or unreadable (a diagnostic then says
      why).
    * ``contract``, ``declarer``, ``result``: what the Contract, Declarer
      and Result tags claim (``result`` = tricks taken by declarer, 0-13).
      An end position's Contract tag (a bare denomination, PBN 2.1 §3.10)
      gives a contract with ``level == 0`` (:attr:`Contract.is_end_position`).
    * ``declarer_swapped``: the Declarer tag was written ``^N`` etc.:
      declarer and dummy swapped (PBN 2.1 §3.9).  ``declarer`` is then the
      seat that actually declared (played the hand); by the auction its
      partner is declarer.  The declaring side, hence result and score,
      is the same.
    * ``diagnostics``: faults found while reading (syntax, bad values),
      each a :class:`handrec.diagnostics.Diagnostic`.
    * ``commentary``: free text comments in order (PBN ``{}``/``;``,
      LIN ``nt``; a run of PBN ``;`` lines is one comment, its lines
      joined by ``\n``).
    * ``tables``: PBN supplemental sections (tables, PBN 2.1 §5) in file
      order, each a :class:`Table`; their tag pairs are also in ``tags``.
    * ``comment_anchors``: parallel to ``commentary`` (or ``()``), where
      each comment stands: ``("game", 0)`` before the first tag,
      ``("tag", i)`` after ``tags[i]``, ``("auction", i)`` after call ``i``
      and ``("play", i)`` after card ``i`` in play order (``i == -1``: right
      after the Auction/Play tag).  Not part of equality.
    * ``extra``: LIN commands the reader does not know, as raw
      ``(command, value)`` pairs in file order (lin.md §3: kept, never
      fatal; the reader notes each with F007, severity info).
    """

    origin: Origin = field(compare=False)
    tags: tuple[Tag, ...] = ()
    number: int | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    deal: Deal | None = None
    auction: Auction | None = None
    play: Play | None = None
    contract: Contract | None = None
    declarer: Seat | None = None
    result: int | None = None
    commentary: tuple[str, ...] = ()
    diagnostics: tuple = field(default=(), compare=False)
    declarer_swapped: bool = False
    extra: tuple[tuple[str, str], ...] = ()
    tables: tuple[Table, ...] = ()
    comment_anchors: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive), or ``default``."""
        for t in self.tags:
            if t.name == name:
                return t.value
        return default

    @property
    def result_agreed(self) -> bool:
        """Whether the Result tag is written ``^n``: a result the players agreed, which may
        differ from the tricks played (PBN 2.1 §3.4.15; an agreed claim or concession
        stands, Law 69)."""
        return (self.tag("Result") or "").lstrip()[:1] == "^"

    def tag_span(self, name: str) -> Span | None:
        """The position of the first tag called ``name``, if any."""
        for t in self.tags:
            if t.name == name:
                return t.span
        return None

    def __repr__(self) -> str:
        return (
            f"<Board {self.origin.path}:{self.origin.line} number={self.number} "
            f"contract={self.contract} diagnostics={len(self.diagnostics)}>"
        )


@dataclass(frozen=True, slots=True)
class Column:
    r"""One column of a PBN table header (PBN 2.1 §5.2): ``[+|-]name[\width[L|R]]``.

    ``sort`` is ``"+"`` (descending), ``"-"`` (ascending) or ``None``;
    ``width`` the minimum width or ``None``; ``align`` ``"L"``, ``"R"`` or
    ``None``.  ``str()`` gives the header notation.

    >>> str(Column("Result", None, 2, "R")), str(Column("Rank", "-"))
    ('Result\\2R', '-Rank')
    """

    name: str
    sort: str | None = None
    width: int | None = None
    align: str | None = None

    def __str__(self) -> str:
        w = "" if self.width is None else f"\\{self.width}{self.align or ''}"
        return f"{self.sort or ''}{self.name}{w}"


@dataclass(frozen=True, slots=True)
class Table:
    """A PBN supplemental section (PBN 2.1 §5): a table tag and its data.

    ``name`` is the tag name (``ScoreTable``, ``OptimumResultTable`` ...);
    ``columns`` the header of a known table (``()`` for an unknown section,
    whose rows are its data lines as written); ``rows`` the elements, one
    tuple per row, as strings (string tokens unquoted; ``"?"`` unknown,
    ``"-"`` irrelevant, a leading ``"^"`` an artificial score).
    ``handrec.formats.pbn.table_cells.table_records`` gives the rows with typed values.
    ``cell_spans``: per row, the position of each element (block-relative,
    as ``span``; ``()`` when not known).
    """

    name: str
    columns: tuple[Column, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    span: Span | None = field(default=None, compare=False)
    cell_spans: tuple[tuple[Span, ...], ...] = field(default=(), compare=False)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def column(self, name: str) -> tuple[str, ...]:
        """The elements of the column called ``name`` (``()`` if there is none)."""
        names = self.column_names
        if name not in names:
            return ()
        i = names.index(name)
        return tuple(r[i] if i < len(r) else "" for r in self.rows)
