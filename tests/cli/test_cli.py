"""The command line, end to end: exact output and exit codes (typer's CliRunner)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app
from handrec.model import Seat

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
runner = CliRunner()

CLEAN = """[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Auction "N"]
1S Pass 2S Pass
4S Pass Pass Pass
[Contract "4S"]
[Declarer "N"]
[Result "10"]
[Score "NS 420"]
"""


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_validate_sample_data_exact_output() -> None:
    r = runner.invoke(app, ["validate", str(SAMPLE)])
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    s = str(SAMPLE)
    assert lines == [
        f"{s}/bbo_hands.lin:1:141: A301 error: 1D by N does not outrank 1H",
        f"{s}/club_pairs.pbn:92:1: S601 error: Score NS 470 but 2SX by S taking 10 tricks scores NS 670",
        f"{s}/club_pairs.pbn:195:1: C503 error: Result 10 but declarer took 11 tricks in the play",
        "3 files, 44 boards, 3 errors, 0 warnings",
    ]


def test_validate_clean_file_exits_0(tmp_path: Path) -> None:
    f = tmp_path / "clean.pbn"
    f.write_text(CLEAN)
    r = run("validate", f)
    assert r.exit_code == 0, r.stdout
    assert r.stdout == "1 files, 1 boards, 0 errors, 0 warnings\n"


def test_validate_json(tmp_path: Path) -> None:
    f = tmp_path / "bad.pbn"
    f.write_text(CLEAN.replace('[Score "NS 420"]', '[Score "NS 450"]'))
    r = run("validate", "--format", "json", f)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert (doc["files"], doc["boards"], doc["errors"], doc["warnings"]) == (1, 1, 1, 0)
    (d,) = doc["diagnostics"]
    assert d == {
        "path": str(f),
        "line": 12,
        "column": 1,
        "code": "S601",
        "severity": "error",
        "message": "Score NS 450 but 4S by N taking 10 tricks scores NS 420",
        "board_index": 0,
        "board_number": 1,
    }
    r = run("validate", "--format", "json", tmp_path / "nope.pbn")  # a fault of a whole input: no board
    (d,) = json.loads(r.stdout)["diagnostics"]
    assert (d["code"], d["board_index"], d["board_number"]) == ("F001", None, None)
    assert (d["line"], d["column"]) == (0, 0)  # line 0: the whole file, as in the diagnostics table


def test_validate_missing_path_exits_2(tmp_path: Path) -> None:
    r = run("validate", tmp_path / "nope.pbn")
    assert r.exit_code == 2
    assert r.stdout.splitlines() == [
        f"{tmp_path / 'nope.pbn'}: F001 error: cannot read input: No such file or directory",  # no fake 0:0
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
    ]


def test_validate_not_a_bridge_file_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("just some text\n")
    r = run("validate", f)
    assert r.exit_code == 2
    assert "F004 error: not PBN or LIN" in r.stdout


def test_validate_folder_skips_other_files(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("| a | b |\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.PBN").write_text(CLEAN)
    r = run("validate", tmp_path)
    assert r.exit_code == 0
    assert r.stdout == "1 files, 1 boards, 0 errors, 0 warnings\n"


def test_usage_error_exits_2() -> None:
    assert run("validate").exit_code == 2
    assert run("nosuchcommand").exit_code == 2


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds")
    r = runner.invoke(app, ["convert", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.stdout
    return out


def test_convert_writes_every_table(dataset: Path) -> None:
    for name in ("boards", "calls", "plays", "diagnostics", "files"):
        assert (dataset / f"{name}.parquet").is_file()
    assert not list(dataset.glob(".*tmp"))


def test_query_csv(dataset: Path) -> None:
    r = run(
        "query",
        dataset,
        "select board, contract, declarer, result, score_ns from boards where source_file like '%club_pairs.pbn' order by board",
        "--format",
        "csv",
    )
    assert r.exit_code == 0, r.stdout
    assert r.stdout.splitlines() == [
        "board,contract,declarer,result,score_ns",
        "1,2H,W,9,-140",
        "2,2NT,S,5,-300",
        "3,2SX,S,10,670",
        "4,2S,W,8,-110",
        "5,2H,E,9,-140",
        "6,3NT,N,11,460",
        "7,2S,W,8,-110",
        "8,4H,N,9,-50",
    ]


def test_query_counts_add_up(dataset: Path) -> None:
    r = run(
        "query",
        dataset,
        "select (select count(*) from boards), (select sum(boards) from files), (select count(*) from diagnostics)",
        "-f",
        "json",
    )
    assert json.loads(r.stdout) == [
        {
            "(SELECT count_star() FROM boards)": 44,
            "(SELECT sum(boards) FROM files)": 44,
            "(SELECT count_star() FROM diagnostics)": 3,
        }
    ]


def test_query_sql_functions(dataset: Path) -> None:
    r = run(
        "query",
        dataset,
        "select bridge_score('4HX', 'S', 'Both', 10) a, bridge_score('3NT', 'W', 'None', 8) b, imps(450) c, imps(-20) d",
        "-f",
        "csv",
    )
    assert r.stdout.splitlines() == ["a,b,c,d", "790,50,10,-1"]


def test_query_is_locked_down(dataset: Path, tmp_path: Path) -> None:
    target = tmp_path / "stolen.csv"
    r = run("query", dataset, f"copy (select * from boards) to '{target}'")
    assert r.exit_code == 2
    assert not target.exists()
    r = run("query", dataset, "select * from read_csv('/etc/passwd')")
    assert r.exit_code == 2
    assert "Permission" in r.output or "permission" in r.output


def test_query_bad_sql_and_missing_dataset(dataset: Path, tmp_path: Path) -> None:
    r = run("query", dataset, "select nonsense from boards")
    assert r.exit_code == 2
    r = run("query", tmp_path, "select 1")
    assert r.exit_code == 2
    assert "no handrec dataset" in r.output


class _Cards(HTMLParser):
    """Collects, per board, the ranks shown in each seat and suit."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[dict] = []
        self.seat = self.suit = None
        self.in_ranks = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "") or ""
        if tag == "article" and "board" in cls.split():
            self.boards.append(
                {"number": a.get("data-board"), "dealer": a.get("data-dealer"), "vul": a.get("data-vul"), "cards": {}}
            )
        elif "hand" in cls.split() and "data-seat" in a:
            self.seat = a["data-seat"]
        elif "suit" in cls.split() and "data-suit" in a:
            self.suit = a["data-suit"]
        elif "ranks" in cls.split():
            self.in_ranks = True

    def handle_endtag(self, tag):
        self.in_ranks = False

    def handle_data(self, data):
        if self.in_ranks and self.seat and self.suit:
            ranks = data.strip().replace("10", "T")
            if ranks and ranks not in ("\u2014", "-"):
                self.boards[-1]["cards"].setdefault(self.seat, set()).update(f"{self.suit}{r}" for r in ranks)


