"""Locate the packaged grammars and templates through importlib.resources.

In the source tree the folders are the top-level ``grammars/`` and
``templates/``; in a wheel they are installed as the packages
``handrec.grammars`` and ``handrec.templates`` (see pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["grammar_text", "templates_dir"]

_ROOT = Path(__file__).resolve().parent.parent


def _folder(package: str, fallback: str) -> Path:
    # A source checkout (pyproject.toml beside the package) uses its own folders: an
    # editable install of another checkout maps ``handrec.templates`` to that one's.
    own = _ROOT / fallback
    if (_ROOT / "pyproject.toml").is_file() and own.is_dir():
        return own
    from importlib import resources  # here: a source checkout needs none (start-up, #23 item 4)

    try:
        p = resources.files(package)
        if p.is_dir():
            return Path(str(p))
    except ModuleNotFoundError:
        pass
    return _ROOT / fallback


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``.

    :raises FileNotFoundError: if the grammar is not installed.
    """
    return (_folder("handrec.grammars", "grammars") / f"{name}.lark").read_text(encoding="utf-8")


def templates_dir() -> Path:
    """The folder that holds the Jinja2 templates."""
    return _folder("handrec.templates", "templates")
