"""The event pipeline (handrec.events: games, travellers, scoring, report) and the claimed-figure checks
(handrec.events.checks).

Boards come from small PBN texts or hand-built records; every expected value
is worked out from bridge-rules.md §5-§8 (or the pure scorers, which are
tested against the seeds in test_events.py, test_rubber.py, test_chicago.py).
"""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from handrec.events.checks import EventChecker, check_event
from handrec.events.claims import agrees, parse_claim
from handrec.events.event_score import score_event
from handrec.events.games import Claim, GameRecord, TableView, pair_label, record, table_view
from handrec.events.methods import Method
from handrec.events.pairs import artificial_imps
from handrec.events.report import fmt_number, fmt_percent, render
from handrec.events.travellers import Traveller, table_entries, travellers
from handrec.formats.dispatch import read
from handrec.model import Column, Contract, Origin, Seat, Side, Span, Table, Vulnerability
from handrec.scoring.traveller import (
    ArtificialScore,
    Scale,
    artificial_mp,
    butler,
    cross_imps_average,
    mp,
    mp2,
    neuberg,
)

F = Fraction
DEAL1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DEAL2 = "N:AKQJ.5432.AKQ.AK T98.T98.JT9.8765 76.76.876.QJT943 5432.AKQJ.5432.2"


def game(
    board: int, contract: str, declarer: str, result: int, *, deal: str = DEAL1, event: str = "Club", **tags: str
) -> str:
    """One PBN game; extra tags by keyword (``PairNS="3"``)."""
    lines = [
        f'[Event "{event}"]',
        f'[Board "{board}"]',
        f'[Deal "{deal}"]',
        f'[Contract "{contract}"]',
        f'[Declarer "{declarer}"]',
        f'[Result "{result}"]',
    ]
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


def recs(*games: str) -> list[GameRecord]:
    return [record(b) for b in read(io.StringIO("\n".join(games)))]


def codes(text: str) -> list[str]:
    checker = EventChecker()
    for b in read(io.StringIO(text)):
        checker.add(b)
    return [d.code for d in checker.finish()]


def diags(*games: str) -> list[str]:
    checker = EventChecker()
    for b in read(io.StringIO("\n".join(games))):
        checker.add(b)
    return [d.message for d in checker.finish()]


# --- records and travellers ------------------------------------------------------------------


def test_record_pairs_rooms_claims() -> None:
    (a, b) = recs(
        game(1, "4S", "N", 10, North="Ann", South="Bob", East="Cy", West="Di", Room="open", ScoreMP="NS 2"),
        game(1, "4S", "N", 9, PairNS="7", PairEW="12", North="X", South="Y", Room="Closed"),
    )
    assert (a.ns, a.ew, a.room, a.score_ns) == ("Ann - Bob", "Cy - Di", "Open", 420)
    assert (b.ns, b.ew, b.room, b.score_ns) == ("7", "12", "Closed", -50)
    assert a.claims == (Claim("ScoreMP", "NS 2"),) and b.claims == ()
    assert a.key == b.key == ("Club", "", "1", DEAL1, Seat.NORTH, Vulnerability.NONE)
    assert a.vulnerable is Vulnerability.NONE and a.dealer is Seat.NORTH


def test_pair_label() -> None:
    assert pair_label("Para-1", "Para-1") == "Para-1"
    assert pair_label("A", "?") == "A"
    assert pair_label(None, "") is None


def test_travellers_group_event_board_and_deal() -> None:
    rs = recs(
        game(1, "4S", "N", 10),
        game(2, "3NT", "S", 9),
        game(1, "4S", "N", 11),
        game(1, "4S", "N", 10, deal=DEAL2),  # same number, other cards: another board
        game(1, "4S", "N", 10, event="Other"),
    )
    trs = travellers(rs)
    assert [(t.event, t.board, t.size) for t in trs] == [
        ("Club", "1", 2),
        ("Club", "2", 1),
        ("Club", "1", 1),
        ("Other", "1", 1),
    ]
    assert trs[0].scores() == [420, 450]


def test_games_without_board_or_deal_stand_alone() -> None:
    text = '[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n[Vulnerable "None"]\n\n[Contract "4S"]\n[Declarer "N"]\n[Result "9"]\n[Vulnerable "None"]\n'
    assert [t.size for t in travellers(record(b) for b in read(io.StringIO(text)))] == [1, 1]


