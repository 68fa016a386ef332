"""The terminal capture of the progress bar in the README (rerun after changing the bar).

    .venv/bin/python docs/progress_capture.py              # writes docs/images/progress.txt
    .venv/bin/python docs/progress_capture.py --boards 2000 --out /tmp/progress.txt

Generates a PBN file (``handrec generate``) in a temporary folder, runs ``handrec
convert`` on it with standard error on a pseudo-terminal 100 columns wide (the bar
is drawn only on a terminal), and saves the bar's final frame, as plain text without
colours, and the summary line after it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A terminal's control sequences: colours, cursor moves, line erasing.
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _on_terminal(args: list[str], columns: int) -> str:
    """Run ``python -m handrec.cli ARGS`` with stdout and stderr on a pseudo-terminal; what it showed."""
    env = dict(os.environ, COLUMNS=str(columns), LINES="30", TERM="xterm", PYTHONPATH=str(ROOT))
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "handrec.cli", *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    if proc.wait() != 0:
        raise SystemExit(f"handrec {' '.join(args)} failed:\n{shown.decode(errors='replace')}")
    return shown.decode()


def capture(boards: int, columns: int = 100) -> str:
    """The final frame of ``handrec convert``'s bar on a file of ``boards`` boards, and the summary."""
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "club.pbn"
        _on_terminal(["generate", "-n", str(boards), "--quiet", "-o", str(f)], columns)
        shown = _on_terminal(["convert", "--jobs", "1", str(f), "-o", str(Path(tmp) / "ds")], columns)
    frames = [_CONTROL.sub("", f).strip() for f in re.split(r"[\r\n]", shown)]
    bar = [f for f in frames if "boards/s" in f]
    summary = [f for f in frames if f.endswith("-> " + str(Path(tmp) / "ds"))]
    if not bar or not summary:
        raise SystemExit(f"no bar or summary in:\n{shown}")
    tidy = summary[-1].replace(str(Path(tmp) / "ds"), "ds")
    return f"$ handrec convert club.pbn -o ds\n{bar[-1]}\n{tidy}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20_000, help="Boards in the generated file (default 20,000).")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "progress.txt")
    a = ap.parse_args()
    text = capture(a.boards)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
