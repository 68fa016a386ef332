"""The PBN auction's fast paths (issue #23.5): auctions with suffixes, NAGs and note references
read as the general code reads them, board by board (records, call positions, diagnostics), on
the corpus files and on realistic generated files; and the fast path takes those auctions."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from handrec.formats.pbn import auction_section, reader
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.sources import Input


def _read(data: bytes, name: str) -> list[tuple]:
    """Each board of ``data`` as what the reader gives: the board (its records), the positions
    of its calls, its comment anchors and its diagnostics; then the file's diagnostics."""
    inp = Input(name, "pbn", opener=lambda: io.BytesIO(data))
    boards = list(reader.parse_pbn(inp.lines(), name, inp.diagnostics))
    out: list[tuple] = []
    for b in boards:
        spans = None if b.auction is None else [c.span for c in b.auction.calls]
        out.append((b, spans, b.comment_anchors, [str(d) for d in b.diagnostics]))
    out.append(tuple(str(d) for d in inp.diagnostics))
    return out


def _both(data: bytes, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple], list[tuple]]:
    fast = _read(data, name)
    with monkeypatch.context() as m:
        m.setattr(auction_section, "_FAST", False)
        m.setattr(auction_section, "_CALL_OBJS", {})
        slow = _read(data, name)
    return fast, slow


def _realistic(n: int, seed: int) -> bytes:
    buf = io.StringIO()
    dump(generate_boards(n, seed, realistic=True), buf, suffixes=True)
    return buf.getvalue().encode()


def _assert_same(fast: list[tuple], slow: list[tuple]) -> None:
    assert len(fast) == len(slow)
    for i, (f, s) in enumerate(zip(fast, slow)):
        assert f == s, i


def test_corpus_auctions_read_as_the_general_code(corpus_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((corpus_dir / "pbn").iterdir())
    assert len(files) >= 20
    for path in files:
        fast, slow = _both(path.read_bytes(), path.name, monkeypatch)
        _assert_same(fast, slow)


@pytest.mark.parametrize("seed", [1, 2])
def test_realistic_auctions_read_as_the_general_code(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(_realistic(400, seed), "r.pbn", monkeypatch)
    _assert_same(fast, slow)
    noted = [c for b, *_ in fast[:-1] for c in b.auction.calls if c.note is not None]
    assert len(noted) > 100 and all(c.annotation for c in noted)
    assert any(c.nags == (1,) for b, *_ in fast[:-1] for c in b.auction.calls)


def test_the_fast_path_takes_realistic_auctions(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    real = auction_section._fast_calls
    monkeypatch.setattr(auction_section, "_fast_calls", lambda *a: taken.append(real(*a) is not None) or real(*a))
    _read(_realistic(200, 3), "r.pbn")
    assert len(taken) > 80 and all(taken)


_GAME = """[Board "1"]
[Dealer "N"]
[Auction "{seat}"]
{calls}
{notes}
"""

#: Auctions the fast path reads (glued or apart) and those it leaves to the general code
#: (a diagnostic there: a second suffix or reference, a missing Note, a NAG of cards, an
#: annotation before any call, an alert mark, irregularities, end markers, fillers, AP).
_AUCTIONS = [
    ("N", "1C ! 1H =1= Pass $2 Pass", '[Note "1:transfer"]'),
    ("N", "1C! 1H=1= Pass$2 2S!? Pass ?!", '[Note "1: transfer "]'),
    ("N", "1C =1= $3 ! 1D =2=", '[Note "1:a"]\n[Note "2:b"]'),
    ("N", "1C ! ? 1D", ""),
    ("N", "1C =1= =2= 1D", '[Note "1:a"]\n[Note "2:b"]'),
    ("N", "1C =3= 1D", '[Note "1:a"]'),
    ("N", "1C =1= 1D", ""),
    ("N", "1C $7 1D", ""),
    ("N", "! 1C 1D", ""),
    ("N", "=1= 1C", '[Note "1:a"]'),
    ("N", "4H* Pass", ""),
    ("N", "1C ^I 1D Pass", ""),
    ("N", "1C ! AP", ""),
    ("N", "1C ! Pass *", ""),
    ("E", "- 1C ! Pass", ""),
    ("E", "1C ! 1D", ""),
    ("N", "1c ! 1nt! pass", ""),
    ("N", "1C !!! 1D", ""),
    ("N", "1C $06 1D $0", ""),
    ("N", "1N ! 3NT", ""),
    ("N", "1C {a comment} ! 1D =1= {another}", '[Note "1:x"]'),
    ("N", "AP", ""),
    ("N", "*", ""),
    ("N", "+", ""),
    ("N", "Pass Pass AP +", ""),
    ("N", "1C =1= AP *", '[Note "1:x"]'),
    ("N", "1C Pass Pass Pass AP", ""),
    ("N", "1C ap", ""),
    ("N", "1C AP !", ""),
    ("N", "1C * AP", ""),
    ("N", "1C AP AP", ""),
    ("N", "1C * *", ""),
    ("N", "1C 1D +", ""),
]


@pytest.mark.parametrize(("seat", "calls", "notes"), _AUCTIONS)
def test_auction_pieces_read_as_the_general_code(
    seat: str, calls: str, notes: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _GAME.format(seat=seat, calls=calls, notes=notes).encode()
    fast, slow = _both(data, "a.pbn", monkeypatch)
    _assert_same(fast, slow)


def test_ap_and_end_markers_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    real = auction_section._fast_calls
    monkeypatch.setattr(auction_section, "_fast_calls", lambda *a: taken.append(real(*a) is not None) or real(*a))
    (b, *_), _ = _read(_GAME.format(seat="N", calls="1C ! 1S AP *", notes="").encode(), "ap")
    assert taken == [True]
    assert [str(c) for c in b.auction.calls] == ["1C", "1S", "Pass", "Pass", "Pass"]
    assert b.auction.ended == "*" and b.auction.calls[0].nags == (1,)


def test_glued_annotations_keep_their_calls() -> None:
    (b, spans, _, diags), _ = _read(
        _GAME.format(seat="N", calls="1C! 1H=1= Pass$2", notes='[Note "1:t"]').encode(), "g"
    )
    assert [(str(c), c.nags, c.note, c.annotation) for c in b.auction.calls] == [
        ("1C", (1,), None, None),
        ("1H", (), 1, "t"),
        ("Pass", (2,), None, None),
    ]
    assert [(s.line, s.column) for s in spans] == [(4, 1), (4, 5), (4, 11)]
    assert diags == []


_TOKENS = ["1C", "1D", "2H", "3NT", "Pass", "pass", "X", "XX", "x", "P", "4N", "!", "?", "!!", "?!", "$1", "$6"]
_TOKENS += ["$7", "$13", "=1=", "=2=", "=3=", "AP", "ap", "*", "+", "-", "^I", "^S", "4H*", "{c}", "1C!", "2S=1="]


@pytest.mark.parametrize("seed", range(6))
def test_random_auctions_read_as_the_general_code(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    rng = random.Random(seed)
    games = []
    for i in range(60):
        calls = " ".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 12)))
        notes = "\n".join(f'[Note "{k}:n{k}"]' for k in (1, 2) if rng.random() < 0.6)
        game = _GAME.format(seat=rng.choice("NNNE"), calls=calls, notes=notes)
        games.append(game.replace('[Board "1"]', f'[Board "{i + 1}"]'))
    fast, slow = _both("\n".join(games).encode(), "rand.pbn", monkeypatch)
    _assert_same(fast, slow)
