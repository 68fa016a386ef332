"""Sessions are keyed by Event and Date (a club's weekly "Monday Pairs" files are one session a
date; an event's dates are sessions apart only when some board number was played with other deals
on other dates, so a session that runs past midnight stays one), fouled boards by deal, dealer and vulnerability (Law 87A), event diagnostics at 1-based
positions (a table row's fault at its element), and ``handrec query`` CSV cells of nested
values as JSON text.

Each case: ``handrec score`` (:func:`handrec.events.event_score.score_event`), ``handrec validate``'s event
checks (:mod:`handrec.events.checks`) and the SQL views (:mod:`handrec.dataset.query`) group alike.
"""

from __future__ import annotations

import io
import pickle
from fractions import Fraction
from pathlib import Path

import duckdb
import pytest

from handrec.dataset.query import connect, csv_value, write_csv
from handrec.dataset.score_views import SESSION_DATE_SQL as _SESSION_DATE_SQL
from handrec.diagnostics import CODES, Code, Severity
from handrec.events.checks import check_event, check_pairs
from handrec.events.event_score import score_event
from handrec.events.games import GameRecord, TableView, record, session_date, table_view
from handrec.events.methods import Method
from handrec.events.sessions import group_sessions
from handrec.events.travellers import travellers
from handrec.formats.pbn.reader import parse_pbn_text
from handrec.model import Origin, Span, Table
from handrec.runs.convert import convert

A = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
B = "N:765.432.AKQJ.T98 T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765"  # N and S swapped

#: What handrec.diagnostics should register for S615 (Law 87A); added here while it is not.
S615 = Code(
    "S615",
    Severity.WARNING,
    "board played with a different dealer or vulnerability",
    "board {board} was played with {detail} as in the game at line {other} (a fouled board):"
    " the results of each are scored apart",
    "Law 87A (fouled board); bridge-rules.md §8.3",
    "All games of a board have the same dealer and vulnerability.",
    "board 2 was played with dealer E, not N as in the game at line 12 (a fouled board): the results of each are scored apart",
)


def game(
    table: int,
    result: int,
    *,
    date: str | None = "2026.01.05",
    board: int = 1,
    deal: str = A,
    dealer: str = "N",
    vul: str = "None",
    event: str = "Monday Pairs",
    **tags: str,
) -> str:
    """One game: 4S by N taking ``result`` tricks at ``table`` (pairs N<t>-S<t>, E<t>-W<t>).
    Lines: Event, Date (when given), Board, Dealer, Vulnerable, Deal, players, result, ``tags``."""
    lines = [f'[Event "{event}"]']
    if date is not None:
        lines.append(f'[Date "{date}"]')
    lines += [f'[Board "{board}"]', f'[Dealer "{dealer}"]', f'[Vulnerable "{vul}"]', f'[Deal "{deal}"]']
    lines += [f'[North "N{table}"]', f'[South "S{table}"]', f'[East "E{table}"]', f'[West "W{table}"]']
    lines += ['[Contract "4S"]', '[Declarer "N"]', f'[Result "{result}"]']
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n"


def hand(board: int, deal: str, date: str | None = "2026.01.05", event: str = "Monday Pairs") -> str:
    """A hand record of ``board`` (no players, no result): it tells a session's deals, scores nothing."""
    lines = [f'[Event "{event}"]'] + ([f'[Date "{date}"]'] if date is not None else [])
    return "\n".join([*lines, f'[Board "{board}"]', f'[Deal "{deal}"]']) + "\n"


def text(*games: str) -> str:
    return "\n".join(games)


def starts(t: str) -> list[int]:
    """The first line of each game of ``t`` (games are separated by one empty line)."""
    out, start = [], True
    for n, row in enumerate(t.split("\n"), 1):
        if row and start:
            out.append(n)
        start = not row
    return out


def recs(t: str, path: str = "t.pbn") -> list[GameRecord]:
    return [record(b) for b in parse_pbn_text(t, path)]


