"""USEBIO element values: contracts, seats, leads, scores, adjusted scores, dates, hands.

Each reader returns the typed value and raises :class:`ValueError` with the reason for
text it cannot read (the reader turns that into T101 at the element).  Spellings as
real files write them (usebio.md "Travellers"): contracts without spaces, case-insensitive
(``4S``, ``3NT``, ``3N``, ``5Cx``, ``4SXX``, ``PASS``); leads in either order (``KD``
rank then suit, Compscore3; ``H4`` suit then rank, scorer-to-usebio), ``T`` or ``10``
for the ten; ``SCORE`` signed from North-South's side, ``A6040`` for an adjusted score;
dates ``d/m/yyyy`` (1.2) or ``yyyy-mm-dd`` (1.3).
"""

from __future__ import annotations

import re
from fractions import Fraction

from handrec.model import Card, Contract, Doubling, Hand, Rank, Seat, Strain, Suit
from handrec.scoring.traveller import ArtificialScore

__all__ = [
    "parse_contract",
    "parse_seat",
    "parse_tricks",
    "parse_lead",
    "parse_score",
    "parse_decimal",
    "parse_date",
    "parse_suit_cards",
    "artificial_kind",
    "artificial_text",
    "format_decimal",
    "lead_text",
    "contract_text",
    "date_text",
    "PASSED_OUT",
]

#: How USEBIO files write a passed-out board's CONTRACT.
PASSED_OUT = ("PASS", "P", "AP", "PASSED", "PASSED OUT", "ALL PASS", "NO BID")

_CONTRACT = re.compile(r"([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|\*\*|\*|R|D)?", re.I)
_STRAINS = {"C": Strain.CLUBS, "D": Strain.DIAMONDS, "H": Strain.HEARTS, "S": Strain.SPADES, "N": Strain.NOTRUMP}
_RANKS = "23456789TJQKA"


def parse_contract(text: str) -> Contract:
    """A CONTRACT value (no declarer): ``4S``, ``3NT``/``3N``, ``5CX``/``5Cx``, ``4SXX``; ``PASS``.

    :raises ValueError: for anything else.

    >>> [str(parse_contract(t)) for t in ("4s", "3N", "5Cx", "4SXX", "Pass")]
    ['4S', '3NT', '5CX', '4SXX', 'Pass']
    """
    t = text.strip()
    if t.upper() in PASSED_OUT:
        return Contract.passed_out()
    m = _CONTRACT.fullmatch(t)
    if m is None:
        raise ValueError("not a contract: a level 1-7, a strain (C D H S NT) and X or XX, or PASS")
    d = (m.group(3) or "").upper()
    doubling = Doubling.REDOUBLED if d in ("XX", "**", "R") else Doubling.DOUBLED if d else Doubling.UNDOUBLED
    return Contract(int(m.group(1)), _STRAINS[m.group(2).upper()[0]], doubling)


def contract_text(c: Contract) -> str:
    """A contract as USEBIO writes it: ``4S``, ``3NT``, ``4HX``, ``PASS``."""
    return "PASS" if c.is_passed_out else str(c)


def parse_seat(text: str) -> Seat:
    """A PLAYED_BY value: ``N``, ``E``, ``S``, ``W`` (or the word).

    :raises ValueError: for anything else.
    """
    t = text.strip().upper()
    seats = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
    if t in seats:
        return seats[t]
    words = {"NORTH": Seat.NORTH, "EAST": Seat.EAST, "SOUTH": Seat.SOUTH, "WEST": Seat.WEST}
    if t in words:
        return words[t]
    raise ValueError("not a seat: N, E, S or W")


def parse_tricks(text: str) -> int:
    """A TRICKS value: the tricks declarer took, 0-13 (not over- or undertricks).

    :raises ValueError: for anything else.
    """
    t = text.strip()
    if not t.isdigit() or not 0 <= int(t) <= 13:
        raise ValueError("not a number of tricks from 0 to 13")
    return int(t)


def _rank(text: str) -> Rank | None:
    t = text.upper()
    if t == "10":
        t = "T"
    return Rank(_RANKS.index(t) + 2) if len(t) == 1 and t in _RANKS else None


def _suit(text: str) -> Suit | None:
    t = text.upper()
    return Suit("CDHS".index(t)) if len(t) == 1 and t in "CDHS" else None


def parse_lead(text: str) -> tuple[Card, str]:
    """A LEAD value in either order: rank then suit (``KD``, ``10H``) or suit then rank
    (``H4``, ``D10``); the two letter sets are disjoint, so each value tells its order.
    Returns the card and the order (``"rank+suit"`` or ``"suit+rank"``).

    :raises ValueError: for anything else.

    >>> [(str(c), o) for c, o in (parse_lead("KD"), parse_lead("h4"), parse_lead("10S"))]
    [('DK', 'rank+suit'), ('H4', 'suit+rank'), ('ST', 'rank+suit')]
    """
    t = text.strip()
    if len(t) >= 2:
        s, r = _suit(t[0]), _rank(t[1:])
        if s is not None and r is not None:
            return Card(s, r), "suit+rank"
        r, s = _rank(t[:-1]), _suit(t[-1])
        if s is not None and r is not None:
            return Card(s, r), "rank+suit"
    raise ValueError("not a card: a rank (AKQJT98765432) and a suit (SHDC), in either order")


