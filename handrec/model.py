"""Typed, immutable records for bridge deals, auctions, play and boards.

Everything here is pure data with no I/O and no rules beyond what the
notation itself needs.  ``str()`` of every value gives the standard PBN
notation; ``repr()`` rebuilds the value.

Seats are ordered clockwise N, E, S, W (bridge-rules.md §0.3); strains rank
C < D < H < S < NT (Law 18); ranks run 2..14 (A = 14).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = [
    "Seat",
    "Side",
    "Suit",
    "Strain",
    "Rank",
    "Card",
    "Hand",
    "Deal",
    "Vulnerability",
    "CallKind",
    "Call",
    "Auction",
    "Doubling",
    "Contract",
    "Play",
    "Span",
    "Origin",
    "Tag",
    "Board",
    "trick_winner",
    "ModelError",
    "Note",
    "CardAnnotation",
    "Column",
    "Table",
]


class ModelError(ValueError):
    """A value could not be parsed into a model type (bad notation)."""


class Seat(enum.IntEnum):
    """A seat at the table, clockwise from North (bridge-rules.md §0.3).

    >>> Seat.parse("e").lho
    Seat.SOUTH
    >>> str(Seat.WEST.partner)
    'E'
    """

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    def __str__(self) -> str:
        return "NESW"[self]

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Parse ``N``/``E``/``S``/``W`` or ``North``... (any case).

        :raises ModelError: for anything else.
        """
        t = text.strip().upper()
        if t in _SEAT_WORDS:
            return _SEAT_WORDS[t]
        raise ModelError(f"not a seat: {text!r}")

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise."""
        return Seat((self + 1) % 4)

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat clockwise."""
        return Seat((self + 3) % 4)

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return Seat((self + 2) % 4)

    @property
    def side(self) -> Side:
        """The partnership this seat belongs to."""
        return Side.NS if self % 2 == 0 else Side.EW

    def offset(self, n: int) -> Seat:
        """The seat ``n`` places clockwise from this one."""
        return Seat((self + n) % 4)


_SEAT_WORDS = {
    "N": Seat.NORTH,
    "E": Seat.EAST,
    "S": Seat.SOUTH,
    "W": Seat.WEST,
    "NORTH": Seat.NORTH,
    "EAST": Seat.EAST,
    "SOUTH": Seat.SOUTH,
    "WEST": Seat.WEST,
}


class Side(enum.IntEnum):
    """A partnership: North-South or East-West."""

    NS = 0
    EW = 1

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.NORTH, Seat.SOUTH) if self is Side.NS else (Seat.EAST, Seat.WEST)


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