def diags(t: str) -> list[tuple[str, int, int, str]]:
    """The event checks of ``t``: check_pairs, and check_event the same."""
    rs = recs(t)
    got = [(d.code, d.line, d.column, d.message) for d in check_pairs(rs)]
    assert [(d.code, d.line, d.column, d.message) for d in check_event(rs)] == got
    return got


#: Two Monday Pairs sessions of board 1 at three tables (4S by N, none vulnerable): each week
#: boards 1 and 2 have other deals (board 2 only as a hand record: two board numbers with new
#: deals make a new session, dated.__doc__).
MONDAY_5 = [game(1, 10), game(2, 9), game(3, 11), hand(2, B)]  # 420, -50, 450
MONDAY_12 = [game(t, r, date="2026.01.12", deal=B) for t, r in ((1, 10), (2, 10), (3, 8))] + [
    hand(2, A, "2026.01.12")
]  # 420, 420, -100


# --- 1. a session is Event + Date ---------------------------------------------------------------


def test_score_ranks_each_date_of_an_event_apart() -> None:
    rs = recs(text(*MONDAY_5), "mon-05.pbn") + recs(text(*MONDAY_12), "mon-12.pbn")
    evs = score_event(rs, Method.MP)
    assert [ev.name for ev in evs] == ["Monday Pairs (2026.01.05)", "Monday Pairs (2026.01.12)"]
    first, second = evs
    ((t1,), (t2,)) = first.travellers, second.travellers
    assert (t1.top, t2.top) == (2, 2)  # three results each, not one traveller of six
    assert [(e.entry.score_ns, e.ns) for e in t1.entries] == [(420, 1), (-50, 0), (450, 2)]
    assert [(e.entry.score_ns, e.ns) for e in t2.entries] == [(420, Fraction(3, 2)), (420, Fraction(3, 2)), (-100, 0)]
    ns = {r.name: (r.rank, r.total) for r in second.rankings[0].rows}
    assert ns == {"N1 - S1": ("1=", Fraction(3, 2)), "N2 - S2": ("1=", Fraction(3, 2)), "N3 - S3": ("3", 0)}
    # without -m: the same split (each session by its own tags)
    assert [(ev.name, ev.method) for ev in score_event(rs, None)] == [
        ("Monday Pairs (2026.01.05)", Method.MP),
        ("Monday Pairs (2026.01.12)", Method.MP),
    ]


def test_one_date_keeps_the_event_name_and_a_time_is_not_a_new_session() -> None:
    # BBO exports write each board's time: one session, named as before
    rs = recs(text(game(1, 10, date="2013-11-23 11:22"), game(2, 9, date="2013-11-23 11:47")))
    (ev,) = score_event(rs, Method.MP)
    assert ev.name == "Monday Pairs" and ev.travellers[0].top == 1
    assert [(name, len(g)) for name, g in group_sessions(rs)] == [("Monday Pairs", 2)]


def test_an_undated_game_takes_its_events_only_date() -> None:
    # a game without a Date tag beside games of one date: that session (an unknown date says nothing)
    rs = recs(text(game(1, 10), game(2, 9, date=None)))
    assert [(name, [r.date for r in g]) for name, g in group_sessions(rs)] == [
        ("Monday Pairs", ["2026.01.05", "2026.01.05"])
    ]
    (ev,) = score_event(rs, Method.MP)
    assert [(e.entry.score_ns, e.ns) for e in ev.travellers[0].entries] == [(420, 1), (-50, 0)]
    # beside games of two dates it cannot be told: a session of its own, so named
    week2 = [game(3, 11, date="2026.01.12", deal=B), hand(2, B), hand(2, A, "2026.01.12")]
    rs = recs(text(game(1, 10), game(2, 9, date=None), *week2))
    assert [(name, len(g)) for name, g in group_sessions(rs)] == [
        ("Monday Pairs (2026.01.05)", 2),
        ("Monday Pairs (no Date tag)", 1),
        ("Monday Pairs (2026.01.12)", 2),
    ]
    t = text(game(1, 10), game(2, 9, date=None, deal=B), *week2)
    assert diags(t) == []  # three sessions: no fouled board


