"""The generated regions of docs/ are what ``python -m handrec.cli.docs_gen`` writes now: a page
never lists a code, a column, an option or a module that is not the code's."""

from __future__ import annotations

from pathlib import Path

import pytest

from handrec.cli import docs_gen
from handrec.dataset.query import VIEWS
from handrec.dataset.schema import describe
from handrec.diagnostics import CODES

ROOT = Path(__file__).resolve().parents[2]
PAGES = docs_gen.pages(ROOT / "docs")
COMMAND = "python -m handrec.cli.docs_gen"


def test_the_generated_pages_are_found() -> None:
    names = {p.relative_to(ROOT / "docs").as_posix() for p in PAGES}
    assert {"diagnostics.md", "sql.md", "architecture.md", "commands/validate.md", "commands/codes.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_generated_page_is_up_to_date(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert docs_gen.regenerate(text) == text, (
        f"{page.relative_to(ROOT)} is out of date: run `{COMMAND}` and commit the result"
    )


def test_every_code_is_on_the_diagnostics_page() -> None:
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    for c in CODES.values():
        assert f"### {c.code}: " in text
    entry = text[text.index("### S601: ") :].split("\n### ", 1)[0]
    assert entry.splitlines() == [
        "### S601: score disagrees",
        "",
        "**error**. Source: Law 77; bridge-rules.md §4.",
        "",
        "The Score tag must be the duplicate score of the contract, declarer, vulnerability and tricks.",
        "",
        "- message: `Score {value} but {contract} by {declarer} taking {tricks} tricks scores {expected}`",
        "- example: `S601 error: Score NS 470 but 2SX by S taking 10 tricks scores NS 670`",
    ]


def test_every_column_is_on_the_sql_page() -> None:
    text = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    assert (
        "| `score_ns` | INTEGER | North-South's duplicate score computed by handrec (0 when passed out; Law 77). |"
        in text
    )
    for r in describe():
        section = text[text.index(f"\n### {r.name}\n") :].split("\n### ", 2)[1]
        assert [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")] == [
            c.name for c in r.columns
        ]


def test_every_view_column_has_a_description() -> None:
    views = {r.name: r for r in describe() if r.kind == "view"}
    assert set(views) == set(VIEWS)
    for name, r in views.items():
        assert [c.name for c in r.columns] == list(VIEWS[name]), name  # described in the view's order
        assert all(c.description for c in r.columns)


def test_a_stale_region_is_rewritten() -> None:
    page = "# x\n\n<!-- BEGIN GENERATED options codes -->\nold text\n<!-- END GENERATED options codes -->\n"
    new = docs_gen.regenerate(page)
    assert "old text" not in new
    assert "- `CODE`: A diagnostic code (A301, S601...) to explain." in new
    assert docs_gen.regenerate(new) == new


def test_the_architecture_page_lists_every_package(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "handrec").rglob("__init__.py"))
    for package in packages:
        if package != "handrec":
            assert f"| `{package}/` | " in text, package
    assert (
        "| `handrec/formats/pbn/` | PBN (Portable Bridge Notation 2.1): the reader, the tag value grammar and the writer. |"
        in text
    )
