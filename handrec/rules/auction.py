"""Auction replay: legality of calls, the end of the auction, the contract.

Implements bridge-rules.md §2.9: a bid must outrank the last bid (Law 18,
27); a double only over an opponent's bid that is the last call other
than a pass (Law 19A); a redouble only over an opponent's double (Law 19B);
a new bid cancels a double or redouble; the auction ends with four initial
passes (passed out) or three passes after a bid, double or redouble (Law
22); declarer is the member of the declaring side who first named the final
strain (Law 53 / bridge-rules.md §2.7).

Irregularities a record marks as accepted (PBN 2.1 §3.9, :class:`Call.irregular
<handrec.model.Call>`) are honoured, not reported: an insufficient bid marked
``"I"`` was accepted by the offender's LHO and stands as a legal bid (Law
27A1), so the auction goes on from it and later bids must outrank it; a
``"S"`` placeholder (the turn of a player skipped because an opponent's call
out of rotation was accepted, Law 29A) is no call at all: it is not checked,
not a pass, and does not end the auction.

>>> from handrec.model import Auction, Call, Seat
>>> calls = tuple(Call.parse(c) for c in "1C 1H 1S 2D P 3H P P P".split())
>>> r = replay_auction(Auction(Seat.NORTH, calls))
>>> str(r.contract), r.declarer, r.opening_leader
('3H', Seat.EAST, Seat.SOUTH)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from handrec.model import Auction, Call, CallKind, Contract, Doubling, Seat, Strain
from handrec.rules.board import Fault

__all__ = ["IllegalCallError", "AuctionState", "AuctionReplay", "is_legal", "replay_auction", "ALL_BIDS"]

_PASS, _DOUBLE, _REDOUBLE, _BID = CallKind.PASS, CallKind.DOUBLE, CallKind.REDOUBLE, CallKind.BID

#: The 35 bids, by rank: 1C (0) .. 7NT (34).
ALL_BIDS: tuple[Call, ...] = tuple(Call(_BID, lv, st) for lv in range(1, 8) for st in Strain)
_P, _X, _XX = Call(_PASS), Call(_DOUBLE), Call(_REDOUBLE)
_DOUBLINGS = (Doubling.UNDOUBLED, Doubling.DOUBLED, Doubling.REDOUBLED)
_SEATS = tuple(Seat)  # _SEATS[i] is much cheaper than Seat(i)


class IllegalCallError(ValueError):
    """A call that the rules do not allow at this point (raised by :meth:`AuctionState.apply`).

    ``code`` is the diagnostic code (A301-A304, A306) and ``args`` its message
    arguments.
    """

    def __init__(self, code: str, args: dict[str, object]) -> None:
        super().__init__(f"{code}: {args}")
        self.code = code
        self.arguments = args


def _bid_rank(call: Call) -> int:
    """Rank 0..34 of a well-formed bid, -1 for a malformed one."""
    lv, st = call.level, call.strain
    if type(lv) is not int or not 1 <= lv <= 7 or st is None:
        return -1
    return 5 * (lv - 1) + st


class AuctionState:
    """The state of an auction, call by call (bridge-rules.md §2.9).

    Calls are checked with :meth:`check` / :meth:`is_legal` and made with
    :meth:`apply`.  The seat making a call is passed explicitly (a replay
    that skips an illegal call keeps the record's rotation); it defaults to
    :attr:`next_seat`, the seat after the last call made.

    >>> s = AuctionState(Seat.NORTH)
    >>> s.apply(Call.parse("1H")); s.is_legal(Call.parse("X"), Seat.SOUTH)
    False
    >>> [str(c) for c in s.legal_calls()][:4]
    ['Pass', 'X', '1S', '1NT']
    """

    __slots__ = (
        "dealer",
        "next_seat",
        "calls_made",
        "last_bid_rank",
        "last_bid",
        "last_bid_seat",
        "doubling",
        "last_nonpass_kind",
        "last_nonpass_seat",
        "passes",
        "first_namer",
        "ended",
        "_need",
    )

    def __init__(self, dealer: Seat) -> None:
        self.dealer = Seat(dealer)
        self.next_seat: Seat = self.dealer
        self.calls_made = 0
        self.last_bid_rank = -1
        self.last_bid: Call | None = None
        self.last_bid_seat: Seat | None = None
        self.doubling = 0
        self.last_nonpass_kind: CallKind | None = None
        self.last_nonpass_seat: Seat | None = None
        self.passes = 0
        self.ended = False  # the auction is over (Law 22)
        self._need = 4  # passes that end the auction: 4 before any bid, then 3
        # first_namer[side * 5 + strain] = seat that first named strain for side
        self.first_namer: list[Seat | None] = [None] * 10

    # -- state -------------------------------------------------------------

    @property
    def is_complete(self) -> bool:
        """Whether the auction has ended (four initial passes, or three passes after a bid/X/XX)."""
        return self.ended

    @property
    def is_passed_out(self) -> bool:
        """Whether the auction ended with four passes and no bid (Law 22A)."""
        return self.last_bid is None and self.passes >= 4

    @property
    def contract(self) -> Contract | None:
        """The final contract with its declarer once complete, else ``None``.

        A passed-out auction gives :meth:`Contract.passed_out`.
        """
        if not self.is_complete:
            return None
        bid = self.last_bid
        if bid is None:
            return Contract.passed_out()
        side = self.last_bid_seat % 2  # type: ignore[operator]
        declarer = self.first_namer[side * 5 + bid.strain]  # type: ignore[operator]
        return Contract(bid.level, bid.strain, _DOUBLINGS[self.doubling], declarer)  # type: ignore[arg-type]

    # -- legality ----------------------------------------------------------

    def check(self, call: Call, seat: Seat | None = None) -> tuple[str, dict[str, object]] | None:
        """Why ``call`` by ``seat`` is illegal now, or ``None`` when it is legal.

        Returns ``(code, message args)`` with code A301 (insufficient bid),
        A302 (illegal double), A303 (illegal redouble), A304 (call after the
        auction ended) or A306 (malformed call).

        Source: Laws 18, 19, 22, 27; bridge-rules.md §2.2-2.6.
        """
        if seat is None:
            seat = self.next_seat
        kind = call.kind
        if self.ended:
            return "A304", {"call": str(call) if kind is not _BID or _bid_rank(call) >= 0 else "?", "seat": str(seat)}
        if kind is _PASS:
            return None
        if kind is _BID:
            r = _bid_rank(call)
            if r < 0:
                return "A306", {"token": f"{call.level}{call.strain if call.strain is not None else '?'}"}
            if r <= self.last_bid_rank:
                return "A301", {"call": str(call), "seat": str(seat), "previous": str(self.last_bid)}
            return None
        lk = self.last_nonpass_kind
        own = self.last_nonpass_seat is not None and (self.last_nonpass_seat - seat) % 2 == 0
        if kind is _DOUBLE:
            if lk is None:
                reason = "there is no bid to double"
            elif lk is not _BID:
                reason = "the bid is already doubled" if lk is _DOUBLE else "the bid is already redoubled"
            elif own:
                reason = f"{self.last_bid} was bid by the doubler's own side"
            else:
                return None
            return "A302", {"seat": str(seat), "reason": reason}
        if kind is _REDOUBLE:
            if lk is _BID or lk is None:
                reason = "there is no double to redouble"
            elif lk is _REDOUBLE:
                reason = "the bid is already redoubled"
            elif own:
                reason = "the double was made by the redoubler's own side"
            else:
                return None
            return "A303", {"seat": str(seat), "reason": reason}
        return "A306", {"token": str(call)}

    def is_legal(self, call: Call, seat: Seat | None = None) -> bool:
        """Whether ``call`` by ``seat`` (default :attr:`next_seat`) is legal now."""
        return self.check(call, seat) is None

    def legal_calls(self, seat: Seat | None = None) -> tuple[Call, ...]:
        """Every legal call for ``seat`` (default :attr:`next_seat`): Pass, X or XX
        when allowed, then the bids that outrank the last bid.  Empty once the
        auction is complete."""
        if self.is_complete:
            return ()
        if seat is None:
            seat = self.next_seat
        out = [_P]
        if self.check(_X, seat) is None:
            out.append(_X)
        elif self.check(_XX, seat) is None:
            out.append(_XX)
        out.extend(ALL_BIDS[self.last_bid_rank + 1 :])
        return tuple(out)

    # -- making calls ------------------------------------------------------

    def apply(self, call: Call, seat: Seat | None = None) -> None:
        """Make ``call`` for ``seat`` (default :attr:`next_seat`).

        Accepted irregularities are honoured: a ``^S`` placeholder
        (:attr:`Call.is_skipped <handrec.model.Call.is_skipped>`) makes no
        call and only moves the turn on (Law 29A); an insufficient bid marked
        ``"I"`` is made as a legal bid (Law 27A1).

        :raises IllegalCallError: when :meth:`check` finds it illegal (the
            state is then unchanged).
        """
        if seat is None:
            seat = self.next_seat
        if call.irregular == "S":
            self.next_seat = _SEATS[(seat + 1) & 3]
            return
        problem = self.check(call, seat)
        if problem is not None and not (call.irregular == "I" and problem[0] == "A301"):
            raise IllegalCallError(*problem)
        self._apply(call, seat)

    def _apply(self, call: Call, seat: Seat) -> None:
        """Make a call already known to be legal."""
        self.calls_made += 1
        self.next_seat = _SEATS[(seat + 1) & 3]
        kind = call.kind
        if kind is _PASS:
            p = self.passes = self.passes + 1
            if p >= self._need:
                self.ended = True
            return
        self.passes = 0
        self.last_nonpass_kind = kind
        self.last_nonpass_seat = seat
        if kind is _BID:
            self.last_bid = call
            self.last_bid_rank = _bid_rank(call)
            self.last_bid_seat = seat
            self.doubling = 0
            self._need = 3
            slot = (seat % 2) * 5 + call.strain  # type: ignore[operator]
            if self.first_namer[slot] is None:
                self.first_namer[slot] = seat
        else:
            self.doubling = 1 if kind is _DOUBLE else 2


def is_legal(calls_so_far: Iterable[Call], seat: Seat, call: Call, dealer: Seat | None = None) -> bool:
    """Whether ``call`` by ``seat`` is legal after ``calls_so_far``.

    ``calls_so_far`` are taken as legal and made in rotation from ``dealer``
    (default: the seat that makes them end just before ``seat``).  Illegal
    ones among them are skipped and accepted irregularities honoured, as in
    :func:`replay_auction` (an insufficient bid among them has been called
    over, so accepted: Law 27A1).

    Source: bridge-rules.md §2.9.

    >>> is_legal([Call.parse("1S")], Seat.EAST, Call.parse("1D"))
    False
    >>> is_legal([Call.parse("1S")], Seat.EAST, Call.parse("2D"))
    True
    """
    calls = tuple(calls_so_far)
    if dealer is None:
        dealer = Seat((seat - len(calls)) % 4)
    state = AuctionState(dealer)
    for i, c in enumerate(calls):
        irregular = c.irregular
        if irregular == "S":
            continue
        s = _SEATS[(dealer + i) & 3]
        problem = state.check(c, s)
        if problem is None or problem[0] == "A301":  # an insufficient bid called over: accepted
            state._apply(c, s)
    return state.check(call, seat) is None


@dataclass(frozen=True, slots=True)
class AuctionReplay:
    """The outcome of replaying an auction record.

    ``contract``: the final contract with declarer (passed out:
    :meth:`Contract.passed_out`), ``None`` while unfinished.
    ``complete``: the auction ended by the rules.  ``declarer``, ``dummy``,
    ``opening_leader``: seats, ``None`` unless complete with a bid.
    ``faults``: A301-A306 with the index of the offending call (illegal
    calls are skipped, so the replay goes on).  ``first_call``: index of
    the call by which declarer first named the final strain.
    """

    contract: Contract | None
    complete: bool
    faults: tuple[Fault, ...] = ()
    declarer: Seat | None = None
    dummy: Seat | None = None
    opening_leader: Seat | None = None
    first_call: int | None = None

    @property
    def passed_out(self) -> bool:
        """Whether the auction ended with four passes."""
        return self.contract is not None and self.contract.level == 0


_PASSED_OUT = Contract.passed_out()
#: Contracts already built, by ``(bid rank, doubling, declarer)``.
_CONTRACTS: dict[tuple[int, int, int], Contract] = {}


def _replay_regular(auction: Auction) -> AuctionReplay | None:
    """:func:`replay_auction` for the usual record: every call legal, none marked
    irregular, and the auction complete.  ``None`` for anything else (the
    general replay then runs from the start).

    The rules are those of :meth:`AuctionState.check` and :meth:`AuctionState._apply`,
    written out on local variables.
    """
    dealer = auction.dealer
    if type(dealer) is not Seat:
        return None
    last_rank = -1
    last_bid: Call | None = None
    bid_seat = 0
    doubling = 0
    last_kind = None  # kind of the last call other than a pass
    last_seat = 0  # and its seat
    passes = 0
    need = 4
    namer_index: list[int | None] = [None] * 10
    ended = False
    i = -1
    for i, call in enumerate(auction.calls):
        if ended or call.irregular is not None:
            return None
        kind = call.kind
        seat = (dealer + i) & 3
        if kind is _PASS:
            passes += 1
            if passes >= need:
                ended = True
            continue
        if kind is _BID:
            lv, st = call.level, call.strain
            if type(lv) is not int or not 1 <= lv <= 7 or st is None:
                return None
            rank = 5 * (lv - 1) + st
            if rank <= last_rank:
                return None
            last_rank, last_bid, bid_seat, doubling, need = rank, call, seat, 0, 3
            slot = (seat & 1) * 5 + st
            if namer_index[slot] is None:
                namer_index[slot] = i
        elif kind is _DOUBLE:
            if last_kind is not _BID or not (last_seat - seat) & 1:
                return None
            doubling = 1
        elif kind is _REDOUBLE:
            if last_kind is not _DOUBLE or not (last_seat - seat) & 1:
                return None
            doubling = 2
        else:
            return None
        passes = 0
        last_kind, last_seat = kind, seat
    if not ended:
        return None
    if last_bid is None:
        return AuctionReplay(_PASSED_OUT, True, (), None, None, None, None)
    strain = last_bid.strain
    side = bid_seat & 1
    first_call: int = namer_index[side * 5 + strain]  # type: ignore[assignment,operator]
    declarer = _SEATS[(dealer + first_call) & 3]
    key = (last_rank, doubling, declarer)
    contract = _CONTRACTS.get(key) if type(strain) is Strain else None
    if contract is None:
        contract = Contract(last_bid.level, strain, _DOUBLINGS[doubling], declarer)
        if type(strain) is Strain:
            _CONTRACTS[key] = contract
    return AuctionReplay(
        contract, True, (), declarer, _SEATS[(declarer + 2) & 3], _SEATS[(declarer + 1) & 3], first_call
    )


#: The auction faults of an illegal call (Laws 18-22, 27, 36): the replay's contract is then in
#: doubt (A305, an auction that stops short, is not one of them).
ILLEGAL_CALL_CODES = frozenset({"A301", "A302", "A303", "A304", "A306"})


def _ending_faults(r: AuctionReplay) -> int:
    """The faults of a replay that say its auction did not end where the record does."""
    return sum(1 for f in r.faults if f.code in ("A304", "A305"))


def _ending_faults_of(faults: list[Fault], complete: bool, auction: Auction) -> int:
    """:func:`_ending_faults` of a replay still being built (A305 not yet added)."""
    return sum(1 for f in faults if f.code == "A304") + int(not complete and auction.ended is None)


def replay_auction(auction: Auction, *, _reset: bool = False) -> AuctionReplay:
    """Replay an auction record call by call.

    ``auction.calls`` are made in rotation from ``auction.dealer``.  Each
    illegal call is reported and skipped: A301 insufficient bid, A302 illegal
    double, A303 illegal redouble, A304 call after the auction ended, A306
    malformed call (an inadmissible double or redouble is cancelled, Law 36;
    the passes after it are counted from it when that is how the record
    ends).  An insufficient bid that another call follows is
    reported (A301: the record does not mark it accepted) but made: the
    next player's call accepted it, and an accepted insufficient bid is
    treated as legal (Law 27A1), so the auction goes on from it.  An auction that stops before its end without a ``*``
    or ``+`` marker gets A305 (warning); ``*`` ("no more calls known") and
    ``+`` ("next call goes here") are not faults.

    Accepted irregularities (:attr:`Call.irregular <handrec.model.Call.irregular>`):
    a bid marked ``"I"`` that does not outrank the last bid is made all the
    same, with no A301 (Law 27A1: accepted, it is treated as legal); a
    ``"S"`` placeholder is skipped (Law 29A: the turn of a player skipped by
    an accepted call out of rotation holds no call).  An unmarked fault next
    to them is reported as usual; a bid marked ``"I"`` that is sufficient gets A307
    (warning: the mark contradicts the record) and stands.

    Source: Laws 18-22, 27, 29; bridge-rules.md §2.9; PBN 2.1 §3.9.

    >>> r = replay_auction(Auction(Seat.NORTH, tuple(Call.parse(c) for c in "1H P X P P".split())))
    >>> r.complete, [(f.code, f.index) for f in r.faults]
    (True, [('A302', 2)])
    >>> calls = (Call.parse("^S"), Call.parse("1D"), Call.parse("1C", irregular="I"), *[Call.parse("P")] * 3)
    >>> r = replay_auction(Auction(Seat.NORTH, calls))
    >>> str(r.contract), r.declarer, r.faults
    ('1C', Seat.SOUTH, ())
    """
    fast = _replay_regular(auction)
    if fast is not None:
        return fast
    dealer = auction.dealer
    state = AuctionState(dealer)
    faults: list[Fault] = []
    check = state.check
    apply = state._apply
    namer_index: list[int | None] = [None] * 10  # index of the call that first named side/strain
    calls = auction.calls
    last = len(calls) - 1
    cancelled_double = False  # the last call other than a pass was an inadmissible double
    for i, call in enumerate(calls):
        irregular = call.irregular
        if irregular == "S":
            continue  # the turn of a skipped player: no call (Law 29A)
        seat = _SEATS[(dealer + i) & 3]
        problem = check(call, seat)
        if problem is None and irregular == "I" and call.kind is _BID:
            # the record marks a sufficient bid insufficient (PBN 2.1 §3.9): A307, and it stands
            previous = "nothing (the first bid)" if state.last_bid is None else str(state.last_bid)
            faults.append(Fault("A307", i, (("call", str(call)), ("seat", str(seat)), ("previous", previous))))
        if problem is not None:
            code = problem[0]
            if code == "A303" and cancelled_double and problem[1]["reason"] == "there is no double to redouble":
                pass  # a redouble of the cancelled double: part of that fault (Law 36), not another
            elif code != "A301" or irregular != "I":
                faults.append(Fault(code, i, tuple(problem[1].items())))
            if call.kind is not _PASS:
                cancelled_double = code == "A302"
            if not (problem[0] == "A301" and (irregular == "I" or i < last)):
                if _reset and problem[0] in ("A302", "A303"):
                    state.passes = 0  # the reading where it took its turn as a call (below)
                continue  # skipped
        apply(call, seat)
        if call.kind is not _PASS:
            cancelled_double = False
        if call.kind is _BID:
            slot = (seat % 2) * 5 + call.strain  # type: ignore[operator]
            if namer_index[slot] is None:
                namer_index[slot] = i
    if not _reset and any(f.code in ("A302", "A303") for f in faults):
        # An inadmissible double or redouble is cancelled (Law 36), but a record may count
        # the passes after it from it, as if it took its turn as a call: when that reading
        # ends the auction where the record does (fewer A304/A305), it is the one kept.
        other = replay_auction(auction, _reset=True)
        if _ending_faults(other) < _ending_faults_of(faults, state.is_complete, auction):
            return other
    if not state.is_complete:
        if auction.ended is None:
            count = sum(1 for c in auction.calls if c.irregular != "S")
            faults.append(
                Fault(
                    "A305",
                    len(auction.calls) - 1 if auction.calls else None,
                    (("count", count), ("s", "" if count == 1 else "s")),
                )
            )
        return AuctionReplay(None, False, tuple(faults))
    contract = state.contract
    if contract is None or contract.level == 0:
        return AuctionReplay(contract, True, tuple(faults))
    declarer = contract.declarer
    first_call = namer_index[(declarer % 2) * 5 + contract.strain]  # type: ignore[operator]
    return AuctionReplay(
        contract,
        True,
        tuple(faults),
        declarer,
        declarer.partner,  # type: ignore[union-attr]
        declarer.lho,  # type: ignore[union-attr]
        first_call,
    )
