"""handrec.runs.validate: parts of a PBN file read apart give the whole file; reports the same whatever ``jobs``."""

from __future__ import annotations

import io
import os
import pickle
import random
from concurrent.futures import Future
from pathlib import Path

import pytest
from _reports import summary

import handrec.rules.validator
import handrec.runs.parts as vp
import handrec.runs.validate as vr
from handrec.events.checks import EventChecker
from handrec.events.games import record
from handrec.formats.dispatch import read, read_input
from handrec.formats.pbn.writer import dump
from handrec.generate import generate_boards
from handrec.inputs.limits import Limits
from handrec.inputs.sources import FileSource, Input
from handrec.rules.validator import analyse

ROOT = Path(__file__).resolve().parents[2]
#: Small limits, so that the damaged file below has long lines (F013) and a game too big to parse (F016).
LIMITS = Limits(max_line_bytes=2000, max_board_bytes=30_000)


def damaged_pbn(games: int = 160, seed: int = 2) -> bytes:
    """An export-format PBN file with faults of every kind a reading finds, as bytes.

    Games: a wrong result and score, a syntax error (F003), a game over the
    board limit (F016), a long line (F013 and F021), tabs (F020); a Latin-1
    byte (F002) in the middle; stray words between games (F006: no game); a
    brace comment open at the end (F005).
    """
    buf = io.StringIO()
    dump(generate_boards(games, seed=seed, tables=4), buf)
    blocks = buf.getvalue().replace("\r\n", "\n").split("\n\n")
    out = []
    for i, g in enumerate(blocks):
        if i % 23 == 3:
            g = g.replace('[Result "', '[Result "1', 1)
        if i % 29 == 5:
            g = g.replace("[Deal ", "[Deal x ", 1)
        if i % 31 == 7:
            g += "\n; " + "y" * 3000
        if i % 37 == 9:
            g = g.replace("[Play", "\t[Play", 1)
        if i == 70:
            g += "\n{" + "a comment that makes the game too big\n" * 1000 + "}"
        out.append(g)
        if i % 41 == 11:
            out.append("stray words between games")  # no tag pair: no game (F006 of the file)
    data = ("\n\n".join(out) + "\n\n\t\n{ open comment at the end\n").encode()
    mid = data.index(b"[Event", len(data) // 2)
    return data[:mid] + b"; caf\xe9\n" + data[mid:]


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("parts") / "damaged.pbn"
    p.write_bytes(damaged_pbn())
    return p


def file_input(p: Path) -> Input:
    return Input(str(p), "pbn", source=FileSource(str(p)), size=p.stat().st_size, limits=LIMITS)


def whole(p: Path) -> tuple[list, list, list]:
    """The boards, the parser's file diagnostics and the reading's own diagnostics of one reading."""
    inp, parser = file_input(p), []
    boards = list(read_input(inp, file_diagnostics=parser))
    return boards, parser, inp.diagnostics


def in_parts(p: Path, cuts: list[int]) -> tuple[list, list, list]:
    """The same, read as the parts ``[0, cuts[0]), ..., [cuts[-1], inf)``, each apart."""
    bounds = [0, *cuts, 10**18]
    boards, parser, reading = [], [], []
    for start, stop in zip(bounds, bounds[1:]):
        inp, found = file_input(p), []
        boards += read_input(inp, part=(start, stop), file_diagnostics=found)
        parser += found
        reading = inp.diagnostics  # the last part reads the whole file
    return boards, parser, reading


def test_the_damaged_file_has_every_kind_of_fault(damaged: Path) -> None:
    boards, parser, reading = whole(damaged)
    assert len(boards) == 160
    assert {d.code for d in parser} == {"F005", "F006", "F020", "F021"}
    assert {d.code for d in reading} == {"F002", "F013"}
    board_codes = {d.code for b in boards for d in analyse(b).diagnostics}
    assert {"F003", "F016", "C504"} <= board_codes


@pytest.mark.parametrize("seed", range(6))
def test_parts_give_the_boards_and_file_diagnostics_of_the_whole_file(damaged: Path, seed: int) -> None:
    ref_boards, ref_parser, ref_reading = whole(damaged)
    last_game = ref_boards[-1].origin.offset
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, last_game), rng.randint(1, 12)))
    boards, parser, reading = in_parts(damaged, cuts)
    assert len(boards) == len(ref_boards)
    assert boards == ref_boards  # same records, lines, offsets, indexes
    assert [b.origin for b in boards] == [b.origin for b in ref_boards]
    assert parser == ref_parser
    assert reading == ref_reading


