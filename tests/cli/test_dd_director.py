"""The director's checks: D214 (a result far from double dummy, with the worklist) and D215 (a
deal written rotated against its own auction and play).

D214 runs ``validate --dd`` on hand-written boards whose deals' tables are put in the cache
first (the tables of the European Championships 2006 deals in tests/unit/test_dd.py, solved
once with DDS), so nothing is solved here; D215 needs no solver at all.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.dd.cache import DDCache
from handrec.dd.table import DDTable
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.rules.rotation import turn
from handrec.rules.validator import analyse

# Boards 8 and 15 of tests/unit/test_dd.py (VALET): their deals and DoubleDummyTricks.
DEAL8 = "N:K872.AJ6.A.KQ532 J93.T872.QT94.JT AT.93.KJ532.A876 Q654.KQ54.876.94"
HEX8 = "bbabdbbabd2232022320"  # N and S: NT 11, S 11, H 10, D 11, C 13
DEAL15 = "N:742.J965.AKQT2.T T63.T832.J954.K6 KQJ5.AQ7.8.AQ932 A98.K4.763.J8754"
HEX15 = "abaa9bbaa92233322333"  # N: NT 10 ... S: NT 11


def _game(number: int, deal: str, contract: str, declarer: str, result: int) -> str:
    dealer, vul = {8: ("W", "None"), 15: ("S", "NS")}[number]  # Law 2
    return (
        f'[Event "Club"]\n[Board "{number}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n[Deal "{deal}"]\n'
        f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{result}"]\n\n'
    )


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    c = DDCache(folder)
    c.put_tables([(DEAL8, DDTable.parse_hex(HEX8)), (DEAL15, DDTable.parse_hex(HEX15))])
    c.close()
    return folder


def _validate(cache: Path, *args: object):
    pytest.importorskip("endplay")
    return CliRunner(env={"HANDREC_DD_CACHE": str(cache)}).invoke(app, ["validate", *map(str, args)])


def test_results_far_from_double_dummy_and_the_worklist(tmp_path: Path, cache: Path) -> None:
    f = tmp_path / "club.pbn"
    f.write_text(
        _game(8, DEAL8, "3NT", "N", 7)  # 11 double dummy: 4 below
        + _game(8, DEAL8, "6C", "S", 13)  # made as double dummy says
        + _game(8, DEAL8, "4S", "N", 2)  # 11: 9 below, the defenders' 11 tricks written?
        + _game(15, DEAL15, "3NT", "N", 13)  # 10: 3 above (S as declarer takes 11: within 3)
        + _game(15, DEAL15, "1NT", "S", 8),  # 11: 3 below
        encoding="ascii",
    )
    r = _validate(cache, "--dd", f)
    assert r.exit_code == 0, r.output  # warnings only
    assert [ln for ln in r.stdout.splitlines() if "D214" in ln] == [
        f"{f}:8:1: D214 warning: 3NT by N took 7 tricks, double dummy 11 (-4)",
        f"{f}:26:1: D214 warning: 4S by N took 2 tricks, double dummy 11 (-9) (maybe: the defenders took 11)",
        f"{f}:35:1: D214 warning: 3NT by N took 13 tricks, double dummy 10 (+3) (maybe: S as declarer takes 11)",
        f"{f}:44:1: D214 warning: 1NT by S took 8 tricks, double dummy 11 (-3) (maybe: N as declarer takes 10)",
    ]
    lines = r.stdout.splitlines()
    at = lines.index("double-dummy worklist: 4 results 3 or more tricks from double dummy, the most unlikely first")
    assert lines[at + 1 :] == [
        f"   1. {f}:26: 4S by N took 2 tricks, double dummy 11 (-9) (maybe: the defenders took 11)",
        f"   2. {f}:8: 3NT by N took 7 tricks, double dummy 11 (-4)",
        f"   3. {f}:35: 3NT by N took 13 tricks, double dummy 10 (+3) (maybe: S as declarer takes 11)",
        f"   4. {f}:44: 1NT by S took 8 tricks, double dummy 11 (-3) (maybe: N as declarer takes 10)",
        "1 files, 5 boards, 0 errors, 4 warnings",
    ]
    # --dd-margin 5 keeps only the 9-trick one; JSON gives the worklist too.
    r = _validate(cache, "--dd", "--dd-margin", "5", "--format", "json", f)
    doc = json.loads(r.stdout)
    assert [d["line"] for d in doc["dd_worklist"]] == [26]
    assert [d["code"] for d in doc["diagnostics"]] == ["D214"]
    # Nothing was solved: the cache still holds the two tables it was given.
    assert DDCache(cache).stats().tables == 2


def test_no_dd_cache_reads_and_writes_no_cache(tmp_path: Path, cache: Path, monkeypatch) -> None:
    from handrec.dd import engine

    seen: list[list[str]] = []

    def solve_tables(keys: list[str], *, in_place: bool = False) -> list[str]:
        seen.append(list(keys))
        return [HEX8 for _ in keys]

    monkeypatch.setattr(engine, "solve_tables", solve_tables)
    monkeypatch.setattr(engine, "set_threads", lambda n: None)
    f = tmp_path / "one.pbn"
    f.write_text(_game(8, DEAL8, "3NT", "N", 7), encoding="ascii")
    before = (cache / "dd-cache.sqlite3").stat().st_mtime_ns
    r = _validate(cache, "--dd", "--no-dd-cache", f)
    assert "D214" in r.stdout and seen == [[DEAL8]]  # solved, though the cache has it
    assert (cache / "dd-cache.sqlite3").stat().st_mtime_ns == before


# ---------------------------------------------------------------------------
# D215: rotated deals (no solver)


@pytest.mark.parametrize(
    ("k", "words"),
    [
        (1, "1 seat clockwise (the hand written for North is East's)"),
        (2, "2 seats (the hand written for North is South's)"),
        (3, "1 seat anticlockwise (the hand written for North is West's)"),
    ],
)
def test_rotated_deal_is_reported_with_the_turn_and_the_right_deal(tmp_path: Path, k: int, words: str) -> None:
    board = next(iter(generate_boards(1, seed=40 + k)))
    assert [d.code for d in analyse(board).diagnostics] == []
    rotated = dataclasses.replace(board, deal=turn(board.deal, 4 - k))  # written turned back by k
    buf = io.StringIO()
    dump([rotated], buf)
    f = tmp_path / f"rotated{k}.pbn"
    f.write_text(buf.getvalue(), encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(f)])
    d215 = [ln for ln in r.stdout.splitlines() if " D215 " in ln]
    line = next(i for i, ln in enumerate(buf.getvalue().splitlines(), 1) if ln.startswith("[Deal "))
    assert d215 == [
        f"{f}:{line}:1: D215 warning: the cards played fit the deal only with the hands turned {words}: "
        f'the board would be [Deal "{board.deal}"]'
    ]
    assert r.exit_code == 1  # the P402s stay errors: the file is wrong as written


def test_a_mistyped_card_is_no_rotation() -> None:
    board = next(iter(generate_boards(1, seed=44)))
    hands = list(board.deal.hands)
    n, e = hands[0], hands[1]
    swapped = (type(n)((e.cards[0], *n.cards[1:])), type(e)((n.cards[0], *e.cards[1:])))  # one card each way
    broken = dataclasses.replace(board, deal=type(board.deal)((swapped[0], swapped[1], hands[2], hands[3])))
    codes = [d.code for d in analyse(broken).diagnostics]
    assert "P402" in codes and "D215" not in codes