def test_booklet_on_a_corpus_file(corpus_dir: Path, tmp_path: Path) -> None:
    from handrec.formats.dispatch import read

    src = corpus_dir / "pbn" / "bridgecomposer_club_handrecord_dd_crlf.pbn"
    out = tmp_path / "b.html"
    r = run("booklet", src, "-o", out)
    assert r.exit_code == 0, r.output
    p = _Cards()
    p.feed(out.read_text(encoding="utf-8"))
    boards = list(read(src))
    assert len(p.boards) == len(boards) == 36
    for shown, b in zip(p.boards, boards):
        assert shown["number"] == str(b.number)
        assert shown["dealer"] == str(b.dealer)
        all_cards = [c for cards in shown["cards"].values() for c in cards]
        assert len(all_cards) == 52 and len(set(all_cards)) == 52
        for seat in Seat:
            assert shown["cards"][str(seat)] == {str(c) for c in b.deal[seat]}, (b.number, seat)


def test_generate_tables_writes_a_pairs_session_with_travellers(tmp_path: Path) -> None:
    out = tmp_path / "session.pbn"
    r = runner.invoke(app, ["generate", "-n", "3", "--tables", "2", "--seed", "4", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stderr == f"6 boards (3 deals x 2 tables) -> {out}\n"
    from handrec import read
    from handrec.rules.replay import replay

    games = list(read(out))
    assert [(b.number, b.tag("North")) for b in games] == [
        (1, "N1"),
        (1, "N2"),
        (2, "N1"),
        (2, "N2"),
        (3, "N1"),
        (3, "N2"),
    ]
    assert games[0].deal == games[1].deal and games[0].deal != games[2].deal
    v = runner.invoke(app, ["validate", str(out)])
    assert v.exit_code == 0 and v.stdout.endswith("1 files, 6 boards, 0 errors, 0 warnings\n")
    s = runner.invoke(app, ["score", str(out), "-m", "mp", "--format", "json"])
    assert s.exit_code == 0, s.output
    travellers = json.loads(s.stdout)["events"][0]["travellers"]
    assert [(t["board"], t["results"], t["top"]) for t in travellers] == [("1", 2, 1), ("2", 2, 1), ("3", 2, 1)]
    for t, board in zip(travellers, (1, 2, 3), strict=True):
        scores = [replay(g).score_ns for g in games if g.number == board]
        assert [e["score_ns"] for e in t["entries"]] == scores
        mp = [e["mp_ns"] for e in t["entries"]]
        assert mp == (
            [0.5, 0.5] if scores[0] == scores[1] else [int(scores[0] > scores[1]), int(scores[1] > scores[0])]
        )


def test_sample_session_rankings_in_sql_match_handrec_score(dataset: Path) -> None:
    """sample_data/club_session.pbn: 8 boards at 4 tables; SQL rankings and `handrec score -m mp` agree."""
    r = run(
        "query",
        dataset,
        "select direction, rank, pair, mp, top, pct from rankings where event = 'Thursday club pairs' "
        "order by direction desc, rank",
        "-f",
        "csv",
    )
    assert r.exit_code == 0, r.stdout
    assert r.stdout.splitlines() == [
        "direction,rank,pair,mp,top,pct",
        "NS,1,N4 - S4,15.5,24,64.58",
        "NS,2,N1 - S1,13.5,24,56.25",
        "NS,3,N3 - S3,10.0,24,41.67",
        "NS,4,N2 - S2,9.0,24,37.5",
        "EW,1,E2 - W2,15.0,24,62.5",
        "EW,2,E3 - W3,14.0,24,58.33",
        "EW,3,E1 - W1,10.5,24,43.75",
        "EW,4,E4 - W4,8.5,24,35.42",
    ]
    s = run("score", SAMPLE / "club_session.pbn", "-m", "mp", "--format", "json")
    rankings = json.loads(s.stdout)["events"][0]["rankings"]
    got = [
        f"{g['ranking']},{x['rank']},{x['name']},{float(x['mp'])},{x['top']},{x['pct']}"
        for g in rankings
        for x in g["rows"]
    ]
    assert got == r.stdout.splitlines()[1:]


# --- query: SQL with no statement, SQL starting with a comment ------------------------------


@pytest.mark.parametrize("sql", ["", "   ", ";", "/* c */", "-- only a comment", " ;\n ; "])
def test_query_without_a_statement_is_a_one_line_error(dataset: Path, sql: str) -> None:
    r = run("query", dataset, sql)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.stdout == ""
    assert r.stderr == "handrec: no SQL statement to run (the SQL is empty, or only comments)\n"


def test_query_sql_may_start_with_a_comment(dataset: Path) -> None:
    sql = "-- how many boards\nselect count(*) as n from boards"
    for args in (
        ("query", dataset, sql, "-f", "csv"),
        ("query", "-f", "csv", dataset, sql),
        ("query", dataset, "-f", "csv", "--", sql),
        ("query", "-f", "csv", "--", dataset, sql),
        ("query", dataset, "--x=1\nselect 2 as n -- not an option", "-f", "csv"),
    ):
        r = run(*args)
        assert r.exit_code == 0, (args, r.output)
        assert r.stdout.splitlines()[0] == "n", args
    assert run("query", dataset, sql, "-f", "csv").stdout.splitlines() == ["n", "44"]


def test_query_unknown_options_are_still_refused(dataset: Path) -> None:
    r = run("query", dataset, "select 1", "--formt", "csv")
    assert r.exit_code == 2
    assert r.stderr.startswith("handrec: no such option: --formt (")
    assert "Traceback" not in r.output


def test_query_help_tells_how_to_pass_sql_starting_with_dashes() -> None:
    r = run("query", "--help")
    assert r.exit_code == 0
    assert "handrec query DIR -- " in " ".join(r.stdout.split())


# --- the summary line: every input and entry, by status, as in the files table -----------------


def test_validate_and_convert_count_the_same_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pbn"
    junk.write_text("junk\n")
    u16 = tmp_path / "utf16.pbn"
    u16.write_bytes('[Event "x"]\n'.encode("utf-16"))
    missing = tmp_path / "nonexist"
    r = run("validate", "--jobs", "1", junk, u16, missing)
    assert r.exit_code == 2
    # "junk" holds no tag pair: no board (F006 for the word, F018 for the file)
    summary = "3 files (1 ok, 2 unreadable), 0 boards, 2 errors, 2 warnings"
    assert r.stdout.splitlines()[-1] == summary
    j = json.loads(run("validate", "-f", "json", junk, u16, missing).stdout)
    assert (j["files"], j["statuses"]) == (3, {"ok": 1, "unreadable": 2})
    out = tmp_path / "ds"
    c = run("convert", junk, u16, missing, "-o", out, "--jobs", "1")
    assert c.exit_code == 2
    assert c.stderr.splitlines()[0] == f"{summary} -> {out}"
    q = run("query", out, "select status, count(*) n from files group by status order by status", "-f", "csv")
    assert q.stdout.splitlines() == ["status,n", "ok,1", "unreadable,2"]


def test_the_summary_counts_skipped_and_unchanged_entries(tmp_path: Path) -> None:
    import zipfile

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.pbn").write_text(CLEAN)
    with zipfile.ZipFile(src / "z.zip", "w") as z:
        z.writestr("b.pbn", CLEAN)
        z.writestr("../up.pbn", CLEAN)  # refused: F008, status skipped
        z.writestr("inner.zip", b"PK\x05\x06" + b"\0" * 18)  # nested archive: F009, status skipped
    r = run("validate", src)
    assert r.stdout.splitlines()[-1] == "4 files (2 ok, 2 skipped), 2 boards, 1 errors, 1 warnings"
    out = tmp_path / "ds"
    first = run("convert", src, "-o", out, "--jobs", "1")
    assert first.stderr.splitlines()[0] == f"4 files (2 ok, 2 skipped), 2 boards, 1 errors, 1 warnings -> {out}"
    again = run("convert", src, "-o", out, "--jobs", "1")
    assert again.stderr.splitlines()[0] == f"4 files (2 unchanged, 2 skipped), 2 boards, 1 errors, 1 warnings -> {out}"
    q = run("query", out, "select count(*) from files", "-f", "csv")
    assert q.stdout.splitlines()[1] == "4"


def test_convert_summary_counts_inputs_not_read(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    r = run("convert", SAMPLE, "-o", out, "--fail-fast", "--jobs", "1")
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == f"3 files (1 ok, 2 not read), 4 boards, 1 errors, 0 warnings -> {out}"
    q = run("query", out, "select status, count(*) n from files group by status order by status", "-f", "csv")
    assert q.stdout.splitlines() == ["status,n", "not_read,2", "ok,1"]


def test_validate_and_convert_with_no_input_found_exit_1(tmp_path: Path) -> None:
    # an empty folder, or one of other files only, is not a clean run: a mistyped path must show
    empty = tmp_path / "empty"
    empty.mkdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("just some text\n")
    why = "(inside folders and archives, files that are neither, by content or by a .pbn/.lin name, are skipped)"
    r = run("validate", empty, other)
    assert r.exit_code == 1
    assert r.stdout == "0 files, 0 boards, 0 errors, 0 warnings\n"
    assert r.stderr == f"handrec: no PBN or LIN input found in {empty}, {other} {why}\n"
    out = tmp_path / "out"
    c = run("convert", empty, "-o", out)
    assert c.exit_code == 1
    assert c.stderr.splitlines() == [
        f"0 files, 0 boards, 0 errors, 0 warnings -> {out}",
        f"handrec: no PBN or LIN input found in {empty} {why}",
    ]
    # one input found is enough
    (other / "one.pbn").write_text(CLEAN)
    assert run("validate", empty, other).exit_code == 0


def test_convert_that_reads_nothing_leaves_the_dataset_as_it_was(tmp_path: Path) -> None:
    # a mistyped or empty path must not empty a dataset: nothing read, nothing replaced
    out = tmp_path / "ds"
    assert run("convert", SAMPLE, "-o", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.glob("*.parquet")}
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("convert", empty, "-o", out)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[:2] == [
        "0 files, 0 boards, 0 errors, 0 warnings",
        f"handrec: no input was read; the dataset in {out} is left as it was",
    ]
    missing = tmp_path / "nonexist"
    r = run("convert", missing, "-o", out)
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [  # its error first (issue #19.3)
        f"{missing}: F001 error: cannot read input: No such file or directory",
        "1 files (1 unreadable), 0 boards, 1 errors, 0 warnings",
        f"handrec: no input was read; the dataset in {out} is left as it was",
    ]
    assert {p.name: p.read_bytes() for p in out.glob("*.parquet")} == before
    q = run("query", out, "select count(*) n from boards", "-f", "csv")
    assert q.stdout.splitlines() == ["n", "44"]


def test_export_to_standard_output(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "clean.pbn"
    f.write_text(CLEAN)
    r = run("export", f, "--to", "lin", "-o", "-")
    assert r.exit_code == 0
    assert r.stdout == (
        "st||md|3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|rh||ah|Board 1|"
        "sv|o|mb|1S|mb|p|mb|2S|mb|p|mb|4S|mb|p|mb|p|mb|p|pg||mc|10|\n"
    )
    assert r.stderr.splitlines()[-1] == "1 boards -> standard output"
    assert not (tmp_path / "-").exists()


def test_club_pairs_sample_reads_like_a_club_file() -> None:
    """Issue #19 point 7: sample_data/club_pairs.pbn names its event, club, players and scoring
    program as a club's file does (not "handrec generated"); its boards and results are unchanged."""
    from handrec.formats.dispatch import read

    boards = list(read(SAMPLE / "club_pairs.pbn"))
    assert {(b.tag("Event"), b.tag("Site"), b.tag("Date"), b.tag("Application")) for b in boards} == {
        ("Sunday Afternoon Pairs", "Riverside Bridge Club, Reading GBR", "2026.11.29", "ClubScorer 4.2")
    }
    players = {b.tag(seat) for b in boards for seat in ("North", "East", "South", "West")}
    assert players == {
        "Ann Porter",
        "Robert Hale",
        "Catherine Lowe",
        "Daniel Reyes",
        "Evelyn Marsh",
        "Fay Whitaker",
        "Angus Reid",
        "Harold Finch",
    }
    assert [(b.number, str(b.contract), str(b.declarer), b.result, b.tag("Score")) for b in boards] == [
        (1, "2H", "W", 9, "NS -140"),
        (2, "2NT", "S", 5, "NS -300"),
        (3, "2SX", "S", 10, "NS 470"),
        (4, "2S", "W", 8, "NS -110"),
        (5, "2H", "E", 9, "NS -140"),
        (6, "3NT", "N", 10, "NS 460"),
        (7, "2S", "W", 8, "NS -110"),
        (8, "4H", "N", 9, "NS -50"),
    ]
    r = run("score", SAMPLE / "club_pairs.pbn")
    assert r.stdout.splitlines()[:5] == [
        "Sunday Afternoon Pairs: Butler IMPs (datum = mean without the top and bottom score)",
        "",
        "Board 1: 1 result",
        "NS                           EW                         Contract  By  Tricks  Score NS  IMP NS  IMP EW",
        "Ann Porter - Catherine Lowe  Angus Reid - Fay Whitaker  2H        W        9      -140",
    ]


def test_every_summary_counts_boards_alike(tmp_path: Path) -> None:
    """Issue #19 point 7: "boards" is the same count in every command's summary line (a table's
    record of a board, as validate counts them): club_session.pbn is 8 board numbers played at 4
    tables, 32 boards; the booklet and the site add their 8 diagrams or deals."""
    src = SAMPLE / "club_session.pbn"
    lines = {
        "validate": run("validate", src).output.splitlines()[-1],
        "convert": run("convert", src, "-o", tmp_path / "ds").output.splitlines()[-1],
        "export": run("export", src, "-o", tmp_path / "x.pbn").output.splitlines()[-1],
        "booklet": run("booklet", src, "-o", tmp_path / "b.html").output.splitlines()[-1],
        "site": run("site", src, "-o", tmp_path / "site").output.splitlines()[-1],
        "generate": run("generate", "-n", "8", "--tables", "4", "-o", tmp_path / "g.pbn").output.splitlines()[-1],
    }
    assert lines == {
        "validate": "1 files, 32 boards, 0 errors, 0 warnings",
        "convert": f"1 files, 32 boards, 0 errors, 0 warnings -> {tmp_path / 'ds'}",
        "export": f"32 boards -> {tmp_path / 'x.pbn'}",
        "booklet": f"32 boards (8 diagrams) -> {tmp_path / 'b.html'}",
        "site": f"1 session, 32 boards (8 deals), 8 score cards -> {tmp_path / 'site' / 'index.html'}",
        "generate": f"32 boards (8 deals x 4 tables) -> {tmp_path / 'g.pbn'}",
    }
    assert run("validate", tmp_path / "g.pbn").output.splitlines()[-1] == "1 files, 32 boards, 0 errors, 0 warnings"


def _command_names() -> list[str]:
    from typer.main import get_command_name

    return [c.name or get_command_name(c.callback.__name__) for c in app.registered_commands]


@pytest.mark.parametrize(
    "args",
    [[name, "--help"] for name in _command_names()]
    + [["validate", str(SAMPLE / "club_pairs.pbn")], ["validate", "--no-such-option"], ["codes", "S601"], ["dd"]],
    ids=" ".join,
)
def test_a_command_alone_runs_as_in_the_whole_app(args: list[str]) -> None:
    """handrec.cli.main hands Typer the one command named (#23 item 4, start-up): the same
    output, errors and exit status as the whole app."""
    from handrec.cli import for_command

    alone = for_command(app, args)
    assert alone is not app and [c.callback for c in alone.registered_commands] == [
        c.callback for c in app.registered_commands if (c.name or c.callback.__name__) == args[0]
    ]
    got, want = runner.invoke(alone, args), runner.invoke(app, args)
    assert (got.exit_code, got.stdout, got.stderr) == (want.exit_code, want.stdout, want.stderr)


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["validat", "x.pbn"], ["-f", "json"]])
def test_no_command_named_gets_the_whole_app(args: list[str]) -> None:
    from handrec.cli import for_command

    assert for_command(app, args) is app
