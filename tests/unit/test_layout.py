"""The layout of issue #16: packages by pipeline stage, imports that run one way, small modules.

A module may import from its own layer or a lower one, never from a later stage of the pipeline
(docs/architecture.md).  Imports inside functions count: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2] / "handrec"

#: Lowest first.  ``handrec`` itself (the lazy public API) may import anything.
LAYERS: list[tuple[str, ...]] = [
    ("handrec.model", "handrec._resources"),
    ("handrec.diagnostics",),
    ("handrec.scoring",),
    ("handrec.rules",),
    ("handrec.dd",),
    ("handrec.inputs",),
    ("handrec.formats",),
    ("handrec.events", "handrec.generate"),
    ("handrec.dataset",),
    ("handrec.booklet", "handrec.site"),
    ("handrec.runs",),
    ("handrec.cli", "handrec.__main__"),
]

#: "About 800 lines" (issue #16): past this a module is two modules.
MAX_LINES = 850


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    return None


MODULES = sorted(p for p in ROOT.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)  # from handrec import dd
    return {m for m in out if m == "handrec" or m.startswith("handrec.")}


def test_every_module_has_a_layer() -> None:
    assert [_module(p) for p in MODULES if _layer(_module(p)) is None and _module(p) != "handrec"] == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_imports_run_one_way(path: Path) -> None:
    me = _module(path)
    if me == "handrec":
        return
    mine = _layer(me)
    assert mine is not None
    upward = sorted(m for m in _imports(path) if (layer := _layer(m)) is not None and layer > mine and m != "handrec")
    assert upward == [], f"{me} imports from a later stage: {upward}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module(p))
def test_module_size(path: Path) -> None:
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{_module(path)} has {n} lines: split it by concern"


def test_no_two_modules_share_a_name_across_concerns() -> None:
    # The same name in two places is only for parallel packages of one kind (formats/pbn/reader.py
    # and formats/lin/reader.py), and for handrec/cli, whose modules are named by their command
    # (cli/validate.py wires runs/validate.py); anything else collides (pbn.py beside parse/pbn.py did).
    parallel = {"reader", "writer", "__init__", "__main__"}
    names = Counter(p.stem for p in MODULES if p.stem not in parallel and p.parent.name != "cli")
    assert sorted(n for n, k in names.items() if k > 1) == []


def test_every_package_says_its_job() -> None:
    for init in ROOT.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.parent.name}/__init__.py has no docstring"
