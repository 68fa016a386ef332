"""``handrec score`` and the event checks of ``handrec validate``, end to end (typer's CliRunner)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handrec.cli import app

runner = CliRunner()

DEAL1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DEAL2 = "N:AKQJ.5432.AKQ.AK T98.T98.JT9.8765 76.76.876.QJT943 5432.AKQJ.5432.2"


def game(board: int, pair: int, contract: str, declarer: str, result: int, **tags: str) -> str:
    deal, dealer, vul = (DEAL1, "N", "None") if board == 1 else (DEAL2, "E", "NS")
    lines = [
        '[Event "Club"]',
        f'[Board "{board}"]',
        f'[Dealer "{dealer}"]',
        f'[Vulnerable "{vul}"]',
        f'[Deal "{deal}"]',
        f'[PairNS "{pair}"]',
        f'[PairEW "{pair + 10}"]',
        f'[Contract "{contract}"]',
        f'[Declarer "{declarer}"]',
        f'[Result "{result}"]',
    ]
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


CLUB = "\n".join(
    [
        game(1, 1, "4S", "N", 10),
        game(1, 2, "4S", "N", 11),
        game(1, 3, "3NT", "S", 9),
        game(1, 4, "4S", "N", 9),
        game(2, 1, "3NT", "N", 9),
        game(2, 2, "6NT", "N", 12),
        game(2, 3, "3NT", "N", 10),
    ]
)


@pytest.fixture
def club(tmp_path: Path) -> Path:
    f = tmp_path / "club.pbn"
    f.write_text(CLUB)
    return f


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_score_matchpoints_text(club: Path) -> None:
    r = run("score", club)
    assert r.exit_code == 0, r.output
    assert r.stdout == (
        "Club: matchpoints, 1 / 0.5 scale (top = n - 1)\n"
        "\n"
        "Board 1: 4 results, top 3\n"
        "NS  EW  Contract  By  Tricks  Score NS  MP NS  MP EW    % NS    % EW\n"
        "1   11  4S        N       10       420      2      1   66.67   33.33\n"
        "2   12  4S        N       11       450      3      0  100.00    0.00\n"
        "3   13  3NT       S        9       400      1      2   33.33   66.67\n"
        "4   14  4S        N        9       -50      0      3    0.00  100.00\n"
        "\n"
        "Board 2: 3 results, top 3 (scored as 4 results)\n"
        "NS  EW  Contract  By  Tricks  Score NS  MP NS  MP EW   % NS   % EW\n"
        "1   11  3NT       N        9       600   0.17   2.83   5.56  94.44\n"
        "2   12  6NT       N       12      1440   2.83   0.17  94.44   5.56\n"
        "3   13  3NT       N       10       630    1.5    1.5  50.00  50.00\n"
        "\n"
        "Ranking NS\n"
        "Rank  Pair  Boards    MP  Top      %\n"
        "1     2          2  5.83    6  97.22\n"
        "2     3          2   2.5    6  41.67\n"
        "3     1          2  2.17    6  36.11\n"
        "4     4          1     0    3   0.00\n"
        "\n"
        "Ranking EW\n"
        "Rank  Pair  Boards    MP  Top       %\n"
        "1     14         1     3    3  100.00\n"
        "2     11         2  3.83    6   63.89\n"
        "3     13         2   3.5    6   58.33\n"
        "4     12         2  0.17    6    2.78\n"
        "\n"
        "note: board 2: 3 results scored on the top of 4 (Neuberg)\n"
    )


def test_score_mp2_csv_without_neuberg(club: Path) -> None:
    r = run("score", club, "--method", "mp2", "--no-neuberg", "--format", "csv")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))  # one table: the travellers (the default)
    assert [(x["board"], x["top"], x["mp_ns"], x["pct_ns"]) for x in rows] == [
        ("1", "6", "4", "66.67"),
        ("1", "6", "6", "100.00"),
        ("1", "6", "2", "33.33"),
        ("1", "6", "0", "0.00"),
        ("2", "4", "0", "0.00"),
        ("2", "4", "4", "100.00"),
        ("2", "4", "2", "50.00"),
    ]
    r = run("score", club, "--method", "mp2", "--no-neuberg", "--format", "csv", "--table", "rankings")
    assert r.exit_code == 0, r.output
    ranks = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(x["ranking"], x["rank"], x["name"], x["pct"]) for x in ranks[:3]] == [
        ("NS", "1", "2", "100.00"),
        ("NS", "2=", "1", "40.00"),
        ("NS", "2=", "3", "40.00"),
    ]


def test_score_json_butler_and_cross(club: Path) -> None:
    doc = json.loads(run("score", club, "-m", "butler", "-f", "json").stdout)
    (ev,) = doc["events"]
    b1 = ev["travellers"][0]
    assert doc["method"] == "butler" and b1["datum"] == 410  # (420 + 400) / 2
    assert [e["imp_ns"] for e in b1["entries"]] == [0, 1, 0, -10]
    doc = json.loads(run("score", club, "-m", "cross-imp", "-f", "json").stdout)
    e = doc["events"][0]["travellers"][0]["entries"][0]
    assert (e["ximp_total_ns"], e["ximp_ns"]) == (10, 3.33)  # 420: -1 v 450, +1 v 400, +10 v -50


def test_score_teams(tmp_path: Path) -> None:
    f = tmp_path / "match.pbn"
    f.write_text(
        game(1, 1, "5H", "S", 10, Room="Open", HomeTeam="Germany", VisitTeam="Austria")
        + "\n"
        + game(1, 2, "4H", "N", 10, Room="Closed", HomeTeam="Germany", VisitTeam="Austria")
    )
    r = run("score", f, "-m", "imp")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[2:] == [
        "Match              Board  Open NS  Closed NS  Diff  IMPs home  IMPs visit",
        "Germany v Austria  1          -50        420  -470          0          10",
        "",
        "Ranking teams",
        "Rank  Team     Boards  IMPs won  IMPs lost  Net",
        "1     Austria       1        10          0   10",
        "2     Germany       1         0         10  -10",
    ]


def test_score_rubber(tmp_path: Path) -> None:
    f = tmp_path / "rubber.pbn"
    deals = [("2H", "N", 9), ("1NT", "E", 7), ("2S", "N", 8), ("4SX", "N", 8), ("4H", "E", 10), ("3NT", "N", 10)]
    f.write_text(
        "\n".join(
            f'[Board "{n}"]\n[Contract "{c}"]\n[Declarer "{d}"]\n[Result "{t}"]\n'
            for n, (c, d, t) in enumerate(deals, 1)
        )
    )
    r = run("score", f, "--method", "rubber")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"{f}: rubber bridge"
    assert "      780 |       660  total" in lines  # bridge-rules.md §5.14 without the honors (no deal given)
    assert "We win the rubber by 120 (games We 2, They 1)." in lines
    assert lines[-4:] == [
        "Totals",
        "Rank  Side  Deals  Points",
        "1     NS        6     780",
        "2     EW        6     660",
    ]
    doc = json.loads(run("score", f, "-m", "chicago", "-f", "json").stdout)
    assert doc["events"][0]["totals"] == {"ns": 1080, "ew": 960}  # 90 + 560 + 430; 40 + 500 + 420


def test_score_missing_input_exits_2(tmp_path: Path) -> None:
    r = run("score", tmp_path / "nope.pbn")
    assert r.exit_code == 2


def test_score_bad_method(club: Path) -> None:
    assert run("score", club, "--method", "vp").exit_code == 2


def test_score_table_not_with_json(club: Path) -> None:
    r = run("score", club, "--table", "rankings", "-f", "json")
    assert r.exit_code == 2
    assert r.stderr == "handrec: --table goes with --format text or csv (json holds both tables)\n"


def test_score_text_rankings_only(club: Path) -> None:
    """Issue #19 point 7: ``--table rankings`` works with the text format: the title, the rankings, the notes."""
    r = run("score", club, "--table", "rankings")
    assert r.exit_code == 0, r.output
    assert r.stdout == (
        "Club: matchpoints, 1 / 0.5 scale (top = n - 1)\n"
        "\n"
        "Ranking NS\n"
        "Rank  Pair  Boards    MP  Top      %\n"
        "1     2          2  5.83    6  97.22\n"
        "2     3          2   2.5    6  41.67\n"
        "3     1          2  2.17    6  36.11\n"
        "4     4          1     0    3   0.00\n"
        "\n"
        "Ranking EW\n"
        "Rank  Pair  Boards    MP  Top       %\n"
        "1     14         1     3    3  100.00\n"
        "2     11         2  3.83    6   63.89\n"
        "3     13         2   3.5    6   58.33\n"
        "4     12         2  0.17    6    2.78\n"
        "\n"
        "note: board 2: 3 results scored on the top of 4 (Neuberg)\n"
    )
    whole = run("score", club).stdout
    travellers = run("score", club, "--table", "travellers").stdout
    assert (
        travellers
        == whole[: whole.index("\nRanking NS")] + "\nnote: board 2: 3 results scored on the top of 4 (Neuberg)\n"
    )


