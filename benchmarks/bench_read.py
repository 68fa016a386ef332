"""Boards per second, PBN and LIN: handrec's parse, parse + full validation and convert, against baselines.

Every figure is measured in the same run on the same generated file, beside
two baselines: reading the file and splitting it into lines, and endplay's
parser (``endplay.parsers.pbn`` / ``endplay.parsers.lin``: parse only, no
checks; skipped with a note when endplay is not installed).  Run:

    python benchmarks/bench_read.py [--boards 20000] [--rounds 5] [--plain]

Rows: ``read + split lines``; ``endplay parse``; ``handrec parse``;
``handrec parse + validate`` (every board replayed: deal, auction, play,
result, score); ``same, --jobs 1``: what ``handrec validate`` does, through
:func:`handrec.runs.validate.validate_paths` in one process (the above, plus
each board's record for the event checks, the checks themselves and the
reports); ``same, --jobs 2``: the same function with two worker processes,
the file split in parts as ``handrec validate --jobs 2`` splits a big file
(``part_bytes`` at most :data:`handrec.runs.parts.PART_BYTES` and under
half the file, so that it is split: a PBN file in parts of about that size,
at least two, a LIN file in one part per worker; pool start-up included);
``handrec convert-to-arrow`` (parse + validate + the rows of the five
tables as Arrow record batches, no Parquet writing); ``convert --jobs 1`` and
``--jobs 2``: what ``handrec convert`` does (:func:`handrec.runs.convert.convert`
into a fresh folder: the rows, the event checks, the part files, the Parquet
dataset; the file in parts as for validate).  The tasks are
interleaved (``benchmarks/_interleave.py``: each round runs every task once,
in an order rotated by one each round; best of ``--rounds``).  Columns:
boards/s and CPU µs a board (CPU of this process and of the workers);
``wall x`` / ``cpu x`` the task's time over reading the lines and over
endplay's parse (for endplay's the ratio to handrec's rate is its inverse:
the target for validate is endplay's time at least 5 times handrec's).  Then
real files (``--files``, by default a few of ``../shared/corpus`` when it is
there): parse + full validation in one process against endplay's parse, each
file read repeatedly for at least half a second, the two interleaved.

The input is generated with realistic records (:func:`_interleave.write_generated`:
full deals, auctions with note references and suffixes on about a tenth of
the calls, comments, claims, passed-out and doubled boards; ``--plain``: the
plain records of ``handrec generate --plain``), so the run needs nothing else.  handrec
reads it as ``handrec validate`` and ``convert`` do: :meth:`handrec.inputs.sources.Input.lines`
(blocks of 1 MiB read, hashed and decoded, split into lines), then the parser.
The two-process rows pay for starting their pool in every run: a larger
file (the default ``--boards 20000``) shows them better than a short run.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from _interleave import add_rounds_argument, interleave, table, write_generated

from handrec.dataset.tables import TableBuffers
from handrec.formats.lin.reader import parse_lin
from handrec.formats.pbn.reader import parse_pbn
from handrec.inputs.sources import FileSource, Input
from handrec.rules.validator import analyse
from handrec.runs.convert import convert as run_convert
from handrec.runs.parts import PART_BYTES
from handrec.runs.validate import validate_paths

_PARSERS = {"pbn": parse_pbn, "lin": parse_lin}
_TABLES = ("boards", "calls", "plays", "diagnostics")


def _lines(fmt: str, path: str, data: bytes | None = None) -> Iterator[str]:
    """The decoded lines of a file (or of ``data``, bytes read from it), as the CLI reads them."""
    if data is None:
        return Input(path, fmt, source=FileSource(path)).lines()
    return Input(path, fmt, opener=lambda: io.BytesIO(data)).lines()


def _parse_validate(fmt: str, path: str, data: bytes) -> int:
    n = 0
    for b in _PARSERS[fmt](_lines(fmt, path, data), path, []):
        analyse(b)
        n += 1
    return n


def endplay_loader(fmt: str) -> tuple[Callable[[io.TextIOBase], list] | None, str]:
    """endplay's ``load`` for ``fmt`` (imported lazily), or ``None`` and why not."""
    try:
        if fmt == "pbn":
            from endplay.parsers import pbn as mod
        else:
            from endplay.parsers import lin as mod
    except ImportError as e:  # endplay is optional: pip install endplay
        return None, f"endplay not installed ({e})"
    return mod.load, ""


