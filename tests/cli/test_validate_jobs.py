"""``handrec validate --jobs N``: the same bytes as ``--jobs 1`` (stdout, stderr, exit status) in every case.

The runs with two jobs are made to use the pool and to split PBN and LIN
files into many parts even for small files (``handrec.runs.parts.POOL_BYTES``,
``PART_BYTES``, ``PARTS_PER_JOB``, ``LIN_PART_BYTES`` patched), and check that they did.
"""

from __future__ import annotations

import dataclasses
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import handrec.runs.parts as vp
import handrec.runs.pool
import handrec.runs.validate as vr
from handrec.cli import app
from handrec.formats.lin.writer import dump as lin_dump
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.model import Tag

from ._jobs import both, same_output

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

#: Real files of the corpus without ``"#`` (split): big and small, CR LF, Latin-1, UTF-8, score tables, end positions.
CORPUS_PBN = [
    "dealer_v2_500_deals_1N.pbn",
    "pbntools_kops_board01_lowercase_x.pbn",
    "camrose2024_handrecords_bridgecomposer_dd.pbn",
    "bigdeal_v12_ability_minimax_crlf.pbn",
    "pbntools_polish_kops_latin1_travellers.pbn",
    "bridgecomposer_quiz_fragments_utf8.pbn",
    "bridgecomposer_exercises_endpositions_empty_scoretable.pbn",
    "bridgecomposer_club_handrecord_dd_crlf.pbn",
]


