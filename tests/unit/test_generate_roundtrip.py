"""Generated boards are legal, and survive PBN and LIN write -> read unchanged."""

from __future__ import annotations

import io

import pytest

from handrec.formats.lin.reader import parse_lin_text
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.rules.validator import analyse

BOARDS = list(generate_boards(150, seed=5))


def test_generated_boards_validate_clean() -> None:
    for b in BOARDS:
        a = analyse(b)
        assert a.diagnostics == (), (b.number, a.diagnostics)
        assert str(a.replay.contract) == str(b.contract)
        assert a.replay.result == b.result


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_write_read_round_trip(fmt: str) -> None:
    buf = io.StringIO()
    (pbn_dump if fmt == "pbn" else lin_dump)(BOARDS, buf)
    back = (parse_pbn_text if fmt == "pbn" else parse_lin_text)(buf.getvalue(), f"rt.{fmt}")
    assert len(back) == len(BOARDS)
    for a, b in zip(BOARDS, back):
        assert b.diagnostics == ()
        assert (b.number, b.dealer, b.vulnerable, b.deal) == (a.number, a.dealer, a.vulnerable, a.deal)
        assert b.auction == a.auction
        assert b.play is None if a.play is None else b.play.cards == a.play.cards
        for seat in ("North", "East", "South", "West"):
            assert b.tag(seat) == a.tag(seat)
        r = analyse(b).replay
        assert (str(r.contract), r.result, r.score_ns) == (str(a.contract), a.result, analyse(a).replay.score_ns)


def test_same_seed_same_boards() -> None:
    again = list(generate_boards(20, seed=5))
    assert [str(b.deal) for b in again] == [str(b.deal) for b in BOARDS[:20]]
    assert [b.auction for b in again] == [b.auction for b in BOARDS[:20]]
