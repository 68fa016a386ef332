"""Calls, auctions and contracts: :class:`Strain`, :class:`Call`, :class:`Auction`, :class:`Contract`.

Strains rank C < D < H < S < NT (Law 18); a call is a pass, a double, a redouble or a bid
(Laws 18-19); the final contract is a level and a strain, maybe doubled, with its
declarer (Law 22).  Whether an auction is complete and legal is decided by
:mod:`handrec.rules.auction`, not here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from handrec.model.cards import ModelError, Seat, Suit
from handrec.model.positions import Span

__all__ = ["Strain", "CallKind", "Call", "Note", "Auction", "Doubling", "Contract"]


class Strain(enum.IntEnum):
    """The denomination of a bid or contract (Law 18: C < D < H < S < NT)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    def __str__(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    def __repr__(self) -> str:
        return f"Strain.{self.name}"

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or ``None`` at no trump."""
        return None if self is Strain.NOTRUMP else Suit(int(self))

    @classmethod
    def parse(cls, text: str) -> Strain:
        """Parse ``C D H S NT`` (also ``N``, any case).

        :raises ModelError: for anything else.
        """
        t = text.strip().upper()
        if t in ("NT", "N"):
            return Strain.NOTRUMP
        if len(t) == 1 and t in "CDHS":
            return Strain("CDHS".index(t))
        raise ModelError(f"not a strain: {text!r}")


#: ``_BID_TEXT[level][strain]``: the text of a bid (``1C`` ... ``7NT``); row 0 unused.
_BID_TEXT = tuple(tuple(f"{level}{s}" for s in Strain) for level in range(8))


class CallKind(enum.IntEnum):
    """The four kinds of call (Law 18-19)."""

    PASS = 0
    DOUBLE = 1
    REDOUBLE = 2
    BID = 3

    def __repr__(self) -> str:
        return f"CallKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Call:
    """One call of an auction.

    ``level`` (1-7) and ``strain`` are set for bids only.  ``alert`` marks
    an alerted call (LIN ``!``); ``annotation`` is its explanation (LIN
    ``an`` or the text of a PBN note); ``note`` the PBN note index;
    ``nags`` PBN numeric annotation glyphs; ``span`` where the call was
    written (not part of equality).

    ``irregular`` records a PBN irregularity (PBN 2.1 §3.9; pbn.md §10):

    * ``"I"``: an insufficient bid accepted by the offender's left-hand
      opponent (``^I``, Law 27A1): it stands as a legal bid and later bids
      must outrank it;
    * ``"S"``: the turn of a player skipped because an opponent called out
      of rotation and the call was accepted (``^S``, Law 29A).  Such a slot
      is *no call*: it is kept in :attr:`Auction.calls` as a placeholder of
      kind ``PASS`` so that call ``i`` stays the call of seat ``dealer + i``
      (:meth:`Auction.seat_of`), and the rules skip it: it is not a pass,
      does not count towards the passes that end the auction and is not
      checked.  ``str()`` of a placeholder is ``^S`` (its PBN notation);
      use :attr:`is_skipped` to recognise it.

    ``str()`` of any other call is the call itself: ``^I`` is an attribute,
    like ``alert``, and not part of the notation.

    >>> str(Call.parse("3n")), str(Call.parse("x")), Call.parse("pass").kind
    ('3NT', 'X', CallKind.PASS)
    >>> Call.parse("^S").is_skipped, str(Call.parse("^S"))
    (True, '^S')
    """

    kind: CallKind
    level: int | None = None
    strain: Strain | None = None
    alert: bool = False
    annotation: str | None = None
    note: int | None = None
    nags: tuple[int, ...] = ()
    span: Span | None = field(default=None, compare=False)
    irregular: str | None = None

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            level, strain = self.level, self.strain
            if type(level) is int and type(strain) is Strain and 1 <= level <= 7:
                return _BID_TEXT[level][strain]  # (by lookup: no f-string, no Strain.__str__)
            return f"{level}{strain}"
        if self.irregular == "S":
            return "^S"
        return ("Pass", "X", "XX")[self.kind]

    def __repr__(self) -> str:
        extra = ""
        if self.alert:
            extra += ", alert=True"
        if self.annotation is not None:
            extra += f", annotation={self.annotation!r}"
        if self.irregular is not None and self.irregular != "S":
            extra += f", irregular={self.irregular!r}"
        return f"Call.parse({str(self)!r}{extra})"

    @classmethod
    def parse(cls, text: str, **kw: object) -> Call:
        """Parse a call: ``Pass``/``P``/``AP``-free forms, ``X``/``D``, ``XX``/``R``, ``1C``..``7NT``.

        Accepts the spellings of PBN (``Pass X XX 3NT``), real files (``P``,
        ``PASS``, ``3N``) and LIN (``p d r 3n``), any case; ``^S`` gives the
        placeholder of a skipped turn (PBN 2.1 §3.9).

        :raises ModelError: for anything else.
        """
        t = text.strip().upper()
        if t == "^S":
            return cls(CallKind.PASS, **kw, irregular="S") if kw else _SKIPPED  # type: ignore[arg-type]
        base = _SIMPLE_CALLS.get(t)
        if base is not None:
            return cls(base, **kw) if kw else _SIMPLE_CALL_OBJS[base]  # type: ignore[arg-type]
        if len(t) >= 2 and t[0] in "1234567":
            try:
                strain = Strain.parse(t[1:])
            except ModelError:
                raise ModelError(f"not a call: {text!r}") from None
            return cls(CallKind.BID, int(t[0]), strain, **kw)  # type: ignore[arg-type]
        raise ModelError(f"not a call: {text!r}")

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def is_skipped(self) -> bool:
        """Whether this is the ``^S`` placeholder of a skipped turn (no call; PBN 2.1 §3.9)."""
        return self.irregular == "S"

    @property
    def rank(self) -> int:
        """Bid rank 0 (1C) .. 34 (7NT); bridge-rules.md §2.2.  -1 for non-bids."""
        if self.kind is not CallKind.BID:
            return -1
        return 5 * (self.level - 1) + int(self.strain)  # type: ignore[operator]


_SIMPLE_CALLS = {
    "P": CallKind.PASS,
    "PASS": CallKind.PASS,
    "X": CallKind.DOUBLE,
    "D": CallKind.DOUBLE,
    "DBL": CallKind.DOUBLE,
    "XX": CallKind.REDOUBLE,
    "R": CallKind.REDOUBLE,
    "RDBL": CallKind.REDOUBLE,
}
_SIMPLE_CALL_OBJS = {k: Call(k) for k in (CallKind.PASS, CallKind.DOUBLE, CallKind.REDOUBLE)}
_SKIPPED = Call(CallKind.PASS, irregular="S")


@dataclass(frozen=True, slots=True)
class Note:
    """A PBN Note tag of an auction or play section: ``[Note "index:text"]``
    (PBN 2.1 §3.5.5, §3.6.5).  ``text`` has the spaces after the colon removed."""

    index: int
    text: str


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls of one deal in order, starting with the dealer.

    ``calls`` never includes PBN ``-`` fillers or ``AP`` (``AP`` is
    expanded into passes); it does include the ``^S`` placeholders of
    skipped turns (:attr:`Call.is_skipped`), so that call ``i`` is always
    made by :meth:`seat_of` ``(i)``.  ``ended`` records the writer's end marker:
    ``"*"`` (no more calls known), ``"+"`` (next call goes here) or ``None``.
    Whether the auction is complete and legal is decided by
    :mod:`handrec.rules.auction`, not here.  ``notes`` are the PBN Note tags
    of the auction section in file order (:class:`Note`; a call's
    ``note``/``annotation`` refer to them).
    """

    dealer: Seat
    calls: tuple[Call, ...] = ()
    ended: str | None = None
    span: Span | None = field(default=None, compare=False)
    notes: tuple[Note, ...] = ()

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)

    def seat_of(self, index: int) -> Seat:
        """The seat that made call number ``index`` (0-based)."""
        return Seat((self.dealer + index) % 4)


