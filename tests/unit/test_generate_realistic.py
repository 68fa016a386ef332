"""``handrec generate`` realistic records (issue #23.6): alerts and notes, suffixes, comments,
claims, passed-out, doubled and redoubled boards in realistic proportions; every file validates
clean; the same seed gives the same file; ``--plain`` gives today's files."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.generate import generate_boards

runner = CliRunner()


def _generate(tmp_path: Path, name: str, *args: str) -> tuple[Path, str]:
    out = tmp_path / name
    r = runner.invoke(app, ["generate", "-o", str(out), *args])
    assert r.exit_code == 0, r.output
    return out, out.read_bytes().decode("utf-8")


@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("ext", ["pbn", "lin"])
def test_realistic_files_validate_clean(tmp_path: Path, seed: int, ext: str) -> None:
    out, _ = _generate(tmp_path, f"r.{ext}", "-n", "200", "--seed", str(seed))
    r = runner.invoke(app, ["validate", str(out)])
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == "1 files, 200 boards, 0 errors, 0 warnings"


def test_realistic_is_the_default_and_writes_the_features(tmp_path: Path) -> None:
    _, text = _generate(tmp_path, "r.pbn", "-n", "300", "--seed", "3")
    assert "% EXPORT" not in text  # suffixes are import format (export writes NAGs)
    auction = "\n".join(re.findall(r'\[Auction "[NESW]"\]\r\n((?:[^\[\r\n][^\r\n]*\r\n)*)', text))
    refs = re.findall(r"=(\d+)=", auction)
    assert len(refs) > 100 and re.search(r"(?m) !( |\r|$)", auction)
    assert '[Note "1:' in text and "$1" not in auction
    assert re.search(r"\{[^}]+\}", auction)  # a comment after a call
    assert re.search(r"\r\n\*\r\n", text)  # a claimed play ends with *
    assert re.search(r'\[Contract "Pass"\]', text) and re.search(r'\[Contract "\d[CDHSN]T?X"\]', text)
    assert re.search(r'\[Contract "\d[CDHSN]T?XX"\]', text)
    again = _generate(tmp_path, "again.pbn", "-n", "300", "--seed", "3")[1]
    assert again == text  # deterministic with --seed


def test_plain_writes_todays_files(tmp_path: Path) -> None:
    _, text = _generate(tmp_path, "p.pbn", "-n", "50", "--seed", "3", "--plain")
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n")
    assert "=1=" not in text and "[Note" not in text and "{" not in text and "\r\n*\r\n" not in text
    plain = list(generate_boards(50, 3))
    assert text.count('[Deal "') == 50 and plain[0].deal.to_pbn(plain[0].dealer) in text


def test_realistic_proportions() -> None:
    c: Counter[str] = Counter()
    for b in generate_boards(3000, 11, realistic=True):
        k = b.contract
        assert k is not None and b.auction is not None
        c["passed" if k.is_passed_out else f"d{int(k.doubling)}"] += 1
        c["calls"] += len(b.auction.calls)
        c["noted"] += sum(x.note is not None for x in b.auction.calls)
        c["suffixed"] += sum(x.nags == (1,) for x in b.auction.calls)
        c["comment"] += bool(b.commentary)
        c["claim"] += b.play is not None and b.play.claim is not None
        c["played"] += b.play is not None
        # a note reference has its Note, numbered in order
        assert [n.index for n in b.auction.notes] == list(range(1, len(b.auction.notes) + 1))
    assert 0.08 <= (c["noted"] + c["suffixed"]) / c["calls"] <= 0.12
    assert 0.05 <= c["suffixed"] / c["calls"] * 2 <= 0.09
    assert 0.015 <= c["passed"] / 3000 <= 0.045
    assert 0.06 <= c["d1"] / 3000 <= 0.12
    assert 0.003 <= c["d2"] / 3000 <= 0.02
    assert 0.03 <= c["comment"] / 3000 <= 0.08
    assert 0.3 <= c["claim"] / c["played"] <= 0.5


@pytest.mark.parametrize("suffixes", [True, False])
def test_realistic_boards_read_back_as_written(suffixes: bool) -> None:
    import io

    from handrec.formats.pbn.reader import parse_pbn_text
    from handrec.formats.pbn.writer import dump, normalise

    boards = list(generate_boards(120, 4, realistic=True))
    buf = io.StringIO()
    dump(boards, buf, suffixes=suffixes)
    back = parse_pbn_text(buf.getvalue(), "rt.pbn")
    assert len(back) == 120
    for a, b in zip(boards, back):
        assert b.diagnostics == ()
        assert b == normalise(a), a.number
