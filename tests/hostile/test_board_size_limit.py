"""The per-board size limit (``Limits.max_board_bytes``, ``--max-board-size``): F016.

A PBN game or a LIN record larger than the limit is not held in memory past
it nor parsed: it is counted as a board that carries only an F016 error at
its first line, and the reading goes on at the next board boundary.  Every
board read is in the output or in the diagnostics, and the counts add up.
"""

from __future__ import annotations

import io
import itertools
import tracemalloc
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.formats.dispatch import read_input
from handrec.formats.lin.reader import parse_lin
from handrec.formats.pbn.reader import parse_pbn
from handrec.inputs.limits import Limits
from handrec.inputs.sources import Input
from handrec.runs.convert import convert

from .test_bad_inputs import BASE, LIN

runner = CliRunner()


def run(*args: object):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _game(n: int) -> str:
    """BASE as the one board of event ``En``."""
    return BASE.replace('[Event "Club"]', f'[Event "E{n}"]')


#: Game 2 holds a brace comment of 3,000 characters over several lines, with an empty
#: line inside it (not a game separator: it is inside the comment).
HUGE_COMMENT = "{" + "\n".join(["x" * 1000, "", "y" * 1000, "z" * 1000]) + "}\n"
PBN = _game(1) + "\n" + _game(2).replace("[Auction", HUGE_COMMENT + "[Auction") + "\n" + _game(3)


def test_pbn_game_over_the_limit_is_reported_and_the_next_game_read(tmp_path: Path) -> None:
    f = tmp_path / "big.pbn"
    f.write_text(PBN)
    r = run("validate", "--max-board-size", "2K", f)
    assert r.stdout.replace(str(f), "{f}").splitlines() == [
        "{f}:29:0: F016 error: board starting at line 29 is larger than the limit of 2048 bytes: not read",
        "1 files, 3 boards, 1 errors, 0 warnings",
    ]
    assert r.exit_code == 2  # a board could not be read, as for F013
    r = run("validate", "--max-board-size", "4K", f)
    assert r.stdout.splitlines() == ["1 files, 3 boards, 0 errors, 0 warnings"]
    assert r.exit_code == 0


def test_pbn_limit_through_the_api_and_its_exact_edge() -> None:
    games = PBN.split("\n")
    second = _game(2).replace("[Auction", HUGE_COMMENT + "[Auction").rstrip("\n")
    size = len(second)  # its lines joined by line ends: what the parser would be given
    for limit, big in ((size, False), (size - 1, True)):
        fd: list = []
        boards = list(parse_pbn(games, "g.pbn", fd, limit))
        assert [b.number for b in boards] == [1, None if big else 1, 1]
        assert [b.origin.line for b in boards] == [1, 29, 61]
        assert [b.origin.index for b in boards] == [0, 1, 2]
        codes = [d.code for d in boards[1].diagnostics]
        assert codes == (["F016"] if big else ["F026"] * 3)  # its comment's three long lines (PBN 2.1 §2.3)
        assert fd == []
    assert [str(d) for d in boards[1].diagnostics] == [
        f"g.pbn:29:0: F016 error: board starting at line 29 is larger than the limit of {size - 1} bytes: not read"
    ]
    assert boards[1].tags == () and boards[1].deal is None  # nothing of it is read


def test_pbn_limit_counts_and_rows_in_convert(tmp_path: Path) -> None:
    f = tmp_path / "big.pbn"
    f.write_text(PBN)
    s = convert([f], tmp_path / "ds", jobs=1, limits=Limits(max_board_bytes=2048))
    assert (s.files, s.boards, s.errors) == (1, 3, 1)
    rows = pq.read_table(tmp_path / "ds" / "diagnostics.parquet").to_pylist()
    assert [(r["code"], r["line"], r["column"]) for r in rows] == [("F016", 29, 0)]
    boards = pq.read_table(tmp_path / "ds" / "boards.parquet").to_pylist()
    assert len(boards) == 3


def test_pbn_open_comment_at_the_end_of_a_game_over_the_limit() -> None:
    """A brace comment never closed: F005 for the file, F016 for the game it swallowed."""
    lines = ('[Board "1"]\n\n[Board "2"]\n{' + "x" * 100 + "\n\n" + "y" * 100).split("\n")
    fd: list = []
    boards = list(parse_pbn(lines, "o.pbn", fd, 150))
    assert [str(d) for d in fd] == ["o.pbn:4:1: F005 error: brace comment not closed before end of file"]
    assert [b.number for b in boards] == [1, None]
    assert [str(d) for d in boards[1].diagnostics] == [
        "o.pbn:3:0: F016 error: board starting at line 3 is larger than the limit of 150 bytes: not read"
    ]


def test_pbn_comment_only_block_over_the_limit_is_no_board() -> None:
    """A block of comments alone is no game, large or not: nothing to report."""
    lines = ("{" + "x" * 500 + "}\n\n" + _game(1)).split("\n")
    boards = list(parse_pbn(lines, "c.pbn", [], 100))
    assert [b.number for b in boards] == [None]  # game 1 is itself over 100 characters
    boards = list(parse_pbn(lines, "c.pbn", [], 2048))
    assert [(b.number, b.diagnostics) for b in boards] == [(1, ())]


