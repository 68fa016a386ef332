"""Mutation fuzzer over the command line: mutated files through validate, convert, query and score.

Each case takes a real corpus file cut to a few boards (or generated boards), applies a few
random mutations (the operations of ``tests/hostile/fuzzing.py``: byte flips, inserted
bridge-like snippets, deleted or duplicated lines, spliced boards, re-encoded lines, cuts,
and terminal escapes and rich markup in tag values), puts it in a folder as a plain file, a
``.gz``, a zip or a tar archive, and runs the commands as a user does.  Checked on every case:

* every command exits with a documented code (0, 1 or 2), never a traceback (a crash is
  an exit code of 1 with an exception, caught here);
* ``validate --format json`` is valid JSON whose counts add up: ``errors`` and ``warnings``
  are the diagnostics of those severities, and ``files`` the statuses;
* ``convert`` writes a dataset whose ``boards`` table holds as many boards as ``validate``
  read, and whose ``diagnostics`` table as many errors and warnings (one counting rule: the
  rows of ``strict`` codes count as neither, as validate shows them only under ``--strict``);
* nothing printed holds a control character from the input (ESC, BEL, C1: issue #22.1);
* every 10th case, ``validate --jobs 2`` in a fresh process reports what ``--jobs 1`` does.

Failures are printed and saved (the input and the reason) under ``fuzz/crashes/``.  Exit 1
if any case failed.

    .venv/bin/python fuzz/fuzz_cli.py --minutes 30
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

#: Text that must never reach the terminal as it is: ESC, BEL, the C1 controls, DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Snippets put into tag values: terminal escapes and rich markup (issue #22.1).
_HOSTILE = (
    b"\x1b]0;pwned\x07",
    b"\x1b[31mred\x1b[0m",
    b"[/]",
    b"[bold red]x[/bold red]",
    b"[link=file:///etc/passwd]x[/link]",
    b"\x9b2J",
    "\u202etxt.exe".encode(),
)


def _mutate(rng: random.Random, sample, others: list) -> tuple[bytes, list[str]]:
    from hostile.fuzzing import SNIPPETS, Mutant

    m = Mutant(sample)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(9)
        k = rng.randrange(2**32)
        if op == 0:
            m.flip(k, rng.randrange(256))
        elif op == 1:
            m.insert(k, rng.choice(SNIPPETS))
        elif op == 2:
            m.delete(k, rng.randint(1, 64))
        elif op == 3:
            m.delete_line(k)
        elif op == 4:
            m.duplicate_line(k)
        elif op == 5 and others:
            m.splice(k, rng.choice(others), rng.randrange(100))
        elif op == 6:
            m.reencode_line(k, rng.choice(["latin-1", "cp1252", "utf-16-le", "cp437"]))
        elif op == 7:
            m.truncate(k) if rng.random() < 0.2 else m.insert(k, rng.choice(_HOSTILE))
        else:  # a hostile value inside a tag value
            pos = m.data.find(b'"', k % (len(m.data) or 1))
            if pos >= 0:
                m.edit(pos + 1, 0, rng.choice(_HOSTILE))
                m.log.append(f"hostile value at {pos + 1}")
    return m.data, m.log


def _package(rng: random.Random, folder: Path, name: str, data: bytes) -> Path:
    """``data`` as a file in ``folder``: plain, gzip, zip or tar (the name's own extension kept)."""
    how = rng.choice(["plain", "plain", "gz", "zip", "tar"])
    if how == "plain":
        p = folder / name
        p.write_bytes(data)
    elif how == "gz":
        p = folder / (name + ".gz")
        p.write_bytes(gzip.compress(data))
    elif how == "zip":
        p = folder / "in.zip"
        with zipfile.ZipFile(p, "w") as z:
            z.writestr(name, data)
            z.writestr("readme.txt", b"not bridge\n")
    else:
        p = folder / "in.tar.gz"
        with tarfile.open(p, "w:gz") as t:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return p


class Failure(Exception):
    """A case broke a property; the message says which."""


def _run(runner, args: list[str]):
    from handrec.cli.app import app

    r = runner.invoke(app, args, catch_exceptions=True)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        tb = "".join(traceback.format_exception(r.exception))
        raise Failure(f"{' '.join(args[:2])}: exception\n{tb}")
    out = r.stdout + (r.stderr or "")
    if r.exit_code not in (0, 1, 2):
        raise Failure(f"{' '.join(args[:2])}: exit code {r.exit_code}\n{out[-2000:]}")
    if "Traceback" in out:
        raise Failure(f"{' '.join(args[:2])}: traceback printed\n{out[-2000:]}")
    return r


def _check_text(args: list[str], text: str) -> None:
    m = _CONTROL.search(text)
    if m:
        raise Failure(
            f"{' '.join(args[:2])}: control character {m.group()!r} printed: {text[max(0, m.start() - 80) : m.end() + 40]!r}"
        )


def _case(rng: random.Random, runner, work: Path, sample, others: list, fresh: bool) -> None:
    data, log = _mutate(rng, sample, others)
    folder = work / "in"
    shutil.rmtree(work, ignore_errors=True)
    folder.mkdir(parents=True)
    path = _package(rng, folder, sample.name, data)
    (work / "input.bin").write_bytes(data)
    (work / "log.txt").write_text("\n".join([sample.name, path.name, *log]))
    # validate: JSON counts add up
    r = _run(runner, ["validate", str(folder), "--format", "json", "--jobs", "1"])
    try:
        report = json.loads(r.stdout)
    except ValueError as e:
        raise Failure(f"validate --format json: not JSON ({e})\n{r.stdout[:500]}") from None
    ds = report["diagnostics"]
    for sev, key in (("error", "errors"), ("warning", "warnings")):
        n = sum(d["severity"] == sev for d in ds)
        if n != report[key]:
            raise Failure(f"validate: {key} {report[key]} but {n} {sev} diagnostics")
    if sum(report["statuses"].values()) < report["files"]:  # statuses count skipped entries too
        raise Failure(f"validate: {report['files']} files but statuses {report['statuses']}")
    # validate as text: nothing from the input drives the terminal
    t = _run(runner, ["validate", str(folder), "--jobs", "1"])
    _check_text(["validate", "text"], t.stdout + (t.stderr or ""))
    # convert: the dataset holds what validate read
    out = work / "ds"
    c = _run(runner, ["convert", str(folder), "-o", str(out), "--jobs", "1", "--quiet"])
    _check_text(["convert", ""], c.stdout + (c.stderr or ""))
    if c.exit_code != 2 and out.is_dir():
        boards = _count(out, "boards", "")
        if boards is not None and boards != report["boards"]:
            raise Failure(f"convert: {boards} boards in the dataset, validate read {report['boards']}")
        for sev, key in (("error", "errors"), ("warning", "warnings")):
            # strict codes are rows too, counted by no warnings column (docs/sql.md, `strict`)
            n = _count(out, "diagnostics", f"where severity = '{sev}' and not strict")
            if n is not None and n != report[key]:
                raise Failure(f"convert: {n} {sev}s in the dataset, validate reported {report[key]}")
    # score and query's table output: no traceback, no control character
    s = _run(runner, ["score", str(folder)])
    _check_text(["score", ""], s.stdout + (s.stderr or ""))
    if out.exists():
        q = _run(runner, ["query", str(out), "select * from boards limit 20"])
        _check_text(["query", "table"], q.stdout + (q.stderr or ""))
    if fresh:  # another process, two workers: the same report
        p = subprocess.run(
            [sys.executable, "-m", "handrec.cli", "validate", str(folder), "--format", "json", "--jobs", "2"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        if json.loads(p.stdout or "null") != report:
            raise Failure(f"validate --jobs 2 differs from --jobs 1\n{p.stdout[:1000]}\n{p.stderr[-1000:]}")


def _count(out: Path, table: str, where: str) -> int | None:
    """Rows of ``table`` in the dataset ``out`` (through ``handrec query``'s own reader)."""
    from typer.testing import CliRunner

    from handrec.cli.app import app

    r = CliRunner().invoke(app, ["query", str(out), f"select count(*) from {table} {where}", "--format", "csv"])
    if r.exit_code != 0:
        return None
    lines = r.stdout.strip().splitlines()
    return int(lines[-1]) if len(lines) >= 2 and lines[-1].isdigit() else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="stop starting new cases after this long")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock; printed)")
    ap.add_argument("--crashes", type=Path, default=ROOT / "fuzz" / "crashes", help="where failures are saved")
    args = ap.parse_args()
    from hostile.fuzzing import corpus_files, corpus_sample, generated_sample
    from typer.testing import CliRunner

    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    files = corpus_files()
    if not files:
        print("../shared/corpus not found: only generated boards are fuzzed", file=sys.stderr)
    runner = CliRunner()
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    cases = failures = 0
    reasons: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="handrec-fuzz-cli-") as tmp:
        work = Path(tmp) / "case"
        os.environ.setdefault("HANDREC_LARK_CACHE", str(Path(tmp) / "lark"))
        while time.monotonic() < deadline:
            cases += 1
            if files and rng.random() < 0.75:
                f = rng.choice(files)
                sample = corpus_sample(f, rng.randrange(50), rng.randint(1, 6))
            else:
                sample = generated_sample(rng.randint(1, 8), rng.randrange(10**6), rng.choice(["pbn", "lin"]))
            others = [generated_sample(3, rng.randrange(10**6), "pbn")]
            try:
                _case(rng, runner, work, sample, others, fresh=cases % 10 == 0)
            except Failure as e:
                failures += 1
                reason = str(e).splitlines()[0]
                reasons[reason] = reasons.get(reason, 0) + 1
                args.crashes.mkdir(parents=True, exist_ok=True)
                stem = args.crashes / f"cli-{seed}-{cases}"
                shutil.copy(work / "input.bin", stem.with_suffix(".bin"))
                stem.with_suffix(".txt").write_text(f"{e}\n\n{(work / 'log.txt').read_text()}\n")
                print(f"case {cases}: FAILED: {reason} (saved {stem}.bin)", file=sys.stderr)
    took = time.monotonic() - started
    print(f"fuzz_cli: seed {seed}, {cases} cases in {took / 60:.1f} min, {failures} failures")
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {n} x {reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
