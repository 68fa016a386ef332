"""Event-check and ``handrec score`` messages (a user test's findings):

* S615 (Law 87A) blames the copy of a board whose dealer or vulnerability disagrees with the
  board number (Law 2), naming a copy that agrees, and spells vulnerability as the file does
  (PBN "All");
* S603-S608 details are singular subjects of "gives" and count the results they compare
  (cross-IMPs: the other results);
* S608 does not assert a percentage above 100: it shows the computation and blames NrBoards or MP;
* a teams match without any result is scored (titled) as a teams match, with one note.
"""

from __future__ import annotations

from handrec.events.checks import check_event, check_pairs
from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, TableView, record
from handrec.events.methods import Method
from handrec.events.report import method_title, render
from handrec.formats.lin.reader import parse_lin_text
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.model import Origin, Span

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"

S615 = "board 1 was played with {} as in the game at line {} (a fouled board): the results of each are scored apart"


def game(table: int, result: int, *, dealer: str = "N", vul: str = "None", **tags: str) -> str:
    """Board 1 (dealer N, none vulnerable by its number), 4S by N at ``table``: 15 lines, the
    Dealer tag on the 4th, Vulnerable on the 5th."""
    lines = ['[Event "Club"]', '[Date "2026.01.05"]', '[Board "1"]', f'[Dealer "{dealer}"]', f'[Vulnerable "{vul}"]']
    lines += [f'[Deal "{A}"]', f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]']
    lines += [f'[West "W{table}"]', '[Contract "4S"]', '[Declarer "N"]', f'[Result "{result}"]']
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


def diags(*games: str) -> list[tuple[str, int, int, str]]:
    rs = [record(b) for b in parse_pbn_text("\n".join(games), "t.pbn")]
    got = [(d.code, d.line, d.column, d.message) for d in check_pairs(rs)]
    assert [(d.code, d.line, d.column, d.message) for d in check_event(rs)] == got
    return got


# --- 1. S615: the copy that disagrees with the board number -----------------------------------
# games start at lines 1, 15, 29 (13 tag lines and an empty line each)


def test_s615_blames_the_first_game_when_it_disagrees_with_the_board_number() -> None:
    # the first game says All; board 1 is not vulnerable (Law 2), as the two others say
    assert diags(game(1, 10, vul="All"), game(2, 9), game(3, 11)) == [
        ("S615", 5, 1, S615.format("vulnerability All, not None", 15)),
    ]


def test_s615_blames_a_wrong_dealer_of_the_first_game() -> None:
    assert diags(game(1, 10, dealer="E"), game(2, 9)) == [("S615", 4, 1, S615.format("dealer E, not N", 15))]


def test_s615_later_wrong_forms_name_the_copy_that_agrees() -> None:
    assert diags(game(1, 10, vul="All"), game(2, 9), game(3, 11, vul="NS")) == [
        ("S615", 5, 1, S615.format("vulnerability All, not None", 15)),
        ("S615", 33, 1, S615.format("vulnerability NS, not None", 15)),
    ]


def test_s615_without_a_copy_that_agrees_names_the_first_game() -> None:
    assert diags(game(1, 10, vul="All"), game(2, 9, vul="NS")) == [
        ("S615", 19, 1, S615.format("vulnerability NS, not All", 1)),
    ]


def test_s615_when_the_first_game_agrees_is_unchanged() -> None:
    assert diags(game(1, 10), game(2, 9, dealer="S", vul="All")) == [
        ("S615", 18, 1, S615.format("dealer S and vulnerability All, not N and None", 1)),
    ]


def test_s615_under_rubber_scoring_names_the_first_game() -> None:
    # a rubber's vulnerability is not the board number's: no copy is preferred
    assert diags(game(1, 10, vul="All", Scoring="Rubber"), game(2, 9, Scoring="Rubber")) == [
        ("S615", 20, 1, S615.format("vulnerability None, not All", 1)),  # game 2 starts at line 16
    ]


def test_s615_lin_spells_vulnerability_as_handrec_does() -> None:
    deal = "md|3SJT9H982DQ532CQ83,SQ432HKJ76D64CJT4,S65HA53DJT7CAK762,SAK87HQT4DAK98C95|"
    lin = (
        f"qx|o1|pn|a,b,c,d,e,f,g,h|{deal}sv|b|mb|p|mb|p|mb|p|mb|p|pg||\n"
        f"qx|c1|pn|a,b,c,d,e,f,g,h|{deal}sv|0|mb|p|mb|p|mb|p|mb|p|pg||\n"
    )
    rs = [record(b) for b in parse_lin_text(lin, "t.lin")]
    assert [d.message for d in check_event(rs) if d.code == "S615"] == [S615.format("vulnerability Both, not None", 2)]


# --- 2. S603-S608: counts and grammar -----------------------------------------------------------

#: N-S +420, +450, +420, -50 (4S by N, none vulnerable)
FOUR = (10, 11, 10, 9)


def four(**claims: str) -> list[str]:
    return [game(t, r, **({} if t > 1 else claims)) for t, r in enumerate(FOUR, 1)]


def messages(*games: str) -> list[str]:
    return [d.message for d in check_event([record(b) for b in parse_pbn_text("\n".join(games), "t.pbn")])]