def test_pbn_export_faults_are_still_found_in_a_game_over_the_limit() -> None:
    lines = ["% EXPORT", '[Board "1"]', "{" + "x" * 300 + "}", '[Dealer\t"N"]', "", '[Board "2"]']
    fd: list = []
    boards = list(parse_pbn(lines, "e.pbn", fd, 100))
    assert [b.number for b in boards] == [None, 2]
    assert [(d.code, d.line, d.column) for d in fd] == [("F021", 3, 1), ("F020", 4, 8)]


def test_a_huge_pbn_game_is_streamed_not_held() -> None:
    """A game of 64 MiB of comment lines: memory stays near the limit, the next game is read."""

    class Endless(io.RawIOBase):
        def __init__(self) -> None:
            line = b"{" + b"y" * ((1 << 20) - 3) + b"}\n"  # one object, handed out 64 times
            self.chunks = itertools.chain([b'[Board "1"]\n'], [line] * 64, [b'[Dealer "E"]\n\n[Board "2"]\n'])

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return next(self.chunks, b"")

    inp = Input("huge.pbn", "pbn", opener=Endless, limits=Limits(max_board_bytes=2 << 20))
    tracemalloc.start()
    try:
        big, nxt = read_input(inp)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak
    assert [str(d) for d in big.diagnostics] == [
        "huge.pbn:1:0: F016 error: board starting at line 1 is larger than the limit of 2097152 bytes: not read"
    ]
    assert (nxt.number, nxt.origin.line, nxt.diagnostics) == (2, 68, ())
    assert inp.diagnostics == []


# --- LIN ------------------------------------------------------------------------------------------

MD = "md|3S875HT93D763CQ532,SJ4HQ764DK52CT986,SAQ6HAKJ5DJ8CKJ74,SKT932H82DAQT94CA|"
AUCTION = "mb|1H|mb|1S|mb|p|mb|1N|mb|2H|mb|2S|mb|p|mb|p|mb|p|"


def _vugraph(big: int) -> list[str]:
    """A vugraph match of three deals in two rooms; the open room's deal 2 has an alert
    explanation of ``big`` characters."""
    lines = ["vg|Cup,R1,I,1,3,A,0,B,0|", "pn|Ann,Bob,Cy,Di,Ed,Flo,Gus,Hal|pg||"]
    for n, dealer, vul in ((1, "3", "o"), (2, "4", "n"), (3, "1", "e")):  # LIN dealer 1-4: S W N E
        for room in "oc":
            explain = f"an|{'w' * big}|" if (n, room) == (2, "o") else ""
            lines += [f"qx|{room}{n}|md|{dealer}{MD[4:]}sv|{vul}|pg||", f"mb|1H!|{explain}{AUCTION[6:]}pg||"]
    return lines


def test_lin_vugraph_deal_over_the_limit_is_reported_and_the_next_deal_read(tmp_path: Path) -> None:
    f = tmp_path / "match.lin"
    f.write_text("\n".join(_vugraph(3000)) + "\n")
    r = run("validate", "--max-board-size", "2K", f)
    assert r.stdout.replace(str(f), "{f}").splitlines() == [
        "{f}:7:0: F016 error: board starting at line 7 is larger than the limit of 2048 bytes: not read",
        "1 files, 6 boards, 1 errors, 0 warnings",
    ]
    assert r.exit_code == 2  # a board could not be read, as for F013
    assert run("validate", "--max-board-size", "4K", f).stdout.splitlines()[-1] == (
        "1 files, 6 boards, 0 errors, 0 warnings"
    )


def test_lin_vugraph_limit_through_the_api() -> None:
    fd: list = []
    boards = list(parse_lin(_vugraph(3000), "m.lin", fd, 2048))
    assert fd == []
    assert [b.origin.line for b in boards] == [3, 5, 7, 9, 11, 13]
    assert [b.origin.index for b in boards] == list(range(6))
    assert [[d.code for d in b.diagnostics] for b in boards] == [[], [], ["F016"], [], [], []]
    assert [b.number for b in boards] == [1, 1, None, 2, 3, 3]
    # the header still holds for the deals after the big one: players by room
    assert [b.tag("North") for b in boards] == ["Cy", "Gus", None, "Gus", "Cy", "Gus"]
    assert [str(b.auction) for b in boards[3:4]] == ["1H 1S Pass 1NT 2H 2S Pass Pass Pass"]


def test_lin_record_per_line_over_the_limit() -> None:
    """One record a line (no qx): the long line's record is reported, the pn before the
    next md still goes with that next record."""
    long = LIN.replace("ah|Board 1|", "ah|Board 1|an|" + "v" * 500 + "|").rstrip("\n")
    lines = [LIN.rstrip("\n"), long, LIN.rstrip("\n")]
    boards = list(parse_lin(lines, "r.lin", [], 400))
    assert [b.origin.line for b in boards] == [1, 2, 3]
    assert [[d.code for d in b.diagnostics] for b in boards] == [[], ["F016"], []]
    assert [b.tag("South") for b in boards] == ["Hal", None, "Hal"]
    assert [str(d) for d in boards[1].diagnostics] == [
        "r.lin:2:0: F016 error: board starting at line 2 is larger than the limit of 400 bytes: not read"
    ]