def test_sql_views_date_an_undated_game_as_python_does(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.pbn").write_text(text(game(1, 10), game(2, 9, date=None)), encoding="utf-8")
    (src / "b.pbn").write_text(
        text(
            *(
                game(t, 10 - t % 2, date=d, event="Two", deal=x)
                for t, d, x in ((1, "2026.01.05", A), (2, None, A), (3, "2026.02.02", B))
            ),
            hand(2, B, "2026.01.05", "Two"),
            hand(2, A, "2026.02.02", "Two"),
        ),
        encoding="utf-8",
    )
    convert([src], tmp_path / "ds", jobs=1)
    got = connect(tmp_path / "ds").execute("SELECT session, session_date, tables FROM travellers ORDER BY ALL")
    assert got.fetchall() == [
        ("Monday Pairs", "2026.01.05", 2),
        ("Monday Pairs", "2026.01.05", 2),
        ("Two (2026.01.05)", "2026.01.05", 1),
        ("Two (2026.02.02)", "2026.02.02", 1),
        ("Two (no Date tag)", None, 1),
    ]
    names = [ev.name for ev in score_event(recs(Path(src / "b.pbn").read_text("utf-8"), "b.pbn"), Method.MP)]
    assert names == ["Two (2026.01.05)", "Two (no Date tag)", "Two (2026.02.02)"]


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ("2026.01.05", "2026.01.05"),
        (" 2026-01-05 ", "2026.01.05"),
        ("2026/01/05", "2026.01.05"),
        ("2013-11-23 11:22", "2013.11.23"),
        ("????.??.??", ""),
        ("?", ""),
        ("", ""),
        ("14:12", ""),
        ("2015.09.?", "2015.09.?"),
        (" 5 Jan 2026 ", "5 Jan 2026"),
        ("20260105", "20260105"),
    ],
)
def test_session_date_in_python_and_sql(value: str, key: str) -> None:
    assert session_date(value) == key
    sql = f"SELECT {_SESSION_DATE_SQL} FROM (SELECT ? AS date)"
    assert duckdb.connect().execute(sql, [value]).fetchone() == (key or None,)


def test_validate_checks_claims_within_the_session() -> None:
    # ScoreMP on the 2/1 scale among the session's three results: 420 beats -50 -> 2.  With the
    # other date's three results (one event of six) it would be 6, and S603 would be wrong.
    mp = [
        game(1, 10, ScoreMP="NS 2", Scoring="MP1"),
        game(2, 9, ScoreMP="NS 0", Scoring="MP1"),
        game(3, 11, ScoreMP="NS 3", Scoring="MP1"),  # 450 beats both: 4, not 3
    ]
    t = text(*mp, hand(2, B), *MONDAY_12)
    at = starts(t)
    got = [(d.code, d.line, d.column, d.message) for d in check_event(recs(t))]
    assert got == [
        ("S603", at[2] + 13, 1, "ScoreMP NS 3 but matchpointing the 3 results of board 1 on the 2/1 scale gives NS 4"),
    ]


# --- 2. a board number reused on another date is not a fouled board ---------------------------


def test_other_date_other_deal_is_no_fouled_board() -> None:
    t = text(game(1, 10), game(2, 9), game(1, 10, date="2026.01.12", deal=B), game(2, 9, date="2026.01.12", deal=B))
    assert diags(text(t, hand(2, B), hand(2, A, "2026.01.12"))) == []  # boards 1 and 2 new: two sessions


def test_same_date_other_deal_is_s613_at_the_deal_tag() -> None:
    t = text(game(1, 10), game(2, 9), game(3, 10, deal=B))
    at = starts(t)
    assert diags(t) == [
        (
            "S613",
            at[2] + 5,
            1,
            "board 1 was played with a different deal from the game at line 1 (a fouled board):"
            " the results of each deal are scored apart",
        )
    ]


# --- 3. Law 87A: another dealer or vulnerability -------------------------------------------------


@pytest.fixture
def s615(monkeypatch: pytest.MonkeyPatch) -> None:
    """S615 registered (as handrec.diagnostics should register it)."""
    if "S615" not in CODES:
        monkeypatch.setitem(CODES, "S615", S615)


