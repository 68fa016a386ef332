"""Coverage-guided fuzzing of the reader with atheris (``pip install -e '.[fuzz]'``).

Every input is read the way ``validate`` reads a file and checked with
``tests/hostile/fuzzing.py`` (``check``): no exception, every board in
the output, every diagnostic inside the file.  The first byte picks the
file name (``x.pbn``, ``x.lin`` or ``x``: the extension matters only when
the content says nothing).  A failure stops the run and leaves its input
in ``crash-*``::

    mkdir -p fuzz/work
    .venv/bin/python fuzz/fuzz_read.py fuzz/work ../shared/corpus/pbn ../shared/corpus/lin \\
        -max_total_time=1800 -max_len=65536 -timeout=20 -rss_limit_mb=4096

New interesting inputs go to the first folder (``fuzz/work``, not kept in
git); the other folders are only read.  Replay one input:
``.venv/bin/python fuzz/fuzz_read.py crash-...``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports(include=["handrec", "lark", "hostile"]):
    from hostile.fuzzing import check

NAMES = ("x.pbn", "x.lin", "x")


def test_one_input(data: bytes) -> None:
    if not data:
        return
    check(data[1:], NAMES[data[0] % len(NAMES)])


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