# --- pairs scoring ---------------------------------------------------------------------------

SEVEN = [650, 620, 620, 420, 170, 140, -100]  # bridge-rules.md §8.3 worked example


def seven_boards() -> list[GameRecord]:
    out = []
    for i, s in enumerate(SEVEN):
        out.append(_rec("1", s, ns=f"N{i}", ew=f"E{i}"))
    return out


def _rec(
    board: str, score: int | None, *, ns: str, ew: str, event: str = "Club", room: str | None = None, **kw: object
) -> GameRecord:
    return GameRecord(
        Origin("t.pbn", 1), event=event, board=board, deal=f"deal{board}", ns=ns, ew=ew, score_ns=score, room=room, **kw
    )


def test_matchpoints_both_scales_and_percentages() -> None:
    (ev,) = score_event(seven_boards(), Method.MP)
    (t,) = ev.travellers
    assert t.top == 6 and t.expected is None
    assert [e.ns for e in t.entries] == list(mp(SEVEN))
    assert [e.ew for e in t.entries] == [6 - m for m in mp(SEVEN)]
    assert [fmt_percent(e.pct_ns) for e in t.entries] == ["100.00", "75.00", "75.00", "50.00", "33.33", "16.67", "0.00"]
    (ev2,) = score_event(seven_boards(), Method.MP2)
    assert ev2.travellers[0].top == 12
    assert [e.ns for e in ev2.travellers[0].entries] == list(mp2(SEVEN))
    # Mitchell: N-S and E-W ranked separately; a pair's % is mp / top
    assert [r.title for r in ev.rankings] == ["NS", "EW"]
    assert ev.rankings[0].rows[0].name == "N0" and ev.rankings[0].rows[0].pct == 100
    assert [r.rank for r in ev.rankings[0].rows[:4]] == ["1", "2=", "2=", "4"]


def test_neuberg_for_a_board_played_fewer_times() -> None:
    rs = [_rec("1", s, ns=f"N{i}", ew=f"E{i}") for i, s in enumerate([420, 450, 400, 420])]
    rs += [_rec("2", s, ns=f"N{i}", ew=f"E{i}") for i, s in enumerate([100, -50, 110])]  # played 3 times
    (ev,) = score_event(rs, Method.MP2)
    b1, b2 = ev.travellers
    assert b1.top == 6 and b1.expected is None
    assert b2.top == 6 and b2.expected == 4
    assert [e.ns for e in b2.entries] == [neuberg(m, 3, 4, scale=Scale.MP2) for m in mp2([100, -50, 110])]
    assert any("Neuberg" in n for n in ev.notes)
    (plain,) = score_event(rs, Method.MP2, neuberg=False)
    assert plain.travellers[1].top == 4 and plain.travellers[1].expected is None


def test_artificial_scores_from_a_score_table() -> None:
    view = TableView(
        "ScoreTable",
        ("PairId_NS", "PairId_EW", "Score_NS", "Percentage_NS", "Percentage_EW"),
        (None,) * 5,
        (
            ("1", "11", "420", "?", "?"),
            ("2", "12", "450", "?", "?"),
            ("3", "13", "-", "^60", "^40"),
            ("4", "14", "400", "?", "?"),
        ),
    )
    r = GameRecord(Origin("t.pbn", 1), event="E", board="5", deal="d", tables=(view,))
    (t,) = travellers([r])
    assert t.source == "ScoreTable" and t.size == 4 and t.played == 3
    assert t.entries[2].artificial == (ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS)
    (ev,) = score_event([r], Method.MP)
    s = ev.travellers[0]
    assert s.top == 3  # 4 results on the board: the played three are scaled to its top (Law 12C2)
    assert s.entries[2].ns == artificial_mp(ArtificialScore.AVERAGE_PLUS, 4) == F(9, 5)
    assert s.entries[2].pct_ns == 60 and s.entries[2].pct_ew == 40
    assert [s.entries[i].ns for i in (0, 1, 3)] == [neuberg(m, 3, 4) for m in mp([420, 450, 400])]
    (b,) = score_event([r], Method.BUTLER)
    assert b.travellers[0].entries[2].ns == 3 and artificial_imps(ArtificialScore.AVERAGE_MINUS) == -3