def test_lin_pair_cut_by_line_ends_over_the_limit() -> None:
    """A value running over many line ends (no closing pipe) is dropped at the limit; the
    reading goes on after its closing pipe."""
    lines = ["qx|o1|" + MD + "sv|o|", "an|start"] + ["u" * 100] * 50 + ["end|" + AUCTION, "qx|o2|" + MD + AUCTION]
    boards = list(parse_lin(lines, "c.lin", [], 1000))
    assert [b.origin.line for b in boards] == [1, 54]
    assert [str(d) for d in boards[0].diagnostics] == [
        "c.lin:1:0: F016 error: board starting at line 1 is larger than the limit of 1000 bytes: not read"
    ]
    assert boards[1].number == 2 and [d.code for d in boards[1].diagnostics] == []
    # without the limit the cut pair is read, joined
    (one, two) = parse_lin(lines, "c.lin", [])
    assert one.number == 1 and two.number == 2


@pytest.mark.parametrize("limit", [0, 10, 100, 1000])
def test_every_record_is_counted_whatever_the_limit(limit: int) -> None:
    lines = _vugraph(300)
    assert len(list(parse_lin(lines, "m.lin", [], limit))) == 6
    assert len(list(parse_pbn(PBN.split("\n"), "g.pbn", [], limit))) == 3


def test_lin_header_over_the_limit_is_a_file_fault_not_a_board() -> None:
    """The pairs before the first qx are the match's header, no board: over the limit they
    are not read (file-level F016) and every deal after them is still read."""
    lines = _vugraph(0)
    lines[1:1] = ["rs|" + ",".join(["3NN=", "4SS-1"] * 50) + "|"]
    fd: list = []
    boards = list(parse_lin(lines, "h.lin", fd, 300))
    assert [str(d) for d in fd] == [
        "h.lin:1:0: F016 error: board starting at line 1 is larger than the limit of 300 bytes: not read"
    ]
    assert [b.origin.line for b in boards] == [4, 6, 8, 10, 12, 14]
    assert all(b.diagnostics == () for b in boards)
    assert [b.tag("North") for b in boards] == [None] * 6  # the header's players were not read


@pytest.mark.parametrize("limit", [1, 300, 2000, 20000])
def test_corpus_boards_are_all_counted_at_any_limit(corpus_dir: Path, limit: int) -> None:
    """Real files: as many boards with the limit as without; a board over it carries F016
    alone, one under it reads as without the limit (when no earlier game was too big)."""
    files = sorted((corpus_dir / "pbn").iterdir()) + sorted((corpus_dir / "lin").iterdir())
    for f in files:
        fmt = "pbn" if f.parent.name == "pbn" else "lin"
        whole = list(read_input(Input(str(f), fmt, opener=lambda f=f: open(f, "rb"))))
        inp = Input(str(f), fmt, opener=lambda f=f: open(f, "rb"), limits=Limits(max_board_bytes=limit))
        cut = list(read_input(inp))
        assert len(cut) == len(whole), f
        seen_big = False
        for a, b in zip(whole, cut):
            assert a.origin == b.origin, f
            if any(d.code == "F016" for d in b.diagnostics):
                assert [d.code for d in b.diagnostics] == ["F016"], f
                seen_big = True
            elif not seen_big:
                assert b == a, f


def test_convert_exits_2_and_echoes_a_board_over_the_limit(tmp_path: Path) -> None:
    """Issue #22.5: convert, like validate, exits 2 on an F016 and prints it (on stderr, after its summary)."""
    f = tmp_path / "big.pbn"
    f.write_text(PBN)
    out = tmp_path / "ds"
    r = run("convert", "--max-board-size", "2K", f, "-o", out, "--jobs", "1")
    assert r.exit_code == 2
    assert r.stderr.replace(str(f), "{f}").replace(str(out), "{out}").splitlines() == [
        "1 files, 3 boards, 1 errors, 0 warnings -> {out}",
        "{f}:29:0: F016 error: board starting at line 29 is larger than the limit of 2048 bytes: not read",
    ]
    assert r.stdout == ""
    assert len(pq.read_table(out / "boards.parquet")) == 3  # the board is still a row, with its F016
    r = run("convert", "--max-board-size", "4K", f, "-o", tmp_path / "ds4", "--jobs", "1")
    assert r.exit_code == 0 and "F016" not in r.stderr


def test_convert_exits_2_on_a_lin_deal_over_the_limit(tmp_path: Path) -> None:
    f = tmp_path / "match.lin"
    f.write_text("\n".join(_vugraph(3000)) + "\n")
    r = run("convert", "--max-board-size", "2K", f, "-o", tmp_path / "ds", "--jobs", "2", "-q")
    assert r.exit_code == 2
    assert r.stderr.replace(str(f), "{f}").splitlines() == [
        "{f}:7:0: F016 error: board starting at line 7 is larger than the limit of 2048 bytes: not read",
    ]