@pytest.fixture
def tail_faults(tmp_path: Path) -> Path:
    """An export-format file with faults after its last game: a tab, a separator with a space."""
    p = tmp_path / "tail.pbn"
    buf = io.StringIO()
    dump(generate_boards(20, seed=5), buf)
    p.write_bytes((buf.getvalue() + "\t\r\n \r\n").encode())
    return p


def test_parts_past_the_last_game_get_the_trailing_faults_once(tail_faults: Path) -> None:
    p = tail_faults
    ref_boards, ref_parser, _ = whole(p)
    assert [d.code for d in ref_parser] == ["F020", "F020", "F020"]
    last_game = ref_boards[-1].origin.offset
    boards, parser, _ = in_parts(p, [last_game // 2, last_game + 10, last_game + 20])
    assert boards == ref_boards
    assert parser == ref_parser


def test_split_unit_reports_the_trailing_faults_once(tail_faults: Path) -> None:
    p = tail_faults
    inp = file_input(p)
    ref = list(vr._items(inp))
    last_game = ref[-1].record.origin.offset
    unit = split_unit(p, [last_game // 2, last_game + 10, last_game + 20])
    assert [x.mark for x in unit.items] == [x.mark for x in ref]
    assert unit.diagnostics() == inp.diagnostics
    assert [d.code for d in inp.diagnostics] == ["F020", "F020", "F020"]


def split_unit(p: Path, cuts: list[int]) -> vr._SplitUnit:
    bounds = [0, *cuts, 10**18]
    results = iter([vr._read_part(file_input(p), part) for part in zip(bounds, bounds[1:])])
    return vr._SplitUnit(file_input(p), len(bounds) - 1, next(results), lambda: next(results))


@pytest.mark.parametrize("seed", range(4))
def test_split_unit_is_the_whole_input_board_by_board(damaged: Path, seed: int) -> None:
    """The parent's view of a split file: each board's diagnostics, number, record and
    mark (how many of the input's diagnostics existed then), then the input's diagnostics."""
    inp = file_input(damaged)
    ref = list(vr._items(inp))
    size = damaged.stat().st_size
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, size + 5000), rng.randint(2, 14)))  # some past the last game
    unit = split_unit(damaged, cuts)
    items = list(unit.items)
    assert len(items) == len(ref) == 160
    for a, b in zip(items, ref):
        assert (a.mark, a.number, a.diagnostics, a.record, a.failure) == (
            b.mark,
            b.number,
            b.diagnostics,
            b.record,
            None,
        )
        assert a.record.origin == b.record.origin
    assert unit.diagnostics() == inp.diagnostics
    assert [ref[i].mark for i in (0, 80, 159)] != [0, 0, 0]  # the marks grow as the reading goes


def test_split_unit_gives_f018_for_a_file_without_games(tmp_path: Path) -> None:
    p = tmp_path / "nothing.pbn"
    p.write_text("% PBN 2.1\n" + "; only comments\n" * 2000)
    inp = file_input(p)
    assert list(vr._items(inp)) == []
    unit = split_unit(p, [5000, 20000])
    assert list(unit.items) == []
    assert [d.code for d in unit.diagnostics()] == [d.code for d in inp.diagnostics] == ["F018"]


def test_merge_puts_each_parser_diagnostic_after_its_mark() -> None:
    assert vr._merge(["r0", "r1", "r2"], ["p0", "p1", "p2"], [0, 2, 3]) == ["p0", "r0", "r1", "p1", "r2", "p2"]
    assert vr._merge([], ["p0"], [0]) == ["p0"]


def test_game_records_pickle(corpus_dir: Path) -> None:
    paths = [ROOT / "sample_data", corpus_dir / "pbn" / "pbn20_reference_score_tables.pbn", corpus_dir / "lin"]
    n = 0
    for path in paths:
        for b in read(path):
            r = record(b, analyse(b).replay)
            back = pickle.loads(pickle.dumps(r))
            assert back == r and back.origin == r.origin and back.tables == r.tables
            n += 1
    assert n > 60


def test_add_record_is_add() -> None:
    boards = list(read(ROOT / "sample_data" / "club_session.pbn"))
    a, b = EventChecker(), EventChecker()
    for board in boards:
        a.add(board)
        b.add_record(record(board))
    assert a.finish() == b.finish()


class _LazyFuture(Future):
    """Runs its call when its result is asked for; counts what is in flight."""

    def __init__(self, fn, args, flight: list[int]) -> None:
        super().__init__()
        self.call, self.flight = (fn, args), flight
        flight[0] += 1
        flight[1] = max(flight[1], flight[0])

    def result(self, timeout=None):
        if not self.done():
            self.flight[0] -= 1
            self.set_result(self.call[0](*self.call[1]))
        return super().result()


class _Executor:
    def __init__(self) -> None:
        self.flight = [0, 0]

    def submit(self, fn, *args):
        return _LazyFuture(fn, args, self.flight)


def test_in_order_bounds_the_tasks_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vr, "_read_inputs", lambda inputs, strict: [inp.path for inp in inputs])
    tasks = [vp._Task("inputs", (Input(f"f{i}", "pbn"),)) for i in range(40)]
    ex = _Executor()
    got = [(t.inputs[0].path, r) for t, r in vr._in_order(tasks, ex, jobs=3)]
    assert got == [(f"f{i}", [f"f{i}"]) for i in range(40)]
    assert ex.flight[1] == 2 * 3 + 1  # 2 x jobs waiting, beside the one being taken


