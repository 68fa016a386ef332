"""Fuzzing: mutated real and generated files never crash the reader, lose a board or point outside the file.

The properties are in :mod:`fuzzing` (``check``).  By default each test
runs a bounded, derandomized number of examples (the same ones every run:
CI stays deterministic, about half a minute in all).  For a long run, set
``HANDREC_FUZZ_EXAMPLES`` (examples per test; random seeds, the examples
that fail are kept in ``.hypothesis/``)::

    HANDREC_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q tests/hostile/test_fuzz.py

or run ``fuzz/fuzz_long.py`` (round after round until a time limit) or
``fuzz/fuzz_read.py`` (atheris).  A crash found becomes a regression test
in ``test_fuzz_regressions.py`` with its minimal input.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from handrec.inputs.limits import Limits

from .fuzzing import (
    FILE_CODECS,
    INTERESTING,
    LINE_CODECS,
    SNIPPETS,
    Mutant,
    apply,
    check,
    corpus_files,
    corpus_sample,
    generated_sample,
)

LONG = int(os.environ.get("HANDREC_FUZZ_EXAMPLES", "0"))


def fuzz_settings(examples: int):
    """Bounded and derandomized by default; ``HANDREC_FUZZ_EXAMPLES`` examples with random seeds when set."""
    common = dict(
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        print_blob=True,
    )
    if LONG:
        return settings(max_examples=LONG, **common)
    return settings(max_examples=examples, derandomize=True, database=None, **common)


U32 = st.integers(0, 2**32 - 1)
BYTE = st.sampled_from(list(INTERESTING)) | st.integers(0, 255)
JUNK = st.sampled_from(SNIPPETS) | st.binary(min_size=1, max_size=16)

OP = st.one_of(
    st.tuples(st.just("flip"), U32, BYTE),
    st.tuples(st.just("insert"), U32, JUNK),
    st.tuples(st.just("delete"), U32, st.integers(1, 64)),
    st.tuples(st.just("truncate"), U32),
    st.tuples(st.just("delete_line"), U32),
    st.tuples(st.just("duplicate_line"), U32),
    st.tuples(st.just("splice"), U32, st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("reencode_line"), U32, st.sampled_from(LINE_CODECS)),
    st.tuples(st.just("line_ends"), st.sampled_from([b"\r\n", b"\n", b"\r"])),
    st.tuples(st.just("add_bom")),
)
OPS = st.lists(OP, min_size=1, max_size=4)

CORPUS = corpus_files()


def _others():
    """Boards to splice in: generated PBN and LIN, and a few real files."""
    out = [generated_sample(3, 7, "pbn"), generated_sample(3, 8, "lin")]
    out += [corpus_sample(p, 0, 3) for p in CORPUS[::5]]
    return out


def _mutate_and_check(sample, ops, others) -> None:
    m = apply(Mutant(sample), ops, others)
    note(f"name={m.name!r}")
    note(f"mutations={m.log}")
    note(f"data={m.data!r}")
    check(m.data, m.name, m.ranges)


@pytest.mark.skipif(not CORPUS, reason="../shared/corpus not present")
@fuzz_settings(600)
@given(file=st.sampled_from(CORPUS or [None]), first=st.integers(0, 1000), ops=OPS)
def test_mutated_corpus_files(file, first, ops) -> None:
    _mutate_and_check(corpus_sample(file, first), ops, _others())


@fuzz_settings(600)
@given(n=st.integers(1, 4), seed=st.integers(0, 2**16), fmt=st.sampled_from(["pbn", "lin"]), ops=OPS)
def test_mutated_generated_boards(n, seed, fmt, ops) -> None:
    _mutate_and_check(generated_sample(n, seed, fmt), ops, _others())


@fuzz_settings(60)
@given(n=st.integers(1, 3), seed=st.integers(0, 2**16), fmt=st.sampled_from(["pbn", "lin"]))
def test_generated_boards_in_other_encodings(n, seed, fmt) -> None:
    for codec in FILE_CODECS:
        m = Mutant(generated_sample(n, seed, fmt))
        m.reencode_file(codec)
        note(f"{codec}: data={m.data!r}")
        r = check(m.data, m.name)
        if codec.startswith(("utf-16", "utf-32")):
            assert r.format is None and r.boards == 0  # binary-looking: refused as a whole (F004)


@fuzz_settings(300)
@given(data=st.binary(max_size=400), name=st.sampled_from(["x.pbn", "x.lin", "x.txt"]))
def test_random_bytes(data, name) -> None:
    check(data, name)


TEXTY = st.text(alphabet=st.sampled_from(list('[]"{}%;|,\n\r\t *-=!?.#^$+ SHDCNTXAKQJ0123456789pPdDrRmbqxcgnvsh')))


@fuzz_settings(300)
@given(text=TEXTY, prefix=st.sampled_from(["", '[Board "1"]\n', "qx|o1|md|", "pn|a,b,c,d|st||md|"]))
def test_random_bridge_like_text(text, prefix) -> None:
    data = (prefix + text).encode()
    check(data, "x.pbn" if prefix.startswith("[") or not prefix else "x.lin")


@fuzz_settings(40)
@given(n=st.integers(1, 3), seed=st.integers(0, 2**16), fmt=st.sampled_from(["pbn", "lin"]), limit=st.integers(1, 200))
def test_tiny_line_limit_never_loses_track(n, seed, fmt, limit) -> None:
    """With lines cut at a tiny limit, everything still holds (F013 marks each cut line)."""
    s = generated_sample(n, seed, fmt)
    r = check(s.data, s.name, s.ranges, Limits(max_line_bytes=limit))
    long_lines = [ln for ln in s.data.splitlines() if len(ln) > limit]
    assert sum(d.code == "F013" for d in r.file_diagnostics) == len(long_lines)
