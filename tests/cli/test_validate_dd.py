"""``handrec validate --dd``: the double dummy and par a file writes, against the solver.

Real files of the shared corpus and copies with one value altered (written to
``tmp_path``).  The solver is endplay's DDS (the ``handrec[dd]`` extra); the
solved tables go to a cache folder in ``tmp_path`` (``HANDREC_DD_CACHE``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dd import solver as dd
from handrec.model import ALL_CARDS, Board, Deal, Hand, Origin, Seat, Tag, Vulnerability

CZECH = "bridgecomposer_czech_club_latin1_dd.pbn"


def run(tmp_path: Path, *args: object):
    runner = CliRunner(env={"HANDREC_DD_CACHE": str(tmp_path / "cache")})
    return runner.invoke(app, ["validate", *[str(a) for a in args]])


def dd_lines(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ": D21" in ln]


@pytest.fixture
def endplay() -> None:
    pytest.importorskip("endplay")


def test_right_values_give_no_diagnostic(corpus_dir: Path, tmp_path: Path, endplay: None) -> None:
    """BridgeComposer's DoubleDummyTricks, OptimumResultTable and OptimumScore of 15 boards all agree."""
    r = run(tmp_path, "--dd", corpus_dir / "pbn" / CZECH)
    assert r.exit_code == 0, r.output
    assert dd_lines(r.stdout) == []
    assert r.stdout.splitlines()[-1] == "1 files, 15 boards, 0 errors, 11 warnings"  # F020 only
    from handrec.dd.cache import DDCache

    assert DDCache(tmp_path / "cache").stats().tables == 15


def test_altered_values_give_exact_diagnostics(corpus_dir: Path, tmp_path: Path, endplay: None) -> None:
    data = (corpus_dir / "pbn" / CZECH).read_bytes()
    # Board 16 (lines 44-80): one trick of the hex table, one row of the OptimumResultTable, the score.
    altered = data.replace(b'[DoubleDummyTricks "66477665877785677856"]', b'[DoubleDummyTricks "76477665877785677856"]')
    altered = altered.replace(
        b'[OptimumScore "NS -100"]\n[OptimumResultTable', b'[OptimumScore "NS 110"]\n[OptimumResultTable', 1
    )
    altered = altered.replace(b"N  H 4\n", b"N  H 5\n", 1)
    assert altered.count(b"\n") == data.count(b"\n") and altered != data
    copy = tmp_path / "copy.pbn"
    copy.write_bytes(altered)
    r = run(tmp_path, "--dd", copy)
    assert r.exit_code == 1, r.output
    assert dd_lines(r.stdout) == [
        f"{copy}:57:1: D210 error: DoubleDummyTricks disagrees with the double-dummy solver: N NT 7 (solver 6)",
        f"{copy}:59:1: D211 error: OptimumScore 'NS 110' but the par of the solved deal is EW +100",
        f"{copy}:60:1: D210 error: OptimumResultTable disagrees with the double-dummy solver: N H 5 (solver 4)",
    ]
    # 12 warnings: the 11 F020 and T127 (the hex table and the OptimumResultTable now disagree).
    assert r.stdout.splitlines()[-1] == "1 files, 15 boards, 3 errors, 12 warnings"
    # Without --dd nothing of this is checked.
    r = run(tmp_path, copy)
    assert r.exit_code == 0 and dd_lines(r.stdout) == []


def test_par_contract(tmp_path: Path, endplay: None) -> None:
    """A hand-made board: the right ParContract passes, a wrong one is D212 at its tag."""
    deal = "N:AQT94.T53.KQ8.T9 63.J98.J53.K8654 K72.6.AT9762.AJ7 J85.AKQ742.4.Q32"  # corpus board, NS 6S=
    text = (
        '[Event ""]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        f'[Deal "{deal}"]\n[OptimumScore "NS 980"]\n[ParContract "{{}}"]\n'
    )
    good, bad = tmp_path / "good.pbn", tmp_path / "bad.pbn"
    good.write_text(text.format("NS 6S="), encoding="ascii")
    bad.write_text(text.format("NS 6D="), encoding="ascii")
    r = run(tmp_path, "--dd", good)
    assert dd_lines(r.stdout) == []
    r = run(tmp_path, "--dd", bad)
    assert dd_lines(r.stdout) == [
        f"{bad}:7:1: D212 error: ParContract 'NS 6D=' but the par contracts of the solved deal are 'NS 6S='"
    ]
    assert r.exit_code == 1


def test_without_endplay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handrec.dd import engine

    monkeypatch.setattr(engine, "available", lambda: False)
    f = tmp_path / "x.pbn"
    f.write_text('[Board "1"]\n', encoding="ascii")
    r = run(tmp_path, "--dd", f)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr == "handrec: --dd needs the double-dummy solver: pip install 'handrec[dd]' (adds endplay)\n"


# ---------------------------------------------------------------------------
# The library: batches, disk cache, progress, incomplete deals (endplay faked)


def test_check_boards_batches_cache_and_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handrec.dd import engine
    from handrec.dd.cache import DDCache

    batches: list[int] = []

    def solve_tables(keys: list[str], *, in_place: bool = False) -> list[str]:
        assert len(keys) <= dd.BATCH
        batches.append(len(keys))
        return ["77777777776666666666" for _ in keys]  # N-S 7 tricks in every strain

    monkeypatch.setattr(engine, "solve_tables", solve_tables)
    monkeypatch.setattr(engine, "set_threads", lambda n: None)
    monkeypatch.setattr(dd.current(), "mode", "threads")
    dd.clear_cache()
    previous = dd.set_cache_dir(tmp_path / "cache")
    try:
        rng = random.Random(5)
        boards = []
        for i in range(45):
            cards = list(ALL_CARDS)
            rng.shuffle(cards)
            d = Deal(tuple(Hand(tuple(cards[13 * k : 13 * k + 13])) for k in range(4)))  # type: ignore[arg-type]
            hex_ = "77777777776666666666" if i != 44 else "87777777776666666666"  # declarers N S E W
            boards.append(
                Board(
                    origin=Origin("f.pbn", line=1 + 10 * i, index=i),
                    tags=(Tag("DoubleDummyTricks", hex_, _span(3)),),
                    number=i + 1,
                    dealer=Seat.NORTH,
                    vulnerable=Vulnerability.NONE,
                    deal=d,
                )
            )
        partial = Board(
            origin=Origin("f.pbn", line=900, index=45),
            tags=(Tag("OptimumScore", "NS 90", _span(2)),),
            number=46,
            deal=Deal.parse("N:AKQ... - - -"),
        )
        seen: list[tuple[int, int]] = []
        out = dd.check_boards([*boards, partial], progress=lambda done, total: seen.append((done, total)))
        assert batches == [40, 5] and seen == [(0, 45), (40, 45), (45, 45)]
        assert [str(d) for d in out] == [
            "f.pbn:443:1: D210 error: DoubleDummyTricks disagrees with the double-dummy solver: N NT 8 (solver 7)",
            "f.pbn:901:1: D213 info: OptimumScore not checked: the deal is not complete",
        ]
        # A second run (a new process: memory cache empty) reads the disk cache and solves nothing.
        dd.clear_cache()
        assert dd.check_boards(boards[:3]) == [] and batches == [40, 5]
        cached = DDCache(tmp_path / "cache").get_tables(str(b.deal) for b in boards)
        assert len(cached) == 45 and {t.to_hex() for t in cached.values()} == {"77777777776666666666"}
    finally:
        dd.set_cache_dir(previous)
        dd.clear_cache()


def _span(line: int):
    from handrec.model import Span

    return Span(line, 1)
