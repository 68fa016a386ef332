"""A LIN file read in parts (``parse_lin(..., part=(start, stop))``): the parts put together are the whole file.

Every file here is cut at many points (at a record's first pair, one
character before or after it, inside a header, inside a record, past the
end) and read as the parts ``[0, a), [a, b), ..., [z, inf)``, each apart, as
the workers of ``handrec validate --jobs N`` read them: the boards (compared
with ``==``, every field), their origins and indexes, the parser's file
diagnostics and the reading's own (the last part reads the whole file) must
be those of one whole reading, in the same order.  Then the parent's view
(:class:`handrec.runs.validate._SplitUnit`) and ``validate_paths`` with one
and with two jobs.
"""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path
from urllib.parse import quote

import pytest
from _reports import summary
from hypothesis import given, settings
from hypothesis import strategies as st

import handrec.formats.lin.reader as lin_parser
import handrec.runs.parts as vp
import handrec.runs.validate as vr
from handrec.formats.dispatch import read_input
from handrec.formats.lin.reader import parse_lin
from handrec.formats.lin.writer import dump as lin_dump
from handrec.generate import generate_boards
from handrec.inputs.limits import Limits
from handrec.inputs.sources import FileSource, Input
from handrec.model import Tag

#: Small limits: the damaged files hold a record too big to read (F016) and a line too long (F013).
LIMITS = Limits(max_line_bytes=20_000, max_board_bytes=6_000)
END = 10**18


# =========================================================================================
# Files
# =========================================================================================


def generated(n: int, seed: int) -> str:
    """``n`` generated boards as LIN, one record a line, no ``qx`` (records framed by ``md``)."""
    buf = io.StringIO()
    lin_dump(generate_boards(n, seed=seed), buf)
    return buf.getvalue()


def vugraph(segments: int, boards: int, seed: int, event: str = "Cup") -> str:
    """``segments`` vugraph matches (``vg`` header, ``rs``, ``pn`` of both rooms, ``qx|o``/``qx|c``
    tables) of ``boards`` boards each, played in both rooms."""
    out = []
    for i, b in enumerate(generate_boards(2 * segments * boards, seed=seed, tables=2)):
        keep = tuple(t for t in b.tags if t.name not in ("Event", "Room"))
        room = Tag("Room", "Open" if i % 2 == 0 else "Closed")
        more = (Tag("Event", f"{event} {i // (2 * boards)}"), room, Tag("HomeTeam", "Home"), Tag("VisitTeam", "Away"))
        out.append(dataclasses.replace(b, tags=keep + more))
    buf = io.StringIO()
    lin_dump(out, buf)
    return buf.getvalue()


def damaged_lin(seed: int = 3) -> bytes:
    """Records framed by ``md``, then three vugraph segments, then a segment framed by ``md``
    again, with faults of every kind a reading finds, as bytes.

    Records: junk between records (F003), a stray pipe (F011), a value broken over two
    lines, a repeated pair (T102), a record over the board limit (F016), a line over the
    line limit (F013, and F016), a Latin-1 byte (F002).  Headers: junk (F003), an unknown
    command (F007, given to the segment's first record), a bad ``rs`` entry and a ``vg``
    of the wrong length (T101), ``rs`` entries that the tables contradict (C506), a
    ``pn`` before a ``qx``.  After the last deal: a ``pn`` (F017).
    """
    head = generated(14, seed).splitlines()
    head[2] += "\nthis line is no pair at all"
    head[4] = head[4].replace("|sv|", "||sv|", 1)
    head[6] = head[6].replace("|rh||", "|nt|a comment broken\nover two lines|rh||", 1)
    head[8] = head[8].replace("|sv|", "|sv|o|sv|", 1)
    head[10] += "nt|" + "v" * 7000 + "|"
    head[12] += "nt|" + "w" * 25_000 + "|"
    seg0 = vugraph(1, 4, seed + 1, "First").splitlines()  # vg, rs, pn, then the tables
    seg0[1] = seg0[1].replace("rs|", "rs|bad entry,", 1)  # shifts the entries: C506
    seg0.insert(1, "zz|an unknown header command|header junk")
    seg1 = vugraph(1, 4, seed + 2, "Second").splitlines()
    seg1[0] = seg1[0].replace(",P,", ",P,x,y,", 1)  # 11 fields
    seg1[4] = "pn|A,B,C,D|\n" + seg1[4]  # a table's players before its qx
    seg2 = vugraph(1, 4, seed + 3, "Third").splitlines()
    seg2[5] += "nt|caf\udce9|"
    tail = generated(6, seed + 4).splitlines()
    tail[0] = "vg|Final,Last,P,1,6,Home,0,Away,0|" + tail[0]
    text = "\n".join(head + seg0 + seg1 + seg2 + tail) + "\npn|a,b,c,d|st||\n"
    return text.encode("utf-8", "surrogateescape")


