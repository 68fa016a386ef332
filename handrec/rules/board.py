"""Board-level rules: the 16-board cycle, HCP and the checks of a deal.

Also defines :class:`Fault`, the result type every rules checker returns:
a diagnostic code, the index of the offending item (call or card) and the
message arguments.  The replay (:mod:`handrec.rules.replay`) turns faults
into :class:`~handrec.diagnostics.Diagnostic` values with exact positions.

>>> dealer_for_board(2), vulnerability_for_board(2)
(Seat.EAST, Vulnerability.NS)
>>> deal = Deal.parse("N:KQJ84.A6.KQ5.J73 - - -")
>>> [f.code for f in check_deal(deal).faults]
['D204']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from handrec.diagnostics import Diagnostic, make
from handrec.model import ALL_CARDS, Card, Deal, Hand, Origin, Seat, Span, Vulnerability

__all__ = [
    "Fault",
    "DealCheck",
    "remember_full_deal",
    "dealer_for_board",
    "vulnerability_for_board",
    "scoring_fields",
    "own_vulnerability",
    "hcp",
    "deal_hcp",
    "check_deal",
    "card_bit",
    "hand_mask",
    "FULL_MASK",
    "SUIT_MASKS",
]


@dataclass(frozen=True, slots=True)
class Fault:
    """One rules fault, before it gets a file position.

    ``code`` is a key of :data:`handrec.diagnostics.CODES`; ``index`` the
    0-based index of the offending call (auction) or card (play) in its
    record, ``None`` when the fault belongs to the whole record (a tag, the
    deal, the Play tag's leader); ``args`` the message arguments as
    ``(name, value)`` pairs.
    """

    code: str
    index: int | None
    args: tuple[tuple[str, object], ...] = ()

    @property
    def kwargs(self) -> dict[str, object]:
        """``args`` as a dict, ready for :func:`handrec.diagnostics.make`."""
        return dict(self.args)

    def diagnostic(self, origin: Origin | None, span: Span | None) -> Diagnostic:
        """The :class:`~handrec.diagnostics.Diagnostic` for this fault at ``span``."""
        return make(self.code, origin, span, **dict(self.args))


def _fault(code: str, index: int | None = None, **args: object) -> Fault:
    return Fault(code, index, tuple(args.items()))


# --- board cycle ------------------------------------------------------------

_CYCLE_VUL = (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH)


def _board_index(number: int) -> int:
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ValueError(f"board numbers start at 1, not {number!r}")
    return (number - 1) % 16


def dealer_for_board(number: int) -> Seat:
    """The dealer of duplicate board ``number`` (1, 2, ...): N, E, S, W in turn.

    Source: Law 2; bridge-rules.md §4.11.

    :raises ValueError: for a number below 1.

    >>> dealer_for_board(1), dealer_for_board(16), dealer_for_board(17)
    (Seat.NORTH, Seat.WEST, Seat.NORTH)
    """
    return Seat(_board_index(number) % 4)


def vulnerability_for_board(number: int) -> Vulnerability:
    """The vulnerability of duplicate board ``number`` (the 16-board cycle).

    ``i = (number - 1) % 16``; vulnerability ``[None, NS, EW, Both][(i + i // 4) % 4]``.

    Source: Law 2; bridge-rules.md §4.11.

    :raises ValueError: for a number below 1.

    >>> vulnerability_for_board(4), vulnerability_for_board(13), vulnerability_for_board(32)
    (Vulnerability.BOTH, Vulnerability.BOTH, Vulnerability.EW)
    """
    i = _board_index(number)
    return _CYCLE_VUL[(i + i // 4) % 4]


def scoring_fields(scoring: str) -> set[str]:
    """The upper-case fields of a Scoring tag (``"MP;MP1"`` -> ``{"MP", "MP1"}``; PBN 2.1 §3.4.12)."""
    return {f.strip().upper() for f in re.split(r"[;,]", scoring) if f.strip()}


def own_vulnerability(scoring: str | None) -> bool:
    """Whether a Scoring tag makes a deal's vulnerability its own rather than its board
    number's (Law 2's cycle): rubber (the games won so far, bridge-rules.md §5) and Chicago
    (the round's rotation, whose schemes differ on deals 2 and 3, §6.2).

    >>> own_vulnerability("Rubber"), own_vulnerability("MP;Chicago"), own_vulnerability("IMP"), own_vulnerability(None)
    (True, True, False, False)
    """
    return bool(scoring) and not scoring_fields(scoring).isdisjoint(("RUBBER", "CHICAGO"))  # type: ignore[arg-type]


# --- cards as bits ------------------------------------------------------------

#: Bit masks of the cards of each suit (bit = :attr:`Card.index`), clubs first.
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
#: All 52 cards.
FULL_MASK = (1 << 52) - 1
_BIT_BY_ID: dict[int, int] = {id(c): 1 << c.index for c in ALL_CARDS}


def card_bit(card: Card) -> int:
    """``1 << card.index``: the card as a bit of a 52-bit mask (fast for parsed cards)."""
    b = _BIT_BY_ID.get(id(card))
    return b if b is not None else 1 << card.index


def hand_mask(hand: Hand) -> int:
    """The cards of ``hand`` as a 52-bit mask (a card repeated in the hand counts once)."""
    cards = hand.cards
    try:
        m = sum(map(_BIT_BY_ID.__getitem__, map(id, cards)))
    except KeyError:  # a Card not built by the model's parsers
        m = -1
    if m >= 0 and m.bit_count() == len(cards):  # a sum of distinct bits only
        return m
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def _cards_of(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


# --- HCP -----------------------------------------------------------------------


def hcp(hand: Hand) -> int:
    """High-card points of a hand: A 4, K 3, Q 2, J 1 (Milton Work).

    Source: bridge-rules.md §7.3.

    >>> hcp(Hand.parse("KQJ84.A6.KQ5.J73"))
    16
    """
    return hand.hcp


def deal_hcp(deal: Deal) -> tuple[int | None, int | None, int | None, int | None]:
    """HCP of each seat (N, E, S, W); ``None`` for a hand not given.

    >>> deal_hcp(Deal.parse("N:AKQJ.AKQJ.AKQJ.A - - -"))
    (34, None, None, None)
    """
    return deal.hcp


# --- deal checks -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealCheck:
    """What :func:`check_deal` found.

    ``faults``: D201-D205 (index ``None``: they belong to the Deal tag).
    ``masks``: each seat's cards as a 52-bit mask (``None`` for a hand not
    given), with a fourth hand completed when three full hands are given.
    ``checkable``: per seat, whether play checks (card held, follow suit)
    can trust that hand: the hand is given and the deal has no wrong count
    or duplicate card.  ``cards_per_hand``: 13, or the common length of an
    end position (PBN 2.1 §3.10); ``None`` when unknown.
    """

    faults: tuple[Fault, ...]
    masks: tuple[int | None, int | None, int | None, int | None]
    checkable: tuple[bool, bool, bool, bool]
    cards_per_hand: int | None

    @property
    def is_complete(self) -> bool:
        """Four hands of 13 distinct cards (possibly completed from three)."""
        return self.cards_per_hand == 13 and all(self.checkable)


_NO_DEAL = DealCheck((), (None, None, None, None), (False, False, False, False), None)
_ALL_CHECKABLE = (True, True, True, True)
#: The last deal checked and its DealCheck: boards of one traveller, or the two rooms
#: of a teams match, often share one Deal object (a Deal is immutable; the object is
#: kept alive here, so ``is`` cannot match a new deal at a recycled address).
_last_check: tuple[Deal | None, DealCheck] = (None, _NO_DEAL)


def remember_full_deal(deal: Deal, masks: tuple[int, int, int, int]) -> None:
    """Keep ``masks`` (each seat's 13 cards, N E S W, found by the reader while it built
    ``deal``) as the :class:`DealCheck` of ``deal``, for :func:`check_deal` to return: the
    deal is read once, its masks shared.  Only for four hands of 13 canonical cards each
    whose masks add up to the full deck (the fast path of :func:`check_deal`, which finds
    the same DealCheck)."""
    global _last_check
    _last_check = (deal, DealCheck((), masks, _ALL_CHECKABLE, 13))


def check_deal(deal: Deal | None, *, required: bool = True) -> DealCheck:
    """Check the cards of a deal (Law 1: 52 cards, 13 to each player).

    ``deal`` may be partial (hands ``None``) or an end position (every
    given hand with the same number of cards, fewer than 13).  Reports:

    * D205 no deal (only when ``required``: the caller knows the deal is
      needed, e.g. a play is given);
    * D202 a card in more than one hand (one fault per card);
    * D201 a hand that does not hold 13 cards (all four hands given, not an
      end position), or more than 13 (some hands not given);
    * D203 cards missing from four given hands;
    * D204 (info) a partial deal: hands not given (``-``, or empty as quiz
      files write them: ``...``), unless exactly one is missing and three
      full hands determine it; or an end position.  With hands missing, a
      hand of fewer than 13 cards is taken as a fragment (single-suit
      exercises), not a fault, and is not used for play checks.

    Source: Law 1; PBN 2.1 §3.4.11, §3.10.

    >>> d = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 - -")
    >>> [(f.code, f.kwargs) for f in check_deal(d).faults]
    [('D204', {'given': 26})]
    >>> d = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.8")
    >>> [(f.code, f.kwargs) for f in check_deal(d).faults]
    [('D201', {'seat': 'W', 'count': 12}), ('D203', {'cards': 'C5'})]
    """
    global _last_check
    if deal is None:
        return DealCheck((_fault("D205"),), (None, None, None, None), (False,) * 4, None) if required else _NO_DEAL  # type: ignore[arg-type]
    last = _last_check
    if last[0] is deal:
        return last[1]
    hands = deal.hands
    # Fast path: four hands of 13 canonical cards whose bits add up to the full deck.
    # A sum of 52 powers of two equals 2**52 - 1 only if they are all distinct
    # (a repeated bit carries and leaves fewer ones), so the deal is complete.
    try:
        h0, h1, h2, h3 = hands
        c0, c1, c2, c3 = h0.cards, h1.cards, h2.cards, h3.cards  # type: ignore[union-attr]
        if len(c0) == len(c1) == len(c2) == len(c3) == 13:
            get = _BIT_BY_ID.__getitem__
            m0 = sum(map(get, map(id, c0)))
            m1 = sum(map(get, map(id, c1)))
            m2 = sum(map(get, map(id, c2)))
            m3 = sum(map(get, map(id, c3)))
            if m0 + m1 + m2 + m3 == FULL_MASK:
                dc = DealCheck((), (m0, m1, m2, m3), _ALL_CHECKABLE, 13)
                if type(hands) is tuple:  # (a hand-built Deal could hold a list)
                    _last_check = (deal, dc)
                return dc
    except (AttributeError, KeyError, TypeError, ValueError):  # a hand not given, a Card built by hand...
        pass
    masks: list[int | None] = [None, None, None, None]
    seen = 0
    dup = 0
    given = 0
    lengths = []
    for seat in range(4):
        h = hands[seat]
        if h is None or not h.cards:
            # An empty hand ("...") is how quiz and exercise files leave a hand out.
            continue
        m = hand_mask(h)
        masks[seat] = m
        dup |= seen & m
        seen |= m
        given += 1
        lengths.append(len(h.cards))
    faults: list[Fault] = []
    if dup:
        for card in _cards_of(dup):
            bit = card_bit(card)
            seats = "".join(str(Seat(s)) for s in range(4) if masks[s] is not None and masks[s] & bit)  # type: ignore[operator]
            faults.append(_fault("D202", card=str(card), seats=seats))
    end_position = bool(lengths) and lengths.count(lengths[0]) == len(lengths) and lengths[0] < 13
    bad_count = False
    n_cards = sum(lengths)
    checkable: tuple[bool, ...] | None = None
    if end_position:
        # Every given hand has the same length, fewer than 13: an end position.
        faults.append(_fault("D204", given=n_cards))
        per_hand: int | None = lengths[0]
    elif given == 4:
        per_hand = 13
        for seat in range(4):
            n = len(hands[seat].cards)  # type: ignore[union-attr]
            if n != 13:
                bad_count = True
                faults.append(_fault("D201", seat=str(Seat(seat)), count=n))
        missing = FULL_MASK & ~seen
        if missing:
            faults.append(_fault("D203", cards=" ".join(str(c) for c in _cards_of(missing)[::-1])))
    elif given == 0:
        faults.append(_fault("D205") if required else _fault("D204", given=0))
        per_hand = None
    else:
        # Some hands not given: a hand of more than 13 cards is wrong; a shorter one is
        # a fragment (quiz and exercise files show single suits), not trusted for play checks.
        per_hand = 13
        short = [False, False, False, False]
        for seat in range(4):
            if masks[seat] is None:
                continue
            n = len(hands[seat].cards)  # type: ignore[union-attr]
            if n > 13:
                bad_count = True
                faults.append(_fault("D201", seat=str(Seat(seat)), count=n))
            elif n < 13:
                short[seat] = True
        if given == 3 and not dup and not bad_count and not any(short):
            # Three full hands determine the fourth (PBN writers and LIN ``md`` omit it).
            masks[masks.index(None)] = FULL_MASK & ~seen
        else:
            faults.append(_fault("D204", given=n_cards))
        ok = not dup and not bad_count
        checkable = tuple(ok and m is not None and not short[i] for i, m in enumerate(masks))
    if checkable is None:
        ok = not dup and not bad_count
        checkable = tuple(ok and m is not None for m in masks)
    dc = DealCheck(tuple(faults), tuple(masks), checkable, per_hand)  # type: ignore[arg-type]
    if given and type(hands) is tuple:  # (with no hand given the outcome depends on ``required``)
        _last_check = (deal, dc)
    return dc
