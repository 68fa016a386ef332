"""``handrec codes`` and ``handrec schema``: exact output, exit codes, and a fast start for codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from handrec.cli import app
from handrec.diagnostics import CODES

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_codes_explains_s601() -> None:
    r = runner.invoke(app, ["codes", "S601"])
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [
        "S601 error: score disagrees",
        "rule:    The Score tag must be the duplicate score of the contract, declarer, vulnerability and tricks.",
        "source:  Law 77; bridge-rules.md §4",
        "message: Score {value} but {contract} by {declarer} taking {tricks} tricks scores {expected}",
        "example: S601 error: Score NS 470 but 2SX by S taking 10 tricks scores NS 670",
    ]
    assert runner.invoke(app, ["codes", "s601"]).stdout == r.stdout  # any case


def test_codes_strict_code_says_so() -> None:
    r = runner.invoke(app, ["codes", "T120"])
    assert r.stdout.splitlines()[0] == "T120 warning: unknown tag (shown with validate --strict)"


def test_codes_lists_every_code_in_registry_order() -> None:
    r = runner.invoke(app, ["codes"])
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert len(lines) == len(CODES)
    assert [line.split()[0] for line in lines] == list(CODES)
    assert lines[0] == "F001  error    unreadable input"
    assert "A301  error    insufficient bid" in lines
    assert "F007  info     unknown LIN command (--strict)" in lines
    assert "D204  info     partial deal" in lines


def test_codes_unknown_code_is_one_line_exit_2() -> None:
    r = runner.invoke(app, ["codes", "X999"])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr == "handrec: unknown diagnostic code 'X999' (handrec codes lists them)\n"


def test_codes_imports_neither_pyarrow_nor_duckdb() -> None:
    """``handrec codes`` must start fast: the registry is plain strings."""
    code = (
        "import sys\n"
        "from handrec.cli import main\n"
        "sys.argv = ['handrec', 'codes', 'A301']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('pyarrow', 'duckdb', 'lark', 'jinja2', 'numpy') if m in sys.modules]\n"
        "print('heavy:', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.splitlines()[0] == "A301 error: insufficient bid"
    assert out.splitlines()[-1] == "heavy: []"


def test_schema_of_a_converted_dataset(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert runner.invoke(app, ["convert", str(ROOT / "sample_data"), "-o", str(out), "-q"]).exit_code == 0
    r = runner.invoke(app, ["schema", str(out)])
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    headings = [line for line in lines if line and not line.startswith(" ")]
    assert headings == [
        "boards (table)",
        "calls (table)",
        "plays (table)",
        "diagnostics (table)",
        "supplemental (table)",
        "files (table)",
        "deals (table)",
        "leads (table)",
        "travellers (view)",
        "rankings (view)",
        "par_reached (view)",
        "declarer_play (view)",
        "lead_cost (view)",
        "dd_outliers (view)",
    ]
    calls = lines[lines.index("calls (table)") + 1 : lines.index("plays (table)") - 1]
    assert calls == [
        "  board_id            BIGINT     The game's id in the dataset (0-based, in reading order): the key to boards.board_id.",
        "  source_file         VARCHAR    The input read: its path, ARCHIVE!MEMBER for an archive member, - for standard input.",
        "  call_index          SMALLINT   The call's position in the auction (0-based; 0 is the dealer's).",
        "  seat                VARCHAR    Who made the call: N, E, S or W.",
        "  call                VARCHAR    The call: Pass, X, XX or a bid (1C...7NT).",
        "  alert               BOOLEAN    Whether the call was alerted (PBN !, LIN mb suffix !).",
        "  annotation          VARCHAR    The call's note or explanation (PBN Note, LIN an), as written.",
    ]
    assert "  mp_ns               DOUBLE     North-South's matchpoints" in r.stdout
    assert (
        "  rank                BIGINT     The place in its session and direction, by pct or imps (ties share a rank);"
        " null when unranked." in lines
    )
    # every column of every table and view has a description
    assert [line for line in lines if line.startswith("  ") and len(line.split(None, 2)) < 3] == []
    # the schema handrec writes is the one a converted dataset has
    assert runner.invoke(app, ["schema"]).stdout == r.stdout


def test_schema_of_a_folder_without_dataset_exits_2(tmp_path: Path) -> None:
    r = runner.invoke(app, ["schema", str(tmp_path)])
    assert r.exit_code == 2
    assert r.stderr == (
        f"handrec: {tmp_path}: no handrec dataset here (boards.parquet missing); run 'handrec convert' first\n"
    )


def test_schema_escapes_what_a_dataset_says(tmp_path: Path) -> None:
    """A dataset's Parquet files are input: a description holding ESC never reaches the terminal raw."""
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    assert runner.invoke(app, ["convert", str(ROOT / "sample_data"), "-o", str(out), "-q"]).exit_code == 0
    table = pq.read_table(out / "files.parquet")
    i = table.schema.get_field_index("sha256")
    field = table.schema.field(i).with_metadata({"description": "\x1b[31mred\x1b[0m"})
    pq.write_table(table.cast(table.schema.set(i, field)), out / "files.parquet")
    r = runner.invoke(app, ["schema", str(out)])
    assert r.exit_code == 0, r.stderr
    assert "\x1b" not in r.stdout
    assert "  sha256              VARCHAR    \\x1b[31mred\\x1b[0m" in r.stdout.splitlines()
