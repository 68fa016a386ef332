"""The PBN round trip on every real file and on generated boards.

"The same records" (handrec.formats.pbn.writer module doc): for a board ``b`` read from a file,
``read(dumps(b)) == normalise(b)`` by Board equality (origins, positions and diagnostics
never count; ``normalise`` applies exactly what the writer changes: tag order and export
spelling, missing mandatory tags, alerts as notes, a claim as ``*``...), with the comments'
anchors equal too; and writing what was read back gives the same bytes.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handrec.diagnostics import Diagnostic
from handrec.formats.dispatch import read
from handrec.formats.pbn.reader import parse_pbn
from handrec.formats.pbn.table_cells import TABLES
from handrec.formats.pbn.tags import parse_columns
from handrec.formats.pbn.writer import dump, normalise
from handrec.generate import generate_boards
from handrec.model import Board, CallKind, CardAnnotation, Table, Tag
from handrec.rules.validator import analyse

_EOL = re.compile(rb"\r\n|\n|\r")


def decode_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out = []
    for raw in _EOL.split(data):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(raw.decode("latin-1"))
    return out


def write(boards: list[Board]) -> str:
    buf = io.StringIO()
    dump(boards, buf)
    return buf.getvalue()


def reread(text: str, file_diags: list[Diagnostic] | None = None) -> list[Board]:
    return list(parse_pbn(text.split("\r\n"), "w.pbn", [] if file_diags is None else file_diags))


def assert_round_trip(boards: list[Board]) -> None:
    w1 = write(boards)
    again = reread(w1)
    assert len(again) == len(boards)
    for k, (b, b2) in enumerate(zip(boards, again)):
        n = normalise(b)
        assert b2 == n, k
        assert b2.comment_anchors == n.comment_anchors, k
        assert normalise(n) == n, k
    assert write(again) == w1  # byte-identical


PBN_FILES = sorted(p.name for p in (Path(__file__).parents[2].parent / "shared" / "corpus" / "pbn").glob("*"))
LIN_FILES = sorted(p.name for p in (Path(__file__).parents[2].parent / "shared" / "corpus" / "lin").glob("*"))


@pytest.mark.parametrize("name", PBN_FILES)
def test_every_pbn_file_round_trips(corpus_dir: Path, name: str) -> None:
    boards = list(parse_pbn(decode_lines(corpus_dir / "pbn" / name), name, []))
    assert_round_trip(boards)


@pytest.mark.parametrize("name", LIN_FILES)
def test_every_lin_file_round_trips_through_pbn(corpus_dir: Path, name: str) -> None:
    assert_round_trip(list(read(corpus_dir / "lin" / name)))


#: Diagnostics the written file may have that the read one did not: a line longer than 255
#: characters where a value or comment is that long (it is written whole).
MAY_ADD = {"pbn10_reference_correct_latin1.pbn": {"F021": 3}}  # [Event"An extremely long line...


@pytest.mark.parametrize("name", PBN_FILES)
def test_writing_adds_no_fault(corpus_dir: Path, name: str) -> None:
    fd: list[Diagnostic] = []
    boards = list(parse_pbn(decode_lines(corpus_dir / "pbn" / name), name, fd))
    before = Counter(d.code for d in fd) + Counter(d.code for b in boards for d in analyse(b).diagnostics)
    fd2: list[Diagnostic] = []
    again = reread(write(boards), fd2)
    after = Counter(d.code for d in fd2) + Counter(d.code for b in again for d in analyse(b).diagnostics)
    assert after - before == Counter(MAY_ADD.get(name, {}))
    if not before:
        assert not after


# --- generated boards (handrec.generate) and random decorations ---------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_generated_boards_round_trip(seed: int, n: int) -> None:
    boards = list(generate_boards(n, seed=seed))
    assert_round_trip(boards)
    assert all(b.diagnostics == () for b in reread(write(boards)))


#: Printable text of any script, with the characters PBN gives a meaning to.
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from('{}[];%"\\#=$!?^*+-'),
    max_size=12,
)
LINES = st.text(st.sampled_from('ab }{;\n%[]"\\ \u00e9\u2014'), max_size=16)  # comments may span lines
NAMES = ["Competition", "Stage", "Room", "Description", "HomeTeam", "Annotator", "MyTag", "Zeta_1"]


@st.composite
def decorated(draw: st.DrawFn) -> Board:
    """A generated board with random tags, notes, NAGs, alerts, comments anywhere, a cut
    play with unknown cards, revokes and annotations, and tables."""
    b = next(iter(generate_boards(1, seed=draw(st.integers(0, 10_000)))))
    tags = list(b.tags)
    for name, value in draw(st.lists(st.tuples(st.sampled_from(NAMES), TEXT), max_size=4)):
        if not value.startswith("#"):  # '#'/'##' values are inheritance (PBN 2.1 §4.8)
            tags.insert(draw(st.integers(0, len(tags))), Tag(name, value.replace("\n", " ")))
    calls = list(b.auction.calls)  # type: ignore[union-attr]
    for i in draw(st.lists(st.integers(0, len(calls) - 1), max_size=4, unique=True)):
        c = calls[i]
        note = draw(st.none() | st.integers(0, 40))
        text = draw(st.none() | TEXT)
        nags = tuple(draw(st.lists(st.integers(0, 300), max_size=2)))
        calls[i] = replace(c, alert=draw(st.booleans()), note=note, annotation=text, nags=nags)
    auction = replace(b.auction, calls=tuple(calls))  # type: ignore[arg-type]
    play = b.play
    if play is not None:
        cards = list(play.cards)[: draw(st.integers(0, len(play.cards)))]
        for i in draw(st.lists(st.integers(0, max(len(cards) - 1, 0)), max_size=3)):
            if cards:
                cards[i] = None  # type: ignore[call-overload]
        n = len(cards)
        irregular = tuple(draw(st.sampled_from([None, None, "R"])) for _ in range(n)) if draw(st.booleans()) else ()
        annotations = ()
        if n and draw(st.booleans()):
            annotations = tuple(
                draw(
                    st.none() | st.builds(CardAnnotation, st.none() | st.integers(1, 9), st.tuples(st.integers(7, 14)))
                )
                for _ in range(n)
            )
        play = replace(
            play,
            cards=tuple(cards),
            spans=(),
            ended=draw(st.sampled_from([None, "*", "+"])),
            irregular=irregular,
            annotations=annotations,
            claim=draw(st.none() | st.just(7)),
        )
    tables = []
    if draw(st.booleans()):
        cols = parse_columns("Rank\\3R;Names_NS\\8L;Score_NS;Contract")[0]
        row = st.tuples(*[TEXT.map(lambda t: t.replace("\n", " ")) for _ in cols])
        tables.append(Table("ScoreTable", cols, tuple(draw(st.lists(row, max_size=3)))))
    if draw(st.booleans()):
        tables.append(
            Table(
                "MyData",
                (),
                tuple(draw(st.lists(st.tuples(st.just("x"), st.sampled_from("yz")), min_size=1, max_size=2))),
            )
        )
    b = replace(b, tags=tuple(tags), auction=auction, play=play, tables=tuple(tables))
    anchors = [("game", 0)] + [("tag", i) for i in range(len(tags))] + [("auction", i) for i in range(-1, len(calls))]
    if play is not None:
        anchors += [("play", i) for i in range(-1, len(play.cards))]
    comments = draw(st.lists(st.tuples(LINES, st.sampled_from(anchors)), max_size=6))
    return replace(b, commentary=tuple(c for c, _ in comments), comment_anchors=tuple(a for _, a in comments))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(decorated(), min_size=1, max_size=3))
def test_decorated_boards_round_trip(boards: list[Board]) -> None:
    assert_round_trip(boards)
    fd: list[Diagnostic] = []
    again = reread(write(boards), fd)  # and the writer keeps to the export format
    assert [d for d in fd + [d for b in again for d in b.diagnostics] if d.code in ("F020", "F021")] == []


def test_decorations_reach_what_they_should() -> None:
    """The decorated strategy exercises alerts, notes, claims, tables and comments."""
    seen: Counter[str] = Counter()

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(decorated())
    def probe(b: Board) -> None:
        n = normalise(b)
        seen["notes"] += bool(n.auction and n.auction.notes)
        seen["alerts"] += any(c.alert for c in b.auction.calls)  # type: ignore[union-attr]
        seen["claims"] += bool(b.play and b.play.claim)
        seen["tables"] += bool(b.tables)
        seen["comments"] += bool(b.commentary)
        seen["passes"] += any(c.kind is CallKind.PASS for c in b.auction.calls)  # type: ignore[union-attr]

    probe()
    assert all(seen[k] for k in ("notes", "alerts", "claims", "tables", "comments")), seen
    assert set(TABLES) >= {"ScoreTable"}
