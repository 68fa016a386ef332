"""An Event tag of "?" is an unknown event (PBN 2.1 §3.4.1), as handrec's own LIN-to-PBN export
writes it: files whose event is unknown are each an event of their own, in ``handrec score``
and in the SQL views alike, never ranked together."""

from __future__ import annotations

import io
import json
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards

runner = CliRunner()


def _file(path: Path, seed: int) -> Path:
    buf = io.StringIO()
    dump(generate_boards(4, seed=seed, tables=2, event="?"), buf)
    path.write_text(buf.getvalue())
    return path


def test_unknown_events_are_not_ranked_together(tmp_path: Path) -> None:
    a, b = _file(tmp_path / "a.pbn", 5), _file(tmp_path / "b.pbn", 6)
    r = runner.invoke(app, ["score", str(a), str(b), "--format", "json"])
    assert r.exit_code == 0, r.output
    names = [e["event"] for e in json.loads(r.stdout)["events"]]
    assert names == [f"{a} (no Event tag)", f"{b} (no Event tag)"]
    out = tmp_path / "ds"
    assert runner.invoke(app, ["convert", str(a), str(b), "-o", str(out)]).exit_code == 0
    q = runner.invoke(app, ["query", str(out), "select distinct event_name from travellers order by 1", "-f", "csv"])
    assert q.stdout.splitlines() == ["event_name", f"{a} (no Event tag)", f"{b} (no Event tag)"]
