"""The event checks of a big input, its records spilled to disk (handrec.events.spill, issue #22.4):
the same diagnostics as in memory, on every corpus and sample file."""

from __future__ import annotations

from pathlib import Path

import pytest

from handrec.events.checks import EventChecker
from handrec.events.games import record
from handrec.formats.dispatch import read_input
from handrec.inputs.entries import iter_entries
from handrec.inputs.limits import DEFAULT_LIMITS
from handrec.inputs.sources import Input
from handrec.rules import validator

ROOT = Path(__file__).parents[2]


def _records(path: Path) -> list:
    out = []
    for inp in iter_entries([str(path)], DEFAULT_LIMITS):
        if isinstance(inp, Input):
            for board in read_input(inp):
                out.append(record(board, validator.analyse(board).replay))
    return out


def _checked(recs: list, bound: int | None) -> list[str]:
    checker = EventChecker(bound)
    for r in recs:
        checker.add_record(r)
    return [str(d) for d in checker.finish()]


def _files(corpus: Path | None) -> list[Path]:
    files = sorted((ROOT / "sample_data").glob("*.*"))
    if corpus is not None:
        files += sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() in {".pbn", ".lin", ".xml"})
    return files


def test_spilled_checks_equal_in_memory_on_the_corpus(corpus_dir: Path) -> None:
    files = _files(corpus_dir)
    assert len(files) > 30
    found = 0
    for path in files:
        recs = _records(path)
        expected = _checked(recs, None)
        found += len(expected)
        assert _checked(recs, 1) == expected, path  # every record spilled: checks board by board
        assert _checked(recs, max(1, len(recs) // 3)) == expected, path  # spilled part way
    assert found > 50  # the files do hold event diagnostics to compare


def test_a_big_input_of_hand_records_spills_and_finds_the_repeats() -> None:
    # 12 boards listed 3 times each: S614 at each repeat, found board by board from disk
    text = "".join(
        f'[Event "E"]\n[Board "{b}"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n\n'
        for _ in range(3)
        for b in range(1, 13)
    )
    from io import StringIO

    from handrec.formats.dispatch import read

    recs = [record(b, validator.analyse(b).replay) for b in read(StringIO(text))]
    spilled = _checked(recs, 5)
    assert spilled == _checked(recs, None)
    assert len(spilled) == 24 and all(" S614 " in d for d in spilled)
    assert spilled[0] == (
        "<stream>:49:1: S614 warning: board 1 is given again with the same deal, without players or result"
        " (also at line 1)"
    )
    assert spilled[-1].startswith("<stream>:141:1: S614 warning: board 12 ") and spilled[-1].endswith(
        "(also at line 45)"
    )


def test_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="bound must be at least 1, not 0"):
        EventChecker(0)


def _rotated(text: str, date: str) -> str:
    """``text`` with every deal's hands turned a seat (other deals) and the Date set to ``date``."""
    import re

    def turn(m: re.Match[str]) -> str:
        hands = m.group(2).split()
        return f'[Deal "{m.group(1)}:{" ".join(hands[1:] + hands[:1])}"]'

    text = re.sub(r'\[Deal "([NESW]):([^"]+)"\]', turn, text)
    return re.sub(r'\[Date "[^"]*"\]', f'[Date "{date}"]', text)


@pytest.mark.parametrize(("date", "fouled"), [("2026.12.06", 0), ("2026.11.29", 8)])
def test_spilled_sessions_are_told_apart_by_date(date: str, fouled: int) -> None:
    # a club's second week, new deals under the same board numbers: a session of its own, no
    # fouled board (S613); under the first week's date, each of the 8 boards is fouled once
    from io import StringIO

    from handrec.formats.dispatch import read

    week1 = (ROOT / "sample_data" / "club_session.pbn").read_text(encoding="utf-8")
    text = week1 + "\n" + _rotated(week1, date)
    recs = [record(b, validator.analyse(b).replay) for b in read(StringIO(text))]
    assert len(recs) == 64
    in_memory = _checked(recs, None)
    assert _checked(recs, 1) == in_memory
    assert sum(" S613 " in d for d in in_memory) == fouled


def test_board_numbers_kept_compactly_by_index() -> None:
    from handrec.runs.validate import _Numbers

    ns = _Numbers()
    for n in (1, None, 2**40):
        ns.append(n)
    assert [ns[i] for i in range(len(ns))] == [1, None, 2**40]
    ns.append("7a")  # not an int: kept as it is, the earlier ones too
    assert [ns[i] for i in range(len(ns))] == [1, None, 2**40, "7a"]
