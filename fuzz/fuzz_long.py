"""Long fuzz run: the property tests of ``tests/hostile/test_fuzz.py`` round after round until a time limit.

Each round runs every property with ``--examples`` new random examples
(hypothesis, fresh seeds; failing examples are kept in ``.hypothesis/``
and replayed first next time).  A failure is printed with its minimal
input and saved under ``fuzz/crashes/``; the run goes on with the other
properties.  Exit status 1 if anything failed.

    .venv/bin/python fuzz/fuzz_long.py --minutes 30
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="stop starting new rounds after this long")
    ap.add_argument("--examples", type=int, default=2000, help="examples per property per round")
    ap.add_argument("--crashes", type=Path, default=ROOT / "fuzz" / "crashes", help="where failures are saved")
    args = ap.parse_args()
    os.environ["HANDREC_FUZZ_EXAMPLES"] = str(args.examples)  # read when test_fuzz is imported
    sys.path.insert(0, str(ROOT / "tests"))
    from hostile import test_fuzz

    props = [
        test_fuzz.test_mutated_generated_boards,
        test_fuzz.test_random_bytes,
        test_fuzz.test_random_bridge_like_text,
        test_fuzz.test_generated_boards_in_other_encodings,
        test_fuzz.test_tiny_line_limit_never_loses_track,
    ]
    if test_fuzz.CORPUS:
        props.insert(0, test_fuzz.test_mutated_corpus_files)
    else:
        print("../shared/corpus not found: real files are not fuzzed", file=sys.stderr)
    deadline = time.monotonic() + args.minutes * 60
    failures: dict[str, str] = {}
    rounds = 0
    started = time.monotonic()
    while time.monotonic() < deadline:
        rounds += 1
        for prop in props:
            if prop.__name__ in failures or time.monotonic() >= deadline:
                continue  # a failing property keeps failing: the others go on
            try:
                prop()
            except Exception:
                text = traceback.format_exc()
                failures[prop.__name__] = text
                args.crashes.mkdir(parents=True, exist_ok=True)
                out = args.crashes / f"{prop.__name__}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
                out.write_text(text, encoding="utf-8")
                print(f"FAILED {prop.__name__} (saved in {out}):\n{text}", file=sys.stderr, flush=True)
        elapsed = time.monotonic() - started
        print(f"round {rounds} done after {elapsed / 60:.1f} min, {len(failures)} failing", flush=True)
    examples = rounds * args.examples
    print(
        f"{rounds} rounds, up to {examples} examples per property, {len(failures)} properties failed: "
        f"{', '.join(failures) or 'none'}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