class Doubling(enum.IntEnum):
    """Undoubled, doubled or redoubled."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    def __str__(self) -> str:
        return ("", "X", "XX")[self]

    def __repr__(self) -> str:
        return f"Doubling.{self.name}"


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract, a passed-out deal, or the denomination of an end position.

    * ``level`` 1-7 with a ``strain``: a contract (Law 22);
    * ``level == 0`` and ``strain is None``: a passed-out deal
      (:attr:`is_passed_out`, :meth:`passed_out`);
    * ``level == 0`` with a ``strain``: an end position, whose Contract tag
      gives only the denomination (PBN 2.1 §3.10; pbn.md §11):
      :attr:`is_end_position`, :meth:`end_position`.  It has trumps (or
      no trump) for the play but no level, so no score.

    ``str()`` gives PBN notation without the declarer: ``4HX``, ``3NT``,
    ``Pass``, ``H``, ``NT``.  ``declarer`` is the seat that actually
    declared (for a declarer/dummy swap, PBN ``[Declarer "^S"]``, the seat
    the tag names; see :attr:`Board.declarer_swapped`).

    >>> c = Contract.parse("4hx", declarer=Seat.SOUTH)
    >>> str(c), c.tricks_needed, c.doubling
    ('4HX', 10, Doubling.DOUBLED)
    >>> Contract.parse("Pass").is_passed_out
    True
    >>> e = Contract.parse("H")
    >>> str(e), e.is_end_position, e.is_passed_out, e.trump
    ('H', True, False, Suit.HEARTS)
    """

    level: int
    strain: Strain | None
    doubling: Doubling = Doubling.UNDOUBLED
    declarer: Seat | None = None

    def __str__(self) -> str:
        if self.level == 0:
            return "Pass" if self.strain is None else str(self.strain)
        return f"{self.level}{self.strain}{self.doubling}"

    def __repr__(self) -> str:
        d = "" if self.declarer is None else f", declarer={self.declarer!r}"
        return f"Contract.parse({str(self)!r}{d})"

    @classmethod
    def passed_out(cls) -> Contract:
        """The contract of a deal passed out by four passes (Law 22)."""
        return cls(0, None)

    @classmethod
    def end_position(cls, strain: Strain, declarer: Seat | None = None) -> Contract:
        """The denomination-only contract of an end position (PBN 2.1 §3.10)."""
        return cls(0, strain, Doubling.UNDOUBLED, declarer)

    @classmethod
    def parse(cls, text: str, declarer: Seat | None = None) -> Contract:
        """Parse PBN ``Pass``, ``<level><strain>[X|XX]`` or an end position's
        bare ``<strain>`` (``S H D C NT``, PBN 2.1 §3.10); ``N`` for NT and
        lower case accepted.

        :raises ModelError: for anything else.
        """
        t = text.strip().upper()
        if t == "PASS":
            return cls.passed_out()
        if t in _END_STRAINS:
            return cls.end_position(_END_STRAINS[t], declarer)
        doubling = Doubling.UNDOUBLED
        if t.endswith("XX"):
            doubling, t = Doubling.REDOUBLED, t[:-2]
        elif t.endswith("X"):
            doubling, t = Doubling.DOUBLED, t[:-1]
        if len(t) < 2 or t[0] not in "1234567":
            raise ModelError(f"not a contract: {text!r}")
        try:
            strain = Strain.parse(t[1:])
        except ModelError:
            raise ModelError(f"not a contract: {text!r}") from None
        return cls(int(t[0]), strain, doubling, declarer)

    @property
    def is_passed_out(self) -> bool:
        """A deal passed out by four passes (Law 22A): level 0 and no strain."""
        return self.level == 0 and self.strain is None

    @property
    def is_end_position(self) -> bool:
        """An end position's denomination-only contract (PBN 2.1 §3.10): level 0 with a strain."""
        return self.level == 0 and self.strain is not None

    @property
    def tricks_needed(self) -> int:
        """Level + 6 (Law 77); 0 for a passed-out deal or an end position."""
        return self.level + 6 if self.level else 0

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` at no trump or when passed out."""
        return None if self.strain is None else self.strain.suit


_END_STRAINS = {
    "C": Strain.CLUBS,
    "D": Strain.DIAMONDS,
    "H": Strain.HEARTS,
    "S": Strain.SPADES,
    "NT": Strain.NOTRUMP,
    "N": Strain.NOTRUMP,
}
