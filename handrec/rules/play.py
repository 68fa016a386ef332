"""Play replay: tricks, their winners, follow suit, claims.

Implements bridge-rules.md §3: the opening lead is made by declarer's
left-hand opponent (Law 41); each player follows suit when able (Law 44,
61); the highest trump wins a trick, else the highest card of the suit led
(Law 44); the winner leads next; a claim states the total number of tricks
declarer takes (Law 68; LIN ``mc``).

Irregularities a record marks as accepted (PBN 2.1 §3.9,
:attr:`Play.irregular <handrec.model.Play.irregular>`) are honoured: a card
marked ``"R"`` is a revoke not corrected in time (Laws 62-64: it stands) and is
not reported; a card marked ``"L"`` was led out of turn and the lead accepted
(Laws 53-55): its holder led that trick and the others follow clockwise.

>>> from handrec.model import Card, Contract, Deal, Seat
>>> deal = Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
>>> state = PlayState(deal, Contract.parse("7NT", declarer=Seat.SOUTH))
>>> state.next_seat, [str(c) for c in state.legal_cards()][:3]
(Seat.WEST, ['S2', 'H5', 'H4'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from handrec.model import (
    ALL_CARDS,
    Card,
    Contract,
    Deal,
    Hand,
    Play,
    Seat,
    Strain,
    Suit,
    trick_winner,
)
from handrec.rules.board import SUIT_MASKS, DealCheck, Fault, card_bit, check_deal, hand_mask

__all__ = ["Trick", "PlayReplay", "IllegalPlayError", "PlayState", "legal_cards", "replay_play"]

_SUIT_NAMES = ("club", "diamond", "heart", "spade")
_SEATS = tuple(Seat)
#: id(card) -> (bit, suit, index) for the model's canonical Card instances.
_INFO: dict[int, tuple[int, int, int]] = {id(c): (1 << c.index, int(c.suit), c.index) for c in ALL_CARDS}
#: The four seats in play order from each leader.
_ROTATIONS = tuple(tuple(_SEATS[(s + j) & 3] for j in range(4)) for s in range(4))


def _card_info(c: Card) -> tuple[int, int, int]:
    """(bit, suit, index) of a Card that is not one of the canonical instances."""
    return (1 << c.index, int(c.suit), c.index)


class Trick(NamedTuple):
    """One trick of a replayed play.

    ``number`` 1..13; ``leader`` the seat that led; ``cards`` in play order
    (up to four, the first by ``leader``; ``None`` = a card the record does
    not know); ``winner`` the seat that won it, ``None`` while incomplete or
    when a card is unknown.

    A named tuple (immutable, compared by value): a replay makes thirteen a board,
    and a tuple is made several times faster than a frozen dataclass.
    """

    number: int
    leader: Seat
    cards: tuple[Card | None, ...]
    winner: Seat | None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seat that played each card, in play order."""
        return tuple(Seat((self.leader + i) % 4) for i in range(len(self.cards)))


@dataclass(frozen=True, slots=True)
class PlayReplay:
    """The outcome of replaying a play record.

    ``tricks``: every trick whose leader is known, in order.
    ``declarer_tricks``: tricks won by the declaring side among the tricks
    with a known winner (0-13).  ``complete``: all tricks played with every
    card and winner known.  ``result``: tricks taken by declarer, 0-13:
    from a complete play, else from a possible claim, else ``None``.
    ``faults``: P401-P405 with the index of the card in the record (``None``
    for P403, which belongs to the Play tag, and for P405).
    ``defence_tricks``: tricks won by the defenders among the tricks with a
    known winner; ``played``: tricks with all four cards in the record
    (known or not).  Whatever the rest of the play, declarer ends with
    ``declarer_tricks`` to ``13 - defence_tricks`` tricks (Laws 71, 79A).
    """

    tricks: tuple[Trick, ...]
    declarer_tricks: int
    complete: bool
    result: int | None
    faults: tuple[Fault, ...] = ()
    defence_tricks: int = 0
    played: int = 0


class IllegalPlayError(ValueError):
    """A card that may not be played now (raised by :meth:`PlayState.play`).

    ``code`` is P401 (revoke), P402 (card not held) or P404 (play after the
    end).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def _mask_cards(mask: int) -> list[Card]:
    """Cards of a mask, highest index first (spades ace .. clubs two)."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(ALL_CARDS[top])
        mask ^= 1 << top
    return out