@pytest.mark.usefixtures("s615")
def test_other_dealer_or_vulnerability_is_s615() -> None:
    t = text(
        game(1, 10),
        game(2, 9, dealer="E"),
        game(3, 11, vul="EW"),
        game(4, 10, dealer="E"),  # the same other form again: reported once
        game(5, 10, dealer="S", vul="All"),
    )
    at = starts(t)
    message = (
        "board 1 was played with {} as in the game at line 1 (a fouled board): the results of each are scored apart"
    )
    assert diags(t) == [
        ("S615", at[1] + 3, 1, message.format("dealer E, not N")),
        ("S615", at[2] + 4, 1, message.format("vulnerability EW, not None")),
        ("S615", at[4] + 3, 1, message.format("dealer S and vulnerability All, not N and None")),
    ]


@pytest.mark.usefixtures("s615")
def test_other_form_is_scored_apart() -> None:
    # Law 87B: the results of each form of the board are compared among themselves
    rs = recs(text(game(1, 10), game(2, 9), game(3, 11, vul="NS"), game(4, 10, vul="NS")))
    assert [[r.origin.line for r in (e.record for e in t.entries) if r] for t in travellers(rs)] == [[1, 15], [29, 43]]
    (ev,) = score_event(rs, Method.MP)
    assert [[(e.entry.score_ns, e.ns) for e in t.entries] for t in ev.travellers] == [
        [(420, 1), (-50, 0)],
        [(650, 1), (620, 0)],
    ]
    assert ev.notes[0] == (
        "board 1: 2 travellers, one for each dealer and vulnerability: the board was played with a different"
        " dealer or vulnerability (a fouled board, Law 87A), the results of each are scored apart"
    )


def test_a_board_without_vulnerable_tag_is_the_same_form_as_its_number_says() -> None:
    # board 1 is none vulnerable, dealer North: a copy that leaves the tags out is the same board
    plain = game(2, 9).replace('[Dealer "N"]\n', "").replace('[Vulnerable "None"]\n', "")
    rs = recs(text(game(1, 10), plain))
    assert len(travellers(rs)) == 1 and diags(text(game(1, 10), plain)) == []


# --- 4. positions: 1-based, at the table element ------------------------------------------------


def _table_game(view: TableView) -> GameRecord:
    return GameRecord(Origin("t.pbn", 10), event="E", board="1", number=1, deal=A, vulnerable=None, tables=(view,))


def test_score_table_fault_is_at_its_element() -> None:
    # the parser's positions (a span per element) reach the diagnostic: row 2's Score_NS at 3:9
    from handrec.model import Vulnerability

    table = Table(
        "ScoreTable",
        (),
        (("1", "4S", "N", "10", "420"), ("2", "4S", "N", "10", "400")),
        Span(1, 1),
    )
    cells = ((Span(2, 1), Span(2, 3), Span(2, 6), Span(2, 8), Span(2, 11)),) + (
        (Span(3, 1), Span(3, 3), Span(3, 6), Span(3, 8), Span(3, 11)),
    )

    class Positioned:  # the model's Table with the positions the parser knows
        name, rows, span = table.name, table.rows, table.span
        columns = "PairId_NS;Contract;Declarer;Result;Score_NS"
        cell_spans = cells

    view = table_view(Positioned())
    assert view is not None and view.row_span(1) == Span(3, 1) and view.cell_span(1, "score_ns") == Span(3, 11)
    r = GameRecord(Origin("t.pbn", 10), event="E", board="1", number=1, deal=A, tables=(view,))
    r = GameRecord(**{**{f: getattr(r, f) for f in r.__dataclass_fields__}, "vulnerable": Vulnerability.NONE})
    got = [(d.code, d.line, d.column, d.message) for d in check_event([r])]
    assert got == [
        (
            "S607",
            12,
            11,
            "ScoreTable row 2 Score_NS 400 but 4S by N taking 10 tricks (None vulnerable) gives 420",
        )
    ]


