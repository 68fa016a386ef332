"""Shared pytest fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The shared corpus of real PBN and LIN files: ``../shared/corpus`` beside the repository.
CORPUS_DIR = Path(__file__).parents[1].parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus root (``pbn/``, ``lin/``, ``MANIFEST.md``), resolved from the repository root.

    Missing corpus: the test fails under CI (``CI=true``) and is skipped locally.
    """
    if not CORPUS_DIR.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"corpus not found at {CORPUS_DIR} (../shared/corpus)")
        pytest.skip("../shared/corpus not present")
    return CORPUS_DIR.resolve()


@pytest.fixture(autouse=True)
def _no_user_dd_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line caches solved double-dummy tables in ``~/.cache/handrec``: never from a test."""
    if "HANDREC_DD_CACHE" not in os.environ:
        monkeypatch.setenv("HANDREC_DD_CACHE", str(tmp_path_factory.mktemp("dd-cache")))


@pytest.fixture(autouse=True, scope="session")
def _no_user_lark_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The readers cache Lark's analysed grammars in ``~/.cache/handrec/lark``: never from a test
    (set in the environment, so the command lines a test starts inherit it)."""
    if "HANDREC_LARK_CACHE" not in os.environ:
        os.environ["HANDREC_LARK_CACHE"] = str(tmp_path_factory.mktemp("lark-cache"))