def test_butler_and_cross_imps() -> None:
    scores = [660, 620, 620, 420, 140, -100]  # bridge-rules.md §8.4
    rs = [_rec("1", s, ns=f"N{i}", ew=f"E{i}") for i, s in enumerate(scores)]
    (ev,) = score_event(rs, Method.BUTLER)
    t = ev.travellers[0]
    assert t.datum == 450 and [e.ns for e in t.entries] == list(butler(scores))
    assert ev.rankings[0].rows[0].total == 5
    (cx,) = score_event(rs[:4], Method.CROSS_IMP)
    assert [e.ns for e in cx.travellers[0].entries] == list(cross_imps_average(scores[:4]))


def test_howell_pairs_ranked_together() -> None:
    rs = [
        _rec("1", 420, ns="A", ew="B"),
        _rec("1", 450, ns="C", ew="D"),
        _rec("2", 100, ns="B", ew="C"),
        _rec("2", 110, ns="D", ew="A"),
    ]
    (ev,) = score_event(rs, Method.MP)
    assert [r.title for r in ev.rankings] == ["pairs"]
    assert {row.name: row.pct for row in ev.rankings[0].rows} == {"A": 0, "B": 50, "C": 100, "D": 50}


# --- teams -----------------------------------------------------------------------------------


def test_teams_imps_between_rooms() -> None:
    rs = recs(
        game(1, "5H", "S", 10, Room="Open", HomeTeam="Germany", VisitTeam="Austria"),
        game(1, "4H", "N", 10, Room="Closed", HomeTeam="Germany", VisitTeam="Austria"),
        game(2, "3NT", "N", 9, deal=DEAL2, Room="Open", HomeTeam="Germany", VisitTeam="Austria"),
        game(2, "3NT", "N", 8, deal=DEAL2, Room="Closed", HomeTeam="Germany", VisitTeam="Austria"),
    )
    (ev,) = score_event(rs, Method.IMP)
    # board 1 (none vul): -50 v +420 = -470, 10 IMPs to Austria; board 2 (N-S vul): +600 v -100 = 700, 12 to Germany
    assert [(b.board, b.imps_home) for b in ev.team_boards] == [("1", -10), ("2", 12)]
    rows = {r.name: (r.total, r.against) for r in ev.rankings[0].rows}
    assert rows == {"Germany": (12, 10), "Austria": (10, 12)}
    assert ev.rankings[0].rows[0].name == "Germany"


def test_teams_without_rooms_is_a_note() -> None:
    (ev,) = score_event(recs(game(1, "4S", "N", 10)), Method.IMP)
    assert ev.team_boards == () and "no teams match" in ev.notes[0]


# --- sessions --------------------------------------------------------------------------------

RUBBER = [  # bridge-rules.md §5.14: We = N-S
    (1, "2H", "N", 9, DEAL1),
    (2, "1NT", "E", 7, DEAL1),
    (3, "2S", "N", 8, DEAL1),
    (4, "4SX", "N", 8, DEAL1),
    (5, "4H", "E", 10, DEAL2),  # West holds A K Q J of hearts: 100 honors to They
    (6, "3NT", "N", 10, DEAL1),
]


def rubber_text(extra: str = "", claims: dict[int, str] | None = None, scoring: str = "Rubber") -> str:
    out = []
    for n, c, d, r, deal in RUBBER:
        tags = {"Scoring": scoring}
        if claims and n in claims:
            tags["ScoreRubber"] = claims[n]
        out.append(game(n, c, d, r, deal=deal if n == 5 else "", event="Home", **tags).replace('[Deal ""]\n', ""))
    return "\n".join(out) + extra


def test_rubber_session_walkthrough() -> None:
    text = rubber_text(extra="\n" + game(7, "1NT", "S", 7, event="Home").replace(f'[Deal "{DEAL1}"]\n', ""))
    (ev,) = score_event((record(b) for b in read(io.StringIO(text))), Method.RUBBER)
    s = ev.session
    assert len(s.sheets) == 2
    assert (s.sheets[0].total(Side.NS), s.sheets[0].total(Side.EW)) == (780, 760)  # §5.14: We 780, They 760
    assert s.sheets[1].total(Side.NS) == 140 and not s.sheets[1].finished  # 40 + 100 for the partscore (§5.8)
    assert (s.total_ns, s.total_ew) == (920, 760)
    assert [d.note for d in s.deals[:3]] == ["", "", "game NS"]