def handviewer(n: int, seed: int) -> str:
    """Records as hand-viewer URLs and ``hv_popuplin`` calls, one a line (lin.md §2.4)."""
    out = []
    for i, line in enumerate(generated(n, seed).splitlines()):
        if i % 3 == 2:
            out.append(f"<a href=\"javascript:hv_popuplin('{line}')\">board</a>")
        else:
            out.append("https://www.bridgebase.com/tools/handviewer.html?lin=" + quote(line, safe=""))
    return "\n".join(out) + "\n"


def _cut_short(text: str) -> str:
    """The text cut in the middle of its last-but-two record (a truncated download)."""
    at = text.rindex("md|", 0, text.rindex("md|", 0, text.rindex("md|")))
    return text[: at + 200]


#: name -> (bytes, limits): every kind of LIN file the reader frames.
FILES: dict[str, tuple[bytes, Limits]] = {
    "generated": (generated(40, 1).encode(), LIMITS),
    "vugraph": (vugraph(4, 5, 2).encode(), LIMITS),
    "damaged": (damaged_lin(), LIMITS),
    "truncated": (_cut_short(generated(20, 4).replace("|pg||\n", "|pg||\n~junk~ |\n", 3)).encode(), LIMITS),
    "trailing header": (
        (vugraph(2, 3, 5) + "vg|Last match,with,a,short,vg|rs|3NN=,9ZZ|zz|x|\n").encode(),
        LIMITS,
    ),
    "header over the limit": (
        vugraph(2, 3, 6).replace("rs|", "rs|" + "3NN=," * 600, 1).encode(),
        Limits(max_board_bytes=2_000),
    ),
    "every record over the limit": (generated(12, 7).encode(), Limits(max_board_bytes=300)),
    "handviewer urls": (handviewer(12, 8).encode(), LIMITS),
    "crlf": (vugraph(2, 4, 9).replace("\n", "\r\n").encode(), LIMITS),
    "record without md or qx": (b"pn|a,b,c,d|sv|o|mb|1C|mb|p|mb|p|mb|p|\n", LIMITS),
    "segment without md or qx": ((vugraph(1, 3, 10) + "vg|x,,I,1,1,H,0,V,0|sv|o|mb|p|\n").encode(), LIMITS),
    "header only": (b"vg|a,b|rs|xx|pn|a,b|\nzz|q|\n", LIMITS),
    "junk only": (b"no LIN here\nnor here |\n", LIMITS),
    "empty": (b"", LIMITS),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Limits]]:
    folder = tmp_path_factory.mktemp("lin-parts")
    out = {}
    for i, (name, (data, limits)) in enumerate(FILES.items()):
        p = folder / f"f{i}.lin"
        p.write_bytes(data)
        out[name] = (p, limits)
    return out


# =========================================================================================
# Reading whole and in parts
# =========================================================================================


def file_input(p: Path, limits: Limits) -> Input:
    return Input(str(p), "lin", source=FileSource(str(p)), size=p.stat().st_size, limits=limits)


def whole(p: Path, limits: Limits) -> tuple[list, list, list]:
    """The boards, the parser's file diagnostics and the reading's own diagnostics of one reading."""
    inp, parser = file_input(p, limits), []
    boards = list(read_input(inp, file_diagnostics=parser))
    return boards, parser, inp.diagnostics