def test_without_positions_a_row_fault_is_at_the_table_tag_or_the_game_column_1() -> None:
    from handrec.model import Vulnerability

    rows = (("1", "4S", "N", "10", "420"), ("2", "4S", "N", "10", "400"))
    cols = ("PairId_NS", "Contract", "Declarer", "Result", "Score_NS")
    for span, where in ((Span(4, 1), (13, 1)), (None, (10, 1))):
        view = TableView("ScoreTable", cols, (None,) * 5, rows, span=span)
        r = GameRecord(
            Origin("t.pbn", 10), event="E", board="1", number=1, deal=A, vulnerable=Vulnerability.NONE, tables=(view,)
        )
        (d,) = check_event([r])
        assert (d.code, d.line, d.column) == ("S607", *where)


def test_total_score_table_fault_is_at_its_element() -> None:
    cols = ("PairId", "TotalMP", "NrBoards", "MeanMP")
    rows = (("1", "10", "4", "2.5"), ("2", "8", "4", "3"))
    cells = tuple(tuple(Span(5 + i, c) for c in (1, 4, 8, 11)) for i in range(2))
    view = TableView("TotalScoreTable", cols, (None,) * 4, rows, span=Span(4, 1), cell_spans=cells)
    r = GameRecord(Origin("t.pbn", 10), event="E", board="1", number=1, deal=A, tables=(view,))
    got = [(d.code, d.line, d.column, d.message) for d in check_event([r])]
    assert got == [("S608", 15, 11, "TotalScoreTable row 2 MeanMP 3 but TotalMP 8 / NrBoards 4 gives 2")]


@pytest.mark.skipif(
    "cell_spans" not in getattr(Table, "__dataclass_fields__", {}),
    reason="needs handrec.model.Table.cell_spans filled by handrec.formats.pbn.reader (the element positions)",
)
def test_score_table_fault_of_a_pbn_file_is_at_its_element() -> None:
    t = game(1, 10).split("[North")[0] + (
        '[ScoreTable "PairId_NS\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\5R"]\n'
        " 1 4S   N 10   420\n"
        " 2 4S   N 10   400\n"
    )
    got = [(d.code, d.line, d.column, d.message) for d in check_event(recs(t))]
    assert got == [
        ("S607", 9, 16, "ScoreTable row 2 Score_NS 400 but 4S by N taking 10 tricks (None vulnerable) gives 420")
    ]


def test_pair_twice_is_at_column_1() -> None:
    t = text(game(1, 10), game(1, 9))
    at = starts(t)
    assert diags(t) == [
        ("S612", at[1], 1, "N-S pair N1 - S1 plays board 1 a second time (also at line 1)"),
        ("S612", at[1], 1, "E-W pair E1 - W1 plays board 1 a second time (also at line 1)"),
    ]


def test_record_pickles_with_its_date_and_positions() -> None:
    (r,) = recs(game(1, 10))
    back = pickle.loads(pickle.dumps(r))
    assert (back.date, back.spans) == ("2026.01.05", (Span(3, 1), Span(6, 1), Span(4, 1), Span(5, 1)))
    assert back.key == r.key and back.span("Dealer") == Span(4, 1)


# --- the SQL views group alike ------------------------------------------------------------------