def test_chicago_session() -> None:
    # bridge-rules.md §6.4: N-S 690, E-W 630
    text = "\n".join(
        game(n, c, d, r, event="Chicago").replace(f'[Deal "{DEAL1}"]\n', "")
        for n, c, d, r in [(1, "2H", "N", 8), (2, "3NT", "E", 10), (3, "2S", "S", 9), (4, "2C", "N", 8)]
    )
    (ev,) = score_event((record(b) for b in read(io.StringIO(text))), Method.CHICAGO)
    assert (ev.session.total_ns, ev.session.total_ew) == (690, 630)
    assert [d.vulnerable for d in ev.session.deals] == ["None", "EW", "NS", "Both"]


def test_minibridge_session() -> None:
    # each board dealt so that its declarer holds the most HCP of the stronger pair (§7.5:
    # DEAL2's first hand, 26 HCP, given to declarer; issue #18 case 10)
    text = "\n".join(
        game(n, c, d, r, event="Mini", deal=f"{d}:{DEAL2[2:]}")
        for n, c, d, r in [(1, "4S", "N", 10), (2, "1H", "E", 8), (3, "2D", "S", 8), (4, "5C", "W", 10)]
    )
    (ev,) = score_event((record(b) for b in read(io.StringIO(text))), Method.MINIBRIDGE)
    s = ev.session
    # §7.12: game in spades, 10 tricks 420; partscore in hearts, 8 tricks 110; game in clubs one short: 50 to the defenders
    assert [(d.ns, d.ew) for d in s.deals] == [(420, 0), (0, 110), (50, 0)]
    assert (s.total_ns, s.total_ew) == (470, 110)
    assert any("2D is not a minibridge contract" in n for n in ev.notes)


# --- claimed figures -------------------------------------------------------------------------


def test_parse_claim_and_rounding() -> None:
    assert [(p.side, p.value) for p in parse_claim("ScoreIMP", "EW -2.5")] == [("EW", F(-5, 2))]
    assert parse_claim("ScoreMP", "NS 1 NS 2") is None and parse_claim("ScoreMP", "lots") is None
    assert (
        agrees(F("97.3"), 1, F(9730, 100))
        and agrees(F("33.33"), 2, F(100, 3))
        and not agrees(F("33.3"), 1, F(3335, 100) + F(1, 100))
    )


def four_tables(**claims: str) -> list[str]:
    """Board 1 at four tables: N-S +420, +450, +420, -50 (1/0.5 MP 1.5, 3, 1.5, 0)."""
    out = []
    for i, (c, r) in enumerate([("4S", 10), ("4S", 11), ("4S", 10), ("4S", 9)]):
        out.append(game(1, c, "N", r, PairNS=str(i + 1), PairEW=str(i + 11), **({} if i else claims)))
    return out


def test_score_mp_checked_on_the_2_1_scale() -> None:
    assert diags(*four_tables(ScoreMP="NS 3 EW 3")) == []  # 2/1 scale (PBN MP1): 3 of 6
    assert diags(*four_tables(ScoreMP="NS 1.5")) == []  # 1/0.5: accepted when Scoring does not say
    assert diags(*four_tables(ScoreMP="NS 4")) == [
        "ScoreMP NS 4 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3"
    ]
    assert diags(*four_tables(ScoreMP="NS 1.5", Scoring="MP;MP1")) == [
        "ScoreMP NS 1.5 but matchpointing the 4 results of board 1 on the 2/1 scale gives NS 3"
    ]
    assert diags(*four_tables(ScoreMP="1.5", Scoring="MP;MP2")) == []


def test_score_percentage() -> None:
    assert diags(*four_tables(ScorePercentage="NS 50 EW 50.0")) == []
    assert diags(*four_tables(ScorePercentage="EW 40")) == [
        "ScorePercentage EW 40 but matchpointing the 4 results of board 1 gives EW 50.00"
    ]


