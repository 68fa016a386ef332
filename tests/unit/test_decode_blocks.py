"""Decoding bytes to lines: whole blocks at once (the fast path) give what line by line gives."""

from __future__ import annotations

import io
import random
import re

import pytest

from handrec.inputs.decode import _cut, decode_lines
from handrec.inputs.limits import Limits
from handrec.inputs.sources import Input

_PIECES = [b"a", b'[Board "1"]', b" ", b"\t", b"\xc3\xa9", b"\xe9", b"\xef\xbb\xbf", b"\r", b"\n", b"\r\n", b"xyz" * 5]


def _reference(data: bytes, limit: int | None) -> tuple[list[str], list[str]]:
    """Lines and diagnostics as the specification says, computed the plain way."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw = re.split(rb"\r\n|\r|\n", data)
    if len(raw) > 1 and raw[-1] == b"":
        raw.pop()
    out, diags, warned = [], [], False
    for n, line in enumerate(raw, 1):
        cut = limit is not None and len(line) > limit
        if cut:
            line = _cut(line, limit)  # type: ignore[arg-type]
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line.decode("latin-1")
            if not warned:
                warned = True
                diags.append(f"f:{n}:1: F002")
        if cut:
            diags.append(f"f:{n}:{len(text) + 1}: F013")
        out.append(text)
    return out, diags


def _chunks(data: bytes, rng: random.Random) -> list[bytes]:
    """``data`` cut after random line ends (a CR LF may be cut in two): whole lines per item."""
    ends = [m.end() for m in re.finditer(rb"\r|\n", data)]
    cuts = sorted(rng.sample(ends, k=min(len(ends), rng.randint(0, 6))))
    out, start = [], 0
    for c in cuts:
        if c > start:
            out.append(data[start:c])
            start = c
    out.append(data[start:])
    return [c for c in out if c] or [b""]


@pytest.mark.parametrize("seed", range(40))
def test_blocks_and_single_lines_decode_alike(seed: int) -> None:
    rng = random.Random(seed)
    data = b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 60)))
    if not data:
        return
    limit = rng.choice([None, 4, 12, 1 << 20])
    want = _reference(data, limit)
    for items in (_chunks(data, rng), list(io.BytesIO(data)), [data]):
        diags: list = []
        got = list(decode_lines(items, "f", diags, limit))
        shown = [f"{d.path}:{d.line}:{d.column}: {d.code}" for d in diags]
        assert (got, shown) == want, (items, limit)


def test_input_lines_reads_blocks_across_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines cut by the 1 MiB reads (here 7 bytes) and a CR LF cut in two read as they should."""
    import handrec.inputs.streams as streams

    monkeypatch.setattr(streams, "CHUNK_BYTES", 7)
    data = b"\xef\xbb\xbfab\r\ncdefghijkl\rm\r\n\r\nn\xe9\nlast"
    inp = Input("x.pbn", "pbn", opener=lambda: io.BytesIO(data), limits=Limits(max_line_bytes=8))
    assert list(inp.lines()) == ["ab", "cdefghij", "m", "", "né", "last"]
    assert [f"{d.line}:{d.column}:{d.code}" for d in inp.diagnostics] == ["2:9:F013", "5:1:F002"]