def test_part_bounds(tmp_path: Path) -> None:
    p = tmp_path / "a.pbn"
    p.write_bytes(damaged_pbn(40))
    size = p.stat().st_size
    inp = file_input(p)
    parts = vp._part_bounds(inp, 2, size // 3)
    assert len(parts) == 4  # 3 or 4 parts of size // 3: rounded up to a multiple of the jobs
    assert parts[0][0] == 0 and parts[-1][1] == 10**18
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
    assert len(vp._part_bounds(inp, 2, 1)) == vp.PARTS_PER_JOB * 2  # at most PARTS_PER_JOB a worker
    assert vp._part_bounds(inp, 2, size) is None  # one part
    assert vp._part_bounds(Input(inp.path, None, source=inp.source, size=size), 2, 1000) is None  # not PBN nor LIN
    assert len(vp._part_bounds(Input(inp.path, "lin", source=inp.source, size=size), 2, 1000)) == 2  # LIN: one a job
    # a run that may stop early: a small first part (what the parent waits for), the rest even
    early = vp._part_bounds(inp, 2, size // 3, first_bytes=size // 20)
    assert len(early) == 4 and early[0][0] == 0 and early[-1][1] == 10**18
    assert all(a[1] == b[0] for a, b in zip(early, early[1:]))
    assert size // 25 < early[0][1] <= size // 20 < early[1][1] - early[1][0]
    gz = Input(inp.path, "pbn", source=FileSource(str(p), "gzip"), size=size)
    assert vp._part_bounds(gz, 2, 1000) is None
    q = tmp_path / "b.pbn"
    q.write_bytes(p.read_bytes().replace(b'[Site "Generated"]', b'[Site "#"]', 1))
    assert vp._part_bounds(file_input(q), 2, 1000) is None  # "# : ## inheritance may be there


def test_validate_paths_arguments() -> None:
    for kw in ({"jobs": 0}, {"max_errors": 0}, {"part_bytes": 0}, {"pool_bytes": -1}, {"task_bytes": 0}):
        with pytest.raises(ValueError):
            vr.validate_paths(["x"], **kw)


def test_reports_of_inputs_and_of_entries_not_read(tmp_path: Path) -> None:
    reports = list(vr.validate_paths([ROOT / "sample_data", tmp_path / "missing.pbn"], jobs=1))
    assert [(Path(r.path).name, r.is_input, r.boards, r.errors) for r in reports] == [
        ("bbo_hands.lin", True, 4, 1),
        ("club_pairs.pbn", True, 8, 2),
        ("club_session.pbn", True, 32, 0),
        ("missing.pbn", False, 0, 1),
    ]
    assert reports[1].findings[0].board_number == 3 and reports[1].findings[0].diagnostic.code == "S601"
    assert [f.diagnostic.code for f in reports[3].findings] == ["F001"]
    stopped = list(vr.validate_paths([ROOT / "sample_data"], jobs=1, max_errors=2))
    assert [(r.boards, r.errors, r.stopped) for r in stopped] == [(4, 1, False), (3, 1, True)]


def test_a_bug_is_f015_at_the_same_board_whatever_the_jobs(damaged: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception while checking board 100 (a bug, not an input fault) ends the input there, with F015."""

    def analyse_400(board):
        if board.origin.index == 100:
            raise RuntimeError("boom")
        return analyse(board)

    monkeypatch.setattr(
        handrec.rules.validator, "analyse", analyse_400
    )  # before the pool forks: the workers have it too
    paths = [damaged, ROOT / "sample_data" / "club_session.pbn"]
    one = summary(list(vr.validate_paths(paths, jobs=1, limits=LIMITS)))
    two = summary(list(vr.validate_paths(paths, jobs=2, limits=LIMITS, pool_bytes=0, part_bytes=20_000)))
    assert two == one
    assert [x[2] for x in one] == [101, 32]  # the parts after board 100 dropped, the next input read
    f015 = [x for x in one[0][6] if " F015 " in x[0]]
    message = "handrec failed on this input (RuntimeError: boom); the rest of it is not read: please report it"
    assert f015 == [(f"{damaged}: F015 error: {message}", None)]


def test_streamed_tar_members_are_read_here_in_their_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tar members too big to hold (over ``inline_bytes``) are read in this process, between the pool's tasks."""
    import tarfile

    t = tmp_path / "games.tar.gz"
    with tarfile.open(t, "w:gz") as tf:
        for i, data in enumerate([damaged_pbn(40, seed=11), b'[Event "x"]\n[Board "1"]\n', damaged_pbn(60, seed=12)]):
            info = tarfile.TarInfo(f"g{i}.pbn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    limits = Limits(max_line_bytes=2000, inline_bytes=1000)
    kinds: list[str] = []
    submit = vr._submit

    def spy(executor, task, *slot):
        kinds.append(task.kind)
        return submit(executor, task, *slot)

    monkeypatch.setattr(vr, "_submit", spy)
    paths = [t, ROOT / "sample_data"]
    one = summary(list(vr.validate_paths(paths, jobs=1, limits=limits)))
    two = summary(list(vr.validate_paths(paths, jobs=2, limits=limits, pool_bytes=0)))
    assert two == one
    assert kinds == ["here", "inputs", "here", "inputs"]
    assert [(Path(x[0]).name, x[2]) for x in one] == [
        ("games.tar.gz!g0.pbn", 40),
        ("games.tar.gz!g1.pbn", 1),
        ("games.tar.gz!g2.pbn", 60),
        ("bbo_hands.lin", 4),
        ("club_pairs.pbn", 8),
        ("club_session.pbn", 32),
    ]


def test_a_worker_drops_its_task_once_the_run_has_stopped(damaged: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    event = multiprocessing.Event()
    monkeypatch.setattr(vr, "_stop_event", (event, -1))  # as a worker sees it: the pool runs in another process
    assert len(list(vr._items(file_input(damaged)))) == 160
    event.set()
    assert len(list(vr._items(file_input(damaged)))) == vr._STOP_EVERY
    monkeypatch.setattr(vr, "_stop_event", (event, os.getpid()))  # the process that runs the pool reads on
    assert len(list(vr._items(file_input(damaged)))) == 160
