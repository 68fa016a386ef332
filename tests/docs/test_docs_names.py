"""Every Python name the documentation gives in code (``handrec.rules.replay.replay``,
``handrec.formats.lin.writer.dump``...) exists: a module that moves breaks this test, not a
reader's trust in the pages."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: Names in the pages that are not Python: the keys of the Parquet files' metadata.
NOT_PYTHON = {"handrec.schema_version", "handrec.version", "handrec.run"}
_NAME = re.compile(r"`(handrec(?:\.\w+)+)(?:\([^`]*\))?`")


def names(text: str) -> set[str]:
    """The dotted ``handrec...`` names in code spans of ``text`` (a call's arguments dropped)."""
    return {m.group(1) for m in _NAME.finditer(text)} - NOT_PYTHON


def resolve(name: str) -> object:
    """The object ``name`` designates: the longest importable module prefix, then attributes."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def test_names_are_found() -> None:
    assert names("see `handrec.read(path)` and `handrec.rules.replay.replay`") == {
        "handrec.read",
        "handrec.rules.replay.replay",
    }
    with pytest.raises(AttributeError):
        resolve("handrec.rules.replay.no_such_function")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_name_in_the_page_exists(page: Path) -> None:
    missing = []
    for name in sorted(names(page.read_text(encoding="utf-8"))):
        try:
            resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == [], f"{page.relative_to(ROOT)} names what handrec does not have"