#: A suffix token (PBN 2.1 §3.7) and a brace comment, with the space before them.
_SUFFIX_OR_COMMENT = re.compile(r" (?:[!?]{1,2}(?=\s)|\{[^}]*\})")


def endplay_copy(path: Path) -> Path:
    """A copy of a generated PBN file for endplay: the same boards without the suffixes and
    the comments, which endplay 0.5's PBN parser stops on (``invalid literal for int()``);
    its note references, Note tags and claims it reads."""
    out = path.with_name(path.stem + "-endplay.pbn")
    text = path.read_bytes().decode("utf-8")
    out.write_bytes(_SUFFIX_OR_COMMENT.sub("", text).encode("utf-8"))
    return out


#: Real files measured after the generated ones when ``../shared/corpus`` is there (or ``--files``):
#: a dealing program's deals, BridgeComposer hand records with double-dummy tables, travellers.
_REAL = (
    "pbn/dealer_v2_500_deals_1N.pbn",
    "pbn/bigdeal_v12_ability_minimax_crlf.pbn",
    "pbn/camrose2024_handrecords_bridgecomposer_dd.pbn",
    "pbn/pbntools_polish_kops_latin1_travellers.pbn",
    "pbn/wbridge5_match_redoubled_full_play.pbn",
    "lin/bbo_multi_board_one_per_line.lin",
    "lin/dealconvert_vugraph_handrecord_crlf.lin",
)


