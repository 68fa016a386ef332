"""Issue #23 item 4: the quick commands start without the heavy libraries.

``handrec validate`` of a small file, ``handrec --help`` and ``handrec codes`` run in a fresh
interpreter; after the command has finished, its ``sys.modules`` must not hold pyarrow or duckdb
(nor the other libraries only some commands need).  The time itself is a benchmark
(``benchmarks/bench_startup.py``), not a test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

#: Imported only inside the commands that need them (issue #23 item 4).
HEAVY = ("pyarrow", "duckdb", "jinja2", "typst", "numpy", "endplay", "dask", "pandas")

#: Imported by ``handrec validate`` only when the input needs them: the checks of claimed
#: figures and score tables (and the scoring of every method they bring) for a file that claims
#: some; the travellers for boards played more than once; the scorers (and fractions) for a
#: file that is scored; sqlite3 for an input too big to keep its records in memory; json for
#: ``--format json``; gzip for a gzipped input; multiprocessing for a run with a process pool.
#: The two sample files (boards played once, no claims) need none.
VALIDATE_LAZY = (
    "handrec.events.travellers",
    "handrec.scoring.traveller",
    "fractions",
    "sqlite3",
    "json",
    "gzip",
    "handrec.events.checks_tags",
    "handrec.events.checks_tables",
    "handrec.events.claims",
    "handrec.events.report",
    "handrec.events.rubber_chicago",
    "handrec.scoring.rubber",
    "handrec.scoring.minibridge",
    "multiprocessing",
    "concurrent.futures.process",
)


def _loaded_after(args: list[str], modules: tuple[str, ...] = HEAVY) -> tuple[int, list[str], str]:
    """Run ``handrec ARGS`` in a fresh interpreter: its exit status (1, errors found, counts as 0),
    the ``modules`` (default HEAVY) it left in ``sys.modules`` and its output."""
    # json is not imported here: it is one of the modules looked for
    code = (
        "import sys\n"
        "heavy = sys.argv[1].split(',')\n"
        "sys.argv = ['handrec', *sys.argv[2:]]\n"
        "from handrec.cli import main\n"
        "status = 0\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as e:\n"
        "    status = e.code or 0\n"
        "sys.stdout.flush()\n"
        "print('\\nLOADED:' + ','.join(m for m in heavy if m in sys.modules))\n"
        "sys.exit(0 if status in (0, 1) else status)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run(
        [sys.executable, "-c", code, ",".join(modules), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    last = out.stdout.rstrip().rsplit("\n", 1)[-1]
    assert last.startswith("LOADED:"), out.stderr
    return out.returncode, [m for m in last.removeprefix("LOADED:").split(",") if m], out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "sample_data/club_pairs.pbn"],
        ["validate", "sample_data/bbo_hands.lin"],
        ["--help"],
        ["codes"],
        ["codes", "S601"],
    ],
    ids=" ".join,
)
def test_quick_commands_import_no_heavy_library(args: list[str]) -> None:
    status, loaded, stdout = _loaded_after(args)
    assert status == 0
    assert loaded == []
    if args[0] == "validate":  # the command did its work: the summary line is there
        assert " boards, " in stdout


@pytest.mark.parametrize("path", ["sample_data/club_pairs.pbn", "sample_data/bbo_hands.lin"])
def test_validate_imports_what_the_file_needs(path: str) -> None:
    status, loaded, stdout = _loaded_after(["validate", path], VALIDATE_LAZY)
    assert status == 0
    assert loaded == []
    assert " boards, " in stdout


def test_a_file_with_claims_imports_their_checks(tmp_path: Path) -> None:
    # the check of the lazy imports sees them: the same file with a ScoreMP claim
    text = (ROOT / "sample_data" / "club_pairs.pbn").read_text(encoding="utf-8")
    claimed = tmp_path / "claimed.pbn"
    claimed.write_text(text.replace('[Board "1"]', '[Board "1"]\n[ScoreMP "NS 1"]', 1), encoding="utf-8")
    status, loaded, stdout = _loaded_after(["validate", str(claimed)], VALIDATE_LAZY)
    assert status == 0
    assert {"handrec.events.checks_tags", "handrec.events.claims"} <= set(loaded)
    assert "multiprocessing" not in loaded  # read in one process
    doubled = tmp_path / "doubled.pbn"
    doubled.write_text(text + "\n" + text, encoding="utf-8")  # every board played twice
    status, loaded, stdout = _loaded_after(["validate", "--format", "json", str(doubled)], VALIDATE_LAZY)
    assert status == 0
    assert {"handrec.events.travellers", "json"} <= set(loaded)
    assert '"boards": 16' in stdout


def test_the_check_sees_a_heavy_import() -> None:
    # handrec schema prints the Parquet schema from pyarrow: the wrapper must report it.
    status, loaded, _ = _loaded_after(["schema"])
    assert status == 0
    assert "pyarrow" in loaded


def test_lalr_parser_caches_the_grammar_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handrec._resources import grammar_text
    from handrec.formats._lark import lalr_parser
    from handrec.formats.lin.records import _LinTransformer, _TokenListLexer

    monkeypatch.setenv("HANDREC_LARK_CACHE", str(tmp_path / "lark"))
    options = {"lexer": _TokenListLexer, "transformer": _LinTransformer(), "start": "record"}
    built = lalr_parser(grammar_text("lin"), **options)
    files = sorted(p.name for p in (tmp_path / "lark").iterdir())
    assert len(files) == 1 and files[0].startswith("lalr-") and files[0].endswith(".cache")  # no temporary left
    loaded = lalr_parser(grammar_text("lin"), **options)
    assert sorted(p.name for p in (tmp_path / "lark").iterdir()) == files
    assert [t.name for t in loaded.terminals] == [t.name for t in built.terminals]
    assert loaded.lexer_conf.ignore == built.lexer_conf.ignore
    # a damaged file is rebuilt, not trusted
    (tmp_path / "lark" / files[0]).write_bytes(b"garbage\n")
    again = lalr_parser(grammar_text("lin"), **options)
    assert [t.name for t in again.terminals] == [t.name for t in built.terminals]


def test_no_lark_cache_where_it_is_not_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handrec.formats._lark import lark_cache_dir

    monkeypatch.setenv("HANDREC_LARK_CACHE", "")
    assert lark_cache_dir() is None
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # writable by others: its pickles are not loaded
    monkeypatch.setenv("HANDREC_LARK_CACHE", str(shared))
    assert lark_cache_dir() is None
    blocked = tmp_path / "file"
    blocked.write_text("x")
    monkeypatch.setenv("HANDREC_LARK_CACHE", str(blocked / "lark"))  # cannot be made
    assert lark_cache_dir() is None
    monkeypatch.setenv("HANDREC_LARK_CACHE", str(tmp_path / "mine"))
    assert lark_cache_dir() == tmp_path / "mine"


def test_imports_without_gc_leaves_the_collector_as_it_was() -> None:
    import gc

    from handrec.cli.startup import imports_without_gc

    assert gc.isenabled()
    try:
        with imports_without_gc("handrec.no_such_module_yet"):  # a block that imports it: paused
            assert not gc.isenabled()
        assert gc.isenabled()
        with imports_without_gc("handrec.cli"):  # imported already: nothing changes
            assert gc.isenabled()
        gc.disable()
        with imports_without_gc("handrec.no_such_module_yet"):
            assert not gc.isenabled()
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()
        gc.unfreeze()
