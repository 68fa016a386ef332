"""A table file that disappears while ``query`` runs (issue #22.6): a one-line error and exit 2, not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import handrec.dataset.query as q
from handrec.cli import app

runner = CliRunner()
SAMPLE = Path(__file__).parents[2] / "sample_data" / "club_session.pbn"


@pytest.fixture(params=["checked", "connected"])
def vanishing(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A dataset whose plays.parquet is deleted once the dataset was checked (before the views over it
    are made), or once they are made (before the query reads it)."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out), "--quiet"]).exit_code == 0
    name = "_check_dataset" if request.param == "checked" else "connect"
    real = getattr(q, name)

    def then_delete(*args, **kw):
        value = real(*args, **kw)
        (out / "plays.parquet").unlink()
        return value

    monkeypatch.setattr(q, name, then_delete)
    return out


def test_run_raises_query_error(vanishing: Path) -> None:
    with pytest.raises(q.QueryError, match=r"plays\.parquet.*(gone|No such file)"):
        q.run(vanishing, "select count(*) from plays")


def test_cli_says_one_line(vanishing: Path) -> None:
    r = runner.invoke(app, ["query", str(vanishing), "select count(*) from plays"])
    assert r.exit_code == 2
    assert r.exception is None or isinstance(r.exception, SystemExit)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("handrec: ") and "plays.parquet" in lines[0], r.stderr