class Suit(enum.IntEnum):
    """A suit, in auction rank order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return "CDHS"[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol (U+2663, U+2666, U+2665, U+2660)."""
        return "\u2663\u2666\u2665\u2660"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter ``S H D C`` (any case).

        :raises ModelError: for anything else.
        """
        i = "CDHS".find(text.strip().upper())
        if i < 0 or len(text.strip()) != 1:
            raise ModelError(f"not a suit: {text!r}")
        return Suit(i)


#: Suits in the order a hand is written: spades, hearts, diamonds, clubs.
SUITS_HIGH_FIRST: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


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


class Rank(enum.IntEnum):
    """A card rank, two (2) to ace (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    def __str__(self) -> str:
        return _RANK_CHARS[self - 2]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    @property
    def hcp(self) -> int:
        """Milton Work high-card points: A 4, K 3, Q 2, J 1 (bridge-rules.md §7.3)."""
        return max(0, self - 10)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``2-9 T J Q K A`` (also ``10``, any case).

        :raises ModelError: for anything else.
        """
        t = text.strip().upper()
        if t == "10":
            return Rank.TEN
        i = _RANK_CHARS.find(t) if len(t) == 1 else -1
        if i < 0:
            raise ModelError(f"not a rank: {text!r}")
        return Rank(i + 2)


_RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card.  ``str()`` gives suit then rank, e.g. ``SA``.

    Cards order by suit (clubs lowest) then rank.

    >>> Card.parse("h10")
    Card.parse('HT')
    >>> Card.parse("SA").rank.hcp
    4
    """

    suit: Suit
    rank: Rank

    def __str__(self) -> str:
        return f"{self.suit}{self.rank}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse suit letter + rank (``SA``, ``d10``, ``CT``).

        :raises ModelError: for anything else.
        """
        card = _CARDS_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ModelError(f"not a card: {text!r}")
        return card

    @property
    def index(self) -> int:
        """0..51: clubs 2 = 0 ... spades A = 51."""
        return self.suit * 13 + self.rank - 2


#: All 52 cards, by :attr:`Card.index`.  Parsing returns these instances.
ALL_CARDS: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)
_CARDS_BY_TEXT: dict[str, Card] = {}
for _c in ALL_CARDS:
    _CARDS_BY_TEXT[f"{_c.suit}{_c.rank}"] = _c
    if _c.rank is Rank.TEN:
        _CARDS_BY_TEXT[f"{_c.suit}10"] = _c


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one seat, kept sorted: spades first, high to low.

    ``str()`` is PBN hand notation (spades.hearts.diamonds.clubs).

    >>> h = Hand.parse("KQJ84.A6.KQ5.J73")
    >>> h.hcp, len(h)
    (16, 13)
    >>> str(h)
    'KQJ84.A6.KQ5.J73'
    """

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.cards, key=_hand_key))
        if ordered != self.cards:
            object.__setattr__(self, "cards", ordered)

    def __str__(self) -> str:
        return ".".join("".join(str(c.rank) for c in self.cards if c.suit is s) for s in SUITS_HIGH_FIRST)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse PBN hand notation ``S.H.D.C`` (ranks any order and case).

        :raises ModelError: if there are not exactly four suits, a rank is
            bad, or a card repeats within the hand.
        """
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise ModelError(f"a hand needs four suits separated by '.': {text!r}")
        cards: list[Card] = []
        for suit, ranks in zip(SUITS_HIGH_FIRST, parts):
            r = ranks.upper().replace("10", "T")
            for ch in r:
                i = _RANK_CHARS.find(ch)
                if i < 0:
                    raise ModelError(f"not a rank: {ch!r} in {text!r}")
                cards.append(ALL_CARDS[suit * 13 + i])
        if len(set(cards)) != len(cards):
            raise ModelError(f"a card repeats in hand {text!r}")
        return cls(tuple(cards))

    @property
    def hcp(self) -> int:
        """High-card points, A 4 K 3 Q 2 J 1 (bridge-rules.md §7.3)."""
        return sum(max(0, c.rank - 10) for c in self.cards)

    def suit_cards(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of one suit, high to low."""
        return tuple(c for c in self.cards if c.suit is suit)


