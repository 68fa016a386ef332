"""Claimed ScorePercentage / ScoreIMP / ScoreMP figures that no scoring can give are reported on
every game, a board played once included (handrec.events.claims.impossible_claim): S616 at the
tag, once handrec.diagnostics registers it (registered here while it is not), else S609."""

from __future__ import annotations

import pytest

from handrec.diagnostics import CODES, Code, Severity
from handrec.events.checks import check_event
from handrec.events.claims import impossible_claim, parse_claim
from handrec.events.games import record
from handrec.formats.pbn.reader import parse_pbn_text

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"

#: What handrec.diagnostics should register for S616; added here while it is not.
S616 = Code(
    "S616",
    Severity.ERROR,
    "impossible claimed score",
    "{tag} {value} is impossible: {detail}",
    "PBN 2.1 §4.2.2-4.2.4; bridge-rules.md §8",
    "A claimed figure no scoring can give.",
    "ScorePercentage NS 120 is impossible: a percentage is from 0 to 100",
)


@pytest.fixture
def s616(monkeypatch: pytest.MonkeyPatch) -> None:
    if "S616" not in CODES:
        monkeypatch.setitem(CODES, "S616", S616)


def game(table: int, result: int | None, **tags: str) -> str:
    """Board 1, 4S by N (none vulnerable); the claimed tags from line 13 on (11 unplayed)."""
    lines = ['[Event "Club"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{A}"]']
    lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    lines += ['[Contract "4S"]' if result is not None else '[Contract ""]']
    lines += ['[Declarer "N"]', f'[Result "{result}"]'] if result is not None else []
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


def diags(*games: str) -> list[tuple[str, int, int, str]]:
    rs = [record(b) for b in parse_pbn_text("\n".join(games), "t.pbn")]
    return [(d.code, d.line, d.column, d.message) for d in check_event(rs)]


@pytest.mark.usefixtures("s616")
@pytest.mark.parametrize(
    ("tag", "value", "detail"),
    [
        ("ScorePercentage", "NS 126.32", "a percentage is from 0 to 100"),
        ("ScorePercentage", "NS -5", "a percentage is from 0 to 100"),
        ("ScorePercentage", "100.01", "a percentage is from 0 to 100"),
        ("ScorePercentage", "NS 26.32 EW 80", "the N-S and E-W percentages add up to 106.32, not 100"),
        ("ScorePercentage", "EW 50.00 NS 49.90", "the N-S and E-W percentages add up to 99.9, not 100"),
        ("ScoreIMP", "NS 4 EW 4", "the N-S and E-W IMPs add up to 8, not 0 (what one side wins, the other loses)"),
        (
            "ScoreIMP",
            "NS 2.50 EW -2.00",
            "the N-S and E-W IMPs add up to 0.5, not 0 (what one side wins, the other loses)",
        ),
        ("ScoreMP", "NS -1", "matchpoints are never negative"),
    ],
)
def test_impossible_figure_of_a_board_played_once(tag: str, value: str, detail: str) -> None:
    # played once: nothing to compare with, but the figure is impossible all the same; at the tag
    assert diags(game(1, 10, **{tag: value})) == [("S616", 13, 1, f"{tag} {value} is impossible: {detail}")]


@pytest.mark.usefixtures("s616")
@pytest.mark.parametrize(
    ("tag", "value"),
    [
        ("ScorePercentage", "NS 26.32"),
        ("ScorePercentage", "NS 100 EW 0"),
        ("ScorePercentage", "NS 0.00"),
        ("ScorePercentage", "NS 33.33 EW 66.67"),
        ("ScorePercentage", "NS 33.33 EW 66.66"),  # each rounded: within half a unit of each
        ("ScorePercentage", "100.00"),
        ("ScoreIMP", "NS 4 EW -4"),
        ("ScoreIMP", "NS 7.33 EW -7.33"),
        ("ScoreIMP", "NS -241"),
        ("ScoreMP", "NS 3 EW 1"),  # the top is not known: a board played once
        ("ScoreMP", "0"),
    ],
)
def test_possible_figures_pass(tag: str, value: str) -> None:
    assert diags(game(1, 10, **{tag: value})) == []


@pytest.mark.usefixtures("s616")
def test_artificial_scores_of_an_unplayed_board_need_not_add_up() -> None:
    # Law 12C2: both sides at fault get 40 % (-3 IMPs) each; no result, no score: not summed
    assert diags(game(1, None, ScorePercentage="NS 40 EW 40", ScoreIMP="NS -3 EW -3")) == []
    # the range still holds
    assert diags(game(1, None, ScorePercentage="NS 140 EW 40")) == [
        ("S616", 11, 1, "ScorePercentage NS 140 EW 40 is impossible: a percentage is from 0 to 100")
    ]


@pytest.mark.usefixtures("s616")
def test_reported_instead_of_the_comparison_on_a_board_played_twice() -> None:
    # two results (420, 450): the comparison would also disagree; one diagnostic, the precise one
    got = diags(game(1, 10, ScorePercentage="NS 26.32 EW 80"), game(2, 11, ScoreIMP="NS 4 EW 4"))
    assert got == [
        (
            "S616",
            13,
            1,
            "ScorePercentage NS 26.32 EW 80 is impossible: the N-S and E-W percentages add up to 106.32, not 100",
        ),
        (
            "S616",
            27,
            1,
            "ScoreIMP NS 4 EW 4 is impossible: the N-S and E-W IMPs add up to 8, not 0 (what one side wins, the other loses)",
        ),
    ]
    # a possible but wrong figure is still compared (S605)
    assert [d[0] for d in diags(game(1, 10, ScorePercentage="NS 20 EW 80"), game(2, 11))] == ["S605"]


def test_without_s616_registered_it_is_s609(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(CODES, "S616", raising=False)
    assert diags(game(1, 10, ScorePercentage="NS 126.32")) == [
        ("S609", 13, 1, "ScorePercentage value 'NS 126.32' cannot be read")
    ]


def test_impossible_claim_directly() -> None:
    p = parse_claim("ScorePercentage", "NS 26.32 EW 80")
    assert p is not None
    assert impossible_claim("ScorePercentage", p) == "the N-S and E-W percentages add up to 106.32, not 100"
    assert impossible_claim("ScorePercentage", p, played=False) is None
    q = parse_claim("ScoreRubber", "NS 30/60")
    assert q is not None and impossible_claim("ScoreRubber", q) is None