def test_s604_cross_counts_the_other_results() -> None:
    # Cross2: 420 v 450, 420, -50 = -1 + 0 + 10 = 9 over the 3 other results
    assert messages(*four(ScoreIMP="NS 9", Scoring="IMP;Cross2")) == [
        "ScoreIMP NS 9 but scoring Cross2 IMPs against the 3 other results of board 1 gives NS 3"
    ]


def test_s604_butler_counts_the_results() -> None:
    # datum of 420 450 420 -50 without top and bottom = 420
    assert messages(*four(ScoreIMP="NS 2", Scoring="IMP;Butler")) == [
        "ScoreIMP NS 2 but scoring Butler IMPs against the datum of the 4 results of board 1 gives NS 0"
    ]


def test_s603_s605_are_singular() -> None:
    assert messages(*four(ScoreMP="NS 4")) == [
        "ScoreMP NS 4 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3"
    ]
    assert messages(*four(ScorePercentage="EW 40")) == [
        "ScorePercentage EW 40 but matchpointing the 4 results of board 1 gives EW 50.00"
    ]


def _table_record(view: TableView) -> GameRecord:
    return GameRecord(Origin("t.pbn", 10), event="E", board="1", deal="d", tables=(view,))


def test_s608_impossible_percentage_blames_nrboards_or_mp() -> None:
    cols = ("Rank", "PairId", "NrBoards", "MP", "Percentage")
    rows = (
        ("1", "7", "20", "1449.8", "72.49"),
        ("2", "9", "6", "2393.1", "70.38"),  # 2393.1 / 6 = 398.85 per board on a top of 100
        ("3", "4", "20", "1404.0", "70.20"),
        ("4", "5", "24", "1624.1", "67.67"),
    )
    view = TableView("TotalScoreTable", cols, ("-", None, None, None, None), rows, (), Span(20, 1))
    assert [d.message for d in check_event([_table_record(view)])] == [
        "TotalScoreTable row 2 Percentage 70.38 but 100 * MP 2393.1 / (NrBoards 6 * a top of 100 per board,"
        " as the other rows) gives 398.85, more than 100: NrBoards or MP is wrong"
    ]


def test_s608_possible_percentage_is_unchanged() -> None:
    cols = ("PairId", "NrBoards", "MP", "Percentage")
    rows = (
        ("7", "20", "1449.8", "72.49"),
        ("9", "20", "1393.1", "60.38"),  # 1393.1 / 20 = 69.66
        ("4", "20", "1404.0", "70.20"),
        ("5", "24", "1624.1", "67.67"),
    )
    view = TableView("TotalScoreTable", cols, (None,) * 4, rows, (), Span(20, 1))
    assert [d.message for d in check_event([_table_record(view)])] == [
        "TotalScoreTable row 2 Percentage 60.38 but MP 1393.1 over NrBoards 20 on a top of 100 per board"
        " (as the other rows) gives 69.66"
    ]


def test_s608_against_the_event_is_singular() -> None:
    rs = [
        GameRecord(Origin("t.pbn", 1), event="E", board="1", deal="deal1", ns=f"N{i}", ew=f"E{i}", score_ns=s)
        for i, s in enumerate([420, 450, 400])
    ]
    cols = ("PairId", "NrBoards", "TotalMP", "TotalPercentage")
    rows = (("N1", "1", "4", "100"), ("N0", "2", "2", "50"), ("E2", "1", "3", "50"))
    view = TableView("TotalScoreTable", cols, (None,) * 4, rows, (), Span(20, 1))
    t = GameRecord(Origin("t.pbn", 10), event="E", board="1", deal="deal1", tables=(view,))
    assert [d.message for d in check_event([*rs, t])] == [
        "TotalScoreTable row 2 NrBoards 2 but counting the pair's results in the file gives 1",
        "TotalScoreTable row 3 TotalMP 3 but scoring the pair's 1 board in the file gives 4",
        "TotalScoreTable row 3 TotalPercentage 50 but scoring the pair's 1 board in the file gives 100.00",
    ]


# --- 3. a teams match without results ---------------------------------------------------------

VUGRAPH = "vg|,SEGMENT 1,I,1,2,HOME,0,AWAY,0|\n" + "".join(
    f"qx|{room}{n}|pn|,,,,,,,|md|{d}SJT9H982DQ532CQ83,SQ432HKJ76D64CJT4,S65HA53DJT7CAK762,SAK87HQT4DAK98C95|"
    f"sv|{v}|pg||\n"
    for n, d, v in ((1, 3, "0"), (2, 4, "n"))
    for room in "oc"
)


def test_a_teams_match_without_results_is_not_butler() -> None:
    rs = [record(b) for b in parse_lin_text(VUGRAPH, "vg.lin")]
    (ev,) = score_event(rs, None)
    assert ev.method is Method.IMP
    assert method_title(ev) == "teams IMPs (Open v Closed room)"
    assert ev.team_boards == () and ev.notes == (
        "board 1: no score in the Open room",
        "board 2: no score in the Open room",
    )
    assert render([ev]).splitlines()[0] == "vg.lin (no Event tag): teams IMPs (Open v Closed room)"
