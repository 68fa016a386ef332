"""GameRecord: what ``validate --jobs`` sends from its workers (record, deal text, pickling)."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

from handrec.events.games import GameRecord, deal_text, record
from handrec.formats.lin.reader import parse_lin
from handrec.formats.pbn.reader import parse_pbn
from handrec.formats.pbn.writer import dump as pbn_dump
from handrec.generate import generate_boards
from handrec.inputs.sources import FileSource, Input
from handrec.model import Contract, Deal, Doubling, Origin, Seat, Strain, Vulnerability
from handrec.rules.board import check_deal


def _boards(path: Path) -> list:
    fmt = path.suffix[1:].lower()
    parse = parse_pbn if fmt == "pbn" else parse_lin
    return list(parse(Input(str(path), fmt, source=FileSource(str(path))).lines(), str(path), []))


def _same(a: GameRecord, b: GameRecord) -> None:
    assert a == b
    assert a.origin == b.origin  # not compared by ==
    assert [type(getattr(a, f)) for f in ("dealer", "vulnerable")] == [
        type(getattr(b, f)) for f in ("dealer", "vulnerable")
    ]
    if a.contract is not None:
        assert (type(b.contract.strain), type(b.contract.doubling), type(b.contract.declarer)) == (
            type(a.contract.strain),
            type(a.contract.doubling),
            type(a.contract.declarer),
        )


def test_corpus_records_pickle_unchanged(corpus_dir: Path) -> None:
    n = 0
    for path in sorted(corpus_dir.rglob("*")):
        if path.suffix.lower() not in (".pbn", ".lin"):
            continue
        for board in _boards(path):
            r = record(board)
            _same(r, pickle.loads(pickle.dumps(r)))
            n += 1
    assert n > 1000


def test_generated_record_values_survive_pickle() -> None:
    text = io.StringIO()
    pbn_dump(generate_boards(20, seed=5), text)
    boards = list(parse_pbn(io.StringIO(text.getvalue()).read().splitlines(), "g.pbn", []))
    for b in boards:
        r = record(b)
        back = pickle.loads(pickle.dumps(r))
        _same(r, back)
        assert back.deal == str(b.deal)
        assert isinstance(back.dealer, Seat) and isinstance(back.vulnerable, Vulnerability)


def test_unusual_values_pickle_as_they_are() -> None:
    # a hand-built record with values of other types than the reader's: kept as they are
    r = GameRecord(
        origin=Origin("x.pbn", 3, 10, 2, "pbn"),
        board="7",
        number=7,
        contract=Contract(3, Strain.NOTRUMP, Doubling.DOUBLED, None),
        dealer=None,
        vulnerable=Vulnerability.BOTH,
    )
    _same(r, pickle.loads(pickle.dumps(r)))
    odd = GameRecord(origin=Origin("y.lin", format="lin"), contract=Contract(0, None), dealer=2)  # type: ignore[arg-type]
    back = pickle.loads(pickle.dumps(odd))
    _same(odd, back)
    assert back.dealer == 2 and type(back.dealer) is int


@pytest.mark.parametrize(
    "text",
    [
        "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
        "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -",  # three hands (the fourth completed by the check)
        "N:AKQJ.T98.765.432 AKQJ.765.432.T98 765.432.AKQJ.T98 432.AKQJ.T98.765",  # repeated cards
        "W:AK... - - -",  # an end-position fragment
    ],
)
def test_deal_text_after_check(text: str) -> None:
    deal = Deal.parse(text)
    check_deal(deal, required=False)  # the masks it keeps are used only for four full hands
    assert deal_text(deal) == str(deal)
