"""A real browser for the site's tests: Debian's Chromium (``/usr/bin/chromium``) driven by
Playwright for Python, launched off the network (Playwright never downloads a browser here).

Without chromium or playwright the tests skip and say why; under CI (``CI=true``) they fail
instead, since .ci/run installs both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Debian's chromium; HANDREC_CHROMIUM names another build of Chromium (never a downloaded one here).
CHROMIUM = Path(os.environ.get("HANDREC_CHROMIUM", "/usr/bin/chromium"))
#: Chromium kept quiet: no update checks, sync, background requests or first-run pages, so that
#: every request a page makes is the page's own (the tests record them).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _unavailable() -> str | None:
    if not CHROMIUM.exists():
        return f"no browser: {CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no browser driver: playwright is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (skipped, or failed under CI, when missing)."""
    why = _unavailable()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run under CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class Recorder:
    """Every request the pages of one browser context make (``urls``) and every dialog
    (``alert()``...) they open (``dialogs``)."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []


@pytest.fixture
def recorded(browser: Any) -> Iterator[tuple[Any, Recorder]]:
    """A fresh page (desktop width) with its requests, dialogs and script errors recorded."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    rec = Recorder()
    ctx.on("request", lambda r: rec.urls.append(r.url))
    page = ctx.new_page()

    def on_dialog(d: Any) -> None:
        rec.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: rec.errors.append(str(e)))
    try:
        yield page, rec
    finally:
        ctx.close()
