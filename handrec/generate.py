"""Generate realistic, fully legal boards: random deals, auctions, play, results and scores.

Used for ``sample_data/``, tests and benchmarks.  Deals are uniform random
(Law 6); the auction is a simple natural bidding model (players bid their
long suits with enough high-card points, raise partner, sometimes double),
always legal; the play is random legal play (follow suit, Law 44); result
and score follow from them.  The same seed gives the same boards.

With ``realistic=True`` the boards look like real club and online files
(:data:`REALISTIC`): about a tenth of the calls are annotated (a note
reference with its Note, or a ``!`` suffix), some boards carry a comment,
many plays end in a claim, and passed-out, doubled and redoubled boards come
in the proportions real records show.  Those choices draw on a second random
stream, so the same seed still gives the same boards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from handrec.model import (
    ALL_CARDS,
    SUITS_HIGH_FIRST,
    Auction,
    Board,
    Call,
    CallKind,
    Card,
    Deal,
    Hand,
    Note,
    Origin,
    Play,
    Seat,
    Strain,
    Tag,
    trick_winner,
)
from handrec.rules.auction import AuctionState
from handrec.rules.board import dealer_for_board, vulnerability_for_board
from handrec.rules.play import PlayState
from handrec.scoring.duplicate import score_ns

__all__ = ["REALISTIC", "Realism", "generate_boards", "random_deal"]

_PASS = Call(CallKind.PASS)
_DOUBLE = Call(CallKind.DOUBLE)
_REDOUBLE = Call(CallKind.REDOUBLE)


def random_deal(rng: random.Random) -> Deal:
    """A uniformly random complete deal."""
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    return Deal(tuple(Hand(tuple(cards[i * 13 : (i + 1) * 13])) for i in range(4)))  # type: ignore[arg-type]


def _game_level(strain: Strain) -> int:
    return 3 if strain is Strain.NOTRUMP else 4 if strain >= Strain.HEARTS else 5


def _target_level(points: int, strain: Strain) -> int:
    """How high a side with ``points`` combined HCP should bid in ``strain``."""
    if points >= 33:
        return 6
    if points >= 25:
        return _game_level(strain)
    if points >= 23:
        return 2 if strain is not Strain.NOTRUMP else 2
    return 1 if points < 20 else 2


def _choose_call(
    rng: random.Random, state: AuctionState, hand: Hand, seat: Seat, history: list[tuple[Seat, Call]]
) -> Call:
    """A plausible natural call; always legal (bridge-rules.md §2)."""
    legal = state.legal_calls(seat)
    hcp = hand.hcp
    lengths = {s: len(hand.suit_cards(s)) for s in SUITS_HIGH_FIRST}
    longest = max(SUITS_HIGH_FIRST, key=lambda s: (lengths[s], s))
    balanced = sorted(lengths.values()) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])
    ours = [(s, c) for s, c in history if c.kind is CallKind.BID and s.side == seat.side]
    theirs = [(s, c) for s, c in history if c.kind is CallKind.BID and s.side != seat.side]
    partner_bids = [c for s, c in ours if s == seat.partner]

    def cheapest(strain: Strain, max_level: int) -> Call:
        for c in legal:
            if c.kind is CallKind.BID and c.strain is strain:
                return c if c.level <= max_level else _PASS  # type: ignore[operator]
        return _PASS

    if partner_bids:
        p_strain = partner_bids[-1].strain
        p_suit = p_strain.suit if p_strain is not None else None
        points = hcp + (13 if ours[0][0] == seat.partner else 8)
        if p_suit is not None and lengths[p_suit] >= (3 if p_suit >= 2 else 4):
            strain = p_strain
        elif lengths[longest] >= 5 and points < 25:
            strain = Strain(int(longest))
        else:
            strain = Strain.NOTRUMP
        if hcp < 6:
            return _PASS
        target = _target_level(points, strain)  # type: ignore[arg-type]
        if target >= _game_level(strain):  # type: ignore[arg-type]
            for c in legal:
                if c.kind is CallKind.BID and c.strain is strain and c.level == target:
                    return c
        return cheapest(strain, target)  # type: ignore[arg-type]
    if not ours:
        if not theirs:
            if hcp >= 12 or (hcp >= 10 and lengths[longest] >= 6):
                strain = Strain.NOTRUMP if balanced and 15 <= hcp <= 17 else Strain(int(longest))
                return cheapest(strain, 1 if hcp < 20 else 2)
            return _PASS
        if hcp >= 9 and lengths[longest] >= 5:
            call = cheapest(Strain(int(longest)), 2)
            if call.kind is CallKind.BID:
                return call
        if hcp >= 13 and _DOUBLE in legal and rng.random() < 0.5:
            return _DOUBLE
        return _PASS
    # our side bid, partner silent: an occasional rebid or competitive double
    if theirs and _DOUBLE in legal and hcp >= 12 and theirs[-1][1].level >= 3 and rng.random() < 0.3:  # type: ignore[operator]
        return _DOUBLE
    if hcp >= 16 and rng.random() < 0.6:
        own = ours[-1][1].strain
        return cheapest(own, 2 if hcp < 19 else 3)  # type: ignore[arg-type]
    if _REDOUBLE in legal and hcp >= 14 and rng.random() < 0.3:
        return _REDOUBLE
    return _PASS


@dataclass(frozen=True, slots=True)
class Realism:
    """How often the realistic generator adds each feature of real records.

    Each field is a probability (0-1): ``note`` that a bid, double or redouble gets a note
    reference (``=n=`` with its ``[Note "n:..."]``), ``suffix`` that it gets a ``!`` (NAG 1;
    passes are not annotated: about a tenth of all calls are), ``comment``
    that a board gets a comment after one of its calls, ``claim`` that a played board ends
    in a claim (the play stops after trick 6-12, the Result tag has the final tricks),
    ``pass_out`` that the four hands all pass, ``double`` that a player passes no more over
    an opponent's bid of 2 or more but doubles it, ``redouble`` that the doubled side
    redoubles.  The defaults give about 10 % annotated calls, 3 % passed-out boards, 8-10 %
    doubled and about 1 % redoubled contracts (club and online files).
    """

    note: float = 0.19
    suffix: float = 0.09
    comment: float = 0.05
    claim: float = 0.4
    pass_out: float = 0.012
    double: float = 0.035
    redouble: float = 0.05


#: The proportions of :func:`generate_boards` ``(realistic=True)``.
REALISTIC = Realism()

#: Explanations a note reference points to (the texts of real files' Note tags).
_NOTE_TEXTS = (
    "Stayman",
    "transfer to hearts",
    "transfer to spades",
    "5+ cards, 10-15 HCP",
    "weak, 6 cards",
    "forcing one round",
    "Michaels: both majors",
    "negative double",
    "limit raise or better",
    "natural, invitational",
    "Blackwood: 0 or 3 key cards",
    "better minor, 3+ cards",
)
_COMMENTS = (
    "A bidding accident at most tables.",
    "Declarer misguessed the trump queen.",
    "Lead: the only card to beat it.",
    "Par is the doubled sacrifice.",
    "Table result corrected by the director.",
    "Good slam, missed by half the field.",
)


def _realistic_call(extra: random.Random, state: AuctionState, seat: Seat, call: Call, real: Realism) -> Call:
    """A competitive double or redouble in place of a natural pass (Law 19), else ``call``."""
    if call.kind is not CallKind.PASS:
        return call
    legal = state.legal_calls(seat)
    last = state.last_bid
    if last is None:
        return call
    if _DOUBLE in legal and last.level >= 2 and extra.random() < real.double:  # type: ignore[operator]
        return _DOUBLE
    if _REDOUBLE in legal and extra.random() < real.redouble:
        return _REDOUBLE
    return call


def _annotate(extra: random.Random, calls: list[Call], real: Realism) -> tuple[tuple[Call, ...], tuple[Note, ...]]:
    """The calls with a note reference or a ``!`` on about ``real.note + real.suffix`` of the
    bids, doubles and redoubles, and the Notes the references point to (numbered 1, 2... in order of the calls)."""
    out: list[Call] = []
    notes: list[Note] = []
    for c in calls:
        if c.kind is CallKind.PASS:
            out.append(c)
            continue
        r = extra.random()
        if r < real.note:
            text = extra.choice(_NOTE_TEXTS)
            notes.append(Note(len(notes) + 1, text))
            c = Call(c.kind, c.level, c.strain, annotation=text, note=len(notes))
        elif r < real.note + real.suffix:
            c = Call(c.kind, c.level, c.strain, nags=(1,))
        out.append(c)
    return tuple(out), tuple(notes)


def _choose_card(rng: random.Random, ps: PlayState, legal: tuple[Card, ...]) -> Card:
    """Plausible card play: win cheaply when an opponent is winning, else play low."""
    if rng.random() < 0.15:
        return rng.choice(legal)
    if not ps.current:
        # lead from the longest suit: top of a sequence-ish, else fourth best
        by_suit: dict[object, list[Card]] = {}
        for c in legal:
            by_suit.setdefault(c.suit, []).append(c)
        suit_cards = max(by_suit.values(), key=len)
        return suit_cards[0] if suit_cards[0].rank >= 13 or len(suit_cards) < 4 else suit_cards[3]
    seat = ps.next_seat
    winner = trick_winner(ps.leader, ps.current, ps.trump)
    if winner.side == seat.side:
        return legal[-1]
    trial = list(ps.current)
    for c in reversed(legal):  # lowest first
        if trick_winner(ps.leader, [*trial, c], ps.trump) == seat:
            return c
    return legal[-1]


def generate_boards(
    n: int,
    seed: int = 1,
    *,
    path: str = "<generated>",
    event: str = "handrec generated",
    tables: int = 1,
    realistic: bool | Realism = False,
) -> Iterator[Board]:
    """Yield ``n`` random, legal, fully played boards numbered 1..n.

    Dealer and vulnerability follow the board number (bridge-rules.md
    §4.11); the tags carry Contract, Declarer, Result and Score consistent
    with the auction and play.  With ``tables`` above 1 it is a pairs event:
    each deal is played at ``tables`` tables in a row (its own auction and
    play at each, pairs ``N1 - S1`` v ``E1 - W1`` at table 1 and so on), so
    the ``n`` games have board numbers 1..ceil(n / tables).

    ``realistic`` (True for :data:`REALISTIC`, or a :class:`Realism`) adds the features of
    real records: note references with their Notes, ``!`` suffixes, comments, claims,
    passed-out, doubled and redoubled boards; every board stays legal and consistent
    (``handrec validate`` reports nothing).

    :raises ValueError: ``tables`` below 1.
    """
    if tables < 1:
        raise ValueError(f"tables must be at least 1, not {tables}")
    real = REALISTIC if realistic is True else realistic or None
    rng = random.Random(seed)
    extra = random.Random(seed * 7919 + 17)  # the realistic choices: their own stream
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    deal = None
    for game in range(n):
        number, table = divmod(game, tables)
        number += 1
        if tables == 1 or table == 0:
            deal = random_deal(rng)
        assert deal is not None
        dealer = dealer_for_board(number)
        vul = vulnerability_for_board(number)
        state = AuctionState(dealer)
        calls: list[Call] = []
        history: list[tuple[Seat, Call]] = []
        pass_out = real is not None and extra.random() < real.pass_out
        while not state.is_complete:
            seat = state.next_seat
            if pass_out:
                call = _PASS
            else:
                call = _choose_call(rng, state, deal[seat], seat, history)  # type: ignore[arg-type]
                if real is not None:
                    call = _realistic_call(extra, state, seat, call, real)
            state.apply(call, seat)
            calls.append(call)
            history.append((seat, call))
        contract = state.contract
        assert contract is not None
        play = None
        result = None
        score = 0
        if not contract.is_passed_out:
            ps = PlayState(deal, contract)
            cards = []
            while not ps.is_complete:
                legal = ps.legal_cards()
                card = _choose_card(rng, ps, legal)
                ps.play(card)
                cards.append(card)
            result = ps.declarer_tricks
            claim = None
            if real is not None and extra.random() < real.claim:
                cards = cards[: 4 * extra.randint(6, 12)]  # the rest is claimed (Law 68)
                claim = result
            play = Play(contract.declarer.lho, tuple(cards), claim)  # type: ignore[union-attr]
            score = score_ns(contract, vul, result)
        players = rng.sample(names, 4) if tables == 1 else [f"{c}{table + 1}" for c in "NESW"]
        tags = [
            Tag("Event", event),
            Tag("Site", "Generated"),
            Tag("Date", "2026.11.29"),
            Tag("Board", str(number)),
            Tag("West", players[3]),
            Tag("North", players[0]),
            Tag("East", players[1]),
            Tag("South", players[2]),
            Tag("Dealer", str(dealer)),
            Tag("Vulnerable", str(vul)),
            Tag("Deal", deal.to_pbn(dealer)),
            Tag("Scoring", "IMP" if tables == 1 else "MP"),
            Tag("Declarer", "" if contract.is_passed_out else str(contract.declarer)),
            Tag("Contract", str(contract)),
            Tag("Result", "" if result is None else str(result)),
            Tag("Score", f"NS {score}"),
        ]
        auction_calls: tuple[Call, ...] = tuple(calls)
        notes: tuple[Note, ...] = ()
        commentary: tuple[str, ...] = ()
        anchors: tuple[tuple[str, int], ...] = ()
        if real is not None:
            auction_calls, notes = _annotate(extra, calls, real)
            if extra.random() < real.comment:
                commentary = (extra.choice(_COMMENTS),)
                anchors = (("auction", len(calls) - 1),)
        yield Board(
            origin=Origin(path, index=game),
            tags=tuple(tags),
            number=number,
            dealer=dealer,
            vulnerable=vul,
            deal=deal,
            auction=Auction(dealer, auction_calls, notes=notes),
            play=play,
            contract=contract,
            declarer=contract.declarer,
            result=result,
            commentary=commentary,
            comment_anchors=anchors,
        )