def in_parts(p: Path, limits: Limits, cuts: list[int]) -> tuple[list, list, list]:
    """The same, read as the parts ``[0, cuts[0]), ..., [cuts[-1], inf)``, each apart."""
    bounds = [0, *cuts, END]
    boards, parser, reading = [], [], []
    for start, stop in zip(bounds, bounds[1:]):
        inp, found = file_input(p, limits), []
        got = list(read_input(inp, part=(start, stop), file_diagnostics=found))
        assert all(start <= b.origin.offset < stop for b in got)
        boards += got
        parser += found
        reading = inp.diagnostics  # the last part reads the whole file
    return boards, parser, reading


def cut_points(boards: list, size: int) -> list[int]:
    """Offsets worth cutting at: each record's first pair, one before and one after it, and
    a hundred or so more, every 101st character at least (inside headers and records), up
    to past the end."""
    points = {0, 1, size, size + 10}
    for b in boards:
        points |= {b.origin.offset - 1, b.origin.offset, b.origin.offset + 1}
    points |= set(range(0, size, max(101, size // 120)))
    return sorted(x for x in points if x > 0)


def assert_same(got: tuple[list, list, list], ref: tuple[list, list, list], cuts: list[int]) -> None:
    boards, parser, reading = got
    ref_boards, ref_parser, ref_reading = ref
    ref_reading = [d for d in ref_reading if d.code != "F018"]  # a part leaves F018 to its caller
    assert len(boards) == len(ref_boards), cuts
    assert boards == ref_boards, cuts  # every field: tags, deal, auction, play, diagnostics...
    assert [b.origin for b in boards] == [b.origin for b in ref_boards], cuts
    assert parser == ref_parser, cuts
    assert reading == ref_reading, cuts


# =========================================================================================
# The files are what they say
# =========================================================================================


def test_the_damaged_file_has_every_kind_of_fault(files: dict) -> None:
    boards, parser, reading = whole(*files["damaged"])
    assert len(boards) == 14 + 3 * 4 * 2 + 6
    assert [b.origin.index for b in boards] == list(range(44))
    assert [d.code for d in parser] == ["T101", "F007", "F003", "T101", "F017"]
    assert [d.code for d in reading] == ["F013", "F002"]
    board_codes = [[d.code for d in b.diagnostics] for b in boards]
    assert [board_codes[i] for i in (2, 4, 8, 10, 12)] == [["F003"], ["F011"], ["T102"], ["F016"], ["F016"]]
    assert board_codes[15:22].count(["C506"]) > 3
    assert boards[14].extra == (("zz", "an unknown header command"),)  # the segment's first record
    assert all(b.extra == () for b in boards if b.origin.index != 14)
    assert [b.tag("Event") for b in boards[14::8]] == ["First 0", "Second 0", "Third 0", "Final"]
    assert boards[23].tag("South") == "A" and boards[24].tag("South") == "S1"  # only the table after the pn
    assert "over two lines" in " ".join(boards[6].commentary)


def test_the_other_files_frame_as_expected(files: dict) -> None:
    counts = {name: (len(b), [d.code for d in f]) for name, (b, f, _) in ((n, whole(*files[n])) for n in files)}
    assert counts == {
        "generated": (40, []),
        "vugraph": (40, []),
        "damaged": (44, ["T101", "F007", "F003", "T101", "F017"]),
        "truncated": (18, []),
        "trailing header": (12, ["T101", "T101", "T101", "F007"]),  # vg length and scoring, rs; zz
        "header over the limit": (12, ["F016"]),
        "every record over the limit": (12, []),
        "handviewer urls": (12, []),
        "crlf": (16, []),
        "record without md or qx": (1, []),
        "segment without md or qx": (7, []),
        "header only": (0, ["T101", "T101", "T101", "F007"]),  # vg, rs, pn; zz
        "junk only": (0, ["F003"]),
        "empty": (0, []),
    }
    every = whole(*files["every record over the limit"])[0]
    assert all([d.code for d in b.diagnostics] == ["F016"] for b in every)
    urls = whole(*files["handviewer urls"])[0]
    assert [b.number for b in urls] == list(range(1, 13)) and all(b.auction is not None for b in urls)


# =========================================================================================
# Parts put together: the whole file
# =========================================================================================


@pytest.mark.parametrize("name", list(FILES))
def test_two_parts_at_every_cut_point_give_the_whole_file(files: dict, name: str) -> None:
    p, limits = files[name]
    ref = whole(p, limits)
    for cut in cut_points(ref[0], p.stat().st_size):
        assert_same(in_parts(p, limits, [cut]), ref, [cut])


@pytest.mark.parametrize("name", list(FILES))
def test_many_parts_give_the_whole_file(files: dict, name: str) -> None:
    p, limits = files[name]
    ref = whole(p, limits)
    points = cut_points(ref[0], p.stat().st_size)
    rng = random.Random(name)
    for _ in range(12):
        cuts = sorted(rng.sample(points, min(len(points), rng.randint(2, 12))))
        assert_same(in_parts(p, limits, cuts), ref, cuts)
    # one part per record: each part holds exactly one board
    offsets = [b.origin.offset for b in ref[0]]
    assert offsets == sorted(set(offsets))  # record offsets only grow: a part ends at the first one past it
    assert_same(in_parts(p, limits, [o for o in offsets if o > 0]), ref, offsets)


#: Every LIN file of ``../shared/corpus/lin``: BBO records, a vugraph file, a hand-viewer URL.
CORPUS_LIN = [
    "bbo_acbl_redouble_runout_claim_after_lead.lin",
    "bbo_handviewer_url_encoded.txt",
    "bbo_multi_board_one_per_line.lin",
    "bbo_single_board_alert_mark.lin",
    "bbo_single_board_long_explanations.lin",
    "bbo_single_board_unusual_nt_alert.lin",
    "bbo_tourney_redouble_alert_explained.lin",
    "bbo_tourney_slam_claim_after_trick6.lin",
    "dealconvert_vugraph_handrecord_crlf.lin",
]


@pytest.mark.parametrize("name", CORPUS_LIN)
@pytest.mark.parametrize("limits", [Limits(), Limits(max_board_bytes=400)], ids=["no-limit", "400-bytes"])
def test_corpus_lin_file_in_parts_is_the_whole_file(corpus_dir: Path, name: str, limits: Limits) -> None:
    p = corpus_dir / "lin" / name
    ref = whole(p, limits)
    assert len(ref[0]) == {"bbo_multi_board_one_per_line.lin": 8, "dealconvert_vugraph_handrecord_crlf.lin": 32}.get(
        name, 1
    )
    points = cut_points(ref[0], p.stat().st_size)
    for cut in points:
        assert_same(in_parts(p, limits, [cut]), ref, [cut])
    rng = random.Random(name)
    for _ in range(8):
        cuts = sorted(rng.sample(points, min(len(points), rng.randint(2, 8))))
        assert_same(in_parts(p, limits, cuts), ref, cuts)


def test_header_diagnostics_go_with_the_record_after_the_header(files: dict) -> None:
    p, limits = files["damaged"]
    boards, parser, _ = whole(p, limits)
    first_qx = boards[14].origin.offset  # the first vugraph table: its header has F003, F007, T101
    for cut, first in ((first_qx, []), (first_qx + 1, ["T101", "F007", "F003"])):
        inp, found = file_input(p, limits), []
        assert len(list(read_input(inp, part=(0, cut), file_diagnostics=found))) == 14 + len(first) // 3
        assert [d.code for d in found] == first  # the header's faults: the part's that holds the record after it
        inp, rest = file_input(p, limits), []
        list(read_input(inp, part=(cut, END), file_diagnostics=rest))
        assert found + rest == parser
    # what follows the last record goes to the part that holds it, whatever parts come after
    last = boards[-1].origin.offset
    inp, found = file_input(p, limits), []
    assert len(list(read_input(inp, part=(last, last + 1), file_diagnostics=found))) == 1
    assert [d.code for d in found] == ["F017"]
    inp, found = file_input(p, limits), []
    assert list(read_input(inp, part=(last + 1, END), file_diagnostics=found)) == []
    assert found == []


def test_a_file_without_records_gives_its_faults_to_the_first_part(files: dict) -> None:
    p, limits = files["header only"]
    _, ref, _ = whole(p, limits)
    assert [d.code for d in ref] == ["T101", "T101", "T101", "F007"]
    for cut in (1, 5, 30):
        inp, first = file_input(p, limits), []
        assert list(read_input(inp, part=(0, cut), file_diagnostics=first)) == []
        inp, rest = file_input(p, limits), []
        assert list(read_input(inp, part=(cut, END), file_diagnostics=rest)) == []
        assert (first, rest) == (ref, [])


def test_records_outside_the_part_are_not_built(files: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    p, limits = files["damaged"]
    boards, _, _ = whole(p, limits)
    built: list[int] = []
    board = lin_parser._board

    def counting(parts, header, origin):
        built.append(origin.index)
        return board(parts, header, origin)

    monkeypatch.setattr(lin_parser, "_board", counting)
    start, stop = boards[20].origin.offset, boards[30].origin.offset
    got = list(read_input(file_input(p, limits), part=(start, stop), file_diagnostics=[]))
    assert [b.origin.index for b in got] == list(range(20, 30))
    assert built == list(range(20, 30))


def test_a_part_stops_reading_at_its_first_record_past_it() -> None:
    lines = generated(50, 11).splitlines()
    pulled = []

    def source():
        for line in lines:
            pulled.append(line)
            yield line

    ref = list(parse_lin(lines, "x.lin", []))
    stop = ref[10].origin.offset
    got = list(parse_lin(source(), "x.lin", [], part=(ref[5].origin.offset, stop)))
    assert got == ref[5:10]
    assert len(pulled) == 11  # up to the line where record 10 starts


def test_the_segments_first_record_gets_the_header_commands_in_any_part(files: dict) -> None:
    """An unknown command of a vugraph header goes to the segment's first record, not to the
    first record that a part builds."""
    p, limits = files["damaged"]
    boards, _, _ = whole(p, limits)
    second = boards[15].origin.offset
    got = list(read_input(file_input(p, limits), part=(second, END), file_diagnostics=[]))
    assert got[0] == boards[15]
    assert all(("zz", "an unknown header command") not in b.extra for b in got)


# =========================================================================================
# Random files
# =========================================================================================

#: A small file of every framing: records framed by md, a vugraph segment, a trailing header.
SEED_TEXT = (
    generated(3, 12)
    + "vg|Cup,,I,1,2,H,0,V,0|rs|3NN=,4SS-1,,|pn|a,b,c,d,e,f,g,h|\n"
    + "".join("qx|" + line.replace("pn|", "pn|x,y,", 1) + "\n" for line in generated(3, 13).splitlines())
    + "vg|Two|"
    + generated(2, 14)
    + "pn|a,b,c,d|\n"
)
LIN_ALPHABET = "|||,,\n !mbpcmdqxvgpnrssvSHDC1234AKQT%7C~"


@settings(max_examples=250, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(SEED_TEXT)), st.integers(0, 30), st.text(LIN_ALPHABET, max_size=8)), max_size=4
    ),
    st.lists(st.integers(0, len(SEED_TEXT) + 50), min_size=1, max_size=5),
    st.sampled_from([None, 80, 400, 2000]),
)
def test_damaged_text_in_parts_is_the_whole_text(edits: list, cuts: list[int], limit: int | None) -> None:
    text = SEED_TEXT
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    lines = text.split("\n")
    ref_diags: list = []
    ref = list(parse_lin(lines, "r.lin", ref_diags, limit))
    offsets = [b.origin.offset for b in ref]
    assert offsets == sorted(set(offsets))
    bounds = [0, *sorted(set(c for c in cuts if c > 0)), END]
    boards, diags = [], []
    for start, stop in zip(bounds, bounds[1:]):
        boards += parse_lin(lines, "r.lin", diags, limit, part=(start, stop))
    assert boards == ref
    assert [b.origin for b in boards] == [b.origin for b in ref]
    assert diags == ref_diags


# =========================================================================================
# The parent's view, and validate_paths
# =========================================================================================


def split_unit(p: Path, limits: Limits, cuts: list[int]) -> vr._SplitUnit:
    bounds = [0, *cuts, END]
    results = iter([vr._read_part(file_input(p, limits), part) for part in zip(bounds, bounds[1:])])
    return vr._SplitUnit(file_input(p, limits), len(bounds) - 1, next(results), lambda: next(results))


@pytest.mark.parametrize("seed", range(4))
def test_split_unit_is_the_whole_input_board_by_board(files: dict, seed: int) -> None:
    """Each board's diagnostics, number, record and mark (how many of the input's
    diagnostics existed then: the F002 and F013 of the reading come part-way), then the
    input's diagnostics, as one process reads the file."""
    p, limits = files["damaged"]
    inp = file_input(p, limits)
    ref = list(vr._items(inp))
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, p.stat().st_size + 500), rng.randint(2, 10)))
    unit = split_unit(p, limits, cuts)
    items = list(unit.items)
    assert len(items) == len(ref) == 44
    for a, b in zip(items, ref):
        assert (a.mark, a.number, a.diagnostics, a.record, a.failure) == (
            b.mark,
            b.number,
            b.diagnostics,
            b.record,
            None,
        )
    assert unit.diagnostics() == inp.diagnostics
    assert [d.code for d in inp.diagnostics] == ["F013", "T101", "F007", "F003", "T101", "F002", "F017"]
    assert len({x.mark for x in ref}) > 2  # the marks grow as the reading goes


