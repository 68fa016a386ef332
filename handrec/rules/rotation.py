"""A deal rotated against its own auction and play (D215): hand-record programs sometimes write it so.

When the cards played do not fit the deal (P402: a card played by a seat
that does not hold it) but fit it exactly once the four hands are turned by
one, two or three seats, the deal was most likely written rotated: the
director fixes the deal, not the play.  No solver is needed.

>>> from handrec.model import Deal
>>> str(turn(Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"), 1))
'N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.'
"""

from __future__ import annotations

from handrec.diagnostics import Diagnostic, make
from handrec.model import Board, Contract, Deal, Seat
from handrec.rules.play import replay_play

__all__ = ["turn", "rotation", "MIN_CARDS"]

#: Known cards played before a rotation is reported (one trick: fewer fit a wrong turn by chance too often).
MIN_CARDS = 4

_TURNS = {
    1: "1 seat clockwise (the hand written for North is East's)",
    2: "2 seats (the hand written for North is South's)",
    3: "1 seat anticlockwise (the hand written for North is West's)",
}


def turn(deal: Deal, k: int) -> Deal:
    """``deal`` with its hands turned ``k`` seats clockwise: the hand North held goes to the seat ``k``
    places to its left (``k = 1``: North's hand to East, East's to South...)."""
    hands = [None] * 4
    for seat in Seat:
        hands[(seat + k) % 4] = deal.hands[seat]
    return Deal(tuple(hands))  # type: ignore[arg-type]


def _misfits(board: Board, contract: Contract, deal: Deal) -> int:
    assert board.play is not None
    r = replay_play(board.play, contract, deal)
    return sum(1 for f in r.faults if f.code in ("P401", "P402"))


def rotation(board: Board, contract: Contract | None) -> Diagnostic | None:
    """**D215** (warning) when the board's play fits its deal only with the hands turned by 1, 2 or 3
    seats (exactly one of the three, with no card out of place, and at least :data:`MIN_CARDS`
    known cards played), else ``None``.  The message says by how many seats and gives the deal as
    it would be.  ``contract``: the contract the replay found (its declarer decides the opening
    leader, Law 41).  Never raises.
    """
    deal, play = board.deal, board.play
    if deal is None or play is None or contract is None or contract.strain is None or contract.declarer is None:
        return None
    if contract.is_passed_out or not deal.is_complete:
        return None
    if sum(c is not None for c in play.cards) < MIN_CARDS:
        return None
    try:
        if _misfits(board, contract, deal) == 0:
            return None
        fits = [k for k in (1, 2, 3) if _misfits(board, contract, turn(deal, k)) == 0]
    except (ValueError, TypeError, IndexError):  # a record the replay cannot take: not a rotation
        return None
    if len(fits) != 1:
        return None
    k = fits[0]
    turned = turn(deal, k)
    return make(
        "D215",
        board.origin,
        board.tag_span("Deal"),
        turn=_TURNS[k],
        detail=f'the board would be [Deal "{turned}"]',
    )
