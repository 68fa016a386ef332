"""A ScoreTable row is scored on the score handrec computes from its Contract, Declarer and
Result (README: scores are computed by handrec, never copied from the file), not on a wrong
Score_NS; the file's Score_NS is used only when the row cannot be computed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.events.checks import check_event
from handrec.events.event_score import score_event
from handrec.events.games import record
from handrec.events.methods import Method
from handrec.formats.pbn.reader import parse_pbn_text

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def board(rows: str, columns: str = "Score_NS\\5R;MP_NS\\3R") -> str:
    return (
        '[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "NS"]\n'
        f'[Deal "{DEAL}"]\n'
        f'[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;{columns}"]\n' + rows
    )


#: 4S by N, N-S vulnerable: 10 tricks 620 (the file says 650), 9 tricks -100, 11 tricks 650.
#: Claimed matchpoints are those of the computed scores: 620 beats -100 (1), 650 beats both (2).
WRONG = board(" 1 11 4S   N 10   650   1\n 2 12 4S   N  9  -100   0\n 3 13 4S   N 11   650   2\n")


def test_score_table_is_matchpointed_on_the_computed_scores(tmp_path: Path) -> None:
    (ev,) = score_event([record(b) for b in parse_pbn_text(WRONG, "t.pbn")], Method.MP)
    (t,) = ev.travellers
    assert [(e.entry.score_ns, e.ns) for e in t.entries] == [(620, 1), (-100, 0), (650, 2)]
    f = tmp_path / "t.pbn"
    f.write_text(WRONG, encoding="utf-8")
    r = CliRunner().invoke(app, ["score", str(f), "--format", "json"])
    assert r.exit_code == 0, r.output
    (e,) = json.loads(r.stdout)["events"]
    (tr,) = e["travellers"]
    assert [(x["score_ns"], x["mp_ns"]) for x in tr["entries"]] == [(620, 1), (-100, 0), (650, 2)]


def test_the_wrong_score_is_reported_once_and_the_claimed_mps_agree() -> None:
    got = [(d.code, d.message) for d in check_event([record(b) for b in parse_pbn_text(WRONG, "t.pbn")])]
    assert got == [
        ("S607", "ScoreTable row 1 Score_NS 650 but 4S by N taking 10 tricks (NS vulnerable) gives 620"),
    ]


def test_a_row_that_cannot_be_computed_keeps_the_files_score() -> None:
    # row 2 has no result: its Score_NS (-100) is the only score there is
    t = board(" 1 11 4S   N 10   620\n 2 12 4S   N  -  -100\n 3 13 4S   N 11   650\n", "Score_NS\\5R")
    (ev,) = score_event([record(b) for b in parse_pbn_text(t, "t.pbn")], Method.MP)
    assert [(e.entry.score_ns, e.ns) for e in ev.travellers[0].entries] == [(620, 1), (-100, 0), (650, 2)]


def test_a_figure_is_cut_toward_zero_to_the_digits_written() -> None:
    """S617's test (Scorer's factored match points, tests/corpus/test_usebio_corpus.py): 20.29 cut
    to one digit is 20.2 (rounding gives 20.3); -1.57 is -1.5; a figure already short stays."""
    from fractions import Fraction

    from handrec.events.checks_tables import _cut

    assert _cut(Fraction("20.29"), 1) == Fraction("20.2")
    assert _cut(Fraction("-1.57"), 1) == Fraction("-1.5")
    assert _cut(Fraction("56.4"), 1) == Fraction("56.4")
    assert _cut(Fraction(645, 100), 0) == 6
