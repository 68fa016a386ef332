"""Seats, suits, ranks, cards, hands and deals (and :class:`ModelError`, the error of every parse of the model).

Seats are ordered clockwise N, E, S, W (bridge-rules.md §0.3); ranks run 2..14 (A = 14);
a hand is written spades first (PBN 2.1 §3.4.11).  :func:`trick_winner` says which card
of a trick wins it (Law 44).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "ModelError",
    "Seat",
    "Side",
    "Suit",
    "SUITS_HIGH_FIRST",
    "Rank",
    "Card",
    "ALL_CARDS",
    "Hand",
    "Deal",
    "trick_winner",
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