def test_score_imp_teams_butler_cross() -> None:
    open_ = game(1, "5H", "S", 10, Room="Open", HomeTeam="G", VisitTeam="A", ScoreIMP="NS -10 EW 10")
    closed = game(1, "4H", "N", 10, Room="Closed", HomeTeam="G", VisitTeam="A", ScoreIMP="NS 11")
    assert diags(open_, closed) == ["ScoreIMP NS 11 but NS 420 against NS -50 in the Open room gives NS 10"]
    # Butler: datum of 420 450 420 -50 without top and bottom = 420
    assert diags(*four_tables(ScoreIMP="NS 0", Scoring="IMP;Butler")) == []
    assert diags(*four_tables(ScoreIMP="NS 2", Scoring="IMP;Butler")) != []
    # Cross2: 420 v 450, 420, -50 = -1 + 0 + 10 = 9 over 3 comparisons
    assert diags(*four_tables(ScoreIMP="NS 3", Scoring="IMP;Cross2")) == []
    assert diags(*four_tables(ScoreIMP="NS 9", Scoring="IMP;Cross")) == []
    assert diags(*four_tables(ScoreIMP="NS 9", Scoring="IMP;Cross2")) == [
        "ScoreIMP NS 9 but scoring Cross2 IMPs against the 3 other results of board 1 gives NS 3"
    ]
    assert diags(*four_tables(ScoreIMP="NS 9", Scoring="IMP")) == []  # method unknown: not checked


def test_unreadable_claim_and_single_results() -> None:
    assert codes(game(1, "4S", "N", 10, ScoreMP="lots")) == ["S609"]
    assert codes(game(1, "4S", "N", 10, ScoreMP="NS 7", ScorePercentage="NS 3")) == []  # played once: not checked


def test_score_rubber_sequence() -> None:
    good = {1: "NS 30/60", 2: "EW 0/40", 4: "EW 500/0", 5: "EW 100/120", 6: "530/100"}
    assert diags(rubber_text(claims=good)) == []
    bad = {**good, 6: "NS 30/100"}
    assert diags(rubber_text(claims=bad)) == [
        "ScoreRubber NS 30/100 but deal 6 of the rubber (3NT by N, 10 tricks) scores NS 530/100 (above/below the line)"
    ]


def test_checker_positions_and_reset() -> None:
    checker = EventChecker()
    for b in read(io.StringIO("\n".join(four_tables(ScoreMP="NS 5")))):
        checker.add(b)
    (d,) = checker.finish()
    assert (d.code, d.line, d.board) == ("S603", 9, 0)
    assert checker.finish() == []


# --- tables ----------------------------------------------------------------------------------


def score_table(
    rows: list[tuple[str, ...]], columns: tuple[str, ...], sort: tuple[str | None, ...] | None = None
) -> TableView:
    return TableView("ScoreTable", columns, sort or (None,) * len(columns), tuple(rows), (), Span(3, 1))


def table_record(*views: TableView, scoring: str = "", event: str = "E", board: str = "1") -> GameRecord:
    return GameRecord(
        Origin("t.pbn", 10),
        event=event,
        board=board,
        deal="d",
        vulnerable=Vulnerability.NONE,
        scoring=scoring,
        tables=views,
    )


def messages(*recs_: GameRecord) -> list[str]:
    return [d.message for d in check_event(list(recs_))]


COLS = (
    "Rank",
    "PairId_NS",
    "PairId_EW",
    "Contract",
    "Declarer",
    "Result",
    "Score_NS",
    "Score_EW",
    "MP_NS",
    "MP_EW",
    "Percentage_NS",
    "Percentage_EW",
)


def test_score_table_consistent() -> None:
    rows = [
        ("1", "2", "12", "4S", "N", "11", "450", "-450", "6", "0", "100.00", "0.00"),
        ("2", "1", "11", "4S", "N", "10", "420", "-420", "3", "3", "50.00", "50.00"),
        ("2", "3", "13", "4S", "N", "10", "420", "-420", "3", "3", "50.00", "50.00"),
        ("4", "4", "14", "4S", "N", "9", "-50", "50", "0", "6", "0", "100"),
    ]
    assert messages(table_record(score_table(rows, COLS))) == []
    # the same figures on the 1/0.5 scale are also accepted when Scoring does not name one
    half = [r[:8] + (fmt_number(F(r[8]) / 2), fmt_number(F(r[9]) / 2)) + r[10:] for r in rows]
    assert messages(table_record(score_table(half, COLS))) == []
    assert len(messages(table_record(score_table(half, COLS), scoring="MP;MP1"))) == 6