def lead_text(card: Card, order: str = "suit+rank") -> str:
    """A card as a LEAD value: ``H4`` (suit+rank, the default) or ``4H`` (rank+suit)."""
    s, r = str(card.suit), str(card.rank)
    return s + r if order == "suit+rank" else r + s


_SCORE = re.compile(r"[+-]?\d{1,5}")
_ADJUSTED = re.compile(r"A\s*(\d{2,3})\s*[/-]?\s*(\d{2,3})", re.I)


def parse_score(text: str) -> int | tuple[int, int]:
    """A SCORE value: points from North-South's side (``-420``), or an adjusted score
    ``A`` + the two percentages (``A6040``: 60 % to North-South, 40 % to East-West).

    :raises ValueError: for anything else.

    >>> parse_score("-420"), parse_score("A6040"), parse_score("A5050")
    (-420, (60, 40), (50, 50))
    """
    t = text.strip()
    if _SCORE.fullmatch(t):
        return int(t)
    m = _ADJUSTED.fullmatch(t)
    if m is not None:
        a, b = int(m.group(1)), int(m.group(2))
        if a <= 100 and b <= 100:
            return a, b
    raise ValueError("not a score: points for North-South, or A and the two percentages (A6040)")


def artificial_kind(percent: int) -> ArtificialScore:
    """The Law 12C2 artificial score of a percentage: 60 and over average-plus, 40 and under
    average-minus, else average (as :mod:`handrec.events` reads a ScoreTable's ``^60``)."""
    if percent >= 55:
        return ArtificialScore.AVERAGE_PLUS
    if percent <= 45:
        return ArtificialScore.AVERAGE_MINUS
    return ArtificialScore.AVERAGE


def artificial_text(ns: ArtificialScore, ew: ArtificialScore) -> str:
    """An adjusted SCORE from the two artificial scores: ``A6040``."""
    pct = {ArtificialScore.AVERAGE_PLUS: 60, ArtificialScore.AVERAGE: 50, ArtificialScore.AVERAGE_MINUS: 40}
    return f"A{pct[ns]}{pct[ew]}"


_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def parse_decimal(text: str) -> Fraction:
    """A match point, IMP, total or percentage value: a signed decimal (``-3.67``).

    :raises ValueError: for anything else.
    """
    t = text.strip()
    if not _DECIMAL.fullmatch(t):
        raise ValueError("not a number")
    return Fraction(t)


def format_decimal(x: Fraction | int, places: int = 2) -> str:
    """A number as USEBIO writes it: an integer as is, else ``places`` decimals, rounded
    half away from zero (``10``, ``2.60``, ``-3.67``).

    >>> format_decimal(Fraction(13, 5)), format_decimal(Fraction(-11, 3)), format_decimal(10)
    ('2.60', '-3.67', '10')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    q = abs(x) * 10**places
    n = int(q + Fraction(1, 2))
    sign = "-" if x < 0 and n else ""
    whole, frac = divmod(n, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


_DMY = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})")
_YMD = re.compile(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})")


def parse_date(text: str) -> str:
    """A DATE as PBN writes it (``yyyy.mm.dd``): from ``dd/mm/yyyy`` (1.2, unpadded days
    and months occur) or ``yyyy-mm-dd`` (1.3).

    :raises ValueError: for anything else (a month or day out of range included).

    >>> parse_date("5/12/2015"), parse_date("2018-03-07")
    ('2015.12.05', '2018.03.07')
    """
    t = text.strip()
    m = _YMD.fullmatch(t)
    if m is not None:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        m = _DMY.fullmatch(t)
        if m is None:
            raise ValueError("not a date: dd/mm/yyyy (USEBIO 1.2) or yyyy-mm-dd (1.3)")
        d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        raise ValueError("not a date: the month or the day is out of range")
    return f"{y:04d}.{mo:02d}.{d:02d}"


def date_text(pbn_date: str, version: str = "1.2") -> str | None:
    """A PBN date (``yyyy.mm.dd``) as USEBIO writes it: ``dd/mm/yyyy`` (1.2) or ISO
    ``yyyy-mm-dd`` (1.3); ``None`` when the date is not known in full."""
    m = re.fullmatch(r"\s*(\d{4})[./-](\d{2})[./-](\d{2})\s*", pbn_date or "")
    if m is None:
        return None
    y, mo, d = m.groups()
    return f"{y}-{mo}-{d}" if version == "1.3" else f"{d}/{mo}/{y}"


def parse_suit_cards(text: str, suit: Suit) -> list[Card]:
    """The cards of one suit of a HAND (``AKT9``, ``10`` allowed for the ten; empty is a void).

    :raises ValueError: for a character that is no rank, or a rank given twice.
    """
    t = re.sub(r"\s+", "", text).upper().replace("10", "T")
    cards: list[Card] = []
    for ch in t:
        if ch not in _RANKS:
            raise ValueError(f"{ch!r} is not a rank (AKQJT98765432)")
        c = Card(suit, Rank(_RANKS.index(ch) + 2))
        if c in cards:
            raise ValueError(f"{c} is given twice")
        cards.append(c)
    return cards


def hand_of(cards: list[Card]) -> Hand:
    """A Hand of the given cards (sorted as the model sorts them)."""
    return Hand(tuple(cards))
