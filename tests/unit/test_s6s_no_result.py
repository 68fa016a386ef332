"""``handrec score`` lists a board without a result as such (README), text and JSON, and scores
nothing differently: Result "?", Result "" and no contract alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

D1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
D2 = "N:765.432.AKQJ.T98 T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765"


def game(board: int, deal: str, table: int, contract: str | None, result: str) -> str:
    lines = ['[Event "Club"]', f'[Board "{board}"]', f'[Deal "{deal}"]']
    lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    lines += [f'[Contract "{contract}"]', '[Declarer "N"]'] if contract is not None else []
    lines += [f'[Result "{result}"]']
    return "\n".join(lines) + "\n"


PLAYED = [game(1, D1, 1, "4S", "10"), game(1, D1, 2, "4S", "9")]


def score(tmp_path: Path, *games: str, fmt: str = "text") -> str:
    f = tmp_path / "t.pbn"
    f.write_text("\n".join(games), encoding="utf-8")
    r = CliRunner().invoke(app, ["score", str(f), "--format", fmt])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize(("contract", "result"), [("4S", "?"), ("4S", ""), (None, "10"), ("", "")])
def test_a_board_without_a_result_is_listed_and_scores_nothing(
    tmp_path: Path, contract: str | None, result: str
) -> None:
    unplayed = [game(2, D2, 1, contract, result), game(2, D2, 2, contract, result)]
    text = score(tmp_path, *PLAYED, *unplayed)
    assert "\nBoard 2: no result\n" in text
    # everything else as without the board
    assert text.replace("\nBoard 2: no result\n", "") == score(tmp_path, *PLAYED)
    doc = json.loads(score(tmp_path, *PLAYED, *unplayed, fmt="json"))
    (ev,) = doc["events"]
    assert ev["no_result"] == ["2"]
    assert [t["board"] for t in ev["travellers"]] == ["1"]
    (base,) = json.loads(score(tmp_path, *PLAYED, fmt="json"))["events"]
    assert base["no_result"] == []
    assert {k: v for k, v in ev.items() if k != "no_result"} == {k: v for k, v in base.items() if k != "no_result"}


def test_a_copy_of_a_board_with_another_deal_and_no_result(tmp_path: Path) -> None:
    doc = json.loads(score(tmp_path, *PLAYED, game(1, D2, 3, "4S", "?"), fmt="json"))
    assert doc["events"][0]["no_result"] == ["1 (another deal)"]