def legal_cards(hand: Hand | Iterable[Card], led: Suit | None) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick whose lead was of suit ``led``.

    ``led`` is ``None`` for the lead itself (any card).  A player holding the
    suit led must follow; a player void in it may play anything (no duty to
    ruff or overruff).

    Source: Law 44C-E; bridge-rules.md §3.2.

    >>> [str(c) for c in legal_cards(Hand.parse("A2.K.."), Suit.SPADES)]
    ['SA', 'S2']
    >>> len(legal_cards(Hand.parse("A2.K.."), Suit.CLUBS))
    3
    """
    cards = tuple(hand)
    if led is None:
        return cards
    follow = tuple(c for c in cards if c.suit == led)
    return follow or cards


class PlayState:
    """The play of one deal, card by card, with full legality (Laws 41-44, 61).

    ``deal`` must give the four hands; ``contract`` its strain and declarer
    (or pass ``leader`` for the opening lead).  Used to generate legal play
    and by analysis tools; :func:`replay_play` checks a record instead.
    """

    __slots__ = ("trump", "declarer", "hands", "leader", "current", "tricks", "declarer_tricks", "_total")

    def __init__(self, deal: Deal, contract: Contract, leader: Seat | None = None) -> None:
        if contract.strain is None:
            raise ValueError("a passed-out deal has no play")
        declarer = contract.declarer
        if leader is None:
            if declarer is None:
                raise ValueError("the contract has no declarer and no leader is given")
            leader = declarer.lho
        if declarer is None:
            declarer = leader.rho
        if any(h is None for h in deal.hands):
            raise ValueError("PlayState needs all four hands")
        self.trump: Suit | None = contract.strain.suit
        self.declarer: Seat = declarer
        self.hands: list[int] = [hand_mask(h) for h in deal.hands]  # type: ignore[arg-type]
        self.leader: Seat = leader
        self.current: list[Card] = []
        self.tricks: list[Trick] = []
        self.declarer_tricks = 0
        self._total = len(deal.hands[0])  # type: ignore[arg-type]

    @property
    def next_seat(self) -> Seat:
        """The seat to play next."""
        return Seat((self.leader + len(self.current)) % 4)

    @property
    def is_complete(self) -> bool:
        """Whether every card has been played."""
        return len(self.tricks) >= self._total

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the next seat may play (high first); empty once complete."""
        if self.is_complete:
            return ()
        held = self.hands[self.next_seat]
        if self.current:
            follow = held & SUIT_MASKS[self.current[0].suit]
            if follow:
                held = follow
        return tuple(_mask_cards(held))

    def play(self, card: Card) -> Trick | None:
        """Play ``card`` for :attr:`next_seat`; returns the trick it completes, if any.

        :raises IllegalPlayError: P404 after the last trick, P402 for a card
            the seat does not hold, P401 for a revoke.
        """
        if self.is_complete:
            raise IllegalPlayError("P404", f"{card} played after the last trick")
        seat = self.next_seat
        held = self.hands[seat]
        bit = card_bit(card)
        if not held & bit:
            raise IllegalPlayError("P402", f"{seat} does not hold {card}")
        if self.current:
            led = self.current[0].suit
            if card.suit != led and held & SUIT_MASKS[led]:
                raise IllegalPlayError("P401", f"{seat} must follow suit to {self.current[0]}")
        self.hands[seat] = held & ~bit
        self.current.append(card)
        if len(self.current) < 4:
            return None
        winner = trick_winner(self.leader, self.current, self.trump)
        trick = Trick(len(self.tricks) + 1, self.leader, tuple(self.current), winner)
        self.tricks.append(trick)
        if (winner - self.declarer) % 2 == 0:
            self.declarer_tricks += 1
        self.leader = winner
        self.current = []
        return trick


def _misfits(r: PlayReplay) -> int:
    """The cards a replay finds in the wrong hand or played against suit (P401, P402)."""
    return sum(1 for f in r.faults if f.code == "P402" or f.code == "P401")