def test_score_without_method_follows_the_scoring_tag(tmp_path: Path) -> None:
    """No --method: each event as its tags say (the booklet's rule): Scoring IMP on a pairs
    event is Butler, MP1 is the 2/1 scale, Rubber a session, no Scoring tag matchpoints."""
    methods = {}
    for scoring in ("IMP", "MP;MP1", "Rubber", None):
        f = tmp_path / f"{scoring or 'none'}.pbn".replace(";", "_")
        extra = {"Scoring": scoring} if scoring else {}
        f.write_text("\n".join(game(b, p, "4S", "N", 10 + p % 2, **extra) for b, p in ((1, 1), (1, 2), (2, 1), (2, 2))))
        doc = json.loads(run("score", f, "-f", "json").stdout)
        methods[scoring] = [e["method"] for e in doc["events"]]
    assert methods == {"IMP": ["butler"], "MP;MP1": ["mp2"], "Rubber": ["rubber"], None: ["mp"]}
    # an explicit --method wins over the tag
    f = tmp_path / "IMP.pbn"
    assert json.loads(run("score", f, "-m", "mp", "-f", "json").stdout)["events"][0]["method"] == "mp"


def test_score_without_method_scores_two_rooms_as_teams(tmp_path: Path) -> None:
    f = tmp_path / "teams.pbn"
    f.write_text(
        "\n".join(
            [
                game(1, 1, "4S", "N", 10, Room="Open", HomeTeam="Lions", VisitTeam="Tigers"),
                game(1, 1, "4S", "N", 9, Room="Closed", HomeTeam="Lions", VisitTeam="Tigers"),
            ]
        )
    )
    doc = json.loads(run("score", f, "-f", "json").stdout)
    (ev,) = doc["events"]
    assert ev["method"] == "imp"
    assert [(b["board"], b["open_ns"], b["closed_ns"], b["imps_home"]) for b in ev["boards"]] == [("1", 420, -50, 10)]