def test_sql_views_rank_each_session(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "mon-05.pbn").write_text(text(*MONDAY_5), encoding="utf-8")
    (src / "mon-12.pbn").write_text(text(*MONDAY_12), encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    con = connect(tmp_path / "ds")
    got = con.execute(
        "SELECT event, event_name, session_date, session, score_ns, tables, top, mp_ns FROM travellers ORDER BY ALL"
    ).fetchall()
    d5, d12 = "Monday Pairs (2026.01.05)", "Monday Pairs (2026.01.12)"
    assert got == [
        ("Monday Pairs", "Monday Pairs", "2026.01.05", d5, -50, 3, 2, 0.0),
        ("Monday Pairs", "Monday Pairs", "2026.01.05", d5, 420, 3, 2, 1.0),
        ("Monday Pairs", "Monday Pairs", "2026.01.05", d5, 450, 3, 2, 2.0),
        ("Monday Pairs", "Monday Pairs", "2026.01.12", d12, -100, 3, 2, 0.0),
        ("Monday Pairs", "Monday Pairs", "2026.01.12", d12, 420, 3, 2, 1.5),
        ("Monday Pairs", "Monday Pairs", "2026.01.12", d12, 420, 3, 2, 1.5),
    ]
    got = con.execute(
        "SELECT event, event_name, session_date, pair, mp, rank FROM rankings WHERE direction = 'NS' ORDER BY ALL"
    ).fetchall()
    assert got == [
        (d5, "Monday Pairs", "2026.01.05", "N1 - S1", 1.0, 2),
        (d5, "Monday Pairs", "2026.01.05", "N2 - S2", 0.0, 3),
        (d5, "Monday Pairs", "2026.01.05", "N3 - S3", 2.0, 1),
        (d12, "Monday Pairs", "2026.01.12", "N1 - S1", 1.5, 1),
        (d12, "Monday Pairs", "2026.01.12", "N2 - S2", 1.5, 1),
        (d12, "Monday Pairs", "2026.01.12", "N3 - S3", 0.0, 3),
    ]


def test_sql_views_compare_each_form_of_a_fouled_board_apart(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    plain = game(2, 9).replace('[Dealer "N"]\n', "").replace('[Vulnerable "None"]\n', "")  # as its number says
    (src / "f.pbn").write_text(text(game(1, 10), plain, game(3, 11, vul="NS"), game(4, 10, vul="NS")), "utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    got = connect(tmp_path / "ds").execute("SELECT score_ns, tables, mp_ns FROM travellers ORDER BY ALL").fetchall()
    assert got == [(-50, 2, 0.0), (420, 2, 1.0), (620, 2, 0.0), (650, 2, 1.0)]


# --- 5. query CSV: nested values as JSON ------------------------------------------------------


def test_csv_cells_of_struct_and_list_are_json(tmp_path: Path) -> None:
    con = duckdb.connect()
    cur = con.execute(
        "SELECT {'pair': 'A - B', 'mp': [1, 2.5]} AS s, [1, NULL] AS l, map {'k': true} AS m, "
        "[1, 2]::INTEGER[2] AS a, {'d': DATE '2026-01-05', 'x': 1.50::DECIMAL(4, 2)} AS t, 7 AS n, NULL AS z"
    )
    cols = [d[0] for d in cur.description]
    out = io.StringIO()
    write_csv(out, cols, cur.fetchall())
    assert out.getvalue().splitlines() == [
        "s,l,m,a,t,n,z",
        '"{""pair"":""A - B"",""mp"":[1,2.5]}","[1,null]","{""k"":true}","[1,2]","{""d"":""2026-01-05"",""x"":1.5}",7,',
    ]
    assert csv_value(float("nan")) != csv_value([float("nan")])  # a bare NaN stays; inside JSON it is text
    assert csv_value([float("nan"), float("inf")]) == '["nan","inf"]'


def test_query_csv_prints_struct_and_list_as_json(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from handrec.cli import app

    src = tmp_path / "in"
    src.mkdir()
    (src / "mon-05.pbn").write_text(text(*MONDAY_5[:3]), encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    sql = (
        "SELECT {'event': event, 'n': count(*)} AS s, list(score_ns ORDER BY score_ns) AS l FROM boards GROUP BY event"
    )
    r = CliRunner().invoke(app, ["query", str(tmp_path / "ds"), sql, "--format", "csv"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["s,l", '"{""event"":""Monday Pairs"",""n"":3}","[-50,420,450]"']


def test_a_db_file_with_the_old_views_is_rebuilt(tmp_path: Path) -> None:
    """A --db file keeps the views it was built with: one built before sessions were keyed by
    Date is rebuilt by `handrec query DIR --db`, and refused by `handrec query --db` alone."""
    import json

    from handrec.dataset.query import QueryError, connect_db, materialise

    src = tmp_path / "in"
    src.mkdir()
    (src / "mon-05.pbn").write_text(text(*MONDAY_5), encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    db = tmp_path / "q.duckdb"
    assert materialise(tmp_path / "ds", db) is True
    assert materialise(tmp_path / "ds", db) is False
    con = duckdb.connect(str(db))
    (state,) = con.execute("SELECT value FROM handrec_meta WHERE key = 'state'").fetchone()
    old = {k: v for k, v in json.loads(state).items() if k != "views"}  # as an older handrec wrote it
    con.execute("UPDATE handrec_meta SET value = ? WHERE key = 'state'", [json.dumps(old, sort_keys=True)])
    con.close()
    with pytest.raises(QueryError, match="travellers and rankings views are those of another handrec version"):
        connect_db(db)
    assert materialise(tmp_path / "ds", db) is True
    assert connect_db(db).execute("SELECT DISTINCT session FROM travellers").fetchall() == [("Monday Pairs",)]


# --- 6. an event's dates are sessions apart only when they conflict ------------------------------

#: Deals of boards 1-6 (rotations of A: one deal a board number).
_ROT = A[2:].split()
DEALS = {b: "N:" + " ".join(_ROT[(b + i) % 4] for i in range(4)) for b in range(1, 7)}

#: A session past midnight written with a Date on each board (as BBO exports do): boards 1-3 on
#: 2026.01.05, boards 4-6 on 2026.01.06, three tables each (4S by N taking 8-11 tricks), and a
#: fourth table's board 6 without a Date tag (it joins the session: board 6 is played four times,
#: so the others are scaled by Neuberg's formula).
MIDNIGHT = [
    game(t, 8 + (b * t + b) % 4, date="2026.01.05" if b <= 3 else "2026.01.06", board=b, deal=DEALS[b], event="Late")
    for b in range(1, 7)
    for t in (1, 2, 3)
] + [game(4, 9, date=None, board=6, deal=DEALS[6], event="Late")]


def _python_view(rs: list[GameRecord]) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """(session, session date, board, score_ns, tables, top, pct_ns) of each result and
    (session, direction, pair, boards, pct) of each ranking row, as handrec score gives them."""
    from handrec.events.report import fmt_percent

    dates = {name: {r.date for r in g} for name, g in group_sessions(rs)}
    results, ranks = [], []
    for ev in score_event(rs, Method.MP):
        (date,) = dates[ev.name]
        for t in ev.travellers:
            for e in t.entries:
                row = (ev.name, date or None, int(t.traveller.board), e.entry.score_ns, t.traveller.size, t.top)
                results.append((*row, fmt_percent(e.pct_ns)))
        for r in ev.rankings:
            ranks += [(ev.name, r.title, row.name, row.boards, fmt_percent(row.pct)) for row in r.rows]
    return sorted(results), sorted(ranks)


def _sql_view(ds: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The same rows from the SQL views of the dataset ``ds``."""
    con = connect(ds)
    results = con.execute(
        "SELECT session, session_date, board, score_ns, tables, top, pct_ns FROM travellers ORDER BY ALL"
    ).fetchall()
    ranks = con.execute("SELECT event, direction, pair, boards, pct FROM rankings ORDER BY ALL").fetchall()
    return [(*r[:-1], f"{r[-1]:.2f}") for r in results], [(*r[:-1], f"{r[-1]:.2f}") for r in ranks]


def test_a_session_past_midnight_is_one_session_in_score_and_sql(tmp_path: Path) -> None:
    t = text(*MIDNIGHT)
    rs = recs(t, "late.pbn")
    # one session, named by its event, dated with its first date (the undated game too)
    assert [(name, sorted({r.date for r in g}), len(g)) for name, g in group_sessions(rs)] == [
        ("Late", ["2026.01.05"], 19)
    ]
    (ev,) = score_event(rs, Method.MP)
    assert ev.name == "Late" and len(ev.travellers) == 6
    assert {t.traveller.board: t.top for t in ev.travellers} == dict.fromkeys("123456", 3)  # the session's top
    assert [t.expected for t in ev.travellers] == [4, 4, 4, 4, 4, None]  # Neuberg: scaled to 4 results
    src = tmp_path / "in"
    src.mkdir()
    (src / "late.pbn").write_text(t, encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    py, sql = _python_view(rs), _sql_view(tmp_path / "ds")
    assert sql == py  # the same session names, dates, tops and percentages
    assert {r[:2] for r in sql[0]} == {("Late", "2026.01.05")}
    assert {r[0] for r in sql[1]} == {"Late"} and len(sql[1]) == 8  # N-S and E-W: four pairs each


def test_weekly_files_with_other_deals_still_split(tmp_path: Path) -> None:
    # boards 1 and 2 have other deals each week: two sessions, as before
    week1 = [game(t, 9 + t % 3, board=b, deal=DEALS[b]) for b in (1, 2) for t in (1, 2, 3)]
    week2 = [game(t, 8 + t, date="2026.01.12", board=b, deal=DEALS[b + 2]) for b in (1, 2) for t in (1, 2, 3)]
    rs = recs(text(*week1), "mon-05.pbn") + recs(text(*week2), "mon-12.pbn")
    d5, d12 = "Monday Pairs (2026.01.05)", "Monday Pairs (2026.01.12)"
    assert [(name, len(g)) for name, g in group_sessions(rs)] == [(d5, 6), (d12, 6)]
    assert [ev.name for ev in score_event(rs, Method.MP)] == [d5, d12]
    src = tmp_path / "in"
    src.mkdir()
    (src / "mon-05.pbn").write_text(text(*week1), encoding="utf-8")
    (src / "mon-12.pbn").write_text(text(*week2), encoding="utf-8")
    convert([src], tmp_path / "ds", jobs=1)
    py, sql = _python_view(rs), _sql_view(tmp_path / "ds")
    assert sql == py and {r[:2] for r in sql[0]} == {(d5, "2026.01.05"), (d12, "2026.01.12")}
    assert diags(text(*week1, *week2)) == []  # other sessions: no fouled board
    # the same boards replayed the next week (no board number with two deals): one session
    again = [game(t, 8 + t, date="2026.01.12", board=b, deal=DEALS[b]) for b in (1, 2) for t in (4, 5, 6)]
    rs = recs(text(*week1), "mon-05.pbn") + recs(text(*again), "mon-12.pbn")
    assert [(name, len(g)) for name, g in group_sessions(rs)] == [("Monday Pairs", 12)]
    # only board 1 with another deal the next week: one board is a fouled board, not a new session
    one = [game(t, 8 + t, date="2026.01.12", board=b, deal=DEALS[b + 2 * (b == 1)]) for b in (1, 2) for t in (4, 5, 6)]
    rs = recs(text(*week1, *one))
    assert [(name, len(g)) for name, g in group_sessions(rs)] == [("Monday Pairs", 12)]
    assert [d[0] for d in diags(text(*week1, *one))] == ["S613"]


def test_validate_sees_a_session_past_midnight_as_one() -> None:
    # board 3 straddles midnight: tables 1-2 on 2026.01.05, table 3 on 2026.01.06, one deal.
    # One traveller of three results (420 beats -50, not 450: 50%; split by date it would be the
    # top of two results, 100%, and S605), and no fouled board (S613) anywhere; a copy of board 5
    # with another deal on one date still is one.
    late = [
        game(1, 10, board=3, deal=DEALS[3], ScorePercentage="NS 50"),
        game(2, 9, board=3, deal=DEALS[3], ScorePercentage="NS 0"),
        game(3, 11, date="2026.01.06", board=3, deal=DEALS[3], ScorePercentage="NS 100"),
    ]
    rest = [game(t, 10, date="2026.01.06", board=b, deal=DEALS[b]) for b in (4, 5) for t in (1, 2, 3)]
    t = text(*late, *rest)
    assert diags(t) == [] and diags(text(*MIDNIGHT)) == []
    assert check_event(recs(t)) == []
    fouled = text(*late, *rest, game(4, 10, date="2026.01.06", board=5, deal=DEALS[4]))
    assert [d[0] for d in diags(fouled)] == ["S613"]