def damaged_pbn(games: int, seed: int) -> bytes:
    """A generated pairs session (4 tables a board) with faults of every kind injected, as bytes.

    Board faults (C504 result, S601 score, F003 syntax, S603 ScoreMP claim,
    T120 unknown tag: --strict), file faults (F013 with a small
    --max-line-size, F021 long line and F020 tabs in an export file, F002 a
    Latin-1 byte, F005 a comment still open at the end).
    """
    buf = io.StringIO()
    dump(generate_boards(games, seed=seed, tables=4), buf)
    blocks = buf.getvalue().replace("\r\n", "\n").split("\n\n")
    out = []
    for i, g in enumerate(blocks):
        if i % 37 == 5:
            g = g.replace('[Result "', '[Result "1', 1)
        if i % 41 == 7:
            g = g.replace('[Score "NS ', '[Score "NS 1', 1)
        if i % 53 == 9:
            g = g.replace("[Deal ", "[Deal x ", 1)
        if i % 59 == 11:
            g = g.replace('[Board "', '[ScoreMP "NS 7"]\n[Board "', 1)
        if i % 61 == 13:
            g = g.replace("[Site ", "[Sitex ", 1)
        if i % 67 == 17:
            g += "\n; " + "x" * 5000
        if i % 71 == 19:
            g = g.replace("[Play", "\t[Play", 1)
        out.append(g)
    data = ("\n\n".join(out) + "\n\n\t\n{ open comment at the end\n").encode()
    mid = data.index(b"[Event", len(data) // 2)
    return data[:mid] + b"; caf\xe9\n" + data[mid:]


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    """Pools started and files split, as seen by the parent process."""
    seen: dict[str, list] = {"pools": [], "parts": []}
    start, bounds = handrec.runs.pool.start_pool, vp._part_bounds

    def start_pool(jobs: int):
        seen["pools"].append(jobs)
        return start(jobs)

    def part_bounds(inp, jobs, part_bytes, first_bytes=None):
        parts = bounds(inp, jobs, part_bytes, first_bytes)
        seen["parts"].append((Path(inp.path).name, None if parts is None else len(parts)))
        return parts

    monkeypatch.setattr(handrec.runs.pool, "start_pool", start_pool)
    monkeypatch.setattr(vp, "_part_bounds", part_bounds)
    return seen


@pytest.mark.parametrize("name", CORPUS_PBN)
def test_corpus_pbn_file_same_output_split_in_parts(
    corpus_dir: Path, name: str, monkeypatch: pytest.MonkeyPatch, spy: dict
) -> None:
    path = corpus_dir / "pbn" / name
    size = path.stat().st_size
    for fmt in ("text", "json"):
        one, two = both(monkeypatch, ["--format", fmt, "--info", "--strict", path], part_bytes=max(size // 5, 1))
        assert two == one
    summary = json.loads(one[0])
    assert summary["files"] == 1 and summary["boards"] > 0
    assert spy["pools"] == [2, 2]
    assert spy["parts"][0] == (name, 6)  # about size / 5 a part: 5 or 6, rounded up to a multiple of the jobs


def test_corpus_folders_same_output(corpus_dir: Path, monkeypatch: pytest.MonkeyPatch, spy: dict) -> None:
    """Both folders of the corpus: PBN files whole or in parts, ``"#`` files whole, LIN files (all small) whole."""
    pbn, lin = corpus_dir / "pbn", corpus_dir / "lin"
    for args in ([], ["--format", "json"], ["--strict", "--info"], ["--max-errors", "5"]):
        one, two = both(monkeypatch, [*args, pbn, lin], part_bytes=30_000)
        assert two == one
    doc = json.loads(both(monkeypatch, ["--format", "json", pbn, lin])[1][0])
    assert doc["files"] == len(list(pbn.iterdir())) + len(list(lin.iterdir()))
    split = {name for name, n in spy["parts"] if n}
    assert "dealer_v2_500_deals_1N.pbn" in split
    assert "pbn20_reference_score_tables.pbn" not in split  # holds "#
    assert all(n is None for name, n in spy["parts"] if name.endswith(".lin"))


def test_generated_damaged_file_in_many_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: dict) -> None:
    f = tmp_path / "damaged.pbn"
    f.write_bytes(damaged_pbn(600, seed=3))
    cases = [
        [],
        ["--format", "json"],
        ["--strict", "--info"],
        ["--no-warnings", "--max-line-size", "4K"],
        ["--max-errors", "3"],
        ["--format", "json", "--max-errors", "3", "--info"],
        ["--fail-fast", "--max-line-size", "4K"],
        ["--max-errors", "40", "--strict"],
    ]
    runs = same_output(monkeypatch, f, cases)
    parts = -(-f.stat().st_size // 20_000)
    assert spy["parts"][1] == ("damaged.pbn", parts + parts % 2)  # parts of 20 kB, an even number of them
    assert parts > 15
    out, err, status = runs[("--strict", "--info")]
    codes = {line.split(": ")[1].split()[0] for line in out.splitlines()[:-1]}
    assert {"C504", "S601", "F003", "S603", "T120", "F002", "F005", "F020", "F021"} <= codes
    assert out.splitlines()[-1].startswith("1 files, 600 boards, ")
    assert status == 1
    out, err, status = runs[("--max-errors", "3")]
    shown = len([x for x in out.splitlines() if " error: " in x])
    assert shown in (3, 4)  # the board that brings the errors to 3 is reported whole
    assert err == f"handrec: stopped after {shown} errors (--max-errors 3)\n"
    assert int(out.splitlines()[-1].split()[2]) < 600  # stopped part-way through the file
    doc = json.loads(runs[("--format", "json", "--max-errors", "3", "--info")][0])
    assert doc["stopped"] is True and doc["errors"] == shown
    assert any(d["board_number"] is not None for d in doc["diagnostics"])
    out, err, status = runs[("--no-warnings", "--max-line-size", "4K")]
    assert status == 2  # F013: lines not read whole
    assert "F013 error" in out
    out, err, status = runs[("--fail-fast", "--max-line-size", "4K")]
    assert status == 1  # stopped at the first error, before the reading met a long line
    assert "F013" not in out and len(out.splitlines()) == 2


def test_last_game_over_several_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: dict) -> None:
    """Parts that start past the last game: what the parser finds after it is reported once."""
    buf = io.StringIO()
    dump(generate_boards(40, seed=5), buf)
    text = buf.getvalue().rstrip("\r\n") + "\r\n{" + "long comment line\r\n" * 3000 + "}\r\n\r\n\t\r\n \r\n"
    f = tmp_path / "tail.pbn"
    f.write_bytes(text.encode())
    one, two = both(monkeypatch, ["--info", f], part_bytes=8_000)
    assert two == one
    assert spy["parts"][0][1] >= 10
    assert len([x for x in one[0].splitlines() if "F020" in x]) == 3  # a tab, two separator lines: once each


def test_hash_inheritance_files_are_not_split_lin_files_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: dict
) -> None:
    data = damaged_pbn(200, seed=4).replace(b'[Site "Generated"]', b'[Site "#"]')
    assert data.count(b'"#') > 100
    f = tmp_path / "inherit.pbn"
    f.write_bytes(data)
    g = tmp_path / "plain.pbn"
    g.write_bytes(damaged_pbn(200, seed=5))
    h = tmp_path / "games.lin"
    with open(h, "w", encoding="utf-8", newline="") as out:
        lin_dump(generate_boards(150, seed=6), out)
    h.write_text(h.read_text().replace("|mb|1S|", "|mb|1C|", 5))  # A301 faults
    one, two = both(monkeypatch, ["--strict", f, g, h])
    assert two == one
    parts = -(-g.stat().st_size // 20_000)
    lin_parts = -(-h.stat().st_size // 40_000) * 2  # parts of 20 kB, as many for each of the two workers
    assert lin_parts >= 4
    assert dict(spy["parts"]) == {"inherit.pbn": None, "plain.pbn": parts + parts % 2, "games.lin": lin_parts}
    assert spy["pools"] == [2]
    assert "3 files, 550 boards" in one[0]
    assert one[0].count("games.lin:") == 4  # the A301 faults, in whichever part they are


#: The LIN files of the corpus: a record a line, vugraph segments, CR LF, a hand-viewer URL.
CORPUS_LIN = [
    "bbo_multi_board_one_per_line.lin",
    "dealconvert_vugraph_handrecord_crlf.lin",
    "bbo_handviewer_url_encoded.txt",
    "bbo_single_board_long_explanations.lin",
    "bbo_tourney_slam_claim_after_trick6.lin",
]


@pytest.mark.parametrize("name", CORPUS_LIN)
def test_corpus_lin_file_same_output_split_in_parts(
    corpus_dir: Path, name: str, monkeypatch: pytest.MonkeyPatch, spy: dict
) -> None:
    path = corpus_dir / "lin" / name
    size = path.stat().st_size
    for fmt in ("text", "json"):
        one, two = both(monkeypatch, ["--format", fmt, "--info", "--strict", path], part_bytes=max(size // 5, 1))
        assert two == one
    summary = json.loads(one[0])
    assert summary["files"] == 1 and summary["boards"] > 0
    assert spy["pools"] == [2, 2]
    assert spy["parts"][0] == (name, 6)  # size / (2 x size // 5): 3 parts a worker


def damaged_lin(records: int, seed: int) -> bytes:
    """Generated LIN records (a record a line, framed by ``md``) and vugraph matches (``vg``
    headers, ``qx`` tables, ``rs`` results), with faults of every kind injected, as bytes.

    Board faults (A301 call, C506 ``rs`` against the table, F003 junk, F011 stray pipe,
    F016 a record over --max-board-size 8K, T102 a repeated pair), file faults (F003
    junk and F007 an unknown command in a header: --strict, T101 a bad ``rs`` entry,
    F013 with --max-line-size 4K, F002 a Latin-1 byte, F017 a ``pn`` after the last deal).
    ``records`` records in all (even).
    """
    lines = []
    buf = io.StringIO()
    lin_dump(generate_boards(records // 2 - 2, seed=seed), buf)
    for i, line in enumerate(buf.getvalue().splitlines()):
        if i % 37 == 5:
            line = line.replace("|mb|1S|", "|mb|1C|", 1).replace("|mb|2H|", "|mb|1C|", 1)
        if i % 41 == 7:
            line += "\njunk between records"
        if i % 43 == 9:
            line = line.replace("|sv|", "||sv|", 1)
        if i % 47 == 11:
            line = line.replace("|sv|", "|sv|o|sv|", 1)
        if i % 97 == 13:
            line += "nt|" + "x" * 9000 + "|"
        lines.append(line)
    tables = []
    for i, b in enumerate(generate_boards(records // 2, seed=seed + 1, tables=2)):
        keep = tuple(t for t in b.tags if t.name not in ("Event", "Room"))
        more = (Tag("Event", f"Match {i // 40}"), Tag("Room", "Open" if i % 2 == 0 else "Closed"))
        tables.append(dataclasses.replace(b, tags=keep + more))
    buf = io.StringIO()
    lin_dump(tables, buf)
    for i, line in enumerate(buf.getvalue().splitlines()):
        if line.startswith("rs|") and i % 3 == 1:
            line = line.replace("rs|", "rs|4SS=,bad,", 1)  # a bad entry, the others shifted: C506
        elif line.startswith("pn|") and i % 2 == 0:
            line += "zz|unknown|header junk"
        lines.append(line)
    # a last match of two records framed by md (no qx), and players for a record that never comes
    lines += ["vg|Last,,P,1,2,H,0,V,0|" + lines[0], lines[1], "pn|a,b,c,d|"]
    data = "\n".join(lines).encode()
    mid = data.index(b"qx|", len(data) // 2)
    return data[:mid] + b"nt|caf\xe9|" + data[mid:]


def test_generated_damaged_lin_file_in_many_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: dict) -> None:
    f = tmp_path / "damaged.lin"
    f.write_bytes(damaged_lin(600, seed=3))
    cases = [
        [],
        ["--format", "json"],
        ["--strict", "--info"],
        ["--no-warnings", "--max-line-size", "4K"],
        ["--max-board-size", "8K", "--info"],
        ["--max-errors", "3"],
        ["--format", "json", "--max-errors", "3", "--info"],
        ["--fail-fast", "--max-line-size", "4K"],
        ["--max-errors", "200", "--strict"],
    ]
    runs = same_output(monkeypatch, f, cases)
    parts = -(-f.stat().st_size // 40_000) * 2
    assert spy["parts"][1] == ("damaged.lin", parts)  # parts of 20 kB, as many for each worker
    assert parts > 12
    out, err, status = runs[("--strict", "--info")]
    codes = {line.split(": ")[1].split()[0] for line in out.splitlines()[:-1]}
    assert {"A301", "C506", "F003", "F011", "T102", "T101", "F007", "F002", "F017"} <= codes
    assert out.splitlines()[-1].startswith("1 files, 600 boards, ")
    assert status == 1
    out, err, status = runs[("--max-board-size", "8K", "--info")]
    assert "F016 error" in out and status == 2  # a record not read
    out, err, status = runs[("--max-errors", "3")]
    shown = len([x for x in out.splitlines() if " error: " in x])
    assert shown in (3, 4)  # the board that brings the errors to 3 is reported whole
    assert err == f"handrec: stopped after {shown} errors (--max-errors 3)\n"
    assert int(out.splitlines()[-1].split()[2]) < 600  # stopped part-way through the file
    doc = json.loads(runs[("--format", "json", "--max-errors", "3", "--info")][0])
    assert doc["stopped"] is True and doc["errors"] == shown
    out, err, status = runs[("--no-warnings", "--max-line-size", "4K")]
    assert status == 2 and "F013 error" in out  # lines not read whole
    out, err, status = runs[("--max-errors", "200", "--strict")]
    assert err == "" or "stopped after" in err
    assert len(out.splitlines()) > 100


def test_stdin_archives_and_unreadable_inputs(
    corpus_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: dict
) -> None:
    z = tmp_path / "corpus.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted((corpus_dir / "pbn").iterdir())[:12]:
            zf.write(p, f"pbn/{p.name}")
    t = tmp_path / "corpus.tar.gz"
    with tarfile.open(t, "w:gz") as tf:
        tf.add(corpus_dir / "lin", arcname="lin")
    bad = tmp_path / "notes.txt"
    bad.write_text("just some text\n")
    big = tmp_path / "big.pbn"
    big.write_bytes(damaged_pbn(200, seed=6))
    stdin = damaged_pbn(40, seed=7)
    paths = ["-", z, tmp_path / "missing.pbn", bad, t, big]
    runs = {}
    for args in ([], ["--format", "json", "--info"], ["--max-errors", "9"]):
        one, two = both(monkeypatch, [*args, *paths], stdin=stdin)
        assert two == one, args
        runs[tuple(args)] = one
    assert spy["pools"] == [2, 2, 2]
    out, err, status = runs[()]
    assert status == 2
    assert f"{tmp_path / 'missing.pbn'}: F001 error" in out
    assert "<stdin>:" in out and "corpus.zip!pbn/" in out


def test_small_run_uses_no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(jobs: int):
        raise AssertionError("a pool was started")

    monkeypatch.setattr(handrec.runs.pool, "start_pool", no_pool)
    r = runner.invoke(app, ["validate", "--jobs", "2", str(ROOT / "sample_data")])
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == "3 files, 44 boards, 3 errors, 0 warnings"


def test_dd_reads_in_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("endplay")
    f = tmp_path / "damaged.pbn"
    f.write_bytes(damaged_pbn(100, seed=8))

    def no_pool(jobs: int):
        raise AssertionError("a pool was started")

    monkeypatch.setattr(handrec.runs.pool, "start_pool", no_pool)
    monkeypatch.setattr(vp, "POOL_BYTES", 0)
    monkeypatch.setattr(vp, "PART_BYTES", 10_000)
    r1 = runner.invoke(app, ["validate", "--dd", "--jobs", "1", str(f)])
    r2 = runner.invoke(app, ["validate", "--dd", "--jobs", "2", str(f)])
    assert (r2.stdout, r2.exit_code) == (r1.stdout, r1.exit_code)
    assert r1.stdout.splitlines()[-1].startswith("1 files, 100 boards, ")


def test_a_worker_that_dies_is_reported_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed (out of memory, say) breaks the pool: one line on stderr, exit 2, no traceback."""
    from concurrent.futures.process import BrokenProcessPool

    def broken(*args: object, **kwargs: object):
        yield from ()
        raise BrokenProcessPool("A child process terminated abruptly")

    monkeypatch.setattr(vr, "validate_paths", broken)
    p = tmp_path / "x.pbn"
    p.write_text('[Board "1"]\n')
    r = CliRunner().invoke(app, ["validate", "-j", "2", str(p)])
    assert r.exit_code == 2
    assert r.stderr == "handrec: a worker process stopped unexpectedly (killed, or out of memory?); try --jobs 1\n"
    assert "Traceback" not in r.output


def test_pool_workers_ignore_ctrl_c() -> None:
    """Ctrl-C reaches the whole process group: the workers ignore it and the parent stops the
    run (else every idle worker prints a KeyboardInterrupt traceback)."""
    import signal

    ex = handrec.runs.pool.start_pool(2)
    try:
        got = {ex.submit(signal.getsignal, signal.SIGINT).result() for _ in range(4)}
    finally:
        ex.shutdown()
    assert got == {signal.SIG_IGN}