def test_validate_reports_claimed_figures(tmp_path: Path) -> None:
    f = tmp_path / "claims.pbn"
    f.write_text(
        "\n".join(
            [
                game(1, 1, "4S", "N", 10, ScoreMP="NS 4", ScorePercentage="NS 66.67"),
                game(1, 2, "4S", "N", 11, ScoreMP="NS 6"),
                game(1, 3, "3NT", "S", 9, ScoreMP="NS 2", ScoreIMP="NS 1"),
                game(1, 4, "4S", "N", 9, ScoreMP="NS 1", ScorePercentage="NS 0"),
            ]
        )
    )
    r = run("validate", f)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{f}:49:1: S603 error: ScoreMP NS 1 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 0",
        "1 files, 4 boards, 1 errors, 0 warnings",
    ]
    r = run("validate", "--format", "json", f)
    (d,) = json.loads(r.stdout)["diagnostics"]
    assert (d["code"], d["line"], d["board_index"], d["board_number"]) == ("S603", 49, 3, 1)


def test_validate_flags_a_pair_playing_a_board_twice(tmp_path: Path) -> None:
    """S612 (Law 15A): N-S pair 2 at two tables of board 1.  N-S pair 1 and E-W pair 11 of a
    Mitchell are different pairs even where the numbers meet (compared within a direction)."""
    f = tmp_path / "twice.pbn"
    f.write_text(
        "\n".join(
            [
                game(1, 1, "4S", "N", 10),
                game(1, 2, "4S", "N", 11),
                game(1, 2, "3NT", "S", 9).replace('"12"', '"1"'),  # N-S pair 2 again; E-W 1 is not N-S 1
            ]
        )
    )
    r = run("validate", f, "--format", "json")
    s612 = [d for d in json.loads(r.stdout)["diagnostics"] if d["code"] == "S612"]
    assert [(d["line"], d["severity"], d["message"]) for d in s612] == [
        (23, "warning", "N-S pair 2 plays board 1 a second time (also at line 12)")
    ]


