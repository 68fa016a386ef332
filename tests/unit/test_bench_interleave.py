"""benchmarks/_interleave.py (issue #23.6): rounds in rotated order, best of the rounds, ratios
against a baseline, a failing task dropped and reported, realistic generated inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import _interleave  # noqa: E402


class _Clock:
    """A perf_counter that the tasks move on by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_rounds_rotate_the_order_and_keep_the_best(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(_interleave.time, "perf_counter", clock)
    calls: list[str] = []
    costs = {"a": [3.0, 1.0, 2.0], "b": [4.0, 4.0, 6.0], "c": [9.0, 8.0, 7.0]}

    def task(name: str):
        def run() -> int:
            calls.append(name)
            clock.now += costs[name][sum(c == name for c in calls) - 1]
            return len(calls)

        return run

    res = _interleave.interleave([(n, task(n)) for n in "abc"], rounds=3, progress=False)
    assert calls == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert [(r.name, r.wall, len(r.walls)) for r in res.values()] == [("a", 1.0, 3), ("b", 4.0, 3), ("c", 7.0, 3)]
    assert res["b"].value == 9 and res["a"].value == 8
    text = _interleave.table(res, ["a"], count=10)
    row_b = next(line for line in text.splitlines() if line.startswith("b "))
    cells = row_b.split()
    assert (cells[0], cells[1], cells[3]) == ("b", "4.000", "2")  # best wall 4 s; 10 boards in 4 s: 2 a second
    assert cells[5] == "4.00x"  # wall over a's best


def test_a_failing_task_is_dropped_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []

    def flaky() -> int:
        runs.append(1)
        if len(runs) == 2:
            raise ValueError("invalid literal")
        return 1

    after: list[str] = []
    res = _interleave.interleave([("ok", lambda: 1), ("flaky", flaky)], rounds=4, after=after.append, progress=False)
    assert len(res["ok"].walls) == 4 and len(res["flaky"].walls) == 1 and len(runs) == 2
    assert res["flaky"].error == "ValueError: invalid literal"
    assert after.count("ok") == 4 and after.count("flaky") == 2
    assert "(stopped after 1 rounds: ValueError: invalid literal)" in _interleave.table(res, ["ok"])
    with pytest.raises(ValueError):
        _interleave.interleave([("x", lambda: 1), ("x", lambda: 2)])


def test_generated_inputs_are_realistic(tmp_path: Path) -> None:
    p = tmp_path / "r.pbn"
    assert _interleave.write_generated(p, 60, seed=3) == 60
    text = p.read_text(encoding="utf-8")
    assert "=1=" in text and '[Note "1:' in text and "% EXPORT" not in text
    q = tmp_path / "p.pbn"
    _interleave.write_generated(q, 60, seed=3, realistic=False)
    assert "=1=" not in q.read_text(encoding="utf-8")