def _hand_key(c: Card) -> tuple[int, int]:
    return (-c.suit, -c.rank)


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands, indexed by :class:`Seat` (N, E, S, W).

    A hand is ``None`` when it is not given (PBN ``-``).  A deal is
    *complete* when all four hands hold 13 cards and the 52 cards are
    distinct; otherwise it is partial (an end position, a quiz fragment or
    a damaged record), which the validator reports when it matters.
    ``str()`` is PBN deal notation starting from North.

    >>> d = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")
    >>> d.is_complete, str(d[Seat.EAST])
    (True, 'A8654.KQ5.T.QJT6')
    """

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    def __getitem__(self, seat: Seat) -> Hand | None:
        return self.hands[seat]

    def __str__(self) -> str:
        return self.to_pbn(Seat.NORTH)

    def __repr__(self) -> str:
        return f"Deal.parse({str(self)!r})"

    def to_pbn(self, first: Seat = Seat.NORTH) -> str:
        """PBN notation with the hands listed clockwise from ``first``."""
        parts = []
        for i in range(4):
            h = self.hands[(first + i) % 4]
            parts.append("-" if h is None else str(h))
        return f"{first}:" + " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse PBN ``<first>:<hand> <hand> <hand> <hand>`` (PBN 2.1 §3.4.11).

        Hands follow clockwise from ``first``; ``-`` is a hand not given.
        Cards repeated across hands are *not* rejected here (the validator
        reports them, code D102).

        :raises ModelError: on bad syntax.
        """
        t = text.strip()
        if len(t) < 2 or t[1] != ":":
            raise ModelError(f"a deal starts with a seat and ':': {text!r}")
        first = Seat.parse(t[0])
        parts = t[2:].split()
        if len(parts) != 4:
            raise ModelError(f"a deal needs four hands: {text!r}")
        hands: list[Hand | None] = [None] * 4
        for i, p in enumerate(parts):
            hands[(first + i) % 4] = None if p == "-" else Hand.parse(p)
        return cls(tuple(hands))  # type: ignore[arg-type]

    @property
    def hcp(self) -> tuple[int | None, int | None, int | None, int | None]:
        """HCP of each seat (N, E, S, W); ``None`` for a hand not given (bridge-rules.md §7.3).

        >>> Deal.parse("N:AKQJ.AKQJ.AKQJ.A - - -").hcp
        (34, None, None, None)
        """
        return tuple(None if h is None else h.hcp for h in self.hands)  # type: ignore[return-value]

    @property
    def is_complete(self) -> bool:
        """Four hands of 13 cards and 52 distinct cards."""
        if any(h is None or len(h) != 13 for h in self.hands):
            return False
        return len({c for h in self.hands for c in h.cards}) == 52  # type: ignore[union-attr]

    def holder(self, card: Card) -> Seat | None:
        """The seat holding ``card``, or ``None`` if no given hand has it."""
        for seat in Seat:
            h = self.hands[seat]
            if h is not None and card in h.cards:
                return seat
        return None


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


@dataclass(frozen=True, slots=True)
class Span:
    """A position inside one board's text: 1-based line and column.

    Lines count from the first line of the board's block (see
    :class:`Origin`); columns count decoded characters.
    """

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a board came from.

    ``path`` is the file (or ``archive.zip!member``); ``line`` the 1-based
    line of the file on which the board's block starts; ``offset`` the
    byte (or character, for text input) offset of the block; ``index`` the
    0-based ordinal of the board in its file; ``format`` ``"pbn"`` or
    ``"lin"``.
    """

    path: str
    line: int = 1
    offset: int = 0
    index: int = 0
    format: str = "pbn"

    def absolute_line(self, span: Span | None) -> int:
        """The file line of a block-relative span (the block start if ``None``)."""
        return self.line if span is None else self.line + span.line - 1


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
            return f"{self.level}{self.strain}"
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

    def __str__(self) -> str:
        return " ".join("-" if c is None else str(c) for c in self.cards)


def trick_winner(leader: Seat, cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> Seat:
    """The seat that wins a trick (Law 44).

    ``cards`` are the (up to four) cards in play order, the first played by
    ``leader``.  The highest trump wins; otherwise the highest card of the
    suit led.

    >>> trick_winner(Seat.NORTH, [Card.parse("DK"), Card.parse("DA"), Card.parse("D2"), Card.parse("D3")], None)
    Seat.EAST
    """
    led = cards[0].suit
    best = 0
    best_key = (cards[0].suit is trump, cards[0].rank)
    for i in range(1, len(cards)):
        c = cards[i]
        if c.suit is trump:
            key = (True, c.rank)
        elif c.suit is led:
            key = (False, c.rank)
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return Seat((leader + best) % 4)


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
      LIN ``nt``).
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
class Note:
    """A PBN Note tag of an auction or play section: ``[Note "index:text"]``
    (PBN 2.1 §3.5.5, §3.6.5).  ``text`` has the spaces after the colon removed."""

    index: int
    text: str


@dataclass(frozen=True, slots=True)
class CardAnnotation:
    """The annotations of one played card (PBN 2.1 §3.6.2): a note reference
    (``note``, or ``None``) and NAGs in ascending order (suffixes are NAGs 7-12)."""

    note: int | None = None
    nags: tuple[int, ...] = ()


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