def real_files(paths: list[Path], seconds: float, rounds: int) -> None:
    """Parse + validate against endplay's parse on real files, each timed for at least
    ``seconds`` (small files are read many times), the two interleaved."""
    print()
    print("Real files (parse + full validation, one process, against endplay's parse only)")
    print(f"{'file':52} {'boards':>6} {'endplay/s':>10} {'handrec/s':>10} {'vs endplay':>11}")
    for p in paths:
        fmt = "lin" if p.suffix.lower() == ".lin" else "pbn"
        data = p.read_bytes()
        load, why = endplay_loader(fmt)

        def ours(p: Path = p, fmt: str = fmt, data: bytes = data) -> int:
            return _parse_validate(fmt, str(p), data)

        def theirs(data: bytes = data, load=load) -> int:
            return len(load(io.StringIO(data.decode("latin-1"))))  # type: ignore[misc]

        n_boards = ours()
        tasks = [("endplay", theirs)] if load is not None else []
        tasks.append(("handrec", ours))
        reps = {}
        for name, fn in tasks:  # how many reads make ``seconds``, from one timed read
            one = interleave([(name, fn)], 1, progress=False)[name]
            reps[name] = max(1, int(seconds / max(one.wall, 1e-6))) if one.walls else 1
        res = interleave(
            [(name, lambda fn=fn, k=reps[name]: sum(fn() for _ in range(k))) for name, fn in tasks],
            rounds,
            progress=False,
        )
        rates = {name: r.value / r.wall if r.walls else r.error for name, r in res.items()}  # type: ignore[operator]
        ep, hr = rates.get("endplay", why), rates["handrec"]
        ratio = f"{hr / ep:10.2f}x" if isinstance(ep, float) and isinstance(hr, float) else ""
        cells = [f"{r:10.0f}" if isinstance(r, float) else f"{r:>10}"[:10] for r in (ep, hr)]
        print(f"{p.name[:52]:52} {n_boards:6d} {cells[0]} {cells[1]} {ratio:>11}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20000)
    add_rounds_argument(ap)
    ap.add_argument("--plain", action="store_true", help="plain generated records (no alerts, notes, claims...)")
    ap.add_argument(
        "--files",
        nargs="*",
        type=Path,
        help="real PBN/LIN files to measure too (default: a few of ../shared/corpus when it is there)",
    )
    args = ap.parse_args()
    print(
        f"{args.boards} generated boards per file ({'plain' if args.plain else 'realistic'} records); "
        f"best of {args.rounds} interleaved rounds; {multiprocessing.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for fmt in ("pbn", "lin"):
            p = Path(tmp) / f"bench.{fmt}"
            write_generated(p, args.boards, seed=7, realistic=not args.plain)
            files[fmt] = p
        for fmt, p in files.items():
            parse = _PARSERS[fmt]
            notes = []

            def baseline(p: Path = p) -> int:
                with open(p, "rb") as f:
                    sum(1 for _ in io.TextIOWrapper(f, encoding="utf-8"))
                return args.boards

            def parse_only(p: Path = p, parse=parse, fmt: str = fmt) -> int:
                return sum(1 for _ in parse(_lines(fmt, str(p)), str(p), []))

            def parse_validate(p: Path = p, fmt: str = fmt) -> int:
                return _parse_validate(fmt, str(p), p.read_bytes())

            def validate_jobs1(p: Path = p) -> int:
                return sum(r.boards for r in validate_paths([p], jobs=1))

            def validate_jobs2(p: Path = p) -> int:
                """The product's parallel path: two workers, the file in parts (at least two)."""
                part_bytes = min(PART_BYTES, -(-p.stat().st_size // 2))
                return sum(r.boards for r in validate_paths([p], jobs=2, pool_bytes=0, part_bytes=part_bytes))

            def convert(p: Path = p, parse=parse, fmt: str = fmt) -> int:
                buf = TableBuffers()
                n = 0
                for b in parse(_lines(fmt, str(p)), str(p), []):
                    buf.add(analyse(b))
                    n += 1
                    if buf.pending_boards >= 10000:
                        for t in _TABLES:
                            buf.take(t)
                for t in _TABLES:
                    buf.take(t)
                return n

            def convert_jobs(jobs: int, p: Path = p, fmt: str = fmt) -> int:
                """What ``handrec convert --jobs N`` does (the library call, into a fresh folder): parse,
                validate, the event checks, the part files and the Parquet dataset."""
                out = Path(tmp) / f"ds-{fmt}-{jobs}"
                shutil.rmtree(out, ignore_errors=True)
                part_bytes = min(PART_BYTES, -(-p.stat().st_size // 2))
                return run_convert([p], out, jobs=jobs, part_bytes=part_bytes).boards

            # Warm up (builds the Lark parser once per process, before the pool forks).
            _parse_validate(fmt, str(p), p.read_bytes()[:20000])
            load, why = endplay_loader(fmt)

            ep_path = p
            if fmt == "pbn" and not args.plain:
                ep_path = endplay_copy(p)
                notes.append("endplay parse: reads a copy without the suffixes and comments (it cannot read them)")

            def endplay_parse(p: Path = ep_path, load=load) -> int:
                with open(p, encoding="utf-8") as f:
                    return len(load(f))  # type: ignore[misc]

            rows: list[tuple[str, Callable[[], int] | None]] = [
                ("read + split lines", baseline),
                ("endplay parse", endplay_parse if load is not None else None),
                ("handrec parse", parse_only),
                ("handrec parse + validate", parse_validate),
                ("  same, --jobs 1", validate_jobs1),
                ("  same, --jobs 2", validate_jobs2),
                ("handrec convert-to-arrow", convert),
                ("convert --jobs 1", lambda: convert_jobs(1)),
                ("convert --jobs 2", lambda: convert_jobs(2)),
            ]
            tasks = []
            for name, fn in rows:
                if fn is None:
                    notes.append(f"{name}: skipped, {why}")
                else:
                    tasks.append((name, fn))
            results = interleave(tasks, args.rounds)
            for name, r in results.items():
                if r.walls and r.value != args.boards:
                    notes.append(f"{name}: read {r.value} boards of {args.boards}")
            print()
            print(f"{fmt.upper()} ({p.stat().st_size / 1e6:.1f} MB)")
            print(table(results, ["read + split lines", "endplay parse"], count=args.boards))
            for note in notes:
                print(f"note: {note}")
    corpus = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
    real = args.files if args.files is not None else [corpus / r for r in _REAL if (corpus / r).is_file()]
    if real:
        real_files(real, seconds=0.5, rounds=args.rounds)


if __name__ == "__main__":
    main()
