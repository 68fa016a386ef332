"""Typed, immutable records for bridge deals, auctions, play and boards.

Everything here is pure data with no I/O and no rules beyond what the
notation itself needs.  ``str()`` of every value gives the standard PBN
notation; ``repr()`` rebuilds the value.

Seats are ordered clockwise N, E, S, W (bridge-rules.md §0.3); strains rank
C < D < H < S < NT (Law 18); ranks run 2..14 (A = 14).

Every record is importable from here (``from handrec.model import Board``); each is
defined in one module:

* :mod:`~handrec.model.cards`: Seat, Side, Suit, Rank, Card, Hand, Deal, trick_winner, ModelError;
* :mod:`~handrec.model.calls`: Strain, CallKind, Call, Note, Auction, Doubling, Contract;
* :mod:`~handrec.model.game`: Board, Tag, Play, CardAnnotation, Vulnerability, Column, Table, sided_parts;
* :mod:`~handrec.model.positions`: Span, Origin.
"""

from handrec.model.calls import Auction, Call, CallKind, Contract, Doubling, Note, Strain
from handrec.model.cards import (
    ALL_CARDS,
    SUITS_HIGH_FIRST,
    Card,
    Deal,
    Hand,
    ModelError,
    Rank,
    Seat,
    Side,
    Suit,
    trick_winner,
)
from handrec.model.game import Board, CardAnnotation, Column, Play, Table, Tag, Vulnerability, sided_parts
from handrec.model.positions import Origin, Span

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
    "ALL_CARDS",
    "SUITS_HIGH_FIRST",
    "sided_parts",
]
