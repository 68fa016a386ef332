"""Screenshots of the results website for docs/site.md (rerun after changing the site's look).

    .venv/bin/python docs/site_screenshots.py            # writes docs/images/site-*.png
    .venv/bin/python docs/site_screenshots.py --out /tmp # somewhere else

Builds the site of sample_data/club_session.pbn with ``handrec site`` in a temporary
folder, opens a board page and a score card in Debian's Chromium (``apt-get install
chromium``; Playwright drives it, ``pip install playwright``: no browser download) and
saves each at a phone width (with ``--dd`` when endplay is installed) (390 px) and a desktop width (1280 px), full page.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
#: Chromium kept off the network (no updates, sync or background requests), as the tests launch it.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
PAGES = {"board": "s1/board-2.html", "card": "s1/pair-1.html"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="Folder for the PNG files.")
    ap.add_argument("--input", type=Path, default=ROOT / "sample_data" / "club_session.pbn")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        handrec = Path(sys.executable).with_name("handrec")
        from handrec.dd.solver import solver_available

        dd = ["--dd"] if solver_available() else []  # the double-dummy grid and par, when endplay is there
        subprocess.run([str(handrec), "site", str(args.input), "-o", str(site), *dd], check=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for width_name, (w, h) in WIDTHS.items():
                ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
                page = ctx.new_page()
                for page_name, rel in PAGES.items():
                    page.goto((site / rel).as_uri())
                    page.wait_for_load_state("load")
                    target = args.out / f"site-{page_name}-{width_name}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
                ctx.close()
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