def test_validate_no_s612_for_distinct_pairs(club: Path) -> None:
    r = run("validate", club, "--format", "json")
    assert not [d for d in json.loads(r.stdout)["diagnostics"] if d["code"] == "S612"]


def _mitchell(section: str | None = None) -> str:
    """Two boards at three tables, PairNS 1-3 and PairEW 1-3 (E-W pairs move up a table)."""
    out = []
    for board in (1, 2):
        for table, result in ((1, 10), (2, 9), (3, 11)):
            g = game(board, table, "4S", "N", result).replace(
                f'[PairEW "{table + 10}"]', f'[PairEW "{(table + board - 2) % 3 + 1}"]'
            )
            out.append(g + (f'[Section "{section}"]\n' if section else ""))
    return "\n".join(out)


def test_mitchell_numbers_rank_two_fields(tmp_path: Path) -> None:
    """N-S 1 and E-W 1 of a Mitchell sit at one table of the same board: two pairs, two rankings."""
    f = tmp_path / "mitchell.pbn"
    f.write_text(_mitchell())
    doc = json.loads(run("score", f, "-f", "json").stdout)
    rankings = {r["ranking"]: [(x["name"], x["boards"]) for x in r["rows"]] for r in doc["events"][0]["rankings"]}
    assert sorted(rankings) == ["EW", "NS"]
    assert sorted(rankings["NS"]) == [("1", 2), ("2", 2), ("3", 2)]
    assert not [d for d in json.loads(run("validate", f, "-f", "json").stdout)["diagnostics"] if d["code"] == "S612"]


def test_s612_within_a_section_and_not_for_robots(tmp_path: Path) -> None:
    """Sections A and B each number their pairs 1-3: no S612.  A robot named at every table
    (both seats of a side the same name) is not a pair playing the board twice."""
    f = tmp_path / "sections.pbn"
    f.write_text(_mitchell("A") + "\n" + _mitchell("B"))
    assert not [d for d in json.loads(run("validate", f, "-f", "json").stdout)["diagnostics"] if d["code"] == "S612"]
    robots = tmp_path / "robots.pbn"
    robots.write_text(
        "\n".join(
            game(1, 0, "4S", "N", 10 + k).replace('[PairNS "0"]\n[PairEW "10"]\n', "")
            + f'[North "Ann{k}"]\n[South "GIB"]\n[East "GIB"]\n[West "GIB"]\n'
            for k in range(3)
        )
    )
    assert not [
        d for d in json.loads(run("validate", robots, "-f", "json").stdout)["diagnostics"] if d["code"] == "S612"
    ]


def test_csv_of_events_scored_differently_is_one_table(tmp_path: Path) -> None:
    """A matchpoint event and a Butler event: one header (the union of their columns, with
    a method column), every row as long as the header."""
    (tmp_path / "mp.pbn").write_text(CLUB)
    (tmp_path / "imp.pbn").write_text(CLUB.replace('[Event "Club"]', '[Event "Imps"]\n[Scoring "IMP"]'))
    r = run("score", tmp_path / "mp.pbn", tmp_path / "imp.pbn", "-f", "csv")
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[0][:4] == ["event", "method", "board", "top"] and {"mp_ns", "imp_ns"} <= set(rows[0])
    assert {len(x) for x in rows} == {len(rows[0])}
    recs = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {(x["event"], x["method"]) for x in recs} == {("Club", "mp"), ("Imps", "butler")}
    assert all(x["imp_ns"] == "" for x in recs if x["method"] == "mp")
    assert json.loads(run("score", tmp_path / "mp.pbn", tmp_path / "imp.pbn", "-f", "json").stdout)["method"] == "mixed"


