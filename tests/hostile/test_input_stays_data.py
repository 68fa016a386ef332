"""Input stays data: hostile tag values come out of the booklets literally, and SQL cannot reach past the dataset."""

from __future__ import annotations

import io
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from handrec.cli import app

runner = CliRunner()

SCRIPT = "<script>alert(1)</script>"
TYPST = '#import "evil.typ": *'
JINJA = "{{ 7*7 }}"
MORE = "#set page(width: 1cm) $x$ *b* ] \\ @r </td><img src=x onerror=alert(1)>"


def _pbn_string(text: str) -> str:
    """``text`` as a PBN string value (PBN 2.1 §3.3: backslash and quote escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


GAME = (
    f'[Event "{_pbn_string(f"{SCRIPT} {TYPST} {JINJA}")}"]\n'
    f'[Site "{_pbn_string(MORE)}"]\n'
    """[Date "2024.01.01"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"]
"""
)
EXPECTED = [SCRIPT, TYPST, JINJA, MORE]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.add(tag)

    def handle_data(self, data) -> None:
        self.text.append(data)


def _flat(text: str) -> str:
    return "".join(text.split())  # line breaks fall anywhere in a PDF


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    f = tmp_path_factory.mktemp("in") / "hostile.pbn"
    f.write_text(GAME, encoding="utf-8")
    return f


def test_html_booklet_shows_hostile_values_literally(hostile: Path, tmp_path: Path) -> None:
    out = tmp_path / "b.html"
    for args, shown in (([], [SCRIPT, TYPST, JINJA]), (["--title", MORE], [MORE])):  # Event, then --title
        r = runner.invoke(app, ["booklet", str(hostile), "-o", str(out), *args])
        assert r.exit_code == 0, r.output
        page = _Text()
        page.feed(out.read_text(encoding="utf-8"))
        text = _flat(" ".join(page.text))
        for s in shown:
            assert _flat(s) in text, s
        assert "script" not in page.tags and "img" not in page.tags  # never markup
        assert "49" not in text  # never evaluated as a template


def test_pdf_booklet_shows_hostile_values_literally(hostile: Path, tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    r = runner.invoke(app, ["booklet", str(hostile), "-o", str(out)])
    assert r.exit_code == 0, r.output
    (page,) = pypdf.PdfReader(io.BytesIO(out.read_bytes())).pages
    text = _flat(page.extract_text())
    for s in EXPECTED:
        assert _flat(s) in text, s


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory, hostile: Path) -> Path:
    out = tmp_path_factory.mktemp("ds")
    r = runner.invoke(app, ["convert", str(hostile), "-o", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize(
    "sql",
    [
        "INSTALL httpfs",
        "LOAD httpfs",
        "ATTACH '{other}/x.duckdb' AS x",
        "SELECT count(*) FROM read_parquet('{other}/other.parquet')",
        "SELECT count(*) FROM read_parquet('{ds}/../other/other.parquet')",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM glob('/etc/*')",
        "COPY (SELECT * FROM boards) TO '{other}/stolen.csv'",
        "EXPORT DATABASE '{other}/export'",
        "SET enable_external_access = true",
        "SET allowed_directories = ['/']",
        "RESET enable_external_access",
    ],
)
def test_query_cannot_reach_past_the_dataset(dataset: Path, tmp_path: Path, sql: str) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "other.parquet").write_bytes((dataset / "boards.parquet").read_bytes())
    before = sorted(p.name for p in other.iterdir())
    r = runner.invoke(app, ["query", str(dataset), sql.format(other=other, ds=dataset)])
    assert r.exit_code == 2, r.output
    assert "Permission Error" in r.output or "locked" in r.output, r.output
    assert sorted(p.name for p in other.iterdir()) == before


def test_query_with_allow_external_can_read_elsewhere(dataset: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.parquet"
    other.write_bytes((dataset / "boards.parquet").read_bytes())
    r = runner.invoke(
        app, ["query", str(dataset), f"SELECT count(*) n FROM read_parquet('{other}')", "-f", "csv", "--allow-external"]
    )
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["n", "1"]


def test_query_cannot_write_into_the_dataset(dataset: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    ds.mkdir()
    for p in dataset.iterdir():
        (ds / p.name).write_bytes(p.read_bytes())
    before = {p.name: p.read_bytes() for p in ds.iterdir()}
    for sql in (
        f"COPY (SELECT 1) TO '{ds}/new.csv'",
        f"COPY (SELECT * FROM boards LIMIT 0) TO '{ds}/boards.parquet' (FORMAT parquet)",
    ):
        r = runner.invoke(app, ["query", str(ds), sql])
        assert r.exit_code == 2, (sql, r.output)
    assert {p.name: p.read_bytes() for p in ds.iterdir()} == before


@pytest.mark.parametrize("use_db", [False, True])
def test_query_cannot_reach_duckdbs_spill_folder(dataset: Path, tmp_path: Path, monkeypatch, use_db: bool) -> None:
    """Regression: DuckDB allows its temp folder (``./.tmp``) even with external access off."""
    cwd = tmp_path / "cwd"
    (cwd / ".tmp").mkdir(parents=True)
    (cwd / ".tmp" / "secret.txt").write_text("secret")
    monkeypatch.chdir(cwd)
    db = ["--db", str(tmp_path / "q.duckdb")] if use_db else []
    for sql in ("SELECT * FROM read_text('.tmp/secret.txt')", "COPY (SELECT 1) TO '.tmp/written.csv'"):
        r = runner.invoke(app, ["query", str(dataset), sql, *db])
        assert r.exit_code == 2, (sql, r.output)
        assert "Permission Error" in r.output and "secret" not in r.stdout
    assert sorted(p.name for p in (cwd / ".tmp").iterdir()) == ["secret.txt"]