def test_split_unit_gives_f018_for_a_lin_file_without_records(tmp_path: Path) -> None:
    p = tmp_path / "nothing.lin"
    p.write_text("pg||\n" * 3000)
    inp = file_input(p, Limits())
    assert list(vr._items(inp)) == []
    unit = split_unit(p, Limits(), [2000, 9000])
    assert list(unit.items) == []
    assert [d.code for d in unit.diagnostics()] == [d.code for d in inp.diagnostics] == ["F018"]


def test_part_bounds_of_a_lin_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "a.lin"
    p.write_bytes(generated(200, 15).encode() + b'nt|"#|\n')  # "# is no inheritance in LIN: split all the same
    size = p.stat().st_size
    inp = file_input(p, LIMITS)
    parts = vp._part_bounds(inp, 2, size // 5)
    assert len(parts) == 2  # one part a job, however small part_bytes
    assert parts[0][0] == 0 and parts[-1][1] == END and parts[0][1] == parts[1][0]
    assert abs(parts[0][1] - size // 2) < size // 50  # two halves
    assert len(vp._part_bounds(inp, 3, 1)) == 3
    assert vp._part_bounds(inp, 2, size) is None  # not over part_bytes
    monkeypatch.setattr(vp, "LIN_PART_BYTES", size // 5)  # parts one a job would be too big
    parts = vp._part_bounds(inp, 2, size // 5)
    assert len(parts) == 6  # 2 x 3 parts of at most size // 5: 3 a job
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
    sizes = [b - a for a, b in parts[:-1]] + [size - parts[-1][0]]
    assert all(abs(x - size // 6) < size // 50 for x in sizes)  # parts of the same length
    monkeypatch.setattr(vp, "LIN_PART_BYTES", 1)
    assert len(vp._part_bounds(inp, 2, 1)) == 2 * vp.PARTS_PER_JOB  # at most PARTS_PER_JOB a job
    monkeypatch.setattr(vp, "LIN_PART_BYTES", size // 5)
    # a run that may stop early: a small first part (what the parent waits for), then as many as without it
    early = vp._part_bounds(inp, 2, size // 5, first_bytes=size // 20)
    assert len(early) == 7 and early[0] == (0, early[1][0]) and early[-1][1] == END
    assert size // 25 < early[0][1] <= size // 20
    assert all(a[1] == b[0] for a, b in zip(early, early[1:]))
    gz = Input(inp.path, "lin", source=FileSource(str(p), "gzip"), size=size)
    assert vp._part_bounds(gz, 2, 1000) is None
    streamed = Input(inp.path, "lin", opener=lambda: open(p, "rb"), size=size)
    assert vp._part_bounds(streamed, 2, 1000) is None


def test_cuts() -> None:
    assert vp._cuts(0, 100, 4) == [0, 25, 50, 75, 100]
    assert vp._cuts(10, 110, 3) == [10, 43, 76, 110]


@pytest.fixture(scope="module")
def big_lin(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two LIN files of a few hundred records with faults (A30x, C504, S-codes...), and a damaged one."""
    folder = tmp_path_factory.mktemp("big-lin")
    a, b, c = folder / "a.lin", folder / "b.lin", folder / "c.lin"
    a.write_text(generated(300, 16).replace("|mb|1S|", "|mb|1C|", 40).replace("|mc|", "|mc|1", 5))
    b.write_text(vugraph(6, 20, 17).replace("|mb|2H|", "|mb|1C|", 30))
    c.write_bytes(damaged_lin(18))
    return [a, b, c]


@pytest.mark.parametrize(
    "kw, reports",
    [
        ({}, 3),
        ({"strict": True}, 3),
        ({"max_errors": 1}, 1),
        ({"max_errors": 7}, 1),
        ({"max_errors": 60, "strict": True}, 2),
        ({"max_errors": 150}, 2),
        ({"max_errors": 170}, 3),
        ({"max_errors": 1000}, 3),
    ],
    ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items()) or "plain" if isinstance(x, dict) else str(x),
)
def test_validate_paths_same_reports_with_one_job_and_two(
    big_lin: list[Path], kw: dict, reports: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, int | None]] = []
    bounds = vp._part_bounds

    def spy(inp, jobs, part_bytes, first_bytes=None):
        parts = bounds(inp, jobs, part_bytes, first_bytes)
        seen.append((Path(inp.path).name, None if parts is None else len(parts)))
        return parts

    monkeypatch.setattr(vp, "_part_bounds", spy)
    monkeypatch.setattr(vp, "PARTS_PER_JOB", 5)
    monkeypatch.setattr(vp, "LIN_PART_BYTES", 5_000)
    monkeypatch.setattr(vp, "EARLY_PART_BYTES", 15_000)
    monkeypatch.setattr(vp, "EARLY_FIRST_BYTES", 4_000)
    one = summary(list(vr.validate_paths(big_lin, jobs=1, limits=LIMITS, **kw)))
    two = summary(list(vr.validate_paths(big_lin, jobs=2, limits=LIMITS, pool_bytes=0, part_bytes=15_000, **kw)))
    assert two == one
    assert dict(seen)["a.lin"] == 10 + ("max_errors" in kw)  # 5 parts a job (and a small first one)
    assert len(one) == reports
    errors = [x[3] for x in one]
    if len(one) < 3 or kw.get("max_errors", 1000) <= sum(errors):  # stopped part-way
        assert [x[5] for x in one] == [False] * (reports - 1) + [True]
        assert sum(errors[:-1]) < kw["max_errors"] <= sum(errors)
        assert one[-1][2] < [300, 240, 44][reports - 1]  # the stopping input is read up to there
    else:
        assert [x[2] for x in one] == [300, 240, 44]
        assert [x[5] for x in one] == [False, False, False]
        # b.lin's 1C for 2H: called over, each stands (Law 27A1), a final one as the contract
        assert errors == [43, 120, 14]
        codes = {line.split(": ")[1].split()[0] for x in one for line, _ in x[6]}
        assert {"A301", "P408", "C506", "F003", "F011", "F013", "F016", "F017"} <= codes
        assert ("F007" in codes) is kw.get("strict", False)  # the header's unknown command: --strict only


def test_validate_paths_a_bug_in_a_lin_part_is_f015_at_the_same_board(
    big_lin: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import handrec.rules.validator

    analyse = handrec.rules.validator.analyse

    def analyse_150(board):
        if board.origin.index == 150:
            raise RuntimeError("boom")
        return analyse(board)

    monkeypatch.setattr(handrec.rules.validator, "analyse", analyse_150)
    one = summary(list(vr.validate_paths(big_lin[:1], jobs=1, limits=LIMITS)))
    two = summary(list(vr.validate_paths(big_lin[:1], jobs=2, limits=LIMITS, pool_bytes=0, part_bytes=10_000)))
    assert two == one
    assert one[0][2] == 151
    assert [x for x, _ in one[0][6] if " F015 " in x] != []
