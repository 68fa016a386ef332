"""Inputs the fuzzers found, each with its minimal form, kept as regression tests.

None of them crashed handrec; each once broke a property of ``fuzzing.check``
(a board neither read nor diagnosed), and each was either a reader fault now
fixed or a case the property had to learn (see the comments).  New crashes
found by ``fuzz/`` go here, as ``xfail(strict=True)`` while their owner fixes
them.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from handrec.formats.dispatch import read

from .fuzzing import (
    CORPUS_DIR,
    Mutant,
    Sample,
    board_ranges,
    check,
    corpus_sample,
    generated_sample,
)
from .test_bad_inputs import BASE, LIN


def _sample(text: str, name: str) -> Sample:
    data = text.encode()
    return Sample(name, data, board_ranges(data, name))


def test_lin_record_whose_qx_was_damaged_joins_the_record_before() -> None:
    """``qx|o7|`` damaged to ``px|c7|``: the record has no qx and its md belongs to the record read before."""
    data = (
        b"vg|SEGMENT 1,I,1,16,HOME,0,AWAY,0|\r\nrs|,,,,,,,,,,,|\r\n"
        b"pn|,,,,,,,|px|c7|pn|,,,,,,,|md|1S84HAQJ642D98C987,SAQ7HT83DKQ73CJ52,SJT32HK95DAJ2CT64,SK965H7DT654CAKQ3|"
        b"sv|b|pg||\r\n"
        b"pn|,,,,,,,|md|2SAKJ7H9852DK965C3,SQ92HKQJ63D8CKT98,ST865HDAJ432CQJ75,S43HAT74DQT7CA642|sv|0|pg||\r\n"
    )
    r = check(data, "vugraph.lin", [(65, 168), (168, len(data))])
    assert (r.boards, r.starts) == (2, [1, 4])


def test_lin_record_cut_to_its_names_is_no_record() -> None:
    """A record truncated to ``pn|...|``: header pairs only, so no record (lin.md §2): the file has no board (F018)."""
    r = check(b"pn|Hal,Eve,Dan,Gus|", "cut.lin", [(0, 19)])
    assert (r.boards, r.diagnostics, [d.code for d in r.file_diagnostics]) == (0, [], ["F018"])


def test_pbn_games_inside_a_closed_brace_comment_are_comment() -> None:
    """A ``{`` put before the first game opens a comment that a later ``}`` closes: the games between are
    commentary (PBN 2.1 §3.8), not boards; the game after the ``}`` is read."""
    s = _sample(BASE + "\n" + BASE.replace('"Club"', '"Two"') + "\n{\nno game\n}\n\n" + BASE, "c.pbn")
    m = Mutant(s)
    m.insert(0, b"{")
    r = check(m.data, m.name, m.ranges)
    assert r.boards == 1 and r.diagnostics == [] and r.file_diagnostics == []


def test_a_lin_record_in_a_pbn_file_is_junk_in_its_game() -> None:
    """LIN spliced between tags of a PBN game: unknown tokens (F006) in that game."""
    m = Mutant(_sample(BASE, "x.pbn"))
    m.splice(6, _sample(LIN, "x.lin"), 0)
    r = check(m.data, m.name, m.ranges)
    assert r.boards == 1
    assert [(d.code, d.line) for d in r.diagnostics] == [("F006", 7), ("F006", 7)]


def test_a_pbn_board_in_a_lin_file_makes_it_pbn() -> None:
    """A PBN game spliced after the first LIN record: the file sniffs as PBN, the LIN line is junk
    outside any game (it holds no tag pair: F006, no board), and the PBN game is the one board."""
    m = Mutant(generated_sample(2, 0, "lin"))
    m.splice(1, generated_sample(3, 7, "pbn"), 0)
    r = check(m.data, m.name, m.ranges)
    assert r.format == "pbn" and r.boards == 1
    assert "F006" in {d.code for d in r.diagnostics if d.line == 1}


@pytest.mark.skipif(not (CORPUS_DIR / "pbn").is_dir(), reason="../shared/corpus not present")
def test_a_lin_record_inside_an_optimum_result_table_is_flagged() -> None:
    """Table rows were read without a check, so a board spliced into one vanished; now T124 flags it."""
    s = corpus_sample(Path(CORPUS_DIR / "pbn" / "camrose2024_handrecords_bridgecomposer_dd.pbn"), 0)
    m = Mutant(s)
    m.splice(64, generated_sample(3, 8, "lin"), 0)
    r = check(m.data, m.name, m.ranges)
    assert "T124" in {d.code for d in r.diagnostics if d.line == 65}


def test_lin_calls_before_the_first_qx_are_not_dropped_silently(monkeypatch) -> None:
    """Found damaged from the corpus (a vugraph file whose ``qx|o1|...|md|`` was cut): the calls before the
    first ``qx`` vanish.  Minimal form: an auction, then a ``qx`` record."""

    data = b"sv|o|mb|1S|mb|p|mb|p|mb|p|\nqx|o1|md|3SJT9H982DQ532CQ83,SQ432HKJ76D64CJT4,S65HA53DJT7CAK762,|\n"
    check(data, "x.lin", [(0, 27)])


def test_lin_file_cut_after_the_next_records_names_says_so() -> None:
    """Found by fuzz/fuzz_long.py (generated LIN, truncated): the file ends with ``pn|...|st||``, the
    start of a record that never came.  Those pairs were silently read as the last record's players;
    now they are left out of it and reported (F017), so the cut board is accounted for."""
    m = Mutant(generated_sample(3, 440, "lin"))
    m.truncate(1107)
    r = check(m.data, m.name, m.ranges)
    assert r.boards == 2
    assert [(d.code, d.line, d.column, d.message) for d in r.file_diagnostics] == [
        ("F017", 3, 1, "pn|st| after the last deal open no record (the file may be truncated): ignored")
    ]
    boards = list(read(io.BytesIO(m.data)))  # LIN pn order is S, W, N, E: record 2 is "Eve,Hal,Gus,Dan"
    assert [b.tag("North") for b in boards] == ["Cat", "Gus"]  # not "Cat" from the cut record's "Eve,Fay,Cat,Dan"


def test_a_name_ending_in_a_command_is_not_a_record() -> None:
    """Found by fuzz/fuzz_long.py: ``pn|Cat,Gus,Eve,Dan|`` left of a generated file; the property took the
    ``an|`` of ``Dan|`` for a LIN command (a harness fault: the reader was right, no record here)."""
    m = Mutant(generated_sample(2, 1, "lin"))
    m.delete_line(0)
    m.truncate(19)
    assert m.data == b"pn|Cat,Gus,Eve,Dan|"
    r = check(m.data, m.name, m.ranges)
    assert (r.boards, [d.code for d in r.file_diagnostics]) == (0, ["F018"])