def test_score_table_faults() -> None:
    rows = [
        ("1", "2", "12", "4S", "N", "11", "480", "-450", "6", "0", "100.00", "0.00"),  # 4S+1 is 450
        ("3", "1", "11", "4S", "N", "10", "420", "420", "3", "3", "50.00", "50.00"),  # Rank 2=, EW sign
        ("2", "3", "13", "4S", "N", "10", "420", "-420", "4", "2", "50.00", "50.00"),  # MP
        ("4", "4", "14", "4S", "N", "9", "-50", "50", "0", "6", "10", "90"),  # %
    ]
    assert messages(table_record(score_table(rows, COLS))) == [
        "ScoreTable row 1 Score_NS 480 but 4S by N taking 11 tricks (None vulnerable) gives 450",
        "ScoreTable row 2 Score_EW 420 but the N-S score gives -420",
        "ScoreTable row 2 Rank 3 but N-S 420 among the 4 results of the table gives 2",
        "ScoreTable row 3 MP_NS 4 but matchpointing the 4 results of the table on the 2/1 scale gives 3",
        "ScoreTable row 3 MP_EW 2 but matchpointing the 4 results of the table on the 2/1 scale gives 3",
        "ScoreTable row 4 Percentage_NS 10 but 100 * MP / top over the 4 results of the table gives 0.00",
        "ScoreTable row 4 Percentage_EW 90 but 100 * MP / top over the 4 results of the table gives 100.00",
    ]


def test_score_table_partial_and_subset() -> None:
    cols = ("Rank", "Percentage_NS", "Score_NS", "Multiplicity")
    full = score_table(
        [("1", "100", "500", "1"), ("2", "78.57", "470", "2"), ("4", "35.71", "450", "4"), ("8", "0", "100", "1")], cols
    )
    # a subset of the full table: its rows are compared with the full traveller (top 7)
    subset = score_table([("1", "100", "500", "1"), ("2", "78.57", "470", "2")], cols)
    partial = score_table([("1", "99", "500", "1"), ("9", "1", "100", "1")], cols)  # rank 9 of 2 rows: incomplete
    assert messages(table_record(full), table_record(subset)) == []
    assert messages(table_record(partial, board="2")) == []


def test_score_table_nonstandard_percentage_is_explained() -> None:
    # 3 results 500, 470, 450: standard 100 / 50 / 0; (MP + 1/2) / n: 83.33 / 50 / 16.67
    cols = ("Score_NS", "Percentage_NS")
    (m,) = messages(table_record(score_table([("500", "83.33"), ("470", "50"), ("450", "0")], cols)))
    assert m == (  # S611, a warning: the figure follows a known formula, not the standard one
        "ScoreTable row 1 Percentage_NS 83.33 is 100 * (MP + 1/2) / n = 83.33, not 100 * MP / top over the 3 results"
        " of the table (100.00)"
    )
    (d,) = check_event([table_record(score_table([("500", "83.33"), ("470", "50"), ("450", "0")], cols))])
    assert (d.code, d.severity.name) == ("S611", "WARNING")
    (d,) = check_event([table_record(score_table([("500", "90"), ("470", "50"), ("450", "0")], cols))])
    assert (d.code, d.severity.name) == ("S607", "ERROR")  # neither formula: an error


def test_score_table_butler_imps() -> None:
    cols = ("Score_NS", "IMP_NS", "IMP_EW")
    rows = [
        ("660", "5", "-5"),
        ("620", "5", "-5"),
        ("620", "5", "-5"),
        ("420", "-1", "1"),
        ("140", "-7", "7"),
        ("-100", "-11", "11"),
    ]
    assert messages(table_record(score_table(rows, cols), scoring="IMP;Butler")) == []
    rows[3] = ("420", "-2", "2")
    assert len(messages(table_record(score_table(rows, cols), scoring="IMP;Butler"))) == 2


def total_table(rows: list[tuple[str, ...]], columns: tuple[str, ...], sort: tuple[str | None, ...]) -> TableView:
    return TableView("TotalScoreTable", columns, sort, tuple(rows), (), Span(20, 1))


def test_total_score_table_consistency() -> None:
    cols = ("Rank", "PairId", "NrBoards", "TotalMP", "TotalPercentage", "MeanMP")
    sort = ("-", None, None, None, None, None)
    rows = [
        ("1", "7", "20", "1449.8", "72.49", "72.49"),
        ("2", "9", "6", "2393.1", "70.38", "398.85"),  # NrBoards does not fit
        ("3", "4", "20", "1404.0", "70.20", "70.2"),
        ("3", "5", "24", "1624.1", "67.67", "67.67"),  # Rank 4
    ]
    assert messages(table_record(total_table(rows, cols, sort))) == [
        "TotalScoreTable row 2 TotalPercentage 70.38 but 100 * TotalMP 2393.1 / (NrBoards 6 * a top of 100 per board,"
        " as the other rows) gives 398.85, more than 100: NrBoards or TotalMP is wrong",
        "TotalScoreTable row 4 Rank 3 but the order of TotalPercentage 67.67 gives 4",
    ]


