"""How play order maps to PBN's play lines (PBN 2.1 §3.6), for the reader and the writer.

PBN writes a play one trick a line, in fixed seat order from the Play tag's seat; the
cards are played in another order (each trick led by the winner of the previous one,
Law 44).  :func:`play_trump` gives the trump the mapping needs (or :data:`TRUMP_UNKNOWN`),
:func:`best_known` the best guess at a trick's winner when cards are unknown, and
:func:`play_lines` regroups play-order cards into the seat-ordered lines.  The reader
(:mod:`handrec.formats.pbn.play_section`) maps the other way.
"""

from __future__ import annotations

from typing import Any

from handrec.model import Auction, CallKind, Card, Contract, Deal, Play, Suit, trick_winner

__all__ = ["TRUMP_UNKNOWN", "play_trump", "best_known", "play_lines"]


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
    A306; ``bad_call``: the reader dropped a token that is no call, or the auction does not
    start at the dealer, T106) and the Contract tag, with its declarer (with ``bad_call``,
    with or without one: no Law gives that auction's contract), names another strain: the
    replay then takes the contract from the tags (:func:`handrec.rules.replay.replay`), and
    so does the play's order.  Otherwise
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
                and (contract.declarer is not None or bad_call)
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