def replay_play(
    play: Play,
    contract: Contract,
    deal: Deal | None = None,
    deal_check: DealCheck | None = None,
    *,
    follow_leads: bool = False,
    _leader: Seat | None = None,
) -> PlayReplay:
    """Replay a play record against the contract and (when known) the deal.

    ``play.cards`` are in play order, ``None`` for unknown cards;
    ``contract`` needs its strain (trumps) and should carry its declarer;
    ``deal`` (or an already computed ``deal_check`` of it) enables the
    holding checks, for the hands it gives.

    Faults: P403 the Play tag's leader is not declarer's LHO (not for an end
    position, whose Play tag names the player on lead).  The replay always
    follows the record's leader (PBN 2.1 §3.6: column 1 is the seat the Play
    tag names; issue #18: another reading is never kept).  When the cards fit
    the hands better led from declarer's LHO (a wrong Play tag over play lines
    written from the real leader: the cards' order is the same either way,
    each trick led from the previous winner's column), the P403 message says
    so and the cards out of place under the record's reading are that one
    fault, not one P402 for every card; P402 a card the seat does not hold (also a
    card played twice); P401 a revoke (Law 61); P404 known cards after the
    last trick; P405 a claim outside what declarer can still take.  An
    unknown card leaves its trick's winner unknown; the next trick's leader
    is then found from who holds its first known card, when the deal says.

    Accepted irregularities (``play.irregular``, PBN 2.1 §3.9): a card marked
    ``"R"`` (revoke not corrected, Laws 63-64) is no P401; a card marked
    ``"L"`` (lead out of turn accepted, Laws 53-55) must open its trick: the
    seat holding it (by the deal) led the trick, whoever won the previous
    one, and an opening lead so marked is no P403.  Tricks won are counted
    as played (any Law 64 trick transfer is left to the Result tag).

    An end position (``deal`` with hands of fewer than 13 cards, PBN 2.1
    §3.10) is replayed from its partial hands: tricks are numbered from
    14 minus the cards per hand, and its first lead is no opening lead
    (the Play tag names the player on lead, PBN 2.1 §3.10: no P403).

    ``follow_leads`` is for records in play order whose seats are not
    written (LIN, lin.md §6): when the first card of a trick is not held by
    the seat that should lead but by another seat that still holds it, that
    seat led (P408, once) and the replay follows it, instead of blaming
    every later card on the wrong seat.  PBN play lines name the seat of
    each card by its column, so PBN replays keep ``False``.

    Source: Laws 41, 44, 53-55, 61-64, 68; bridge-rules.md §3.

    :raises ValueError: when the contract has no strain (passed out).
    """
    trump_strain = contract.strain
    if trump_strain is None:
        raise ValueError("a passed-out deal has no play")
    if type(trump_strain) is Strain:
        trump_i = -1 if trump_strain is Strain.NOTRUMP else int(trump_strain)
    else:
        trump = trump_strain.suit
        trump_i = -1 if trump is None else int(trump)
    faults: list[Fault] = []
    cards = play.cards
    n = len(cards)
    irr = play.irregular if type(play.irregular) is tuple else ()
    if irr and len(irr) != n:  # a hand-built record: align the marks with the cards
        irr = (irr + (None,) * n)[:n]
    dc = deal_check if deal_check is not None else check_deal(deal, required=False)
    orig = dc.masks
    masks = list(orig)
    checkable = dc.checkable
    any_checkable = any(checkable)
    per_hand = dc.cards_per_hand or 13
    first_number = 14 - per_hand

    declarer = contract.declarer
    expected = None if declarer is None else _SEATS[(declarer + 1) & 3]
    stated = play.leader
    opening_out_of_turn = bool(irr) and irr[0] == "L"
    if _leader is not None:
        stated = _leader  # one of the two readings of a P403 record (below)
    elif (
        stated is not None
        and expected is not None
        and stated != expected
        and not opening_out_of_turn
        and per_hand == 13  # an end position's Play tag names the player on lead (PBN 2.1 §3.10)
    ):
        as_stated = replay_play(play, contract, deal, dc, follow_leads=follow_leads, _leader=stated)
        other = ""
        faults_after = as_stated.faults
        if any_checkable and as_stated.faults:
            from_lho = replay_play(play, contract, deal, dc, follow_leads=follow_leads, _leader=expected)
            if _misfits(from_lho) < _misfits(as_stated):
                # the other reading is offered, never kept (PBN 2.1 §3.6: column 1 is the Play
                # tag's seat); the cards out of place under the record's reading are this one fault
                other = f" (read as led by {expected} the cards fit the hands: that reading is not kept)"
                faults_after = ()
        p403 = Fault("P403", None, (("value", str(stated)), ("expected", str(expected)), ("other", other)))
        return replace(as_stated, faults=(p403, *faults_after))
    leader = stated if stated is not None else expected

    tricks: list[Trick] = []
    new_trick = tuple.__new__  # Trick's fields in order, without its __new__'s call
    decl_won = 0
    def_won = 0
    unknown_won = 0
    decl_side = None if declarer is None else declarer % 2
    info_of = _INFO.get
    # (bit, suit, index) of each card; None for an unknown or non-canonical card
    infos = list(map(info_of, map(id, cards)))
    # Whole tricks can take the fast loop below: all four hands known and no lead
    # out of turn marked (a ^R mark matters only for a revoke, which leaves the loop).
    fast = all(checkable) and "L" not in irr and "R" not in irr  # a marked card is checked against its mark
    limit = min(n // 4, per_hand)  # tricks with four cards
    # positions of unknown (or non-canonical) cards: the fast loop stops before their trick
    gaps = [k for k, x in enumerate(infos) if x is None] if None in infos else []
    i = 0
    trick_no = 0
    while i < n and trick_no < per_hand:
        if fast and type(leader) is Seat:
            # Fast loop: four known cards, each held by its seat, suit followed when able.
            # It stops at anything else (a fault, an unknown or non-canonical card): that
            # trick takes the general code below, and the fast loop resumes at the next one.
            stop = limit
            if gaps:
                stop = min(limit, next((k // 4 for k in gaps if k >= i), limit))
            while trick_no < stop:
                b0, s0, x0 = infos[i]  # (no slice: no list made a trick)
                b1, s1, x1 = infos[i + 1]
                b2, s2, x2 = infos[i + 2]
                b3, s3, x3 = infos[i + 3]
                p0, p1, p2, p3 = _ROTATIONS[leader]
                m0 = masks[p0]
                m1 = masks[p1]
                m2 = masks[p2]
                m3 = masks[p3]
                led_mask = SUIT_MASKS[s0]
                if not (
                    m0 & b0  # type: ignore[operator]
                    and m1 & b1  # type: ignore[operator]
                    and m2 & b2  # type: ignore[operator]
                    and m3 & b3  # type: ignore[operator]
                    and (s1 == s0 or not m1 & led_mask)  # type: ignore[operator]
                    and (s2 == s0 or not m2 & led_mask)  # type: ignore[operator]
                    and (s3 == s0 or not m3 & led_mask)  # type: ignore[operator]
                ):
                    break
                masks[p0] = m0 ^ b0  # type: ignore[operator]
                masks[p1] = m1 ^ b1  # type: ignore[operator]
                masks[p2] = m2 ^ b2  # type: ignore[operator]
                masks[p3] = m3 ^ b3  # type: ignore[operator]
                # Law 44, as in the general code
                winner, best_suit, best_idx = p0, s0, x0
                if s1 == best_suit:
                    if x1 > best_idx:
                        winner, best_idx = p1, x1
                elif s1 == trump_i:
                    winner, best_suit, best_idx = p1, s1, x1
                if s2 == best_suit:
                    if x2 > best_idx:
                        winner, best_idx = p2, x2
                elif s2 == trump_i:
                    winner, best_suit, best_idx = p2, s2, x2
                if s3 == best_suit:
                    if x3 > best_idx:
                        winner = p3
                elif s3 == trump_i:
                    winner = p3
                if decl_side is None:
                    decl_side = (p0 + 3) % 2  # the first leader is declarer's LHO
                if winner & 1 == decl_side:
                    decl_won += 1
                else:
                    def_won += 1
                tricks.append(new_trick(Trick, (first_number + trick_no, p0, cards[i : i + 4], winner)))
                leader = winner
                i += 4
                trick_no += 1
            if i >= n or trick_no >= per_hand:
                break
        chunk = cards[i : i + 4]
        lead_seat = leader
        proper = expected if trick_no == 0 and expected is not None else leader  # the seat on lead by the rules
        if irr and irr[i] == "L":
            # Laws 53-55: a lead out of turn accepted: the card's holder led this trick
            lead_seat = None
            if decl_side is None and stated is not None:
                decl_side = (stated + 3) % 2  # the stated leader is still declarer's LHO
        if lead_seat is None and any_checkable:
            for j, c in enumerate(chunk):
                if c is not None:
                    bit = card_bit(c)
                    for s in range(4):
                        if checkable[s] and orig[s] & bit:  # type: ignore[operator]
                            lead_seat = _SEATS[(s - j) & 3]
                            break
                    break
        if follow_leads and lead_seat is not None and chunk and chunk[0] is not None:
            bit0 = card_bit(chunk[0])
            if checkable[lead_seat] and not masks[lead_seat] & bit0:  # type: ignore[operator]
                for s in range(4):
                    if s != lead_seat and checkable[s] and masks[s] & bit0:  # type: ignore[operator]
                        faults.append(
                            Fault(
                                "P408",
                                i,
                                (
                                    ("card", str(chunk[0])),
                                    ("holder", str(_SEATS[s])),
                                    ("expected", str(lead_seat)),
                                    (
                                        "why",
                                        "is the opening leader"
                                        if trick_no == 0
                                        else "won the previous trick and leads",
                                    ),
                                ),
                            )
                        )
                        lead_seat = _SEATS[s]
                        break
        if lead_seat is None:
            # Nobody knows who led: the cards cannot be attributed to seats.
            if len(chunk) == 4:
                unknown_won += 1
            leader = None  # nor who leads next
            i += 4
            trick_no += 1
            continue
        if irr and irr[i] == "L" and proper is not None and lead_seat == proper and chunk[0] is not None:
            # the mark says out of turn, the cards say the proper leader led (PBN 2.1 §3.9)
            faults.append(Fault("P410", i, (("card", str(chunk[0])), ("seat", str(lead_seat)))))
        if decl_side is None:
            decl_side = (lead_seat + 3) % 2  # the first leader is declarer's LHO
        led_suit = -1
        known = True
        best_j = best_suit = best_idx = 0
        for j, c in enumerate(chunk):
            if c is None:
                known = False
                continue
            bit, suit, idx = info_of(id(c)) or _card_info(c)
            # Law 44: the highest trump wins, else the highest card of the suit led
            # (the same rule as model.trick_winner, on ints for speed)
            if j == 0:
                led_suit = best_suit = suit
                best_idx = idx
            elif suit == best_suit:
                if idx > best_idx:
                    best_j, best_idx = j, idx
            elif suit == trump_i:
                best_j, best_suit, best_idx = j, suit, idx
            seat = (lead_seat + j) & 3
            if not checkable[seat]:
                continue
            rem = masks[seat]
            if not rem & bit:  # type: ignore[operator]
                faults.append(Fault("P402", i + j, (("seat", str(_SEATS[seat])), ("card", str(c)))))
                continue
            if j and suit != led_suit and led_suit >= 0:
                follow = rem & SUIT_MASKS[led_suit]  # type: ignore[operator]
                if follow and not (irr and irr[i + j] == "R"):  # ^R: an established revoke stands
                    held = " ".join(str(x) for x in _mask_cards(follow))
                    args = (
                        ("seat", str(_SEATS[seat])),
                        ("card", str(c)),
                        ("led", _SUIT_NAMES[led_suit]),
                        ("held", held),
                    )
                    faults.append(Fault("P401", i + j, args))
            if irr and irr[i + j] == "R":
                # ^R: a revoke not corrected (PBN 2.1 §3.9); a card that leads, follows suit or
                # is played by a hand void in the suit led is no revoke (Law 61)
                why = None
                if j == 0 or led_suit < 0:
                    why = "it leads the trick"
                elif suit == led_suit:
                    why = "it follows suit"
                elif not rem & SUIT_MASKS[led_suit]:  # type: ignore[operator]
                    why = f"{_SEATS[seat]} holds no {_SUIT_NAMES[led_suit]}"
                if why is not None:
                    faults.append(Fault("P409", i + j, (("card", str(c)), ("seat", str(_SEATS[seat])), ("why", why))))
            masks[seat] = rem & ~bit  # type: ignore[operator]
        winner = None
        if len(chunk) == 4:
            if known:
                winner = _SEATS[(lead_seat + best_j) & 3]
                if winner % 2 == decl_side:
                    decl_won += 1
                else:
                    def_won += 1
            else:
                unknown_won += 1
        tricks.append(new_trick(Trick, (first_number + trick_no, lead_seat, chunk, winner)))
        leader = winner
        i += 4
        trick_no += 1

    if i < n:
        extra = [k for k in range(i, n) if cards[k] is not None]
        if extra:
            faults.append(Fault("P404", extra[0], (("count", len(extra)),)))

    completed = min(n // 4, per_hand)
    complete = completed == per_hand == 13 and unknown_won == 0 and decl_side is not None
    result = decl_won if complete else None
    claim = play.claim
    if claim is not None:
        remaining = per_hand - completed
        reason = None
        if type(claim) is not int or not 0 <= claim <= 13:
            reason = "not a number of tricks from 0 to 13"
        elif per_hand == 13 and decl_side is not None:
            if claim < decl_won:
                reason = f"declarer has already won {decl_won}"
            elif claim > decl_won + unknown_won + remaining:
                most = decl_won + unknown_won + remaining
                reason = f"declarer can take at most {most} ({decl_won + unknown_won} won, {remaining} to play)"
        if reason is not None:
            faults.append(Fault("P405", None, (("claim", claim), ("reason", reason))))
        elif result is None:
            result = claim
    faults_t = tuple(faults) if faults else ()
    return PlayReplay(tuple(tricks), decl_won, complete, result, faults_t, def_won, completed)
