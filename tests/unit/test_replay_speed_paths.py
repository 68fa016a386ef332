"""The replay engine's fast paths give exactly what its general code gives.

``check_deal``, ``replay_auction`` and ``replay_play`` take a fast path for the
usual record (complete deal, legal auction, clean play of known cards) and
fall back to the general code for anything else.  Here every board is
replayed twice, with the fast paths on and forced off, and the outcomes
(replay, tricks, diagnostics) must be equal, on clean generated boards and on
boards damaged at random (faults of every kind).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from handrec.formats.dispatch import read
from handrec.generate import generate_boards
from handrec.model import (
    Auction,
    Board,
    Call,
    Deal,
    Hand,
    Origin,
    Play,
    Seat,
)
from handrec.rules import auction as auction_rules
from handrec.rules import board as board_rules
from handrec.rules import play as play_rules
from handrec.rules import replay as replay_rules
from handrec.rules.auction import replay_auction
from handrec.rules.board import check_deal
from handrec.rules.play import Trick, replay_play
from handrec.rules.validator import Analysis, analyse

SAMPLE_DATA = Path(__file__).parents[2] / "sample_data"


def _mutations(boards: list[Board], seed: int) -> Iterator[Board]:
    """Each board damaged in a few random ways: cards swapped, unknown or extra,
    hands dropped or overlapping, leader changed, calls swapped, dropped or added,
    ^R/^L marks, claims."""
    rng = random.Random(seed)
    r = dataclasses.replace
    for b in boards:
        for _ in range(6):
            play, deal, auction = b.play, b.deal, b.auction
            kind = rng.randrange(12)
            if kind == 0 and play and len(play.cards) > 8:
                cs = list(play.cards)
                i, j = rng.sample(range(len(cs)), 2)
                cs[i], cs[j] = cs[j], cs[i]
                play = r(play, cards=tuple(cs))
            elif kind == 1 and play and play.cards:
                cs = list(play.cards)
                cs[rng.randrange(len(cs))] = None
                play = r(play, cards=tuple(cs))
            elif kind == 2 and play:
                n = rng.randrange(len(play.cards) + 1)
                play = r(play, cards=play.cards[:n], spans=play.spans[:n], claim=rng.choice([None, 0, 7, 13, 14]))
            elif kind == 3 and deal:
                hands = list(deal.hands)
                hands[rng.randrange(4)] = None
                deal = Deal(tuple(hands))  # type: ignore[arg-type]
            elif kind == 4 and deal:
                hands = list(deal.hands)
                for s in rng.sample(range(4), 2):
                    hands[s] = None
                deal = Deal(tuple(hands))  # type: ignore[arg-type]
            elif kind == 5 and deal:
                cards = [list(h.cards) for h in deal.hands]  # type: ignore[union-attr]
                a, c = rng.sample(range(4), 2)
                cards[c].append(cards[a].pop(rng.randrange(len(cards[a]))))
                deal = Deal(tuple(Hand(tuple(h)) for h in cards))  # type: ignore[arg-type]
            elif kind == 6 and deal:
                cards = [list(h.cards) for h in deal.hands]  # type: ignore[union-attr]
                a, c = rng.sample(range(4), 2)
                cards[c][0] = cards[a][0]
                deal = Deal(tuple(Hand(tuple(h)) for h in cards))  # type: ignore[arg-type]
            elif kind == 7 and play:
                play = r(play, leader=Seat(rng.randrange(4)))
            elif kind == 8 and auction and auction.calls:
                cs = list(auction.calls)
                i, j = rng.randrange(len(cs)), rng.randrange(len(cs))
                cs[i], cs[j] = cs[j], cs[i]
                auction = r(auction, calls=tuple(cs))
            elif kind == 9 and auction and auction.calls:
                cs = list(auction.calls)
                i = rng.randrange(len(cs))
                if rng.random() < 0.5:
                    del cs[i]
                else:
                    cs.insert(i, Call.parse(rng.choice(["X", "XX", "P", "1C", "7NT", "^S"])))
                auction = r(auction, calls=tuple(cs), ended=rng.choice([None, "*"]))
            elif kind == 10 and play and play.cards:
                marks: list[str | None] = [None] * len(play.cards)
                marks[rng.randrange(len(marks))] = rng.choice("RL")
                play = r(play, irregular=tuple(marks))
            elif kind == 11 and play:
                play = r(play, cards=play.cards + play.cards[: rng.randrange(1, 6)])
            yield r(b, play=play, deal=deal, auction=auction, number=rng.choice([b.number, 3, None]))


#: Auctions with every kind of call legal and illegal (Laws 18-22, 27, 29).
AUCTIONS = [
    "P P P P",
    "P P P P P",
    "1H P P P",
    "1H X P P P",
    "1H X XX P P P",
    "1H P P X P P XX P P P",
    "1H X P XX P P P",
    "1H P X P P P",
    "1H X X P P P",
    "1H X XX XX P P P",
    "X P P P",
    "XX P P P",
    "1H 1H P P P",
    "1H 1D P P P",
    "1NT 2C P 3NT P P P",
    "1C 1D 1H 1S 1NT 2C X XX 2D P P P",
    "1S P 2S P 4S P P",
    "7NT X XX P P P",
    "7NT X XX P P P P",
    "1C",
    "",
]


def _auction_boards() -> Iterator[Board]:
    for text in AUCTIONS:
        calls = tuple(Call.parse(c) for c in text.split())
        for dealer in Seat:
            for ended in (None, "*"):
                yield Board(Origin("a.pbn"), number=1, auction=Auction(dealer, calls, ended), result=9)
    skipped = (Call.parse("^S"), Call.parse("1D"), Call.parse("1C", irregular="I"), *[Call.parse("P")] * 3)
    yield Board(Origin("a.pbn"), number=1, auction=Auction(Seat.NORTH, skipped))


def _boards() -> list[Board]:
    generated = list(generate_boards(60, seed=11))
    files = [b for p in sorted(SAMPLE_DATA.glob("*.pbn")) + sorted(SAMPLE_DATA.glob("*.lin")) for b in read(p)]
    return generated + files + list(_auction_boards()) + list(_mutations(generated, seed=3))


BOARDS = _boards()


def _outcome(b: Board) -> tuple[object, ...]:
    board_rules._last_check = (None, board_rules._NO_DEAL)
    a = analyse(b)
    out: list[object] = [a.replay, a.diagnostics, repr(a.replay), check_deal(b.deal, required=False)]
    if isinstance(b.auction, Auction) and isinstance(b.auction.dealer, Seat):
        out.append(replay_auction(b.auction))
    c = a.replay.contract
    if isinstance(b.play, Play) and c is not None and c.strain is not None:
        for follow in (False, True):
            out.append(replay_play(b.play, c, b.deal, follow_leads=follow))
    return tuple(out)


def test_fast_paths_agree_with_the_general_code(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_outcome(b) for b in BOARDS]
    # Force the general code: no regular-auction shortcut, no canonical card table
    # (so no fast trick loop and no fast deal check), no memoised scores.
    monkeypatch.setattr(auction_rules, "_replay_regular", lambda auction: None)
    monkeypatch.setattr(play_rules, "_INFO", {})
    monkeypatch.setattr(board_rules, "_BIT_BY_ID", {})
    monkeypatch.setattr(replay_rules, "_SCORES", {})
    monkeypatch.setattr(replay_rules, "_SCORE_TAGS", {})
    slow = [_outcome(b) for b in BOARDS]
    assert len(fast) == len(slow) > 400
    for b, f, s in zip(BOARDS, fast, slow):
        assert f == s, b
        assert all(type(t) is Trick for t in f[0].tricks)  # type: ignore[attr-defined]


def test_fast_paths_are_taken() -> None:
    """The generated boards (complete, legal) do take the fast paths."""
    b = next(iter(generate_boards(1, seed=2)))
    assert auction_rules._replay_regular(b.auction) == replay_auction(b.auction)  # type: ignore[arg-type]
    board_rules._last_check = (None, board_rules._NO_DEAL)
    dc = check_deal(b.deal)
    assert dc.faults == () and dc.is_complete
    assert check_deal(b.deal) is dc  # the last deal's check is reused
    pr = replay_play(b.play, analyse(b).replay.contract, b.deal, dc)  # type: ignore[arg-type]
    assert pr.complete and pr.faults == () and len(pr.tricks) == 13


def test_analysis_built_fast() -> None:
    b = next(iter(generate_boards(1, seed=4)))
    a = analyse(b)
    assert type(a) is Analysis and a == Analysis(a.board, a.replay, a.diagnostics)
