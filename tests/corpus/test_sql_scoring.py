"""The SQL views agree with the Python scorers on a real pairs event (travellers as games)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from handrec.dataset.query import run
from handrec.runs.convert import convert
from handrec.scoring.traveller import mp, mp2


@pytest.fixture(scope="module")
def dataset(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kops")
    convert([corpus_dir / "pbn" / "pbntools_polish_kops_latin1_travellers.pbn"], out)
    return out


def test_travellers_matchpoints_match_the_scorer(dataset: Path) -> None:
    _, rows = run(
        dataset, "select board_key, board_id, score_ns, mp_ns, mp2_ns from travellers order by board_key, board_id"
    )
    by_board: dict[str, list[tuple[int, int, float, int]]] = defaultdict(list)
    for key, bid, score, m, m2 in rows:
        by_board[key].append((bid, score, m, m2))
    assert len(by_board) == 27  # 27 boards, 108 results (MANIFEST.md)
    assert sum(len(v) for v in by_board.values()) == 108
    for results in by_board.values():
        scores = [s for _, s, _, _ in results]
        assert [Fraction(m) for _, _, m, _ in results] == list(mp(scores))
        assert [Fraction(m2) for _, _, _, m2 in results] == list(mp2(scores))


def test_matchpoints_sum_to_the_scale_total(dataset: Path) -> None:
    _, rows = run(dataset, "select board_key, sum(mp_ns), max(tables) from travellers group by board_key")
    for _, total, n in rows:
        assert total == n * (n - 1) / 2


def test_rankings(dataset: Path) -> None:
    """The file's Scoring tag asks for IMPs in a pairs event: Butler, as handrec score ranks it."""
    _, rows = run(
        dataset, "select method, direction, pair, boards, imps, mp, rank from rankings where rank <= 2 order by rank"
    )
    # pairs change direction (a Howell): one field, as handrec score
    assert rows == [("butler", "pairs", "Para-8", 24, 37.0, None, 1), ("butler", "pairs", "Para-1", 24, 31.0, None, 2)]