def test_total_score_table_against_the_event() -> None:
    rs = [_rec("1", s, ns=f"N{i}", ew=f"E{i}", event="E") for i, s in enumerate([420, 450, 400])]
    cols = ("PairId", "NrBoards", "TotalMP", "TotalPercentage")
    view = total_table([("N1", "1", "4", "100"), ("N0", "2", "2", "50"), ("E2", "1", "3", "50")], cols, (None,) * 4)
    t = GameRecord(Origin("t.pbn", 10), event="E", board="1", deal="deal1", tables=(view,))
    assert messages(*rs, t) == [
        "TotalScoreTable row 2 NrBoards 2 but counting the pair's results in the file gives 1",
        "TotalScoreTable row 3 TotalMP 3 but scoring the pair's 1 board in the file gives 4",
        "TotalScoreTable row 3 TotalPercentage 50 but scoring the pair's 1 board in the file gives 100.00",
    ]


def test_table_view_adapts_the_model_table() -> None:
    t = Table(
        "ScoreTable", (Column("Rank", "-"), Column("Score_NS", "+", 5, "R")), (("1", "420"), ("2", "-50")), Span(4, 1)
    )
    v = table_view(t)
    assert v is not None
    assert (v.name, v.columns, v.sort, v.rows, v.row_span(1)) == (
        "ScoreTable",
        ("Rank", "Score_NS"),
        ("-", "+"),
        (("1", "420"), ("2", "-50")),
        Span(4, 1),
    )
    assert [e.score_ns for e in table_entries(v, Vulnerability.NONE)] == [420, -50]


def test_table_entries_compute_scores_from_contracts() -> None:
    v = score_table([("3NT", "N", "10"), ("4HX", "E", "8"), ("Pass", "-", "-")], ("Contract", "Declarer", "Result"))
    assert [e.score_ns for e in table_entries(v, Vulnerability.EW)] == [430, 500, 0]


# --- output ----------------------------------------------------------------------------------


def test_number_formats() -> None:
    assert [fmt_number(x) for x in (F(3), F(9, 2), F(-22, 3), F(199, 10), F(1, 200))] == [
        "3",
        "4.5",
        "-7.33",
        "19.9",
        "0.01",
    ]
    assert [fmt_percent(x) for x in (F(200, 3), F(0), F(-1, 3))] == ["66.67", "0.00", "-0.33"]


def test_render_formats() -> None:
    evs = score_event(seven_boards(), Method.MP)
    text = render(evs)
    assert text.splitlines()[:4] == [
        "Club: matchpoints, 1 / 0.5 scale (top = n - 1)",
        "",
        "Board 1: 7 results, top 6",
        "NS  EW  Contract  By  Tricks  Score NS  MP NS  MP EW    % NS    % EW",
    ]
    head = render(evs, "csv")
    assert head.splitlines()[0].startswith("event,method,board,top,room,ns,ew,contract")
    assert len(head.splitlines()) == 1 + 7 and "\n\n" not in head  # one table: header and the 7 results
    rankings = render(evs, "csv", table="rankings")
    assert rankings.splitlines()[0] == "event,ranking,rank,name,boards,total,top,pct,against,names"
    with pytest.raises(ValueError):
        render(evs, "csv", table="boards")
    with pytest.raises(ValueError):
        render(evs, "xml")
    doc = json.loads(render(evs, "json"))
    assert doc["method"] == "mp" and doc["events"][0]["travellers"][0]["entries"][1]["mp_ns"] == 4.5


def test_traveller_defaults() -> None:
    t = Traveller("E", "1", None, ())
    assert (t.size, t.played, t.scores()) == (0, 0, [])
    assert Contract.parse("4S").level == 4  # sanity: model import used by the texts


@pytest.mark.parametrize("method", list(Method))
def test_every_method_renders(method: Method) -> None:
    rs = recs(*four_tables())
    for fmt in ("text", "csv", "json"):
        assert render(score_event(rs, method), fmt)
    assert render(score_event(rs, method), "csv", table="rankings").startswith("event,ranking,")