def test_score_with_no_board_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "empty.pbn"
    f.write_text("% PBN 2.1\n")
    r = run("score", f)
    assert r.exit_code == 1 and "no boards found" in r.stderr


def test_pairs_with_nothing_to_compare_have_no_percentage_nor_rank(tmp_path: Path) -> None:
    """Boards each played once (a file of single games: the event's top is 0) have nothing to
    compare: the traveller leaves the percentage blank, and so does the ranking (rank "-"), not
    0.00 % (with some board played twice, Neuberg gives the others a top: not this case)."""
    from handrec.formats.pbn.writer import dump
    from handrec.generate import generate_boards

    s = io.StringIO()
    dump(generate_boards(3, seed=4, event="Singles"), s)
    f = tmp_path / "single.pbn"
    f.write_text(s.getvalue(), encoding="utf-8")
    r = runner.invoke(app, ["score", str(f), "-m", "mp", "--format", "json"])
    assert r.exit_code == 0, r.output
    (ev,) = json.loads(r.stdout)["events"]
    rows = [row for g in ev["rankings"] for row in g["rows"]]
    assert len(rows) == 6
    assert {(row["rank"], row["boards"], row["mp"], row["top"], row["pct"]) for row in rows} == {("-", 1, 0, 0, None)}
    text = runner.invoke(app, ["score", str(f), "-m", "mp"]).stdout
    ranking = text[text.index("Ranking NS") :].splitlines()
    assert ranking[1].split() == ["Rank", "Pair", "Boards", "MP", "Top", "%"]
    assert all(line.startswith("-") and line.split()[-2:] == ["0", "0"] for line in ranking[2:5])


HAND_RECORDS = "\n".join(
    f'[Event "Club"]\n[Board "{b}"]\n[Dealer "{d}"]\n[Vulnerable "{v}"]\n[Deal "{deal}"]\n'
    for b, d, v, deal in ((1, "N", "None", DEAL1), (2, "E", "NS", DEAL2))
)


def test_score_skips_a_file_of_hand_records_and_says_so_once(tmp_path: Path, club: Path) -> None:
    """Issue #19 point 7: a file of hand records (deals, no result) is not scored board by board
    ("Board 1: no result", ...): one line says the file holds hand records only."""
    hands = tmp_path / "hands.pbn"
    hands.write_text(HAND_RECORDS)
    r = run("score", hands)
    assert r.exit_code == 1  # nothing to score, as with no board at all
    assert r.stdout == ""
    assert r.stderr == f"handrec: {hands}: hand records only (2 boards, none with a result): not scored\n"
    j = run("score", hands, "-f", "json")
    assert json.loads(j.stdout) == {"method": None, "events": []}
    both = run("score", hands, club)
    assert both.exit_code == 0
    assert both.stdout == run("score", club).stdout  # the club's results, scored as without the hand records
    assert "no result" not in both.stdout
    assert both.stderr == f"handrec: {hands}: hand records only (2 boards, none with a result): not scored\n"


def test_a_chicago_event_beside_a_pairs_event_in_one_file(tmp_path: Path) -> None:
    """Found by fuzz/fuzz_cli.py: one file holding an event scored IMP and a Chicago event
    crashed score ('chicago is not a pairs method'); each is scored as its Scoring tag says."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    game = (
        '[Event "{event}"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "' + deal + '"]\n'
        '[Scoring "{scoring}"]\n[Contract "{contract}"]\n[Declarer "N"]\n[Result "{result}"]\n'
    )
    f = tmp_path / "mixed.pbn"
    f.write_text(
        game.format(event="Teams", scoring="IMP", contract="4S", result=10)
        + "\n"
        + game.format(event="Home game", scoring="Chicago", contract="3NT", result=9)
    )
    r = CliRunner().invoke(app, ["score", str(f)])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "Teams: Butler IMPs (datum = mean without the top and bottom score)"
    assert f"{f}: Chicago" in lines
    assert "1         1  1      3NT       N        9  None  400   0  game NS" in lines
    j = json.loads(CliRunner().invoke(app, ["score", str(f), "--format", "json"]).stdout)
    assert [e["method"] for e in j["events"]] == ["butler", "chicago"]
